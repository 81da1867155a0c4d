//! Re-deciding a tournament's recorded events, as the table's are ([`crate::table::Redecided`]):
//! the command a live write would have given is read back from the events, decided by
//! [`Tournament::decide`], and the record stands only when the decision is exactly what was
//! recorded. A second registration, a session closed twice, anything written into a voided
//! tournament is refused because deciding it refuses it.

use std::collections::BTreeMap;

use crate::event::{OfficialRegistered, SeatDrawSeeded, TournamentEvent};
use crate::ids::PlayerId;

use super::command::{LoadedRuleset, NewPlayer, NewTournament, Refusal, SeatDraw};
use super::{Tournament, TournamentCommand};

/// Each closed session's nets by player, for the seating methods that seat by results.
pub type SessionNets = BTreeMap<u32, BTreeMap<PlayerId, i64>>;

impl Tournament {
    /// Re-decides the events recorded next in the tournament's stream (`recorded`, from the
    /// first not yet decided): the command that makes the first of them and how many it makes,
    /// or why no command does. `nets` are the sessions' results as they stood, for a session
    /// seated by them.
    pub fn redecide(
        &self,
        recorded: &[TournamentEvent],
        nets: &SessionNets,
    ) -> Result<(TournamentCommand, usize), Refusal> {
        let candidates = self.commands_for(recorded, nets);
        if candidates.is_empty() {
            return Err(Refusal::Unprocessable(
                "this event is never recorded on its own: it comes with the command that creates the tournament, forms the table or opens the session".into(),
            ));
        }
        let mut refusal = None;
        for command in candidates {
            match self.decide(&command) {
                Ok(decided) => {
                    let n = decided.len();
                    if recorded.len() >= n && decided[..] == recorded[..n] {
                        return Ok((command, n));
                    }
                    refusal.get_or_insert_with(|| {
                        Refusal::Conflict(format!(
                            "deciding it gives {} event(s) that are not the ones recorded: {}",
                            n,
                            first_difference(&decided, recorded)
                        ))
                    });
                }
                Err(r) => {
                    refusal.get_or_insert(r);
                }
            }
        }
        Err(refusal.unwrap_or_else(|| Refusal::Unprocessable("no command records it".into())))
    }

