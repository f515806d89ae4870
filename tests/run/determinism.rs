//! The registry's `deterministic` declarations and what experiments do with them.
//!
//! A method declared deterministic must leave its random-number generator untouched (the
//! `Rng` an initializer builds with, the `Ctx::rng` a refiner steps with), and a method not
//! declared so must draw from it, on a small instance with default parameters: both ways,
//! so that a declaration can be neither false nor missing. An experiment then runs a
//! pipeline of deterministic stages once per case (replicate 0, `deterministic` in the
//! record) and every other pipeline once per seed; the report counts what ran.

use microagg::data::{self, ColumnSelection, Instance};
use microagg::experiment::{run_plan, Plan, Progress, RunOptions, Suite};
use microagg::method::{MethodInfo, MethodKind};
use microagg::registry::registry;
use microagg::rng::Rng;
use microagg::search::{execute, Stop, Stops};
use rand::SeedableRng;
use serde_json::{json, Map, Value};
use std::sync::atomic::AtomicBool;

fn instance_for(m: &MethodInfo) -> Instance {
    let spec = if m.one_attribute {
        "uniform:n=60,d=1,seed=3"
    } else {
        "gauss:n=60,d=3,clusters=4,seed=3"
    };
    data::load(spec, &ColumnSelection::All).unwrap()
}

/// Whether one use of the method with parameters `given` advanced its generator.
fn draws(m: &MethodInfo, given: &Map<String, Value>) -> bool {
    let inst = instance_for(m);
    let k = 3;
    let before = Rng::seed_from_u64(11);
    let mut rng = before.clone();
    match m.kind() {
        MethodKind::Initializer => {
            let init = m.make_initializer(given).unwrap();
            let problem = microagg::method::Problem::new(&inst, k).unwrap();
            init.build(&problem, &mut microagg::method::BuildCtx::new(&mut rng))
                .unwrap();
        }
        MethodKind::Refiner => {
            let start = microagg::pipeline::Pipeline::parse("mdav", &[])
                .unwrap()
                .run(&inst, k, 0, None, &AtomicBool::new(false))
                .unwrap()
                .partition;
            let mut refiner = m.make_refiner(given).unwrap();
            let stops = Stops::new(vec![Stop::MaxSteps(300)]);
            let never = AtomicBool::new(false);
            execute(
                refiner.as_mut(),
                &inst,
                k,
                start,
                &mut rng,
                &stops,
                &never,
                &mut [],
            )
            .unwrap();
        }
    }
    rng != before
}

