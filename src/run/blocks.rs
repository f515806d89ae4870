//! # Blocks
//!
//! `--blocks SIZE`: a large data set is cut into blocks of about SIZE records that are
//! solved independently, then the borders between blocks are repaired. By default
//! ([`CutRule::Kd`]) the cut follows a balanced kd split (the spatial index's own rule): a
//! node of m records that is to become b blocks is split on its widest coordinate (largest
//! max - min, lowest index on ties) so that the left side holds round(m * floor(b/2) / b)
//! records, ordered by (coordinate, row index) so the cut is deterministic with ties and
//! duplicates. Blocks are thus compact in space, and a group never spans two blocks.
//! With [`CutRule::Valley`] (`--block-cut valley`) a node is cut across the line between
//! MDAV's two seeds of the node (the record farthest from its centroid, the record
//! farthest from that one), at the rank within a quarter of the smaller side's share of
//! the balanced one where the projections are sparsest (the widest span of 2q consecutive
//! projections, q = m / 128), and the sides get blocks in proportion to their records. In
//! d = 10 with k = 5 a group's radius is a large part of a block's width, so most records
//! are near some cut; cutting where the data are thin leaves fewer of them there.
//!
//! Groups next to a cut are formed without the records across it. The repair visits the
//! cuts bottom-up (children before parents, so a repaired group always lies on one side of
//! every cut above it; the cuts of one height, whose blocks are disjoint, in parallel, with
//! the one-by-one order's result whatever the thread count) and pools the groups whose
//! centroid lies within one typical group radius of the cut plane (the median over the
//! node's groups of sqrt(group SSE / size); `DESCENT_SLAB` = 0.65 of it with `descent`; W radii with
//! `--block-slab W`, [`RepairTuning`]). [`RepairMode`] says what is done with the pool: by
//! default (`descent`) the descent refiner improves the pool's groups from where they are
//! (its neighbour lists now cross the cut), with the pipeline's descent parameters when it
//! has a descent stage (else descent's defaults with `REPAIR_NEIGHBOURS` neighbours per
//! record; its `approx` is `REPAIR_APPROX` = 1 unless `--block-approx EPS` or the
//! descent stage gives one: the approximate lists make the repair several times cheaper
//! in d = 10, where the exact lists cost most of it); with
//! `resolve` (the only repair before, kept for the figures measured with it) the pool is
//! solved again by the whole pipeline (cut into blocks of SIZE itself when larger, without
//! further repair); `none` skips the repair. The new groups replace the old ones only when
//! their SSE is lower, so the repair never raises the SSE. What blocking costs in IL, and
//! what each repair costs in time, is measured in `studies/study-engine.txt`.
//!
//! ## Complexity
//! The split is O(n log b) selections for b blocks (valley: plus O(n d log b) for the seeds
//! and projections and a sort of the candidate ranks, O(m log m) per node of m records); solving costs b solves of about SIZE
//! records (MDAV: O(n SIZE d / k) with the scan); the repair O(n log b) bookkeeping plus,
//! per cut, one descent over its pool (neighbour lists and the moves of records near the
//! cut) or one solve of it (`resolve`); the cuts of one height run in parallel, so the
//! wall time is about the sum over heights of the largest pool's repair when threads
//! suffice (the top cuts, one or two per height, dominate: `studies/
//! study-engine.txt`, "24-nn").
//!
//! ## References
//! Bentley (1975), Communications of the ACM 18(9) (kd splits); Solanas, Martinez-Balleste
//! & Domingo-Ferrer (2006), Computer Communications 29(14) (partitioning the data before
//! microaggregation to scale it).

use crate::data::Instance;
use crate::error::{Error, Result};

mod split;
#[cfg(test)]
use split::block_count;
use split::project;
pub use split::{split, split_by, Cut, CutRule, Normal, Split};

/// What the border repair did.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct RepairStats {
    pub mode: RepairMode,
    /// Half-width of the pools' strip, in median group radii.
    pub slab: f64,
    pub cuts: usize,
    /// Cuts whose pool was re-solved with a lower SSE (the others were kept).
    pub improved: usize,
    /// Records pooled over all cuts.
    pub pooled_records: usize,
    pub sse_before: f64,
    pub sse_after: f64,
    pub seconds: f64,
    /// Stopped by an interrupt before every cut was tried (the cuts done are kept).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
}

