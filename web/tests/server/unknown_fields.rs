//! Every JSON body of the API refuses a field it does not know (a misspelt `"penalty"` must not
//! be dropped silently), with a 400 naming the field, and writes nothing.

use super::*;

#[actix_web::test]
async fn an_unknown_field_in_any_write_body_is_refused_and_writes_nothing() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let before = head(&t.state);
    let cases = [
        (
            "/api/tournaments".to_owned(),
            json!({"name": "X", "ruleset": "code-of-laws", "starting_chips": 5, "limt": 10}),
            "limt",
        ),
        (
            "/api/tournaments/spring/players".to_owned(),
            json!({"name": "Eve", "nickname": "E"}),
            "nickname",
        ),
        (
            "/api/tournaments/spring/tables".to_owned(),
            json!({"players": ["ann", "ben", "cat", "dan"], "number": 9, "shuffle": true}),
            "shuffle",
        ),
        (
            "/api/officials".to_owned(),
            json!({"official": "x", "name": "X", "role": "scorer", "password": "longenough", "admin": true}),
            "admin",
        ),
        (
            "/api/tournaments/spring/void".to_owned(),
            json!({"reason": "entered twice", "why": "?"}),
            "why",
        ),
        (
            "/api/tournaments/spring/players/ann/void".to_owned(),
            json!({"reason": "never came", "player": "ben"}),
            "player",
        ),
        (
            format!("/api/tables/{table}/void"),
            json!({"reason": "wrong players", "table": 2}),
            "table",
        ),
        (
            format!("/api/tables/{table}/close"),
            json!({"closed": true}),
            "closed",
        ),
    ];
    for (uri, body, field) in cases {
        let resp = test::call_service(&svc, post_json(&uri, Some(&t.token), body)).await;
        assert_eq!(resp.status(), StatusCode::BAD_REQUEST, "{uri}");
        let v = body_json(resp).await;
        let message = v["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("unknown field `{field}`")),
            "{uri}: {message}"
        );
    }
    assert_eq!(head(&t.state), before, "refused bodies wrote nothing");
}

/// Every error under `/api` answers JSON: a body too large, a route or a method that does not
/// exist — not actix's plain text.
#[actix_web::test]
async fn every_api_error_answers_json() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let big = json!({"id": "x", "name": "y".repeat(300 * 1024), "ruleset": "code-of-laws", "starting_chips": 2000});
    let cases = [
        (
            post_json("/api/tournaments", Some(&t.token), big),
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
        ),
        (
            test::TestRequest::get()
                .uri("/api/no-such-route")
                .to_request(),
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        (
            test::TestRequest::delete()
                .uri("/api/rulesets")
                .to_request(),
            StatusCode::NOT_FOUND,
            "not_found",
        ),
    ];
    for (req, status, kind) in cases {
        let resp = test::call_service(&svc, req).await;
        assert_eq!(resp.status(), status);
        let content_type = resp
            .headers()
            .get("content-type")
            .unwrap()
            .to_str()
            .unwrap();
        assert!(
            content_type.starts_with("application/json"),
            "{content_type}"
        );
        let v = body_json(resp).await;
        assert_eq!(v["error"]["kind"], kind, "{v}");
        assert!(v["error"]["message"].as_str().unwrap().len() > 5, "{v}");
    }
}

/// A form whose values are not UTF-8 is refused with the field named, not recorded garbled.
#[actix_web::test]
async fn a_form_not_in_utf8_is_refused_with_its_field() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let req = test::TestRequest::post()
        .uri("/login")
        .insert_header(("content-type", "application/x-www-form-urlencoded"))
        .set_payload("csrf=x&official=Zo%EB&password=secret-enough")
        .to_request();
    let resp = test::call_service(&svc, req).await;
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
    let page = body_text(resp).await;
    assert!(page.contains("the field `official` is not UTF-8"), "{page}");
}
