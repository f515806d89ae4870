//! # Parts: strata and blocks as units of work
//!
//! `run --strata COLUMN[,COLUMN]` solves every stratum on its own ([`crate::strata`]);
//! `run --blocks SIZE` cuts the data (each stratum, with both) into blocks of about SIZE
//! records, solves each block on its own and repairs the borders ([`crate::blocks`]). Units
//! (strata, or blocks when `--blocks` is given) are independent, so they can run on other
//! machines: `--part i/N` solves only the units of part i (units are dealt to parts largest
//! first, each to the least loaded part, ties to the lowest part) and writes a part file;
//! `microagg combine` joins the N part files into one labels file. `--part` falls back to
//! Slurm's `SLURM_ARRAY_TASK_ID` / `SLURM_ARRAY_TASK_COUNT` when they are set (`slurm_part`).
//!
//! Every unit is solved from the whole file's z-scores (each part loads the whole file), as
//! its own instance whose name and seed derive from the file's sha256 and the unit's name:
//! a unit gets the same groups in a part as in the unsplit run. Labels are numbered by
//! first appearance along the rows, both by `run` and by `combine`, so the parts of a run
//! split by strata combine into the bytes of the unsplit run's labels. Block borders are
//! repaired only in an unsplit run (the repair needs every block); parts of a blocked run
//! combine into the unrepaired partition, and `combine` says so.
//!
//! **Stopping.** On Ctrl-C (SIGINT, SIGTERM, SIGHUP) a split run still writes a complete,
//! feasible labels file (or part file) and exits with 128 + the signal: units solved before
//! the signal keep their groups, a unit whose refiner was running keeps its best partition
//! so far, the border repair keeps the cuts it finished, and a unit stopped in its
//! initializer (which has no partial partition) or not yet started gets
//! `fallback_groups`; the record lists those units (`unsolved_units`). A unit whose
//! initializer exceeds its share of `--time-limit` gets the fallback groups the same way.
//!
//! A part file is a labels file with one header line, `#microagg-part {json}` (part,
//! parts, n, k, pipeline, seed, split, the data's sha256), then one line per row of the
//! whole file: the row's label within the part, or `-` for a row of another part.
//!
//! This file holds the split options and the solving of units ([`solve_split`]); the split
//! `run` (`run_cli`, which writes the whole file back through [`crate::release`] like an
//! unsplit run) is in `parts/cli.rs`, parts and their assignment in `parts/assign.rs`, part
//! files and `combine` in `parts/files.rs`.
//!
//! ## Complexity
//! Splitting and joining are O(n log n); solving costs what the pipeline costs per unit.
//!
//! ## References
//! Templ, Kowarik & Meindl (2015), J. Statistical Software 67(4) (sdcMicro's strata);
//! SchedMD, Slurm job arrays (`sbatch --array`); Tange (2011), ;login: 36(1) (GNU parallel).

use crate::blocks::{self, RepairStats, Split};
use crate::data::{Instance, StrataColumns};
use crate::error::{Error, Result};
use crate::pipeline::Pipeline;
use crate::strata::{strata_units, Unit};
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

mod assign;
mod cli;
mod files;
mod record;
mod text;

pub(crate) use assign::assign_parts;
pub use assign::Part;
pub(crate) use cli::{run_cli, SplitRun};
pub(crate) use files::combine;
pub use files::{first_appearance_labels, CombineSummary};
pub(crate) use files::{write_part, PartHeader};
pub(crate) use record::SplitRecord;

/// The `run` options that split a run into units.
#[derive(clap::Args, Clone, Debug, Default)]
#[command(next_help_heading = "Large files: strata, blocks, parts")]
pub(crate) struct SplitArgs {
    /// Strata columns (by name or 1-based position, comma-separated): groups never mix two
    /// strata; the columns are read as text and are not numeric attributes.
    #[arg(long)]
    pub strata: Option<String>,
    /// Cut the data (each stratum) into blocks of about SIZE records (SIZE >= 2k), solve
    /// each on its own, then repair the borders.
    #[arg(long, value_name = "SIZE")]
    pub blocks: Option<usize>,
    /// How --blocks repairs the borders: `descent` improves the groups along each cut from
    /// where they are (default), `resolve` solves them again with the whole pipeline
    /// (slower, different labels), `none` keeps the blocks' groups.
    #[arg(
        long,
        value_enum,
        default_value_t,
        value_name = "MODE",
        requires = "blocks"
    )]
    pub block_repair: blocks::RepairMode,
    #[command(flatten)]
    pub block: BlockTuningArgs,
    /// Solve only part I of N (1-based) of the strata (blocks with --blocks) and write a
    /// part file with --labels-out (join them with `microagg combine`). Default: Slurm's
    /// SLURM_ARRAY_TASK_ID/COUNT when set; `all` for the whole run.
    #[arg(long, value_name = "I/N")]
    pub part: Option<String>,
}

