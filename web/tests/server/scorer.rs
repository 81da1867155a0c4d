//! The scorer's page without JavaScript: a whole robot hand recorded through its buttons, one
//! form post per act, ends scored and settled as the API records it; a stale page, a post sent
//! twice, a slip struck, an irregular act flagged, an inconsistent act refused; and what the
//! public, a scorer and a referee see of a hand in play.

use super::*;
use referee::event::{HandEvent, HandExposed};
use referee::import::mjs;
use referee::position::Act;

/// mj-server's first hand of its seed-7 robot game: its deal, the acts of its play, and the
/// hands the robots laid down.
fn robot_hand() -> (referee::event::Deal, Vec<HandEvent>, Vec<HandExposed>) {
    let text = include_str!("../../../fixtures/mj-server/seed-7/hand-01.mjs");
    let hand = mjs::read(text, "imported".parse().unwrap(), 1, 1).unwrap();
    let (mut events, mut laid) = (Vec::new(), Vec::new());
    for (_, e) in hand.events {
        match e {
            HandEvent::HandExposed(x) => laid.push(x),
            e => events.push(e),
        }
    }
    (hand.started.deal, events, laid)
}

async fn get_page<S, B>(
    svc: &S,
    uri: &str,
    session: Option<&Cookie<'static>>,
) -> (StatusCode, String)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let mut req = test::TestRequest::get().uri(uri);
    if let Some(c) = session {
        req = req.cookie(c.clone());
    }
    let resp = test::call_service(svc, req.to_request()).await;
    let status = resp.status();
    (status, body_text(resp).await)
}

async fn post_form<S, B>(
    svc: &S,
    uri: &str,
    session: &Cookie<'static>,
    fields: &[(&str, &str)],
) -> (StatusCode, Option<String>, String)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let req = test::TestRequest::post()
        .uri(uri)
        .cookie(session.clone())
        .set_form(fields)
        .to_request();
    let resp = test::call_service(svc, req).await;
    let status = resp.status();
    let location = resp
        .headers()
        .get("location")
        .map(|l| l.to_str().unwrap().to_owned());
    (status, location, body_text(resp).await)
}

/// The wall of a known deal in the notation, and its deal order's form value.
fn wall_fields(deal: &referee::event::Deal) -> (String, &'static str) {
    match deal {
        referee::event::Deal::Wall { tiles, order } => (
            tiles
                .iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            match order {
                referee::event::DealOrder::FourFourFourOne => "four-four-four-one",
                _ => "",
            },
        ),
        _ => panic!("the robot hand's wall is known"),
    }
}

/// A scorer's page, its table, and the hand started on it from the robot's wall.
struct Scoring {
    session: Cookie<'static>,
    csrf: String,
    table: String,
    hand: String,
}

