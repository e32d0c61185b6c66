//! Token and cost accounting with caps per run and per day. A call is refused before it
//! is made when the estimate would cross a cap; the day's totals live in a small JSON file
//! so separate processes (hooks, the CLI, the MCP server) share one daily budget.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{ChatResponse, LlmError};

/// USD per million tokens, input and output.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Price {
    /// Per million input tokens.
    pub input: f64,
    /// Per million output tokens.
    pub output: f64,
}

/// Parses `model=input/output` entries; local models are free when unlisted.
pub fn price_table(entries: &[String]) -> BTreeMap<String, Price> {
    entries
        .iter()
        .filter_map(|e| {
            let (model, prices) = e.split_once('=')?;
            let (i, o) = prices.split_once('/')?;
            Some((
                model.trim().to_string(),
                Price {
                    input: i.trim().parse().ok()?,
                    output: o.trim().parse().ok()?,
                },
            ))
        })
        .collect()
}

/// Caps; zero means no cap.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Caps {
    /// Tokens per run.
    pub run_tokens: u64,
    /// USD per run.
    pub run_cost: f64,
    /// Tokens per day (UTC).
    pub day_tokens: u64,
    /// USD per day (UTC).
    pub day_cost: f64,
}

pub use crate::model::UsageReport;

#[derive(Debug, Default, Serialize, Deserialize)]
struct DayFile {
    day: String,
    tokens: u64,
    cost_usd: f64,
}

/// Tracks one run's usage against the caps.
#[derive(Debug)]
pub struct UsageTracker {
    caps: Caps,
    prices: BTreeMap<String, Price>,
    day_file: Option<PathBuf>,
    report: Mutex<UsageReport>,
}

impl UsageTracker {
    /// A tracker; `day_file` persists the day's totals (none: per-process only).
    pub fn new(caps: Caps, prices: BTreeMap<String, Price>, day_file: Option<PathBuf>) -> Self {
        UsageTracker {
            caps,
            prices,
            day_file,
            report: Mutex::new(UsageReport::default()),
        }
    }

    fn price(&self, model: &str) -> Price {
        // Exact name, else the longest listed prefix (dated model names).
        self.prices
            .get(model)
            .copied()
            .or_else(|| {
                self.prices
                    .iter()
                    .filter(|(m, _)| model.starts_with(m.as_str()))
                    .max_by_key(|(m, _)| m.len())
                    .map(|(_, p)| *p)
            })
            .unwrap_or(Price {
                input: 0.0,
                output: 0.0,
            })
    }

    fn cost(&self, model: &str, input: u64, output: u64) -> f64 {
        let p = self.price(model);
        (input as f64 * p.input + output as f64 * p.output) / 1_000_000.0
    }

    fn day(&self, now: DateTime<Utc>) -> DayFile {
        let today = now.format("%Y-%m-%d").to_string();
        let stored: Option<DayFile> = self
            .day_file
            .as_ref()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .and_then(|t| serde_json::from_str(&t).ok());
        match stored {
            Some(d) if d.day == today => d,
            _ => DayFile {
                day: today,
                ..Default::default()
            },
        }
    }

    /// Refuses a call whose estimated size would cross a cap.
    pub fn check(
        &self,
        model: &str,
        estimated_input: u64,
        max_output: u64,
        now: DateTime<Utc>,
    ) -> Result<(), LlmError> {
        let tokens = estimated_input + max_output;
        let cost = self.cost(model, estimated_input, max_output);
        let Ok(mut r) = self.report.lock() else {
            return Err(LlmError::Budget("usage tracker unavailable".into()));
        };
        let day = self.day(now);
        let c = self.caps;
        let reason = if c.run_tokens > 0 && r.input_tokens + r.output_tokens + tokens > c.run_tokens {
            Some(format!("run token cap {} reached", c.run_tokens))
        } else if c.run_cost > 0.0 && r.cost_usd + cost > c.run_cost {
            Some(format!("run cost cap ${:.2} reached", c.run_cost))
        } else if c.day_tokens > 0 && day.tokens + tokens > c.day_tokens {
            Some(format!("daily token cap {} reached", c.day_tokens))
        } else if c.day_cost > 0.0 && day.cost_usd + cost > c.day_cost {
            Some(format!("daily cost cap ${:.2} reached", c.day_cost))
        } else {
            None
        };
        match reason {
            Some(why) => {
                r.refused += 1;
                r.cap_reached.get_or_insert(why.clone());
                Err(LlmError::Budget(why))
            }
            None => Ok(()),
        }
    }

    /// Records a completed call.
    pub fn record(&self, resp: &ChatResponse, now: DateTime<Utc>) {
        let cost = self.cost(&resp.model, resp.input_tokens, resp.output_tokens);
        crate::metrics::global().llm(resp.input_tokens, resp.output_tokens, cost);
        if let Ok(mut r) = self.report.lock() {
            r.calls += 1;
            r.input_tokens += resp.input_tokens;
            r.output_tokens += resp.output_tokens;
            r.cost_usd += cost;
            *r.by_model.entry(resp.model.clone()).or_default() += resp.input_tokens + resp.output_tokens;
            let mut day = self.day(now);
            day.tokens += resp.input_tokens + resp.output_tokens;
            day.cost_usd += cost;
            if let Some(path) = &self.day_file
                && let Ok(text) = serde_json::to_string(&day)
            {
                let tmp = path.with_extension("tmp");
                if std::fs::write(&tmp, text)
                    .and_then(|_| std::fs::rename(&tmp, path))
                    .is_err()
                {
                    tracing::warn!(path = %path.display(), "could not record the day's LLM usage");
                }
            }
        }
    }

    /// The totals so far.
    pub fn report(&self) -> UsageReport {
        self.report.lock().map(|r| r.clone()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn resp(model: &str, i: u64, o: u64) -> ChatResponse {
        ChatResponse {
            text: String::new(),
            provider: "p".into(),
            model: model.into(),
            input_tokens: i,
            output_tokens: o,
            latency: Duration::ZERO,
        }
    }

    #[test]
    fn caps_refuse_before_the_call_and_days_persist() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("usage.json");
        let prices = price_table(&["gpt-5-nano=0.05/0.40".into()]);
        let caps = Caps {
            run_tokens: 1_000,
            day_tokens: 1_500,
            ..Default::default()
        };
        let now = Utc::now();
        let t = UsageTracker::new(caps, prices.clone(), Some(file.clone()));
        t.check("gpt-5-nano-2025", 400, 100, now).expect("fits");
        t.record(&resp("gpt-5-nano-2025", 400, 100), now);
        t.check("gpt-5-nano", 400, 100, now).expect("fits");
        t.record(&resp("gpt-5-nano", 400, 100), now);
        let err = t.check("gpt-5-nano", 10, 10, now).expect_err("run cap");
        assert!(err.to_string().contains("run token cap"), "{err}");
        let r = t.report();
        assert_eq!((r.calls, r.input_tokens, r.refused), (2, 800, 1));
        assert!(r.cost_usd > 0.0);
        // A new run the same day starts with the day's totals.
        let next = UsageTracker::new(caps, prices, Some(file));
        let err = next.check("gpt-5-nano", 400, 200, now).expect_err("day cap");
        assert!(err.to_string().contains("daily token cap"), "{err}");
    }
}
