//! A hand's record: where the hand was played (its table, game, seats and players, fixed when
//! it starts) and its result as the referee folds it — one [`ResultRecord`], the table
//! aggregate's own fold of a hand's result events (the hands laid down, who won or that it
//! washed out, the score sheets, every settlement and what took it out, the corrections, the
//! rulings). Standings, settlement rows and hand summaries are all derived from this record, so
//! the read model and the table can never disagree about what a hand came to (issue 9: a
//! wash-out corrected to a win used to stay "washed out" in one of two families; issue 25: the
//! read model and the table folded corrections differently).
//!
//! Folding is incremental, except for a correction that withdraws a correction: it reaches back
//! ([`ReachesBack`]), and the record is derived again from the hand's events
//! ([`HandRecord::derive`]), which gives what folding gives for every other history.

use ledger::event::{Event, SettlementRecorded};
use ledger::settlement::derive_nets;
use referee::table::{Fact, ReachesBack, ResultRecord};
use referee::{BySeat, Seat};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// Where a hand was played: fixed when it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandStart {
    pub stream: String,
    pub tournament: Option<String>,
    pub table: String,
    pub game: u32,
    pub hand: u32,
    pub east: Seat,
    pub prevailing_wind: referee::Wind,
    pub players: BySeat<Option<String>>,
    pub version: u64,
}

/// A hand as it currently stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandRecord {
    /// The hand stream, `hand:<id>`.
    pub stream: String,
    pub tournament: Option<String>,
    pub table: String,
    pub game: u32,
    pub hand: u32,
    /// The seat (as drawn) that is East in this hand.
    pub east: Seat,
    pub prevailing_wind: referee::Wind,
    /// The players in each seat (as drawn) when the hand started.
    pub players: BySeat<Option<String>>,
    /// Its result, folded by the referee: the hands laid down, the end, the score sheets in
    /// force, every settlement recorded and where it stands, the corrections, the rulings.
    pub result: ResultRecord,
    /// The stream's version after the last event folded.
    pub version: u64,
}

/// What one seat of a hand adds to its player's standing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Contribution {
    /// The hand has a settlement in force.
    pub counted: bool,
    pub net: i64,
    pub won: bool,
    /// The winning score when `won`, else 0.
    pub score: i64,
}

/// A hand event with where it sits in its stream, for [`HandRecord::derive`].
#[derive(Clone, Debug)]
pub struct HandEvent {
    pub version: u64,
    pub event_id: Uuid,
    pub event: Event,
}

/// Each seat's net in a settlement, re-derived from its payments. The append and the import
/// refuse a settlement whose nets differ from its payments, so for every settlement written
/// through the ledger this is its recorded nets; in a database edited behind the program's
/// back the two differ, and the audit's replay of the read model then shows the edit in the
/// standings too.
pub fn nets_of(s: &SettlementRecorded) -> BySeat<i64> {
    derive_nets(&s.payments).unwrap_or(s.nets)
}

impl HandRecord {
    /// The record of a hand that has just started.
    pub fn start(start: HandStart) -> HandRecord {
        HandRecord {
            stream: start.stream,
            tournament: start.tournament,
            table: start.table,
            game: start.game,
            hand: start.hand,
            east: start.east,
            prevailing_wind: start.prevailing_wind,
            players: start.players,
            result: ResultRecord::default(),
            version: start.version,
        }
    }

    /// The hand's id (the part of the stream name after `hand:`).
    pub fn id(&self) -> &str {
        self.stream.strip_prefix("hand:").unwrap_or(&self.stream)
    }

