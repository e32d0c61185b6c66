//! What the API handlers share: the query string as name/value pairs, running library calls
//! on a blocking thread, and errors as JSON with the status their kind calls for.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use subcog_core::Subcog;
use subcog_core::store::MemoryFilter;

use crate::command_error::{CommandError, ErrorKind};

/// A query string's parameters; a repeated name keeps every value.
#[derive(Debug, Default)]
pub struct Params(BTreeMap<String, Vec<String>>);

impl Params {
    /// Reads `?a=1&b=x%20y&b=z` (`+` is a space, as forms send it).
    pub fn of(uri: &Uri) -> Self {
        let mut map: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for pair in uri.query().unwrap_or_default().split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            map.entry(decode(k)).or_default().push(decode(v));
        }
        Params(map)
    }

    /// The first non-empty value of `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name)?.iter().map(|v| v.trim()).find(|v| !v.is_empty())
    }

    /// Every non-empty value of `name`, comma-separated values split.
    pub fn all(&self, name: &str) -> Vec<String> {
        self.0
            .get(name)
            .into_iter()
            .flatten()
            .flat_map(|v| v.split(','))
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .collect()
    }

    /// `name` as a number, `default` when absent, a user error when not a number.
    pub fn number(&self, name: &str, default: usize) -> Result<usize, CommandError> {
        match self.get(name) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| CommandError::user(format!("{name}: expected a number, got {v:?}"))),
        }
    }

    /// Whether `name` is `true`, `1` or `yes`.
    pub fn flag(&self, name: &str) -> bool {
        self.get(name)
            .is_some_and(|v| matches!(v.to_ascii_lowercase().as_str(), "true" | "1" | "yes"))
    }

    /// The filters `list` and `recall` take on the command line, from the same names:
    /// namespace, tag, domain, status, tier, since, until, happened.
    pub fn filter(&self, now: chrono::DateTime<chrono::Utc>) -> Result<MemoryFilter, CommandError> {
        // The flags' own conversion, so the page and the CLI read a filter alike.
        fn parsed<T: std::str::FromStr>(values: Vec<String>) -> Result<Vec<T>, T::Err> {
            values.iter().map(|v| v.parse()).collect()
        }
        crate::commands::filters::FilterArgs {
            namespaces: self.all("namespace"),
            tags: self.all("tag"),
            domains: parsed(self.all("domain"))?,
            statuses: parsed(self.all("status"))?,
            tiers: parsed(self.all("tier"))?,
            since: self.get("since").map(str::to_string),
            until: self.get("until").map(str::to_string),
            happened: self.get("happened").map(str::to_string),
        }
        .to_filter(now)
    }
}

fn decode(text: &str) -> String {
    percent_encoding::percent_decode_str(&text.replace('+', " "))
        .decode_utf8_lossy()
        .into_owned()
}

/// A failed API call: JSON `{"error": …}` with 404 (not found), 400 (refused input) or 500.
pub struct ApiError(pub CommandError);

impl<E: Into<CommandError>> From<E> for ApiError {
    fn from(e: E) -> Self {
        ApiError(e.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = match self.0.kind {
            ErrorKind::NotFound => StatusCode::NOT_FOUND,
            ErrorKind::User => StatusCode::BAD_REQUEST,
            ErrorKind::Config | ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        };
        if status == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::warn!(error = %self.0.message(), "viewer request failed");
        }
        json_response(status, &serde_json::json!({ "error": self.0.message() }))
    }
}

/// What a handler returns.
pub type ApiResult = Result<Response, ApiError>;

/// A JSON answer.
pub fn json_response(status: StatusCode, value: &serde_json::Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))],
        value.to_string(),
    )
        .into_response()
}

/// Runs `f` with the services on a blocking thread; its value becomes a 200 JSON answer.
pub async fn blocking(
    subcog: &Arc<Subcog>,
    f: impl FnOnce(&Subcog) -> Result<serde_json::Value, CommandError> + Send + 'static,
) -> ApiResult {
    let subcog = subcog.clone();
    let run = move || {
        // A long-lived process: a write another process left half done is finished here.
        subcog.finish_interrupted_writes();
        f(&subcog)
    };
    match tokio::task::spawn_blocking(run).await {
        Ok(result) => Ok(json_response(StatusCode::OK, &result?)),
        Err(e) => Err(ApiError(CommandError::internal(anyhow::anyhow!("internal error: {e}")))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_decode_and_split() {
        let uri: Uri = "/api/x?q=why+did%20we&tier=hot,warm&tier=cold&empty=&n=5"
            .parse()
            .expect("uri");
        let p = Params::of(&uri);
        assert_eq!(p.get("q"), Some("why did we"));
        assert_eq!(p.all("tier"), ["hot", "warm", "cold"]);
        assert_eq!(p.get("empty"), None);
        assert_eq!(p.number("n", 1).expect("n"), 5);
        assert!(p.number("q", 1).is_err());
        assert_eq!(p.number("missing", 7).expect("default"), 7);
    }

    #[test]
    fn bad_filter_values_are_user_errors() {
        let uri: Uri = "/api/x?tier=scorching".parse().expect("uri");
        let err = Params::of(&uri).filter(chrono::Utc::now()).expect_err("refused");
        assert_eq!(err.kind, ErrorKind::User);
    }
}
