//! # Compact a branch-and-price certificate file
//!
//! Reads a bnp certificate (`bound --method bnp --certificate FILE`, gzipped or not),
//! compacts it without changing any number (`BnpCertificate::compact`: identical sibling
//! leaves become their parent, cuts with zero duals everywhere are dropped) and writes it to
//! OUT (gzip when OUT ends in `.gz`); prints leaves, cuts and bytes before and after. Files
//! written by `bound --certificate` since the compaction exists are already compact; this is
//! for older files. `microagg verify-bound` re-checks the result.
//!
//! Usage: `cargo run --release --example bnp_certificate_compact -- IN OUT`
//!
//! ## Complexity
//! That of `BnpCertificate::compact`.

use microagg::bnp_certificate::BnpCertificate;
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = &args[..] else {
        return Err("usage: bnp_certificate_compact IN OUT".into());
    };
    let before = BnpCertificate::read(Path::new(input))?;
    let (leaves, cuts) = (before.leaves.len(), before.cuts.len());
    let after = before.compact();
    after.write(Path::new(output))?;
    println!(
        "{input}: {leaves} leaves, {cuts} cuts, {} bytes -> {output}: {} leaves, {} cuts, {} bytes; claim {:.12e}",
        std::fs::metadata(input)?.len(),
        after.leaves.len(),
        after.cuts.len(),
        std::fs::metadata(output)?.len(),
        after.lower_bound
    );
    Ok(())
}