/// How --blocks cuts and repairs its borders: the options `run` and `bench --scale` share.
#[derive(clap::Args, Clone, Debug, Default)]
pub(crate) struct BlockTuningArgs {
    /// How --blocks cuts: `kd` on the widest coordinate at the median (default), `valley`
    /// across the line between MDAV's two seeds at the sparsest place near the median
    /// (blocks' sizes vary by up to a quarter; fewer records next to a cut).
    #[arg(
        long,
        value_enum,
        default_value_t,
        value_name = "RULE",
        requires = "blocks"
    )]
    pub block_cut: blocks::CutRule,
    /// --blocks: half-width W of the strip along each cut whose groups the repair pools,
    /// in median group radii of the cut's node (default 0.65 with `descent`, 1 with
    /// `resolve`): wider strips repair more of the blocks' loss for more time.
    #[arg(
        long,
        value_name = "W",
        requires = "blocks",
        allow_negative_numbers = true
    )]
    pub block_slab: Option<f64>,
    /// --blocks: the descent repair's neighbour lists (1 + EPS)-approximate (descent's
    /// `approx`; default: the value the pipeline's descent stage is given, else 1; 0 =
    /// exact lists): EPS = 1 makes the repair's lists several times cheaper for almost the
    /// same IL.
    #[arg(
        long,
        value_name = "EPS",
        requires = "blocks",
        allow_negative_numbers = true
    )]
    pub block_approx: Option<f64>,
}

impl BlockTuningArgs {
    /// The border repair's tuning (unchecked).
    pub(crate) fn repair_tuning(&self) -> blocks::RepairTuning {
        blocks::RepairTuning {
            slab: self.block_slab,
            approx: self.block_approx,
        }
    }
}

impl SplitArgs {
    /// The strata column names.
    pub(crate) fn strata_columns(&self) -> Vec<String> {
        self.strata.as_deref().map_or(Vec::new(), |s| {
            s.split(',')
                .map(|c| c.trim().to_string())
                .filter(|c| !c.is_empty())
                .collect()
        })
    }

    /// True when the run is split into units (strata or blocks) or a part is asked for
    /// (or a repair option is given, which the split run refuses without blocks).
    pub(crate) fn is_active(&self) -> bool {
        self.strata.is_some()
            || self.blocks.is_some()
            || self.part.is_some()
            || self.block.block_slab.is_some()
            || self.block.block_approx.is_some()
    }
}

pub use crate::data::sub_instance;

/// What a stage did over all units: summed SSE and seconds.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct StageTotal {
    pub name: String,
    pub sse: f64,
    pub il: f64,
    pub seconds: f64,
}

/// A unit's groups (global rows) and, per stage, (SSE, seconds).
type Solved = (Vec<Vec<usize>>, Vec<(f64, f64)>);

/// Solves sets of rows with a pipeline.
pub struct UnitSolver<'a> {
    pub inst: &'a Instance,
    pub pipeline: &'a Pipeline,
    pub k: usize,
    pub seed: u64,
    /// The whole run's limit; a unit of m rows gets the share m / n of it.
    pub time_limit: Option<f64>,
    pub max_steps: Option<u64>,
    pub interrupt: &'a AtomicBool,
    /// How `--blocks` repairs the borders.
    pub repair: blocks::RepairMode,
    /// How `--blocks` cuts the data.
    pub cut: blocks::CutRule,
    /// `--block-slab`, `--block-approx`.
    pub tuning: blocks::RepairTuning,
}

impl<'a> UnitSolver<'a> {
    /// A solver of `pipeline` with groups of `k` from `seed`, stopped by `interrupt`: no
    /// time limit or step budget, and the default border repair, cut and tuning of `--blocks`.
    pub fn new(
        inst: &'a Instance,
        pipeline: &'a Pipeline,
        k: usize,
        seed: u64,
        interrupt: &'a AtomicBool,
    ) -> Self {
        UnitSolver {
            inst,
            pipeline,
            k,
            seed,
            time_limit: None,
            max_steps: None,
            interrupt,
            repair: blocks::RepairMode::default(),
            cut: blocks::CutRule::default(),
            tuning: Default::default(),
        }
    }

