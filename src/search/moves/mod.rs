//! # Moves
//!
//! The operators of local search over partitions, each in its own file and each following
//! one contract (PyVRP's): `evaluate` returns the exact change in SSE (or `None` when the
//! move is not allowed: it would break the size-k constraint or do nothing), `apply` makes
//! it, `NAME` names it, and [`Counters`] count evaluations and applications.
//!
//! - [`shift`]: one record to another group; [`swap`]: two records exchange groups.
//! - [`dissolve`]: empty a group into the nearest other groups.
//! - [`distill`]: form a new group from records of groups larger than k.
//! - [`split`]: cut a group of 2k or more records into groups of k..2k-1 (CBFS-style).
//! - [`merge`]: join two groups.
//!
//! Every `apply` records elementary changes in a [`MoveLog`], so a sequence of moves can be
//! undone exactly (ILS rejects a perturbation plus descent this way). Delta formulas:
//! `proofs/P02-move-deltas.md` (shift, swap) and `proofs/P30-group-move-deltas.md` (the
//! others); `tests/search/moves_props.rs` checks them against recomputation.
//!
//! ## Complexity
//! Shift and swap O(d); dissolve O(s G' d) for a group of s records and G' candidate groups;
//! distill O(k d); split O(s^2 d / k); merge O(s d).
//!
//! ## References
//! - Wouda, N. A., Lan, L. and Kool, W. (2024). PyVRP: a high-performance VRP solver
//!   package. INFORMS Journal on Computing 36(4), 943-955 (operator contract).
//! - Laszlo, M. and Mukherjee, S. (2015). Iterated local search for microaggregation.
//!   Journal of Systems and Software 100, 15-26 (shift, swap, dissolve, distill).

pub mod dissolve;
pub mod distill;
pub mod merge;
pub mod shift;
pub mod split;
pub mod swap;

use crate::data::Instance;
use crate::partition::Partition;

/// What every operator shares, whatever the arguments of its `evaluate` and `apply`
/// (which differ by kind of move and stay inherent, so that each is called without dynamic
/// dispatch in the descent's inner loop): a name (the module's `NAME`, given only here)
/// and its counters, which reach the run records through [`add_counters`].
///
/// ```
/// use microagg::search::moves::{add_counters, shift::Shift, Counted};
/// let shift = Shift::default();
/// let mut stats = microagg::method::Stats::default();
/// add_counters(&mut stats, &shift);
/// assert_eq!(shift.name(), "shift");
/// assert_eq!(stats.get("shift_evaluations"), Some(0));
/// ```
pub trait Counted {
    fn name(&self) -> &'static str;
    fn counters(&self) -> Counters;
}

/// Add `op`'s counters to `stats` as `NAME_evaluations` and `NAME_applications`.
pub fn add_counters(stats: &mut crate::method::Stats, op: &dyn Counted) {
    let c = op.counters();
    stats.operator(op.name(), c.evaluations, c.applications);
}

macro_rules! operator {
    ($t:ty, $name:expr) => {
        impl Counted for $t {
            fn name(&self) -> &'static str {
                $name
            }
            fn counters(&self) -> Counters {
                self.counters
            }
        }
    };
}
operator!(shift::Shift, shift::NAME);
operator!(swap::Swap, swap::NAME);
operator!(dissolve::Dissolve, dissolve::NAME);
operator!(distill::Distill, distill::NAME);
operator!(split::Split, split::NAME);
operator!(merge::Merge, merge::NAME);

/// Name of the descent's 3-cycle (two chained swaps, [`Cycle3`](crate::search::operators::cycle3::Cycle3)).
pub(crate) const CYCLE: &str = "cycle";

/// How often an operator was evaluated and applied.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counters {
    pub evaluations: u64,
    pub applications: u64,
}

