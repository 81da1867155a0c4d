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
        .write_now(|l| auth::login(l, "admin", PASSWORD))
        .unwrap();
    t.state
        .write_now(|l| auth::reset_password(l, &auth::system(), "admin", "a new password"))
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
        .write_now(|l| auth::login(l, "admin", PASSWORD))
        .is_err());
    assert!(t
        .state
        .write_now(|l| auth::login(l, "admin", "a new password"))
        .is_ok());
    // A short password or an unknown official is refused, and nothing changes.
    assert!(t
        .state
        .write_now(|l| auth::reset_password(l, &auth::system(), "admin", "short"))
        .is_err());
    assert!(t
        .state
        .write_now(|l| auth::reset_password(l, &auth::system(), "nobody", "long enough"))
        .is_err());
    assert!(t
        .state
        .write_now(|l| auth::login(l, "admin", "a new password"))
        .is_ok());
}

#[actix_web::test]
async fn api_tokens_are_listed_expire_and_are_revoked_at_once() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let (session, csrf) = super::login(&svc).await;
    let write = |token: &str, n: usize| {
        test::TestRequest::post()
            .uri("/api/tournaments")
            .insert_header(("authorization", format!("Bearer {token}")))
            .set_json(json!({"id": format!("t{n}"), "name": "Cup", "ruleset": "code-of-laws", "starting_chips": 2000}))
            .to_request()
    };
    // A token created through the account page, with an expiry, is listed (never shown again).
    let req = test::TestRequest::post()
        .uri("/account/tokens")
        .cookie(session.clone())
        .set_form([
            ("csrf", csrf.as_str()),
            ("label", "table 1 tablet"),
            ("days", "30"),
        ])
        .to_request();
    let page = super::body_text(test::call_service(&svc, req).await).await;
    let token = page
        .split("<pre class=\"token\">")
        .nth(1)
        .and_then(|r| r.split('<').next())
        .unwrap()
        .to_owned();
    assert!(page.contains("table 1 tablet"), "{page}");
    let resp = test::call_service(&svc, write(&token, 1)).await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    // A bad expiry is refused.
    let req = test::TestRequest::post()
        .uri("/account/tokens")
        .cookie(session.clone())
        .set_form([("csrf", csrf.as_str()), ("label", "x"), ("days", "0")])
        .to_request();
    assert_eq!(
        test::call_service(&svc, req).await.status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    // An expired token is refused like an unknown one, and listed as expired.
    let admin = ledger::OfficialId::new("admin").unwrap();
    let stale = t
        .state
        .write_now(|l| auth::create_api_token_until(l, &admin, "old script", Some(1)))
        .unwrap();
    let resp = test::call_service(&svc, write(&stale, 2)).await;
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    let listed = t
        .state
        .auth_now(|c| auth::list_api_tokens(c, "admin"))
        .unwrap();
    assert!(listed.iter().any(|l| l.label == "old script" && l.expired));
    // Revoked from the account page: it stops at once.
    let id = listed
        .iter()
        .find(|l| l.label == "table 1 tablet")
        .unwrap()
        .id;
    let req = test::TestRequest::post()
        .uri(&format!("/account/tokens/{id}/revoke"))
        .cookie(session.clone())
        .set_form([("csrf", csrf.as_str())])
        .to_request();
    let page = super::body_text(test::call_service(&svc, req).await).await;
    assert!(page.contains("revoked"), "{page}");
    let resp = test::call_service(&svc, write(&token, 3)).await;
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    // Another official's token, or one that does not exist, is not revoked.
    let req = test::TestRequest::post()
        .uri("/account/tokens/999999/revoke")
        .cookie(session.clone())
        .set_form([("csrf", csrf.as_str())])
        .to_request();
    assert_eq!(
        test::call_service(&svc, req).await.status(),
        StatusCode::NOT_FOUND
    );
    let sams = t
        .state
        .auth_now(|c| auth::list_api_tokens(c, "sam"))
        .unwrap();
    let req = test::TestRequest::post()
        .uri(&format!("/account/tokens/{}/revoke", sams[0].id))
        .cookie(session)
        .set_form([("csrf", csrf.as_str())])
        .to_request();
    assert_eq!(
        test::call_service(&svc, req).await.status(),
        StatusCode::NOT_FOUND
    );
    let resp = test::call_service(&svc, write(&t.tokens.scorer, 4)).await;
    assert_ne!(
        resp.status(),
        StatusCode::UNAUTHORIZED,
        "sam's token still works"
    );
}

/// A login that runs out while a hand is typed loses nothing: the post goes to the login page,
/// which comes back to the record form with the hand as typed; nothing is recorded on the way.
/// The way back only ever leads to a page of this site.
#[actix_web::test]
async fn a_lost_login_comes_back_to_the_record_form_with_the_hand_typed() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = super::setup(&svc, &t.token).await;
    let before = super::head(&t.state);
    let req = test::TestRequest::post()
        .uri(&format!("/tables/{table}/hands"))
        .set_form([
            ("csrf", "stale"),
            ("hand", "x"),
            ("hand_east", "123m 456m 789m EE 11p 1f =1p"),
            ("winner", "east"),
        ])
        .to_request();
    let resp = test::call_service(&svc, req).await;
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    let login = resp
        .headers()
        .get("location")
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    assert!(login.starts_with("/login?next=%2Ftables%2F"), "{login}");
    assert_eq!(super::head(&t.state), before, "nothing recorded");
    // The login page carries the way back.
    let (cookie, csrf) = {
        let resp =
            test::call_service(&svc, test::TestRequest::get().uri(&login).to_request()).await;
        let cookie = resp
            .response()
            .cookies()
            .find(|c| c.name() == auth::LOGIN_CSRF_COOKIE)
            .unwrap()
            .into_owned();
        let page = super::body_text(resp).await;
        assert!(page.contains("name=\"next\""), "{page}");
        let csrf = page
            .split("name=\"csrf\" value=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap()
            .to_owned();
        (cookie, csrf)
    };
    let next = percent_encoding::percent_decode_str(login.trim_start_matches("/login?next="))
        .decode_utf8()
        .unwrap()
        .into_owned();
    let req = test::TestRequest::post()
        .uri("/login")
        .cookie(cookie.clone())
        .set_form([
            ("csrf", csrf.as_str()),
            ("official", "admin"),
            ("password", PASSWORD),
            ("next", next.as_str()),
        ])
        .to_request();
    let resp = test::call_service(&svc, req).await;
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    let back = resp
        .headers()
        .get("location")
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    assert_eq!(back, next);
    let session = resp
        .response()
        .cookies()
        .find(|c| c.name() == auth::SESSION_COOKIE)
        .unwrap()
        .into_owned();
    let page = super::body_text(
        test::call_service(
            &svc,
            test::TestRequest::get()
                .uri(&back)
                .cookie(session)
                .to_request(),
        )
        .await,
    )
    .await;
    assert!(
        page.contains("value=\"123m 456m 789m EE 11p 1f =1p\""),
        "the hand as typed: {page}"
    );
    // Elsewhere is never a way back.
    for next in ["//evil.example/", "https://evil.example/", "/\\evil"] {
        let (cookie, csrf) = super::login_form(&svc).await;
        let req = test::TestRequest::post()
            .uri("/login")
            .cookie(cookie)
            .set_form([
                ("csrf", csrf.as_str()),
                ("official", "admin"),
                ("password", PASSWORD),
                ("next", next),
            ])
            .to_request();
        let resp = test::call_service(&svc, req).await;
        assert_eq!(resp.headers().get("location").unwrap(), "/", "{next}");
    }
}
