//! `subcog list`

use clap::Args;
use subcog_core::store::ListOrder;

use super::filters::FilterArgs;
use crate::app::App;
use crate::command_error::CommandResult;
use crate::output;

/// List memories, newest first.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Most memories to show (0: all)
    #[arg(short = 'l', long, default_value_t = 50)]
    pub limit: usize,
    /// Oldest first
    #[arg(long)]
    pub oldest_first: bool,
    /// Filters.
    #[command(flatten)]
    pub filters: FilterArgs,
}

/// Runs `list`.
pub fn run(app: &App, args: ListArgs) -> CommandResult {
    let order = if args.oldest_first {
        ListOrder::OldestFirst
    } else {
        ListOrder::NewestFirst
    };
    let limit = (args.limit > 0).then_some(args.limit);
    let memories = app
        .subcog()?
        .list(&args.filters.to_filter(app.subcog()?.clock().now())?, order, limit)?;
    if app.json() {
        return output::print_json(&serde_json::Value::Array(
            memories.iter().map(|m| output::memory_json(m, None)).collect(),
        ));
    }
    if memories.is_empty() {
        output::note("no memories");
        return Ok(());
    }
    let rows = output::memory_rows(memories.iter().map(|m| (m, None)));
    output::print(&output::table(&rows, &[output::ID, output::NAMESPACE]))
}