/// A solver of a set of rows: returns groups of global row indices (each of >= k rows).
pub(crate) type SolveRows<'a> = dyn Fn(&[usize], &str) -> Result<Vec<Vec<usize>>> + Sync + 'a;

/// An improver of a set of groups: returns groups of the same rows (each of >= k rows).
pub(crate) type RefineGroups<'a> =
    dyn Fn(&[Vec<usize>], &str) -> Result<Vec<Vec<usize>>> + Sync + 'a;

/// What the border repair does with the groups pooled along a cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RepairMode {
    /// Improve the pooled groups with descent, starting from them.
    #[default]
    Descent,
    /// Solve the pooled records again with the whole pipeline (slower; different labels).
    Resolve,
    /// No repair: the blocks' groups as they are.
    None,
}

impl RepairMode {
    /// Half-width of the pooled slab, in median group radii: `DESCENT_SLAB` with
    /// `descent` (the measured trade-off of time and IL is in the study file); `resolve`
    /// keeps its one; `none` pools nothing (0.5, the record's figure before).
    pub fn slab(self) -> f64 {
        match self {
            RepairMode::Descent => DESCENT_SLAB,
            RepairMode::Resolve => 1.0,
            RepairMode::None => 0.5,
        }
    }
}

/// The descent repair's strip, in median group radii on either side of a cut (0.5 before
/// 24-defaults: `--block-slab 0.5`). With [`REPAIR_APPROX`] lists, at n = 10^6, d = 10,
/// k = 5, blocks of 10^5, valley cut: IL 0.26 % below unblocked MDAV (0.5 with exact lists:
/// 1.09 % above) for 54 % of the CPU of the repair before (`studies/
/// study-engine.txt`, "24-blocks2" a and "24-defaults").
pub(crate) const DESCENT_SLAB: f64 = 0.65;

/// The eps of the descent repair's (1 + eps)-approximate neighbour lists when neither
/// `--block-approx` nor the pipeline's descent stage gives one (0 = exact lists before
/// 24-defaults: `--block-approx 0`): the exact 10-NN lists in d = 10 cost about three
/// quarters of the repair for the same IL (+0.006 % relative; study-engine.txt,
/// "24-blocks2" a).
pub(crate) const REPAIR_APPROX: f64 = 1.0;

/// What `--block-slab` and `--block-approx` set beyond the repair's mode (`None`: the
/// mode's own).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RepairTuning {
    /// Half-width of the pooled strip in median group radii (default
    /// [`RepairMode::slab`]).
    pub slab: Option<f64>,
    /// The (1 + eps)-approximate neighbour lists of the descent repair (descent's
    /// `approx`; default: the pipeline's descent stage's when it gives one, else
    /// `REPAIR_APPROX`).
    pub approx: Option<f64>,
}

impl RepairTuning {
    /// A usage error naming the option when a value is out of range.
    pub fn check(&self) -> Result<()> {
        if let Some(w) = self.slab {
            if !(w > 0.0 && w.is_finite()) {
                return Err(Error::usage(format!(
                    "--block-slab {w}: must be a finite number > 0 (median group radii)"
                )));
            }
        }
        if let Some(e) = self.approx {
            if !(e >= 0.0 && e.is_finite()) {
                return Err(Error::usage(format!(
                    "--block-approx {e}: must be a finite number >= 0"
                )));
            }
        }
        Ok(())
    }

    /// The strip's half-width for `mode`.
    pub(crate) fn slab_for(&self, mode: RepairMode) -> f64 {
        self.slab.unwrap_or(mode.slab())
    }

    /// The repair's descent parameters: `params` (the pipeline's descent stage's, or
    /// empty) with `approx` set when given.
    pub(crate) fn descent_params(
        &self,
        mut params: serde_json::Map<String, serde_json::Value>,
    ) -> serde_json::Map<String, serde_json::Value> {
        if let Some(e) = self.approx {
            params.insert("approx".into(), e.into());
        }
        params
    }
}

/// Neighbours per record in a border pool's descent when the pipeline has no descent stage
/// (a descent stage's parameters, its default of 30 included, are used as they are): the pool's lists cost most of the repair
/// (d = 10: 98 % of it at 1e7); with 10 instead of 30 a blocked MDAV run at n = 1e6 keeps
/// 91 % of the repair's IL gain for 62 % of the CPU (`studies/
/// study-engine.txt`, "24-nn: cheaper repair pools").
pub(crate) const REPAIR_NEIGHBOURS: u64 = 10;

