//! `subcog doctor`: every way subcog can be set up wrong or break, checked, each failing
//! check with the fix that applies. The databases' integrity is checked read-only before
//! anything opens them (opening an unreadable index heals it, which would hide the fault).
//!
//! Owns the checks and their wording; the binary supplies where Claude Code keeps its
//! settings and prints the result.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::service::{ScopeKind, Subcog};
use crate::store::StoreError;

/// Free space below which the data directory's disk fails the check, in bytes.
pub const FAIL_FREE_BYTES: u64 = 100 * 1024 * 1024;
/// Free space below which it warns.
pub const WARN_FREE_BYTES: u64 = 1024 * 1024 * 1024;

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Health {
    /// Fine.
    Ok,
    /// Works, but something is missing or odd.
    Warn,
    /// Broken: subcog loses function (or data is at risk) until it is fixed.
    Fail,
}

/// One check.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Check {
    /// What was checked (`project database`, `embedding model`, …).
    pub name: String,
    /// How it came out.
    pub health: Health,
    /// What was found.
    pub detail: String,
    /// What to do, when not ok.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

impl Check {
    fn ok(name: impl Into<String>, detail: impl Into<String>) -> Self {
        Check {
            name: name.into(),
            health: Health::Ok,
            detail: detail.into(),
            fix: None,
        }
    }

    fn bad(name: impl Into<String>, health: Health, detail: impl Into<String>, fix: impl Into<String>) -> Self {
        Check {
            name: name.into(),
            health,
            detail: detail.into(),
            fix: Some(fix.into()),
        }
    }
}

/// What the caller knows about the machine.
#[derive(Debug, Clone, Default)]
pub struct DoctorInput {
    /// Claude Code's user directory (`$CLAUDE_CONFIG_DIR` or `~/.claude`).
    pub claude_dir: Option<PathBuf>,
    /// The user's home (for `~/.claude.json`).
    pub home: Option<PathBuf>,
    /// Free bytes on the data directory's file system, when the caller could tell.
    pub free_bytes: Option<u64>,
}

impl Subcog {
    /// Runs every check, in order: storage first (what later checks read).
    pub fn doctor(&self, input: &DoctorInput) -> Vec<Check> {
        let _span = tracing::info_span!("doctor").entered();
        // Before anything opens a store: opening one narrows the directory's mode again.
        let permissions = check_permissions(&self.location.data_dir);
        let mut out = Vec::new();
        let mut readable = Vec::new();
        for kind in [ScopeKind::Project, ScopeKind::User] {
            let (check, ok) = self.check_database(kind);
            out.push(check);
            if ok {
                readable.push(kind);
            }
        }
        if readable.len() == 2 {
            out.push(self.check_notes());
        } else {
            out.push(Check::bad(
                "index vs notes",
                Health::Warn,
                "not compared: a database is unreadable",
                "fix the database first",
            ));
        }
        out.push(self.check_model());
        if readable.len() == 2 {
            // One status report (every store's counts) serves both checks.
            match self.status() {
                Ok(report) => {
                    out.push(check_embeddings(&report));
                    out.push(check_quarantine(&report));
                }
                Err(e) => out.push(Check::bad(
                    "embeddings",
                    Health::Warn,
                    e.to_string(),
                    "run `subcog status` for the full error",
                )),
            }
        }
        out.push(self.check_llm());
        out.extend(self.check_claude_code(input));
        out.push(check_disk(&self.location.data_dir, input.free_bytes));
        out.push(permissions);
        out.push(self.check_activity());
        out
    }

