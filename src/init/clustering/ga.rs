//! # GA (genetic algorithm with group-number chromosomes)
//!
//! Solanas, Martinez-Balleste, Mateo-Sanz & Domingo-Ferrer (2006): a chromosome holds, for
//! every record, the number of its group; the fitness is the SSE of the partition it
//! encodes. The GA handles small sets well, so for larger data the authors recommend a
//! fixed-size pre-partition into blocks of about 50 records and the GA inside each block.
//!
//! ## Reading chosen
//! - Pre-partition: when n >= 2b for b = max(`block`, 2k), MDAV with group size b splits the
//!   records into blocks of at least b records (b..2b-1, plus the fewer than b leftover
//!   records MDAV hands to the nearest blocks); otherwise the whole set is one block. Each block
//!   of m records is solved with g = floor(m / k) groups (the largest number of feasible
//!   groups, as optimal partitions use groups of k..2k-1). A chromosome is feasible when
//!   every group number occurs k..2k-1 times: the minimum and maximum number of genes with
//!   the same group number of Mortazavi & Jalili's account (2013, Section 2,
//!   `../shared/papers/mortazavi2013-imhm-iterative-optimization.txt`).
//! - Population: `population` chromosomes; with `seed_mdav` one of them is the MDAV partition
//!   of the block, the others are random feasible ones (k records per group, the m - g k
//!   others in uniformly random groups, shuffled). Elitism keeps the best chromosome, so with
//!   `seed_mdav` the result is never worse than MDAV inside the blocks (MDAV's groups have
//!   k..2k-1 records, so its chromosome is feasible).
//! - Selection: binary tournaments (ties to the lower population index).
//! - Crossover (probability `crossover_rate`): one-point crossover of the two parents' label
//!   vectors, followed by a repair that makes the child feasible: while a group has fewer than
//!   k records, the smallest (ties: lowest number) receives, from a group of more than k, the
//!   record nearest to its centroid (for an empty group: the record whose removal lowers its
//!   group's SSE most); then, while a group has more than 2k - 1 records, the largest gives
//!   the member nearest to the centroid of a group with room to that group. Mutation
//!   (probability `mutation_rate` per child, per operator): swap the groups of two random
//!   records (no change when they share a group), and move a random record of a group of
//!   more than k to a random other group of fewer than 2k - 1. Every operator therefore
//!   returns a feasible chromosome. `tests/construct/heuristics_5b.rs::ga_is_seeded_and_never_worse_than_block_mdav`
//!   pins the elitism reading, `ga_groups_have_k_to_2k_minus_1_records` the size bounds.
//!
//! Measured quality against MDAV (the block pre-partition costs more than the GA recovers
//! on skewed data such as EIA) is in `studies/study-init.txt`.
//!
//! ## Complexity
//! O(G P m d) per block of m records for G = `generations` and P = `population` (fitness is
//! O(m d); a repair step O(m g d)), so O(n G P d) in all with blocks of bounded size, plus
//! O(n^2 d / b) for the pre-partition. The [`Initializer`] interface has no clock, so the
//! defaults are sized to take about a second on EIA (study-init.txt).
//!
//! ## References
//! Solanas, Martinez-Balleste, Mateo-Sanz & Domingo-Ferrer (2006), "Multivariate
//! microaggregation based on genetic algorithms", 3rd Int. IEEE Conference on Intelligent
//! Systems, pp. 65-70. The paper is not in `../shared/papers`: this follows its published
//! description (group-number chromosome, block pre-partition of about 50 records).

use crate::data::Instance;
use crate::error::Result;
use crate::method::{BuildCtx, Initializer, MethodInfo, Problem};
use crate::params::Params;
use crate::partition::{sq_dist, Partition};
use crate::rng::Rng;
use rand::seq::SliceRandom;
use rand::Rng as _;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct GaParams {
    /// Chromosomes per generation.
    pub population: usize,
    /// Number of generations per block.
    pub generations: usize,
    /// Probability that a child is made by crossover (else a copy of the first parent).
    pub crossover_rate: f64,
    /// Probability of each of the two mutations per child.
    pub mutation_rate: f64,
    /// Pre-partition block size (effective max(block, 2k)).
    pub block: usize,
    /// Put the MDAV partition of each block into the initial population.
    pub seed_mdav: bool,
}

