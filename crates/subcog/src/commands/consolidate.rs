//! `subcog consolidate`

use clap::Args;
use subcog_core::consolidate::{ConsolidateOptions, LlmMode, ScopeOutcome};
use subcog_core::model::{Domain, Namespace, Phase};
use subcog_core::timestamp::parse_instant;

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;
use crate::progress::Progress;

/// Consolidate memories: decay into tiers, cluster, summarize, find superseded memories,
/// draw the memory graph — offline, or with an LLM when one is set up (`--llm`).
///
/// Stages: scan (retention scores) → cluster (average linkage on embeddings) → supersede
/// (change markers: "switched to", "no longer", …) → summarize (extractive) → tier (HOT,
/// WARM, COLD, ARCHIVED; pinned memories stay WARM) → edges → persist (index and git notes,
/// crash-safe). Seed 004's rules run with it: merge near-duplicates, shorten verbose old
/// episodic memories, promote well-used patterns to the user scope, archive stale memories.
/// Only what changed is written; a second run at the same moment changes nothing.
#[derive(Debug, Args)]
pub struct ConsolidateArgs {
    /// Rewrite every cluster summary, not only those of changed clusters
    #[arg(long)]
    pub full: bool,
    /// Compute and report; write nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Only these namespaces (repeat or comma-separate)
    #[arg(short = 'n', long = "namespace", value_name = "NS", value_delimiter = ',')]
    pub namespaces: Vec<String>,
    /// Only this domain's scope: project, user or org
    #[arg(long, value_name = "DOMAIN")]
    pub domain: Option<Domain>,
    /// Only memories created at or after
    #[arg(long, value_name = "TIME")]
    pub since: Option<String>,
    /// Only memories created before
    #[arg(long, value_name = "TIME")]
    pub until: Option<String>,
    /// Run only when due: enough new memories, the minimum interval elapsed, or the schedule
    /// fired (for cron and the Stop hook)
    #[arg(long)]
    pub if_due: bool,
    /// Use an LLM for summaries and supersession: off, auto (when a provider is set up) or
    /// required (fail without one)
    #[arg(long, default_value = "auto", value_parser = ["off", "auto", "required"])]
    pub llm: String,
    /// What started the run, recorded in the run log
    #[arg(long, default_value = "manual", value_parser = ["manual", "threshold", "schedule", "session_end"])]
    pub trigger: String,
}

