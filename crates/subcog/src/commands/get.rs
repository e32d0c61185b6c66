//! `subcog get`

use clap::Args;
use subcog_core::model::Memory;

use crate::app::App;
use crate::command_error::CommandResult;
use crate::output;

/// Show one memory with every field.
#[derive(Debug, Args)]
pub struct GetArgs {
    /// The memory's id (or the short id session context shows)
    pub id: String,
}

/// Runs `get`.
pub fn run(app: &App, args: GetArgs) -> CommandResult {
    let subcog = app.subcog()?;
    let memory = subcog.get(&subcog.resolve_id(&args.id)?)?;
    if app.json() {
        return output::print_json(&output::memory_json(&memory, None));
    }
    output::print(&render(&memory))
}

fn render(m: &Memory) -> String {
    let opt = |v: Option<String>| v.unwrap_or_else(|| "-".into());
    let rows = vec![
        vec!["id".into(), m.id.to_string()],
        vec!["summary".into(), m.summary.clone()],
        vec!["namespace".into(), m.namespace.to_string()],
        vec!["domain".into(), m.domain.to_string()],
        vec![
            "tags".into(),
            if m.tags.is_empty() {
                "-".into()
            } else {
                m.tags.join(", ")
            },
        ],
        vec!["source".into(), opt(m.source.clone())],
        vec!["importance".into(), opt(m.importance.map(|i| format!("{i:.2}")))],
        vec!["priority".into(), m.priority.to_string()],
        vec!["status".into(), m.status.to_string()],
        vec![
            "created".into(),
            format!("{} by {}", m.created_at.to_rfc3339(), m.created_by),
        ],
        vec!["updated".into(), m.updated_at.to_rfc3339()],
        vec![
            "tier".into(),
            format!(
                "{} (retention {:.2}: recency {:.2}, activation {:.2}, importance {:.2}, penalty {:.2})",
                m.tier,
                m.retention.overall,
                m.retention.recency,
                m.retention.activation,
                m.retention.importance,
                m.retention.supersession_penalty
            ),
        ],
        vec![
            "activations".into(),
            format!(
                "{} (last {})",
                m.activation_count,
                opt(m.last_accessed.map(|t| t.to_rfc3339()))
            ),
        ],
        vec!["superseded by".into(), opt(m.superseded_by.map(|i| i.to_string()))],
        vec!["cluster".into(), opt(m.cluster_id.clone())],
        vec!["event time".into(), event_time(m)],
    ];
    let mut out = output::table(&rows, &[output::HEADING]);
    out.push('\n');
    out.push_str(&m.content);
    out.push('\n');
    out
}

/// The resolved time references, separated by `; `: `"yesterday" → 2023-05-07 (day, 0.95)`.
fn event_time(m: &Memory) -> String {
    if m.time_refs.is_empty() {
        return "-".into();
    }
    m.time_refs
        .iter()
        .map(|r| {
            let when = match (r.start, r.end) {
                (Some(a), Some(b)) if a == b => a.to_string(),
                (Some(a), Some(b)) => format!("{a} – {b}"),
                _ => "not placed".into(),
            };
            format!(
                "\"{}\" → {when} ({}, {:.2})",
                r.text,
                r.granularity.as_str(),
                r.confidence
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}
