//! Dense-layer weights rounded to IEEE half floats (x86-64 only), which the kernel of
//! [`crate::panel`] widens with F16C. A one-text forward pass waits on the weights
//! streaming in from memory (42 MB of f32 per query, far over the cache); halves read half
//! the bytes. The rounding is below the model's own noise: the tests hold the result to
//! candle's f32 vectors (cosine >= 0.99999).

use pulp::bytemuck::cast;
use std::arch::x86_64::{__m128i, _MM_FROUND_TO_NEAREST_INT, _mm256_cvtps_ph};

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
        let mut next = crate::xorshift(0x2545_f491_4f6c_dd1d);
        let values: Vec<f32> = std::iter::from_fn(|| Some(f32::from_bits(next() as u32)))
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
