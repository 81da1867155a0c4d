//! Running it for real: `backup` and `restore` beside a server that keeps writing, the
//! server's scheduled copies, and a server stopped by SIGTERM.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::ledger_commands::{listening_port, run, text, Dir};

/// Runs a command that must be refused: what it said on its error output.
fn refused(args: &[&str]) -> String {
    let o = run(args);
    assert!(
        !o.status.success(),
        "{args:?} was not refused: {}",
        text(&o.stdout)
    );
    text(&o.stderr)
}

/// The names of the files in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// A `serve` process on a port of its own.
struct Served {
    child: Child,
    port: u16,
    /// What it has written to standard output since it listened (its log lines).
    said: Arc<std::sync::Mutex<Vec<String>>>,
}

impl Served {
    fn start(db: &Path, extra: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mahjong-referee"))
            .args([
                "serve",
                "--bind",
                "127.0.0.1:0",
                "--admin-password",
                "correct horse battery",
                "--db",
            ])
            .arg(db)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        while let Some(Ok(line)) = lines.next() {
            if line.starts_with("mahjong-referee listening on") {
                break;
            }
        }
        // The rest of its output is kept, and drained so that it never blocks on a full pipe.
        let said = Arc::new(std::sync::Mutex::new(Vec::new()));
        let kept = said.clone();
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                kept.lock().unwrap().push(line);
            }
        });
        let deadline = Instant::now() + Duration::from_secs(20);
        let port = loop {
            if let Some(port) = listening_port(child.id()) {
                break port;
            }
            assert!(Instant::now() < deadline, "serve never listened");
            std::thread::sleep(Duration::from_millis(10));
        };
        Served { child, port, said }
    }

    /// `GET path`: the status and the body.
    fn get(&self, path: &str) -> (u16, String) {
        let mut s = std::net::TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        s.read_to_string(&mut answer).unwrap();
        let status = answer[9..12].parse().unwrap();
        let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        (status, body.to_owned())
    }

    /// Sends SIGTERM and waits: the exit status and what it wrote to standard error.
    fn terminate(mut self) -> (Option<i32>, String) {
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGTERM);
        }
        let deadline = Instant::now() + Duration::from_secs(40);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("serve did not stop on SIGTERM");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut err = String::new();
        let _ = self.child.stderr.take().unwrap().read_to_string(&mut err);
        (status.code(), err)
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The demo tournament's standings as the server's API gives them.
fn standings(server: &Served) -> String {
    let (status, body) = server.get("/api/tournaments/demo/standings");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("joseph-harr"), "{body}");
    body
}

