//! # Parts of a split run
//!
//! [`Part`] (`I/N`, from `--part`/`--shard`, `all` or Slurm's array variables through
//! [`slurm_part`]) and [`assign_parts`], which deals units to parts largest first, each to
//! the least loaded part.
//!
//! ## Complexity
//! [`assign_parts`]: O(u log u + u N) for u units and N parts.
//!
//! ## References
//! SchedMD, Slurm job arrays (`sbatch --array`).

use crate::error::{Error, Result};
use crate::output;
use serde::{Deserialize, Serialize};

/// Part `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Part {
    pub index: usize,
    pub count: usize,
}

impl Part {
    /// Parse `I/N` (1 <= I <= N); `option` names the flag in errors.
    pub fn parse(s: &str, option: &str) -> Result<Part> {
        let bad = || Error::usage(format!("{option} '{s}': expected I/N with 1 <= I <= N"));
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Part { index, count })
    }

    /// The part of a `--part`/`--shard` argument: `I/N`; `all` (none); `slurm` (from the
    /// environment, which must be set); absent: from the environment when it is set.
    pub(crate) fn from_arg(arg: Option<&str>, option: &str) -> Result<Option<Part>> {
        match arg.map(str::trim) {
            Some("all") => Ok(None),
            Some("slurm") => slurm_part()?.map(Some).ok_or_else(|| {
                Error::usage(format!(
                    "{option} slurm: SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT are not set"
                ))
            }),
            Some(s) => Part::parse(s, option).map(Some),
            None => {
                let p = slurm_part()?;
                if let Some(p) = p {
                    output::note(&format!(
                        "{option} {}/{} from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT \
                         ({option} all runs everything)",
                        p.index, p.count
                    ));
                }
                Ok(p)
            }
        }
    }
}

/// The part of a Slurm array task: task SLURM_ARRAY_TASK_ID of an array of
/// SLURM_ARRAY_TASK_COUNT tasks numbered from SLURM_ARRAY_TASK_MIN (default 0) in steps of
/// SLURM_ARRAY_TASK_STEP (default 1). `None` when the ID or COUNT is not set.
pub(crate) fn slurm_part() -> Result<Option<Part>> {
    let var =
        |name: &str| -> Result<Option<usize>> {
            match std::env::var(name) {
                Err(_) => Ok(None),
                Ok(v) => v.trim().parse().map(Some).map_err(|_| {
                    Error::usage(format!("{name}='{v}' is not a non-negative integer"))
                }),
            }
        };
    let (Some(id), Some(count)) = (var("SLURM_ARRAY_TASK_ID")?, var("SLURM_ARRAY_TASK_COUNT")?)
    else {
        return Ok(None);
    };
    let min = var("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
    let step = var("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
    let offset = id.checked_sub(min).filter(|o| o % step == 0);
    match offset.map(|o| o / step + 1) {
        Some(index) if count > 0 && index <= count => Ok(Some(Part { index, count })),
        _ => Err(Error::usage(format!(
            "SLURM_ARRAY_TASK_ID={id} is not a task of an array of SLURM_ARRAY_TASK_COUNT={count} \
             tasks from SLURM_ARRAY_TASK_MIN={min} in steps of {step}"
        ))),
    }
}

/// Deal units of the given sizes to `count` parts: largest first (lowest unit on ties),
/// each to the least loaded part (lowest part on ties). Returns each unit's part (0-based).
pub(crate) fn assign_parts(sizes: &[usize], count: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by(|&a, &b| sizes[b].cmp(&sizes[a]).then(a.cmp(&b)));
    let mut load = vec![0usize; count];
    let mut part = vec![0; sizes.len()];
    for u in order {
        let p = (0..count)
            .min_by_key(|&p| (load[p], p))
            .expect("count >= 1");
        load[p] += sizes[u];
        part[u] = p;
    }
    part
}
