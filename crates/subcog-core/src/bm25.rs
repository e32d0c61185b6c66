//! An in-memory keyword index that ranks exactly as SQLite FTS5's `bm25()` does, for a
//! resident process (the warm daemon, the MCP server) where FTS5's per-row scoring is the
//! cost of a recall: at a million memories FTS5 scores every match at about 2.5 µs a row
//! (278 ms for a project question), while this index adds one term's postings to a score
//! array at a few nanoseconds each.
//!
//! It holds what FTS5's formula reads — per (token, document) the instances in each
//! column, each document's token count, the row and token totals — and nothing of SQLite:
//! the store feeds it FTS5's own tokens (so stemming and splitting are FTS5's) and keeps it
//! fresh. A query is a list of token prefixes, one per phrase, as FTS5 evaluates
//! `"a"* OR "b"*`: a phrase's frequency in a row is the weighted count of its instances,
//! added column by column in FTS5's order, so scores are bit-for-bit FTS5's.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

/// The columns FTS5 indexes for a memory: content, summary, tags, context.
pub const COLUMNS: usize = 4;

const K1: f64 = 1.2;
const B: f64 = 0.75;

/// One document's instances of one token, per column (saturating at 255).
#[derive(Debug, Clone, Copy)]
struct Posting {
    doc: u32,
    counts: [u8; COLUMNS],
}

/// The index: a sorted vocabulary with postings (built in one pass over FTS5's instances),
/// the tokens of documents added since, and per-document lengths and liveness.
#[derive(Debug, Default)]
pub struct Bm25Index {
    weights: [f64; COLUMNS],
    /// Sorted tokens of the base; `starts[i]..starts[i + 1]` are token `i`'s postings.
    terms: Vec<Box<str>>,
    starts: Vec<usize>,
    postings: Vec<Posting>,
    /// Tokens of documents appended after the base was built.
    tail: BTreeMap<Box<str>, Vec<Posting>>,
    tail_postings: usize,
    /// Per document: its key, token count and whether it still exists.
    keys: Vec<i64>,
    lengths: Vec<u32>,
    alive: Vec<bool>,
    /// Documents removed since the last compaction (none: every posting is live).
    removed: usize,
    by_key: HashMap<i64, u32>,
    max_key: Option<i64>,
    /// FTS5's row count (rows without tokens included) and total token count.
    rows: u64,
    tokens: u64,
    /// Scratch for one search, sized to the documents.
    scores: Vec<f64>,
}

/// Feeds a [`Bm25Index`] its first state: instances in token order, then document order.
#[derive(Debug)]
pub struct Bm25Builder {
    index: Bm25Index,
    current: Option<(Box<str>, u32)>,
    sorted: bool,
}

impl Bm25Builder {
    /// A builder for column `weights` (FTS5's `bm25(table, w0, w1, …)` arguments).
    pub fn new(weights: [f64; COLUMNS]) -> Self {
        Bm25Builder {
            index: Bm25Index {
                weights,
                starts: vec![0],
                ..Bm25Index::default()
            },
            current: None,
            sorted: true,
        }
    }

    /// Adds one instance of `token` in `column` of document `key`.
    pub fn instance(&mut self, token: &str, key: i64, column: usize) {
        let Some(column) = (column < COLUMNS).then_some(column) else {
            return;
        };
        let doc = self.index.doc(key);
        self.index.tokens += 1;
        if let Some(len) = self.index.lengths.get_mut(doc as usize) {
            *len = len.saturating_add(1);
        }
        let same_token = self.current.as_ref().is_some_and(|(t, _)| &**t == token);
        // Within a token, FTS5 lists documents in key order; anything else is re-sorted.
        if same_token
            && self
                .current
                .as_ref()
                .is_some_and(|(_, d)| self.index.keys[*d as usize] > key)
        {
            self.sorted = false;
        }
        if !same_token {
            if let Some((previous, _)) = self.current.take() {
                self.index.close_term(previous);
                self.sorted &= self.index.terms.last().is_none_or(|last| **last < *token);
            }
            self.current = Some((token.into(), doc));
            self.index.postings.push(Posting {
                doc,
                counts: [0; COLUMNS],
            });
        } else if self.current.as_ref().is_some_and(|(_, d)| *d != doc) {
            self.current = Some((token.into(), doc));
            self.index.postings.push(Posting {
                doc,
                counts: [0; COLUMNS],
            });
        }
        if let Some(p) = self.index.postings.last_mut() {
            p.counts[column] = p.counts[column].saturating_add(1);
        }
    }

