//! # Late-acceptance hill climbing (LAHC)
//!
//! A preset of ILS: the refiner `lahc` is [`Ils`] whose acceptance rule is
//! `LateAcceptance` (keep a change when its
//! SSE is at most the current one or the one of L iterations ago) in place of annealing.
//! Its parameters are ILS's, every key, with `accept = { late_acceptance = { length = 50 } }`
//! by default; `lahc.length` sets L alone. It draws no random number of its own, so a run
//! repeats bit for bit without a time limit.
//!
//! ## Complexity
//! ILS's; O(1) per decision and O(L) memory for the rule.
//!
//! ## References
//! - Burke, E. K. and Bykov, Y. (2017). The late acceptance hill-climbing heuristic.
//!   European Journal of Operational Research 258(1), 70-78.

use super::kit::PartSpec;
use crate::method::MethodInfo;
use crate::params::Params;
use crate::search::ils::{Ils, IlsParams};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{json, Map, Value};

/// Parameters of `lahc`: ILS's, with late acceptance as the default rule.
#[derive(Debug, Clone, Serialize)]
#[serde(transparent)]
pub(crate) struct LahcParams(pub IlsParams);

/// The default history length L.
const LENGTH: usize = 50;

fn late_acceptance(length: &Value) -> PartSpec {
    PartSpec::new("late_acceptance", json!({ "length": length }))
}

impl Default for LahcParams {
    fn default() -> Self {
        LahcParams(IlsParams {
            accept: Some(late_acceptance(&json!(LENGTH))),
            ..IlsParams::default()
        })
    }
}

/// ILS's keys plus `length` (L of the late-acceptance rule, when `accept` is not given).
impl<'de> Deserialize<'de> for LahcParams {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut map = Map::<String, Value>::deserialize(d)?;
        let length = map.remove("length");
        let mut ils: IlsParams =
            serde_json::from_value(Value::Object(map)).map_err(D::Error::custom)?;
        match (&ils.accept, length) {
            (Some(_), Some(_)) => {
                return Err(D::Error::custom(
                    "give the history length either as `length` or inside `accept`",
                ))
            }
            (None, length) => {
                ils.accept = Some(late_acceptance(&length.unwrap_or(json!(LENGTH))));
            }
            (Some(_), None) => {}
        }
        Ok(LahcParams(ils))
    }
}

impl Params for LahcParams {
    const DOC: &'static [(&'static str, &'static str)] = &[
        ("length", "history length L of the late-acceptance rule, 1..=1000000 (default 50, not tuned); shorthand for accept = { late_acceptance = { length = L } }"),
        ("accept", "the acceptance rule (default { late_acceptance = { length = 50 } }); every other key is ILS's of the same name, with ILS's default"),
    ];
    fn check(&self) -> Result<(), String> {
        self.0.check()
    }
}

pub fn method() -> MethodInfo {
    MethodInfo::refiner(
        "lahc",
        "late-acceptance hill climbing over ILS's perturbation and descent: keep a change when its SSE is at most the current one or the one of L iterations ago",
        "Burke & Bykov (2017), European J. Operational Research 258(1)",
        |p: LahcParams| Ils::named("lahc", p.0),
    )
}

#[cfg(test)]
mod tests {
    use crate::pipeline::Pipeline;

    /// The registered preset: ILS's composition with late acceptance improves MDAV on
    /// clustered data under a step budget, repeats bit for bit, takes ILS's keys, and its
    /// history length is validated.
    #[test]
    fn lahc_refiner_improves_mdav_and_repeats() {
        let inst = crate::data::load(
            "gauss:n=400,d=3,clusters=8,seed=5",
            &crate::data::ColumnSelection::All,
        )
        .unwrap();
        let never = std::sync::atomic::AtomicBool::new(false);
        let run = |spec: &str, params: &[&str]| {
            let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
            Pipeline::parse(spec, &params)
                .unwrap()
                .run_with(&inst, 4, 9, None, Some(400), &never)
                .unwrap()
        };
        let mdav = Pipeline::parse("mdav", &[])
            .unwrap()
            .run(&inst, 4, 9, None, &never)
            .unwrap()
            .partition;
        let a = run("mdav+lahc", &["lahc.length=20"]);
        let b = run("mdav+lahc", &["lahc.length=20"]);
        assert!(a.partition.sse() < mdav.sse());
        assert_eq!(a.partition.labels(), b.partition.labels());
        let stats = a.stages[1].stats.as_ref().unwrap();
        assert!(stats.get("accepted").unwrap() > 0);
        for bad in ["lahc.length=0", "lahc.length=x"] {
            assert!(
                Pipeline::parse("mdav+lahc", &[bad.to_string()]).is_err(),
                "{bad}"
            );
        }
        assert!(Pipeline::parse("mdav+lahc", &["lahc.stall=50".to_string()]).is_ok());
    }
}
