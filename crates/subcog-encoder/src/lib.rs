//! The BERT encoder on plain f32 slices: subcog's query path and its batch path. A crate
//! of its own so it is compiled optimized in test builds too.
//!
//! candle's batched matrix kernel repacks every weight matrix on every call; for one short
//! text (a dozen tokens) that copy of 42 MB of weights is most of the work. Here the
//! weights are rearranged once, at load, into half-float panels of 16 outputs
//! ([`panel`]); each linear layer streams them once per block of token rows, compiled for
//! AVX2/FMA/F16C when the CPU has it (chosen at run time). Same arithmetic as
//! sentence-transformers: erf GELU (to within 2e-6), LayerNorm, softmax attention, mean
//! pooling, L2 norm; the tests hold every path to the reference vectors.
//!
//! Batches (import, reindex) stack their texts' tokens, unpadded, so each dense layer
//! reads its weights once per few hundred token rows for every text of the batch;
//! attention stays within each text and runs the texts on both threads. A plain f32 kernel
//! serves CPUs without F16C (and aarch64); candle remains for CPUs without AVX2 and FMA.

use candle_core::DType;
use candle_core::safetensors::MmapedSafetensors;

mod gelu;
#[cfg(target_arch = "x86_64")]
mod half;
#[cfg(target_arch = "x86_64")]
mod panel;

use gelu::gelu;

/// Most tokens a text may have here (sentence-transformers' limit for MiniLM).
pub const MAX_TOKENS: usize = 256;

/// A dense layer: `y = x·Wᵀ + b`, `W` row-major `[outputs, inputs]`.
struct Dense {
    /// Empty when the weights are kept as `panels`.
    weight: Vec<f32>,
    /// The weights as half floats in panels, where the CPU can widen them in the kernel.
    #[cfg(target_arch = "x86_64")]
    panels: Option<panel::Panels>,
    bias: Vec<f32>,
    inputs: usize,
    /// Apply GELU to the outputs (the intermediate layer), on the threads that made them.
    gelu: bool,
}

/// LayerNorm parameters.
struct Norm {
    gain: Vec<f32>,
    bias: Vec<f32>,
}

/// One transformer layer.
struct Layer {
    /// Query, key and value stacked: one pass over the three weight matrices.
    qkv: Dense,
    attention_out: Dense,
    attention_norm: Norm,
    up: Dense,
    down: Dense,
    output_norm: Norm,
}

/// The encoder's weights, copied out of the safetensors file (word embeddings are read from
/// the mapped file: only the rows of a text's tokens are ever touched).
pub struct Encoder {
    file: MmapedSafetensors,
    hidden: usize,
    heads: usize,
    eps: f32,
    positions: Vec<f32>,
    token_type: Vec<f32>,
    embedding_norm: Norm,
    layers: Vec<Layer>,
}

