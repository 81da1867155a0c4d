//! The cross-check: an mj-server hand replayed under a ruleset, every seat's score and the
//! settlement set beside the server's own, and where the server departs from the Code
//! (`../shared/mj-server.md`), the section ours follows.

use crate::adjudicate::{cannon_reading, Cannon, CannonReading, NoChoice, Replay};
use crate::event::HandEvent;
use crate::play::{Applied, Ending, PlayRules, Turn};
use crate::seat::Seat;

use super::MjsHand;

/// What replaying an mj-server hand found, set beside the server's own results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrossCheck {
    /// Events replayed.
    pub events: usize,
    /// Where ours and the server's differ: an irregular event, a seat's score, a cannon, the
    /// settlement. Empty when they agree.
    pub differences: Vec<String>,
    /// Where they differ because the server departs from the Code (`../shared/mj-server.md`),
    /// each naming the section ours follows. The settlement is then not compared.
    pub departures: Vec<String>,
    /// The server ruled a dangerous discard (a cannon, Code §90–96).
    pub cannon: bool,
}

/// The cannon ours finds beside the server's ruling: the penalty to settle with (none when
/// nobody is liable), or `None` when the settlement cannot be compared. The server writes its
/// ruling when the dangerous discard is claimed; it counts only when the claimant goes on to
/// win.
fn compare_cannon(
    hand: &MjsHand,
    rules: &crate::Ruleset,
    play: &Replay,
    differences: &mut Vec<String>,
    departures: &mut Vec<String>,
) -> Result<Option<Vec<crate::settle::Penalty<Seat>>>, String> {
    let winner = match play.state().turn {
        Turn::Over(Ending::MahJongg { seat, .. }) => Some(seat),
        _ => None,
    };
    // Under the server's readings the hand is replayed again, only where ours differs.
    let find = |reading| {
        let events: Vec<HandEvent> = hand.events.iter().map(|(_, e)| e.clone()).collect();
        cannon_reading(PlayRules::of(rules), &hand.started, &events, reading)
            .map_err(|e| e.to_string())
    };
    // Who took the discard (or robbed the kong) event `n` made.
    let taken_by = |n: usize| {
        hand.events.iter().skip(n).find_map(|(_, e)| match e {
            HandEvent::ClaimGranted(g) => Some(Some(g.seat)),
            HandEvent::KongRobbed(r) => Some(Some(r.robber)),
            HandEvent::TileDrawn(_) | HandEvent::TileDiscarded(_) => Some(None),
            _ => None,
        })?
    };
    let server = hand
        .dangerous
        .iter()
        .rev()
        .find(|s| winner.is_some() && taken_by(s.event) == winner);
    let same = |c: &Option<Cannon>| match (c, server) {
        (None, None) => true,
        (Some(c), Some(s)) => c.event == s.event && c.discarder == s.discarder,
        _ => false,
    };
    let ours = play.cannon();
    if !same(&ours) {
        // The server's readings of §90–92, one at a time.
        let departs = [
            (
                CannonReading {
                    exposed_sets_show: false,
                    ..CannonReading::CODE
                },
                "it counts a tile as showing only among the discards (Code §90(g))",
            ),
            (
                CannonReading {
                    declared_kongs_count: false,
                    ..CannonReading::CODE
                },
                "it counts the exposed sets only, not a declared concealed kong (Code §90)",
            ),
            (
                CannonReading {
                    specified_hand: false,
                    ..CannonReading::CODE
                },
                "it charges any Mah-Jongg, not only the hand the sets signalled (Code §92)",
            ),
        ];
        for (reading, why) in departs {
            if same(&find(reading)?) {
                departures.push(format!("the server's cannon ruling differs: {why}"));
                return Ok(None);
            }
        }
        differences.push(match (&ours, server) {
            (_, Some(s)) => format!(
                "line {}: the server charged {} with a cannon on event {}; ours: {}",
                s.line,
                s.discarder,
                s.event,
                ours.as_ref().map_or("none".to_owned(), |c| c.to_string())
            ),
            (Some(c), None) => format!("a cannon the server did not charge: {c}"),
            (None, None) => "no cannon on either side".to_owned(),
        });
        return Ok(None);
    }
    let (Some(c), Some(s)) = (ours, server) else {
        return Ok(Some(Vec::new()));
    };
    // The robots plead No Choice whenever the server allows it (the reader records the plea).
    match (c.excused(), c.no_choice) {
        (true, _) => Ok(Some(Vec::new())),
        (false, _) if !s.no_choice => Ok(Some(c.penalty().into_iter().collect())),
        (false, NoChoice::HeldSafe(t)) => {
            departures.push(format!(
                "the server excused a discarder who held {t}, which was not dangerous (Code §95(a))"
            ));
            Ok(None)
        }
        (false, NoChoice::BarredAfterClaim(k)) => {
            departures.push(format!(
                "the server excused a discarder after a claim for {k:?} (Code §95(a))"
            ));
            Ok(None)
        }
        (false, other) => {
            differences.push(format!(
                "line {}: the server excused {}, who pleaded; ours: {other:?}",
                s.line, c.discarder
            ));
            Ok(None)
        }
    }
}

