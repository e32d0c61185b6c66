//! Dense layers on half-float weights (x86-64 with F16C): the weights rearranged once, at
//! load, in panels of 16 outputs, each panel input-major, so a panel (12–48 KB of
//! halves) stays in cache while every token row of a pass meets it. The kernel keeps a
//! block of six token rows × 16 outputs in twelve registers and broadcasts one input of
//! each row per step: no horizontal sums, two weight loads per twelve multiply-adds, and
//! each weight read from memory once per pass of rows. (The row layout it replaced
//! streamed the whole layer past every four rows: half the speed on batches.) A query's
//! few rows take the same panels; blocks of fewer than four rows split the inputs to keep
//! enough multiply-add chains in flight.

use crate::half::Half8;
use pulp::bytemuck::cast;
use std::arch::x86_64::{__m256, _mm256_add_ps, _mm256_cvtph_ps, _mm256_fmadd_ps, _mm256_set1_ps, _mm256_setzero_ps};
use std::ops::Range;

/// Outputs per panel: two vectors of eight.
const WIDTH: usize = 16;

/// Token rows per register block (twelve accumulators, two weight vectors and one
/// broadcast: fifteen of the sixteen vector registers).
const BLOCK: usize = 6;

/// Bytes of token rows taken per pass over a layer's panels: they stay in the 512 KiB L2
/// while the panels stream past (each panel then serves all of them from L1).
const ROWS_BYTES: usize = 192 * 1024;

/// A weight matrix in panels: for each group of 16 outputs, for each input, the 16
/// weights of that input as halves (outputs past the last padded with zeros).
pub(crate) struct Panels {
    data: Vec<[u16; WIDTH]>,
    inputs: usize,
    outputs: usize,
}

impl Panels {
    /// Rearranges weights kept as rows of halves (`outputs` rows of `inputs / 8` elements).
    pub(crate) fn from_rows(rows: &[Half8], inputs: usize, outputs: usize) -> Option<Panels> {
        let per_row = inputs / 8;
        if inputs == 0 || per_row * 8 != inputs || rows.len() != per_row * outputs {
            return None;
        }
        let mut data = vec![[0u16; WIDTH]; outputs.div_ceil(WIDTH) * inputs];
        for (o, row) in rows.chunks_exact(per_row).enumerate() {
            let (panel, lane) = (o / WIDTH, o % WIDTH);
            let column = &mut data[panel * inputs..(panel + 1) * inputs];
            for (eight, element) in column.chunks_exact_mut(8).zip(row) {
                for (slot, h) in eight.iter_mut().zip(cast::<Half8, [u16; 8]>(*element)) {
                    slot[lane] = h;
                }
            }
        }
        Some(Panels { data, inputs, outputs })
    }

    /// Groups of 16 outputs.
    pub(crate) fn count(&self) -> usize {
        self.outputs.div_ceil(WIDTH)
    }
}

