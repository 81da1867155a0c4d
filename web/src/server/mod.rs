//! `mahjong-referee serve`: the web service.
//!
//! An actix-web application on the SQLite ledger: server-rendered pages (askama templates in
//! the workspace's `templates/`), a JSON API under `/api`, officials with sessions and API
//! tokens, and structured logs. [`app`] builds the application (the integration tests use it
//! with actix-web's test server); [`run`] opens the database, creates the administrator on
//! first run, and listens.

pub mod api;
pub mod auth;
pub mod backups;
pub mod cache;
pub mod client;
pub mod config;
pub mod demo;
pub mod error;
pub mod fatal;
pub mod form;
pub mod live;
pub mod metrics;
pub mod nav;
pub mod officials;
pub mod ops;
pub mod params;
pub mod reads;
pub mod routes;
pub mod sse;
pub mod state;
pub mod throttle;
pub mod writes;

use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::{web, App, HttpMessage, HttpServer};
use tracing_actix_web::TracingLogger;

// What each official may do is the application's policy (`app::accounts::roles`); pages, the
// API and the commands name it by its old path.
pub use crate::app::accounts::roles;
pub use config::ServeArgs;
/// The reproducible seat draw (Code §15), the tournament aggregate's.
pub use referee::tournament::draw;
pub use state::AppState;

use error::{AppError, HtmlError};

/// The whole application over `state`.
/// The pages' content security policy: everything from this server, inline scripts refused,
/// never framed.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

pub fn app(
    state: web::Data<AppState>,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    // The metrics recorder, before the first thing is counted.
    let _ = metrics::handle();
    App::new()
        .app_data(state)
        // A form or JSON body that does not parse is the requester's mistake, said plainly.
        .app_data(web::FormConfig::default().error_handler(|e, _| {
            HtmlError(AppError::bad_request(format!(
                "the form could not be read: {e}"
            )))
            .into()
        }))
        .app_data(web::PathConfig::default().error_handler(|e, _| {
            HtmlError(AppError::not_found(format!("no such page: {e}"))).into()
        }))
        .app_data(web::QueryConfig::default().error_handler(|e, _| {
            HtmlError(AppError::bad_request(format!(
                "the query could not be read: {e}"
            )))
            .into()
        }))
        .wrap_fn(|req, srv| {
            let answer = srv.call(req);
            async move { Ok(error::with_viewers_nav(answer.await?)) }
        })
        // Every answer says what it may load and where it may be shown: scripts and styles
        // only from this server's own files (no inline script anywhere), never inside another
        // site's frame, no guessing of content types, no address leaked to other sites.
        .wrap(
            actix_web::middleware::DefaultHeaders::new()
                .add(("content-security-policy", CONTENT_SECURITY_POLICY))
                .add(("x-content-type-options", "nosniff"))
                .add(("referrer-policy", "same-origin"))
                .add(("x-frame-options", "DENY")),
        )
        // Inside the request's span: one log line per request, and its count and latency on
        // /metrics, by route pattern.
        .wrap_fn(|req, srv| {
            let started = std::time::Instant::now();
            let method = req.method().clone();
            let route = req
                .match_pattern()
                .unwrap_or_else(|| "(no route)".to_owned());
            let path = req.path().to_owned();
            let id = req
                .extensions()
                .get::<tracing_actix_web::RequestId>()
                .map(|id| id.to_string())
                .unwrap_or_default();
            let answer = srv.call(req);
            async move {
                let answer = answer.await;
                let status = match &answer {
                    Ok(res) => res.status(),
                    Err(e) => e.as_response_error().status_code(),
                };
                let took = started.elapsed();
                metrics::request(&method, &route, status, took);
                tracing::info!(
                    request_id = %id,
                    method = %method,
                    route = %route,
                    path = %path,
                    status = status.as_u16(),
                    latency_ms = took.as_micros() as f64 / 1000.0,
                    "request"
                );
                answer
            }
        })
        .wrap(TracingLogger::default())
        .configure(ops::configure)
        .configure(api::configure)
        .configure(routes::configure)
        .default_service(web::to(|| async {
            Err::<actix_web::HttpResponse, _>(HtmlError(AppError::not_found(
                "there is no page at this address",
            )))
        }))
}

/// Sets up structured logs: `RUST_LOG` filters (default `info`); each request is one span with
/// its request id, and one line when answered with its route, status and latency. As text,
/// coloured only on a terminal (logs written to a file or a pipe carry no escape codes); as
/// JSON, one object per line with the event's fields at the top level, for a log collector.
pub fn init_logging(format: config::LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = match format {
        config::LogFormat::Text => tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_target(false)
            .with_ansi(colour_logs())
            .try_init(),
        config::LogFormat::Json => tracing_subscriber::fmt()
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .with_span_list(false)
            .with_env_filter(filter)
            .with_target(false)
            .try_init(),
    };
}

/// Whether log lines may carry colour: standard output (where they go) is a terminal, and
/// `NO_COLOR` is not set (no-color.org).
fn colour_logs() -> bool {
    use std::io::IsTerminal;
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
}

