//! Logins that resist guessing: wrong passwords for one official, or from one address, are
//! answered `429 Too Many Requests` with `Retry-After` once their allowance is spent, before any
//! password is checked; the rightful owner gets in once the allowance comes back.

use std::time::Duration;

use actix_web::http::StatusCode;
use actix_web::{test, web as aweb};
use web::server::throttle::{Allowance, LoginThrottle};
use web::server::{app, auth, AppState};

use super::{temp_dir, PASSWORD};

/// A service whose logins are throttled by `throttle`, with its administrator.
fn throttled(throttle: LoginThrottle) -> (aweb::Data<AppState>, super::TempDir) {
    let dir = temp_dir();
    // Refusals answered at once: the tarpit's second would only slow the tests.
    let throttle = throttle.with_tarpit(Duration::ZERO);
    let state = aweb::Data::new(AppState::open_throttled(&dir.0.join("t.db"), throttle).unwrap());
    state
        .write_now(|l| auth::ensure_admin(l, Some(PASSWORD)))
        .unwrap();
    (state, dir)
}

/// Posts the login form as `official` with `password`, from `address`.
async fn attempt<S, B>(
    svc: &S,
    official: &str,
    password: &str,
    address: &str,
) -> actix_web::dev::ServiceResponse<B>
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let (cookie, token) = super::login_form(svc).await;
    let req = test::TestRequest::post()
        .uri("/login")
        .peer_addr(address.parse().unwrap())
        .cookie(cookie)
        .set_form([
            ("csrf", token.as_str()),
            ("official", official),
            ("password", password),
        ])
        .to_request();
    test::call_service(svc, req).await
}

/// The `Retry-After` of a refusal, in seconds.
fn retry_after<B>(r: &actix_web::dev::ServiceResponse<B>) -> u64 {
    r.headers()
        .get("retry-after")
        .expect("Retry-After")
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

#[actix_web::test]
async fn guessing_one_officials_password_is_slowed_and_the_owner_gets_in_after() {
    let (state, _dir) = throttled(LoginThrottle::new(
        Allowance {
            burst: 3,
            every: Duration::from_millis(300),
        },
        LoginThrottle::ADDRESS,
    ));
    let svc = test::init_service(app(state.clone())).await;
    for n in 0..3 {
        let address = format!("192.0.2.{n}:4000");
        let r = attempt(&svc, "admin", "guess", &address).await;
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED, "guess {n}");
    }
    // From yet another address, and with the right password: the official's allowance is spent.
    let r = attempt(&svc, "admin", PASSWORD, "192.0.2.9:4000").await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry = retry_after(&r);
    assert_eq!(retry, 1, "300 ms, rounded up to whole seconds");
    assert!(r
        .response()
        .cookies()
        .all(|c| c.name() != auth::SESSION_COOKIE));
    let page = String::from_utf8(test::read_body(r).await.to_vec()).unwrap();
    assert!(page.contains("too many attempts"), "{page}");
    // The allowance comes back: the right password works.
    std::thread::sleep(Duration::from_millis(350));
    let r = attempt(&svc, "admin", PASSWORD, "192.0.2.9:4000").await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
}

#[actix_web::test]
async fn one_address_guessing_many_officials_is_slowed() {
    let (state, _dir) = throttled(LoginThrottle::new(
        LoginThrottle::OFFICIAL,
        Allowance {
            burst: 2,
            every: Duration::from_secs(60),
        },
    ));
    let svc = test::init_service(app(state.clone())).await;
    let from = "198.51.100.4:5000";
    for who in ["alice", "bob"] {
        let r = attempt(&svc, who, "guess", from).await;
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED, "{who}");
    }
    let r = attempt(&svc, "carol", "guess", from).await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry = retry_after(&r);
    assert!((59..=60).contains(&retry), "{retry}");
    // Another address is not held up by this one.
    let r = attempt(&svc, "admin", PASSWORD, "198.51.100.5:5000").await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
}

/// Posts the login form as `official` with no security token, from `address`: what anyone can
/// send without ever loading the form.
async fn anonymous_post<S, B>(svc: &S, official: &str, address: &str) -> StatusCode
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let req = test::TestRequest::post()
        .uri("/login")
        .peer_addr(address.parse().unwrap())
        .set_form([("official", official), ("password", "guess")])
        .to_request();
    test::call_service(svc, req).await.status()
}

