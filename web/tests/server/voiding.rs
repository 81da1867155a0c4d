//! A player sits at one open table at a time; a mistaken tournament, table or player is voided
//! by an event: kept in the ledger and shown to officials marked voided, gone for the public.

use super::*;

async fn post<S, B>(svc: &S, uri: &str, token: &str, body: Value) -> (StatusCode, Value)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let resp = test::call_service(svc, post_json(uri, Some(token), body)).await;
    let status = resp.status();
    (status, body_json(resp).await)
}

/// GET as the public (`None`) or as an official with a token.
async fn get<S, B>(svc: &S, uri: &str, token: Option<&str>) -> (StatusCode, String)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let mut req = test::TestRequest::get().uri(uri);
    if let Some(t) = token {
        req = req.insert_header(("authorization", format!("Bearer {t}")));
    }
    let resp = test::call_service(svc, req.to_request()).await;
    let status = resp.status();
    (status, body_text(resp).await)
}

/// `setup`, then four more players: Eve, Fay, Gus, Hal.
async fn eight_players<S, B>(svc: &S, token: &str) -> String
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let table = setup(svc, token).await;
    for name in ["Eve", "Fay", "Gus", "Hal"] {
        let (status, _) = post(
            svc,
            "/api/tournaments/spring/players",
            token,
            json!({ "name": name }),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED);
    }
    table
}

