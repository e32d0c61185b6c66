//! Recovering a scope whose SQLite index is unreadable. The git notes are the durable
//! record and the index is derived from them, so a damaged database is moved aside (kept,
//! named with a timestamp, for salvage) and rebuilt from the notes: by whichever command
//! next opens it, hooks included, and by `reindex` and `verify --repair`, which also run
//! SQLite's integrity check first. What happened is told once, as a notice the CLI prints
//! and a hook shows through Claude Code's `systemMessage`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::service::{EmbedderState, ScopeKind, Subcog};
use crate::store::sqlite::{self, SqliteStore};
use crate::store::{Store, StoreError};

impl Subcog {
    /// Moves the unreadable database of `kind` aside, opens a fresh one in its place and
    /// rebuilds it from the scope's notes when there are any. Returns the fresh store,
    /// already cached for the scope.
    pub(crate) fn heal(&self, kind: ScopeKind, cause: &StoreError) -> Result<Arc<dyn Store>> {
        let _span = tracing::warn_span!("store.heal", scope = kind.as_str()).entered();
        let path = self.scope_path(kind).to_path_buf();
        let aside = move_aside(&path, &self.clock.now().format("%Y%m%dT%H%M%SZ").to_string())?;
        tracing::warn!(path = %path.display(), aside = %aside.display(), error = %cause, "index unreadable; moved aside");
        let fresh = SqliteStore::open(
            &path,
            std::time::Duration::from_millis(self.config.storage.busy_timeout_ms),
        )?;
        if kind == ScopeKind::Project {
            fresh.set_meta("project_root", &self.location.project_root.display().to_string())?;
        }
        let store = self.cache_store(kind, Arc::new(fresh));
        // Rules only: a hook may be the command that heals, and the judgement would embed
        // every memory first.
        let rebuilt = self.reindex_scope(kind, false, &mut |_, _| {})?;
        let notice = match rebuilt {
            Some(r) => {
                let mut text = format!(
                    "the {} index at {} was unreadable ({}); it was moved to {} and rebuilt from git notes: {} memories",
                    kind.as_str(),
                    path.display(),
                    short(cause),
                    aside.display(),
                    r.inserted + r.replaced + r.unchanged
                );
                if let EmbedderState::Ready(_) = self.embedder_state() {
                    match self.reindex_embeddings(false, &mut |_, _| {}) {
                        Ok(e) => text.push_str(&format!(", {} embedded", e.embedded)),
                        Err(e) => text.push_str(&format!(" (run `subcog reindex --embeddings`: {e})")),
                    }
                }
                text
            }
            None => format!(
                "the {} index at {} was unreadable ({}) and there are no git notes to rebuild it from \
                 (not a git repository, or storage.git_notes is off): the memories it held are not \
                 available; the file was kept at {} (`sqlite3 {} .recover` may salvage them)",
                kind.as_str(),
                path.display(),
                short(cause),
                aside.display(),
                aside.display()
            ),
        };
        self.notify(notice);
        Ok(store)
    }

    /// Runs SQLite's integrity check on the scope's database before a rebuild
    /// (`reindex`, `verify --repair`) and heals a damaged one. Only before the scope's
    /// store is open in this process; a shared database is the server's to check.
    pub(crate) fn check_integrity(&self, kind: ScopeKind) -> Result<()> {
        let path = self.scope_path(kind);
        if self.shared_database() || self.store_is_open(kind) || !path.exists() {
            return Ok(());
        }
        match sqlite::quick_check(path) {
            Ok(()) => Ok(()),
            Err(e @ StoreError::Corrupt { .. }) => self.heal(kind, &e).map(|_| ()),
            Err(e) => Err(e.into()),
        }
    }
}

/// Renames the database and its WAL files to `<name>.corrupt-<stamp>[-wal|-shm]`.
fn move_aside(path: &Path, stamp: &str) -> Result<PathBuf> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("subcog.db");
    let aside = path.with_file_name(format!("{name}.corrupt-{stamp}"));
    for suffix in ["", "-wal", "-shm"] {
        // Built on the OS string, so a path that is not UTF-8 is moved intact.
        let with = |p: &Path| {
            let mut s = p.as_os_str().to_owned();
            s.push(suffix);
            PathBuf::from(s)
        };
        let (from, to) = (with(path), with(&aside));
        match std::fs::rename(&from, &to) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !suffix.is_empty() => {}
            Err(e) => {
                return Err(Error::Io {
                    context: format!("cannot move the unreadable index {} aside", from.display()),
                    source: e,
                });
            }
        }
    }
    Ok(aside)
}

/// The cause in a few words ("database disk image is malformed").
fn short(cause: &StoreError) -> String {
    match cause {
        StoreError::Corrupt { message, .. } => message.clone(),
        other => other.to_string(),
    }
}
