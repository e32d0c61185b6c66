//! `subcog runs`

use clap::Args;
use subcog_core::ScopeKind;

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;

/// List consolidation runs and what they did.
#[derive(Debug, Args)]
pub struct RunsArgs {
    /// How many runs per scope
    #[arg(long, default_value_t = 10)]
    pub limit: usize,
    /// Show every action of each run
    #[arg(long)]
    pub actions: bool,
}

/// Runs `runs`.
pub fn run(app: &App, args: RunsArgs) -> CommandResult {
    let subcog = app.subcog()?;
    let mut all = Vec::new();
    for scope in [ScopeKind::Project, ScopeKind::User] {
        all.extend(subcog.runs(scope, args.limit)?);
    }
    all.sort_by_key(|r| std::cmp::Reverse(r.started_at));
    if app.json() {
        return output::print_json(&serde_json::to_value(&all).map_err(CommandError::internal)?);
    }
    if all.is_empty() {
        return output::print("no consolidation runs yet (run `subcog consolidate`)\n");
    }
    let mut out = String::new();
    for r in &all {
        out.push_str(&format!(
            "{}  {}  {}  {}{}: {} memories, {} clusters, {} supersessions, {} tier changes, {} actions\n",
            output::paint(output::ID, &r.run_id),
            output::human_time(r.started_at),
            r.phase,
            r.scope,
            if r.dry_run { " (dry run)" } else { "" },
            r.memories_processed,
            r.clusters_found,
            r.supersessions_detected,
            r.tier_transitions.len(),
            r.actions.len()
        ));
        if args.actions {
            for a in &r.actions {
                out.push_str(&format!("    {} {}: {}\n", a.action, a.memory_ids.join(", "), a.reason));
            }
            for t in &r.tier_transitions {
                out.push_str(&format!(
                    "    tier {} {} → {}: {}\n",
                    t.memory_id, t.from_tier, t.to_tier, t.reason
                ));
            }
        }
    }
    output::print(&out)
}
