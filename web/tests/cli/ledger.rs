//! `audit`, `export` and `import` as a user runs them, on ledgers built through the library.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use ledger::event::TournamentCreated;
use ledger::{ExpectedVersion, NewEvent, OfficialId, StreamId};

pub(crate) fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mahjong-referee"))
        .args(args)
        .output()
        .unwrap()
}

pub(crate) fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

pub(crate) struct Dir(pub(crate) PathBuf);
impl Dir {
    pub(crate) fn new(tag: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("mjr-cli-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }
    pub(crate) fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}
impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A tournament of three players, recorded by the command line as `load-fixture` records
/// (five events: created, configured, three registrations): a ledger the service made, so its
/// audit re-decides it clean.
pub(crate) fn small_ledger(path: &Path) {
    use web::app::commands::tournament::{self as t, NewPlayer, NewTournament};
    let mut ledger = readmodel::open(path).unwrap();
    let by = web::app::accounts::store::command_line("loader", "Load fixture");
    let new = NewTournament {
        id: Some("spring".into()),
        name: "Spring Open".into(),
        ruleset: Some("code-of-laws".into()),
        starting_chips: 2000,
        ..Default::default()
    };
    t::create(&mut ledger, &[], &by, &new).unwrap();
    for name in ["ann", "bob", "cy"] {
        let p = NewPlayer {
            id: Some(name.into()),
            name: name.to_uppercase(),
            substitute: false,
            different_person: false,
        };
        t::register_player(&mut ledger, "spring", &by, &p).unwrap();
    }
}

#[test]
fn audit_export_import_round_trip() {
    let dir = Dir::new("round-trip");
    let (db, copy, file) = (dir.file("a.db"), dir.file("b.db"), dir.file("spring.jsonl"));
    small_ledger(&db);
    let db_s = db.to_str().unwrap();

    let out = run(&["audit", db_s]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let report = text(&out.stdout);
    assert!(report.contains("events checked: 5"), "{report}");
    assert!(report.contains("chain head: position 5"), "{report}");
    assert!(report.contains("result: OK"), "{report}");

    let out = run(&[
        "export",
        "--db",
        db_s,
        "tournament:spring",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Five events, then the ledger's signature over the last.
    let exported = std::fs::read_to_string(&file).unwrap();
    assert_eq!(exported.lines().count(), 6);
    assert!(exported.lines().last().unwrap().starts_with("{\"signed\""));

    let out = run(&[
        "import",
        "--db",
        copy.to_str().unwrap(),
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = run(&["audit", copy.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));

    // A record edited on its way is refused, and the target ledger is unchanged.
    let edited = std::fs::read_to_string(&file)
        .unwrap()
        .replace("Spring Open", "Spring Opem");
    std::fs::write(&file, edited).unwrap();
    let fresh = dir.file("c.db");
    let out = run(&[
        "import",
        "--db",
        fresh.to_str().unwrap(),
        file.to_str().unwrap(),
    ]);
    assert_ne!(out.status.code(), Some(0));
    assert!(
        text(&out.stderr).contains("line 1"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn audit_pinpoints_tampering_and_fails() {
    let dir = Dir::new("tamper");
    let db = dir.file("a.db");
    small_ledger(&db);
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch(
            "DROP TRIGGER events_no_update;
             UPDATE events SET payload = replace(payload, 'BOB', 'ROB') WHERE version = 4;",
        )
        .unwrap();
    }
    let out = run(&["audit", db.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let report = text(&out.stdout);
    assert!(report.contains("tournament:spring version 4"), "{report}");
    assert!(report.contains("result: FAILED"), "{report}");
}

#[test]
fn audit_refuses_what_is_not_a_ledger() {
    let dir = Dir::new("missing");
    let out = run(&["audit", dir.file("nope.db").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no such database"));
    assert!(!dir.file("nope.db").exists());
}

/// The load-test fixture builds its tournament through the same commands the server runs, so
/// it must act as an official whose role may create tournaments and record hands.
#[test]
fn load_fixture_builds_a_tournament_that_audits_clean() {
    let dir = Dir::new("load-fixture");
    let db = dir.file("load.db");
    let out = run(&["load-fixture", "--db", db.to_str().unwrap(), "--hands", "8"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = run(&["audit", db.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stdout));
}

/// `admin reset-password`: for whoever holds the database, when a password is lost.
#[test]
fn a_lost_password_is_reset_by_whoever_holds_the_database() {
    use web::server::{auth, AppState};
    let dir = Dir::new("reset-password");
    let db = dir.file("club.db");
    let state = AppState::open(&db).unwrap();
    state
        .write_now(|l| auth::ensure_admin(l, Some("forgotten password")))
        .unwrap();
    drop(state);
    let db_arg = db.to_str().unwrap();
    // A generated password, printed once.
    let o = run(&["admin", "reset-password", "--db", db_arg, "admin"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let new = out.split('`').nth(3).unwrap().to_owned();
    assert_eq!(new.len(), 20, "{out}");
    let state = AppState::open(&db).unwrap();
    assert!(state.write_now(|l| auth::login(l, "admin", &new)).is_ok());
    assert!(state
        .write_now(|l| auth::login(l, "admin", "forgotten password"))
        .is_err());
    drop(state);
    // One given.
    let o = run(&[
        "admin",
        "reset-password",
        "--db",
        db_arg,
        "admin",
        "--password",
        "chosen by me",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    // An unknown official, a short password, a missing database: refused, nothing created.
    let o = run(&["admin", "reset-password", "--db", db_arg, "nobody"]);
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("no official `nobody`"),
        "{}",
        text(&o.stderr)
    );
    let o = run(&[
        "admin",
        "reset-password",
        "--db",
        db_arg,
        "admin",
        "--password",
        "short",
    ]);
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("at least 8"),
        "{}",
        text(&o.stderr)
    );
    let missing = dir.file("missing.db");
    let o = run(&[
        "admin",
        "reset-password",
        "--db",
        missing.to_str().unwrap(),
        "admin",
    ]);
    assert!(!o.status.success());
    assert!(!missing.exists());
    let state = AppState::open(&db).unwrap();
    assert!(state
        .write_now(|l| auth::login(l, "admin", "chosen by me"))
        .is_ok());
}

/// Runs the binary with `input` on its standard input (written until the pipe breaks).
fn run_with_input(args: &[&str], input: Vec<u8>) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_mahjong-referee"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    std::thread::spawn(move || stdin.write_all(&input));
    child.wait_with_output().unwrap()
}

#[test]
fn import_refuses_a_line_past_1_mib_and_leaves_no_ledger_behind() {
    let dir = Dir::new("import-long");
    let db = dir.file("new.db");
    let mut input = vec![b' '; 2 << 20];
    input.push(b'\n');
    let o = run_with_input(&["import", "--db", db.to_str().unwrap()], input);
    assert!(!o.status.success());
    let err = text(&o.stderr);
    assert!(
        err.contains("import line 1") && err.contains("longer than"),
        "{err}"
    );
    let left: Vec<_> = std::fs::read_dir(&dir.0).unwrap().collect();
    assert!(left.is_empty(), "the refused import left {left:?}");
}

#[test]
fn a_refused_import_keeps_an_existing_ledger() {
    let dir = Dir::new("import-refused");
    let db = dir.file("t.db");
    small_ledger(&db);
    let o = run_with_input(
        &["import", "--db", db.to_str().unwrap()],
        b"{\"not\": \"a line\"}\n".to_vec(),
    );
    assert!(!o.status.success());
    assert!(db.exists());
    let o = run(&["audit", db.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}

/// Runs `serve` on `db`, which must stop at start-up: returns its error output.
fn serve_refused(db: &Path) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mahjong-referee"))
        .args(["serve", "--bind", "127.0.0.1:0", "--db"])
        .arg(db)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("serve --db {} started", db.display());
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    assert!(!o.status.success());
    text(&o.stderr)
}

/// The schema as SQLite lists it.
fn schema(path: &Path) -> Vec<(String, Option<String>)> {
    let conn = rusqlite::Connection::open(path).unwrap();
    let mut stmt = conn
        .prepare("SELECT name, sql FROM sqlite_master ORDER BY name")
        .unwrap();
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    rows
}

#[test]
fn serve_refuses_a_sqlite_file_that_is_not_a_ledger_untouched() {
    let dir = Dir::new("serve-foreign");
    let db = dir.file("club.db");
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch("CREATE TABLE members (name TEXT); INSERT INTO members VALUES ('Ann')")
        .unwrap();
    let before = schema(&db);
    let err = serve_refused(&db);
    assert!(err.contains("not a mahjong-referee ledger"), "{err}");
    assert_eq!(schema(&db), before);
}

#[test]
fn serve_says_when_the_database_cannot_be_written() {
    use std::os::unix::fs::PermissionsExt;
    let dir = Dir::new("serve-unwritable");
    let missing = dir.file("nowhere").join("t.db");
    let err = serve_refused(&missing);
    assert!(
        err.contains("cannot write the database") && err.contains("does not exist"),
        "{err}"
    );
    // A FIFO (or any file that is not a regular one) is refused at once, not waited on.
    let fifo = dir.file("fifo.db");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let err = serve_refused(&fifo);
    assert!(err.contains("not a regular file"), "{err}");
    // A read-only file: only where permissions bind (not as root).
    let db = dir.file("t.db");
    small_ledger(&db);
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o444)).unwrap();
    if std::fs::OpenOptions::new().write(true).open(&db).is_ok() {
        eprintln!("read-only case skipped: permissions do not bind for this user");
        return;
    }
    let err = serve_refused(&db);
    assert!(
        err.contains("cannot write the database") && err.contains("read-only"),
        "{err}"
    );
}

/// Heads a club can publish: `checkpoint` signs and records one; `audit --expect-head FILE`
/// checks its signature and that the chain passes through it; another ledger's checkpoint
/// fails the audit, and an altered file is refused. Exports are signed, and `import` says by
/// whom.
#[test]
fn a_signed_checkpoint_is_published_and_checked_and_exports_name_their_ledger() {
    let dir = Dir::new("checkpoint");
    let db = dir.file("club.db");
    small_ledger(&db);
    let file = dir.file("head.json");
    let db_arg = db.to_str().unwrap();
    let o = run(&["checkpoint", "--db", db_arg, "-o", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let printed: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(printed["position"], 5);
    let secret = std::fs::read_to_string(dir.file("club.db.key")).unwrap();
    assert_eq!(secret.trim().len(), 64, "the key lives beside the database");
    let key = printed["ledger"].as_str().unwrap().to_owned();
    assert!(
        !text(&o.stdout).contains(secret.trim()),
        "the secret is never shown"
    );

    let o = run(&["audit", db_arg, "--expect-head", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("signature verified"), "{out}");
    assert!(out.contains("this ledger's key"), "{out}");

    // The same history written again from scratch: the checkpoint catches it.
    let other = dir.file("rewritten.db");
    small_ledger(&other);
    let o = run(&[
        "audit",
        other.to_str().unwrap(),
        "--expect-head",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stdout));
    assert!(text(&o.stdout).contains("a key this ledger has never signed"));

    // An altered checkpoint is refused before any audit.
    let altered = dir.file("altered.json");
    let original = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &altered,
        original.replace("\"position\":5", "\"position\":6"),
    )
    .unwrap();
    let o = run(&["audit", db_arg, "--expect-head", altered.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("does not match"),
        "{}",
        text(&o.stderr)
    );

    // Exports are signed with the same key; an import says whose ledger they came from.
    let export = dir.file("spring.jsonl");
    let o = run(&[
        "export",
        "--db",
        db_arg,
        "tournament:spring",
        "-o",
        export.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains(&key), "{}", text(&o.stderr));
    let fresh = dir.file("fresh.db");
    let o = run(&[
        "import",
        "--db",
        fresh.to_str().unwrap(),
        export.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains(&format!("signed by ledger {key}")),
        "{}",
        text(&o.stdout)
    );
}

/// Into a live ledger, a record is imported only if it is what that ledger would have recorded:
/// events by someone who is not one of its officials are refused, every line named, nothing
/// written. Into an empty ledger it is a copy, as before.
#[test]
fn a_live_ledger_refuses_a_record_its_officials_did_not_make() {
    let dir = Dir::new("import-live");
    let source = dir.file("source.db");
    small_ledger(&source);
    let export = dir.file("hand.jsonl");
    let mut ledger = readmodel::open(&source).unwrap();
    let stream = StreamId::tournament("autumn").unwrap();
    ledger
        .append(
            &stream,
            ExpectedVersion::Exact(0),
            vec![NewEvent::new(TournamentCreated {
                name: "Autumn".into(),
                ruleset: "code-of-laws".into(),
            })],
            &OfficialId::new("mallory").unwrap(),
        )
        .unwrap();
    drop(ledger);
    let o = run(&[
        "export",
        "--db",
        source.to_str().unwrap(),
        "tournament:autumn",
        "-o",
        export.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let live = dir.file("live.db");
    small_ledger(&live);
    let before = readmodel::open(&live).unwrap().head().unwrap();
    let o = run(&[
        "import",
        "--db",
        live.to_str().unwrap(),
        export.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let err = text(&o.stderr);
    assert!(err.contains("nothing was imported"), "{err}");
    assert!(
        err.contains("line 1: tournament:autumn version 1: recorded by `mallory`, who is not an official of this ledger"),
        "{err}"
    );
    assert_eq!(readmodel::open(&live).unwrap().head().unwrap(), before);
    // An empty ledger takes it as a copy of another ledger's record.
    let copy = dir.file("copy.db");
    let o = run(&[
        "import",
        "--db",
        copy.to_str().unwrap(),
        export.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}

/// `--admin-password` on a database that already has officials changes nothing, and the
/// server says so at start-up instead of ignoring it without a word.
#[test]
fn serve_says_when_admin_password_is_ignored() {
    use std::io::{BufRead, BufReader};
    use web::server::{auth, AppState};
    let dir = Dir::new("serve-admin-ignored");
    let db = dir.file("club.db");
    let state = AppState::open(&db).unwrap();
    state
        .write_now(|l| auth::ensure_admin(l, Some("the first password")))
        .unwrap();
    drop(state);
    let mut child = Command::new(env!("CARGO_BIN_EXE_mahjong-referee"))
        .args([
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--admin-password",
            "another password",
            "--db",
        ])
        .arg(&db)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut said = String::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while std::time::Instant::now() < deadline && !said.contains("is ignored") {
        if let Ok(line) = rx.recv_timeout(std::time::Duration::from_millis(200)) {
            said.push_str(&line);
            said.push('\n');
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(said.contains("--admin-password is ignored"), "{said}");
    assert!(said.contains("admin reset-password"), "{said}");
    let state = AppState::open(&db).unwrap();
    assert!(state
        .write_now(|l| auth::login(l, "admin", "the first password"))
        .is_ok());
}

/// The database's shared-memory file truncated under the running server: the server stops
/// saying why, with its own exit status, instead of dying of SIGBUS without a word.
#[test]
fn a_shared_memory_file_changed_under_the_server_stops_it_with_a_word() {
    use std::io::{BufRead, BufReader, Read, Write};
    let dir = Dir::new("shm-truncated");
    let db = dir.file("club.db");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mahjong-referee"))
        .args([
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--admin-password",
            "correct horse battery",
            "--db",
        ])
        .arg(&db)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let address = loop {
        let line = lines
            .next()
            .expect("the server printed its address")
            .unwrap();
        if let Some(a) = line.strip_prefix("mahjong-referee listening on http://") {
            break a.to_owned();
        }
    };
    // It prints the address it was given (port 0), before it binds: the port it took is read
    // from /proc once it listens.
    let mut port = None;
    for _ in 0..500 {
        port = listening_port(child.id());
        if port.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let port = port.unwrap_or_else(|| panic!("no port for {address}"));
    let mut shm = db.as_os_str().to_owned();
    shm.push("-shm");
    std::fs::OpenOptions::new()
        .write(true)
        .open(&shm)
        .unwrap()
        .set_len(0)
        .unwrap();
    if let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) {
        let _ =
            s.write_all(b"GET /api/tournaments HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        let _ = s.read_to_end(&mut Vec::new());
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the server kept running with its shared-memory file truncated");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(
        status.code(),
        Some(web::server::fatal::EXIT_STATUS),
        "{err}"
    );
    assert!(err.contains("shared-memory file"), "{err}");
}

/// The TCP port process `pid` listens on (Linux: its sockets in /proc/net/tcp).
pub(crate) fn listening_port(pid: u32) -> Option<u16> {
    let inodes: Vec<String> = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .ok()?
        .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .filter_map(|l| {
            let l = l.to_string_lossy().into_owned();
            l.strip_prefix("socket:[")?
                .strip_suffix(']')
                .map(str::to_owned)
        })
        .collect();
    let table = std::fs::read_to_string("/proc/net/tcp").ok()?;
    table.lines().skip(1).find_map(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        // State 0A is LISTEN; field 9 is the socket's inode.
        (f.get(3) == Some(&"0A") && inodes.iter().any(|i| Some(&i.as_str()) == f.get(9)))
            .then(|| u16::from_str_radix(f[1].rsplit(':').next()?, 16).ok())
            .flatten()
    })
}