/// `out = x·Wᵀ + b` for `rows` token rows of `x` (`rows × inputs`) and the outputs of
/// panels `panels`, GELU on them if `gelu`; `out` is `rows ×` those outputs. On the
/// calling thread.
#[target_feature(enable = "avx2,fma,f16c")]
pub(crate) fn dense_rows(
    x: &[f32],
    rows: usize,
    w: &Panels,
    panels: Range<usize>,
    bias: &[f32],
    out: &mut [f32],
    gelu: bool,
) {
    let (k, n) = (w.inputs, w.outputs);
    let first = panels.start * WIDTH;
    let width = (panels.end * WIDTH).min(n) - first;
    let step = (ROWS_BYTES / (k * 4).max(1) / BLOCK * BLOCK).max(BLOCK);
    let mut start = 0;
    while start < rows {
        let end = (start + step).min(rows);
        for p in panels.clone() {
            let panel = &w.data[p * k..(p + 1) * k];
            let cols = p * WIDTH..((p + 1) * WIDTH).min(n);
            let mut i = start;
            while i < end {
                let take = (end - i).min(BLOCK);
                let row = |r: usize| &x[(i + r) * k..(i + r + 1) * k];
                let mut put = |acc: &[[__m256; 2]]| {
                    for (r, pair) in acc.iter().enumerate() {
                        let at = (i + r) * width + cols.start - first;
                        let whole = <&[f32; WIDTH]>::try_from(&bias[cols.clone()]);
                        let (mut a, mut b) = (pair[0], pair[1]);
                        if let Ok(bias) = whole {
                            let [c, d]: [__m256; 2] = cast(*bias);
                            (a, b) = (_mm256_add_ps(a, c), _mm256_add_ps(b, d));
                        } else {
                            let mut lanes: [f32; WIDTH] = cast([a, b]);
                            for (v, b) in lanes.iter_mut().zip(&bias[cols.clone()]) {
                                *v += b;
                            }
                            [a, b] = cast(lanes);
                        }
                        if gelu {
                            // In registers: a pass over the outputs afterwards cost a fifth
                            // of the layer's time.
                            (a, b) = (crate::gelu::gelu8(a), crate::gelu::gelu8(b));
                        }
                        let lanes: [f32; WIDTH] = cast([a, b]);
                        let dest = &mut out[at..at + cols.len()];
                        dest.copy_from_slice(&lanes[..dest.len()]);
                    }
                };
                // Fewer than four rows: the inputs in two or four interleaved parts, so
                // eight or more multiply-add chains still hide the latency.
                match take {
                    6 => put(&block::<6, 1>([row(0), row(1), row(2), row(3), row(4), row(5)], panel)),
                    5 => put(&block::<5, 1>([row(0), row(1), row(2), row(3), row(4)], panel)),
                    4 => put(&block::<4, 1>([row(0), row(1), row(2), row(3)], panel)),
                    3 => put(&block::<3, 2>([row(0), row(1), row(2)], panel)),
                    2 => put(&block::<2, 2>([row(0), row(1)], panel)),
                    _ => put(&block::<1, 4>([row(0)], panel)),
                }
                i += take;
            }
        }
        start = end;
    }
}

/// The products of `R` token rows with one panel (`R × 16` sums, as pairs of vectors),
/// the inputs taken in `S` interleaved parts with accumulators of their own.
#[target_feature(enable = "avx2,fma,f16c")]
fn block<const R: usize, const S: usize>(x: [&[f32]; R], panel: &[[u16; WIDTH]]) -> [[__m256; 2]; R] {
    for row in x {
        assert!(row.len() >= panel.len(), "a token row shorter than the panel");
    }
    let mut acc = [[[_mm256_setzero_ps(); 2]; R]; S];
    let parts = panel.chunks_exact(S);
    let done = panel.len() - parts.remainder().len();
    for (c, ws) in parts.enumerate() {
        for (s, w) in ws.iter().enumerate() {
            // SAFETY: `c·S + s < panel.len() <= row.len()` for every row (asserted above).
            #[allow(unsafe_code)]
            unsafe {
                step(&mut acc[s], w, x, c * S + s)
            };
        }
    }
    for (k, w) in panel.iter().enumerate().skip(done) {
        // SAFETY: as above.
        #[allow(unsafe_code)]
        unsafe {
            step(&mut acc[0], w, x, k)
        };
    }
    let mut sum = acc[0];
    for part in &acc[1..] {
        for (total, pair) in sum.iter_mut().zip(part) {
            total[0] = _mm256_add_ps(total[0], pair[0]);
            total[1] = _mm256_add_ps(total[1], pair[1]);
        }
    }
    sum
}

