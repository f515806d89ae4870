//! # Structure of the set-partitioning LP at its optimum (issue 18, EIA k = 3)
//!
//! Solves the root LP of the column generation model (groups of `k..2k-1` records, one row
//! per record; Aloise et al. 2014) to convergence from a stored partition's groups, then
//! optionally adds rounds of subset-row triple cuts (proofs/P14) and converges again, and
//! describes the primal optimum: the fractional columns (values, sizes), the blocks of
//! records they join, exact duplicates among their records, and where the best partition's
//! excess over the LP sits.
//!
//! **Gap by blocks.** Join two records when they share a group of the partition `P` or a
//! column with `x_S > 0`; the connected *blocks* `B` split both the partition and the LP
//! solution, so `SSE(P) - LP = sum_B (SSE_B(P) - sum_{S in B} c_S x_S)` exactly (the cut rows
//! do not enter the objective). A block whose own optimum (solved exactly when it is small,
//! `solve_exact_with`, proofs/P11-P12: "proven" only with a certified bound) equals the
//! partition's cost on it shows that there the LP is weak, not the partition; a block whose
//! optimum is lower gives a better partition at once.
//!
//! ```text
//! cargo run --release --example lp_structure -- --data eia --k 3 \
//!   --labels instances/library/eia-k3.labels [--cut-rounds 0] [--cuts-per-round 800] \
//!   [--time-limit 900] [--top 12] [--exact-max 40] [--exact-seconds 60]
//! ```
//!
//! - `--cut-rounds R`: rounds of triple separation after the root LP (each adds at most
//!   `--cuts-per-round` violated triples, at most 3 per record, violation > 1e-3, and
//!   re-converges); the analysis is printed for the root LP and, with R > 0, for the last LP.
//! - `--time-limit S`: no pricing round starts after S seconds (the LP is then reported as
//!   not converged).
//! - `--top T`: blocks and partition groups listed; `--exact-max M`, `--exact-seconds S`:
//!   blocks of at most M records are solved exactly (at most S seconds each).
//!
//! Nothing here is a bound: the LP values are HiGHS' (the certified bounds come from
//! `microagg bound`); the block optima are exact solves with their own proof flag.
//!
//! ## Complexity
//! O(n^2 d) for the geometry; column generation as `bounds::colgen` (heuristic pricing from
//! every record, O(n L k^2), then the exact pricing); O(columns k) per analysis plus one exact
//! solve per small block.
//!
//! ## References
//! Aloise, D., Hansen, P., Rocha, C. and Santi, E. (2014). Column generation bounds for
//! numerical microaggregation. J. Global Optim. 60(2), 165-182.

use microagg::data::{load, ColumnSelection};
use microagg::labels::{check_labels, read_labels};
use microagg_solvers::bounds::colgen::cuts::{separate, CutDuals};
use microagg_solvers::bounds::colgen::master::{Master, MasterSolution};
use microagg_solvers::bounds::colgen::pricing::{
    heuristic_cuts, ExactBudget, ExactSearch, Geometry,
};
use microagg_solvers::bounds::colgen::start_groups;
use microagg_solvers::exact::{solve_exact_with, ExactOptions};
use microagg_solvers::sse::{group_sse, pow2_near};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::{Duration, Instant};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// The model being solved: scaled data, geometry, master and the columns it holds.
struct Lp {
    xs: Vec<f64>,
    n: usize,
    d: usize,
    k: usize,
    /// Costs are `s2` times the original SSE (data scaled by a power of two, exact).
    s2: f64,
    geo: Geometry,
    master: Master,
    known: HashSet<Vec<u32>>,
}

/// A converged (or stopped) LP.
struct Solved {
    sol: MasterSolution,
    converged: bool,
    /// `sum y + sum sigma + floor(n/k) min(0, rho)` (informative, not rounded outward).
    lagrangian: f64,
    seconds: f64,
}

