//! The public audit is cheap: the last verification is served while the chain head has not
//! moved; a write, or an official asking, verifies anew.

use super::*;

async fn audit_json<S, B>(svc: &S, uri: &str, token: Option<&str>) -> Value
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let mut req = test::TestRequest::get().uri(uri);
    if let Some(t) = token {
        req = req.insert_header(("authorization", format!("Bearer {t}")));
    }
    let resp = test::call_service(svc, req.to_request()).await;
    assert_eq!(resp.status(), StatusCode::OK, "{uri}");
    body_json(resp).await
}

#[actix_web::test]
async fn the_public_is_served_the_last_verification_until_the_head_moves() {
    let mut t = spawn();
    t.forged = true; // it writes behind the service's back
    let svc = test::init_service(app(t.state.clone())).await;
    let body = json!({"id": "spring", "name": "Spring Open", "ruleset": "code-of-laws", "starting_chips": 100});
    let resp = test::call_service(&svc, post_json("/api/tournaments", Some(&t.token), body)).await;
    assert_eq!(resp.status(), StatusCode::CREATED);

    let first = audit_json(&svc, "/api/audit", None).await;
    assert_eq!(first["clean"], true, "{first}");
    assert!(first["verified_at"].is_string(), "{first}");
    // No write between them: the same report, not verified again, even when the public asks.
    for uri in ["/api/audit", "/api/audit?fresh=1"] {
        assert_eq!(audit_json(&svc, uri, None).await, first, "{uri}");
    }
    let page = body_text(
        test::call_service(&svc, test::TestRequest::get().uri("/audit").to_request()).await,
    )
    .await;
    assert!(
        page.contains(first["verified_at"].as_str().unwrap()),
        "the page shows the same verification: {page}"
    );
    assert!(!page.contains("Verify now"), "offered to officials only");

    // Proof that nothing was re-verified: a row edited behind the service's back (the head
    // unmoved) is not noticed by the cached report; an official asking for a fresh one is.
    {
        let raw = rusqlite::Connection::open(t.state.path()).unwrap();
        raw.execute_batch(
            "DROP TRIGGER events_no_update;
             UPDATE events SET payload = replace(payload, 'Spring Open', 'Spring Opem') WHERE event_type = 'tournament_created';",
        )
        .unwrap();
    }
    assert_eq!(audit_json(&svc, "/api/audit", None).await, first);
    let fresh = audit_json(&svc, "/api/audit?fresh=1", Some(&t.tokens.scorer)).await;
    assert_eq!(fresh["clean"], false, "{fresh}");
    assert_eq!(fresh["head_position"], first["head_position"]);
    assert_ne!(fresh["verified_at"], first["verified_at"]);
    assert!(fresh["verification"].as_u64() > first["verification"].as_u64());
    // The fresh verification is what the public is served next (its public report).
    let served = audit_json(&svc, "/api/audit", None).await;
    for field in ["clean", "head_position", "verified_at", "verification"] {
        assert_eq!(served[field], fresh[field], "{field}");
    }

    // A write moves the head on: the public is still served the last verification (which says
    // the head it verified) until it is `REVERIFY_AFTER` old — writes do not each cost a full
    // verification — and an official asking for a fresh one gets the new head verified.
    let resp = test::call_service(
        &svc,
        post_json(
            "/api/tournaments/spring/players",
            Some(&t.token),
            json!({"name": "Ann"}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    assert_eq!(audit_json(&svc, "/api/audit", None).await, served);
    let after = audit_json(&svc, "/api/audit?fresh=1", Some(&t.tokens.scorer)).await;
    assert_ne!(after["head_position"], fresh["head_position"]);
    assert_ne!(after["verified_at"], fresh["verified_at"]);
    assert!(after["verification"].as_u64() > fresh["verification"].as_u64());
    let served = audit_json(&svc, "/api/audit", None).await;
    assert_eq!(served["verified_at"], after["verified_at"]);
}

/// Accounts under audit: officials, tokens and logins made through the service audit clean; an
/// official made administrator behind the program's back, or a session slipped into the table,
/// is named by the audit.
#[actix_web::test]
async fn an_edit_to_the_officials_tables_behind_the_programs_back_is_named() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    // A login and a logout through the service are recorded too.
    t.state
        .write_now(|l| auth::login(l, "sam", PASSWORD))
        .map(|(token, _)| t.state.write_now(|l| auth::logout(l, &token)))
        .unwrap()
        .unwrap();
    let clean = audit_json(&svc, "/api/audit?fresh=1", Some(&t.token)).await;
    assert_eq!(clean["clean"], true, "{clean}");
    {
        let raw = rusqlite::Connection::open(t.state.path()).unwrap();
        raw.execute_batch(
            "UPDATE officials SET is_admin = 1 WHERE official = 'sam';
             INSERT INTO sessions (token_sha256, official, csrf_token, expires_at)
                 VALUES (x'00', 'rita', 'c', 4000000000);",
        )
        .unwrap();
    }
    let found = audit_json(&svc, "/api/audit?fresh=1", Some(&t.token)).await;
    assert_eq!(found["clean"], false, "{found}");
    let text = found.to_string();
    assert!(
        text.contains("`sam` has administrator true (recorded false)"),
        "{text}"
    );
    assert!(
        text.contains("a session of `rita` that no login opened"),
        "{text}"
    );
}

/// Heads a club can publish: closing a table signs a checkpoint of the chain head; an official
/// signs one on demand; anyone lists them and downloads each as the file `audit --expect-head`
/// reads; the audit page shows the ledger's key and the checkpoints.
#[actix_web::test]
async fn closing_a_table_signs_a_checkpoint_and_officials_sign_more_on_demand() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let resp = test::call_service(
        &svc,
        post_json(
            &format!("/api/tables/{table}/close"),
            Some(&t.token),
            json!({}),
        ),
    )
    .await;
    assert!(resp.status().is_success(), "{}", resp.status());
    let listed = audit_json(&svc, "/api/checkpoints", None).await;
    let key = t.state.ledger_key().public_hex();
    assert_eq!(listed["ledger"], key.as_str());
    let list = listed["checkpoints"].as_array().unwrap();
    assert_eq!(list.len(), 1, "{listed}");
    assert_eq!(list[0]["ledger"], key.as_str());
    // Anyone may list; only an official may sign.
    let resp = test::call_service(&svc, post_json("/api/checkpoints", None, json!({}))).await;
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    let resp = test::call_service(
        &svc,
        post_json("/api/checkpoints", Some(&t.tokens.scorer), json!({})),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    let signed = body_json(resp).await;
    // The download is the file the command line checks.
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/api/checkpoints/2")
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(resp
        .headers()
        .get("content-disposition")
        .unwrap()
        .to_str()
        .unwrap()
        .contains("attachment"));
    let text = body_text(resp).await;
    let (c, head) = ledger::signing::Checkpoint::read(&text).unwrap();
    assert_eq!(serde_json::to_value(&c).unwrap(), signed);
    assert_eq!(head.position, signed["position"].as_u64().unwrap());
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/api/checkpoints/9")
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    let page = body_text(
        test::call_service(&svc, test::TestRequest::get().uri("/audit").to_request()).await,
    )
    .await;
    assert!(page.contains(&key), "the page shows the ledger's key");
    assert!(page.contains("/api/checkpoints/2"), "{page}");
    let audit = audit_json(&svc, "/api/audit?fresh=1", Some(&t.token)).await;
    assert_eq!(audit["clean"], true, "{audit}");
}

/// Every answer carries the security headers, and no page has an inline script for the
/// content security policy to refuse.
#[actix_web::test]
async fn every_answer_carries_the_security_headers() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    for uri in [
        "/",
        "/login",
        "/audit",
        "/static/style.css",
        "/no-such-page",
        "/api/rulesets",
    ] {
        let resp = test::call_service(&svc, test::TestRequest::get().uri(uri).to_request()).await;
        let h = resp.headers();
        let csp = h
            .get("content-security-policy")
            .map(|v| v.to_str().unwrap());
        assert_eq!(csp, Some(web::server::CONTENT_SECURITY_POLICY), "{uri}");
        assert!(csp.unwrap().contains("frame-ancestors 'none'"));
        assert!(!csp.unwrap().contains("unsafe-inline"));
        assert_eq!(h.get("x-content-type-options").unwrap(), "nosniff", "{uri}");
        assert_eq!(h.get("referrer-policy").unwrap(), "same-origin", "{uri}");
    }
    let templates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../templates");
    for entry in std::fs::read_dir(templates).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "html") {
            let text = std::fs::read_to_string(&path).unwrap();
            for (i, _) in text.match_indices("<script") {
                let tag = &text[i..text[i..].find('>').map_or(text.len(), |e| i + e)];
                assert!(tag.contains(" src="), "{}: inline script", path.display());
            }
            assert!(!text.contains(" on") || !text.contains("=\"javascript:"));
        }
    }
}

#[actix_web::test]
async fn the_public_audit_names_no_stream_and_no_path_of_the_server() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    record_discard_win(&svc, &t.token, &table).await;
    let path = t.state.path().display().to_string();
    let public = audit_json(&svc, "/api/audit", None).await;
    let report = public["report"].as_str().unwrap();
    assert_eq!(public["clean"], true, "{public}");
    assert!(report.contains("result: OK"), "{report}");
    for secret in [
        path.as_str(),
        table.as_str(),
        "at version",
        "ledger audit of",
    ] {
        assert!(
            !report.contains(secret),
            "`{secret}` in the public's report: {report}"
        );
    }
    let page = body_text(
        test::call_service(&svc, test::TestRequest::get().uri("/audit").to_request()).await,
    )
    .await;
    for secret in [path.as_str(), table.as_str()] {
        assert!(!page.contains(secret), "`{secret}` on the public page");
    }
    // Officials read the whole report.
    let whole = audit_json(&svc, "/api/audit", Some(&t.token)).await;
    let report = whole["report"].as_str().unwrap();
    assert!(
        report.contains(&path) && report.contains(&table),
        "{report}"
    );
}