impl Encoder {
    /// Whether this CPU runs the fast path (FMA is needed for speed and for results that
    /// do not depend on the machine); otherwise candle does all the work.
    pub fn supported() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        }
        #[cfg(target_arch = "aarch64")]
        {
            true
        }
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        {
            false
        }
    }

    /// Reads the weights of a BERT model with `layers` layers and `heads` attention heads.
    pub fn load(
        file: MmapedSafetensors,
        layers: usize,
        heads: usize,
        hidden: usize,
        eps: f64,
    ) -> candle_core::Result<Self> {
        // One copy straight out of the mapping (candle's `load` then `to_vec1` made two).
        let append = |out: &mut Vec<f32>, name: &str| -> candle_core::Result<()> {
            let view = file.get(name)?;
            if DType::try_from(view.dtype()).ok() != Some(DType::F32) {
                return Err(candle_core::Error::Msg(format!("{name} is not f32")));
            }
            out.extend(
                view.data()
                    .chunks_exact(4)
                    .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            );
            Ok(())
        };
        let vec = |name: &str| -> candle_core::Result<Vec<f32>> {
            let mut out = Vec::new();
            append(&mut out, name)?;
            Ok(out)
        };
        // Several projections of the same input read as one (query, key and value).
        let dense = |prefixes: &[&str]| -> candle_core::Result<Dense> {
            let (mut weight, mut bias) = (Vec::new(), Vec::new());
            let mut inputs = 0;
            for prefix in prefixes {
                let (w0, b0) = (weight.len(), bias.len());
                append(&mut weight, &format!("{prefix}.weight"))?;
                append(&mut bias, &format!("{prefix}.bias"))?;
                let (w, b) = (weight.len() - w0, bias.len() - b0);
                let width = w.checked_div(b).unwrap_or(0);
                if width == 0 || width * b != w || (inputs != 0 && width != inputs) {
                    return Err(candle_core::Error::Msg(format!("{prefix}: weight and bias disagree")));
                }
                inputs = width;
            }
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `pack` is compiled for the features `supported` has just found.
            #[allow(unsafe_code)]
            let panels = half::supported()
                .then(|| unsafe { half::pack(&weight, inputs) })
                .flatten()
                .and_then(|halves| panel::Panels::from_rows(&halves, inputs, bias.len()));
            #[cfg(target_arch = "x86_64")]
            if panels.is_some() {
                weight = Vec::new();
            }
            Ok(Dense {
                weight,
                #[cfg(target_arch = "x86_64")]
                panels,
                bias,
                inputs,
                gelu: prefixes.iter().any(|p| p.ends_with("intermediate.dense")),
            })
        };
        let norm = |prefix: &str| -> candle_core::Result<Norm> {
            Ok(Norm {
                gain: vec(&format!("{prefix}.weight"))?,
                bias: vec(&format!("{prefix}.bias"))?,
            })
        };
        let mut stack = Vec::with_capacity(layers);
        for i in 0..layers {
            let p = format!("encoder.layer.{i}");
            stack.push(Layer {
                qkv: dense(&[
                    &format!("{p}.attention.self.query"),
                    &format!("{p}.attention.self.key"),
                    &format!("{p}.attention.self.value"),
                ])?,
                attention_out: dense(&[&format!("{p}.attention.output.dense")])?,
                attention_norm: norm(&format!("{p}.attention.output.LayerNorm"))?,
                up: dense(&[&format!("{p}.intermediate.dense")])?,
                down: dense(&[&format!("{p}.output.dense")])?,
                output_norm: norm(&format!("{p}.output.LayerNorm"))?,
            });
        }
        let encoder = Encoder {
            positions: vec("embeddings.position_embeddings.weight")?,
            token_type: vec("embeddings.token_type_embeddings.weight")?,
            embedding_norm: norm("embeddings.LayerNorm")?,
            layers: stack,
            hidden,
            heads,
            eps: eps as f32,
            file,
        };
        let word = encoder.file.get("embeddings.word_embeddings.weight")?;
        if DType::try_from(word.dtype()).ok() != Some(DType::F32) || word.shape().get(1) != Some(&hidden) {
            return Err(candle_core::Error::Msg(
                "word embeddings are not f32 rows of the hidden size".into(),
            ));
        }
        if hidden == 0 || heads == 0 || !hidden.is_multiple_of(heads) {
            return Err(candle_core::Error::Msg("hidden size not divisible by heads".into()));
        }
        Ok(encoder)
    }

    /// The unit-length mean-pooled embedding of one tokenized text (no padding).
    pub fn embed(&self, ids: &[u32]) -> Result<Vec<f32>, String> {
        self.embed_batch(&[ids])?
            .pop()
            .ok_or_else(|| "no vector returned".to_string())
    }

    /// The embeddings of several tokenized texts in one pass: their tokens are stacked, so
    /// every dense layer streams its weights once for the whole batch and no text is
    /// padded; attention stays within each text. Each text is 1 to [`MAX_TOKENS`] tokens.
    pub fn embed_batch(&self, texts: &[&[u32]]) -> Result<Vec<Vec<f32>>, String> {
        pulp::Arch::new().dispatch(Forward {
            encoder: self,
            texts,
            parallel: true,
        })
    }

    /// [`Encoder::embed_batch`] for several batches, each on one thread and the threads
    /// sharing the batches: no thread waits for another inside a forward pass (a batch
    /// split between two threads meets 24 times per pass and runs its LayerNorms on one),
    /// measured 1.3× the texts per second on two cores. One batch alone still uses both.
    pub fn embed_batches(&self, batches: &[Vec<&[u32]>]) -> Result<Vec<Vec<Vec<f32>>>, String> {
        if batches.len() < 2 || rayon::current_num_threads() < 2 {
            return batches.iter().map(|b| self.embed_batch(b)).collect();
        }
        use rayon::prelude::*;
        batches
            .par_iter()
            .with_max_len(1)
            .map(|texts| {
                pulp::Arch::new().dispatch(Forward {
                    encoder: self,
                    texts,
                    parallel: false,
                })
            })
            .collect()
    }

    #[inline(always)]
    fn forward<S: pulp::Simd>(&self, simd: S, texts: &[&[u32]], parallel: bool) -> Result<Vec<Vec<f32>>, String> {
        let h = self.hidden;
        let mut spans = Vec::with_capacity(texts.len());
        let mut total = 0;
        for ids in texts {
            let n = ids.len();
            if n == 0 || n > MAX_TOKENS || n * h > self.positions.len() {
                return Err(format!("{n} tokens is outside this path's range"));
            }
            spans.push(total..total + n);
            total += n;
        }
        if total == 0 {
            return Ok(Vec::new());
        }
        let word = self
            .file
            .get("embeddings.word_embeddings.weight")
            .map_err(|e| e.to_string())?;
        let table = word.data();
        let mut x = vec![0.0f32; total * h];
        for (ids, span) in texts.iter().zip(&spans) {
            for (t, &id) in ids.iter().enumerate() {
                let bytes = (id as usize)
                    .checked_mul(h * 4)
                    .and_then(|start| table.get(start..start.checked_add(h * 4)?))
                    .ok_or_else(|| format!("token id {id} outside the vocabulary"))?;
                let row = &mut x[(span.start + t) * h..(span.start + t + 1) * h];
                for (k, v) in row.iter_mut().enumerate() {
                    let b = [bytes[4 * k], bytes[4 * k + 1], bytes[4 * k + 2], bytes[4 * k + 3]];
                    *v = f32::from_le_bytes(b) + self.positions[t * h + k] + self.token_type[k];
                }
            }
        }
        layer_norm(&mut x, h, &self.embedding_norm, self.eps);
        let mut qkv = vec![0.0f32; total * 3 * h];
        let mut ctx = vec![0.0f32; total * h];
        let mut tmp = vec![0.0f32; total * h];
        for layer in &self.layers {
            dense(&x, total, &layer.qkv, &mut qkv, parallel);
            self.attention(simd, &qkv, &spans, &mut ctx, parallel);
            dense(&ctx, total, &layer.attention_out, &mut tmp, parallel);
            for (t, xi) in tmp.iter_mut().zip(&x) {
                *t += xi;
            }
            layer_norm(&mut tmp, h, &layer.attention_norm, self.eps);
            std::mem::swap(&mut x, &mut tmp);
            let wide = layer.up.bias.len();
            let mut inner = vec![0.0f32; total * wide];
            dense(&x, total, &layer.up, &mut inner, parallel);
            dense(&inner, total, &layer.down, &mut tmp, parallel);
            for (t, xi) in tmp.iter_mut().zip(&x) {
                *t += xi;
            }
            layer_norm(&mut tmp, h, &layer.output_norm, self.eps);
            std::mem::swap(&mut x, &mut tmp);
        }
        spans
            .iter()
            .map(|span| {
                let mut mean = vec![0.0f32; h];
                for row in x[span.start * h..span.end * h].chunks_exact(h) {
                    for (m, r) in mean.iter_mut().zip(row) {
                        *m += r;
                    }
                }
                let norm = mean.iter().map(|m| m * m).sum::<f32>().sqrt();
                if !(norm > 0.0 && norm.is_finite()) {
                    return Err("the embedding has no direction".to_string());
                }
                // The mean's 1/n cancels in the normalization.
                Ok(mean.into_iter().map(|m| m / norm).collect())
            })
            .collect()
    }

    /// Softmax attention of every text's tokens over the same text's tokens, into `ctx`;
    /// texts are shared out between the threads when there are several.
    #[inline(always)]
    fn attention<S: pulp::Simd>(
        &self,
        simd: S,
        qkv: &[f32],
        spans: &[std::ops::Range<usize>],
        ctx: &mut [f32],
        parallel: bool,
    ) {
        let h = self.hidden;
        let mut parts: Vec<(&std::ops::Range<usize>, &mut [f32])> = Vec::with_capacity(spans.len());
        let mut rest = ctx;
        for span in spans {
            let (part, tail) = std::mem::take(&mut rest).split_at_mut(span.len() * h);
            parts.push((span, part));
            rest = tail;
        }
        if !parallel || parts.len() < 2 || rayon::current_num_threads() < 2 {
            for (span, out) in parts {
                self.attend(simd, qkv, span, out);
            }
            return;
        }
        use rayon::prelude::*;
        // Each task dispatches again: a closure is not compiled with the CPU's extensions,
        // and `mul_add` outside them is a library call per value.
        parts.into_par_iter().with_min_len(1).for_each(|(span, out)| {
            pulp::Arch::new().dispatch(Attend {
                encoder: self,
                qkv,
                span,
                out,
            })
        });
    }

    /// Attention within one text (`span` of the stacked tokens) into `out`, its rows of
    /// the context.
    #[inline(always)]
    fn attend<S: pulp::Simd>(&self, simd: S, qkv: &[f32], span: &std::ops::Range<usize>, out: &mut [f32]) {
        let (h, heads) = (self.hidden, self.heads);
        let d = h / heads;
        let scale = 1.0 / (d as f32).sqrt();
        let n = span.len();
        let mut scores = vec![0.0f32; n];
        // Row i of qkv: the query, key and value of token i, side by side.
        let at = |i: usize, part: usize, off: usize| ((span.start + i) * 3 + part) * h + off;
        for head in 0..heads {
            let off = head * d;
            for i in 0..n {
                let qi = &qkv[at(i, 0, off)..at(i, 0, off) + d];
                let mut max = f32::NEG_INFINITY;
                for (j, s) in scores.iter_mut().enumerate() {
                    *s = dot(simd, qi, &qkv[at(j, 1, off)..at(j, 1, off) + d]) * scale;
                    max = max.max(*s);
                }
                let mut sum = 0.0;
                for s in scores.iter_mut() {
                    *s = (*s - max).exp();
                    sum += *s;
                }
                let o = &mut out[i * h + off..i * h + off + d];
                o.fill(0.0);
                for (j, s) in scores.iter().enumerate() {
                    let p = s / sum;
                    for (oi, vj) in o.iter_mut().zip(&qkv[at(j, 2, off)..at(j, 2, off) + d]) {
                        *oi = p.mul_add(*vj, *oi);
                    }
                }
            }
        }
    }
}

