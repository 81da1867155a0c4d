//! What a replayed hand comes to once it is over: its report to score and settle, with the
//! penalties its play brings, and the settlement that follows.
//!
//! The penalties a play brings, each found by the adjudication and priced by the ruleset:
//! - a long hand scores nothing and pays the other losers in full (§89(c)), once another has
//!   gone Mah-Jongg (a long hand cannot win: its call is a false one); it has no place on the
//!   score sheet;
//! - each player's own count: an undervalued hand stands at it (§110);
//! - a false naming claimed brings its penalty whatever else happens (§85–88);
//! - where the ruleset charges a dangerous discard, the discarder of a cannon pays for all
//!   (§96), unless he pleaded No Choice and could (§95); under Babcock's insurance penalties or
//!   Harr's penalty 2, the liable discarder pays for all, in full or in half, as the book says;
//! - a false call of Mah-Jongg that others laid down tiles after abandons the hand with the
//!   false caller's penalty and no other score (§82).

use super::false_call::FalseCall;
use super::incorrect_hand::Fault;
use super::replay::Replay;
use crate::event::ClaimKind;
use crate::play::{Ending, Turn};
use crate::report::{HandReport, Settled};
use crate::settle::Penalty;
use crate::violation::Violations;
use crate::{Ruleset, Seat};

/// What the play of `replay` comes to under `rules` once it is over: the hand's report to
/// score and settle, with the penalties its play brings — or, when it ended on a false call of
/// Mah-Jongg that others laid down tiles after, the hand abandoned with the false caller's
/// penalty and no other score (§82). `None` before the end, while a seat's tiles are unseen,
/// or while a false call stands with no one else's tiles laid down (the caller may still take
/// up his hand).
pub fn report(replay: &Replay, rules: &Ruleset) -> Option<HandReport> {
    match replay.false_call(rules) {
        Some(f) => abandoned(&f),
        None => report_as_played(replay),
    }
}

/// The hand abandoned for the false call `f` that others laid down tiles after, with the
/// penalty and no other score (§82–83); `None` while the caller may still take up his hand.
pub(crate) fn abandoned(f: &FalseCall) -> Option<HandReport> {
    f.penalty().map(|p| HandReport {
        penalties: vec![p],
        ..HandReport::default()
    })
}

/// The finished hand's report as it was played ([`crate::play::PlayState::report`]), with the
/// penalties its play brings, without ruling on a call of Mah-Jongg (a hand recorded whole is
/// refused when its winner's hand is not complete).
pub fn report_as_played(replay: &Replay) -> Option<HandReport> {
    let state = replay.state();
    let notes = replay.notes();
    let long = long_hands(replay);
    let mut report = state.report_leaving_out(&long)?;
    // §78: "no score allowed in respect of the set which he failed to expose": its tiles are
    // struck from the foul hand before it is scored (a chow scores nothing anyway).
    for &(seat, c) in &notes.never_laid {
        let n = match c.claim {
            ClaimKind::Pung => 3,
            ClaimKind::Kong => 4,
            ClaimKind::Chow | ClaimKind::MahJongg => continue,
        };
        let parse = |t: &str| {
            if report.short.contains(&seat) {
                crate::Hand::parse_short(t).ok()
            } else {
                t.parse::<crate::Hand>().ok()
            }
        };
        if let Some(hand) = report.hands[seat].as_deref().and_then(parse) {
            report.hands[seat] = Some(hand.striking(c.tile, n).to_string());
            if !report.short.contains(&seat) {
                report.short.push(seat);
            }
        }
    }
    report
        .penalties
        .extend(long.iter().map(|&seat| Penalty::LongHand { seat }));
    report
        .penalties
        .extend(notes.own_counts.iter().map(|c| Penalty::OwnCount {
            seat: c.seat,
            counted: c.counted,
        }));
    report
        .penalties
        .extend(notes.namings.iter().filter_map(|f| f.penalty()));
    if replay.charges_dangerous_discards() {
        report
            .penalties
            .extend(replay.dangerous_discard().and_then(|f| f.penalty()));
    }
    Some(report)
}

/// The long hands of a hand ended in Mah-Jongg (§89(c)): they have no place on the score sheet.
pub(crate) fn long_hands(replay: &Replay) -> Vec<Seat> {
    let notes = replay.notes();
    match replay.state().turn {
        Turn::Over(Ending::MahJongg { seat: winner, .. }) => Seat::ALL
            .into_iter()
            .filter(|&s| {
                s != winner
                    && notes
                        .incorrect
                        .iter()
                        .any(|h| h.seat == s && h.fault == Fault::Long)
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The hand after one its report ends, East having won `east_wins` hands running before it:
/// who is East next and whether the game ended (§11–14; §82 and §87 when it was abandoned;
/// §122(r)). `None` for a report that ends nothing.
pub fn next_hand(
    replay: &Replay,
    report: &HandReport,
    rules: &Ruleset,
    east_wins: u32,
) -> Option<crate::rotation::Rotated> {
    let state = replay.state();
    let end = crate::rotation::HandEnd::of(
        report.winner,
        report.winner.is_none(),
        &report.penalties,
        state.east,
    )?;
    Some(state.position(east_wins).after(end, &rules.rotation))
}

/// The finished hand scored and settled under `rules`, East having won `east_wins` hands
/// running before it (§122(r)), with the penalties its play brings ([`report`]): `None` before
/// the end, or while a seat's tiles are unseen; the report's violations if the rules refuse it.
pub fn settle(
    replay: &Replay,
    rules: &Ruleset,
    east_wins: u32,
) -> Result<Option<(HandReport, Settled)>, Violations> {
    report(replay, rules)
        .map(|r| crate::report::settle(r, rules, &replay.state().position(east_wins)))
        .transpose()
}
