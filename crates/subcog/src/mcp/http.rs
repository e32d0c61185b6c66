//! Streamable HTTP for the MCP server: `/mcp` and `/metrics` (Prometheus) behind a bearer
//! token, `/health` open.
//!
//! Without a token the server only binds loopback addresses; with one, every `/mcp`
//! request must carry `Authorization: Bearer <token>`. Bodies over `mcp.max_request_bytes`
//! get 413 and the `Host` header is checked against loopback, the bound address and
//! `mcp.allowed_hosts` (DNS rebinding).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use sha2::{Digest, Sha256};
use tokio_util::sync::CancellationToken;

use super::Server;
use crate::command_error::CommandError;

/// Whether a token is required, and which.
#[derive(Clone)]
struct Auth {
    /// SHA-256 of the token: compared digest to digest, so timing says nothing of it.
    digest: Option<[u8; 32]>,
}

/// Checks the bind address against the token policy; the error is meant for users.
pub fn check_bind(addr: SocketAddr, token: &str) -> Result<(), CommandError> {
    if token.trim().is_empty() && !addr.ip().is_loopback() {
        return Err(CommandError::user(format!(
            "refusing to serve MCP on {addr} without a token: anyone who can reach it could read and change \
             your memories. Set SUBCOG_MCP_TOKEN (or mcp.token), or bind 127.0.0.1"
        )));
    }
    Ok(())
}

/// Serves until `stop` is cancelled.
pub async fn serve(server: Server, addr: SocketAddr, stop: CancellationToken) -> Result<(), CommandError> {
    let config = server.shared.subcog.config().mcp.clone();
    let subcog = server.shared.subcog.clone();
    check_bind(addr, &config.token)?;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| CommandError::user(format!("cannot listen on {addr}: {e}")))?;
    let bound = listener.local_addr()?;
    let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "::1".into()];
    hosts.push(bound.ip().to_string());
    hosts.extend(config.allowed_hosts.iter().cloned());
    let rmcp_config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(hosts)
        .with_max_request_body_bytes(config.max_request_bytes)
        .with_cancellation_token(stop.child_token());
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        rmcp_config,
    );
    let auth = Auth {
        digest: Some(config.token.trim())
            .filter(|t| !t.is_empty())
            .map(|t| Sha256::digest(t.as_bytes()).into()),
    };
    if auth.digest.is_none() {
        tracing::warn!("MCP over HTTP without a token: any local process can use it");
    }
    let app = Router::new()
        .nest_service("/mcp", service)
        .route("/metrics", get(move || prometheus(subcog.clone())))
        .layer(middleware::from_fn_with_state(auth, require_token))
        .route("/health", get(health))
        .layer(middleware::map_response(close_after_refusal));
    // The one line a launcher (or a test using port 0) reads to find the server.
    eprintln!("subcog mcp: listening on http://{bound}/mcp");
    axum::serve(listener, app)
        .with_graceful_shutdown(stop.cancelled_owned())
        .await
        .map_err(|e| CommandError::internal(anyhow::anyhow!("HTTP server failed: {e}")))
}

/// Prometheus' text format: this process's metrics and the live tier distribution.
async fn prometheus(subcog: Arc<subcog_core::Subcog>) -> Response {
    let tiers = tokio::task::spawn_blocking(move || {
        let mut tiers = std::collections::BTreeMap::new();
        for (_, store) in subcog.existing_stores().unwrap_or_default() {
            if let Ok(counts) = store.tier_counts(subcog_core::model::Status::Active) {
                for (tier, n) in counts {
                    *tiers.entry(tier).or_insert(0) += n;
                }
            }
        }
        tiers
    })
    .await
    .unwrap_or_default();
    let text = crate::telemetry::prometheus(&subcog_core::metrics::global().snapshot(), &tiers);
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
        )],
        text,
    )
        .into_response()
}

async fn health() -> Response {
    (
        [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))],
        serde_json::json!({"status": "ok", "version": env!("CARGO_PKG_VERSION")}).to_string(),
    )
        .into_response()
}

/// Marks refusals that leave the request body unread (401, 413) `Connection: close`.
///
/// hyper closes such a connection rather than read megabytes it will throw away, but
/// without this header the client may already have reused it for its next request,
/// which then fails with a reset instead of getting an answer.
async fn close_after_refusal(mut response: Response) -> Response {
    if matches!(
        response.status(),
        StatusCode::UNAUTHORIZED | StatusCode::PAYLOAD_TOO_LARGE
    ) {
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

async fn require_token(State(auth): State<Auth>, request: Request, next: Next) -> Response {
    let Some(expected) = auth.digest else {
        return next.run(request).await;
    };
    let presented = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| Sha256::digest(token.trim().as_bytes()));
    match presented {
        Some(digest) if digest.as_slice() == expected.as_slice() => next.run(request).await,
        _ => (
            StatusCode::UNAUTHORIZED,
            [
                (
                    header::WWW_AUTHENTICATE,
                    HeaderValue::from_static("Bearer realm=\"subcog\""),
                ),
                (header::CONTENT_TYPE, HeaderValue::from_static("application/json")),
            ],
            r#"{"error":"missing or wrong bearer token (Authorization: Bearer <SUBCOG_MCP_TOKEN>)"}"#,
        )
            .into_response(),
    }
}
