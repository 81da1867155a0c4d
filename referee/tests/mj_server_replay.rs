//! mj-server's robot games (fixtures/mj-server/), replayed: every hand read, every event of
//! its play applied, none inconsistent, every draw the wall's next tile.

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
fn every_robot_hand_replays_without_an_inconsistent_or_irregular_event() {
    let rules = PlayRules::of(&Ruleset::builtin("code-of-laws").unwrap());
    let all = hands();
    assert!(all.len() >= 10, "{} hands", all.len());
    let mut events = 0;
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
    }
    assert!(events > 1000, "{events} events");
}
