//! What the server counts, for `GET /metrics` in Prometheus's text format.
//!
//! Counted through the `metrics` facade (a macro at each place something happens) and kept by
//! `metrics-exporter-prometheus`'s recorder, installed once per process; the route renders it.
//! What a club's administrator would watch: requests by route and status with their latency,
//! the ledger's writes and the events they append, logins the throttle refused, the live
//! streams open, and how old the last backup is. Routes are counted by their pattern
//! (`/hands/{hand}`), never by the path itself, so the number of series stays bounded however
//! many hands the club records.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use actix_web::http::{Method, StatusCode};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// Latency buckets, in seconds: from half a millisecond (a cached page) to ten seconds (a
/// write that waited out another program's lock).
const BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// The process's recorder, installed on first use; None when another recorder was installed
/// first (a program embedding the server with its own).
pub fn handle() -> Option<&'static PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            let recorder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &BUCKETS)
                .ok()?
                .build_recorder();
            let handle = recorder.handle();
            metrics::set_global_recorder(recorder).ok()?;
            describe();
            Some(handle)
        })
        .as_ref()
}

fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
    describe_counter!(
        "mahjong_http_requests_total",
        "Requests answered, by method, route pattern and status."
    );
    describe_histogram!(
        "mahjong_http_request_duration_seconds",
        Unit::Seconds,
        "Time to answer a request, by method, route pattern and status."
    );
    describe_counter!(
        "mahjong_ledger_writes_total",
        "Writes to the ledger (each in one transaction), by outcome."
    );
    describe_histogram!(
        "mahjong_ledger_write_duration_seconds",
        Unit::Seconds,
        "Time a write held the ledger's writer, deciding and appending."
    );
    describe_counter!(
        "mahjong_ledger_events_appended_total",
        "Events appended to the ledger."
    );
    describe_counter!(
        "mahjong_login_throttle_refusals_total",
        "Login attempts refused by the throttle, by the limit that refused them."
    );
    describe_gauge!(
        "mahjong_live_streams_open",
        "Server-Sent Event streams open (hands followed live, directors' rooms)."
    );
    describe_gauge!(
        "mahjong_backup_age_seconds",
        Unit::Seconds,
        "Time since the newest good scheduled backup was known to hold the ledger's head (since the server started, while there is none)."
    );
    describe_gauge!(
        "mahjong_backup_last_success_timestamp_seconds",
        Unit::Seconds,
        "When the newest good scheduled backup was made (Unix time)."
    );
    describe_gauge!(
        "mahjong_backup_last_bytes",
        Unit::Bytes,
        "The newest good scheduled backup's size."
    );
    describe_gauge!(
        "mahjong_backup_last_head_position",
        "The chain head position the newest good scheduled backup holds."
    );
    describe_counter!(
        "mahjong_backup_failures_total",
        "Scheduled backups that failed or did not audit clean."
    );
    describe_gauge!(
        "mahjong_ledger_head_position",
        "Events in the ledger (its chain head's position), read at the scrape."
    );
}

/// Counts one request answered.
pub fn request(method: &Method, route: &str, status: StatusCode, took: Duration) {
    // Any token is a method to HTTP: the ones a client invents are counted together, so
    // that they cannot make series without end.
    let method = match *method {
        Method::GET
        | Method::HEAD
        | Method::POST
        | Method::PUT
        | Method::DELETE
        | Method::PATCH
        | Method::OPTIONS => method.as_str(),
        _ => "other",
    };
    let labels = [
        ("method", method.to_owned()),
        ("route", route.to_owned()),
        ("status", status.as_u16().to_string()),
    ];
    metrics::counter!("mahjong_http_requests_total", &labels).increment(1);
    metrics::histogram!("mahjong_http_request_duration_seconds", &labels)
        .record(took.as_secs_f64());
}

/// Counts one write to the ledger: how long it held the writer, whether it was refused, and
/// how many events it appended.
pub fn write(started: Instant, ok: bool, appended: u64) {
    let outcome = if ok { "ok" } else { "refused" };
    metrics::counter!("mahjong_ledger_writes_total", "outcome" => outcome).increment(1);
    metrics::histogram!("mahjong_ledger_write_duration_seconds")
        .record(started.elapsed().as_secs_f64());
    if appended > 0 {
        metrics::counter!("mahjong_ledger_events_appended_total").increment(appended);
    }
}

/// Counts a login attempt the throttle refused, by the limit that refused it (`address`,
/// `official`, `password_checks`).
pub fn login_refused(limit: &'static str) {
    metrics::counter!("mahjong_login_throttle_refusals_total", "limit" => limit).increment(1);
}

/// A live stream open for as long as this lives.
pub struct StreamOpen(());

impl StreamOpen {
    pub fn new() -> StreamOpen {
        metrics::gauge!("mahjong_live_streams_open").increment(1.0);
        StreamOpen(())
    }
}

impl Default for StreamOpen {
    fn default() -> Self {
        StreamOpen::new()
    }
}

impl Drop for StreamOpen {
    fn drop(&mut self) {
        metrics::gauge!("mahjong_live_streams_open").decrement(1.0);
    }
}

/// Counts a scheduled backup that failed.
pub fn backup_failed() {
    metrics::counter!("mahjong_backup_failures_total").increment(1);
}

/// The scheduled backups' newest good copy, as the scrape reads it.
pub struct BackupFigures {
    /// Since a good copy last held the ledger's head (since the server started, while there is
    /// none).
    pub age: Duration,
    /// When the newest good copy was made, its chain head's position and its size.
    pub last: Option<(std::time::SystemTime, u64, u64)>,
}

/// The figures read at the scrape: the ledger's head, and the scheduled backups' newest good
/// copy (its age from the server's start while there is none, so an alert on the age fires
/// when copies fail from the first).
pub fn at_scrape(head_position: u64, backups: Option<BackupFigures>) {
    metrics::gauge!("mahjong_ledger_head_position").set(head_position as f64);
    let Some(backups) = backups else {
        return;
    };
    metrics::gauge!("mahjong_backup_age_seconds").set(backups.age.as_secs_f64());
    if let Some((made, position, bytes)) = backups.last {
        let made = made
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        metrics::gauge!("mahjong_backup_last_success_timestamp_seconds").set(made.as_secs_f64());
        metrics::gauge!("mahjong_backup_last_bytes").set(bytes as f64);
        metrics::gauge!("mahjong_backup_last_head_position").set(position as f64);
    }
}
