//! What the example programs share: the case they read (`--data`, `--k`).

/// The data and the minimum group size.
#[derive(clap::Args)]
pub struct Case {
    /// The data (CASC id, CSV path or generator spec).
    #[arg(long)]
    pub data: String,
    /// Minimum group size.
    #[arg(long)]
    pub k: usize,
}
