//! `subcog export`

use clap::Args;
use std::io::Write;
use std::path::PathBuf;

use subcog_core::transfer::to_jsonl_line;

use super::filters::FilterArgs;
use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;

/// Export memories as JSON Lines: one memory per line with every field, oldest first.
///
/// Includes every status (soft-deleted too) unless --status says otherwise; `subcog
/// import` reads the output back losslessly.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Write to this file instead of stdout (written whole, then renamed into place)
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Filters.
    #[command(flatten)]
    pub filters: FilterArgs,
}

/// Runs `export`.
pub fn run(app: &App, args: ExportArgs) -> CommandResult {
    let memories = app
        .subcog()?
        .export(&args.filters.to_filter(app.subcog()?.clock().now())?)?;
    let mut text = String::new();
    for m in &memories {
        text.push_str(&to_jsonl_line(m));
        text.push('\n');
    }
    match &args.output {
        None => output::print(&text),
        Some(path) => {
            write_atomically(path, text.as_bytes())
                .map_err(|e| CommandError::internal(anyhow::anyhow!("cannot write {}: {e}", path.display())))?;
            if app.json() {
                output::print_json(&serde_json::json!({"file": path, "exported": memories.len()}))
            } else {
                output::print(&format!("exported {} memories to {}\n", memories.len(), path.display()))
            }
        }
    }
}

/// Writes to a temporary file beside `path`, syncs it and renames it over `path`, so a
/// failure (a full disk) never leaves a truncated export behind.
fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("export"),
        std::process::id()
    ));
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
