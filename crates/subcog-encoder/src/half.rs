//! Dense-layer weights kept as IEEE half floats and widened with F16C inside the kernel
//! (x86-64 only). A one-text forward pass waits on the weights streaming in from memory
//! (42 MB of f32 per query, far over the cache); halves read half the bytes. The rounding
//! is below the model's own noise: the tests hold the result to candle's f32 vectors
//! (cosine >= 0.99999).

use pulp::bytemuck::cast;
use std::arch::x86_64::{
    __m128i, __m256, _MM_FROUND_TO_NEAREST_INT, _MM_HINT_T0, _mm_add_ps, _mm_add_ss, _mm_cvtss_f32, _mm_movehl_ps,
    _mm_prefetch, _mm_shuffle_ps, _mm256_castps256_ps128, _mm256_cvtph_ps, _mm256_cvtps_ph, _mm256_extractf128_ps,
    _mm256_fmadd_ps, _mm256_setzero_ps,
};

/// How far ahead of the kernel (in elements of 16 bytes) weights are asked for.
const PREFETCH: usize = 16;
use std::ops::Range;

/// Eight weights, as F16C loads them.
pub(crate) type Half8 = __m128i;

/// Whether this CPU has what the kernel needs.
pub(crate) fn supported() -> bool {
    is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") && is_x86_feature_detected!("f16c")
}

/// A weight matrix as halves (rounded to nearest even), eight per element, each row
/// `inputs / 8` elements long; `None` when a row is not a whole number of elements.
#[target_feature(enable = "avx2,fma,f16c")]
pub(crate) fn pack(weight: &[f32], inputs: usize) -> Option<Vec<Half8>> {
    if inputs == 0 || !inputs.is_multiple_of(8) {
        return None;
    }
    let (chunks, rest) = pulp::as_arrays::<8, f32>(weight);
    if !rest.is_empty() {
        return None;
    }
    let mut out = Vec::with_capacity(chunks.len());
    for c in chunks {
        out.push(_mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(cast(*c)));
    }
    Some(out)
}

/// Outputs `cols` of `y = x·Wᵀ + b` for `rows` token rows of `inputs` values, `out` being
/// `rows × cols.len()`; GELU on the outputs if `gelu`. Blocks of two weight rows and
/// four token rows, as the f32 kernel.
#[target_feature(enable = "avx2,fma,f16c")]
#[allow(clippy::too_many_arguments)]
pub(crate) fn dense_cols(
    x: &[f32],
    rows: usize,
    inputs: usize,
    weight: &[Half8],
    bias: &[f32],
    cols: Range<usize>,
    out: &mut [f32],
    gelu: bool,
) {
    let per_row = inputs / 8;
    let width = cols.len();
    let token = |i: usize| pulp::as_arrays::<8, f32>(&x[i * inputs..(i + 1) * inputs]).0;
    let wrow = |j: usize| &weight[j * per_row..(j + 1) * per_row];
    let mut j = cols.start;
    while j + 2 <= cols.end {
        let (w0, w1) = (wrow(j), wrow(j + 1));
        let c = j - cols.start;
        let mut put = |i: usize, s: &[[f32; 2]]| {
            for (r, [a, b]) in s.iter().enumerate() {
                out[(i + r) * width + c] = a + bias[j];
                out[(i + r) * width + c + 1] = b + bias[j + 1];
            }
        };
        let mut i = 0;
        while i + 4 <= rows {
            put(
                i,
                &dot2::<4, 1>(w0, w1, [token(i), token(i + 1), token(i + 2), token(i + 3)]),
            );
            i += 4;
        }
        // The last one to three token rows: split the inputs in two halves as well, so
        // there are still enough independent multiply-add chains to hide their latency.
        match rows - i {
            3 => put(i, &dot2::<3, 2>(w0, w1, [token(i), token(i + 1), token(i + 2)])),
            2 => put(i, &dot2::<2, 2>(w0, w1, [token(i), token(i + 1)])),
            1 => put(i, &dot2::<1, 2>(w0, w1, [token(i)])),
            _ => {}
        }
        j += 2;
    }
    if j < cols.end {
        // An odd column out: pair the row with itself.
        let c = j - cols.start;
        for i in 0..rows {
            out[i * width + c] = dot2::<1, 2>(wrow(j), wrow(j), [token(i)])[0][0] + bias[j];
        }
    }
    if gelu {
        for v in out.iter_mut() {
            *v = crate::gelu::gelu(*v);
        }
    }
}

