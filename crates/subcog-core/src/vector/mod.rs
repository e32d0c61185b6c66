//! Vector search: the [`VectorIndex`] seam and the flat index, exact up to
//! [`APPROXIMATE_MIN_ROWS`] vectors.
//!
//! Vectors are unit length, so similarity is a dot product over a contiguous matrix. A scan
//! of 10,000 f32 vectors (15 MB) is bound by memory bandwidth, so the index also keeps an
//! 8-bit copy (a quarter of the size, in cache) that picks a shortlist; the shortlist is
//! then scored exactly, so results and scores are those of the f32 vectors. Above the
//! threshold even the 8-bit copy is too much to stream per query (384 MB at a million), so
//! a sign bit per dimension ([`signs`]) first picks the [`RESCORE_ROWS`] rows nearest in
//! Hamming distance, and only those go through the exact steps: approximate, with recall
//! against the exact scan measured by `examples/vector_recall.rs`.

mod signs;

use std::collections::HashSet;

use crate::embed::dot;

/// From this many candidate rows on, the sign bits pick the rows that are scored.
pub const APPROXIMATE_MIN_ROWS: usize = 200_000;

/// Rows the sign bits hand to the exact steps (more when `k` is large).
pub const RESCORE_ROWS: usize = 32_768;

/// Nearest-neighbour search over keyed vectors.
pub trait VectorIndex: Send + Sync {
    /// Number of vectors.
    fn len(&self) -> usize;

    /// Whether the index holds no vectors.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `k` most similar keys (restricted to `allowed` when given), best first.
    fn search(&self, query: &[f32], allowed: Option<&HashSet<i64>>, k: usize) -> Vec<(i64, f32)>;
}

/// Below this many candidates the exact scan is as cheap as the two-step one.
const SHORTLIST_MIN_ROWS: usize = 2_048;

/// Room for f32 rounding in the error bound (dot products of unit vectors round by ~1e-6).
const ROUNDING_SLACK: f32 = 1e-4;

/// Exact search over every vector.
#[derive(Debug, Clone, Default)]
pub struct FlatIndex {
    dim: usize,
    keys: Vec<i64>,
    data: Vec<f32>,
    /// Each vector rounded to i8 after dividing by its scale.
    codes: Vec<i8>,
    /// Per vector: its quantization (scale, norm of the rounding error, norm).
    quant: Vec<Quantized>,
    /// Sign bits of every vector, made at the first search that uses them (an index is
    /// loaded whole, then only searched).
    signs: std::sync::OnceLock<signs::Signs>,
    /// Rows from which the sign bits take the first look (0: [`APPROXIMATE_MIN_ROWS`]).
    approximate_from: usize,
}

/// How a vector was rounded: `v = scale * codes + e`.
#[derive(Debug, Clone, Copy, Default)]
struct Quantized {
    scale: f32,
    error_norm: f32,
    norm: f32,
}

impl FlatIndex {
    /// An empty index for vectors of `dim`.
    pub fn new(dim: usize) -> Self {
        FlatIndex {
            dim,
            ..FlatIndex::default()
        }
    }

    /// Adds a vector; vectors of another length are ignored (never mixed).
    pub fn push(&mut self, key: i64, vector: &[f32]) -> bool {
        if vector.len() != self.dim {
            return false;
        }
        self.keys.push(key);
        self.data.extend_from_slice(vector);
        let q = quantize_into(vector, &mut self.codes);
        self.quant.push(q);
        self.signs = std::sync::OnceLock::new();
        true
    }

    /// Rows passing `allowed`.
    fn passing<'a>(&'a self, allowed: Option<&'a HashSet<i64>>) -> impl Iterator<Item = usize> + 'a {
        self.keys
            .iter()
            .enumerate()
            .filter(move |(_, key)| allowed.is_none_or(|a| a.contains(key)))
            .map(|(i, _)| i)
    }

    /// The rows passing `allowed` nearest to `query` by sign bits, at least `want`.
    fn by_signs(&self, query: &[f32], allowed: Option<&HashSet<i64>>, want: usize) -> Vec<usize> {
        let signs = self.signs.get_or_init(|| signs::Signs::build(&self.data, self.dim));
        let mut distances = signs.distances(query);
        if let Some(a) = allowed {
            for (d, key) in distances.iter_mut().zip(&self.keys) {
                if !a.contains(key) {
                    *d = u16::MAX;
                }
            }
        }
        signs::nearest(&distances, want)
    }

