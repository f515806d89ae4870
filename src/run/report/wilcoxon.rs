//! # Wilcoxon signed-rank tests between pipelines
//!
//! The section `microagg report` prints after its table (Markdown and LaTeX): for every pair
//! of pipelines, a two-sided Wilcoxon signed-rank test of their median final IL, paired over
//! the cases (instance, k) both ran, as comparisons of heuristics over benchmark instances
//! report them (Demšar 2006). A deterministic pipeline has one run per case
//! ([`Record::deterministic`]): that value is its median, paired with the other pipeline's
//! median over its seeds, so the test pairs cases, never seeds. Zero differences are dropped (Wilcoxon's treatment); the
//! p-value is exact (the distribution of W+ over the 2^n sign patterns) when at most
//! `EXACT_UP_TO` differences remain and none are tied, else the normal approximation with
//! the tie correction of the variance and no continuity correction (what SciPy's `wilcoxon`
//! does by default).
//!
//! ## Complexity
//! O(n log n) for the ranks; the exact distribution O(n^3) (n^2 / 2 sums, n ranks).
//!
//! ## References
//! F. Wilcoxon, "Individual comparisons by ranking methods", Biometrics Bulletin 1 (1945)
//! 80-83. J. Demšar, "Statistical comparisons of classifiers over multiple data sets",
//! JMLR 7 (2006) 1-30. M. Hollander and D. A. Wolfe, "Nonparametric Statistical Methods",
//! Wiley 1999, ch. 3 (ties, normal approximation). W. H. Press et al., "Numerical Recipes",
//! 3rd ed., section 6.2 (erfc).

use super::curves::median;
use crate::experiment::record::Record;

/// Exact p-values up to this many non-zero differences without ties.
pub(crate) const EXACT_UP_TO: usize = 50;

/// The outcome of one test.
#[derive(Debug, Clone, PartialEq)]
pub struct Test {
    /// Non-zero differences used.
    pub n: usize,
    /// Rank sums of the positive and negative differences.
    pub w_plus: f64,
    pub w_minus: f64,
    /// Two-sided p-value (None: no non-zero difference).
    pub p: Option<f64>,
    /// Whether `p` is exact (else the normal approximation).
    pub exact: bool,
}

