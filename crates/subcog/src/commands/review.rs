//! `subcog review`

use clap::Args;
use subcog_core::ScopeKind;

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;

/// What consolidation decided that a person may want to check: every memory it marked
/// superseded, with the memory that replaced it and the reason (subject, old and new
/// value, the rule and its evidence). Undo one with `subcog update OLD --not-superseded`;
/// the next run will not redo it.
#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// Only supersessions whose reason or either memory mentions this text
    #[arg(long)]
    pub grep: Option<String>,
}

/// Runs `review`.
pub fn run(app: &App, args: ReviewArgs) -> CommandResult {
    let subcog = app.subcog()?;
    let mut rows = Vec::new();
    for scope in [ScopeKind::Project, ScopeKind::User] {
        let Some(store) = subcog.store_for_read(scope)? else {
            continue;
        };
        for s in store.supersessions()? {
            let get = |id: &str| -> Option<subcog_core::model::Memory> {
                id.parse().ok().and_then(|id| store.get(&id).ok().flatten())
            };
            let (Some(old), Some(new)) = (get(&s.superseded_id), get(&s.superseder_id)) else {
                continue;
            };
            if let Some(needle) = &args.grep {
                let needle = needle.to_lowercase();
                let hay = format!("{} {} {}", old.content, new.content, s.reason).to_lowercase();
                if !hay.contains(&needle) {
                    continue;
                }
            }
            rows.push((scope, s, old, new));
        }
    }
    rows.sort_by_key(|r| std::cmp::Reverse(r.3.created_at));
    if app.json() {
        let out: Vec<serde_json::Value> = rows
            .iter()
            .map(|(scope, s, old, new)| {
                serde_json::json!({
                    "scope": scope.as_str(),
                    "superseded": output::memory_json(old, None),
                    "superseded_by": output::memory_json(new, None),
                    "kind": s.kind,
                    "confidence": s.confidence,
                    "method": s.method,
                    "reason": s.reason,
                })
            })
            .collect();
        return output::print_json(&serde_json::Value::Array(out));
    }
    if rows.is_empty() {
        return output::print("no supersessions to review (consolidation has not marked any memory superseded)\n");
    }
    let mut text = String::new();
    for (_, s, old, new) in &rows {
        text.push_str(&format!(
            "{} superseded by {}  [{}, {} {:.2}]\n  old: {}\n  new: {}\n  why: {}\n\n",
            output::paint(output::ID, &old.id.to_string()),
            output::paint(output::ID, &new.id.to_string()),
            s.kind,
            s.method,
            s.confidence,
            subcog_core::content::one_line(&old.content, 100),
            subcog_core::content::one_line(&new.content, 100),
            s.reason
        ));
    }
    text.push_str(&format!(
        "{} supersessions. Undo one: subcog update <old id> --not-superseded\n",
        rows.len()
    ));
    output::print(&text).map_err(|e: CommandError| e)
}
