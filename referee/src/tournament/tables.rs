//! Forming a table and drawing its seats (Code §15), closing a table whose play is over, and
//! voiding one formed by mistake.

use crate::event::{
    SeatDrawSeeded, SeatsDrawn, TableClosed, TableFormed, TableVoided, TournamentEvent,
};
use crate::ids::{PlayerId, TableId};
use crate::seat::Seat;
use crate::violation::{Violation, Violations};
use crate::BySeat;

use super::command::{Refusal, SeatDraw};
use super::ranges::TABLE_NUMBER;
use super::{draw, TableEntry, Tournament};

impl Tournament {
    /// The table `id`, or the refusal of a table this tournament does not have.
    pub(super) fn existing_table(&self, id: &TableId) -> Result<&TableEntry, Refusal> {
        self.table(id)
            .ok_or_else(|| Refusal::NotFound(format!("no table `{id}`")))
    }

    /// The id of table `number`.
    pub fn table_id(&self, number: u32) -> Result<TableId, Refusal> {
        TableId::new(&format!("{}-t{number}", self.id))
            .map_err(|e| Refusal::Unprocessable(e.to_string()))
    }

    pub(super) fn decide_table(
        &self,
        number: Option<u32>,
        listed: &[String],
        seat_draw: SeatDraw,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        self.exists()?;
        self.not_voided()?;
        let mut problems = Violations::new();
        if listed.len() != 4 {
            problems.push(Violation::rule(
                "players",
                "Code §15",
                format!("a table seats four players, not {}", listed.len()),
            ));
        }
        let mut players: Vec<PlayerId> = Vec::new();
        for (i, p) in listed.iter().enumerate() {
            let field = format!("players[{i}]");
            let Some(r) = self.players.iter().find(|r| r.id.as_str() == p.trim()) else {
                problems.push(Violation::new(
                    field,
                    format!("`{p}` is not a registered player"),
                ));
                continue;
            };
            if players.contains(&r.id) {
                problems.push(Violation::new(field, format!("{} is listed twice", r.name)));
                continue;
            }
            if let Some(reason) = &r.voided {
                problems.push(Violation::new(
                    field.clone(),
                    format!("{} is voided ({reason})", r.name),
                ));
            }
            if let Some(reason) = &r.withdrawn {
                problems.push(Violation::new(
                    field.clone(),
                    format!("{} has withdrawn ({reason})", r.name),
                ));
            }
            // One open table at a time: the player must leave the other first.
            if let Some(t) = self.seated_at_open_table(&r.id) {
                problems.push(Violation::new(
                    field,
                    format!(
                        "{} already sits at table {} (`{}`), which is open: close or void that table first",
                        r.name, t.number, t.id
                    ),
                ));
            }
            players.push(r.id.clone());
        }
        let number = number.unwrap_or_else(|| self.next_table_number());
        problems.0.extend(TABLE_NUMBER.violation(number));
        if self.tables.iter().any(|t| t.number == number) {
            problems.push(Violation::new(
                "number",
                format!("there is already a table {number}"),
            ));
        }
        let listed: [PlayerId; 4] = match players.try_into() {
            Ok(four) if problems.is_empty() => four,
            _ => return Err(problems.into()),
        };
        let table = self.table_id(number)?;
        // A table formed by hand while a session is open (a replacement, say) plays in it, so
        // its results are hidden from the public with the session's.
        let mut events = vec![TournamentEvent::TableFormed(TableFormed {
            table: table.clone(),
            number,
            session: self.open_session().map(|s| s.number),
        })];
        let seated = match seat_draw {
            SeatDraw::AsListed => listed,
            SeatDraw::Random { seed } => {
                events.push(TournamentEvent::SeatDrawSeeded(SeatDrawSeeded {
                    table: table.clone(),
                    seed,
                    method: draw::METHOD.to_owned(),
                }));
                let order = draw::registration_order(listed, &self.registration_order());
                draw::shuffle(seed, order)
            }
        };
        events.push(TournamentEvent::SeatsDrawn(SeatsDrawn {
            table,
            seats: BySeat::from_fn(|s: Seat| seated[s.index()].clone()),
        }));
        Ok(events)
    }

    pub(super) fn decide_close_table(&self, id: &TableId) -> Result<Vec<TournamentEvent>, Refusal> {
        self.exists()?;
        let table = self.existing_table(id)?;
        self.not_voided()?;
        if let Some(reason) = &table.voided {
            return Err(Refusal::Unprocessable(format!(
                "table `{id}` is voided ({reason}): no hand is recorded there"
            )));
        }
        if table.closed {
            return Err(Refusal::Unprocessable(format!(
                "table `{id}` is closed (its play is over): no hand is recorded there"
            )));
        }
        Ok(vec![TournamentEvent::TableClosed(TableClosed {
            table: id.clone(),
        })])
    }

    pub(super) fn decide_broadcast(
        &self,
        id: &TableId,
        broadcast: bool,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        self.exists()?;
        let table = self.existing_table(id)?;
        self.not_voided()?;
        if let Some(reason) = &table.voided {
            return Err(Refusal::Unprocessable(format!(
                "table `{id}` is voided ({reason}): there is no play to broadcast"
            )));
        }
        if table.broadcast == broadcast {
            return Err(Refusal::Unprocessable(format!(
                "table `{id}` is {} broadcast",
                if broadcast { "already" } else { "not" }
            )));
        }
        Ok(vec![TournamentEvent::TableBroadcast(
            crate::event::TableBroadcast {
                table: id.clone(),
                broadcast,
            },
        )])
    }

    pub(super) fn decide_void_table(
        &self,
        id: &TableId,
        reason: &str,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        self.exists()?;
        let table = self.existing_table(id)?;
        let reason = super::voiding::reason(reason)?;
        self.not_voided()?;
        if let Some(earlier) = &table.voided {
            return Err(Refusal::Unprocessable(format!(
                "table `{id}` is already voided ({earlier})"
            )));
        }
        Ok(vec![TournamentEvent::TableVoided(TableVoided {
            table: id.clone(),
            reason,
        })])
    }
}