/// Attention within one text as a pulp operation (a task of [`Encoder::attention`]).
struct Attend<'a> {
    encoder: &'a Encoder,
    qkv: &'a [f32],
    span: &'a std::ops::Range<usize>,
    out: &'a mut [f32],
}

impl pulp::WithSimd for Attend<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, simd: S) {
        self.encoder.attend(simd, self.qkv, self.span, self.out);
    }
}

/// The forward pass as a pulp operation: everything it calls is inlined into a copy
/// compiled for the CPU's vector extensions (a closure would not be).
struct Forward<'a> {
    encoder: &'a Encoder,
    texts: &'a [&'a [u32]],
    /// Whether the pass may use both threads (false when batches share them).
    parallel: bool,
}

impl pulp::WithSimd for Forward<'_> {
    type Output = Result<Vec<Vec<f32>>, String>;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, simd: S) -> Self::Output {
        self.encoder.forward(simd, self.texts, self.parallel)
    }
}

/// `out[i] = x[i]·Wᵀ + b` for the `rows` rows of `x`, on the panels where the CPU has
/// them; otherwise (and if `parallel`) the two halves of the outputs on two threads (each streams half the
/// weights), each half under its own SIMD dispatch.
#[inline(always)]
fn dense(x: &[f32], rows: usize, layer: &Dense, out: &mut [f32], parallel: bool) {
    let outputs = layer.bias.len();
    #[cfg(target_arch = "x86_64")]
    if let Some(panels) = &layer.panels {
        dense_panels(x, rows, layer, panels, out, parallel);
        return;
    }
    if !parallel || rayon::current_num_threads() < 2 || outputs < 64 {
        dense_part(x, rows, layer, 0..outputs, out);
        return;
    }
    let half = (outputs / 2) & !1;
    let (mut left, mut right) = (vec![0.0f32; rows * half], vec![0.0f32; rows * (outputs - half)]);
    rayon::join(
        || dense_part(x, rows, layer, 0..half, &mut left),
        || dense_part(x, rows, layer, half..outputs, &mut right),
    );
    for (i, row) in out.chunks_exact_mut(outputs).enumerate().take(rows) {
        row[..half].copy_from_slice(&left[i * half..(i + 1) * half]);
        row[half..].copy_from_slice(&right[i * (outputs - half)..(i + 1) * (outputs - half)]);
    }
}

