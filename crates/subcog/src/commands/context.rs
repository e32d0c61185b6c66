//! `subcog context`

use std::path::PathBuf;

use clap::Args;
use subcog_core::context::{ContextRequest, summaries};

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;

/// Print the context a Claude Code session starts with (what the SessionStart hook injects).
///
/// The `<subcog-context>` block holds this project's and your user memories down to
/// context.min_tier, HOT first, grouped by namespace, within a token budget that grows
/// with the project; the `<memory_consolidated_summaries>` block holds consolidation's
/// summaries within a budget of its own. Tokens are counted with the cl100k tokenizer.
#[derive(Debug, Args)]
pub struct ContextArgs {
    /// Merge into this existing context: earlier subcog blocks are replaced, the rest kept
    #[arg(long, value_name = "FILE")]
    pub existing: Option<PathBuf>,
    /// Base token budget instead of context.base_token_budget
    #[arg(long, value_name = "TOKENS")]
    pub budget: Option<usize>,
}

/// Runs `context`.
pub fn run(app: &App, args: ContextArgs) -> CommandResult {
    let subcog = app.subcog()?;
    let existing = match &args.existing {
        // Relative to the caller, also when the warm process runs this.
        Some(path) => std::fs::read_to_string(app.env.cwd.join(path))
            .map_err(|e| CommandError::user(format!("cannot read {}: {e}", path.display())))?,
        None => String::new(),
    };
    let project = Some(app.env.cwd.display().to_string());
    let ctx = subcog.session_context(&ContextRequest {
        project,
        base_budget: args.budget,
    })?;
    let merged = summaries::inject(&existing, &[&ctx.context_block, &ctx.summary_block]);
    if app.json() {
        let mut v = serde_json::to_value(&ctx).unwrap_or_default();
        if let Some(map) = v.as_object_mut() {
            map.insert("context".into(), serde_json::json!(merged.context));
            map.insert("replaced_existing".into(), serde_json::json!(merged.replaced_existing));
        }
        return output::print_json(&v);
    }
    output::note(&format!(
        "{} memories in {}/{} tokens ({}), {} summaries in {}/{} tokens",
        ctx.included.len(),
        ctx.tokens_used,
        ctx.budget,
        ctx.complexity.as_str(),
        ctx.summaries,
        ctx.summary_tokens,
        ctx.summary_budget
    ));
    output::print(&format!("{}\n", merged.context))
}
