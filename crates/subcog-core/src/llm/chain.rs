//! Providers in priority order (seed 003: OpenAI, then LM Studio, then Ollama; Anthropic
//! when configured). A call goes to the first provider whose breaker is closed and within
//! budget; on failure the next is tried. Every call is accounted against the caps.

use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::resilience::{Breaker, Resilient, RetryPolicy, TokenBucket};
use super::usage::UsageTracker;
use super::{ChatRequest, ChatResponse, LlmClient, LlmError, estimate_tokens};

/// An ordered set of providers sharing one budget.
pub struct Chain {
    providers: Vec<Resilient>,
    usage: Arc<UsageTracker>,
    now: Arc<dyn Fn() -> DateTime<Utc> + Send + Sync>,
}

impl Chain {
    /// A chain over `providers` (first preferred).
    pub fn new(
        providers: Vec<Resilient>,
        usage: Arc<UsageTracker>,
        now: Arc<dyn Fn() -> DateTime<Utc> + Send + Sync>,
    ) -> Self {
        Chain { providers, usage, now }
    }

    /// The providers, in order.
    pub fn providers(&self) -> &[Resilient] {
        &self.providers
    }

    /// The shared usage tracker.
    pub fn usage(&self) -> &Arc<UsageTracker> {
        &self.usage
    }
}

impl LlmClient for Chain {
    fn name(&self) -> &str {
        self.providers.first().map(|p| p.name()).unwrap_or("none")
    }
    fn model(&self) -> &str {
        self.providers.first().map(|p| p.model()).unwrap_or_default()
    }
    fn complete(&self, req: &ChatRequest) -> Result<ChatResponse, LlmError> {
        let mut last = LlmError::Unavailable("no provider configured".into());
        let estimate = estimate_tokens(&req.system) + estimate_tokens(&req.user);
        for p in &self.providers {
            self.usage
                .check(p.model(), estimate, u64::from(req.max_tokens), (self.now)())?;
            match p.complete(req) {
                Ok(resp) => {
                    self.usage.record(&resp, (self.now)());
                    return Ok(resp);
                }
                Err(e) => {
                    tracing::info!(provider = p.name(), error = %e, "provider failed; trying the next");
                    last = e;
                }
            }
        }
        Err(last)
    }
}

/// What a provider in a chain is built from.
pub struct ProviderSpec {
    /// The client.
    pub client: Box<dyn LlmClient>,
    /// Consecutive failures that open its breaker.
    pub breaker_failures: u32,
    /// How long the breaker stays open.
    pub breaker_cooldown: std::time::Duration,
    /// Requests per minute.
    pub per_minute: u32,
    /// Retries.
    pub retry: RetryPolicy,
}

/// Wraps each spec in its breaker, limiter and retries.
pub fn resilient(specs: Vec<ProviderSpec>) -> Vec<Resilient> {
    specs
        .into_iter()
        .map(|s| {
            Resilient::new(
                s.client,
                Breaker::new(s.breaker_failures, s.breaker_cooldown),
                TokenBucket::new(s.per_minute, s.per_minute.clamp(1, 10)),
                s.retry,
            )
        })
        .collect()
}
