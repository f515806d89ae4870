use super::csv_rows::seed_field;
use super::*;

fn row(il: f64, sd: Option<f64>) -> CaseRow {
    CaseRow {
        instance: "a_b".into(),
        instance_name: "a_b".into(),
        n: 10,
        d: 2,
        k: 3,
        pipeline: "mdav".into(),
        method: "mdav".into(),
        runs: 2,
        best_il: il,
        mean_il: il,
        sd_il: sd,
        best_sse: 1.0,
        mean_seconds: 0.5,
        bound_sse: None,
        bound_il: None,
        gap: None,
        bound_name: None,
        bound_source: None,
        best_known_sse: None,
        gap_best_known: None,
        published_il: Some(16.9326),
        published_sse: None,
        published_source: Some("Paper, Table 1".into()),
    }
}

#[test]
fn best_values_of_a_case_are_bold_in_latex_and_starred_in_markdown() {
    let mut a = row(1.5, None);
    a.best_sse = 1.0;
    let mut b = row(2.5, None);
    b.pipeline = "mdav1".into();
    b.best_sse = 2.0;
    b.mean_il = 1.25; // better mean, worse best
    let mut other = row(9.0, None);
    other.k = 5; // another case: its own best
    other.best_sse = 9.0;
    let md = render(&[a.clone(), b.clone(), other.clone()], Format::Markdown);
    // (best IL, mean IL) cells of each row.
    let il_cells: Vec<(String, String)> = md
        .lines()
        .filter(|l| l.starts_with("| a_b"))
        .map(|l| {
            let c: Vec<&str> = l.split('|').map(str::trim).collect();
            (c[6].to_string(), c[7].to_string())
        })
        .collect();
    let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(
        il_cells,
        vec![
            pair("**1.5000**", "1.5000"),
            pair("2.5000", "**1.2500**"),
            pair("**9.0000**", "**9.0000**")
        ],
        "{md}"
    );
    let tex = render(&[a, b, other], Format::Latex);
    assert!(tex.contains("\\textbf{1.5000} & 1.5000 &"), "{tex}");
    assert!(tex.contains("2.5000 & \\textbf{1.2500} &"), "{tex}");
    assert_eq!(tex.matches("\\textbf{").count(), 4, "{tex}");
}

#[test]
fn seeds_above_2_pow_53_are_quoted_strings() {
    assert_eq!(seed_field(1 << 53), "9007199254740992");
    assert_eq!(seed_field((1 << 53) + 1), "\"9007199254740993\"");
    assert_eq!(seed_field(u64::MAX), "\"18446744073709551615\"");
}

#[test]
fn latex_is_booktabs_with_escaped_names_and_sources() {
    let s = render(&[row(1.5, None)], Format::Latex);
    assert!(s.contains("\\toprule") && s.contains("\\midrule") && s.contains("\\bottomrule"));
    assert!(s.contains("a\\_b & 10 & 3"), "{s}");
    // A single row is its case's best.
    assert!(
        s.contains("\\textbf{1.5000} & \\textbf{1.5000} & - & 1.0000 &"),
        "{s}"
    );
    assert!(s.contains("16.9326"), "{s}");
    assert!(s.contains("% Published: Paper, Table 1"), "{s}");
}

#[test]
fn csv_quotes_fields_with_commas_and_leaves_missing_values_empty() {
    let s = render(&[row(2.0, Some(0.25))], Format::Csv);
    let line = s.lines().nth(1).unwrap();
    // The bound's method and source and the best-known SSE and its gap come last (empty).
    assert!(line.ends_with(",16.9326,,\"Paper, Table 1\",,,,"), "{line}");
    assert!(line.contains(",2,2,0.25,1,0.5,,,,"), "{line}");
}

#[test]
fn markdown_footnotes_name_the_source_of_each_published_value() {
    let a = row(1.5, None);
    let mut b = row(2.5, None);
    b.pipeline = "mdav1".into();
    b.published_source = Some("Other paper, Table 3".into());
    let mut c = row(3.5, None);
    c.pipeline = "cbfs".into();
    c.published_il = None;
    c.published_source = None;
    let s = markdown(&[a, b, c], &(0..16).collect::<Vec<usize>>());
    let line = |p: &str| {
        s.lines()
            .find(|l| l.starts_with("| a_b ") && l.contains(&format!(" {p} ")))
            .unwrap()
            .to_string()
    };
    assert!(line("mdav").contains("16.9326 [1]"), "{s}");
    assert!(line("mdav1").contains("16.9326 [2]"), "{s}");
    assert!(!line("cbfs").contains('['), "{s}");
    assert!(s.contains("\n[1] Published: Paper, Table 1.\n"), "{s}");
    assert!(
        s.contains("\n[2] Published: Other paper, Table 3.\n"),
        "{s}"
    );
}
