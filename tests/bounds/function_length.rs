//! No function in `src` or `solvers/src` is longer than 150 lines (signature to closing brace),
//! so that each fits on about three screens. The source is read with comments, string and
//! character literals blanked, and each `fn` item's body measured by matching braces.

use std::path::Path;

const MAX_LINES: usize = 150;

/// `src` with comments and string and character literals replaced by spaces (newlines
/// kept), so that braces inside them do not count.
fn blanked(src: &str) -> Vec<u8> {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            let end = b[i..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |p| i + p);
            blank(&mut out, i, end);
            i = end;
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            blank(&mut out, i, j + 1);
            i = j + 1;
        } else if b[i] == b'\'' && i + 2 < b.len() && (b[i + 2] == b'\'' || b[i + 1] == b'\\') {
            // A character literal ('{', '\n'); lifetimes have no closing quote there.
            let end = i + b[i + 1..].iter().position(|&c| c == b'\'').unwrap() + 2;
            let end = if b[i + 1] == b'\\' && b[i + 2] == b'\'' {
                end + 1
            } else {
                end
            };
            blank(&mut out, i, end);
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// (lines, name, first line) of every function with a body in `src`.
fn functions(src: &str) -> Vec<(usize, String, usize)> {
    let s = blanked(src);
    let line_of = |at: usize| s[..at].iter().filter(|&&c| c == b'\n').count() + 1;
    let mut found = Vec::new();
    let text = String::from_utf8_lossy(&s).into_owned();
    for (at, _) in text.match_indices("fn ") {
        let word_start = at == 0 || !(s[at - 1].is_ascii_alphanumeric() || s[at - 1] == b'_');
        if !word_start {
            continue;
        }
        let name: String = text[at + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let Some(open) = s[at..].iter().position(|&c| c == b'{' || c == b';') else {
            continue;
        };
        if name.is_empty() || s[at + open] == b';' {
            continue; // a declaration without a body, or `fn(` in a type
        }
        let mut depth = 0usize;
        let mut close = at + open;
        for (j, &c) in s.iter().enumerate().skip(at + open) {
            depth = match c {
                b'{' => depth + 1,
                b'}' => depth - 1,
                _ => depth,
            };
            if depth == 0 {
                close = j;
                break;
            }
        }
        found.push((line_of(close) - line_of(at) + 1, name, line_of(at)));
    }
    found
}

#[test]
fn no_function_in_the_sources_is_over_150_lines() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "solvers/src"] {
        crate::common::rust_sources(&manifest.join(dir), &mut files);
    }
    assert!(
        files.len() > 300,
        "{} files under src and solvers/src",
        files.len()
    );
    let mut longest = (0, String::new());
    let mut over = Vec::new();
    for path in &files {
        let src = std::fs::read_to_string(path).unwrap();
        for (lines, name, at) in functions(&src) {
            if lines > longest.0 {
                longest = (lines, format!("{name} ({}:{at})", path.display()));
            }
            if lines > MAX_LINES {
                over.push(format!("{name}: {lines} lines ({}:{at})", path.display()));
            }
        }
    }
    assert!(over.is_empty(), "over {MAX_LINES} lines: {over:#?}");
    // The measure sees long functions (the longest is well above a screen).
    assert!(longest.0 > 100, "longest {longest:?}");
}

#[test]
fn the_measure_counts_a_function_from_signature_to_closing_brace() {
    let src = "fn a() {\n    let s = \"}\";\n    // }\n    let c = '{';\n}\nfn b(x: &'static str) -> fn(u8) { x; loop {} }\n";
    let found = functions(src);
    assert_eq!(
        found,
        [(5, "a".to_string(), 1), (1, "b".to_string(), 6)],
        "{found:?}"
    );
}
