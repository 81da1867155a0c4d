//! Credentials can be withdrawn: an official changes their own password; the administrator
//! changes roles, disables and re-enables officials and resets passwords, by the pages and the
//! API; a disabled official's sessions and tokens stop at once; an active administrator always
//! remains.

use actix_web::cookie::Cookie;

use super::*;

/// A session of `id` opened directly (not through the throttled form): cookie and CSRF token.
fn session(state: &AppState, id: &str, password: &str) -> (Cookie<'static>, String) {
    let (token, csrf) = state.write_now(|l| auth::login(l, id, password)).unwrap();
    (Cookie::new(auth::SESSION_COOKIE, token), csrf)
}

/// The status of `GET /account` with `cookie`: 200 while the session lives.
async fn account_status<S, B>(svc: &S, cookie: &Cookie<'static>) -> StatusCode
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let req = test::TestRequest::get()
        .uri("/account")
        .cookie(cookie.clone())
        .to_request();
    test::call_service(svc, req).await.status()
}

/// Posts JSON with `token`; answers the status and the body.
async fn call<S, B>(svc: &S, uri: &str, token: &str, body: Value) -> (StatusCode, Value)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let resp = test::call_service(svc, post_json(uri, Some(token), body)).await;
    let status = resp.status();
    (status, body_json(resp).await)
}

/// A write the organiser's role allows: 201 while `token` is an organiser's and valid.
async fn create_tournament<S, B>(svc: &S, token: &str, id: &str) -> StatusCode
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let body = json!({"id": id, "name": id, "ruleset": "code-of-laws", "starting_chips": 100});
    test::call_service(svc, post_json("/api/tournaments", Some(token), body))
        .await
        .status()
}

fn listing(state: &AppState, id: &str) -> auth::OfficialListing {
    state.auth_now(|c| auth::official_listing(c, id)).unwrap()
}