fn message(v: &Value) -> String {
    v["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[actix_web::test]
async fn a_player_at_an_open_table_is_not_seated_again_until_it_closes() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let org = t.tokens.organiser.as_str();
    let table = eight_players(&svc, org).await;
    let before = head(&t.state);
    let mixed = json!({"players": ["eve", "fay", "ann", "ben"]});
    let (status, v) = post(&svc, "/api/tournaments/spring/tables", org, mixed.clone()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let m = message(&v);
    for needle in [
        "Ann already sits at table 1",
        "Ben already sits at table 1",
        "`spring-t1`",
    ] {
        assert!(m.contains(needle), "{m}");
    }
    assert_eq!(head(&t.state), before, "nothing written");
    // Recording is for scorers; closing the table frees its players.
    let (status, v) = post(
        &svc,
        &format!("/api/tables/{table}/hands"),
        &t.tokens.scorer,
        win(&format!("{table}-g1-h1"), "east"),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let (status, v) = post(&svc, &format!("/api/tables/{table}/close"), org, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["closed"], true);
    let (status, v) = post(&svc, &format!("/api/tables/{table}/close"), org, json!({})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(message(&v).contains("closed"), "{v}");
    let (status, v) = post(
        &svc,
        &format!("/api/tables/{table}/hands"),
        &t.tokens.scorer,
        win(&format!("{table}-g1-h2"), "east"),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(message(&v).contains("is closed"), "{v}");
    let (status, v) = post(&svc, "/api/tournaments/spring/tables", org, mixed).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    // A closed table stays public, marked closed; the hand recorded there stays.
    let (status, page) = get(&svc, &format!("/tables/{table}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("closed"));
    let (_, json) = get(&svc, &format!("/api/tables/{table}"), None).await;
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["closed"], true);
    assert_eq!(v["hands"].as_array().unwrap().len(), 1);
}

#[actix_web::test]
async fn a_voided_table_is_kept_for_officials_and_gone_for_the_public() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let org = t.tokens.organiser.as_str();
    let table = eight_players(&svc, org).await;
    let uri = format!("/api/tables/{table}/void");
    let (status, v) = post(&svc, &uri, org, json!({"reason": "  "})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(message(&v).contains("reason"), "{v}");
    let (status, _) = post(&svc, &uri, org, json!({"reason": "wrong players seated"})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, v) = post(&svc, &uri, org, json!({"reason": "again"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(message(&v).contains("already voided"), "{v}");
    // Gone for the public: its page, its API read, the tournament's list of tables.
    for uri in [format!("/tables/{table}"), format!("/api/tables/{table}")] {
        assert_eq!(
            get(&svc, &uri, None).await.0,
            StatusCode::NOT_FOUND,
            "{uri}"
        );
    }
    let (_, json) = get(&svc, "/api/tournaments/spring", None).await;
    let v: Value = serde_json::from_str(&json).unwrap();
    assert!(v["tables"].as_array().unwrap().is_empty());
    let (_, page) = get(&svc, "/t/spring", None).await;
    assert!(!page.contains(&format!("/tables/{table}")));
    // Kept, marked, for officials.
    let (status, json) = get(&svc, &format!("/api/tables/{table}"), Some(org)).await;
    assert_eq!(status, StatusCode::OK);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["voided"], "wrong players seated");
    let (_, json) = get(&svc, "/api/tournaments/spring", Some(org)).await;
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["tables"][0]["voided"], "wrong players seated");
    // No hand is recorded at it; its players are free to sit elsewhere.
    let (status, v) = post(
        &svc,
        &format!("/api/tables/{table}/hands"),
        &t.token,
        win(&format!("{table}-g1-h1"), "east"),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(message(&v).contains("voided"), "{v}");
    let (status, v) = post(
        &svc,
        "/api/tournaments/spring/tables",
        org,
        json!({"players": ["ann", "ben", "cat", "dan"]}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    // The ledger still audits clean: the fold of the new events replays exactly.
    let (_, json) = get(&svc, "/api/audit", None).await;
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["clean"], true, "{}", v["report"]);
}

#[actix_web::test]
async fn a_voided_player_leaves_the_public_pages_and_standings_and_is_not_seated() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let org = t.tokens.organiser.as_str();
    let table = eight_players(&svc, org).await;
    let uri = "/api/tournaments/spring/players/ann/void";
    let (status, v) = post(&svc, uri, org, json!({"reason": "registered twice"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let m = message(&v);
    assert!(
        m.contains("Ann sits at table 1") && m.contains(&table),
        "{m}"
    );
    let (status, _) = post(
        &svc,
        "/api/tournaments/spring/players/zed/void",
        org,
        json!({"reason": "x"}),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    post(&svc, &format!("/api/tables/{table}/close"), org, json!({})).await;
    let (status, v) = post(&svc, uri, org, json!({"reason": "registered twice"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // Gone for the public.
    let (_, json) = get(&svc, "/api/tournaments/spring", None).await;
    let v: Value = serde_json::from_str(&json).unwrap();
    assert!(!v["players"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["id"] == "ann"));
    let (_, json) = get(&svc, "/api/tournaments/spring/standings", None).await;
    let v: Value = serde_json::from_str(&json).unwrap();
    assert!(!v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["player"] == "ann"));
    assert!(v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["player"] == "ben"));
    let (_, page) = get(&svc, "/t/spring/standings", None).await;
    assert!(!page.contains("Ann") && page.contains("Ben"));
    let (status, _) = get(&svc, "/t/spring/players/ann", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = get(&svc, "/api/tournaments/spring/players/ann", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Officials see the player, marked.
    let (_, json) = get(&svc, "/api/tournaments/spring", Some(org)).await;
    let v: Value = serde_json::from_str(&json).unwrap();
    let ann = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "ann")
        .cloned();
    assert_eq!(ann.unwrap()["voided"], "registered twice");
    let (status, _) = get(&svc, "/api/tournaments/spring/players/ann", Some(org)).await;
    assert_eq!(status, StatusCode::OK);
    // A voided player is not seated.
    let before = head(&t.state);
    let (status, v) = post(
        &svc,
        "/api/tournaments/spring/tables",
        org,
        json!({"players": ["ann", "eve", "fay", "gus"]}),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        message(&v).contains("Ann is voided (registered twice)"),
        "{v}"
    );
    assert_eq!(head(&t.state), before);
}

#[actix_web::test]
async fn a_voided_tournament_is_gone_for_the_public_and_takes_no_more_writes() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let org = t.tokens.organiser.as_str();
    let table = setup(&svc, org).await;
    let (status, v) = post(
        &svc,
        &format!("/api/tables/{table}/hands"),
        &t.tokens.scorer,
        win(&format!("{table}-g1-h1"), "east"),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let hand = v["id"].as_str().unwrap().to_owned();
    let (status, _) = post(
        &svc,
        "/api/tournaments/spring/void",
        org,
        json!({"reason": "a test entry"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    for uri in [
        "/t/spring".to_owned(),
        "/api/tournaments/spring".to_owned(),
        "/t/spring/standings".to_owned(),
        "/api/tournaments/spring/standings".to_owned(),
        "/t/spring/players/ben".to_owned(),
        format!("/tables/{table}"),
        format!("/api/tables/{table}"),
        format!("/hands/{hand}"),
        format!("/api/hands/{hand}"),
    ] {
        assert_eq!(
            get(&svc, &uri, None).await.0,
            StatusCode::NOT_FOUND,
            "{uri}"
        );
        assert_eq!(get(&svc, &uri, Some(org)).await.0, StatusCode::OK, "{uri}");
    }
    let (_, json) = get(&svc, "/api/tournaments", None).await;
    assert!(!json.contains("spring"));
    let (_, json) = get(&svc, "/api/tournaments", Some(org)).await;
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["tournaments"][0]["voided"], "a test entry");
    let (_, page) = get(&svc, "/", None).await;
    assert!(!page.contains("Spring Open"));
    let (_, page) = get(&svc, "/t/spring", Some(org)).await;
    assert!(page.contains("voided") && page.contains("a test entry"));
    // Nothing more is written into it.
    let before = head(&t.state);
    let writes = [
        (
            "/api/tournaments/spring/players".to_owned(),
            json!({"name": "Eve"}),
            &t.token,
        ),
        (
            format!("/api/tables/{table}/hands"),
            win(&format!("{table}-g1-h2"), "east"),
            &t.token,
        ),
        (format!("/api/tables/{table}/close"), json!({}), &t.token),
        (
            format!("/api/tables/{table}/void"),
            json!({"reason": "x"}),
            &t.token,
        ),
        (
            "/api/tournaments/spring/void".to_owned(),
            json!({"reason": "x"}),
            &t.token,
        ),
    ];
    for (uri, body, token) in writes {
        let (status, v) = post(&svc, &uri, token, body).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{uri}: {v}");
        assert!(message(&v).contains("voided"), "{uri}: {v}");
    }
    assert_eq!(head(&t.state), before, "nothing written");
}

#[actix_web::test]
async fn only_organisers_void_and_close_and_the_page_forms_work() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let before = head(&t.state);
    for token in [&t.tokens.scorer, &t.tokens.referee] {
        for (uri, body) in [
            (
                "/api/tournaments/spring/void".to_owned(),
                json!({"reason": "x"}),
            ),
            (
                "/api/tournaments/spring/players/ann/void".to_owned(),
                json!({"reason": "x"}),
            ),
            (format!("/api/tables/{table}/void"), json!({"reason": "x"})),
            (format!("/api/tables/{table}/close"), json!({})),
        ] {
            let (status, v) = post(&svc, &uri, token, body).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{uri}: {v}");
            assert!(message(&v).contains("an organiser"), "{v}");
        }
    }
    assert_eq!(head(&t.state), before);
    // The administrator closes and voids through the page forms.
    let (session, csrf) = login(&svc).await;
    let form = |uri: &str, fields: Vec<(&str, &str)>| {
        test::TestRequest::post()
            .uri(uri)
            .cookie(session.clone())
            .set_form(fields)
            .to_request()
    };
    let resp = test::call_service(
        &svc,
        form(&format!("/tables/{table}/close"), vec![("csrf", "forged")]),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::FORBIDDEN);
    // Each one-tap action asks first, says what follows, and records nothing until confirmed.
    let close = format!("/tables/{table}/close");
    let void_table = format!("/tables/{table}/void");
    for (uri, reason, follows) in [
        (close.as_str(), "", "may sit at another table"),
        ("/t/spring/players/dan/void", "left early", "“left early”"),
        (
            void_table.as_str(),
            "a test table",
            "undo the voiding this evening",
        ),
    ] {
        let before = head(&t.state);
        let resp =
            test::call_service(&svc, form(uri, vec![("csrf", &csrf), ("reason", reason)])).await;
        assert_eq!(resp.status(), StatusCode::OK, "{uri}");
        let page = body_text(resp).await;
        assert!(
            page.contains("Nothing is recorded until you confirm") && page.contains(follows),
            "{uri}: {page}"
        );
        assert_eq!(head(&t.state), before, "{uri}: asked, not done");
        let resp = test::call_service(
            &svc,
            form(
                uri,
                vec![("csrf", &csrf), ("reason", reason), ("confirm", "yes")],
            ),
        )
        .await;
        assert_eq!(resp.status(), StatusCode::SEE_OTHER, "{uri}");
    }
    let resp = test::call_service(
        &svc,
        form("/t/spring/void", vec![("csrf", &csrf), ("reason", "")]),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body_text(resp).await.contains("reason"));
    let resp = test::call_service(
        &svc,
        form(
            "/t/spring/void",
            vec![("csrf", &csrf), ("reason", "a test"), ("confirm", "yes")],
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    let (_, page) = get(&svc, &format!("/tables/{table}"), Some(&t.token)).await;
    assert!(page.contains("a test table"), "officials see why");
}

#[actix_web::test]
async fn a_voided_player_takes_no_place_and_the_others_close_up_in_page_api_and_csv() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let org = t.tokens.organiser.as_str();
    let table = setup(&svc, org).await;
    // South wins off West's discard: one winner, two who lose a little, one who pays most.
    let (_hand, _) = record_discard_win(&svc, org, &table).await;
    let (_, json) = get(&svc, "/api/tournaments/spring/standings", Some(org)).await;
    let before: Value = serde_json::from_str(&json).unwrap();
    let rows = before["rows"].as_array().unwrap();
    let first = rows.iter().find(|r| r["rank"] == 1).unwrap()["player"]
        .as_str()
        .unwrap()
        .to_owned();
    post(&svc, &format!("/api/tables/{table}/close"), org, json!({})).await;
    let (status, v) = post(
        &svc,
        &format!("/api/tournaments/spring/players/{first}/void"),
        org,
        json!({"reason": "registered by mistake"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // The officials see the voided line, marked and without a place; the others close up.
    for token in [Some(org), None] {
        let (_, json) = get(&svc, "/api/tournaments/spring/standings", token).await;
        let v: Value = serde_json::from_str(&json).unwrap();
        let rows = v["rows"].as_array().unwrap();
        let voided = rows.iter().find(|r| r["player"] == first.as_str());
        match token {
            Some(_) => {
                let voided = voided.expect("officials see the voided line");
                assert!(voided["rank"].is_null() && voided["voided"] == true, "{v}");
            }
            None => assert!(voided.is_none(), "the public does not: {v}"),
        }
        let mut ranks: Vec<u64> = rows.iter().filter_map(|r| r["rank"].as_u64()).collect();
        ranks.sort_unstable();
        assert_eq!(ranks.len(), 3, "{v}");
        assert_eq!(ranks[0], 1, "the best of the others is first: {v}");
        assert!(ranks.iter().all(|&r| r <= 3), "no place skipped: {v}");
    }
    let (_, page) = get(&svc, "/t/spring/standings", Some(org)).await;
    assert!(page.contains(">void</abbr>"), "{page}");
    let (_, csv) = get(&svc, "/t/spring/standings.csv", Some(org)).await;
    let last = csv.lines().last().unwrap();
    assert!(
        last.starts_with(&format!(",{first},")) && last.ends_with(",yes"),
        "the voided line last, without a rank: {csv}"
    );
}

/// The night's one-tap actions are undone by an organiser, with why, each a fact of its own:
/// a table reopened, a session reopened (its results hidden again), a voiding undone. The
/// ledger keeps both, and the audit re-decides them.
#[actix_web::test]
async fn an_organiser_undoes_a_closing_and_a_voiding_with_why_and_the_ledger_keeps_both() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let org = t.tokens.organiser.as_str();
    let table = eight_players(&svc, org).await;
    let (status, _) = post(&svc, &format!("/api/tables/{table}/close"), org, json!({})).await;
    assert_eq!(status, StatusCode::OK);
    // A scorer may not; an organiser must say why.
    let reopen = format!("/api/tables/{table}/reopen");
    let (status, _) = post(&svc, &reopen, &t.tokens.scorer, json!({"reason": "x"})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, v) = post(&svc, &reopen, org, json!({"reason": ""})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let (status, v) = post(
        &svc,
        &reopen,
        org,
        json!({"reason": "closed the wrong table"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = post(&svc, &reopen, org, json!({"reason": "again"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    // Open again: a hand is recorded there.
    let (status, v) = post(
        &svc,
        &format!("/api/tables/{table}/hands"),
        org,
        win(&format!("{table}-g1-h1"), "east"),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    // A voiding undone: the player is back on the public's pages.
    post(&svc, &format!("/api/tables/{table}/close"), org, json!({})).await;
    let (status, _) = post(
        &svc,
        "/api/tournaments/spring/players/eve/void",
        org,
        json!({"reason": "a duplicate"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = get(&svc, "/t/spring/players/eve", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, v) = post(
        &svc,
        "/api/tournaments/spring/players/eve/unvoid",
        org,
        json!({"reason": "voided the wrong Eve"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, _) = get(&svc, "/t/spring/players/eve", None).await;
    assert_eq!(status, StatusCode::OK);
    // The ledger keeps both, and the audit re-decides them.
    let types: Vec<String> = t
        .state
        .read_now(|l| {
            Ok(
                l.read_stream(&ledger::StreamId::tournament("spring").unwrap(), 1)?
                    .into_iter()
                    .map(|e| e.event.event_type().to_owned())
                    .collect(),
            )
        })
        .unwrap();
    for kind in [
        "table_closed",
        "table_reopened",
        "player_voided",
        "voiding_undone",
    ] {
        assert!(types.iter().any(|t| t == kind), "{kind} in {types:?}");
    }
    let clean = t.state.read_now(|l| Ok(l.audit()?)).unwrap();
    assert!(clean.is_clean(), "{:?}", clean.discrepancies);
    let (_, audit) = get(&svc, "/api/audit?fresh=1", Some(org)).await;
    assert!(audit.contains("\"clean\":true"), "{audit}");
}