/// The descent refiner run on `groups` (global rows of `inst`, each of >= k) from where
/// they are, with descent's parameters `params` (defaults for the missing ones, except
/// `REPAIR_NEIGHBOURS` neighbours when `params` has none: empty `params` mean the
/// pipeline has no descent stage; and `REPAIR_APPROX` when `params` give no `approx`
/// or null, descent's size rule); returns the improved groups
/// (global rows). Deterministic: the seed derives from the rows' data.
pub fn descent_on_groups(
    inst: &Instance,
    groups: &[Vec<usize>],
    k: usize,
    params: &serde_json::Map<String, serde_json::Value>,
    unit: &str,
    interrupt: &std::sync::atomic::AtomicBool,
) -> Result<Vec<Vec<usize>>> {
    use rand::SeedableRng;
    let mut rows: Vec<usize> = groups.iter().flatten().copied().collect();
    rows.sort_unstable();
    let mut sub = crate::data::sub_instance(inst, &rows, unit);
    // Descent reads only the z-scores: the pool's raw copy (8 d bytes a record, a top
    // cut's pool holds millions at 1e7) is freed before the lists are built.
    sub.raw = Vec::new();
    let mut labels = vec![0; rows.len()];
    for (g, m) in groups.iter().enumerate() {
        for &i in m {
            labels[rows.binary_search(&i).expect("a pooled row")] = g;
        }
    }
    let start = crate::partition::Partition::from_labels(&sub, labels)?;
    let mut params = params.clone();
    params
        .entry("neighbours")
        .or_insert_with(|| REPAIR_NEIGHBOURS.into());
    // REPAIR_APPROX unless a value is given (not descent's size-based default, whose
    // exact lists below 250 000 records cost most of the repair in d = 10).
    if params.get("approx").is_none_or(serde_json::Value::is_null) {
        params.insert("approx".into(), REPAIR_APPROX.into());
    }
    let mut refiner = crate::registry::find("descent")?.make_refiner(&params)?;
    let seed = crate::rng::derive_seed(0, &[&sub.sha256, "border descent"]);
    let mut rng = crate::rng::Rng::seed_from_u64(seed);
    let out = crate::search::refine(refiner.as_mut(), &sub, k, start, &mut rng, None, interrupt)?;
    let p = &out.partition;
    Ok((0..p.slots())
        .map(|g| p.members(g))
        .filter(|m| !m.is_empty())
        .map(|m| m.iter().map(|&i| rows[i]).collect())
        .collect())
}

/// Repair the borders of `split`: `groups` holds the groups found per block (global rows,
/// every group inside one block); returns the repaired groups. `mode` says how a pool is
/// repaired: `refine` improves its groups, `solve` solves its rows. Once
/// `interrupt` is set (or a pool's solve is interrupted) it stops after the cuts done, with
/// their repairs kept: each cut leaves a valid partition.
///
/// Cuts of one height in the cut tree (a cut between two blocks has height 1, a cut above
/// them 2, ...) have disjoint block ranges, and a cut only reads the groups of its own
/// range, which only the cuts below it change: so the cuts of one height are repaired in
/// parallel, heights in increasing order. The groups come out as
/// `repair_in_order` gives them, byte for byte, whatever the thread count (each group
/// carries the place the one-by-one order would give it, and pools are formed in that
/// order).
///
/// The repair takes a pool slab of `slab` median group radii on either side of each cut
/// (the mode's own is [`RepairMode::slab`]; other values serve the studies of wider pools).
#[allow(clippy::too_many_arguments)]
pub fn repair_with_slab(
    inst: &Instance,
    split: &Split,
    groups: Vec<Vec<usize>>,
    mode: RepairMode,
    slab: f64,
    refine: &RefineGroups<'_>,
    solve: &SolveRows<'_>,
    interrupt: &std::sync::atomic::AtomicBool,
) -> Result<(Vec<Vec<usize>>, RepairStats)> {
    let job = RepairJob {
        inst,
        split,
        mode,
        slab,
        refine,
        solve,
    };
    repair_waves(&job, groups, interrupt, &waves_by_height(&split.cuts))
}

