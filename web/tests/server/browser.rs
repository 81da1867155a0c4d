//! A real browser: headless Chromium, on a phone's screen (390 × 844 CSS pixels), logs in,
//! creates a tournament and a table, records a hand through the form, corrects it (with the
//! preview of the settlement before and after), and checks the standings, table, hand and audit
//! pages, saving a screenshot of each under `target/browser-screenshots/`.
//!
//! Then it visits every page the program serves, as an official and as the public, and for
//! each saves a phone-sized screenshot (`phone-*.png`), fails if the page is wider than the
//! 390-pixel viewport (naming the elements that stick out), and runs axe-core (vendored in
//! `tests/vendor/axe-core`, MPL-2.0) in the page, failing on any serious or critical violation.
//! It also taps a hand in with the tile picker and reads the live preview.
//!
//! Skipped, with a message saying so, only when `/usr/bin/chromium` is absent (`.ci/run`
//! installs it).

use std::ffi::OsStr;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use headless_chrome::protocol::cdp::Emulation;
use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::{Browser, LaunchOptions, Tab};

const CHROMIUM: &str = "/usr/bin/chromium";
/// A phone's viewport width, in CSS pixels (an iPhone 12–15; most Android phones are 360–412).
const PHONE_WIDTH: u32 = 390;
const PHONE_HEIGHT: u32 = 844;
/// axe-core 4.14.1, unchanged from the npm registry (MPL-2.0; see its README).
const AXE: &str = include_str!("../vendor/axe-core/axe.min.js");
const PASSWORD: &str = "browser-test-password";

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn start_server(dir: &Path, port: u16) -> Server {
    let child = Command::new(env!("CARGO_BIN_EXE_mahjong-referee"))
        .args([
            "serve",
            "--bind",
            &format!("127.0.0.1:{port}"),
            "--workers",
            "2",
        ])
        .arg("--db")
        .arg(dir.join("browser.db"))
        .args(["--admin-password", PASSWORD])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .spawn()
        .expect("starting the server");
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "the server did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    Server(child)
}

fn screenshots() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/browser-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn shot(tab: &Tab, name: &str) {
    let png = tab
        .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
        .unwrap();
    std::fs::write(screenshots().join(format!("{name}.png")), png).unwrap();
}

/// Opens `url` and waits until its document has loaded. (Not `wait_until_navigated`, which
/// waits for the network to be idle for half a second after every page.)
fn go(tab: &Tab, url: &str) {
    tab.evaluate("window.__old_page = true", false).unwrap();
    tab.navigate_to(url).unwrap();
    wait_for_new_page(tab, url);
}

/// Focuses the field and enters `text` as one input (`Input.insertText`, as a phone's keyboard
/// commits a word: the page sees `input` events, which is all its scripts listen to). Typing key
/// by key, or finding the field through the DOM domain, costs a round trip to the browser each
/// (about 0.1 s: the driver's reader holds the socket for its read timeout).
fn type_into(tab: &Tab, selector: &str, text: &str) {
    let focused = tab
        .evaluate(
            &format!(
                "(function (e) {{ if (!e) return false; e.focus(); return document.activeElement === e; }})(document.querySelector({}))",
                serde_json::to_string(selector).unwrap()
            ),
            false,
        )
        .unwrap()
        .value;
    assert_eq!(
        focused,
        Some(serde_json::Value::Bool(true)),
        "no field {selector} to type into"
    );
    tab.send_character(text).unwrap();
}

fn set_select(tab: &Tab, name: &str, value: &str) {
    tab.evaluate(
        &format!("document.querySelector('select[name={name}]').value = '{value}'"),
        false,
    )
    .unwrap();
}

fn submit(tab: &Tab, form_action: &str) {
    click_and_wait(
        tab,
        &format!("form[action='{form_action}'] button[type=submit]:not([name=preview])"),
        form_action,
    );
}

fn click_and_wait(tab: &Tab, button: &str, form_action: &str) {
    // Mark the old document, click, and wait until a new, fully loaded document replaces it.
    tab.evaluate("window.__old_page = true", false).unwrap();
    tab.wait_for_element(button).unwrap().click().unwrap();
    wait_for_new_page(tab, form_action);
}

