//! Faults of the database under the service: a write lock held by another process answers 503
//! with `Retry-After` and writes nothing; a file that is not a ledger is refused untouched.

use std::time::Duration;

use actix_web::http::{header, StatusCode};
use actix_web::test as actix_test;
use serde_json::json;
use web::server::{app, AppState};

use super::{body_json, post_json, spawn, temp_dir};

#[actix_web::test]
async fn a_locked_database_answers_503_with_retry_after_and_writes_nothing() {
    let t = spawn();
    t.state.set_busy_timeout(Duration::from_millis(50)).unwrap();
    let svc = actix_test::init_service(app(t.state.clone())).await;
    let other = rusqlite::Connection::open(t.state.path()).unwrap();
    other.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let body = json!({"id": "spring", "name": "Spring Open", "ruleset": "code-of-laws", "starting_chips": 2000});
    let resp = actix_test::call_service(
        &svc,
        post_json("/api/tournaments", Some(&t.token), body.clone()),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(resp.headers().contains_key(header::RETRY_AFTER));
    let error = &body_json(resp).await["error"];
    assert_eq!(error["kind"], "unavailable");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("retrying is safe"), "{message}");
    assert!(error["retry_after"].as_u64().is_some(), "{error}");
    other.execute_batch("ROLLBACK").unwrap();

    let resp = actix_test::call_service(
        &svc,
        actix_test::TestRequest::get()
            .uri("/api/tournaments/spring")
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::NOT_FOUND, "nothing was written");
    let resp =
        actix_test::call_service(&svc, post_json("/api/tournaments", Some(&t.token), body)).await;
    assert_eq!(resp.status(), StatusCode::CREATED, "the retry goes through");
}

/// The schema as SQLite lists it.
fn schema(path: &std::path::Path) -> Vec<(String, Option<String>)> {
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
fn a_sqlite_file_that_is_not_a_ledger_is_refused_untouched() {
    let dir = temp_dir();
    let path = dir.0.join("club.db");
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch("CREATE TABLE members (name TEXT); INSERT INTO members VALUES ('Ann')")
        .unwrap();
    let before = schema(&path);
    let err = AppState::open(&path).err().expect("not a ledger");
    assert!(matches!(err, ledger::Error::NotALedger(_)), "{err:?}");
    assert!(
        err.to_string().contains("not a mahjong-referee ledger"),
        "{err}"
    );
    assert_eq!(schema(&path), before);
}

/// Writes queued behind one that waits out another program's lock are answered 503 as soon as
/// it gives up, not each after its own wait in turn.
#[actix_web::test]
async fn writes_queued_behind_a_locked_database_are_answered_promptly() {
    let t = spawn();
    let wait = Duration::from_millis(400);
    t.state.set_busy_timeout(wait).unwrap();
    let other = rusqlite::Connection::open(t.state.path()).unwrap();
    other.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let started = std::time::Instant::now();
    let writes: Vec<_> = (0..6)
        .map(|n| {
            let state = t.state.clone();
            std::thread::spawn(move || {
                state.write_now(|l| {
                    let stream = ledger::StreamId::tournament(&format!("t{n}")).unwrap();
                    l.append(
                        &stream,
                        ledger::ExpectedVersion::Exact(0),
                        vec![ledger::NewEvent::new(ledger::event::TournamentCreated {
                            name: "x".into(),
                            ruleset: "code-of-laws".into(),
                        })],
                        &ledger::OfficialId::new("admin").unwrap(),
                    )?;
                    Ok(())
                })
            })
        })
        .collect();
    let answers: Vec<_> = writes.into_iter().map(|w| w.join().unwrap()).collect();
    let took = started.elapsed();
    for a in &answers {
        let e = a.as_ref().unwrap_err();
        assert_eq!(e.kind, web::server::error::ErrorKind::Unavailable, "{e:?}");
    }
    // One wait for the lock (two at most, for a write that came in while the first gave up),
    // not six in turn.
    assert!(took < wait * 3, "six queued writes took {took:?}");
    other.execute_batch("ROLLBACK").unwrap();
}
