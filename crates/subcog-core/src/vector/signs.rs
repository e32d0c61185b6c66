//! One bit per dimension (the sign) for a first, approximate look over very large indexes:
//! 48 bytes a vector at 384 dimensions, an eighth of the 8-bit codes, so a million rows
//! are read in a few milliseconds where the 8-bit scan streams 384 MB. Hamming distance
//! between sign vectors tracks the angle between the vectors (each bit differs with
//! probability angle/π), so the rows nearest in Hamming distance hold the nearest rows
//! with high probability; the caller scores those exactly.

/// The sign bits of every row, taken around the rows' mean: embeddings share a common
/// direction (all of them lean the same way on some dimensions), and bits that are alike
/// for every row tell nothing apart.
#[derive(Debug, Clone, Default)]
pub(super) struct Signs {
    mean: Vec<f32>,
    bits: Vec<u64>,
    words: usize,
}

impl Signs {
    /// Signs of the rows of `data` (`dim` floats each).
    pub(super) fn build(data: &[f32], dim: usize) -> Signs {
        let rows = data.len().checked_div(dim).unwrap_or(0);
        let mut sum = vec![0.0f64; dim];
        for row in data.chunks_exact(dim.max(1)) {
            for (s, x) in sum.iter_mut().zip(row) {
                *s += f64::from(*x);
            }
        }
        let mean: Vec<f32> = sum.iter().map(|s| (s / rows.max(1) as f64) as f32).collect();
        let mut bits = Vec::with_capacity(rows * words(dim));
        for row in data.chunks_exact(dim.max(1)) {
            pack(row, &mean, &mut bits);
        }
        Signs {
            mean,
            bits,
            words: words(dim),
        }
    }

    /// The Hamming distance of every row to `query`'s signs.
    pub(super) fn distances(&self, query: &[f32]) -> Vec<u16> {
        let mut q = Vec::with_capacity(self.words);
        pack(query, &self.mean, &mut q);
        distances(&self.bits, self.words, &q)
    }
}

/// Appends the sign bits of `v − center` (bit set: negative), `words` u64s.
pub(super) fn pack(v: &[f32], center: &[f32], out: &mut Vec<u64>) {
    for (chunk, c) in v.chunks(64).zip(center.chunks(64)) {
        let mut word = 0u64;
        for (i, (x, m)) in chunk.iter().zip(c).enumerate() {
            if x < m {
                word |= 1 << i;
            }
        }
        out.push(word);
    }
}

/// Words per vector of `dim` components.
pub(super) fn words(dim: usize) -> usize {
    dim.div_ceil(64)
}

/// The Hamming distance of every row of `bits` (rows of `words` u64s) to `query`.
pub(super) fn distances(bits: &[u64], words: usize, query: &[u64]) -> Vec<u16> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        #[allow(unsafe_code)]
        // SAFETY: the CPU has `popcnt`, checked just above.
        return unsafe { distances_popcnt(bits, words, query) };
    }
    distances_any(bits, words, query)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn distances_popcnt(bits: &[u64], words: usize, query: &[u64]) -> Vec<u16> {
    distances_any(bits, words, query)
}

/// The portable body; inlined into the `popcnt` build, where `count_ones` is one
/// instruction instead of a dozen. 384 dimensions (six words) get an unrolled loop.
#[inline(always)]
fn distances_any(bits: &[u64], words: usize, query: &[u64]) -> Vec<u16> {
    let Some(q) = query.get(..words).filter(|_| words > 0) else {
        return Vec::new();
    };
    if let Ok(q6) = <&[u64; 6]>::try_from(q) {
        return bits
            .chunks_exact(6)
            .map(|row| {
                let d: u32 = (0..6).map(|w| (row[w] ^ q6[w]).count_ones()).sum();
                d as u16
            })
            .collect();
    }
    bits.chunks_exact(words)
        .map(|row| {
            let d: u32 = row.iter().zip(q).map(|(a, b)| (a ^ b).count_ones()).sum();
            u16::try_from(d).unwrap_or(u16::MAX - 1)
        })
        .collect()
}