#[actix_web::test]
async fn anonymous_posts_cannot_keep_an_official_out() {
    // The official's allowance as it is served; the address's small, so that one jammer is
    // refused by its own limiter quickly.
    let (state, _dir) = throttled(LoginThrottle::new(
        LoginThrottle::OFFICIAL,
        Allowance {
            burst: 5,
            every: Duration::from_secs(60),
        },
    ));
    let svc = test::init_service(app(state.clone())).await;
    // Posts in the administrator's name with no form token, from many addresses, and from one
    // address far past its allowance.
    for n in 0..40 {
        let status = anonymous_post(&svc, "admin", &format!("203.0.113.{n}:6000")).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "post {n}");
    }
    for n in 0..40 {
        let status = anonymous_post(&svc, "admin", "203.0.113.200:6000").await;
        assert!(
            [StatusCode::FORBIDDEN, StatusCode::TOO_MANY_REQUESTS].contains(&status),
            "post {n}: {status}"
        );
    }
    // Wrong passwords from an address whose own allowance is spent: refused, and spending
    // nothing of the official's.
    for _ in 0..20 {
        let r = attempt(&svc, "admin", "guess", "203.0.113.200:6000").await;
        assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    }
    // The administrator, from his own address, gets in at once.
    let r = attempt(&svc, "admin", PASSWORD, "192.0.2.50:7000").await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
}

#[actix_web::test]
async fn long_unknown_names_do_not_grow_the_throttle() {
    let (state, _dir) = throttled(LoginThrottle::default());
    let svc = test::init_service(app(state.clone())).await;
    let (cookie, token) = super::login_form(&svc).await;
    for n in 0..200 {
        let name = format!("{n}{}", "x".repeat(8_000));
        let req = test::TestRequest::post()
            .uri("/login")
            .peer_addr(format!("198.51.100.{}:8000", n % 20).parse().unwrap())
            .cookie(cookie.clone())
            .set_form([
                ("csrf", token.as_str()),
                ("official", name.as_str()),
                ("password", "guess"),
            ])
            .to_request();
        let status = test::call_service(&svc, req).await.status();
        assert!(
            [StatusCode::UNAUTHORIZED, StatusCode::TOO_MANY_REQUESTS].contains(&status),
            "{status}"
        );
    }
    // Twenty addresses, and one key for every name that is no official's.
    assert_eq!(state.login_throttle().keys(), 21);
}

/// Behind a reverse proxy every login comes from the proxy's address: trusted, the proxy's
/// forwarding header says who is guessing, so one guesser does not lock out the whole club;
/// untrusted, the header is a client's own words and counts for nothing.
#[actix_web::test]
async fn behind_a_trusted_proxy_each_client_is_counted_by_its_own_address() {
    let dir = temp_dir();
    let throttle = LoginThrottle::new(
        LoginThrottle::OFFICIAL,
        Allowance {
            burst: 2,
            every: Duration::from_secs(60),
        },
    )
    .with_tarpit(Duration::ZERO);
    let mut state = AppState::open_throttled(&dir.0.join("t.db"), throttle).unwrap();
    state.proxies = web::server::client::Proxies {
        trusted: vec!["10.0.0.0/8".parse().unwrap()],
        header: Default::default(),
    };
    let state = aweb::Data::new(state);
    state
        .write_now(|l| auth::ensure_admin(l, Some(PASSWORD)))
        .unwrap();
    let svc = test::init_service(app(state.clone())).await;
    let via = |proxy: &str, client: &str| (proxy.to_owned(), client.to_owned());
    let post = |(proxy, client): (String, String), who: &'static str| {
        let svc = &svc;
        async move {
            let (cookie, token) = super::login_form(svc).await;
            let req = test::TestRequest::post()
                .uri("/login")
                .peer_addr(proxy.parse().unwrap())
                .insert_header(("x-forwarded-for", client))
                .cookie(cookie)
                .set_form([
                    ("csrf", token.as_str()),
                    ("official", who),
                    ("password", "guess"),
                ])
                .to_request();
            test::call_service(svc, req).await.status()
        }
    };
    // The guesser behind the proxy spends his own allowance …
    for who in ["alice", "bob"] {
        assert_eq!(
            post(via("10.0.0.1:443", "198.51.100.4"), who).await,
            StatusCode::UNAUTHORIZED
        );
    }
    assert_eq!(
        post(via("10.0.0.1:443", "198.51.100.4"), "carol").await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // … and a member behind the same proxy still gets in.
    let (cookie, token) = super::login_form(&svc).await;
    let req = test::TestRequest::post()
        .uri("/login")
        .peer_addr("10.0.0.1:443".parse().unwrap())
        .insert_header(("x-forwarded-for", "198.51.100.9"))
        .cookie(cookie)
        .set_form([
            ("csrf", token.as_str()),
            ("official", "admin"),
            ("password", PASSWORD),
        ])
        .to_request();
    assert_eq!(
        test::call_service(&svc, req).await.status(),
        StatusCode::SEE_OTHER
    );
    // From a peer that is no trusted proxy, a forged header changes nothing: the peer is counted.
    for who in ["alice", "bob"] {
        assert_eq!(
            post(via("203.0.113.7:5000", "198.51.100.50"), who).await,
            StatusCode::UNAUTHORIZED
        );
    }
    assert_eq!(
        post(via("203.0.113.7:5000", "198.51.100.51"), "carol").await,
        StatusCode::TOO_MANY_REQUESTS
    );
}
