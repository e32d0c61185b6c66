//! Keeping a flaky or overloaded provider from stalling or bankrupting a run: retries with
//! jittered exponential backoff (honouring `Retry-After`), a circuit breaker that stops
//! calling a provider after repeated failures and probes it again after a cooldown, and a
//! token bucket that spaces requests out.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::{ChatRequest, ChatResponse, LlmClient, LlmError};

/// Breaker states (closed: calls flow; open: calls fail fast; half-open: one probe).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BreakerState {
    /// Calls flow.
    Closed,
    /// Calls fail fast until the cooldown ends.
    Open,
    /// One trial call is let through.
    HalfOpen,
}

/// A circuit breaker.
#[derive(Debug)]
pub struct Breaker {
    threshold: u32,
    cooldown: Duration,
    inner: Mutex<(BreakerState, u32, Option<Instant>)>,
}

impl Breaker {
    /// Opens after `threshold` consecutive failures; probes again after `cooldown`.
    pub fn new(threshold: u32, cooldown: Duration) -> Self {
        Breaker {
            threshold: threshold.max(1),
            cooldown,
            inner: Mutex::new((BreakerState::Closed, 0, None)),
        }
    }

    /// The current state (moving open → half-open when the cooldown has passed).
    pub fn state(&self) -> BreakerState {
        let Ok(mut g) = self.inner.lock() else {
            return BreakerState::Open;
        };
        if g.0 == BreakerState::Open && g.2.is_some_and(|t| t.elapsed() >= self.cooldown) {
            g.0 = BreakerState::HalfOpen;
        }
        g.0
    }

    /// Whether a call may go out now.
    pub fn allow(&self) -> bool {
        self.state() != BreakerState::Open
    }

    /// Records a success: closes the breaker.
    pub fn success(&self) {
        if let Ok(mut g) = self.inner.lock() {
            *g = (BreakerState::Closed, 0, None);
        }
    }

    /// Records a failure: opens after the threshold, or at once from half-open.
    pub fn failure(&self) {
        if let Ok(mut g) = self.inner.lock() {
            g.1 += 1;
            if g.0 == BreakerState::HalfOpen || g.1 >= self.threshold {
                g.0 = BreakerState::Open;
                g.2 = Some(Instant::now());
            }
        }
    }
}

/// A token bucket: `per_minute` requests a minute, in bursts of up to `burst`.
#[derive(Debug)]
pub struct TokenBucket {
    rate_per_sec: f64,
    burst: f64,
    inner: Mutex<(f64, Instant)>,
}

impl TokenBucket {
    /// A full bucket.
    pub fn new(per_minute: u32, burst: u32) -> Self {
        let burst = f64::from(burst.max(1));
        TokenBucket {
            rate_per_sec: f64::from(per_minute.max(1)) / 60.0,
            burst,
            inner: Mutex::new((burst, Instant::now())),
        }
    }

    /// Waits until a request may go out.
    pub fn acquire(&self) {
        loop {
            let wait = {
                let Ok(mut g) = self.inner.lock() else { return };
                let now = Instant::now();
                let refill = now.duration_since(g.1).as_secs_f64() * self.rate_per_sec;
                g.0 = (g.0 + refill).min(self.burst);
                g.1 = now;
                if g.0 >= 1.0 {
                    g.0 -= 1.0;
                    return;
                }
                (1.0 - g.0) / self.rate_per_sec
            };
            std::thread::sleep(Duration::from_secs_f64(wait.clamp(0.001, 60.0)));
        }
    }
}

/// Retry policy.
#[derive(Debug, Clone, Copy)]
pub struct RetryPolicy {
    /// Attempts after the first.
    pub max_retries: u32,
    /// First backoff; doubles each time, with jitter.
    pub base: Duration,
    /// Longest single wait (also caps `Retry-After`).
    pub max_wait: Duration,
}

/// A client wrapped in a breaker, a rate limiter and retries.
pub struct Resilient {
    inner: Box<dyn LlmClient>,
    breaker: Breaker,
    bucket: TokenBucket,
    retry: RetryPolicy,
}

impl Resilient {
    /// Wraps `inner`.
    pub fn new(inner: Box<dyn LlmClient>, breaker: Breaker, bucket: TokenBucket, retry: RetryPolicy) -> Self {
        Resilient {
            inner,
            breaker,
            bucket,
            retry,
        }
    }

    /// The breaker (for reports and tests).
    pub fn breaker(&self) -> &Breaker {
        &self.breaker
    }
}

/// A pseudo-random fraction in `[0, 1)` from the clock: enough to spread retries.
fn jitter() -> f64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    f64::from(nanos % 1000) / 1000.0
}

impl LlmClient for Resilient {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn model(&self) -> &str {
        self.inner.model()
    }
    fn complete(&self, req: &ChatRequest) -> Result<ChatResponse, LlmError> {
        let _span = tracing::debug_span!("llm.complete", provider = self.inner.name()).entered();
        let mut attempt = 0;
        loop {
            if !self.breaker.allow() {
                return Err(LlmError::CircuitOpen {
                    provider: self.inner.name().into(),
                });
            }
            self.bucket.acquire();
            match self.inner.complete(req) {
                Ok(r) => {
                    self.breaker.success();
                    return Ok(r);
                }
                Err(e) => {
                    self.breaker.failure();
                    if !e.retryable() || attempt >= self.retry.max_retries {
                        crate::metrics::global().failure("llm.complete");
                        return Err(e);
                    }
                    let backoff = self.retry.base.mul_f64(2f64.powi(attempt as i32) * (0.5 + jitter()));
                    let wait = match &e {
                        LlmError::Status {
                            retry_after: Some(after),
                            ..
                        } => *after,
                        _ => backoff,
                    }
                    .min(self.retry.max_wait);
                    tracing::info!(provider = self.inner.name(), error = %e, wait_ms = wait.as_millis() as u64, "retrying");
                    std::thread::sleep(wait);
                    attempt += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_breaker_opens_half_opens_and_closes() {
        let b = Breaker::new(2, Duration::from_millis(30));
        assert_eq!(b.state(), BreakerState::Closed);
        b.failure();
        assert!(b.allow());
        b.failure();
        assert_eq!(b.state(), BreakerState::Open);
        assert!(!b.allow());
        std::thread::sleep(Duration::from_millis(40));
        assert_eq!(b.state(), BreakerState::HalfOpen);
        b.failure();
        assert_eq!(b.state(), BreakerState::Open, "a failed probe reopens");
        std::thread::sleep(Duration::from_millis(40));
        assert!(b.allow());
        b.success();
        assert_eq!(b.state(), BreakerState::Closed);
    }

    #[test]
    fn the_bucket_spaces_requests() {
        let bucket = TokenBucket::new(600, 2); // 10 per second after a burst of 2
        let t = Instant::now();
        for _ in 0..4 {
            bucket.acquire();
        }
        let elapsed = t.elapsed();
        assert!(elapsed >= Duration::from_millis(150), "{elapsed:?}");
        assert!(elapsed < Duration::from_secs(2), "{elapsed:?}");
    }
}