impl Default for GaParams {
    fn default() -> Self {
        GaParams {
            population: 40,
            generations: 200,
            crossover_rate: 0.9,
            mutation_rate: 0.3,
            block: 50,
            seed_mdav: true,
        }
    }
}

impl Params for GaParams {
    const DOC: &'static [(&'static str, &'static str)] = &[
        ("population", "chromosomes per generation, >= 2 (default 40)"),
        ("generations", "generations per block (default 200)"),
        ("crossover_rate", "probability a child comes from one-point crossover, in [0, 1] (default 0.9)"),
        ("mutation_rate", "probability of each mutation (swap, move) per child, in [0, 1] (default 0.3)"),
        ("block", "pre-partition block size b; when n >= 2 max(b, 2k), MDAV blocks of at least max(b, 2k) records, each solved by the GA (default 50)"),
        ("seed_mdav", "seed each block's population with its MDAV partition (default true)"),
    ];

    fn check(&self) -> Result<(), String> {
        if self.population < 2 {
            return Err(format!(
                "population must be at least 2, got {}",
                self.population
            ));
        }
        for (name, v) in [
            ("crossover_rate", self.crossover_rate),
            ("mutation_rate", self.mutation_rate),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return Err(format!("{name} must be in [0, 1], got {v}"));
            }
        }
        if self.block == 0 {
            return Err("block must be at least 1".into());
        }
        Ok(())
    }
}

pub(crate) struct Ga {
    params: GaParams,
}

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        "ga",
        "genetic algorithm, group-number chromosomes with feasibility-preserving operators, inside MDAV blocks of ~50 records",
        "Solanas, Martinez-Balleste, Mateo-Sanz & Domingo-Ferrer 2006",
        |params: GaParams| Ga { params },
    )
}

/// One block: its records (local index -> record id) and their rows.
struct Block<'a> {
    inst: &'a Instance,
    ids: Vec<usize>,
    k: usize,
    g: usize,
}