    fn check_database(&self, kind: ScopeKind) -> (Check, bool) {
        let name = format!("{} database", kind.as_str());
        let path = self.scope_path(kind).to_path_buf();
        if !self.shared_database() && !self.store_is_open(kind) && path.exists() {
            match crate::store::sqlite::quick_check(&path) {
                Ok(()) => {}
                Err(StoreError::Corrupt { message, .. }) => {
                    return (
                        Check::bad(
                            name,
                            Health::Fail,
                            format!("{} is damaged: {message}", path.display()),
                            "run `subcog reindex`: it moves the file aside (kept for salvage) and rebuilds the \
                             index from the git notes",
                        ),
                        false,
                    );
                }
                Err(e) => {
                    return (
                        Check::bad(
                            name,
                            Health::Fail,
                            format!("{} cannot be read: {e}", path.display()),
                            format!("check the file's owner and mode (`ls -l {}`)", path.display()),
                        ),
                        false,
                    );
                }
            }
        }
        match self.store_for_read(kind) {
            Ok(Some(store)) => match store.stats() {
                Ok(stats) => (
                    Check::ok(
                        name,
                        format!(
                            "{} memories, schema {}, {} KiB ({})",
                            stats.total,
                            stats.schema_version,
                            stats.size_bytes.div_ceil(1024),
                            store.location()
                        ),
                    ),
                    true,
                ),
                Err(e) => (self.store_failure(name, &e.to_string()), false),
            },
            Ok(None) => (Check::ok(name, format!("none yet ({})", path.display())), true),
            Err(e) => (self.store_failure(name, &e.to_string()), false),
        }
    }

    fn store_failure(&self, name: String, why: &str) -> Check {
        let fix = if self.shared_database() {
            "check storage.url (or SUBCOG_DATABASE_URL) and that the PostgreSQL server is up".to_string()
        } else {
            "run `subcog reindex` to rebuild the index from the git notes".to_string()
        };
        Check::bad(name, Health::Fail, why.to_string(), fix)
    }

    fn check_notes(&self) -> Check {
        const NAME: &str = "index vs notes";
        if !self.config.storage.git_notes {
            return Check::ok(NAME, "storage.git_notes is off: the index is the only copy");
        }
        match self.notes_repo(ScopeKind::Project, false) {
            Ok(Some(_)) => {}
            Ok(None) => {
                return Check::bad(
                    NAME,
                    Health::Warn,
                    format!(
                        "{} is not a git repository: project memories live only in the index (no history, no sync)",
                        self.location.project_root.display()
                    ),
                    "run `git init` in the project (memories captured from then on are kept as git notes)",
                );
            }
            Err(e) => {
                return Check::bad(
                    NAME,
                    Health::Fail,
                    format!("the notes cannot be read: {e}"),
                    "run `subcog verify`",
                );
            }
        }
        match self.verify(false) {
            Ok(report) => {
                let problems = report.problems();
                let completed: usize = report.scopes.iter().map(|s| s.completed.len()).sum();
                let notes: usize = report.scopes.iter().map(|s| s.notes).sum();
                if problems == 0 {
                    let mut detail = format!("{notes} notes agree with the index");
                    if completed > 0 {
                        detail.push_str(&format!("; {completed} interrupted writes completed from their notes"));
                    }
                    return Check::ok(NAME, detail);
                }
                let mut parts = Vec::new();
                for s in &report.scopes {
                    for (n, what) in [
                        (s.notes_only.len(), "in notes, not in the index"),
                        (s.index_only.len(), "in the index, without a note"),
                        (s.differ.len(), "differ between note and index"),
                        (s.invalid.len(), "notes unreadable"),
                    ] {
                        if n > 0 {
                            parts.push(format!("{} scope: {n} {what}", s.scope));
                        }
                    }
                }
                Check::bad(
                    NAME,
                    Health::Fail,
                    parts.join("; "),
                    "run `subcog verify --repair` (notes and index are brought up to date from each other)",
                )
            }
            Err(e) => Check::bad(
                NAME,
                Health::Fail,
                format!("could not compare: {e}"),
                "run `subcog verify` for the full error",
            ),
        }
    }