async fn start_robot_hand<S, B>(svc: &S, token: &str) -> Scoring
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let (session, csrf) = login(svc).await;
    let table = setup(svc, token).await;
    let hand = format!("{table}-g1-h1");
    let play = format!("/tables/{table}/play");
    let (status, page) = get_page(svc, &play, Some(&session)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Start the hand"), "{page}");
    // The table page offers it.
    let (_, table_page) = get_page(svc, &format!("/tables/{table}"), Some(&session)).await;
    assert!(table_page.contains("Record this hand play by play"));
    let (deal, _, _) = robot_hand();
    let (wall, order) = wall_fields(&deal);
    let (status, location, body) = post_form(
        svc,
        &format!("{play}/start"),
        &session,
        &[
            ("csrf", &csrf),
            ("hand", &hand),
            ("dice", "3 4"),
            ("deal", "wall"),
            ("wall", &wall),
            ("order", order),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{body}");
    assert_eq!(location.as_deref(), Some(play.as_str()));
    Scoring {
        session,
        csrf,
        table,
        hand,
    }
}

/// The laid-down fields of the robots' hands.
fn laid_fields(laid: &[HandExposed]) -> Vec<(&'static str, String)> {
    laid.iter()
        .map(|x| {
            (
                ["laid_east", "laid_south", "laid_west", "laid_north"][x.seat.index()],
                x.hand.to_string(),
            )
        })
        .collect()
}

#[actix_web::test]
async fn a_robot_hand_recorded_through_the_scorers_buttons_scores_as_the_api_records_it() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let s = start_robot_hand(&svc, &t.token).await;
    let play = format!("/tables/{}/play", s.table);
    let (_, events, laid) = robot_hand();
    let mut version = 1u64;
    let mut taps = 0usize;
    for (i, e) in events.iter().enumerate() {
        let act = Act::of(e).unwrap().to_string();
        let (status, page) = get_page(&svc, &play, Some(&s.session)).await;
        assert_eq!(status, StatusCode::OK);
        // Every act of the robots' play is one of the page's buttons.
        assert!(
            page.contains(&format!("name=\"act\" value=\"{act}\"")),
            "event {i}: no button for `{act}` among {:?}",
            page.split("name=\"act\" value=\"")
                .skip(1)
                .map(|r| r.split('"').next().unwrap())
                .collect::<Vec<_>>()
        );
        assert!(page.contains(&format!("name=\"version\" value=\"{version}\"")));
        let v = version.to_string();
        let mut fields = vec![
            ("csrf", s.csrf.clone()),
            ("version", v),
            ("hand", s.hand.clone()),
            ("act", act.clone()),
        ];
        taps += 1;
        if e.ends_play() {
            // The act that ends the hand asks for the hands laid down, as they lie.
            let (status, location, body) = post_form(
                &svc,
                &play,
                &s.session,
                &fields
                    .iter()
                    .map(|(k, v)| (*k, v.as_str()))
                    .collect::<Vec<_>>(),
            )
            .await;
            assert_eq!(status, StatusCode::SEE_OTHER, "{body}");
            let location = location.unwrap();
            assert!(location.starts_with(&format!("{play}/end?")), "{location}");
            let (status, end) = get_page(&svc, &location, Some(&s.session)).await;
            assert_eq!(status, StatusCode::OK, "{end}");
            assert!(end.contains("name=\"laying\" value=\"1\""), "{end}");
            assert!(
                head_of(&t.state, &s.hand) == version,
                "nothing recorded yet"
            );
            fields.push(("laying", "1".into()));
            for (k, hand) in laid_fields(&laid) {
                fields.push((k, hand));
            }
            // The winner's own count, given with the end (§110).
            fields.push(("count_north", "22".into()));
            taps += 1;
        }
        let borrowed: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let (status, location, body) = post_form(&svc, &play, &s.session, &borrowed).await;
        assert_eq!(status, StatusCode::SEE_OTHER, "event {i} `{act}`: {body}");
        if e.ends_play() {
            assert_eq!(location, Some(format!("/hands/{}", s.hand)));
        } else {
            assert_eq!(location.as_deref(), Some(play.as_str()));
        }
        version = head_of(&t.state, &s.hand);
    }
    // The stream is the robots' play itself, act for act (the deal, then each act as the
    // import records it), the hands laid down after it.
    let stream = ledger::StreamId::hand(&s.hand).unwrap();
    let mut picked = referee::event::PlayPicker::default();
    for e in t
        .state
        .read_now(|l| Ok(l.read_stream(&stream, 1)?))
        .unwrap()
    {
        if let Ok(e) = HandEvent::try_from(e.event) {
            picked.push((), e);
        }
    }
    let recorded: Vec<HandEvent> = picked
        .finish()
        .into_iter()
        .map(|(_, e)| e)
        .filter(|e| !matches!(e, HandEvent::HandExposed(_) | HandEvent::ScoreClaimed(_)))
        .collect();
    assert_eq!(recorded, events);
    // At most two taps an act on average here (the end takes two: the act, then the hands).
    assert!(
        taps <= events.len() + 1,
        "{taps} taps for {} acts",
        events.len()
    );
    // Scored and settled as the API records the same hand (play.rs): North won, and counted
    // it right (the count given with the end).
    let (_, hand_page) = get_page(&svc, &format!("/hands/{}", s.hand), Some(&s.session)).await;
    assert!(
        hand_page.contains("north counted the hand at 22"),
        "{hand_page}"
    );
    let hv = hand_json(&svc, &s.hand).await;
    assert_eq!(hv["nets"][3], "+88", "{}", hv["nets"]);
    assert_eq!(hv["result"], "Ben wins (22 points)");
    // No hand in play: the page offers the next.
    let (_, page) = get_page(&svc, &play, Some(&s.session)).await;
    assert!(page.contains("Start the hand"));
    // The hand is over: following it live gives where it ended, and the stream ends.
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/hands/{}/live", s.hand))
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let ended = body_text(resp).await;
    assert_eq!(ended.matches("event: play").count(), 1, "{ended}");
    // The replay at its end does not follow live.
    let (_, replay) = get_page(&svc, &format!("/hands/{}/at/now", s.hand), None).await;
    assert!(!replay.contains("data-live-hand"));
}

/// The hand stream's version.
fn head_of(state: &AppState, hand: &str) -> u64 {
    let stream = ledger::StreamId::hand(hand).unwrap();
    state.read_now(|l| Ok(l.stream_version(&stream)?)).unwrap()
}

#[actix_web::test]
async fn a_stale_page_a_post_sent_twice_a_slip_struck_and_acts_refused_or_flagged() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let s = start_robot_hand(&svc, &t.token).await;
    let play = format!("/tables/{}/play", s.table);
    let (_, events, _) = robot_hand();
    let post = |version: u64, act: String| {
        vec![
            ("csrf", s.csrf.clone()),
            ("version", version.to_string()),
            ("hand", s.hand.clone()),
            ("act", act),
        ]
    };
    let borrow = |f: &[(&'static str, String)]| -> Vec<(&'static str, String)> { f.to_vec() };
    let send = |fields: Vec<(&'static str, String)>| {
        let svc = &svc;
        let session = s.session.clone();
        let play = play.clone();
        async move {
            let borrowed: Vec<(&str, &str)> =
                fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
            post_form(svc, &play, &session, &borrowed).await
        }
    };
    let first = Act::of(&events[0]).unwrap().to_string();
    let (status, _, _) = send(borrow(&post(1, first.clone()))).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(head_of(&t.state, &s.hand), 2);
    // As scorer.js taps: answered with the page as it now stands, in one request.
    let resp = test::call_service(
        &svc,
        test::TestRequest::post()
            .uri(&play)
            .cookie(s.session.clone())
            .insert_header(("x-scorer-page", "1"))
            .set_form(post(1, first.clone()))
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK, "a retried tap, in place");
    let page = body_text(resp).await;
    assert!(page.contains("id=\"scorer\"") && page.contains("data-version=\"2\""));
    // The same post again (a lost answer, a second tap): answered, not recorded twice.
    let (status, _, _) = send(post(1, first.clone())).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(head_of(&t.state, &s.hand), 2);
    // Another act decided on the stale page: the table as it now is, nothing recorded.
    let second = Act::of(&events[1]).unwrap().to_string();
    let (status, _, page) = send(post(1, second.clone())).await;
    assert_eq!(status, StatusCode::CONFLICT, "{page}");
    assert!(page.contains("the table as it now is"), "{page}");
    assert!(page.contains("name=\"version\" value=\"2\""));
    assert_eq!(head_of(&t.state, &s.hand), 2);
    // An inconsistent act (a tile the seat cannot hold): refused in words, nothing recorded.
    let (status, _, page) = send(post(2, "S:return 5p".into())).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("Not recorded:"), "{page}");
    let (status, _, page) = send(post(2, "E:discard 9x".into())).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("does not read"), "{page}");
    assert_eq!(head_of(&t.state, &s.hand), 2);
    // The scorer's slip: the second act recorded, then struck.
    let (status, _, _) = send(post(2, second.clone())).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let strike = |version: u64, entry: &str| {
        vec![
            ("csrf", s.csrf.clone()),
            ("version", version.to_string()),
            ("hand", s.hand.clone()),
            ("entry", entry.to_owned()),
            ("reason", "tapped the wrong tile".to_owned()),
        ]
    };
    let strike_uri = format!("{play}/strike");
    let req = |fields: Vec<(&'static str, String)>| {
        let svc = &svc;
        let session = s.session.clone();
        let uri = strike_uri.clone();
        async move {
            let borrowed: Vec<(&str, &str)> =
                fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
            post_form(svc, &uri, &session, &borrowed).await
        }
    };
    let (status, _, page) = req(strike(3, "1")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    assert!(page.contains("only the last entry"), "{page}");
    let (status, _, _) = req(strike(3, "2")).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(head_of(&t.state, &s.hand), 4);
    // Out of the play (the same act is a button again) and kept in the record, struck.
    let (_, page) = get_page(&svc, &play, Some(&s.session)).await;
    assert!(page.contains(&format!("value=\"{second}\"")), "{page}");
    let (_, hand_page) = get_page(&svc, &format!("/hands/{}", s.hand), Some(&s.session)).await;
    assert!(hand_page.contains("struck by the scorer"), "{hand_page}");
    assert!(hand_page.contains("entry_struck"));
    // An irregular act is recorded and flagged with its rule, with a way to dispute it.
    let (status, _, page) = send(post(4, "W:draw".into())).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{page}");
    let (_, page) = get_page(&svc, &play, Some(&s.session)).await;
    assert!(page.contains("Irregularities"), "{page}");
    assert!(page.contains("raise a dispute"));
    assert!(page.contains("§"), "the rule is named");
}

