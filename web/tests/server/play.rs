//! A hand recorded play by play through the API, one action per request: each answer carries
//! the new version and what the recorder may see; a stale version is a conflict answered with
//! the current state; an inconsistent event is refused and writes nothing; the hand ends
//! scored and settled as if it had been recorded at once.

use super::*;
use referee::import::mjs;

/// mj-server's first hand of its seed-7 robot game: the wall, every event of the play, and
/// the hands as the robots laid them down.
fn robot_hand() -> (Value, Vec<Value>, Vec<Value>) {
    let text = include_str!("../../../fixtures/mj-server/seed-7/hand-01.mjs");
    let hand = mjs::read(text, "imported".parse().unwrap(), 1, 1).unwrap();
    let (mut events, mut laid) = (Vec::new(), Vec::new());
    for (_, e) in hand.events {
        match e {
            ledger::event::HandEvent::HandExposed(x) => laid.push(serde_json::to_value(x).unwrap()),
            e => events.push(serde_json::to_value(ledger::Event::from(e)).unwrap()),
        }
    }
    (
        serde_json::to_value(&hand.started.deal).unwrap(),
        events,
        laid,
    )
}

async fn send<S, B>(svc: &S, uri: &str, token: &str, body: Value) -> (StatusCode, Value)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let resp = test::call_service(svc, post_json(uri, Some(token), body)).await;
    let status = resp.status();
    (status, body_json(resp).await)
}

#[actix_web::test]
async fn a_hand_recorded_event_by_event_ends_scored_settled_and_replayable() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let hand = format!("{table}-g1-h1");
    let (deal, events, laid) = robot_hand();

    let (status, started) = send(
        &svc,
        &format!("/api/tables/{table}/play"),
        &t.tokens.scorer,
        json!({"hand": hand, "dice": [3, 4], "deal": deal}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{started}");
    assert_eq!(started["version"], 1);
    assert_eq!(started["state"]["seats"][0]["in_hand"], 14);
    // A second start while the hand is in play is refused.
    let (status, again) = send(
        &svc,
        &format!("/api/tables/{table}/play"),
        &t.token,
        json!({"hand": hand, "deal": deal}),
    )
    .await;
    assert_ne!(status, StatusCode::CREATED, "{again}");

    let uri = format!("/api/hands/{hand}/events");
    let mut version = 1;
    for (i, event) in events.iter().enumerate() {
        if i == 5 {
            // Decided on a stale version: 409 with the current version and state.
            let (status, conflict) = send(
                &svc,
                &uri,
                &t.tokens.scorer,
                json!({"version": version - 1, "event": event}),
            )
            .await;
            assert_eq!(status, StatusCode::CONFLICT, "{conflict}");
            assert_eq!(conflict["version"], version);
            assert_eq!(conflict["state"]["at"], i);
            // A discard of a tile nobody holds: refused, nothing written.
            let before = head(&t.state);
            let (status, refused) = send(
                &svc,
                &uri,
                &t.tokens.scorer,
                json!({"version": version, "event": {"type": "tile_discarded", "data": {"seat": "east", "placed": "9s", "named": "9s"}}}),
            )
            .await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
            assert_eq!(head(&t.state), before);
        }
        let seat = event["data"]["seat"].as_str().unwrap_or("east").to_owned();
        let mut body = json!({"version": version, "event": event, "seat": seat});
        if i + 1 == events.len() {
            // The hands laid down come with the event that ends the hand (Code §104).
            body["laid_down"] = json!(laid);
        }
        let (status, answer) = send(&svc, &uri, &t.tokens.scorer, body).await;
        assert_eq!(status, StatusCode::OK, "event {i}: {answer}");
        assert!(answer["version"].as_u64().unwrap() > version);
        version = answer["version"].as_u64().unwrap();
        // A seat's tablet sees its own concealed tiles and no one else's (until the end).
        if !answer["over"].as_bool().unwrap() {
            for (n, s) in answer["state"]["seats"]
                .as_array()
                .unwrap()
                .iter()
                .enumerate()
            {
                let own = ["east", "south", "west", "north"][n] == seat;
                assert_eq!(!s["concealed"].is_null(), own, "event {i}: {s}");
            }
        }
    }
    // The last event ended the hand: it is scored and settled as the server did (North won).
    let hv = hand_json(&svc, &hand).await;
    assert_eq!(hv["nets"][3], "+88", "{}", hv["nets"]);
    assert_eq!(hv["result"], "Ben wins (22 points)");

    // The hand at any moment: the public sees no concealed tile while it is in play.
    let view = get_json(&svc, &format!("/api/hands/{hand}/play?at=10")).await;
    assert_eq!(view["at"], 10);
    assert_eq!(view["last"], events.len() + laid.len());
    assert!(view["seats"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["concealed"].is_null()));
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/api/hands/{hand}/play?at=10"))
            .insert_header(("authorization", format!("Bearer {}", t.token)))
            .to_request(),
    )
    .await;
    let official = body_json(resp).await;
    assert!(official["seats"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| !s["concealed"].is_null()));
    let end = get_json(&svc, &format!("/api/hands/{hand}/play")).await;
    assert_eq!(end["over"], true);
    assert!(end["seats"][3]["concealed"].is_array());

    // The replay viewer: each moment at its own address.
    for at in [0, 10, events.len()] {
        let resp = test::call_service(
            &svc,
            test::TestRequest::get()
                .uri(&format!("/hands/{hand}/at/{at}"))
                .to_request(),
        )
        .await;
        assert_eq!(resp.status(), StatusCode::OK, "at {at}");
        let page = body_text(resp).await;
        assert!(page.contains(&format!("/hands/{hand}/at/")), "at {at}");
        // The seats are named by their players; the steps need no emoji font.
        for name in ["Ann", "Ben", "Cat", "Dan"] {
            assert!(
                page.contains(&format!("<h2>{name} <small>")),
                "{name} at {at}"
            );
        }
        assert!(!page.contains('⏮') && !page.contains('⏭'), "at {at}");
    }
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/hands/{hand}/at/x"))
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
}

