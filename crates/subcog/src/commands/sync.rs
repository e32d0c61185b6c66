//! `subcog sync`

use clap::Args;

use crate::app::App;
use crate::command_error::CommandResult;
use crate::output;
use subcog_core::ScopeKind;

/// Share memories through a git remote: fetch, merge, push, index.
///
/// Fetches the remote's notes into refs/notes/remotes/<remote>/…, merges them record by
/// record (the newer version of a memory wins; the other stays in the notes history;
/// different memories are unioned), pushes the result, and indexes what arrived. Recall
/// counts are flushed to refs/notes/mem-meta first. Uses your `git` for the network, so
/// your SSH keys and credential helpers apply; it never prompts.
///
/// With --user, syncs the user-domain memories in the user notes repository (set its
/// remote once with `subcog init --sync --user --url URL`).
#[derive(Debug, Args)]
pub struct SyncArgs {
    /// The remote to sync with
    #[arg(long, default_value = "origin")]
    pub remote: String,
    /// Sync the user notes repository instead of the project's
    #[arg(long)]
    pub user: bool,
}

/// Runs `sync`.
pub fn run(app: &App, args: SyncArgs) -> CommandResult {
    let scope = if args.user { ScopeKind::User } else { ScopeKind::Project };
    let report = app.subcog()?.sync(scope, &args.remote)?;
    if app.json() {
        return output::print_json(&serde_json::to_value(&report).unwrap_or_default());
    }
    let mut out = format!(
        "synced {} notes with {} ({} round{})\n",
        report.scope,
        report.remote,
        report.rounds,
        if report.rounds == 1 { "" } else { "s" }
    );
    for r in &report.refs {
        let m = &r.merge;
        if m.added + m.updated + m.combined + m.kept_local + m.redacted + m.issues.len() > 0 {
            out.push_str(&format!(
                "  {}: {} new, {} updated from remote, {} combined, {} kept ours, {} redacted\n",
                r.refname, m.added, m.updated, m.combined, m.kept_local, m.redacted
            ));
        }
        for issue in &m.issues {
            output::warn(&format!("note {} in {}: {}", issue.anchor, issue.refname, issue.reason));
        }
    }
    let i = &report.indexed;
    out.push_str(&format!(
        "  indexed {} new and {} changed memories; pushed {}\n",
        i.inserted,
        i.replaced,
        if report.pushed.is_empty() {
            "nothing".to_string()
        } else {
            report.pushed.join(", ")
        }
    ));
    if !report.quarantined.is_empty() {
        output::warn(&format!(
            "{} arriving memories read as instructions to the agent and are held in quarantine \
             ({}): `subcog review --quarantined` lists them",
            report.quarantined.len(),
            report.quarantined.join(", ")
        ));
    }
    if report.embedded > 0 {
        out.push_str(&format!("  embedded {} memories\n", report.embedded));
    }
    output::print(&out)
}