/// Opens the database, creates the administrator on first run, loads the demo if asked, and
/// serves until stopped.
pub async fn run(args: ServeArgs) -> anyhow::Result<()> {
    init_logging(args.log_format);
    fatal::stop_cleanly_on_sigbus();
    if let Some(dir) = &args.backup_dir {
        backups::prepare(dir)?;
    }
    let mut state = AppState::open_with(&args.db, Default::default(), args.new_key)
        .map_err(|e| anyhow::anyhow!("opening {}: {e}", args.db.display()))?;
    if args.new_key {
        tracing::warn!(key = %state.ledger_key().public_hex(), "--new-key: the ledger's checkpoints are signed with this key from now on");
    }
    state.secure_cookies = args.secure_cookies;
    state.proxies = client::Proxies {
        trusted: args.trusted_proxy.clone(),
        header: args.forwarded_header,
    };
    state.metrics_from = args.metrics_from.clone();
    if args.backup_dir.is_some() {
        state.backups = Some(Default::default());
    }
    let state = web::Data::new(state);
    let password = args.admin_password.clone();
    let given = password.is_some();
    let setup = state
        .write(move |ledger| auth::ensure_admin(ledger, password.as_deref()))
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    match setup {
        auth::AdminSetup::Created {
            generated: Some(password),
        } => {
            // Printed once, to the terminal that started the server; never logged.
            println!("created the administrator: official `admin`, password `{password}` (shown once; set your own with --admin-password on a fresh database)");
        }
        auth::AdminSetup::Existing if given => {
            eprintln!("note: --admin-password is ignored: {} already has officials, whose passwords stay as they are (to set one: mahjong-referee admin reset-password --db {} OFFICIAL)", args.db.display(), args.db.display());
        }
        _ => {}
    }
    if args.demo {
        let admin = admin_official(&state)
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let id = demo::load(&state, &admin)
            .await
            .map_err(|e| anyhow::anyhow!("loading the demo: {e}"))?;
        tracing::info!(tournament = %id, "demo tournament loaded");
    }
    tracing::info!(db = %args.db.display(), bind = %args.bind, "serving");
    println!("mahjong-referee listening on http://{}", args.bind);
    let factory_state = state.clone();
    let mut server = HttpServer::new(move || app(factory_state.clone()))
        // SIGTERM and SIGINT are heard below, so that writes are refused before the server
        // stops taking connections.
        .disable_signals()
        .shutdown_timeout(SHUTDOWN_GRACE.as_secs());
    if let Some(workers) = args.workers {
        server = server.workers(workers);
    }
    let server = server.bind(args.bind)?.run();
    if let (Some(dir), Some(status)) = (&args.backup_dir, &state.backups) {
        let schedule = backups::Schedule {
            dir: dir.clone(),
            every: args.backup_every,
            keep: args.backup_keep as usize,
        };
        tracing::info!(dir = %dir.display(), every = %humantime::format_duration(args.backup_every), keep = args.backup_keep, "scheduled backups");
        // The thread is not stopped with the server: a copy cut short by the process's end
        // leaves only a partial file, never a copy under its name, and is cleared later.
        backups::start(args.db.clone(), schedule, status.clone())?;
    }
    actix_web::rt::spawn(stop_on_signal(state.clone(), server.handle()));
    server.await?;
    tracing::info!("stopped");
    Ok(())
}

/// How long the requests in flight are given to finish once the server is told to stop.
const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(30);

/// On SIGTERM (a service manager's stop) or SIGINT (Ctrl-C): refuse new writes with 503 and
/// `Retry-After` and end the live streams at once, answer so for [`DRAIN`], then stop taking
/// connections and let the requests in flight finish (within [`SHUTDOWN_GRACE`]); the process
/// then exits with 0.
async fn stop_on_signal(state: web::Data<AppState>, server: actix_web::dev::ServerHandle) {
    let signal = wait_for_stop().await;
    tracing::info!(
        signal,
        drain_seconds = DRAIN.as_secs(),
        "stopping: new writes are refused (503), the requests in flight finish"
    );
    state.begin_draining();
    // A while still answering, so that a proxy's next requests get a 503 with Retry-After
    // (and /readyz says not ready) rather than a refused connection; then no new connection,
    // and the requests in flight are waited for.
    actix_web::rt::time::sleep(DRAIN).await;
    server.stop(true).await;
}

/// How long a stopping server goes on answering (writes with 503) before it stops listening.
const DRAIN: std::time::Duration = std::time::Duration::from_secs(2);

/// Resolves with the signal's name when SIGTERM or SIGINT arrives.
async fn wait_for_stop() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            return tokio::select! {
                _ = term.recv() => "SIGTERM",
                _ = tokio::signal::ctrl_c() => "SIGINT",
            };
        }
    }
    let _ = tokio::signal::ctrl_c().await;
    "SIGINT"
}

/// The administrator, to record the demo as.
async fn admin_official(state: &web::Data<AppState>) -> Result<auth::Official, AppError> {
    let list = state.auth(auth::list_officials).await?;
    let admin = list
        .into_iter()
        .find(|o| o.is_admin)
        .ok_or_else(|| AppError::internal("no administrator"))?;
    Ok(auth::Official {
        id: ledger::OfficialId::new(&admin.official).map_err(AppError::internal)?,
        name: admin.name,
        role: auth::parse_role(&admin.role)?,
        is_admin: true,
        csrf: None,
    })
}
