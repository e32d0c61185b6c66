//! `subcog update`

use clap::Args;
use subcog_core::manage::UpdateRequest;
use subcog_core::model::{Priority, Status};

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;

/// Change a memory. Only the fields given change; updated_at is set to now.
#[derive(Debug, Args)]
pub struct UpdateArgs {
    /// The memory's id (or the short id session context shows)
    pub id: String,
    /// New content (secrets are redacted as at capture)
    #[arg(long)]
    pub content: Option<String>,
    /// New one-line summary ("" derives it from the content)
    #[arg(long)]
    pub summary: Option<String>,
    /// New namespace
    #[arg(short = 'n', long, value_name = "NS")]
    pub namespace: Option<String>,
    /// Replace all tags (repeat or comma-separate)
    #[arg(short = 't', long = "tag", value_name = "TAG", value_delimiter = ',')]
    pub tags: Option<Vec<String>>,
    /// Add tags
    #[arg(long = "add-tag", value_name = "TAG", value_delimiter = ',')]
    pub add_tags: Vec<String>,
    /// Remove tags
    #[arg(long = "remove-tag", value_name = "TAG", value_delimiter = ',')]
    pub remove_tags: Vec<String>,
    /// New source
    #[arg(long)]
    pub source: Option<String>,
    /// New importance (0.0 to 1.0)
    #[arg(long)]
    pub importance: Option<f32>,
    /// New priority: normal or critical
    #[arg(long)]
    pub priority: Option<Priority>,
    /// New status: active, superseded, archived, deleted
    #[arg(long)]
    pub status: Option<Status>,
    /// Accept a namespace that is not built in, configured or in use
    #[arg(long)]
    pub allow_new_namespace: bool,
    /// Undo this memory's supersession (`subcog review` lists them): it is current again,
    /// and consolidation will not mark it superseded by the same memory again
    #[arg(long)]
    pub not_superseded: bool,
}

/// Runs `update`.
pub fn run(app: &App, args: UpdateArgs) -> CommandResult {
    let request = UpdateRequest {
        content: args.content,
        summary: args.summary,
        namespace: args.namespace,
        tags: args.tags,
        add_tags: args.add_tags,
        remove_tags: args.remove_tags,
        source: args.source,
        importance: args.importance,
        priority: args.priority,
        status: args.status,
        allow_new_namespace: args.allow_new_namespace,
        not_superseded: args.not_superseded,
    };
    if request.is_empty() {
        return Err(CommandError::user(
            "nothing to update: pass at least one field to change (see --help)",
        ));
    }
    let subcog = app.subcog()?;
    let memory = subcog.update(&subcog.resolve_id(&args.id)?, request)?;
    if app.json() {
        return output::print_json(&output::memory_json(&memory, None));
    }
    output::print(&format!(
        "updated {}: {}\n",
        output::paint(output::HEADING, &memory.id.to_string()),
        memory.summary
    ))
}