fn main() -> Res<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|p| args.get(p + 1).cloned())
    };
    let num = |name: &str, default: f64| -> Res<f64> {
        Ok(get(name)
            .map(|v| v.parse::<f64>())
            .transpose()?
            .unwrap_or(default))
    };
    let (Some(data), Some(k), Some(labels_path)) = (get("--data"), get("--k"), get("--labels"))
    else {
        return Err(
            "usage: lp_structure --data D --k K --labels FILE [options: module doc]".into(),
        );
    };
    let k: usize = k.parse()?;
    let cut_rounds = num("--cut-rounds", 0.0)? as usize;
    let per_round = num("--cuts-per-round", 800.0)? as usize;
    let deadline = Instant::now() + Duration::from_secs_f64(num("--time-limit", 900.0)?);
    let top = num("--top", 12.0)? as usize;
    let exact_max = num("--exact-max", 40.0)? as usize;
    let exact_seconds = num("--exact-seconds", 60.0)?;

    let inst = load(&data, &ColumnSelection::All)?;
    let labels = read_labels(std::path::Path::new(&labels_path))?;
    let report = check_labels(&inst, k, &labels)?;
    let (n, d) = (inst.n, inst.d);
    let s = pow2_near((1024.0 * n as f64 / report.sse).sqrt());
    let xs: Vec<f64> = inst.z.iter().map(|v| v * s).collect();
    let geo = Geometry::new(&xs, n, d, k, (3 * k).max(12));
    let groups = start_groups(&labels, n, k)?;
    let costs = groups.iter().map(|g| cost(&xs, d, g)).collect();
    let known = groups.iter().cloned().collect();
    let master = Master::new(n, groups, costs, None)?;
    let mut lp = Lp {
        xs,
        n,
        d,
        k,
        s2: s * s,
        geo,
        master,
        known,
    };
    println!(
        "{} k = {k}: n {n}, d {d}; partition {labels_path}: SSE {:.6}; data scaled by {s}",
        inst.name, report.sse
    );
    let (t0, cpu0) = (Instant::now(), microagg::bench::process_cpu_seconds());
    let root = converge(&mut lp, deadline, t0)?;
    print_lp("root LP", &lp, &root, report.sse);
    analyse(&lp, &root, &inst.z, &labels, top, exact_max, exact_seconds)?;
    if cut_rounds > 0 {
        let mut last = root;
        let mut existing: HashSet<[u32; 3]> = HashSet::new();
        for round in 1..=cut_rounds {
            if Instant::now() >= deadline {
                break;
            }
            let found = separate(
                n,
                &lp.master.columns,
                &last.sol.primal[..lp.master.columns.len()],
                &existing,
                per_round,
                3,
                1e-3,
            );
            println!(
                "cut round {round}: {} violated triples (largest left side {:.4})",
                found.len(),
                found.first().map_or(0.0, |f| f.1)
            );
            if found.is_empty() {
                break;
            }
            let triples: Vec<[u32; 3]> = found.iter().map(|f| f.0).collect();
            existing.extend(triples.iter().copied());
            lp.master.add_cuts(&triples)?;
            last = converge(&mut lp, deadline, t0)?;
            print_lp(&format!("LP after round {round}"), &lp, &last, report.sse);
        }
        println!("\n=== LP with {} triple cuts ===", lp.master.cuts.len());
        analyse(&lp, &last, &inst.z, &labels, top, exact_max, exact_seconds)?;
    }
    println!(
        "\n{:.1} s wall, {:.1} s CPU",
        t0.elapsed().as_secs_f64(),
        microagg::bench::process_cpu_seconds() - cpu0
    );
    Ok(())
}

fn cost(xs: &[f64], d: usize, g: &[u32]) -> f64 {
    let m: Vec<usize> = g.iter().map(|&i| i as usize).collect();
    group_sse(xs, d, &m)
}