impl Block<'_> {
    fn m(&self) -> usize {
        self.ids.len()
    }

    fn x(&self, a: usize) -> &[f64] {
        self.inst.row(self.ids[a])
    }

    fn sizes(&self, labels: &[usize]) -> Vec<usize> {
        let mut s = vec![0; self.g];
        labels.iter().for_each(|&l| s[l] += 1);
        s
    }

    fn centroids(&self, labels: &[usize]) -> Vec<f64> {
        let d = self.inst.d;
        let mut c = vec![0.0; self.g * d];
        let sizes = self.sizes(labels);
        for (a, &l) in labels.iter().enumerate() {
            c[l * d..(l + 1) * d]
                .iter_mut()
                .zip(self.x(a))
                .for_each(|(s, v)| *s += v);
        }
        for l in 0..self.g {
            let inv = 1.0 / sizes[l].max(1) as f64;
            c[l * d..(l + 1) * d].iter_mut().for_each(|s| *s *= inv);
        }
        c
    }

    fn sse(&self, labels: &[usize]) -> f64 {
        let d = self.inst.d;
        let c = self.centroids(labels);
        labels
            .iter()
            .enumerate()
            .map(|(a, &l)| sq_dist(self.x(a), &c[l * d..(l + 1) * d]))
            .sum()
    }

    fn random(&self, rng: &mut Rng) -> Vec<usize> {
        let mut labels: Vec<usize> = (0..self.g)
            .flat_map(|l| std::iter::repeat_n(l, self.k))
            .collect();
        while labels.len() < self.m() {
            labels.push(rng.random_range(0..self.g));
        }
        labels.shuffle(rng);
        labels
    }

    /// Make every group reach k records (see the module doc).
    fn repair(&self, labels: &mut [usize]) {
        let d = self.inst.d;
        loop {
            let sizes = self.sizes(labels);
            let Some(s) = (0..self.g)
                .filter(|&l| sizes[l] < self.k)
                .min_by_key(|&l| (sizes[l], l))
            else {
                return;
            };
            let c = self.centroids(labels);
            let mut best = (f64::INFINITY, usize::MAX);
            for (a, &l) in labels.iter().enumerate() {
                if sizes[l] <= self.k {
                    continue;
                }
                let key = if sizes[s] == 0 {
                    // Largest SSE decrease when removed: minimise its negative.
                    let sz = sizes[l] as f64;
                    -(sz / (sz - 1.0)) * sq_dist(self.x(a), &c[l * d..(l + 1) * d])
                } else {
                    sq_dist(self.x(a), &c[s * d..(s + 1) * d])
                };
                if key < best.0 || best.1 == usize::MAX {
                    best = (key, a);
                }
            }
            // m >= g k, so a group below k implies one above k.
            labels[best.1] = s;
        }
    }

    fn mutate(&self, labels: &mut [usize], rate: f64, rng: &mut Rng) {
        let m = self.m();
        if self.g < 2 {
            return;
        }
        if rng.random_bool(rate) {
            let a = rng.random_range(0..m);
            let b = rng.random_range(0..m);
            labels.swap(a, b);
        }
        if rng.random_bool(rate) {
            let sizes = self.sizes(labels);
            let a = rng.random_range(0..m);
            let mut to = rng.random_range(0..self.g - 1);
            if to >= labels[a] {
                to += 1;
            }
            if sizes[labels[a]] > self.k && sizes[to] < 2 * self.k - 1 {
                labels[a] = to;
            }
        }
    }

    /// The best chromosome found (labels 0..g).
    fn evolve(&self, p: &GaParams, rng: &mut Rng) -> Vec<usize> {
        let m = self.m();
        let mut pop: Vec<Vec<usize>> = Vec::with_capacity(p.population);
        if p.seed_mdav {
            let groups =
                crate::init::lineage::split_large::mdav_groups(self.inst, self.ids.clone(), self.k);
            if groups.len() == self.g {
                let pos = |id: usize| self.ids.iter().position(|&x| x == id).expect("in block");
                let mut labels = vec![0; m];
                for (l, grp) in groups.iter().enumerate() {
                    for &id in grp {
                        labels[pos(id)] = l;
                    }
                }
                pop.push(labels);
            }
        }
        while pop.len() < p.population {
            pop.push(self.random(rng));
        }
        let mut fit: Vec<f64> = pop.iter().map(|c| self.sse(c)).collect();
        let best_of = |fit: &[f64]| {
            (0..fit.len())
                .min_by(|&a, &b| fit[a].total_cmp(&fit[b]).then(a.cmp(&b)))
                .expect("non-empty population")
        };
        let tournament = |fit: &[f64], rng: &mut Rng| {
            let a = rng.random_range(0..fit.len());
            let b = rng.random_range(0..fit.len());
            if fit[b].total_cmp(&fit[a]).then(b.cmp(&a)).is_lt() {
                b
            } else {
                a
            }
        };
        for _ in 0..p.generations {
            let elite = best_of(&fit);
            let mut next = vec![pop[elite].clone()];
            let mut next_fit = vec![fit[elite]];
            while next.len() < p.population {
                let a = tournament(&fit, rng);
                let b = tournament(&fit, rng);
                let mut child = if rng.random_bool(p.crossover_rate) && m > 1 {
                    let cut = rng.random_range(1..m);
                    let mut c = pop[a][..cut].to_vec();
                    c.extend_from_slice(&pop[b][cut..]);
                    c
                } else {
                    pop[a].clone()
                };
                self.mutate(&mut child, p.mutation_rate, rng);
                self.repair(&mut child);
                next_fit.push(self.sse(&child));
                next.push(child);
            }
            pop = next;
            fit = next_fit;
        }
        pop.swap_remove(best_of(&fit))
    }
}

impl Initializer for Ga {
    fn name(&self) -> &str {
        "ga"
    }

    fn build(&self, problem: &Problem, ctx: &mut BuildCtx) -> Result<Partition> {
        let (inst, k) = (problem.inst(), problem.k());
        let b = self.params.block.max(2 * k);
        let blocks = if inst.n >= 2 * b {
            crate::init::lineage::split_large::mdav_groups(inst, (0..inst.n).collect(), b)
        } else {
            vec![(0..inst.n).collect()]
        };
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for mut ids in blocks {
            ids.sort_unstable();
            let g = ids.len() / k;
            let block = Block { inst, ids, k, g };
            let labels = if g <= 1 {
                vec![0; block.m()]
            } else {
                block.evolve(&self.params, ctx.rng)
            };
            let mut local: Vec<Vec<usize>> = vec![Vec::new(); g.max(1)];
            for (a, &l) in labels.iter().enumerate() {
                local[l].push(block.ids[a]);
            }
            groups.extend(local.into_iter().filter(|grp| !grp.is_empty()));
        }
        crate::init::finish("ga", inst, k, &groups)
    }
}
