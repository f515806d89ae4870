//! Setup shared by the branch-and-price suites of this wing (bnp, bnp_rank1, bnp_big_cuts,
//! bnp_count_row): branch and price from the chunk start, an exact pricing budget that never
//! stops first, the checks of priced groups against brute force, the z-scored instance a
//! certificate is written for, and an honest certificate's checks and tampering. Each
//! suite keeps its own data, options and cuts; only the repeated steps live here.

use crate::common;
use microagg::bnp_certificate::{verify, BnpCertificate};
use microagg::certificate::Verdict;
use microagg::data::Instance;
use microagg_solvers::bnp::{branch_and_price, BnpOptions, BnpResult};
use microagg_solvers::bounds::colgen::cuts::{Cut, CutDuals};
use microagg_solvers::bounds::colgen::pairs::ANY_COUNT;
use microagg_solvers::bounds::colgen::pricing::{
    heuristic_cuts, Anchors, ExactBudget, ExactSearch, Geometry,
};
use microagg_solvers::bounds::verify_node_bound;
use microagg_solvers::sse::partition_sse;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::ops::RangeInclusive;

/// Branch and price of (x, k) started from the chunk partition ([`common::chunk_labels`]).
pub fn run_from_chunks(x: &[f64], n: usize, d: usize, k: usize, opts: &BnpOptions) -> BnpResult {
    let start = common::chunk_labels(n, k);
    branch_and_price(x, n, d, k, &[&start], opts, None, &mut |_| {}).unwrap()
}

/// A random instance: `n` (in `ns`) records of an adversarial family (`case`) in d = 1..=3,
/// and k in 2..=min(`k_most`, n/2); (x, n, d, k).
pub fn family_case(
    rng: &mut impl Rng,
    case: usize,
    ns: RangeInclusive<usize>,
    k_most: usize,
) -> (Vec<f64>, usize, usize, usize) {
    let (n, d, k) = common::random_size(rng, ns, 1..=3, k_most);
    (common::adversarial_family(rng, case, n, d), n, d, k)
}

/// The `cases` instances [`family_case`] (n in `ns`, k up to 3) draws, in order, from a
/// generator seeded with `seed`, each with its number: `(case, x, n, d, k)`.
pub fn family_cases(
    seed: u64,
    cases: usize,
    ns: RangeInclusive<usize>,
) -> impl Iterator<Item = (usize, Vec<f64>, usize, usize, usize)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..cases).map(move |case| {
        let (x, n, d, k) = family_case(&mut rng, case, ns.clone(), 3);
        (case, x, n, d, k)
    })
}

/// The cases of [`family_cases`] whose columns can all be z-scored, each with its instance
/// ([`z_scored`]): `(case, inst, n, d, k)`. A case with a constant column is left out after
/// its draws, so every other case and its number are as `family_cases` gives them.
pub fn z_scored_family_cases(
    seed: u64,
    cases: usize,
    ns: RangeInclusive<usize>,
) -> impl Iterator<Item = (usize, Instance, usize, usize, usize)> {
    family_cases(seed, cases, ns)
        .filter_map(|(case, x, n, d, k)| Some((case, z_scored(x, d)?, n, d, k)))
}

/// A random pricing case with rank-1 cuts: `n` records (in `ns`) of an adversarial family in
/// d = 1..=3, k in 2..=min(`k_most`, n/2), duals around the chunk partition, 1..=`most_cuts`
/// cuts drawn by `cut` and their duals (down to -1.5 times the duals' share).
pub struct CutPricingCase {
    pub n: usize,
    pub d: usize,
    pub k: usize,
    pub x: Vec<f64>,
    pub share: f64,
    pub y: Vec<f64>,
    pub cuts: Vec<Cut>,
    pub sigma: Vec<f64>,
    /// `-sigma`, the cuts' penalties.
    pub w: Vec<f64>,
    pub cd: CutDuals,
    pub geo: Geometry,
}

impl CutPricingCase {
    pub fn random(
        rng: &mut ChaCha8Rng,
        case: usize,
        ns: RangeInclusive<usize>,
        k_most: usize,
        most_cuts: i32,
        cut: fn(&mut ChaCha8Rng, usize) -> Cut,
    ) -> CutPricingCase {
        let (x, n, d, k) = family_case(rng, case, ns, k_most);
        let (share, y) = common::duals_around_chunks(rng, &x, n, d, k);
        let cuts: Vec<Cut> = (0..rng.random_range(1..=most_cuts))
            .map(|_| cut(rng, n))
            .collect();
        let sigma: Vec<f64> = cuts
            .iter()
            .map(|_| -share * rng.random_range(0.0..1.5))
            .collect();
        let w: Vec<f64> = sigma.iter().map(|s| -s).collect();
        let cd = CutDuals::new(n, &cuts, &sigma);
        let geo = Geometry::new(&x, n, d, k, 12);
        CutPricingCase {
            n,
            d,
            k,
            x,
            share,
            y,
            cuts,
            sigma,
            w,
            cd,
            geo,
        }
    }