/// One input `k` of the panel (`w`, its 16 weights) into the accumulators of `R` rows.
///
/// # Safety
/// `k` must be within every row of `x`; the CPU must have AVX2, FMA and F16C.
#[target_feature(enable = "avx2,fma,f16c")]
#[inline]
#[allow(unsafe_code)]
unsafe fn step<const R: usize>(acc: &mut [[__m256; 2]; R], w: &[u16; WIDTH], x: [&[f32]; R], k: usize) {
    let [a, b]: [[u16; 8]; 2] = cast(*w);
    let (u, v) = (_mm256_cvtph_ps(cast(a)), _mm256_cvtph_ps(cast(b)));
    for (pair, row) in acc.iter_mut().zip(x) {
        // The checked index costs six compares per twelve multiply-adds: half the
        // kernel's speed, measured.
        // SAFETY: the caller keeps `k` within the row.
        let t = _mm256_set1_ps(unsafe { *row.get_unchecked(k) });
        pair[0] = _mm256_fmadd_ps(u, t, pair[0]);
        pair[1] = _mm256_fmadd_ps(v, t, pair[1]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A panel's weight for output `o` and input `k`, widened back to f32.
    fn weight(w: &Panels, o: usize, k: usize) -> f32 {
        let lanes = w.data[(o / WIDTH) * w.inputs + k];
        let [a, b]: [[u16; 8]; 2] = cast(lanes);
        // SAFETY: the tests run only where `crate::half::supported()` (asserted by callers).
        #[allow(unsafe_code)]
        let wide: [f32; WIDTH] = cast([unsafe { _mm256_cvtph_ps(cast(a)) }, unsafe { _mm256_cvtph_ps(cast(b)) }]);
        wide[o % WIDTH]
    }

    #[test]
    fn every_block_shape_and_panel_range_gives_the_plain_sums() {
        assert!(
            crate::half::supported(),
            "this test needs AVX2, FMA and F16C; on a CPU without, fail rather than pass unseen"
        );
        let mut seeded = crate::xorshift(0x2545_f491_4f6c_dd1d);
        let mut next = move || (seeded() as u32 as f32 / u32::MAX as f32) - 0.5;
        // 37 outputs: two whole panels and one of five; 40 inputs: five elements of eight.
        let (inputs, outputs) = (40, 37);
        let weights: Vec<f32> = (0..inputs * outputs).map(|_| next()).collect();
        let bias: Vec<f32> = (0..outputs).map(|_| next()).collect();
        // SAFETY: features asserted above.
        #[allow(unsafe_code)]
        let halves = unsafe { crate::half::pack(&weights, inputs) }.expect("whole rows");
        let w = Panels::from_rows(&halves, inputs, outputs).expect("panels");
        assert_eq!(w.count(), 3);
        assert!(
            Panels::from_rows(&halves, inputs, outputs + 1).is_none(),
            "a missing row is refused"
        );
        for rows in (1..=13).chain([40]) {
            let x: Vec<f32> = (0..rows * inputs).map(|_| 4.0 * next()).collect();
            for gelu in [false, true] {
                for panels in [0..3, 0..1, 1..3, 2..3] {
                    let first = panels.start * WIDTH;
                    let width = (panels.end * WIDTH).min(outputs) - first;
                    let mut out = vec![f32::NAN; rows * width];
                    // SAFETY: features asserted above.
                    #[allow(unsafe_code)]
                    unsafe {
                        dense_rows(&x, rows, &w, panels.clone(), &bias, &mut out, gelu)
                    };
                    for i in 0..rows {
                        for c in 0..width {
                            let o = first + c;
                            let sum: f64 = (0..inputs)
                                .map(|k| f64::from(x[i * inputs + k]) * f64::from(weight(&w, o, k)))
                                .sum::<f64>()
                                + f64::from(bias[o]);
                            let want = if gelu {
                                crate::gelu::gelu(sum as f32)
                            } else {
                                sum as f32
                            };
                            let got = out[i * width + c];
                            assert!(
                                (got - want).abs() <= 1e-5 * (1.0 + want.abs()),
                                "rows {rows}, panels {panels:?}, gelu {gelu}: [{i}][{o}] = {got}, want {want}"
                            );
                        }
                    }
                }
            }
        }
    }
}