/// [`dense`] on the panels, on two threads: a batch's token rows split between them (each
/// reads every panel; a layer's halves, at most 1.2 MB, are shared in L3), a query's few
/// rows meeting half the panels each (each streams half the weights from memory).
#[cfg(target_arch = "x86_64")]
fn dense_panels(x: &[f32], rows: usize, layer: &Dense, w: &panel::Panels, out: &mut [f32], parallel: bool) {
    let (k, n) = (layer.inputs, layer.bias.len());
    let run = |x: &[f32], rows: usize, panels: std::ops::Range<usize>, out: &mut [f32]| {
        // SAFETY: panels are only made from halves, which are only packed when
        // `half::supported()` found AVX2, FMA and F16C, the features of `dense_rows`.
        #[allow(unsafe_code)]
        unsafe {
            panel::dense_rows(x, rows, w, panels, &layer.bias, out, layer.gelu)
        }
    };
    let count = w.count();
    if !parallel || rayon::current_num_threads() < 2 || count < 2 {
        run(x, rows, 0..count, out);
        return;
    }
    if rows >= SPLIT_ROWS {
        let first = rows.div_ceil(2).next_multiple_of(6).min(rows);
        let (x0, x1) = x.split_at(first * k);
        let (o0, o1) = out.split_at_mut(first * n);
        rayon::join(|| run(x0, first, 0..count, o0), || run(x1, rows - first, 0..count, o1));
        return;
    }
    let half = count / 2;
    let left_width = (half * 16).min(n);
    let (mut left, mut right) = (vec![0.0f32; rows * left_width], vec![0.0f32; rows * (n - left_width)]);
    rayon::join(
        || run(x, rows, 0..half, &mut left),
        || run(x, rows, half..count, &mut right),
    );
    for (i, row) in out.chunks_exact_mut(n).enumerate().take(rows) {
        row[..left_width].copy_from_slice(&left[i * left_width..(i + 1) * left_width]);
        row[left_width..].copy_from_slice(&right[i * (n - left_width)..(i + 1) * (n - left_width)]);
    }
}