/// As [`repair_with_slab`] at the mode's slab, the cuts one after the other in bottom-up order (the reference of the
/// parallel repair, for tests and studies).
#[cfg(test)]
pub(crate) fn repair_in_order(
    inst: &Instance,
    split: &Split,
    groups: Vec<Vec<usize>>,
    mode: RepairMode,
    refine: &RefineGroups<'_>,
    solve: &SolveRows<'_>,
    interrupt: &std::sync::atomic::AtomicBool,
) -> Result<(Vec<Vec<usize>>, RepairStats)> {
    let waves: Vec<Vec<usize>> = (0..split.cuts.len()).map(|c| vec![c]).collect();
    let job = RepairJob {
        inst,
        split,
        mode,
        slab: mode.slab(),
        refine,
        solve,
    };
    repair_waves(&job, groups, interrupt, &waves)
}

/// The cuts grouped by height (1 + the largest height of the cuts inside the cut's block
/// range), lowest first, each wave in bottom-up order. O(c^2) for c cuts (c = blocks - 1).
fn waves_by_height(cuts: &[Cut]) -> Vec<Vec<usize>> {
    let inside = |a: &Cut, b: &Cut| {
        b.blocks.start <= a.blocks.start && a.blocks.end <= b.blocks.end && a.blocks != b.blocks
    };
    let mut height = vec![1usize; cuts.len()];
    // Bottom-up order: every cut inside another comes before it.
    for c in 0..cuts.len() {
        height[c] = 1
            + (0..c)
                .filter(|&e| inside(&cuts[e], &cuts[c]))
                .map(|e| height[e])
                .max()
                .unwrap_or(0);
    }
    let top = height.iter().copied().max().unwrap_or(0);
    (1..=top)
        .map(|h| (0..cuts.len()).filter(|&c| height[c] == h).collect())
        .collect()
}

/// The groups and their places in the one-by-one order: a block's group keeps its index,
/// a group made by cut c at position p of its result comes after every group made before
/// c, in that order (`(0, index)` or `(1 + c, p)`).
struct Repaired {
    groups: Vec<Vec<usize>>,
    place: Vec<(usize, usize)>,
    label: Vec<usize>,
}

/// What one cut proposes: the groups it pools (indices), and their replacement when that
/// lowers the SSE.
struct Proposal {
    pooled_groups: Vec<usize>,
    pooled_records: usize,
    fresh: Option<Vec<Vec<usize>>>,
}

/// What every cut's repair reads: the instance, its split, the repair mode with its slab
/// (in median group radii), and how a pool's groups are refined or its rows solved.
struct RepairJob<'a> {
    inst: &'a Instance,
    split: &'a Split,
    mode: RepairMode,
    slab: f64,
    refine: &'a RefineGroups<'a>,
    solve: &'a SolveRows<'a>,
}

