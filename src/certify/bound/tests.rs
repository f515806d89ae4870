use super::*;
use serde_json::json;

#[test]
fn gap_is_relative_to_the_bound() {
    assert_eq!(gap_percent(150.0, 100.0), Some(50.0));
    assert_eq!(gap_percent(10.0, 10.0), Some(0.0));
    assert_eq!(gap_percent(1.0, 0.0), None);
}

#[test]
fn unknown_bound_names_are_rejected() {
    let e = check_name("magic").unwrap_err().to_string();
    assert!(
        e.contains("unknown bound 'magic'") && e.contains("nn"),
        "{e}"
    );
    assert!(check_name("nn").is_ok());
}

#[test]
fn the_registry_lists_every_bound_once_with_its_parameters() {
    assert_eq!(
        names(),
        ["nn", "nn-raised", "colgen", "colgen-cuts", "bnp", "auto"]
    );
    for b in BOUNDS {
        assert_eq!(names().iter().filter(|n| **n == b.name).count(), 1);
        // Only the nn bounds take no parameters; the searching bounds take a start and
        // certify.
        let nn = ["nn", "nn-raised"].contains(&b.name);
        assert_eq!(nn, b.params_doc.is_empty(), "{}", b.name);
        assert_eq!(b.takes_start(), !nn, "{}", b.name);
        assert_eq!(b.certificate, !nn, "{}", b.name);
        assert_eq!(b.incumbent, ["bnp", "auto"].contains(&b.name), "{}", b.name);
        assert_eq!(b.takes("time_limit"), !nn, "{}", b.name);
    }
    let default = |name: &str, key: &str| find(name).unwrap().defaults()[key].clone();
    assert_eq!(default("colgen", "cuts"), 0);
    assert_eq!(default("colgen-cuts", "cuts"), COLGEN_CUTS_ROUNDS);
    assert_eq!(default("colgen", "time_limit"), COLGEN_DEFAULT_SECONDS);
    assert_eq!(default("bnp", "time_limit"), super::bnp::DEFAULT_SECONDS);
}

/// Every parameter of every bound is documented, every documented key is a parameter, and
/// `microagg list` shows each with its default and doc.
#[test]
fn every_bound_parameter_is_documented_with_its_default_in_the_listing() {
    let listing = crate::render::list::list_text();
    for b in BOUNDS {
        let defaults = b.defaults();
        let keys: Vec<&str> = defaults
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut documented = b.keys();
        documented.sort_unstable();
        assert_eq!(keys, documented, "{}: parameters vs docs", b.name);
        for (key, doc) in b.params_doc {
            assert!(doc.len() > 20, "{}.{key}: a one-line doc", b.name);
            let shown = match &defaults[key] {
                serde_json::Value::Null => "none".to_string(),
                // The listing writes a string default bare, as a user types it.
                serde_json::Value::String(s) => s.clone(),
                v => v.to_string(),
            };
            let line = format!("{key} = {shown}  {doc}");
            assert!(listing.contains(&line), "{}: list lacks '{line}'", b.name);
        }
    }
}

