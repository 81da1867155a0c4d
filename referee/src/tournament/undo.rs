//! Undoing a one-tap action of the night: a table closed or a session closed by mistake or too
//! soon is opened again; a voiding is undone. Each is a fact of its own, with who (the
//! recorder) and why; what it undoes stays in the record, so the ledger keeps both.
//!
//! What an undo may not do is leave the tournament in a state no sequence of forward actions
//! could reach: a table is not reopened while its session is closed, nor while one of its
//! players sits at another open table (a player sits at one open table at a time); only the
//! last session is reopened, and only while no other is open. How late an undo may come ("within
//! the evening") is the service's policy, not the tournament's (see the web application's
//! commands).

use crate::event::{SessionReopened, TableReopened, TournamentEvent, VoidingUndone};
use crate::ids::{PlayerId, TableId};

use super::command::{Refusal, VoidTarget};
use super::voiding::reason;
use super::{TableEntry, Tournament};

impl Tournament {
    /// No player of `table` sits at another open table (reopening or unvoiding it would seat
    /// him twice).
    fn players_free(&self, table: &TableEntry) -> Result<(), Refusal> {
        let Some(seats) = &table.seats else {
            return Ok(());
        };
        for (_, p) in seats.iter() {
            if let Some(voided) = self.player(p).and_then(|x| x.voided.as_ref()) {
                let name = self.player(p).map_or(p.as_str(), |x| x.name.as_str());
                return Err(Refusal::Conflict(format!(
                    "{name} was voided since ({voided}): undo that voiding first"
                )));
            }
            if let Some(other) = self
                .tables
                .iter()
                .find(|t| t.id != table.id && t.is_open() && t.seats_player(p))
            {
                let name = self.player(p).map_or(p.as_str(), |x| x.name.as_str());
                return Err(Refusal::Conflict(format!(
                    "{name} now sits at table {} (`{}`), which is open: close that table first",
                    other.number, other.id
                )));
            }
        }
        Ok(())
    }

    pub(super) fn decide_reopen_table(
        &self,
        id: &TableId,
        why: &str,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        self.exists()?;
        let table = self.existing_table(id)?;
        let reason = reason(why)?;
        self.not_voided()?;
        if let Some(voided) = &table.voided {
            return Err(Refusal::Unprocessable(format!(
                "table `{id}` is voided ({voided}): undo the voiding instead"
            )));
        }
        if !table.closed {
            return Err(Refusal::Conflict(format!("table `{id}` is open")));
        }
        if let Some(n) = table.session {
            if self.sessions.iter().any(|s| s.number == n && s.closed) {
                return Err(Refusal::Conflict(format!(
                    "table `{id}` played in session {n}, which is closed: reopen the session first"
                )));
            }
        }
        self.players_free(table)?;
        Ok(vec![TournamentEvent::TableReopened(TableReopened {
            table: id.clone(),
            reason,
        })])
    }

    pub(super) fn decide_reopen_session(
        &self,
        session: u32,
        why: &str,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        self.exists()?;
        let reason = reason(why)?;
        self.not_voided()?;
        let Some(s) = self.sessions.iter().find(|s| s.number == session) else {
            return Err(Refusal::NotFound(format!(
                "tournament `{}` has no session {session}",
                self.id
            )));
        };
        if !s.closed {
            return Err(Refusal::Conflict(format!("session {session} is open")));
        }
        if let Some(open) = self.open_session() {
            return Err(Refusal::Conflict(format!(
                "session {} is open: one session is in play at a time",
                open.number
            )));
        }
        if let Some(later) = self.sessions.iter().find(|s| s.number > session) {
            return Err(Refusal::Conflict(format!(
                "session {} was opened since: only the last session is reopened",
                later.number
            )));
        }
        Ok(vec![TournamentEvent::SessionReopened(SessionReopened {
            session,
            reason,
        })])
    }

    pub(super) fn decide_undo_void(
        &self,
        target: &VoidTarget,
        why: &str,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        self.exists()?;
        let reason = reason(why)?;
        let undone = |table: Option<TableId>, player: Option<PlayerId>| {
            Ok(vec![TournamentEvent::VoidingUndone(VoidingUndone {
                table,
                player,
                reason: reason.clone(),
            })])
        };
        match target {
            VoidTarget::Tournament => match &self.voided {
                Some(_) => undone(None, None),
                None => Err(Refusal::Conflict(format!(
                    "tournament `{}` is not voided",
                    self.id
                ))),
            },
            VoidTarget::Table(id) => {
                self.not_voided()?;
                let table = self.existing_table(id)?;
                if table.voided.is_none() {
                    return Err(Refusal::Conflict(format!("table `{id}` is not voided")));
                }
                if !table.closed {
                    // Back open: as a table reopened, its session must be open and its
                    // players free.
                    if let Some(n) = table.session {
                        if self.sessions.iter().any(|s| s.number == n && s.closed) {
                            return Err(Refusal::Conflict(format!(
                                "table `{id}` played in session {n}, which is closed: reopen the session first"
                            )));
                        }
                    }
                    self.players_free(table)?;
                }
                undone(Some(id.clone()), None)
            }
            VoidTarget::Player(player) => {
                self.not_voided()?;
                let missing =
                    || Refusal::NotFound(format!("no player `{player}` in this tournament"));
                let id = PlayerId::new(player).map_err(|_| missing())?;
                let found = self.player(&id).ok_or_else(missing)?;
                if found.voided.is_none() {
                    return Err(Refusal::Conflict(format!("{} is not voided", found.name)));
                }
                undone(None, Some(id))
            }
        }
    }
}
