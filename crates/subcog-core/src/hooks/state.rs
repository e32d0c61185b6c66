//! What hooks remember between runs, in `<data>/hooks/`: per-session state (the context
//! this conversation already holds, files and markers already handled) and claims that
//! let exactly one of two registrations of the same hook answer.
//!
//! Everything here is best effort: losing it means a file may surface twice or a context
//! is sent in full again, never a lost memory, so write failures are logged, not raised.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

/// What one session has seen.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct SessionState {
    /// Digests of files and commands PostToolUse already surfaced memories for.
    #[serde(default)]
    pub targets: BTreeSet<String>,
    /// Memories PostToolUse already surfaced.
    #[serde(default)]
    pub memories: BTreeSet<String>,
    /// Digests of markers already handled (prompt, reply or transcript).
    #[serde(default)]
    pub markers: BTreeSet<String>,
    /// The user's latest prompt, redacted and cut short: what a marker in the reply answers
    /// when Stop runs before Claude Code has written the transcript.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_prompt: Option<String>,
    /// The session context this conversation holds, if SessionStart sent one.
    #[serde(default)]
    pub context: Option<ContextRecord>,
}

/// The context a conversation was given.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
pub struct ContextRecord {
    /// Ids of the memories in it (and in updates since).
    pub ids: BTreeSet<String>,
    /// When it was sent (RFC 3339).
    pub at: String,
    /// The SessionStart source that sent it in full (startup, clear, compact).
    pub source: String,
}

impl SessionState {
    fn file(dir: &Path, session: &str) -> PathBuf {
        dir.join(format!("{}.json", safe_name(session)))
    }

    /// The state of `session` (empty when none was saved or it cannot be read).
    pub fn load(dir: &Path, session: &str) -> Self {
        std::fs::read(Self::file(dir, session))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    /// Saves the state (write a temporary file, then rename: never half a file).
    pub fn save(&self, dir: &Path, session: &str) {
        let write = || -> std::io::Result<()> {
            create_private_dir(dir)?;
            let path = Self::file(dir, session);
            let tmp = path.with_extension(format!("json.{}.tmp", std::process::id()));
            std::fs::write(&tmp, serde_json::to_vec(self).unwrap_or_default())?;
            std::fs::rename(tmp, path)
        };
        if let Err(e) = write() {
            tracing::warn!(error = %e, "could not save hook session state");
        }
    }
}

/// The memories whose withholding the user was already told about (`withheld-told.json`).
const TOLD_FILE: &str = "withheld-told.json";

/// Of the memories a session start left out because they read like orders, those the
/// user has not been told about yet; records them as told. A user hears of each once, not
/// at every session start. Lost state only means hearing of one again.
pub fn not_told_yet(dir: &Path, withheld: &[String]) -> Vec<String> {
    if withheld.is_empty() {
        return Vec::new();
    }
    let path = dir.join(TOLD_FILE);
    let mut told: BTreeSet<String> = std::fs::read(&path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    let new: Vec<String> = withheld.iter().filter(|id| !told.contains(*id)).cloned().collect();
    if new.is_empty() {
        return new;
    }
    // Only the ones still withheld are kept, so the file stays as small as the list.
    told.retain(|id| withheld.contains(id));
    told.extend(new.iter().cloned());
    let write = || -> std::io::Result<()> {
        create_private_dir(dir)?;
        let tmp = path.with_extension(format!("json.{}.tmp", std::process::id()));
        std::fs::write(&tmp, serde_json::to_vec(&told).unwrap_or_default())?;
        std::fs::rename(tmp, &path)
    };
    if let Err(e) = write() {
        tracing::warn!(error = %e, "could not record which withheld memories the user was told about");
    }
    new
}

/// A file name made of the session id's safe characters.
fn safe_name(session: &str) -> String {
    session
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' })
        .take(80)
        .collect()
}

fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

/// How long a claim keeps a second run of the same payload from answering. Claude Code
/// runs the registrations of one event together or one right after the other (the first
/// may take a second or two to load the model), so a few seconds cover them; a payload
/// that really comes twice (a session resumed twice) comes much later.
pub const CLAIM_WINDOW: Duration = Duration::from_secs(10);

/// Whether this run is the first for its event payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// First (or claims are unavailable): answer.
    First,
    /// Another run with the same payload answered within [`CLAIM_WINDOW`]; it came
    /// through `via` (`plugin`, `settings`).
    Duplicate {
        /// How the first run was registered.
        via: String,
    },
}

/// Claims the event whose stdin was `payload` for this run, registered through `via`.
/// Claude Code runs every registration of a hook (a plugin and `.claude/settings.json`)
/// with the same payload, so the second run finds the claim and answers nothing.
pub fn claim(dir: &Path, event: &str, payload: &str, via: &str) -> Claim {
    let dir = dir.join("claims");
    if create_private_dir(&dir).is_err() {
        return Claim::First;
    }
    let path = dir.join(format!("{}-{}", event, digest(payload.trim())));
    for _ in 0..2 {
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(mut f) => {
                let _ = f.write_all(via.as_bytes());
                return Claim::First;
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let age = std::fs::metadata(&path)
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| SystemTime::now().duration_since(t).ok())
                    .unwrap_or_default();
                if age < CLAIM_WINDOW {
                    let first = std::fs::read_to_string(&path).unwrap_or_default();
                    return Claim::Duplicate {
                        via: if first.is_empty() { "unknown".into() } else { first },
                    };
                }
                // An old claim: the same payload again, much later (it happens with
                // payloads that carry no unique id). Take it over.
                let _ = std::fs::remove_file(&path);
            }
            Err(_) => return Claim::First,
        }
    }
    Claim::First
}

