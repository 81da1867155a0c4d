//! At the table on a phone (issue 15): tiles the program ships, the check page and its API, the
//! record form's preview, a wash-out that must be chosen, and settlements that name players.

use super::*;

async fn get<S, B>(svc: &S, uri: &str) -> ServiceResponse<B>
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    test::call_service(svc, test::TestRequest::get().uri(uri).to_request()).await
}

#[actix_web::test]
async fn every_tile_is_an_image_served_for_a_year_and_nothing_else_is() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    for name in [
        "1m", "9m", "5p", "1s", "E", "N", "R", "G", "P", "1f", "4y", "back",
    ] {
        let resp = get(&svc, &format!("/static/tiles/1/{name}.svg")).await;
        assert_eq!(resp.status(), StatusCode::OK, "{name}");
        let headers = resp.headers();
        assert_eq!(
            headers.get("content-type").unwrap(),
            "image/svg+xml",
            "{name}"
        );
        assert!(
            headers
                .get("cache-control")
                .unwrap()
                .to_str()
                .unwrap()
                .contains("max-age=31536000"),
            "{name}"
        );
        let svg = body_text(resp).await;
        assert!(svg.starts_with("<svg") && svg.contains("<title>"), "{svg}");
    }
    for bad in [
        "/static/tiles/1/0p.svg",
        "/static/tiles/1/x.svg",
        "/static/tiles/0/1m.svg",
        "/static/tiles/1/1m.png",
    ] {
        assert_eq!(
            get(&svc, bad).await.status(),
            StatusCode::NOT_FOUND,
            "{bad}"
        );
    }
    let js = get(&svc, "/static/picker.js").await;
    assert_eq!(js.status(), StatusCode::OK);
    assert!(body_text(js).await.contains("/api/check"));
}

#[actix_web::test]
async fn the_check_api_scores_a_hand_as_the_score_command_does() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let hand = "%5BRRR%5D+%5B234p%5D+567s+99m+11s+%3D1s";
    let c = get_json(
        &svc,
        &format!("/api/check?hand={hand}&seat=south&win_from=wall"),
    )
    .await;
    // The README's `score` example: 48 under the Code of Laws.
    assert_eq!(c["mahjong"], true, "{c}");
    assert_eq!(c["sheet"]["total"], 48, "{c}");
    assert_eq!(c["ruleset"], "code-of-laws");
    assert!(!c["arrangements"].as_array().unwrap().is_empty(), "{c}");
    assert_eq!(c["tiles"][3]["kind"], "winning", "{c}");
    assert_eq!(
        c["tiles"][3]["tiles"][0]["src"], "/static/tiles/1/1s.svg",
        "{c}"
    );
    assert_eq!(c["tiles"][3]["tiles"][0]["alt"], "1 bamboo", "{c}");
    // Another ruleset scores the same hand its own way.
    let b = get_json(
        &svc,
        &format!("/api/check?hand={hand}&seat=south&win_from=wall&ruleset=babcock-standard"),
    )
    .await;
    assert_eq!(b["ruleset"], "babcock-standard", "{b}");
    // A calling hand: its waits, each with what it would score drawn from the wall.
    let w = get_json(&svc, "/api/check?hand=123m+456m+789s+EE+45p").await;
    let waits: Vec<&str> = w["waits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["tile"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(waits, ["3p", "6p"], "{w}");
    assert!(w["waits"][0]["if_drawn"].as_u64().unwrap() > 0, "{w}");
}

#[actix_web::test]
async fn bad_checks_say_what_is_wrong_and_where() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let resp = get(&svc, "/api/check?hand=123m+456m+789s+EE+45x&seat=up").await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let e = body_json(resp).await;
    let fields: Vec<&str> = e["error"]["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["hand", "seat"], "{e}");
    assert!(e["error"]["violations"][0]["message"]
        .as_str()
        .unwrap()
        .contains("column 21"));
    let resp = get(&svc, "/api/check?hand=EE&ruleset=nope").await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body_text(resp).await.contains("no built-in ruleset `nope`"));
    let resp = get(&svc, "/api/check?hand=EE&handd=1").await;
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
    assert!(body_text(resp).await.contains("handd"));
    let resp = get(&svc, "/api/check?hand=EE&tournament=nowhere").await;
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    // The page shows the problem beside the field, and never a stack trace.
    let resp = get(&svc, "/check?hand=11111m+23p").await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page = body_text(resp).await;
    assert!(
        page.contains("a fifth `1m`") && page.contains("aria-invalid"),
        "{page}"
    );
}

