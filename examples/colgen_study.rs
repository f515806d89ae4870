//! # Column generation bound study (issue 18)
//!
//! Runs the column generation lower bound (`microagg_solvers::bounds::colgen`, proofs/P09) on
//! one (data, k) with chosen options and prints one line of figures: the certified bound as
//! SSE and IL, the gap to the best known partition (instances/library/library.toml, when the
//! case is listed), whether pricing proved the LP value (converged), seconds per phase.
//! The master starts from the `mdav+decompose-shrink` partition (as `microagg bound`) and,
//! with `--start`, from a labels file too.
//!
//! Usage: `cargo run --release --example colgen_study -- --data tarragona --k 10
//!         [--time-limit 60] [--start instances/library/tarragona-k10.labels]
//!         [--box-width 0.5] [--smoothing 0.5] [--drop-after 20] [--exact-every 0]
//!         [--max-columns N] [--pool L] [--ipm] [--progress]
//!         [--cut-rounds R] [--cuts-per-round C] [--cut-violation V]`
//!
//! ## Complexity
//! That of the bound (see the module), within the time limit.

use microagg::data::{load, ColumnSelection};
use microagg::labels::read_labels;
use microagg::pipeline::Pipeline;
use microagg_solvers::bounds::colgen::{colgen_bound_from, ColgenOptions};

/// Best known SSE of (data, k) in the benchmark library (instances/library), if listed.
fn best_known(data: &str, k: usize) -> Option<f64> {
    microagg::library::Library::open_default()
        .ok()?
        .reference_by_name(data, k)?
        .best_sse
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut data, mut k, mut start) = (None, None, None);
    let mut opts = ColgenOptions::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--data" => data = Some(value()?),
            "--k" => k = Some(value()?.parse::<usize>()?),
            "--start" => start = Some(value()?),
            "--time-limit" => opts.time_limit = value()?.parse()?,
            "--box-width" => opts.box_width = value()?.parse()?,
            "--smoothing" => opts.smoothing = value()?.parse()?,
            "--drop-after" => opts.drop_after = value()?.parse()?,
            "--exact-every" => opts.exact_every = value()?.parse()?,
            "--progress" => opts.progress = true,
            "--ipm" => opts.ipm = true,
            "--pool" => opts.pool = value()?.parse()?,
            "--max-columns" => opts.max_columns_per_iteration = value()?.parse()?,
            "--cut-rounds" => opts.cut_rounds = value()?.parse()?,
            "--cuts-per-round" => opts.cuts_per_round = value()?.parse()?,
            "--cut-violation" => opts.cut_violation = value()?.parse()?,
            "--anchor-bound" => opts.anchor_bound = true,
            _ => return Err(format!("unknown argument {a}").into()),
        }
    }
    let (Some(data), Some(k)) = (data, k) else {
        return Err(
            "usage: colgen_study --data D --k K [--time-limit S] [--start FILE] \
                    [--box-width W] [--smoothing A] [--drop-after N] [--exact-every N] \
                    [--ipm] [--progress] [--cut-rounds R] [--cuts-per-round C] \
                    [--cut-violation V]"
                .into(),
        );
    };
    let inst = load(&data, &ColumnSelection::All)?;
    let never = std::sync::atomic::AtomicBool::new(false);
    let t = std::time::Instant::now();
    let first = Pipeline::parse(microagg::bound::COLGEN_START, &[])?.run(
        &inst,
        k,
        0,
        Some(opts.time_limit / 10.0),
        &never,
    )?;
    let mut starts: Vec<Vec<usize>> = vec![first.partition.labels().to_vec()];
    if let Some(f) = &start {
        starts.push(read_labels(std::path::Path::new(f))?);
    }
    opts.time_limit = (opts.time_limit - t.elapsed().as_secs_f64()).max(1e-3);
    let refs: Vec<&[usize]> = starts.iter().map(|s| s.as_slice()).collect();
    let b = colgen_bound_from(&inst.z, inst.n, inst.d, k, &refs, &opts)?;
    let seconds = t.elapsed().as_secs_f64();
    let il = microagg::bound::il_lower_bound(&inst, b.lower_bound);
    let gap = best_known(&data, k)
        .and_then(|best| microagg::bound::gap_percent(best, b.lower_bound))
        .map_or("-".to_string(), |g| format!("{g:.3} %"));
    println!(
        "{data} k={k}: LB {:.6} IL >= {il:.6} % gap {gap} converged {} ({}) lp {:.6} \
         lagrangian {:.6} nn {:.6} | {seconds:.1} s: lp {:.1} s, heuristic {:.1} s, exact {:.1} s \
         ({} calls, {} nodes), {} iterations, {} columns ({} dropped), {} box widenings | \
         root lp {:.6} converged lp {:.6} cut rounds {} cuts {} (in the bound's duals {}) | \
         start {} box_width {} smoothing {} drop_after {} exact_every {} ipm {} max_columns {} pool {}",
        b.lower_bound,
        b.converged,
        if b.pricing_exact {
            "pricing exact"
        } else {
            "pricing cut"
        },
        b.lp_value,
        b.lagrangian,
        b.nn,
        b.lp_seconds,
        b.heuristic_seconds,
        b.exact_seconds,
        b.exact_calls,
        b.exact_nodes,
        b.iterations,
        b.columns,
        b.dropped_columns,
        b.box_widenings,
        b.root_lp,
        b.converged_lp,
        b.cut_rounds,
        b.cuts,
        b.cut_triples.len(),
        start.as_deref().unwrap_or("-"),
        opts.box_width,
        opts.smoothing,
        opts.drop_after,
        opts.exact_every,
        opts.ipm,
        opts.max_columns_per_iteration,
        opts.pool,
    );
    Ok(())
}
