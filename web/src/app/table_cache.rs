//! The tables being recorded play by play, kept folded between requests.
//!
//! Why: a table's hand in play is the fold of its every event, each replayed with the
//! adjudication's watchers; folding it again for each recorded action made recording an action
//! cost the whole hand so far. A folded table is kept here with where the streams it was folded
//! from stood ([`Fingerprint`]); a request checks that nothing has moved since (a handful of
//! indexed reads) and decides on the kept state, and the decision's own replay is installed in
//! it after the append (`referee::table::Table::apply_decision`), so an action is decided and
//! applied once. Anything else — a restart, another writer, a conflict, a refused append — finds
//! a stream moved, or the entry forgotten, and the table is folded afresh from the ledger.

use std::collections::{HashMap, VecDeque};

use ledger::Ledger;
use readmodel::Reads;

use super::error::AppError;
use super::table::{Fingerprint, TableContext};

/// How many tables are kept: a club's tables recording at once, with room.
pub const KEPT: usize = 512;

/// The kept tables, the least recently used forgotten first.
#[derive(Default)]
pub struct TableCache {
    tables: HashMap<String, TableContext>,
    order: VecDeque<String>,
    /// How many times a table was folded afresh.
    folds: u64,
}

impl TableCache {
    /// Table `table` as the ledger has it now: the kept fold when no stream it was folded from
    /// has moved, else folded afresh (and kept).
    pub fn load(&mut self, ledger: &Ledger, table: &str) -> Result<&mut TableContext, AppError> {
        let fresh = match self.tables.get(table) {
            Some(kept) => Fingerprint::now(ledger, &kept.table)? != kept.folded_from,
            None => true,
        };
        if fresh {
            let ctx = TableContext::load(ledger, table)?;
            self.folds += 1;
            self.keep(table, ctx);
        } else {
            self.touch(table);
        }
        self.tables
            .get_mut(table)
            .ok_or_else(|| AppError::internal(format!("table `{table}` was not kept")))
    }

    /// Forgets `table`: its next request folds it afresh.
    pub fn forget(&mut self, table: &str) {
        self.tables.remove(table);
        self.order.retain(|t| t != table);
    }

    fn keep(&mut self, table: &str, ctx: TableContext) {
        self.forget(table);
        while self.tables.len() >= KEPT {
            match self.order.pop_front() {
                Some(oldest) => {
                    self.tables.remove(&oldest);
                }
                None => break,
            }
        }
        self.tables.insert(table.to_owned(), ctx);
        self.order.push_back(table.to_owned());
    }

    fn touch(&mut self, table: &str) {
        if self.order.back().map(String::as_str) != Some(table) {
            self.order.retain(|t| t != table);
            self.order.push_back(table.to_owned());
        }
    }

    /// How many times a table was folded afresh from the ledger (the others were kept).
    pub fn folds(&self) -> u64 {
        self.folds
    }

    /// How many tables are kept.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }
}

/// The hand a stream id names: its table and its place there, from the read model; 404 for a
/// hand the ledger does not have.
pub fn locate(
    ledger: &Ledger,
    hand: &str,
) -> Result<(ledger::StreamId, referee::table::HandKey, String), AppError> {
    let missing = || AppError::not_found(format!("no hand `{hand}`"));
    let stream = ledger::StreamId::hand(hand).map_err(|_| missing())?;
    let record = ledger.hand_record(&stream)?.ok_or_else(missing)?;
    let key = referee::table::HandKey {
        game: record.game,
        hand: record.hand,
    };
    Ok((stream, key, record.table))
}

#[cfg(test)]
mod tests {
    //! Recompute and compare (STYLE.md habit 8): a table recorded action by action through the
    //! cache stands, after every action, exactly as the same table folded afresh from the
    //! ledger.

    use ledger::event::{HandEvent, OfficialRole};
    use ledger::OfficialId;
    use referee::import::mjs;

    use super::*;
    use crate::app::accounts::viewer::Official;
    use crate::app::commands::play::{self, PlayEvent, StartHand};
    use crate::app::commands::tournament::{self, NewPlayer, NewTable, NewTournament};

    fn organiser() -> Official {
        Official {
            id: OfficialId::new("admin").unwrap(),
            name: "admin".into(),
            role: OfficialRole::Organiser,
            is_admin: true,
            csrf: None,
        }
    }

    #[test]
    fn a_table_kept_folded_stands_as_the_ledger_folds_it_after_every_action() {
        let mut ledger = readmodel::open_in_memory().unwrap();
        let by = organiser();
        let new = NewTournament {
            id: Some("t".into()),
            name: "Cache".into(),
            ruleset: Some("code-of-laws".into()),
            limit: Some(1000),
            starting_chips: 2000,
            ..Default::default()
        };
        tournament::create(&mut ledger, &[], &by, &new).unwrap();
        let mut players = Vec::new();
        for n in ["Ann", "Ben", "Cat", "Dan"] {
            let p = NewPlayer {
                id: None,
                name: n.into(),
                substitute: false,
                different_person: false,
            };
            players.push(
                tournament::register_player(&mut ledger, "t", &by, &p)
                    .unwrap()
                    .to_string(),
            );
        }
        let table = tournament::form_table(
            &mut ledger,
            "t",
            &by,
            &NewTable {
                players,
                ..Default::default()
            },
        )
        .unwrap();
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../fixtures/mj-server/seed-7/hand-01.mjs"
        ))
        .unwrap();
        let robot = mjs::read(&text, table.clone(), 1, 1).unwrap();
        let mut tables = TableCache::default();
        let hand = format!("{table}-g1-h1");
        let start = StartHand {
            hand: hand.clone(),
            dice: Vec::new(),
            deal: robot.started.deal.clone(),
        };
        let mut version = play::start(&mut ledger, &mut tables, table.as_str(), &by, &start)
            .unwrap()
            .version;
        let (mut actions, mut laid) = (Vec::new(), Vec::new());
        for (_, e) in robot.events {
            match e {
                HandEvent::HandExposed(x) => laid.push(x),
                e => actions.push(e),
            }
        }
        let last = actions.len() - 1;
        for (i, e) in actions.into_iter().enumerate() {
            let cmd = PlayEvent {
                version,
                event: ledger::Event::from(e),
                seat: None,
                laid_down: if i == last { laid.clone() } else { Vec::new() },
            };
            version = play::record(&mut ledger, &mut tables, &hand, &by, &cmd)
                .unwrap()
                .version;
            let fresh = TableContext::load(&ledger, table.as_str()).unwrap();
            if i < last {
                // Folded once, at the first action; every later one decided on the kept table.
                assert_eq!(tables.folds(), 1, "after action {i}");
            }
            let kept = tables.load(&ledger, table.as_str()).unwrap();
            assert_eq!(kept.state, fresh.state, "after action {i}");
            assert_eq!(kept.folded_from, fresh.folded_from, "after action {i}");
        }
        // The hand ended: the table's last hand is settled, and nothing is in play.
        assert!(tables
            .load(&ledger, table.as_str())
            .unwrap()
            .state
            .in_play()
            .is_none());
    }
}
