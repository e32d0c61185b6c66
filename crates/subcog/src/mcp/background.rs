//! Scheduled consolidation while the server runs (`consolidation.schedule`, a cron
//! expression in UTC; `mcp.scheduled_consolidation` turns it off).

use std::sync::Arc;

use subcog_core::consolidate::{ConsolidateOptions, LlmMode, ScopeOutcome};
use subcog_core::schedule::Schedule;
use tokio_util::sync::CancellationToken;

use super::Shared;

/// Sleeps until each fire time, then consolidates what is due, until `stop`.
pub async fn scheduled_consolidation(shared: Arc<Shared>, stop: CancellationToken) {
    let config = shared.subcog.config();
    if !config.consolidation.enabled
        || !config.mcp.scheduled_consolidation
        || config.consolidation.schedule.trim().is_empty()
    {
        return;
    }
    let schedule = match Schedule::parse(&config.consolidation.schedule) {
        Ok(s) => s,
        Err(e) => {
            tracing::warn!(error = %e, "no scheduled consolidation");
            return;
        }
    };
    loop {
        // Wall-clock time paces the loop even when SUBCOG_NOW pins the library's clock.
        let now = chrono::Utc::now();
        let Some(next) = schedule.next_after(now) else {
            return;
        };
        let wait = (next - now).to_std().unwrap_or_default();
        tokio::select! {
            _ = tokio::time::sleep(wait) => {},
            _ = stop.cancelled() => return,
        }
        let subcog = shared.subcog.clone();
        let run = shared.tracker.spawn_blocking(move || {
            let opts = ConsolidateOptions {
                full: false,
                dry_run: false,
                namespaces: Vec::new(),
                domain: None,
                since: None,
                until: None,
                trigger: "schedule".into(),
                if_due: true,
                llm: LlmMode::Auto,
            };
            subcog.consolidate(&opts, &mut |_, _, _| {})
        });
        match run.await {
            Ok(Ok(outcomes)) => {
                for o in &outcomes {
                    match o {
                        ScopeOutcome::Completed { result, .. } => tracing::info!(
                            scope = %result.scope, run = %result.run_id, changed = result.memories_changed,
                            "scheduled consolidation done"
                        ),
                        ScopeOutcome::NotDue { scope, reason } => {
                            tracing::info!(%scope, %reason, "consolidation not due")
                        }
                        ScopeOutcome::Busy { scope } => tracing::info!(%scope, "consolidation already running"),
                    }
                }
            }
            Ok(Err(e)) => tracing::warn!(error = %e, "scheduled consolidation failed"),
            Err(e) => tracing::error!(error = %e, "scheduled consolidation panicked"),
        }
    }
}