#[actix_web::test]
async fn the_check_page_shows_tiles_arrangements_waits_and_the_score() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let page = body_text(get(&svc, "/check").await).await;
    assert!(
        page.contains("Check a hand") && page.contains("tile-picker"),
        "{page}"
    );
    let resp = get(
        &svc,
        "/check?hand=%28123m%29%28123m%29%28123m%29+44m+55s+%3D5s&win_from=discard",
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let page = body_text(resp).await;
    assert!(page.contains("Arrangements (Code §105)"), "{page}");
    assert!(page.contains("111m 222m 333m"), "{page}");
    assert!(page.contains(r#"alt="5 bamboo""#), "{page}");
    let page = body_text(get(&svc, "/check?hand=123m+456m+789s+EE+45p").await).await;
    assert!(
        page.contains("<h3>Waits</h3>") && page.contains("6 circles"),
        "{page}"
    );
    // A tournament's own ruleset (here a house limit) scores the hand.
    setup(&svc, &t.token).await;
    let c = get_json(
        &svc,
        "/api/check?hand=123m+456m+789s+EE+45p&tournament=spring",
    )
    .await;
    assert_eq!(c["ruleset"], "code-of-laws", "{c}");
}

/// The record form posted by an official's session.
async fn post_form<S, B>(
    svc: &S,
    uri: &str,
    cookie: Cookie<'static>,
    form: Vec<(&str, String)>,
) -> ServiceResponse<B>
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    test::call_service(
        svc,
        test::TestRequest::post()
            .uri(uri)
            .cookie(cookie)
            .set_form(form)
            .to_request(),
    )
    .await
}

#[actix_web::test]
async fn a_blank_record_form_is_not_a_wash_out_and_a_preview_records_nothing() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let (cookie, csrf) = login(&svc).await;
    let hand = format!("{table}-g1-h1");
    let uri = format!("/tables/{table}/hands");
    let before = head(&t.state);
    let resp = post_form(
        &svc,
        &uri,
        cookie.clone(),
        vec![("csrf", csrf.clone()), ("hand", hand.clone())],
    )
    .await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body_text(resp).await.contains("say who went Mah-Jongg"));
    assert_eq!(head(&t.state), before, "nothing recorded");

    let filled = vec![
        ("csrf", csrf.clone()),
        ("hand", hand.clone()),
        ("hand_east", "123m 456m 789m EE 11p 1f =1p".to_owned()),
        ("hand_south", "345p 678p SSS 13m PP".to_owned()),
        ("winner", "east".to_owned()),
        ("win_from", "wall".to_owned()),
        ("preview", "1".to_owned()),
    ];
    let resp = post_form(&svc, &uri, cookie.clone(), filled.clone()).await;
    assert_eq!(resp.status(), StatusCode::OK);
    let page = body_text(resp).await;
    assert!(
        page.contains("The score and settlement of this hand"),
        "{page}"
    );
    assert_eq!(head(&t.state), before, "a preview records nothing");

    // A wash-out chosen on purpose is recorded.
    let resp = post_form(
        &svc,
        &uri,
        cookie,
        vec![
            ("csrf", csrf),
            ("hand", hand.clone()),
            ("winner", "washout".to_owned()),
            ("win_from", "wall".to_owned()),
        ],
    )
    .await;
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    let h = hand_json(&svc, &hand).await;
    assert!(h["result"].as_str().unwrap().contains("ash"), "{h}");
}

#[actix_web::test]
async fn the_settlement_and_penalties_name_players_not_seats() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let mut body = win(&format!("{table}-g1-h1"), "south");
    body["penalties"] = json!([{"kind": "agreed", "payer": "north", "payee": null, "amount": 10, "reason": "late"}]);
    let resp = test::call_service(
        &svc,
        post_json(&format!("/api/tables/{table}/hands"), Some(&t.token), body),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    let h = hand_json(&svc, &format!("{table}-g1-h1")).await;
    let north = h["seats"][3]["name"].as_str().unwrap().to_owned();
    let south = h["seats"][1]["name"].as_str().unwrap().to_owned();
    let page = body_text(get(&svc, &format!("/hands/{table}-g1-h1")).await).await;
    assert!(
        page.contains(&format!(
            "Penalty: {north} pays 10 to each other player: late"
        )),
        "{page}"
    );
    assert!(page.contains(&format!("{south} won on 1p")), "{page}");
    assert!(
        page.contains(&format!("<th scope=\"row\">{north} pays</th>")),
        "{page}"
    );
    assert!(!page.contains("North pays"), "{page}");
}
