//! The process's metrics (seed 002's table): how often each operation ran, how often it
//! failed, how long it took, and what the LLM cost. One registry per process
//! ([`global`]); the binary feeds span durations into it from its tracing layer and reads
//! it for the Prometheus endpoint and the rolling summary kept in `activity.db`
//! ([`persist`]). The library records only what a span cannot say: failures and LLM usage;
//! [`SpanTimer`] is the layer that turns spans into durations.

use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use chrono::{DateTime, Timelike, Utc};
use serde::Serialize;

use crate::activity::{ActivityError, ActivityLog};

/// Upper bounds of the duration histogram, in milliseconds (Prometheus `le`).
pub const BUCKETS_MS: [f64; 10] = [1.0, 5.0, 10.0, 25.0, 50.0, 100.0, 250.0, 1000.0, 5000.0, 30000.0];

/// One operation's totals.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct OpStats {
    /// Times it ran (closed spans).
    pub count: u64,
    /// Times it failed.
    pub failures: u64,
    /// Sum of durations, in milliseconds.
    pub total_ms: f64,
    /// Longest, in milliseconds.
    pub max_ms: f64,
    /// Counts per bucket of [`BUCKETS_MS`] (not cumulative), plus one for larger values.
    pub buckets: [u64; 11],
}

/// LLM usage of this process.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LlmTotals {
    /// Completed requests.
    pub requests: u64,
    /// Input tokens.
    pub input_tokens: u64,
    /// Output tokens.
    pub output_tokens: u64,
    /// Estimated cost in USD.
    pub cost_usd: f64,
}

/// A copy of the registry.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Snapshot {
    /// By operation (span name).
    pub operations: BTreeMap<String, OpStats>,
    /// LLM usage.
    pub llm: LlmTotals,
}

/// The registry.
#[derive(Debug, Default)]
pub struct Metrics {
    inner: Mutex<Snapshot>,
    /// What [`persist`] already wrote, so each flush writes only the difference.
    flushed: Mutex<Snapshot>,
}

/// The process's registry.
pub fn global() -> &'static Metrics {
    static GLOBAL: OnceLock<Metrics> = OnceLock::new();
    GLOBAL.get_or_init(Metrics::default)
}

impl Metrics {
    fn update(&self, f: impl FnOnce(&mut Snapshot)) {
        let mut guard = self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        f(&mut guard);
    }

    /// One run of `name` took `took`.
    pub fn observe(&self, name: &str, took: Duration) {
        let ms = took.as_secs_f64() * 1000.0;
        self.update(|s| {
            let op = s.operations.entry(name.to_string()).or_default();
            op.count += 1;
            op.total_ms += ms;
            op.max_ms = op.max_ms.max(ms);
            let slot = BUCKETS_MS.iter().position(|b| ms <= *b).unwrap_or(BUCKETS_MS.len());
            if let Some(b) = op.buckets.get_mut(slot) {
                *b += 1;
            }
        });
    }

    /// One run of `name` failed.
    pub fn failure(&self, name: &str) {
        self.update(|s| s.operations.entry(name.to_string()).or_default().failures += 1);
    }

    /// One LLM request completed.
    pub fn llm(&self, input_tokens: u64, output_tokens: u64, cost_usd: f64) {
        self.update(|s| {
            s.llm.requests += 1;
            s.llm.input_tokens += input_tokens;
            s.llm.output_tokens += output_tokens;
            s.llm.cost_usd += cost_usd;
        });
    }

