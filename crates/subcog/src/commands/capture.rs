//! `subcog capture`

use clap::Args;
use std::io::{IsTerminal, Read};
use subcog_core::capture::CaptureRequest;
use subcog_core::model::{Domain, Priority};
use subcog_core::secrets::SecretPolicy;
use subcog_core::timestamp::parse_instant;

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;

/// Capture a memory.
///
/// The content comes from the argument, or from stdin when the argument is absent or "-".
/// Secrets are replaced with [REDACTED:kind] before anything is stored (or the capture is
/// refused with --on-secret block). Capturing the same text again in the same namespace
/// returns the existing memory.
#[derive(Debug, Args)]
pub struct CaptureArgs {
    /// The memory text ("-" or absent: read stdin)
    pub content: Option<String>,
    /// Namespace: decisions, learnings, patterns, blockers, context, observations, ...
    #[arg(short = 'n', long, default_value = "context", value_name = "NS")]
    pub namespace: String,
    /// Tags (repeat or comma-separate)
    #[arg(short = 't', long = "tag", value_name = "TAG", value_delimiter = ',')]
    pub tags: Vec<String>,
    /// One-line summary (derived from the content when absent)
    #[arg(long)]
    pub summary: Option<String>,
    /// project (default), user or org
    #[arg(long, default_value = "project")]
    pub domain: Domain,
    /// Importance from 0.0 to 1.0
    #[arg(long)]
    pub importance: Option<f32>,
    /// normal or critical (critical memories are never demoted below WARM)
    #[arg(long, default_value = "normal")]
    pub priority: Priority,
    /// Where this came from (file, URL, ticket)
    #[arg(long)]
    pub source: Option<String>,
    /// Record this time instead of now (2023-05-08, 2023-05-08 14:30, RFC 3339)
    #[arg(long, value_name = "TIME")]
    pub at: Option<String>,
    /// Who captures (default: capture.created_by from the config, "user")
    #[arg(long, value_name = "WHO")]
    pub created_by: Option<String>,
    /// Accept a namespace that is not built in, configured or in use
    #[arg(long)]
    pub allow_new_namespace: bool,
    /// What to do with secrets: redact (default from config) or block
    #[arg(long, value_name = "POLICY")]
    pub on_secret: Option<SecretPolicy>,
    /// Surrounding text (e.g. the conversation around it), searched at low weight, not shown
    #[arg(long, value_name = "TEXT")]
    pub context: Option<String>,
    /// The memory this one follows (id or short id): its text is searched with this one,
    /// as the previous turn of a conversation
    #[arg(long, value_name = "ID")]
    pub follows: Option<String>,
}

/// Runs `capture`.
pub fn run(app: &App, args: CaptureArgs) -> CommandResult {
    let content = match args.content.as_deref() {
        Some(text) if text != "-" => text.to_string(),
        _ => read_stdin()?,
    };
    let outcome = app.subcog()?.capture(CaptureRequest {
        content,
        namespace: args.namespace,
        summary: args.summary,
        domain: args.domain,
        tags: args.tags,
        source: args.source,
        importance: args.importance,
        priority: args.priority,
        created_by: args.created_by,
        at: args.at.as_deref().map(parse_instant).transpose()?,
        allow_new_namespace: args.allow_new_namespace,
        on_secret: args.on_secret,
        context: args.context,
        follows: args.follows,
        screen: true,
    })?;
    if !outcome.redactions.is_empty() {
        let kinds: Vec<String> = outcome
            .redactions
            .iter()
            .map(|r| format!("{} {}", r.count, r.kind))
            .collect();
        output::note(&format!("redacted secrets before storing: {}", kinds.join(", ")));
    }
    if let Some(v) = &outcome.quarantine {
        output::warn(&format!(
            "held in quarantine: it reads as an instruction to the agent ({}); it is never injected \
             into sessions. Review with `subcog review --quarantined`, release with \
             `subcog update {} --status active`",
            v.summary(),
            outcome.memory.id
        ));
    }
    if app.json() {
        return output::print_json(&serde_json::json!({
            "id": outcome.memory.id.to_string(),
            "duplicate": outcome.duplicate,
            "redactions": outcome.redactions,
            "quarantine": outcome.quarantine,
            "memory": output::memory_json(&outcome.memory, None),
        }));
    }
    let m = &outcome.memory;
    let verb = if outcome.duplicate {
        "already stored as"
    } else {
        "captured"
    };
    output::print(&format!(
        "{verb} {} in {}: {}\n",
        output::paint(output::HEADING, &m.id.to_string()),
        output::paint(output::NAMESPACE, m.namespace.as_str()),
        m.summary
    ))
}

fn read_stdin() -> Result<String, CommandError> {
    // In the warm process: what the client read from its own stdin.
    if let Some(text) = crate::output::forwarded_stdin() {
        return Ok(text);
    }
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(CommandError::user(
            "no content: pass it as an argument or pipe it on stdin",
        ));
    }
    let mut text = String::new();
    stdin
        .lock()
        .read_to_string(&mut text)
        .map_err(|e| CommandError::user(format!("cannot read stdin: {e}")))?;
    Ok(text)
}