/// Runs `consolidate`.
pub fn run(app: &App, args: ConsolidateArgs) -> CommandResult {
    let opts = ConsolidateOptions {
        full: args.full,
        dry_run: args.dry_run,
        namespaces: args
            .namespaces
            .iter()
            .map(|n| Namespace::parse(n))
            .collect::<Result<_, _>>()?,
        domain: args.domain,
        since: args.since.as_deref().map(parse_instant).transpose()?,
        until: args.until.as_deref().map(parse_instant).transpose()?,
        trigger: args.trigger,
        if_due: args.if_due,
        llm: match args.llm.as_str() {
            "off" => LlmMode::Off,
            "required" => LlmMode::Required,
            _ => LlmMode::Auto,
        },
    };
    let quiet = app.global.quiet || app.json();
    let mut bar: Option<(Phase, Progress)> = None;
    let outcomes = app.subcog()?.consolidate(&opts, &mut |phase, done, total| {
        if bar.as_ref().map(|(p, _)| *p) != Some(phase) {
            if let Some((_, b)) = bar.take() {
                b.finish();
            }
            bar = Some((phase, Progress::new(&format!("{phase:>12}"), quiet)));
        }
        if let Some((_, b)) = &bar {
            b.update(done, total);
        }
    })?;
    if let Some((_, b)) = bar.take() {
        b.finish();
    }
    if app.json() {
        return output::print_json(&serde_json::to_value(&outcomes).map_err(CommandError::internal)?);
    }
    let mut out = String::new();
    if outcomes.is_empty() {
        out.push_str("nothing to consolidate: no memories yet\n");
    }
    for o in &outcomes {
        match o {
            ScopeOutcome::Busy { scope } => {
                out.push_str(&format!("{scope}: another consolidation is running; nothing done\n"));
            }
            ScopeOutcome::NotDue { scope, reason } => out.push_str(&format!("{scope}: not due: {reason}\n")),
            ScopeOutcome::Completed { result: r, resumed } => {
                if let Some(id) = resumed {
                    out.push_str(&format!("finished interrupted run {id} first\n"));
                }
                let mut tiers = std::collections::BTreeMap::<String, usize>::new();
                for t in &r.tier_transitions {
                    *tiers.entry(format!("{} → {}", t.from_tier, t.to_tier)).or_default() += 1;
                }
                let ms: u64 = r.stage_ms.iter().map(|(_, ms)| ms).sum();
                out.push_str(&format!(
                    "{}{} ({}, {} ms)\n  scanned {} memories → {} clusters, {} summaries written\n  supersessions: {}   edges: {}   memories changed: {}\n",
                    if r.dry_run { "dry run, nothing written: " } else { "" },
                    r.scope,
                    r.run_id,
                    ms,
                    r.memories_processed,
                    r.clusters_found,
                    r.summaries_created,
                    r.supersessions_detected,
                    r.edges,
                    r.memories_changed
                ));
                if !tiers.is_empty() {
                    let list: Vec<String> = tiers.iter().map(|(k, v)| format!("{k}: {v}")).collect();
                    out.push_str(&format!("  tier changes: {}\n", list.join(", ")));
                }
                if let Some(l) = &r.llm {
                    out.push_str(&format!(
                        "  llm ({}): {} pairs judged, {} summaries, {} calls, {} tokens, ${:.4}{}\n",
                        l.providers.join(" → "),
                        l.pairs_judged,
                        l.summaries_written,
                        l.usage.calls,
                        l.usage.input_tokens + l.usage.output_tokens,
                        l.usage.cost_usd,
                        if l.fallbacks.is_empty() {
                            String::new()
                        } else {
                            format!(", {} fell back offline", l.fallbacks.len())
                        }
                    ));
                    if l.screened > 0 || !l.screen_held.is_empty() {
                        out.push_str(&format!(
                            "  quarantine: the llm screened {} memories and held {}{}\n",
                            l.screened,
                            l.screen_held.len(),
                            if l.screen_held.is_empty() {
                                String::new()
                            } else {
                                format!(" ({}; subcog review --quarantined)", l.screen_held.join(", "))
                            }
                        ));
                    }
                    if let Some(why) = &l.stopped {
                        out.push_str(&format!("  llm stopped: {why}\n"));
                    }
                }
                let mut counts = std::collections::BTreeMap::<&str, usize>::new();
                for a in &r.actions {
                    *counts.entry(a.action.as_str()).or_default() += 1;
                }
                if !counts.is_empty() {
                    let list: Vec<String> = counts.iter().map(|(k, v)| format!("{k} {v}")).collect();
                    out.push_str(&format!("  actions: {}\n", list.join(", ")));
                }
            }
        }
    }
    output::print(&out)
}

/// The outcome in a few lines of JSON: counts per stage, tier changes and actions by kind
/// (the MCP server's answer; the CLI's `--json` has every transition and action).
pub fn brief_json(outcomes: &[ScopeOutcome]) -> serde_json::Value {
    let scopes: Vec<serde_json::Value> = outcomes
        .iter()
        .map(|o| match o {
            ScopeOutcome::Busy { scope } => serde_json::json!({
                "scope": scope, "status": "busy", "reason": "another consolidation is running",
            }),
            ScopeOutcome::NotDue { scope, reason } => serde_json::json!({
                "scope": scope, "status": "not_due", "reason": reason,
            }),
            ScopeOutcome::Completed { result: r, resumed } => {
                let mut tiers = std::collections::BTreeMap::<String, usize>::new();
                for t in &r.tier_transitions {
                    *tiers.entry(format!("{}->{}", t.from_tier, t.to_tier)).or_default() += 1;
                }
                let mut actions = std::collections::BTreeMap::<&str, usize>::new();
                for a in &r.actions {
                    *actions.entry(a.action.as_str()).or_default() += 1;
                }
                serde_json::json!({
                    "scope": r.scope,
                    "status": "completed",
                    "run_id": r.run_id,
                    "dry_run": r.dry_run,
                    "resumed": resumed,
                    "memories_processed": r.memories_processed,
                    "clusters_found": r.clusters_found,
                    "summaries_created": r.summaries_created,
                    "supersessions_detected": r.supersessions_detected,
                    "edges": r.edges,
                    "memories_changed": r.memories_changed,
                    "tier_changes": tiers,
                    "actions": actions,
                    "llm": r.llm.as_ref().map(|l| serde_json::json!({
                        "providers": l.providers,
                        "calls": l.usage.calls,
                        "tokens": l.usage.input_tokens + l.usage.output_tokens,
                        "stopped": l.stopped,
                        "screened": l.screened,
                        "screen_held": l.screen_held,
                    })),
                    "ms": r.stage_ms.iter().map(|(_, ms)| ms).sum::<u64>(),
                })
            }
        })
        .collect();
    serde_json::json!({ "scopes": scopes })
}
