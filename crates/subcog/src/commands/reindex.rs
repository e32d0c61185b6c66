//! `subcog reindex`

use clap::Args;

use crate::app::App;
use crate::command_error::CommandResult;
use crate::output;
use crate::progress::Progress;
use subcog_core::service::EmbedderState;

/// Rebuild the index from git notes, then embed what lacks a vector.
///
/// In a git repository (and for user memories in the user notes repository) the notes are
/// the durable record: `reindex` reads every note and writes the index from it, so a lost
/// or damaged database comes back whole. Notes that cannot be read are skipped with a
/// warning naming them; index rows without a note are kept (`subcog verify` lists them).
/// Then every memory without a vector of the installed model is embedded (when a model
/// is installed), and vectors of other models are removed.
///
/// --embeddings skips the notes and only embeds; --force re-embeds every memory.
#[derive(Debug, Args)]
pub struct ReindexArgs {
    /// Only recompute embeddings (do not read notes)
    #[arg(long)]
    pub embeddings: bool,
    /// Re-embed every memory, not only those missing a vector
    #[arg(long)]
    pub force: bool,
    /// Do not embed after rebuilding from notes
    #[arg(long, conflicts_with_all = ["embeddings", "force"])]
    pub no_embed: bool,
}

/// Runs `reindex`.
pub fn run(app: &App, args: ReindexArgs) -> CommandResult {
    let subcog = app.subcog()?;
    let quiet = app.global.quiet || app.json();
    let mut json = serde_json::Map::new();
    let mut text = String::new();
    if !args.embeddings {
        let bar = Progress::new("indexing notes", quiet);
        let report = subcog.reindex_from_notes(&mut |done, total| bar.update(done, total))?;
        bar.finish();
        for s in &report.scopes {
            for issue in &s.skipped {
                output::warn(&format!(
                    "skipped note {} in {}: {}",
                    issue.anchor, issue.refname, issue.reason
                ));
            }
            text.push_str(&format!(
                "{} notes ({}): {} read, {} added, {} updated, {} unchanged, {} duplicates, {} skipped\n",
                s.scope,
                s.repository,
                s.notes,
                s.inserted,
                s.replaced,
                s.unchanged,
                s.duplicates.len(),
                s.skipped.len()
            ));
            if !s.held.is_empty() {
                output::warn(&format!(
                    "{} notes new to this index read as instructions to the agent and are held in quarantine: `subcog review --quarantined` lists them",
                    s.held.len()
                ));
            }
        }
        if report.scopes.is_empty() {
            text.push_str("no git notes here (not a git repository, or storage.git_notes is off)\n");
        }
        json.insert("notes".into(), serde_json::to_value(&report).unwrap_or_default());
        if args.no_embed {
            return finish(app, json, text);
        }
    }
    match subcog.embedder_state() {
        EmbedderState::Ready(_) => {
            let bar = Progress::new("embedding", quiet);
            let report = subcog.reindex_embeddings(args.force, &mut |done, total| bar.update(done, total))?;
            bar.finish();
            text.push_str(&format!(
                "embedded {} memories with {} (removed {} vectors of other models)\n",
                report.embedded, report.model_id, report.removed_other_models
            ));
            json.insert("embeddings".into(), serde_json::to_value(&report).unwrap_or_default());
        }
        EmbedderState::Unavailable(why) if args.embeddings || args.force => {
            return Err(crate::command_error::CommandError::user(format!(
                "cannot embed: {why} (install the model with `subcog model install`)"
            )));
        }
        EmbedderState::Unavailable(why) => {
            text.push_str(&format!("embeddings skipped: {why}\n"));
            json.insert("embeddings_skipped".into(), serde_json::Value::String(why.clone()));
        }
    }
    finish(app, json, text)
}

fn finish(app: &App, json: serde_json::Map<String, serde_json::Value>, text: String) -> CommandResult {
    if app.json() {
        return output::print_json(&serde_json::Value::Object(json));
    }
    output::print(&text)
}
