//! Reduced-cost profile of a partition and of the group pool at the duals of a bnp
//! certificate leaf (measurement for proofs/P19: how large the enumeration gets as the
//! threshold grows, and where the partition's excess over the Lagrangian base sits).
//!
//! ```text
//! cargo run --release --example rc_profile -- --data tarragona --k 5 \
//!   --certificate instances/library/tarragona-k5.bnp.json.gz \
//!   --labels instances/library/tarragona-k5.labels [--leaf 0] \
//!   [--thresholds 0.001,0.01,0.05] [--max-columns 3000000] [--time-limit 120] \
//!   [--pool-mip T,SECONDS --labels-out FILE]
//! ```
//!
//! Prints the excess `SSE(P) - (sum y + sum sigma)` of the partition split into its groups'
//! reduced costs and the cut terms, the reduced costs' quantiles, and per threshold the number
//! of groups with reduced cost below it (the exact pricing in enumeration mode), the number of
//! records they touch and the blocks they join records into. `--time-limit` bounds each
//! listing (seconds), `--max-columns` its size. With `--pool-mip T,SECONDS` the set-partitioning
//! MIP of `merge::solve_pool` (HiGHS, at most SECONDS) over the groups with reduced cost at most
//! `T` and the partition's own groups looks for a better partition (a heuristic: its SSE is
//! recomputed, nothing is proven); one strictly better is written to `--labels-out`.

mod common;

use clap::Parser;
use microagg::bnp_certificate::BnpCertificate;
use microagg_solvers::bounds::colgen::cuts::CutDuals;
use microagg_solvers::bounds::colgen::pricing::{Anchors, ExactBudget, ExactSearch, Geometry};
use microagg_solvers::sse::group_sse;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Reduced costs of a partition and of the group pool at a bnp certificate leaf's duals.
#[derive(Parser)]
struct Args {
    #[command(flatten)]
    run: common::CertifiedPartition,
    /// The certificate leaf whose duals are read.
    #[arg(long, default_value_t = 0)]
    leaf: usize,
    /// Reduced-cost thresholds of the listings, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [0.001, 0.01, 0.05])]
    thresholds: Vec<f64>,
    /// Most groups a listing holds.
    #[arg(long, default_value_t = 3_000_000)]
    max_columns: usize,
    /// Seconds of each listing.
    #[arg(long, default_value_t = 120.0)]
    time_limit: f64,
    /// `T,SECONDS`: the pool MIP over the groups with reduced cost at most T.
    #[arg(long, value_delimiter = ',')]
    pool_mip: Vec<f64>,
    /// Where a strictly better partition of the pool MIP is written.
    #[arg(long)]
    labels_out: Option<PathBuf>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let (leaf, thresholds, max_columns) = (args.leaf, args.thresholds, args.max_columns);
    let (time_limit, pool_mip, labels_out) = (args.time_limit, args.pool_mip, args.labels_out);
    let mip = match &pool_mip[..] {
        [] => None,
        &[t, s] => Some((t, s)),
        _ => return Err("--pool-mip T,SECONDS".into()),
    };
    let (inst, labels) = args.run.partition.load()?;
    let (data, k) = (&args.run.partition.case.data, args.run.partition.case.k);
    let cert = BnpCertificate::read(&args.run.certificate)?;
    let l = cert
        .leaves
        .get(leaf)
        .ok_or(format!("the certificate has {} leaves", cert.leaves.len()))?;
    let (n, d) = (inst.n, inst.d);
    let y = &l.duals;
    let cuts = CutDuals::new(n, &cert.cuts[..l.cut_duals.len()], &l.cut_duals);
    let base: f64 = y.iter().sum::<f64>() + cuts.sigma().iter().sum::<f64>();

