//! Moving notes between repositories through the `git` command.
//!
//! Sync is not on the hot path, and the user's `git` already knows their remotes'
//! credentials (SSH agent, credential helpers, `insteadOf` rewrites, proxies), which a
//! vendored libgit2 built without TLS or SSH cannot reach. Everything else in subcog —
//! reading, writing and merging notes — goes through libgit2. git never prompts here: a
//! remote that needs an interactive password fails with git's message instead of hanging.

use std::path::Path;
use std::process::{Command, Stdio};

use super::{NotesError, NotesRef};

fn run_git(repo: &Path, action: &'static str, remote: &str, args: &[String]) -> Result<String, NotesError> {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_ASKPASS", "")
        .env("SSH_ASKPASS", "")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| NotesError::Transport {
            action,
            remote: remote.to_string(),
            message: format!("cannot run git (is it installed and on PATH?): {e}"),
        })?;
    let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
    if !out.status.success() {
        return Err(NotesError::Transport {
            action,
            remote: remote.to_string(),
            message: if stderr.is_empty() {
                format!("exit status {}", out.status)
            } else {
                stderr
            },
        });
    }
    Ok(stderr)
}

/// Fetches the remote's subcog notes refs into `refs/notes/remotes/<remote>/…`, never
/// into the local refs. Refs the remote does not have are simply absent afterwards.
pub fn fetch(repo: &Path, remote: &str) -> Result<(), NotesError> {
    let _span = tracing::info_span!("notes.fetch", remote).entered();
    let spec = format!("+refs/notes/mem*:refs/notes/remotes/{remote}/mem*");
    let args = vec![
        "fetch".into(),
        "--no-tags".into(),
        "--quiet".into(),
        remote.to_string(),
        spec,
    ];
    run_git(repo, "fetch", remote, &args).map(|_| ())
}

/// Pushes the given local notes refs to the same names on the remote, without force: a
/// remote that moved meanwhile rejects the push and the caller fetches and merges again.
pub fn push(repo: &Path, remote: &str, refs: &[NotesRef]) -> Result<(), NotesError> {
    let _span = tracing::info_span!("notes.push", remote).entered();
    if refs.is_empty() {
        return Ok(());
    }
    let mut args: Vec<String> = vec![
        "push".into(),
        "--quiet".into(),
        "--no-verify".into(),
        remote.to_string(),
    ];
    args.extend(refs.iter().map(|r| format!("{0}:{0}", r.refname())));
    run_git(repo, "push", remote, &args).map(|_| ())
}

/// Lets git pack loose objects when enough have piled up (`git gc --auto`): each capture
/// adds a handful of small objects, and packing them keeps the repository compact. Best
/// effort: a failure is logged, never returned.
pub fn maintain(repo: &Path) {
    let _span = tracing::debug_span!("notes.maintain").entered();
    let args = vec!["gc".into(), "--auto".into(), "--quiet".into()];
    if let Err(e) = run_git(repo, "gc", "", &args) {
        tracing::warn!(error = %e, "git gc --auto failed");
    }
}
