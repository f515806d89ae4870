//! # CASC bound targets (issue 18)
//!
//! For each CASC case (data, k) runs the column generation bound
//! (`microagg_solvers::bounds::colgen`, proofs/P09, P14, P20) with the given options and prints
//! one row: root LP (master LP value when column generation first converged, "-" if it never
//! did), LP with cuts (last converged LP after the cut rounds), nn bound, final certified
//! bound, branch-and-bound nodes (0: no branch and price here), seconds, best known SSE
//! (instances/library/library.toml) and gap `100 (best - LB) / LB`, then the command that
//! reproduces the row. The master starts from the `mdav+decompose-shrink` partition and (unless
//! `--no-start`) from the best known partition `instances/library/<data>-k<k>.labels`.
//! With `--certificates DIR`, each case whose Lagrangian bound beats nn writes
//! `DIR/<data>-k<k>.bound.json` (`microagg verify-bound` re-checks it).
//!
//! `--method bnp` runs branch-price-and-cut instead, through the bound registry (the path of
//! `microagg bound --method bnp`, proofs/P17), from the same start partitions with `--cuts R`
//! root rounds (default 50; 0: no cuts, neither at the root nor at the nodes): the row gives root LP, LP with cuts (root, after the
//! cut rounds), the final certified bound (least open leaf), nodes processed (and open),
//! seconds (wall and CPU of the process), the best known SSE and the gap, whether the
//! incumbent was proven optimal, and the incumbent's SSE when it beats the best known one.
//! With `--certificates DIR` it writes `DIR/<data>-k<k>.bnp.json.gz` (compacted, gzipped)
//! and the incumbent's labels `DIR/<data>-k<k>.bnp.labels`.
//!
//! Usage: `cargo run --release --example casc_bounds -- [--cases tarragona:10,census:3,..]
//!         [--time-limit SECS] [--cuts R] [--anchor-bound] [--nn-ascent F] [--subgradient F]
//!         [--anchor-threshold F] [--lp-segment] [--push-project] [--ipm] [--final-fraction F] [--no-start]
//!         [--exact-every N] [--box-width W] [--certified-smoothing] [--smoothing A] [--auto-smoothing] [--stop-early]
//!         [--max-columns N] [--pool L] [--stall N] [--tighten F] [--slack-push F] [--pool-master F] [--lp-projection]
//!         [--pool-master-moving-centre] [--max-iterations N] [--master-upper SECS] [--certificates DIR] [--progress]`
//!        `cargo run --release --example casc_bounds -- --method bnp [--cases ..]
//!         [--time-limit SECS] [--cuts R] [--no-start] [--certificates DIR]`
//!
//! Defaults: all twelve cases (k = 3, 4, 5, 10 of tarragona, census, eia), 60 s per case,
//! `--cuts 50`. Cases run one after the other on one thread (the protocol: one core,
//! at most 1800 s per case). The colgen flags set the `ColgenOptions` field of the same name
//! (their meanings: `solvers/src/bounds/colgen/mod.rs`, the option table), e.g. `--stall N`
//! = `stall_iterations`, `--tighten F` = `tighten_fraction`, `--slack-push F` = `slack_push`,
//! `--pool-master F` = `pool_master`, `--pool-master-moving-centre` =
//! `pool_master_moving_centre`, `--lp-projection` = `lp_projection`, `--max-iterations N` =
//! `max_iterations`, `--master-upper SECS` = `master_upper_seconds` (after the case's time:
//! the run's columns as an unboxed, cut-free restricted master, whose value lies above the LP
//! relaxation; printed as "restricted master", an estimate, not a bound). `--certificates DIR`
//! needs DIR to exist.
//!
//! ## Complexity
//! That of the bound per case, within its time limit.

use microagg::certificate::BoundCertificate;
use microagg::data::{load, ColumnSelection};
use microagg::labels::read_labels;
use microagg::pipeline::Pipeline;
use microagg_solvers::bounds::colgen::{colgen_bound_from, ColgenOptions};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Best known SSE of (data, k) in the benchmark library (instances/library), if listed.
fn best_known(data: &str, k: usize) -> Option<f64> {
    microagg::library::Library::open_default()
        .ok()?
        .reference_by_name(data, k)?
        .best_sse
}