/// Waits until a new, fully loaded document has replaced the one marked `window.__old_page`.
fn wait_for_new_page(tab: &Tab, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let fresh = tab
            .evaluate(
                "window.__old_page !== true && document.readyState === 'complete'",
                false,
            )
            .ok()
            .and_then(|r| r.value)
            .and_then(|v| v.as_bool())
            .unwrap_or(false);
        if fresh {
            break;
        }
        assert!(Instant::now() < deadline, "{what} loaded no page");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn content(tab: &Tab) -> String {
    tab.get_content().unwrap()
}

fn eval_string(tab: &Tab, js: &str, await_promise: bool) -> String {
    let v = tab
        .evaluate(js, await_promise)
        .unwrap_or_else(|e| panic!("evaluating {js}: {e}"))
        .value;
    match v {
        Some(serde_json::Value::String(s)) => s,
        other => panic!("{js} gave {other:?}"),
    }
}

/// What is wrong with the page on a phone: wider than the viewport (and which elements stick
/// out), or an accessibility violation that axe-core rates serious or critical. Saves its
/// phone-sized screenshot on the way.
fn phone_problems(tab: &Tab, name: &str) -> Vec<String> {
    let png = tab
        .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
        .unwrap();
    std::fs::write(screenshots().join(format!("phone-{name}.png")), png).unwrap();
    let mut problems = Vec::new();
    let widths = eval_string(
        tab,
        r#"(function () {
            var wide = [];
            document.querySelectorAll("body *").forEach(function (e) {
                var r = e.getBoundingClientRect();
                if (r.width > 0 && r.right > window.innerWidth + 0.5) {
                    var scrolled = false;
                    for (var p = e.parentElement; p; p = p.parentElement) {
                        var o = getComputedStyle(p).overflowX;
                        if (o === "auto" || o === "scroll" || o === "hidden") { scrolled = true; break; }
                    }
                    if (!scrolled) wide.push(e.tagName.toLowerCase() + (e.className ? "." + String(e.className).split(" ").join(".") : "") + " (right edge " + Math.round(r.right) + ")");
                }
            });
            return JSON.stringify({inner: window.innerWidth, scroll: document.documentElement.scrollWidth, wide: wide.slice(0, 8)});
        })()"#,
        false,
    );
    let w: serde_json::Value = serde_json::from_str(&widths).unwrap();
    assert_eq!(w["inner"], PHONE_WIDTH, "the viewport is a phone's");
    if w["scroll"].as_u64().unwrap_or(u64::MAX) > u64::from(PHONE_WIDTH) {
        problems.push(format!(
            "{name}: the page is {} px wide on a {PHONE_WIDTH} px screen; sticking out: {}",
            w["scroll"], w["wide"]
        ));
    }
    tab.evaluate(AXE, false)
        .expect("loading axe-core into the page");
    let found = eval_string(
        tab,
        r#"axe.run(document, {resultTypes: ["violations"]}).then(function (r) {
            return JSON.stringify(r.violations.filter(function (v) {
                return v.impact === "serious" || v.impact === "critical";
            }).map(function (v) {
                return v.impact + " " + v.id + ": " + v.help + " at " + v.nodes.slice(0, 3).map(function (n) { return n.target.join(" "); }).join(", ");
            }));
        })"#,
        true,
    );
    let found: Vec<String> = serde_json::from_str(&found).unwrap();
    problems.extend(found.into_iter().map(|v| format!("{name}: {v}")));
    problems
}

/// A fresh server on a scratch database and headless Chromium with a phone's viewport: the
/// scratch directory, the server (stopped on drop), the browser, its tab and the base URL.
struct Session {
    dir: PathBuf,
    _server: Server,
    _browser: Browser,
    tab: std::sync::Arc<Tab>,
    base: String,
}

