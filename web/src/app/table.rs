//! A table loaded for deciding and showing: its row, its playing conditions, and the referee's
//! table aggregate folded from the table's and its hands' events.
//!
//! Pages and commands both read a table through here, so the position a page shows as "next"
//! is the one a command will record, and neither holds a rule of the game: who deals, which
//! wind prevails, what a hand scores are the referee's (`referee::table`).

use ledger::event::{Deal, HandStarted};
use ledger::{Ledger, StreamId, TableId};
use readmodel::{Reads, TableRow};
use referee::table::{Conditions, Decided, HandKey, Table};

use crate::app::error::AppError;
use crate::rules::{self, RulesetSource};

/// A table with everything needed to decide a command at it.
pub struct TableContext {
    pub table: TableRow,
    pub conditions: Conditions,
    /// The aggregate, folded from every event of the table and its hands.
    pub state: Table,
    /// The version of the table's own stream the state was folded at.
    pub table_version: u64,
    /// What the state was folded from, for telling later whether it still stands
    /// ([`Fingerprint`]).
    pub folded_from: Fingerprint,
}

/// Where each stream a table's state (focused on its last hand) is folded from stood: the
/// tournament's stream (the table's status), the table's own, the hands of its last game as
/// the read model has them (their ends make the rotation), and the hand in play's stream. When
/// none has moved, a state folded earlier is the state the ledger gives now.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fingerprint {
    pub tournament: u64,
    pub table: u64,
    pub positions: Vec<readmodel::HandPosition>,
    /// The hand in play's stream and its version.
    pub in_play: Option<(String, u64)>,
}

impl Fingerprint {
    /// Where the streams of `table` (its tournament's `tournament`) stand now.
    pub fn now(ledger: &Ledger, table: &TableRow) -> Result<Fingerprint, AppError> {
        let positions = last_game(ledger, &table.table)?;
        let in_play = match positions.last().filter(|r| !r.settled) {
            Some(r) => {
                let stream: StreamId = r.stream.parse().map_err(|e| {
                    AppError::internal(format!("hand stream of `{}`: {e}", table.table))
                })?;
                Some((r.stream.clone(), ledger.stream_version(&stream)?))
            }
            None => None,
        };
        Ok(Fingerprint {
            tournament: ledger.stream_version(&table.tournament)?,
            table: ledger.stream_version(&StreamId::table(table.table.as_str())?)?,
            positions,
            in_play,
        })
    }
}

/// The hands of `table`'s last game, as the read model has them.
fn last_game(ledger: &Ledger, table: &TableId) -> Result<Vec<readmodel::HandPosition>, AppError> {
    Ok(match ledger.last_hand(table)? {
        Some(last) => ledger.game_positions(table, last.game, false)?,
        None => Vec::new(),
    })
}

/// Which hand a command needs in full (its facts and settlement, or its play); the other hands
/// of its game are restored from the read model by their start and result, which is all the
/// rotation needs, and earlier games are not read at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// The last hand (recording the next one, or the next event of the hand in play; showing
    /// the table). It is folded in full only while it is in play.
    Last,
    /// One hand (correcting it).
    Hand(HandKey),
    /// No hand in full: where the table stands and who deals next, for an overview of many
    /// tables (the director's dashboard). A hand in play is restored unfinished.
    Outline,
}

/// The conditions the tables of `tournament` play under: its ruleset (built in, or its house
/// text) with its limit, and its starting chips.
pub fn conditions_of(tournament: &referee::tournament::Tournament) -> Result<Conditions, AppError> {
    let config = tournament.conditions.clone().ok_or_else(|| {
        AppError::unprocessable("the tournament has no ruleset recorded; it cannot be scored")
    })?;
    let source = match &config.house_ruleset {
        Some(text) => RulesetSource::House(text.clone()),
        None => RulesetSource::BuiltIn(config.ruleset.name.clone()),
    };
    let loaded = rules::load_ruleset(source)?.with_limit(config.limit);
    Ok(Conditions {
        ruleset: loaded.into_ruleset(),
        ruleset_ref: config.ruleset,
        starting_chips: config.starting_chips,
    })
}

impl TableContext {
    /// The table with its last hand in full.
    pub fn load(ledger: &Ledger, table: &str) -> Result<TableContext, AppError> {
        TableContext::load_focused(ledger, table, Focus::Last)
    }

