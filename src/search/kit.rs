//! # The search kit's parts
//!
//! ILS is composed of parts named in its parameters: a weighted list of perturbations
//! ([`Perturb`]) and an acceptance rule ([`Accept`]), each with typed parameters, and its
//! descent runs over a list of operators ([`Operator`]). A part is registered as a
//! [`PartInfo`] (name, summary, documented parameters with defaults, factory) in the
//! [`Registry`](crate::registry::Registry), which a user's own crate extends; a suite or
//! `--param` names it:
//!
//! ```toml
//! [params.ils]
//! perturb = [{ pool_resplit = { max_pool = 8 }, weight = 0.95 }, { dissolve_distill = {}, weight = 0.05 }]
//! accept = { late_acceptance = { length = 50 } }
//! ```
//!
//! A [`PerturbSpec`] or [`PartSpec`] holds a name and its raw parameters; they are
//! checked against the registry before a run starts ([`PartInfo::check`]) and built into
//! the part when the stage starts.
//!
//! ```
//! use microagg::search::kit::PerturbSpec;
//! let spec: PerturbSpec = serde_json::from_str(r#"{"pool_resplit": {"max_pool": 8}, "weight": 0.9}"#).unwrap();
//! assert_eq!((spec.part.name.as_str(), spec.weight), ("pool_resplit", 0.9));
//! let round: serde_json::Value = serde_json::to_value(&spec).unwrap();
//! assert_eq!(round["pool_resplit"]["max_pool"], 8);
//! ```
//!
//! ## Complexity
//! Parsing is linear in the parameters; building a part is its factory's cost.
//!
//! ## References
//! - Wouda, N. A., Lan, L. and Kool, W. (2024). PyVRP: a high-performance VRP solver
//!   package. INFORMS Journal on Computing 36(4), 943-955 (composition of ILS from parts).

use super::accept::Accept;
use super::operators::Operator;
use super::perturb::Perturb;
use crate::error::{Error, Result};
use crate::params::{parse_params, Params};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use std::sync::Arc;

/// What kind of part a [`PartInfo`] builds.
pub type PerturbInfo = PartInfo<dyn Perturb>;
pub type AcceptInfo = PartInfo<dyn Accept>;
pub type OperatorInfo = PartInfo<dyn Operator>;

type Factory<T> = Arc<dyn Fn(&Map<String, Value>) -> Result<Box<T>> + Send + Sync>;

/// A registered part: name, summary, parameters (documented, with defaults) and factory.
pub struct PartInfo<T: ?Sized> {
    pub name: &'static str,
    pub summary: &'static str,
    pub params_doc: &'static [(&'static str, &'static str)],
    pub defaults: Value,
    make: Factory<T>,
}

impl<T: ?Sized> Clone for PartInfo<T> {
    fn clone(&self) -> Self {
        PartInfo {
            name: self.name,
            summary: self.summary,
            params_doc: self.params_doc,
            defaults: self.defaults.clone(),
            make: Arc::clone(&self.make),
        }
    }
}

impl<T: ?Sized> PartInfo<T> {
    /// A part with parameters `P`, built by `make` (which boxes the part).
    pub fn with_params<P: Params>(
        name: &'static str,
        summary: &'static str,
        make: impl Fn(P) -> Box<T> + Send + Sync + 'static,
    ) -> Self {
        PartInfo {
            name,
            summary,
            params_doc: P::DOC,
            defaults: serde_json::to_value(P::default()).expect("params serialise"),
            make: Arc::new(move |given| Ok(make(parse_params::<P>(name, given)?))),
        }
    }

    /// A part built from raw parameters by `make` (which checks them itself), e.g. one
    /// written in Python.
    pub fn dynamic(
        name: &'static str,
        summary: &'static str,
        make: impl Fn(&Map<String, Value>) -> Result<Box<T>> + Send + Sync + 'static,
    ) -> Self {
        PartInfo {
            name,
            summary,
            params_doc: &[],
            defaults: Value::Object(Map::new()),
            make: Arc::new(make),
        }
    }