    /// The reduced cost of the group `mask` by brute force ([`common::rc_brute`]).
    pub fn rc(&self, mask: usize) -> f64 {
        common::rc_brute(&self.x, self.d, &self.y, &self.cuts, &self.w, mask)
    }

    /// [`assert_pricing_matches_brute_force`] on this case, against [`Self::rc`] (`truth` its
    /// least value, from [`Self::least_rc`]).
    pub fn assert_pricing(
        &self,
        truth: f64,
        tol: f64,
        rng: &mut impl Rng,
        case: usize,
    ) -> PricingSeen {
        let rc_of = |mask| self.rc(mask);
        let (geo, y, cd) = (&self.geo, &self.y, &self.cd);
        assert_pricing_matches_brute_force(geo, y, cd, truth, rc_of, (self.share, tol), rng, case)
    }

    /// The node bound the verifier recomputes at the case's duals and cuts: its pricing is
    /// exact and it stays below the subset-DP optimum. Returns the bound.
    pub fn assert_verified_bound_below_optimum(&self, case: usize) -> f64 {
        let (x, n, d, k) = (&self.x, self.n, self.d, self.k);
        let opt = common::subset_dp(x, n, d, k);
        let v = verify_node_bound(
            x,
            n,
            d,
            k,
            &self.y,
            &self.cuts,
            &self.sigma,
            &[],
            ANY_COUNT,
            None,
        )
        .unwrap();
        assert!(v.pricing_exact);
        assert!(
            v.lower_bound <= opt,
            "case {case}: bound {} > optimum {opt}",
            v.lower_bound
        );
        v.lower_bound
    }

    /// The least reduced cost over every group of k..2k-1 records, by brute force; `each`
    /// sees every such group's mask.
    pub fn least_rc(&self, mut each: impl FnMut(usize)) -> f64 {
        let mut truth = f64::INFINITY;
        for mask in 1usize..1 << self.n {
            let m = mask.count_ones() as usize;
            if m >= self.k && m < 2 * self.k {
                truth = truth.min(self.rc(mask));
                each(mask);
            }
        }
        truth
    }
}

/// No cut cuts off a partition of `0..n`: on every partition, each cut's floor coefficients
/// ([`common::coefficient_by_floor`]) summed over the groups stay within its right side;
/// `each` also sees every (cut, group mask, coefficient). Returns the (cut, partition) checks.
pub fn assert_no_partition_cut_off(
    n: usize,
    cuts: &[Cut],
    mut each: impl FnMut(&Cut, usize, u32),
) -> u64 {
    let mut checks = 0;
    common::for_each_partition(n, &mut |groups| {
        for c in cuts {
            let mut lhs = 0u32;
            for &g in groups {
                let by_floor = common::coefficient_by_floor(c, g);
                each(c, g, by_floor);
                lhs += by_floor;
            }
            assert!(
                lhs <= u32::from(c.rhs()),
                "n = {n}: {c:?} cuts off partition {groups:?}"
            );
            checks += 1;
        }
    });
    checks
}

/// A budget under which the exact pricing search of a small instance always finishes.
pub fn unlimited_budget() -> ExactBudget<'static> {
    common::exact_budget(1000, 60)
}

/// The bit mask of a group of records.
fn mask_of(group: &[u32]) -> usize {
    group.iter().fold(0usize, |m, &i| m | 1 << i)
}

/// Every priced column carries its exact reduced cost: `rc_of(mask)` by brute force.
fn assert_columns_priced_exactly(
    columns: &[(f64, Vec<u32>)],
    rc_of: impl Fn(usize) -> f64,
    tol: f64,
    case: usize,
) {
    for (rc, g) in columns {
        let mask = mask_of(g);
        assert!((rc - rc_of(mask)).abs() <= tol, "case {case}");
    }
}

