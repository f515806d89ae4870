//! # Randomness
//!
//! One RNG type for the whole workbench ([`Rng`], ChaCha8), owned by the run and never seeded
//! from the operating system. Seeds are derived by hashing the base seed together with the
//! parts that identify a stage (instance, k, pipeline, replicate, stage), so changing one
//! stage never changes the random stream of another.

use rand::SeedableRng;
use sha2::{Digest, Sha256};

/// The workbench's random number generator.
pub type Rng = rand_chacha::ChaCha8Rng;

/// A seed derived from a base seed and identifying parts (order matters).
pub(crate) fn derive_seed(base: u64, parts: &[&str]) -> u64 {
    let mut h = Sha256::new();
    h.update(b"microagg-seed-v1");
    h.update(base.to_le_bytes());
    for p in parts {
        // Length prefix keeps ("ab","c") and ("a","bc") apart.
        h.update((p.len() as u64).to_le_bytes());
        h.update(p.as_bytes());
    }
    let out = h.finalize();
    u64::from_le_bytes(out[..8].try_into().expect("sha256 has 32 bytes"))
}

/// An RNG seeded from a derived seed.
pub fn rng_for(base: u64, parts: &[&str]) -> Rng {
    Rng::seed_from_u64(derive_seed(base, parts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_seeds_depend_on_every_part_and_on_their_boundaries() {
        let a = derive_seed(1, &["eia", "3", "mdav"]);
        assert_eq!(a, derive_seed(1, &["eia", "3", "mdav"]));
        assert_ne!(a, derive_seed(2, &["eia", "3", "mdav"]));
        assert_ne!(a, derive_seed(1, &["eia", "4", "mdav"]));
        assert_ne!(derive_seed(1, &["ab", "c"]), derive_seed(1, &["a", "bc"]));
    }
}
