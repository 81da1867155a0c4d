//! What watches the service from outside: `/healthz`, `/readyz`, `/metrics`, and a stop that
//! refuses new writes before it ends.

use actix_web::http::StatusCode;
use actix_web::test;
use serde_json::json;

use super::{body_json, body_text, post_json, setup, spawn};

#[actix_web::test]
async fn health_says_the_database_is_writable_with_its_head_and_readiness_says_ready() {
    let t = spawn();
    let svc = test::init_service(web::server::app(t.state.clone())).await;
    let r = test::call_service(&svc, test::TestRequest::get().uri("/healthz").to_request()).await;
    assert_eq!(r.status(), StatusCode::OK);
    let body = body_json(r).await;
    let head = t.state.read_now(|l| Ok(l.head()?)).unwrap();
    assert_eq!(body["status"], "ok");
    assert_eq!(body["database"], "writable");
    assert_eq!(body["head"]["position"], head.position);
    assert_eq!(body["head"]["chain_hash"], head.chain_hash.to_hex());
    // The probe moved nothing: no event, and the pages' cache keeps its generation.
    let generation = t.state.generation();
    let r = test::call_service(&svc, test::TestRequest::get().uri("/healthz").to_request()).await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(t.state.generation(), generation);
    assert_eq!(t.state.read_now(|l| Ok(l.head()?)).unwrap(), head);
    let r = test::call_service(&svc, test::TestRequest::get().uri("/readyz").to_request()).await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(body_json(r).await, json!({ "ready": true }));
}

#[actix_web::test]
async fn stopping_refuses_new_writes_with_retry_after_and_is_not_ready() {
    let t = spawn();
    let svc = test::init_service(web::server::app(t.state.clone())).await;
    setup(&svc, &t.token).await;
    let before = super::head(&t.state);
    t.state.begin_draining();
    let r = test::call_service(
        &svc,
        post_json(
            "/api/tournaments/spring/players",
            Some(&t.token),
            json!({ "name": "Eve" }),
        ),
    )
    .await;
    assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(r.headers().contains_key("retry-after"));
    let said = body_text(r).await;
    assert!(
        said.contains("stopping") && said.contains("nothing was written"),
        "{said}"
    );
    assert_eq!(super::head(&t.state), before);
    let r = test::call_service(&svc, test::TestRequest::get().uri("/readyz").to_request()).await;
    assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(r.headers().contains_key("retry-after"));
    // Reading goes on until the server stops taking connections.
    let r = test::call_service(&svc, test::TestRequest::get().uri("/").to_request()).await;
    assert_eq!(r.status(), StatusCode::OK);
    let r = test::call_service(&svc, test::TestRequest::get().uri("/healthz").to_request()).await;
    assert_eq!(body_json(r).await["stopping"], true);
}

#[actix_web::test]
async fn a_stop_ends_the_live_streams() {
    let t = spawn();
    let svc = test::init_service(web::server::app(t.state.clone())).await;
    let create = json!({"id": "night", "name": "Club Night", "ruleset": "code-of-laws", "starting_chips": 2000});
    let r = test::call_service(&svc, post_json("/api/tournaments", Some(&t.token), create)).await;
    assert_eq!(r.status(), StatusCode::CREATED);
    for name in ["Ann", "Ben", "Cat", "Dan"] {
        let player = json!({ "name": name });
        let r = test::call_service(
            &svc,
            post_json("/api/tournaments/night/players", Some(&t.token), player),
        )
        .await;
        assert_eq!(r.status(), StatusCode::CREATED);
    }
    let open = json!({"method": "random", "seed": 7});
    let r = test::call_service(
        &svc,
        post_json("/api/tournaments/night/sessions", Some(&t.token), open),
    )
    .await;
    assert_eq!(r.status(), StatusCode::CREATED, "{}", body_text(r).await);
    let r = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/t/night/sessions/1/live/events")
            .insert_header(("authorization", format!("Bearer {}", t.token)))
            .to_request(),
    )
    .await;
    assert_eq!(r.status(), StatusCode::OK);
    let reading = actix_web::rt::spawn(test::read_body(r));
    actix_web::rt::time::sleep(std::time::Duration::from_millis(50)).await;
    t.state.begin_draining();
    let ended = actix_web::rt::time::timeout(std::time::Duration::from_secs(5), reading).await;
    assert!(ended.is_ok(), "the stream went on after the stop");
}

#[actix_web::test]
async fn metrics_are_for_officials_and_the_addresses_named_and_count_by_route() {
    let t = spawn();
    let svc = test::init_service(web::server::app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let r = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/api/tables/{table}"))
            .to_request(),
    )
    .await;
    assert_eq!(r.status(), StatusCode::OK);
    let anonymous = test::TestRequest::get()
        .uri("/metrics")
        .peer_addr("203.0.113.5:4000".parse().unwrap())
        .to_request();
    let r = test::call_service(&svc, anonymous).await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    let r = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/metrics")
            .insert_header(("authorization", format!("Bearer {}", t.tokens.scorer)))
            .to_request(),
    )
    .await;
    assert_eq!(r.status(), StatusCode::OK);
    assert!(r
        .headers()
        .get("content-type")
        .unwrap()
        .to_str()
        .unwrap()
        .starts_with("text/plain; version=0.0.4"));
    let text = body_text(r).await;
    for wanted in [
        "mahjong_http_requests_total{",
        "route=\"/api/tournaments\"",
        "mahjong_http_request_duration_seconds_bucket{",
        "mahjong_ledger_writes_total{outcome=\"ok\"}",
        "mahjong_ledger_write_duration_seconds_bucket",
        "mahjong_ledger_events_appended_total",
        "mahjong_ledger_head_position",
    ] {
        assert!(text.contains(wanted), "no {wanted} in\n{text}");
    }
    // Counted by route pattern, never by path: no table id in a label.
    assert!(text.contains("route=\"/api/tables/{table}\""), "{text}");
    assert!(!text.contains(&format!("/api/tables/{table}\"")), "{text}");
    // An address allowed by --metrics-from reads them without logging in.
    let mut state = web::server::AppState::open(t.state.path()).unwrap();
    state.metrics_from = vec!["203.0.113.0/24".parse().unwrap()];
    let svc = test::init_service(web::server::app(actix_web::web::Data::new(state))).await;
    let allowed = test::TestRequest::get()
        .uri("/metrics")
        .peer_addr("203.0.113.5:4000".parse().unwrap())
        .to_request();
    assert_eq!(
        test::call_service(&svc, allowed).await.status(),
        StatusCode::OK
    );
}
