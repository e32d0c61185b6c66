//! The resident keyword index of a SQLite store ([`crate::bm25`]): built once from FTS5's
//! own tokens (its `fts5vocab` instance view), kept fresh from the database, and used for
//! keyword search instead of FTS5's per-row `bm25()` once a long-lived process asks for it
//! (`Store::prepare_keywords`: the warm daemon and the MCP server). A one-shot process
//! never builds it and searches FTS5 as before; both rank identically.
//!
//! Freshness: new rows are the rows above the largest seq indexed (seqs only grow); edits
//! and deletions are read from `memories_text_log`, which triggers fill whichever process
//! writes. New and edited text is tokenized by a temporary FTS5 table with the same
//! tokenizer, so the index never holds a token FTS5 would not. A query term is tokenized
//! the same way (and remembered); a term that is not exactly one token sends the query to
//! FTS5.

use std::collections::{BTreeSet, HashMap};

use rusqlite::{Connection, OptionalExtension};

use super::{BM25_WEIGHT_VALUES, SqliteStore};
use crate::bm25::{Bm25Builder, Bm25Index, COLUMNS, Ranking};
use crate::store::StoreError;

/// The tokenizer of `memories_fts` (migration 0001); the temporary table must match it.
const TOKENIZER: &str = "porter unicode61 remove_diacritics 2";

/// The searchable columns, in FTS5's order.
const COLUMN_NAMES: [&str; COLUMNS] = ["content", "summary", "tags", "context"];

/// Query terms remembered with their token; cleared when it grows past this.
const TERM_CACHE: usize = 4_096;

/// A loaded index and how far it has read the database.
pub(crate) struct KeywordCache {
    pub(super) index: Bm25Index,
    /// The last `memories_text_log` entry applied.
    log_id: i64,
    /// The largest seq looked at (rows above it are new).
    max_seq: i64,
    /// Query term → its FTS5 token (`None`: not exactly one token).
    terms: HashMap<String, Option<String>>,
}

fn column_index(name: &str) -> Option<usize> {
    COLUMN_NAMES.iter().position(|c| *c == name)
}

impl SqliteStore {
    /// Builds the keyword index unless it is loaded; refreshes it if it is. A file store
    /// builds on a read-only connection of its own, so searches (through FTS5 meanwhile)
    /// and writes go on while it reads every token.
    pub(super) fn prepare_keywords_impl(&self) -> Result<(), StoreError> {
        if self.has_keyword_index() {
            let mut conn = self.lock()?;
            let mut cache = self.keywords.lock().map_err(|_| self.poisoned("keyword index"))?;
            if let Some(c) = cache.as_mut() {
                self.refresh_keywords(&mut conn, c)?;
            }
            return Ok(());
        }
        let built = if self.path.is_file() {
            let mut reader = Connection::open_with_flags(
                &self.path,
                rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )
            .map_err(|e| self.err(e))?;
            reader.busy_timeout(self.busy_timeout).map_err(|e| self.err(e))?;
            self.build_keywords(&mut reader)?
        } else {
            let mut conn = self.lock()?;
            self.build_keywords(&mut conn)?
        };
        let conn = self.lock()?;
        self.keyword_tables(&conn)?;
        let mut cache = self.keywords.lock().map_err(|_| self.poisoned("keyword index"))?;
        if cache.is_none() {
            *cache = Some(built);
        }
        Ok(())
    }

    /// The best `n` rows for `terms` from the resident index, or `None` when there is no
    /// index (a one-shot process) or a term is not a single token (FTS5 answers then).
    pub(super) fn keyword_top(&self, terms: &[String], n: usize) -> Result<Option<Ranking>, StoreError> {
        let mut conn = self.lock()?;
        let mut guard = self.keywords.lock().map_err(|_| self.poisoned("keyword index"))?;
        let Some(cache) = guard.as_mut() else {
            return Ok(None);
        };
        let _span = tracing::debug_span!("store.sqlite.keywords", terms = terms.len(), limit = n).entered();
        self.refresh_keywords(&mut conn, cache)?;
        let mut tokens = Vec::with_capacity(terms.len());
        for term in terms {
            match self.term_token(&conn, cache, term)? {
                Some(t) => tokens.push(t),
                None => return Ok(None),
            }
        }
        let prefixes: Vec<&str> = tokens.iter().map(String::as_str).collect();
        Ok(Some(cache.index.search(&prefixes, n)))
    }

    fn conversion(&self, e: rusqlite::types::FromSqlError) -> StoreError {
        StoreError::Backend {
            path: self.label.clone(),
            message: format!("unreadable FTS5 instance: {e}"),
        }
    }

    fn poisoned(&self, what: &str) -> StoreError {
        StoreError::Backend {
            path: self.label.clone(),
            message: format!("{what} lock poisoned"),
        }
    }

