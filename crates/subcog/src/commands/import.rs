//! `subcog import`

use clap::Args;
use std::io::Read;
use std::path::PathBuf;

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;

/// Import memories from JSON Lines.
///
/// Reads `subcog export` output (every field is kept, ids included) or minimal records
/// from other tools: one JSON object per line with "content" required and optional
/// "namespace", "tags", "source", "summary", "created_at" (or "timestamp"), "domain",
/// "importance", "priority", "status", "context". Turns of a conversation carry
/// "conversation" (or "session_id") and "speaker" (or "role"): each is stored as
/// `speaker: text`, with the two turns before it and the one after as its context
/// (searched at low weight) unless it brings one. The whole file is checked before anything is
/// written; a bad line stops the import with its line number. Records are then committed in
/// batches: an interrupted import keeps the batches it committed, and running it again
/// finishes it, skipping what is stored. Duplicates (same id, or the same content in the
/// same namespace and domain) are skipped.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The JSONL file ("-" or absent: stdin)
    pub file: Option<PathBuf>,
    /// Report what would be imported without writing
    #[arg(long)]
    pub dry_run: bool,
    /// Accept namespaces in minimal records that are not built in, configured or in use
    #[arg(long)]
    pub allow_new_namespace: bool,
    /// Records committed together (one transaction and one notes commit each)
    #[arg(long, default_value_t = subcog_core::transfer::DEFAULT_IMPORT_BATCH as u64, value_parser = clap::value_parser!(u64).range(1..))]
    pub batch_size: u64,
}

/// Runs `import`.
pub fn run(app: &App, args: ImportArgs) -> CommandResult {
    let text = match &args.file {
        Some(path) if path.as_os_str() != "-" => std::fs::read_to_string(path)
            .map_err(|e| CommandError::user(format!("cannot read {}: {e}", path.display())))?,
        _ => {
            let mut text = String::new();
            std::io::stdin()
                .lock()
                .read_to_string(&mut text)
                .map_err(|e| CommandError::user(format!("cannot read stdin: {e}")))?;
            text
        }
    };
    let bar = crate::progress::Progress::new("importing", app.global.quiet || app.json());
    let options = subcog_core::transfer::ImportOptions {
        dry_run: args.dry_run,
        allow_new_namespace: args.allow_new_namespace,
        batch_size: usize::try_from(args.batch_size).unwrap_or(usize::MAX),
    };
    let report = app
        .subcog()?
        .import_with_progress(&text, &options, &mut |d, t| bar.update(d, t))?;
    bar.finish();
    if app.json() {
        return output::print_json(&serde_json::to_value(&report).unwrap_or_default());
    }
    if report.quarantined > 0 {
        output::warn(&format!(
            "{} records read as instructions to the agent and are held in quarantine: \
             `subcog review --quarantined` lists them",
            report.quarantined
        ));
    }
    let prefix = if report.dry_run {
        "dry run: would import"
    } else {
        "imported"
    };
    output::print(&format!(
        "{prefix} {} of {} records ({} duplicate ids, {} duplicate content skipped; {} redacted)\n",
        report.imported, report.records, report.duplicate_ids, report.duplicate_content, report.redacted
    ))
}