/// `x` with 6 decimals, "-" when not finite.
fn num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.6}")
    } else {
        "-".into()
    }
}

/// Parse `data:k` pairs.
fn parse_cases(s: &str) -> Result<Vec<(String, usize)>, String> {
    s.split(',')
        .map(|c| {
            let (d, k) = c
                .split_once(':')
                .ok_or(format!("case '{c}': expected data:k, e.g. tarragona:10"))?;
            let k = k
                .parse::<usize>()
                .map_err(|e| format!("case '{c}': k: {e}"))?;
            Ok((d.to_string(), k))
        })
        .collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut cases: Vec<(String, usize)> = ["tarragona", "census", "eia"]
        .iter()
        .flat_map(|d| [3, 4, 5, 10].map(|k| (d.to_string(), k)))
        .collect();
    let mut opts = ColgenOptions {
        time_limit: 60.0,
        cut_rounds: 50,
        ..ColgenOptions::default()
    };
    let mut use_best = true;
    let mut bnp = false;
    let mut cert_dir: Option<PathBuf> = None;
    // The options that shape the run, echoed in each row's command.
    let mut shaping: Vec<String> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--cases" => cases = parse_cases(&value()?)?,
            "--time-limit" => opts.time_limit = value()?.parse()?,
            "--certificates" => {
                // Checked now, not after a run of many minutes.
                let dir = PathBuf::from(value()?);
                if !dir.is_dir() {
                    return Err(format!("--certificates {}: not a directory", dir.display()).into());
                }
                cert_dir = Some(dir);
            }
            "--progress" => opts.progress = true,
            "--method" => match value()?.as_str() {
                "colgen" => bnp = false,
                "bnp" => bnp = true,
                m => return Err(format!("--method {m}: colgen or bnp").into()),
            },
            flag => {
                match flag {
                    "--cuts" => opts.cut_rounds = value()?.parse()?,
                    "--exact-every" => opts.exact_every = value()?.parse()?,
                    "--max-columns" => opts.max_columns_per_iteration = value()?.parse()?,
                    "--pool" => opts.pool = value()?.parse()?,
                    "--box-width" => opts.box_width = value()?.parse()?,
                    "--anchor-bound" => opts.anchor_bound = true,
                    "--lp-segment" => opts.lp_segment = true,
                    "--push-project" => opts.push_project = true,
                    "--ipm" => opts.ipm = true,
                    "--final-fraction" => opts.final_fraction = value()?.parse()?,
                    "--nn-ascent" => opts.nn_ascent = value()?.parse()?,
                    "--subgradient" => opts.subgradient = value()?.parse()?,
                    "--anchor-threshold" => opts.anchor_threshold = value()?.parse()?,
                    "--smoothing" => opts.smoothing = value()?.parse()?,
                    "--certified-smoothing" => opts.certified_smoothing = true,
                    "--auto-smoothing" => opts.auto_smoothing = true,
                    "--stop-early" => opts.stop_early = true,
                    "--stall" => opts.stall_iterations = value()?.parse()?,
                    "--tighten" => opts.tighten_fraction = value()?.parse()?,
                    "--slack-push" => opts.slack_push = value()?.parse()?,
                    "--pool-master" => opts.pool_master = value()?.parse()?,
                    "--lp-projection" => opts.lp_projection = true,
                    "--pool-master-moving-centre" => opts.pool_master_moving_centre = true,
                    "--max-iterations" => opts.max_iterations = value()?.parse()?,
                    "--master-upper" => opts.master_upper_seconds = value()?.parse()?,
                    "--no-start" => use_best = false,
                    _ => return Err(format!("unknown argument {a}").into()),
                }
                shaping.push(a.clone());
                if !matches!(
                    flag,
                    "--anchor-bound"
                        | "--no-start"
                        | "--lp-segment"
                        | "--push-project"
                        | "--ipm"
                        | "--certified-smoothing"
                        | "--auto-smoothing"
                        | "--stop-early"
                        | "--lp-projection"
                        | "--pool-master-moving-centre"
                ) {
                    // The value just read.
                    shaping.push(match flag {
                        "--cuts" => opts.cut_rounds.to_string(),
                        "--exact-every" => opts.exact_every.to_string(),
                        "--max-columns" => opts.max_columns_per_iteration.to_string(),
                        "--nn-ascent" => opts.nn_ascent.to_string(),
                        "--final-fraction" => opts.final_fraction.to_string(),
                        "--subgradient" => opts.subgradient.to_string(),
                        "--anchor-threshold" => opts.anchor_threshold.to_string(),
                        "--box-width" => opts.box_width.to_string(),
                        "--stall" => opts.stall_iterations.to_string(),
                        "--tighten" => opts.tighten_fraction.to_string(),
                        "--slack-push" => opts.slack_push.to_string(),
                        "--pool-master" => opts.pool_master.to_string(),
                        "--max-iterations" => opts.max_iterations.to_string(),
                        "--master-upper" => opts.master_upper_seconds.to_string(),
                        "--smoothing" => opts.smoothing.to_string(),
                        _ => opts.pool.to_string(),
                    });
                }
            }
        }
    }
    if opts.time_limit.is_nan() || opts.time_limit <= 0.0 {
        return Err("--time-limit must be positive".into());
    }
    if bnp {
        let run = BnpCases {
            time_limit: opts.time_limit,
            cuts: opts.cut_rounds,
            use_best,
            cert_dir: cert_dir.as_deref(),
            shaping: &shaping,
        };
        return cases.iter().try_for_each(|(data, k)| run.case(data, *k));
    }
    // Refused options are said before the table starts, not after its header.
    opts.check()?;
    println!(
        "case          root LP         LP with cuts    nn              final LB        nodes  \
         seconds  best SSE        gap       converged"
    );
    for (data, k) in &cases {
        let inst = load(data, &ColumnSelection::All)?;
        let never = std::sync::atomic::AtomicBool::new(false);
        let t = std::time::Instant::now();
        let first = Pipeline::parse(microagg::bound::COLGEN_START, &[])?.run(
            &inst,
            *k,
            0,
            Some(opts.time_limit / 10.0),
            &never,
        )?;
        let mut starts: Vec<Vec<usize>> = vec![first.partition.labels().to_vec()];
        let best_file = format!("{ROOT}/instances/library/{data}-k{k}.labels");
        if use_best && Path::new(&best_file).exists() {
            starts.push(read_labels(Path::new(&best_file))?);
        }
        let case_opts = ColgenOptions {
            time_limit: (opts.time_limit - t.elapsed().as_secs_f64()).max(1e-3),
            ..opts.clone()
        };
        let refs: Vec<&[usize]> = starts.iter().map(|s| s.as_slice()).collect();
        let b = colgen_bound_from(&inst.z, inst.n, inst.d, *k, &refs, &case_opts)?;
        let seconds = t.elapsed().as_secs_f64();
        let best = best_known(data, *k);
        let gap = best
            .and_then(|s| microagg::bound::gap_percent(s, b.lower_bound))
            .map_or("-".to_string(), |g| format!("{g:.3} %"));
        let with_cuts = if b.cut_rounds > 0 {
            b.converged_lp
        } else {
            f64::NAN
        };
        println!(
            "{:<13} {:<15} {:<15} {:<15} {:<15} {:>5}  {:>7.1}  {:<15} {:<9} {}",
            format!("{data} {k}"),
            num(b.root_lp),
            num(with_cuts),
            num(b.nn),
            num(b.lower_bound),
            0,
            seconds,
            best.map_or("-".into(), num),
            gap,
            if b.converged { "yes" } else { "no" },
        );
        println!(
            "  # cargo run --release --example casc_bounds -- --cases {data}:{k} --time-limit {} {}",
            opts.time_limit,
            shaping.join(" ")
        );
        println!(
            "  # lagrangian {} ({} iterations, {} columns; lp {:.1} s, heuristic {:.1} s, \
             exact {:.1} s in {} calls, {} nodes; {} cut rounds, {} cuts)",
            num(b.lagrangian),
            b.iterations,
            b.columns,
            b.lp_seconds,
            b.heuristic_seconds,
            b.exact_seconds,
            b.exact_calls,
            b.exact_nodes,
            b.cut_rounds,
            b.cuts
        );
        if let Some(u) = &b.master_upper {
            println!(
                "  # restricted master without box or cuts (LP relaxation <= this, HiGHS' \
                 tolerance): {u}"
            );
        }
        if let Some(dir) = &cert_dir {
            if !b.duals.is_empty() && b.lagrangian > b.nn {
                let path = dir.join(format!("{data}-k{k}.bound.json"));
                BoundCertificate::lagrangian_with_cuts(
                    &inst,
                    *k,
                    b.lagrangian,
                    b.duals.clone(),
                    &b.cut_triples,
                    &b.cut_duals,
                )
                .with_anchor_threshold(b.anchor_threshold)
                .write(&path)?;
                println!("  # certificate {}", path.display());
            }
        }
    }
    Ok(())
}

