//! # The fixed-point copies of the filtered scan (16-bit and 8-bit)
//!
//! Every value x of the records is kept as the integer round(x S), for one scale S chosen so
//! that |round(x S)| <= L with d (2L)^2 < 2^31 and L within the stored type (16 383 for
//! `i16`, 127 for `i8`: [`Level`]); a query point q the same way. A pass computes
//! D = sum_j (x'_j - q'_j)^2 exactly in 32-bit integers, two columns per multiply-add (8-bit
//! values widened to 16 bits first; `vpmaddwd` with AVX2, `vpdpwssd` with AVX-512 VNNI, or
//! portable code: the same integers in every case, so the CPU and the thread count change
//! nothing). Each integer coordinate is within 1/2 (plus the product's rounding) of the
//! scaled value, so |S ||x - q|| - sqrt(D)| <= r = sqrt(d) (1 + 10^-10) (P16 (i)): a
//! farthest query keeps the values whose sqrt(D) + r reaches the largest value's
//! sqrt(D) - r, a k-nearest query the values whose sqrt(D) - r stays within the k-th
//! smallest value's sqrt(D) + r (both widened for the scan's own rounding), and both stop
//! checking candidates once an exact distance excludes the rest (P16 (j)). The records are
//! stored as pairs of columns, record after record (`[pair][position][2]`), 2 bytes per
//! value (a quarter of the `f64` scan's bytes) or 1 (an eighth).
//!
//! ## Complexity
//! O(m d) per pass over m records with integer multiply-adds of 16 (AVX2) or 32 (AVX-512)
//! lanes; O(m d) memory (2 or 1 bytes per value, d rounded up to even).

use super::kernels::{block_range, chunked_pass, max_of, min_of, BLOCK};
use super::{Pass, MAX_MAGNITUDE};
use crate::data::Instance;

/// Relative and absolute widening of the bounds for the scan's own rounding (a relative
/// (d + 2) 2^-53 on the squared distance, underflow below 2^-1022) and the rounding of the
/// square roots and squares that form the thresholds (P16 (i)).
const RHO: f64 = 1e-9;
const TAU: f64 = 1e-9;
/// Relative widening of sqrt(d) for the rounding of the products x S (each within 2^-53 L
/// of x S, so a coordinate within 1/2 + 2^-38 of its integer: P16 (i)).
const REACH_SLACK: f64 = 1e-10;
/// Smallest nonzero magnitude for which a scale is chosen (smaller data go elsewhere).
const MIN_MAGNITUDE: f64 = 1e-100;
/// Fewest integer levels per unit of the largest magnitude worth a fixed-point pass.
const MIN_LEVELS: i32 = 64;

/// The integer type a fixed-point copy stores: 16 bits ([`i16`], the default) or 8 bits
/// ([`i8`], half the bytes per pass and a coarser grid). Either is widened to 16-bit lanes
/// before the multiply-adds, so both passes compute the same kind of integer sums.
pub trait Level: Copy + Default + Send + Sync + 'static {
    /// The largest magnitude stored (symmetric range, so a difference fits in 16 bits).
    const CAP: i32;
    /// The stored value of an integer within `CAP`.
    fn from_i32(v: i32) -> Self;
    /// The stored integer.
    fn get(self) -> i32;
    /// 16 consecutive values widened to 16-bit lanes.
    ///
    /// # Safety
    /// The CPU supports AVX2 and `p` points to 16 readable values.
    #[cfg(target_arch = "x86_64")]
    unsafe fn load16(p: *const Self) -> std::arch::x86_64::__m256i;
    /// 32 consecutive values widened to 16-bit lanes.
    ///
    /// # Safety
    /// The CPU supports AVX-512 F and BW and `p` points to 32 readable values.
    #[cfg(target_arch = "x86_64")]
    unsafe fn load32(p: *const Self) -> std::arch::x86_64::__m512i;
}

impl Level for i16 {
    const CAP: i32 = 16_383;
    fn from_i32(v: i32) -> Self {
        v as i16
    }
    fn get(self) -> i32 {
        self as i32
    }
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load16(p: *const Self) -> std::arch::x86_64::__m256i {
        std::arch::x86_64::_mm256_loadu_si256(p as *const _)
    }
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn load32(p: *const Self) -> std::arch::x86_64::__m512i {
        std::arch::x86_64::_mm512_loadu_si512(p as *const _)
    }
}

