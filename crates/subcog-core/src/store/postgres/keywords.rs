//! The keyword index a long-lived process keeps in memory for one PostgreSQL scope, so a
//! search adds up postings in Rust instead of aggregating every matching row in SQL
//! (at 100,000 memories a common stem has some 11,000 postings).
//!
//! It holds `subcog_terms` as PostgreSQL wrote it (lexeme, memory, weighted frequency,
//! length) and ranks with the same formula as `search.rs`, so both paths rank alike. It is
//! kept fresh from `subcog_terms_log` (migration 3): before each search it re-reads the
//! postings of memories logged at or after its *horizon*, the oldest transaction that was
//! still running when it last looked. A transaction that commits late is therefore read
//! on a later search, and reading an entry twice does no harm. Entries older than an hour
//! are trimmed; a reader whose horizon is older than what was trimmed builds again.
//! Transaction ids are compared as numbers (PostgreSQL 13's `xid8` has no `max`).
//! Only [`crate::store::Store::prepare_keywords`] builds it: a one-shot process (a hook
//! or command that no warm process answers) keeps the SQL path.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use postgres::GenericClient;

use super::search::{B, K1, STEMS};

/// How old a log entry gets before a reader trims it (an SQL interval).
const KEEP_LOG: &str = "1 hour";

/// How often one process trims the log.
const TRIM_EVERY: Duration = Duration::from_secs(600);

/// The `subcog_meta` key holding the newest transaction id trimmed from the log.
pub(super) const TRIMMED_KEY: &str = "terms_log_trimmed";

#[derive(Debug, Clone, Copy)]
struct Posting {
    doc: u32,
    f: f64,
    doclen: i32,
}

/// A scope's postings in memory.
#[derive(Debug, Default)]
pub(super) struct Resident {
    /// Lexeme → its number (byte order, as `COLLATE "C"` sorts, for prefix ranges).
    lexemes: BTreeMap<String, u32>,
    postings: Vec<Vec<Posting>>,
    /// Document number → memory id, and back.
    ids: Vec<String>,
    doc_of: HashMap<String, u32>,
    /// Document number → the lexemes it has postings in (to remove them).
    terms_of: Vec<Vec<u32>>,
    /// Transactions at or after this one may not have been read yet (`xid8` as text).
    horizon: String,
    last_trim: Option<Instant>,
}

/// What one search needs from the server besides the index.
pub(super) struct Look {
    /// The query's stems.
    pub stems: Vec<String>,
    /// Memories in the scope, and their total length.
    pub docs: f64,
    pub total_len: f64,
}

impl Resident {
    /// Reads every posting of `scope` in one snapshot.
    pub fn build(c: &mut postgres::Client, scope: &str) -> Result<Self, postgres::Error> {
        let mut tx = c
            .build_transaction()
            .read_only(true)
            .isolation_level(postgres::IsolationLevel::RepeatableRead)
            .start()?;
        let horizon: String = tx
            .query_one("SELECT pg_snapshot_xmin(pg_current_snapshot())::text", &[])?
            .try_get(0)?;
        let mut me = Resident {
            horizon,
            ..Default::default()
        };
        let rows = tx.query(
            "SELECT memory_id, lexeme, f, doclen FROM subcog_terms WHERE scope = $1 ORDER BY memory_id",
            &[&scope],
        )?;
        tx.commit()?;
        me.add_rows(&rows)?;
        Ok(me)
    }

    /// Memories held.
    pub fn documents(&self) -> usize {
        self.doc_of.len()
    }

    fn add_rows(&mut self, rows: &[postgres::Row]) -> Result<(), postgres::Error> {
        for r in rows {
            let id: String = r.try_get(0)?;
            let lexeme: String = r.try_get(1)?;
            let f: f64 = r.try_get(2)?;
            let doclen: i32 = r.try_get(3)?;
            let doc = match self.doc_of.get(&id) {
                Some(d) => *d,
                None => {
                    let d = u32::try_from(self.ids.len()).unwrap_or(u32::MAX);
                    self.ids.push(id.clone());
                    self.terms_of.push(Vec::new());
                    self.doc_of.insert(id, d);
                    d
                }
            };
            let next = u32::try_from(self.postings.len()).unwrap_or(u32::MAX);
            let l = *self.lexemes.entry(lexeme).or_insert(next);
            if l == next {
                self.postings.push(Vec::new());
            }
            if let Some(list) = self.postings.get_mut(l as usize) {
                list.push(Posting { doc, f, doclen });
            }
            if let Some(terms) = self.terms_of.get_mut(doc as usize) {
                terms.push(l);
            }
        }
        Ok(())
    }

    /// Drops a memory's postings (its number stays, unused, until it is seen again).
    fn remove(&mut self, id: &str) {
        let Some(&doc) = self.doc_of.get(id) else {
            return;
        };
        let terms = self
            .terms_of
            .get_mut(doc as usize)
            .map(std::mem::take)
            .unwrap_or_default();
        for l in terms {
            if let Some(list) = self.postings.get_mut(l as usize) {
                list.retain(|p| p.doc != doc);
            }
        }
    }