    /// The pipeline's descent parameters (defaults when it has no descent stage), for the
    /// border repair.
    fn descent_params(&self) -> serde_json::Map<String, serde_json::Value> {
        self.pipeline
            .stages
            .iter()
            .find(|s| s.name == "descent")
            .and_then(|s| s.params.as_object().cloned())
            .unwrap_or_default()
    }

    /// Groups (global rows, in order of first appearance along the rows) and per-stage
    /// (SSE, seconds).
    fn solve(&self, rows: &[usize], unit: &str) -> Result<Solved> {
        let sub = sub_instance(self.inst, rows, unit);
        let limit = self
            .time_limit
            .map(|t| t * rows.len() as f64 / self.inst.n as f64);
        let out = self.pipeline.run_with(
            &sub,
            self.k,
            self.seed,
            limit,
            self.max_steps,
            self.interrupt,
        )?;
        let labels = out.partition.canonical_labels();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for (local, &g) in labels.iter().enumerate() {
            if g == groups.len() {
                groups.push(Vec::new());
            }
            groups[g].push(rows[local]);
        }
        Ok((
            groups,
            out.stages.iter().map(|s| (s.sse, s.seconds)).collect(),
        ))
    }

    /// Groups of `rows`: one solve, or blocks of about `size` solved in parallel (no repair).
    fn solve_blocked(&self, rows: &[usize], unit: &str, size: usize) -> Result<Vec<Vec<usize>>> {
        if rows.len() <= size + size / 2 {
            return self.solve(rows, unit).map(|(g, _)| g);
        }
        let split = blocks::split_by(self.inst, rows.to_vec(), size, self.cut);
        let parts: Vec<Vec<Vec<usize>>> = crate::parallel::install(|| {
            split
                .blocks
                .par_iter()
                .enumerate()
                .map(|(b, rows)| {
                    self.solve(rows, &format!("{unit}/block {b}"))
                        .map(|(g, _)| g)
                })
                .collect::<Result<_>>()
        })?;
        Ok(parts.into_iter().flatten().collect())
    }
}

/// The result of a split run (or of one part of it).
pub struct SplitOutcome {
    /// Groups of global rows: all of them, or those of the part.
    pub groups: Vec<Vec<usize>>,
    pub units: usize,
    pub units_here: usize,
    /// An interrupt arrived: units solved before it keep their groups, a unit whose
    /// refiner was running keeps its best partition so far, the border repair stops after
    /// the cuts done, and the units listed in `unsolved` get `fallback_groups`.
    pub interrupted: bool,
    /// Units whose initializer was stopped (an initializer has no partial partition) or
    /// never started: their rows are grouped by `fallback_groups`.
    pub unsolved: Vec<String>,
    pub stages: Vec<StageTotal>,
    pub repair: Vec<RepairStats>,
    pub seconds: f64,
}

/// One unit of work: a stratum, or a block of one.
struct Work {
    name: String,
    rows: Vec<usize>,
    /// Index of the stratum (the blocks' split) it belongs to.
    unit: usize,
}

/// Solve `inst` split into strata and/or blocks; with `part`, only that part's units.
pub fn solve_split(
    solver: &UnitSolver<'_>,
    strata: Option<&StrataColumns>,
    blocks: Option<usize>,
    part: Option<Part>,
) -> Result<SplitOutcome> {
    let t = Instant::now();
    let (inst, k) = (solver.inst, solver.k);
    let units: Vec<Unit> = match strata {
        Some(s) => strata_units(s, k, &inst.source)?,
        None => vec![Unit {
            name: "all".into(),
            rows: (0..inst.n).collect(),
        }],
    };
    if let Some(size) = blocks {
        if size < 2 * k {
            return Err(Error::usage(format!(
                "--blocks {size}: blocks must hold at least 2k = {} records",
                2 * k
            )));
        }
    }
    let splits: Vec<Option<Split>> = units
        .iter()
        .map(|u| blocks.map(|size| blocks::split_by(inst, u.rows.clone(), size, solver.cut)))
        .collect();
    let work = work_list(&units, &splits, k)?;
    let total_units = work.len();
    let work = match part {
        Some(p) => part_of(work, p),
        None => work,
    };
    let (solved, unsolved) = solve_units(solver, &work)?;
    let mut stages = stage_totals(solver.pipeline, &solved);
    let mut by_unit: Vec<Vec<Vec<usize>>> = vec![Vec::new(); units.len()];
    for (w, (g, _)) in work.iter().zip(solved) {
        by_unit[w.unit].extend(g);
    }
    let (groups, repair) = join_units(solver, &units, &splits, by_unit, blocks, part)?;
    if !repair.is_empty() {
        let sse = groups
            .iter()
            .map(|m| microagg_solvers::sse::group_sse(&inst.z, inst.d, m))
            .sum();
        stages.push(StageTotal {
            name: "border-repair".into(),
            sse,
            il: 0.0,
            seconds: repair.iter().map(|r| r.seconds).sum(),
        });
    }
    for s in &mut stages {
        s.il = inst.il(s.sse);
    }
    Ok(SplitOutcome {
        groups,
        units: total_units,
        units_here: work.len(),
        interrupted: solver.interrupt.load(std::sync::atomic::Ordering::SeqCst),
        unsolved,
        stages,
        repair,
        seconds: t.elapsed().as_secs_f64(),
    })
}

