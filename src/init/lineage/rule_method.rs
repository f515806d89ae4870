//! # A lineage method that is one set of engine rules
//!
//! MDAV, MDAV-generic, MDAV-1, MDAV Algorithm-1, MDAV-single-group, MDAV-NC, MD, CBFS and
//! CBFS-NN differ only in their [`Rules`]: each module keeps its rules, its description and
//! its registry entry, and registers a [`RuleMethod`], the one initializer that runs the
//! engine ([`engine::groups`]) with them and checks the partition ([`crate::init::finish`]).
//! On data with missing cells it runs the masked engine
//! ([`crate::missing::engine::masked_groups`]) with the same rules.
//!
//! ## Complexity
//! The engine's with the method's rules (see [`crate::init::lineage::engine`]).
//!
//! ## References
//! See each method's module.

use crate::error::Result;
use crate::init::lineage::engine::{self, Rules};
use crate::method::{BuildCtx, Initializer, Problem};
use crate::partition::Partition;

/// The initializer of a registered method that is one set of engine rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleMethod {
    /// The registered name (also the name in its errors).
    pub name: &'static str,
    pub rules: Rules,
}

impl Initializer for RuleMethod {
    fn name(&self) -> &str {
        self.name
    }

    fn build(&self, problem: &Problem, ctx: &mut BuildCtx) -> Result<Partition> {
        let (inst, k) = (problem.inst(), problem.k());
        let groups = if inst.has_missing() {
            crate::missing::engine::masked_groups(self.name, self.rules, inst, k, ctx.stop())?
        } else {
            engine::groups(self.name, inst, k, self.rules, ctx.stop())?
        };
        crate::init::finish(self.name, inst, k, &groups)
    }
}
