//! `subcog summaries`

use clap::Args;
use subcog_core::ScopeKind;

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;

/// Cluster summaries written by consolidation: title, summary, key facts, decisions with
/// their reasons, superseded facts, the memories each stands for.
#[derive(Debug, Args)]
pub struct SummariesArgs {
    /// Show at most this many
    #[arg(long, default_value_t = 20)]
    pub limit: usize,
}

/// Runs `summaries`.
pub fn run(app: &App, args: SummariesArgs) -> CommandResult {
    let all = collect(app.subcog()?, args.limit)?;
    if app.json() {
        return output::print_json(&serde_json::to_value(&all).map_err(CommandError::internal)?);
    }
    if all.is_empty() {
        return output::print("no summaries yet (run `subcog consolidate`)\n");
    }
    let mut out = String::new();
    for s in &all {
        out.push_str(&format!(
            "{}  {}  [{}, {} memories, {} to {}, confidence {:.2}, {}]\n  {}\n",
            output::paint(output::ID, &s.id),
            output::paint(output::HEADING, &s.title),
            s.namespace,
            s.source_ids.len(),
            s.start.format("%Y-%m-%d"),
            s.end.format("%Y-%m-%d"),
            s.confidence,
            s.method,
            s.summary
        ));
        for f in &s.key_facts {
            out.push_str(&format!("  • {f}\n"));
        }
        for d in &s.decisions {
            let why = if d.rationale.is_empty() {
                String::new()
            } else {
                format!(" — {}", d.rationale)
            };
            out.push_str(&format!("  decision: {}{why}\n", d.decision));
        }
        for f in &s.superseded_facts {
            out.push_str(&format!("  outdated: {} (now: {})\n", f.original_fact, f.superseded_by));
        }
        out.push('\n');
    }
    output::print(&out)
}

/// At most `limit` summaries of every scope, project first.
pub fn collect(
    subcog: &subcog_core::Subcog,
    limit: usize,
) -> Result<Vec<subcog_core::model::MemorySummary>, CommandError> {
    let mut all = Vec::new();
    for scope in [ScopeKind::Project, ScopeKind::User] {
        if let Some(store) = subcog.store_for_read(scope)? {
            all.extend(store.summaries()?);
        }
    }
    all.truncate(limit);
    Ok(all)
}
