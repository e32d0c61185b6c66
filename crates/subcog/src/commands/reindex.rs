//! `subcog reindex`

use clap::Args;

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;
use crate::progress::Progress;

/// Rebuild derived indexes.
///
/// --embeddings embeds every memory that has no vector of the installed model (after a
/// model change, an import without a model, or a failed embedding) and removes vectors of
/// any other model, so two models' vectors are never compared.
#[derive(Debug, Args)]
pub struct ReindexArgs {
    /// Recompute embeddings
    #[arg(long)]
    pub embeddings: bool,
    /// Re-embed every memory, not only those missing a vector
    #[arg(long, requires = "embeddings")]
    pub force: bool,
}

/// Runs `reindex`.
pub fn run(app: &App, args: ReindexArgs) -> CommandResult {
    if !args.embeddings {
        return Err(CommandError::user("nothing to rebuild: pass --embeddings"));
    }
    let bar = Progress::new("embedding", app.global.quiet || app.json());
    let report = app
        .subcog()?
        .reindex_embeddings(args.force, &mut |done, total| bar.update(done, total))?;
    bar.finish();
    if app.json() {
        return output::print_json(&serde_json::to_value(&report).unwrap_or_default());
    }
    output::print(&format!(
        "embedded {} memories with {} (removed {} vectors of other models)\n",
        report.embedded, report.model_id, report.removed_other_models
    ))
}