    /// A copy of everything so far.
    pub fn snapshot(&self) -> Snapshot {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

/// A tracing layer that times every span it sees and hands the duration to [`global`] when
/// the span closes: the binary installs it (at info level) beside its log layer.
pub struct SpanTimer;

/// When a span was opened (kept in the span's extensions).
struct Opened(std::time::Instant);

impl<S> tracing_subscriber::Layer<S> for SpanTimer
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    fn on_new_span(
        &self,
        _attrs: &tracing::span::Attributes<'_>,
        id: &tracing::span::Id,
        ctx: tracing_subscriber::layer::Context<'_, S>,
    ) {
        if let Some(span) = ctx.span(id) {
            span.extensions_mut().insert(Opened(std::time::Instant::now()));
        }
    }

    fn on_close(&self, id: tracing::span::Id, ctx: tracing_subscriber::layer::Context<'_, S>) {
        if let Some(span) = ctx.span(&id)
            && let Some(Opened(at)) = span.extensions().get::<Opened>()
        {
            global().observe(span.name(), at.elapsed());
        }
    }
}

/// Adds what this process measured since its last flush to the hour's row of each
/// operation in the activity file (LLM usage under `llm.tokens`, `llm.cost_usd_micros`).
pub fn persist(metrics: &Metrics, log: &ActivityLog, now: DateTime<Utc>) -> Result<(), ActivityError> {
    let now_snapshot = metrics.snapshot();
    let mut flushed = metrics
        .flushed
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut rows: Vec<(String, u64, u64, f64, f64)> = Vec::new();
    for (name, op) in &now_snapshot.operations {
        let before = flushed.operations.get(name).cloned().unwrap_or_default();
        let (count, failures) = (
            op.count - before.count.min(op.count),
            op.failures - before.failures.min(op.failures),
        );
        if count > 0 || failures > 0 {
            rows.push((
                name.clone(),
                count,
                failures,
                (op.total_ms - before.total_ms).max(0.0),
                op.max_ms,
            ));
        }
    }
    let llm_tokens = (now_snapshot.llm.input_tokens + now_snapshot.llm.output_tokens)
        .saturating_sub(flushed.llm.input_tokens + flushed.llm.output_tokens);
    if llm_tokens > 0 {
        // Tokens in `count`; the cost rides in `total_ms` (USD) so one table holds both.
        rows.push((
            "llm.usage".into(),
            llm_tokens,
            0,
            (now_snapshot.llm.cost_usd - flushed.llm.cost_usd).max(0.0),
            0.0,
        ));
    }
    if rows.is_empty() {
        return Ok(());
    }
    let hour = now
        .with_minute(0)
        .and_then(|t| t.with_second(0))
        .and_then(|t| t.with_nanosecond(0))
        .unwrap_or(now);
    let hour = crate::timestamp::to_storage(hour);
    let cutoff = crate::timestamp::to_storage(now - chrono::Duration::days(crate::activity::KEEP_DAYS));
    log.with(true, |conn| {
        let tx = conn.unchecked_transaction()?;
        {
            let mut upsert = tx.prepare_cached(
                "INSERT INTO metrics (hour, name, count, failures, total_ms, max_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (hour, name) DO UPDATE SET count = count + excluded.count,
                   failures = failures + excluded.failures, total_ms = total_ms + excluded.total_ms,
                   max_ms = MAX(max_ms, excluded.max_ms)",
            )?;
            for (name, count, failures, total, max) in &rows {
                upsert.execute(rusqlite::params![
                    hour,
                    name,
                    i64::try_from(*count).unwrap_or(i64::MAX),
                    i64::try_from(*failures).unwrap_or(i64::MAX),
                    total,
                    max
                ])?;
            }
            tx.execute("DELETE FROM metrics WHERE hour < ?1", [cutoff])?;
        }
        tx.commit()
    })?;
    *flushed = now_snapshot;
    Ok(())
}

/// One operation's totals over a period, from the rolling summary.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SummaryRow {
    /// Operation (span name), or `llm.usage` (count = tokens, `total_ms` = USD).
    pub name: String,
    /// Runs.
    pub count: u64,
    /// Failures.
    pub failures: u64,
    /// Mean duration in milliseconds.
    pub mean_ms: f64,
    /// Longest in any hour, in milliseconds.
    pub max_ms: f64,
    /// Sum (milliseconds, or USD for `llm.usage`).
    pub total: f64,
}

/// The rolling summary since `since`, by operation, most frequent first.
pub fn summary(log: &ActivityLog, since: DateTime<Utc>) -> Result<Vec<SummaryRow>, ActivityError> {
    let rows = log.with(false, |conn| {
        let mut stmt = conn.prepare(
            "SELECT name, SUM(count), SUM(failures), SUM(total_ms), MAX(max_ms) FROM metrics
             WHERE hour >= ?1 GROUP BY name ORDER BY SUM(count) DESC, name",
        )?;
        let mapped = stmt.query_map([crate::timestamp::to_storage(since)], |r| {
            let count = u64::try_from(r.get::<_, i64>(1)?).unwrap_or(0);
            let total: f64 = r.get(3)?;
            Ok(SummaryRow {
                name: r.get(0)?,
                count,
                failures: u64::try_from(r.get::<_, i64>(2)?).unwrap_or(0),
                mean_ms: if count > 0 { total / count as f64 } else { 0.0 },
                max_ms: r.get(4)?,
                total,
            })
        })?;
        mapped.collect::<Result<Vec<_>, _>>()
    })?;
    Ok(rows.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flushes_add_only_what_is_new() {
        let dir = tempfile::tempdir().expect("tmp");
        let log = ActivityLog::new(dir.path());
        let m = Metrics::default();
        let now = crate::timestamp::parse_instant("2026-05-02T10:20:00Z").expect("t");
        m.observe("recall.search", Duration::from_millis(4));
        m.observe("recall.search", Duration::from_millis(40));
        m.failure("recall.search");
        m.llm(100, 20, 0.5);
        persist(&m, &log, now).expect("flush");
        persist(&m, &log, now).expect("second flush adds nothing");
        m.observe("recall.search", Duration::from_millis(6));
        persist(&m, &log, now).expect("third flush");
        let rows = summary(&log, now - chrono::Duration::hours(1)).expect("summary");
        let recall = rows.iter().find(|r| r.name == "recall.search").expect("recall row");
        assert_eq!((recall.count, recall.failures), (3, 1));
        assert!((recall.total - 50.0).abs() < 1.0, "{recall:?}");
        assert!((recall.max_ms - 40.0).abs() < 1.0);
        let llm = rows.iter().find(|r| r.name == "llm.usage").expect("llm row");
        assert_eq!(llm.count, 120);
        assert!((llm.total - 0.5).abs() < 1e-9);
        let snap = m.snapshot();
        let op = &snap.operations["recall.search"];
        assert_eq!(op.buckets[1] + op.buckets[4] + op.buckets[2], 3, "{:?}", op.buckets);
        assert!(
            summary(&log, now + chrono::Duration::hours(2))
                .expect("later")
                .is_empty()
        );
    }
}