#[actix_web::test]
async fn what_the_public_a_scorer_and_a_referee_see_of_a_hand_in_play() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let s = start_robot_hand(&svc, &t.token).await;
    let play = format!("/tables/{}/play", s.table);
    let (_, events, _) = robot_hand();
    for (i, e) in events.iter().take(3).enumerate() {
        let act = Act::of(e).unwrap().to_string();
        let v = (i + 1).to_string();
        let fields = [
            ("csrf", s.csrf.as_str()),
            ("version", v.as_str()),
            ("hand", s.hand.as_str()),
            ("act", act.as_str()),
        ];
        let (status, _, body) = post_form(&svc, &play, &s.session, &fields).await;
        assert_eq!(status, StatusCode::SEE_OTHER, "{body}");
    }
    // The scorer's page is the officials' alone.
    let (status, _) = get_page(&svc, &play, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // The public follows the hand without a concealed tile, nor the tile a seat drew (§27).
    let drawn = events
        .iter()
        .take(3)
        .find_map(|e| match e {
            HandEvent::TileDrawn(d) => d.tile.map(|t| (d.seat, t)),
            _ => None,
        })
        .expect("a draw among the first acts");
    let (status, public) = get_page(&svc, &format!("/hands/{}/at/now", s.hand), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(public.contains("data-live-hand"));
    assert!(!public.contains("class=\"group concealed\""), "{public}");
    assert!(
        public.contains(&format!("{} drew a tile", drawn.0)),
        "{public}"
    );
    assert!(!public.contains(&format!("{} drew {}", drawn.0, drawn.1)));
    // Nor does the hand's page name it in its history.
    let (_, hand_page) = get_page(&svc, &format!("/hands/{}", s.hand), None).await;
    assert!(
        hand_page.contains(&format!("{} drew a tile", drawn.0)),
        "{hand_page}"
    );
    assert!(!hand_page.contains(&format!("{} drew {}", drawn.0, drawn.1)));
    let (_, hand_page) = get_page(&svc, &format!("/hands/{}", s.hand), Some(&s.session)).await;
    assert!(hand_page.contains(&format!("{} drew {}", drawn.0, drawn.1)));
    let api = get_json(&svc, &format!("/api/hands/{}/play", s.hand)).await;
    assert!(api["seats"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["concealed"].is_null()));
    // An official (the scorer, the referee) sees every hand and every draw.
    let (_, official) =
        get_page(&svc, &format!("/hands/{}/at/now", s.hand), Some(&s.session)).await;
    assert!(official.contains("class=\"group concealed\""));
    assert!(official.contains(&format!("{} drew {}", drawn.0, drawn.1)));
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/api/hands/{}/play", s.hand))
            .insert_header(("authorization", format!("Bearer {}", t.tokens.referee)))
            .to_request(),
    )
    .await;
    let referee_view = body_json(resp).await;
    assert!(referee_view["seats"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| !s["concealed"].is_null()));
    // A player's own view, from the link the scorer hands him: his tiles and no one else's.
    let (_, scorer_page) = get_page(&svc, &play, Some(&s.session)).await;
    let link = scorer_page
        .split("href=\"")
        .filter_map(|r| r.split('"').next())
        .find(|l| l.contains("seat=east"))
        .expect("East's link")
        .replace("&#38;", "&")
        .replace("&amp;", "&");
    let (status, east) = get_page(&svc, &link, None).await;
    assert_eq!(status, StatusCode::OK, "{east}");
    assert_eq!(
        east.matches("class=\"group concealed\"").count(),
        1,
        "{east}"
    );
    assert!(east.contains("East's view"));
    let forged = link.replace("seat=east", "seat=south");
    let (status, _) = get_page(&svc, &forged, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = get_page(
        &svc,
        &format!("/hands/{}/at/now?seat=east&key=00", s.hand),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // The table page says the hand is in play and where to follow it.
    let (_, table_page) = get_page(&svc, &format!("/tables/{}", s.table), None).await;
    assert!(table_page.contains("follow it live"), "{table_page}");
    // The live stream opens with where the hand stands.
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/hands/{}/live", s.hand))
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(
        resp.headers().get("content-type").unwrap(),
        "text/event-stream"
    );
    let mut body = resp.into_body();
    let chunk = std::future::poll_fn(|cx| std::pin::Pin::new(&mut body).poll_next(cx))
        .await
        .unwrap()
        .ok()
        .unwrap();
    let text = String::from_utf8(chunk.to_vec()).unwrap();
    assert_eq!(
        text,
        "event: play\nid: 4\ndata: {\"version\":4,\"at\":3}\n\n"
    );
}

/// What the scorer taps for `e` when the deal is unknown: a button's act, or a verb and the
/// tile picked for the seat.
fn unseen_taps(e: &HandEvent) -> Vec<(&'static str, String)> {
    let picked = |seat: referee::Seat, verb: &str, tile: String| {
        vec![
            ("seat", seat.letter().to_string()),
            ("verb", verb.to_owned()),
            ("tile", tile),
        ]
    };
    match e {
        HandEvent::TileDrawn(d) => vec![("act", format!("{}:draw", d.seat.letter()))],
        HandEvent::LooseTileDrawn(d) => vec![("act", format!("{}:loose", d.seat.letter()))],
        HandEvent::BonusTileDeclared(b) => picked(b.seat, "bonus", b.tile.to_string()),
        HandEvent::TileDiscarded(d) => picked(d.seat, "discard", d.placed.to_string()),
        HandEvent::KongDeclared(k) if k.kind == referee::event::KongKind::Concealed => {
            picked(k.seat, "kong concealed", k.tile.to_string())
        }
        HandEvent::MahJonggDeclared(m) if m.self_drawn => {
            picked(m.seat, "mahjongg self", m.winning_tile.to_string())
        }
        e => vec![("act", Act::of(e).unwrap().to_string())],
    }
}

#[actix_web::test]
async fn a_hand_whose_deal_is_unknown_is_recorded_with_the_picker_and_scores_the_same() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let (session, csrf) = login(&svc).await;
    let table = setup(&svc, &t.token).await;
    let hand = format!("{table}-g1-h1");
    let play = format!("/tables/{table}/play");
    let (status, _, body) = post_form(
        &svc,
        &format!("{play}/start"),
        &session,
        &[("csrf", &csrf), ("hand", &hand), ("dice", "3 4")],
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{body}");
    let (_, events, laid) = robot_hand();
    let mut version = 1u64;
    for (i, e) in events.iter().enumerate() {
        let taps = unseen_taps(e);
        let (_, page) = get_page(&svc, &play, Some(&session)).await;
        match taps.as_slice() {
            [("act", act)] => assert!(
                page.contains(&format!("name=\"act\" value=\"{act}\"")),
                "event {i}: no button for `{act}`"
            ),
            [("seat", seat), ("verb", verb), ("tile", tile)] => {
                let form = page
                    .split("class=\"moves picker-form\"")
                    .find(|f| f.contains(&format!("name=\"seat\" value=\"{seat}\"")))
                    .unwrap_or_else(|| panic!("event {i}: no picker for {seat}"));
                assert!(
                    form.contains(&format!("value=\"{verb}\"")),
                    "event {i}: {verb}"
                );
                assert!(
                    form.contains(&format!("data-tile=\"{tile}\"")),
                    "event {i}: {tile}"
                );
            }
            _ => unreachable!(),
        }
        let v = version.to_string();
        let mut fields: Vec<(&str, String)> = vec![
            ("csrf", csrf.clone()),
            ("version", v),
            ("hand", hand.clone()),
        ];
        fields.extend(taps);
        if e.ends_play() {
            fields.push(("laying", "1".into()));
            fields.extend(laid_fields(&laid));
        }
        let borrowed: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let (status, _, body) = post_form(&svc, &play, &session, &borrowed).await;
        assert_eq!(
            status,
            StatusCode::SEE_OTHER,
            "event {i} {fields:?}: {body}"
        );
        version = head_of(&t.state, &hand);
    }
    let hv = hand_json(&svc, &hand).await;
    assert_eq!(hv["nets"][3], "+88", "{}", hv["nets"]);
    assert_eq!(hv["result"], "Ben wins (22 points)");
}

#[actix_web::test]
async fn a_table_in_an_open_session_is_followed_by_the_public_only_when_broadcast() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let (session, csrf) = login(&svc).await;
    let post = |uri: &str, body: Value| post_json(uri, Some(&t.token), body);
    let resp = test::call_service(
        &svc,
        post(
            "/api/tournaments",
            json!({"id": "club", "name": "Club", "ruleset": "code-of-laws", "starting_chips": 2000}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    for name in ["Ann", "Ben", "Cat", "Dan"] {
        let resp = test::call_service(
            &svc,
            post("/api/tournaments/club/players", json!({ "name": name })),
        )
        .await;
        assert_eq!(resp.status(), StatusCode::CREATED);
    }
    let resp = test::call_service(
        &svc,
        post(
            "/api/tournaments/club/sessions",
            json!({"method": "random", "seed": 7, "sessions": 1}),
        ),
    )
    .await;
    assert_eq!(
        resp.status(),
        StatusCode::CREATED,
        "{}",
        body_text(resp).await
    );
    let table = "club-t1";
    let hand = format!("{table}-g1-h1");
    let (status, _, body) = post_form(
        &svc,
        &format!("/tables/{table}/play/start"),
        &session,
        &[("csrf", &csrf), ("hand", &hand)],
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{body}");
    let live = format!("/hands/{hand}/live");
    let now = format!("/hands/{hand}/at/now");
    // Its session is in play: the public sees nothing of the hand.
    for uri in [&now, &live] {
        let (status, _) = get_page(&svc, uri, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
    }
    let (_, table_page) = get_page(&svc, &format!("/tables/{table}"), None).await;
    assert!(!table_page.contains("follow it live"));
    // A player's own view opens with his seat's key though the public sees nothing.
    let (_, scorer_page) = get_page(&svc, &format!("/tables/{table}/play"), Some(&session)).await;
    let link = scorer_page
        .split("href=\"")
        .filter_map(|r| r.split('"').next())
        .find(|l| l.contains("seat=north"))
        .expect("North's link")
        .replace("&#38;", "&")
        .replace("&amp;", "&");
    let (status, north) = get_page(&svc, &link, None).await;
    assert_eq!(status, StatusCode::OK, "{north}");
    assert!(north.contains("North's view"));
    // The organiser broadcasts it: the hand in play is the public's to follow.
    let broadcast = format!("/tables/{table}/broadcast");
    let (status, _, body) = post_form(
        &svc,
        &broadcast,
        &session,
        &[("csrf", &csrf), ("broadcast", "on")],
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{body}");
    let (status, page) = get_page(&svc, &now, None).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        !page.contains("class=\"group concealed\""),
        "never a concealed tile"
    );
    let resp = test::call_service(&svc, test::TestRequest::get().uri(&live).to_request()).await;
    assert_eq!(resp.status(), StatusCode::OK);
    let (_, table_page) = get_page(&svc, &format!("/tables/{table}"), None).await;
    assert!(table_page.contains("follow it live"), "{table_page}");
    assert!(table_page.contains("Its play is broadcast"));
    // Stopped: hidden again. Said twice: refused, nothing recorded.
    let (status, _, _) = post_form(
        &svc,
        &broadcast,
        &session,
        &[("csrf", &csrf), ("broadcast", "off")],
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let (status, _) = get_page(&svc, &now, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let before = head(&t.state);
    let (status, _, _) = post_form(
        &svc,
        &broadcast,
        &session,
        &[("csrf", &csrf), ("broadcast", "off")],
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(head(&t.state), before);
}