    /// The fact of a hand's result that `event` states, if it is one (the ledger's catalogue
    /// carries the referee's events; [`Fact::of`] picks the same ones out of a hand's events).
    /// Disputes and rulings are among them: a correction or a ruling is written against the
    /// version the page showed.
    pub fn fact(event: &Event) -> Option<Fact<'_>> {
        Some(match event {
            Event::HandExposed(e) => Fact::Exposed(e),
            Event::MahJonggDeclared(e) => Fact::MahJongg(e),
            Event::WashOut(e) => Fact::WashOut(e),
            Event::ClaimRetracted(e) => return Fact::retracted(e),
            Event::HandScored(e) => Fact::Scored(e),
            Event::SettlementRecorded(e) => Fact::Settled(e),
            Event::CorrectionRecorded(e) => Fact::Correction(e),
            Event::DisputeRaised(e) => Fact::Dispute(e),
            Event::RulingIssued(e) => Fact::Ruling(e),
            Event::RulingSuperseded(e) => Fact::Appeal(e),
            _ => return None,
        })
    }

    /// True for the events that change a hand's record.
    pub fn is_hand_fact(event: &Event) -> bool {
        HandRecord::fact(event).is_some()
    }

    /// Each seat's net in the settlement in force (re-derived from its payments: [`nets_of`]).
    pub fn nets(&self) -> Option<BySeat<i64>> {
        self.result.settlement().map(|(_, s)| nets_of(s))
    }

    /// What `seat` adds to its player's standing: its share of the settlement in force.
    pub fn contribution(&self, seat: Seat) -> Contribution {
        let (Some((_, s)), Some(nets)) = (self.result.settlement(), self.nets()) else {
            return Contribution::default();
        };
        let won = s.winner == Some(seat);
        Contribution {
            counted: true,
            net: *nets.get(seat),
            won,
            score: if won { *s.scores.get(seat) } else { 0 },
        }
    }

    /// Folds one event of the hand (any other event is ignored). A correction that withdraws a
    /// correction cannot be folded this way: the record is left as it was and [`ReachesBack`]
    /// says to derive it ([`HandRecord::derive`]) from the hand's events with this one.
    pub fn fold(&mut self, version: u64, event_id: Uuid, event: &Event) -> Result<(), ReachesBack> {
        let Some(fact) = HandRecord::fact(event) else {
            return Ok(());
        };
        self.result.fold(event_id, fact)?;
        self.version = version;
        Ok(())
    }

    /// The record derived from `start` and the hand's events in version order, honouring
    /// withdrawn corrections (see [`ResultRecord::derive`]).
    pub fn derive(start: HandStart, events: &[HandEvent]) -> HandRecord {
        let facts: Vec<(Uuid, Fact<'_>)> = events
            .iter()
            .filter_map(|e| HandRecord::fact(&e.event).map(|f| (e.event_id, f)))
            .collect();
        let last = events
            .iter()
            .filter(|e| HandRecord::is_hand_fact(&e.event))
            .map(|e| e.version)
            .max();
        let mut record = HandRecord::start(start);
        record.result = ResultRecord::derive(&facts);
        record.version = last.map_or(record.version, |v| v.max(record.version));
        record
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger::event::{CorrectionRecorded, MahJonggDeclared, WashOut};
    use ledger::settlement::Payment;
    use referee::table::Settlement;

    fn start() -> HandStart {
        HandStart {
            stream: "hand:h1".into(),
            tournament: Some("tournament:t".into()),
            table: "T1".into(),
            game: 1,
            hand: 1,
            east: Seat::East,
            prevailing_wind: referee::Wind::East,
            players: BySeat::default(),
            version: 1,
        }
    }

    fn win(winner: Seat, score: i64) -> Vec<Event> {
        let payments: Vec<Payment> = Seat::ALL
            .into_iter()
            .filter(|&w| w != winner)
            .map(|payer| Payment {
                payer,
                payee: winner,
                amount: score,
            })
            .collect();
        let nets = derive_nets(&payments).unwrap();
        vec![
            MahJonggDeclared {
                seat: winner,
                winning_tile: "5p".parse().unwrap(),
                self_drawn: false,
            }
            .into(),
            SettlementRecorded {
                winner: Some(winner),
                scores: BySeat::from_fn(|w| if w == winner { score } else { 0 }),
                payments,
                nets,
            }
            .into(),
        ]
    }

    fn correction(supersedes: Uuid) -> Event {
        CorrectionRecorded {
            supersedes,
            reason: "r".into(),
        }
        .into()
    }

    /// Numbers the events from version 2 with ids 1, 2, 3, … (as u128).
    fn numbered(events: Vec<Event>) -> Vec<HandEvent> {
        events
            .into_iter()
            .enumerate()
            .map(|(i, event)| HandEvent {
                version: i as u64 + 2,
                event_id: Uuid::from_u128(i as u128 + 1),
                event,
            })
            .collect()
    }

    fn folded(events: &[HandEvent]) -> HandRecord {
        let mut r = HandRecord::start(start());
        for e in events {
            r.fold(e.version, e.event_id, &e.event).unwrap();
        }
        r
    }

    fn id(n: u128) -> Uuid {
        Uuid::from_u128(n)
    }

    #[test]
    fn a_wash_out_corrected_to_a_win_is_no_longer_washed_out() {
        let nobody_pays = SettlementRecorded {
            winner: None,
            scores: BySeat::default(),
            payments: Vec::new(),
            nets: BySeat::default(),
        };
        let mut events = vec![WashOut { reason: "w".into() }.into(), nobody_pays.into()];
        events.push(correction(id(2)));
        events.extend(win(Seat::South, 8));
        let events = numbered(events);
        let r = folded(&events);
        assert!(!r.result.washed_out());
        assert_eq!(r.result.winner(), Some(Seat::South));
        assert_eq!(r.contribution(Seat::South).net, 24);
        assert_eq!(r, HandRecord::derive(start(), &events));
    }

    #[test]
    fn withdrawing_a_correction_restores_the_settlement_it_took_out() {
        // 1 MJ West, 2 settle West; 3 correction of 2; 4 MJ South, 5 settle South;
        // 6 correction of 3 (the correction).
        let mut events = win(Seat::West, 16);
        events.push(correction(id(2)));
        events.extend(win(Seat::South, 8));
        events.push(correction(id(3)));
        let events = numbered(events);
        let r = HandRecord::derive(start(), &events);
        assert_eq!(r.result.winner(), Some(Seat::West));
        assert_eq!(r.result.settlement().unwrap().0, id(2));
        let superseded: Vec<&Settlement> = r.result.superseded().collect();
        assert_eq!(superseded.len(), 1);
        assert_eq!(superseded[0].id, id(5));
        assert_eq!(superseded[0].superseded_by(), Some(id(6)));
        assert_eq!(r.result.corrections().len(), 2);
        assert_eq!(r.version, 7);

        // Withdrawing the withdrawal brings the first correction back.
        let mut more: Vec<Event> = events.into_iter().map(|e| e.event).collect();
        more.push(correction(id(6)));
        let events = numbered(more);
        let r = HandRecord::derive(start(), &events);
        assert_eq!(r.result.winner(), Some(Seat::South));
        assert_eq!(r.result.settlement().unwrap().0, id(5));
        assert_eq!(r.result.corrections().len(), 3);
    }

    #[test]
    fn without_withdrawals_deriving_is_folding() {
        let mut events = win(Seat::West, 16);
        events.push(correction(id(2)));
        events.extend(win(Seat::South, 8));
        events.push(correction(id(5)));
        events.extend(win(Seat::North, 4));
        let events = numbered(events);
        let r = folded(&events);
        assert_eq!(r, HandRecord::derive(start(), &events));
        assert_eq!(r.result.settlements().len(), 3);
        assert_eq!(r.contribution(Seat::North).score, 4);
        assert!(!r.contribution(Seat::South).won);
    }
}
