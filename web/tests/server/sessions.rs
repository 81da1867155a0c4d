//! Running a club evening in sessions: bulk registration, a generated seating kept session by
//! session, results hidden from the public until a session closes, a withdrawal filled by a
//! substitute, and every refusal leaving the ledger unchanged.

use std::collections::HashSet;

use super::*;

async fn send<S, B>(svc: &S, req: actix_http::Request) -> (StatusCode, Value)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let resp = test::call_service(svc, req).await;
    let status = resp.status();
    let bytes = test::read_body(resp).await;
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

async fn get_as<S, B>(svc: &S, uri: &str, token: Option<&str>) -> (StatusCode, Value)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let mut req = test::TestRequest::get().uri(uri);
    if let Some(t) = token {
        req = req.insert_header(("authorization", format!("Bearer {t}")));
    }
    send(svc, req.to_request()).await
}

fn text_post(uri: &str, token: &str, body: &str) -> actix_http::Request {
    test::TestRequest::post()
        .uri(uri)
        .insert_header(("authorization", format!("Bearer {token}")))
        .insert_header(("content-type", "text/plain; charset=utf-8"))
        .set_payload(body.to_owned())
        .to_request()
}

/// The players at each table of a session, as ids.
fn tables_of(session: &Value) -> Vec<Vec<String>> {
    session["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            t["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["player"].as_str().unwrap().to_owned())
                .collect()
        })
        .collect()
}

fn net_of(standings: &Value, player: &str) -> i64 {
    standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == player)
        .unwrap_or_else(|| panic!("no {player} in {standings}"))["net"]
        .as_i64()
        .unwrap()
}

