//! The web service through actix-web's test server: every route, bad input, unauthorised
//! writes, corrections, and concurrent writes to one table.

use actix_web::body::MessageBody;
use actix_web::cookie::Cookie;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::{test, web as aweb};
use ledger::event::OfficialRole;
use ledger::OfficialId;
use serde_json::{json, Value};
use web::server::{app, auth, AppState};

#[path = "server/standings.rs"]
mod standings;

const PASSWORD: &str = "correct horse battery";

struct TestApp {
    state: aweb::Data<AppState>,
    /// The administrator's API token (the administrator may do everything).
    token: String,
    /// An API token of one official per role.
    tokens: RoleTokens,
    /// The test writes behind the service's back: its ledger is not one the service made.
    forged: bool,
    _dir: TempDir,
}

/// Whatever a test recorded through the service, the audit decides again and finds nothing the
/// service would have refused (`app::redecide`): every live write is one a re-decision takes.
impl Drop for TestApp {
    fn drop(&mut self) {
        if std::thread::panicking() || self.forged {
            return;
        }
        let problems = self
            .state
            .read_now(|l| Ok(web::app::redecide::audit(l)?))
            .unwrap();
        assert_eq!(problems, Vec::<String>::new(), "the audit's re-decision");
    }
}

/// API tokens of a scorer (`sam`), a referee (`rita`) and an organiser (`olga`).
struct RoleTokens {
    scorer: String,
    referee: String,
    organiser: String,
}

/// A temporary directory removed on drop.
struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir() -> TempDir {
    let dir = std::env::temp_dir().join(format!(
        "mjr-web-test-{}-{}",
        std::process::id(),
        rand::random::<u64>()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    TempDir(dir)
}

fn spawn() -> TestApp {
    let dir = temp_dir();
    let state = aweb::Data::new(AppState::open(&dir.0.join("t.db")).unwrap());
    let (token, tokens) = state
        .write_now(|l| {
            auth::ensure_admin(l, Some(PASSWORD))?;
            let admin = OfficialId::new("admin").unwrap();
            let mut official = |id: &str, name: &str, role: OfficialRole| {
                let id = OfficialId::new(id).unwrap();
                auth::create_official(l, &admin, &id, name, role, false, PASSWORD)?;
                auth::create_api_token(l, &id, "tests")
            };
            let tokens = RoleTokens {
                scorer: official("sam", "Sam Scorer", OfficialRole::Scorer)?,
                referee: official("rita", "Rita Referee", OfficialRole::Referee)?,
                organiser: official("olga", "Olga Organiser", OfficialRole::Organiser)?,
            };
            Ok((auth::create_api_token(l, &admin, "tests")?, tokens))
        })
        .unwrap();
    TestApp {
        state,
        token,
        tokens,
        forged: false,
        _dir: dir,
    }
}

/// How many events of play and tournaments the ledger holds (the accounts' own stream, which
/// every login moves, left out): what a refused write must not change.
fn head(state: &AppState) -> u64 {
    state
        .read_now(|l| {
            Ok(l.connection()
                .query_row(
                    "SELECT COUNT(*) FROM events WHERE stream NOT LIKE 'accounts:%'",
                    [],
                    |r| r.get::<_, i64>(0),
                )
                .map_err(|e| ledger::Error::sqlite("counting", e))? as u64)
        })
        .unwrap()
}

async fn body_json<B: MessageBody>(resp: ServiceResponse<B>) -> Value {
    let bytes = test::read_body(resp).await;
    serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&bytes)))
}

async fn body_text<B: MessageBody>(resp: ServiceResponse<B>) -> String {
    String::from_utf8(test::read_body(resp).await.to_vec()).unwrap()
}

fn post_json(uri: &str, token: Option<&str>, body: Value) -> actix_http::Request {
    let mut req = test::TestRequest::post().uri(uri).set_json(body);
    if let Some(t) = token {
        req = req.insert_header(("authorization", format!("Bearer {t}")));
    }
    req.to_request()
}

