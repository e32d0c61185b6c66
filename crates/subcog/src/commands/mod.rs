//! One file per command: its `Args` (whose doc comments are the `--help`) and its `run`.

pub mod capture;
pub mod completions;
pub mod config;
pub mod consolidate;
pub mod context;
pub mod daemon;
pub mod delete;
pub mod doctor;
pub mod edges;
pub mod eval;
pub mod explain;
pub mod export;
pub mod get;
pub mod hook;
pub mod import;
pub mod init;
pub mod list;
pub mod llm;
pub mod mcp;
pub mod metrics;
pub mod migrate;
pub mod model;
pub mod recall;
pub mod reindex;
pub mod review;
pub mod runs;
pub mod status;
pub mod summaries;
pub mod sync;
pub mod tiers;
pub mod ui;
pub mod update;
pub mod verify;

pub(crate) mod filters;

use crate::app::App;
use crate::cli::Command;
use crate::command_error::CommandResult;

/// Runs one command.
pub fn run(app: &App, command: Command) -> CommandResult {
    let result = run_command(app, command);
    // Told once, after the command's own output (an unreadable index rebuilt from notes).
    if let Some(subcog) = app.built_subcog() {
        for notice in subcog.take_notices() {
            crate::output::warn(&notice);
        }
    }
    result
}

fn run_command(app: &App, command: Command) -> CommandResult {
    match command {
        Command::Capture(args) => capture::run(app, args),
        Command::Recall(args) => recall::run(app, args),
        Command::Get(args) => get::run(app, args),
        Command::Explain(args) => explain::run(app, args),
        Command::List(args) => list::run(app, args),
        Command::Update(args) => update::run(app, args),
        Command::Delete(args) => delete::run(app, args),
        Command::Status(args) => status::run(app, args),
        Command::Doctor(args) => doctor::run(app, args),
        Command::Metrics(args) => metrics::run(app, args),
        Command::Model(args) => model::run(app, args),
        Command::Eval(args) => eval::run(app, args),
        Command::Reindex(args) => reindex::run(app, args),
        Command::Migrate(args) => migrate::run(app, args),
        Command::Import(args) => import::run(app, args),
        Command::Init(args) => init::run(app, args),
        Command::Sync(args) => sync::run(app, args),
        Command::Verify(args) => verify::run(app, args),
        Command::Export(args) => export::run(app, args),
        Command::Config(args) => config::run(app, args),
        Command::Consolidate(args) => consolidate::run(app, args),
        Command::Runs(args) => runs::run(app, args),
        Command::Review(args) => review::run(app, args),
        Command::Llm(args) => llm::run(app, args),
        Command::Tiers(args) => tiers::run(app, args),
        Command::Edges(args) => edges::run(app, args),
        Command::Summaries(args) => summaries::run(app, args),
        Command::Context(args) => context::run(app, args),
        Command::Mcp(args) => mcp::run(app, args),
        Command::Ui(args) => ui::run(app, args),
        Command::Daemon(args) => daemon::run(app, args),
        Command::Completions(args) => completions::run(args),
        // Hooks run before the App exists (main.rs): they must answer even when it cannot be built.
        Command::Hook(_) => Ok(()),
    }
}
