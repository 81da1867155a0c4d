//! Recording a finished hand and correcting one.
//!
//! A recorded hand is one append to a new hand stream: `HandStarted` (East and the prevailing
//! wind from the table's rotation, Code §11–14), each `HandExposed`, `MahJonggDeclared` or
//! `WashOut`, `HandScored` (the itemized sheets) and `SettlementRecorded`. The request names the
//! hand it means to record; if that hand is already recorded or is no longer the table's next,
//! the write is a conflict (409) and nothing is written. A correction is one append to the
//! hand's stream at the version the corrector saw: `CorrectionRecorded` superseding the
//! settlement in force, then the corrected facts and a new settlement.

use ledger::event::{
    CorrectionRecorded, GameEnded, GameStarted, HandExposed, HandScored, HandStarted,
    MahJonggDeclared, Penalty, RulesetRef, SettlementRecorded, WashOut, WinContext, WinFrom,
};
use ledger::{
    BySeat, Event, ExpectedVersion, HandRecord, Ledger, NewEvent, StreamId, TableId, TableRow,
};
use referee::{Hand, Wind};
use serde::Deserialize;

use crate::rules::{self, HandInput, LoadedRuleset, RulesetSource};
use crate::server::auth::Official;
use crate::server::error::AppError;
use crate::server::rotation::Position;

/// Each seat's hand in the notation, by seat as drawn; empty or absent when not shown.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatHands {
    #[serde(default)]
    pub east: Option<String>,
    #[serde(default)]
    pub south: Option<String>,
    #[serde(default)]
    pub west: Option<String>,
    #[serde(default)]
    pub north: Option<String>,
}

impl SeatHands {
    pub fn get(&self, seat: Wind) -> Option<&str> {
        match seat {
            Wind::East => self.east.as_deref(),
            Wind::South => self.south.as_deref(),
            Wind::West => self.west.as_deref(),
            Wind::North => self.north.as_deref(),
        }
        .map(str::trim)
        .filter(|s| !s.is_empty())
    }
}

/// What happened in a hand: the hands, the winner (none for a wash-out), how it was won.
// No `deny_unknown_fields` on the three below: serde does not support it with `flatten`.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct HandFacts {
    pub hands: SeatHands,
    /// The winner's seat as drawn; absent for a wash-out.
    #[serde(default)]
    pub winner: Option<Wind>,
    #[serde(default)]
    pub win_from: Option<WinFrom>,
    #[serde(default)]
    pub discarder: Option<Wind>,
    #[serde(default)]
    pub penalties: Vec<Penalty>,
}

/// Record the next hand at a table.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct RecordHand {
    /// The hand being recorded, as the table page names it (`<table>-g1-h3`).
    pub hand: String,
    #[serde(flatten)]
    pub facts: HandFacts,
}

/// Correct a recorded hand.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct CorrectHand {
    /// The hand stream's version the corrector saw (the hand page shows it).
    pub version: u64,
    pub reason: String,
    #[serde(flatten)]
    pub facts: HandFacts,
}

/// A table with everything needed to record at it.
pub struct TableContext {
    pub table: TableRow,
    pub ruleset: LoadedRuleset,
    pub ruleset_ref: RulesetRef,
    pub starting_chips: i64,
    pub last: Option<HandRecord>,
}

impl TableContext {
    pub fn load(ledger: &Ledger, table: &str) -> Result<TableContext, AppError> {
        let missing = || AppError::not_found(format!("no table `{table}`"));
        let id = TableId::new(table).map_err(|_| missing())?;
        let row = ledger.table(&id)?.ok_or_else(missing)?;
        let tournament = ledger
            .tournament(&row.tournament)?
            .ok_or_else(|| AppError::internal("a table's tournament is missing"))?;
        let config = tournament.config.ok_or_else(|| {
            AppError::unprocessable("the tournament has no ruleset recorded; it cannot be scored")
        })?;
        let source = match &config.house_ruleset {
            Some(text) => RulesetSource::House(text.clone()),
            None => RulesetSource::BuiltIn(config.ruleset.name.clone()),
        };
        let ruleset = rules::load_ruleset(source)?.with_limit(config.limit);
        let last = ledger.last_hand(&id)?;
        Ok(TableContext {
            table: row,
            ruleset,
            ruleset_ref: config.ruleset,
            starting_chips: config.starting_chips,
            last,
        })
    }

    /// The position of the next hand to record, and whether the last one ended its game.
    pub fn next(&self) -> (Position, bool) {
        match &self.last {
            None => (Position::FIRST, false),
            Some(last) => Position {
                game: last.game,
                hand: last.hand,
                east: last.east,
                prevailing: last.prevailing_wind,
            }
            .next(last.winner),
        }
    }

    /// The id of the next hand.
    pub fn next_hand_id(&self) -> String {
        self.next().0.hand_id(self.table.table.as_str())
    }
}

/// The facts checked: hands parsed, every problem listed.
struct Checked {
    hands: BySeat<Option<Hand>>,
    win: Option<WinContext>,
    penalties: Vec<Penalty>,
}

