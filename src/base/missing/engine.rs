//! # The MDAV-lineage methods on data with missing cells
//!
//! The lineage engine ([`crate::init::lineage::engine`]) runs each method's own [`Rules`] on a copy
//! of the z-scores with NaN at the missing cells, behind the masked scan
//! (`crate::geometry::masked_scan::MaskedScan`, [`Backend::Masked`]); the engine's centroid and
//! leftover helpers read NaN as "not observed". Distances therefore run over the columns
//! both points observe, rescaled by d / d_ab, and centroids are per-column means over the
//! observed cells ([`super`] module doc). On complete data the groups are those of the
//! unmasked method, bit for bit (`tests/release/missing.rs`).
//!
//! Which methods: the rule methods ([`crate::init::lineage::rule_method::RuleMethod`]) whose
//! registry entries declare it (`runs_on_missing_cells`), which switch to [`masked_groups`]
//! when the instance has missing cells; `md` and the MD-based orders need the exact
//! diameter search ([`crate::geometry::diameter`]), whose pruning rests on the triangle
//! inequality, which the masked distance breaks, so they are refused with the other methods
//! (`docs/missing-values.md`).
//!
//! ## Complexity
//! O(n^2 d / k) for the pair and single-seed selections with NN growth (a scan per query,
//! no kd-tree), O(n^2 d) with NC growth; O(n d) memory for the NaN-marked copy.
//!
//! ## References
//! Domingo-Ferrer & Torra (2005), DMKD 11(2) (MDAV, MDAV-generic); Chettri & Borah (2012),
//! CS & IT 04 (MDAV-1, MDAV-single, Algorithm-1); Laszlo & Mukherjee (2005), IEEE TKDE
//! 17(7) (CBFS); Khomnotai et al. (2018), Symmetry 10(7):262 (NN/NC growth); Gower (1971).

use crate::data::Instance;
use crate::error::{Error, Result};
use crate::geometry::spatial::Backend;
use crate::init::lineage::engine::{self, Rules, Scope, Selection};
use crate::method::StopRule;

/// The z-scores with NaN at every missing cell (the engine's masked representation).
pub(crate) fn nan_marked(inst: &Instance) -> Instance {
    let mut marked = inst.clone();
    for (z, raw) in marked.z.iter_mut().zip(&inst.raw) {
        if raw.is_nan() {
            *z = f64::NAN;
        }
    }
    marked
}

/// The groups of the lineage method `method` (its engine `rules`) on `inst` with missing
/// cells, in creation order; [`Error::Interrupted`] when `stop` fires between groups (Ctrl-C
/// or the deadline). A diameter selection is refused (its search needs the triangle
/// inequality). The caller checks the sizes ([`crate::init::finish`]).
pub fn masked_groups(
    method: &str,
    rules: Rules,
    inst: &Instance,
    k: usize,
    stop: StopRule,
) -> Result<Vec<Vec<usize>>> {
    if rules.selection == Selection::DiameterPair {
        return Err(Error::usage(format!(
            "'{method}' has no masked version: its diameter search needs the triangle \
             inequality, which the masked distance breaks (docs/missing-values.md)"
        )));
    }
    let marked = nan_marked(inst);
    let scope = Scope {
        ids: None,
        backend: Backend::Masked,
        stop,
    };
    engine::groups_in(method, &marked, k, rules, scope)
}
