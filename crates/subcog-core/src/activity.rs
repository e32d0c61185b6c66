//! What subcog did with memories on this machine: the sessions each was injected into, the
//! recalls that returned it, and a rolling summary of the process metrics (`metrics`).
//!
//! Owns `activity.db` in the data directory: a small SQLite file apart from the stores, so
//! a shared PostgreSQL store never carries one machine's sessions, and a damaged or locked
//! activity file never stands between a user and their memories. Recording is best effort:
//! callers log a failure and go on. Rows older than [`KEEP_DAYS`] are pruned as new ones
//! arrive. Recorded queries are redacted before they are written.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

/// The file's name in the data directory.
pub const FILE: &str = "activity.db";
/// How long records are kept.
pub const KEEP_DAYS: i64 = 90;
/// The longest recorded query, in characters.
const QUERY_CHARS: usize = 200;
/// The schema this build writes (`PRAGMA user_version`).
const SCHEMA: i64 = 1;

/// Why the activity file could not be used.
#[derive(Debug, thiserror::Error)]
#[error("activity log {path}: {source}")]
pub struct ActivityError {
    /// The file.
    pub path: PathBuf,
    /// What SQLite said.
    #[source]
    pub source: rusqlite::Error,
}

/// What happened to a memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ActivityKind {
    /// Put into an agent's context by a hook.
    Injected,
    /// Returned by a recall (CLI, MCP, warm process).
    Recalled,
}

impl ActivityKind {
    fn as_str(self) -> &'static str {
        match self {
            ActivityKind::Injected => "injected",
            ActivityKind::Recalled => "recalled",
        }
    }

    fn parse(s: &str) -> Self {
        if s == "recalled" {
            ActivityKind::Recalled
        } else {
            ActivityKind::Injected
        }
    }
}

/// One thing that happened to one memory.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActivityRecord {
    /// The memory.
    pub memory_id: String,
    /// Injected or recalled.
    pub kind: ActivityKind,
    /// When.
    pub at: DateTime<Utc>,
    /// Through what: the hook event (`SessionStart`, …) or `recall`.
    pub via: String,
    /// The Claude Code session, for injections.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// The query (redacted, shortened), for recalls and prompt injections.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// 1-based position among what was returned or injected.
    pub rank: usize,
    /// The score it was returned or injected with.
    pub score: f64,
}

/// The activity file of one data directory, opened on first use.
#[derive(Debug)]
pub struct ActivityLog {
    path: PathBuf,
    conn: Mutex<Option<Connection>>,
}

impl ActivityLog {
    /// The log at `data_dir/activity.db`; nothing is opened or created yet.
    pub fn new(data_dir: &Path) -> Self {
        ActivityLog {
            path: data_dir.join(FILE),
            conn: Mutex::new(None),
        }
    }

    /// Where it lives.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends records (one transaction) and prunes what is older than [`KEEP_DAYS`].
    pub fn record(&self, records: &[ActivityRecord]) -> Result<(), ActivityError> {
        if records.is_empty() {
            return Ok(());
        }
        self.with(true, |conn| {
            let tx = conn.unchecked_transaction()?;
            {
                let mut insert = tx.prepare_cached(
                    "INSERT INTO activity (memory_id, kind, at, via, session, query, rank, score)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                )?;
                for r in records {
                    let query = r
                        .query
                        .as_deref()
                        .map(|q| crate::content::one_line(&crate::secrets::redact(q, false).text, QUERY_CHARS));
                    insert.execute(params![
                        r.memory_id,
                        r.kind.as_str(),
                        crate::timestamp::to_storage(r.at),
                        r.via,
                        r.session,
                        query,
                        i64::try_from(r.rank).unwrap_or(i64::MAX),
                        r.score,
                    ])?;
                }
            }
            let cutoff =
                records.iter().map(|r| r.at).max().unwrap_or_else(Utc::now) - chrono::Duration::days(KEEP_DAYS);
            tx.execute(
                "DELETE FROM activity WHERE at < ?1",
                [crate::timestamp::to_storage(cutoff)],
            )?;
            tx.commit()
        })
        .map(|_| ())
    }

    /// The newest records of a memory, newest first.
    pub fn for_memory(&self, memory_id: &str, limit: usize) -> Result<Vec<ActivityRecord>, ActivityError> {
        let found = self.with(false, |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT memory_id, kind, at, via, session, query, rank, score FROM activity
                 WHERE memory_id = ?1 ORDER BY at DESC, id DESC LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![memory_id, i64::try_from(limit).unwrap_or(i64::MAX)], row)?;
            rows.collect::<Result<Vec<_>, _>>()
        })?;
        Ok(found.unwrap_or_default().into_iter().flatten().collect())
    }

    /// How many times each kind happened to a memory, in all kept records.
    pub fn counts(&self, memory_id: &str) -> Result<(u64, u64), ActivityError> {
        let found = self.with(false, |conn| {
            conn.query_row(
                "SELECT COALESCE(SUM(kind = 'injected'), 0), COALESCE(SUM(kind = 'recalled'), 0)
                 FROM activity WHERE memory_id = ?1",
                [memory_id],
                |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)),
            )
        })?;
        let (i, r) = found.unwrap_or((0, 0));
        Ok((u64::try_from(i).unwrap_or(0), u64::try_from(r).unwrap_or(0)))
    }

    /// Runs `f` on the connection, opening (and, when `create`, creating) the file first.
    /// `None` when the file does not exist and `create` is false.
    pub(crate) fn with<T>(
        &self,
        create: bool,
        f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>,
    ) -> Result<Option<T>, ActivityError> {
        let err = |source| ActivityError {
            path: self.path.clone(),
            source,
        };
        let mut guard = self.conn.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if guard.is_none() {
            if !create && !self.path.exists() {
                return Ok(None);
            }
            *guard = Some(open(&self.path).map_err(err)?);
        }
        match guard.as_mut() {
            Some(conn) => f(conn).map(Some).map_err(err),
            None => Ok(None),
        }
    }
}

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Option<ActivityRecord>> {
    let at: String = r.get(2)?;
    // A row this build cannot read (a clock from the future's format) is skipped.
    let Some(at) = crate::timestamp::from_storage(&at) else {
        return Ok(None);
    };
    Ok(Some(ActivityRecord {
        memory_id: r.get(0)?,
        kind: ActivityKind::parse(&r.get::<_, String>(1)?),
        at,
        via: r.get(3)?,
        session: r.get(4)?,
        query: r.get(5)?,
        rank: usize::try_from(r.get::<_, i64>(6)?).unwrap_or(0),
        score: r.get(7)?,
    }))
}

