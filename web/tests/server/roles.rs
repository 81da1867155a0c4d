//! Roles mean something: per role and per route, through the API and the pages, each official
//! is allowed where the policy says and refused with 403 (nothing written) elsewhere.

use super::*;

/// Posts a JSON body; returns the status and the body.
async fn call<S, B>(svc: &S, uri: &str, token: &str, body: Value) -> (StatusCode, Value)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let resp = test::call_service(svc, post_json(uri, Some(token), body)).await;
    let status = resp.status();
    (status, body_json(resp).await)
}

/// Asserts a 403 that says who may, with nothing written.
async fn forbidden<S, B>(svc: &S, state: &AppState, uri: &str, token: &str, body: Value)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let before = head(state);
    let (status, v) = call(svc, uri, token, body).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{uri}: {v}");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("only "), "{uri}: {message}");
    assert_eq!(head(state), before, "{uri}: a refused write wrote nothing");
}

fn correction(version: &Value, winner: &str) -> Value {
    let mut c = win("", winner);
    c.as_object_mut().unwrap().remove("hand");
    c["version"] = version.clone();
    c["reason"] = json!(format!("{winner} won"));
    c
}

#[actix_web::test]
async fn each_role_may_use_the_api_writes_the_policy_gives_it_and_no_others() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let r = &t.tokens;
    let tournament =
        |id: &str| json!({"id": id, "name": id, "ruleset": "code-of-laws", "starting_chips": 100});

    // Organising: the organiser and the administrator.
    for token in [&r.scorer, &r.referee] {
        forbidden(&svc, &t.state, "/api/tournaments", token, tournament("x")).await;
    }
    for (token, id) in [(&r.organiser, "spring"), (&t.token, "autumn")] {
        let (status, _) = call(&svc, "/api/tournaments", token, tournament(id)).await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let players = "/api/tournaments/spring/players";
    for token in [&r.scorer, &r.referee] {
        forbidden(&svc, &t.state, players, token, json!({"name": "Zed"})).await;
    }
    for (i, name) in ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
        .iter()
        .enumerate()
    {
        let token = if i % 2 == 0 { &r.organiser } else { &t.token };
        let (status, _) = call(&svc, players, token, json!({ "name": name })).await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let tables = "/api/tournaments/spring/tables";
    let four = json!({"players": ["ann", "ben", "cat", "dan"]});
    for token in [&r.scorer, &r.referee] {
        forbidden(&svc, &t.state, tables, token, four.clone()).await;
    }
    let (status, _) = call(&svc, tables, &r.organiser, four).await;
    assert_eq!(status, StatusCode::CREATED);
    let other = json!({"players": ["eve", "fay", "gus", "hal"]});
    let (status, _) = call(&svc, tables, &t.token, other).await;
    assert_eq!(status, StatusCode::CREATED);

    // Recording: the scorer and every role above (the roles are cumulative).
    let record = "/api/tables/spring-t1/hands";
    let next = |v: Value| v["next"]["hand"].as_str().unwrap().to_owned();
    let mut hand = String::new();
    for token in [&r.scorer, &r.referee, &r.organiser, &t.token] {
        hand = next(get_json(&svc, "/api/tables/spring-t1").await);
        let (status, v) = call(&svc, record, token, win(&hand, "east")).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
    }

    // Correcting (the last hand, whose winner decides no later deal): the referee, the
    // organiser and the administrator.
    let corrections = format!("/api/hands/{hand}/corrections");
    let version = get_json(&svc, &format!("/api/hands/{hand}")).await["version"].clone();
    forbidden(
        &svc,
        &t.state,
        &corrections,
        &r.scorer,
        correction(&version, "south"),
    )
    .await;
    let (status, v) = call(
        &svc,
        &corrections,
        &r.referee,
        correction(&version, "south"),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let version = get_json(&svc, &format!("/api/hands/{hand}")).await["version"].clone();
    let (status, v) = call(
        &svc,
        &corrections,
        &r.organiser,
        correction(&version, "north"),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let version = get_json(&svc, &format!("/api/hands/{hand}")).await["version"].clone();
    let (status, v) = call(&svc, &corrections, &t.token, correction(&version, "west")).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");

    // Officials: the administrator alone.
    let official =
        |id: &str| json!({"official": id, "name": id, "role": "scorer", "password": "longenough"});
    for token in [&r.scorer, &r.referee, &r.organiser] {
        forbidden(&svc, &t.state, "/api/officials", token, official("x")).await;
    }
    let (status, _) = call(&svc, "/api/officials", &t.token, official("newbie")).await;
    assert_eq!(status, StatusCode::CREATED);
}

/// Logs `official` in through the form; returns the session cookie and its CSRF token.
async fn login_as<S, B>(svc: &S, official: &str) -> (Cookie<'static>, String)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let (csrf_cookie, token) = super::login_form(svc).await;
    let req = test::TestRequest::post()
        .uri("/login")
        .cookie(csrf_cookie)
        .set_form([
            ("csrf", token.as_str()),
            ("official", official),
            ("password", PASSWORD),
        ])
        .to_request();
    let resp = test::call_service(svc, req).await;
    assert_eq!(resp.status(), StatusCode::SEE_OTHER, "{official} logs in");
    let session = resp
        .response()
        .cookies()
        .find(|c| c.name() == auth::SESSION_COOKIE)
        .unwrap()
        .into_owned();
    let req = test::TestRequest::get()
        .uri("/account")
        .cookie(session.clone())
        .to_request();
    let page = body_text(test::call_service(svc, req).await).await;
    let csrf = page
        .split("name=\"csrf\" value=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_owned();
    (session, csrf)
}

/// A page: its address, `None` for a GET or the fields of a POSTed form, and who may use it.
type PageCase<'a> = (String, Option<Vec<(&'a str, &'a str)>>, &'a [&'a str]);

#[actix_web::test]
async fn each_role_sees_and_may_use_only_its_own_forms() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let (status, v) = call(
        &svc,
        &format!("/api/tables/{table}/hands"),
        &t.token,
        win(&format!("{table}-g1-h1"), "east"),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let hand = format!("{table}-g1-h1");
    let next_hand = format!("{table}-g1-h2");
    // (page, GET form or POST form with its fields, who may)
    let organise = ["olga", "admin"];
    // The roles are cumulative: organiser ⊇ referee ⊇ scorer.
    let record = ["sam", "rita", "olga", "admin"];
    let correct = ["rita", "olga", "admin"];
    let pages: Vec<PageCase> = vec![
        ("/tournaments/new".into(), None, &organise),
        (
            "/tournaments".into(),
            Some(vec![
                ("name", "Page Cup"),
                ("ruleset", "code-of-laws"),
                ("starting_chips", "100"),
            ]),
            &organise,
        ),
        (
            "/t/spring/players".into(),
            Some(vec![("name", "Walk In")]),
            &organise,
        ),
        (format!("/tables/{table}/record"), None, &record),
        (
            format!("/tables/{table}/hands"),
            Some(vec![("hand", next_hand.as_str())]),
            &record,
        ),
        (format!("/hands/{hand}/correct"), None, &correct),
        (
            format!("/hands/{hand}/corrections"),
            Some(vec![("version", "8"), ("reason", "wrong winner")]),
            &correct,
        ),
        ("/officials".into(), None, &["admin"]),
        (
            "/officials".into(),
            Some(vec![
                ("official", "newbie"),
                ("name", "New"),
                ("role", "scorer"),
                ("password", "longenough"),
            ]),
            &["admin"],
        ),
    ];
    for official in ["sam", "rita", "olga"] {
        let (session, csrf) = login_as(&svc, official).await;
        for (uri, form, allowed) in &pages {
            if allowed.contains(&official) {
                continue;
            }
            let before = head(&t.state);
            let req = match form {
                None => test::TestRequest::get().uri(uri),
                Some(fields) => {
                    let mut fields = fields.clone();
                    fields.push(("csrf", &csrf));
                    test::TestRequest::post().uri(uri).set_form(fields)
                }
            };
            let resp = test::call_service(&svc, req.cookie(session.clone()).to_request()).await;
            assert_eq!(resp.status(), StatusCode::FORBIDDEN, "{official} {uri}");
            let refused = body_text(resp).await;
            assert!(refused.contains("only "), "{official} {uri}");
            // The refusal's menu is the official's own, not a stranger's "Log in".
            assert!(
                !refused.contains("href=\"/login\"") && refused.contains("Log out"),
                "{official} {uri}: {refused}"
            );
            assert_eq!(head(&t.state), before, "{official} {uri} wrote nothing");
        }
        // The pages show only the forms and links the role may use.
        let req = test::TestRequest::get()
            .uri("/t/spring")
            .cookie(session.clone())
            .to_request();
        let page = body_text(test::call_service(&svc, req).await).await;
        assert_eq!(
            page.contains("Register a player"),
            organise.contains(&official),
            "{official}"
        );
        let req = test::TestRequest::get()
            .uri(&format!("/tables/{table}"))
            .cookie(session.clone())
            .to_request();
        let page = body_text(test::call_service(&svc, req).await).await;
        assert_eq!(
            page.contains("/record\""),
            record.contains(&official),
            "{official}"
        );
        let req = test::TestRequest::get()
            .uri(&format!("/hands/{hand}"))
            .cookie(session.clone())
            .to_request();
        let page = body_text(test::call_service(&svc, req).await).await;
        assert_eq!(
            page.contains("Correct this hand"),
            correct.contains(&official),
            "{official}"
        );
    }
    // Allowed forms succeed for the roles that may use them.
    let (session, csrf) = login_as(&svc, "olga").await;
    let req = test::TestRequest::post()
        .uri("/t/spring/players")
        .cookie(session)
        .set_form([("csrf", csrf.as_str()), ("name", "Walk In")])
        .to_request();
    assert_eq!(
        test::call_service(&svc, req).await.status(),
        StatusCode::SEE_OTHER
    );
    for official in ["rita", "sam"] {
        let (session, _) = login_as(&svc, official).await;
        let req = test::TestRequest::get()
            .uri(&format!("/tables/{table}/record"))
            .cookie(session)
            .to_request();
        assert_eq!(
            test::call_service(&svc, req).await.status(),
            StatusCode::OK,
            "{official}"
        );
    }
    let (session, _) = login_as(&svc, "rita").await;
    let req = test::TestRequest::get()
        .uri(&format!("/hands/{hand}/correct"))
        .cookie(session)
        .to_request();
    assert_eq!(test::call_service(&svc, req).await.status(), StatusCode::OK);
}
