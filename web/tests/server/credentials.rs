//! Credentials: the `Bearer` scheme in any case (RFC 7235), and a lost password reset by whoever
//! holds the database, ending the official's sessions.

use actix_web::http::StatusCode;
use actix_web::test;
use serde_json::json;
use web::server::{app, auth};

use super::{spawn, PASSWORD};

#[actix_web::test]
async fn the_bearer_scheme_is_matched_in_any_case() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    for (n, scheme) in ["Bearer", "bearer", "BEARER", "bEaReR"]
        .into_iter()
        .enumerate()
    {
        let req = test::TestRequest::post()
            .uri("/api/tournaments")
            .insert_header(("authorization", format!("{scheme} {}", t.token)))
            .set_json(json!({"id": format!("cup{n}"), "name": format!("Cup {scheme}"), "ruleset": "code-of-laws", "starting_chips": 2000}))
            .to_request();
        let resp = test::call_service(&svc, req).await;
        assert_eq!(resp.status(), StatusCode::CREATED, "{scheme}");
    }
    // Another scheme, or none, is no token.
    for header in [format!("Basic {}", t.token), t.token.clone()] {
        let req = test::TestRequest::post()
            .uri("/api/tournaments")
            .insert_header(("authorization", header.clone()))
            .set_json(json!({"name": "Cup", "ruleset": "code-of-laws", "starting_chips": 2000}))
            .to_request();
        let resp = test::call_service(&svc, req).await;
        assert_eq!(resp.status(), StatusCode::UNAUTHORIZED, "{header}");
    }
    assert_eq!(auth::bearer_token("Bearer  abc "), Some("abc"));
    assert_eq!(auth::bearer_token("Bearer "), None);
}

#[actix_web::test]
async fn a_reset_password_ends_the_sessions_and_the_old_password() {
    let t = spawn();
    let (session, _) = t
        .state
        .auth_now(|c| auth::login(c, "admin", PASSWORD))
        .unwrap();
    t.state
        .auth_now(|c| auth::reset_password(c, "admin", "a new password"))
        .unwrap();
    let svc = test::init_service(app(t.state.clone())).await;
    let req = test::TestRequest::get()
        .uri("/account")
        .cookie(actix_web::cookie::Cookie::new(
            auth::SESSION_COOKIE,
            session,
        ))
        .to_request();
    let resp = test::call_service(&svc, req).await;
    assert_ne!(resp.status(), StatusCode::OK, "the old session ended");
    assert!(t
        .state
        .auth_now(|c| auth::login(c, "admin", PASSWORD))
        .is_err());
    assert!(t
        .state
        .auth_now(|c| auth::login(c, "admin", "a new password"))
        .is_ok());
    // A short password or an unknown official is refused, and nothing changes.
    assert!(t
        .state
        .auth_now(|c| auth::reset_password(c, "admin", "short"))
        .is_err());
    assert!(t
        .state
        .auth_now(|c| auth::reset_password(c, "nobody", "long enough"))
        .is_err());
    assert!(t
        .state
        .auth_now(|c| auth::login(c, "admin", "a new password"))
        .is_ok());
}
