//! GELU, `x·Φ(x)`, with the error function as BERT was trained, in arithmetic the compiler
//! vectorizes: libm's `erff` is a call per value, an eighth of a query's time.

/// GELU through Abramowitz and Stegun 7.1.26 (absolute error under 1.5e-7, about f32's
/// own resolution near 1) and `exp` by range reduction to `2^k·e^r` with a degree-6
/// polynomial for `e^r` (relative error ~2e-7).
#[inline(always)]
pub(crate) fn gelu(x: f32) -> f32 {
    let z = (x * std::f32::consts::FRAC_1_SQRT_2).abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly = t * (0.254_829_6 + t * (-0.284_496_74 + t * (1.421_413_8 + t * (-1.453_152 + t * 1.061_405_4))));
    let erf = 1.0 - poly * exp_neg(z * z);
    0.5 * x * (1.0 + erf.copysign(x))
}

/// `e^-y` for `y >= 0` (beyond 80 it is 0 to f32's precision for GELU's purpose).
#[inline(always)]
fn exp_neg(y: f32) -> f32 {
    let x = -y.min(80.0);
    let k = (x * std::f32::consts::LOG2_E).round_ties_even();
    let r = x - k * std::f32::consts::LN_2;
    let p = 1.0 + r * (1.0 + r * (0.5 + r * (1.0 / 6.0 + r * (1.0 / 24.0 + r * (1.0 / 120.0 + r * (1.0 / 720.0))))));
    // 2^k from the exponent bits; k >= -116 here, a normal f32.
    p * f32::from_bits(((k as i32 + 127) as u32) << 23)
}

/// [`gelu`] of eight values at once, in the same arithmetic (separate multiplies and
/// adds, the same constants), for the batch kernel's registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
pub(crate) fn gelu8(x: std::arch::x86_64::__m256) -> std::arch::x86_64::__m256 {
    use std::arch::x86_64::*;
    let c = |v: f32| _mm256_set1_ps(v);
    let (one, sign) = (c(1.0), c(-0.0));
    let z = _mm256_andnot_ps(sign, _mm256_mul_ps(x, c(std::f32::consts::FRAC_1_SQRT_2)));
    let t = _mm256_div_ps(one, _mm256_add_ps(one, _mm256_mul_ps(c(0.327_591_1), z)));
    let mut poly = _mm256_add_ps(c(-1.453_152), _mm256_mul_ps(t, c(1.061_405_4)));
    for a in [1.421_413_8, -0.284_496_74, 0.254_829_6] {
        poly = _mm256_add_ps(c(a), _mm256_mul_ps(t, poly));
    }
    poly = _mm256_mul_ps(t, poly);
    // e^-(z²) as `exp_neg`: 2^k · e^r.
    let e = _mm256_xor_ps(_mm256_min_ps(_mm256_mul_ps(z, z), c(80.0)), sign);
    let k = _mm256_round_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(_mm256_mul_ps(
        e,
        c(std::f32::consts::LOG2_E),
    ));
    let r = _mm256_sub_ps(e, _mm256_mul_ps(k, c(std::f32::consts::LN_2)));
    let mut p = _mm256_add_ps(c(1.0 / 120.0), _mm256_mul_ps(r, c(1.0 / 720.0)));
    for a in [1.0 / 24.0, 1.0 / 6.0, 0.5, 1.0, 1.0] {
        p = _mm256_add_ps(c(a), _mm256_mul_ps(r, p));
    }
    let two_k = _mm256_castsi256_ps(_mm256_slli_epi32::<23>(_mm256_add_epi32(
        _mm256_cvtps_epi32(k),
        _mm256_set1_epi32(127),
    )));
    let erf = _mm256_sub_ps(one, _mm256_mul_ps(poly, _mm256_mul_ps(p, two_k)));
    let signed = _mm256_or_ps(_mm256_andnot_ps(sign, erf), _mm256_and_ps(sign, x));
    _mm256_mul_ps(_mm256_mul_ps(c(0.5), x), _mm256_add_ps(one, signed))
}

#[cfg(test)]
mod tests {
    use super::gelu;

    #[test]
    fn gelu_follows_the_exact_erf() {
        for i in -2_000..=2_000 {
            let x = i as f32 / 200.0;
            let exact = 0.5 * x * (1.0 + libm::erff(x * std::f32::consts::FRAC_1_SQRT_2));
            assert!(
                (gelu(x) - exact).abs() <= 2e-6 * (1.0 + x.abs()),
                "gelu({x}) = {} vs {exact}",
                gelu(x)
            );
        }
        assert_eq!(gelu(0.0), 0.0);
        assert_eq!(gelu(-30.0), 0.0);
        assert_eq!(gelu(30.0), 30.0);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn eight_at_once_give_the_same_bits() {
        assert!(
            crate::half::supported(),
            "this test needs AVX2 and FMA; on a CPU without, fail rather than pass unseen"
        );
        let mut next = crate::xorshift(0x9e37_79b9_7f4a_7c15);
        let mut values: Vec<f32> = (-4_000..=4_000).map(|i| i as f32 / 400.0).collect();
        values.extend([0.0, -0.0, 80.0, -80.0, 1e-30, -1e-30, 1e6, -1e6]);
        values.extend(std::iter::from_fn(|| Some((next() as u32 as f32 / u32::MAX as f32 - 0.5) * 24.0)).take(40_000));
        for chunk in values.chunks_exact(8) {
            let eight: [f32; 8] = chunk.try_into().expect("eight");
            // SAFETY: the features were checked at the top of the test.
            #[allow(unsafe_code)]
            let got: [f32; 8] = pulp::bytemuck::cast(unsafe { super::gelu8(pulp::bytemuck::cast(eight)) });
            for (g, x) in got.iter().zip(eight) {
                assert_eq!(g.to_bits(), gelu(x).to_bits(), "gelu({x}): {g} vs {}", gelu(x));
            }
        }
    }
}
