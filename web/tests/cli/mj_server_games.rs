//! Robot games played offline by J. C. Bradfield's mj-server (Debian `mah-jong`), an
//! independent Code-of-Laws referee, then imported and replayed here: every event legal,
//! every draw the wall's next tile, every seat's score and every settlement equal to the
//! server's (`referee::import::mjs::cross_check`), except where the server ruled a cannon,
//! whose settlement the adjudication of cannons will decide (issue 12): those hands' scores
//! are compared, not their settlements.
//!
//! `.ci/run` installs `mah-jong` when it is missing; without `/usr/games/mj-server` this test
//! fails and says so.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use referee::import::mjs;
use referee::Ruleset;

const SERVER: &str = "/usr/games/mj-server";
const PLAYER: &str = "/usr/games/mj-player";

/// The options closest to the Code (../shared/mj-server.md).
const OPTIONS: &str = "\
GameOption 0 Timeout nat 0 1 0 x
GameOption 0 ScoreLimit nat 0 1 1000 x
GameOption 0 NoLimit bool 0 1 0 x
GameOption 0 MahJongScore score 0 1 10 x
GameOption 0 SevenPairs bool 1020 1 0 x
GameOption 0 Flowers bool 1020 1 1 x
GameOption 0 FlowersLoose bool 0 1 0 x
GameOption 0 FlowersOwnEach score 0 1 0 x
GameOption 0 FlowersOwnBoth score 0 1 10000 x
GameOption 0 FlowersBouquet score 0 1 10000 x
GameOption 0 DeadWall bool 1020 1 1 x
GameOption 0 DeadWall16 bool 1020 1 1 x
GameOption 0 ConcealedFully score 0 1 10000 x
GameOption 0 ConcealedAlmost score 0 1 0 x
GameOption 0 LosersPurity bool 0 1 0 x
GameOption 0 KongHas3Types bool 1034 1 1 x
GameOption 0 EastDoubles bool 0 1 1 x
GameOption 0 LosersSettle bool 0 1 1 x
GameOption 0 DiscDoubles bool 0 1 0 x
GameOption 0 ShowOnWashout bool 0 1 1 x
GameOption 0 NumRounds nat 0 1 4 x
";

/// Robot personalities: one-suit hunters and pung players make more cannons and specials.
const PERSONALITIES: [&[&str]; 4] = [
    &[],
    &["--suitness", "1.0"],
    &["--chowness", "-1.0", "--hiddenness", "0.5"],
    &["--majorness", "1.0", "--suitness", "0.5"],
];

/// Kills the processes it holds when dropped, whatever happened.
struct Processes(Vec<Child>);

