//! `subcog tiers`

use clap::Args;
use subcog_core::ScopeKind;
use subcog_core::model::Tier;

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;

/// Tier distribution and the latest tier changes.
///
/// HOT memories are always in session context, WARM when relevant, COLD only on a direct
/// (`--mode deep`) query, ARCHIVED only with `--mode exhaustive`.
#[derive(Debug, Args)]
pub struct TiersArgs {
    /// How many recent transitions to show
    #[arg(long, default_value_t = 20)]
    pub transitions: usize,
}

/// Runs `tiers`.
pub fn run(app: &App, args: TiersArgs) -> CommandResult {
    let subcog = app.subcog()?;
    let (status, transitions) = collect(subcog, args.transitions)?;
    if app.json() {
        return output::print_json(&to_json(&status, &transitions)?);
    }
    let total: u64 = status.by_tier.values().sum();
    let mut out = String::new();
    for t in Tier::ALL {
        let n = status.by_tier.get(t.as_str()).copied().unwrap_or(0);
        let width = if total == 0 {
            0
        } else {
            (n * 40).div_ceil(total) as usize
        };
        out.push_str(&format!("{:<9} {:>6}  {}\n", t.as_str(), n, "█".repeat(width)));
    }
    if !transitions.is_empty() {
        out.push('\n');
        out.push_str(&output::paint(output::HEADING, "recent transitions"));
        out.push('\n');
        for r in &transitions {
            let t = &r.transition;
            out.push_str(&format!(
                "  {}  {}  {} → {}  ({})\n",
                output::human_time(r.at),
                output::paint(output::ID, &t.memory_id),
                t.from_tier,
                t.to_tier,
                t.reason
            ));
        }
    }
    output::print(&out)
}

/// The tier counts and the latest `limit` transitions of every scope, newest first.
pub fn collect(
    subcog: &subcog_core::Subcog,
    limit: usize,
) -> Result<
    (
        subcog_core::manage::StatusReport,
        Vec<subcog_core::store::RecordedTransition>,
    ),
    CommandError,
> {
    let status = subcog.status()?;
    let mut transitions = Vec::new();
    for scope in [ScopeKind::Project, ScopeKind::User] {
        if let Some(store) = subcog.store_for_read(scope)? {
            transitions.extend(store.transitions(limit)?);
        }
    }
    transitions.sort_by_key(|t| std::cmp::Reverse(t.at));
    transitions.truncate(limit);
    Ok((status, transitions))
}

/// Distribution, budget multipliers and transitions as JSON (CLI `--json`, MCP `tiers`).
pub fn to_json(
    status: &subcog_core::manage::StatusReport,
    transitions: &[subcog_core::store::RecordedTransition],
) -> Result<serde_json::Value, CommandError> {
    Ok(serde_json::json!({
        "distribution": Tier::ALL.iter().map(|t| (t.as_str(), status.by_tier.get(t.as_str()).copied().unwrap_or(0))).collect::<std::collections::BTreeMap<_, _>>(),
        "budget_multipliers": Tier::ALL.iter().map(|t| (t.as_str(), t.budget_multiplier())).collect::<std::collections::BTreeMap<_, _>>(),
        "transitions": serde_json::to_value(transitions).map_err(CommandError::internal)?,
    }))
}