    /// Brings the index up to date and reads what the search needs, in one round trip
    /// when nothing changed. `Ok(None)`: the log was trimmed past this reader, rebuild.
    pub fn refresh(
        &mut self,
        c: &mut impl GenericClient,
        scope: &str,
        terms: &[String],
    ) -> Result<Option<Look>, postgres::Error> {
        let query = format!(
            "SELECT pg_snapshot_xmin(pg_current_snapshot())::text,
                    (SELECT coalesce(array_agg(DISTINCT memory_id), '{{}}') FROM subcog_terms_log
                      WHERE scope = $1 AND xid >= $3::text::xid8),
                    (SELECT coalesce(array_agg(stem), '{{}}') FROM ({STEMS}) s),
                    coalesce((SELECT docs::float8 FROM subcog_scope_stats WHERE scope = $1), 0),
                    coalesce((SELECT total_len::float8 FROM subcog_scope_stats WHERE scope = $1), 0),
                    coalesce((SELECT value::numeric >= $3::text::numeric FROM subcog_meta WHERE scope = $1 AND key = $4), false)"
        );
        let row = c.query_one(&query, &[&scope, &terms, &self.horizon, &TRIMMED_KEY])?;
        let horizon: String = row.try_get(0)?;
        let changed: Vec<String> = row.try_get(1)?;
        let stems: Vec<String> = row.try_get(2)?;
        let docs: f64 = row.try_get(3)?;
        let total_len: f64 = row.try_get(4)?;
        let behind: bool = row.try_get(5)?;
        if behind {
            return Ok(None);
        }
        if !changed.is_empty() {
            let rows = c.query(
                "SELECT memory_id, lexeme, f, doclen FROM subcog_terms WHERE scope = $1 AND memory_id = ANY($2)",
                &[&scope, &changed],
            )?;
            for id in &changed {
                self.remove(id);
            }
            self.add_rows(&rows)?;
        }
        self.horizon = horizon;
        if self.last_trim.is_none_or(|t| t.elapsed() >= TRIM_EVERY) {
            self.last_trim = Some(Instant::now());
            // Trimming is housekeeping: a role that may only read still searches.
            if let Err(e) = trim(c, scope, KEEP_LOG) {
                tracing::debug!(scope, error = %e, "keyword change log not trimmed");
            }
        }
        Ok(Some(Look { stems, docs, total_len }))
    }

    /// Every memory matching a stem (as a prefix) with its BM25 score, unordered: the
    /// caller orders as much as it needs ([`order_prefix`]).
    pub fn rank(&self, look: &Look) -> Vec<(f64, &str)> {
        let avgdl = (look.total_len / look.docs.max(1.0)).max(1.0);
        let n = self.ids.len();
        let mut scores: Vec<f64> = vec![0.0; n];
        let mut touched: Vec<u32> = Vec::new();
        // One stem's sum of frequencies per memory, dense: a hash map costs more here.
        let mut f_of: Vec<f64> = vec![0.0; n];
        let mut len_of: Vec<i32> = vec![0; n];
        let mut hit: Vec<u32> = Vec::new();
        for stem in &look.stems {
            hit.clear();
            for (_, &l) in self
                .lexemes
                .range(stem.clone()..)
                .take_while(|(name, _)| name.starts_with(stem.as_str()))
            {
                for p in self.postings.get(l as usize).into_iter().flatten() {
                    let d = p.doc as usize;
                    if let (Some(f), Some(len)) = (f_of.get_mut(d), len_of.get_mut(d)) {
                        if *f == 0.0 {
                            hit.push(p.doc);
                        }
                        *f += p.f;
                        *len = (*len).max(p.doclen);
                    }
                }
            }
            let df = hit.len() as f64;
            let idf = ((look.docs - df + 0.5) / (df + 0.5)).ln().max(1e-6);
            for &doc in &hit {
                let d = doc as usize;
                let (Some(f), Some(len), Some(s)) = (f_of.get_mut(d), len_of.get_mut(d), scores.get_mut(d)) else {
                    continue;
                };
                if *s == 0.0 {
                    touched.push(doc);
                }
                *s += idf * *f * (K1 + 1.0) / (*f + K1 * (1.0 - B + B * f64::from(*len) / avgdl));
                *f = 0.0;
                *len = 0;
            }
        }
        touched
            .into_iter()
            .filter_map(|d| Some((*scores.get(d as usize)?, self.ids.get(d as usize)?.as_str())))
            .collect()
    }
}

/// Best first, ties by id (as the SQL path orders them).
fn better(a: &(f64, &str), b: &(f64, &str)) -> std::cmp::Ordering {
    b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1))
}

/// Orders `ranked[..upto]` given that `ranked[..done]` already is the ordered best `done`:
/// a selection of the next ones, then a sort of only those.
pub(super) fn order_prefix(ranked: &mut [(f64, &str)], done: usize, upto: usize) -> usize {
    let upto = upto.min(ranked.len());
    if upto <= done {
        return done;
    }
    let rest = ranked.get_mut(done..).unwrap_or_default();
    let k = upto - done;
    if k < rest.len() {
        rest.select_nth_unstable_by(k, better);
    }
    rest.get_mut(..k).unwrap_or_default().sort_by(better);
    upto
}

/// Deletes log entries older than `keep` (an SQL interval), recording the newest one
/// deleted so that readers that had not read it yet know to rebuild.
pub(super) fn trim(c: &mut impl GenericClient, scope: &str, keep: &str) -> Result<(), postgres::Error> {
    c.execute(
        "WITH gone AS (DELETE FROM subcog_terms_log WHERE scope = $1 AND logged_at < now() - $3::text::interval
                           RETURNING xid)
             INSERT INTO subcog_meta (scope, key, value)
             SELECT $1, $2, max(xid::text::numeric)::text FROM gone HAVING count(*) > 0
             ON CONFLICT (scope, key) DO UPDATE
                SET value = greatest(subcog_meta.value::numeric, excluded.value::numeric)::text",
        &[&scope, &TRIMMED_KEY, &keep],
    )?;
    Ok(())
}