    // The partition's groups and their reduced costs.
    let groups_n = labels.iter().max().map_or(0, |&m| m + 1);
    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); groups_n];
    for (i, &g) in labels.iter().enumerate() {
        groups[g].push(i);
    }
    groups.retain(|g| !g.is_empty());
    let mut rcs: Vec<f64> = groups
        .iter()
        .map(|g| {
            let m: Vec<u32> = g.iter().map(|&i| i as u32).collect();
            group_sse(&inst.z, d, g) - g.iter().map(|&i| y[i]).sum::<f64>() + cuts.penalty(&m)
        })
        .collect();
    let sse: f64 = groups.iter().map(|g| group_sse(&inst.z, d, g)).sum();
    let rc_sum: f64 = rcs.iter().sum();
    println!(
        "{data} k={k} leaf {leaf}: {} groups, SSE {sse:.6}, base sum y + sum sigma {base:.6}, \
         excess {:.6} = sum rc {rc_sum:.6} + cut terms {:.6}",
        groups.len(),
        sse - base,
        sse - base - rc_sum
    );
    rcs.sort_by(f64::total_cmp);
    let q = |p: f64| rcs[((rcs.len() - 1) as f64 * p).round() as usize];
    println!(
        "group rc quantiles: min {:.2e} 10% {:.2e} 50% {:.2e} 90% {:.2e} max {:.2e}; \
         below 1e-6: {}, below 1e-3: {}, below 1e-2: {}",
        q(0.0),
        q(0.1),
        q(0.5),
        q(0.9),
        q(1.0),
        rcs.iter().filter(|&&r| r < 1e-6).count(),
        rcs.iter().filter(|&&r| r < 1e-3).count(),
        rcs.iter().filter(|&&r| r < 1e-2).count()
    );
    println!(
        "largest group rc: {:?}",
        rcs.iter()
            .rev()
            .take(12)
            .map(|r| format!("{r:.4}"))
            .collect::<Vec<_>>()
    );

    let geo = Geometry::new(&inst.z, n, d, k, (3 * k).max(12));
    // Every group with reduced cost below `t` (one listing of `time_limit` s from `t0`).
    let listing = |t: f64, t0: Instant| {
        let budget = ExactBudget {
            nodes: u64::MAX,
            deadline: (t0 + Duration::from_secs_f64(time_limit)).into(),
            max_columns: 1,
            stop_after_columns: max_columns,
        };
        ExactSearch::new(&cuts)
            .anchors(Anchors::Below { threshold: t })
            .run(&geo, y, budget, &mut Vec::new())
    };
    for &t in &thresholds {
        let t0 = Instant::now();
        let found = listing(t, t0);
        let mut touched = vec![0u32; n];
        let mut by_size = vec![0usize; k];
        for (_, g) in &found.columns {
            by_size[g.len() - k] += 1;
            for &i in g {
                touched[i as usize] += 1;
            }
        }
        // Blocks: records joined when some listed group holds both (union-find).
        let mut parent: Vec<usize> = (0..n).collect();
        fn root(p: &mut [usize], mut i: usize) -> usize {
            while p[i] != i {
                p[i] = p[p[i]];
                i = p[i];
            }
            i
        }
        for (_, g) in &found.columns {
            let a = root(&mut parent, g[0] as usize);
            for &i in &g[1..] {
                let b = root(&mut parent, i as usize);
                parent[b] = a;
            }
        }
        let mut size = vec![0usize; n];
        for i in 0..n {
            let r = root(&mut parent, i);
            size[r] += 1;
        }
        let mut blocks: Vec<usize> = size.into_iter().filter(|&s| s > 0).collect();
        blocks.sort_unstable_by(|a, b| b.cmp(a));
        println!(
            "t {t:.4}: {} blocks, largest {:?}",
            blocks.len(),
            &blocks[..blocks.len().min(8)]
        );
        let mut per: Vec<u32> = touched.iter().copied().filter(|&c| c > 0).collect();
        per.sort_unstable();
        println!(
            "t {t:.4}: {} groups {by_size:?} ({}), {} records in some group, groups per \
             record median {} max {}, {:.1} s",
            found.columns.len(),
            if found.exact { "complete" } else { "cut" },
            per.len(),
            per.get(per.len() / 2).copied().unwrap_or(0),
            per.last().copied().unwrap_or(0),
            t0.elapsed().as_secs_f64()
        );
    }
    if let Some((t, seconds)) = mip {
        // A heuristic, not a proof: the best partition of the groups with rc <= t and the
        // partition's own groups (HiGHS), kept only if its recomputed SSE is lower.
        let t0 = Instant::now();
        let found = listing(t, t0);
        let pool: Vec<Vec<u32>> = found.columns.into_iter().map(|c| c.1).collect();
        let r =
            microagg_solvers::merge::solve_pool(&inst.z, n, d, k, &pool, &labels, Some(seconds))?;
        println!(
            "pool MIP over rc <= {t}: {} columns ({} listing), SSE {:.10} (start {sse:.10}), \
             improved {}, HiGHS optimal {}, {:.1} s",
            r.columns,
            if found.exact { "complete" } else { "cut" },
            r.sse,
            r.improved,
            r.optimal,
            t0.elapsed().as_secs_f64()
        );
        if let (true, Some(path)) = (r.improved, &labels_out) {
            let text: String = r.labels.iter().map(|l| format!("{l}\n")).collect();
            std::fs::write(path, text)?;
        }
    }
    Ok(())
}
