//! `subcog migrate`

use clap::{Args, ValueEnum};

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;
use crate::progress::Progress;
use subcog_core::copy::Target;

/// Which backend `--to` names.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Backend {
    /// A PostgreSQL database with pgvector (LOCATION is its URL)
    Postgres,
    /// SQLite files (LOCATION is a data directory; default: the configured one)
    Sqlite,
}

/// Copy this project's and the user's memories into another store, then verify the copy.
///
/// Copies every memory (all statuses, with enrichment), every vector, summaries, edges,
/// supersessions and run records of each scope that has memories. Each batch is one
/// transaction; running the command again resumes an interrupted copy (what is already
/// there is left alone). The source is never changed. Afterwards point subcog at the
/// target (`[storage] url`, SUBCOG_DATABASE_URL, or unset it to return to SQLite).
///
///   subcog migrate --to postgres postgres://me@db.internal/memory
///   SUBCOG_DATABASE_URL=postgres://… subcog migrate --to sqlite ~/.local/share/subcog
#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// The backend to copy into
    #[arg(long, value_enum)]
    pub to: Backend,
    /// The database URL (postgres) or data directory (sqlite)
    pub location: Option<String>,
}

/// Runs `migrate`.
pub fn run(app: &App, args: MigrateArgs) -> CommandResult {
    let subcog = app.subcog()?;
    let target = match (args.to, args.location) {
        (Backend::Postgres, Some(url)) => Target::Postgres(url),
        (Backend::Postgres, None) => {
            return Err(CommandError::user(
                "--to postgres needs the database URL: subcog migrate --to postgres URL",
            ));
        }
        (Backend::Sqlite, Some(dir)) => Target::Sqlite(dir.into()),
        (Backend::Sqlite, None) => Target::Sqlite(subcog.location().data_dir.clone()),
    };
    let quiet = app.global.quiet || app.json();
    let bar = Progress::new("copying memories", quiet);
    let reports = subcog.migrate(&target, &mut |_, done, total| bar.update(done, total))?;
    bar.finish();
    let failed = reports
        .iter()
        .any(|(_, r)| !r.differences.is_empty() || !r.conflicts.is_empty());
    if app.json() {
        let scopes: Vec<serde_json::Value> = reports
            .iter()
            .map(|(kind, r)| {
                let mut v = serde_json::to_value(r).unwrap_or_default();
                v["scope"] = serde_json::Value::String(kind.as_str().into());
                v
            })
            .collect();
        output::print_json(&serde_json::json!({ "scopes": scopes, "verified": !failed }))?;
    } else {
        let mut text = String::new();
        if reports.is_empty() {
            text.push_str("nothing to copy: no scope has memories here\n");
        }
        for (kind, r) in &reports {
            let vectors: usize = r.vectors.values().sum();
            text.push_str(&format!(
                "{} scope: {} → {}\n  {} memories ({} copied, {} updated, {} already there), {} vectors, \
                 {} summaries, {} edges, {} supersessions, {} runs\n  verify: {}\n",
                kind.as_str(),
                r.from,
                r.to,
                r.memories,
                r.inserted,
                r.replaced,
                r.unchanged,
                vectors,
                r.summaries,
                r.edges,
                r.supersessions,
                r.runs,
                if r.differences.is_empty() && r.conflicts.is_empty() {
                    "the target holds every memory and vector".to_string()
                } else {
                    format!("{} problems", r.differences.len() + r.conflicts.len())
                }
            ));
            for d in r.differences.iter().chain(&r.conflicts).take(20) {
                text.push_str(&format!("    {d}\n"));
            }
        }
        output::print(&text)?;
    }
    if failed {
        return Err(CommandError::user(
            "the copy is incomplete (listed above); run the same command again to resume",
        ));
    }
    Ok(())
}