/// Average ranks (1-based) of values, ties sharing the mean of their ranks; also the sizes
/// of the tie groups.
fn ranks(v: &[f64]) -> (Vec<f64>, Vec<usize>) {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut r = vec![0.0; v.len()];
    let mut ties = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && v[order[j + 1]] == v[order[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0 + 1.0;
        for &o in &order[i..=j] {
            r[o] = mean;
        }
        ties.push(j - i + 1);
        i = j + 1;
    }
    (r, ties)
}

/// P(W+ <= w) under the null for n untied differences: the count of sign patterns whose
/// positive ranks sum to at most w, over 2^n.
fn exact_cdf(n: usize, w: usize) -> f64 {
    let max = n * (n + 1) / 2;
    // counts[s]: subsets of {1..i} with sum s (f64: 2^50 is exact).
    let mut counts = vec![0.0f64; max + 1];
    counts[0] = 1.0;
    for i in 1..=n {
        for s in (i..=max).rev() {
            counts[s] += counts[s - i];
        }
    }
    let below: f64 = counts[..=w.min(max)].iter().sum();
    below / 2f64.powi(n as i32)
}

/// The complementary error function, fractional error below 1.2e-7 (Numerical Recipes'
/// Chebyshev fit).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.26551223
        + t * (1.00002368
            + t * (0.37409196
                + t * (0.09678418
                    + t * (-0.18628806
                        + t * (0.27886807
                            + t * (-1.13520398
                                + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// Two-sided Wilcoxon signed-rank test of paired differences `d` (module doc).
pub(crate) fn signed_rank(d: &[f64]) -> Test {
    let nz: Vec<f64> = d.iter().copied().filter(|x| *x != 0.0).collect();
    let n = nz.len();
    let abs: Vec<f64> = nz.iter().map(|x| x.abs()).collect();
    let (r, ties) = ranks(&abs);
    let w_plus: f64 = nz
        .iter()
        .zip(&r)
        .filter(|(x, _)| **x > 0.0)
        .map(|p| p.1)
        .sum();
    let w_minus = (n * (n + 1)) as f64 / 2.0 - w_plus;
    if n == 0 {
        return Test {
            n,
            w_plus,
            w_minus,
            p: None,
            exact: true,
        };
    }
    let tied = ties.iter().any(|&t| t > 1);
    let t = w_plus.min(w_minus);
    if n <= EXACT_UP_TO && !tied {
        let p = (2.0 * exact_cdf(n, t.round() as usize)).min(1.0);
        return Test {
            n,
            w_plus,
            w_minus,
            p: Some(p),
            exact: true,
        };
    }
    let nf = n as f64;
    let mean = nf * (nf + 1.0) / 4.0;
    let tie_term: f64 = ties.iter().map(|&t| (t * t * t - t) as f64).sum::<f64>() / 48.0;
    let var = nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - tie_term;
    let z = (t - mean) / var.sqrt();
    // Two-sided: 2 (1 - Phi(|z|)) = erfc(|z| / sqrt 2).
    let p = if var > 0.0 {
        erfc(z.abs() / std::f64::consts::SQRT_2).min(1.0)
    } else {
        1.0
    };
    Test {
        n,
        w_plus,
        w_minus,
        p: Some(p),
        exact: false,
    }
}

/// One pair of pipelines: (first, second, cases, test of first minus second).
pub(crate) type Pair = (String, String, usize, Test);

/// Every pair of pipelines (in order of first appearance), tested on their median final IL
/// over the cases both ran.
pub fn pairs(records: &[Record]) -> Vec<Pair> {
    let mut pipelines: Vec<&str> = Vec::new();
    let mut cases: Vec<(&str, usize)> = Vec::new();
    for r in records {
        if !pipelines.contains(&r.pipeline.as_str()) {
            pipelines.push(&r.pipeline);
        }
        if !cases.contains(&(r.instance.as_str(), r.k)) {
            cases.push((&r.instance, r.k));
        }
    }
    let med = |p: &str, (i, k): (&str, usize)| {
        let v: Vec<f64> = records
            .iter()
            .filter(|r| r.pipeline == p && r.instance == i && r.k == k)
            .map(|r| r.il)
            .collect();
        (!v.is_empty()).then(|| median(&v))
    };
    let mut out = Vec::new();
    for (a, pa) in pipelines.iter().enumerate() {
        for pb in &pipelines[a + 1..] {
            let d: Vec<f64> = cases
                .iter()
                .filter_map(|&c| Some(med(pa, c)? - med(pb, c)?))
                .collect();
            out.push((pa.to_string(), pb.to_string(), d.len(), signed_rank(&d)));
        }
    }
    out
}

fn p_text(t: &Test) -> String {
    match t.p {
        Some(p) if p < 1e-4 => format!("{p:.1e}"),
        Some(p) => format!("{p:.4}"),
        None => "-".into(),
    }
}

/// Which pipeline has the lower median IL on more of the ranks (W+ counts the first's
/// higher IL).
fn lower(pair: &Pair) -> &str {
    let t = &pair.3;
    if t.w_plus < t.w_minus {
        &pair.0
    } else if t.w_minus < t.w_plus {
        &pair.1
    } else {
        "-"
    }
}

/// The Markdown section.
pub(crate) fn markdown(pairs: &[Pair]) -> String {
    let mut s = String::from(
        "\n## Wilcoxon signed-rank tests\n\nPer pair of pipelines, paired over the cases both ran: median final IL, two-sided; `lower` has the smaller rank sum (lower IL). Zero differences dropped; p exact without ties (n <= 50), else normal approximation with tie correction.\n\n",
    );
    s.push_str("| pipeline A | pipeline B | cases | n | W+ | W- | p | method | lower |\n");
    s.push_str("| :--- | :--- | ---: | ---: | ---: | ---: | ---: | :--- | :--- |\n");
    for pair in pairs {
        let (a, b, cases, t) = pair;
        s.push_str(&format!(
            "| {a} | {b} | {cases} | {} | {} | {} | {} | {} | {} |\n",
            t.n,
            t.w_plus,
            t.w_minus,
            p_text(t),
            if t.exact { "exact" } else { "normal" },
            lower(pair)
        ));
    }
    s
}

/// The LaTeX section: a second booktabs tabular.
pub(crate) fn latex(pairs: &[Pair]) -> String {
    let esc = |s: &str| {
        s.replace('_', "\\_")
            .replace('%', "\\%")
            .replace('&', "\\&")
    };
    let mut s = String::from(
        "% Wilcoxon signed-rank tests per pair of pipelines, paired over cases (median final IL), two-sided.\n\\begin{tabular}{llrrrrrl}\n\\toprule\nA & B & Cases & $n$ & $W^+$ & $W^-$ & $p$ & Method \\\\\n\\midrule\n",
    );
    for (a, b, cases, t) in pairs {
        s.push_str(&format!(
            "\\texttt{{{}}} & \\texttt{{{}}} & {cases} & {} & {} & {} & {} & {} \\\\\n",
            esc(a),
            esc(b),
            t.n,
            t.w_plus,
            t.w_minus,
            p_text(t),
            if t.exact { "exact" } else { "normal" }
        ));
    }
    s.push_str("\\bottomrule\n\\end{tabular}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SciPy's `wilcoxon` documentation example: Darwin's differences in height of cross-
    /// and self-fertilised Zea mays (Fisher 1935), W = 24, exact two-sided p =
    /// 0.041259765625 (= 1352 / 32768), and with `method="approx"` p = 0.04088813291185591.
    const DARWIN: [f64; 15] = [
        6.0, 8.0, 14.0, 16.0, 23.0, 24.0, 28.0, 29.0, 41.0, -48.0, 49.0, 56.0, 60.0, -67.0, 75.0,
    ];

    #[test]
    fn exact_p_value_of_scipys_example() {
        let t = signed_rank(&DARWIN);
        assert_eq!((t.n, t.w_minus, t.w_plus), (15, 24.0, 96.0));
        assert!(t.exact);
        assert_eq!(t.p, Some(0.041259765625));
    }

    #[test]
    fn normal_approximation_of_scipys_example() {
        // The statistic of the example through the normal approximation without ties.
        let nf = 15.0f64;
        let z = (24.0 - nf * (nf + 1.0) / 4.0) / (nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0).sqrt();
        let p = erfc(z.abs() / std::f64::consts::SQRT_2);
        assert!((p - 0.04088813291185591).abs() < 1e-7, "{p}");
    }

    #[test]
    fn ties_use_average_ranks_and_the_corrected_variance() {
        // |d| = 1, 1, 2, 3, 3, 3: ranks 1.5, 1.5, 3, 5, 5, 5; W+ = 1.5 + 3 + 5 + 5 = 14.5
        // (positives: 1, 2, 3, 3), W- = 6.5. Variance 6*7*13/24 - (6 + 24)/48 = 22.75 - 0.625.
        let d = [1.0, -1.0, 2.0, 3.0, 3.0, -3.0, 0.0];
        let t = signed_rank(&d);
        assert_eq!((t.n, t.w_plus, t.w_minus, t.exact), (6, 14.5, 6.5, false));
        let z = (6.5 - 10.5) / (22.75f64 - 0.625).sqrt();
        let want = erfc(z.abs() / std::f64::consts::SQRT_2);
        assert_eq!(t.p, Some(want));
        // Textbook value of 2 (1 - Phi(0.8504)) = 0.3951.
        assert!((want - 0.3951).abs() < 1e-3, "{want}");
    }

    #[test]
    fn exact_distribution_small_cases() {
        // n = 3: sums 0..6 over 8 patterns: P(W+ <= 0) = 1/8, P(W+ <= 1) = 2/8.
        assert_eq!(exact_cdf(3, 0), 0.125);
        assert_eq!(exact_cdf(3, 1), 0.25);
        assert_eq!(exact_cdf(3, 6), 1.0);
        // All four cases favour one side: the smallest two-sided p of n = 4, 2/16.
        assert_eq!(signed_rank(&[1.0, 2.0, 3.0, 4.0]).p, Some(0.125));
        assert_eq!(signed_rank(&[0.0, 0.0]).p, None);
    }

    #[test]
    fn erfc_matches_known_values() {
        assert!((erfc(0.0) - 1.0).abs() < 1e-7);
        assert!((erfc(1.0) - 0.157_299_207_050_285_1).abs() < 1e-7);
        assert!((erfc(-1.0) - 1.842_700_792_949_715).abs() < 1e-7);
    }
}
