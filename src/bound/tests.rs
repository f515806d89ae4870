use super::*;

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
    assert_eq!(NAMES, &["nn", "colgen", "colgen-cuts", "bnp", "auto"]);
    for b in BOUNDS {
        assert_eq!(NAMES.iter().filter(|n| **n == b.name).count(), 1);
        // Only nn takes no parameters; the searching bounds take a start and certify.
        assert_eq!(b.name == "nn", b.params.is_empty(), "{}", b.name);
        assert_eq!(b.takes_start(), b.name != "nn", "{}", b.name);
        assert_eq!(b.certificate, b.name != "nn", "{}", b.name);
        assert_eq!(b.incumbent, ["bnp", "auto"].contains(&b.name), "{}", b.name);
        let limit = b.params.iter().find(|p| p.key == "time_limit");
        assert_eq!(limit.is_some(), b.name != "nn", "{}", b.name);
    }
    let cuts = |name| {
        find(name)
            .unwrap()
            .params
            .iter()
            .find(|p| p.key == "cuts")
            .unwrap()
            .default
    };
    assert_eq!(cuts("colgen"), "0");
    assert_eq!(cuts("colgen-cuts"), COLGEN_CUTS_ROUNDS.to_string());
    let limit = find("colgen").unwrap().params[0];
    assert_eq!((limit.key, limit.default), ("time_limit", "60"));
    assert_eq!(
        limit.default.parse::<f64>().unwrap(),
        COLGEN_DEFAULT_SECONDS
    );
}

#[test]
fn bound_parameters_are_typed_and_checked() {
    let mut o = BoundOptions::default();
    assert_eq!(o.set("colgen", "cuts", "5").unwrap(), None);
    assert_eq!(o.cut_rounds, Some(5));
    assert_eq!(o.set("colgen", "time_limit", "2.5").unwrap(), Some(2.5));
    assert!(o.set("colgen", "progress", "true").is_ok() && o.progress);
    let e = o.set("nn", "cuts", "5").unwrap_err().to_string();
    assert!(
        e.contains("bound nn has no parameter 'cuts'") && e.contains("none"),
        "{e}"
    );
    let e = o.set("colgen", "cuts", "many").unwrap_err().to_string();
    assert!(e.contains("cuts=many: expected a count"), "{e}");
    assert!(o.set("colgen", "time_limit", "-1").is_err());
    assert!(o.set("magic", "cuts", "1").is_err());
}

#[test]
fn bnp_parameters_go_through_the_registry() {
    let mut o = BoundOptions::default();
    assert_eq!(o.set("bnp", "cuts", "7").unwrap(), None);
    assert_eq!(o.cut_rounds, Some(7));
    assert_eq!(o.set("bnp", "time_limit", "3").unwrap(), Some(3.0));
    assert_eq!(o.set("bnp", "max_nodes", "9").unwrap(), None);
    assert_eq!(o.max_nodes, 9);
    assert_eq!(o.set("bnp", "max_cuts", "8000").unwrap(), None);
    assert_eq!(o.max_cuts, 8000);
    assert!(!o.count_row);
    assert_eq!(o.set("bnp", "count_row", "true").unwrap(), None);
    assert!(o.count_row);
    assert!(o.set("bnp", "count_row", "yes").is_err());
    assert!(o.set("colgen", "count_row", "true").is_err());
    assert!(o.set("colgen", "max_nodes", "9").is_err());
    let e = o.set("bnp", "nn_ascent", "0.3").unwrap_err().to_string();
    assert!(e.contains("bound bnp has no parameter 'nn_ascent'"), "{e}");
    assert_eq!(
        find("bnp").unwrap().params[0]
            .default
            .parse::<f64>()
            .unwrap(),
        super::bnp::DEFAULT_SECONDS
    );
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
    assert_eq!(find("nn").unwrap().weighted, Some("proofs/P41"));
    assert_eq!(find("colgen").unwrap().weighted, Some("proofs/P43"));
    assert!(weighted::check_weighted_name("nn").is_ok());
    assert!(weighted::check_weighted_name("colgen").is_ok());
    let e = weighted::check_weighted_name("bnp")
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "bound bnp with --weights: only nn (proofs/P41) and colgen (proofs/P43) have a \
         weighted version; colgen-cuts, bnp and auto price unweighted groups (docs/weights.md). \
         Use --bound nn or colgen, or leave out --weights"
    );
    assert!(weighted::check_weighted_name("colgen-cuts").is_err());
    assert!(weighted::check_weighted_name("nope").is_err());
}
