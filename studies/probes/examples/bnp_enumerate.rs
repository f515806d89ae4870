//! Proof by reduced-cost enumeration (proofs/P19) from the duals of a branch-price-and-cut
//! certificate: counts the groups whose reduced cost is within the gap, searches the
//! partitions made of them, and says whether the given partition is proven optimal.
//!
//! ```text
//! cargo run --release --example bnp_enumerate -- --data tarragona --k 5 \
//!   --certificate CERT --labels instances/library/tarragona-k5.labels \
//!   [--leaf 0] [--time-limit 1200] [--max-columns 5000000] [--max-nodes 100000000] \
//!   [--labels-out FILE]
//! ```
//!
//! With `--run-bnp SECONDS` (and no `--certificate`), branch-price-and-cut first processes
//! only its root (from `--labels`) and writes its certificate to `--certificate-out`; the
//! root's duals (inherited by the open children) are then used.
//!
//! `--leaf j` takes the duals of leaf `j` of the certificate (any duals are valid; the
//! root's, which open children inherit, keep the pool smallest). Prints one line per phase
//! and a summary; a better partition, if met, is written to `--labels-out`.

mod common;

use clap::Parser;
use microagg::bnp_certificate::BnpCertificate;
use microagg::labels::read_labels;
use microagg_solvers::bnp::{
    branch_and_price, prove_by_enumeration, BnpOptions, EnumerationOptions,
};
use std::path::PathBuf;

/// Proof by reduced-cost enumeration from a bnp certificate's duals.
#[derive(Parser)]
struct Args {
    #[command(flatten)]
    case: common::Case,
    /// A branch-and-price certificate of the case (or `--run-bnp`).
    #[arg(long)]
    certificate: Option<PathBuf>,
    /// The partition to prove optimal (one group label per record).
    #[arg(long)]
    labels: PathBuf,
    /// Where a better partition, if met, is written.
    #[arg(long)]
    labels_out: Option<PathBuf>,
    /// The certificate leaf whose duals are read.
    #[arg(long, default_value_t = 0)]
    leaf: usize,
    /// Seconds of a root-only branch-price-and-cut that makes the certificate.
    #[arg(long)]
    run_bnp: Option<f64>,
    /// Where `--run-bnp` writes its certificate.
    #[arg(long)]
    certificate_out: Option<PathBuf>,
    /// Wall-clock limit of the enumeration.
    #[arg(long, default_value_t = EnumerationOptions::default().time_limit)]
    time_limit: f64,
    /// Most groups in the pool.
    #[arg(long, default_value_t = EnumerationOptions::default().max_columns)]
    max_columns: usize,
    /// Most nodes of the pool search.
    #[arg(long, default_value_t = EnumerationOptions::default().max_nodes)]
    max_nodes: u64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Args {
        case,
        certificate: cert_path,
        labels: labels_path,
        labels_out,
        leaf,
        run_bnp,
        certificate_out: cert_out,
        time_limit,
        max_columns,
        max_nodes,
    } = Args::parse();
    let opts = EnumerationOptions {
        max_columns,
        max_nodes,
        time_limit,
    };
    let inst = case.load()?;
    let (data, k) = (&case.data, case.k);
    let mut labels = read_labels(&labels_path)?;
    let cert = match (cert_path, run_bnp) {
        (Some(path), None) => {
            // `read` opens the stored `.json.gz` certificates too.
            BnpCertificate::read(&path)?
        }
        (None, Some(seconds)) => {
            let opts = BnpOptions {
                time_limit: seconds,
                max_nodes: 1,
                ..BnpOptions::default()
            };
            let t0 = std::time::Instant::now();
            let r = branch_and_price(
                &inst.z,
                inst.n,
                inst.d,
                k,
                &[&labels],
                &opts,
                None,
                &mut |p| {
                    eprintln!(
                        "[{:8.1} s] bnp {}: bound {:.6} incumbent {:.6}",
                        t0.elapsed().as_secs_f64(),
                        p.what,
                        p.lower_bound,
                        p.incumbent_sse
                    )
                },
            )?;
            eprintln!(
                "bnp root: LP {:.6}, LP with cuts {:.6}, bound {:.6}, {} cuts in {} rounds, {:.1} s",
                r.root_lp, r.root_lp_cuts, r.root_bound, r.cuts.len(), r.cut_rounds, r.seconds
            );
            if r.sse < microagg_solvers::sse::partition_sse(&inst.z, inst.d, &labels) {
                eprintln!("bnp found a better partition: SSE {:.9}", r.sse);
                labels = r.labels.clone();
            }
            let cert = BnpCertificate::from_result(&inst, k, &r)?;
            if let Some(path) = &cert_out {
                cert.write(path)?;
            }
            cert
        }
        _ => return Err("give exactly one of --certificate FILE and --run-bnp SECONDS".into()),
    };
    if cert.n != inst.n || cert.d != inst.d || cert.k != k {
        return Err(format!(
            "certificate is for n = {}, d = {}, k = {}; data has n = {}, d = {}, k = {k}",
            cert.n, cert.d, cert.k, inst.n, inst.d
        )
        .into());
    }
    let l = cert
        .leaves
        .get(leaf)
        .ok_or(format!("the certificate has {} leaves", cert.leaves.len()))?;
    if l.lower_bound.is_none() {
        return Err(format!("leaf {leaf} is an empty region (no duals)").into());
    }
    let cuts: Vec<microagg_solvers::bounds::colgen::cuts::Cut> =
        cert.cuts[..l.cut_duals.len()].iter().map(|c| c.0).collect();
    let t0 = std::time::Instant::now();
    let proof = prove_by_enumeration(
        &inst.z,
        inst.n,
        inst.d,
        k,
        &labels,
        &l.duals,
        &cuts,
        &l.cut_duals,
        &opts,
        &mut |line| eprintln!("[{:8.1} s] {line}", t0.elapsed().as_secs_f64()),
    )?;
    println!(
        "{data} k={k} leaf {leaf}: Lagrangian {:.6}  U {:.6}  T {:.6}  pool {} {:?} ({})",
        proof.lagrangian,
        proof.upper,
        proof.threshold,
        proof.columns,
        proof.by_size,
        if proof.enumeration_complete {
            "complete"
        } else {
            "cut"
        }
    );
    if let Some(s) = &proof.search {
        println!(
            "pool search: kept {} groups, {} nodes, {} partitions within the budget, {}",
            s.columns_kept,
            s.nodes,
            s.partitions,
            if s.complete { "complete" } else { "cut" }
        );
    }
    println!(
        "best SSE {:.9} (upper {:.9}), lower bound {:.9}, proven optimal: {}  seconds {:?}",
        proof.sse, proof.sse_upper, proof.lower_bound, proof.proven_optimal, proof.seconds
    );
    if let Some(path) = labels_out {
        let text: String = proof.labels.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&path, text)?;
    }
    Ok(())
}