/// For a game's hands in order: East's wins in succession before each (Code §122(r)). A
/// wash-out keeps East and does not break his run (mj-server writes no `.mjs` for one; its
/// `server.log` has them).
pub fn east_wins_before(hands: &[MjsHand]) -> Vec<u32> {
    let mut out = Vec::with_capacity(hands.len());
    let mut previous: Option<(Seat, u32, bool)> = None;
    for h in hands {
        let east = h.started.east;
        let wins = match previous {
            // The deal stayed after a wash-out: the run stands.
            Some((e, n, true)) if e == east => n,
            // The deal stayed after a win: East won the hand before.
            Some((e, n, false)) if e == east => n + 1,
            _ => 0,
        };
        out.push(wins);
        let washed_out = h
            .events
            .iter()
            .any(|(_, e)| matches!(e, HandEvent::WashOut(_)));
        previous = Some((east, wins, washed_out));
    }
    out
}

/// Replays `hand` under `rules` and compares every seat's score and the settlement with the
/// server's; `east_wins` is East's wins in succession before this hand. An event that cannot
/// be applied is an error (with its line).
pub fn cross_check(
    hand: &MjsHand,
    rules: &crate::Ruleset,
    east_wins: u32,
) -> Result<CrossCheck, String> {
    let mut play = Replay::start(PlayRules::of(rules), &hand.started).map_err(|e| e.to_string())?;
    let mut differences = Vec::new();
    for (line, e) in &hand.events {
        match play.apply(e) {
            Ok(Applied::Legal) => {}
            Ok(Applied::Irregular(v)) => {
                for i in v {
                    differences.push(format!("line {line}: irregular: {i}"));
                }
            }
            Err(err) => return Err(format!("line {line}: {err}")),
        }
    }
    let mut departures = Vec::new();
    let penalties = compare_cannon(hand, rules, &play, &mut differences, &mut departures)?;
    let mut report = play
        .state()
        .report()
        .ok_or_else(|| "the replay did not reach the end of the hand".to_owned())?;
    report.penalties = penalties.clone().unwrap_or_default();
    let (report, settled) = crate::report::settle(report, rules, &play.state().position(east_wins))
        .map_err(|v| v.to_string())?;
    for (seat, server, text) in &hand.scores {
        let ours = settled.sheets[*seat].total;
        if i64::try_from(ours).ok() != Some(*server) {
            differences.push(format!(
                "{seat}: ours {ours}, the server's {server} ({}; the server: {text})",
                report.hands[*seat].as_deref().unwrap_or("")
            ));
        }
    }
    let cannon = !hand.dangerous.is_empty();
    if let (Some((changes, text)), Some(_)) = (&hand.settlement, &penalties) {
        let ours = settled.nets.to_winds(hand.started.east).into_array();
        if ours != *changes {
            differences.push(format!(
                "settlement East to North: ours {ours:?}, the server's {changes:?} ({text})"
            ));
        }
    }
    Ok(CrossCheck {
        events: hand.events.len(),
        differences,
        departures,
        cannon,
    })
}