    /// Registers a document with no tokens (FTS5 counts it as a row).
    pub fn document(&mut self, key: i64) {
        self.index.doc(key);
    }

    /// The index, with FTS5's row count (`rows`: every row of the table, empty ones too).
    pub fn finish(mut self, rows: u64) -> Bm25Index {
        if let Some((previous, _)) = self.current.take() {
            self.index.close_term(previous);
        }
        if !self.sorted {
            self.index.sort_terms();
        }
        self.index.rows = rows.max(self.index.keys.len() as u64);
        self.index.scores = vec![0.0; self.index.keys.len()];
        self.index
    }
}

/// The ranking of one query: every matching document's key and FTS5 rank (the negated
/// score, lower is better), best first up to what was asked, and how many matched.
#[derive(Debug, Default)]
pub struct Ranking {
    /// `(key, rank)`, best first.
    pub rows: Vec<(i64, f64)>,
    /// Documents matching any phrase.
    pub matches: usize,
}

impl Bm25Index {
    /// The document number of `key`, registering it when new.
    fn doc(&mut self, key: i64) -> u32 {
        if let Some(&d) = self.by_key.get(&key) {
            return d;
        }
        let d = u32::try_from(self.keys.len()).unwrap_or(u32::MAX);
        self.by_key.insert(key, d);
        self.keys.push(key);
        self.max_key = self.max_key.max(Some(key));
        self.lengths.push(0);
        self.alive.push(true);
        d
    }

    fn close_term(&mut self, token: Box<str>) {
        self.terms.push(token);
        self.starts.push(self.postings.len());
    }

    /// Restores token order if the source was not sorted (duplicates merged).
    fn sort_terms(&mut self) {
        let mut lists: BTreeMap<Box<str>, Vec<Posting>> = BTreeMap::new();
        for (i, t) in self.terms.iter().enumerate() {
            let list = self
                .postings
                .get(self.starts[i]..self.starts[i + 1])
                .unwrap_or_default();
            lists.entry(t.clone()).or_default().extend_from_slice(list);
        }
        self.terms.clear();
        self.postings.clear();
        self.starts = vec![0];
        for (t, mut list) in lists {
            list.sort_by_key(|p| p.doc);
            self.postings.extend(merge_same_doc(list));
            self.close_term(t);
        }
    }

    /// Documents indexed, removed ones included until the next rebuild.
    pub fn documents(&self) -> usize {
        self.keys.len()
    }

    /// Whether `key` is an indexed, live document.
    pub fn contains(&self, key: i64) -> bool {
        self.by_key.get(&key).is_some_and(|&d| self.alive[d as usize])
    }

    /// The largest key indexed (documents are appended in key order).
    pub fn max_key(&self) -> Option<i64> {
        self.max_key
    }

    /// Postings appended since the base was built.
    pub fn tail_postings(&self) -> usize {
        self.tail_postings
    }

