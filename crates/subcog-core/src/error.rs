//! The library's error types: validation errors for user input and the service-level
//! [`Error`] that every public operation returns.
//!
//! Each storage or configuration error converts into [`Error`] once, so callers (the CLI,
//! hooks, the MCP server) match on one type and pick an exit code or message from its kind.

use thiserror::Error;

use crate::config::ConfigError;
use crate::embed::EmbedError;
use crate::secrets::SecretKind;
use crate::store::StoreError;

/// Invalid user input: a bad value, never a broken system.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ValidationError {
    /// Content was empty after trimming.
    #[error("content is empty")]
    EmptyContent,
    /// Content exceeds the configured size limit.
    #[error("content is {size} bytes, over the limit of {limit} bytes (capture.max_content_bytes)")]
    ContentTooLarge {
        /// Size of the content in bytes.
        size: usize,
        /// The configured limit.
        limit: usize,
    },
    /// A namespace name breaks the naming rule.
    #[error("invalid namespace {name:?}: use 1-32 lowercase letters, digits, '-' or '_', starting with a letter")]
    InvalidNamespace {
        /// The rejected name.
        name: String,
    },
    /// A well-formed namespace that is neither built in, configured, nor in use.
    #[error(
        "unknown namespace {name:?}: pass --allow-new-namespace to create it, or list it under [namespaces] custom (built-in: {builtin})"
    )]
    UnknownNamespace {
        /// The rejected name.
        name: String,
        /// The built-in names, comma-separated.
        builtin: String,
    },
    /// A tag breaks the tag rule.
    #[error("invalid tag {tag:?}: {reason}")]
    InvalidTag {
        /// The rejected tag.
        tag: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A value is not one of the allowed names.
    #[error("invalid {what} {value:?}: expected one of {expected}")]
    UnknownValue {
        /// Which kind of value.
        what: &'static str,
        /// The rejected text.
        value: String,
        /// The accepted values.
        expected: String,
    },
    /// A number is outside its range.
    #[error("{what} {value} is out of range {range}")]
    OutOfRange {
        /// Which value.
        what: &'static str,
        /// The rejected value.
        value: String,
        /// The accepted range.
        range: &'static str,
    },
    /// A memory id is not a ULID.
    #[error("invalid memory id {id:?}: expected a 26-character ULID or the short id session context shows")]
    InvalidId {
        /// The rejected text.
        id: String,
    },
    /// A short id matches more than one memory.
    #[error("the short id {id:?} matches {} memories ({}): give more characters", .matches.len(), .matches.join(", "))]
    AmbiguousId {
        /// The short id.
        id: String,
        /// The full ids it matches.
        matches: Vec<String>,
    },
    /// A timestamp could not be parsed.
    #[error(
        "invalid timestamp {value:?}: use RFC 3339 (2023-05-08T14:30:00Z), 'YYYY-MM-DD HH:MM[:SS]' or 'YYYY-MM-DD'"
    )]
    InvalidTimestamp {
        /// The rejected text.
        value: String,
    },
    /// A search query had no searchable words.
    #[error("the query has no searchable words")]
    EmptyQuery,
}

/// Every error a library operation can return.
#[derive(Debug, Error)]
pub enum Error {
    /// Bad input from the caller.
    #[error(transparent)]
    Validation(#[from] ValidationError),
    /// The content holds secrets and the policy is `block`.
    #[error("capture refused: the content contains secrets ({}) and capture.on_secret is 'block'", kinds_list(.kinds))]
    SecretBlocked {
        /// The kinds of secret found (never the secrets themselves).
        kinds: Vec<SecretKind>,
    },
    /// No memory with that id.
    #[error("no memory with id {id}")]
    NotFound {
        /// The missing id.
        id: String,
    },
    /// A malformed import file or record.
    #[error("line {line}: {message}")]
    Import {
        /// 1-based line number in the input.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// The configuration is invalid.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The embedding model failed.
    #[error(transparent)]
    Embed(#[from] EmbedError),
    /// The storage layer failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Reading or writing git notes failed.
    #[error(transparent)]
    Notes(#[from] crate::notes::NotesError),
    /// The operation needs a git repository and the scope has none.
    #[error("{what} needs a git repository: {hint}")]
    NoRepository {
        /// The operation.
        what: &'static str,
        /// What to do about it.
        hint: String,
    },
    /// A remote that is not configured.
    #[error("no remote named {name:?} in {repo}: {hint}")]
    NoRemote {
        /// The remote's name.
        name: String,
        /// The repository.
        repo: String,
        /// How to add one.
        hint: String,
    },
    /// A feature turned off in the configuration.
    #[error("{what} is turned off ({key} = false)")]
    Disabled {
        /// The feature.
        what: &'static str,
        /// The config key that turns it on.
        key: &'static str,
    },
    /// An LLM was required and could not give a usable answer.
    #[error("no LLM answer: {0}")]
    Llm(String),
    /// A filesystem operation outside the store failed.
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The underlying error.
        source: std::io::Error,
    },
}

fn kinds_list(kinds: &[SecretKind]) -> String {
    kinds.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", ")
}

/// Shorthand for results of library operations.
pub type Result<T, E = Error> = std::result::Result<T, E>;
