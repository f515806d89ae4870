//! # Initializers
//!
//! Constructive heuristics that build a feasible partition from scratch. Each lives in its
//! own module with a `method()` registry entry; [`pool`] holds the shared working set of
//! unassigned records.

pub mod buckets;
pub mod cbfs;
pub mod cbfs_nn;
pub mod dba;
pub mod dbfs;
pub mod diameter;
pub mod engine;
pub mod fcm;
pub mod filter_scan;
pub mod ga;
pub mod growth;
pub mod gsms;
pub mod kdtree;
pub mod kward;
pub mod masked;
pub mod md;
pub mod mdav;
pub mod mdav1;
pub mod mdav2k;
pub mod mdav_a1;
pub mod mdav_generic;
pub mod mdav_nc;
pub mod mdav_single;
pub mod mst;
pub mod muapprox;
pub mod pairwise_systematic;
pub mod pcl;
pub mod pool;
pub mod ps_meansort;
pub mod ps_multidsort;
pub mod rimhm;
pub mod split_large;
pub mod tfrp;
pub mod tfrp_nc;
pub mod univariate;
pub mod vmdav;

// Orders with optimal segmentation, projections and random partitions (issue 5a).
pub mod mhm_cbfs;
pub mod mhm_md;
pub mod mhm_mdav;
pub mod mhm_npn;
pub mod mhm_pc1;
pub mod mhm_var;
pub mod mhm_zsum;
pub mod orders;
pub mod proj_pc1;
pub mod proj_var;
pub mod proj_zsum;
pub mod random;
pub mod remaining;
pub mod semirandom;
pub mod spatial;

use crate::data::Instance;
use crate::error::{Error, Result};
use crate::partition::Partition;

/// Turn groups of record ids into a partition, checking that every record is placed once
/// and every group holds at least k records (a violated invariant is a bug, reported).
pub fn finish(method: &str, inst: &Instance, k: usize, groups: &[Vec<usize>]) -> Result<Partition> {
    let p = Partition::from_groups(inst, groups).map_err(|e| Error::algorithm(method, e))?;
    if !p.is_feasible(k) {
        return Err(Error::Algorithm {
            method: method.into(),
            message: format!("built a group smaller than k = {k}"),
        });
    }
    Ok(p)
}
