//! # Certificate cuts
//!
//! [`BnpCut`], a cut of the certificate's cut list, and its two JSON forms: a subset-row
//! triple as the array of its records, any other rank-1 cut as an object (proofs/P14, P21).

use microagg_solvers::bounds::colgen::cuts::Cut;
use serde::{Deserialize, Serialize};

/// A cut of a certificate: a rank-1 cut `sum_S floor(p(S ∩ C) / q) x_S <= floor(p(C) / q)`
/// (proofs/P14, P21). In JSON a subset-row triple is the array of its three records (as in
/// every older certificate); any other cut is `{"records": [...], "multipliers": [...],
/// "denominator": q}` (the multiplier of record `records[j]` is `multipliers[j] / q`), with
/// `"rhs": b` added when the right side `b` is above 1 (so cuts with right side 1 are written
/// as before). Parsing checks the shape (2..=32 distinct records, multipliers in `1..q`,
/// `sum >= q`) and that a written right side is `floor(sum / q)` (a lowered one would raise
/// the bound: refused); the verifier checks the records against `n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "CutJson", into = "CutJson")]
pub struct BnpCut(pub Cut);

impl From<[u32; 3]> for BnpCut {
    fn from(t: [u32; 3]) -> BnpCut {
        BnpCut(Cut::triple(t))
    }
}

impl From<BnpCut> for Cut {
    fn from(c: BnpCut) -> Cut {
        c.0
    }
}

/// The JSON forms of [`BnpCut`].
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum CutJson {
    Triple([u32; 3]),
    Rank1 {
        records: Vec<u32>,
        multipliers: Vec<u8>,
        denominator: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rhs: Option<u32>,
    },
}

impl TryFrom<CutJson> for BnpCut {
    type Error = String;
    fn try_from(j: CutJson) -> std::result::Result<BnpCut, String> {
        match j {
            CutJson::Triple(t) => Cut::new(&t, &[1, 1, 1], 2),
            CutJson::Rank1 {
                records,
                multipliers,
                denominator,
                rhs,
            } => Cut::new(&records, &multipliers, denominator).and_then(|c| match rhs {
                Some(b) if b != u32::from(c.rhs()) => Err(format!(
                    "records {records:?}: right side {b} is not floor(p(C) / q) = {}",
                    c.rhs()
                )),
                _ => Ok(c),
            }),
        }
        .map(BnpCut)
        .map_err(|m| format!("bad cut: {m}"))
    }
}

impl From<BnpCut> for CutJson {
    fn from(c: BnpCut) -> CutJson {
        match c.0.as_triple() {
            Some(t) => CutJson::Triple(t),
            None => CutJson::Rank1 {
                records: c.0.records().to_vec(),
                multipliers: c.0.multipliers().to_vec(),
                denominator: c.0.denominator(),
                rhs: (c.0.rhs() > 1).then(|| u32::from(c.0.rhs())),
            },
        }
    }
}
