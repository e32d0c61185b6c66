//! Who may talk to the viewer: the random token, the `Host` check, and the headers every
//! answer carries.
//!
//! The token is 32 bytes from the operating system, shown once in the URL. The page and its
//! assets take it as `?token=` (a browser opening a link can send nothing else); the API
//! takes it only as `Authorization: Bearer`, which another site's page cannot send. Tokens
//! are compared as SHA-256 digests, so timing says nothing of them. A `Host` other than
//! 127.0.0.1 or localhost on our port means a DNS name pointed at loopback by someone
//! else's page (DNS rebinding): refused before the token is looked at.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use crate::command_error::CommandError;

/// The page may load only its own script, style and icon, and call only its own API.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
                   connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// What a request must present.
pub struct Guard {
    digest: [u8; 32],
    port: u16,
}

/// A fresh token: 32 random bytes from the operating system, as hex.
pub fn new_token() -> Result<String, CommandError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| CommandError::internal(anyhow::anyhow!("cannot read random bytes for the token: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

impl Guard {
    /// Accepts `token` on 127.0.0.1:`port`.
    pub fn new(token: &str, port: u16) -> Self {
        Guard {
            digest: Sha256::digest(token.as_bytes()).into(),
            port,
        }
    }

    /// Whether `Host` names loopback on our port.
    fn host_ok(&self, headers: &HeaderMap) -> bool {
        let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
            return false;
        };
        let (name, port) = match host.rsplit_once(':') {
            Some((name, port)) => (name, port.parse::<u16>().ok()),
            None => (host, Some(80)),
        };
        matches!(name.to_ascii_lowercase().as_str(), "127.0.0.1" | "localhost") && port == Some(self.port)
    }

    fn token_ok(&self, presented: Option<&str>) -> bool {
        presented.is_some_and(|t| Sha256::digest(t.trim().as_bytes()).as_slice() == self.digest.as_slice())
    }
}

/// The bearer token of a request, if it sends one.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token)
}

/// The `token` query parameter (hex: never percent-encoded by a browser).
fn query_token(request: &Request) -> Option<&str> {
    request
        .uri()
        .query()?
        .split('&')
        .find_map(|pair| pair.strip_prefix("token="))
}

/// Refuses a foreign `Host` (403) and a missing or wrong token (401); adds the security
/// headers to every answer.
pub async fn check(State(guard): State<Arc<Guard>>, request: Request, next: Next) -> Response {
    let mut response = if !guard.host_ok(request.headers()) {
        refusal(
            StatusCode::FORBIDDEN,
            "this viewer answers only to http://127.0.0.1 and http://localhost on its own port",
        )
    } else {
        let api = request.uri().path().starts_with("/api/");
        let presented = match bearer(request.headers()) {
            Some(t) => Some(t),
            None if !api => query_token(&request),
            None => None,
        };
        if guard.token_ok(presented) {
            next.run(request).await
        } else {
            let mut r = refusal(
                StatusCode::UNAUTHORIZED,
                "missing or wrong token: open the URL `subcog ui` printed (it carries the token)",
            );
            r.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"subcog ui\""),
            );
            r
        }
    };
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    // The token is in the page's URL: never hand it on, never keep the page on disk.
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn refusal(status: StatusCode, message: &str) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("application/json")),
            // The body is left unread; a client reusing the connection would get a reset.
            (header::CONNECTION, HeaderValue::from_static("close")),
        ],
        serde_json::json!({ "error": message }).to_string(),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_str(host).expect("header"));
        h
    }

    #[test]
    fn host_must_be_loopback_on_our_port() {
        let g = Guard::new("t", 8123);
        assert!(g.host_ok(&headers("127.0.0.1:8123")));
        assert!(g.host_ok(&headers("LOCALHOST:8123")));
        assert!(!g.host_ok(&headers("127.0.0.1:8124")));
        assert!(!g.host_ok(&headers("127.0.0.1")));
        assert!(!g.host_ok(&headers("evil.example:8123")));
        assert!(!g.host_ok(&headers("127.0.0.1.evil.example:8123")));
        assert!(!g.host_ok(&HeaderMap::new()));
    }

    #[test]
    fn tokens_are_32_random_bytes_and_compared_whole() {
        let a = new_token().expect("token");
        let b = new_token().expect("token");
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        let g = Guard::new(&a, 1);
        assert!(g.token_ok(Some(&a)));
        assert!(!g.token_ok(Some(&b)));
        assert!(!g.token_ok(Some(&a[..63])));
        assert!(!g.token_ok(None));
    }
}
