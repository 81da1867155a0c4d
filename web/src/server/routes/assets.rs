//! The files the pages use besides the stylesheet: the tiles' images and the small script
//! that adds the tile picker and the live preview to the hand forms. All are part of the
//! binary; nothing is fetched from elsewhere.

use actix_web::{web, HttpResponse};

use crate::app::queries::tile_art;
use crate::server::error::{AppError, HtmlError};

/// A year: the tiles' addresses carry [`tile_art::VERSION`], so a changed drawing has a new
/// address and a cached one never goes stale.
const FOREVER: &str = "public, max-age=31536000, immutable";

/// `GET /static/tiles/{version}/{name}.svg`: one tile's image.
pub async fn tile(path: web::Path<(String, String)>) -> Result<HttpResponse, HtmlError> {
    let (version, name) = path.into_inner();
    let svg = (version == tile_art::VERSION)
        .then(|| tile_art::svg(&name))
        .flatten()
        .ok_or_else(|| {
            AppError::not_found(format!(
                "there is no tile image `{name}` (tiles are named in the notation: 5p, E, R, 1f)"
            ))
        })?;
    Ok(HttpResponse::Ok()
        .content_type("image/svg+xml")
        .insert_header(("cache-control", FOREVER))
        .body(svg))
}

/// `GET /static/icon.svg` and `GET /favicon.ico`: the site's icon, the red dragon's tile (an
/// SVG: browsers take one at either address). A browser asks for `/favicon.ico` on its own;
/// it is answered, not logged as a missing page.
pub async fn icon() -> Result<HttpResponse, HtmlError> {
    let svg = tile_art::svg("R")
        .ok_or_else(|| AppError::internal("the red dragon's tile image is missing"))?;
    Ok(HttpResponse::Ok()
        .content_type("image/svg+xml")
        .insert_header(("cache-control", "public, max-age=86400"))
        .body(svg))
}

const PICKER: &str = include_str!("../../../../templates/picker.js");

/// `GET /static/picker.js`: the tile picker and the live preview (progressive enhancement:
/// every form works without it).
pub async fn picker() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header(("cache-control", "public, max-age=3600"))
        .body(PICKER)
}

const REPLAY: &str = include_str!("../../../../templates/replay.js");

/// `GET /static/replay.js`: the arrow keys on the replay page (progressive enhancement: the
/// links work without it).
pub async fn replay() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header(("cache-control", "public, max-age=3600"))
        .body(REPLAY)
}

const SCORER: &str = include_str!("../../../../templates/scorer.js");

/// `GET /static/scorer.js`: the scorer's page posting in the background, updating in place and
/// driven from a keyboard (progressive enhancement: every form works without it).
pub async fn scorer() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header(("cache-control", "public, max-age=3600"))
        .body(SCORER)
}

const LIVE: &str = include_str!("../../../../templates/live.js");

/// `GET /static/live.js`: a hand in play followed live on the table page and the replay viewer.
pub async fn live() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header(("cache-control", "public, max-age=3600"))
        .body(LIVE)
}

const CLOCK: &str = include_str!("../../../../templates/clock.js");

/// `GET /static/clock.js`: a session's clock counting down in the viewer's own time
/// (progressive enhancement: the server's words stand without it).
pub async fn clock() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header(("cache-control", "public, max-age=3600"))
        .body(CLOCK)
}

const DASHBOARD: &str = include_str!("../../../../templates/dashboard.js");

/// `GET /static/dashboard.js`: the director's dashboard following the ledger (progressive
/// enhancement: the page refreshes itself without it).
pub async fn dashboard() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header(("cache-control", "public, max-age=3600"))
        .body(DASHBOARD)
}
