//! A real browser: headless Chromium logs in, creates a tournament and a table, records a
//! hand through the form, corrects it (with the preview of the settlement before and after),
//! and checks the standings, table, hand and audit pages, saving a screenshot of each under
//! `target/browser-screenshots/`.
//!
//! Skipped, with a message saying so, only when `/usr/bin/chromium` is absent (`.ci/run`
//! installs it).

use std::ffi::OsStr;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::{Browser, LaunchOptions, Tab};

const CHROMIUM: &str = "/usr/bin/chromium";
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

fn go(tab: &Tab, url: &str) {
    tab.navigate_to(url).unwrap();
    tab.wait_until_navigated().unwrap();
}

fn type_into(tab: &Tab, selector: &str, text: &str) {
    tab.wait_for_element(selector).unwrap().click().unwrap();
    tab.type_str(text).unwrap();
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
        assert!(
            Instant::now() < deadline,
            "submitting {form_action} loaded no page"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn content(tab: &Tab) -> String {
    tab.get_content().unwrap()
}

#[test]
fn a_browser_records_a_hand_through_the_forms() {
    if !Path::new(CHROMIUM).exists() {
        println!("SKIPPED: {CHROMIUM} is absent (apt-get install chromium; .ci/run does)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("mjr-browser-{}", std::process::id()));
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
            .window_size(Some((430, 1400)))
            .user_data_dir(Some(profile))
            .args(args)
            .build()
            .unwrap(),
    )
    .expect("launching chromium");
    let tab = browser.new_tab().unwrap();

    go(&tab, &format!("{base}/login"));
    type_into(&tab, "input[name=official]", "admin");
    type_into(&tab, "input[name=password]", PASSWORD);
    submit(&tab, "/login");
    assert!(content(&tab).contains("Log out"), "logged in");

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
    assert!(
        hand.contains("Zero-sum check") && hand.contains('\u{1F007}'),
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
    assert!(
        corrected.contains("discard from South") && corrected.contains("superseded"),
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
    let _ = std::fs::remove_dir_all(&dir);
}
