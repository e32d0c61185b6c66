//! `subcog init`

use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;
use subcog_core::ScopeKind;
use subcog_core::hooks::settings;

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;

/// Set subcog up for this project: Claude Code hooks, and optionally notes sync.
///
/// Writes subcog's hooks (SessionStart, UserPromptSubmit, PostToolUse, PreCompact, Stop,
/// SessionEnd, each `subcog hook <event>`) into the project's `.claude/settings.json`,
/// merging with what is there: other hooks and settings are kept, and running it again
/// changes nothing. --user writes them into `~/.claude/settings.json` for all projects.
/// --dry-run shows the change without writing it.
///
/// --sync configures a git remote for sharing memories: it adds the fetch refspec
/// `+refs/notes/mem*:refs/notes/remotes/<remote>/mem*`, so a plain `git fetch` also brings
/// your team's memories into tracking refs, ready for `subcog sync`. Push refspecs are
/// left alone. With --user it sets up the user notes repository instead, and --url sets
/// the remote's URL.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// Also configure notes sync with a git remote
    #[arg(long)]
    pub sync: bool,
    /// The remote to configure
    #[arg(long, default_value = "origin", requires = "sync")]
    pub remote: String,
    /// For all your projects: ~/.claude/settings.json (and the user notes repository with --sync)
    #[arg(long)]
    pub user: bool,
    /// Set the remote's URL (adding the remote when missing)
    #[arg(long, requires = "sync")]
    pub url: Option<String>,
    /// Leave Claude Code's settings alone
    #[arg(long)]
    pub no_hooks: bool,
    /// Show what would change, write nothing
    #[arg(long)]
    pub dry_run: bool,
}

/// Runs `init`.
pub fn run(app: &App, args: InitArgs) -> CommandResult {
    let mut report = serde_json::Map::new();
    let mut text = String::new();
    if !args.no_hooks {
        let path = settings_path(app, args.user)?;
        let (outcome, diff) = write_hooks(&path, args.dry_run)?;
        text.push_str(&match (outcome, args.dry_run) {
            (false, _) => format!("Claude Code hooks already set up in {}\n", path.display()),
            (true, true) => format!("would update {}:\n{diff}", path.display()),
            (true, false) => format!(
                "Claude Code hooks written to {} (restart Claude Code to load them)\n",
                path.display()
            ),
        });
        report.insert(
            "claude".into(),
            json!({"settings": path, "changed": outcome, "dry_run": args.dry_run, "diff": diff}),
        );
    }
    if args.sync && !args.dry_run {
        let scope = if args.user { ScopeKind::User } else { ScopeKind::Project };
        let setup = app.subcog()?.setup_sync(scope, &args.remote, args.url.as_deref())?;
        text.push_str(&format!(
            "{} remote {} ({}) in {}: fetch refspec {}\nrun `subcog sync{}{}` to exchange memories\n",
            if setup.added {
                "configured"
            } else {
                "already configured:"
            },
            setup.remote,
            setup.url,
            setup.repository,
            setup.refspec,
            if args.user { " --user" } else { "" },
            if setup.remote == "origin" {
                String::new()
            } else {
                format!(" --remote {}", setup.remote)
            },
        ));
        report.insert("sync".into(), serde_json::to_value(&setup).unwrap_or_default());
    }
    if report.is_empty() {
        return Err(CommandError::user("nothing to set up: drop --no-hooks or add --sync"));
    }
    if app.json() {
        return output::print_json(&serde_json::Value::Object(report));
    }
    output::print(&text)
}

/// `.claude/settings.json` of the project root, or of the home directory with `--user`.
fn settings_path(app: &App, user: bool) -> Result<PathBuf, CommandError> {
    if user {
        let home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .ok_or_else(|| CommandError::user("no home directory (HOME is not set)"))?;
        return Ok(home.join(".claude/settings.json"));
    }
    Ok(app.subcog()?.location().project_root.join(".claude/settings.json"))
}

/// Merges the hooks into `path`; returns whether it changed and a line diff.
fn write_hooks(path: &Path, dry_run: bool) -> Result<(bool, String), CommandError> {
    let existing = match std::fs::read_to_string(path) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(CommandError::user(format!("cannot read {}: {e}", path.display()))),
    };
    let exe = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "subcog".into());
    let exe = settings::shell_quote(&exe);
    let (text, changed) = settings::with_hooks(existing.as_deref(), &exe).map_err(|why| {
        CommandError::user(format!(
            "{} is not a settings file subcog can merge into ({why}); fix or move it and run init again",
            path.display()
        ))
    })?;
    let diff = line_diff(existing.as_deref().unwrap_or(""), &text);
    if changed && !dry_run {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| CommandError::user(format!("cannot create {}: {e}", dir.display())))?;
        }
        let tmp = path.with_extension("json.subcog-tmp");
        std::fs::write(&tmp, &text)
            .and_then(|_| std::fs::rename(&tmp, path))
            .map_err(|e| CommandError::user(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok((changed, diff))
}

/// A minimal unified-style diff: lines only in `old` prefixed `-`, only in `new` `+`,
/// in order (longest common subsequence; settings files are small).
fn line_diff(old: &str, new: &str) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            i += 1;
            j += 1;
        } else if j < b.len() && (i == a.len() || lcs[i][j + 1] >= lcs[i + 1][j]) {
            out.push_str(&format!("+{}\n", b[j]));
            j += 1;
        } else {
            out.push_str(&format!("-{}\n", a[i]));
            i += 1;
        }
    }
    out
}