    /// The commands a live write could have made `recorded` with.
    fn commands_for(
        &self,
        recorded: &[TournamentEvent],
        nets: &SessionNets,
    ) -> Vec<TournamentCommand> {
        use TournamentEvent as E;
        let Some(first) = recorded.first() else {
            return Vec::new();
        };
        let rest = &recorded[1..];
        match first {
            E::TournamentCreated(c) => {
                let Some(E::TournamentConfigured(config)) = rest.first() else {
                    return Vec::new();
                };
                let mut after = &rest[1..];
                let tie_break = match after.first() {
                    Some(E::TieBreakChosen(t)) => {
                        after = &after[1..];
                        Some(t.chain.keys().iter().map(ToString::to_string).collect())
                    }
                    _ => None,
                };
                let officials: Vec<OfficialRegistered> = after
                    .iter()
                    .map_while(|e| match e {
                        E::OfficialRegistered(o) => Some(o.clone()),
                        _ => None,
                    })
                    .collect();
                vec![TournamentCommand::Create(NewTournament {
                    id: Some(self.id.clone()),
                    name: c.name.clone(),
                    ruleset: Ok(LoadedRuleset {
                        pinned: config.ruleset.clone(),
                        title: config.title.clone(),
                        house_ruleset: config.house_ruleset.clone(),
                        limit: config.limit,
                    }),
                    limit: config.limit,
                    starting_chips: config.starting_chips,
                    tie_break,
                    officials,
                })]
            }
            E::OfficialRegistered(o) => vec![TournamentCommand::RegisterOfficial(o.clone())],
            E::PlayerRegistered(_) => {
                let players = recorded
                    .iter()
                    .map_while(|e| match e {
                        E::PlayerRegistered(p) => Some(NewPlayer {
                            id: Some(p.player.to_string()),
                            name: p.name.clone(),
                            substitute: p.substitute,
                            // Recorded: whoever registered a second of a name confirmed it.
                            different_person: true,
                        }),
                        _ => None,
                    })
                    .collect();
                vec![TournamentCommand::RegisterPlayers {
                    players,
                    labels: Vec::new(),
                }]
            }
            E::PlayerWithdrew(w) => vec![TournamentCommand::Withdraw {
                player: w.player.to_string(),
                reason: w.reason.clone(),
            }],
            E::TableFormed(f) => {
                let (draw, seats) = match rest {
                    [E::SeatDrawSeeded(SeatDrawSeeded { seed, .. }), E::SeatsDrawn(s), ..] => {
                        (SeatDraw::Random { seed: *seed }, s)
                    }
                    [E::SeatsDrawn(s), ..] => (SeatDraw::AsListed, s),
                    _ => return Vec::new(),
                };
                vec![TournamentCommand::FormTable {
                    number: Some(f.number),
                    players: seats.seats.iter().map(|(_, p)| p.to_string()).collect(),
                    draw,
                }]
            }
            E::SessionOpened(o) => {
                let Some(seating) = &o.seating else {
                    return Vec::new();
                };
                let open = |sessions| TournamentCommand::OpenSession {
                    method: seating.method.clone(),
                    seed: seating.seed,
                    sessions,
                    minutes: o.minutes,
                    nets: nets.clone(),
                };
                vec![open(Some(seating.plan_sessions)), open(None)]
            }
            E::SessionClosed(c) => vec![TournamentCommand::CloseSession { session: c.session }],
            E::TableClosed(c) => {
                let mut out = vec![TournamentCommand::CloseTable {
                    table: c.table.clone(),
                }];
                // Closing a session closes its open tables first, in the same append.
                if let Some(E::SessionClosed(s)) =
                    recorded.iter().find(|e| !matches!(e, E::TableClosed(_)))
                {
                    out.insert(0, TournamentCommand::CloseSession { session: s.session });
                }
                out
            }
            E::TableBroadcast(b) => vec![TournamentCommand::Broadcast {
                table: b.table.clone(),
                broadcast: b.broadcast,
            }],
            E::TournamentVoided(v) => vec![TournamentCommand::VoidTournament {
                reason: v.reason.clone(),
            }],
            E::TableVoided(v) => vec![TournamentCommand::VoidTable {
                table: v.table.clone(),
                reason: v.reason.clone(),
            }],
            E::PlayerVoided(v) => vec![TournamentCommand::VoidPlayer {
                player: v.player.to_string(),
                reason: v.reason.clone(),
            }],
            E::TableReopened(r) => vec![TournamentCommand::ReopenTable {
                table: r.table.clone(),
                reason: r.reason.clone(),
            }],
            E::SessionReopened(r) => vec![TournamentCommand::ReopenSession {
                session: r.session,
                reason: r.reason.clone(),
            }],
            E::VoidingUndone(u) => vec![TournamentCommand::UndoVoid {
                target: match (&u.table, &u.player) {
                    (Some(table), _) => super::VoidTarget::Table(table.clone()),
                    (None, Some(player)) => super::VoidTarget::Player(player.to_string()),
                    (None, None) => super::VoidTarget::Tournament,
                },
                reason: u.reason.clone(),
            }],
            E::TournamentConfigured(_)
            | E::TieBreakChosen(_)
            | E::SeatDrawSeeded(_)
            | E::SeatsDrawn(_) => Vec::new(),
        }
    }
}

/// The first place the decided events and the recorded ones part.
fn first_difference(decided: &[TournamentEvent], recorded: &[TournamentEvent]) -> String {
    for (i, d) in decided.iter().enumerate() {
        match recorded.get(i) {
            None => {
                return format!(
                    "the record stops before event {} of the decision ({d:?})",
                    i + 1
                )
            }
            Some(r) if r != d => {
                return format!("event {} is recorded as {r:?}, decided as {d:?}", i + 1)
            }
            Some(_) => {}
        }
    }
    "the decision is shorter than the record".into()
}