    pub fn load_focused(
        ledger: &Ledger,
        table: &str,
        focus: Focus,
    ) -> Result<TableContext, AppError> {
        let missing = || AppError::not_found(format!("no table `{table}`"));
        let id = TableId::new(table).map_err(|_| missing())?;
        let row = ledger.table(&id)?.ok_or_else(missing)?;
        // The tournament's conditions and the table's status are the tournament aggregate's.
        let loaded = crate::app::tournament::load_stream(ledger, row.tournament.clone())?;
        let conditions = conditions_of(&loaded.state)?;
        TableContext::load_in(ledger, row, &loaded, conditions, focus)
    }

    /// [`TableContext::load_focused`], its tournament already loaded (`tournament`) with its
    /// conditions: for many tables of one tournament at once.
    pub fn load_in(
        ledger: &Ledger,
        row: readmodel::TableRow,
        tournament: &crate::app::tournament::Loaded,
        conditions: Conditions,
        focus: Focus,
    ) -> Result<TableContext, AppError> {
        let id = row.table.clone();
        let table = id.as_str();
        let tournament_version = tournament.version;
        let tournament = &tournament.state;
        let entry = tournament.table(&id).ok_or_else(|| {
            AppError::internal(format!("table `{table}` is not its tournament's"))
        })?;
        let mut state = Table::new(id.clone(), entry.seats.is_some(), &conditions.ruleset);
        state.status = tournament.table_status(&id).unwrap_or_default();
        let fold = |state: &mut Table, decided: Decided, event_id| {
            state
                .apply(event_id, &decided)
                .map_err(|e| AppError::internal(format!("table `{table}`: {e}")))
        };
        let mut table_version = 0;
        for e in ledger.read_stream(&StreamId::table(id.as_str())?, 1)? {
            table_version = e.version;
            if let Ok(t) = e.event.try_into() {
                fold(&mut state, Decided::Table(t), e.event_id)?;
            }
        }
        // The rotation of a game starts afresh with it (Code §13–14), so the game in question
        // is all the aggregate needs: the last game to record the next hand, the corrected
        // hand's game (and the hand after it) to correct one. A hand is folded from its events
        // only when its facts or its play are needed: the corrected hand, or a last hand still
        // in play; the others are restored from where they stood and how they ended.
        let records = match focus {
            Focus::Last | Focus::Outline => last_game(ledger, &id)?,
            Focus::Hand(key) => ledger.game_positions(&id, key.game, true)?,
        };
        let mut folded_from = Fingerprint {
            tournament: tournament_version,
            table: 0,
            positions: records.clone(),
            in_play: None,
        };
        let last = records.last().map(|r| HandKey {
            game: r.game,
            hand: r.hand,
        });
        for record in records {
            let key = HandKey {
                game: record.game,
                hand: record.hand,
            };
            let end = record.end();
            let full = match focus {
                Focus::Last => Some(key) == last && !record.settled,
                Focus::Hand(k) => k == key,
                Focus::Outline => false,
            };
            if !full {
                let started = HandStarted {
                    table: id.clone(),
                    game: record.game,
                    hand: record.hand,
                    east: record.east,
                    prevailing_wind: record.prevailing_wind,
                    dice: Vec::new(),
                    deal: Deal::Unknown,
                };
                state
                    .restore(key, &started, end)
                    .map_err(|e| AppError::internal(format!("table `{table}`: {e}")))?;
                continue;
            }
            let stream: StreamId = record
                .stream
                .parse()
                .map_err(|e| AppError::internal(format!("hand stream of `{table}`: {e}")))?;
            let mut version = 0;
            for e in ledger.read_stream(&stream, 1)? {
                version = e.version;
                if let Ok(h) = e.event.try_into() {
                    fold(&mut state, Decided::Hand(key, h), e.event_id)?;
                }
            }
            if !record.settled {
                folded_from.in_play = Some((record.stream.clone(), version));
            }
        }
        folded_from.table = table_version;
        Ok(TableContext {
            table: row,
            conditions,
            state,
            table_version,
            folded_from,
        })
    }

    /// The id of the next hand at this table.
    pub fn next_hand_id(&self) -> String {
        self.state.next_hand_id()
    }
}
