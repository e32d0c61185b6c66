//! The command line: global options and the list of commands. Each command's arguments
//! live beside its implementation in `commands/`.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

use crate::commands;

/// subcog: persistent memory for AI coding agents.
///
/// Captures what a project learns (decisions, learnings, patterns, blockers), keeps it in the
/// repository as git notes with a local index, and recalls it by meaning, keywords and time.
#[derive(Debug, Parser)]
#[command(name = "subcog", version, propagate_version = true, max_term_width = 100)]
pub struct Cli {
    /// Options accepted before or after the command.
    #[command(flatten)]
    pub global: GlobalArgs,
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// Options every command accepts, before or after its name.
#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// Data directory (overrides SUBCOG_DATA_DIR and the config file)
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Configuration file (default: ~/.config/subcog/config.toml; also SUBCOG_CONFIG)
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Print machine-readable JSON
    #[arg(long, global = true)]
    pub json: bool,
    /// More log output on stderr (-v info, -vv debug, -vvv trace; or SUBCOG_LOG)
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// Only errors on stderr
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// When to color output
    #[arg(long, global = true, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    pub color: ColorWhen,
}

/// When to use color.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Capture a memory (content from the argument or stdin)
    Capture(commands::capture::CaptureArgs),
    /// Recall memories relevant to a query
    #[command(visible_alias = "search")]
    Recall(commands::recall::RecallArgs),
    /// Show one memory with every field
    Get(commands::get::GetArgs),
    /// Why a memory is where it is (retention, tiers, supersession, activity), or why a query
    /// did or did not return it
    Explain(commands::explain::ExplainArgs),
    /// List memories, newest first
    List(commands::list::ListArgs),
    /// Change a memory's content, summary, namespace, tags or status
    Update(commands::update::UpdateArgs),
    /// Delete memories (soft by default; --hard --yes removes them for good)
    Delete(commands::delete::DeleteArgs),
    /// Counts by namespace, tier, domain and status; where the data lives
    Status(commands::status::StatusArgs),
    /// Check that subcog works here (storage, notes, model, LLM, Claude Code, disk,
    /// permissions), with a fix for each problem
    Doctor(commands::doctor::DoctorArgs),
    /// Operations run on this machine: counts, failures, durations, LLM tokens and cost
    Metrics(commands::metrics::MetricsArgs),
    /// Consolidate: tiers, clusters, summaries, supersession, graph (offline, or with an LLM)
    Consolidate(commands::consolidate::ConsolidateArgs),
    /// LLM providers for consolidation (check connectivity, latency, model)
    Llm(commands::llm::LlmArgs),
    /// Consolidation runs and their actions
    Runs(commands::runs::RunsArgs),
    /// The supersessions consolidation made, with reasons, to check or undo
    Review(commands::review::ReviewArgs),
    /// Tier distribution and recent tier changes
    Tiers(commands::tiers::TiersArgs),
    /// The memory graph around a memory (--dot for Graphviz)
    Edges(commands::edges::EdgesArgs),
    /// Cluster summaries written by consolidation
    Summaries(commands::summaries::SummariesArgs),
    /// Install, check or verify the offline embedding model
    Model(commands::model::ModelArgs),
    /// Rebuild the index from git notes, and embeddings
    Reindex(commands::reindex::ReindexArgs),
    /// Copy memories into another backend (PostgreSQL or SQLite) and verify the copy
    Migrate(commands::migrate::MigrateArgs),
    /// Check that the index and the git notes agree (--repair fixes)
    Verify(commands::verify::VerifyArgs),
    /// Share memories with a git remote: fetch, merge, push, index
    Sync(commands::sync::SyncArgs),
    /// Set subcog up for this project (--sync: share notes through a git remote)
    Init(commands::init::InitArgs),
    /// Measure retrieval quality on public benchmarks (LoCoMo)
    Eval(commands::eval::EvalArgs),
    /// Import memories from JSON Lines
    Import(commands::import::ImportArgs),
    /// Export memories as JSON Lines (every field)
    Export(commands::export::ExportArgs),
    /// Show the effective configuration, the example file, or its path
    Config(commands::config::ConfigArgs),
    /// Print the context a Claude Code session starts with
    Context(commands::context::ContextArgs),
    /// Serve the Model Context Protocol over stdio (or --http ADDR) for any agent
    Mcp(commands::mcp::McpArgs),
    /// Open the memory viewer: a local web page (127.0.0.1, a token in the URL)
    Ui(commands::ui::UiArgs),
    /// Serve hooks and reads from a warm process (started on demand; --stop stops it)
    Daemon(commands::daemon::DaemonArgs),
    /// Run a Claude Code hook: payload on stdin, Claude Code's JSON on stdout, always exit 0
    Hook(commands::hook::HookArgs),
    /// Print shell completions
    Completions(commands::completions::CompletionsArgs),
}
