//! # The MDAV-lineage engine (selection rule x growth rule x frame x leftover rule)
//!
//! MDAV, MDAV-generic, MDAV-1, MDAV-single-group, MDAV Algorithm-1, MDAV-NC, MD, CBFS(-NN),
//! the MDAV splitting of large groups, and the group orders of the MHM heuristics are one
//! loop: pick a seed record, grow it into a group of k, remove it, repeat; then deal with
//! what is left. They differ in four rules, which [`Rules`] names:
//!
//! - [`Selection`]: the seeds of a round: MDAV's pair (r farthest from the centroid of the
//!   remaining records, then s farthest from r), one record farthest from the centroid
//!   (CBFS, MDAV-single), or MD's pair (the two remaining records farthest apart);
//! - [`Grow`]: the k nearest to the seed's point (MDAV, MD), the seed plus its k - 1 nearest
//!   (NN growth) or repeatedly the record nearest to the group's centroid (NC growth);
//! - the frame: rounds while at least `rounds_while` records remain (the second group of a
//!   pair only if at least k remain), then optionally one more group around the record
//!   farthest from the centroid;
//! - [`Leftover`]: where fewer than k records left at the end go (a rest of k or more
//!   records is one group).
//!
//! [`trace`] returns the groups in creation order (each with its records in the order they
//! were added and its [`Side`]) and the rest; [`groups`] applies the leftover rule. The
//! queries go through [`Remaining`] (a scan, a filtered single-precision scan, a kd-tree or
//! ball buckets, identical answers),
//! chosen by n and d. Between groups the engine looks at the run's stop flag and deadline
//! ([`StopRule`]): a stopped run returns [`Error::Interrupted`], never a partial partition.
//!
//! ## Complexity
//! Per group one farthest query (two per MDAV pair, the second from r reusing the scan's
//! distances) and one k-nearest query (NN growth) or k - 1 one-nearest queries (NC growth);
//! with the scan each is O(m d) over m remaining records, O(n^2 d / k) in all (NC: O(n^2 d)).
//! MD's pair costs what [`crate::geometry::diameter::Diameter`] costs. O(n d) memory.
//!
//! ## References
//! Domingo-Ferrer & Torra (2005), Data Mining and Knowledge Discovery 11(2) (MDAV);
//! Domingo-Ferrer & Mateo-Sanz (2002), IEEE TKDE 14(1) (MD); Laszlo & Mukherjee (2005),
//! IEEE TKDE 17(7) (CBFS); Chettri & Borah (2012), CS & IT 04 (the MDAV variants);
//! Khomnotai, Lin, Peng & Santra (2018), Symmetry 10(7):262 (NN and NC growth).

use crate::data::Instance;
use crate::error::{Error, Result};
use crate::geometry::diameter::Diameter;
use crate::geometry::pool::{group_centroids, nearest_centroid};
use crate::geometry::remaining::Remaining;
use crate::geometry::spatial::{open, Backend};
use crate::init::lineage::growth::{grow_to_centroid, Growth};
use crate::method::StopRule;

/// Which end of the order a group of a group-building heuristic belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Built around the first extreme of a round (MDAV's r, MD's r, every CBFS group).
    Front,
    /// Built around the second extreme of a round (MDAV's s, MD's s).
    Back,
}

/// The groups a heuristic built, in creation order, each with its records in the order they
/// were added, plus what was left when it stopped forming groups.
#[derive(Clone, Debug)]
pub struct GroupTrace {
    pub groups: Vec<(Vec<usize>, Side)>,
    /// Records never put in a formed group (ascending ids): a last group of `k..2k-1`
    /// records, or fewer than `k` records that the heuristic hands to the nearest groups.
    pub rest: Vec<usize>,
}

/// How the seeds of a round are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// r farthest from the centroid of the remaining records, then (if at least k remain
    /// after r's group) s farthest from r.
    MdavPair,
    /// One seed per round: the record farthest from the centroid of the remaining records.
    FarthestFromCentroid,
    /// The two remaining records farthest apart, r then s (if s went into r's group, which
    /// needs ties, the remaining record farthest from r).
    DiameterPair,
}

/// How a seed grows into a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grow {
    /// The k remaining records nearest to the seed's point (the seed comes first unless a
    /// duplicate of it has a lower id).
    NearestToSeedPoint,
    /// The seed, then its k - 1 nearest remaining records ([`Growth::NearestNeighbours`]).
    SeedAndNearest,
    /// The seed, then repeatedly the record nearest to the group's current centroid.
    NearestToCentroid,
}