/// The greedy pricing heuristic's groups, from every seed record, carry their exact reduced
/// cost (its moves charged correctly); returns how many groups it found.
pub fn assert_heuristic_groups_priced_exactly(
    geo: &Geometry,
    y: &[f64],
    cd: &CutDuals,
    rc_of: impl Fn(usize) -> f64,
    tol: f64,
    case: usize,
) -> usize {
    let mut checked = 0;
    for seed in 0..y.len() {
        if let Some((rc, g)) = heuristic_cuts(geo, y, cd, seed) {
            let bf = rc_of(mask_of(&g));
            assert!(
                (rc - bf).abs() <= tol,
                "case {case}: heuristic {rc} vs {bf}"
            );
            checked += 1;
        }
    }
    checked
}

/// Every group of k..2k-1 of the n records whose reduced cost `rc_of` is below `threshold`
/// (less `tol`) is among `found` (an enumeration below that threshold); returns how many.
fn assert_every_group_below_listed(
    found: &[(f64, Vec<u32>)],
    n: usize,
    k: usize,
    threshold: f64,
    rc_of: impl Fn(usize) -> f64,
    tol: f64,
    case: usize,
) -> usize {
    let mut listed = 0;
    for mask in 1usize..1 << n {
        let m = mask.count_ones() as usize;
        if m >= k && m < 2 * k && rc_of(mask) < threshold - tol {
            let key = common::members_of(mask, n);
            assert!(
                found.iter().any(|c| c.1 == key),
                "case {case}: group {key:?} not listed"
            );
            listed += 1;
        }
    }
    listed
}

/// What [`assert_pricing_matches_brute_force`] saw: the least reduced cost capped at 0,
/// the heuristic's groups and the groups listed below the threshold.
pub struct PricingSeen {
    pub expect: f64,
    pub heuristic: usize,
    pub listed: usize,
}

/// Totals of [`PricingSeen`] over a suite's cases: the cases whose least reduced cost is
/// negative, the groups listed and the heuristic's groups checked.
#[derive(Default)]
pub struct PricingTotals {
    pub negative: usize,
    pub listed: usize,
    pub heuristic: usize,
}

impl PricingTotals {
    /// Adds one case (negative when its least reduced cost is below `-tol`).
    pub fn add(&mut self, seen: &PricingSeen, tol: f64) {
        self.negative += usize::from(seen.expect < -tol);
        self.listed += seen.listed;
        self.heuristic += seen.heuristic;
    }
}

/// Exact pricing under the cut duals `cd` against the brute force `rc_of` (a group's
/// reduced cost by its bit mask; `truth` its least value over all groups of k..2k-1): the
/// search finishes with the least reduced cost (capped at 0) and its columns' exact costs,
/// the heuristic's groups carry theirs, and the enumeration below a random threshold
/// (drawn from `rng` at `share`'s scale) lists every group below it.
#[allow(clippy::too_many_arguments)]
pub fn assert_pricing_matches_brute_force(
    geo: &Geometry,
    y: &[f64],
    cd: &CutDuals,
    truth: f64,
    rc_of: impl Fn(usize) -> f64 + Copy,
    (share, tol): (f64, f64),
    rng: &mut impl Rng,
    case: usize,
) -> PricingSeen {
    let (n, k) = (y.len(), geo.k);
    let budget = unlimited_budget();
    let ex = ExactSearch::new(cd).run(geo, y, budget, &mut Vec::new());
    assert!(ex.exact, "case {case}");
    let expect = truth.min(0.0);
    assert!(
        (ex.rc_lower_bound - expect).abs() <= tol,
        "case {case} (family {}): pricing {} vs enumeration {expect}",
        case % 6,
        ex.rc_lower_bound
    );
    // Columns carry their exact reduced cost (penalties included).
    assert_columns_priced_exactly(&ex.columns, rc_of, tol, case);
    // The heuristic charges its moves correctly: its reported reduced cost is the group's.
    let heuristic = assert_heuristic_groups_priced_exactly(geo, y, cd, rc_of, tol, case);
    // The enumeration lists every group below a threshold (P19 with these cuts).
    let threshold = expect + share * rng.random_range(0.0..1.0);
    let found = ExactSearch::new(cd)
        .anchors(Anchors::Below { threshold })
        .run(geo, y, budget, &mut Vec::new());
    assert!(found.exact);
    let listed = assert_every_group_below_listed(&found.columns, n, k, threshold, rc_of, tol, case);
    PricingSeen {
        expect,
        heuristic,
        listed,
    }
}