/// The units of work in order: each unit whole, or its blocks when it was cut in more than
/// one. Refuses a block of fewer than k rows.
fn work_list(units: &[Unit], splits: &[Option<Split>], k: usize) -> Result<Vec<Work>> {
    let mut work: Vec<Work> = Vec::new();
    for (ui, (u, s)) in units.iter().zip(splits).enumerate() {
        match s {
            Some(s) if s.blocks.len() > 1 => {
                for (b, rows) in s.blocks.iter().enumerate() {
                    work.push(Work {
                        name: format!("{}/block {b}", u.name),
                        rows: rows.clone(),
                        unit: ui,
                    });
                }
            }
            _ => work.push(Work {
                name: u.name.clone(),
                rows: u.rows.clone(),
                unit: ui,
            }),
        }
    }
    if let Some(w) = work.iter().find(|w| w.rows.len() < k) {
        return Err(Error::usage(format!(
            "--blocks: block {} has {} < k = {k} records; choose a larger SIZE",
            w.name,
            w.rows.len()
        )));
    }
    Ok(work)
}

/// The units `part` solves ([`assign_parts`] by rows).
fn part_of(work: Vec<Work>, p: Part) -> Vec<Work> {
    let sizes: Vec<usize> = work.iter().map(|w| w.rows.len()).collect();
    let of = assign_parts(&sizes, p.count);
    work.into_iter()
        .zip(of)
        .filter(|(_, q)| *q == p.index - 1)
        .map(|(w, _)| w)
        .collect()
}

/// Every unit solved in parallel, and the names of those that got the fallback groups.
fn solve_units(solver: &UnitSolver<'_>, work: &[Work]) -> Result<(Vec<Solved>, Vec<String>)> {
    // A unit stopped in its initializer (interrupt, or its share of the time limit) has
    // no partition of its own: it gets the fallback groups, and the run goes on.
    let solved: Vec<Option<Solved>> = crate::parallel::install(|| {
        work.par_iter()
            .map(|w| match solver.solve(&w.rows, &w.name) {
                Err(Error::Interrupted(_)) => Ok(None),
                r => r.map(Some),
            })
            .collect::<Result<_>>()
    })?;
    let mut unsolved = Vec::new();
    let solved: Vec<Solved> = work
        .iter()
        .zip(solved)
        .map(|(w, s)| {
            s.unwrap_or_else(|| {
                unsolved.push(w.name.clone());
                (fallback_groups(solver.inst, &w.rows, solver.k), Vec::new())
            })
        })
        .collect();
    Ok((solved, unsolved))
}

/// Each pipeline stage's SSE and seconds summed over the units (IL filled in later).
fn stage_totals(pipeline: &Pipeline, solved: &[Solved]) -> Vec<StageTotal> {
    let mut stages: Vec<StageTotal> = pipeline
        .stages
        .iter()
        .map(|s| StageTotal {
            name: s.name.clone(),
            sse: 0.0,
            il: 0.0,
            seconds: 0.0,
        })
        .collect();
    for (_, per) in solved {
        for (total, (sse, secs)) in stages.iter_mut().zip(per) {
            total.sse += sse;
            total.seconds += secs;
        }
    }
    stages
}

/// The groups of every unit in unit order; a whole run's unit cut into blocks gets its
/// borders repaired first (a part cannot: the repair needs every block).
fn join_units(
    solver: &UnitSolver<'_>,
    units: &[Unit],
    splits: &[Option<Split>],
    by_unit: Vec<Vec<Vec<usize>>>,
    blocks: Option<usize>,
    part: Option<Part>,
) -> Result<(Vec<Vec<usize>>, Vec<RepairStats>)> {
    let mut repair = Vec::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (ui, unit_groups) in by_unit.into_iter().enumerate() {
        match (&splits[ui], blocks, part) {
            (Some(s), Some(size), None) if s.blocks.len() > 1 => {
                let (g, stats) = repair_unit(solver, &units[ui].name, s, unit_groups, size)?;
                repair.push(stats);
                groups.extend(g);
            }
            _ => groups.extend(unit_groups),
        }
    }
    Ok((groups, repair))
}

