//! # The MDAV-lineage methods on data with missing cells
//!
//! The lineage engine ([`crate::init::lineage::engine`]) runs each method's own [`Rules`] on a copy
//! of the z-scores with NaN at the missing cells, behind the masked scan
//! ([`crate::init::lineage::masked::MaskedScan`], [`Backend::Masked`]); the engine's centroid and
//! leftover helpers read NaN as "not observed". Distances therefore run over the columns
//! both points observe, rescaled by d / d_ab, and centroids are per-column means over the
//! observed cells ([`super`] module doc). On complete data the groups are those of the
//! unmasked method, bit for bit (`tests/release/missing.rs`).
//!
//! Which methods: those whose rules the engine fully carries ([`ENGINE_METHODS`]); `md`
//! and the MD-based orders need the exact diameter search ([`crate::geometry::diameter`]),
//! whose pruning rests on the triangle inequality, which the masked distance breaks, so
//! they are refused with the other methods (`docs/missing-values.md`).
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
use crate::init::lineage::engine::{self, Rules, Scope};
use crate::init::lineage::{cbfs, cbfs_nn, mdav1, mdav_a1, mdav_generic, mdav_nc, mdav_single};
use crate::method::StopRule;
use std::sync::atomic::AtomicBool;

/// The initializers that run on data with missing cells, with their engine rules (the
/// same constants their unmasked `build` uses).
pub const ENGINE_METHODS: &[(&str, Rules)] = &[
    ("mdav", Rules::MDAV),
    ("mdav-generic", mdav_generic::RULES),
    ("mdav1", mdav1::RULES),
    ("mdav-a1", mdav_a1::RULES),
    ("mdav-single", mdav_single::RULES),
    ("mdav-nc", mdav_nc::RULES),
    ("cbfs", cbfs::RULES),
    ("cbfs-nn", cbfs_nn::RULES),
];

/// The rules of `method` when it runs on data with holes.
pub(crate) fn rules_of(method: &str) -> Option<Rules> {
    ENGINE_METHODS
        .iter()
        .find(|(name, _)| *name == method)
        .map(|(_, r)| *r)
}

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

/// The groups of `method` (one of [`ENGINE_METHODS`]) on `inst` with missing cells, in
/// creation order; [`Error::Interrupted`] when `interrupt` is set between groups. Every
/// group has at least k records (the engine's frame; checked).
pub fn masked_groups(
    method: &str,
    inst: &Instance,
    k: usize,
    interrupt: &AtomicBool,
) -> Result<Vec<Vec<usize>>> {
    let rules = rules_of(method).ok_or_else(|| {
        Error::usage(format!(
            "'{method}' has no masked version (docs/missing-values.md)"
        ))
    })?;
    let marked = nan_marked(inst);
    let scope = Scope {
        ids: None,
        backend: Backend::Masked,
        stop: StopRule::new(interrupt, None),
    };
    let groups = engine::groups_in(method, &marked, k, rules, scope)?;
    if let Some(g) = groups.iter().find(|g| g.len() < k) {
        return Err(Error::algorithm(
            method,
            format!("built a group of {} < k = {k} records", g.len()),
        ));
    }
    Ok(groups)
}
