//! `subcog delete`

use clap::Args;
use subcog_core::model::MemoryId;

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;

/// Delete memories.
///
/// By default a soft delete: the memory's status becomes "deleted", it leaves recall and
/// lists, stays in exports, and `update --status active` restores it. --hard removes it
/// and its enrichment for good, and needs --yes.
#[derive(Debug, Args)]
pub struct DeleteArgs {
    /// Ids of the memories to delete (or the short ids session context shows)
    #[arg(required = true)]
    pub ids: Vec<String>,
    /// Remove for good instead of marking deleted
    #[arg(long)]
    pub hard: bool,
    /// Confirm a hard delete
    #[arg(long)]
    pub yes: bool,
}

/// Runs `delete`.
pub fn run(app: &App, args: DeleteArgs) -> CommandResult {
    if args.hard && !args.yes {
        return Err(CommandError::user(
            "refusing to delete for good without --yes (or drop --hard for a soft delete)",
        ));
    }
    let subcog = app.subcog()?;
    let mut ids: Vec<MemoryId> = args
        .ids
        .iter()
        .map(|id| subcog.resolve_id(id))
        .collect::<Result<_, _>>()?;
    ids.sort();
    ids.dedup();
    // Check every id first so a typo in the last one does not leave the rest half done.
    for id in &ids {
        subcog.get(id)?;
    }
    let mut deleted = Vec::new();
    for id in &ids {
        let m = if args.hard {
            subcog.delete_hard(id)?
        } else {
            subcog.delete_soft(id)?
        };
        deleted.push(m);
    }
    if app.json() {
        return output::print_json(&serde_json::json!({
            "hard": args.hard,
            "deleted": deleted.iter().map(|m| m.id.to_string()).collect::<Vec<_>>(),
        }));
    }
    let how = if args.hard { "deleted for good" } else { "deleted" };
    let text: String = deleted
        .iter()
        .map(|m| {
            format!(
                "{how} {}: {}\n",
                output::paint(output::HEADING, &m.id.to_string()),
                m.summary
            )
        })
        .collect();
    output::print(&text)
}