#[test]
fn every_declaration_matches_what_the_method_draws() {
    let mut wrong = Vec::new();
    // Every method with its defaults, and pcl with its random start.
    let random_start = json!({ "init": "random" }).as_object().unwrap().clone();
    let cases = registry()
        .into_iter()
        .map(|m| (m, Map::new()))
        .chain([(microagg::registry::find("pcl").unwrap(), random_start)]);
    for (m, given) in cases {
        let drew = draws(&m, &given);
        let deterministic = m.is_deterministic(&m.effective_params(&given).unwrap());
        if drew == deterministic {
            wrong.push(format!(
                "{} {given:?}: declared {}, but it {} random numbers",
                m.name,
                if deterministic {
                    "deterministic"
                } else {
                    "random"
                },
                if drew { "draws" } else { "draws no" }
            ));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    // Both kinds exist among initializers and refiners (the check above is not vacuous).
    for kind in [MethodKind::Initializer, MethodKind::Refiner] {
        let of: Vec<bool> = registry()
            .iter()
            .filter(|m| m.kind() == kind)
            .map(|m| m.is_deterministic(&m.defaults))
            .collect();
        assert!(
            of.contains(&true) && of.contains(&false),
            "{kind:?}: {of:?}"
        );
    }
}

const SUITE: &str = r#"
name = "det"
instances = ["gauss:n=80,d=2,clusters=4,seed=2"]
k = [3, 4]
seeds = { base = 5, replicates = 3 }
bounds = ["nn"]
max_steps = 300

[[pipeline]]
method = "mdav"

[[pipeline]]
method = "mdav+decompose-shrink"

[[pipeline]]
method = "mdav+ils"

[[pipeline]]
method = "random"
"#;

#[test]
fn deterministic_pipelines_run_once_per_case_and_the_report_counts_them_so() {
    let suite = Suite::parse(SUITE, std::path::Path::new("det.toml")).unwrap();
    let plan = Plan::new(suite).unwrap();
    // Per case: mdav 1 + mdav+decompose-shrink 1 + mdav+ils 3 + random 3.
    assert_eq!(plan.runs.len(), 2 * (1 + 1 + 3 + 3));
    let opts = RunOptions {
        out: None,
        jobs: 1,
        shard: None,
        resume: false,
        progress: Progress::Quiet,
    };
    let records = run_plan(&plan, &opts, &AtomicBool::new(false))
        .unwrap()
        .records;
    assert_eq!(records.len(), 16);
    for r in &records {
        let once = r.pipeline == "mdav" || r.pipeline == "mdav+decompose-shrink";
        assert_eq!(r.deterministic, once, "{}", r.run_id);
        if once {
            assert_eq!(r.seeds.replicate, 0, "{}", r.run_id);
        }
    }
    let described = plan.describe(None);
    assert_eq!(
        described
            .matches("(deterministic: one run per case)")
            .count(),
        2,
        "{described}"
    );
    let rows = microagg::report::summarize(&records).unwrap();
    let runs: Vec<(String, usize, Option<f64>)> = rows
        .iter()
        .filter(|r| r.k == 3)
        .map(|r| (r.pipeline.clone(), r.runs, r.sd_il))
        .collect();
    assert_eq!(runs[0].0, "mdav");
    assert_eq!((runs[0].1, runs[0].2), (1, None));
    assert_eq!((runs[1].1, runs[1].2), (1, None));
    assert_eq!(runs[2].1, 3);
    assert_eq!(runs[3].1, 3);
    // The Wilcoxon section pairs mdav's one value per case with ILS's median.
    let pairs = microagg::report::wilcoxon::pairs(&records);
    let (_, _, cases, _) = pairs
        .iter()
        .find(|p| p.0 == "mdav" && p.1 == "mdav+ils")
        .expect("the pair is tested");
    assert_eq!(*cases, 2, "both cases paired");
}

/// A records file from a build that ran a deterministic pipeline once per seed: resuming it
/// is refused with an error that names the reason.
#[test]
fn resuming_replicates_of_a_deterministic_pipeline_says_why_it_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let suite = Suite::parse(SUITE, std::path::Path::new("det.toml")).unwrap();
    let plan = Plan::new(suite).unwrap();
    let opts = RunOptions {
        out: Some(dir.path().to_path_buf()),
        jobs: 1,
        shard: None,
        resume: true,
        progress: Progress::Quiet,
    };
    run_plan(&plan, &opts, &AtomicBool::new(false)).unwrap();
    // What an older build wrote: mdav's run of replicate 1 as well.
    let file = dir.path().join("records.jsonl");
    let text = std::fs::read_to_string(&file).unwrap();
    let mdav = text.lines().next().unwrap();
    assert!(mdav.contains("|k=3|mdav|r=0"), "{mdav}");
    let older = mdav
        .replace("|mdav|r=0", "|mdav|r=1")
        .replace("\"replicate\":0", "\"replicate\":1");
    std::fs::write(&file, format!("{text}{older}\n")).unwrap();
    let e = run_plan(&plan, &opts, &AtomicBool::new(false))
        .err()
        .expect("refused")
        .to_string();
    assert!(
        e.contains("replicate 1 of 'mdav', which draws no random number"),
        "{e}"
    );
}