/// Token rows from which the two threads take half the rows each rather than half the
/// panels. Below, a layer's cost is its weights streaming in from memory, and each thread
/// then reads half of them.
#[cfg(target_arch = "x86_64")]
const SPLIT_ROWS: usize = 24;

/// Bytes of token rows per pass over the weights in the f32 kernel (CPUs without F16C): a
/// batch's rows are taken a tile at a time (at least one block of four), small enough to
/// stay in L1 while the layer's weights stream past. Measured with `examples/embed_rate`
/// on the 2-core machine with the half-float row kernel this served until the panels:
/// 8 KiB (four rows) 150–157 texts/s, 16 KiB 146–153, 48 KiB 142–150, one tile 136.
const TILE_BYTES: usize = 8 * 1024;

/// Outputs `cols` of [`dense`] on this thread, a tile of token rows at a time.
fn dense_part(x: &[f32], rows: usize, layer: &Dense, cols: std::ops::Range<usize>, out: &mut [f32]) {
    let (k, width) = (layer.inputs, cols.len());
    let tile = (TILE_BYTES / (k * 4).max(1) / 4 * 4).max(4);
    let mut start = 0;
    while start < rows {
        let end = (start + tile).min(rows);
        dense_tile(
            &x[start * k..end * k],
            end - start,
            layer,
            cols.clone(),
            &mut out[start * width..end * width],
        );
        start = end;
    }
}

