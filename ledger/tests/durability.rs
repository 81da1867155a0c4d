//! An append reported as successful survives the process being killed: a child appends in a
//! loop and is killed with SIGKILL at random moments; every acknowledged event must be there
//! and the chain must verify.

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ledger::Ledger;
use uuid::Uuid;

use crate::util::TempDir;

/// A small xorshift generator: the kill moments only need to vary, not be cryptographic.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Starts the crash writer on `db` (as writer `name`, if given), with a thread collecting the
/// events it acknowledges until it dies.
fn spawn_writer(
    db: &std::path::Path,
    name: Option<&str>,
) -> (std::process::Child, std::thread::JoinHandle<Vec<Uuid>>) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ledger-crash-writer"));
    command.arg(db).args(name);
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .filter_map(|l| {
                l.strip_prefix("ack ")
                    .and_then(|id| id.parse::<Uuid>().ok())
            })
            .collect::<Vec<_>>()
    });
    (child, reader)
}

/// Every acknowledged event is in the ledger, and the audit is clean.
fn assert_all_present(db: &std::path::Path, acked: &HashSet<Uuid>, seed: u64) {
    let ledger = Ledger::open(db).unwrap();
    let mut present = HashSet::new();
    ledger
        .replay(|e| {
            present.insert(e.event_id);
        })
        .unwrap();
    let lost: Vec<_> = acked.difference(&present).collect();
    assert!(
        lost.is_empty(),
        "acknowledged but lost: {lost:?} (seed {seed})"
    );
    let report = ledger.audit().unwrap();
    assert!(report.is_clean(), "{report}");
}

#[test]
fn acknowledged_appends_survive_sigkill() {
    let dir = TempDir::new("sigkill");
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    let mut rng = Rng(seed);
    let mut acked: HashSet<Uuid> = HashSet::new();
    for round in 0..6 {
        let (mut child, reader) = spawn_writer(&dir.db(), None);
        std::thread::sleep(Duration::from_millis(100 + rng.below(400)));
        child.kill().unwrap(); // SIGKILL on Unix
        child.wait().unwrap();
        let ids = reader.join().unwrap();
        eprintln!(
            "round {round} (seed {seed}): {} events acknowledged",
            ids.len()
        );
        acked.extend(ids);
    }
    assert!(
        acked.len() > 10,
        "the writer made too little progress to test anything"
    );

    assert_all_present(&dir.db(), &acked, seed);
}

/// The same with several writers at once, each killed at its own random moment: four
/// processes record hands at their own tables and all register players in one shared
/// tournament, so they contend for the file and for one stream. Every acknowledged event
/// survives, the chain verifies, and no stream has a gap.
#[test]
fn acknowledged_appends_of_concurrent_writers_survive_sigkill() {
    let dir = TempDir::new("sigkill-concurrent");
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    let mut rng = Rng(seed);
    let mut acked: HashSet<Uuid> = HashSet::new();
    let writers = ["a", "b", "c", "d"];
    let rounds = 4;
    for round in 0..rounds {
        let mut running = Vec::new();
        for name in writers {
            let (child, reader) = spawn_writer(&dir.db(), Some(name));
            running.push((child, reader, 150 + rng.below(500)));
        }
        // Each writer is killed at its own moment, the others still writing.
        running.sort_by_key(|(_, _, at)| *at);
        let start = std::time::Instant::now();
        let mut counts = Vec::new();
        for (mut child, reader, at) in running {
            let at = Duration::from_millis(at);
            if let Some(wait) = at.checked_sub(start.elapsed()) {
                std::thread::sleep(wait);
            }
            child.kill().unwrap();
            child.wait().unwrap();
            let ids = reader.join().unwrap();
            counts.push(ids.len());
            acked.extend(ids);
        }
        eprintln!("round {round} (seed {seed}): acknowledged per writer {counts:?}");
    }
    assert!(
        acked.len() > 40,
        "the writers made too little progress to test anything: {}",
        acked.len()
    );
    assert_all_present(&dir.db(), &acked, seed);
    eprintln!(
        "{} events acknowledged by {} writers over {rounds} rounds, all present",
        acked.len(),
        writers.len()
    );
}