/// The repair of [`repair_with_slab`] with the cuts taken in `waves` (each wave's cuts in
/// parallel, the waves in order).
fn repair_waves(
    job: &RepairJob<'_>,
    groups: Vec<Vec<usize>>,
    interrupt: &std::sync::atomic::AtomicBool,
    waves: &[Vec<usize>],
) -> Result<(Vec<Vec<usize>>, RepairStats)> {
    use rayon::prelude::*;
    use std::sync::atomic::Ordering;
    let (inst, split, mode, slab) = (job.inst, job.split, job.mode, job.slab);
    let t = std::time::Instant::now();
    let sse = |m: &[usize]| microagg_solvers::sse::group_sse(&inst.z, inst.d, m);
    let mut label = vec![usize::MAX; inst.n];
    for (g, m) in groups.iter().enumerate() {
        for &i in m {
            label[i] = g;
        }
    }
    let mut stats = RepairStats {
        mode,
        slab,
        cuts: split.cuts.len(),
        sse_before: groups.iter().map(|m| sse(m)).sum(),
        ..Default::default()
    };
    let mut state = Repaired {
        place: (0..groups.len()).map(|g| (0, g)).collect(),
        groups,
        label,
    };
    let waves = if mode == RepairMode::None {
        &[][..]
    } else {
        waves
    };
    'waves: for wave in waves {
        if interrupt.load(Ordering::Relaxed) {
            stats.interrupted = true;
            break;
        }
        let proposals: Vec<Result<Option<Proposal>>> = crate::parallel::install(|| {
            wave.par_iter()
                .map(|&c| {
                    if interrupt.load(Ordering::Relaxed) {
                        return Err(Error::Interrupted("border repair".into()));
                    }
                    propose(job, c, &state)
                })
                .collect()
        });
        for (&c, proposal) in wave.iter().zip(proposals) {
            let proposal = match proposal {
                Err(Error::Interrupted(_)) => {
                    stats.interrupted = true;
                    continue;
                }
                r => r?,
            };
            let Some(p) = proposal else { continue };
            stats.pooled_records += p.pooled_records;
            if let Some(fresh) = p.fresh {
                stats.improved += 1;
                for &g in &p.pooled_groups {
                    state.groups[g].clear();
                }
                for (pos, m) in fresh.into_iter().enumerate() {
                    for &i in &m {
                        state.label[i] = state.groups.len();
                    }
                    state.groups.push(m);
                    state.place.push((1 + c, pos));
                }
            }
        }
        if stats.interrupted {
            break 'waves;
        }
    }
    let Repaired {
        groups, mut place, ..
    } = state;
    let mut order: Vec<usize> = (0..groups.len()).collect();
    order.sort_unstable_by_key(|&g| place[g]);
    place.clear();
    let mut groups: Vec<Option<Vec<usize>>> = groups.into_iter().map(Some).collect();
    let groups: Vec<Vec<usize>> = order
        .into_iter()
        .filter_map(|g| groups[g].take())
        .filter(|m| !m.is_empty())
        .collect();
    stats.sse_after = groups.iter().map(|m| sse(m)).sum();
    stats.seconds = t.elapsed().as_secs_f64();
    Ok((groups, stats))
}

/// Cut `c`'s pool (the node's groups, in the one-by-one order, whose centroid lies within
/// the slab) and its repair; `None` when fewer than two groups are pooled. Reads only the
/// groups of the cut's blocks.
fn propose(job: &RepairJob<'_>, c: usize, state: &Repaired) -> Result<Option<Proposal>> {
    let (inst, split) = (job.inst, job.split);
    let d = inst.d;
    let cut = &split.cuts[c];
    let sse = |m: &[usize]| microagg_solvers::sse::group_sse(&inst.z, d, m);
    let groups = &state.groups;
    // The node's groups (each lies inside the node: the cuts below were repaired first).
    let mut node_groups: Vec<usize> = cut
        .blocks
        .clone()
        .flat_map(|b| split.blocks[b].iter().map(|&i| state.label[i]))
        .collect();
    node_groups.sort_unstable_by_key(|&g| state.place[g]);
    node_groups.dedup();
    let stats_of = |g: usize| {
        let m = &groups[g];
        let along = |i: usize| project(inst, i, &cut.normal);
        let centre = m.iter().map(|&i| along(i)).sum::<f64>() / m.len() as f64;
        (centre - cut.value, (sse(m) / m.len() as f64).sqrt())
    };
    let per: Vec<(f64, f64)> = node_groups.iter().map(|&g| stats_of(g)).collect();
    let mut radii: Vec<f64> = per.iter().map(|p| p.1).collect();
    radii.sort_by(f64::total_cmp);
    let width = radii[radii.len() / 2] * job.slab;
    let pool_groups: Vec<usize> = node_groups
        .iter()
        .zip(&per)
        .filter(|(_, (centre, _))| centre.abs() <= width)
        .map(|(&g, _)| g)
        .collect();
    if pool_groups.len() < 2 {
        return Ok(None);
    }
    let mut pool: Vec<usize> = pool_groups
        .iter()
        .flat_map(|&g| groups[g].clone())
        .collect();
    pool.sort_unstable();
    let before: f64 = pool_groups.iter().map(|&g| sse(&groups[g])).sum();
    let name = format!("border {c}");
    let fresh = match job.mode {
        RepairMode::Resolve => (job.solve)(&pool, &name)?,
        _ => {
            let members: Vec<Vec<usize>> = pool_groups.iter().map(|&g| groups[g].clone()).collect();
            (job.refine)(&members, &name)?
        }
    };
    let after: f64 = fresh.iter().map(|m| sse(m)).sum();
    Ok(Some(Proposal {
        pooled_records: pool.len(),
        pooled_groups: pool_groups,
        fresh: (after < before).then_some(fresh),
    }))
}

#[cfg(test)]
mod tests;
