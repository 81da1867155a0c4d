//! Numbers that would overflow later are refused at once: a 422 naming the field and the range,
//! nothing written. The edges: the maximum is accepted, one more is refused.

use super::*;
use web::app::commands::ranges::{MAX_LIMIT, MAX_STARTING_CHIPS, MAX_TABLE_NUMBER};

fn tournament(id: &str, limit: Value, chips: Value) -> Value {
    json!({"id": id, "name": id, "ruleset": "code-of-laws", "limit": limit, "starting_chips": chips})
}

async fn refused<S, B>(svc: &S, uri: &str, token: &str, body: Value, needles: &[&str])
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let resp = test::call_service(svc, post_json(uri, Some(token), body.clone())).await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let v = body_json(resp).await;
    let message = v["error"]["message"].as_str().unwrap();
    for needle in needles {
        assert!(message.contains(needle), "{body}: {message} lacks {needle}");
    }
}

#[actix_web::test]
async fn a_limit_past_the_maximum_is_refused_and_the_maximum_still_settles() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let range = format!("allowed 1 to {MAX_LIMIT}");
    for limit in [json!(MAX_LIMIT + 1), json!(u64::MAX), json!(0)] {
        refused(
            &svc,
            "/api/tournaments",
            &t.token,
            tournament("x", limit, json!(100)),
            &["limit", &range],
        )
        .await;
    }
    // A house ruleset's own limit is bounded by the ruleset loader (10^9, below MAX_LIMIT).
    let house = "name = \"roof-off\"\nbase = \"code-of-laws\"\n[params]\nlimit = 200000000000\n";
    refused(
        &svc,
        "/api/tournaments",
        &t.token,
        json!({"id": "h", "name": "H", "house_ruleset": house, "starting_chips": 100}),
        &["limit", "out of range"],
    )
    .await;
    assert_eq!(head(&t.state), 0, "nothing written");
    // The maximum is accepted, and a hand in that tournament is scored and settled.
    let resp = test::call_service(
        &svc,
        post_json(
            "/api/tournaments",
            Some(&t.token),
            tournament("spring", json!(MAX_LIMIT), json!(2000)),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    for name in ["Ann", "Ben", "Cat", "Dan"] {
        let body = json!({ "name": name });
        let uri = "/api/tournaments/spring/players";
        let resp = test::call_service(&svc, post_json(uri, Some(&t.token), body)).await;
        assert_eq!(resp.status(), StatusCode::CREATED);
    }
    let body = json!({"players": ["ann", "ben", "cat", "dan"]});
    let resp = test::call_service(
        &svc,
        post_json("/api/tournaments/spring/tables", Some(&t.token), body),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    let resp = test::call_service(
        &svc,
        post_json(
            "/api/tables/spring-t1/hands",
            Some(&t.token),
            win("spring-t1-g1-h1", "east"),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
}

#[actix_web::test]
async fn starting_chips_out_of_range_are_refused_at_the_edges() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let range = format!("allowed 0 to {MAX_STARTING_CHIPS}");
    for chips in [json!(MAX_STARTING_CHIPS + 1), json!(-1), json!(i64::MIN)] {
        refused(
            &svc,
            "/api/tournaments",
            &t.token,
            tournament("x", json!(500), chips),
            &["starting_chips", &range],
        )
        .await;
    }
    assert_eq!(head(&t.state), 0, "nothing written");
    let body = tournament("x", json!(500), json!(MAX_STARTING_CHIPS));
    let resp = test::call_service(&svc, post_json("/api/tournaments", Some(&t.token), body)).await;
    assert_eq!(resp.status(), StatusCode::CREATED);
}

#[actix_web::test]
async fn table_numbers_out_of_range_are_refused_at_the_edges() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    setup(&svc, &t.token).await;
    for name in ["Eve", "Fay", "Gus", "Hal"] {
        let body = json!({ "name": name });
        let uri = "/api/tournaments/spring/players";
        let resp = test::call_service(&svc, post_json(uri, Some(&t.token), body)).await;
        assert_eq!(resp.status(), StatusCode::CREATED);
    }
    let before = head(&t.state);
    let range = format!("allowed 1 to {MAX_TABLE_NUMBER}");
    let players = json!(["eve", "fay", "gus", "hal"]);
    for number in [json!(MAX_TABLE_NUMBER + 1), json!(0), json!(u32::MAX)] {
        refused(
            &svc,
            "/api/tournaments/spring/tables",
            &t.token,
            json!({"players": players, "number": number}),
            &["number", &range],
        )
        .await;
    }
    assert_eq!(head(&t.state), before, "nothing written");
    let body = json!({"players": players, "number": MAX_TABLE_NUMBER});
    let uri = "/api/tournaments/spring/tables";
    let resp = test::call_service(&svc, post_json(uri, Some(&t.token), body)).await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    // The next free number would be past the maximum: refused, not wrapped.
    for name in ["Ivy", "Jon", "Kim", "Lou"] {
        let body = json!({ "name": name });
        let uri = "/api/tournaments/spring/players";
        test::call_service(&svc, post_json(uri, Some(&t.token), body)).await;
    }
    refused(
        &svc,
        "/api/tournaments/spring/tables",
        &t.token,
        json!({"players": ["ivy", "jon", "kim", "lou"]}),
        &["number", &range],
    )
    .await;
}
