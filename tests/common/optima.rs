//! Optima computed independently of the solvers (no size cap at 2k-1 where said, no LP):
//! univariate DP, set-partition enumeration, subset DP, weighted brute force.

use microagg::data::Instance;

/// Optimal univariate k-partition SSE of one attribute: groups of k..2k-1 consecutive sorted
/// values (some optimal partition has this form; Domingo-Ferrer & Mateo-Sanz 2002, Hansen &
/// Mukherjee 2003). A multivariate partition's SSE is the sum over attributes of its
/// per-attribute SSE, each at least that attribute's optimum, so the sum of the optima is a
/// lower bound on any feasible SSE.
pub fn univariate_optimum(mut v: Vec<f64>, k: usize) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let (mut s, mut s2) = (vec![0.0; n + 1], vec![0.0; n + 1]);
    for i in 0..n {
        s[i + 1] = s[i] + v[i];
        s2[i + 1] = s2[i] + v[i] * v[i];
    }
    let sse = |a: usize, b: usize| {
        let m = (b - a) as f64;
        let t = s[b] - s[a];
        ((s2[b] - s2[a]) - t * t / m).max(0.0)
    };
    let mut dp = vec![f64::INFINITY; n + 1];
    dp[0] = 0.0;
    for b in k..=n {
        for size in k..=(2 * k - 1).min(b) {
            let cand = dp[b - size] + sse(b - size, b);
            if cand < dp[b] {
                dp[b] = cand;
            }
        }
    }
    dp[n]
}

pub fn attribute_sum_lower_bound(inst: &Instance, k: usize) -> f64 {
    (0..inst.d)
        .map(|j| univariate_optimum((0..inst.n).map(|i| inst.row(i)[j]).collect(), k))
        .sum()
}

/// Minimum SSE over all set partitions of rows 0..n into groups of at least k, by
/// enumerating restricted growth strings (labels[i] <= 1 + max label so far): every set
/// partition exactly once, no size restriction beyond >= k. Independent of the solver (no
/// size cap at 2k-1, no DP, no LP).
pub fn brute_force_optimum(x: &[f64], n: usize, d: usize, k: usize) -> f64 {
    let mut best = f64::INFINITY;
    for_each_set_partition(n, k, &mut |labels| {
        let sse = microagg_solvers::sse::partition_sse(x, d, labels);
        if sse < best {
            best = sse;
        }
    });
    best
}

/// Calls `visit` with the labels of every set partition of records 0..n into groups of at
/// least `k` records, each once, as restricted growth strings (record i's label is at most
/// one more than the largest label before it) in lexicographic order. Branches that cannot
/// bring every open group up to `k` are cut. Independent of the solvers (no size cap at
/// 2k-1, no DP, no LP). O(Bell(n)) calls at most.
pub fn for_each_set_partition(n: usize, k: usize, visit: &mut dyn FnMut(&[usize])) {
    fn rec(
        n: usize,
        k: usize,
        labels: &mut Vec<usize>,
        sizes: &mut Vec<usize>,
        visit: &mut dyn FnMut(&[usize]),
    ) {
        // Prune: the records left must be able to bring every open group up to k.
        let deficit: usize = sizes.iter().map(|&s| k.saturating_sub(s)).sum();
        if deficit > n - labels.len() {
            return;
        }
        if labels.len() == n {
            visit(labels);
            return;
        }
        for l in 0..=sizes.len() {
            if l == sizes.len() {
                sizes.push(0);
            }
            sizes[l] += 1;
            labels.push(l);
            rec(n, k, labels, sizes, visit);
            labels.pop();
            sizes[l] -= 1;
            if sizes[l] == 0 {
                sizes.pop();
            }
        }
    }
    rec(n, k, &mut Vec::new(), &mut Vec::new(), visit);
}

/// The members of each group 0..g of `labels`, in record order.
pub fn members_by_label(labels: &[usize]) -> Vec<Vec<usize>> {
    let g = labels.iter().max().map_or(0, |m| m + 1);
    let mut members = vec![Vec::new(); g];
    for (i, &l) in labels.iter().enumerate() {
        members[l].push(i);
    }
    members
}

/// Weighted SSE of one group by the pairwise identity
/// `sum_{i<j} w_i w_j ||x_i - x_j||^2 / sum w` (P40 W1(c); no centroid: an independent
/// formula).
pub fn pairwise_weighted_sse(x: &[f64], d: usize, w: &[f64], members: &[usize]) -> f64 {
    let total: f64 = members.iter().map(|&i| w[i]).sum();
    let mut s = 0.0;
    for (a, &i) in members.iter().enumerate() {
        for &j in &members[a + 1..] {
            let dist: f64 = (0..d).map(|t| (x[i * d + t] - x[j * d + t]).powi(2)).sum();
            s += w[i] * w[j] * dist;
        }
    }
    s / total
}

/// Minimum weighted SSE over every set partition of the n records into groups of at least
/// k records ([`for_each_set_partition`]), by the pairwise formula.
pub fn brute_force_weighted_optimum(x: &[f64], d: usize, k: usize, w: &[f64]) -> f64 {
    let mut best = f64::INFINITY;
    for_each_set_partition(w.len(), k, &mut |labels| {
        let sse: f64 = members_by_label(labels)
            .iter()
            .map(|g| pairwise_weighted_sse(x, d, w, g))
            .sum();
        best = best.min(sse);
    });
    best
}

/// Optimum over partitions into groups of k..=2k-1 records by a DP over subsets (the group
/// of the lowest remaining record), two-pass group SSE; independent of the solver.
pub fn subset_dp(x: &[f64], n: usize, d: usize, k: usize) -> f64 {
    subset_dp_where(x, n, d, k, |_| true)
}

/// [`subset_dp`] over the partitions whose every group (a bit mask of records) passes
/// `allowed`; infinite when no such partition exists.
pub fn subset_dp_where(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    allowed: impl Fn(usize) -> bool,
) -> f64 {
    let full = (1usize << n) - 1;
    let mut f = vec![f64::INFINITY; full + 1];
    f[0] = 0.0;
    for mask in 1..=full {
        for_each_group_of_lowest(mask, |g| {
            let m = g.count_ones() as usize;
            if m >= k && m < 2 * k && allowed(g) && f[mask ^ g].is_finite() {
                let members: Vec<usize> = (0..n).filter(|&i| g >> i & 1 == 1).collect();
                f[mask] =
                    f[mask].min(f[mask ^ g] + microagg_solvers::sse::group_sse(x, d, &members));
            }
        });
    }
    f[full]
}

/// Calls `visit` with every subset of `mask` (a bit mask of records) that holds its lowest
/// record, the largest first: the groups a DP over subsets tries for the lowest remaining
/// record.
pub fn for_each_group_of_lowest(mask: usize, mut visit: impl FnMut(usize)) {
    let low = mask & mask.wrapping_neg();
    let rest = mask ^ low;
    // Subsets of `rest`, each with the lowest record added.
    let mut sub = rest;
    loop {
        visit(sub | low);
        if sub == 0 {
            break;
        }
        sub = (sub - 1) & rest;
    }
}
