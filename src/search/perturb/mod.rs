//! # Perturbations
//!
//! A [`Perturb`] changes the partition around a random record so that a descent can leave
//! a local optimum; every elementary change goes through the [`Workspace`]'s move log, so
//! the search can undo it, and the records to look at again go into the descent's queue.
//! ILS composes a weighted list of them ([`Weighted`]) with a descent and an acceptance
//! rule; [`builtin`] registers the ones here (a user's crate adds its own to the
//! [`Registry`](crate::registry::Registry)).
//!
//! - `pool_resplit::PoolResplit`: pool nearby groups and re-split them into one group
//!   fewer, as many or one more;
//! - `dissolve_distill::DissolveDistill`: dissolve a group or distill a new one.
//!
//! ## Complexity
//! See each implementation.
//!
//! ## References
//! - Lourenco, H. R., Martin, O. C. and Stutzle, T. (2003). Iterated local search. In
//!   Handbook of Metaheuristics, Kluwer, 321-353.

pub(crate) mod dissolve_distill;
pub(crate) mod pool_resplit;

use super::kit::PerturbInfo;
use crate::method::{Ctx, Stats};
use crate::partition::Partition;
use crate::rng::Rng;
use crate::search::local_search::LocalSearch;
use crate::search::moves::MoveLog;
use crate::search::neighbours::Neighbours;
use rand::Rng as _;

/// What a perturbation works with: the neighbour lists, the descent whose queue receives
/// the records to examine again, the move log (for undo), spare group slots, and the list
/// of groups the perturbation touched (filled by it).
pub struct Workspace<'a> {
    pub nb: &'a Neighbours,
    pub ls: &'a mut LocalSearch,
    pub log: &'a mut MoveLog,
    pub spare: &'a mut Vec<usize>,
    pub groups: &'a mut Vec<usize>,
}

/// Changes the partition around record `r`.
///
/// ```
/// use microagg::method::Ctx;
/// use microagg::partition::Partition;
/// use microagg::search::perturb::{Perturb, Workspace};
///
/// /// Swaps the record with its nearest neighbour in another group.
/// struct SwapNearest;
/// impl Perturb for SwapNearest {
///     fn name(&self) -> &'static str { "swap_nearest" }
///     fn perturb(&mut self, p: &mut Partition, ctx: &mut Ctx, r: usize, ws: &mut Workspace) -> bool {
///         let Some(&j) = ws.nb.of(r).iter().find(|&&j| p.group_of(j as usize) != p.group_of(r))
///         else { return false };
///         let (a, b) = (p.group_of(r), p.group_of(j as usize));
///         ws.log.swap(p, ctx.inst, r, j as usize);
///         ws.groups.clear();
///         ws.groups.extend([a, b]);
///         ws.ls.push(r);
///         ws.ls.push(j as usize);
///         true
///     }
/// }
/// # let _ = SwapNearest.name();
/// ```
pub trait Perturb: Send {
    fn name(&self) -> &'static str;
    /// Perturb around `r`; false when nothing was changed.
    fn perturb(&mut self, p: &mut Partition, ctx: &mut Ctx, r: usize, ws: &mut Workspace) -> bool;
    /// Add the perturbation's counters to `stats`.
    fn add_stats(&self, _stats: &mut Stats) {}
}

/// The perturbations of this folder, as registry parts.
pub fn builtin() -> Vec<PerturbInfo> {
    vec![
        PerturbInfo::with_params(
            "pool_resplit",
            "pool the groups around a random record and re-split them into one group fewer, as many or one more",
            |p: pool_resplit::PoolResplitParams| Box::new(pool_resplit::PoolResplit::from_params(p)),
        ),
        PerturbInfo::with_params(
            "dissolve_distill",
            "dissolve the random record's group into its nearest groups, or distill a new group around it",
            |p: dissolve_distill::DissolveDistillParams| {
                Box::new(dissolve_distill::DissolveDistill {
                    params: p,
                    ..Default::default()
                })
            },
        ),
    ]
}

/// A choice among entries of given weights with one Bernoulli draw per entry, from the
/// last entry down: entry i is taken with probability w_i / (w_0 + .. + w_i), the first
/// without a draw. For two entries of weights (1 - r, r) that is one draw
/// `random_bool(r)` (the sum is 1 exactly in floating point for r in [0, 1]), so ILS's
/// flat `dissolve_rate` gives the same random stream as a list.
///
/// ```
/// use microagg::search::perturb::Weighted;
/// use rand::SeedableRng;
/// let w = Weighted::new(&[3.0, 1.0]);
/// let mut rng = microagg::rng::Rng::seed_from_u64(1);
/// let ones = (0..4000).filter(|_| w.choose(&mut rng) == 1).count();
/// assert!((800..1200).contains(&ones), "{ones}");
/// ```
#[derive(Debug, Clone)]
pub struct Weighted {
    /// (w_i, w_0 + .. + w_i) per entry.
    entries: Vec<(f64, f64)>,
}

impl Weighted {
    /// Weights finite, >= 0, with a positive sum (checked with the parameters).
    pub fn new(weights: &[f64]) -> Self {
        let mut sum = 0.0;
        let entries = weights
            .iter()
            .map(|&w| {
                sum += w;
                (w, sum)
            })
            .collect();
        Weighted { entries }
    }

    /// The index of the chosen entry.
    pub fn choose(&self, rng: &mut Rng) -> usize {
        for (i, &(w, prefix)) in self.entries.iter().enumerate().skip(1).rev() {
            // A zero prefix is never reached: the entry above it is then taken surely.
            if prefix > 0.0 && rng.random_bool((w / prefix).min(1.0)) {
                return i;
            }
        }
        0
    }
}