#[actix_web::test]
async fn a_hand_in_play_may_be_finished_with_a_report_and_then_takes_no_event() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let hand = format!("{table}-g1-h1");
    let (status, _) = send(
        &svc,
        &format!("/api/tables/{table}/play"),
        &t.token,
        json!({"hand": hand}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, v) = send(
        &svc,
        &format!("/api/hands/{hand}/events"),
        &t.token,
        json!({"version": 1, "event": {"type": "tile_discarded", "data": {"seat": "east", "placed": "5p", "named": "5p"}}}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // The tiles were not known: the discard is only counted.
    assert_eq!(v["state"]["seats"][0]["in_hand"], 13);
    let resp = test::call_service(
        &svc,
        post_json(
            &format!("/api/tables/{table}/hands"),
            Some(&t.token),
            win(&hand, "south"),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    let (status, v) = send(
        &svc,
        &format!("/api/hands/{hand}/events"),
        &t.token,
        json!({"version": v["version"], "event": {"type": "claim_passed", "data": {"seat": "south"}}}),
    )
    .await;
    assert!(status.is_client_error(), "{v}");
}

#[actix_web::test]
async fn malformed_play_requests_are_refused_with_what_is_wrong_and_write_nothing() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let hand = format!("{table}-g1-h1");
    let (status, _) = send(
        &svc,
        &format!("/api/tables/{table}/play"),
        &t.token,
        json!({"hand": hand}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let before = head(&t.state);
    let uri = format!("/api/hands/{hand}/events");
    for (body, kind, needle) in [
        (json!({"version": 1}), "bad_request", "event"),
        (
            json!({"version": 1, "event": {"type": "no_such_event", "data": {}}}),
            "bad_request",
            "no_such_event",
        ),
        (
            json!({"version": 1, "event": {"type": "player_registered", "data": {"player": "x", "name": "X"}}}),
            "bad_request",
            "not an event of a hand",
        ),
        (
            json!({"version": 1, "event": {"type": "tile_discarded", "data": {"seat": "east", "placed": "0p", "named": "0p"}}}),
            "bad_request",
            "0p",
        ),
        (
            json!({"version": 1, "event": {"type": "claim_passed", "data": {"seat": "south"}}, "extra": 1}),
            "bad_request",
            "extra",
        ),
        (
            json!({"version": 1, "event": {"type": "tile_discarded", "data": {"seat": "east", "placed": "5p", "named": "5p"}}, "laid_down": [{"seat": "east", "hand": "123m 456m 789m 123p 5s"}]}),
            "unprocessable",
            "laid down",
        ),
    ] {
        let (status, v) = send(&svc, &uri, &t.token, body.clone()).await;
        assert!(status.is_client_error(), "{body}: {status} {v}");
        assert_eq!(v["error"]["kind"], kind, "{body}: {v}");
        assert!(v.to_string().contains(needle), "{body}: {v}");
    }
    // A hand that does not exist, and a moment past the end.
    let (status, _) = send(
        &svc,
        "/api/hands/nowhere-g1-h1/events",
        &t.token,
        json!({"version": 1, "event": {"type": "claim_passed", "data": {"seat": "south"}}}),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/api/hands/{hand}/play?at=x"))
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/hands/{hand}/at/99"))
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    // Without a token nothing is written either.
    let resp = test::call_service(
        &svc,
        post_json(
            &uri,
            None,
            json!({"version": 1, "event": {"type": "claim_passed", "data": {"seat": "south"}}}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(head(&t.state), before);
}

/// Records the robot hand through the API; returns the hand's id and its version.
async fn played<S, B>(svc: &S, token: &str, table: &str) -> (String, u64)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let hand = format!("{table}-g1-h1");
    let (deal, events, laid) = robot_hand();
    let (status, started) = send(
        svc,
        &format!("/api/tables/{table}/play"),
        token,
        json!({"hand": hand, "dice": [3, 4], "deal": deal}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{started}");
    let mut version = 1;
    let uri = format!("/api/hands/{hand}/events");
    for (i, event) in events.iter().enumerate() {
        let mut body = json!({"version": version, "event": event});
        if i + 1 == events.len() {
            body["laid_down"] = json!(laid);
        }
        let (status, answer) = send(svc, &uri, token, body).await;
        assert_eq!(status, StatusCode::OK, "event {i}: {answer}");
        version = answer["version"].as_u64().unwrap();
    }
    (hand, version)
}

/// Code §110 through the service: North, who won 22, counts his hand at 10; it stands at his
/// count, the settlement and the replay follow, and the engine finds it undervalued.
#[actix_web::test]
async fn a_players_own_count_is_recorded_settles_the_hand_and_is_found() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let (hand, version) = played(&svc, &t.tokens.scorer, &table).await;
    assert_eq!(hand_json(&svc, &hand).await["nets"][3], "+88");
    let uri = format!("/api/hands/{hand}/counts");
    // Refused, and nothing written: a stale version, an unknown field, a count below nothing.
    let before = head(&t.state);
    for (body, want) in [
        (
            json!({"version": version - 1, "seat": "north", "points": 10}),
            StatusCode::CONFLICT,
        ),
        (
            json!({"version": version, "seat": "north", "points": 10, "colour": 1}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"version": version, "seat": "north", "points": -3}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ] {
        let (status, answer) = send(&svc, &uri, &t.tokens.scorer, body).await;
        assert_eq!(status, want, "{answer}");
    }
    assert_eq!(head(&t.state), before);
    let (status, answer) = send(
        &svc,
        &uri,
        &t.tokens.scorer,
        json!({"version": version, "seat": "north", "points": 10, "elements": ["a pung"]}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    // North, not East, is paid 10 twice by East and once by each other (Code §108).
    let hv = hand_json(&svc, &hand).await;
    assert_eq!(hv["nets"][3], "+40", "{}", hv["nets"]);
    assert_eq!(hv["net_sum"], 0);
    // The play is what happened: the count replaced the result, never a draw or a hand laid
    // down at the table; the first sheets and settlement are superseded.
    let history = hv["history"].as_array().unwrap();
    let scored = history
        .iter()
        .position(|e| e["event_type"] == "hand_scored")
        .unwrap();
    assert!(
        history[..scored].iter().all(|e| e["superseded"] == false),
        "{history:?}"
    );
    assert_eq!(history[scored]["superseded"], true, "{history:?}");
    // The engine finds the count undervalued, from the replayed play.
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/api/hands/{hand}/findings"))
            .insert_header(("authorization", format!("Bearer {}", t.tokens.referee)))
            .to_request(),
    )
    .await;
    let found = body_json(resp).await;
    let undervalued = found["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["kind"] == "undervalued")
        .unwrap_or_else(|| panic!("{found}"));
    assert_eq!(undervalued["penalty"]["kind"], "own-count");
    assert!(undervalued["text"]
        .as_str()
        .unwrap()
        .contains("counted his hand at 10, but as laid down it scores 22"));
    // The replay still reaches the end of the play, the count after it.
    let end = get_json(&svc, &format!("/api/hands/{hand}/play")).await;
    assert_eq!(end["over"], true, "{end}");
    // The hand page says so.
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/hands/{hand}"))
            .to_request(),
    )
    .await;
    let page = body_text(resp).await;
    assert!(
        page.contains("Own count: Ben counted"),
        "not a penalty: {page}"
    );
    assert!(page.contains("counted the hand at 10"), "{page}");
    // The headline follows the count: North is paid on 10, not 22.
    assert!(
        page.contains("wins (10 points as counted; the hand is worth 22)"),
        "{page}"
    );
    // Once the table is closed, a count changes nothing: only a referee's ruling may.
    let (status, _) = send(
        &svc,
        &format!("/api/tables/{table}/close"),
        &t.token,
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let version = hand_json(&svc, &hand).await["version"].clone();
    let before = head(&t.state);
    let (status, answer) = send(
        &svc,
        &uri,
        &t.tokens.scorer,
        json!({"version": version, "seat": "north", "points": 1}),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    assert!(answer.to_string().contains("only by a referee"), "{answer}");
    assert_eq!(head(&t.state), before);
}

/// A table with a hand in play is neither closed nor voided (nor its session closed): the hand
/// would be left unfinishable. Once its result is recorded, the table closes.
#[actix_web::test]
async fn a_table_with_a_hand_in_play_is_not_closed_or_voided() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let hand = format!("{table}-g1-h1");
    let (deal, _, _) = robot_hand();
    let (status, started) = send(
        &svc,
        &format!("/api/tables/{table}/play"),
        &t.tokens.scorer,
        json!({"hand": hand, "dice": [3, 4], "deal": deal}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{started}");
    let before = head(&t.state);
    for (action, body) in [
        ("close", json!({})),
        ("void", json!({"reason": "a mistake"})),
    ] {
        let (status, refused) = send(
            &svc,
            &format!("/api/tables/{table}/{action}"),
            &t.token,
            body,
        )
        .await;
        assert_eq!(status, StatusCode::CONFLICT, "{action}: {refused}");
        assert!(
            refused.to_string().contains("has hand g1-h1 in play"),
            "{action}: {refused}"
        );
    }
    assert_eq!(head(&t.state), before, "nothing was written");
    // Its result reported (a wash-out): the table closes.
    let (status, done) = send(
        &svc,
        &format!("/api/tables/{table}/hands"),
        &t.token,
        json!({"hand": hand, "hands": {}}),
    )
    .await;
    assert!(status.is_success(), "{done}");
    let (status, closed) = send(
        &svc,
        &format!("/api/tables/{table}/close"),
        &t.token,
        json!({}),
    )
    .await;
    assert!(status.is_success(), "{closed}");
}