    /// The exact top `k` by a full f32 scan, whatever the size; the reference that
    /// recall is measured against.
    pub fn search_exact(&self, query: &[f32], k: usize) -> Vec<(i64, f32)> {
        if query.len() != self.dim || k == 0 || self.dim == 0 {
            return Vec::new();
        }
        top_k(self.exact(query, None), k)
    }

    /// The top `k` with the sign bits' first look (approximate), whatever the size; for
    /// measuring recall against [`VectorIndex::search`]'s exact answer.
    pub fn search_approximate(&self, query: &[f32], k: usize, rescore: usize) -> Vec<(i64, f32)> {
        if query.len() != self.dim || k == 0 || self.dim == 0 {
            return Vec::new();
        }
        let rows = self.by_signs(query, None, rescore.max(k));
        top_k(self.shortlisted(query, rows, k), k)
    }

    fn row(&self, i: usize) -> &[f32] {
        &self.data[i * self.dim..(i + 1) * self.dim]
    }

    /// Rows passing `allowed`, scored exactly.
    fn exact(&self, query: &[f32], allowed: Option<&HashSet<i64>>) -> Vec<(i64, f32)> {
        self.data
            .chunks_exact(self.dim)
            .zip(&self.keys)
            .filter(|(_, key)| allowed.is_none_or(|a| a.contains(key)))
            .map(|(row, key)| (*key, dot(row, query)))
            .collect()
    }

    /// The exact top `k` of the rows passing `allowed`, scoring exactly only the rows whose
    /// 8-bit score could reach it. With `v = s·c + e` and `q = t·d + f`,
    /// `|v·q − s·t·(c·d)| ≤ ‖f‖·‖v‖ + ‖e‖·‖t·d‖`, so every row's exact score lies in a known
    /// interval: the `k`-th best lower end is a floor no row above the cut can miss.
    fn shortlisted(&self, query: &[f32], rows: impl IntoIterator<Item = usize>, k: usize) -> Vec<(i64, f32)> {
        let mut d = Vec::with_capacity(self.dim);
        let qq = quantize_into(query, &mut d);
        // ‖t·d‖ = ‖q − f‖ ≤ ‖q‖ + ‖f‖.
        let td_norm = qq.norm + qq.error_norm;
        let rough: Vec<(usize, f32, f32)> = rows
            .into_iter()
            .filter_map(|i| {
                let row = self.codes.get(i * self.dim..(i + 1) * self.dim)?;
                let q = self.quant.get(i)?;
                let approx = dot_i8(row, &d) as f32 * q.scale * qq.scale;
                let slack = qq.error_norm * q.norm + q.error_norm * td_norm + ROUNDING_SLACK;
                Some((i, approx, slack))
            })
            .collect();
        if rough.len() <= k {
            return rough
                .iter()
                .map(|&(i, _, _)| (self.keys[i], dot(self.row(i), query)))
                .collect();
        }
        let mut lows: Vec<f32> = rough.iter().map(|&(_, a, s)| a - s).collect();
        lows.select_nth_unstable_by(k - 1, |a, b| b.total_cmp(a));
        let floor = lows[k - 1];
        rough
            .into_iter()
            // A NaN (a corrupt vector) keeps its row rather than dropping it.
            .filter(|&(_, a, s)| (a + s).partial_cmp(&floor) != Some(std::cmp::Ordering::Less))
            .map(|(i, _, _)| (self.keys[i], dot(self.row(i), query)))
            .collect()
    }
}