/// Four writers registering players, each in its own tournament, through their own
/// connections: how many registrations each had acknowledged, and its stream's version after
/// creating the tournament.
struct Writers {
    stop: Arc<AtomicBool>,
    acknowledged: Vec<Arc<AtomicU64>>,
    base: Vec<u64>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Writers {
    fn start(db: &Path) -> Writers {
        use web::app::commands::tournament::{self as t, NewPlayer, NewTournament};
        let stop = Arc::new(AtomicBool::new(false));
        let (mut acknowledged, mut base, mut threads) = (Vec::new(), Vec::new(), Vec::new());
        for w in 0..4 {
            let mut ledger = readmodel::open(db).unwrap();
            let by = web::app::accounts::store::command_line("loader", "Load fixture");
            let id = format!("writer-{w}");
            let new = NewTournament {
                id: Some(id.clone()),
                name: format!("Writer {w}"),
                ruleset: Some("code-of-laws".into()),
                starting_chips: 2000,
                ..Default::default()
            };
            t::create(&mut ledger, &[], &by, &new).unwrap();
            base.push(
                ledger
                    .stream_version(&ledger::StreamId::tournament(&id).unwrap())
                    .unwrap(),
            );
            let count = Arc::new(AtomicU64::new(0));
            acknowledged.push(count.clone());
            let stop = stop.clone();
            threads.push(std::thread::spawn(move || {
                let mut n = 0;
                while !stop.load(Ordering::Acquire) {
                    n += 1;
                    let p = NewPlayer {
                        id: Some(format!("p{n}")),
                        name: format!("Player {n}"),
                        substitute: false,
                        different_person: false,
                    };
                    t::register_player(&mut ledger, &id, &by, &p).unwrap();
                    count.store(n, Ordering::Release);
                }
            }));
        }
        Writers {
            stop,
            acknowledged,
            base,
            threads,
        }
    }

    fn acknowledged(&self) -> Vec<u64> {
        self.acknowledged
            .iter()
            .map(|c| c.load(Ordering::Acquire))
            .collect()
    }

    fn stop(self) -> Vec<u64> {
        self.stop.store(true, Ordering::Release);
        for t in self.threads {
            t.join().unwrap();
        }
        self.acknowledged
            .iter()
            .map(|c| c.load(Ordering::Acquire))
            .collect()
    }
}

#[test]
fn a_backup_under_four_writers_audits_clean_holds_every_acknowledged_event_and_restores_the_same_standings(
) {
    let dir = Dir::new("backup-writers");
    let (db, copy, restored) = (
        dir.file("club.db"),
        dir.file("copy.db"),
        dir.file("restored.db"),
    );
    let server = Served::start(&db, &["--demo"]);
    let before = standings(&server);
    let writers = Writers::start(&db);
    // Each writer under way (they share the lock with the server and each other).
    let deadline = Instant::now() + Duration::from_secs(30);
    while writers.acknowledged().iter().any(|&n| n < 3) {
        assert!(Instant::now() < deadline, "{:?}", writers.acknowledged());
        std::thread::sleep(Duration::from_millis(20));
    }
    let acknowledged = writers.acknowledged();
    let base = writers.base.clone();
    let o = run(&[
        "backup",
        "--db",
        db.to_str().unwrap(),
        copy.to_str().unwrap(),
        "--audit",
    ]);
    let after = writers.stop();
    let said = text(&o.stdout);
    assert!(o.status.success(), "{said}\n{}", text(&o.stderr));
    assert!(
        said.contains("result: OK")
            && said.contains("every event is what the service would have recorded"),
        "{said}"
    );
    assert!(
        acknowledged.iter().all(|&n| n > 0),
        "the writers wrote: {acknowledged:?}"
    );
    assert!(
        after.iter().zip(&acknowledged).any(|(a, b)| a > b),
        "the writers went on while the copy was made: {acknowledged:?} then {after:?}"
    );
    // Every registration acknowledged before the copy began is in it.
    let copied = readmodel::open_reader(&copy).unwrap();
    for (w, (&n, &base)) in acknowledged.iter().zip(&base).enumerate() {
        let stream = ledger::StreamId::tournament(&format!("writer-{w}")).unwrap();
        let version = copied.stream_version(&stream).unwrap();
        assert!(
            version >= base + n,
            "writer {w}: {n} acknowledged, copy at {version} of base {base}"
        );
    }
    // Its head is the one printed, and its key sits beside it, for its owner only.
    let head = copied.head().unwrap();
    assert!(
        said.contains(&format!("{}:{}", head.position, head.chain_hash)),
        "{said}"
    );
    drop(copied);
    let key = ledger::signing::key_path(&copy);
    assert_eq!(
        std::fs::read(&key).unwrap(),
        std::fs::read(ledger::signing::key_path(&db)).unwrap()
    );
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    // No restore under a running server.
    let err = refused(&[
        "restore",
        copy.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ]);
    assert!(
        err.contains("open for writing") && err.contains("nothing was changed"),
        "{err}"
    );
    let (code, err) = server.terminate();
    assert_eq!(code, Some(0), "{err}");
    // Restored into a new file, it serves the same standings.
    let o = run(&[
        "restore",
        copy.to_str().unwrap(),
        "--db",
        restored.to_str().unwrap(),
    ]);
    let said = text(&o.stdout);
    assert!(o.status.success(), "{said}\n{}", text(&o.stderr));
    assert!(
        said.contains("into a new ledger") && said.contains("result: OK"),
        "{said}"
    );
    assert!(said.contains("the signing key is restored"), "{said}");
    let again = Served::start(&restored, &[]);
    assert_eq!(standings(&again), before);
    drop(again);
    // The ledger that went on past the copy is not rolled back over.
    let head_before = readmodel::open_reader(&db).unwrap().head().unwrap();
    let err = refused(&[
        "restore",
        copy.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ]);
    assert!(
        err.contains("the backup lacks") && err.contains("nothing was changed"),
        "{err}"
    );
    assert_eq!(
        readmodel::open_reader(&db).unwrap().head().unwrap(),
        head_before
    );
}

#[test]
fn a_restore_over_another_history_is_refused_unless_forced_and_then_keeps_it_aside() {
    let dir = Dir::new("restore-other");
    let (ours, theirs, copy) = (
        dir.file("ours.db"),
        dir.file("theirs.db"),
        dir.file("copy.db"),
    );
    super::ledger_commands::small_ledger(&ours);
    super::ledger_commands::small_ledger(&theirs);
    // Each ledger signs with a key of its own.
    for db in [&ours, &theirs] {
        let o = run(&["checkpoint", "--db", db.to_str().unwrap()]);
        assert!(o.status.success(), "{}", text(&o.stderr));
    }
    let o = run(&[
        "backup",
        "--db",
        theirs.to_str().unwrap(),
        copy.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let ours_head = readmodel::open_reader(&ours).unwrap().head().unwrap();
    let err = refused(&[
        "restore",
        copy.to_str().unwrap(),
        "--db",
        ours.to_str().unwrap(),
    ]);
    assert!(
        err.contains("is not an earlier state of the backup's ledger"),
        "{err}"
    );
    assert_eq!(
        readmodel::open_reader(&ours).unwrap().head().unwrap(),
        ours_head
    );
    // The keys differ too: refused for that as well, before anything changed.
    assert!(err.contains("--force"), "{err}");
    let o = run(&[
        "restore",
        copy.to_str().unwrap(),
        "--db",
        ours.to_str().unwrap(),
        "--force",
    ]);
    let said = text(&o.stdout);
    assert!(o.status.success(), "{said}\n{}", text(&o.stderr));
    assert!(said.contains("the ledger it replaced is kept at"), "{said}");
    assert!(said.contains("the one it replaced is kept at"), "{said}");
    let kept: Vec<String> = names_in(&dir.0)
        .into_iter()
        .filter(|n| n.contains("before-restore") && !n.ends_with("-wal") && !n.ends_with("-shm"))
        .collect();
    assert_eq!(kept.len(), 2, "{kept:?}");
    let aside = kept.iter().find(|n| !n.contains(".key")).unwrap();
    let aside = readmodel::open_reader(dir.file(aside)).unwrap();
    assert_eq!(aside.head().unwrap(), ours_head);
    let theirs_head = readmodel::open_reader(&theirs).unwrap().head().unwrap();
    assert_eq!(
        readmodel::open_reader(&ours).unwrap().head().unwrap(),
        theirs_head
    );
    // And the restored ledger signs as the one it came from.
    let o = run(&["checkpoint", "--db", ours.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}

#[test]
fn a_backup_names_itself_in_a_folder_and_says_when_no_key_goes_with_it() {
    let dir = Dir::new("backup-named");
    let db = dir.file("club.db");
    super::ledger_commands::small_ledger(&db);
    let folder = dir.file("copies");
    std::fs::create_dir(&folder).unwrap();
    // No key yet: the ledger has signed nothing.
    let o = run(&[
        "backup",
        "--db",
        db.to_str().unwrap(),
        folder.to_str().unwrap(),
    ]);
    let said = text(&o.stdout);
    assert!(o.status.success(), "{said}\n{}", text(&o.stderr));
    assert!(said.contains("no signing key was copied"), "{said}");
    assert!(said.contains("checked: all 5 events read back"), "{said}");
    let names = names_in(&folder);
    let head = readmodel::open_reader(&db).unwrap().head().unwrap();
    assert_eq!(names.len(), 1, "{names:?}");
    assert!(
        names[0].starts_with("ledger-")
            && names[0].ends_with(&format!(
                "-p{}-{}.db",
                head.position,
                &head.chain_hash.to_hex()[..8]
            )),
        "{names:?}"
    );
    // Asked not to, it says where the key is not.
    let o = run(&["checkpoint", "--db", db.to_str().unwrap()]);
    assert!(o.status.success());
    let out = dir.file("bare.db");
    let o = run(&[
        "backup",
        "--db",
        db.to_str().unwrap(),
        out.to_str().unwrap(),
        "--without-key",
    ]);
    assert!(
        text(&o.stdout).contains("was not copied (--without-key)"),
        "{}",
        text(&o.stdout)
    );
    assert!(!ledger::signing::key_path(&out).exists());
    // Never over an existing file.
    let err = refused(&[
        "backup",
        "--db",
        db.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    assert!(err.contains("already exists"), "{err}");
}

#[test]
fn serve_copies_on_a_schedule_for_its_owner_only_and_shows_the_copys_age() {
    let dir = Dir::new("serve-backups");
    let (db, copies) = (dir.file("club.db"), dir.file("copies"));
    let dir_arg = copies.to_str().unwrap().to_owned();
    let err = refused(&[
        "serve",
        "--db",
        db.to_str().unwrap(),
        "--backup-dir",
        &dir_arg,
        "--backup-every",
        "5s",
    ]);
    assert!(err.contains("less than a minute"), "{err}");
    let server = Served::start(&db, &["--backup-dir", &dir_arg]);
    let deadline = Instant::now() + Duration::from_secs(20);
    while web::app::backup::scheduled_copies(&copies)
        .unwrap()
        .is_empty()
    {
        assert!(
            Instant::now() < deadline,
            "no copy made: {:?}",
            names_in(&copies)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let first = names_in(&copies);
    assert_eq!(first.len(), 2, "{first:?}");
    assert!(
        first[0].ends_with(".db") && first[1] == format!("{}.key", first[0]),
        "{first:?}"
    );
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&copies), 0o700, "the folder is its owner's");
        assert_eq!(
            mode(&copies.join(&first[0])),
            0o600,
            "the copy is its owner's"
        );
    }
    let (code, _) = server.terminate();
    assert_eq!(code, Some(0));
    // The copy's age is on the metrics of an address allowed to read them.
    let server = Served::start(
        &db,
        &["--backup-dir", &dir_arg, "--metrics-from", "127.0.0.1/32"],
    );
    std::thread::sleep(Duration::from_millis(300));
    let (status, metrics) = server.get("/metrics");
    assert_eq!(status, 200, "{metrics}");
    assert!(metrics.contains("mahjong_backup_age_seconds "), "{metrics}");
    assert!(
        metrics.contains("mahjong_backup_last_success_timestamp_seconds "),
        "{metrics}"
    );
    let (code, _) = server.terminate();
    assert_eq!(code, Some(0));
}

/// The deployment examples load as their tools read them: Caddy's configuration validates, and
/// systemd finds nothing wrong in the unit (run against this build of the program). Skipped,
/// saying so, where a tool is missing (`.ci/run` installs Caddy).
#[test]
fn the_deployment_examples_are_valid() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    match Command::new("caddy")
        .args(["validate", "--adapter", "caddyfile", "--config"])
        .arg(root.join("deploy/Caddyfile"))
        .output()
    {
        Ok(o) => assert!(
            o.status.success() && text(&o.stdout).contains("Valid configuration"),
            "{}{}",
            text(&o.stdout),
            text(&o.stderr)
        ),
        Err(_) => eprintln!("skipped: no `caddy` here to validate deploy/Caddyfile"),
    }
    let dir = Dir::new("deploy-unit");
    let unit = std::fs::read_to_string(root.join("deploy/mahjong-referee.service")).unwrap();
    assert!(unit.contains("ExecStart=/usr/local/bin/mahjong-referee serve"));
    let unit = unit.replace(
        "/usr/local/bin/mahjong-referee",
        env!("CARGO_BIN_EXE_mahjong-referee"),
    );
    let path = dir.file("mahjong-referee.service");
    std::fs::write(&path, unit).unwrap();
    match Command::new("systemd-analyze")
        .arg("verify")
        .arg(&path)
        .output()
    {
        Ok(o) => assert!(
            o.status.success() && text(&o.stderr).trim().is_empty(),
            "{}{}",
            text(&o.stdout),
            text(&o.stderr)
        ),
        Err(_) => eprintln!("skipped: no `systemd-analyze` here to verify the unit"),
    }
    // The flags the examples pass are ones `serve` takes.
    let o = run(&["serve", "--help"]);
    let help = text(&o.stdout);
    for flag in [
        "--secure-cookies",
        "--trusted-proxy",
        "--backup-dir",
        "--backup-every",
        "--backup-keep",
        "--metrics-from",
        "--log-format",
    ] {
        assert!(help.contains(flag), "serve has no {flag}");
    }
}

/// Continuous replication with Litestream (litestream.io), as the README describes it: a
/// replica kept beside a ledger being written restores to a ledger that audits clean with
/// every event written before the replica was last synced. Skipped, saying so, where
/// Litestream is not installed (it is not packaged by Debian; see the README).
#[test]
fn a_litestream_replica_restores_to_a_ledger_that_audits_clean() {
    if Command::new("litestream").arg("version").output().is_err() {
        eprintln!(
            "skipped: no `litestream` here (https://litestream.io/install/) to test replication"
        );
        return;
    }
    use web::app::commands::tournament::{self as t, NewPlayer};
    let dir = Dir::new("litestream");
    let (db, replica, restored) = (
        dir.file("club.db"),
        dir.file("replica"),
        dir.file("restored.db"),
    );
    super::ledger_commands::small_ledger(&db);
    let config = dir.file("litestream.yml");
    std::fs::write(
        &config,
        format!(
            "dbs:\n  - path: {}\n    replicas:\n      - type: file\n        path: {}\n        sync-interval: 100ms\n",
            db.display(),
            replica.display()
        ),
    )
    .unwrap();
    let mut replicating = Command::new("litestream")
        .arg("replicate")
        .arg("-config")
        .arg(&config)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut ledger = readmodel::open(&db).unwrap();
    let by = web::app::accounts::store::command_line("loader", "Load fixture");
    for n in 0..20 {
        let p = NewPlayer {
            id: Some(format!("late-{n}")),
            name: format!("Late {n}"),
            substitute: false,
            different_person: false,
        };
        t::register_player(&mut ledger, "spring", &by, &p).unwrap();
    }
    let head = ledger.head().unwrap();
    // Replicated within its sync interval; then stopped as a service manager stops it.
    std::thread::sleep(Duration::from_secs(3));
    unsafe {
        libc::kill(replicating.id() as i32, libc::SIGTERM);
    }
    let _ = replicating.wait();
    let o = Command::new("litestream")
        .arg("restore")
        .arg("-config")
        .arg(&config)
        .arg("-o")
        .arg(&restored)
        .arg(&db)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = run(&["audit", restored.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stdout));
    assert_eq!(
        readmodel::open_reader(&restored).unwrap().head().unwrap(),
        head
    );
}

#[test]
fn a_damaged_ledger_is_restored_over_only_when_forced_and_kept_aside_as_it_was() {
    let dir = Dir::new("restore-damaged");
    let (db, copy) = (dir.file("club.db"), dir.file("copy.db"));
    super::ledger_commands::small_ledger(&db);
    let o = run(&[
        "backup",
        "--db",
        db.to_str().unwrap(),
        copy.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let head = readmodel::open_reader(&copy).unwrap().head().unwrap();
    for suffix in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    std::fs::write(&db, b"this is no longer a database, the disk saw to that").unwrap();
    let err = refused(&[
        "restore",
        copy.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ]);
    assert!(
        err.contains("cannot be read as a ledger") && err.contains("--force"),
        "{err}"
    );
    let o = run(&[
        "restore",
        copy.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
        "--force",
    ]);
    let said = text(&o.stdout);
    assert!(o.status.success(), "{said}\n{}", text(&o.stderr));
    assert_eq!(readmodel::open_reader(&db).unwrap().head().unwrap(), head);
    assert!(said.contains("the ledger it replaced is kept at"), "{said}");
    let aside: Vec<_> = names_in(&dir.0)
        .into_iter()
        .filter(|n| n.starts_with("club.db.before-restore-") && !n.contains(".key"))
        .collect();
    assert_eq!(aside.len(), 1, "{said}");
    assert_eq!(
        std::fs::read(dir.file(&aside[0])).unwrap(),
        b"this is no longer a database, the disk saw to that"
    );
    // A backup is not restored over itself.
    let err = refused(&[
        "restore",
        copy.to_str().unwrap(),
        "--db",
        copy.to_str().unwrap(),
    ]);
    assert!(err.contains("is the backup itself"), "{err}");
}

#[test]
fn the_whole_play_exports_and_imports_into_a_new_ledger() {
    let dir = Dir::new("export-all");
    let (db, file, copy) = (
        dir.file("club.db"),
        dir.file("all.jsonl"),
        dir.file("new.db"),
    );
    super::ledger_commands::small_ledger(&db);
    let o = run(&[
        "export",
        "--db",
        db.to_str().unwrap(),
        "--all",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("exported 5 events of 1 streams"),
        "{}",
        text(&o.stderr)
    );
    let lines = std::fs::read_to_string(&file).unwrap();
    assert!(
        !lines.contains("\"stream\":\"accounts:"),
        "the ledger's own accounts are not exported"
    );
    let o = run(&[
        "import",
        "--db",
        copy.to_str().unwrap(),
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let (a, b) = (
        readmodel::open_reader(&db).unwrap(),
        readmodel::open_reader(&copy).unwrap(),
    );
    let stream = ledger::StreamId::tournament("spring").unwrap();
    assert_eq!(
        a.read_stream(&stream, 0).unwrap(),
        b.read_stream(&stream, 0).unwrap()
    );
    let o = run(&["export", "--db", db.to_str().unwrap()]);
    assert!(!o.status.success(), "a stream or --all");
}

/// `--log-format json`: one JSON object per line, and for each request one line with its
/// request id, method, route (the pattern), status and latency.
#[test]
fn json_logs_say_one_line_per_request_with_its_route_status_latency_and_id() {
    let dir = Dir::new("json-logs");
    let db = dir.file("club.db");
    let server = Served::start(&db, &["--log-format", "json"]);
    assert_eq!(server.get("/healthz").0, 200);
    assert_eq!(server.get("/hands/no-such-hand").0, 404);
    let said = server.said.clone();
    let (code, _) = server.terminate();
    assert_eq!(code, Some(0));
    let lines = said.lock().unwrap().clone();
    let logged: Vec<serde_json::Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    let request = |route: &str| {
        logged
            .iter()
            .find(|v| v["message"] == "request" && v["route"] == route)
            .unwrap_or_else(|| panic!("no request line for {route} in {lines:#?}"))
    };
    let health = request("/healthz");
    assert_eq!(health["status"], 200);
    assert_eq!(health["method"], "GET");
    assert!(
        health["latency_ms"].as_f64().is_some_and(|ms| ms >= 0.0),
        "{health}"
    );
    assert_eq!(
        health["request_id"].as_str().map(str::len),
        Some(36),
        "{health}"
    );
    let missing = request("/hands/{hand}");
    assert_eq!(missing["status"], 404);
    assert_eq!(missing["path"], "/hands/no-such-hand");
    assert!(logged.iter().any(|v| v["message"]
        .as_str()
        .is_some_and(|m| m.starts_with("stopping"))));
}