fn seat_label(seat: Wind, table: &TableRow) -> String {
    match &table.seats {
        Some(s) => format!("{seat} ({})", s.get(seat)),
        None => seat.to_string(),
    }
}

fn check(facts: &HandFacts, table: &TableRow) -> Result<Checked, AppError> {
    let mut problems = Vec::new();
    let mut hands = BySeat::<Option<Hand>>::default();
    for seat in Wind::ALL {
        let Some(text) = facts.hands.get(seat) else {
            if facts.winner.is_some() {
                problems.push(format!(
                    "{}: the hand is missing (every hand is scored)",
                    seat_label(seat, table)
                ));
            }
            continue;
        };
        match text.parse::<Hand>() {
            Ok(h) => {
                let won = facts.winner == Some(seat);
                if won && h.winning().is_none() {
                    problems.push(format!(
                        "{}: the winner's hand must end with its winning tile, `=tile`",
                        seat_label(seat, table)
                    ));
                }
                if !won && h.winning().is_some() {
                    problems.push(format!(
                        "{}: only the winner's hand has a winning tile (`=`)",
                        seat_label(seat, table)
                    ));
                }
                *hands.get_mut(seat) = Some(h);
            }
            Err(e) => problems.push(format!("{}: {e}", seat_label(seat, table))),
        }
    }
    // The four hands come from one set: at most four of each tile between them.
    let mut all = [0u32; 34];
    for (_, h) in hands.iter() {
        if let Some(h) = h {
            for t in h.concealed().tiles().chain(h.winning()) {
                all[t.index()] += 1;
            }
            for m in h.melds() {
                for t in m.set.tiles() {
                    all[t.index()] += 1;
                }
            }
        }
    }
    for t in referee::Tile::ALL {
        if all[t.index()] > 4 {
            problems.push(format!(
                "the four hands hold {} `{t}` between them; the set has four",
                all[t.index()]
            ));
        }
    }
    let win = match facts.winner {
        None => {
            if facts.discarder.is_some() {
                problems.push("a wash-out has no discarder".to_owned());
            }
            None
        }
        Some(winner) => {
            let from = facts.win_from.unwrap_or_else(|| {
                problems.push("say how the winning tile came (wall, discard, …)".to_owned());
                WinFrom::Wall
            });
            match (from.needs_discarder(), facts.discarder) {
                (true, None) => problems.push(format!(
                    "a win from {from} needs the seat that gave the tile"
                )),
                (true, Some(d)) if d == winner => {
                    problems.push("the winner cannot have given the winning tile".to_owned())
                }
                (false, Some(_)) => problems.push(format!("a win from {from} has no discarder")),
                _ => {}
            }
            let tile = hands.get(winner).as_ref().and_then(Hand::winning);
            tile.map(|tile| WinContext {
                winner,
                tile,
                from,
                discarder: facts.discarder,
            })
        }
    };
    for (i, p) in facts.penalties.iter().enumerate() {
        if p.amount <= 0 || p.amount > 1_000_000 {
            problems.push(format!(
                "penalty {}: the amount must be 1 to 1000000",
                i + 1
            ));
        }
        if p.payee == Some(p.payer) {
            problems.push(format!("penalty {}: a seat cannot pay itself", i + 1));
        }
        if p.reason.trim().is_empty() {
            problems.push(format!("penalty {}: give the reason", i + 1));
        }
    }
    if !problems.is_empty() {
        return Err(AppError::unprocessable(problems.join("; ")));
    }
    Ok(Checked {
        hands,
        win,
        penalties: facts.penalties.clone(),
    })
}

/// The events that state a hand's facts, score and settlement (shared by record and correct).
fn result_events(
    ctx: &TableContext,
    east: Wind,
    prevailing: Wind,
    facts: &HandFacts,
) -> Result<Vec<NewEvent>, AppError> {
    let table = &ctx.table;
    if table.seats.is_none() {
        return Err(AppError::unprocessable(
            "the seats at this table have not been drawn",
        ));
    }
    let checked = check(facts, table)?;
    let input = HandInput {
        east,
        prevailing,
        hands: checked.hands.clone(),
        winner: checked.win.as_ref().map(|w| w.winner),
        win_from: checked.win.as_ref().map_or(WinFrom::Wall, |w| w.from),
        discarder: checked.win.as_ref().and_then(|w| w.discarder),
        penalties: checked.penalties.clone(),
    };
    let result = rules::score_and_settle(&ctx.ruleset, &input)?;
    let mut events = Vec::new();
    for (seat, hand) in checked.hands.iter() {
        if let Some(hand) = hand {
            events.push(NewEvent::new(HandExposed {
                seat,
                hand: hand.clone(),
            }));
        }
    }
    match &checked.win {
        Some(w) => events.push(NewEvent::new(MahJonggDeclared {
            seat: w.winner,
            winning_tile: w.tile,
            self_drawn: w.from.is_drawn(),
        })),
        None => events.push(NewEvent::new(WashOut {
            reason: "no Mah-Jongg before the wall was exhausted (Code §97)".to_owned(),
        })),
    }
    let scores = result
        .sheets
        .map(|s| i64::try_from(s.total).unwrap_or(i64::MAX));
    events.push(NewEvent::new(HandScored {
        ruleset: ctx.ruleset_ref.clone(),
        win: checked.win.clone(),
        penalties: checked.penalties,
        sheets: result.sheets,
    }));
    events.push(NewEvent::new(SettlementRecorded {
        winner: checked.win.map(|w| w.winner),
        scores,
        payments: result.payments,
        nets: result.nets,
    }));
    Ok(events)
}

