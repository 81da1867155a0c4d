//! Standings (issue 9): identical requests give one order, ranks follow the tournament's
//! tie-break chain (ties shared, "1, 2, 2, 4") whatever column the page is sorted by, and the
//! chain is chosen when the tournament is created and shown under the table.

use super::*;

/// `setup`'s tournament with three more players who never sit down (all tied at nothing) and
/// one hand won by East.
async fn tournament_with_ties<S, B>(svc: &S, token: &str)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let table = setup(svc, token).await;
    for name in ["Eve", "Fay", "Gus"] {
        let resp = test::call_service(
            svc,
            post_json(
                "/api/tournaments/spring/players",
                Some(token),
                json!({ "name": name }),
            ),
        )
        .await;
        assert_eq!(resp.status(), StatusCode::CREATED);
    }
    let resp = test::call_service(
        svc,
        test::TestRequest::get()
            .uri(&format!("/api/tables/{table}"))
            .to_request(),
    )
    .await;
    let hand = body_json(resp).await["next"]["hand"]
        .as_str()
        .unwrap()
        .to_owned();
    let resp = test::call_service(
        svc,
        post_json(
            &format!("/api/tables/{table}/hands"),
            Some(token),
            win(&hand, "east"),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
}

async fn get_text<S, B>(svc: &S, uri: &str) -> String
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let resp = test::call_service(svc, test::TestRequest::get().uri(uri).to_request()).await;
    assert_eq!(resp.status(), StatusCode::OK, "{uri}");
    body_text(resp).await
}

/// (player, rank) in the order given.
fn ranked(standings: &Value) -> Vec<(String, u64)> {
    standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["player"].as_str().unwrap().to_owned(),
                r["rank"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[actix_web::test]
async fn thirty_identical_requests_give_one_order() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    tournament_with_ties(&svc, &t.token).await;
    for uri in [
        "/api/tournaments/spring/standings",
        "/api/tournaments/spring/standings?sort=played",
        "/api/tournaments/spring/standings?sort=won&dir=asc",
    ] {
        let first = ranked(&get_json(&svc, uri).await);
        for _ in 1..30 {
            assert_eq!(ranked(&get_json(&svc, uri).await), first, "{uri}");
        }
    }
}

#[actix_web::test]
async fn ranks_are_shared_by_ties_and_do_not_depend_on_the_sort_column() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    tournament_with_ties(&svc, &t.token).await;
    let by_net = get_json(&svc, "/api/tournaments/spring/standings").await;
    let rows = by_net["rows"].as_array().unwrap();
    // Best first; a rank is one more than the number of players strictly better.
    for (i, r) in rows.iter().enumerate() {
        let better = rows
            .iter()
            .filter(|o| {
                let key = |x: &Value| {
                    (
                        x["net"].as_i64().unwrap(),
                        x["hands_won"].as_i64().unwrap(),
                        x["largest_hand"].as_i64().unwrap(),
                    )
                };
                key(o) > key(r)
            })
            .count();
        assert_eq!(r["rank"].as_u64().unwrap(), better as u64 + 1, "row {i}");
    }
    // The three who never played tie at nothing and share a rank; the next rank skips two.
    let ranks: std::collections::HashMap<String, u64> = ranked(&by_net).into_iter().collect();
    assert_eq!(ranks["eve"], ranks["fay"]);
    assert_eq!(ranks["fay"], ranks["gus"]);
    let next = rows
        .iter()
        .map(|r| r["rank"].as_u64().unwrap())
        .find(|&r| r > ranks["eve"]);
    assert_eq!(next, Some(ranks["eve"] + 3), "{by_net}");
    // The player in last place by net is last whatever the column, and keeps their rank.
    for sort in ["name", "net", "played", "won", "largest"] {
        for dir in ["asc", "desc"] {
            let uri = format!("/api/tournaments/spring/standings?sort={sort}&dir={dir}");
            let other: std::collections::HashMap<String, u64> =
                ranked(&get_json(&svc, &uri).await).into_iter().collect();
            assert_eq!(other, ranks, "{uri}");
        }
    }
    let page = get_text(&svc, "/t/spring/standings?sort=name&dir=asc").await;
    let eve = page.find(">Eve<").unwrap();
    let rank_cell = &page[..eve].rsplit("<td class=\"num\">").next().unwrap();
    assert!(
        rank_cell.starts_with(&format!("{}<", ranks["eve"])),
        "{rank_cell}"
    );
}

