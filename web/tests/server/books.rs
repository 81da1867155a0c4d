//! The treasurer's pages (issue 14): the books against the standings, the CSV exports parsed
//! back, printable score sheets, a player's chips as a chart, and long lists a page at a time.

use std::collections::HashMap;

use super::*;

/// GET as the public (`None`) or as an official with a token: the status and the body.
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

/// Records one hand at `table` for each of `winners` (a seat, or `"washout"`), each the
/// table's next hand; returns the hands' ids.
async fn play<S, B>(svc: &S, token: &str, table: &str, winners: &[&str]) -> Vec<String>
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let mut hands = Vec::new();
    for winner in winners {
        let next = get_json(svc, &format!("/api/tables/{table}")).await["next"]["hand"]
            .as_str()
            .unwrap()
            .to_owned();
        let body = match *winner {
            "washout" => json!({"hand": next, "winner": null}),
            w => win(&next, w),
        };
        let resp = test::call_service(
            svc,
            post_json(&format!("/api/tables/{table}/hands"), Some(token), body),
        )
        .await;
        let status = resp.status();
        assert_eq!(
            status,
            StatusCode::CREATED,
            "{next}: {}",
            body_text(resp).await
        );
        hands.push(next);
    }
    hands
}

/// The standings' nets by player.
async fn standing_nets<S, B>(svc: &S) -> HashMap<String, i64>
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    get_json(svc, "/api/tournaments/spring/standings").await["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["player"].as_str().unwrap().to_owned(),
                r["net"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// A CSV body read back with the csv crate: the header and the rows, each as column → cell.
fn parse_csv(body: &str) -> (Vec<String>, Vec<HashMap<String, String>>) {
    let mut reader = csv::Reader::from_reader(body.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    let rows = reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            header
                .iter()
                .cloned()
                .zip(r.iter().map(str::to_owned))
                .collect()
        })
        .collect();
    (header, rows)
}

#[actix_web::test]
async fn the_books_match_the_standings_and_their_transfers_settle_every_balance() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    play(
        &svc,
        &t.token,
        &table,
        &["east", "south", "west", "washout", "north", "south"],
    )
    .await;
    let nets = standing_nets(&svc).await;
    let b = get_json(&svc, "/api/tournaments/spring/books").await;
    assert_eq!(b["hands_counted"], 6, "{b}");
    assert_eq!(b["starting_chips"], 2000);
    let players = b["players"].as_array().unwrap();
    assert_eq!(players.len(), 4, "{b}");
    let mut balances: HashMap<String, i64> = HashMap::new();
    for p in players {
        let id = p["player"].as_str().unwrap().to_owned();
        let balance = p["balance"].as_i64().unwrap();
        assert_eq!(
            balance, nets[&id],
            "{id}: the books and the standings agree"
        );
        assert_eq!(p["chips"].as_i64().unwrap(), 2000 + balance, "{id}");
        assert_eq!(p["out_of_chips"], false, "{id}");
        assert_eq!(p["hands"], 6, "{id}");
        balances.insert(id, balance);
    }
    assert!(balances.values().any(|&b| b != 0), "{b}");
    // Paying the transfers leaves everybody square, in no more than n − 1 of them.
    let transfers = b["transfers"].as_array().unwrap();
    let owed = balances.values().filter(|&&b| b != 0).count();
    assert!(!transfers.is_empty() && transfers.len() < owed, "{b}");
    assert_eq!(b["fewest_proven"], true);
    for tr in transfers {
        let amount = tr["amount"].as_i64().unwrap();
        assert!(amount > 0, "{tr}");
        *balances.get_mut(tr["from"].as_str().unwrap()).unwrap() += amount;
        *balances.get_mut(tr["to"].as_str().unwrap()).unwrap() -= amount;
    }
    assert!(balances.values().all(|&b| b == 0), "{balances:?}");

    // The page says the same, and the tournament and standings pages lead to it.
    let (status, page) = get(&svc, "/t/spring/books", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Who pays whom"), "{page}");
    for tr in transfers {
        let line = format!(
            "<td data-label=\"Pays\">{}</td><td data-label=\"To\">{}</td><td class=\"num\" data-label=\"Amount\">{}</td>",
            tr["from_name"].as_str().unwrap(),
            tr["to_name"].as_str().unwrap(),
            tr["amount"]
        );
        assert!(page.contains(&line), "{line}");
    }
    assert!(!page.contains("Out of chips"), "nobody has run out");
    for uri in ["/t/spring", "/t/spring/standings"] {
        let (_, page) = get(&svc, uri, None).await;
        assert!(page.contains("href=\"/t/spring/books\""), "{uri}");
    }
    for uri in [
        "/t/nowhere/books",
        "/api/tournaments/nowhere/books",
        "/t/nowhere/hands.csv",
        "/t/nowhere/settlements.csv",
        "/t/nowhere/sheets",
    ] {
        assert_eq!(get(&svc, uri, None).await.0, StatusCode::NOT_FOUND, "{uri}");
    }
}

#[actix_web::test]
async fn a_player_out_of_chips_is_warned_about_on_the_books() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let tok = Some(t.token.as_str());
    let resp = test::call_service(
        &svc,
        post_json(
            "/api/tournaments",
            tok,
            json!({"id": "tight", "name": "Tight", "ruleset": "code-of-laws", "starting_chips": 10}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    for name in ["Ann", "Ben", "Cat", "Dan"] {
        let resp = test::call_service(
            &svc,
            post_json(
                "/api/tournaments/tight/players",
                tok,
                json!({ "name": name }),
            ),
        )
        .await;
        assert_eq!(resp.status(), StatusCode::CREATED);
    }
    let resp = test::call_service(
        &svc,
        post_json(
            "/api/tournaments/tight/tables",
            tok,
            json!({"players": ["ann", "ben", "cat", "dan"]}),
        ),
    )
    .await;
    let table = body_json(resp).await["id"].as_str().unwrap().to_owned();
    play(&svc, &t.token, &table, &["east"]).await;
    let b = get_json(&svc, "/api/tournaments/tight/books").await;
    let out: Vec<&Value> = b["players"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["out_of_chips"] == true)
        .collect();
    assert_eq!(out.len(), 3, "the three who paid East: {b}");
    assert!(out.iter().all(|p| p["chips"].as_i64().unwrap() <= 0), "{b}");
    let (_, page) = get(&svc, "/t/tight/books", None).await;
    let alert = page.split("role=\"alert\"").nth(1).expect("a warning");
    assert!(alert.contains("Out of chips"), "{page}");
    for p in &out {
        let line = format!("{}: {} chips", p["name"].as_str().unwrap(), p["chips"]);
        assert!(alert.contains(&line), "{line}");
    }
}

#[actix_web::test]
async fn the_exports_parse_back_and_add_up_to_the_standings() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let hands = play(
        &svc,
        &t.token,
        &table,
        &["south", "east", "washout", "north", "west"],
    )
    .await;
    let nets = standing_nets(&svc).await;

    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/t/spring/hands.csv")
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(
        resp.headers().get("content-type").unwrap(),
        "text/csv; charset=utf-8"
    );
    let (header, rows) = parse_csv(&body_text(resp).await);
    assert_eq!(
        &header[..5],
        ["session", "table", "game", "hand", "hand_id"]
    );
    assert!(header.contains(&"penalties".to_owned()), "{header:?}");
    assert_eq!(rows.len(), hands.len());
    let ids: Vec<&str> = rows.iter().map(|r| r["hand_id"].as_str()).collect();
    assert_eq!(ids, hands, "one row per hand, in order");
    let mut sums: HashMap<String, i64> = HashMap::new();
    for r in &rows {
        assert_eq!(r["session"], "", "a table outside sessions");
        assert_eq!(r["table"], "1");
        assert_eq!(r["counted"], "true");
        let mut hand_sum = 0;
        for seat in ["east", "south", "west", "north"] {
            let net: i64 = r[&format!("{seat}_seat_net")].parse().unwrap();
            hand_sum += net;
            *sums
                .entry(r[&format!("{seat}_seat_player")].clone())
                .or_default() += net;
        }
        assert_eq!(hand_sum, 0, "a hand is zero-sum: {r:?}");
    }
    assert_eq!(rows[2]["result"], "wash-out");
    assert_eq!(rows[2]["winner"], "");
    assert!(!rows[0]["winner"].is_empty() && rows[0]["winning_score"].parse::<i64>().unwrap() > 0);
    assert_eq!(sums, nets, "the hands add up to the standings");

    let (status, body) = get(&svc, "/t/spring/settlements.csv", None).await;
    assert_eq!(status, StatusCode::OK);
    let (header, rows) = parse_csv(&body);
    assert_eq!(
        header,
        [
            "table", "game", "hand", "hand_id", "player", "name", "seat", "score", "net",
            "balance", "chips"
        ]
    );
    assert_eq!(rows.len(), 4 * hands.len(), "one row per player per hand");
    let mut last: HashMap<String, (i64, i64)> = HashMap::new();
    let mut running: HashMap<String, i64> = HashMap::new();
    for r in &rows {
        let net: i64 = r["net"].parse().unwrap();
        let balance = running.entry(r["player"].clone()).or_default();
        *balance += net;
        assert_eq!(r["balance"].parse::<i64>().unwrap(), *balance, "{r:?}");
        last.insert(
            r["player"].clone(),
            (*balance, r["chips"].parse::<i64>().unwrap()),
        );
    }
    for (player, net) in &nets {
        assert_eq!(last[player], (*net, 2000 + net), "{player}");
    }
    // The books page links both.
    let (_, page) = get(&svc, "/t/spring/books", None).await;
    assert!(page.contains("href=\"/t/spring/hands.csv\""));
    assert!(page.contains("href=\"/t/spring/settlements.csv\""));
}

#[actix_web::test]
async fn a_name_that_would_be_a_formula_is_text_in_every_export() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let tok = Some(t.token.as_str());
    let table = setup(&svc, &t.token).await;
    play(&svc, &t.token, &table, &["east"]).await;
    // A fifth player named like a formula, seated at a second table with three others.
    for name in ["=HYPERLINK(1)", "Eve", "Fay", "Gus"] {
        let resp = test::call_service(
            &svc,
            post_json(
                "/api/tournaments/spring/players",
                tok,
                json!({ "name": name }),
            ),
        )
        .await;
        assert_eq!(resp.status(), StatusCode::CREATED, "{name}");
    }
    let players = get_json(&svc, "/api/tournaments/spring").await["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_owned())
        .collect::<Vec<_>>();
    let resp = test::call_service(
        &svc,
        post_json(
            "/api/tournaments/spring/tables",
            tok,
            json!({"players": players[4..8]}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    let second = body_json(resp).await["id"].as_str().unwrap().to_owned();
    play(&svc, &t.token, &second, &["east"]).await;
    for uri in ["/t/spring/hands.csv", "/t/spring/settlements.csv"] {
        let (_, body) = get(&svc, uri, None).await;
        let (_, rows) = parse_csv(&body);
        let cells: Vec<&String> = rows.iter().flat_map(|r| r.values()).collect();
        assert!(cells.iter().all(|c| !c.starts_with('=')), "{uri}: {body}");
        assert!(body.contains("'=HYPERLINK(1)"), "{uri}: {body}");
    }
}

#[actix_web::test]
async fn score_sheets_print_one_table_to_a_page_and_leave_out_what_the_public_may_not_see() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let tok = Some(t.token.as_str());
    let table = setup(&svc, &t.token).await;
    play(&svc, &t.token, &table, &["east", "south", "washout"]).await;
    // The table's sheet: its players by seat, each hand, and the running totals.
    let (status, sheet) = get(&svc, &format!("/tables/{table}/sheet"), None).await;
    assert_eq!(status, StatusCode::OK);
    let tv = get_json(&svc, &format!("/api/tables/{table}")).await;
    for s in tv["seats"].as_array().unwrap() {
        assert!(sheet.contains(s["name"].as_str().unwrap()), "{s}");
    }
    assert_eq!(sheet.matches("<td>g1 h").count(), 3, "{sheet}");
    for total in tv["totals"].as_array().unwrap() {
        assert!(sheet.contains(&format!("<b>{total}</b></td>")), "{total}");
    }
    assert_eq!(sheet.matches("class=\"score-sheet\"").count(), 1);
    // A second table, then voided: officials' sheets have both, the public's one.
    for name in ["Eve", "Fay", "Gus", "Hal"] {
        let resp = test::call_service(
            &svc,
            post_json(
                "/api/tournaments/spring/players",
                tok,
                json!({ "name": name }),
            ),
        )
        .await;
        assert_eq!(resp.status(), StatusCode::CREATED);
    }
    let resp = test::call_service(
        &svc,
        post_json(
            "/api/tournaments/spring/tables",
            tok,
            json!({"players": ["eve", "fay", "gus", "hal"]}),
        ),
    )
    .await;
    let second = body_json(resp).await["id"].as_str().unwrap().to_owned();
    play(&svc, &t.token, &second, &["north"]).await;
    let (_, all) = get(&svc, "/t/spring/sheets", tok).await;
    assert_eq!(all.matches("class=\"score-sheet\"").count(), 2, "{all}");
    let books_before = get_json(&svc, "/api/tournaments/spring/books").await;
    assert_eq!(books_before["hands_counted"], 4);
    let resp = test::call_service(
        &svc,
        post_json(
            &format!("/api/tables/{second}/void"),
            tok,
            json!({"reason": "wrong players"}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let (_, public) = get(&svc, "/t/spring/sheets", None).await;
    assert_eq!(public.matches("class=\"score-sheet\"").count(), 1);
    assert!(!public.contains(&format!("sheet-{second}")), "{public}");
    assert!(!public.contains("Fay"), "{public}");
    let (_, officials) = get(&svc, "/t/spring/sheets", tok).await;
    assert_eq!(officials.matches("class=\"score-sheet\"").count(), 2);
    assert_eq!(
        get(&svc, &format!("/tables/{second}/sheet"), None).await.0,
        StatusCode::NOT_FOUND
    );
    // The voided table's hands leave the public's books and exports too (one place decides).
    let b = get_json(&svc, "/api/tournaments/spring/books").await;
    assert_eq!(b["hands_counted"], 3, "{b}");
    let (_, csv) = get(&svc, "/t/spring/hands.csv", None).await;
    assert_eq!(parse_csv(&csv).1.len(), 3);
    let (_, csv) = get(&svc, "/t/spring/hands.csv", tok).await;
    assert_eq!(parse_csv(&csv).1.len(), 4);
    // Printed, each sheet ends its page and the navigation and forms are not printed.
    let (_, css) = get(&svc, "/static/style.css", None).await;
    let print = css.split("@media print").nth(1).expect("a print style");
    assert!(print.contains("break-after: page") && print.contains("page-break-after: always"));
    assert!(print.contains("header, footer, nav, form"));
}

#[actix_web::test]
async fn a_players_chips_are_drawn_hand_by_hand() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    play(&svc, &t.token, &table, &["east", "south", "west"]).await;
    let p = get_json(&svc, "/api/tournaments/spring/players/ann").await;
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/t/spring/players/ann/chips.svg")
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(resp.headers().get("content-type").unwrap(), "image/svg+xml");
    let svg = body_text(resp).await;
    assert!(
        svg.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{svg}"
    );
    assert!(svg.contains("viewBox=\"0 0 360 180\"") && svg.contains("width=\"100%\""));
    assert!(svg.contains("role=\"img\""), "{svg}");
    assert!(svg.contains("s chips hand by hand</title>"), "{svg}");
    let end = 2000 + p["net"].as_i64().unwrap();
    assert!(
        svg.contains(&format!("started at 2000, ended at {end}")),
        "{svg}"
    );
    let points = svg
        .split("<polyline points=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    assert_eq!(points.split(' ').count(), 4, "the start and three hands");
    // The same chart is on the player's page.
    let (_, page) = get(&svc, "/t/spring/players/ann", None).await;
    assert!(page.contains("class=\"chips-chart\""));
    assert!(page.contains(points));
    for uri in [
        "/t/spring/players/nobody/chips.svg",
        "/t/nowhere/players/ann/chips.svg",
    ] {
        assert_eq!(get(&svc, uri, None).await.0, StatusCode::NOT_FOUND, "{uri}");
    }
}

#[actix_web::test]
async fn long_lists_come_fifty_to_a_page_and_a_bad_page_is_an_error_page() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    // East wins every hand and keeps the deal: 51 hands at one table.
    play(&svc, &t.token, &table, &["east"; 51]).await;
    let tv = get_json(&svc, &format!("/api/tables/{table}")).await;
    let all = tv["hands"].as_array().unwrap();
    assert_eq!(all.len(), 51, "the API still lists every hand");

    let base = format!("/tables/{table}");
    let (status, first) = get(&svc, &base, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(first.matches("<a href=\"/hands/").count(), 50);
    assert!(first.contains(&format!("rel=\"next\" href=\"{base}?page=2\"")));
    assert!(!first.contains("rel=\"prev\""));
    assert!(first.contains("page 1 of 2"));
    let (status, second) = get(&svc, &format!("{base}?page=2"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(second.matches("<a href=\"/hands/").count(), 1);
    assert!(second.contains(&format!("rel=\"prev\" href=\"{base}?page=1\"")));
    assert!(!second.contains("rel=\"next\""));
    // Page 2's running totals carry on from page 1's: the last hand's, as the API has them.
    let last = &all[50];
    assert!(second.contains(&format!("/hands/{}", last["hand"].as_str().unwrap())));
    for (i, total) in last["totals"].as_array().unwrap().iter().enumerate() {
        let cell = format!(
            "{total} <small>({})</small>",
            last["nets"][i].as_str().unwrap()
        );
        assert!(second.contains(&cell), "{cell}");
    }

    // The player's history likewise, running totals included.
    let p = get_json(&svc, "/api/tournaments/spring/players/ann").await;
    let ph = p["hands"].as_array().unwrap();
    assert_eq!(ph.len(), 51);
    let (status, page2) = get(&svc, "/t/spring/players/ann?page=2", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page2.contains("rel=\"prev\" href=\"/t/spring/players/ann?page=1\""));
    assert!(page2.contains(&format!(
        "<td class=\"num\">{}</td>\n  </tr>",
        ph[50]["running"]
    )));
    let (_, page1) = get(&svc, "/t/spring/players/ann", None).await;
    assert_eq!(page1.matches("<a href=\"/hands/").count(), 50);

    // Out of range is a 404, garbled a 400: an error page that says why, never a panic.
    for (uri, status, says) in [
        (
            format!("{base}?page=3"),
            StatusCode::NOT_FOUND,
            "there are 2 pages",
        ),
        (
            format!("{base}?page=0"),
            StatusCode::BAD_REQUEST,
            "numbered from 1",
        ),
        (
            format!("{base}?page=two"),
            StatusCode::BAD_REQUEST,
            "numbered from 1",
        ),
        (
            format!("{base}?page=-1"),
            StatusCode::BAD_REQUEST,
            "numbered from 1",
        ),
        (
            format!("{base}?page=99999999999999999999"),
            StatusCode::BAD_REQUEST,
            "numbered from 1",
        ),
        (
            "/t/spring/players/ann?page=9".to_owned(),
            StatusCode::NOT_FOUND,
            "there are 2 pages",
        ),
        (
            "/t/spring?page=2".to_owned(),
            StatusCode::NOT_FOUND,
            "there is 1 page",
        ),
        (
            "/t/spring?page=x".to_owned(),
            StatusCode::BAD_REQUEST,
            "numbered from 1",
        ),
    ] {
        let (got, body) = get(&svc, &uri, None).await;
        assert_eq!(got, status, "{uri}");
        assert!(body.contains(says), "{uri}: {body}");
    }
}

#[actix_web::test]
async fn the_tournaments_tables_come_fifty_to_a_page() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let tok = Some(t.token.as_str());
    let first = setup(&svc, &t.token).await;
    // Close the table and seat the same four again, until there are 51 tables.
    let mut last = first;
    for _ in 1..51 {
        let resp = test::call_service(
            &svc,
            post_json(&format!("/api/tables/{last}/close"), tok, json!({})),
        )
        .await;
        assert_eq!(resp.status(), StatusCode::OK);
        let resp = test::call_service(
            &svc,
            post_json(
                "/api/tournaments/spring/tables",
                tok,
                json!({"players": ["ann", "ben", "cat", "dan"]}),
            ),
        )
        .await;
        assert_eq!(resp.status(), StatusCode::CREATED);
        last = body_json(resp).await["id"].as_str().unwrap().to_owned();
    }
    let (_, page1) = get(&svc, "/t/spring", None).await;
    assert_eq!(page1.matches("<a href=\"/tables/").count(), 50);
    assert!(page1.contains("rel=\"next\" href=\"/t/spring?page=2\""));
    let (_, page2) = get(&svc, "/t/spring?page=2", None).await;
    assert_eq!(page2.matches("<a href=\"/tables/").count(), 1);
    assert!(page2.contains(&format!("<a href=\"/tables/{last}\">")));
    // Voided tables leave the public's pages, so a page is still full of tables it may see.
    let resp = test::call_service(
        &svc,
        post_json(
            &format!("/api/tables/{last}/void"),
            tok,
            json!({"reason": "a mistake"}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let (_, page1) = get(&svc, "/t/spring", None).await;
    assert!(
        !page1.contains("rel=\"next\""),
        "one page of 50 for the public"
    );
    assert_eq!(
        get(&svc, "/t/spring?page=2", None).await.0,
        StatusCode::NOT_FOUND
    );
    let (status, officials) = get(&svc, "/t/spring?page=2", tok).await;
    assert_eq!(status, StatusCode::OK);
    assert!(officials.contains(&format!("<a href=\"/tables/{last}\">")));
}