    /// The temporary FTS5 table (same tokenizer) and the instance views of it and of
    /// `memories_fts`; temporary objects live as long as this connection.
    fn keyword_tables(&self, conn: &Connection) -> Result<(), StoreError> {
        let columns = COLUMN_NAMES.join(", ");
        conn.execute_batch(&format!(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.subcog_tokenize USING fts5({columns}, tokenize = '{TOKENIZER}');
             CREATE VIRTUAL TABLE IF NOT EXISTS temp.subcog_tokenize_instances
                 USING fts5vocab(temp, subcog_tokenize, instance);
             CREATE VIRTUAL TABLE IF NOT EXISTS temp.subcog_fts_instances
                 USING fts5vocab(main, memories_fts, instance);"
        ))
        .map_err(|e| self.err(e))
    }

    /// Reads every instance of `memories_fts` into a new index, in one read transaction
    /// with the counts it is checked against later.
    fn build_keywords(&self, conn: &mut Connection) -> Result<KeywordCache, StoreError> {
        let _span = tracing::debug_span!("store.sqlite.build_keywords").entered();
        let started = std::time::Instant::now();
        self.keyword_tables(conn)?;
        let tx = conn.transaction().map_err(|e| self.err(e))?;
        let (rows, max_seq, log_id) = tx
            .query_row(
                "SELECT (SELECT count(*) FROM memories), (SELECT coalesce(max(seq), 0) FROM memories),
                        (SELECT coalesce(max(id), 0) FROM memories_text_log)",
                [],
                |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, i64>(2)?)),
            )
            .map_err(|e| self.err(e))?;
        let mut builder = Bm25Builder::new(BM25_WEIGHT_VALUES);
        {
            let mut stmt = tx
                .prepare("SELECT term, doc, col FROM temp.subcog_fts_instances")
                .map_err(|e| self.err(e))?;
            let mut cursor = stmt.query([]).map_err(|e| self.err(e))?;
            // Column names repeat: map each distinct one once.
            let mut last_col: (Vec<u8>, Option<usize>) = (Vec::new(), None);
            while let Some(row) = cursor.next().map_err(|e| self.err(e))? {
                let term = row
                    .get_ref(0)
                    .map_err(|e| self.err(e))?
                    .as_str()
                    .map_err(|e| self.conversion(e))?;
                let doc: i64 = row.get(1).map_err(|e| self.err(e))?;
                let col = row
                    .get_ref(2)
                    .map_err(|e| self.err(e))?
                    .as_bytes()
                    .map_err(|e| self.conversion(e))?;
                if col != last_col.0.as_slice() {
                    last_col = (col.to_vec(), std::str::from_utf8(col).ok().and_then(column_index));
                }
                if let Some(c) = last_col.1 {
                    builder.instance(term, doc, c);
                }
            }
        }
        tx.commit().map_err(|e| self.err(e))?;
        let index = builder.finish(u64::try_from(rows).unwrap_or(0));
        tracing::info!(
            documents = index.documents(),
            heap_mib = index.heap_bytes() >> 20,
            ms = started.elapsed().as_millis() as u64,
            "keyword index built"
        );
        Ok(KeywordCache {
            index,
            log_id,
            max_seq,
            terms: HashMap::new(),
        })
    }

    /// Applies what changed since the index last looked: edits and deletions from the log,
    /// new rows above `max_seq`. Rebuilds when the log no longer reaches back far enough.
    fn refresh_keywords(&self, conn: &mut Connection, cache: &mut KeywordCache) -> Result<(), StoreError> {
        let (min_log, max_log, max_seq) = conn
            .query_row(
                "SELECT (SELECT min(id) FROM memories_text_log), (SELECT coalesce(max(id), 0) FROM memories_text_log),
                        (SELECT coalesce(max(seq), 0) FROM memories)",
                [],
                |r| Ok((r.get::<_, Option<i64>>(0)?, r.get::<_, i64>(1)?, r.get::<_, i64>(2)?)),
            )
            .map_err(|e| self.err(e))?;
        if max_log <= cache.log_id && max_seq <= cache.max_seq {
            return Ok(());
        }
        if max_log > cache.log_id && min_log.is_some_and(|m| m > cache.log_id + 1) {
            tracing::info!("keyword index fell behind the change log; rebuilding");
            *cache = self.build_keywords(conn)?;
            return Ok(());
        }
        let _span = tracing::debug_span!("store.sqlite.refresh_keywords").entered();
        let tx = conn.transaction().map_err(|e| self.err(e))?;
        let mut edited: BTreeSet<i64> = BTreeSet::new();
        let mut last_log = cache.log_id;
        {
            let mut stmt = tx
                .prepare_cached("SELECT id, seq, gone FROM memories_text_log WHERE id > ?1 ORDER BY id")
                .map_err(|e| self.err(e))?;
            let mut cursor = stmt.query([cache.log_id]).map_err(|e| self.err(e))?;
            while let Some(row) = cursor.next().map_err(|e| self.err(e))? {
                let (id, seq, gone): (i64, i64, bool) = (
                    row.get(0).map_err(|e| self.err(e))?,
                    row.get(1).map_err(|e| self.err(e))?,
                    row.get(2).map_err(|e| self.err(e))?,
                );
                last_log = id;
                // Rows the index never saw are read whole below, as they are now.
                if seq > cache.max_seq {
                    continue;
                }
                if gone {
                    edited.remove(&seq);
                    cache.index.remove(seq, true);
                } else {
                    edited.insert(seq);
                }
            }
        }
        let mut texts: Vec<(i64, bool, [Option<String>; COLUMNS])> = Vec::new();
        {
            let mut stmt = tx
                .prepare_cached("SELECT seq, content, summary, tags, context FROM memories WHERE seq > ?1 ORDER BY seq")
                .map_err(|e| self.err(e))?;
            let mut cursor = stmt.query([cache.max_seq]).map_err(|e| self.err(e))?;
            while let Some(row) = cursor.next().map_err(|e| self.err(e))? {
                texts.push((row.get(0).map_err(|e| self.err(e))?, true, read_columns(self, row)?));
            }
            let mut one = tx
                .prepare_cached("SELECT seq, content, summary, tags, context FROM memories WHERE seq = ?1")
                .map_err(|e| self.err(e))?;
            for seq in &edited {
                let row = one
                    .query_row([seq], |row| Ok((row.get::<_, i64>(0)?, read_columns_raw(row)?)))
                    .optional()
                    .map_err(|e| self.err(e))?;
                if let Some((seq, columns)) = row {
                    texts.push((seq, false, columns));
                }
            }
        }
        tx.commit().map_err(|e| self.err(e))?;
        for (seq, new_row, columns) in &texts {
            let tokens = self.tokenize(conn, columns)?;
            cache.index.append(*seq, &tokens, *new_row);
        }
        cache.log_id = last_log.max(cache.log_id);
        cache.max_seq = cache.max_seq.max(max_seq);
        // Appends go to a side map; fold them in once they are a sizeable share.
        if cache.index.tail_postings() > 50_000 {
            cache.index.compact();
        }
        Ok(())
    }

    /// FTS5's tokens of one row, `(token, column)`, through the temporary table.
    fn tokenize(
        &self,
        conn: &Connection,
        columns: &[Option<String>; COLUMNS],
    ) -> Result<Vec<(String, usize)>, StoreError> {
        conn.execute(
            "INSERT INTO temp.subcog_tokenize (rowid, content, summary, tags, context) VALUES (1, ?1, ?2, ?3, ?4)",
            rusqlite::params![columns[0], columns[1], columns[2], columns[3]],
        )
        .map_err(|e| self.err(e))?;
        let tokens = {
            let mut stmt = conn
                .prepare_cached("SELECT term, col FROM temp.subcog_tokenize_instances")
                .map_err(|e| self.err(e))?;
            stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
                .map_err(|e| self.err(e))?
                .filter_map(|r| match r {
                    Ok((t, c)) => column_index(&c).map(|c| Ok((t, c))),
                    Err(e) => Some(Err(e)),
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| self.err(e))?
        };
        conn.execute("DELETE FROM temp.subcog_tokenize", [])
            .map_err(|e| self.err(e))?;
        Ok(tokens)
    }

    /// The one FTS5 token of a query term, remembered; `None` when it is not one token.
    fn term_token(
        &self,
        conn: &Connection,
        cache: &mut KeywordCache,
        term: &str,
    ) -> Result<Option<String>, StoreError> {
        if let Some(known) = cache.terms.get(term) {
            return Ok(known.clone());
        }
        let tokens = self.tokenize(conn, &[Some(term.to_string()), None, None, None])?;
        let token = match tokens.as_slice() {
            [(t, _)] => Some(t.clone()),
            _ => None,
        };
        if cache.terms.len() >= TERM_CACHE {
            cache.terms.clear();
        }
        cache.terms.insert(term.to_string(), token.clone());
        Ok(token)
    }
}

fn read_columns_raw(row: &rusqlite::Row<'_>) -> rusqlite::Result<[Option<String>; COLUMNS]> {
    Ok([row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?])
}

fn read_columns(store: &SqliteStore, row: &rusqlite::Row<'_>) -> Result<[Option<String>; COLUMNS], StoreError> {
    read_columns_raw(row).map_err(|e| store.err(e))
}