    /// Approximate heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        let terms: usize = self.terms.iter().map(|t| t.len() + 16).sum();
        let tail: usize = self.tail.iter().map(|(t, l)| t.len() + 16 + l.len() * 8).sum();
        terms
            + self.starts.len() * 8
            + self.postings.len() * std::mem::size_of::<Posting>()
            + tail
            + self.keys.len() * (8 + 4 + 1 + 8 + 24)
    }

    /// Removes a document (deleted, or about to be re-added with new text). FTS5's row
    /// count drops only when the row is gone (`row_gone`); an edit keeps the row.
    pub fn remove(&mut self, key: i64, row_gone: bool) {
        if let Some(&d) = self.by_key.get(&key) {
            let d = d as usize;
            if self.alive[d] {
                self.alive[d] = false;
                self.removed += 1;
                self.tokens = self.tokens.saturating_sub(u64::from(self.lengths[d]));
            }
            self.by_key.remove(&key);
        }
        if row_gone {
            self.rows = self.rows.saturating_sub(1);
        }
    }

    /// Appends a document from its tokens (`(token, column)` in column order); `new_row`
    /// says whether FTS5 gained a row (an insert) rather than an edit of one it had.
    pub fn append(&mut self, key: i64, tokens: &[(String, usize)], new_row: bool) {
        self.remove(key, false);
        let doc = self.doc(key);
        let mut per_token: BTreeMap<&str, [u8; COLUMNS]> = BTreeMap::new();
        for (token, column) in tokens {
            if let Some(c) = per_token.entry(token.as_str()).or_insert([0; COLUMNS]).get_mut(*column) {
                *c = c.saturating_add(1);
            }
        }
        let len = u32::try_from(tokens.len()).unwrap_or(u32::MAX);
        self.lengths[doc as usize] = len;
        self.tokens += u64::from(len);
        for (token, counts) in per_token {
            self.tail.entry(token.into()).or_default().push(Posting { doc, counts });
            self.tail_postings += 1;
        }
        if new_row {
            self.rows += 1;
        }
        self.scores.resize(self.keys.len(), 0.0);
    }

    /// The postings of every token starting with `prefix`, merged per live document.
    fn phrase(&self, prefix: &str) -> Cow<'_, [Posting]> {
        let lo = self.terms.partition_point(|t| **t < *prefix);
        let hi = lo
            + self
                .terms
                .get(lo..)
                .unwrap_or_default()
                .partition_point(|t| t.starts_with(prefix));
        let tail: Vec<&Vec<Posting>> = self
            .tail
            .range::<str, _>((std::ops::Bound::Included(prefix), std::ops::Bound::Unbounded))
            .take_while(|(t, _)| t.starts_with(prefix))
            .map(|(_, l)| l)
            .collect();
        let base = self.postings.get(self.starts[lo]..self.starts[hi]).unwrap_or_default();
        let live = |p: &&Posting| self.alive.get(p.doc as usize).copied().unwrap_or(false);
        if hi - lo <= 1 && tail.is_empty() {
            // One token: its postings are already one per document, read in place unless
            // some belong to removed documents.
            if self.removed == 0 {
                return Cow::Borrowed(base);
            }
            return Cow::Owned(base.iter().filter(live).copied().collect());
        }
        let mut all: Vec<Posting> = base
            .iter()
            .chain(tail.into_iter().flatten())
            .filter(live)
            .copied()
            .collect();
        all.sort_unstable_by_key(|p| p.doc);
        Cow::Owned(merge_same_doc(all))
    }

    /// Ranks the live documents matching any of `prefixes` (one phrase each), returning the
    /// best `limit` with FTS5's rank, ties in key order.
    pub fn search(&mut self, prefixes: &[&str], limit: usize) -> Ranking {
        let avgdl = if self.rows > 0 {
            self.tokens as f64 / self.rows as f64
        } else {
            1.0
        };
        let rows = self.rows as f64;
        let mut touched: Vec<u32> = Vec::new();
        let mut scores = std::mem::take(&mut self.scores);
        scores.resize(self.keys.len(), 0.0);
        for prefix in prefixes {
            let list = self.phrase(prefix);
            let hits = list.len() as f64;
            let mut idf = ((rows - hits + 0.5) / (hits + 0.5)).ln();
            if idf <= 0.0 {
                idf = 1e-6;
            }
            for p in list.iter() {
                let d = p.doc as usize;
                let mut freq = 0.0f64;
                for (c, &n) in p.counts.iter().enumerate() {
                    for _ in 0..n {
                        freq += self.weights[c];
                    }
                }
                let len = f64::from(self.lengths[d]);
                let part = idf * ((freq * (K1 + 1.0)) / (freq + K1 * (1.0 - B + B * len / avgdl)));
                // Every part is positive (weights and idf are), so zero means untouched.
                if scores[d] == 0.0 {
                    touched.push(p.doc);
                }
                scores[d] += part;
            }
        }
        let mut rows: Vec<(i64, f64)> = touched
            .iter()
            .map(|&d| (self.keys[d as usize], -scores[d as usize]))
            .collect();
        for &d in &touched {
            scores[d as usize] = 0.0;
        }
        self.scores = scores;
        let matches = rows.len();
        let order = |a: &(i64, f64), b: &(i64, f64)| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0));
        if limit < rows.len() {
            if limit == 0 {
                rows.clear();
            } else {
                rows.select_nth_unstable_by(limit - 1, order);
                rows.truncate(limit);
            }
        }
        rows.sort_unstable_by(order);
        Ranking { rows, matches }
    }

    /// Folds the appended postings into the sorted base and drops removed documents'
    /// postings (a compaction; searches give the same results before and after).
    pub fn compact(&mut self) {
        let mut lists: BTreeMap<Box<str>, Vec<Posting>> = std::mem::take(&mut self.tail);
        let live = |p: &Posting| self.alive.get(p.doc as usize).copied().unwrap_or(false);
        let mut terms = Vec::with_capacity(self.terms.len() + lists.len());
        let mut starts = vec![0];
        let mut postings = Vec::with_capacity(self.postings.len() + self.tail_postings);
        let mut base = self.terms.iter().enumerate().peekable();
        loop {
            let next_base = base.peek().map(|(_, t)| (*t).clone());
            let next_tail = lists.keys().next().cloned();
            let token = match (next_base, next_tail) {
                (None, None) => break,
                (Some(b), None) => b,
                (None, Some(t)) => t,
                (Some(b), Some(t)) => b.min(t),
            };
            if base.peek().is_some_and(|(_, t)| **t == token)
                && let Some((i, _)) = base.next()
            {
                let list = self
                    .postings
                    .get(self.starts[i]..self.starts[i + 1])
                    .unwrap_or_default();
                postings.extend(list.iter().filter(|p| live(p)).copied());
            }
            if let Some(list) = lists.remove(&token) {
                postings.extend(list.into_iter().filter(|p| live(p)));
            }
            if postings.len() > *starts.last().unwrap_or(&0) {
                terms.push(token);
                starts.push(postings.len());
            }
        }
        self.terms = terms;
        self.starts = starts;
        self.postings = postings;
        self.tail_postings = 0;
        self.removed = 0;
    }
}

