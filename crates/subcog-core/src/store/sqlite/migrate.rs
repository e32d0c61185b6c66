//! Forward-only schema migrations for the SQLite store.
//!
//! Migrations are the numbered SQL files in `migrations/`, embedded by `build.rs`. The
//! `schema_version` table records each applied version. Migrating takes the write lock
//! (`BEGIN IMMEDIATE`), so two processes opening a new database at once apply each
//! migration exactly once; a database newer than this build is refused, never touched.

use rusqlite::{Connection, TransactionBehavior};

use super::map_err;
use crate::store::StoreError;

include!(concat!(env!("OUT_DIR"), "/migrations.rs"));

/// The schema version this build creates.
pub fn latest_version() -> u32 {
    MIGRATIONS.last().map(|m| m.0).unwrap_or(0)
}

/// Reads the applied version without taking the write lock; `None` if the table is absent.
pub(crate) fn current_version(conn: &Connection) -> Option<u32> {
    conn.query_row("SELECT COALESCE(MAX(version), 0) FROM schema_version", [], |r| {
        r.get::<_, u32>(0)
    })
    .ok()
}

/// Brings the database up to the latest version.
pub(crate) fn migrate(conn: &mut Connection, path: &str) -> Result<u32, StoreError> {
    migrate_to(conn, path, latest_version())
}

/// Brings the database up to `target` (tests build every intermediate version with it).
pub(crate) fn migrate_to(conn: &mut Connection, path: &str, target: u32) -> Result<u32, StoreError> {
    if let Some(v) = current_version(conn) {
        if v > latest_version() {
            return Err(StoreError::TooNew {
                path: path.to_string(),
                found: v,
                supported: latest_version(),
            });
        }
        if v >= target {
            return Ok(v);
        }
    }
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|e| map_err(path, e))?;
    tx.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_version (
             version    INTEGER PRIMARY KEY,
             label      TEXT NOT NULL,
             applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
         );",
    )
    .map_err(|e| map_err(path, e))?;
    // Re-read under the lock: another process may have migrated while we waited.
    let current = current_version(&tx).unwrap_or(0);
    if current > latest_version() {
        return Err(StoreError::TooNew {
            path: path.to_string(),
            found: current,
            supported: latest_version(),
        });
    }
    for (version, label, sql) in MIGRATIONS {
        if *version <= current || *version > target {
            continue;
        }
        tracing::info!(version, label, path, "applying migration");
        tx.execute_batch(sql).map_err(|e| map_err(path, e))?;
        tx.execute(
            "INSERT INTO schema_version (version, label) VALUES (?1, ?2)",
            rusqlite::params![version, label],
        )
        .map_err(|e| map_err(path, e))?;
    }
    tx.commit().map_err(|e| map_err(path, e))?;
    Ok(target.max(current))
}