fn launch(name: &str) -> Session {
    let dir = std::env::temp_dir().join(format!("mjr-browser-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let port = free_port();
    let _server = start_server(&dir, port);
    let base = format!("http://127.0.0.1:{port}");

    let profile = dir.join("profile");
    let args: Vec<&OsStr> = [
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
    .iter()
    .map(OsStr::new)
    .collect();
    let browser = Browser::new(
        LaunchOptions::default_builder()
            .path(Some(PathBuf::from(CHROMIUM)))
            .headless(true)
            .sandbox(false)
            .window_size(Some((PHONE_WIDTH, PHONE_HEIGHT)))
            // The driver drops the browser after 30 s without an event from it (the default);
            // a page updated in place sends none, and a hand takes longer than that to tap in.
            .idle_browser_timeout(Duration::from_secs(600))
            .user_data_dir(Some(profile))
            .args(args)
            .build()
            .unwrap(),
    )
    .expect("launching chromium");
    let tab = browser.new_tab().unwrap();
    // Chromium's windows are at least 500 px wide: the phone's viewport is emulated.
    tab.call_method(Emulation::SetDeviceMetricsOverride {
        width: PHONE_WIDTH,
        height: PHONE_HEIGHT,
        device_scale_factor: 1.0,
        mobile: false,
        scale: None,
        screen_width: Some(PHONE_WIDTH),
        screen_height: Some(PHONE_HEIGHT),
        position_x: None,
        position_y: None,
        dont_set_visible_size: None,
        screen_orientation: None,
        viewport: None,
        display_feature: None,
        device_posture: None,
    })
    .expect("emulating a phone's viewport");

    Session {
        dir,
        _server,
        _browser: browser,
        tab,
        base,
    }
}

/// [`launch`] and log in as the administrator; `None`, saying so, when Chromium is absent.
fn launch_logged_in(name: &str) -> Option<Session> {
    if !Path::new(CHROMIUM).exists() {
        println!("SKIPPED: {CHROMIUM} is absent (apt-get install chromium; .ci/run does)");
        return None;
    }
    let session = launch(name);
    log_in(&session.tab, &session.base);
    Some(session)
}

fn log_in(tab: &Tab, base: &str) {
    go(tab, &format!("{base}/login"));
    type_into(tab, "input[name=official]", "admin");
    type_into(tab, "input[name=password]", PASSWORD);
    submit(tab, "/login");
    assert!(content(tab).contains("Log out"), "logged in");
}

#[test]
fn a_browser_records_a_hand_through_the_forms() {
    let Some(Session {
        dir,
        _server,
        _browser,
        tab,
        base,
    }) = launch_logged_in("forms")
    else {
        return;
    };

    go(&tab, &format!("{base}/tournaments/new"));
    type_into(&tab, "input[name=name]", "Browser Cup");
    submit(&tab, "/tournaments");
    assert!(content(&tab).contains("Browser Cup"));
    shot(&tab, "1-tournament");

    for name in ["Ann", "Ben", "Cat", "Dan"] {
        type_into(
            &tab,
            "form[action='/t/browser-cup/players'] input[name=name]",
            name,
        );
        submit(&tab, "/t/browser-cup/players");
    }
    submit(&tab, "/t/browser-cup/tables");
    let table = content(&tab);
    assert!(
        table.contains("Table 1") && table.contains("East wind")
            || table.contains("<b>East</b> wind"),
        "{table}"
    );
    shot(&tab, "2-table");

    go(&tab, &format!("{base}/tables/browser-cup-t1/record"));
    type_into(
        &tab,
        "input[name=hand_east]",
        "123m 456m 789m EE 11p 1f =1p",
    );
    type_into(&tab, "input[name=hand_south]", "345p 678p SSS 13m PP");
    type_into(&tab, "input[name=hand_west]", "111s 678m 99p 23s 77p W");
    type_into(&tab, "input[name=hand_north]", "456s 789s 22m 44p 66p S");
    set_select(&tab, "winner", "east");
    set_select(&tab, "win_from", "wall");
    shot(&tab, "3-record-form");
    submit(&tab, "/tables/browser-cup-t1/hands");
    let hand = content(&tab);
    // The tiles are the program's own images, each named for people.
    assert!(
        hand.contains("Zero-sum check")
            && hand.contains(r#"src="/static/tiles/1/1m.svg" alt="1 character""#)
            && !hand.contains('\u{1F007}'),
        "{hand}"
    );
    shot(&tab, "4-hand");

    // A referee corrects it: the form starts from the record; the preview shows the settlement
    // before and after without recording; then the correction is recorded.
    let hand_id = "browser-cup-t1-g1-h1";
    let action = format!("/hands/{hand_id}/corrections");
    go(&tab, &format!("{base}/hands/{hand_id}/correct"));
    let form = content(&tab);
    // Every recorded fact is filled in (hands in the canonical notation).
    assert!(form.contains("123456789m 11p EE 1f =1p"), "{form}");
    set_select(&tab, "win_from", "discard");
    set_select(&tab, "discarder", "south");
    type_into(&tab, "input[name=reason]", "South discarded the 1 circle");
    click_and_wait(
        &tab,
        &format!("form[action='{action}'] button[name=preview]"),
        &action,
    );
    let preview = content(&tab);
    assert!(
        preview.contains("The settlement before and after"),
        "{preview}"
    );
    shot(&tab, "4b-correction-preview");
    submit(&tab, &action);
    let corrected = content(&tab);
    // The win names the player in the South seat, not the seat.
    let south = eval_string(
        &tab,
        "document.querySelector('#seat-south h2').firstChild.textContent.trim()",
        false,
    );
    assert!(
        corrected.contains(&format!("discard from {south})")) && corrected.contains("superseded"),
        "{corrected}"
    );
    shot(&tab, "4c-corrected");

    go(&tab, &format!("{base}/t/browser-cup/standings"));
    let standings = content(&tab);
    assert!(
        standings.contains("Net chips") && standings.contains("+"),
        "{standings}"
    );
    shot(&tab, "5-standings");

    go(&tab, &format!("{base}/tables/browser-cup-t1"));
    let table = content(&tab);
    assert!(
        table.contains("g1 h1") && table.contains("hand 2"),
        "{table}"
    );
    shot(&tab, "6-table-after");

    go(&tab, &format!("{base}/audit"));
    let audit = content(&tab);
    assert!(
        audit.contains("verifies ✓") && audit.contains("Chain head"),
        "{audit}"
    );
    shot(&tab, "7-audit");

    // A blank record form is not a wash-out: the official must say so.
    let record = "/tables/browser-cup-t1/hands";
    go(&tab, &format!("{base}/tables/browser-cup-t1/record"));
    submit(&tab, record);
    let refused = content(&tab);
    assert!(
        refused.contains("say who went Mah-Jongg") && refused.contains("Table 1: record"),
        "{refused}"
    );
    go(&tab, &format!("{base}/tables/browser-cup-t1"));
    assert!(content(&tab).contains("hand 2"), "nothing was recorded");

    // The score and settlement are shown before anything is recorded.
    go(&tab, &format!("{base}/tables/browser-cup-t1/record"));
    type_into(&tab, "input[name=hand_east]", "123m 456m 789s EE 45p");
    type_into(&tab, "input[name=hand_south]", "111p 999p 234s 678s N =N");
    set_select(&tab, "winner", "south");
    set_select(&tab, "win_from", "wall");
    wait_for_text(&tab, "[data-preview-for=hand_east] .waits", "3 circles");
    wait_for_text(&tab, "[data-preview-for=hand_south] summary", "Scores");
    shot(&tab, "8-record-live-preview");
    click_and_wait(
        &tab,
        &format!("form[action='{record}'] button[name=preview]"),
        record,
    );
    let previewed = content(&tab);
    assert!(
        previewed.contains("The score and settlement of this hand"),
        "{previewed}"
    );
    go(&tab, &format!("{base}/tables/browser-cup-t1"));
    assert!(
        content(&tab).contains("hand 2"),
        "a preview records nothing"
    );

    // The tile picker types the notation; the live preview shows the tiles and the waits.
    go(&tab, &format!("{base}/check"));
    for token in [
        "1m", "2m", "3m", "4m", "5m", "6m", "7s", "8s", "9s", "E", "E", "4p", "5p",
    ] {
        tab.wait_for_element(&format!(".picker button[data-token='{token}']"))
            .unwrap()
            .click()
            .unwrap();
    }
    let typed = eval_string(
        &tab,
        "document.querySelector('input[name=hand]').value",
        false,
    );
    assert_eq!(typed, "1m 2m 3m 4m 5m 6m 7s 8s 9s E E 4p 5p");
    wait_for_text(&tab, "[data-preview-for=hand] .waits", "6 circles");
    let tiles = eval_string(
        &tab,
        "String(document.querySelectorAll('[data-preview-for=hand] img.tile').length)",
        false,
    );
    assert_eq!(tiles, "15", "13 tiles and the two waits, drawn");
    shot(&tab, "9-check-picker");
    tab.wait_for_element(".picker button[data-action=back]")
        .unwrap()
        .click()
        .unwrap();
    let typed = eval_string(
        &tab,
        "document.querySelector('input[name=hand]').value",
        false,
    );
    assert_eq!(typed, "1m 2m 3m 4m 5m 6m 7s 8s 9s E E 4p");
    wait_for_text(
        &tab,
        "[data-preview-for=hand] .field-error",
        "a losing hand has 13",
    );

    // A form that opens with a hand in it: the picker and the preview work from the start
    // (picker.js once scheduled the opening preview before its timers existed, and died).
    go(
        &tab,
        &format!("{base}/check?hand=1m+2m+3m+4m+5m+6m+7s+8s+9s+E+E+4p"),
    );
    wait_for_text(
        &tab,
        "[data-preview-for=hand] .field-error",
        "a losing hand has 13",
    );
    tab.wait_for_element(".picker button[data-token='5p']")
        .unwrap()
        .click()
        .unwrap();
    let typed = eval_string(
        &tab,
        "document.querySelector('input[name=hand]').value",
        false,
    );
    assert_eq!(typed, "1m 2m 3m 4m 5m 6m 7s 8s 9s E E 4p 5p");
    wait_for_text(&tab, "[data-preview-for=hand] .waits", "6 circles");

    // A dispute, and a hand started play by play (for the dispute and replay pages).
    go(&tab, &format!("{base}/hands/{hand_id}/disputes/new"));
    type_into(
        &tab,
        "textarea[name=description]",
        "South says the tile was drawn",
    );
    submit(&tab, &format!("/hands/{hand_id}/disputes"));
    let dispute_url = tab.get_url();
    assert!(dispute_url.contains("/disputes/"), "{dispute_url}");
    let started = eval_string(
        &tab,
        r#"fetch("/api/tables/browser-cup-t1/play", {method: "POST", headers: {"content-type": "application/json", "x-csrf-token": document.querySelector("input[name=csrf]").value}, body: JSON.stringify({hand: "browser-cup-t1-g1-h2", dice: [3, 5]})}).then(function (r) { return String(r.status); })"#,
        true,
    );
    assert_eq!(started, "201", "the play started");

    // Every page, on a phone: no sideways scrolling, no serious accessibility violation.
    let hand = format!("/hands/{hand_id}");
    let official_pages = [
        ("home", "/".to_owned()),
        ("tournament-new", "/tournaments/new".to_owned()),
        ("tournament", "/t/browser-cup".to_owned()),
        ("standings", "/t/browser-cup/standings?sort=won".to_owned()),
        ("player", "/t/browser-cup/players/ann".to_owned()),
        ("books", "/t/browser-cup/books".to_owned()),
        ("sheets", "/t/browser-cup/sheets".to_owned()),
        ("table", "/tables/browser-cup-t1".to_owned()),
        ("table-sheet", "/tables/browser-cup-t1/sheet".to_owned()),
        ("record", "/tables/browser-cup-t1/record".to_owned()),
        ("hand", hand.clone()),
        ("correct", format!("{hand}/correct")),
        ("dispute-new", format!("{hand}/disputes/new")),
        ("dispute", dispute_url.replace(&base, "")),
        ("replay", "/hands/browser-cup-t1-g1-h2/at/0".to_owned()),
        ("account", "/account".to_owned()),
        ("officials", "/officials".to_owned()),
        ("audit", "/audit".to_owned()),
        ("check", "/check".to_owned()),
    ];
    let mut problems = Vec::new();
    for (name, path) in &official_pages {
        go(&tab, &format!("{base}{path}"));
        problems.extend(phone_problems(&tab, &format!("official-{name}")));
    }
    submit(&tab, "/logout");
    let public_pages = [
        ("home", "/".to_owned()),
        ("login", "/login".to_owned()),
        ("tournament", "/t/browser-cup".to_owned()),
        ("standings", "/t/browser-cup/standings".to_owned()),
        ("player", "/t/browser-cup/players/ann".to_owned()),
        ("books", "/t/browser-cup/books".to_owned()),
        ("sheets", "/t/browser-cup/sheets".to_owned()),
        ("table", "/tables/browser-cup-t1".to_owned()),
        ("table-sheet", "/tables/browser-cup-t1/sheet".to_owned()),
        ("hand", hand.clone()),
        ("replay", "/hands/browser-cup-t1-g1-h2/at/0".to_owned()),
        ("audit", "/audit".to_owned()),
        ("check", "/check".to_owned()),
        (
            "check-mahjong",
            "/check?hand=%5BRRR%5D+%5B234p%5D+567s+99m+11s+%3D1s&seat=south&win_from=wall"
                .to_owned(),
        ),
        (
            "check-calling",
            "/check?hand=123m+456m+789s+EE+45p&ruleset=british".to_owned(),
        ),
        (
            "check-refused",
            "/check?hand=123m+456m+789s+EE+45x".to_owned(),
        ),
        ("not-found", "/no/such/page".to_owned()),
    ];
    for (name, path) in &public_pages {
        go(&tab, &format!("{base}{path}"));
        problems.extend(phone_problems(&tab, &format!("public-{name}")));
    }
    assert!(
        problems.is_empty(),
        "pages that do not fit a phone or fail the accessibility check:\n{}",
        problems.join("\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Waits (up to 10 s) until the element matched by `selector` contains `text`: the live
/// preview answers asynchronously.
fn wait_for_text(tab: &Tab, selector: &str, text: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    let js = format!(
        "(function () {{ var e = document.querySelector({selector:?}); return e ? e.textContent : ''; }})()"
    );
    loop {
        let now = eval_string(tab, &js, false);
        if now.contains(text) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{selector} never said {text:?}; it says {now:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Records a hand at `table` through its form: East goes Mah-Jongg from the wall.
fn record_east_wins(tab: &Tab, base: &str, table: &str) {
    go(tab, &format!("{base}/tables/{table}/record"));
    type_into(tab, "input[name=hand_east]", "123m 456m 789m EE 11p 1f =1p");
    type_into(tab, "input[name=hand_south]", "345p 678p SSS 13m PP");
    type_into(tab, "input[name=hand_west]", "111s 678m 99p 23s 77p W");
    type_into(tab, "input[name=hand_north]", "456s 789s 22m 44p 66p S");
    set_select(tab, "winner", "east");
    set_select(tab, "win_from", "wall");
    submit(tab, &format!("/tables/{table}/hands"));
    assert!(
        content(tab).contains("Zero-sum check"),
        "recorded at {table}"
    );
}

/// A club evening end to end, as an organiser runs it on a phone: players registered from a
/// CSV file, the first session seated by the generator, a hand at each of two tables, the
/// public kept from the results until the session closes, then the standings shown and their
/// CSV downloaded and checked against them.
#[test]
fn a_club_evening_runs_from_registration_to_the_standings_csv() {
    let Some(Session {
        dir,
        _server,
        _browser,
        tab,
        base,
    }) = launch_logged_in("club")
    else {
        return;
    };
    go(&tab, &format!("{base}/tournaments/new"));
    type_into(&tab, "input[name=name]", "Club Evening");
    submit(&tab, "/tournaments");
    assert!(content(&tab).contains("Club Evening"));

    // Bulk registration from a spreadsheet's CSV file.
    let names = [
        "Ada Babcock",
        "Joseph Harr",
        "Celia Code",
        "Dorothy Wind",
        "Eve Flower",
        "Fay Season",
        "Gus Dragon",
        "Hal Bamboo",
    ];
    let file = dir.join("players.csv");
    let mut csv_text = String::from("Name,Id\n");
    for (i, n) in names.iter().enumerate() {
        csv_text.push_str(&format!("\"{n}\",p{}\n", i + 1));
    }
    std::fs::write(&file, csv_text).unwrap();
    tab.wait_for_element("form[action='/t/club-evening/players/bulk'] input[type=file]")
        .unwrap()
        .set_input_files(&[file.to_str().unwrap()])
        .unwrap();
    submit(&tab, "/t/club-evening/players/bulk");
    // Nothing is recorded until the list, with its ids, is confirmed.
    let confirm = content(&tab);
    assert!(
        confirm.contains("Nothing is recorded yet") && confirm.contains("p8"),
        "{confirm}"
    );
    let mut problems = phone_problems(&tab, "official-bulk-confirm");
    submit(&tab, "/t/club-evening/players/bulk");
    let page = content(&tab);
    assert!(page.contains("Registered 8 players: Ada Babcock"), "{page}");
    for n in names {
        assert!(page.contains(n), "{n} registered: {page}");
    }
    shot(&tab, "club-1-registered");
    // The same file sent again registers nobody twice: refused, line by line.
    tab.wait_for_element("form[action='/t/club-evening/players/bulk'] input[type=file]")
        .unwrap()
        .set_input_files(&[file.to_str().unwrap()])
        .unwrap();
    submit(&tab, "/t/club-evening/players/bulk");
    let again = content(&tab);
    assert!(
        again.contains("Nobody is registered")
            && again.contains("Ada Babcock is already registered (as `p1`)")
            && !again.contains("Register these"),
        "{again}"
    );
    problems.extend(phone_problems(&tab, "official-bulk-refused"));
    // One name is another person's: his box alone, ticked, lets him through; the others stay
    // refused, and nobody is registered.
    tab.evaluate(
        "document.querySelector('input[name=different_name][value=\"Ada Babcock\"]').checked = true",
        false,
    )
    .unwrap();
    submit(&tab, "/t/club-evening/players/bulk");
    let again = content(&tab);
    assert!(
        !again.contains("Ada Babcock is already registered")
            && again.contains("Joseph Harr is already registered (as `p2`)"),
        "{again}"
    );

    // The generator seats session 1: two tables of four.
    go(&tab, &format!("{base}/t/club-evening/sessions"));
    set_select(&tab, "method", "no-repeat");
    type_into(&tab, "input[name=sessions]", "3");
    type_into(&tab, "input[name=minutes]", "90");
    submit(&tab, "/t/club-evening/sessions");
    let sessions = content(&tab);
    assert!(
        sessions.contains("Session 1") && sessions.contains("in play") && sessions.contains("left"),
        "{sessions}"
    );
    problems.extend(phone_problems(&tab, "official-sessions"));
    shot(&tab, "club-2-seated");
    let tables: Vec<String> = (1..=2).map(|n| format!("club-evening-t{n}")).collect();
    // The director's room, in a second tab, follows the hands as they are recorded.
    let room = _browser.new_tab().unwrap();
    go(&room, &format!("{base}/t/club-evening/sessions/1/live"));
    room.evaluate("window.__not_reloaded = true", false)
        .unwrap();
    wait_for_text(&room, ".room-table", "0 hands");
    // The recording tab in front again (a tab in the background takes no taps).
    tab.activate().unwrap();
    for (i, t) in tables.iter().enumerate() {
        assert!(
            sessions.contains(&format!("/tables/{t}")),
            "{t} seated: {sessions}"
        );
        record_east_wins(&tab, &base, t);
        wait_for_text(
            &room,
            &format!(".room-table:nth-child({})", i + 1),
            "1 hand",
        );
    }
    assert_eq!(
        eval_string(&room, "String(window.__not_reloaded === true)", false),
        "true",
        "the room updated itself, without a reload"
    );
    let _ = room.close(true);
    go(&tab, &format!("{base}/t/club-evening/sessions/1/live"));
    problems.extend(phone_problems(&tab, "official-room"));
    go(
        &tab,
        &format!("{base}/t/club-evening/seating?method=no-repeat&sessions=3&seed=5"),
    );
    problems.extend(phone_problems(&tab, "official-seating-plan"));

    // The public sees the seats and the clock, not the results, while the session is open.
    submit(&tab, "/logout");
    go(&tab, &format!("{base}/t/club-evening/standings"));
    let hidden = content(&tab);
    assert!(
        hidden.contains("Session 1 is in play") && !hidden.contains("+"),
        "{hidden}"
    );
    go(&tab, &format!("{base}/tables/{}", tables[0]));
    let table = content(&tab);
    assert!(
        table.contains("shown when the session closes") && table.contains("Session 1"),
        "{table}"
    );
    problems.extend(phone_problems(&tab, "public-table-in-session"));

    // A table closed by one tap too many: asked first, then undone, with why.
    log_in(&tab, &base);
    go(&tab, &format!("{base}/tables/{}", tables[0]));
    let close = format!("/tables/{}/close", tables[0]);
    submit(&tab, &close);
    let asked = content(&tab);
    assert!(
        asked.contains("Nothing is recorded until you confirm")
            && asked.contains("may sit at another table"),
        "{asked}"
    );
    problems.extend(phone_problems(&tab, "official-confirm-close"));
    submit(&tab, &close);
    assert!(content(&tab).contains("Play at this table is over"));
    let reopen = format!("/tables/{}/reopen", tables[0]);
    type_into(
        &tab,
        &format!("form[action='{reopen}'] input[name=reason]"),
        "closed before its last hand",
    );
    submit(&tab, &reopen);
    let reopened = content(&tab);
    assert!(
        !reopened.contains("Play at this table is over"),
        "{reopened}"
    );

    // The organiser closes the session, confirming what follows.
    go(&tab, &format!("{base}/t/club-evening/sessions"));
    submit(&tab, "/t/club-evening/sessions/1/close");
    assert!(content(&tab).contains("Every result of the session is published"));
    submit(&tab, "/t/club-evening/sessions/1/close");
    let closed = content(&tab);
    assert!(
        closed.contains("Balances at the end of the session") && closed.contains("closed"),
        "{closed}"
    );
    problems.extend(phone_problems(&tab, "official-session"));
    shot(&tab, "club-3-session-closed");

    // Now the public's standings show the evening, and the CSV says the same.
    submit(&tab, "/logout");
    go(&tab, &format!("{base}/t/club-evening/standings"));
    let shown = content(&tab);
    assert!(
        !shown.contains("is in play") && shown.contains("+"),
        "{shown}"
    );
    problems.extend(phone_problems(&tab, "public-standings-revealed"));
    shot(&tab, "club-4-standings");
    let api = eval_string(
        &tab,
        "fetch('/api/tournaments/club-evening/standings').then(r => r.text())",
        true,
    );
    let api: serde_json::Value = serde_json::from_str(&api).unwrap();
    let downloaded = eval_string(
        &tab,
        "fetch('/t/club-evening/standings.csv').then(r => r.text())",
        true,
    );
    let mut reader = csv::Reader::from_reader(downloaded.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(&header[..4], ["rank", "player", "name", "net"]);
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 8, "{downloaded}");
    let nets: Vec<i64> = rows.iter().map(|r| r[3].parse().unwrap()).collect();
    assert_eq!(
        nets.iter().sum::<i64>(),
        0,
        "the evening's nets balance: {downloaded}"
    );
    assert!(
        nets.iter().filter(|&&n| n > 0).count() == 2,
        "two winners: {downloaded}"
    );
    for r in &rows {
        let line = api["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["player"] == r[1])
            .unwrap_or_else(|| panic!("{} in the standings", &r[1]));
        assert_eq!(line["net"].to_string(), r[3], "{}", &r[2]);
        let rank = line["rank"].as_u64().map(|n| n.to_string());
        assert_eq!(rank.unwrap_or_default(), r[0], "{}", &r[2]);
    }
    go(&tab, &format!("{base}/t/club-evening/sessions/1"));
    problems.extend(phone_problems(&tab, "public-session"));
    go(&tab, &format!("{base}/t/club-evening/sessions"));
    problems.extend(phone_problems(&tab, "public-sessions"));
    assert!(
        problems.is_empty(),
        "pages that do not fit a phone or fail the accessibility check:\n{}",
        problems.join("\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// The scorer's page in the browser: a whole robot hand tapped in, a second tab following live.
#[path = "browser_play.rs"]
mod play;
