//! Who may see what of a tournament: one function of its state, asked by every page, API read,
//! export, chart and audit listing before it shows anything.
//!
//! The public does not see a voided tournament, a voided table or its hands, or a voided player;
//! nor the results of a session still in play — its hands, and their part of the standings —
//! until the session is closed (so that no one plays to the standings). Officials see
//! everything, marked (the ledger keeps everything).

use crate::ids::{PlayerId, TableId};

use super::Tournament;

/// Who is looking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Anyone, not logged in.
    Public,
    /// A logged-in official: sees everything, voided things marked.
    Officials,
}

/// Why something is out of the public's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hidden {
    /// The tournament was voided, with the reason.
    TournamentVoided(String),
    /// The table was voided, with the reason.
    TableVoided(String),
    /// The player was voided, with the reason.
    PlayerVoided(String),
    /// The table plays in this session, still open: its results are shown when it closes.
    SessionInPlay(u32),
}

impl std::fmt::Display for Hidden {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Hidden::TournamentVoided(r) => write!(f, "its tournament is voided: {r}"),
            Hidden::TableVoided(r) | Hidden::PlayerVoided(r) => write!(f, "voided: {r}"),
            Hidden::SessionInPlay(n) => write!(
                f,
                "its session {n} is still in play: results are shown when it closes"
            ),
        }
    }
}

impl Tournament {
    /// Why `audience` may not see the tournament at all, if it may not.
    pub fn hidden(&self, audience: Audience) -> Option<Hidden> {
        match (audience, &self.voided) {
            (Audience::Public, Some(r)) => Some(Hidden::TournamentVoided(r.clone())),
            _ => None,
        }
    }

    /// Why `audience` may not see table `table` (its page and sheet), if it may not: it or its
    /// tournament is voided.
    pub fn table_hidden(&self, audience: Audience, table: &TableId) -> Option<Hidden> {
        if audience == Audience::Officials {
            return None;
        }
        self.hidden(audience).or_else(|| {
            let voided = self.table(table)?.voided.as_ref()?;
            Some(Hidden::TableVoided(voided.clone()))
        })
    }

    /// Why `audience` may not see the results of table `table` (its hands, their pages, its
    /// chips and next hand), if it may not: the table is hidden, or its session is still open.
    pub fn results_hidden(&self, audience: Audience, table: &TableId) -> Option<Hidden> {
        if audience == Audience::Officials {
            return None;
        }
        self.table_hidden(audience, table)
            .or_else(|| self.open_session_of(table).map(Hidden::SessionInPlay))
    }

    /// Why `audience` may not see the play of table `table` (its hands, their pages and
    /// replays, a hand followed live), if it may not: its results are hidden, unless an
    /// organiser broadcasts it — a featured table's play is open while its session is in play,
    /// its part of the standings still hidden until the session closes.
    pub fn play_hidden(&self, audience: Audience, table: &TableId) -> Option<Hidden> {
        let hidden = self.results_hidden(audience, table)?;
        let broadcast = self.table(table).is_some_and(|t| t.broadcast);
        match hidden {
            Hidden::SessionInPlay(_) if broadcast => None,
            h => Some(h),
        }
    }

    /// Why `audience` may not see player `player`'s page, if it may not: he or the tournament
    /// is voided.
    pub fn player_hidden(&self, audience: Audience, player: &PlayerId) -> Option<Hidden> {
        if audience == Audience::Officials {
            return None;
        }
        self.hidden(audience).or_else(|| {
            let voided = self.player(player)?.voided.as_ref()?;
            Some(Hidden::PlayerVoided(voided.clone()))
        })
    }

    /// The session table `table` plays in, while that session is open (its results hidden
    /// from the public).
    pub fn open_session_of(&self, table: &TableId) -> Option<u32> {
        let session = self.table(table)?.session?;
        self.sessions
            .iter()
            .any(|s| s.number == session && !s.closed)
            .then_some(session)
    }

    /// The sessions whose results `audience` may not see yet: the open ones, for the public.
    pub fn hidden_sessions(&self, audience: Audience) -> Vec<u32> {
        match audience {
            Audience::Officials => Vec::new(),
            Audience::Public => self
                .sessions
                .iter()
                .filter(|s| !s.closed)
                .map(|s| s.number)
                .collect(),
        }
    }

    /// The tables whose results `audience` may not see yet (their sessions are open): for
    /// the lists of hands across tables.
    pub fn tables_with_hidden_results(&self, audience: Audience) -> Vec<&TableId> {
        let hidden = self.hidden_sessions(audience);
        self.tables
            .iter()
            .filter(|t| t.session.is_some_and(|s| hidden.contains(&s)))
            .map(|t| &t.id)
            .collect()
    }
}