/// Removes claims older than an hour (called at session start, so the directory stays small).
pub fn sweep_claims(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir.join("claims")) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|age| age > Duration::from_secs(3600));
        if old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// A double registration seen at run time (the newest), for `subcog status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DuplicateRun {
    /// When (RFC 3339).
    pub at: String,
    /// The event.
    pub event: String,
    /// How the run that answered was registered.
    pub first: String,
    /// How the run that stayed silent was registered.
    pub second: String,
}

const DUPLICATES_FILE: &str = "duplicate-runs.json";

/// Records that a hook ran twice for one event.
pub fn record_duplicate(dir: &Path, run: &DuplicateRun) {
    let write = || -> std::io::Result<()> {
        create_private_dir(dir)?;
        let path = dir.join(DUPLICATES_FILE);
        let tmp = path.with_extension(format!("json.{}.tmp", std::process::id()));
        std::fs::write(&tmp, serde_json::to_vec(run).unwrap_or_default())?;
        std::fs::rename(tmp, path)
    };
    if let Err(e) = write() {
        tracing::warn!(error = %e, "could not record the duplicate hook run");
    }
}

/// The newest double run recorded, if any.
pub fn last_duplicate(dir: &Path) -> Option<DuplicateRun> {
    std::fs::read(dir.join(DUPLICATES_FILE))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
}

/// A short stable digest (hex) of text: keys for state, never the text itself.
pub fn digest(text: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(text.as_bytes())
        .iter()
        .take(12)
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_second_run_of_one_payload_is_a_duplicate() {
        let dir = tempfile::tempdir().expect("tempdir");
        let payload = r#"{"session_id":"s","hook_event_name":"SessionStart","source":"startup"}"#;
        assert_eq!(claim(dir.path(), "SessionStart", payload, "settings"), Claim::First);
        assert_eq!(
            claim(dir.path(), "SessionStart", payload, "plugin"),
            Claim::Duplicate { via: "settings".into() }
        );
        // Another event or another payload is not.
        assert_eq!(claim(dir.path(), "Stop", payload, "plugin"), Claim::First);
        assert_eq!(claim(dir.path(), "SessionStart", "{}", "plugin"), Claim::First);
    }

    #[test]
    fn session_state_round_trips() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut s = SessionState::default();
        s.markers.insert("abc".into());
        s.context = Some(ContextRecord {
            ids: ["X".to_string()].into(),
            at: "2026-01-01T00:00:00Z".into(),
            source: "startup".into(),
        });
        s.save(dir.path(), "a/b c");
        let back = SessionState::load(dir.path(), "a/b c");
        assert!(back.markers.contains("abc"));
        assert_eq!(back.context.map(|c| c.ids.len()), Some(1));
    }
}