/// Column generation to the LP optimum: heuristic pricing from every record, then the exact
/// pricing when the heuristic finds nothing; stops when the exact pricing proves that no
/// column has a negative reduced cost (or at the deadline).
fn converge(lp: &mut Lp, deadline: Instant, t0: Instant) -> Res<Solved> {
    let tol = 1e-9 * lp.master.costs.iter().sum::<f64>() / lp.n as f64;
    loop {
        let sol = lp
            .master
            .solve(300.0)?
            .ok_or("the master LP hit HiGHS' time limit")?;
        let y = &sol.duals;
        let cuts = if lp.master.cuts.is_empty() {
            CutDuals::none()
        } else {
            CutDuals::new(lp.n, &lp.master.cuts, &sol.cut_duals)
        };
        let base: f64 = y.iter().sum::<f64>() - cuts.total_weight();
        let mut new: BTreeMap<Vec<u32>, f64> = BTreeMap::new();
        for seed in 0..lp.n {
            if let Some((rc, mut g)) = heuristic_cuts(&lp.geo, y, &cuts, seed) {
                g.sort_unstable();
                if rc < -tol && !lp.known.contains(&g) {
                    new.insert(g, rc);
                }
            }
        }
        let mut rho = None;
        if new.is_empty() {
            let budget = ExactBudget {
                nodes: u64::MAX,
                deadline: deadline.into(),
                max_columns: 500,
                stop_after_columns: usize::MAX,
            };
            let e = ExactSearch::new(&cuts).run(&lp.geo, y, budget, &mut Vec::new());
            for (rc, g) in e.columns {
                if rc < -tol && !lp.known.contains(&g) {
                    new.insert(g, rc);
                }
            }
            if new.is_empty() || Instant::now() >= deadline {
                let groups_max = (lp.n / lp.k) as f64;
                rho = Some((e.exact, base + groups_max * e.rc_lower_bound.min(0.0)));
            }
        }
        if let Some((exact, lagrangian)) = rho {
            return Ok(Solved {
                sol,
                converged: exact && new.is_empty(),
                lagrangian,
                seconds: t0.elapsed().as_secs_f64(),
            });
        }
        let mut add: Vec<(f64, Vec<u32>)> = new.into_iter().map(|(g, rc)| (rc, g)).collect();
        add.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
        add.truncate(3000);
        let groups: Vec<Vec<u32>> = add.into_iter().map(|(_, g)| g).collect();
        let costs = groups.iter().map(|g| cost(&lp.xs, lp.d, g)).collect();
        lp.known.extend(groups.iter().cloned());
        lp.master.add_columns(groups, costs)?;
    }
}

fn print_lp(what: &str, lp: &Lp, r: &Solved, sse: f64) {
    let v = r.sol.value / lp.s2;
    println!(
        "{what}: {v:.6} ({}converged; Lagrangian {:.6}), {} columns, {} cuts, {:.1} s; \
         partition - LP = {:.6} ({:.4} % of the LP)",
        if r.converged { "" } else { "NOT " },
        r.lagrangian / lp.s2,
        lp.master.columns.len(),
        lp.master.cuts.len(),
        r.seconds,
        sse - v,
        100.0 * (sse - v) / v
    );
}

/// Union-find root with path halving.
fn find(p: &mut [usize], mut i: usize) -> usize {
    while p[i] != i {
        p[i] = p[p[i]];
        i = p[i];
    }
    i
}

