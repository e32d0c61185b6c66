//! The library's error types: validation errors for user input and the service-level
//! [`Error`] that every public operation returns.
//!
//! Each storage or configuration error converts into [`Error`] once, so callers (the CLI,
//! hooks, the MCP server) match on one type and pick an exit code or message from its kind.

use thiserror::Error;

pub use crate::model::ValidationError;

use crate::config::ConfigError;
use crate::embed::EmbedError;
use crate::secrets::SecretKind;
use crate::store::StoreError;

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
    /// The activity log (`activity.db`) could not be read or written.
    #[error(transparent)]
    Activity(#[from] crate::activity::ActivityError),
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