    fn check_model(&self) -> Check {
        const NAME: &str = "embedding model";
        if !self.config.embedding.enabled {
            return Check::ok(NAME, "embedding.enabled is false: recall by keywords and time only");
        }
        let dir = self.model_dir();
        if let Err(e) = crate::embed::install::verify_quick(&dir) {
            return Check::bad(
                NAME,
                Health::Warn,
                format!(
                    "not usable at {}: {e}; recall works by keywords and time only",
                    dir.display()
                ),
                "run `subcog model install` (offline: `subcog model install --from DIR`)",
            );
        }
        if !dir.join(crate::embed::install::MANIFEST).exists() {
            return Check::ok(
                NAME,
                format!(
                    "{} (files present; not installed by subcog, so not hashed)",
                    dir.display()
                ),
            );
        }
        match crate::embed::install::verify_full(&dir) {
            Ok(_) => Check::ok(NAME, format!("{} (SHA-256 verified)", dir.display())),
            Err(e) => Check::bad(
                NAME,
                Health::Fail,
                format!("{e}"),
                "run `subcog model install --force` to install a good copy",
            ),
        }
    }

    fn check_llm(&self) -> Check {
        const NAME: &str = "consolidation llm";
        match self.llm_providers("auto") {
            Ok((requested, checks)) => {
                let used: Vec<&str> = checks.iter().filter(|c| c.used).map(|c| c.name.as_str()).collect();
                let why: Vec<String> = checks.iter().map(|c| format!("{}: {}", c.name, c.reason)).collect();
                if used.is_empty() && requested != "none" && requested != "auto" && requested != "off" {
                    return Check::bad(
                        NAME,
                        Health::Warn,
                        format!("llm.provider = {requested}, but it cannot be used ({})", why.join("; ")),
                        "set the provider's API key variable, or run `subcog llm check` for details",
                    );
                }
                Check::ok(
                    NAME,
                    if used.is_empty() {
                        format!("none: consolidation runs offline (provider = {requested})")
                    } else {
                        let screening = match self.config.quarantine.llm {
                            crate::config::ScreenMode::Off => "off ([quarantine] llm)",
                            crate::config::ScreenMode::Background => "during consolidation",
                            crate::config::ScreenMode::Capture => "at each CLI or MCP capture and during consolidation",
                        };
                        format!(
                            "{} (provider = {requested}; {}); it screens memories for quarantine {screening}",
                            used.join(", "),
                            why.join("; ")
                        )
                    },
                )
            }
            Err(e) => Check::bad(
                NAME,
                Health::Fail,
                e.to_string(),
                "fix llm.provider in the config (`subcog config path`)",
            ),
        }
    }

    fn check_claude_code(&self, input: &DoctorInput) -> Vec<Check> {
        use crate::hooks::registration;
        let project = &self.location.project_root;
        let found = input
            .claude_dir
            .as_deref()
            .map(|dir| registration::find(project, dir))
            .unwrap_or_default();
        let hooks = if found.is_empty() {
            Check::bad(
                "claude code hooks",
                Health::Warn,
                "not registered: Claude Code sessions get no memories",
                "run `subcog init` in the project (or install the subcog plugin)",
            )
        } else if let Some(double) = registration::double_registration(&found) {
            Check::bad(
                "claude code hooks",
                Health::Fail,
                double,
                "remove subcog's hooks from all but one of those files (keep the plugin or the settings)",
            )
        } else {
            Check::ok(
                "claude code hooks",
                found
                    .iter()
                    .map(|r| format!("{} ({})", r.place, r.path.display()))
                    .collect::<Vec<_>>()
                    .join("; "),
            )
        };
        let mut candidates = vec![("project .mcp.json", project.join(".mcp.json"))];
        if let Some(home) = &input.home {
            candidates.push(("user ~/.claude.json", home.join(".claude.json")));
        }
        let registered: Vec<String> = candidates
            .iter()
            .filter(|(_, path)| mcp_registered(path))
            .map(|(place, path)| format!("{place} ({})", path.display()))
            .collect();
        let mcp = if registered.is_empty() {
            Check::bad(
                "mcp server",
                Health::Warn,
                "`subcog mcp` is not registered: agents cannot call subcog's tools",
                "run `subcog init` (it registers the server in .mcp.json)",
            )
        } else {
            Check::ok("mcp server", registered.join("; "))
        };
        vec![hooks, mcp]
    }