/// Resolves the time references of rows written before version 5 (their `time_refs` is
/// NULL), with the default reading (UTC, month first). Cheap when there are none: a
/// partial index holds exactly the pending rows.
pub(crate) fn backfill_time_refs(conn: &mut Connection, path: &str) -> Result<usize, StoreError> {
    let pending: Vec<(String, String, String)> = {
        let mut stmt = conn
            .prepare("SELECT id, content, created_at FROM memories WHERE time_refs IS NULL")
            .map_err(|e| map_err(path, e))?;
        let rows = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .map_err(|e| map_err(path, e))?;
        rows.collect::<Result<_, _>>().map_err(|e| map_err(path, e))?
    };
    if pending.is_empty() {
        return Ok(0);
    }
    let opts = crate::temporal::TemporalOptions::default();
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|e| map_err(path, e))?;
    for (id, content, created_at) in &pending {
        let Some(at) = crate::timestamp::from_storage(created_at) else {
            continue;
        };
        let refs = crate::temporal::resolve::resolve_all(content, opts.zone.day(at), opts.order);
        let json = serde_json::to_string(&refs).unwrap_or_else(|_| "[]".into());
        tx.execute(
            "UPDATE memories SET time_refs = ?1 WHERE id = ?2 AND time_refs IS NULL",
            rusqlite::params![json, id],
        )
        .map_err(|e| map_err(path, e))?;
    }
    tx.commit().map_err(|e| map_err(path, e))?;
    tracing::info!(rows = pending.len(), path, "resolved time references of older memories");
    Ok(pending.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema(conn: &Connection) -> Vec<(String, String, Option<String>)> {
        let mut stmt = conn
            .prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")
            .expect("prepare");
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows")
    }

    #[test]
    fn migrations_are_numbered_from_one() {
        assert!(latest_version() >= 3);
        for (i, (v, _, _)) in MIGRATIONS.iter().enumerate() {
            assert_eq!(*v as usize, i + 1);
        }
    }

    #[test]
    fn every_earlier_version_migrates_to_the_fresh_schema_keeping_data() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fresh_path = dir.path().join("fresh.db");
        let mut fresh = Connection::open(&fresh_path).expect("open");
        migrate(&mut fresh, "fresh").expect("migrate fresh");
        let want = schema(&fresh);

        for start in 0..latest_version() {
            let path = dir.path().join(format!("v{start}.db"));
            let mut conn = Connection::open(&path).expect("open");
            migrate_to(&mut conn, "old", start).expect("build old version");
            if start >= 1 {
                conn.execute(
                    "INSERT INTO memories (id, content, summary, namespace, domain, tags, created_by,
                         created_at, updated_at, content_hash)
                     VALUES ('01H00000000000000000000000', 'Use PostgreSQL for storage', 'Use PostgreSQL',
                         'decisions', 'project', '[\"db\"]', 'user', '2023-05-08T00:00:00.000000Z',
                         '2023-05-08T00:00:00.000000Z', 'h')",
                    [],
                )
                .expect("insert at old version");
            }
            let version = migrate(&mut conn, "old").expect("migrate forward");
            assert_eq!(version, latest_version());
            assert_eq!(schema(&conn), want, "schema after migrating from v{start}");
            if start >= 1 {
                let (tier, hits): (String, i64) = conn
                    .query_row(
                        "SELECT m.tier, (SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'postgres*')
                         FROM memories m",
                        [],
                        |r| Ok((r.get(0)?, r.get(1)?)),
                    )
                    .expect("row survives");
                assert_eq!(tier, "hot");
                assert_eq!(hits, 1);
                let tags: i64 = conn
                    .query_row("SELECT count(*) FROM memory_tags WHERE tag = 'db'", [], |r| r.get(0))
                    .expect("tags");
                assert_eq!(tags, 1);
            }
            // Running again is a no-op.
            assert_eq!(migrate(&mut conn, "old").expect("again"), latest_version());
        }
    }

    #[test]
    fn rows_from_before_event_times_are_resolved_on_open() {
        let mut conn = Connection::open_in_memory().expect("open");
        migrate_to(&mut conn, "old", 4).expect("v4");
        conn.execute(
            "INSERT INTO memories (id, content, summary, namespace, domain, tags, created_by,
                 created_at, updated_at, content_hash)
             VALUES ('01H00000000000000000000000', 'I went to the support group yesterday', 's',
                 'learnings', 'project', '[]', 'user', '2023-05-08T13:56:00.000000Z',
                 '2023-05-08T13:56:00.000000Z', 'h')",
            [],
        )
        .expect("insert at v4");
        migrate(&mut conn, "old").expect("migrate");
        assert_eq!(backfill_time_refs(&mut conn, "old").expect("backfill"), 1);
        let (start, granularity): (String, String) = conn
            .query_row("SELECT start_date, granularity FROM memory_times", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .expect("event time row");
        assert_eq!((start.as_str(), granularity.as_str()), ("2023-05-07", "day"));
        // Nothing left to do the second time; deleting the memory drops its event times.
        assert_eq!(backfill_time_refs(&mut conn, "old").expect("again"), 0);
        conn.execute("DELETE FROM memories", []).expect("delete");
        let left: i64 = conn
            .query_row("SELECT count(*) FROM memory_times", [], |r| r.get(0))
            .expect("count");
        assert_eq!(left, 0);
    }

    #[test]
    fn newer_databases_are_refused() {
        let mut conn = Connection::open_in_memory().expect("open");
        migrate(&mut conn, "mem").expect("migrate");
        conn.execute("INSERT INTO schema_version (version, label) VALUES (999, 'future')", [])
            .expect("insert");
        let err = migrate(&mut conn, "mem").expect_err("too new");
        assert!(matches!(err, StoreError::TooNew { found: 999, .. }), "{err}");
    }
}