/// Sums the counts of adjacent postings of one document (input sorted by document).
fn merge_same_doc(sorted: Vec<Posting>) -> Vec<Posting> {
    let mut out: Vec<Posting> = Vec::with_capacity(sorted.len());
    for p in sorted {
        match out.last_mut() {
            Some(last) if last.doc == p.doc => {
                for (a, b) in last.counts.iter_mut().zip(p.counts) {
                    *a = a.saturating_add(b);
                }
            }
            _ => out.push(p),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const WEIGHTS: [f64; COLUMNS] = [1.0, 0.6, 0.4, 0.6];

    /// `(token, key, column)` instances of a few documents, in FTS5's order.
    fn instances() -> Vec<(&'static str, i64, usize)> {
        let mut out = vec![
            ("cach", 1, 0),
            ("cach", 1, 2),
            ("cach", 3, 0),
            ("cache", 2, 1),
            ("deploi", 2, 0),
            ("deploi", 2, 0),
            ("deploi", 4, 3),
            ("redi", 1, 0),
            ("redi", 3, 0),
            ("redi", 4, 0),
        ];
        out.sort();
        out
    }

    fn build(order: &[(&str, i64, usize)]) -> Bm25Index {
        let mut b = Bm25Builder::new(WEIGHTS);
        for (t, k, c) in order {
            b.instance(t, *k, *c);
        }
        b.finish(5)
    }

    #[test]
    fn instances_out_of_order_build_the_same_index() {
        let sorted = instances();
        let mut shuffled = sorted.clone();
        shuffled.reverse();
        let (mut a, mut b) = (build(&sorted), build(&shuffled));
        for q in [vec!["cach"], vec!["deploi", "redi"], vec!["ca", "re"], vec!["zz"]] {
            let (ra, rb) = (a.search(&q, 10), b.search(&q, 10));
            assert_eq!(ra.matches, rb.matches, "{q:?}");
            let keys = |r: &Ranking| r.rows.iter().map(|(k, _)| *k).collect::<Vec<_>>();
            assert_eq!(keys(&ra), keys(&rb), "{q:?}");
        }
    }

    #[test]
    fn a_prefix_merges_its_tokens_per_document_and_removed_documents_drop_out() {
        let mut index = build(&instances());
        // "cach" and "cache" both start with "cach": documents 1, 2 and 3.
        let r = index.search(&["cach"], 10);
        assert_eq!(r.matches, 3);
        // Document 1 has the token twice (content and tags): it ranks first.
        assert_eq!(r.rows.first().map(|(k, _)| *k), Some(1));
        index.remove(1, true);
        let r = index.search(&["cach"], 10);
        assert_eq!(r.rows.iter().map(|(k, _)| *k).collect::<Vec<_>>(), vec![3, 2]);
        // A one-token phrase read in place skips the removed document too.
        let r = index.search(&["redi"], 10);
        assert_eq!(r.rows.iter().map(|(k, _)| *k).collect::<Vec<_>>(), vec![3, 4]);
        // Re-added with other text, under the same key.
        index.append(1, &[("redi".into(), 0)], true);
        assert_eq!(index.search(&["cach"], 10).matches, 2);
        assert_eq!(index.search(&["redi"], 10).matches, 3);
        assert!(index.contains(1) && !index.contains(9));
        // A limit keeps the best, in order.
        let all = index.search(&["redi", "deploi"], 10);
        let two = index.search(&["redi", "deploi"], 2);
        assert_eq!(two.rows, all.rows[..2].to_vec());
        assert_eq!(two.matches, all.matches);
    }
}