    fn check_activity(&self) -> Check {
        const NAME: &str = "activity log";
        let path = self.activity().path().to_path_buf();
        match crate::activity::check(&path) {
            Ok(true) => Check::ok(NAME, path.display().to_string()),
            Ok(false) if !path.exists() => Check::ok(NAME, "none yet"),
            Ok(false) => Check::bad(
                NAME,
                Health::Warn,
                format!("{} fails its integrity check", path.display()),
                format!("delete {} (it only explains; memories are not in it)", path.display()),
            ),
            Err(e) => Check::bad(
                NAME,
                Health::Warn,
                e.to_string(),
                format!("delete {} (it only explains; memories are not in it)", path.display()),
            ),
        }
    }
}

fn check_embeddings(report: &crate::manage::StatusReport) -> Check {
    const NAME: &str = "embeddings";
    if report.missing_embeddings > 0 && report.semantic_unavailable.is_none() {
        return Check::bad(
            NAME,
            Health::Warn,
            format!(
                "{} memories have no vector: recall by meaning misses them",
                report.missing_embeddings
            ),
            "run `subcog reindex --embeddings`",
        );
    }
    Check::ok(
        NAME,
        match report.embeddings.values().sum::<u64>() {
            0 => "none stored".to_string(),
            n => format!("{n} vectors"),
        },
    )
}

fn check_quarantine(report: &crate::manage::StatusReport) -> Check {
    const NAME: &str = "quarantine";
    match report.by_status.get("quarantined").copied().unwrap_or(0) {
        0 => Check::ok(NAME, "no memory held"),
        held => Check::bad(
            NAME,
            Health::Warn,
            format!("{held} memories held back because they read as instructions to the agent"),
            "review them with `subcog review --quarantined` (release or delete each)",
        ),
    }
}

/// Whether a Claude Code config file registers subcog's MCP server.
fn mcp_registered(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|text| crate::hooks::mcp_config::registered(&text))
}

fn check_disk(data_dir: &Path, free: Option<u64>) -> Check {
    const NAME: &str = "disk space";
    let Some(free) = free else {
        return Check::ok(NAME, "not measured on this system");
    };
    let mib = free / (1024 * 1024);
    let fix = format!(
        "free space on the disk of {} (a full disk makes captures fail; nothing stored is lost)",
        data_dir.display()
    );
    if free < FAIL_FREE_BYTES {
        Check::bad(NAME, Health::Fail, format!("{mib} MiB free"), fix)
    } else if free < WARN_FREE_BYTES {
        Check::bad(NAME, Health::Warn, format!("{mib} MiB free"), fix)
    } else {
        Check::ok(NAME, format!("{mib} MiB free"))
    }
}

fn check_permissions(data_dir: &Path) -> Check {
    const NAME: &str = "permissions";
    let exposed = crate::private::exposed(data_dir);
    match exposed.first() {
        None => Check::ok(NAME, format!("{} is private to its owner", data_dir.display())),
        Some(first) => Check::bad(
            NAME,
            Health::Fail,
            format!(
                "{} path(s) can be read by other users, e.g. {} (mode {:o})",
                exposed.len(),
                first.path.display(),
                first.mode
            ),
            format!("run `chmod -R go-rwx {}`", data_dir.display()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nearly_full_disk_warns_then_fails_with_the_fix() {
        let dir = Path::new("/data");
        assert_eq!(check_disk(dir, Some(5 * WARN_FREE_BYTES)).health, Health::Ok);
        let low = check_disk(dir, Some(WARN_FREE_BYTES - 1));
        assert_eq!(low.health, Health::Warn);
        let full = check_disk(dir, Some(FAIL_FREE_BYTES - 1));
        assert_eq!(full.health, Health::Fail);
        assert!(
            full.fix.as_deref().is_some_and(|f| f.contains("free space")),
            "{full:?}"
        );
        assert_eq!(check_disk(dir, None).health, Health::Ok, "unknown is not a failure");
    }
}