impl From<Growth> for Grow {
    fn from(g: Growth) -> Self {
        match g {
            Growth::NearestNeighbours => Grow::SeedAndNearest,
            Growth::NearestToCentroid => Grow::NearestToCentroid,
        }
    }
}

/// Where fewer than k records left at the end go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leftover {
    /// Each record to the group whose centroid (taken before any joins) is nearest.
    EachToNearestCentroid,
    /// All together to the group whose centroid is nearest to the leftover's centroid.
    BlockToNearestCentroid,
}

/// The rules of one lineage method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub selection: Selection,
    pub grow: Grow,
    /// Rounds run while at least `rounds_while * k` records remain.
    pub rounds_while: usize,
    /// After the rounds, one group around the record farthest from the centroid if at
    /// least `then_one_if * k` records remain.
    pub then_one_if: Option<usize>,
    pub leftover: Leftover,
}

impl Rules {
    /// MDAV, published-values form: pairs while >= 2k remain, a leftover < k record by
    /// record.
    pub const MDAV: Rules = Rules {
        selection: Selection::MdavPair,
        grow: Grow::NearestToSeedPoint,
        rounds_while: 2,
        then_one_if: None,
        leftover: Leftover::EachToNearestCentroid,
    };
}

/// What [`trace`] returns: the groups in creation order and the records never grouped,
/// with the centroid of those (compensated running sums) for the block leftover rule.
pub struct Traced {
    pub trace: GroupTrace,
    pub rest_centroid: Vec<f64>,
}

fn stopped(method: &str, groups: usize) -> Error {
    Error::Interrupted(format!(
        "{method}: stopped (interrupt or time limit) after {groups} groups; an initializer has no partial partition to return"
    ))
}

/// Where the engine runs: which records, which backend, when it stops.
#[derive(Clone, Debug)]
pub struct Scope<'a> {
    /// The records to group (all when `None`).
    pub ids: Option<Vec<usize>>,
    pub backend: Backend,
    /// Checked between groups ([`StopRule::NEVER`] for a step inside a larger method,
    /// which has its own stop rule, and for the reading studies).
    pub stop: StopRule<'a>,
}

impl<'a> Scope<'a> {
    /// All records, backend by n and d, never stopping (orders and reading studies).
    pub(crate) const UNSTOPPABLE: Scope<'static> = Scope {
        ids: None,
        backend: Backend::Auto,
        stop: StopRule::NEVER,
    };

    /// All records, backend by n and d, stopping by `stop`: a registered initializer.
    pub fn initializer(stop: StopRule<'a>) -> Self {
        Scope {
            ids: None,
            backend: Backend::Auto,
            stop,
        }
    }
}

/// Run the engine; the groups in creation order and the rest.
pub fn trace(
    method: &str,
    inst: &Instance,
    k: usize,
    rules: Rules,
    scope: Scope,
) -> Result<Traced> {
    let Scope { ids, backend, stop } = scope;
    let ids = ids.unwrap_or_else(|| (0..inst.n).collect());
    let mut diameter = match rules.selection {
        Selection::DiameterPair => Some(Diameter::of(inst, &ids)),
        _ => None,
    };
    let mut rem = open(inst, ids, backend);
    let mut groups: Vec<(Vec<usize>, Side)> = Vec::new();
    let take = |rem: &mut dyn Remaining, seed: usize, diameter: &mut Option<Diameter>| {
        let group = grow(inst, rem, seed, k, rules.grow);
        if let Some(diam) = diameter.as_mut() {
            group.iter().for_each(|&i| diam.remove(i));
        }
        group
    };
    while rem.len() >= rules.rounds_while * k {
        if stop.requested() {
            return Err(stopped(method, groups.len()));
        }
        match rules.selection {
            Selection::MdavPair => {
                let r = rem.farthest_from_centroid();
                groups.push((take(&mut *rem, r, &mut diameter), Side::Front));
                if rem.len() >= k {
                    let s = rem.farthest_from(inst.row(r));
                    groups.push((take(&mut *rem, s, &mut diameter), Side::Back));
                }
            }
            Selection::FarthestFromCentroid => {
                let r = rem.farthest_from_centroid();
                groups.push((take(&mut *rem, r, &mut diameter), Side::Front));
            }
            Selection::DiameterPair => {
                let (r, s) = diameter
                    .as_mut()
                    .expect("diameter kept for this selection")
                    .farthest_pair()
                    .expect("at least 2k >= 2 records remain");
                groups.push((take(&mut *rem, r, &mut diameter), Side::Front));
                if rem.len() >= k {
                    let diam = diameter.as_ref().expect("diameter kept");
                    let s = if diam.contains(s) {
                        s
                    } else {
                        rem.farthest_from(inst.row(r))
                    };
                    groups.push((take(&mut *rem, s, &mut diameter), Side::Back));
                }
            }
        }
    }
    if let Some(at_least) = rules.then_one_if {
        if rem.len() >= at_least * k && !rem.is_empty() {
            let r = rem.farthest_from_centroid();
            groups.push((take(&mut *rem, r, &mut diameter), Side::Front));
        }
    }
    let rest_centroid = if rem.is_empty() {
        Vec::new()
    } else {
        rem.centroid()
    };
    Ok(Traced {
        trace: GroupTrace {
            groups,
            rest: rem.take_all(),
        },
        rest_centroid,
    })
}