#[actix_web::test]
async fn an_official_changes_their_own_password_ending_their_other_sessions() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let (here, csrf) = session(&t.state, "admin", PASSWORD);
    let (elsewhere, _) = session(&t.state, "admin", PASSWORD);
    let change = |cookie: &Cookie<'static>, fields: [(&str, &str); 4]| {
        test::TestRequest::post()
            .uri("/account/password")
            .cookie(cookie.clone())
            .set_form(fields)
            .to_request()
    };

    // Every problem is listed with its field, and nothing changes.
    let resp = test::call_service(
        &svc,
        change(
            &here,
            [
                ("csrf", &csrf),
                ("current", "not my password"),
                ("new", "short"),
                ("repeat", "shorter"),
            ],
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page = body_text(resp).await;
    for problem in [
        "this is not your current password",
        "at least 8 characters",
        "differ",
    ] {
        assert!(page.contains(problem), "{problem}: {page}");
    }
    assert_eq!(account_status(&svc, &elsewhere).await, StatusCode::OK);
    // Without the session's CSRF token: refused.
    let fields = [
        ("csrf", "forged"),
        ("current", PASSWORD),
        ("new", "a new password"),
        ("repeat", "a new password"),
    ];
    let resp = test::call_service(&svc, change(&here, fields)).await;
    assert_eq!(resp.status(), StatusCode::FORBIDDEN);

    // Changed: this session is renewed, the other one ends, the old password is refused.
    let fields = [
        ("csrf", csrf.as_str()),
        ("current", PASSWORD),
        ("new", "a new password"),
        ("repeat", "a new password"),
    ];
    let resp = test::call_service(&svc, change(&here, fields)).await;
    assert_eq!(resp.status(), StatusCode::OK);
    let renewed = resp
        .response()
        .cookies()
        .find(|c| c.name() == auth::SESSION_COOKIE)
        .expect("a renewed session cookie")
        .into_owned();
    assert!(body_text(resp).await.contains("Your password is changed"));
    assert_eq!(account_status(&svc, &renewed).await, StatusCode::OK);
    assert_eq!(
        account_status(&svc, &elsewhere).await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(account_status(&svc, &here).await, StatusCode::UNAUTHORIZED);
    let login = |p: &'static str| t.state.write_now(move |l| auth::login(l, "admin", p));
    assert!(login(PASSWORD).is_err());
    assert!(login("a new password").is_ok());
}

#[actix_web::test]
async fn the_api_changes_ones_own_password_listing_every_problem() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let sam = &t.tokens.scorer;
    let uri = "/api/account/password";
    let resp = test::call_service(&svc, post_json(uri, None, json!({}))).await;
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    let (status, v) = call(&svc, uri, sam, json!({"current": PASSWORD, "nex": "x"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let (status, v) = call(
        &svc,
        uri,
        sam,
        json!({"current": "wrong password", "new": "short", "repeat": "other"}),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let fields: Vec<&str> = v["error"]["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["current", "new", "repeat"]);
    assert!(t
        .state
        .write_now(|l| auth::login(l, "sam", PASSWORD))
        .is_ok());

    let (sams_session, _) = session(&t.state, "sam", PASSWORD);
    let (status, v) = call(
        &svc,
        uri,
        sam,
        json!({"current": PASSWORD, "new": "sam's new password"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["sessions_ended"], true);
    assert_eq!(
        account_status(&svc, &sams_session).await,
        StatusCode::UNAUTHORIZED
    );
    assert!(t
        .state
        .write_now(|l| auth::login(l, "sam", "sam's new password"))
        .is_ok());
    // API tokens are not touched: sam's still records (here: is refused by role, not by token).
    let status = create_tournament(&svc, sam, "x").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[actix_web::test]
async fn only_the_administrator_manages_officials_and_others_get_403() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let r = &t.tokens;
    let writes = [
        ("/api/officials/sam/role", json!({"role": "referee"})),
        ("/api/officials/sam/disable", json!({})),
        ("/api/officials/sam/enable", json!({})),
        (
            "/api/officials/sam/password",
            json!({"password": "long enough"}),
        ),
    ];
    for token in [&r.scorer, &r.referee, &r.organiser] {
        for (uri, body) in &writes {
            let (status, v) = call(&svc, uri, token, body.clone()).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{uri}: {v}");
            assert!(v["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with("only the administrator"));
        }
    }
    for (uri, body) in &writes {
        let resp = test::call_service(&svc, post_json(uri, None, body.clone())).await;
        assert_eq!(resp.status(), StatusCode::UNAUTHORIZED, "{uri}");
    }
    let sam = listing(&t.state, "sam");
    assert_eq!((sam.role.as_str(), sam.disabled), ("scorer", false));
    assert!(t
        .state
        .write_now(|l| auth::login(l, "sam", PASSWORD))
        .is_ok());
    // The pages too: a referee's session gets 403 on the officials' forms.
    let (rita, csrf) = session(&t.state, "rita", PASSWORD);
    for uri in [
        "/officials/sam/role",
        "/officials/sam/disable",
        "/officials/sam/enable",
        "/officials/sam/password",
    ] {
        let req = test::TestRequest::post()
            .uri(uri)
            .cookie(rita.clone())
            .set_form([
                ("csrf", csrf.as_str()),
                ("role", "organiser"),
                ("password", "long enough"),
            ])
            .to_request();
        assert_eq!(
            test::call_service(&svc, req).await.status(),
            StatusCode::FORBIDDEN,
            "{uri}"
        );
    }
}

#[actix_web::test]
async fn the_administrator_changes_a_role_and_the_policy_follows_at_once() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let sam = &t.tokens.scorer;
    assert_eq!(
        create_tournament(&svc, sam, "a").await,
        StatusCode::FORBIDDEN
    );
    let uri = "/api/officials/sam/role";
    let (status, v) = call(&svc, uri, &t.token, json!({"role": "organiser"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        v,
        json!({"official": "sam", "name": "Sam Scorer", "role": "organiser", "is_admin": false, "disabled": false})
    );
    assert_eq!(create_tournament(&svc, sam, "a").await, StatusCode::CREATED);
    // Input problems: a role that does not exist, an unknown field, an unknown official.
    for (uri, body, expected) in [
        (uri, json!({"role": "king"}), StatusCode::BAD_REQUEST),
        (
            uri,
            json!({"role": "referee", "admin": true}),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/officials/nobody/role",
            json!({"role": "referee"}),
            StatusCode::NOT_FOUND,
        ),
        (
            "/api/officials/nobody/disable",
            json!({}),
            StatusCode::NOT_FOUND,
        ),
        (
            "/api/officials/sam/disable",
            json!({"now": true}),
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let (status, v) = call(&svc, uri, &t.token, body).await;
        assert_eq!(status, expected, "{uri}: {v}");
    }
    assert_eq!(listing(&t.state, "sam").role, "organiser");
}

#[actix_web::test]
async fn a_disabled_officials_token_and_session_stop_at_once_until_enabled() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let olga = &t.tokens.organiser;
    let (session_of_olga, _) = session(&t.state, "olga", PASSWORD);
    assert_eq!(
        create_tournament(&svc, olga, "a").await,
        StatusCode::CREATED
    );

    let (status, v) = call(&svc, "/api/officials/olga/disable", &t.token, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["disabled"], true);
    assert_eq!(
        create_tournament(&svc, olga, "b").await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        account_status(&svc, &session_of_olga).await,
        StatusCode::UNAUTHORIZED
    );
    let refused = t.state.write_now(|l| auth::login(l, "olga", PASSWORD));
    assert_eq!(
        refused.unwrap_err().kind,
        web::server::error::ErrorKind::Unauthorized
    );
    // Disabling twice changes nothing more; the listing says so.
    let (status, _) = call(&svc, "/api/officials/olga/disable", &t.token, json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert!(listing(&t.state, "olga").disabled);

    // Enabled: the token works again and she may log in; the ended session stays ended.
    let resp = test::call_service(
        &svc,
        test::TestRequest::post()
            .uri("/api/officials/olga/enable")
            .insert_header(("authorization", format!("Bearer {}", t.token)))
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK, "no body is fine");
    assert_eq!(
        create_tournament(&svc, olga, "b").await,
        StatusCode::CREATED
    );
    assert_eq!(
        account_status(&svc, &session_of_olga).await,
        StatusCode::UNAUTHORIZED
    );
    assert!(t
        .state
        .write_now(|l| auth::login(l, "olga", PASSWORD))
        .is_ok());
}

#[actix_web::test]
async fn the_last_administrator_cannot_disable_or_demote_themselves() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    for (uri, body) in [
        ("/api/officials/admin/disable", json!({})),
        (
            "/api/officials/admin/role",
            json!({"role": "referee", "is_admin": false}),
        ),
    ] {
        let (status, v) = call(&svc, uri, &t.token, body).await;
        assert_eq!(status, StatusCode::CONFLICT, "{uri}: {v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("would leave no active administrator"),
            "{message}"
        );
        assert!(message.contains("nothing was changed"), "{message}");
    }
    let admin = listing(&t.state, "admin");
    assert_eq!(
        (admin.role.as_str(), admin.is_admin, admin.disabled),
        ("organiser", true, false)
    );
    // The role alone may change, keeping the rights.
    let (status, v) = call(
        &svc,
        "/api/officials/admin/role",
        &t.token,
        json!({"role": "referee"}),
    )
    .await;
    assert_eq!(
        (status, v["is_admin"].clone()),
        (StatusCode::OK, json!(true))
    );
    // With a second administrator, the first may step down, and then manages nobody.
    let (status, _) = call(
        &svc,
        "/api/officials/olga/role",
        &t.token,
        json!({"role": "organiser", "is_admin": true}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // A disabled administrator does not count.
    let (status, _) = call(&svc, "/api/officials/olga/disable", &t.token, json!({})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = call(&svc, "/api/officials/admin/disable", &t.token, json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, _) = call(&svc, "/api/officials/olga/enable", &t.token, json!({})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, v) = call(
        &svc,
        "/api/officials/admin/role",
        &t.token,
        json!({"role": "referee", "is_admin": false}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, _) = call(&svc, "/api/officials/sam/disable", &t.token, json!({})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = call(
        &svc,
        "/api/officials/admin/disable",
        &t.tokens.organiser,
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

#[actix_web::test]
async fn the_administrator_resets_a_password_ending_the_officials_sessions() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let (rita, _) = session(&t.state, "rita", PASSWORD);
    let uri = "/api/officials/rita/password";
    let (status, v) = call(&svc, uri, &t.token, json!({"password": "short"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(account_status(&svc, &rita).await, StatusCode::OK);
    let (status, v) = call(&svc, uri, &t.token, json!({"password": "rita's new one"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(account_status(&svc, &rita).await, StatusCode::UNAUTHORIZED);
    assert!(t
        .state
        .write_now(|l| auth::login(l, "rita", "rita's new one"))
        .is_ok());
    let (status, _) = call(
        &svc,
        "/api/officials/nobody/password",
        &t.token,
        json!({"password": "long enough"}),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[actix_web::test]
async fn the_officials_page_offers_each_change_and_answers_with_what_was_done() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let (admin, csrf) = session(&t.state, "admin", PASSWORD);
    let post = |uri: &str, fields: Vec<(&'static str, &str)>| {
        test::TestRequest::post()
            .uri(uri)
            .cookie(admin.clone())
            .set_form(fields)
            .to_request()
    };
    let req = test::TestRequest::get()
        .uri("/officials")
        .cookie(admin.clone())
        .to_request();
    let page = body_text(test::call_service(&svc, req).await).await;
    for form in [
        "/officials/sam/role",
        "/officials/sam/disable",
        "/officials/sam/password",
    ] {
        assert!(page.contains(&format!("action=\"{form}\"")), "{form}");
    }

    let resp =
        test::call_service(&svc, post("/officials/sam/disable", vec![("csrf", &csrf)])).await;
    assert_eq!(resp.status(), StatusCode::OK);
    let page = body_text(resp).await;
    assert!(page.contains("is disabled"), "{page}");
    assert!(page.contains("action=\"/officials/sam/enable\""), "{page}");
    assert_eq!(
        create_tournament(&svc, &t.tokens.scorer, "x").await,
        StatusCode::UNAUTHORIZED
    );
    let resp = test::call_service(&svc, post("/officials/sam/enable", vec![("csrf", &csrf)])).await;
    assert!(body_text(resp).await.contains("may log in again"));

    // The role form: an unticked box takes the administrator's rights away.
    let resp = test::call_service(
        &svc,
        post(
            "/officials/sam/role",
            vec![("csrf", &csrf), ("role", "referee")],
        ),
    )
    .await;
    assert!(body_text(resp).await.contains("is now referee"));
    let resp = test::call_service(
        &svc,
        post(
            "/officials/admin/role",
            vec![("csrf", &csrf), ("role", "organiser")],
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CONFLICT);
    assert!(body_text(resp)
        .await
        .contains("would leave no active administrator"));
    let resp = test::call_service(
        &svc,
        post("/officials/admin/disable", vec![("csrf", &csrf)]),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CONFLICT);
    assert!(listing(&t.state, "admin").is_admin);
    assert_eq!(account_status(&svc, &admin).await, StatusCode::OK);

    let resp = test::call_service(
        &svc,
        post(
            "/officials/sam/password",
            vec![("csrf", &csrf), ("password", "short")],
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body_text(resp).await.contains("at least 8 characters"));
    let resp = test::call_service(
        &svc,
        post(
            "/officials/sam/password",
            vec![("csrf", &csrf), ("password", "sam's new one")],
        ),
    )
    .await;
    assert!(body_text(resp).await.contains("their sessions have ended"));
    let resp = test::call_service(
        &svc,
        post("/officials/nobody/enable", vec![("csrf", &csrf)]),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    let resp = test::call_service(
        &svc,
        post("/officials/sam/disable", vec![("csrf", "forged")]),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::FORBIDDEN);
    assert!(!listing(&t.state, "sam").disabled);
}