fn open(path: &Path) -> rusqlite::Result<Connection> {
    if let Some(dir) = path.parent() {
        // A missing data directory is made here as the stores make it: private.
        let _ = crate::private::create_dir_within(dir, dir);
    }
    let conn = Connection::open(path)?;
    let _ = crate::private::restrict_file(path);
    conn.busy_timeout(Duration::from_millis(500))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version < SCHEMA {
        conn.execute_batch(
            "BEGIN IMMEDIATE;
             CREATE TABLE IF NOT EXISTS activity (
                 id        INTEGER PRIMARY KEY,
                 memory_id TEXT NOT NULL,
                 kind      TEXT NOT NULL,
                 at        TEXT NOT NULL,
                 via       TEXT NOT NULL,
                 session   TEXT,
                 query     TEXT,
                 rank      INTEGER NOT NULL,
                 score     REAL NOT NULL
             );
             CREATE INDEX IF NOT EXISTS activity_memory ON activity (memory_id, at);
             CREATE INDEX IF NOT EXISTS activity_at ON activity (at);
             CREATE TABLE IF NOT EXISTS metrics (
                 hour      TEXT NOT NULL,
                 name      TEXT NOT NULL,
                 count     INTEGER NOT NULL,
                 failures  INTEGER NOT NULL,
                 total_ms  REAL NOT NULL,
                 max_ms    REAL NOT NULL,
                 PRIMARY KEY (hour, name)
             );
             PRAGMA user_version = 1;
             COMMIT;",
        )?;
    }
    // SQLite gives the -wal and -shm files the database file's mode: private too.
    Ok(conn)
}

/// Whether an activity file exists and answers (for `doctor`).
pub fn check(path: &Path) -> Result<bool, ActivityError> {
    if !path.exists() {
        return Ok(false);
    }
    let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).map_err(|source| {
        ActivityError {
            path: path.to_path_buf(),
            source,
        }
    })?;
    conn.query_row("PRAGMA quick_check", [], |r| r.get::<_, String>(0))
        .optional()
        .map(|v| v.as_deref() == Some("ok"))
        .map_err(|source| ActivityError {
            path: path.to_path_buf(),
            source,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(id: &str, kind: ActivityKind, at: &str, query: Option<&str>) -> ActivityRecord {
        ActivityRecord {
            memory_id: id.into(),
            kind,
            at: crate::timestamp::parse_instant(at).expect("time"),
            via: "recall".into(),
            session: None,
            query: query.map(str::to_string),
            rank: 1,
            score: 0.5,
        }
    }

    #[test]
    fn records_come_back_newest_first_and_old_ones_are_pruned() {
        let dir = tempfile::tempdir().expect("tmp");
        let log = ActivityLog::new(dir.path());
        assert!(log.for_memory("A", 10).expect("read").is_empty(), "no file: nothing");
        assert!(!dir.path().join(FILE).exists(), "a read creates nothing");
        log.record(&[
            rec("A", ActivityKind::Injected, "2026-01-01T00:00:00Z", None),
            rec("B", ActivityKind::Recalled, "2026-05-01T00:00:00Z", None),
        ])
        .expect("write");
        log.record(&[rec(
            "A",
            ActivityKind::Recalled,
            "2026-05-02T00:00:00Z",
            Some("which db"),
        )])
        .expect("write");
        let a = log.for_memory("A", 10).expect("read");
        // The January injection is more than 90 days before the newest record: pruned.
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].kind, ActivityKind::Recalled);
        assert_eq!(a[0].query.as_deref(), Some("which db"));
        assert_eq!(log.counts("A").expect("counts"), (0, 1));
        assert_eq!(log.counts("B").expect("counts"), (0, 1));
    }

    #[test]
    fn a_recorded_query_is_redacted() {
        let dir = tempfile::tempdir().expect("tmp");
        let log = ActivityLog::new(dir.path());
        let secret = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
        log.record(&[rec(
            "A",
            ActivityKind::Recalled,
            "2026-05-02T00:00:00Z",
            Some(&format!("token {secret}")),
        )])
        .expect("write");
        let q = log.for_memory("A", 1).expect("read")[0].query.clone().expect("query");
        assert!(!q.contains(secret), "{q}");
        for file in [FILE, "activity.db-wal"] {
            let bytes = std::fs::read(dir.path().join(file)).unwrap_or_default();
            assert!(!String::from_utf8_lossy(&bytes).contains(secret), "{file}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn the_file_is_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tmp");
        let log = ActivityLog::new(dir.path());
        log.record(&[rec("A", ActivityKind::Injected, "2026-05-02T00:00:00Z", None)])
            .expect("write");
        let mode = std::fs::metadata(dir.path().join(FILE))
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "{mode:o}");
        assert!(check(&dir.path().join(FILE)).expect("check"));
    }
}
