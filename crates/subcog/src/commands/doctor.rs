//! `subcog doctor`

use clap::Args;
use subcog_core::doctor::{Check, DoctorInput, Health};

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;

/// Check that subcog works here, and say how to fix what does not.
///
/// Checks the databases' integrity, the index against the git notes, the embedding model,
/// missing vectors, held (quarantined) memories, which LLM consolidation would use and why,
/// Claude Code's hook and MCP registrations (and double ones), free disk space, the data
/// directory's permissions and the activity log. Exits 1 when a check fails; warnings
/// alone exit 0.
#[derive(Debug, Args)]
pub struct DoctorArgs {}

/// Runs `doctor`.
pub fn run(app: &App, _args: DoctorArgs) -> CommandResult {
    let subcog = app.subcog()?;
    let data_dir = app.data_dir()?;
    let input = DoctorInput {
        claude_dir: app.claude_dir(),
        home: app.env.var("HOME").map(std::path::PathBuf::from),
        free_bytes: free_bytes(&data_dir),
    };
    let checks = subcog.doctor(&input);
    let failed = checks.iter().filter(|c| c.health == Health::Fail).count();
    let warned = checks.iter().filter(|c| c.health == Health::Warn).count();
    if app.json() {
        output::print_json(&serde_json::json!({
            "ok": failed == 0,
            "failed": failed,
            "warnings": warned,
            "checks": checks,
        }))?;
    } else {
        output::print(&render(&checks, failed, warned))?;
    }
    if failed > 0 {
        return Err(CommandError::silent_code(1));
    }
    Ok(())
}

fn render(checks: &[Check], failed: usize, warned: usize) -> String {
    let mut rows = Vec::new();
    for c in checks {
        let mark = match c.health {
            Health::Ok => "ok",
            Health::Warn => "warn",
            Health::Fail => "FAIL",
        };
        rows.push(vec![mark.to_string(), c.name.clone(), c.detail.clone()]);
        if let Some(fix) = &c.fix {
            rows.push(vec![String::new(), String::new(), format!("fix: {fix}")]);
        }
    }
    let mut out = output::table(&rows, &[output::HEADING]);
    out.push('\n');
    out.push_str(&match (failed, warned) {
        (0, 0) => "all checks passed\n".to_string(),
        (0, w) => format!("all checks passed, {w} warning(s)\n"),
        (f, w) => format!("{f} check(s) failed, {w} warning(s)\n"),
    });
    out
}

/// Free bytes for an unprivileged user on the file system holding `dir` (or its nearest
/// existing ancestor).
#[cfg(unix)]
fn free_bytes(dir: &std::path::Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let existing = dir.ancestors().find(|d| d.exists())?;
    let path = std::ffi::CString::new(existing.as_os_str().as_bytes()).ok()?;
    let mut stat: libc::statvfs = unsafe_zeroed();
    // SAFETY: `path` is a valid NUL-terminated string and `stat` a writable statvfs.
    #[allow(unsafe_code)]
    let rc = unsafe { libc::statvfs(path.as_ptr(), &mut stat) };
    if rc != 0 {
        return None;
    }
    #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
    Some(u64::from(stat.f_bavail as u64).saturating_mul(stat.f_frsize as u64))
}

#[cfg(unix)]
fn unsafe_zeroed() -> libc::statvfs {
    // SAFETY: statvfs is a plain C struct of integers, for which all-zero bytes are valid.
    #[allow(unsafe_code)]
    unsafe {
        std::mem::zeroed()
    }
}

#[cfg(not(unix))]
fn free_bytes(_dir: &std::path::Path) -> Option<u64> {
    None
}