/// One tile of [`dense_part`], with the kernel the weights are kept for.
fn dense_tile(x: &[f32], rows: usize, layer: &Dense, cols: std::ops::Range<usize>, out: &mut [f32]) {
    pulp::Arch::new().dispatch(Cols {
        x,
        rows,
        layer,
        cols,
        out,
    });
}

/// One thread's share of [`dense`] as a pulp operation.
struct Cols<'a> {
    x: &'a [f32],
    rows: usize,
    layer: &'a Dense,
    cols: std::ops::Range<usize>,
    out: &'a mut [f32],
}

impl pulp::WithSimd for Cols<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, simd: S) {
        dense_cols(simd, self.x, self.rows, self.layer, self.cols, self.out);
    }
}

/// Outputs `cols` of [`dense`] into `out`, `rows × cols.len()`. Each weight row is read
/// once and meets every token row while it is in cache; a block of two weight rows and
/// four token rows keeps eight independent multiply-add chains in flight.
#[inline(always)]
fn dense_cols<S: pulp::Simd>(
    simd: S,
    x: &[f32],
    rows: usize,
    layer: &Dense,
    cols: std::ops::Range<usize>,
    out: &mut [f32],
) {
    let k = layer.inputs;
    let width = cols.len();
    let row = |i: usize| &x[i * k..(i + 1) * k];
    let weight = |j: usize| &layer.weight[j * k..(j + 1) * k];
    let bias = |j: usize| layer.bias[j];
    let mut j = cols.start;
    while j + 2 <= cols.end {
        let (w0, w1) = (weight(j), weight(j + 1));
        let c = j - cols.start;
        let mut i = 0;
        while i + 4 <= rows {
            let s = dot2x4(simd, [w0, w1], [row(i), row(i + 1), row(i + 2), row(i + 3)]);
            for (r, (a, b)) in s[0].iter().zip(&s[1]).enumerate() {
                out[(i + r) * width + c] = a + bias(j);
                out[(i + r) * width + c + 1] = b + bias(j + 1);
            }
            i += 4;
        }
        for i in i..rows {
            out[i * width + c] = dot(simd, w0, row(i)) + bias(j);
            out[i * width + c + 1] = dot(simd, w1, row(i)) + bias(j + 1);
        }
        j += 2;
    }
    for j in j..cols.end {
        for i in 0..rows {
            out[i * width + j - cols.start] = dot(simd, weight(j), row(i)) + bias(j);
        }
    }
    if layer.gelu {
        for v in out.iter_mut() {
            *v = gelu(*v);
        }
    }
}

