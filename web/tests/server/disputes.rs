//! Disputes and rulings through the API and the pages: a referee raises a dispute, previews and
//! issues a ruling whose penalty moves the settlement, and an appeal puts it back.

use super::*;

async fn post<S, B>(svc: &S, uri: &str, token: &str, body: Value) -> (StatusCode, Value)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let resp = test::call_service(svc, post_json(uri, Some(token), body)).await;
    let status = resp.status();
    let bytes = test::read_body(resp).await;
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or_else(|_| json!(String::from_utf8_lossy(&bytes))),
    )
}

async fn get_with<S, B>(svc: &S, uri: &str, token: &str) -> (StatusCode, String)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let req = test::TestRequest::get()
        .uri(uri)
        .insert_header(("authorization", format!("Bearer {token}")))
        .to_request();
    let resp = test::call_service(svc, req).await;
    let status = resp.status();
    (status, body_text(resp).await)
}

#[actix_web::test]
async fn a_ruling_moves_the_settlement_and_an_appeal_puts_it_back() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let (hand, version) = record_discard_win(&svc, &t.token, &table).await;
    let before = hand_json(&svc, &hand).await["nets"].clone();
    let referee = &t.tokens.referee;
    let disputes = format!("/api/hands/{hand}/disputes");
    // A scorer may not raise a dispute.
    let (status, _) = post(
        &svc,
        &disputes,
        &t.tokens.scorer,
        json!({"version": version, "description": "late claim"}),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // A stale version is a conflict; an unknown field is refused.
    let (status, _) = post(
        &svc,
        &disputes,
        referee,
        json!({"version": 1, "description": "late claim"}),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, _) = post(
        &svc,
        &disputes,
        referee,
        json!({"version": version, "description": "x", "colour": "red"}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, raised) = post(
        &svc,
        &disputes,
        referee,
        json!({"version": version, "raised_by": "north", "description": "West's discard let off a cannon"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{raised}");
    let dispute = raised["id"].as_str().unwrap().to_owned();
    let version = hand_json(&svc, &hand).await["version"].clone();
    let rulings = format!("/api/hands/{hand}/disputes/{dispute}/rulings");
    let ruling = json!({
        "version": version,
        "decision": "accepted",
        "reason": "West discarded into a clear suit",
        "sections": ["Code §90(a)", "Code §96"],
        "penalties": [{"kind": "pays-for-all", "liable": "west", "liability": "full"}],
    });
    // Previewed: before and after, nothing recorded.
    let mut preview = ruling.clone();
    preview["preview"] = json!(true);
    let (status, shown) = post(&svc, &rulings, referee, preview).await;
    assert_eq!(status, StatusCode::OK, "{shown}");
    assert_eq!(shown["preview"], true);
    assert_ne!(shown["before"], shown["after"]);
    assert_eq!(hand_json(&svc, &hand).await["version"], version);
    // Ruled: the settlement moves, and still sums to zero.
    let (status, body) = post(&svc, &rulings, referee, ruling.clone()).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let after = hand_json(&svc, &hand).await;
    assert_ne!(after["nets"], before);
    assert_eq!(after["net_sum"], 0);
    // The dispute holds the ruling, by its official.
    let (status, page) = get_with(
        &svc,
        &format!("/api/hands/{hand}/disputes/{dispute}"),
        referee,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let d: Value = serde_json::from_str(&page).unwrap();
    assert_eq!(d["rulings"][0]["official"], "rita");
    assert_eq!(d["ruled"], true);
    let ruling_id = d["rulings"][0]["id"].as_str().unwrap().to_owned();
    // A second ruling on the same dispute is refused: that is an appeal.
    let mut again = ruling.clone();
    again["version"] = after["version"].clone();
    let (status, body) = post(&svc, &rulings, referee, again).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(body.to_string().contains("appeal"), "{body}");
    // The page shows the dispute, the ruling and who made it.
    let (status, html) =
        get_with(&svc, &format!("/hands/{hand}/disputes/{dispute}"), referee).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("West discarded into a clear suit"), "{html}");
    assert!(html.contains("rita"));
    let (_, hand_page) = get_with(&svc, &format!("/hands/{hand}"), referee).await;
    assert!(hand_page.contains(&format!("/hands/{hand}/disputes/{dispute}")));
    assert!(hand_page.contains("ruling_issued"));
    // The appeal supersedes the ruling: the settlement is as recorded again.
    let (status, body) = post(
        &svc,
        &format!("/api/hands/{hand}/rulings/{ruling_id}/appeal"),
        referee,
        json!({"version": after["version"], "reason": "West had no choice (Code §95)"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let appealed = hand_json(&svc, &hand).await;
    assert_eq!(appealed["nets"], before);
    // The audit re-derives every projection from the events and finds them clean.
    let (_, audit) = get_with(&svc, "/api/audit", &t.token).await;
    assert!(audit.contains("\"clean\":true"), "{audit}");
}

#[actix_web::test]
async fn a_refused_ruling_says_every_problem_and_records_nothing() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let (hand, version) = record_discard_win(&svc, &t.token, &table).await;
    let referee = &t.tokens.referee;
    let (_, raised) = post(
        &svc,
        &format!("/api/hands/{hand}/disputes"),
        referee,
        json!({"version": version, "description": "a late claim"}),
    )
    .await;
    let dispute = raised["id"].as_str().unwrap().to_owned();
    let version = hand_json(&svc, &hand).await["version"].clone();
    let (status, body) = post(
        &svc,
        &format!("/api/hands/{hand}/disputes/{dispute}/rulings"),
        referee,
        json!({
            "version": version,
            "finding": 3,
            "decision": "accepted",
            "reason": "",
        }),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(body.to_string().contains("no finding 3"), "{body}");
    let (status, body) = post(
        &svc,
        &format!("/api/hands/{hand}/disputes/{dispute}/rulings"),
        referee,
        json!({
            "version": version,
            "decision": "overruled",
            "reason": " ",
            "penalties": [{"kind": "agreed", "payer": "east", "payee": "east", "amount": -5, "reason": ""}],
        }),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let text = body.to_string();
    for field in [
        "reason",
        "sections",
        "decision",
        "penalties.0.amount",
        "penalties.0.payee",
    ] {
        assert!(text.contains(field), "{field}: {text}");
    }
    assert_eq!(hand_json(&svc, &hand).await["version"], version);
    // A dispute page for a dispute that does not exist is 404.
    let (status, _) = get_with(
        &svc,
        &format!("/hands/{hand}/disputes/0191a8f0-0000-7000-8000-000000000000"),
        referee,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// The forms: raise a dispute from the hand, preview a ruling (nothing recorded), rule, and
/// supersede the ruling on appeal; a refused form comes back with what was typed.
#[actix_web::test]
async fn the_dispute_forms_raise_preview_rule_and_appeal() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let (hand, version) = record_discard_win(&svc, &t.token, &table).await;
    let before = hand_json(&svc, &hand).await["nets"].clone();
    let (session, csrf) = login(&svc).await;
    let form = |uri: &str, fields: Vec<(&str, String)>| {
        test::TestRequest::post()
            .uri(uri)
            .cookie(session.clone())
            .set_form(fields)
            .to_request()
    };
    let req = test::TestRequest::get()
        .uri(&format!("/hands/{hand}/disputes/new"))
        .cookie(session.clone())
        .to_request();
    let resp = test::call_service(&svc, req).await;
    assert_eq!(resp.status(), StatusCode::OK);
    // A position that does not parse: the form comes back with it and the reason.
    let resp = test::call_service(
        &svc,
        form(
            &format!("/hands/{hand}/disputes"),
            vec![
                ("csrf", csrf.clone()),
                ("version", version.to_string()),
                ("description", "a cannon".into()),
                ("position", "g1 h1 | nonsense".into()),
            ],
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page = body_text(resp).await;
    assert!(
        page.contains("g1 h1 | nonsense") && page.contains("position"),
        "{page}"
    );
    let resp = test::call_service(
        &svc,
        form(
            &format!("/hands/{hand}/disputes"),
            vec![
                ("csrf", csrf.clone()),
                ("version", version.to_string()),
                ("raised_by", "north".into()),
                ("description", "a cannon".into()),
            ],
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    let at = resp
        .headers()
        .get("location")
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    let version = hand_json(&svc, &hand).await["version"].to_string();
    let rule = |preview: bool| {
        let mut f = vec![
            ("csrf", csrf.clone()),
            ("version", version.clone()),
            ("decision", "accepted".into()),
            ("reason", "an agreed payment for a slow discard".into()),
            ("sections", "Code §66".into()),
            ("pay_payer", "west".into()),
            ("pay_payee", "".into()),
            ("pay_amount", "10".into()),
            ("pay_reason", "slow play".into()),
        ];
        if preview {
            f.push(("preview", "on".into()));
        }
        form(&format!("{at}/rulings"), f)
    };
    let resp = test::call_service(&svc, rule(true)).await;
    assert_eq!(resp.status(), StatusCode::OK);
    let page = body_text(resp).await;
    assert!(page.contains("Nothing is recorded yet"), "{page}");
    assert_eq!(hand_json(&svc, &hand).await["version"].to_string(), version);
    let resp = test::call_service(&svc, rule(false)).await;
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    let after = hand_json(&svc, &hand).await;
    assert_ne!(after["nets"], before);
    let req = test::TestRequest::get()
        .uri(&at)
        .cookie(session.clone())
        .to_request();
    let page = body_text(test::call_service(&svc, req).await).await;
    // The players are named, with their seats.
    assert!(
        page.contains("(North seat), recorded by") && !page.contains("by the North seat"),
        "{page}"
    );
    let appeal = page
        .split("action=\"")
        .find(|s| s.contains("/appeal"))
        .and_then(|s| s.split('"').next())
        .expect("an appeal form")
        .to_owned();
    let resp = test::call_service(
        &svc,
        form(
            &appeal,
            vec![
                ("csrf", csrf.clone()),
                ("version", after["version"].to_string()),
                ("reason", "the play was not slow".into()),
            ],
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    assert_eq!(hand_json(&svc, &hand).await["nets"], before);
}

/// A false Mah-Jongg recorded with the form's rule penalty: the hand is abandoned, the caller
/// pays the ruleset's amount to each, and East passes only when the false caller was East.
#[actix_web::test]
async fn a_false_mah_jongg_recorded_by_form_abandons_the_hand_with_the_right_east() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let (session, csrf) = login(&svc).await;
    let record = |hand: String, by: &str| {
        test::TestRequest::post()
            .uri(&format!("/tables/{table}/hands"))
            .cookie(session.clone())
            .set_form(vec![
                ("csrf", csrf.clone()),
                ("hand", hand),
                ("winner", "washout".to_owned()),
                ("rule_penalty", "false-mah-jongg".to_owned()),
                ("rule_by", by.to_owned()),
            ])
            .to_request()
    };
    // South calls falsely: South pays 300 to each (Code §82) and East keeps the deal.
    let resp = test::call_service(&svc, record(format!("{table}-g1-h1"), "south")).await;
    assert_eq!(
        resp.status(),
        StatusCode::SEE_OTHER,
        "{}",
        body_text(resp).await
    );
    let h = hand_json(&svc, &format!("{table}-g1-h1")).await;
    assert_eq!(h["net_sum"], 0);
    let nets = h["nets"].to_string();
    assert!(nets.contains("900") && nets.contains("300"), "{nets}");
    // Refused without the player liable, with the reason beside the penalty.
    let bad = test::TestRequest::post()
        .uri(&format!("/tables/{table}/hands"))
        .cookie(session.clone())
        .set_form(vec![
            ("csrf", csrf.clone()),
            ("hand", format!("{table}-g1-h2")),
            ("rule_penalty", "false-mah-jongg".to_owned()),
        ])
        .to_request();
    let resp = test::call_service(&svc, bad).await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body_text(resp).await.contains("name the player liable"));
    // The next hand is h2 with the same East; East now calls falsely: the deal passes.
    let resp = test::call_service(&svc, record(format!("{table}-g1-h2"), "east")).await;
    assert_eq!(
        resp.status(),
        StatusCode::SEE_OTHER,
        "{}",
        body_text(resp).await
    );
    let table_json = get_json(&svc, &format!("/api/tables/{table}")).await;
    let next = table_json.to_string();
    assert!(next.contains(&format!("{table}-g1-h3")), "{next}");
    assert_eq!(table_json["next"]["east_seat"], "South", "{next}");
    assert!(next.contains("abandoned"), "{next}");
}