/// Creates a tournament with four players and a table by the API; returns the table id.
async fn setup<S, B>(svc: &S, token: &str) -> String
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let resp = test::call_service(
        svc,
        post_json(
            "/api/tournaments",
            Some(token),
            json!({"id": "spring", "name": "Spring Open", "ruleset": "code-of-laws", "starting_chips": 2000}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    for name in ["Ann", "Ben", "Cat", "Dan"] {
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
        post_json(
            "/api/tournaments/spring/tables",
            Some(token),
            json!({"players": ["ann", "ben", "cat", "dan"], "random": true, "seed": 7}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    body_json(resp).await["id"].as_str().unwrap().to_owned()
}

fn win(hand: &str, winner: &str) -> Value {
    json!({
        "hand": hand,
        "hands": {
            "east": if winner == "east" { "123m 456m 789m EE 11p 1f =1p" } else { "59m 22p 123s 456s 789p" },
            "south": if winner == "south" { "123m 456m 789m EE 11p 1f =1p" } else { "345p 678p 13m 24s 68s 9s" },
            "west": if winner == "west" { "123m 456m 789m EE 11p 1f =1p" } else { "678m 99p 23s 77p W 456s" },
            "north": if winner == "north" { "123m 456m 789m EE 11p 1f =1p" } else { "456s 789s 22m 44p 66p S" }
        },
        "winner": winner,
        "win_from": "wall"
    })
}

/// A table's first hand begins the first game: no "new game" after one completed.
#[actix_web::test]
async fn a_tables_first_hand_is_not_called_a_new_game() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let v = get_json(&svc, &format!("/api/tables/{table}")).await;
    assert_eq!(v["next"]["new_game"], false, "{v}");
    let page = body_text(
        test::call_service(
            &svc,
            test::TestRequest::get()
                .uri(&format!("/tables/{table}"))
                .to_request(),
        )
        .await,
    )
    .await;
    assert!(!page.contains("a new game begins"), "{page}");
}

#[actix_web::test]
async fn public_pages_render_and_unknown_ones_are_404() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    for uri in [
        "/",
        "/audit",
        "/login",
        "/static/style.css",
        "/static/icon.svg",
        "/favicon.ico",
        "/api/tournaments",
        "/api/rulesets",
        "/api/audit",
    ] {
        let resp = test::call_service(&svc, test::TestRequest::get().uri(uri).to_request()).await;
        assert_eq!(resp.status(), StatusCode::OK, "{uri}");
    }
    let resp =
        test::call_service(&svc, test::TestRequest::get().uri("/nowhere").to_request()).await;
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    assert!(body_text(resp).await.contains("no page at this address"));
    let resp = test::call_service(&svc, test::TestRequest::get().uri("/t/none").to_request()).await;
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    let resp = test::call_service(
        &svc,
        test::TestRequest::get().uri("/api/hands/none").to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    assert_eq!(body_json(resp).await["error"]["kind"], "not_found");
    for uri in [
        "/tables/x",
        "/hands/x",
        "/t/x/standings",
        "/t/x/players/y",
        "/api/tables/x",
        "/api/tournaments/x",
        "/api/tournaments/x/standings",
        "/api/tournaments/x/players/y",
        "/api/nothing",
    ] {
        let resp = test::call_service(&svc, test::TestRequest::get().uri(uri).to_request()).await;
        assert_eq!(resp.status(), StatusCode::NOT_FOUND, "{uri}");
    }
}

#[actix_web::test]
async fn writes_without_an_official_are_refused_and_change_nothing() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let body = json!({"name": "X", "ruleset": "code-of-laws", "starting_chips": 1});
    let resp = test::call_service(&svc, post_json("/api/tournaments", None, body.clone())).await;
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(body_json(resp).await["error"]["kind"], "unauthorized");
    let resp = test::call_service(
        &svc,
        post_json("/api/tournaments", Some("mjr_forged"), body),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    for uri in [
        "/tournaments",
        "/demo",
        "/t/x/players",
        "/t/x/tables",
        "/tables/x/hands",
        "/hands/x/corrections",
        "/officials",
        "/account/tokens",
    ] {
        let req = test::TestRequest::post()
            .uri(uri)
            .set_form([("csrf", "x"), ("name", "X")])
            .to_request();
        let resp = test::call_service(&svc, req).await;
        if uri == "/tables/x/hands" {
            // The record form without a login goes to the login page, which comes back to
            // the form as typed: refused all the same, nothing recorded.
            assert_eq!(resp.status(), StatusCode::SEE_OTHER, "{uri}");
            let to = resp.headers().get("location").unwrap().to_str().unwrap();
            assert!(to.starts_with("/login?next="), "{to}");
            continue;
        }
        assert_eq!(resp.status(), StatusCode::UNAUTHORIZED, "{uri}");
    }
    for uri in ["/tournaments/new", "/account", "/officials"] {
        let resp = test::call_service(&svc, test::TestRequest::get().uri(uri).to_request()).await;
        assert_eq!(resp.status(), StatusCode::UNAUTHORIZED, "{uri}");
    }
    assert_eq!(head(&t.state), 0);
}

#[actix_web::test]
async fn a_hand_is_scored_settled_corrected_and_the_standings_follow() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/api/tables/{table}"))
            .to_request(),
    )
    .await;
    let tv = body_json(resp).await;
    let first = tv["next"]["hand"].as_str().unwrap().to_owned();
    assert_eq!(tv["next"]["east_seat"], "East");
    assert_eq!(tv["next"]["prevailing"], "East");

    // South wins: East passes to South (Code §11).
    let resp = test::call_service(
        &svc,
        post_json(
            &format!("/api/tables/{table}/hands"),
            Some(&t.token),
            win(&first, "south"),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    let hand = body_json(resp).await["id"].as_str().unwrap().to_owned();
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/api/hands/{hand}"))
            .to_request(),
    )
    .await;
    let hv = body_json(resp).await;
    assert_eq!(hv["zero_sum"], true);
    assert!(!hv["seats"][1]["sheet"]["lines"]
        .as_array()
        .unwrap()
        .is_empty());
    assert!(hv["seats"][1]["winner"].as_bool().unwrap());
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/api/tables/{table}"))
            .to_request(),
    )
    .await;
    let tv = body_json(resp).await;
    assert_eq!(tv["next"]["east_seat"], "South");
    assert_eq!(tv["hands"].as_array().unwrap().len(), 1);

    // The page draws the tiles, the sheet and the matrix.
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/hands/{hand}"))
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let page = body_text(resp).await;
    assert!(
        page.contains(r#"<img class="tile" src="/static/tiles/1/1m.svg" alt="1 character""#),
        "characters 1 drawn as the program's own tile, named"
    );
    assert!(page.contains("Zero-sum check"));
    assert!(page.contains("Mah-Jongg"));

    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/api/tournaments/spring/standings")
            .to_request(),
    )
    .await;
    let s = body_json(resp).await;
    let winner_player = hv["seats"][1]["player"].as_str().unwrap().to_owned();
    let top = &s["rows"][0];
    assert_eq!(top["player"], winner_player.as_str());
    assert_eq!(top["hands_won"], 1);
    let net_before = top["net"].as_i64().unwrap();
    assert!(net_before > 0);

    // Correct it: West was the winner. The standings follow; the original stays, superseded.
    let mut correction = win("", "west");
    correction["version"] = hv["version"].clone();
    correction["reason"] = json!("wrong winner entered");
    correction.as_object_mut().unwrap().remove("hand");
    let resp = test::call_service(
        &svc,
        post_json(
            &format!("/api/hands/{hand}/corrections"),
            Some(&t.token),
            correction.clone(),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/api/hands/{hand}"))
            .to_request(),
    )
    .await;
    let hv2 = body_json(resp).await;
    assert!(hv2["seats"][2]["winner"].as_bool().unwrap());
    assert_eq!(hv2["corrections"], 1);
    assert!(hv2["history"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["superseded"] == true));
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/api/tournaments/spring/players/{winner_player}"))
            .to_request(),
    )
    .await;
    let p = body_json(resp).await;
    assert!(
        p["net"].as_i64().unwrap() < 0,
        "the former winner now pays: {p}"
    );
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/api/tournaments/spring/standings?sort=won")
            .to_request(),
    )
    .await;
    let s = body_json(resp).await;
    assert_eq!(s["rows"][0]["player"], hv2["seats"][2]["player"]);
    // The same correction again is stale: a conflict, nothing written.
    let before = head(&t.state);
    let resp = test::call_service(
        &svc,
        post_json(
            &format!("/api/hands/{hand}/corrections"),
            Some(&t.token),
            correction,
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CONFLICT);
    assert_eq!(head(&t.state), before);

    // Standings, player, table and audit pages.
    for uri in [
        "/t/spring/standings?sort=name&dir=asc",
        "/t/spring",
        &format!("/tables/{table}"),
        &format!("/t/spring/players/{winner_player}"),
        "/audit",
        &format!("/hands/{hand}"),
    ] {
        let resp = test::call_service(&svc, test::TestRequest::get().uri(uri).to_request()).await;
        assert_eq!(resp.status(), StatusCode::OK, "{uri}");
    }
    let resp = test::call_service(
        &svc,
        test::TestRequest::get().uri("/api/audit").to_request(),
    )
    .await;
    assert_eq!(body_json(resp).await["clean"], true);
}

#[actix_web::test]
async fn bad_input_is_refused_with_a_reason_and_changes_nothing() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let before = head(&t.state);
    let tok = Some(t.token.as_str());
    let cases: Vec<(String, Value, StatusCode, &str)> = vec![
        (
            "/api/tournaments".into(),
            json!({"name": "x"}),
            StatusCode::BAD_REQUEST,
            "starting_chips",
        ),
        (
            "/api/tournaments".into(),
            json!({"id": "spring", "name": "Again", "ruleset": "code-of-laws", "starting_chips": 5}),
            StatusCode::CONFLICT,
            "already",
        ),
        (
            "/api/tournaments".into(),
            json!({"name": "H", "house_ruleset": "name = \"h\"\nbase = \"code-of-laws\"\n[params]\nlimit = \"lots\"\n", "starting_chips": 5}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "line 4",
        ),
        (
            "/api/tournaments".into(),
            json!({"name": "R", "ruleset": "no-such", "starting_chips": 5}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "no built-in",
        ),
        (
            "/api/tournaments/spring/players".into(),
            json!({"name": "Ann"}),
            StatusCode::CONFLICT,
            "already",
        ),
        (
            "/api/tournaments/spring/tables".into(),
            json!({"players": ["ann", "ann", "ben", "zed"]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "twice",
        ),
        (
            format!("/api/tables/{table}/hands"),
            {
                let mut w = win(&format!("{table}-g1-h1"), "east");
                w["hands"]["south"] = json!("123m 456p 7x");
                w
            },
            StatusCode::UNPROCESSABLE_ENTITY,
            "south",
        ),
        (
            format!("/api/tables/{table}/hands"),
            {
                let mut w = win(&format!("{table}-g1-h1"), "east");
                w["win_from"] = json!("discard");
                w
            },
            StatusCode::UNPROCESSABLE_ENTITY,
            "gave the tile",
        ),
        (
            format!("/api/tables/{table}/hands"),
            win(&format!("{table}-g1-h7"), "east"),
            StatusCode::CONFLICT,
            "next hand",
        ),
        (
            format!("/api/tables/{table}/hands"),
            json!({"hand": 3}),
            StatusCode::BAD_REQUEST,
            "JSON",
        ),
        (
            "/api/tables/nope/hands".into(),
            win("nope-g1-h1", "east"),
            StatusCode::NOT_FOUND,
            "no table",
        ),
    ];
    for (uri, body, status, needle) in cases {
        let resp = test::call_service(&svc, post_json(&uri, tok, body)).await;
        assert_eq!(resp.status(), status, "{uri}");
        let v = body_json(resp).await;
        let message = v["error"]["message"].as_str().unwrap().to_owned();
        assert!(
            message.to_lowercase().contains(&needle.to_lowercase()),
            "{uri}: {message}"
        );
    }
    let req = test::TestRequest::post()
        .uri("/api/tournaments")
        .insert_header(("authorization", format!("Bearer {}", t.token)))
        .insert_header(("content-type", "application/json"))
        .set_payload("{not json")
        .to_request();
    assert_eq!(
        test::call_service(&svc, req).await.status(),
        StatusCode::BAD_REQUEST
    );
    assert_eq!(head(&t.state), before, "refused input wrote nothing");
}

#[actix_web::test]
async fn concurrent_writes_to_one_table_one_wins_the_other_gets_a_conflict() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let hand = format!("{table}-g1-h1");
    let uri = format!("/api/tables/{table}/hands");
    for round in 0..3 {
        let hand = if round == 0 {
            hand.clone()
        } else {
            let resp = test::call_service(
                &svc,
                test::TestRequest::get()
                    .uri(&format!("/api/tables/{table}"))
                    .to_request(),
            )
            .await;
            body_json(resp).await["next"]["hand"]
                .as_str()
                .unwrap()
                .to_owned()
        };
        let a = test::call_service(&svc, post_json(&uri, Some(&t.token), win(&hand, "east")));
        let b = test::call_service(&svc, post_json(&uri, Some(&t.token), win(&hand, "north")));
        let (a, b) = futures_util::future::join(a, b).await;
        let mut statuses = [a.status(), b.status()];
        statuses.sort();
        assert_eq!(statuses, [StatusCode::CREATED, StatusCode::CONFLICT]);
        let loser = if a.status() == StatusCode::CONFLICT {
            a
        } else {
            b
        };
        assert!(body_json(loser).await["error"]["message"]
            .as_str()
            .unwrap()
            .contains("already recorded"));
    }
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/api/tables/{table}"))
            .to_request(),
    )
    .await;
    assert_eq!(
        body_json(resp).await["hands"].as_array().unwrap().len(),
        3,
        "nothing lost, nothing doubled"
    );
    let resp = test::call_service(
        &svc,
        test::TestRequest::get().uri("/api/audit").to_request(),
    )
    .await;
    assert_eq!(body_json(resp).await["clean"], true);
}

/// The login page's pre-login cookie and its form's CSRF value.
async fn login_form<S, B>(svc: &S) -> (Cookie<'static>, String)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let resp = test::call_service(svc, test::TestRequest::get().uri("/login").to_request()).await;
    let cookie = resp
        .response()
        .cookies()
        .find(|c| c.name() == auth::LOGIN_CSRF_COOKIE)
        .unwrap()
        .into_owned();
    let page = body_text(resp).await;
    let field = page
        .split("name=\"csrf\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap()
        .to_owned();
    (cookie, field)
}

/// Logs in through the form; returns the session cookie and the page's CSRF token.
async fn login<S, B>(svc: &S) -> (Cookie<'static>, String)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let (csrf_cookie, token) = login_form(svc).await;
    // The cookie's value is not the form's: a double submit of any equal pair is refused (the
    // form's value is an HMAC of the cookie under the server's key).
    let forged = "f".repeat(64);
    for (cookie, field) in [
        (forged.clone(), forged.clone()),
        (
            csrf_cookie.value().to_owned(),
            csrf_cookie.value().to_owned(),
        ),
    ] {
        let req = test::TestRequest::post()
            .uri("/login")
            .cookie(Cookie::new(auth::LOGIN_CSRF_COOKIE, cookie))
            .set_form([
                ("csrf", field.as_str()),
                ("official", "admin"),
                ("password", PASSWORD),
            ])
            .to_request();
        assert_eq!(
            test::call_service(svc, req).await.status(),
            StatusCode::FORBIDDEN
        );
    }
    // Without the cookie the login form is refused.
    let req = test::TestRequest::post()
        .uri("/login")
        .set_form([
            ("csrf", token.as_str()),
            ("official", "admin"),
            ("password", PASSWORD),
        ])
        .to_request();
    assert_eq!(
        test::call_service(svc, req).await.status(),
        StatusCode::FORBIDDEN
    );
    let req = test::TestRequest::post()
        .uri("/login")
        .cookie(csrf_cookie.clone())
        .set_form([
            ("csrf", token.as_str()),
            ("official", "admin"),
            ("password", "wrong password"),
        ])
        .to_request();
    let resp = test::call_service(svc, req).await;
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    assert!(body_text(resp).await.contains("wrong password"));
    let req = test::TestRequest::post()
        .uri("/login")
        .cookie(csrf_cookie)
        .set_form([
            ("csrf", token.as_str()),
            ("official", "admin"),
            ("password", PASSWORD),
        ])
        .to_request();
    let resp = test::call_service(svc, req).await;
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    let session = resp
        .response()
        .cookies()
        .find(|c| c.name() == auth::SESSION_COOKIE)
        .unwrap()
        .into_owned();
    assert!(session.http_only().unwrap_or(false));
    let resp = test::call_service(
        svc,
        test::TestRequest::get()
            .uri("/account")
            .cookie(session.clone())
            .to_request(),
    )
    .await;
    let page = body_text(resp).await;
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

#[actix_web::test]
async fn officials_use_forms_with_csrf_and_refused_forms_come_back_with_a_message() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let (session, csrf) = login(&svc).await;
    let form = |csrf: &str| {
        vec![
            ("csrf", csrf.to_owned()),
            ("name", "Autumn Cup".into()),
            ("ruleset", "code-of-laws".into()),
            ("limit", "500".into()),
            ("starting_chips", "1000".into()),
        ]
    };
    let req = test::TestRequest::post()
        .uri("/tournaments")
        .cookie(session.clone())
        .set_form(form("forged"))
        .to_request();
    assert_eq!(
        test::call_service(&svc, req).await.status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(head(&t.state), 0);
    let mut bad = form(&csrf);
    bad[4].1 = "lots".into();
    let req = test::TestRequest::post()
        .uri("/tournaments")
        .cookie(session.clone())
        .set_form(bad)
        .to_request();
    let resp = test::call_service(&svc, req).await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page = body_text(resp).await;
    assert!(
        page.contains("not a whole number") && page.contains("Autumn Cup"),
        "re-rendered with the input"
    );
    let req = test::TestRequest::post()
        .uri("/tournaments")
        .cookie(session.clone())
        .set_form(form(&csrf))
        .to_request();
    let resp = test::call_service(&svc, req).await;
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    assert_eq!(resp.headers().get("location").unwrap(), "/t/autumn-cup");
    for name in ["Ann", "Ben", "Cat", "Dan"] {
        let req = test::TestRequest::post()
            .uri("/t/autumn-cup/players")
            .cookie(session.clone())
            .set_form([("csrf", csrf.as_str()), ("name", name)])
            .to_request();
        assert_eq!(
            test::call_service(&svc, req).await.status(),
            StatusCode::SEE_OTHER
        );
    }
    let req = test::TestRequest::post()
        .uri("/t/autumn-cup/players")
        .cookie(session.clone())
        .set_form([("csrf", csrf.as_str()), ("name", "")])
        .to_request();
    assert_eq!(
        test::call_service(&svc, req).await.status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let req = test::TestRequest::post()
        .uri("/t/autumn-cup/tables")
        .cookie(session.clone())
        .set_form([
            ("csrf", csrf.as_str()),
            ("player_1", "ann"),
            ("player_2", "ben"),
            ("player_3", "cat"),
            ("player_4", "dan"),
        ])
        .to_request();
    let resp = test::call_service(&svc, req).await;
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    let table_page = resp
        .headers()
        .get("location")
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("{table_page}/record"))
            .cookie(session.clone())
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let page = body_text(resp).await;
    let hand = page
        .split("name=\"hand\" value=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_owned();
    let mut fields = vec![
        ("csrf", csrf.clone()),
        ("hand", hand.clone()),
        ("hand_east", "123m 456m 789m EE 11p 1f =1p".into()),
        ("hand_south", "345p 678p SSS 13m PP".into()),
        ("hand_west", "111s 678m 99p 23s 77p W".into()),
        ("hand_north", "456s 789s 22m 44p 66p Q".into()),
        ("winner", "east".into()),
        ("win_from", "wall".into()),
        ("discarder", "".into()),
    ];
    let req = test::TestRequest::post()
        .uri(&format!("{table_page}/hands"))
        .cookie(session.clone())
        .set_form(fields.clone())
        .to_request();
    let resp = test::call_service(&svc, req).await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page = body_text(resp).await;
    assert!(
        page.contains("North") && page.contains("unknown letter"),
        "{page}"
    );
    assert!(
        page.contains("111s 678m 99p 23s 77p W"),
        "the typed hands are kept"
    );
    fields[5].1 = "456s 789s 22m 44p 66p S".into();
    let req = test::TestRequest::post()
        .uri(&format!("{table_page}/hands"))
        .cookie(session.clone())
        .set_form(fields)
        .to_request();
    let resp = test::call_service(&svc, req).await;
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    let hand_page = resp
        .headers()
        .get("location")
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("{hand_page}/correct"))
            .cookie(session.clone())
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    // Officials and API tokens.
    let req = test::TestRequest::post()
        .uri("/officials")
        .cookie(session.clone())
        .set_form([
            ("csrf", csrf.as_str()),
            ("official", "rhea"),
            ("name", "Rhea Referee"),
            ("role", "referee"),
            ("password", "short"),
        ])
        .to_request();
    assert_eq!(
        test::call_service(&svc, req).await.status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let req = test::TestRequest::post()
        .uri("/officials")
        .cookie(session.clone())
        .set_form([
            ("csrf", csrf.as_str()),
            ("official", "rhea"),
            ("name", "Rhea Referee"),
            ("role", "referee"),
            ("password", "long enough"),
        ])
        .to_request();
    let resp = test::call_service(&svc, req).await;
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(body_text(resp).await.contains("Rhea Referee"));
    let req = test::TestRequest::post()
        .uri("/account/tokens")
        .cookie(session.clone())
        .set_form([("csrf", csrf.as_str()), ("label", "tablet")])
        .to_request();
    let page = body_text(test::call_service(&svc, req).await).await;
    let token = page
        .split("<pre class=\"token\">")
        .nth(1)
        .unwrap()
        .split('<')
        .next()
        .unwrap()
        .to_owned();
    let resp = test::call_service(
        &svc,
        post_json(
            "/api/tournaments/autumn-cup/players",
            Some(&token),
            json!({"name": "Eve"}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    // A session may use the API only with its CSRF token in a header.
    let req = test::TestRequest::post()
        .uri("/api/tournaments/autumn-cup/players")
        .cookie(session.clone())
        .set_json(json!({"name": "Fay"}))
        .to_request();
    assert_eq!(
        test::call_service(&svc, req).await.status(),
        StatusCode::FORBIDDEN
    );
    // Logging out ends the session.
    let req = test::TestRequest::post()
        .uri("/logout")
        .cookie(session.clone())
        .set_form([("csrf", csrf.as_str())])
        .to_request();
    assert_eq!(
        test::call_service(&svc, req).await.status(),
        StatusCode::SEE_OTHER
    );
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/account")
            .cookie(session)
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
}

#[actix_web::test]
async fn the_demo_loads_from_the_book_fixtures_and_audits_clean() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let (session, csrf) = login(&svc).await;
    let page = body_text(
        test::call_service(
            &svc,
            test::TestRequest::get()
                .uri("/")
                .cookie(session.clone())
                .to_request(),
        )
        .await,
    )
    .await;
    assert!(page.contains("Load the demo tournament"));
    let req = test::TestRequest::post()
        .uri("/demo")
        .cookie(session)
        .set_form([("csrf", csrf.as_str())])
        .to_request();
    let resp = test::call_service(&svc, req).await;
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri("/api/tables/demo-t1")
            .to_request(),
    )
    .await;
    let tv = body_json(resp).await;
    assert!(tv["hands"].as_array().unwrap().len() >= 5, "{tv}");
    assert!(tv["hands"]
        .as_array()
        .unwrap()
        .iter()
        .any(|h| h["corrected"] == true));
    let resp = test::call_service(
        &svc,
        test::TestRequest::get().uri("/api/audit").to_request(),
    )
    .await;
    assert_eq!(body_json(resp).await["clean"], true);
}

// Writes that cannot corrupt the books (issue 9): one file per family, beside this one.
#[path = "server/audit.rs"]
mod audit;
#[path = "server/books.rs"]
mod books;
// A real browser on a phone's screen (headless Chromium): the forms, every page's width, axe-core.
#[path = "server/browser.rs"]
mod browser;
#[path = "server/circumstances.rs"]
mod circumstances;
#[path = "server/credentials.rs"]
mod credentials;
#[path = "server/disputes.rs"]
mod disputes;
#[path = "server/draw.rs"]
mod draw;
#[path = "server/faults.rs"]
mod faults;
#[path = "server/forgery.rs"]
mod forgery;
#[path = "server/import.rs"]
mod import;
#[path = "server/officials.rs"]
mod officials;
#[path = "server/ops.rs"]
mod ops;
#[path = "server/phone.rs"]
mod phone;
#[path = "server/play.rs"]
mod play;
#[path = "server/ranges.rs"]
mod ranges;
#[path = "server/roles.rs"]
mod roles;
#[path = "server/scorer.rs"]
mod scorer;
#[path = "server/sessions.rs"]
mod sessions;
#[path = "server/throttle.rs"]
mod throttle;
#[path = "server/unknown_fields.rs"]
mod unknown_fields;
#[path = "server/voiding.rs"]
mod voiding;
#[path = "server/withdrawals.rs"]
mod withdrawals;
/// Records South's win on a discard from West at the table's first hand; returns (hand, version).
async fn record_discard_win<S, B>(svc: &S, token: &str, table: &str) -> (String, Value)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let mut body = win(&format!("{table}-g1-h1"), "south");
    body["win_from"] = json!("discard");
    body["discarder"] = json!("west");
    let resp = test::call_service(
        svc,
        post_json(&format!("/api/tables/{table}/hands"), Some(token), body),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    let hand = body_json(resp).await["id"].as_str().unwrap().to_owned();
    let resp = test::call_service(
        svc,
        test::TestRequest::get()
            .uri(&format!("/api/hands/{hand}"))
            .to_request(),
    )
    .await;
    let hv = body_json(resp).await;
    (hand, hv["version"].clone())
}

/// GETs `uri`, which must answer 200, and reads its JSON body.
async fn get_json<S, B>(svc: &S, uri: &str) -> Value
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let resp = test::call_service(svc, test::TestRequest::get().uri(uri).to_request()).await;
    assert_eq!(resp.status(), StatusCode::OK, "{uri}");
    body_json(resp).await
}

async fn hand_json<S, B>(svc: &S, hand: &str) -> Value
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    get_json(svc, &format!("/api/hands/{hand}")).await
}

#[actix_web::test]
async fn a_correction_with_only_a_reason_changes_nothing_and_is_refused() {
    // Regression: a correction sent with only a reason turned a discard win into a self-drawn
    // one and changed every player's chips.
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let (hand, version) = record_discard_win(&svc, &t.token, &table).await;
    let before = head(&t.state);
    let resp = test::call_service(
        &svc,
        post_json(
            &format!("/api/hands/{hand}/corrections"),
            Some(&t.token),
            json!({"version": version, "reason": "checking"}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let e = body_json(resp).await;
    let v = e["error"]["violations"].as_array().unwrap();
    assert!(
        v[0]["message"]
            .as_str()
            .unwrap()
            .contains("changes nothing"),
        "{e}"
    );
    assert_eq!(head(&t.state), before, "nothing was written");
    assert_eq!(
        hand_json(&svc, &hand).await["win"],
        "South won on 1p (discard from West)"
    );
}

#[actix_web::test]
async fn a_correction_changes_only_the_facts_it_names() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let (hand, version) = record_discard_win(&svc, &t.token, &table).await;
    let resp = test::call_service(
        &svc,
        post_json(
            &format!("/api/hands/{hand}/corrections"),
            Some(&t.token),
            json!({"version": version, "reason": "North gave the tile", "discarder": "north"}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    let hv = hand_json(&svc, &hand).await;
    assert_eq!(hv["win"], "South won on 1p (discard from North)");
    assert_eq!(hv["corrections"], 1);
    // `null` clears a fact: now a self-drawn win.
    let resp = test::call_service(
        &svc,
        post_json(
            &format!("/api/hands/{hand}/corrections"),
            Some(&t.token),
            json!({"version": hv["version"], "reason": "drawn after all",
                   "win_from": "wall", "discarder": null}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    assert_eq!(
        hand_json(&svc, &hand).await["win"],
        "South won on 1p (wall)"
    );
}

#[actix_web::test]
async fn a_correction_preview_shows_before_and_after_and_records_nothing() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let (hand, version) = record_discard_win(&svc, &t.token, &table).await;
    let before = head(&t.state);
    let resp = test::call_service(
        &svc,
        post_json(
            &format!("/api/hands/{hand}/corrections"),
            Some(&t.token),
            json!({"version": version, "reason": "drawn", "win_from": "wall",
                   "discarder": null, "preview": true}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let p = body_json(resp).await;
    assert_eq!(p["preview"], true);
    let sum = |v: &Value| {
        v.as_object()
            .unwrap()
            .values()
            .map(|n| n.as_i64().unwrap())
            .sum::<i64>()
    };
    assert_eq!(sum(&p["before"]["nets"]), 0);
    assert_eq!(sum(&p["after"]["nets"]), 0);
    assert_ne!(p["before"]["nets"], p["after"]["nets"], "{p}");
    assert_eq!(head(&t.state), before, "a preview writes nothing");
}

#[actix_web::test]
async fn a_refused_hand_lists_every_violation_with_its_field_and_rule() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let before = head(&t.state);
    let mut body = win(&format!("{table}-g1-h1"), "east");
    body["hands"]["south"] = json!("1111m 2x");
    body["hands"]["west"] = json!("1111p 222p 333p 444p");
    body["hands"]["north"] = json!("1p 555s 666s 777s 88s 9s");
    body["win_from"] = json!("discard");
    let resp = test::call_service(
        &svc,
        post_json(&format!("/api/tables/{table}/hands"), Some(&t.token), body),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let e = body_json(resp).await;
    assert_eq!(e["error"]["kind"], "unprocessable");
    let v = e["error"]["violations"].as_array().unwrap();
    let fields: Vec<&str> = v.iter().map(|v| v["field"].as_str().unwrap()).collect();
    assert!(fields.contains(&"hands.south"), "{e}");
    assert!(fields.contains(&"discarder"), "{e}");
    let five = v
        .iter()
        .find(|v| v["field"] == "hands")
        .unwrap_or_else(|| panic!("{e}"));
    assert_eq!(five["rule"], "Code §3–5");
    assert_eq!(head(&t.state), before);
}

#[actix_web::test]
async fn unknown_fields_in_a_hand_are_refused_and_nothing_is_recorded() {
    // Regression: `"penalty"` instead of `"penalties"` recorded the hand and dropped the
    // penalty; an unknown field with empty hands recorded a wash-out.
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let before = head(&t.state);
    let mut body = win(&format!("{table}-g1-h1"), "east");
    body["penalty"] =
        json!([{"kind": "agreed", "payer": "west", "payee": null, "amount": 10, "reason": "x"}]);
    let resp = test::call_service(
        &svc,
        post_json(&format!("/api/tables/{table}/hands"), Some(&t.token), body),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
    assert!(body_json(resp).await["error"]["message"]
        .as_str()
        .unwrap()
        .contains("penalty"));
    let resp = test::call_service(
        &svc,
        post_json(
            &format!("/api/tables/{table}/hands"),
            Some(&t.token),
            json!({"hand": format!("{table}-g1-h1"), "hands": {}, "winnner": "east"}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
    assert_eq!(head(&t.state), before);
}

#[actix_web::test]
async fn the_correction_form_starts_from_the_record_and_shows_problems_beside_fields() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let (hand, version) = record_discard_win(&svc, &t.token, &table).await;
    let (session, csrf) = login(&svc).await;
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/hands/{hand}/correct"))
            .cookie(session.clone())
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let page = body_text(resp).await;
    // Every recorded fact is filled in: how it was won and who gave the tile.
    assert!(
        page.contains(r#"<option value="discard" selected>"#),
        "{page}"
    );
    assert!(page.contains(r#"<option value="west" selected>"#), "{page}");
    // A bad hand comes back with its problem beside the field.
    let form = |hand_south: &str, preview: &str| {
        vec![
            ("csrf", csrf.clone()),
            ("version", version.to_string()),
            ("reason", "fix".to_owned()),
            ("hand_east", "59m 22p 123s 456s 789p".to_owned()),
            ("hand_south", hand_south.to_owned()),
            ("hand_west", "678m 99p 23s 77p W 456s".to_owned()),
            ("hand_north", "456s 789s 22m 44p 66p S".to_owned()),
            ("winner", "south".to_owned()),
            ("win_from", "wall".to_owned()),
            ("discarder", String::new()),
            ("preview", preview.to_owned()),
        ]
    };
    let resp = test::call_service(
        &svc,
        test::TestRequest::post()
            .uri(&format!("/hands/{hand}/corrections"))
            .cookie(session.clone())
            .set_form(form("123m 456m 789m EE 11p 1f 1p", ""))
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page = body_text(resp).await;
    assert!(page.contains(r#"id="problem-hand-south""#), "{page}");
    // The preview shows the settlement before and after and records nothing.
    let before = head(&t.state);
    let resp = test::call_service(
        &svc,
        test::TestRequest::post()
            .uri(&format!("/hands/{hand}/corrections"))
            .cookie(session)
            .set_form(form("123m 456m 789m EE 11p 1f =1p", "1"))
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let page = body_text(resp).await;
    assert!(page.contains("The settlement before and after"), "{page}");
    assert_eq!(head(&t.state), before);
}

#[actix_web::test]
async fn a_rule_penalty_recorded_by_the_api_is_priced_by_the_ruleset() {
    // One penalty type from the referee through the ledger to the API: a false Mah-Jongg
    // abandons the hand and costs the Code's 300 to each opponent (§82).
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let resp = test::call_service(
        &svc,
        post_json(
            &format!("/api/tables/{table}/hands"),
            Some(&t.token),
            json!({"hand": format!("{table}-g1-h1"), "hands": {},
                   "penalties": [{"kind": "false-mah-jongg", "offenders": ["north"]}]}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    let hand = body_json(resp).await["id"].as_str().unwrap().to_owned();
    let hv = hand_json(&svc, &hand).await;
    assert_eq!(hv["seats"][3]["net"], -900, "{hv}");
    assert!(hv["penalties"][0]
        .as_str()
        .unwrap()
        .contains("false Mah-Jongg by North"));
}

#[actix_web::test]
async fn a_hand_taken_off_the_record_is_gone_from_the_record_and_the_table_alike() {
    // The ledger's hand record and the referee's table fold the same events the same way.
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let (hand, version) = record_discard_win(&svc, &t.token, &table).await;
    let resp = test::call_service(
        &svc,
        post_json(
            &format!("/api/hands/{hand}/corrections"),
            Some(&t.token),
            json!({"version": version, "reason": "North threw in his hand", "hands": {"north": null}}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    let hv = hand_json(&svc, &hand).await;
    assert_eq!(hv["seats"][3]["notation"], "", "{hv}");
    assert_eq!(hv["seats"][3]["sheet"]["lines"][0]["citation"], "Code §106");
    // A further correction starts from the same facts: North's hand stays off.
    let resp = test::call_service(
        &svc,
        post_json(
            &format!("/api/hands/{hand}/corrections"),
            Some(&t.token),
            json!({"version": hv["version"], "reason": "checking", "discarder": "east"}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    let hv = hand_json(&svc, &hand).await;
    assert_eq!(hv["seats"][3]["notation"], "");
    assert_eq!(hv["win"], "South won on 1p (discard from East)");
}

#[actix_web::test]
async fn a_form_correction_keeps_the_penalties_it_has_no_fields_for() {
    // Regression (review of issue 9): the form kept only one agreed payment, so correcting a
    // hand through it dropped a recorded false Mah-Jongg.
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    let resp = test::call_service(
        &svc,
        post_json(
            &format!("/api/tables/{table}/hands"),
            Some(&t.token),
            json!({"hand": format!("{table}-g1-h1"), "hands": {},
                   "penalties": [{"kind": "false-mah-jongg", "offenders": ["north"]}]}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    let hand = body_json(resp).await["id"].as_str().unwrap().to_owned();
    let (session, csrf) = login(&svc).await;
    let resp = test::call_service(
        &svc,
        test::TestRequest::get()
            .uri(&format!("/hands/{hand}/correct"))
            .cookie(session.clone())
            .to_request(),
    )
    .await;
    let page = body_text(resp).await;
    // The rule's penalty is shown in its own fields, as recorded.
    assert!(
        page.contains(r#"<option value="false-mah-jongg" selected>"#),
        "{page}"
    );
    let kept = page
        .split("name=\"kept_penalties\" value=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .replace("&quot;", "\"")
        .replace("&#34;", "\"");
    let version = hand_json(&svc, &hand).await["version"].to_string();
    let resp = test::call_service(
        &svc,
        test::TestRequest::post()
            .uri(&format!("/hands/{hand}/corrections"))
            .cookie(session)
            .set_form(vec![
                ("csrf", csrf),
                ("version", version),
                ("reason", "East was late too".to_owned()),
                ("winner", "washout".to_owned()),
                ("win_from", "wall".to_owned()),
                ("discarder", String::new()),
                ("penalty_payer", "east".to_owned()),
                ("penalty_amount", "10".to_owned()),
                ("penalty_reason", "late".to_owned()),
                ("rule_penalty", "false-mah-jongg".to_owned()),
                ("rule_by", "north".to_owned()),
                ("kept_penalties", kept),
            ])
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    let hv = hand_json(&svc, &hand).await;
    assert_eq!(hv["penalties"].as_array().unwrap().len(), 2, "{hv}");
    assert_eq!(hv["seats"][3]["net"], -890, "{hv}");
}

#[actix_web::test]
async fn a_refused_tournament_lists_every_problem_with_its_field() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let before = head(&t.state);
    let resp = test::call_service(
        &svc,
        post_json(
            "/api/tournaments",
            Some(&t.token),
            json!({"name": " ", "starting_chips": -1,
                   "house_ruleset": "name = \"h\"\nbase = \"code-of-laws\"\n[params]\nlimit = \"lots\"\nfoo = 1\n"}),
        ),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let e = body_json(resp).await;
    let fields: Vec<&str> = e["error"]["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["field"].as_str().unwrap())
        .collect();
    assert_eq!(
        fields,
        ["name", "starting_chips", "house_ruleset", "house_ruleset"],
        "{e}"
    );
    assert_eq!(head(&t.state), before);
}

#[actix_web::test]
async fn a_refused_tournament_form_shows_each_problem_beside_its_field() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let (session, csrf) = login(&svc).await;
    let resp = test::call_service(
        &svc,
        test::TestRequest::post()
            .uri("/tournaments")
            .cookie(session)
            .set_form(vec![
                ("csrf", csrf),
                ("name", "Winter Cup".to_owned()),
                ("ruleset", "code-of-laws".to_owned()),
                ("starting_chips", "-5".to_owned()),
                ("tie_break", "net, luck".to_owned()),
            ])
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page = body_text(resp).await;
    let chips = page.find(r#"name="starting_chips""#).unwrap();
    let tie = page.find(r#"name="tie_break""#).unwrap();
    let chips_problem = page
        .find("-5 is out of range")
        .unwrap_or_else(|| panic!("{page}"));
    // Each problem stands after its own input and before the next one.
    assert!(chips < chips_problem && chips_problem < tie, "{page}");
    let after_tie = &page[tie..];
    let problem = after_tie.find(r#"<p class="field-error">"#).unwrap();
    assert!(after_tie[problem..].contains("luck"), "{page}");
}
