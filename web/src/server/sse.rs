//! The answer that is a stream of Server-Sent Events (a hand followed live, the director's
//! room): its headers, counted while open (`/metrics`), and ended when the server stops, so
//! that a graceful stop is not held up by a phone left open on a page for the whole night.

use actix_web::web::Bytes;
use actix_web::HttpResponse;
use futures_util::{Stream, StreamExt};

use super::metrics::StreamOpen;
use super::state::AppState;

/// `events` as a `text/event-stream` answer, never cached nor buffered by a proxy.
pub fn respond<S>(state: &AppState, events: S) -> HttpResponse
where
    S: Stream<Item = Result<Bytes, actix_web::Error>> + 'static,
{
    let open = StreamOpen::new();
    let events = events.take_until(state.draining()).map(move |event| {
        let _counted = &open;
        event
    });
    HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header(("cache-control", "no-store"))
        .insert_header(("x-accel-buffering", "no"))
        .streaming(events)
}