impl Level for i8 {
    const CAP: i32 = 127;
    fn from_i32(v: i32) -> Self {
        v as i8
    }
    fn get(self) -> i32 {
        self as i32
    }
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load16(p: *const Self) -> std::arch::x86_64::__m256i {
        use std::arch::x86_64::*;
        _mm256_cvtepi8_epi16(_mm_loadu_si128(p as *const __m128i))
    }
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn load32(p: *const Self) -> std::arch::x86_64::__m512i {
        use std::arch::x86_64::*;
        _mm512_cvtepi8_epi16(_mm256_loadu_si256(p as *const __m256i))
    }
}

/// The records in fixed point (see the module doc), 16 bits per value by default.
pub struct Fixed<L: Level = i16> {
    /// `[pair][position][2]` with `cap` positions per pair; unused lanes (odd d) are 0.
    data: Vec<L>,
    pairs: usize,
    cap: usize,
    len: usize,
    scale: f64,
    /// Largest integer magnitude of a coordinate (records and accepted query points).
    limit: i32,
    /// sqrt(d) times the loosening factor (1 except in the test that loosens it).
    reach: f64,
}

impl<L: Level> Fixed<L> {
    /// The largest L with d (2L)^2 < 2^31 (no overflow of the 32-bit sums), 2L < 2^15
    /// (no overflow of a 16-bit difference) and L within the stored type.
    fn limit_for(d: usize) -> i32 {
        let by_sum = (((i32::MAX as f64) / d.max(1) as f64).sqrt() / 2.0).floor() as i64 - 1;
        by_sum.min(L::CAP as i64) as i32
    }

    /// The point's integer coordinates (pairs, odd lane 0), or None when one is out of range.
    fn quantise(&self, point: &[f64]) -> Option<Vec<[i16; 2]>> {
        let mut q = vec![[0i16; 2]; self.pairs];
        for (j, &v) in point.iter().enumerate() {
            let r = (v * self.scale).round();
            if !(r.abs() <= self.limit as f64) {
                return None;
            }
            q[j / 2][j % 2] = r as i16;
        }
        Some(q)
    }
}

impl<L: Level> Fixed<L> {
    /// Records held.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The value below which hi(D_x) = (sqrt(D_x) + r)(1 + RHO) + TAU < `lowest`, a lower
    /// bound on some record's S sqrt(s): such a record is strictly nearer than that one.
    fn floor_below(&self, lowest: f64) -> f64 {
        let w = (lowest - TAU) / (1.0 + RHO) - self.reach;
        if w <= 0.0 {
            f64::NEG_INFINITY
        } else {
            w * w * (1.0 - 1e-12)
        }
    }

    /// The value above which lo(D_x) = (sqrt(D_x) - r)(1 - RHO) - TAU > `highest`, an upper
    /// bound on some records' S sqrt(s): such a record is strictly farther than those.
    fn ceil_above(&self, highest: f64) -> f64 {
        let z = (highest + TAU) / (1.0 - RHO) + self.reach;
        z * z * (1.0 + 1e-12)
    }
}

impl<L: Level> Pass for Fixed<L> {
    type Value = i32;