/// The border repair of one unit cut into blocks of about `size` ([`blocks`]).
fn repair_unit(
    solver: &UnitSolver<'_>,
    unit_name: &str,
    s: &Split,
    unit_groups: Vec<Vec<usize>>,
    size: usize,
) -> Result<(Vec<Vec<usize>>, RepairStats)> {
    let (inst, k) = (solver.inst, solver.k);
    let solve = |rows: &[usize], name: &str| {
        solver.solve_blocked(rows, &format!("{unit_name}/{name}"), size)
    };
    let params = solver.tuning.descent_params(solver.descent_params());
    let refine = |groups: &[Vec<usize>], name: &str| {
        let unit = format!("{unit_name}/{name}");
        blocks::descent_on_groups(inst, groups, k, &params, &unit, solver.interrupt)
    };
    blocks::repair_with_slab(
        inst,
        s,
        unit_groups,
        solver.repair,
        solver.tuning.slab_for(solver.repair),
        &refine,
        &solve,
        solver.interrupt,
    )
}

/// Feasible groups for the rows of a unit that could not be solved (interrupted before or
/// in its initializer): the rows sorted by the sum of their z-scores (ties by row), cut into
/// consecutive groups of k, the last one taking the remainder (k..2k-1 rows). O(m log m),
/// so an interrupted run still ends at once with a labels file for every row; its IL for
/// those rows is poor, and the run says which units got it. Needs `rows.len() >= k`.
pub(crate) fn fallback_groups(inst: &Instance, rows: &[usize], k: usize) -> Vec<Vec<usize>> {
    let d = inst.d;
    let key = |i: usize| inst.z[i * d..(i + 1) * d].iter().sum::<f64>();
    let mut order: Vec<(f64, usize)> = rows.iter().map(|&i| (key(i), i)).collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut groups: Vec<Vec<usize>> = order
        .chunks(k)
        .map(|c| c.iter().map(|p| p.1).collect())
        .collect();
    if groups.len() > 1 && groups.last().is_some_and(|g| g.len() < k) {
        let tail = groups.pop().expect("non-empty");
        groups.last_mut().expect("non-empty").extend(tail);
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::ColumnSelection;

    fn assert_partition(n: usize, k: usize, groups: &[Vec<usize>]) {
        let mut seen = vec![0u8; n];
        for g in groups {
            assert!(g.len() >= k, "group of {} < k = {k}", g.len());
            g.iter().for_each(|&i| seen[i] += 1);
        }
        assert!(
            seen.iter().all(|&c| c == 1),
            "every row in exactly one group"
        );
    }

    #[test]
    fn fallback_groups_cover_the_rows_in_groups_of_k_to_2k_minus_1() {
        let inst = crate::data::load("gauss:n=103,d=3,seed=2", &ColumnSelection::All).unwrap();
        let rows: Vec<usize> = (0..inst.n).filter(|i| i % 2 == 1).collect(); // 51 rows
        for k in [2, 3, 5, 51] {
            let g = fallback_groups(&inst, &rows, k);
            assert_eq!(g.len(), 51 / k);
            assert!(g.iter().all(|m| m.len() >= k && m.len() < 2 * k));
            let mut all: Vec<usize> = g.concat();
            all.sort_unstable();
            assert_eq!(all, rows);
        }
    }

    #[test]
    fn a_split_run_interrupted_before_it_starts_still_groups_every_row() {
        let inst =
            crate::data::load("gauss:n=2000,d=3,clusters=4,seed=5", &ColumnSelection::All).unwrap();
        let pipeline = Pipeline::parse("mdav+ils", &[]).unwrap();
        let stopped = AtomicBool::new(true);
        let solver = UnitSolver::new(&inst, &pipeline, 3, 1, &stopped);
        let out = solve_split(&solver, None, Some(500), None).unwrap();
        assert!(out.interrupted);
        assert_eq!(out.units, 4);
        assert_eq!(out.unsolved.len(), 4, "{:?}", out.unsolved);
        assert!(out.repair.iter().all(|r| r.interrupted && r.improved == 0));
        assert_partition(inst.n, 3, &out.groups);
        // Without the interrupt: every unit solved, the same rows covered.
        let go = AtomicBool::new(false);
        let solver = UnitSolver {
            interrupt: &go,
            max_steps: Some(50),
            ..solver
        };
        let out = solve_split(&solver, None, Some(500), None).unwrap();
        assert!(!out.interrupted && out.unsolved.is_empty());
        assert_partition(inst.n, 3, &out.groups);
    }
}
