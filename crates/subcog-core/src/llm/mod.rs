//! LLM providers for the consolidation stages that gain from one (summaries, supersession),
//! behind one trait, with everything that keeps cost and failure in check.
//!
//! - [`LlmClient`]: one chat completion. Providers: OpenAI (and LM Studio, which speaks the
//!   same protocol), Ollama's native chat API, Anthropic's Messages API (`providers`).
//! - [`resilience`]: timeouts, retries with jittered backoff that honour `Retry-After`, a
//!   circuit breaker per provider, a token-bucket rate limiter.
//! - [`usage`]: token and cost caps per run and per day, from a price table.
//! - [`chain`]: providers in priority order; the first that answers wins.
//! - [`prompts`] / [`parse`]: versioned prompts with memory content fenced as data and
//!   redacted; tolerant parsing of JSON answers.
//!
//! Nothing here reads the environment: API keys are looked up through a function the
//! caller passes in.

pub mod chain;
pub mod parse;
pub mod prompts;
pub mod providers;
pub mod resilience;
pub mod setup;
pub mod usage;

use std::time::Duration;

use serde::Serialize;
use thiserror::Error;

/// One chat request.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRequest {
    /// System instructions.
    pub system: String,
    /// The user message (already redacted and fenced by the prompt builder).
    pub user: String,
    /// Most tokens to generate.
    pub max_tokens: u32,
    /// Ask for a JSON object (response_format / format / prefill).
    pub json: bool,
}

/// One chat answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChatResponse {
    /// The text of the answer.
    pub text: String,
    /// The provider that answered.
    pub provider: String,
    /// The model that answered.
    pub model: String,
    /// Prompt tokens, as reported (estimated when not).
    pub input_tokens: u64,
    /// Completion tokens, as reported (estimated when not).
    pub output_tokens: u64,
    /// Wall time of the successful attempt.
    #[serde(skip)]
    pub latency: Duration,
}

/// Why a completion failed.
#[derive(Debug, Clone, Error, PartialEq)]
pub enum LlmError {
    /// The provider answered with an error status.
    #[error("{provider}: HTTP {status}: {message}")]
    Status {
        /// Provider name.
        provider: String,
        /// HTTP status.
        status: u16,
        /// Body excerpt.
        message: String,
        /// Seconds to wait, from `Retry-After`.
        retry_after: Option<Duration>,
    },
    /// No answer within the timeout.
    #[error("{provider}: no answer within {ms} ms")]
    Timeout {
        /// Provider name.
        provider: String,
        /// The timeout.
        ms: u64,
    },
    /// The connection failed.
    #[error("{provider}: {message}")]
    Transport {
        /// Provider name.
        provider: String,
        /// What happened.
        message: String,
    },
    /// The answer was not what the protocol promises.
    #[error("{provider}: unreadable answer: {message}")]
    Protocol {
        /// Provider name.
        provider: String,
        /// What was wrong.
        message: String,
    },
    /// The provider's circuit breaker is open after repeated failures.
    #[error("{provider}: skipped after repeated failures (circuit open)")]
    CircuitOpen {
        /// Provider name.
        provider: String,
    },
    /// A token or cost cap is reached; no more calls this run (or today).
    #[error("LLM budget reached: {0}")]
    Budget(String),
    /// No provider is configured or reachable.
    #[error("no LLM provider available: {0}")]
    Unavailable(String),
}

impl LlmError {
    /// Whether trying the same provider again may help (429, 5xx, timeouts, resets).
    pub fn retryable(&self) -> bool {
        match self {
            LlmError::Status { status, .. } => *status == 429 || *status == 408 || *status >= 500,
            LlmError::Timeout { .. } | LlmError::Transport { .. } => true,
            _ => false,
        }
    }
}

/// Something that completes chats.
pub trait LlmClient: Send + Sync {
    /// A short name (`openai`, `ollama`, ...).
    fn name(&self) -> &str;
    /// The model it will ask first.
    fn model(&self) -> &str;
    /// One completion.
    fn complete(&self, req: &ChatRequest) -> Result<ChatResponse, LlmError>;
}

/// Rough token count (4 characters per token) for providers that do not report usage and
/// for budgeting before a call.
pub fn estimate_tokens(text: &str) -> u64 {
    (text.chars().count() as u64).div_ceil(4)
}
