//! # A lineage method that is one set of engine rules
//!
//! MDAV, MDAV-generic, MDAV-1, MDAV Algorithm-1, MDAV-single-group, MDAV-NC, MD, CBFS and
//! CBFS-NN differ only in their [`Rules`]: each module keeps its rules, its description and
//! its registry entry, and registers a [`RuleMethod`], the one initializer that runs the
//! engine ([`engine::groups`]) with them and checks the partition ([`crate::init::finish`]).
//!
//! On data with missing cells (the methods whose registry entries declare
//! `runs_on_missing_cells`) the engine runs the same rules on a copy of the z-scores with
//! NaN at the missing cells, behind the masked scan (`crate::geometry::masked_scan`,
//! [`Backend::Masked`]); the engine's centroid and leftover helpers read NaN as "not
//! observed". Distances then run over the columns both points observe, rescaled by
//! d / d_ab, and centroids are per-column means over the observed cells
//! (`crate::missing`). On complete data the groups are those of the unmasked method, bit
//! for bit (`tests/release/missing.rs`). A diameter selection (`md` and the MD-based
//! orders) is refused there: the exact diameter search ([`crate::geometry::diameter`])
//! prunes by the triangle inequality, which the masked distance breaks
//! (`docs/missing-values.md`).
//!
//! ## Complexity
//! The engine's with the method's rules (see [`crate::init::lineage::engine`]). With missing
//! cells O(n^2 d / k) for the pair and single-seed selections with NN growth (a scan per
//! query, no kd-tree), O(n^2 d) with NC growth; O(n d) memory for the NaN-marked copy.
//!
//! ## References
//! See each method's module; Gower (1971), Biometrics 27(4) (the masked distance).

use crate::data::Instance;
use crate::error::{Error, Result};
use crate::geometry::spatial::Backend;
use crate::init::lineage::engine::{self, Rules, Scope, Selection};
use crate::method::{BuildCtx, Initializer, Problem, StopRule};
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
            self.masked_groups(inst, k, ctx.stop())?
        } else {
            engine::groups(self.name, inst, k, self.rules, ctx.stop())?
        };
        crate::init::finish(self.name, inst, k, &groups)
    }
}

impl RuleMethod {
    /// The groups of the masked engine on `inst` (with or without missing cells), in
    /// creation order; [`Error::Interrupted`] when `stop` fires between groups (Ctrl-C or the
    /// deadline). The caller checks the sizes.
    pub fn masked_groups(
        &self,
        inst: &Instance,
        k: usize,
        stop: StopRule,
    ) -> Result<Vec<Vec<usize>>> {
        if self.rules.selection == Selection::DiameterPair {
            return Err(Error::usage(format!(
                "'{}' has no masked version: its diameter search needs the triangle \
                 inequality, which the masked distance breaks (docs/missing-values.md)",
                self.name
            )));
        }
        let marked = crate::geometry::masked_scan::nan_marked(inst);
        let scope = Scope {
            ids: None,
            backend: Backend::Masked,
            stop,
        };
        engine::groups_in(self.name, &marked, k, self.rules, scope)
    }
}