impl Drop for Processes {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn wait_until(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "waited {limit:?} for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Plays one game with `seed` in `dir` and returns its hand histories.
fn play_game(dir: &Path, seed: u32, rotate: usize) -> Vec<PathBuf> {
    // A game played here before would leave its hands, and the server appends to its log.
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("options.txt"), OPTIONS).unwrap();
    let socket = dir.join("mj.sock");
    let log = dir.join("server.log");
    let quiet = || Stdio::null();
    let mut procs = Processes(Vec::new());
    procs.0.push(
        Command::new(SERVER)
            .current_dir(dir)
            .args([
                "--server",
                socket.to_str().unwrap(),
                "--seed",
                &seed.to_string(),
            ])
            .args(["--hand-history", "--logfile", "server.log"])
            .args([
                "--option-file",
                "options.txt",
                "--no-manager",
                "--exit-on-disconnect",
            ])
            .stdout(quiet())
            .stderr(quiet())
            .spawn()
            .unwrap(),
    );
    wait_until("the server's socket", Duration::from_secs(10), || {
        socket.exists()
    });
    for i in 0..4 {
        let personality = PERSONALITIES[(i + rotate) % 4];
        procs.0.push(
            Command::new(PLAYER)
                .args([
                    "--server",
                    socket.to_str().unwrap(),
                    "--name",
                    &format!("robot{}", i + 1),
                ])
                .args(personality)
                .stdout(quiet())
                .stderr(quiet())
                .spawn()
                .unwrap(),
        );
        // Each player joins once the server has answered the one before (ids follow the order).
        wait_until(
            "the server to answer a player",
            Duration::from_secs(10),
            || {
                std::fs::read_to_string(&log)
                    .map(|l| l.matches("ConnectReply").count() > i)
                    .unwrap_or(false)
            },
        );
    }
    // The server exits when the game is over; with some seeds it stays waiting for a robot
    // after `GameOver`, so the log saying so is the end too.
    wait_until("the game to end", Duration::from_secs(120), || {
        matches!(procs.0[0].try_wait(), Ok(Some(_)))
            || std::fs::read_to_string(&log).is_ok_and(|l| l.contains("GameOver"))
    });
    drop(procs);
    let mut hands: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mjs"))
        .collect();
    hands.sort();
    hands
}

#[test]
fn robot_games_replay_and_agree_with_the_server() {
    assert!(
        Path::new(SERVER).exists() && Path::new(PLAYER).exists(),
        "this test needs mj-server: `apt-get install mah-jong` (.ci/run installs it)"
    );
    // The Code with mj-server's readings where the Code can be read two ways.
    let readings = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fixtures/mj-server/mj-server-readings.toml"
    );
    let rules = Ruleset::parse(&std::fs::read_to_string(readings).unwrap()).unwrap();
    // `MJ_GAMES_DIR=…` keeps the games there, to look at; `MJ_GAMES=N` plays N games (10 by
    // default; `scripts/bench-import` plays 50 and times importing them).
    let games: u32 = std::env::var("MJ_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10);
    let kept = std::env::var_os("MJ_GAMES_DIR").map(PathBuf::from);
    let scratch = tempfile::tempdir().unwrap();
    let dir = kept.as_deref().unwrap_or(scratch.path());
    let (mut hands, mut cannons, mut events, mut wash_outs) = (0, 0, 0, 0);
    let mut differences = Vec::new();
    // Where the server departs from the Code, by the section ours follows.
    let mut departures: std::collections::BTreeMap<String, usize> = Default::default();
    for seed in 1..=games {
        let game = dir.join(format!("seed-{seed}"));
        let files = play_game(&game, seed, seed as usize % 4);
        let read: Vec<(String, mjs::MjsHand)> = files
            .iter()
            .map(|path| {
                let text = std::fs::read_to_string(path).unwrap();
                let name = format!(
                    "seed {seed} {}",
                    path.file_name().unwrap().to_string_lossy()
                );
                let hand = mjs::read(&text, "t1".parse().unwrap(), seed, 1)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                (name, hand)
            })
            .collect();
        let hands_only: Vec<mjs::MjsHand> = read.iter().map(|(_, h)| h.clone()).collect();
        let east_wins = mjs::east_wins_before(&hands_only);
        for ((name, hand), wins) in read.iter().zip(east_wins) {
            let check =
                mjs::cross_check(hand, &rules, wins).unwrap_or_else(|e| panic!("{name}: {e}"));
            differences.extend(check.differences.iter().map(|d| format!("{name}: {d}")));
            for d in &check.departures {
                // By the section ours follows.
                let section = d.rfind("(Code").map_or(d.as_str(), |i| &d[i..]);
                *departures.entry(section.to_owned()).or_default() += 1;
            }
            hands += 1;
            events += check.events;
            cannons += usize::from(check.cannon);
        }
        // The whole game from its log: every hand won is the `.mjs` hand, event for event (the
        // deal given as the dealt tiles instead of the wall), and every hand, wash-outs
        // included, replays and scores as the server did.
        let log = std::fs::read_to_string(game.join("server.log")).unwrap();
        let logged: Vec<mjs::MjsHand> = mjs::read_log(&log, &"t1".parse().unwrap(), seed)
            .unwrap_or_else(|e| panic!("seed {seed} server.log: {e}"))
            .into_iter()
            .map(|(_, h)| h)
            .collect();
        let washed = |h: &mjs::MjsHand| {
            h.events
                .iter()
                .any(|(_, e)| matches!(e, referee::event::HandEvent::WashOut(_)))
        };
        let won: Vec<&mjs::MjsHand> = logged.iter().filter(|h| !washed(h)).collect();
        assert_eq!(won.len(), hands_only.len(), "seed {seed}: hands won");
        let play = |h: &mjs::MjsHand| h.events.iter().map(|(_, e)| e.clone()).collect::<Vec<_>>();
        for (n, (l, m)) in won.iter().zip(&hands_only).enumerate() {
            assert_eq!(play(l), play(m), "seed {seed}: won hand {}", n + 1);
            // The same scores and settlement (the explanations differ in line breaks only).
            let results = |h: &mjs::MjsHand| {
                let scores: Vec<_> = h.scores.iter().map(|(s, n, _)| (*s, *n)).collect();
                (scores, h.settlement.as_ref().map(|(c, _)| *c))
            };
            assert_eq!(results(l), results(m), "seed {seed}: won hand {}", n + 1);
        }
        for (n, (hand, wins)) in logged
            .iter()
            .zip(mjs::east_wins_before(&logged))
            .enumerate()
        {
            let name = format!("seed {seed} server.log hand {}", n + 1);
            let check =
                mjs::cross_check(hand, &rules, wins).unwrap_or_else(|e| panic!("{name}: {e}"));
            differences.extend(check.differences.iter().map(|d| format!("{name}: {d}")));
        }
        wash_outs += logged.len() - won.len();
    }
    eprintln!("{hands} hands, {events} events, {cannons} with a cannon ruled by the server, and {wash_outs} wash-outs in the logs");
    eprintln!("where the server departs from the Code: {departures:?}");
    assert!(wash_outs > 0, "no wash-out in {games} games");
    assert!(hands >= 100, "only {hands} hands in ten games");
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}
