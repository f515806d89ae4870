//! # Perturbations
//!
//! A [`Perturb`] changes the partition around a random record so that a descent can leave
//! a local optimum; every elementary change goes through the [`Workspace`]'s move log, so
//! the search can undo it, and the records to look at again go into the descent's queue.
//! ILS composes one with a descent and an acceptance rule.
//!
//! - [`pool_resplit::PoolResplit`]: pool nearby groups and re-split them into one group
//!   fewer, as many or one more;
//! - [`dissolve_distill::DissolveDistill`]: dissolve a group or distill a new one.
//!
//! ## Complexity
//! See each implementation.
//!
//! ## References
//! - Lourenco, H. R., Martin, O. C. and Stutzle, T. (2003). Iterated local search. In
//!   Handbook of Metaheuristics, Kluwer, 321-353.

pub mod dissolve_distill;
pub mod pool_resplit;

use crate::method::{Ctx, Stats};
use crate::partition::Partition;
use crate::search::local_search::LocalSearch;
use crate::search::moves::MoveLog;
use crate::search::neighbours::Neighbours;

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