/// Appends `v` as i8 codes (rounded `v / scale`) and says how it was rounded. Written so
/// the compiler vectorizes it (an index load quantizes every stored vector): rounding by
/// the 1.5·2²³ trick instead of a `roundf` call per element, sums in eight lanes.
fn quantize_into(v: &[f32], out: &mut Vec<i8>) -> Quantized {
    const ROUND: f32 = 12_582_912.0;
    let max = v.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    let scale = if max > 0.0 && max.is_finite() { max / 127.0 } else { 0.0 };
    let inv = if scale > 0.0 { 1.0 / scale } else { 0.0 };
    let start = out.len();
    // |x·inv| <= 127 (plus rounding), far inside the range where the trick is exact.
    out.extend(v.iter().map(|&x| (((x * inv) + ROUND) - ROUND) as i32 as i8));
    let codes = out.get(start..).unwrap_or_default();
    let (mut err, mut norm) = ([0.0f32; 8], [0.0f32; 8]);
    let (xs, cs) = (v.chunks_exact(8), codes.chunks_exact(8));
    let tail = xs.remainder().iter().zip(cs.remainder());
    for (x8, c8) in xs.zip(cs) {
        for k in 0..8 {
            let e = x8[k] - f32::from(c8[k]) * scale;
            err[k] += e * e;
            norm[k] += x8[k] * x8[k];
        }
    }
    let (mut err, mut norm) = (err.iter().sum::<f32>(), norm.iter().sum::<f32>());
    for (&x, &c) in tail {
        let e = x - f32::from(c) * scale;
        err += e * e;
        norm += x * x;
    }
    Quantized {
        scale,
        error_norm: err.sqrt(),
        norm: norm.sqrt(),
    }
}

/// Integer dot product of two code rows. Codes are within ±127, so each product fits an
/// i16; written as 16 independent i16 products so the compiler uses packed multiplies
/// (3x faster than widening to i32 first on x86-64's baseline SSE2).
fn dot_i8(a: &[i8], b: &[i8]) -> i32 {
    let mut acc = [0i32; 16];
    let (ca, cb) = (a.chunks_exact(16), b.chunks_exact(16));
    let tail: i32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(&x, &y)| i32::from(x) * i32::from(y))
        .sum();
    for (x, y) in ca.zip(cb) {
        for j in 0..16 {
            acc[j] += i32::from(i16::from(x[j]) * i16::from(y[j]));
        }
    }
    acc.iter().sum::<i32>() + tail
}

impl VectorIndex for FlatIndex {
    fn len(&self) -> usize {
        self.keys.len()
    }

    fn search(&self, query: &[f32], allowed: Option<&HashSet<i64>>, k: usize) -> Vec<(i64, f32)> {
        if query.len() != self.dim || k == 0 || self.dim == 0 {
            return Vec::new();
        }
        let rows = allowed.map_or(self.keys.len(), |a| a.len().min(self.keys.len()));
        let (from, rescore) = match self.approximate_from {
            0 => (APPROXIMATE_MIN_ROWS, RESCORE_ROWS),
            // Tests: the same path on a small index, handing over the same share of rows.
            n => (n, (RESCORE_ROWS * n / APPROXIMATE_MIN_ROWS).max(1)),
        };
        let scored = if rows >= from && rows > rescore.max(k) {
            let near = self.by_signs(query, allowed, rescore.max(k.saturating_mul(64)));
            self.shortlisted(query, near, k)
        } else if rows >= SHORTLIST_MIN_ROWS && rows > k {
            self.shortlisted(query, self.passing(allowed), k)
        } else {
            self.exact(query, allowed)
        };
        top_k(scored, k)
    }
}

