//! # Filtered-scan kernels
//!
//! The single-precision distance pass of [`super::FilterScan`] (AVX2 and portable, parallel
//! over fixed chunks), its proven error bound (P16 (h)) and the small selections over its
//! values (block minima and maxima, the k-th smallest). O(m d) per pass, O(m) per selection.

use super::MAX_MAGNITUDE;

/// Records per parallel task of the pass, and fewest records for a parallel pass.
pub(super) const CHUNK: usize = 16_384;
pub(super) const PARALLEL_MIN: usize = 32_768;

/// A bound on |f32 pass - f64 scan| for every record whose column magnitudes are at most
/// `col_abs`, from the query `point` (P16 (h)); infinite when `point` is too large for
/// `f32`. Widened by 1 % for the rounding of the bound itself and of the thresholds.
pub(crate) fn error_bound(col_abs: &[f64], point: &[f64]) -> f64 {
    const U: f64 = 1.0 / (1u64 << 24) as f64; // f32 unit roundoff
    const ETA: f64 = 1.401_298_464_324_817e-45; // 2^-149: f32 underflow, generous
    const U64: f64 = 1.0 / (1u64 << 53) as f64;
    let d = col_abs.len() as f64;
    if point
        .iter()
        .any(|v| !v.is_finite() || v.abs() >= MAX_MAGNITUDE)
    {
        return f64::INFINITY;
    }
    let gamma = |n: f64, u: f64| n * u / (1.0 - n * u);
    let (mut single, mut terms, mut a_sq) = (0.0, 0.0, 0.0);
    for (&xa, &qv) in col_abs.iter().zip(point) {
        let a = xa + qv.abs(); // |x_j - q_j| <= a
                               // Conversions of x and q, then the rounded subtraction.
        let delta = U * a + 2.0 * ETA + U * (a * (1.0 + U) + 2.0 * ETA);
        let b = (a * (1.0 + U) + 2.0 * ETA) * (1.0 + U); // |computed difference| <= b
        single += delta * (b + a) + U * b * b + ETA;
        terms += b * b * (1.0 + U) + ETA;
        a_sq += a * a;
    }
    single += gamma(d, U) * terms;
    // The scan's own rounding: d + 2 roundings of at most sum a_j^2, plus underflow.
    let double = gamma(d + 2.0, U64) * a_sq + d * f64::from_bits(1);
    (single + double) * 1.01
}

/// Positions of block `b` among `m` records.
pub(crate) fn block_range(b: usize, m: usize) -> std::ops::Range<usize> {
    b * BLOCK..((b + 1) * BLOCK).min(m)
}

/// Squared distances in `f32` from `q` to every record of `cols` (columns), into `out`, and
/// each block's smallest and largest value; parallel over fixed chunks for large passes
/// (each value computed by one thread).
pub(super) fn distances_f32(
    cols: &[Vec<f32>],
    q: &[f32],
    out: &mut [f32],
    lo: &mut [f32],
    hi: &mut [f32],
) {
    if !chunked_pass(out, lo, hi, |start, chunk, lo, hi| {
        let part: Vec<&[f32]> = cols
            .iter()
            .map(|col| &col[start..start + chunk.len()])
            .collect();
        distances_f32_serial(&part, q, chunk, lo, hi);
    }) {
        distances_f32_serial(cols, q, out, lo, hi);
    }
}

/// For a large pass with more than one thread: `chunk_pass(start, values, lo, hi)` on the
/// fixed chunks of [`CHUNK`] positions (from `start`) of `out` and their blocks' slots of
/// `lo` and `hi`, in parallel, each value written by one thread; true when it ran. False
/// (nothing done) for a small pass or one thread: the caller runs the pass serially.
pub(super) fn chunked_pass<T: Send>(
    out: &mut [T],
    lo: &mut [T],
    hi: &mut [T],
    chunk_pass: impl Fn(usize, &mut [T], &mut [T], &mut [T]) + Sync,
) -> bool {
    if out.len() < PARALLEL_MIN || crate::parallel::threads() <= 1 {
        return false;
    }
    use rayon::prelude::*;
    const BLOCKS: usize = CHUNK / BLOCK;
    crate::parallel::install(|| {
        out.par_chunks_mut(CHUNK)
            .zip(lo.par_chunks_mut(BLOCKS))
            .zip(hi.par_chunks_mut(BLOCKS))
            .enumerate()
            .for_each(|(c, ((chunk, lo), hi))| chunk_pass(c * CHUNK, chunk, lo, hi))
    });
    true
}

