//! # Values of the command line
//!
//! The one `--time-limit` parser ([`time_limit`]) and the closed choices as value enums or
//! possible-value lists, so that `--help` lists the choices and clap refuses anything else
//! before a command starts: [`ExactChoice`] (`solve-exact --method`), [`ReportFormat`]
//! (`report --format`) and [`bound_name`] (`bound --method`, `run --bound`, from the
//! bound registry [`crate::bound::BOUNDS`]).
//!
//! ## Complexity
//! O(1) per value.
//!
//! ## References
//! None.

use clap::builder::PossibleValuesParser;
use clap::ValueEnum;
use microagg_solvers::exact::ExactMethod;

/// Parse a `--time-limit` value: seconds, positive, finite and at most
/// `crate::search::MAX_TIME_LIMIT`.
pub(crate) fn time_limit(s: &str) -> Result<f64, String> {
    let t: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s}: not a number of seconds"))?;
    crate::search::check_time_limit(t)?;
    Ok(t)
}

/// The registered bound names, as possible values.
pub(crate) fn bound_name() -> PossibleValuesParser {
    PossibleValuesParser::new(crate::bound::names())
}

/// `solve-exact --method`: one value per [`ExactMethod`].
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum ExactChoice {
    // Subset DP for n <= 16, else set partitioning.
    Auto,
    // Subset dynamic programme (n <= 20).
    SubsetDp,
    // Set-partitioning model by column generation and certified branch and bound.
    SetPartitioning,
    // Branch-and-price on the column generation master (crate::bnp, proofs/P17).
    BranchAndPrice,
}

impl ExactChoice {
    /// Whether the method has a weighted version (`solve-exact --weights`): the subset DP
    /// (`auto` runs it; P40 W6). Set partitioning and branch-and-price price unweighted
    /// groups.
    pub fn has_weighted_version(self) -> bool {
        matches!(self, ExactChoice::Auto | ExactChoice::SubsetDp)
    }

    /// The small-instance exact method, or `None` for branch-and-price (its own engine).
    pub(crate) fn small_method(self) -> Option<ExactMethod> {
        match self {
            ExactChoice::Auto => Some(ExactMethod::Auto),
            ExactChoice::SubsetDp => Some(ExactMethod::SubsetDp),
            ExactChoice::SetPartitioning => Some(ExactMethod::SetPartitioning),
            ExactChoice::BranchAndPrice => None,
        }
    }
}

/// `report --format`: the table format.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum ReportFormat {
    // Markdown.
    #[value(alias = "markdown")]
    Md,
    // Comma-separated values.
    Csv,
    // LaTeX tabular.
    #[value(alias = "tex")]
    Latex,
}

impl From<ReportFormat> for crate::report::Format {
    fn from(f: ReportFormat) -> crate::report::Format {
        use crate::report::Format;
        match f {
            ReportFormat::Md => Format::Markdown,
            ReportFormat::Csv => Format::Csv,
            ReportFormat::Latex => Format::Latex,
        }
    }
}

/// `--progress` and `--quiet`: the progress line on stderr ([`crate::progress`]).
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub(crate) struct ProgressArgs {
    /// Show progress on stderr (best IL, bound, gap, time, steps per second) even when
    /// stderr is not a terminal: a line every 2 s and one at the end. On a terminal it is
    /// shown without asking.
    #[arg(long, help_heading = "Output", conflicts_with = "quiet")]
    pub progress: bool,
    /// No progress on stderr, even on a terminal.
    #[arg(long, help_heading = "Output")]
    pub quiet: bool,
}

impl ProgressArgs {
    pub fn show(self) -> crate::progress::Show {
        crate::progress::Show::from_flags(self.progress, self.quiet)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_limits_are_checked_once() {
        assert_eq!(time_limit("2.5"), Ok(2.5));
        assert!(time_limit("0").is_err());
        assert!(time_limit("-1").is_err());
        assert!(time_limit("nan").is_err());
        assert!(time_limit("1e19").unwrap_err().contains("largest limit"));
        assert!(time_limit("soon").unwrap_err().contains("not a number"));
    }

    #[test]
    fn every_exact_choice_names_its_method() {
        for c in ExactChoice::value_variants() {
            let name = c.to_possible_value().unwrap().get_name().to_string();
            match c.small_method() {
                Some(m) => assert_eq!(m.name(), name),
                None => assert_eq!(name, crate::bnp::EXACT_NAME),
            }
        }
    }

    #[test]
    fn every_report_format_parses_as_the_library_does() {
        for f in ReportFormat::value_variants() {
            for name in f.to_possible_value().unwrap().get_name_and_aliases() {
                assert_eq!(
                    crate::report::Format::parse(name).unwrap(),
                    crate::report::Format::from(*f)
                );
            }
        }
    }
}
