//! Accounts under audit: a change made through the ledger is recorded with it, and an edit
//! made to the officials, sessions or API token tables behind the program's back is named.

use ledger::accounts::{
    password_print, session_print, token_print, AccountChange, AccountChanged, Accounts,
};
use ledger::event::OfficialRole;
use ledger::{Ledger, OfficialId};
use rusqlite::params;

use crate::util::*;

fn id(s: &str) -> OfficialId {
    OfficialId::new(s).unwrap()
}

/// Creates official `who` through the ledger, with a token and a session, as the service does.
fn create(ledger: &mut Ledger, who: &str) {
    let official = id(who);
    let (token, session) = ([who.as_bytes()[0]; 32], [who.as_bytes()[0] + 1; 32]);
    ledger
        .change_accounts(&id("admin"), |conn| {
            conn.execute(
                "INSERT INTO officials (official, name, role, is_admin, password_hash, created_at) \
                 VALUES (?1, ?2, 'scorer', 0, ?3, 0)",
                params![who, format!("{who} the scorer"), format!("$argon2id$hash-of-{who}")],
            )?;
            conn.execute(
                "INSERT INTO api_tokens (token_sha256, official, label, created_at, expires_at) \
                 VALUES (?1, ?2, 'tablet', 0, NULL)",
                params![token.to_vec(), who],
            )?;
            conn.execute(
                "INSERT INTO sessions (token_sha256, official, csrf_token, expires_at) \
                 VALUES (?1, ?2, 'c', 4000000000)",
                params![session.to_vec(), who],
            )?;
            let changes = vec![
                AccountChanged {
                    official: official.clone(),
                    change: AccountChange::Created {
                        name: format!("{who} the scorer"),
                        role: OfficialRole::Scorer,
                        admin: false,
                        password: password_print(&format!("$argon2id$hash-of-{who}")),
                    },
                },
                AccountChanged {
                    official: official.clone(),
                    change: AccountChange::TokenIssued {
                        token: token_print(&token),
                        label: "tablet".into(),
                        expires_at: None,
                    },
                },
                AccountChanged {
                    official,
                    change: AccountChange::SessionOpened {
                        session: session_print(&session),
                        expires_at: 4_000_000_000,
                    },
                },
            ];
            Ok::<_, Box<dyn std::error::Error>>(((), changes))
        })
        .unwrap();
}

fn found(ledger: &Ledger) -> Vec<String> {
    ledger
        .audit()
        .unwrap()
        .discrepancies
        .iter()
        .map(|d| d.to_string())
        .collect()
}

fn raw(dir: &TempDir, sql: &str) {
    rusqlite::Connection::open(dir.db())
        .unwrap()
        .execute_batch(sql)
        .unwrap();
}

#[test]
fn a_change_through_the_ledger_is_recorded_and_audits_clean() {
    let dir = TempDir::new("accounts-clean");
    let mut ledger = Ledger::open(dir.db()).unwrap();
    create(&mut ledger, "sam");
    assert_eq!(found(&ledger), Vec::<String>::new());
    let accounts = Accounts::read(&ledger).unwrap();
    assert_eq!(accounts.officials["sam"].role, OfficialRole::Scorer);
    assert_eq!(accounts.tokens.len(), 1);
    assert_eq!(accounts.sessions.len(), 1);
}

#[test]
fn an_official_made_administrator_behind_the_programs_back_is_named() {
    let dir = TempDir::new("accounts-admin");
    let mut ledger = Ledger::open(dir.db()).unwrap();
    create(&mut ledger, "sam");
    raw(
        &dir,
        "UPDATE officials SET is_admin = 1 WHERE official = 'sam'",
    );
    let found = found(&ledger);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("`sam` has administrator true (recorded false)"),
        "{found:?}"
    );
}

#[test]
fn rows_added_changed_or_removed_behind_the_programs_back_are_each_named() {
    let dir = TempDir::new("accounts-rows");
    let mut ledger = Ledger::open(dir.db()).unwrap();
    create(&mut ledger, "sam");
    create(&mut ledger, "ria");
    raw(
        &dir,
        "UPDATE officials SET password_hash = 'known' WHERE official = 'ria';
         INSERT INTO officials (official, name, role, is_admin, password_hash, created_at)
             VALUES ('eve', 'Eve', 'referee', 1, 'x', 0);
         INSERT INTO sessions (token_sha256, official, csrf_token, expires_at)
             VALUES (x'0303030303030303030303030303030303030303030303030303030303030303', 'eve', 'c', 4000000000);
         UPDATE api_tokens SET expires_at = 5 WHERE official = 'sam';
         DELETE FROM api_tokens WHERE official = 'ria';",
    );
    let found = found(&ledger).join("\n");
    for expected in [
        "`ria` has a password hash no account event set",
        "official `eve` has no account event",
        "a session of `eve` that no login opened",
        "now reads official `sam`, label `tablet`, expiry Some(5) (recorded None)",
        "the token `tablet` of `ria` is recorded but missing",
    ] {
        assert!(found.contains(expected), "{expected}:\n{found}");
    }
}

#[test]
fn a_change_whose_table_write_fails_records_nothing() {
    let dir = TempDir::new("accounts-atomic");
    let mut ledger = Ledger::open(dir.db()).unwrap();
    create(&mut ledger, "sam");
    let before = ledger.audit().unwrap().head;
    let failed = ledger.change_accounts(&id("admin"), |conn| {
        // The same official twice: the primary key refuses it.
        conn.execute(
            "INSERT INTO officials (official, name, role, is_admin, password_hash, created_at) \
             VALUES ('sam', 'x', 'scorer', 0, 'x', 0)",
            [],
        )?;
        Ok::<_, Box<dyn std::error::Error>>((
            (),
            vec![AccountChanged {
                official: id("sam"),
                change: AccountChange::Disabled,
            }],
        ))
    });
    assert!(failed.is_err());
    assert_eq!(ledger.audit().unwrap().head, before);
    assert_eq!(found(&ledger), Vec::<String>::new());
}

#[test]
fn officials_from_before_the_record_are_adopted_once() {
    let dir = TempDir::new("accounts-adopt");
    let mut ledger = Ledger::open(dir.db()).unwrap();
    raw(
        &dir,
        "INSERT INTO officials (official, name, role, is_admin, password_hash, created_at, disabled_at)
             VALUES ('admin', 'Administrator', 'organiser', 1, 'h', 0, NULL),
                    ('old', 'Old', 'referee', 0, 'h2', 0, 7);",
    );
    let found_before = found(&ledger).join("\n");
    assert!(
        found_before.contains("no account event records them"),
        "{found_before}"
    );
    assert_eq!(ledger.adopt_accounts().unwrap(), 3);
    assert_eq!(ledger.adopt_accounts().unwrap(), 0, "once");
    assert_eq!(found(&ledger), Vec::<String>::new());
    assert!(Accounts::read(&ledger).unwrap().officials["old"].disabled);
}

#[test]
fn another_ledgers_accounts_are_not_imported() {
    let dir = TempDir::new("accounts-import");
    let mut ledger = Ledger::open(dir.db()).unwrap();
    create(&mut ledger, "sam");
    let mut exported = Vec::new();
    ledger
        .export_stream(&ledger::accounts::stream(), &mut exported)
        .unwrap();
    let other = TempDir::new("accounts-import-other");
    let mut target = Ledger::open(other.db()).unwrap();
    let err = target.import(&exported[..]).unwrap_err().to_string();
    assert!(err.contains("line 1"), "{err}");
    assert!(err.contains("are not imported"), "{err}");
    assert_eq!(found(&target), Vec::<String>::new());
}