pub(super) fn distances_f32_serial<C: AsRef<[f32]>>(
    cols: &[C],
    q: &[f32],
    out: &mut [f32],
    lo: &mut [f32],
    hi: &mut [f32],
) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above).
            unsafe { distances_f32_avx2(cols, q, out, lo, hi) };
            return;
        }
    }
    distances_f32_portable(cols, q, out, lo, hi);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn distances_f32_avx2<C: AsRef<[f32]>>(
    cols: &[C],
    q: &[f32],
    out: &mut [f32],
    lo: &mut [f32],
    hi: &mut [f32],
) {
    use std::arch::x86_64::*;
    let m = out.len();
    let full = m / BLOCK;
    for b in 0..full {
        let start = b * BLOCK;
        // Eight accumulators of eight lanes in registers across the columns; per lane the
        // portable path's operations: t = v - c, acc = acc + t * t (no fused multiply-add).
        let mut acc = [_mm256_setzero_ps(); BLOCK / 8];
        for (col, &c) in cols.iter().zip(q) {
            let x = &col.as_ref()[start..start + BLOCK];
            let cv = _mm256_set1_ps(c);
            for (i, a) in acc.iter_mut().enumerate() {
                // SAFETY: x holds BLOCK values, so 8 i .. 8 i + 8 is in bounds.
                let v = _mm256_loadu_ps(x.as_ptr().add(8 * i));
                let t = _mm256_sub_ps(v, cv);
                *a = _mm256_add_ps(*a, _mm256_mul_ps(t, t));
            }
        }
        let dst = &mut out[start..start + BLOCK];
        for (i, a) in acc.iter().enumerate() {
            // SAFETY: dst holds BLOCK values.
            _mm256_storeu_ps(dst.as_mut_ptr().add(8 * i), *a);
        }
        lo[b] = min_of(dst);
        hi[b] = max_of(dst);
    }
    if full < lo.len() {
        let tail: Vec<&[f32]> = cols.iter().map(|c| &c.as_ref()[full * BLOCK..m]).collect();
        distances_f32_portable(
            &tail,
            q,
            &mut out[full * BLOCK..],
            &mut lo[full..],
            &mut hi[full..],
        );
    }
}

/// Records per block: kept in registers across the columns, and the unit of the block
/// bounds.
pub(crate) const BLOCK: usize = 64;

#[inline(always)]
fn distances_f32_portable<C: AsRef<[f32]>>(
    cols: &[C],
    q: &[f32],
    out: &mut [f32],
    lo: &mut [f32],
    hi: &mut [f32],
) {
    let m = out.len();
    for (b, (lo, hi)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
        let range = block_range(b, m);
        if range.len() == BLOCK {
            // A full block: a fixed-size accumulator the compiler keeps in registers across
            // the columns (same operations per record as below).
            let mut acc = [0.0f32; BLOCK];
            for (col, &c) in cols.iter().zip(q) {
                let x: &[f32; BLOCK] = col.as_ref()[range.clone()]
                    .try_into()
                    .expect("a full block");
                for (a, &v) in acc.iter_mut().zip(x) {
                    let t = v - c;
                    *a += t * t;
                }
            }
            *lo = min_of(&acc);
            *hi = max_of(&acc);
            out[range].copy_from_slice(&acc);
            continue;
        }
        let mut acc = [0.0f32; BLOCK];
        let acc = &mut acc[..range.len()];
        for (col, &c) in cols.iter().zip(q) {
            for (a, &v) in acc.iter_mut().zip(&col.as_ref()[range.clone()]) {
                let t = v - c;
                *a += t * t;
            }
        }
        *lo = min_of(acc);
        *hi = max_of(acc);
        out[range].copy_from_slice(acc);
    }
}

/// A value of a pass: ordered, never NaN, exactly convertible to `f64`.
pub trait Key: Copy + PartialOrd + Default + Into<f64> + Send + Sync + 'static {
    /// Below and above every value.
    const LOWEST: Self;
    const HIGHEST: Self;
}

impl Key for f32 {
    const LOWEST: Self = f32::NEG_INFINITY;
    const HIGHEST: Self = f32::INFINITY;
}

impl Key for i32 {
    const LOWEST: Self = i32::MIN;
    const HIGHEST: Self = i32::MAX;
}

/// Smallest value (the values are never NaN).
#[inline(always)]
pub(crate) fn min_of<T: Key>(v: &[T]) -> T {
    extreme_of(v, T::HIGHEST, |x, y| x < y)
}

/// Largest value (the values are never NaN).
#[inline(always)]
pub(crate) fn max_of<T: Key>(v: &[T]) -> T {
    extreme_of(v, T::LOWEST, |x, y| x > y)
}

/// The value of `v` that `beats` every other (`start` when `v` is empty), kept in 16 lanes
/// so that the compiler vectorises the scan.
#[inline(always)]
fn extreme_of<T: Key>(v: &[T], start: T, beats: impl Fn(T, T) -> bool) -> T {
    let mut lanes = [start; 16];
    let chunks = v.chunks_exact(16);
    let tail = chunks.remainder();
    for ch in chunks {
        for (l, &x) in lanes.iter_mut().zip(ch) {
            *l = if beats(x, *l) { x } else { *l };
        }
    }
    lanes
        .iter()
        .chain(tail)
        .fold(start, |a, &b| if beats(b, a) { b } else { a })
}

/// The k-th smallest value counted with multiplicity (1 <= k <= len; never NaN).
pub(crate) fn kth_smallest<T: Key>(v: &[T], k: usize) -> T {
    if k > 32 {
        let mut copy = v.to_vec();
        let (_, kth, _) = copy.select_nth_unstable_by(k - 1, |a, b| {
            a.partial_cmp(b).expect("pass values are never NaN")
        });
        return *kth;
    }
    // The k smallest so far, ascending, in a fixed array (no allocation per query); most
    // values fail the first test.
    let mut best = [T::HIGHEST; 32];
    let mut len = 0usize;
    for ch in v.chunks(16) {
        // One vectorisable test per chunk before looking at its values one by one.
        if len == k && min_of(ch) >= best[k - 1] {
            continue;
        }
        for &x in ch {
            if len == k && x >= best[k - 1] {
                continue;
            }
            // Insert after the values <= x, dropping the largest when k are held (an
            // insertion step: k is small, a library move would cost more).
            len = (len + 1).min(k);
            let mut at = len - 1;
            while at > 0 && best[at - 1] > x {
                best[at] = best[at - 1];
                at -= 1;
            }
            best[at] = x;
        }
    }
    best[k - 1]
}