    /// None when a value is not finite, the largest magnitude is 10^15 or more (or nonzero
    /// below 10^-100), or d is so large that fewer than 64 levels remain.
    fn build(inst: &Instance, ids: &[usize]) -> Option<Self> {
        let d = inst.d;
        let limit = Self::limit_for(d);
        if d == 0 || limit < MIN_LEVELS {
            return None;
        }
        let mut largest = 0.0f64;
        for &i in ids {
            for &v in inst.row(i) {
                if !v.is_finite() {
                    return None;
                }
                largest = largest.max(v.abs());
            }
        }
        if largest >= MAX_MAGNITUDE || (largest > 0.0 && largest < MIN_MAGNITUDE) {
            return None;
        }
        // S = L / largest, stepped down until the rounded product is at most L, so that
        // every rounded x S is (rounding is monotone); each product is within a relative
        // 2^-53 of x S, which `reach` allows for (P16 (i)).
        let mut scale = 1.0f64;
        if largest > 0.0 {
            scale = limit as f64 / largest;
            while largest * scale > limit as f64 {
                scale = f64::from_bits(scale.to_bits() - 1);
            }
        }
        let pairs = d.div_ceil(2);
        let cap = ids.len();
        let mut data = vec![L::default(); pairs * cap * 2];
        for (p, &i) in ids.iter().enumerate() {
            for (j, &v) in inst.row(i).iter().enumerate() {
                data[((j / 2) * cap + p) * 2 + j % 2] = L::from_i32((v * scale).round() as i32);
            }
        }
        Some(Fixed {
            data,
            pairs,
            cap,
            len: ids.len(),
            scale,
            limit,
            reach: (d as f64).sqrt() * (1.0 + REACH_SLACK),
        })
    }

    fn pass(&mut self, point: &[f64], out: &mut [i32], lo: &mut [i32], hi: &mut [i32]) -> bool {
        debug_assert_eq!(out.len(), self.len);
        let Some(q) = self.quantise(point) else {
            return false;
        };
        let (data, cap) = (&self.data[..], self.cap);
        if !chunked_pass(out, lo, hi, |start, chunk, lo, hi| {
            fixed_pass(data, cap, start, &q, chunk, lo, hi)
        }) {
            fixed_pass(data, cap, 0, &q, out, lo, hi);
        }
        true
    }

    fn far_floor(&self, top: f64) -> f64 {
        // Some record has S sqrt(s) >= lo(top).
        self.floor_below(((top.sqrt() - self.reach).max(0.0) * (1.0 - RHO) - TAU).max(0.0))
    }

    fn near_ceil(&self, kth: f64) -> f64 {
        // k records have S sqrt(s) <= hi(kth).
        self.ceil_above((kth.sqrt() + self.reach) * (1.0 + RHO) + TAU)
    }

    fn far_floor_exact(&self, dist: f64) -> f64 {
        // A record has S sqrt(s) = S sqrt(dist), at least this (two roundings within RHO).
        self.floor_below(((self.scale * dist.sqrt()) * (1.0 - RHO) - TAU).max(0.0))
    }

    fn near_ceil_exact(&self, dist: f64) -> f64 {
        self.ceil_above((self.scale * dist.sqrt()) * (1.0 + RHO) + TAU)
    }

    fn swap_remove(&mut self, p: usize) {
        let last = self.len - 1;
        for pair in 0..self.pairs {
            let base = pair * self.cap;
            let (to, from) = ((base + p) * 2, (base + last) * 2);
            self.data.copy_within(from..from + 2, to);
        }
        self.len = last;
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    fn loosen(&mut self, factor: f64) {
        self.reach *= factor;
    }
}

/// The integer squared distances from `q` of the positions `start .. start + out.len()`,
/// with each block's least and largest (blocks counted from `start`, a multiple of
/// [`BLOCK`]).
fn fixed_pass<L: Level>(
    data: &[L],
    cap: usize,
    start: usize,
    q: &[[i16; 2]],
    out: &mut [i32],
    lo: &mut [i32],
    hi: &mut [i32],
) {
    let m = out.len();
    let full = m / BLOCK;
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512vnni")
            && std::arch::is_x86_feature_detected!("avx512bw")
        {
            // SAFETY: the CPU supports AVX-512 F, BW and VNNI (checked just above).
            unsafe { blocks_avx512(data, cap, start, q, &mut out[..full * BLOCK], lo, hi) };
            done = full;
        } else if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above).
            unsafe { blocks_avx2(data, cap, start, q, &mut out[..full * BLOCK], lo, hi) };
            done = full;
        }
    }
    blocks_portable(data, cap, start + done * BLOCK, q, &mut out[done * BLOCK..]);
    // Blocks the vector kernels did not bound (their bounds come from the accumulators).
    for (b, (lo, hi)) in lo.iter_mut().zip(hi.iter_mut()).enumerate().skip(done) {
        let values = &out[block_range(b, m)];
        *lo = min_of(values);
        *hi = max_of(values);
    }
}