/// The best `k` of `scored`, best first (ties by key).
fn top_k(mut scored: Vec<(i64, f32)>, k: usize) -> Vec<(i64, f32)> {
    let by_score = |a: &(i64, f32), b: &(i64, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
    if scored.len() > k && k > 0 {
        scored.select_nth_unstable_by(k - 1, by_score);
        scored.truncate(k);
    }
    scored.sort_by(by_score);
    scored
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(v: &[f32]) -> Vec<f32> {
        let n = dot(v, v).sqrt();
        v.iter().map(|x| x / n).collect()
    }

    #[test]
    fn finds_nearest_first_and_respects_allowed() {
        let mut idx = FlatIndex::new(2);
        idx.push(1, &unit(&[1.0, 0.0]));
        idx.push(2, &unit(&[0.7, 0.7]));
        idx.push(3, &unit(&[0.0, 1.0]));
        assert!(!idx.push(4, &[1.0, 0.0, 0.0]), "wrong dimension is refused");
        let q = unit(&[1.0, 0.1]);
        let hits = idx.search(&q, None, 2);
        assert_eq!(hits.iter().map(|h| h.0).collect::<Vec<_>>(), vec![1, 2]);
        let allowed: HashSet<i64> = [2, 3].into_iter().collect();
        let hits = idx.search(&q, Some(&allowed), 5);
        assert_eq!(hits.iter().map(|h| h.0).collect::<Vec<_>>(), vec![2, 3]);
        assert!(idx.search(&[1.0], None, 3).is_empty());
    }

    /// Deterministic pseudo-random unit vectors (xorshift).
    fn random_unit(seed: u64, dim: usize) -> Vec<f32> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let v: Vec<f32> = (0..dim)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % 2001) as f32 / 1000.0 - 1.0
            })
            .collect();
        unit(&v)
    }

    #[test]
    fn the_sign_bit_first_look_finds_the_nearest_rows() {
        let dim = 384;
        let mut idx = FlatIndex::new(dim);
        // Forty topics, a hundred rows around each: the shape of real embeddings.
        let topics: Vec<Vec<f32>> = (0..40).map(|t| random_unit(7_000 + t, dim)).collect();
        for key in 0..4_000i64 {
            let noise = random_unit(key as u64 + 11, dim);
            let t = &topics[(key % 40) as usize];
            let v: Vec<f32> = t.iter().zip(&noise).map(|(a, b)| a + 0.6 * b).collect();
            idx.push(key, &unit(&v));
        }
        let mut found = 0;
        let queries = 30u64;
        for q in 0..queries {
            let noise = random_unit(900_000 + q, dim);
            let t = &topics[(q % 40) as usize];
            let query = unit(&t.iter().zip(&noise).map(|(a, b)| a + 0.6 * b).collect::<Vec<_>>());
            let exact: Vec<i64> = idx.search_exact(&query, 10).iter().map(|h| h.0).collect();
            // 400 of 4,000 rows handed to the exact steps.
            let got = idx.search_approximate(&query, 10, 400);
            // What it returns carries exact scores, best first.
            for (key, score) in &got {
                let row = idx.keys.iter().position(|k| k == key).expect("known key");
                assert!((dot(idx.row(row), &query) - score).abs() < 1e-6);
            }
            assert!(got.windows(2).all(|w| w[0].1 >= w[1].1));
            found += got.iter().filter(|(k, _)| exact.contains(k)).count();
        }
        let recall = found as f64 / (10 * queries) as f64;
        assert!(recall >= 0.95, "recall@10 {recall}");
        // Above the threshold, `search` takes this path: lowered here to 2,000 rows.
        idx.approximate_from = 2_000;
        let query = unit(&topics[3].iter().map(|x| x + 0.01).collect::<Vec<_>>());
        let rescore = RESCORE_ROWS * 2_000 / APPROXIMATE_MIN_ROWS;
        assert_eq!(
            idx.search(&query, None, 10),
            idx.search_approximate(&query, 10, rescore.max(640))
        );
    }

    #[test]
    fn the_eight_bit_shortlist_returns_the_exact_top_k() {
        let dim = 384;
        let mut idx = FlatIndex::new(dim);
        for key in 0..5_000 {
            idx.push(key, &random_unit(key as u64 + 1, dim));
        }
        // Near-duplicates of one vector crowd the top, the hard case for a shortlist.
        let base = random_unit(99_999, dim);
        for key in 5_000..5_100 {
            let noise = random_unit(key as u64 + 7, dim);
            let v: Vec<f32> = base.iter().zip(&noise).map(|(b, n)| b + 0.01 * n).collect();
            idx.push(key, &unit(&v));
        }
        let allowed: HashSet<i64> = (0..5_100).filter(|k| k % 3 != 0).collect();
        for q in 0..20u64 {
            let query = if q % 2 == 0 {
                random_unit(1_000_000 + q, dim)
            } else {
                base.clone()
            };
            for filter in [None, Some(&allowed)] {
                for k in [1, 10, 50] {
                    let mut exact = idx.exact(&query, filter);
                    exact.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
                    exact.truncate(k);
                    assert_eq!(idx.search(&query, filter, k), exact, "query {q}, k {k}");
                }
            }
        }
    }
}
