//! Vector search: the [`VectorIndex`] seam and the exact flat index used up to ~100k
//! memories. An approximate index (HNSW) can replace it behind the same trait.
//!
//! Vectors are unit length, so similarity is a dot product over a contiguous matrix.

use std::collections::HashSet;

use crate::embed::dot;

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

/// Exact search over every vector.
#[derive(Debug, Clone, Default)]
pub struct FlatIndex {
    dim: usize,
    keys: Vec<i64>,
    data: Vec<f32>,
}

impl FlatIndex {
    /// An empty index for vectors of `dim`.
    pub fn new(dim: usize) -> Self {
        FlatIndex {
            dim,
            keys: Vec::new(),
            data: Vec::new(),
        }
    }

    /// Adds a vector; vectors of another length are ignored (never mixed).
    pub fn push(&mut self, key: i64, vector: &[f32]) -> bool {
        if vector.len() != self.dim {
            return false;
        }
        self.keys.push(key);
        self.data.extend_from_slice(vector);
        true
    }
}

impl VectorIndex for FlatIndex {
    fn len(&self) -> usize {
        self.keys.len()
    }

    fn search(&self, query: &[f32], allowed: Option<&HashSet<i64>>, k: usize) -> Vec<(i64, f32)> {
        if query.len() != self.dim || k == 0 || self.dim == 0 {
            return Vec::new();
        }
        let mut scored: Vec<(i64, f32)> = self
            .data
            .chunks_exact(self.dim)
            .zip(&self.keys)
            .filter(|(_, key)| allowed.is_none_or(|a| a.contains(key)))
            .map(|(row, key)| (*key, dot(row, query)))
            .collect();
        let by_score = |a: &(i64, f32), b: &(i64, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        if scored.len() > k {
            scored.select_nth_unstable_by(k - 1, by_score);
            scored.truncate(k);
        }
        scored.sort_by(by_score);
        scored
    }
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
}