/// Records the next hand at a table. Returns the hand's stream.
pub fn record(
    ledger: &mut Ledger,
    table: &str,
    by: &Official,
    cmd: &RecordHand,
) -> Result<StreamId, AppError> {
    let ctx = TableContext::load(ledger, table)?;
    let (position, game_ended) = ctx.next();
    let expected = position.hand_id(table);
    if cmd.hand.trim() != expected {
        let already = StreamId::hand(cmd.hand.trim())
            .ok()
            .map(|s| ledger.stream_version(&s))
            .transpose()?
            .unwrap_or(0)
            > 0;
        return Err(AppError::conflict(if already {
            format!(
                "hand `{}` is already recorded (someone else recorded it first); the next hand at this table is `{expected}`: reload and check before recording again",
                cmd.hand.trim()
            )
        } else {
            format!(
                "the next hand at this table is `{expected}`, not `{}`: reload the table page",
                cmd.hand.trim()
            )
        }));
    }
    let hand_stream = StreamId::hand(&expected)?;
    let mut events = vec![NewEvent::new(HandStarted {
        table: ctx.table.table.clone(),
        game: position.game,
        hand: position.hand,
        east: position.east,
        prevailing_wind: position.prevailing,
        dice: Vec::new(),
        deal: ledger::event::Deal::Unknown,
    })];
    events.extend(result_events(
        &ctx,
        position.east,
        position.prevailing,
        &cmd.facts,
    )?);
    start_game_if_needed(ledger, &ctx, position, game_ended, by)?;
    ledger.append(&hand_stream, ExpectedVersion::Exact(0), events, &by.id)?;
    Ok(hand_stream)
}

/// Records `GameStarted` (and `GameEnded` for the game before) in the table's stream.
fn start_game_if_needed(
    ledger: &mut Ledger,
    ctx: &TableContext,
    position: Position,
    game_ended: bool,
    by: &Official,
) -> Result<(), AppError> {
    let stream = StreamId::table(ctx.table.table.as_str())?;
    let events = ledger.read_stream(&stream, 1)?;
    let started = events
        .iter()
        .filter_map(|e| match &e.event {
            Event::GameStarted(g) => Some(g.game),
            _ => None,
        })
        .max();
    if started == Some(position.game) {
        return Ok(());
    }
    let mut new = Vec::new();
    if let (Some(game), true) = (started, game_ended) {
        new.push(NewEvent::new(GameEnded {
            game,
            final_chips: None,
            reason: "four rounds completed (Code §14)".to_owned(),
        }));
    }
    let mut options = std::collections::BTreeMap::new();
    if let Some(limit) = ctx.ruleset.limit {
        options.insert("limit".to_owned(), limit.to_string());
    }
    new.push(NewEvent::new(GameStarted {
        game: position.game,
        ruleset: ctx.ruleset_ref.clone(),
        options,
        starting_chips: ctx.starting_chips,
    }));
    let version = events.len() as u64;
    ledger.append(&stream, ExpectedVersion::Exact(version), new, &by.id)?;
    Ok(())
}

/// Corrects a recorded hand: supersedes its settlement and records the corrected facts.
pub fn correct(
    ledger: &mut Ledger,
    hand: &str,
    by: &Official,
    cmd: &CorrectHand,
) -> Result<StreamId, AppError> {
    let missing = || AppError::not_found(format!("no hand `{hand}`"));
    let stream = StreamId::hand(hand).map_err(|_| missing())?;
    let record = ledger.hand_record(&stream)?.ok_or_else(missing)?;
    if cmd.reason.trim().is_empty() {
        return Err(AppError::unprocessable(
            "say why the hand is corrected (the reason is recorded)",
        ));
    }
    let current = ledger.stream_version(&stream)?;
    if cmd.version != current {
        return Err(AppError::conflict(format!(
            "the hand changed since you loaded it (version {} now, you saw {}): reload and check before correcting",
            current, cmd.version
        )));
    }
    let ctx = TableContext::load(ledger, &record.table)?;
    let settlement = record
        .settlement
        .as_ref()
        .ok_or_else(|| AppError::unprocessable("the hand has no settlement in force to correct"))?;
    let mut events = vec![NewEvent::new(CorrectionRecorded {
        supersedes: settlement.event_id,
        reason: cmd.reason.trim().to_owned(),
    })];
    events.extend(result_events(
        &ctx,
        record.east,
        record.prevailing_wind,
        &cmd.facts,
    )?);
    ledger.append(&stream, ExpectedVersion::Exact(current), events, &by.id)?;
    Ok(stream)
}