/// The `--method bnp` runs (module doc).
struct BnpCases<'a> {
    time_limit: f64,
    cuts: usize,
    use_best: bool,
    cert_dir: Option<&'a Path>,
    shaping: &'a [String],
}

impl BnpCases<'_> {
    fn case(&self, data: &str, k: usize) -> Result<(), Box<dyn std::error::Error>> {
        use microagg::bound::{compute_with, BoundOptions, Certificate};
        let inst = load(data, &ColumnSelection::All)?;
        let best_file = format!("{ROOT}/instances/library/{data}-k{k}.labels");
        let mut options = BoundOptions {
            cut_rounds: Some(self.cuts),
            ..Default::default()
        };
        if self.use_best && Path::new(&best_file).exists() {
            options.start = Some(read_labels(Path::new(&best_file))?);
            options.start_source = best_file;
        }
        let never = std::sync::atomic::AtomicBool::new(false);
        let cpu = microagg::bench::process_cpu_seconds();
        let b = compute_with("bnp", &inst, k, Some(self.time_limit), &options, &never)?;
        let cpu = microagg::bench::process_cpu_seconds() - cpu;
        let d = &b.details;
        let f = |key: &str| d[key].as_f64().unwrap_or(f64::NAN);
        let best = best_known(data, k);
        let gap = best
            .and_then(|s| microagg::bound::gap_percent(s, b.lower_bound))
            .map_or("-".to_string(), |g| format!("{g:.4} %"));
        let inc = b.incumbent.as_ref().expect("bnp returns an incumbent");
        println!(
            "case          root LP         LP with cuts    final LB        nodes (open)  \
             seconds (CPU)    best SSE        gap       proven"
        );
        println!(
            "{:<13} {:<15} {:<15} {:<15} {:>5} ({:>4})  {:>7.1} ({:>6.1})  {:<15} {:<9} {}",
            format!("{data} {k}"),
            num(f("root_lp")),
            num(f("root_lp_cuts")),
            num(b.lower_bound),
            d["nodes"],
            d["open_nodes"],
            b.seconds,
            cpu,
            best.map_or("-".into(), num),
            gap,
            if inc.proven_optimal { "yes" } else { "no" },
        );
        println!(
            "  # cargo run --release --example casc_bounds -- --method bnp --cases {data}:{k} \
             --time-limit {}{}",
            self.time_limit,
            self.shaping
                .iter()
                .map(|a| format!(" {a}"))
                .collect::<String>()
        );
        println!(
            "  # incumbent SSE {} ({}), {} cut rounds, {} cuts, {} columns, depth {}",
            num(inc.sse),
            // the library records 10 decimals of the SSE: only a clear improvement counts.
            match best {
                Some(s) if inc.sse < s - 1e-9 * s.max(1.0) => "better than the best known",
                _ => "not better than the best known",
            },
            d["cut_rounds"],
            d["cuts"],
            d["columns"],
            d["max_depth"],
        );
        if let Some(dir) = self.cert_dir {
            match &b.certificate {
                Ok(c @ Certificate::BranchAndPrice(_)) => {
                    let path = dir.join(format!("{data}-k{k}.bnp.json.gz"));
                    c.write(&path)?;
                    println!("  # {}", c.written(&path));
                }
                Ok(_) => unreachable!("bnp writes bnp certificates"),
                Err(why) => println!("  # no certificate: {why}"),
            }
            let path = dir.join(format!("{data}-k{k}.bnp.labels"));
            microagg::labels::write_labels(&path, &inc.labels)?;
            println!("  # incumbent labels {}", path.display());
        }
        Ok(())
    }
}
