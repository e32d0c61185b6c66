//! `subcog recall` (alias `search`)

use clap::Args;
use subcog_core::recall::RecallQuery;

use super::filters::FilterArgs;
use crate::app::App;
use crate::command_error::CommandResult;
use crate::output;

/// Recall memories relevant to a query.
///
/// Searches the project's memories and your user memories. Filters apply before ranking,
/// so a filtered query still returns --limit results when that many match.
#[derive(Debug, Args)]
pub struct RecallArgs {
    /// What to look for (words or a question)
    #[arg(required = true, num_args = 1.., value_name = "QUERY")]
    pub query: Vec<String>,
    /// Most results to return (default: recall.default_limit, 10)
    #[arg(short = 'l', long)]
    pub limit: Option<usize>,
    /// Filters.
    #[command(flatten)]
    pub filters: FilterArgs,
}

/// Runs `recall`.
pub fn run(app: &App, args: RecallArgs) -> CommandResult {
    let query = args.query.join(" ");
    let result = app.subcog()?.recall(&RecallQuery {
        query: query.clone(),
        filter: args.filters.to_filter()?,
        limit: args.limit,
    })?;
    if !result.semantic && !app.global.quiet {
        output::note("keyword recall only (no embedding model installed)");
    }
    if app.json() {
        return output::print_json(&serde_json::json!({
            "query": query,
            "terms": result.terms,
            "semantic": result.semantic,
            "count": result.results.len(),
            "results": result.results.iter().map(|r| output::memory_json(&r.memory, Some(r.score))).collect::<Vec<_>>(),
        }));
    }
    if result.results.is_empty() {
        output::note("no memories match");
        return Ok(());
    }
    let rows = output::memory_rows(result.results.iter().map(|r| (&r.memory, Some(r.score))));
    output::print(&output::table(
        &rows,
        &[output::ID, output::NAMESPACE, Default::default(), output::SCORE],
    ))
}
