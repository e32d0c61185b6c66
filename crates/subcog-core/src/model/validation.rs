//! `ValidationError`: invalid user input, the one error type of the value layer (model,
//! timestamps, secrets, temporal parsing), so those modules depend on nothing above them.

use thiserror::Error;

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