/// The portable pass (any length): per record, per pair, two products added in `i32`.
fn blocks_portable<L: Level>(
    data: &[L],
    cap: usize,
    start: usize,
    q: &[[i16; 2]],
    out: &mut [i32],
) {
    out.iter_mut().for_each(|o| *o = 0);
    for (pair, qp) in q.iter().enumerate() {
        let base = (pair * cap + start) * 2;
        let x = &data[base..base + out.len() * 2];
        for (o, v) in out.iter_mut().zip(x.chunks_exact(2)) {
            let a = v[0].get() - qp[0] as i32;
            let b = v[1].get() - qp[1] as i32;
            *o += a * a + b * b;
        }
    }
}

/// Full blocks with AVX2: 16 lanes of 16 bits (8 records x 2 columns) per register,
/// `vpmaddwd` squares and adds each record's pair into one 32-bit lane.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn blocks_avx2<L: Level>(
    data: &[L],
    cap: usize,
    start: usize,
    q: &[[i16; 2]],
    out: &mut [i32],
    lo: &mut [i32],
    hi: &mut [i32],
) {
    use std::arch::x86_64::*;
    debug_assert_eq!(out.len() % BLOCK, 0);
    for b in 0..out.len() / BLOCK {
        let first = start + b * BLOCK;
        let mut acc = [_mm256_setzero_si256(); BLOCK / 8];
        for (pair, qp) in q.iter().enumerate() {
            let x = &data[(pair * cap + first) * 2..(pair * cap + first + BLOCK) * 2];
            let qv = _mm256_set1_epi32(((qp[1] as u16 as i32) << 16) | qp[0] as u16 as i32);
            for (i, a) in acc.iter_mut().enumerate() {
                // SAFETY: x holds 2 BLOCK values, so 16 i .. 16 i + 16 is in bounds.
                let v = L::load16(x.as_ptr().add(16 * i));
                let t = _mm256_sub_epi16(v, qv);
                *a = _mm256_add_epi32(*a, _mm256_madd_epi16(t, t));
            }
        }
        let dst = &mut out[b * BLOCK..(b + 1) * BLOCK];
        let (mut least, mut most) = (acc[0], acc[0]);
        for (i, a) in acc.iter().enumerate() {
            // SAFETY: dst holds BLOCK values.
            _mm256_storeu_si256(dst.as_mut_ptr().add(8 * i) as *mut __m256i, *a);
            least = _mm256_min_epi32(least, *a);
            most = _mm256_max_epi32(most, *a);
        }
        let (mut l, mut h) = ([0i32; 8], [0i32; 8]);
        _mm256_storeu_si256(l.as_mut_ptr() as *mut __m256i, least);
        _mm256_storeu_si256(h.as_mut_ptr() as *mut __m256i, most);
        lo[b] = l.iter().copied().min().expect("eight lanes");
        hi[b] = h.iter().copied().max().expect("eight lanes");
    }
}