#[test]
fn bound_parameters_are_typed_and_checked() {
    let given = |v: serde_json::Value| v.as_object().unwrap().clone();
    let p = prepare("colgen", &given(json!({"cuts": 5})), Some(2.5)).unwrap();
    assert_eq!(
        (p.param("cuts"), p.param("time_limit")),
        (&json!(5), &json!(2.5))
    );
    // A given time limit wins over the caller's.
    let p = prepare("colgen", &given(json!({"time_limit": 7})), Some(2.5)).unwrap();
    assert_eq!(p.param("time_limit"), 7.0);
    let e = prepare("nn", &given(json!({"cuts": 5})), None)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("bound nn has no parameter 'cuts'") && e.contains("none"),
        "{e}"
    );
    let e = prepare("colgen", &given(json!({"cuts": "many"})), None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("cuts: invalid type: string \"many\""), "{e}");
    assert!(prepare("colgen", &given(json!({"time_limit": -1})), None).is_err());
    assert!(prepare("magic", &given(json!({})), None).is_err());
    // Ranges and combinations are checked before any work (ColgenOptions::check).
    for bad in [
        json!({"nn_ascent": 1.5}),
        json!({"smoothing": 1.0}),
        json!({"max_iterations": 0}),
        json!({"pool_master_moving_centre": true}),
        json!({"slack_push": 0.3, "final_fraction": 0.25}),
    ] {
        assert!(
            prepare("colgen", &given(bad.clone()), None).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn colgen_parameters_map_one_to_one_onto_the_kernel_options() {
    use microagg_solvers::bounds::ColgenOptions;
    let defaults = colgen_entry::ColgenParams::<colgen_entry::NoCuts>::default();
    assert_eq!(defaults.options(60.0, false), ColgenOptions::default());
    let p: colgen_entry::ColgenParams<colgen_entry::NoCuts> = serde_json::from_value(json!({
        "cuts": 3, "nn_ascent": 0.2, "box_width": 0.3, "lp_segment": true, "tighten_fraction": 0.05,
        "master_upper": 12.0, "max_iterations": 7
    }))
    .unwrap();
    let o = p.options(10.0, true);
    assert_eq!((o.time_limit, o.progress, o.cut_rounds), (10.0, true, 3));
    assert_eq!(
        (o.nn_ascent, o.box_width, o.tighten_fraction),
        (0.2, 0.3, 0.05)
    );
    assert!(o.lp_segment && o.master_upper_seconds == 12.0 && o.max_iterations == 7);
}

#[test]
fn bnp_parameters_go_through_the_registry() {
    let given = |v: serde_json::Value| v.as_object().unwrap().clone();
    let p = prepare(
        "bnp",
        &given(json!({"cuts": 7, "max_nodes": 9, "max_cuts": 8000, "count_row": true})),
        Some(3.0),
    )
    .unwrap();
    assert_eq!(p.param("time_limit"), 3.0);
    let b: bnp_entry::BnpParams = serde_json::from_value(p.effective.clone()).unwrap();
    let o = b.options();
    assert_eq!((o.cut_rounds, o.node_cut_rounds, o.max_nodes), (7, 1, 9));
    assert_eq!((o.max_cuts, o.count_row), (8000, true));
    // No cuts means none at the root and none at the other nodes.
    let none = bnp_entry::BnpParams {
        cuts: 0,
        ..Default::default()
    };
    assert_eq!(
        (none.options().cut_rounds, none.options().node_cut_rounds),
        (0, 0)
    );
    // The bound's defaults are the engine's, but for strong and count branching (the
    // engine's callers keep the most fractional pair and no count split,
    // bnp_entry::STRONG_BRANCHING and COUNT_BRANCHING).
    assert_eq!(
        bnp_entry::BnpParams::default().options(),
        microagg_solvers::bnp::BnpOptions {
            strong_branching: bnp_entry::STRONG_BRANCHING,
            count_branching: bnp_entry::COUNT_BRANCHING,
            ..Default::default()
        }
    );
    assert!(prepare("bnp", &given(json!({"count_row": "yes"})), None).is_err());
    assert!(prepare("bnp", &given(json!({"big_cuts": 1})), None).is_err());
    // The engine's ranges are the registry's (BnpOptions::check, one place).
    let e = prepare("bnp", &given(json!({"rc_pool_seconds": -1.0})), None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("rc_pool_seconds must be nonnegative"), "{e}");
    assert!(prepare("colgen", &given(json!({"count_row": true})), None).is_err());
    assert!(prepare("colgen", &given(json!({"max_nodes": 9})), None).is_err());
    let e = prepare("bnp", &given(json!({"nn_ascent": 0.3})), None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("bound bnp has no parameter 'nn_ascent'"), "{e}");
}

/// `--weights` is a property of the registry entries: nn and colgen have a weighted
/// version (each named by its proof), colgen-cuts, bnp and auto do not, and the refusal lists
/// both from the registry (the text `bound --weights` printed before the property).
#[test]
fn weighted_versions_are_a_property_of_the_registry_entries() {
    let weighted: Vec<&str> = BOUNDS
        .iter()
        .filter(|b| b.has_weighted_version())
        .map(|b| b.name)
        .collect();
    assert_eq!(weighted, ["nn", "colgen"]);
    let proof = |name| find(name).unwrap().weighted.map(|w| w.proof);
    assert_eq!(proof("nn"), Some("proofs/P41"));
    assert_eq!(proof("colgen"), Some("proofs/P43"));
    // What each version reads and writes, as `bound --weights` enforces it.
    let version = |name| find(name).unwrap().weighted.unwrap();
    assert_eq!(version("nn").params, [] as [&str; 0]);
    assert!(!version("nn").certificate);
    assert_eq!(version("colgen").params, ["time_limit", "start"]);
    assert!(version("colgen").certificate);
    assert!(super::weighted_version("nn").is_ok());
    assert!(super::weighted_version("colgen").is_ok());
    let e = super::weighted_version("bnp").unwrap_err().to_string();
    assert_eq!(
        e,
        "bound bnp with --weights: only nn (proofs/P41) and colgen (proofs/P43) have a \
         weighted version; nn-raised, colgen-cuts, bnp and auto bound the unweighted SSE \
         (docs/weights.md). \
         Use --bound nn or colgen, or leave out --weights"
    );
    assert!(super::weighted_version("colgen-cuts").is_err());
    assert!(super::weighted_version("nope").is_err());
}

/// The engine options of a library recipe (one of [`RECIPES`]), read with the meaning each
/// flag of `microagg bound` had when the recipe ran; a flag not in this table fails the test.
fn recipe_options(
    command: &str,
) -> (
    String,
    f64,
    microagg_solvers::bounds::ColgenOptions,
    microagg_solvers::bnp::BnpOptions,
) {
    let (mut colgen, mut bnp) = (
        microagg_solvers::bounds::ColgenOptions::default(),
        microagg_solvers::bnp::BnpOptions::default(),
    );
    let (mut method, mut limit) = (String::new(), f64::NAN);
    let words: Vec<&str> = command.split_whitespace().skip(2).collect();
    let mut i = 0;
    while i < words.len() {
        let (flag, value) = (words[i], words.get(i + 1).copied().unwrap_or(""));
        let number = || value.parse::<f64>().unwrap();
        let count = || value.parse::<usize>().unwrap();
        let mut takes_value = true;
        match flag {
            "--data" | "--k" | "--start" | "--certificate" | "--threads" => {}
            "--method" => method = value.to_string(),
            "--time-limit" => limit = number(),
            "--max-nodes" => bnp.max_nodes = value.parse().unwrap(),
            "--max-cuts" => bnp.max_cuts = count(),
            "--big-cuts" => bnp.big_cut_records = count(),
            "--strong-branching" => bnp.strong_branching = count(),
            "--nn-ascent" => colgen.nn_ascent = number(),
            "--box-width" => colgen.box_width = number(),
            "--anchor-threshold" => colgen.anchor_threshold = number(),
            "--tighten" => colgen.tighten_fraction = number(),
            "--final-fraction" => colgen.final_fraction = number(),
            "--slack-push" => colgen.slack_push = number(),
            "--max-iterations" => colgen.max_iterations = count(),
            _ => {
                takes_value = false;
                match flag {
                    "--rank1-cuts" => bnp.rank1_cuts = true,
                    "--count-row" => bnp.count_row = true,
                    "--count-branching" => bnp.count_branching = true,
                    "--lp-segment" => colgen.lp_segment = true,
                    "--push-project" => colgen.push_project = true,
                    "--ipm" => colgen.ipm = true,
                    "--stop-early" => colgen.stop_early = true,
                    "--lp-projection" => colgen.lp_projection = true,
                    other => panic!("recipe flag {other} unknown to this test: {command}"),
                }
            }
        }
        i += if takes_value { 2 } else { 1 };
    }
    colgen.time_limit = limit;
    (method, limit, colgen, bnp)
}

/// The recipes that made the stored library bounds, as `microagg bound` took them when they
/// ran (the `[case.bound] command` of instances/library/library.toml before the flags became
/// bound parameters; the library now records `--preset CASE`). A bound stored since (EIA k = 4,
/// 5 and 10, Census k = 3, 4 and 5, Tarragona k = 3) ran its preset; its line here is the preset
/// written in the old flags (`strong_branching` and `count_branching`, which never had a
/// flag, as `--strong-branching` and `--count-branching`).
const RECIPES: [(&str, &str); 10] = [
    ("census-k3", "microagg bound --data census --k 3 --method bnp --rank1-cuts --big-cuts 24 --max-cuts 12000 --time-limit 7200 --start instances/library/census-k3.labels --certificate FILE"),
    ("census-k4", "microagg bound --data census --k 4 --method bnp --rank1-cuts --big-cuts 24 --count-branching --time-limit 1800 --start instances/library/census-k4.labels --certificate FILE"),
    ("census-k5", "microagg bound --data census --k 5 --method bnp --rank1-cuts --big-cuts 24 --strong-branching 8 --count-branching --time-limit 1800 --start instances/library/census-k5.labels --certificate FILE"),
    ("eia-k3", "microagg bound --data eia --k 3 --method bnp --rank1-cuts --big-cuts 24 --time-limit 600 --start instances/library/eia-k3.labels --certificate FILE"),
    ("eia-k4", "microagg bound --data eia --k 4 --method bnp --rank1-cuts --big-cuts 24 --max-cuts 12000 --strong-branching 8 --time-limit 1800 --start instances/library/eia-k4.labels --certificate FILE"),
    ("eia-k5", "microagg bound --data eia --k 5 --method bnp --rank1-cuts --big-cuts 24 --max-cuts 12000 --strong-branching 8 --time-limit 1800 --start instances/library/eia-k5.labels --certificate FILE"),
    ("eia-k10", "microagg bound --data eia --k 10 --method colgen --start instances/library/eia-k10.labels --nn-ascent 0.2 --box-width 0.3 --lp-segment --push-project --ipm --anchor-threshold 0.005 --stop-early --threads 1 --time-limit 1800 --tighten 0.05 --final-fraction 0.8 --slack-push 0.5 --max-iterations 20000 --lp-projection --certificate FILE"),
    ("tarragona-k3", "microagg bound --data tarragona --k 3 --method bnp --rank1-cuts --big-cuts 24 --max-cuts 8000 --strong-branching 8 --time-limit 1800 --start instances/library/tarragona-k3.labels --certificate FILE"),
    ("tarragona-k4", "microagg bound --data tarragona --k 4 --method bnp --time-limit 600 --start instances/library/tarragona-k4.labels --certificate FILE"),
    ("tarragona-k5", "microagg bound --data tarragona --k 5 --method bnp --time-limit 1200 --rank1-cuts --count-row --start instances/library/tarragona-k5.labels --certificate FILE"),
];

/// Every stored bound the library made with `microagg bound` records the preset named after
/// its case, whose parameters give the recipe's engine options ([`RECIPES`]), field by field,
/// and its time limit; every preset but `auto`'s ([`presets::AUTO_BNP`],
/// [`presets::AUTO_COLGEN`]) is such a recipe, and every one of them passes the
/// registry's checks.
#[test]
fn each_preset_equals_the_recipe_of_its_stored_bound() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/instances/library/library.toml"
    );
    let library: toml::Value = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut matched = Vec::new();
    for case in library["case"].as_array().unwrap() {
        let command = case["bound"]["command"].as_str().unwrap();
        if !command.starts_with("microagg bound ") {
            continue; // a study probe's result (studies crate), not a bound command
        }
        let (instance, k) = (
            case["instance"].as_str().unwrap(),
            case["k"].as_integer().unwrap(),
        );
        let name = format!("{instance}-k{k}");
        let threads = if name == "eia-k10" {
            " --threads 1"
        } else {
            ""
        };
        assert_eq!(
            command,
            format!(
                "microagg bound --data {instance} --k {k} --preset {name}{threads} \
                 --start instances/library/{name}.labels --certificate FILE"
            ),
            "{name}"
        );
        let recipe = RECIPES
            .iter()
            .find(|r| r.0 == name)
            .unwrap_or_else(|| panic!("{name}: no recipe"))
            .1;
        let preset = presets::find(&name).unwrap();
        let (method, limit, colgen, bnp) = recipe_options(recipe);
        assert_eq!(preset.bound, method, "{name}");
        let p = prepare(preset.bound, &preset.given(), None).unwrap();
        assert_eq!(p.param("time_limit"), limit, "{name}");
        if is_colgen(&method) {
            let params: colgen_entry::ColgenParams<colgen_entry::NoCuts> =
                serde_json::from_value(p.effective.clone()).unwrap();
            assert_eq!(params.options(limit, false), colgen, "{name}");
        } else {
            let params: bnp_entry::BnpParams = serde_json::from_value(p.effective.clone()).unwrap();
            assert_eq!(params.options(), bnp, "{name}");
        }
        matched.push(name);
    }
    let mut all: Vec<String> = presets::PRESETS
        .iter()
        .filter(|p| ![presets::AUTO_BNP, presets::AUTO_COLGEN].contains(&p.name))
        .map(|p| p.name.to_string())
        .collect();
    matched.sort();
    all.sort();
    assert_eq!(matched, all);
}

