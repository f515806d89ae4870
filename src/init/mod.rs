//! # Initializers
//!
//! Constructive heuristics that build a feasible partition from scratch. Each lives in its
//! own module with a `method()` registry entry; the spatial queries they share are in
//! [`crate::geometry`].

pub mod clustering;
pub mod lineage;
pub mod mhm;
pub(crate) mod randomised;
pub mod univariate;

use crate::data::Instance;
use crate::error::{Error, Result};
use crate::method::{BuildCtx, Initializer, Problem};
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

/// The initializer of a registered method that is a function of the data and k alone (no
/// parameters, no randomness, no stop between groups): it builds the groups and checks
/// them ([`finish`]).
#[derive(Clone, Copy, Debug)]
pub struct GroupsMethod {
    /// The registered name (also the name in its errors).
    pub name: &'static str,
    pub groups: fn(&Instance, usize) -> Vec<Vec<usize>>,
}

impl Initializer for GroupsMethod {
    fn name(&self) -> &str {
        self.name
    }

    fn build(&self, problem: &Problem, _ctx: &mut BuildCtx) -> Result<Partition> {
        let (inst, k) = (problem.inst(), problem.k());
        let groups = (self.groups)(inst, k);
        finish(self.name, inst, k, &groups)
    }
}