#[actix_web::test]
async fn a_club_evening_in_sessions_hides_results_until_each_closes() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let org = t.tokens.organiser.as_str();
    let (status, _) = send(
        &svc,
        post_json(
            "/api/tournaments",
            Some(org),
            json!({"id": "club", "name": "Club Evening", "ruleset": "code-of-laws", "starting_chips": 2000}),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);

    // Bulk registration: a refused list names each bad line and registers nobody.
    let before = head(&t.state);
    let (status, v) = send(
        &svc,
        text_post(
            "/api/tournaments/club/players/bulk",
            org,
            "name,id\nAnn,p1\nBen,p1\n,p3\n",
        ),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let m = v.to_string();
    assert!(
        m.contains("line 3") && m.contains("listed twice") && m.contains("line 4"),
        "{m}"
    );
    assert_eq!(head(&t.state), before, "nothing written");
    let names: String = (1..=16).map(|i| format!("Player {i:02}\n")).collect();
    let (status, v) = send(
        &svc,
        text_post("/api/tournaments/club/players/bulk", org, &names),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["registered"].as_array().unwrap().len(), 16);
    assert_eq!(v["registered"][0], "player-01");
    let (status, _) = send(
        &svc,
        text_post(
            "/api/tournaments/club/players/bulk",
            org,
            "name,substitute\nSue Sub,yes\n",
        ),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);

    // The whole event's plan, previewed before anything is recorded.
    let before = head(&t.state);
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/t/club/seating?method=no-repeat&seed=7&sessions=5")
            .insert_header(("authorization", format!("Bearer {org}")))
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let html = body_text(resp).await;
    assert!(
        html.contains(">0 repeated meetings over 5 sessions"),
        "{html}"
    );
    assert!(html.contains("Player 01") && html.contains("Session 5"));
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/t/club/seating?method=random&seed=7&sessions=5")
            .insert_header(("authorization", format!("Bearer {org}")))
            .to_request(),
    )
    .await;
    let html = body_text(resp).await;
    assert!(
        !html.contains(">0 repeated meetings"),
        "a random plan repeats: {html}"
    );
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/t/club/seating?seed=x")
            .insert_header(("authorization", format!("Bearer {org}")))
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(head(&t.state), before, "a preview records nothing");
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/t/club/seating?method=no-repeat&seed=7&sessions=5")
            .to_request(),
    )
    .await;
    assert_eq!(
        resp.status(),
        StatusCode::UNAUTHORIZED,
        "the preview is for officials"
    );

    // The preview seats each chair and offers to open the session with its plan.
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/t/club/seating?method=no-repeat&seed=7&sessions=5")
            .insert_header(("authorization", format!("Bearer {org}")))
            .to_request(),
    )
    .await;
    let preview = body_text(resp).await;
    assert!(
        preview.contains("Open the next session with this plan")
            && preview.contains("name=\"seed\" value=\"7\""),
        "{preview}"
    );

    // Session 1, seated no-repeat for a five-session event.
    let open = json!({"method": "no-repeat", "seed": 7, "sessions": 5, "minutes": 120});
    let (status, v) = send(
        &svc,
        post_json("/api/tournaments/club/sessions", Some(org), open.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["session"], 1);
    let (_, s) = get_as(&svc, "/api/tournaments/club/sessions", None).await;
    let first = &s["sessions"][0];
    assert_eq!(first["open"], true);
    assert_eq!(first["plan"], "session 1 of a plan for 5");
    // The table the preview showed, chair by chair, is the table seated.
    let chairs: Vec<String> = first["tables"][0]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .zip(["East", "South", "West", "North"])
        .map(|(s, wind)| format!("<b>{wind}</b> {}</li>", s["name"].as_str().unwrap()))
        .collect();
    assert!(
        preview.contains(&chairs.join("<li>")),
        "{chairs:?} in {preview}"
    );
    assert_eq!(
        first["repeats"], 0,
        "16 players over 5 sessions meet nobody twice"
    );
    assert_eq!(first["clock"]["left_minutes"], 120);
    let tables = tables_of(first);
    assert_eq!(tables.len(), 4);
    let seated: HashSet<&String> = tables.iter().flatten().collect();
    assert_eq!(seated.len(), 16, "everyone once");
    assert!(
        !seated.iter().any(|p| p.as_str() == "sue-sub"),
        "the substitute waits"
    );
    // The next session cannot open while this one is in play.
    let before = head(&t.state);
    let (status, v) = send(
        &svc,
        post_json("/api/tournaments/club/sessions", Some(org), open.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(head(&t.state), before);

    // A hand at table 1 of the session: officials see it, the public does not yet.
    let table = first["tables"][0]["id"].as_str().unwrap().to_owned();
    let (status, v) = send(
        &svc,
        post_json(
            &format!("/api/tables/{table}/hands"),
            Some(t.tokens.scorer.as_str()),
            win(&format!("{table}-g1-h1"), "south"),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let hand = v["id"].as_str().unwrap().to_owned();
    let south = tables[0][1].clone();
    let (_, officials) = get_as(&svc, "/api/tournaments/club/standings", Some(org)).await;
    let (_, public) = get_as(&svc, "/api/tournaments/club/standings", None).await;
    assert!(net_of(&officials, &south) > 0);
    assert_eq!(
        net_of(&public, &south),
        0,
        "hidden while the session is open"
    );
    assert_eq!(public["sessions_hidden"], true);
    let (status, _) = get_as(&svc, &format!("/api/hands/{hand}"), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = get_as(&svc, &format!("/api/hands/{hand}"), Some(org)).await;
    assert_eq!(status, StatusCode::OK);
    let (_, page) = get_as(&svc, &format!("/api/tables/{table}"), None).await;
    assert_eq!(page["hands"].as_array().map_or(0, Vec::len), 0, "{page}");
    let (_, s1) = get_as(&svc, "/api/tournaments/club/sessions/1", None).await;
    assert_eq!(s1["results_hidden"], true);
    assert!(s1["rows"].as_array().unwrap().is_empty());

    // The director's room: officials see each table's hands, who deals next and its last
    // entry; the public the tables, their seats and the clock.
    let room = |token: Option<&str>| {
        let mut req = test::TestRequest::get().uri("/t/club/sessions/1/live");
        if let Some(t) = token {
            req = req.insert_header(("authorization", format!("Bearer {t}")));
        }
        req.to_request()
    };
    let resp = test::call_service(&svc, room(Some(org))).await;
    assert_eq!(resp.status(), StatusCode::OK);
    let html = body_text(resp).await;
    assert!(
        html.contains("1 hand · East:") && html.contains("0 hands") && html.contains("g1-h1: "),
        "{html}"
    );
    assert_eq!(html.matches("class=\"room-table").count(), 4, "four tables");
    let resp = test::call_service(&svc, room(None)).await;
    assert_eq!(resp.status(), StatusCode::OK);
    let html = body_text(resp).await;
    assert!(
        html.contains("its hands are shown when it closes")
            && !html.contains("East:")
            && !html.contains("g1-h1")
            && !html.contains("last entry")
            && !html.contains("hand in play"),
        "{html}"
    );
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/t/club/sessions/1/cards")
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let cards = body_text(resp).await;
    assert_eq!(cards.matches("class=\"table-card\"").count(), 4, "{cards}");
    for uri in ["/t/club/sessions/9/live", "/t/club/sessions/x/live"] {
        let resp = test::call_service(&svc, test::TestRequest::get().uri(uri).to_request()).await;
        assert_eq!(resp.status(), StatusCode::NOT_FOUND, "{uri}");
    }

    // The treasurer's books and exports leave the session out for the public too.
    let (_, books) = get_as(&svc, "/api/tournaments/club/books", None).await;
    assert_eq!(books["hands_counted"], 0, "{books}");
    let (_, books) = get_as(&svc, "/api/tournaments/club/books", Some(org)).await;
    assert_eq!(books["hands_counted"], 1, "{books}");
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/t/club/hands.csv")
            .to_request(),
    )
    .await;
    let csv_text = body_text(resp).await;
    assert_eq!(csv_text.lines().count(), 1, "only the header: {csv_text}");
    // Officials see the session's hand, with its session.
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/t/club/hands.csv")
            .insert_header(("authorization", format!("Bearer {org}")))
            .to_request(),
    )
    .await;
    let csv_text = body_text(resp).await;
    let row = csv_text.lines().nth(1).unwrap_or_default();
    assert!(row.starts_with("1,"), "session 1: {csv_text}");
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/t/club/sheets?session=1")
            .to_request(),
    )
    .await;
    let html = body_text(resp).await;
    assert_eq!(
        html.matches("its hands are shown when the session closes")
            .count(),
        4,
        "each sheet of the session says so: {html}"
    );
    let (_, history) = get_as(
        &svc,
        &format!("/api/tournaments/club/players/{south}"),
        None,
    )
    .await;
    assert_eq!(
        history["hands"].as_array().map_or(0, Vec::len),
        0,
        "{history}"
    );

    // Closing the session closes its tables and shows its results.
    let (status, v) = send(
        &svc,
        post_json(
            "/api/tournaments/club/sessions/1/close",
            Some(org),
            json!({}),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (_, public) = get_as(&svc, "/api/tournaments/club/standings", None).await;
    assert_eq!(net_of(&public, &south), net_of(&officials, &south));
    let (_, s1) = get_as(&svc, "/api/tournaments/club/sessions/1", None).await;
    assert_eq!(s1["session"]["tables"][0]["closed"], true);
    assert_eq!(net_of(&s1, &south), net_of(&officials, &south));
    // Closed too soon: reopened with why, its results are hidden again until it closes again.
    let (status, v) = send(
        &svc,
        post_json(
            "/api/tournaments/club/sessions/1/reopen",
            Some(org),
            json!({"reason": "closed before the last table finished"}),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (_, s1) = get_as(&svc, "/api/tournaments/club/sessions/1", None).await;
    assert_eq!(s1["results_hidden"], true, "{s1}");
    let (status, v) = send(
        &svc,
        post_json(
            "/api/tournaments/club/sessions/1/close",
            Some(org),
            json!({}),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (_, s1) = get_as(&svc, "/api/tournaments/club/sessions/1", None).await;
    assert_eq!(net_of(&s1, &south), net_of(&officials, &south));
    // The night's sheet: the standings, who pays whom, and the checkpoint that seals it.
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/t/club/sessions/1/night")
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let night = body_text(resp).await;
    assert!(
        night.contains("<h2>Standings</h2>")
            && night.contains("Who pays whom")
            && night.contains("ledger position <b>")
            && night.contains("--expect-head checkpoint-"),
        "{night}"
    );
    let (status, _) = get_as(&svc, &format!("/api/hands/{hand}"), None).await;
    assert_eq!(status, StatusCode::OK);
    // The session's own books: the four who played its one hand, and who pays whom.
    let (_, books) = get_as(&svc, "/api/tournaments/club/books?session=1", None).await;
    assert_eq!(books["session"], 1);
    assert_eq!(books["players"].as_array().unwrap().len(), 4, "{books}");
    let transfers = books["transfers"].as_array().unwrap();
    assert_eq!(transfers.len(), 3);
    assert!(
        transfers.iter().all(|t| t["to"] == south.as_str()),
        "{books}"
    );
    let (status, _) = get_as(&svc, "/api/tournaments/club/books?session=7", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/t/club/sheets?session=1")
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let html = body_text(resp).await;
    assert_eq!(
        html.matches("class=\"score-sheet\"").count(),
        4,
        "a sheet per table of the session"
    );

    // Each player's chips over the session, as an image.
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/t/club/players/{south}/chips.svg?session=1"))
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let svg = body_text(resp).await;
    assert!(svg.contains("session 1") && svg.contains("2000"), "{svg}");
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/t/club/players/{south}/chips.svg?session=9"))
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);

    // A player withdraws; session 2 keeps the plan, the substitute in his place.
    let gone = tables[1][0].clone();
    let (status, v) = send(
        &svc,
        post_json(
            &format!("/api/tournaments/club/players/{gone}/withdraw"),
            Some(org),
            json!({"reason": "called away"}),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, _) = send(
        &svc,
        post_json(
            &format!("/api/tournaments/club/players/{gone}/withdraw"),
            Some(org),
            json!({"reason": "again"}),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, v) = send(
        &svc,
        post_json(
            "/api/tournaments/club/sessions",
            Some(org),
            json!({"method": "no-repeat"}),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let (_, s) = get_as(&svc, "/api/tournaments/club/sessions", Some(org)).await;
    let second = &s["sessions"][1];
    assert_eq!(second["plan"], "session 2 of a plan for 5");
    assert_eq!(second["seed"], 7, "the plan's own seed");
    assert_eq!(
        second["substitutions"][0]["withdrawn"]["player"],
        gone.as_str()
    );
    assert_eq!(
        second["substitutions"][0]["substitute"]["player"],
        "sue-sub"
    );
    let tables2 = tables_of(second);
    let seated2: HashSet<&String> = tables2.iter().flatten().collect();
    assert!(seated2.contains(&"sue-sub".to_owned()) && !seated2.contains(&gone));
    // Nobody meets anyone twice over the two sessions (the substitute stands for the place).
    let place = |p: &String| {
        if p == "sue-sub" {
            gone.clone()
        } else {
            p.clone()
        }
    };
    let mut met = HashSet::new();
    for table in tables.iter().chain(&tables2) {
        for (i, a) in table.iter().enumerate() {
            for b in &table[i + 1..] {
                let pair = (place(a).min(place(b)), place(a).max(place(b)));
                assert!(met.insert(pair.clone()), "{pair:?} met twice");
            }
        }
    }
    // A hand in session 2 at South's new table: the session's books balance that session
    // alone, and his chips are what he holds at its end, session 1 carried in.
    let (_, s2) = get_as(&svc, "/api/tournaments/club/sessions/2", Some(org)).await;
    let t2 = s2["session"]["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t.to_string().contains(&format!("\"{south}\"")))
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, v) = send(
        &svc,
        post_json(
            &format!("/api/tables/{t2}/hands"),
            Some(t.tokens.scorer.as_str()),
            win(&format!("{t2}-g1-h1"), "east"),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let (_, all) = get_as(&svc, "/api/tournaments/club/standings", Some(org)).await;
    let (_, books2) = get_as(&svc, "/api/tournaments/club/books?session=2", Some(org)).await;
    let line = books2["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == south.as_str())
        .unwrap()
        .clone();
    let first_net = net_of(&officials, &south);
    assert_eq!(
        line["balance"].as_i64().unwrap(),
        net_of(&all, &south) - first_net
    );
    assert_eq!(
        line["chips"].as_i64().unwrap(),
        2000 + net_of(&all, &south),
        "{books2}"
    );
    let (_, hidden) = get_as(&svc, "/api/tournaments/club/books?session=2", None).await;
    assert_eq!(hidden["hands_counted"], 0, "session 2 is in play: {hidden}");

    // The substitute takes no place in the standings; the withdrawn player keeps his line.
    let (_, standings) = get_as(&svc, "/api/tournaments/club/standings", Some(org)).await;
    let row = |p: &str| {
        standings["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["player"] == p)
            .unwrap()
            .clone()
    };
    assert_eq!(row("sue-sub")["substitute"], true);
    assert!(row("sue-sub")["rank"].is_null(), "no place: {standings}");
    assert_eq!(row(&gone)["withdrawn"], true);
    // The audit replays all of it into the same projections.
    let clean = t.state.read_now(|l| Ok(l.audit()?)).unwrap();
    assert!(clean.is_clean(), "{:?}", clean.discrepancies);
}

#[actix_web::test]
async fn the_sessions_pages_show_the_clock_and_the_generator_to_officials() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let org = t.tokens.organiser.as_str();
    let table = setup(&svc, org).await;
    // The hand-formed table is still open: the session is refused, naming who sits there.
    let (status, v) = send(
        &svc,
        post_json(
            "/api/tournaments/spring/sessions",
            Some(org),
            json!({"method": "random", "seed": 1}),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v.to_string().contains("(table 1)"), "{v}");
    let (status, _) = send(
        &svc,
        post_json(&format!("/api/tables/{table}/close"), Some(org), json!({})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, v) = send(
        &svc,
        post_json(
            "/api/tournaments/spring/sessions",
            Some(org),
            json!({"method": "sideways", "minutes": 0}),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let m = v.to_string();
    assert!(m.contains("sideways") && m.contains("minutes"), "{m}");
    let (status, _) = send(
        &svc,
        post_json(
            "/api/tournaments/spring/sessions",
            Some(org),
            json!({"method": "random", "seed": 1, "minutes": 90}),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let (_, s) = get_as(&svc, "/api/tournaments/spring/sessions", None).await;
    let t2 = s["sessions"][0]["tables"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/tables/{t2}"))
            .to_request(),
    )
    .await;
    let html = body_text(resp).await;
    assert!(
        html.contains("Session 1") && html.contains("left"),
        "{html}"
    );
    assert!(html.contains("shown when the session closes"));
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/t/spring/sessions")
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let html = body_text(resp).await;
    assert!(html.contains("Session 1") && html.contains("in play"));
    assert!(
        !html.contains("Seat and open session"),
        "the generator is for officials"
    );
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/t/spring/sessions/9")
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/t/spring/sessions/x")
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    // Names without Latin letters all make the id `player`: a list numbers them.
    let (status, v) = send(
        &svc,
        text_post("/api/tournaments/spring/players/bulk", org, "麻雀\n麻將\n"),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["registered"], json!(["player", "player-2"]));
    // The same list again registers nobody twice: every line refused…
    let (status, v) = send(
        &svc,
        text_post("/api/tournaments/spring/players/bulk", org, "麻雀\n麻將\n"),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let refused = v.to_string();
    assert!(
        refused.contains("麻雀 is already registered (as `player`)")
            && refused.contains("麻將 is already registered (as `player-2`)"),
        "{v}"
    );
    // … unless the organiser says they are different people.
    let (status, v) = send(
        &svc,
        text_post(
            "/api/tournaments/spring/players/bulk?different_people=yes",
            org,
            "麻雀\n",
        ),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["registered"], json!(["player-3"]));
}