/// One move, as data: what the descent proposes and applies
/// ([`LocalSearch::best_move`](crate::search::local_search::LocalSearch::best_move),
/// [`Cycle3::best_cycle`](crate::search::operators::cycle3::Cycle3::best_cycle),
/// [`apply_move`](crate::search::local_search::LocalSearch::apply_move)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    Shift {
        record: usize,
        to: usize,
    },
    Swap {
        a: usize,
        b: usize,
    },
    /// `a` into `b`'s group, `b` into `c`'s, `c` into `a`'s (two swaps: a-b, then b-c).
    Cycle {
        a: usize,
        b: usize,
        c: usize,
    },
    Dissolve {
        group: usize,
    },
    Distill {
        seed: usize,
    },
    Split {
        group: usize,
    },
    Merge {
        into: usize,
        from: usize,
    },
    /// A move of an operator registered from outside the crate: its own meaning of a
    /// record `a`, a partner record `b` and a group `to`; the descent queues the groups of
    /// `a` and `b` and `to` again after applying it.
    Other {
        a: usize,
        b: usize,
        to: usize,
    },
}

impl Move {
    pub fn name(&self) -> &'static str {
        match self {
            Move::Shift { .. } => shift::NAME,
            Move::Swap { .. } => swap::NAME,
            Move::Cycle { .. } => CYCLE,
            Move::Dissolve { .. } => dissolve::NAME,
            Move::Distill { .. } => distill::NAME,
            Move::Split { .. } => split::NAME,
            Move::Merge { .. } => merge::NAME,
            Move::Other { .. } => "other",
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Entry {
    Shift { record: usize, from: usize },
    Swap { a: usize, b: usize },
}

/// Elementary changes since the last [`MoveLog::clear`], for exact undo.
#[derive(Debug, Clone, Default)]
pub struct MoveLog {
    entries: Vec<Entry>,
}

impl MoveLog {
    pub fn new() -> Self {
        Self::default()
    }

    /// Move `i` to `to` and log it.
    pub fn shift(&mut self, p: &mut Partition, inst: &Instance, i: usize, to: usize) {
        let from = p.group_of(i);
        if from != to {
            p.apply_shift(inst, i, to);
            self.entries.push(Entry::Shift { record: i, from });
        }
    }

    /// Swap `a` and `b` and log it.
    pub fn swap(&mut self, p: &mut Partition, inst: &Instance, a: usize, b: usize) {
        if p.group_of(a) != p.group_of(b) {
            p.apply_swap(inst, a, b);
            self.entries.push(Entry::Swap { a, b });
        }
    }

    /// Number of logged elementary changes.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Records moved by the logged changes (with repeats), oldest first.
    pub(crate) fn moved_records(&self) -> impl Iterator<Item = usize> + '_ {
        self.entries
            .iter()
            .flat_map(|e| match *e {
                Entry::Shift { record, .. } => [Some(record), None],
                Entry::Swap { a, b } => [Some(a), Some(b)],
            })
            .flatten()
    }

    /// Forget the logged changes (they become permanent).
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Revert every logged change, newest first, and clear the log.
    pub fn undo(&mut self, p: &mut Partition, inst: &Instance) {
        while let Some(e) = self.entries.pop() {
            match e {
                Entry::Shift { record, from } => p.apply_shift(inst, record, from),
                Entry::Swap { a, b } => p.apply_swap(inst, a, b),
            }
        }
    }
}

/// A slot for a new group: the first empty slot in `spare`, or a new one.
pub fn fresh_slot(p: &mut Partition, spare: &mut Vec<usize>) -> usize {
    while let Some(s) = spare.pop() {
        if s < p.slots() && p.size(s) == 0 {
            return s;
        }
    }
    p.add_group()
}

/// Change in SSE when the set `added` (size m, centroid s, SSE `added_sse`) joins a group of
/// size b, centroid c and SSE `group_sse`: `added_sse + b m / (b + m) ||c - s||^2`
/// (`proofs/P30-group-move-deltas.md`).
pub(crate) fn union_increase(b: usize, c: &[f64], m: usize, s: &[f64], added_sse: f64) -> f64 {
    if b == 0 {
        return added_sse;
    }
    let (b, m) = (b as f64, m as f64);
    added_sse + b * m / (b + m) * crate::partition::sq_dist(c, s)
}
