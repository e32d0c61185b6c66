//! The local memory viewer (`subcog ui`): one web page on 127.0.0.1, served by this binary
//! with its assets embedded (`assets/`), and the JSON API the page calls.
//!
//! This module owns the HTTP edge only: binding loopback, the access token, the `Host`
//! check against DNS rebinding, the security headers (a Content-Security-Policy that lets
//! the page load nothing from elsewhere) and turning requests into calls of the library's
//! services, which run on blocking threads (the core is synchronous). Edits and deletes
//! go through the same calls as `subcog update` and `subcog delete`, so the same rules
//! apply. It never prints: the command (`commands/ui.rs`) announces the URL.
//!
//! - `guard`: the token, the `Host` check, the headers every answer carries
//! - `api`: search with explanations, browsing, a memory's page, edit and delete
//! - `insight`: the memory graph, consolidation runs, tier distribution over time
//! - `query`: the query-string and error plumbing the handlers share

mod api;
mod guard;
mod insight;
mod query;

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;

use axum::Router;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use subcog_core::Subcog;
use tokio_util::sync::CancellationToken;

use crate::command_error::CommandError;

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE_CSS: &str = include_str!("assets/style.css");
const FAVICON_SVG: &str = include_str!("assets/favicon.svg");

/// What every handler shares.
#[derive(Clone)]
struct Ui {
    subcog: Arc<Subcog>,
    /// The page with the token written into its asset URLs.
    index: Arc<str>,
}

/// A listening socket on 127.0.0.1 and the token its URL carries.
pub struct Bound {
    listener: tokio::net::TcpListener,
    token: String,
    /// The port it listens on.
    pub port: u16,
}

impl Bound {
    /// The page's address, token included: what the user opens.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/?token={}", self.port, self.token)
    }
}

/// Listens on 127.0.0.1 (`port` 0 picks a free one) with a fresh random token.
pub async fn bind(port: u16) -> Result<Bound, CommandError> {
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| CommandError::user(format!("cannot listen on {addr}: {e}")))?;
    let port = listener.local_addr()?.port();
    Ok(Bound {
        listener,
        token: guard::new_token()?,
        port,
    })
}

/// Serves the viewer until `stop` is cancelled; requests in flight finish first.
pub async fn serve(bound: Bound, subcog: Arc<Subcog>, stop: CancellationToken) -> Result<(), CommandError> {
    warm_up(&subcog);
    let guard = guard::Guard::new(&bound.token, bound.port);
    let ui = Ui {
        subcog,
        index: INDEX_HTML.replace("__TOKEN__", &bound.token).into(),
    };
    let app = Router::new()
        .route("/", get(index))
        .route("/app.js", get(|| asset(APP_JS, "text/javascript; charset=utf-8")))
        .route("/style.css", get(|| asset(STYLE_CSS, "text/css; charset=utf-8")))
        .route("/favicon.svg", get(|| asset(FAVICON_SVG, "image/svg+xml")))
        .merge(api::routes())
        .merge(insight::routes())
        .with_state(ui)
        .layer(axum::middleware::from_fn_with_state(Arc::new(guard), guard::check));
    axum::serve(bound.listener, app)
        .with_graceful_shutdown(stop.cancelled_owned())
        .await
        .map_err(|e| CommandError::internal(anyhow::anyhow!("HTTP server failed: {e}")))
}

async fn index(axum::extract::State(ui): axum::extract::State<Ui>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        )],
        ui.index.to_string(),
    )
        .into_response()
}

async fn asset(body: &'static str, content_type: &'static str) -> Response {
    ([(header::CONTENT_TYPE, HeaderValue::from_static(content_type))], body).into_response()
}

/// Loads the model and builds the resident keyword index before the first search asks.
fn warm_up(subcog: &Arc<Subcog>) {
    let subcog = subcog.clone();
    tokio::task::spawn_blocking(move || {
        let started = std::time::Instant::now();
        let _ = subcog.embedder_state();
        subcog.prepare_keywords();
        tracing::info!(ms = started.elapsed().as_millis() as u64, "viewer warm");
    });
}