    /// Build the part from its raw parameters (unknown keys and bad values are errors).
    pub fn make(&self, given: &Map<String, Value>) -> Result<Box<T>> {
        (self.make)(given)
    }

    /// Check raw parameters by building the part once.
    pub fn check(&self, given: &Map<String, Value>) -> Result<()> {
        self.make(given).map(|_| ())
    }
}

/// Find the part named `name` among `parts`; the error lists the known names.
pub fn find<'a, T: ?Sized>(
    kind: &str,
    parts: &'a [PartInfo<T>],
    name: &str,
) -> Result<&'a PartInfo<T>> {
    parts.iter().find(|p| p.name == name).ok_or_else(|| {
        let known: Vec<&str> = parts.iter().map(|p| p.name).collect();
        Error::usage(format!(
            "unknown {kind} '{name}' (known: {})",
            known.join(", ")
        ))
    })
}

/// A part named with its raw parameters: `{ NAME = { KEY = VALUE, .. } }`.
#[derive(Debug, Clone, PartialEq)]
pub struct PartSpec {
    pub name: String,
    pub params: Map<String, Value>,
}

impl PartSpec {
    pub fn new(name: &str, params: Value) -> Self {
        PartSpec {
            name: name.to_string(),
            params: params.as_object().cloned().unwrap_or_default(),
        }
    }

    /// Read `{ NAME = {..} }` plus the keys in `extra` (returned in order, `None` when
    /// absent) from one map.
    fn from_map<E: serde::de::Error>(
        mut map: Map<String, Value>,
        extra: &[&str],
    ) -> std::result::Result<(Self, Vec<Option<Value>>), E> {
        let extras = extra.iter().map(|k| map.remove(*k)).collect();
        if map.len() != 1 {
            let keys: Vec<&String> = map.keys().collect();
            return Err(E::custom(format!(
                "expected one part name with its parameters ({{ NAME = {{..}} }}), found keys {keys:?}"
            )));
        }
        let (name, params) = map.into_iter().next().expect("one key");
        let Value::Object(params) = params else {
            return Err(E::custom(format!(
                "parameters of '{name}' must be a table ({{ {name} = {{..}} }})"
            )));
        };
        Ok((PartSpec { name, params }, extras))
    }

    fn to_map(&self) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert(self.name.clone(), Value::Object(self.params.clone()));
        m
    }
}

impl Serialize for PartSpec {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.to_map().serialize(s)
    }
}

impl<'de> Deserialize<'de> for PartSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let map = Map::<String, Value>::deserialize(d)?;
        Ok(PartSpec::from_map(map, &[])?.0)
    }
}

/// One entry of a weighted perturbation list: `{ NAME = {..}, weight = W }` (weight 1 when
/// left out).
#[derive(Debug, Clone, PartialEq)]
pub struct PerturbSpec {
    pub part: PartSpec,
    pub weight: f64,
}

impl Serialize for PerturbSpec {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = self.part.to_map();
        m.insert("weight".into(), self.weight.into());
        m.serialize(s)
    }
}

impl<'de> Deserialize<'de> for PerturbSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let map = Map::<String, Value>::deserialize(d)?;
        let (part, extras) = PartSpec::from_map(map, &["weight"])?;
        let weight = match &extras[0] {
            None => 1.0,
            Some(v) => v.as_f64().ok_or_else(|| {
                D::Error::custom(format!("weight of '{}' must be a number", part.name))
            })?,
        };
        Ok(PerturbSpec { part, weight })
    }
}

/// Check a weighted list: each weight finite and >= 0, their sum positive.
pub(crate) fn check_weights(list: &[PerturbSpec]) -> std::result::Result<(), String> {
    if let Some(w) = list
        .iter()
        .find(|s| !(s.weight >= 0.0 && s.weight.is_finite()))
    {
        return Err(format!(
            "weight of '{}' must be finite and >= 0",
            w.part.name
        ));
    }
    if !(list.iter().map(|s| s.weight).sum::<f64>() > 0.0) {
        return Err("perturb: the weights must sum to more than 0".into());
    }
    Ok(())
}
