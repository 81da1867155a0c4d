//! An event of a hand in plain words, as a replay and the hand's history show it: "south
//! discarded 5p". The one describer of the hand's events: the pages and the API call it.
//!
//! Seats are named by seat (the winds they hold change from hand to hand); tiles in the hand
//! notation. A tile the recorder did not see is "a tile".

use crate::event::{HandEvent, KongKind};
use crate::tile::AnyTile;

fn drawn(tile: &Option<AnyTile>) -> String {
    tile.map_or_else(|| "a tile".to_owned(), |t| t.to_string())
}

/// A signed amount as the service writes it: "+12", "−8" (a minus sign), "0".
pub fn signed(n: i64) -> String {
    match n {
        0 => "0".to_owned(),
        n if n > 0 => format!("+{n}"),
        n => format!("−{}", n.unsigned_abs()),
    }
}

/// `e` in a sentence.
pub fn describe(e: &HandEvent) -> String {
    match e {
        HandEvent::HandStarted(s) => format!(
            "game {} hand {} dealt, the {} seat East",
            s.game, s.hand, s.east
        ),
        HandEvent::TileDrawn(d) => format!("{} drew {}", d.seat, drawn(&d.tile)),
        HandEvent::LooseTileDrawn(d) => {
            format!("{} drew {} from the kong box", d.seat, drawn(&d.tile))
        }
        HandEvent::BonusTileDeclared(b) => format!("{} declared {}", b.seat, b.tile),
        HandEvent::TileDiscarded(d) if d.named != d.placed => {
            format!("{} discarded {}, naming it {}", d.seat, d.placed, d.named)
        }
        HandEvent::TileDiscarded(d) => format!("{} discarded {}", d.seat, d.placed),
        HandEvent::ClaimMade(c) => format!("{} claimed {} for {}", c.seat, c.tile, c.claim.name()),
        HandEvent::ClaimPassed(p) => format!("{} passed", p.seat),
        HandEvent::ClaimGranted(g) => format!("{}'s {} claim granted", g.seat, g.claim.name()),
        HandEvent::SetExposed(x) => {
            format!("{} exposed a {} from {}", x.seat, x.claim.name(), x.lowest)
        }
        HandEvent::DiscardTakenBack(t) => format!("{} took back the discard {}", t.seat, t.tile),
        HandEvent::DiscardTakenIntoHand(t) => {
            format!("{} took the discard {} into the hand", t.seat, t.tile)
        }
        HandEvent::DiscardReturned(t) => {
            format!("{} returned the discard {} to the table", t.seat, t.tile)
        }
        HandEvent::ClaimRetracted(r) if r.reason.is_empty() => {
            format!("{} retracted a {} claim", r.seat, r.claim.name())
        }
        HandEvent::ClaimRetracted(r) => format!(
            "{} retracted a {} claim ({})",
            r.seat,
            r.claim.name(),
            r.reason
        ),
        HandEvent::KongDeclared(k) => format!(
            "{} declared a kong of {} ({})",
            k.seat,
            k.tile,
            match k.kind {
                KongKind::Concealed if k.unmarked =>
                    "concealed, left unmarked: it scores as exposed",
                KongKind::Concealed => "concealed",
                KongKind::AnnexedDiscard => "a discard annexed to a concealed pung",
                KongKind::AddedToExposedPung => "added to an exposed pung",
            }
        ),
        HandEvent::OriginalCallAnnounced(o) => format!("{} announced an Original Call", o.seat),
        HandEvent::NoChoicePleaded(p) => {
            format!("{} showed its tiles and pleaded No Choice", p.seat)
        }
        HandEvent::KongRobbed(r) => format!("{} robbed {}'s kong of {}", r.robber, r.from, r.tile),
        HandEvent::MahJonggDeclared(m) => format!(
            "{} declared Mah-Jongg with {}{}",
            m.seat,
            m.winning_tile,
            if m.self_drawn { ", drawn" } else { "" }
        ),
        HandEvent::HandExposed(x) => format!("{} laid down {}", x.seat, x.hand),
        HandEvent::WashOut(w) if w.reason.is_empty() => "a wash-out".to_owned(),
        HandEvent::WashOut(w) => format!("a wash-out: {}", w.reason),
        HandEvent::HandScored(s) => format!(
            "scored under {}: {}",
            s.ruleset.name,
            s.sheets
                .iter()
                .map(|(seat, sheet)| format!("{seat} {}", sheet.total))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        HandEvent::SettlementRecorded(s) => format!(
            "settled: {}",
            s.nets
                .iter()
                .map(|(seat, n)| format!("{seat} {}", signed(*n)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        HandEvent::EntryStruck(x) if x.reason.is_empty() => {
            format!("the scorer struck entry {} (a slip, not play)", x.entry)
        }
        HandEvent::EntryStruck(x) => format!(
            "the scorer struck entry {} (a slip, not play): {}",
            x.entry, x.reason
        ),
        HandEvent::CorrectionRecorded(c) => {
            format!("correction (supersedes {}): {}", c.supersedes, c.reason)
        }
        HandEvent::ScoreClaimed(c) if c.elements.is_empty() => {
            format!("{} counted the hand at {}", c.seat, c.points)
        }
        HandEvent::ScoreClaimed(c) => format!(
            "{} counted the hand at {} ({})",
            c.seat,
            c.points,
            c.elements.join(", ")
        ),
        HandEvent::DisputeRaised(d) => format!(
            "a dispute raised{}, recorded by {}: {}{}",
            d.raised_by.map(|s| format!(" by {s}")).unwrap_or_default(),
            d.official,
            d.description,
            if d.position.is_some() {
                " (from a position)"
            } else {
                ""
            }
        ),
        HandEvent::RulingIssued(r) => {
            let finding = r
                .finding
                .as_ref()
                .map(|f| format!(" the {} finding", f.kind))
                .unwrap_or_default();
            let verdict = match r.decision {
                crate::event::Decision::Accepted => "accepted",
                crate::event::Decision::Overruled => "overruled",
            };
            format!(
                "{} ruled ({verdict}{finding}): {} [{}]{}{}{}",
                r.official,
                r.reason,
                r.sections.join(", "),
                if r.penalties.is_empty() {
                    String::new()
                } else {
                    format!("; {} penalty(ies) ordered", r.penalties.len())
                },
                if r.withdrawn.is_empty() {
                    String::new()
                } else {
                    format!("; {} penalty(ies) lifted", r.withdrawn.len())
                },
                if r.abandons {
                    "; the hand is abandoned"
                } else {
                    ""
                }
            )
        }
        HandEvent::RulingSuperseded(r) => {
            format!("{} superseded a ruling on appeal: {}", r.official, r.reason)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::TileDiscarded;
    use crate::Seat;

    #[test]
    fn a_false_naming_is_described_with_both_tiles() {
        let e = HandEvent::TileDiscarded(TileDiscarded {
            seat: Seat::South,
            placed: "5p".parse().unwrap(),
            named: "6p".parse().unwrap(),
        });
        assert_eq!(describe(&e), "south discarded 5p, naming it 6p");
    }
}
