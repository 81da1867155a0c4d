//! Whose records a live ledger takes (`import --trust KEYFILE`, `--unsigned`), and a ledger's
//! key lost or replaced said aloud (`checkpoint`, `export`, `audit`).

use std::path::Path;

use super::ledger_commands::{run, text, Dir};

use ledger::event::OfficialRole;
use ledger::OfficialId;
use web::app::commands::tournament::{self as t, NewPlayer, NewTournament};
use web::server::{auth, AppState};

/// `dir`'s file `name`, as an argument.
fn path(dir: &Dir, name: &str) -> String {
    dir.file(name).to_str().unwrap().to_owned()
}

/// A live club ledger: its administrator, an organiser `olga`, and a tournament she created.
fn club(db: &Path) {
    let state = AppState::open(db).unwrap();
    state
        .write_now(|l| {
            auth::ensure_admin(l, Some("correct horse battery"))?;
            let admin = OfficialId::new("admin").unwrap();
            let olga = OfficialId::new("olga").unwrap();
            auth::create_official(
                l,
                &admin,
                &olga,
                "Olga",
                OfficialRole::Organiser,
                false,
                "correct horse battery",
            )
        })
        .unwrap();
    drop(state);
    let mut ledger = readmodel::open(db).unwrap();
    let new = NewTournament {
        id: Some("spring".into()),
        name: "Spring Open".into(),
        ruleset: Some("code-of-laws".into()),
        starting_chips: 2000,
        ..Default::default()
    };
    t::create(&mut ledger, &[], &olga(), &new).unwrap();
}

fn olga() -> web::app::accounts::viewer::Official {
    web::app::accounts::viewer::Official {
        id: OfficialId::new("olga").unwrap(),
        name: "Olga".into(),
        role: OfficialRole::Organiser,
        is_admin: false,
        csrf: None,
    }
}

/// A copy of `db` (as a second machine of the club has it) where Olga registers a player, and
/// the tournament's stream exported from it (signed with the copy's own key).
fn registered_elsewhere(dir: &Dir, db: &Path, name: &str) -> String {
    let copy = dir.file(&format!("{name}.db"));
    let raw = rusqlite::Connection::open(db).unwrap();
    raw.execute("VACUUM INTO ?1", [copy.to_str().unwrap()])
        .unwrap();
    let mut ledger = readmodel::open(&copy).unwrap();
    let p = NewPlayer {
        id: None,
        name: name.into(),
        substitute: false,
        different_person: false,
    };
    t::register_player(&mut ledger, "spring", &olga(), &p).unwrap();
    drop(ledger);
    let export = path(dir, &format!("{name}.jsonl"));
    let copy = copy.to_str().unwrap().to_owned();
    let o = run(&["export", "--db", &copy, "tournament:spring", "-o", &export]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    export
}

/// The public key an export is signed with.
fn signer(export: &str) -> String {
    let text = std::fs::read_to_string(export).unwrap();
    let last = text.lines().last().unwrap();
    let v: serde_json::Value = serde_json::from_str(last).unwrap();
    v["signed"]["ledger"].as_str().unwrap().to_owned()
}

#[test]
fn a_live_ledger_takes_streams_signed_by_the_ledgers_it_trusts() {
    let dir = Dir::new("import");
    let db = dir.file("club.db");
    club(&db);
    let db_s = db.to_str().unwrap().to_owned();
    let export = registered_elsewhere(&dir, &db, "ann");
    let key = signer(&export);

    // No keys named: refused, and it says how to go on.
    let o = run(&["import", "--db", &db_s, &export]);
    assert!(!o.status.success());
    let err = text(&o.stderr);
    assert!(err.contains("nothing was imported"), "{err}");
    assert!(
        err.contains(&format!(
            "tournament:spring is signed by ledger {key}, which is not among the trusted keys"
        )),
        "{err}"
    );

    // A trusted-keys file with a line that is not a key: refused, the line named.
    let keys = dir.file("trusted.txt");
    std::fs::write(&keys, "# the club's laptop\nnot-a-key\n").unwrap();
    let o = run(&[
        "import",
        "--db",
        &db_s,
        "--trust",
        keys.to_str().unwrap(),
        &export,
    ]);
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("line 2: `not-a-key`"),
        "{}",
        text(&o.stderr)
    );

    // The stream with its signature cut off: not signed, refused even with the key trusted.
    std::fs::write(&keys, format!("# the club's laptop\n{key} laptop\n")).unwrap();
    let stripped = path(&dir, "stripped.jsonl");
    let body: String = std::fs::read_to_string(&export)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("{\"signed\""))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&stripped, body).unwrap();
    let o = run(&[
        "import",
        "--db",
        &db_s,
        "--trust",
        keys.to_str().unwrap(),
        &stripped,
    ]);
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("tournament:spring is not signed"),
        "{}",
        text(&o.stderr)
    );

    // Signed by a ledger the club trusts: taken, and the audit re-decides it clean.
    let o = run(&[
        "import",
        "--db",
        &db_s,
        "--trust",
        keys.to_str().unwrap(),
        &export,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("imported 1 events"),
        "{}",
        text(&o.stdout)
    );
    let o = run(&["audit", &db_s]);
    assert!(o.status.success(), "{}", text(&o.stdout));

    // `--unsigned` takes it, and says so.
    let other = registered_elsewhere(&dir, &db, "ben");
    let o = run(&["import", "--db", &db_s, "--unsigned", &other]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("--unsigned"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn a_lost_or_replaced_key_is_said_aloud() {
    let dir = Dir::new("key");
    let db = dir.file("club.db");
    club(&db);
    let db_s = db.to_str().unwrap().to_owned();
    let o = run(&["checkpoint", "--db", &db_s]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let first: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let key_file = ledger::signing::key_path(&db);

    // Lost: no new key is made without being told.
    std::fs::remove_file(&key_file).unwrap();
    for args in [
        vec!["checkpoint", "--db", &db_s],
        vec!["export", "--db", &db_s, "tournament:spring"],
    ] {
        let o = run(&args);
        assert!(!o.status.success(), "{args:?}");
        let err = text(&o.stderr);
        assert!(err.contains("the ledger's key is missing"), "{err}");
        assert!(err.contains(first["ledger"].as_str().unwrap()), "{err}");
    }
    assert!(!key_file.exists(), "no key was made");

    // Told: a new key signs from now on, and the audit shows where the key changed.
    let o = run(&["checkpoint", "--db", &db_s, "--new-key"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let second: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_ne!(second["ledger"], first["ledger"]);
    let o = run(&["audit", &db_s]);
    let out = text(&o.stdout);
    assert!(
        out.contains(&format!("with key {}", first["ledger"].as_str().unwrap())),
        "{out}"
    );
    assert!(out.contains("the key changed here"), "{out}");

    // Replaced behind its back: refused, both keys named.
    std::fs::write(&key_file, format!("{}\n", "7".repeat(64))).unwrap();
    let o = run(&["checkpoint", "--db", &db_s]);
    assert!(!o.status.success());
    let err = text(&o.stderr);
    assert!(err.contains("the key was replaced"), "{err}");
    assert!(err.contains(second["ledger"].as_str().unwrap()), "{err}");
}