/// A finished run against the optimum `opt`: its labels' SSE is the one reported, its
/// bounds are below `opt` and its incumbent is optimal.
pub fn assert_solved(r: &BnpResult, x: &[f64], d: usize, opt: f64, case: usize) {
    assert!(r.stopped.is_none(), "case {case}: {:?}", r.stopped);
    assert_eq!(r.sse, partition_sse(x, d, &r.labels), "case {case}");
    assert!(
        r.lower_bound <= opt,
        "case {case}: {} > {opt}",
        r.lower_bound
    );
    assert!(r.root_bound <= opt, "case {case}");
    assert!(r.sse <= opt * (1.0 + 1e-9) + 1e-300, "case {case}");
}

/// The instance of the rows `x` (d columns x1..xd) with its z-scores, or None when a column
/// is constant (it cannot be z-scored).
pub fn z_scored(x: Vec<f64>, d: usize) -> Option<Instance> {
    let cols = (1..=d).map(|j| format!("x{j}")).collect();
    Instance::from_raw("rows", "rows", cols, x, "test".into()).ok()
}

/// The certificate of the run `r`, checked honest: its bound is below the optimum `opt`
/// and the verifier accepts it. None when the run gives no certificate.
pub fn honest_certificate(
    inst: &Instance,
    k: usize,
    r: &BnpResult,
    opt: f64,
    case: usize,
) -> Option<(BnpCertificate, Verdict)> {
    let cert = BnpCertificate::from_result(inst, k, r).ok()?;
    assert!(cert.lower_bound <= opt, "case {case}");
    let v = verify(&cert, inst, k, None).unwrap();
    assert!(v.valid, "case {case}: honest certificate rejected: {v:?}");
    Some((cert, v))
}

/// The certificate's JSON text, checked to read back as the same certificate.
pub fn assert_round_trip(cert: &BnpCertificate) -> String {
    let text = serde_json::to_string(cert).unwrap();
    assert_eq!(BnpCertificate::parse(&text, "mem").unwrap(), *cert);
    text
}

/// The first leaf (index j) with a negative dual on a cut (index c) that `kind` accepts:
/// a cut of that kind the leaf's proof uses.
pub fn leaf_using_cut(
    cert: &BnpCertificate,
    kind: impl Fn(&microagg_solvers::bounds::colgen::cuts::Cut) -> bool,
) -> Option<(usize, usize)> {
    cert.leaves.iter().enumerate().find_map(|(j, l)| {
        l.cut_duals
            .iter()
            .enumerate()
            .find(|&(c, &s)| s < 0.0 && kind(&cert.cuts[c].0))
            .map(|(c, _)| (j, c))
    })
}

/// Leaf j's first record dual raised by a tenth of its claim's scale: the verifier refuses.
pub fn assert_raised_dual_rejected(
    cert: &BnpCertificate,
    inst: &Instance,
    k: usize,
    j: usize,
    case: usize,
) {
    let mut bad = cert.clone();
    let claim = bad.leaves[j].lower_bound.unwrap();
    bad.leaves[j].duals[0] += 0.1 * (1.0 + claim.abs());
    assert!(!verify(&bad, inst, k, None).unwrap().valid, "case {case}");
}

/// The run `r`'s certificate against the optimum `opt`: honest ([`honest_certificate`]) and
/// recomputed at least at its claim; at its first leaf with a claim from duals, a raised
/// record dual and a raised claim are both refused. False when the run gives no certificate.
pub fn assert_certificate_sound(
    inst: &Instance,
    k: usize,
    r: &BnpResult,
    opt: f64,
    case: usize,
) -> bool {
    let Some((cert, v)) = honest_certificate(inst, k, r, opt, case) else {
        return false;
    };
    assert!(v.recomputed >= cert.lower_bound, "case {case}");
    let leaf = cert
        .leaves
        .iter()
        .position(|l| l.lower_bound.is_some() && !l.nn_bound);
    if let Some(j) = leaf {
        assert_raised_dual_rejected(&cert, inst, k, j, case);
        // The leaf's claim raised above what its duals prove.
        let mut bad = cert.clone();
        let claim = cert.leaves[j].lower_bound.unwrap();
        bad.leaves[j].lower_bound = Some(claim + 1e-3 * (1.0 + claim.abs()));
        assert!(!verify(&bad, inst, k, None).unwrap().valid, "case {case}");
    }
    true
}

/// Leaf j's dual of cut c made positive: it proves nothing, the verifier refuses.
pub fn assert_positive_cut_dual_rejected(
    cert: &BnpCertificate,
    inst: &Instance,
    k: usize,
    (j, c): (usize, usize),
    case: usize,
) {
    let mut bad = cert.clone();
    bad.leaves[j].cut_duals[c] = 1e-3;
    assert!(!verify(&bad, inst, k, None).unwrap().valid, "case {case}");
}