/// Dot products of two weight rows with four token rows, all of one length.
#[inline(always)]
fn dot2x4<S: pulp::Simd>(simd: S, w: [&[f32]; 2], x: [&[f32]; 4]) -> [[f32; 4]; 2] {
    let (w0, w0t) = S::as_simd_f32s(w[0]);
    let (w1, w1t) = S::as_simd_f32s(w[1]);
    let (a, at) = S::as_simd_f32s(x[0]);
    let (b, bt) = S::as_simd_f32s(x[1]);
    let (c, ct) = S::as_simd_f32s(x[2]);
    let (d, dt) = S::as_simd_f32s(x[3]);
    let zero = simd.splat_f32s(0.0);
    let mut p = [zero; 4];
    let mut q = [zero; 4];
    for (((((u, v), ai), bi), ci), di) in w0.iter().zip(w1).zip(a).zip(b).zip(c).zip(d) {
        p[0] = simd.mul_add_f32s(*u, *ai, p[0]);
        q[0] = simd.mul_add_f32s(*v, *ai, q[0]);
        p[1] = simd.mul_add_f32s(*u, *bi, p[1]);
        q[1] = simd.mul_add_f32s(*v, *bi, q[1]);
        p[2] = simd.mul_add_f32s(*u, *ci, p[2]);
        q[2] = simd.mul_add_f32s(*v, *ci, q[2]);
        p[3] = simd.mul_add_f32s(*u, *di, p[3]);
        q[3] = simd.mul_add_f32s(*v, *di, q[3]);
    }
    let tail = |w: &[f32], t: &[f32]| w.iter().zip(t).map(|(m, n)| m * n).sum::<f32>();
    let tails = [at, bt, ct, dt];
    let mut out = [[0.0f32; 4]; 2];
    for r in 0..4 {
        out[0][r] = simd.reduce_sum_f32s(p[r]) + tail(w0t, tails[r]);
        out[1][r] = simd.reduce_sum_f32s(q[r]) + tail(w1t, tails[r]);
    }
    out
}

/// Dot product with fused multiply-adds, two independent accumulators.
#[inline(always)]
fn dot<S: pulp::Simd>(simd: S, a: &[f32], b: &[f32]) -> f32 {
    let (av, at) = S::as_simd_f32s(a);
    let (bv, bt) = S::as_simd_f32s(b);
    let zero = simd.splat_f32s(0.0);
    let (mut s0, mut s1) = (zero, zero);
    let mut pairs = av.chunks_exact(2).zip(bv.chunks_exact(2));
    for (x, y) in pairs.by_ref() {
        s0 = simd.mul_add_f32s(x[0], y[0], s0);
        s1 = simd.mul_add_f32s(x[1], y[1], s1);
    }
    if let (true, Some(x), Some(y)) = (av.len() % 2 == 1, av.last(), bv.last()) {
        s0 = simd.mul_add_f32s(*x, *y, s0);
    }
    simd.reduce_sum_f32s(simd.add_f32s(s0, s1)) + at.iter().zip(bt).map(|(p, q)| p * q).sum::<f32>()
}

/// The sum of `f` over `values` in eight running sums, which the compiler keeps in one
/// vector register (a single running sum is a chain it may not reorder).
#[inline(always)]
fn lane_sum(values: &[f32], f: impl Fn(f32) -> f32) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (eights, rest) = pulp::as_arrays::<8, f32>(values);
    for eight in eights {
        for (l, v) in lanes.iter_mut().zip(eight) {
            *l += f(*v);
        }
    }
    lanes.iter().sum::<f32>() + rest.iter().map(|v| f(*v)).sum::<f32>()
}

/// LayerNorm over each row of `h` values, in place.
#[inline(always)]
fn layer_norm(x: &mut [f32], h: usize, norm: &Norm, eps: f32) {
    for row in x.chunks_exact_mut(h) {
        let mean = lane_sum(row, |v| v) / h as f32;
        let var = lane_sum(row, |v| (v - mean) * (v - mean)) / h as f32;
        let inv = 1.0 / (var + eps).sqrt();
        for ((v, g), b) in row.iter_mut().zip(&norm.gain).zip(&norm.bias) {
            *v = (*v - mean) * inv * g + b;
        }
    }
}

/// The tests' seeded values: xorshift64, the same sequence on every run.
#[cfg(test)]
fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}