/// Full blocks with AVX-512 VNNI: 32 lanes of 16 bits per register, `vpdpwssd` squares,
/// adds the pair and accumulates in one instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
unsafe fn blocks_avx512<L: Level>(
    data: &[L],
    cap: usize,
    start: usize,
    q: &[[i16; 2]],
    out: &mut [i32],
    lo: &mut [i32],
    hi: &mut [i32],
) {
    use std::arch::x86_64::*;
    debug_assert_eq!(out.len() % BLOCK, 0);
    for b in 0..out.len() / BLOCK {
        let first = start + b * BLOCK;
        let mut acc = [_mm512_setzero_si512(); BLOCK / 16];
        for (pair, qp) in q.iter().enumerate() {
            let x = &data[(pair * cap + first) * 2..(pair * cap + first + BLOCK) * 2];
            let qv = _mm512_set1_epi32(((qp[1] as u16 as i32) << 16) | qp[0] as u16 as i32);
            for (i, a) in acc.iter_mut().enumerate() {
                // SAFETY: x holds 2 BLOCK values, so 32 i .. 32 i + 32 is in bounds.
                let v = L::load32(x.as_ptr().add(32 * i));
                let t = _mm512_sub_epi16(v, qv);
                *a = _mm512_dpwssd_epi32(*a, t, t);
            }
        }
        let dst = &mut out[b * BLOCK..(b + 1) * BLOCK];
        let (mut least, mut most) = (acc[0], acc[0]);
        for (i, a) in acc.iter().enumerate() {
            // SAFETY: dst holds BLOCK values.
            _mm512_storeu_si512(dst.as_mut_ptr().add(16 * i) as *mut __m512i, *a);
            least = _mm512_min_epi32(least, *a);
            most = _mm512_max_epi32(most, *a);
        }
        lo[b] = _mm512_reduce_min_epi32(least);
        hi[b] = _mm512_reduce_max_epi32(most);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kernel gives the portable integers, and |S dist - sqrt(D)| <= sqrt(d), with
    /// 16-bit and 8-bit copies.
    #[test]
    fn kernels_agree_and_the_bound_holds() {
        kernels_agree_for::<i16>();
        kernels_agree_for::<i8>();
    }

    fn kernels_agree_for<L: Level>() {
        let mut next = crate::geometry::test_draw::unit(0x9E37_79B9_7F4A_7C15);
        for d in [1usize, 2, 3, 10, 11, 20] {
            for scale in [1e-3, 1.0, 37.0, 1e6] {
                let n = 300;
                let raw: Vec<f64> = (0..n * d).map(|_| next() * 2.0 - 1.0).collect();
                let columns = (0..d).map(|j| format!("c{j}")).collect();
                let mut inst = Instance::from_raw("t", "t", columns, raw, "t".into()).unwrap();
                inst.z.iter_mut().for_each(|v| *v *= scale);
                let largest = inst.z.iter().fold(0.0f64, |a, v| a.max(v.abs()));
                let ids: Vec<usize> = (0..n).collect();
                let fixed = Fixed::<L>::build(&inst, &ids).expect("suits");
                for qi in 0..10 {
                    let q = inst.row(qi * 7).to_vec();
                    let qq = fixed.quantise(&q).expect("a record is in range");
                    let mut want = vec![0i32; n];
                    blocks_portable(&fixed.data, fixed.cap, 0, &qq, &mut want);
                    let nb = n.div_ceil(BLOCK);
                    let (mut out, mut lo, mut hi) = (vec![0; n], vec![0; nb], vec![0; nb]);
                    fixed_pass(&fixed.data, fixed.cap, 0, &qq, &mut out, &mut lo, &mut hi);
                    assert_eq!(out, want, "d {d} scale {scale}");
                    for b in 0..nb {
                        let block = &want[block_range(b, n)];
                        assert_eq!((lo[b], hi[b]), (min_of(block), max_of(block)));
                    }
                    // The AVX2 kernel too, where the pass above took the AVX-512 one.
                    #[cfg(target_arch = "x86_64")]
                    if std::arch::is_x86_feature_detected!("avx2") {
                        let full = (n / BLOCK) * BLOCK;
                        let (mut o2, mut l2, mut h2) = (vec![0; full], vec![0; nb], vec![0; nb]);
                        // SAFETY: the CPU supports AVX2 (checked just above).
                        unsafe {
                            blocks_avx2(&fixed.data, fixed.cap, 0, &qq, &mut o2, &mut l2, &mut h2)
                        };
                        assert_eq!(o2, want[..full]);
                        assert_eq!(l2[..full / BLOCK], lo[..full / BLOCK]);
                        assert_eq!(h2[..full / BLOCK], hi[..full / BLOCK]);
                    }
                    for (i, &v) in out.iter().enumerate() {
                        let exact = super::super::sq_dist_as_scan(inst.row(i), &q).sqrt();
                        let diff = (exact * fixed.scale - (v as f64).sqrt()).abs();
                        assert!(diff <= fixed.reach, "d {d} scale {scale}: {diff}");
                    }
                }
                // The resolution is not vacuous: nearly all the levels are used.
                assert!(fixed.scale * largest * (1.0 + 1e-12) >= fixed.limit as f64);
            }
        }
    }
}
