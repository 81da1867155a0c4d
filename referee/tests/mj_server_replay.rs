//! mj-server's robot games (fixtures/mj-server/), replayed: every hand read, every event of
//! its play applied and legal (so every draw is the wall's next tile), 144 tiles accounted for
//! after each, and the final state scored and settled by the same code as a hand recorded at
//! its end: every seat's score and every settlement equal to the server's.
//!
//! The server scores the groups its robots declare; our scorer finds a losing hand's best
//! grouping. They agree on every hand here; a hand where a robot declared less than its best
//! would differ, and that comparison needs the declared groups (issue 11, to come).

use std::path::Path;

use referee::play::{mjs, Applied, Play, PlayRules};
use referee::Ruleset;

fn hands() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/mj-server");
    let mut out = Vec::new();
    for game in std::fs::read_dir(&dir).unwrap() {
        let game = game.unwrap().path();
        for f in std::fs::read_dir(&game).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "mjs") {
                let name = format!("{}", f.strip_prefix(&dir).unwrap().display());
                out.push((name, std::fs::read_to_string(&f).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_robot_hand_replays_legally_and_scores_and_settles_as_the_server_did() {
    let rules = PlayRules::of(&Ruleset::builtin("code-of-laws").unwrap());
    let all = hands();
    assert!(all.len() >= 10, "{} hands", all.len());
    let mut events = 0;
    let mut checked = 0;
    for (name, text) in &all {
        let hand =
            mjs::read(text, "t1".parse().unwrap(), 1, 1).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut play =
            Play::start(rules.clone(), &hand.started).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (line, e) in &hand.events {
            let applied = play
                .apply(e)
                .unwrap_or_else(|err| panic!("{name} line {line}: {err} ({e:?})"));
            assert_eq!(applied, Applied::Legal, "{name} line {line}: {e:?}");
            assert_eq!(play.state().accounted(), rules.tiles, "{name} line {line}");
            events += 1;
        }
        assert!(
            matches!(play.state().turn, referee::play::Turn::Over(_)),
            "{name}: the hand did not end ({:?})",
            play.state().turn
        );
        let report = play
            .state()
            .report()
            .unwrap_or_else(|| panic!("{name}: no report"));
        let facts = report
            .check()
            .unwrap_or_else(|v| panic!("{name}: {v:?}\n{report:?}"));
        let position = referee::table::Position {
            game: 1,
            hand: 1,
            east: hand.started.east,
            prevailing: hand.started.prevailing_wind,
            east_wins: 0,
            passes: 0,
        };
        let code = Ruleset::builtin("code-of-laws").unwrap();
        let settled = facts
            .score_and_settle(&code, &position)
            .unwrap_or_else(|v| panic!("{name}: {v:?}"));
        for (seat, server, _) in &hand.scores {
            assert_eq!(
                settled.sheets[*seat].total as i64,
                *server,
                "{name}: {seat}'s score ({})",
                report.hands[*seat].as_deref().unwrap_or("")
            );
        }
        // The server lists each wind's change, East first.
        let (changes, text) = hand.settlement.clone().unwrap();
        let ours = settled.nets.to_winds(hand.started.east).into_array();
        assert_eq!(ours, changes, "{name}: the settlement ({text})");
        checked += 1;
    }
    assert!(events > 1000, "{events} events");
    assert_eq!(checked, all.len());
}
