//! `subcog init`

use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;
use subcog_core::ScopeKind;
use subcog_core::hooks::mcp_config::{self, Registration};
use subcog_core::hooks::settings;

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;

/// Set subcog up for this project: Claude Code hooks, the MCP server, and optionally
/// notes sync.
///
/// Writes subcog's hooks (SessionStart, UserPromptSubmit, PostToolUse, PreCompact, Stop,
/// SessionEnd, each `subcog hook <event>`) into the project's `.claude/settings.json`, and
/// registers `subcog mcp` as the MCP server `subcog` in the project's `.mcp.json` (Claude
/// Code asks once before it starts a project's servers). Both merge with what is there:
/// other hooks, servers and settings are kept, and running it again changes nothing.
/// --user writes them into `~/.claude/settings.json` and `~/.claude.json` for all projects.
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
    /// For all your projects: ~/.claude/settings.json, ~/.claude.json (and the user notes repository with --sync)
    #[arg(long)]
    pub user: bool,
    /// Set the remote's URL (adding the remote when missing)
    #[arg(long, requires = "sync")]
    pub url: Option<String>,
    /// Leave Claude Code's hooks alone
    #[arg(long)]
    pub no_hooks: bool,
    /// Do not register the MCP server
    #[arg(long)]
    pub no_mcp: bool,
    /// Show what would change, write nothing
    #[arg(long)]
    pub dry_run: bool,
}

/// Runs `init`.
pub fn run(app: &App, args: InitArgs) -> CommandResult {
    let mut report = serde_json::Map::new();
    let mut text = String::new();
    let program = program_path();
    if !args.no_hooks {
        let path = claude_path(app, args.user, ".claude/settings.json")?;
        let exe = settings::shell_quote(&program);
        let (changed, diff) = merge_file(&path, args.dry_run, |existing| {
            let (text, changed) = settings::with_hooks(existing, &exe)?;
            Ok(changed.then_some(text))
        })?;
        text.push_str(&match (changed, args.dry_run) {
            (false, _) => format!("Claude Code hooks already set up in {}\n", path.display()),
            (true, true) => format!("would update {}:\n{diff}", path.display()),
            (true, false) => format!(
                "Claude Code hooks written to {} (restart Claude Code to load them)\n",
                path.display()
            ),
        });
        report.insert(
            "claude".into(),
            json!({"settings": path, "changed": changed, "dry_run": args.dry_run, "diff": diff}),
        );
    }
    if !args.no_mcp {
        let path = if args.user {
            claude_path(app, true, ".claude.json")?
        } else {
            claude_path(app, false, ".mcp.json")?
        };
        let mut conflict = None;
        let (changed, diff) = merge_file(&path, args.dry_run, |existing| {
            match mcp_config::with_mcp_server(existing, &program)? {
                Registration::Changed(text) => Ok(Some(text)),
                Registration::Unchanged => Ok(None),
                Registration::Conflict(why) => {
                    conflict = Some(why);
                    Ok(None)
                }
            }
        })?;
        text.push_str(&match (&conflict, changed, args.dry_run) {
            (Some(why), _, _) => {
                format!(
                    "MCP server not registered: {why} in {} (left as it is)\n",
                    path.display()
                )
            }
            (None, false, _) => format!("MCP server already registered in {}\n", path.display()),
            (None, true, true) => format!("would update {}:\n{diff}", path.display()),
            (None, true, false) => format!(
                "MCP server `{} mcp` registered in {}\n",
                settings::shell_quote(&program),
                path.display()
            ),
        });
        report.insert(
            "mcp".into(),
            json!({
                "config": path,
                "server": mcp_config::SERVER_NAME,
                "command": program,
                "changed": changed,
                "dry_run": args.dry_run,
                "diff": diff,
                "conflict": conflict,
            }),
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
    if !args.no_hooks {
        // A plugin (or the other settings file) registering subcog too would run every
        // hook twice.
        let (found, warning) = app.hook_registrations()?;
        if let Some(w) = &warning {
            text.push_str(&format!("warning: {w}\n"));
        }
        report.insert(
            "registrations".into(),
            json!({"found": found, "double_registration": warning}),
        );
    }
    if report.is_empty() {
        return Err(CommandError::user(
            "nothing to set up: drop --no-hooks or --no-mcp, or add --sync",
        ));
    }
    if app.json() {
        return output::print_json(&serde_json::Value::Object(report));
    }
    output::print(&text)
}

/// How Claude Code should start this binary: plain `subcog` when that name on PATH is this
/// very binary (so a checked-in `.mcp.json` works on every machine), its full path otherwise.
fn program_path() -> String {
    let Ok(exe) = std::env::current_exe() else {
        return "subcog".into();
    };
    let exe = exe.canonicalize().unwrap_or(exe);
    let name = format!("subcog{}", std::env::consts::EXE_SUFFIX);
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .map(|dir| dir.join(&name))
        .find(|candidate| candidate.is_file());
    match on_path.and_then(|p| p.canonicalize().ok()) {
        Some(found) if found == exe => "subcog".into(),
        _ => exe.display().to_string(),
    }
}

/// `relative` under the project root, or under the home directory with `--user`.
fn claude_path(app: &App, user: bool, relative: &str) -> Result<PathBuf, CommandError> {
    if user {
        let home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .ok_or_else(|| CommandError::user("no home directory (HOME is not set)"))?;
        return Ok(home.join(relative));
    }
    Ok(app.subcog()?.location().project_root.join(relative))
}

/// Reads `path`, lets `merge` produce its new text (None: nothing to change) and writes it
/// atomically unless `dry_run`, keeping the file's permissions (`~/.claude.json` holds
/// credentials). Returns whether it changed and a line diff.
fn merge_file(
    path: &Path,
    dry_run: bool,
    merge: impl FnOnce(Option<&str>) -> Result<Option<String>, String>,
) -> Result<(bool, String), CommandError> {
    let existing = match std::fs::read_to_string(path) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(CommandError::user(format!("cannot read {}: {e}", path.display()))),
    };
    let Some(text) = merge(existing.as_deref()).map_err(|why| {
        CommandError::user(format!(
            "{} is not a file subcog can merge into ({why}); fix or move it and run init again",
            path.display()
        ))
    })?
    else {
        return Ok((false, String::new()));
    };
    let diff = line_diff(existing.as_deref().unwrap_or(""), &text);
    if !dry_run {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| CommandError::user(format!("cannot create {}: {e}", dir.display())))?;
        }
        let mut tmp_name = path.file_name().unwrap_or_default().to_os_string();
        tmp_name.push(".subcog-tmp");
        let tmp = path.with_file_name(tmp_name);
        let permissions = std::fs::metadata(path).map(|m| m.permissions()).ok();
        std::fs::write(&tmp, &text)
            .and_then(|_| match permissions {
                Some(p) => std::fs::set_permissions(&tmp, p),
                None => Ok(()),
            })
            .and_then(|_| std::fs::rename(&tmp, path))
            .map_err(|e| {
                let _ = std::fs::remove_file(&tmp);
                CommandError::user(format!("cannot write {}: {e}", path.display()))
            })?;
    }
    Ok((true, diff))
}