/// Remove `seed` and the records it grows into (see [`Grow`]); the group in order of
/// addition.
fn grow(inst: &Instance, rem: &mut dyn Remaining, seed: usize, k: usize, how: Grow) -> Vec<usize> {
    match how {
        Grow::NearestToSeedPoint => rem.take_nearest(inst.row(seed), k),
        Grow::SeedAndNearest => {
            rem.remove(seed);
            let mut group = Vec::with_capacity(k);
            group.push(seed);
            group.extend(rem.take_nearest(inst.row(seed), k - 1));
            group
        }
        Grow::NearestToCentroid => {
            rem.remove(seed);
            let mut group = Vec::with_capacity(k);
            group.push(seed);
            grow_to_centroid(inst, &mut group, inst.row(seed), k, |centroid| {
                (!rem.is_empty()).then(|| rem.take_nearest(centroid, 1)[0])
            });
            group
        }
    }
}

/// The groups of a trace with the rest placed by `leftover`: a rest of k or more records
/// (or any rest when no group was formed) is the last group.
pub(crate) fn place_rest(
    inst: &Instance,
    k: usize,
    traced: Traced,
    leftover: Leftover,
) -> Vec<Vec<usize>> {
    let Traced {
        trace,
        rest_centroid,
    } = traced;
    let mut groups: Vec<Vec<usize>> = trace.groups.into_iter().map(|(g, _)| g).collect();
    let rest = trace.rest;
    if rest.len() >= k || groups.is_empty() {
        if !rest.is_empty() {
            groups.push(rest);
        }
    } else if !rest.is_empty() {
        let centroids = group_centroids(inst, &groups);
        match leftover {
            Leftover::EachToNearestCentroid => {
                for &i in &rest {
                    let g = nearest_centroid(&centroids, inst.d, inst.row(i));
                    groups[g].push(i);
                }
            }
            Leftover::BlockToNearestCentroid => {
                let g = nearest_centroid(&centroids, inst.d, &rest_centroid);
                groups[g].extend_from_slice(&rest);
            }
        }
    }
    groups
}

/// The engine's groups for a registered initializer ([`Scope::initializer`]).
pub fn groups(
    method: &str,
    inst: &Instance,
    k: usize,
    rules: Rules,
    stop: StopRule,
) -> Result<Vec<Vec<usize>>> {
    groups_in(method, inst, k, rules, Scope::initializer(stop))
}

/// The engine's groups in a given scope.
pub fn groups_in(
    method: &str,
    inst: &Instance,
    k: usize,
    rules: Rules,
    scope: Scope,
) -> Result<Vec<Vec<usize>>> {
    let traced = trace(method, inst, k, rules, scope)?;
    Ok(place_rest(inst, k, traced, rules.leftover))
}

/// The engine's groups where no stop applies ([`Scope::UNSTOPPABLE`] or a subset).
pub(crate) fn groups_unstoppable(
    inst: &Instance,
    ids: Option<Vec<usize>>,
    k: usize,
    rules: Rules,
    backend: Backend,
) -> Vec<Vec<usize>> {
    let scope = Scope {
        ids,
        backend,
        stop: StopRule::NEVER,
    };
    match groups_in("engine", inst, k, rules, scope) {
        Ok(g) => g,
        Err(_) => unreachable!("an unstoppable run has no error path"),
    }
}
