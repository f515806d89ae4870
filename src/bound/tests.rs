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
    assert_eq!(NAMES, &["nn", "colgen", "colgen-cuts"]);
    for b in BOUNDS {
        assert_eq!(NAMES.iter().filter(|n| **n == b.name).count(), 1);
        // is_colgen and the parameters agree: only colgen bounds take parameters.
        assert_eq!(is_colgen(b.name), !b.params.is_empty(), "{}", b.name);
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
    assert_eq!(o.cut_rounds, 5);
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