/// A minimal unified-style diff: lines only in `old` prefixed `-`, only in `new` `+`, in
/// order. Common leading and trailing lines are skipped first, so a large file with one
/// added entry (`~/.claude.json` can hold thousands of lines) costs almost nothing; the
/// longest common subsequence runs on what is left, unless that is huge.
fn line_diff(old: &str, new: &str) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a, b) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut out = String::new();
    if a.len().saturating_mul(b.len()) > 4_000_000 {
        for line in a {
            out.push_str(&format!("-{line}\n"));
        }
        for line in b {
            out.push_str(&format!("+{line}\n"));
        }
        return out;
    }
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
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push_str(&format!("-{}\n", a[i]));
            i += 1;
        } else {
            out.push_str(&format!("+{}\n", b[j]));
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::line_diff;

    #[test]
    fn diffs_show_only_changed_lines() {
        assert_eq!(line_diff("a\nb\nc\n", "a\nx\nc\n"), "-b\n+x\n");
        assert_eq!(line_diff("", "a\n"), "+a\n");
        assert_eq!(line_diff("a\n", "a\n"), "");
        // A big file with one entry added: only that entry, and no quadratic table.
        let old: String = (0..50_000).map(|i| format!("line {i}\n")).collect();
        let new = old.replacen("line 25000\n", "line 25000\nadded\n", 1);
        assert_eq!(line_diff(&old, &new), "+added\n");
    }
}
