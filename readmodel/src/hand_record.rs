//! A hand's record: the one fold of a hand's events into what the hand currently is — the
//! hands laid down, the result, the score sheets and the settlement in force, and every
//! settlement ever recorded for it. Standings, settlement rows and hand summaries are all
//! derived from this record, so no two read models can disagree about a hand (issue 9: a
//! wash-out corrected to a win used to stay "washed out" in one of two families).
//!
//! Corrections (`CorrectionRecorded`) point at the event they supersede:
//!
//! * **a settlement**: it stops counting, and its score sheets go with it; the replacement
//!   events recorded after the correction (hands, result, sheets, settlement) fill the record
//!   again;
//! * **a correction**: that correction is *withdrawn*, with everything recorded after it up to
//!   the next correction (its replacement facts). The settlement it took out counts again.
//!   A withdrawn correction can itself be restored by withdrawing the correction that withdrew
//!   it. Because this reaches back into earlier events, the record is then re-derived from the
//!   hand's events ([`HandRecord::derive`]); every other event is folded incrementally
//!   ([`HandRecord::fold`]), which gives the same record;
//! * **anything else**: recorded and counted, but it changes nothing here.
//!
//! The settlement in force is the latest one recorded that is neither superseded nor withdrawn.

use std::collections::HashMap;

use ledger::event::{Event, HandScored, SettlementRecorded};
use ledger::settlement::{derive_nets, Payment};
use referee::{BySeat, Hand, Seat};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// A settlement recorded for a hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedSettlement {
    pub event_id: Uuid,
    pub version: u64,
    pub winner: Option<Seat>,
    pub scores: BySeat<i64>,
    pub payments: Vec<Payment>,
    /// Each seat's net, re-derived from the payments (the append refused any settlement where
    /// they differ from the recorded nets; this matters only for a tampered database, where
    /// the audit then sees the difference).
    pub nets: BySeat<i64>,
    /// The correction that took it out; `None` while it counts (or when a later settlement
    /// simply replaced it).
    pub superseded_by: Option<Uuid>,
}

impl RecordedSettlement {
    fn new(event_id: Uuid, version: u64, e: &SettlementRecorded) -> RecordedSettlement {
        RecordedSettlement {
            event_id,
            version,
            winner: e.winner,
            scores: e.scores,
            payments: e.payments.clone(),
            nets: derive_nets(&e.payments).unwrap_or(e.nets),
            superseded_by: None,
        }
    }
}

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
    /// Each seat's hand as laid down (the latest `HandExposed` in force).
    pub hands: BySeat<Option<Hand>>,
    pub winner: Option<Seat>,
    pub washed_out: bool,
    /// The score sheets in force.
    pub scored: Option<HandScored>,
    /// The settlement in force.
    pub settlement: Option<RecordedSettlement>,
    /// The settlements recorded that no longer count, oldest first.
    pub superseded: Vec<RecordedSettlement>,
    /// How many corrections were recorded in the hand (withdrawn ones included).
    pub corrections: u32,
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
            hands: BySeat::default(),
            winner: None,
            washed_out: false,
            scored: None,
            settlement: None,
            superseded: Vec::new(),
            corrections: 0,
            version: start.version,
        }
    }

    /// The hand's id (the part of the stream name after `hand:`).
    pub fn id(&self) -> &str {
        self.stream.strip_prefix("hand:").unwrap_or(&self.stream)
    }

    /// True for the events that change a hand's record.
    pub fn is_hand_fact(event: &Event) -> bool {
        matches!(
            event,
            Event::HandExposed(_)
                | Event::MahJonggDeclared(_)
                // A caller taking up his hand (§82): the only retraction that changes a fact.
                | Event::ClaimRetracted(referee::event::ClaimRetracted {
                    claim: referee::event::ClaimKind::MahJongg,
                    ..
                })
                // Disputes and rulings change no fact but the record's version: a correction
                // or a ruling is written against the version the page showed.
                | Event::DisputeRaised(_)
                | Event::RulingIssued(_)
                | Event::RulingSuperseded(_)
                | Event::WashOut(_)
                | Event::HandScored(_)
                | Event::SettlementRecorded(_)
                | Event::CorrectionRecorded(_)
        )
    }

    /// Every settlement recorded, oldest first.
    pub fn settlements(&self) -> Vec<&RecordedSettlement> {
        let mut all: Vec<_> = self.superseded.iter().chain(&self.settlement).collect();
        all.sort_by_key(|s| s.version);
        all
    }

    /// What `seat` adds to its player's standing.
    pub fn contribution(&self, seat: Seat) -> Contribution {
        let Some(s) = &self.settlement else {
            return Contribution::default();
        };
        let won = s.winner == Some(seat);
        Contribution {
            counted: true,
            net: *s.nets.get(seat),
            won,
            score: if won { *s.scores.get(seat) } else { 0 },
        }
    }

    /// Folds one event of the hand. A correction that supersedes a correction cannot be folded
    /// this way (it reaches back); [`HandRecord::derive`] handles it, and `fold` treats it as
    /// superseding nothing.
    pub fn fold(&mut self, version: u64, event_id: Uuid, event: &Event) {
        if !HandRecord::is_hand_fact(event) {
            return;
        }
        self.version = version;
        match event {
            Event::HandExposed(e) => *self.hands.get_mut(e.seat) = Some(e.hand.clone()),
            Event::MahJonggDeclared(e) => {
                self.winner = Some(e.seat);
                self.washed_out = false;
            }
            Event::WashOut(_) => {
                self.winner = None;
                self.washed_out = true;
            }
            // §82: the caller took up his hand; play goes on.
            Event::ClaimRetracted(e)
                if e.claim == referee::event::ClaimKind::MahJongg
                    && self.winner == Some(e.seat) =>
            {
                self.winner = None;
            }
            Event::HandScored(e) => {
                // A hand scored with no win has no winner, whatever call ended its play: a
                // false Mah-Jongg abandoned (§82) is recorded this way.
                // An appeal that restores a win names the winner again.
                match &e.win {
                    None => {
                        self.winner = None;
                        self.washed_out = true;
                    }
                    Some(w) => {
                        self.winner = Some(w.winner);
                        self.washed_out = false;
                    }
                }
                self.scored = Some(e.clone());
            }
            Event::SettlementRecorded(e) => {
                let new = RecordedSettlement::new(event_id, version, e);
                if let Some(replaced) = self.settlement.replace(new) {
                    self.superseded.push(replaced);
                }
            }
            Event::CorrectionRecorded(e) => {
                self.corrections += 1;
                if self.settlement.as_ref().map(|s| s.event_id) == Some(e.supersedes) {
                    if let Some(mut out) = self.settlement.take() {
                        out.superseded_by = Some(event_id);
                        self.superseded.push(out);
                    }
                    self.scored = None;
                    // The hands laid down go with the facts they belonged to; the correction's
                    // own `HandExposed` follow (a hand not shown again is off the record), as
                    // the referee's table folds it.
                    self.hands = BySeat::default();
                }
            }
            _ => {}
        }
    }

    /// The record re-derived from `start` and the hand's events in version order, honouring
    /// withdrawn corrections (see the module docs).
    pub fn derive(start: HandStart, events: &[HandEvent]) -> HandRecord {
        let withdrawn_by = withdrawals(events);
        let mut record = HandRecord::start(start);
        // The correction whose replacement facts are being read, if it is withdrawn.
        let mut skipping: Option<Uuid> = None;
        for e in events {
            if let Event::CorrectionRecorded(_) = e.event {
                skipping = withdrawn_by.get(&e.event_id).copied();
                if skipping.is_some() {
                    record.corrections += 1;
                    record.version = e.version;
                    continue;
                }
            }
            match (skipping, &e.event) {
                (Some(by), Event::SettlementRecorded(s)) => {
                    let mut out = RecordedSettlement::new(e.event_id, e.version, s);
                    out.superseded_by = Some(by);
                    record.superseded.push(out);
                    record.version = e.version;
                }
                (Some(_), event) if HandRecord::is_hand_fact(event) => record.version = e.version,
                (Some(_), _) => {}
                (None, event) => record.fold(e.version, e.event_id, event),
            }
        }
        record.superseded.sort_by_key(|s| s.version);
        record
    }
}

