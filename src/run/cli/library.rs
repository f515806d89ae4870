//! # `microagg library`
//!
//! The benchmark library ([`crate::library`]): `list` prints the table of every case
//! (from the verification cache, so it is instant), `show` one case with its files and
//! provenance, `verify` re-checks every stored partition and certificate and records the
//! results in the cache, `submit` adds a better partition or certificate after checking it.
//!
//! ## Complexity
//! `list`, `show`: linear in the manifest. `verify`: one `verify-bound` per certificate
//! (seconds; census k = 10 takes minutes). `submit`: one check or verification.
//!
//! ## References
//! None.

use super::data::DataArgs;
use crate::error::{Error, Result};
use crate::library::{self, submit, Library};
use crate::output;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub(crate) struct LibraryArgs {
    #[command(subcommand)]
    pub action: Action,
    /// The library folder (default: $MICROAGG_LIBRARY, else instances/library of the
    /// source tree).
    #[arg(long, global = true, value_name = "DIR")]
    pub library: Option<PathBuf>,
}

#[derive(clap::Subcommand)]
pub(crate) enum Action {
    /// The table of every case: instance, k, best SSE and IL, certified lower bound (verified
    /// value from the cache), gap, and whether the case is proven optimal.
    List,
    /// One instance's cases: files, values and provenance.
    Show {
        /// The instance's name in the library (first column of `list`).
        instance: String,
        /// Only this k.
        #[arg(long)]
        k: Option<usize>,
    },
    /// Re-check every stored partition (feasible, same SSE) and certificate (valid, same
    /// claim) on its data, and record the verified values in the cache (verified.tsv).
    /// Exit 1 when one fails. Data that cannot be found is reported and skipped.
    Verify {
        /// Only this instance.
        #[arg(long)]
        instance: Option<String>,
        /// Only this k.
        #[arg(long)]
        k: Option<usize>,
    },
    /// Add a partition (strictly lower SSE than the stored one, feasible) or a certificate
    /// (must verify, strictly higher claim) for (data, k); anything else is refused (exit 1)
    /// and the library is left as it was. Data not in the library gets an entry keyed by
    /// the sha256 of its standardised values and column choice.
    Submit(SubmitArgs),
}

#[derive(clap::Args)]
pub(crate) struct SubmitArgs {
    #[command(flatten)]
    pub data: DataArgs,
    /// A labels file (one group label per record).
    #[arg(
        long,
        conflicts_with = "certificate",
        required_unless_present = "certificate"
    )]
    pub labels: Option<PathBuf>,
    /// A bound certificate (`bound --certificate`, Lagrangian or branch-and-price, gzipped
    /// or not).
    #[arg(long)]
    pub certificate: Option<PathBuf>,
    /// How the result was produced (the command line), recorded as its provenance.
    #[arg(long, default_value = "submitted with microagg library submit")]
    pub command: String,
    /// The git commit of the build that produced it (default: this build's).
    #[arg(long)]
    pub commit: Option<String>,
    /// The date it was produced, YYYY-MM-DD (default: today, UTC).
    #[arg(long)]
    pub date: Option<String>,
}

/// `microagg library`.
pub fn library(args: LibraryArgs) -> Result<ExitCode> {
    let dir = args.library.clone().unwrap_or_else(library::default_dir);
    let mut lib = Library::open(&dir)?;
    match args.action {
        Action::List => {
            output::print(&crate::render::library::table(&lib))?;
            Ok(ExitCode::SUCCESS)
        }
        Action::Show { instance, k } => {
            if lib.manifest.instance_by_name(&instance).is_none() {
                return Err(Error::usage(format!(
                    "library {}: no instance '{instance}' (see `microagg library list`)",
                    dir.display()
                )));
            }
            output::print(&crate::render::library::show(&lib, &instance, k))?;
            Ok(ExitCode::SUCCESS)
        }
        Action::Verify { instance, k } => verify(&mut lib, instance.as_deref(), k),
        Action::Submit(s) => submit_one(&mut lib, &s),
    }
}

fn verify(lib: &mut Library, only: Option<&str>, only_k: Option<usize>) -> Result<ExitCode> {
    let mut failed = 0;
    let entries = lib.manifest.instance.clone();
    for entry in entries.iter().filter(|e| only.is_none_or(|o| o == e.name)) {
        let inst = match lib.load(entry) {
            Ok(i) => i,
            Err(e) => {
                output::println(&format!("{:<12} skipped: {e}", entry.name))?;
                continue;
            }
        };
        let cases: Vec<_> = lib
            .manifest
            .case
            .iter()
            .filter(|c| c.instance == entry.name && only_k.is_none_or(|k| k == c.k))
            .cloned()
            .collect();
        for case in cases {
            let lines = library::verify::case(lib, &inst, &case)?;
            for line in &lines.lines {
                output::println(&format!("{:<12} k={:<3} {line}", case.instance, case.k))?;
            }
            failed += usize::from(!lines.ok);
            lib.save()?;
        }
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        output::println(&format!("{failed} case(s) failed"))?;
        ExitCode::from(1)
    })
}

fn submit_one(lib: &mut Library, s: &SubmitArgs) -> Result<ExitCode> {
    let inst = s.data.load()?;
    let columns: Vec<String> = match s.data.selection() {
        crate::data::ColumnSelection::All => Vec::new(),
        crate::data::ColumnSelection::List(c) => c,
    };
    let source = submit::DataSource {
        data: &s.data.data,
        columns: &columns,
    };
    let provenance = submit::provenance(&s.command, s.commit.as_deref(), s.date.as_deref());
    type Submit = fn(&mut Library, submit::Submission) -> Result<submit::Accepted>;
    let (path, submit): (&std::path::Path, Submit) = match (&s.labels, &s.certificate) {
        (Some(p), _) => (p, submit::submit_partition),
        (None, Some(p)) => (p, submit::submit_certificate),
        (None, None) => unreachable!("clap requires one of --labels, --certificate"),
    };
    // A k the data cannot take is refused like an infeasible file: a note and exit 1.
    let outcome = inst.check_k(s.data.k).and_then(|()| {
        let submission = submit::Submission {
            inst: &inst,
            source,
            k: s.data.k,
            path,
            provenance,
        };
        submit(lib, submission)
    });
    match outcome {
        Ok(a) => {
            let what = if s.labels.is_some() {
                "partition SSE"
            } else {
                "certified bound"
            };
            output::println(&format!(
                "accepted: {} k = {}: {what} {} -> {:.10}{}",
                a.instance,
                a.k,
                a.before.map_or("none".to_string(), |b| format!("{b:.10}")),
                a.after,
                if a.proven_optimal {
                    " (proven optimal)"
                } else {
                    ""
                }
            ))?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e @ (Error::Usage(_) | Error::Infeasible(_))) => {
            output::note(&format!("{e}"));
            Ok(ExitCode::from(1))
        }
        Err(e) => Err(e),
    }
}
