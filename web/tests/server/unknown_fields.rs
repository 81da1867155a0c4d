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
