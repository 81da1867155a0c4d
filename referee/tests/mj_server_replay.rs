//! mj-server's robot games (fixtures/mj-server/), replayed: every hand read, every event of
//! its play applied and legal (so every draw is the wall's next tile), 144 tiles accounted for
//! after each, and the final state scored and settled by the same code as a hand recorded at
//! its end: every seat's score and every settlement equal to the server's
//! (`referee::import::mjs::cross_check`).
//!
//! The server scores the groups its robots declare; our scorer finds a losing hand's best
//! grouping. They agree on every hand here; a hand where a robot declared less than its best
//! would differ, and that comparison needs the declared groups (issue 11, to come).

use std::path::Path;

use referee::import::mjs;
use referee::play::{Play, PlayRules};
use referee::Ruleset;

fn hands() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/mj-server");
    let mut out = Vec::new();
    for game in std::fs::read_dir(&dir).unwrap() {
        let game = game.unwrap().path();
        // `cannons/` and `single/` hold single hands from several games (tests/cannons.rs,
        // the table's tests).
        if !game.is_dir() || game.ends_with("cannons") || game.ends_with("single") {
            continue;
        }
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

/// The Code of Laws with mj-server's readings where the Code can be read two ways.
pub fn server_rules() -> Ruleset {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/mj-server/mj-server-readings.toml");
    Ruleset::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn every_robot_hand_replays_legally_and_scores_and_settles_as_the_server_did() {
    let rules = server_rules();
    let all = hands();
    assert!(all.len() >= 10, "{} hands", all.len());
    let read: Vec<mjs::MjsHand> = all
        .iter()
        .map(|(name, text)| {
            mjs::read(text, "t1".parse().unwrap(), 1, 1).unwrap_or_else(|e| panic!("{name}: {e}"))
        })
        .collect();
    let east_wins = mjs::east_wins_before(&read);
    let mut events = 0;
    for (((name, _), hand), wins) in all.iter().zip(&read).zip(east_wins) {
        let check = mjs::cross_check(hand, &rules, wins).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(check.differences, Vec::<String>::new(), "{name}");
        events += check.events;
    }
    assert!(events > 1000, "{events} events");
}

#[test]
fn every_tile_is_accounted_for_after_every_event() {
    let rules = PlayRules::of(&Ruleset::builtin("code-of-laws").unwrap());
    for (name, text) in &hands() {
        let hand = mjs::read(text, "t1".parse().unwrap(), 1, 1).unwrap();
        let mut play = Play::start(rules.clone(), &hand.started).unwrap();
        for (line, e) in &hand.events {
            play.apply(e).unwrap();
            assert_eq!(play.state().accounted(), rules.tiles, "{name} line {line}");
        }
    }
}

#[test]
fn a_score_that_differs_from_the_servers_is_reported() {
    let (name, text) = &hands()[0];
    let mut hand = mjs::read(text, "t1".parse().unwrap(), 1, 1).unwrap();
    hand.scores[0].1 += 2;
    let check = mjs::cross_check(&hand, &server_rules(), 0).unwrap();
    assert_eq!(
        check.differences.len(),
        1,
        "{name}: {:?}",
        check.differences
    );
}

/// The first four hands of mj-server's seed-1 robot game, as its `server.log` holds them: the
/// third is a wash-out (the wall ran out as a bonus tile wanted its replacement), which no
/// `.mjs` file records.
#[test]
fn a_whole_game_log_reads_every_hand_wash_outs_included() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/mj-server/seed-1-log/server.log");
    let text = std::fs::read_to_string(path).unwrap();
    let hands = mjs::read_log(&text, &"t1".parse().unwrap(), 1).unwrap();
    assert_eq!(hands.len(), 4);
    let read: Vec<mjs::MjsHand> = hands.iter().map(|(_, h)| h.clone()).collect();
    let washed: Vec<bool> = read
        .iter()
        .map(|h| {
            h.events
                .iter()
                .any(|(_, e)| matches!(e, referee::event::HandEvent::WashOut(_)))
        })
        .collect();
    assert_eq!(washed, [false, false, true, false]);
    // Each hand is dealt from its first 53 draws: the log has no wall.
    assert!(read
        .iter()
        .all(|h| matches!(h.started.deal, referee::event::Deal::Hands { .. })));
    let rules = server_rules();
    for ((line, hand), wins) in hands.iter().zip(mjs::east_wins_before(&read)) {
        let check = mjs::cross_check(hand, &rules, wins)
            .unwrap_or_else(|e| panic!("hand at line {line}: {e}"));
        assert_eq!(check.differences, Vec::<String>::new(), "line {line}");
        // A won hand's score is compared with the server's; a wash-out has none.
        assert_eq!(hand.scores.is_empty(), hand.settlement.is_none());
    }
    // A line of the log names where each event came from.
    let (first, _) = &read[0].events[0];
    assert!(text.lines().nth(first - 1).unwrap().contains("Player"));
    // Not a log: a clear error.
    let err = mjs::read_log("hello\r\n", &"t1".parse().unwrap(), 1).unwrap_err();
    assert!(
        err.to_string().contains("not an mj-server game log"),
        "{err}"
    );
}