/// `auto`'s bnp preset passes the registry's checks and changes only the cut settings from
/// the bnp bound's defaults (the engine's, with strong branching and count branching): rank-1
/// cuts on, block cuts on fractional blocks up to 24 records, room for 8000 cuts.
#[test]
fn the_auto_bnp_preset_sets_only_its_cut_settings() {
    let preset = presets::find(presets::AUTO_BNP).unwrap();
    assert_eq!(preset.bound, "bnp");
    let p = prepare(preset.bound, &preset.given(), None).unwrap();
    let params: bnp_entry::BnpParams = serde_json::from_value(p.effective.clone()).unwrap();
    let defaults = microagg_solvers::bnp::BnpOptions::default();
    let expected = microagg_solvers::bnp::BnpOptions {
        rank1_cuts: true,
        big_cut_records: 24,
        max_cuts: 8000,
        strong_branching: bnp_entry::STRONG_BRANCHING,
        count_branching: bnp_entry::COUNT_BRANCHING,
        ..defaults
    };
    assert_ne!(expected, defaults);
    assert_eq!(params.options(), expected);
}

/// The guard's fallback preset passes the registry's checks, is what the guard runs (its
/// time limit aside) and gives the line search from the nn duals at most 90 % of the run,
/// column generation the rest (colgen's default iteration budget).
#[test]
fn the_auto_colgen_preset_is_the_guards_checked_colgen_run() {
    let preset = presets::find(presets::AUTO_COLGEN).unwrap();
    assert_eq!(preset.bound, "colgen");
    let given = super::bnp_guard::fallback_params(30.0).unwrap();
    let mut without_limit = given.clone();
    without_limit.remove("time_limit");
    assert_eq!(without_limit, preset.given());
    let p = prepare(preset.bound, &given, None).unwrap();
    assert_eq!(p.param("time_limit"), 30.0);
    assert_eq!(p.effective["nn_ascent"], json!(0.9));
    let defaults = prepare("colgen", &Map::new(), None).unwrap();
    assert_eq!(
        p.effective["max_iterations"],
        defaults.effective["max_iterations"]
    );
}

#[test]
fn a_working_report_shows_the_master_value_and_improvements_do_not() {
    let report = |what: &'static str, master: Option<f64>| BoundProgress {
        what,
        seconds: 12.5,
        nodes: 1,
        open_nodes: 0,
        incumbent_sse: 110.0,
        lower_bound: 100.0,
        master,
    };
    let working = bnp::progress_line(&report("working", Some(104.25)), 1000.0);
    assert!(working.contains("working"), "{working}");
    assert!(working.ends_with("master LP 104.250000"), "{working}");
    assert!(
        working.contains("bound SSE 100.000000 (IL 10.000000 %)"),
        "{working}"
    );
    // Artificial columns in the master: no value to show.
    let boxed = bnp::progress_line(&report("working", None), 1000.0);
    assert!(!boxed.contains("master LP"), "{boxed}");
    let bound = bnp::progress_line(&report("bound", None), 1000.0);
    assert!(
        !bound.contains("master LP") && bound.contains("bound SSE 100.000000"),
        "{bound}"
    );
}
