//! Assertions shared by the randomised tests.

/// Prints in how many of `cases` cases the property under test showed (`count`), and asserts
/// it showed in at least `floor` (else the test exercises little of it).
pub fn assert_shown_in(what: &str, count: usize, cases: usize, floor: usize) {
    println!("{what} in {count} of {cases} cases");
    assert!(
        count >= floor,
        "{what} in only {count} of {cases} cases (at least {floor} wanted)"
    );
}

/// Requires every one of `needles` in `text` (a message, a report); the failure shows `text`.
pub fn assert_contains_all(text: &str, needles: &[&str]) {
    assert!(needles.iter().all(|n| text.contains(n)), "{text}");
}