#[actix_web::test]
async fn the_tie_break_chain_is_chosen_at_creation_and_shown_under_the_table() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    tournament_with_ties(&svc, &t.token).await;
    let page = get_text(&svc, "/t/spring/standings").await;
    assert!(
        page.contains("Rank is by net chips, then hands won, then largest hand"),
        "{page}"
    );
    let standings = get_json(&svc, "/api/tournaments/spring/standings").await;
    assert_eq!(
        standings["tie_break"],
        json!(["net", "hands_won", "largest_hand"])
    );

    let resp = test::call_service(
        &svc,
        post_json(
            "/api/tournaments",
            Some(&t.token),
            json!({"id": "autumn", "name": "Autumn Cup", "ruleset": "code-of-laws",
                   "starting_chips": 1000, "tie_break": ["hands_won", "fewest_hands_played", "net"]}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    let standings = get_json(&svc, "/api/tournaments/autumn/standings").await;
    assert_eq!(
        standings["tie_break"],
        json!(["hands_won", "fewest_hands_played", "net"])
    );
    let page = get_text(&svc, "/t/autumn/standings").await;
    assert!(
        page.contains("Rank is by hands won, then fewest hands played, then net chips"),
        "{page}"
    );
}

#[actix_web::test]
async fn an_unknown_tie_break_key_is_refused_with_the_valid_keys_and_changes_nothing() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    for chain in [json!(["net", "luck"]), json!([]), json!(["net", "net"])] {
        let before = head(&t.state);
        let resp = test::call_service(
            &svc,
            post_json(
                "/api/tournaments",
                Some(&t.token),
                json!({"id": "winter", "name": "Winter", "ruleset": "code-of-laws",
                       "starting_chips": 1000, "tie_break": chain}),
            ),
        )
        .await;
        assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY, "{chain}");
        let message = body_json(resp).await["error"]["message"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(message.contains("tie_break"), "{message}");
        if chain == json!(["net", "luck"]) {
            assert!(
                message.contains("`luck`")
                    && message.contains("net, hands_won, largest_hand, fewest_hands_played"),
                "{message}"
            );
        }
        assert_eq!(head(&t.state), before, "nothing recorded");
    }
}

#[actix_web::test]
async fn the_new_tournament_form_takes_a_tie_break_chain() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let (session, csrf) = login(&svc).await;
    let form = |chain: &str| {
        vec![
            ("csrf", csrf.clone()),
            ("id", "cup".to_owned()),
            ("name", "Cup".to_owned()),
            ("ruleset", "code-of-laws".to_owned()),
            ("starting_chips", "1000".to_owned()),
            ("tie_break", chain.to_owned()),
        ]
    };
    let req = test::TestRequest::post()
        .uri("/tournaments")
        .cookie(session.clone())
        .set_form(form("net, luck"))
        .to_request();
    let resp = test::call_service(&svc, req).await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page = body_text(resp).await;
    assert!(
        page.contains("unknown tie-break key `luck`") && page.contains("net, luck"),
        "re-rendered with the message and the input: {page}"
    );
    assert_eq!(head(&t.state), 0);

    let req = test::TestRequest::post()
        .uri("/tournaments")
        .cookie(session)
        .set_form(form("largest_hand, net"))
        .to_request();
    let resp = test::call_service(&svc, req).await;
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    let page = get_text(&svc, "/t/cup/standings").await;
    assert!(
        page.contains("Rank is by largest hand, then net chips"),
        "{page}"
    );
}

/// The standings as CSV for a spreadsheet: a header row, then one row per player in rank
/// order with the page's figures; a name with a comma or quotes survives, and one a
/// spreadsheet would run as a formula is made text.
#[actix_web::test]
async fn the_standings_download_as_csv_a_spreadsheet_reads_safely() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    record_discard_win(&svc, &t.token, &table).await;
    for name in ["Smith, \"Dragon\" Ann", "=HYPERLINK(\"http://x\")"] {
        let resp = test::call_service(
            &svc,
            post_json(
                "/api/tournaments/spring/players",
                Some(&t.token),
                json!({ "name": name }),
            ),
        )
        .await;
        assert_eq!(resp.status(), StatusCode::CREATED);
    }
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/t/spring/standings.csv")
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(resp
        .headers()
        .get("content-type")
        .unwrap()
        .to_str()
        .unwrap()
        .starts_with("text/csv"));
    let text = body_text(resp).await;
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(
        header,
        [
            "rank",
            "player",
            "name",
            "net",
            "hands_played",
            "hands_won",
            "largest_hand",
            "substitute",
            "withdrawn",
            "voided"
        ]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 6, "{text}");
    let page = get_json(&svc, "/api/tournaments/spring/standings").await;
    // The same figures as the standings, rank by rank.
    let mut ranks: Vec<u64> = rows.iter().map(|r| r[0].parse().unwrap()).collect();
    let sorted = {
        let mut s = ranks.clone();
        s.sort_unstable();
        s
    };
    assert_eq!(ranks, sorted, "in rank order");
    ranks.dedup();
    let winner = &rows[0];
    let first = &page["rows"][0];
    assert_eq!(winner[2], *first["name"].as_str().unwrap(), "{page}");
    assert_eq!(winner[3], first["net"].to_string());
    let names: Vec<&str> = rows.iter().map(|r| r.get(2).unwrap()).collect();
    assert!(names.contains(&"Smith, \"Dragon\" Ann"), "{names:?}");
    assert!(names.contains(&"'=HYPERLINK(\"http://x\")"), "{names:?}");
}