/// The rows at the smallest distances, at least `want` of them when that many were kept
/// (all rows at the cut-off distance come along), in row order.
pub(super) fn nearest(distances: &[u16], want: usize) -> Vec<usize> {
    let top = distances.iter().filter(|&&d| d != u16::MAX).max().copied().unwrap_or(0);
    let mut histogram = vec![0usize; usize::from(top) + 1];
    let mut kept = 0usize;
    for &d in distances {
        if let Some(n) = histogram.get_mut(usize::from(d)) {
            *n += 1;
            kept += 1;
        }
    }
    let mut cut = 0usize;
    let mut seen = 0usize;
    for (d, &n) in histogram.iter().enumerate() {
        seen += n;
        cut = d;
        if seen >= want.min(kept) {
            break;
        }
    }
    distances
        .iter()
        .enumerate()
        .filter(|&(_, &d)| d != u16::MAX && usize::from(d) <= cut)
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_count_differing_signs_and_nearest_keeps_ties() {
        let zero = [0.0f32; 130];
        let mut bits = Vec::new();
        let rows: [&[f32]; 4] = [
            &[1.0, 1.0, 1.0],
            &[-1.0, 1.0, 1.0],
            &[-1.0, -1.0, 1.0],
            &[-1.0, -1.0, -1.0],
        ];
        for r in rows {
            pack(r, &zero, &mut bits);
        }
        let mut q = Vec::new();
        pack(&[1.0, 1.0, -0.5], &zero, &mut q);
        let all = distances(&bits, words(3), &q);
        assert_eq!(all, vec![1, 2, 3, 2]);
        assert_eq!(distances_any(&bits, 1, &q), all, "the portable body agrees");
        // Rows a filter drops are marked with the largest distance.
        let odd = vec![u16::MAX, 2, u16::MAX, 2];
        // Two wanted: distance 1, then both rows at distance 2 (a tie is kept whole).
        assert_eq!(nearest(&all, 2), vec![0, 1, 3]);
        assert_eq!(nearest(&odd, 1), vec![1, 3]);
        assert_eq!(nearest(&odd, 10), vec![1, 3]);
        // 130 dimensions take three words.
        let long: Vec<f32> = (0..130).map(|i| if i % 3 == 0 { -1.0 } else { 1.0 }).collect();
        let mut packed = Vec::new();
        pack(&long, &zero, &mut packed);
        assert_eq!(packed.len(), words(130));
        assert_eq!(packed.iter().map(|w| w.count_ones()).sum::<u32>(), 44);
        // Six words take the unrolled loop: the same distances as the general one.
        let six: Vec<u64> = (0..60u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
        let q6: Vec<u64> = (0..6u64).map(|i| i.wrapping_mul(0xD6E8_FEB8_6659_FD93)).collect();
        let general: Vec<u16> = six
            .chunks_exact(6)
            .map(|row| row.iter().zip(&q6).map(|(a, b)| (a ^ b).count_ones()).sum::<u32>() as u16)
            .collect();
        assert_eq!(distances(&six, 6, &q6), general);
    }

    #[test]
    fn signs_are_taken_around_the_mean() {
        // Every row leans positive on both dimensions; around the mean they differ.
        let data = [1.0, 2.0, 3.0, 2.0, 2.0, 4.0];
        let signs = Signs::build(&data, 2);
        assert_eq!(signs.mean, vec![2.0, 8.0 / 3.0]);
        // Row 0 is below the mean on both dimensions, row 1 on the second, row 2 on neither.
        assert_eq!(signs.bits, vec![0b11, 0b10, 0b00]);
        assert_eq!(signs.distances(&[0.0, 0.0]), vec![0, 1, 2]);
    }
}