/// Dot products of two weight rows with `R` token rows; `S` accumulators per product
/// (the inputs taken in `S` interleaved parts) keep `2·R·S` multiply-add chains in flight.
#[target_feature(enable = "avx2,fma,f16c")]
fn dot2<const R: usize, const S: usize>(w0: &[Half8], w1: &[Half8], x: [&[[f32; 8]]; R]) -> [[f32; 2]; R] {
    let mut acc = [[[_mm256_setzero_ps(); 2]; S]; R];
    let (c0, c1) = (w0.chunks_exact(S), w1.chunks_exact(S));
    let tail = c0.remainder().len();
    for (k, (a, b)) in c0.zip(c1).enumerate() {
        _mm_prefetch::<_MM_HINT_T0>(a.as_ptr().wrapping_add(PREFETCH).cast());
        _mm_prefetch::<_MM_HINT_T0>(b.as_ptr().wrapping_add(PREFETCH).cast());
        for s in 0..S {
            let (u, v) = (_mm256_cvtph_ps(a[s]), _mm256_cvtph_ps(b[s]));
            for r in 0..R {
                let t: __m256 = cast(x[r][k * S + s]);
                acc[r][s][0] = _mm256_fmadd_ps(u, t, acc[r][s][0]);
                acc[r][s][1] = _mm256_fmadd_ps(v, t, acc[r][s][1]);
            }
        }
    }
    let start = w0.len() - tail;
    for k in start..w0.len() {
        let (u, v) = (_mm256_cvtph_ps(w0[k]), _mm256_cvtph_ps(w1[k]));
        for r in 0..R {
            let t: __m256 = cast(x[r][k]);
            acc[r][0][0] = _mm256_fmadd_ps(u, t, acc[r][0][0]);
            acc[r][0][1] = _mm256_fmadd_ps(v, t, acc[r][0][1]);
        }
    }
    let mut out = [[0.0f32; 2]; R];
    for (o, parts) in out.iter_mut().zip(&acc) {
        for [p, q] in parts {
            o[0] += sum(*p);
            o[1] += sum(*q);
        }
    }
    out
}

#[target_feature(enable = "avx2,fma,f16c")]
fn sum(v: __m256) -> f32 {
    let s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps::<1>(v));
    let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    _mm_cvtss_f32(_mm_add_ss(s, _mm_shuffle_ps::<0b01>(s, s)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// binary16 bits to f32, written from the format's definition.
    fn from_half(h: u16) -> f32 {
        let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
        let exp = i32::from((h >> 10) & 0x1f);
        let man = f32::from(h & 0x3ff);
        match exp {
            0 => sign * man * 2f32.powi(-24),
            0x1f if man == 0.0 => sign * f32::INFINITY,
            0x1f => f32::NAN,
            _ => sign * (1.0 + man / 1024.0) * 2f32.powi(exp - 15),
        }
    }

    /// Packs `values` and reads them back as binary16 bits.
    fn halves(values: &[f32]) -> Vec<u16> {
        // This project's machines have F16C; on one without, fail rather than pass unseen.
        assert!(supported(), "this test needs AVX2, FMA and F16C");
        // SAFETY: checked just above.
        #[allow(unsafe_code)]
        let packed = unsafe { pack(values, 8) }.expect("whole rows");
        packed.into_iter().flat_map(cast::<Half8, [u16; 8]>).collect()
    }

    #[test]
    fn weights_round_to_the_nearest_half() {
        // Every finite half comes back exactly.
        let exact: Vec<f32> = (0..=u16::MAX).map(from_half).filter(|v| v.is_finite()).collect();
        let usable = exact.len() / 8 * 8;
        for (h, v) in halves(&exact[..usable]).into_iter().zip(&exact) {
            assert_eq!(from_half(h).to_bits(), v.to_bits(), "{v}");
        }
        // Values between halves go to the nearer one.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let values: Vec<f32> = std::iter::from_fn(|| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            Some(f32::from_bits(seed as u32))
        })
        .filter(|v| v.is_finite() && v.abs() <= 65_504.0)
        .take(80_000)
        .collect();
        for (h, &v) in halves(&values).into_iter().zip(&values) {
            let got = from_half(h);
            for other in [from_half(h.wrapping_sub(1)), from_half(h.wrapping_add(1))] {
                if other.is_finite() && other.signum() == got.signum() {
                    assert!((v - got).abs() <= (v - other).abs(), "{v}: {got} vs {other}");
                }
            }
        }
    }
}