/// Each withdrawn correction and the correction that withdrew it. A correction is withdrawn
/// when a correction that is itself in force supersedes it; corrections only point backwards,
/// so deciding from the last to the first settles each one after everything that could
/// withdraw it.
fn withdrawals(events: &[HandEvent]) -> HashMap<Uuid, Uuid> {
    let corrections: Vec<(Uuid, Uuid)> = events
        .iter()
        .filter_map(|e| match &e.event {
            Event::CorrectionRecorded(c) => Some((e.event_id, c.supersedes)),
            _ => None,
        })
        .collect();
    let mut withdrawn_by = HashMap::new();
    for &(id, target) in corrections.iter().rev() {
        if withdrawn_by.contains_key(&id) {
            continue;
        }
        if corrections.iter().any(|&(other, _)| other == target) {
            withdrawn_by.insert(target, id);
        }
    }
    withdrawn_by
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger::event::{CorrectionRecorded, MahJonggDeclared, WashOut};
    use ledger::settlement::Payment;

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
            r.fold(e.version, e.event_id, &e.event);
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
        assert!(!r.washed_out);
        assert_eq!(r.winner, Some(Seat::South));
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
        assert_eq!(r.winner, Some(Seat::West));
        assert_eq!(r.settlement.as_ref().unwrap().event_id, id(2));
        assert_eq!(r.superseded.len(), 1);
        assert_eq!(r.superseded[0].event_id, id(5));
        assert_eq!(r.superseded[0].superseded_by, Some(id(6)));
        assert_eq!(r.corrections, 2);
        assert_eq!(r.version, 7);

        // Withdrawing the withdrawal brings the first correction back.
        let mut more: Vec<Event> = events.into_iter().map(|e| e.event).collect();
        more.push(correction(id(6)));
        let events = numbered(more);
        let r = HandRecord::derive(start(), &events);
        assert_eq!(r.winner, Some(Seat::South));
        assert_eq!(r.settlement.as_ref().unwrap().event_id, id(5));
        assert_eq!(r.corrections, 3);
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
        assert_eq!(r.settlements().len(), 3);
        assert_eq!(r.contribution(Seat::North).score, 4);
        assert!(!r.contribution(Seat::South).won);
    }
}
