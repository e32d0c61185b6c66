//! `subcog verify`

use clap::Args;

use crate::app::App;
use crate::command_error::{CommandError, CommandResult, ErrorKind};
use crate::output;

/// Check that the index and the git notes hold the same memories.
///
/// Lists memories with a note but no index row, index rows without a note, records whose
/// note and row disagree, and notes that cannot be read (damaged, too large, or from a
/// newer subcog). Exits 1 when anything is found, so it can guard a CI job.
///
/// --repair writes the missing side of each record (the newer version wins where they
/// disagree) and refreshes the metadata notes; it never deletes a memory.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Fix what can be fixed
    #[arg(long)]
    pub repair: bool,
}

/// Runs `verify`.
pub fn run(app: &App, args: VerifyArgs) -> CommandResult {
    let report = app.subcog()?.verify(args.repair)?;
    let problems = report.problems();
    if app.json() {
        let mut value = serde_json::to_value(&report).unwrap_or_default();
        if let Some(obj) = value.as_object_mut() {
            obj.insert("problems".into(), problems.into());
        }
        output::print_json(&value)?;
    } else {
        let mut out = String::new();
        if report.scopes.is_empty() {
            out.push_str("nothing to verify: no git notes here (not a git repository, or storage.git_notes is off)\n");
        }
        for s in &report.scopes {
            out.push_str(&format!(
                "{} ({}): {} notes, {} indexed\n",
                output::paint(output::HEADING, &s.scope),
                if s.repository.is_empty() {
                    "no repository yet"
                } else {
                    &s.repository
                },
                s.notes,
                s.indexed
            ));
            for (label, ids) in [
                ("in notes, not in the index", &s.notes_only),
                ("in the index, not in notes", &s.index_only),
                ("note and index differ", &s.differ),
            ] {
                if !ids.is_empty() {
                    out.push_str(&format!("  {label}: {}\n", ids.join(", ")));
                }
            }
            if !s.completed.is_empty() {
                out.push_str(&format!(
                    "  indexed from their notes (an interrupted write, or notes fetched by git): {}\n",
                    s.completed.join(", ")
                ));
            }
            for issue in &s.invalid {
                out.push_str(&format!(
                    "  unreadable note {} in {}: {}\n",
                    issue.anchor, issue.refname, issue.reason
                ));
            }
            for (note, held) in &s.duplicates {
                out.push_str(&format!(
                    "  note {note} repeats the content of {held} (not indexed twice)\n"
                ));
            }
            if let Some(r) = &s.repaired {
                out.push_str(&format!(
                    "  repaired: {} indexed from notes, {} notes written, {} metadata notes refreshed\n",
                    r.indexed, r.noted, r.meta
                ));
            }
        }
        out.push_str(&match (problems, args.repair) {
            (0, _) => "ok: index and notes agree\n".to_string(),
            (n, false) => format!("{n} problems found; run `subcog verify --repair`\n"),
            (n, true) => format!("{n} problems found and repaired where possible\n"),
        });
        output::print(&out)?;
    }
    if problems > 0 && !args.repair {
        return Err(CommandError::silent(ErrorKind::NotFound));
    }
    Ok(())
}