/// The module doc's description of one LP optimum.
fn analyse(
    lp: &Lp,
    r: &Solved,
    z: &[f64],
    labels: &[usize],
    top: usize,
    exact_max: usize,
    exact_seconds: f64,
) -> Res<()> {
    let (n, d, k, s2) = (lp.n, lp.d, lp.k, lp.s2);
    let cols = &lp.master.columns;
    let x = &r.sol.primal[..cols.len()];
    let eps = 1e-6;
    let pos: Vec<usize> = (0..cols.len()).filter(|&j| x[j] > eps).collect();
    let frac: Vec<usize> = pos.iter().copied().filter(|&j| x[j] < 1.0 - eps).collect();
    let mut by_value: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_size: BTreeMap<usize, usize> = BTreeMap::new();
    for &j in &frac {
        let v = x[j];
        let name = [
            (1, 2),
            (1, 3),
            (2, 3),
            (1, 4),
            (3, 4),
            (1, 5),
            (2, 5),
            (3, 5),
            (4, 5),
        ]
        .iter()
        .find(|&&(p, q)| (v - p as f64 / q as f64).abs() < 1e-6)
        .map_or("other".to_string(), |(p, q)| format!("{p}/{q}"));
        *by_value.entry(name).or_default() += 1;
        *by_size.entry(cols[j].len()).or_default() += 1;
    }
    let mut in_frac = vec![false; n];
    for &j in &frac {
        for &i in &cols[j] {
            in_frac[i as usize] = true;
        }
    }
    let nfrac_rec = in_frac.iter().filter(|&&b| b).count();
    let lp_groups: f64 = pos.iter().map(|&j| x[j]).sum();
    println!(
        "  columns x > 0: {} ({} at 1, {} fractional; sum x = {lp_groups:.4}, floor(n/k) = {}); \
         fractional values {by_value:?}, sizes {by_size:?}; records in fractional columns: \
         {nfrac_rec}",
        pos.len(),
        pos.len() - frac.len(),
        frac.len(),
        n / k
    );
    // Exact duplicates (bit-identical standardised rows) and nearest distances.
    let mut rows: HashMap<Vec<u64>, Vec<usize>> = HashMap::new();
    for i in 0..n {
        let key = z[i * d..(i + 1) * d].iter().map(|v| v.to_bits()).collect();
        rows.entry(key).or_default().push(i);
    }
    let twin: Vec<usize> = {
        let mut t = vec![1usize; n];
        for v in rows.values() {
            v.iter().for_each(|&i| t[i] = v.len());
        }
        t
    };
    let dup_frac = (0..n).filter(|&i| in_frac[i] && twin[i] > 1).count();
    let nn1 = |i: usize| lp.geo.nn(i, 1) / s2;
    let median = |mut v: Vec<f64>| -> f64 {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
    };
    let norm = |i: usize| {
        z[i * d..(i + 1) * d]
            .iter()
            .map(|v| v * v)
            .sum::<f64>()
            .sqrt()
    };
    println!(
        "  duplicates: {} distinct rows of {n} ({} records have a twin); records in fractional \
         columns with a twin: {dup_frac}; median squared distance to the nearest other record: \
         all {:.3e}, in fractional columns {:.3e}; median |z|: all {:.3}, fractional {:.3}",
        rows.len(),
        twin.iter().filter(|&&t| t > 1).count(),
        median((0..n).map(nn1).collect()),
        median((0..n).filter(|&i| in_frac[i]).map(nn1).collect()),
        median((0..n).map(norm).collect()),
        median((0..n).filter(|&i| in_frac[i]).map(norm).collect()),
    );
    // Blocks: records joined by the partition's groups and the positive columns.
    let mut p: Vec<usize> = (0..n).collect();
    let join = |p: &mut Vec<usize>, a: usize, b: usize| {
        let (ra, rb) = (find(p, a), find(p, b));
        if ra != rb {
            p[ra.max(rb)] = ra.min(rb);
        }
    };
    let groups = start_groups(labels, n, k)?;
    for g in &groups {
        for w in g.windows(2) {
            join(&mut p, w[0] as usize, w[1] as usize);
        }
    }
    for &j in &pos {
        for w in cols[j].windows(2) {
            join(&mut p, w[0] as usize, w[1] as usize);
        }
    }
    let block_of: Vec<usize> = (0..n).map(|i| find(&mut p, i)).collect();
    #[derive(Default)]
    struct Block {
        records: Vec<u32>,
        part: f64,
        lp: f64,
        frac_cols: usize,
        values: BTreeMap<String, usize>,
    }
    let mut blocks: BTreeMap<usize, Block> = BTreeMap::new();
    for (i, &root) in block_of.iter().enumerate() {
        blocks.entry(root).or_default().records.push(i as u32);
    }
    for g in &groups {
        blocks.get_mut(&block_of[g[0] as usize]).unwrap().part += cost(&lp.xs, d, g) / s2;
    }
    for &j in &pos {
        let b = blocks.get_mut(&block_of[cols[j][0] as usize]).unwrap();
        b.lp += x[j] * lp.master.costs[j] / s2;
        if x[j] < 1.0 - eps {
            b.frac_cols += 1;
            *b.values.entry(format!("{:.4}", x[j])).or_default() += 1;
        }
    }
    let mut list: Vec<&Block> = blocks.values().collect();
    list.sort_by(|a, b| (b.part - b.lp).total_cmp(&(a.part - a.lp)));
    let total: f64 = list.iter().map(|b| b.part - b.lp).sum();
    let mut sizes: BTreeMap<usize, usize> = BTreeMap::new();
    for b in &list {
        *sizes.entry(b.records.len()).or_default() += 1;
    }
    println!(
        "  blocks: {} (records per block: count {sizes:?}); sum of (partition - LP) over blocks \
         {total:.6}; blocks with a gap above 1e-6: {}",
        list.len(),
        list.iter().filter(|b| b.part - b.lp > 1e-6).count()
    );
    println!(
        "  largest gaps by block (records, fractional columns, their x values, duplicates, \
         max |z|, partition cost, LP cost, gap, the block's exact optimum):"
    );
    // Every block with a gap is solved exactly when small enough; the summary counts them.
    let (mut solved, mut equal, mut better, mut gap_solved) = (0usize, 0usize, 0usize, 0.0);
    for (rank, b) in list.iter().take_while(|b| b.part - b.lp > 1e-6).enumerate() {
        let m = b.records.len();
        let dups = b.records.iter().filter(|&&i| twin[i as usize] > 1).count();
        let zmax = b
            .records
            .iter()
            .map(|&i| norm(i as usize))
            .fold(0.0, f64::max);
        let exact = if m <= exact_max && m >= k {
            let xb: Vec<f64> = b
                .records
                .iter()
                .flat_map(|&i| z[i as usize * d..(i as usize + 1) * d].iter().copied())
                .collect();
            let opts = ExactOptions {
                time_limit: Some(exact_seconds),
                ..ExactOptions::default()
            };
            let e = solve_exact_with(&xb, m, d, k, &opts)?;
            if e.proven_optimal {
                solved += 1;
                gap_solved += b.part - b.lp;
                // The partition's cost on the block is a sum of other groups in another
                // order: equal up to rounding when the block's optimum is the partition's.
                if e.sse >= b.part * (1.0 - 1e-9) {
                    equal += 1;
                } else {
                    better += 1;
                }
            }
            format!(
                "{:.6} ({}, {})",
                e.sse,
                if e.proven_optimal {
                    "proven"
                } else {
                    "not proven"
                },
                e.method.name()
            )
        } else {
            "-".into()
        };
        if rank < top {
            println!(
                "    {m:5} rec {:4} frac {:?} dup {dups} |z| {zmax:.2}: {:.6} vs {:.6}, gap \
                 {:.6}; optimum {exact}",
                b.frac_cols,
                b.values,
                b.part,
                b.lp,
                b.part - b.lp
            );
        }
    }
    println!(
        "  blocks with a gap solved exactly (at most {exact_max} records): {solved}, holding \
         {gap_solved:.6} of the gap; the partition optimal on the block: {equal}; a better \
         split of the block: {better}"
    );
    // The partition's groups of largest reduced cost at this LP's duals.
    let cuts = if lp.master.cuts.is_empty() {
        CutDuals::none()
    } else {
        CutDuals::new(n, &lp.master.cuts, &r.sol.cut_duals)
    };
    let y = &r.sol.duals;
    let mut rcs: Vec<(f64, usize)> = groups
        .iter()
        .enumerate()
        .map(|(g, m)| {
            let rc = lp.geo.reduced_cost_cuts(m, y, &cuts);
            (rc / s2, g)
        })
        .collect();
    rcs.sort_by(|a, b| b.0.total_cmp(&a.0));
    let sum_rc: f64 = rcs.iter().map(|r| r.0).sum();
    println!(
        "  partition's groups by reduced cost (sum {sum_rc:.6}; the cut slacks make up the \
         rest of the excess):"
    );
    for &(rc, g) in rcs.iter().take(top.min(8)) {
        let m = &groups[g];
        println!(
            "    rc {rc:.6} SSE {:.6} records {:?} |z| {:?} block of {} records",
            cost(&lp.xs, d, m) / s2,
            m,
            m.iter()
                .map(|&i| (norm(i as usize) * 100.0).round() / 100.0)
                .collect::<Vec<_>>(),
            blocks[&block_of[m[0] as usize]].records.len()
        );
    }
    Ok(())
}
