//! The scorer's page in a real browser on a phone's screen: mj-server's robot hand (seed 7,
//! hand 1) recorded with the page's buttons only, its wall known (a teaching table), while a
//! second tab follows the hand live without reloading. It counts the taps (one per button, the
//! hands laid down as they lie one more), checks every scorer's page on the way for width and
//! axe-core, and that the hand ends scored and settled as the API records it (North +88).

use super::*;
use referee::event::HandEvent;
use referee::import::mjs;
use referee::position::Act;

/// The robot hand: its wall in the notation with its deal order, and the acts of its play.
fn robot_hand() -> (String, bool, Vec<HandEvent>) {
    let text = include_str!("../../../fixtures/mj-server/seed-7/hand-01.mjs");
    let hand = mjs::read(text, "imported".parse().unwrap(), 1, 1).unwrap();
    let referee::event::Deal::Wall { tiles, order } = hand.started.deal else {
        panic!("the robot hand's wall is known");
    };
    let wall = tiles
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let events = hand
        .events
        .into_iter()
        .map(|(_, e)| e)
        .filter(|e| !matches!(e, HandEvent::HandExposed(_)))
        .collect();
    (
        wall,
        order == referee::event::DealOrder::FourFourFourOne,
        events,
    )
}

/// Waits until `check` (JavaScript giving a boolean) holds in `tab`.
fn wait_until(tab: &Tab, check: &str, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let ok = tab
            .evaluate(check, false)
            .ok()
            .and_then(|r| r.value)
            .and_then(|v| v.as_bool())
            .unwrap_or(false);
        if ok {
            return;
        }
        assert!(Instant::now() < deadline, "{what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_scorer_taps_a_whole_robot_hand_in_while_a_second_tab_follows_it_live() {
    let Some(Session {
        dir,
        _server,
        _browser,
        tab,
        base,
    }) = launch_logged_in("scorer")
    else {
        return;
    };
    go(&tab, &format!("{base}/tournaments/new"));
    type_into(&tab, "input[name=name]", "Browser Cup");
    submit(&tab, "/tournaments");
    for name in ["Ann", "Ben", "Cat", "Dan"] {
        type_into(
            &tab,
            "form[action='/t/browser-cup/players'] input[name=name]",
            name,
        );
        submit(&tab, "/t/browser-cup/players");
    }
    submit(&tab, "/t/browser-cup/tables");
    let table = "browser-cup-t1";
    let hand = format!("{table}-g1-h1");
    go(&tab, &format!("{base}/tables/{table}"));
    click_and_wait(
        &tab,
        &format!("a[href='/tables/{table}/play']"),
        "the scorer's page",
    );
    let mut problems = phone_problems(&tab, "scorer-start");

    // The teaching table's wall, then the hand is started.
    let (wall, four_four_four_one, events) = robot_hand();
    tab.evaluate(
        "document.querySelector('input[name=deal][value=wall]').checked = true; document.querySelector('details').open = true",
        false,
    )
    .unwrap();
    type_into(&tab, "textarea[name=wall]", &wall);
    if four_four_four_one {
        tab.evaluate(
            "document.querySelector('input[name=order]').checked = true",
            false,
        )
        .unwrap();
    }
    // Posted in the background: the page is swapped in place.
    tab.evaluate(
        "document.querySelector('form.start button[type=submit]').click()",
        false,
    )
    .unwrap();
    wait_until(
        &tab,
        "(function () { var s = document.getElementById('scorer'); return !!s && s.getAttribute('data-version') === '1'; })()",
        "the hand did not start",
    );

    // The second tab: the replay viewer at the latest moment, following live.
    let follower = _browser.new_tab().unwrap();
    go(&follower, &format!("{base}/hands/{hand}/at/now"));
    follower
        .evaluate("window.__not_reloaded = true", false)
        .unwrap();

    let mut taps = 0usize;
    let started = Instant::now();
    for (i, e) in events.iter().enumerate() {
        let act = Act::of(e).unwrap().to_string();
        let button = serde_json::to_string(&format!(
            "#scorer button[name=act][value={}]",
            serde_json::to_string(&act).unwrap()
        ))
        .unwrap();
        taps += 1;
        if e.ends_play() {
            // The hands to lay down, each as it lies, on a page of their own: one more tap
            // records the end.
            tab.evaluate("window.__old_page = true", false).unwrap();
            let pressed = tab
                .evaluate(
                    &format!("(function () {{ var b = document.querySelector({button}); if (b) b.click(); return !!b; }})()"),
                    false,
                )
                .unwrap()
                .value;
            assert_eq!(
                pressed,
                Some(serde_json::Value::Bool(true)),
                "no button for `{act}`"
            );
            wait_for_new_page(&tab, "the hands to lay down");
            assert!(
                content(&tab).contains("name=\"laying\""),
                "{}",
                content(&tab)
            );
            // A screenshot is taken of the tab in front.
            tab.activate().unwrap();
            problems.extend(phone_problems(&tab, "scorer-lay-down"));
            tab.evaluate("window.__old_page = true", false).unwrap();
            tab.evaluate(
                "document.querySelector('form.hand-form button[type=submit]').click()",
                false,
            )
            .unwrap();
            taps += 1;
            wait_for_new_page(&tab, "the hand's page");
            break;
        }
        // One tap, and the page swapped in place once the act is recorded: one round trip.
        let done = eval_string(
            &tab,
            &format!(
                r#"new Promise(function (resolve) {{
                    var s = document.getElementById("scorer"), b = document.querySelector({button});
                    if (!b) return resolve("no button");
                    var before = Number(s.getAttribute("data-version"));
                    b.click();
                    var t = setInterval(function () {{
                        var now = document.getElementById("scorer");
                        if (now && Number(now.getAttribute("data-version")) > before && !now.hasAttribute("aria-busy")) {{ clearInterval(t); resolve("ok"); }}
                    }}, 5);
                    setTimeout(function () {{ clearInterval(t); resolve("not recorded: " + (document.getElementById("refused") || document.body).textContent.slice(0, 400)); }}, 10000);
                }})"#
            ),
            true,
        );
        assert_eq!(done, "ok", "event {i} `{act}`");
        if i == 20 {
            tab.activate().unwrap();
            problems.extend(phone_problems(&tab, "scorer-in-play"));
            // The follower has moved on with the hand, without reloading.
            wait_until(
                &follower,
                &format!(
                    "window.__not_reloaded === true && document.querySelector('h1').textContent.indexOf('event {} of {}') >= 0",
                    i + 1,
                    i + 1
                ),
                &format!("the second tab did not follow: {}", content(&follower)),
            );
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let hand_page = content(&tab);
    assert!(hand_page.contains("(22 points)"), "{hand_page}");
    let nets = eval_string(
        &tab,
        &format!("fetch('/api/hands/{hand}').then(function (r) {{ return r.json(); }}).then(function (h) {{ return JSON.stringify(h.nets); }})"),
        true,
    );
    assert_eq!(
        serde_json::from_str::<Vec<String>>(&nets).unwrap()[3],
        "+88",
        "{nets}"
    );
    // The follower saw the hand end, still without reloading.
    wait_until(
        &follower,
        "window.__not_reloaded === true && document.body.textContent.indexOf('declared Mah-Jongg') >= 0",
        "the second tab did not see the end",
    );
    let per_event = taps as f64 / events.len() as f64;
    println!(
        "scorer's page: {} acts in {taps} taps ({per_event:.2} a tap per act), {seconds:.1} s in the browser",
        events.len()
    );
    assert!(per_event <= 1.6, "{per_event:.2} taps per act");
    assert_eq!(problems, Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}
