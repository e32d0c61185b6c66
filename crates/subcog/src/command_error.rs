//! The one error type at the CLI boundary: each library error is classified once here, and
//! the class picks the exit code. Messages print as a single `error: ...` line.

use std::process::ExitCode;

use subcog_core::Error;
use subcog_core::store::StoreError;

/// Why a command failed, which decides the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The thing asked for does not exist (exit 1).
    NotFound,
    /// Bad input or a refused operation (exit 2, like a usage error).
    User,
    /// The configuration is invalid (exit 3).
    Config,
    /// Storage or the system failed (exit 4).
    Internal,
}

/// A failed command.
#[derive(Debug)]
pub struct CommandError {
    /// Classification.
    pub kind: ErrorKind,
    /// The message chain.
    pub error: anyhow::Error,
}

impl CommandError {
    /// A user error with a message.
    pub fn user(message: impl std::fmt::Display) -> Self {
        CommandError {
            kind: ErrorKind::User,
            error: anyhow::anyhow!("{message}"),
        }
    }

    /// A failure already explained on stdout: only the exit code is left to report.
    pub fn silent(kind: ErrorKind) -> Self {
        CommandError {
            kind,
            error: anyhow::anyhow!(""),
        }
    }

    /// An exit code already explained (by the warm process's output): nothing to print.
    pub fn silent_code(code: u8) -> Self {
        let kind = match code {
            1 => ErrorKind::NotFound,
            2 => ErrorKind::User,
            3 => ErrorKind::Config,
            _ => ErrorKind::Internal,
        };
        CommandError::silent(kind)
    }

    /// A system error with a message.
    pub fn internal(error: impl Into<anyhow::Error>) -> Self {
        CommandError {
            kind: ErrorKind::Internal,
            error: error.into(),
        }
    }

    /// The process exit code for this error.
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(self.code())
    }

    /// The exit code as a number.
    pub fn code(&self) -> u8 {
        match self.kind {
            ErrorKind::NotFound => 1,
            ErrorKind::User => 2,
            ErrorKind::Config => 3,
            ErrorKind::Internal => 4,
        }
    }

    /// The one-line message (causes joined with ": ").
    pub fn message(&self) -> String {
        format!("{:#}", self.error).replace('\n', " ")
    }
}

impl From<Error> for CommandError {
    fn from(e: Error) -> Self {
        let kind = match &e {
            Error::NotFound { .. } => ErrorKind::NotFound,
            Error::Validation(_) | Error::SecretBlocked { .. } | Error::Import { .. } => ErrorKind::User,
            Error::Config(_) => ErrorKind::Config,
            Error::Store(StoreError::Duplicate { .. }) => ErrorKind::User,
            Error::Embed(subcog_core::embed::EmbedError::Missing { .. }) => ErrorKind::User,
            Error::Embed(_) => ErrorKind::Internal,
            Error::NoRepository { .. } | Error::NoRemote { .. } | Error::Disabled { .. } | Error::Llm(_) => {
                ErrorKind::User
            }
            Error::Store(_) | Error::Io { .. } | Error::Notes(_) | Error::Activity(_) => ErrorKind::Internal,
        };
        CommandError { kind, error: e.into() }
    }
}

impl From<subcog_core::ValidationError> for CommandError {
    fn from(e: subcog_core::ValidationError) -> Self {
        Error::from(e).into()
    }
}

impl From<subcog_core::config::ConfigError> for CommandError {
    fn from(e: subcog_core::config::ConfigError) -> Self {
        Error::from(e).into()
    }
}

impl From<StoreError> for CommandError {
    fn from(e: StoreError) -> Self {
        Error::from(e).into()
    }
}

impl From<std::io::Error> for CommandError {
    fn from(e: std::io::Error) -> Self {
        CommandError::internal(e)
    }
}

/// Result of a command.
pub type CommandResult = Result<(), CommandError>;
