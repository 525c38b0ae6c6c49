//! The user documents hold together: README.md, CHANGELOG.md and every `docs/**/*.md`.
//!
//! - every relative link (`[text](path)`, `![alt](path)` and `[label]: path`) resolves to a file
//!   or directory of the repository (web and mail links and in-page anchors are not checked);
//! - README.md has at most 300 lines;
//! - no user document names an issue number or a test function: what a user reads says what
//!   the program does, not how its development went.
//!
//! Only the standard library is used: the scans are small hand-written matchers.

use std::fs;
use std::path::{Path, PathBuf};

const README_MAX_LINES: usize = 300;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md, CHANGELOG.md and every Markdown file under docs/, sorted.
fn user_documents() -> Vec<PathBuf> {
    let root = root();
    let mut docs = vec![root.join("README.md"), root.join("CHANGELOG.md")];
    let mut under_docs = Vec::new();
    collect_files(&root.join("docs"), "md", &mut under_docs);
    under_docs.sort();
    docs.extend(under_docs);
    docs
}

/// Every file under `dir` (recursively) whose extension is `ext`; nothing if `dir` is absent.
fn collect_files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            collect_files(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn shown(path: &Path) -> String {
    path.strip_prefix(root()).unwrap_or(path).display().to_string()
}

/// The lines of `text` outside fenced code blocks (``` or ~~~), with their 1-based numbers
/// and with inline code spans blanked out.
fn prose_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fence: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker: String = trimmed.chars().take_while(|&c| c == '`' || c == '~').collect();
        if let Some(open) = &fence {
            if marker.len() >= open.len() && marker.starts_with(&open[..1]) {
                fence = None;
            }
            continue;
        }
        if marker.len() >= 3 && (marker.starts_with("```") || marker.starts_with("~~~")) {
            fence = Some(marker);
            continue;
        }
        out.push((i + 1, blank_code_spans(line)));
    }
    out
}

/// `line` with every inline code span (a run of n backticks up to the next run of exactly n)
/// replaced by spaces; an unclosed run is left as it is.
fn blank_code_spans(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = chars.clone();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && chars[i] == '`' {
            i += 1;
        }
        let run = i - start;
        // Find the closing run of exactly `run` backticks.
        let mut j = i;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '`' {
                let s = j;
                while j < chars.len() && chars[j] == '`' {
                    j += 1;
                }
                if j - s == run {
                    close = Some(j);
                    break;
                }
            } else {
                j += 1;
            }
        }
        if let Some(end) = close {
            for c in &mut out[start..end] {
                *c = ' ';
            }
            i = end;
        }
    }
    out.into_iter().collect()
}

/// The link targets of one prose line: `](target)` of inline links and images, and the
/// target of a reference definition `[label]: target`.
fn link_targets(line: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let mut depth = 1;
        let mut end = None;
        for (k, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(k);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else { break };
        targets.push(after[..end].to_string());
        rest = &after[end + 1..];
    }
    let t = line.trim_start();
    if t.starts_with('[') && !t.starts_with("[^") {
        if let Some(close) = t.find("]:") {
            if !t[1..close].contains(']') {
                targets.push(t[close + 2..].to_string());
            }
        }
    }
    targets
}

/// The file a link target names, relative to `doc`'s directory, or None when it is not a
/// relative link (web, mail, in-page anchor).
fn relative_path(doc: &Path, target: &str) -> Option<PathBuf> {
    let mut t = target.trim();
    if let Some(inner) = t.strip_prefix('<') {
        t = inner.split('>').next().unwrap_or("");
    } else {
        // `path "title"`: the path is the first word.
        t = t.split_whitespace().next().unwrap_or("");
    }
    let lower = t.to_ascii_lowercase();
    if t.is_empty()
        || t.starts_with('#')
        || lower.starts_with("http://")
        || lower.starts_with("https://")
        || lower.starts_with("mailto:")
    {
        return None;
    }
    let path = t.split(['#', '?']).next().unwrap_or("");
    if path.is_empty() {
        return None;
    }
    Some(doc.parent().expect("a document's directory").join(path))
}

#[test]
fn every_relative_link_in_the_user_documents_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for doc in user_documents() {
        let text = read(&doc);
        for (n, line) in prose_lines(&text) {
            for target in link_targets(&line) {
                if let Some(path) = relative_path(&doc, &target) {
                    checked += 1;
                    if !path.exists() {
                        broken.push(format!("{}:{n}: {target}", shown(&doc)));
                    }
                }
            }
        }
    }
    assert!(checked > 0, "no relative link found: the scan is broken");
    assert!(
        broken.is_empty(),
        "{} relative link(s) do not resolve:\n  {}",
        broken.len(),
        broken.join("\n  ")
    );
}

#[test]
fn readme_is_at_most_300_lines() {
    let lines = read(&root().join("README.md")).lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines; at most {README_MAX_LINES}: move detail into docs/"
    );
}

/// Byte offsets in `text` where `(?i)\bissues?\s*#?\d+` matches.
fn issue_mentions(text: &str) -> Vec<usize> {
    let lower = text.to_ascii_lowercase();
    let b = lower.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut hits = Vec::new();
    let mut from = 0;
    while let Some(k) = lower[from..].find("issue") {
        let at = from + k;
        from = at + 5;
        if at > 0 && word(b[at - 1]) {
            continue;
        }
        let mut i = at + 5;
        if i < b.len() && b[i] == b's' {
            i += 1;
        }
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i < b.len() && b[i] == b'#' {
            i += 1;
        }
        if i < b.len() && b[i].is_ascii_digit() {
            hits.push(at);
        }
    }
    hits
}

/// Whether a prose line (code spans blanked, link targets removed) has `#` directly followed
/// by a digit, as in an issue or pull-request reference (`&#123;`, an HTML entity, is not).
fn has_hash_number(line: &str) -> bool {
    let b = line.as_bytes();
    (0..b.len().saturating_sub(1))
        .any(|i| b[i] == b'#' && b[i + 1].is_ascii_digit() && (i == 0 || b[i - 1] != b'&'))
}

/// `line` without its link targets (`](...)`), whose anchors may start with a digit.
fn without_link_targets(line: &str) -> String {
    let mut out = line.to_string();
    for t in link_targets(line) {
        out = out.replacen(&format!("]({t})"), "]()", 1);
    }
    out
}

/// The names of the `#[test]` functions of the crate's tests and sources that have an
/// underscore in them (a one-word name such as `golden` is also an ordinary word).
fn test_function_names() -> Vec<String> {
    let root = root();
    let mut files = Vec::new();
    collect_files(&root.join("tests"), "rs", &mut files);
    collect_files(&root.join("src"), "rs", &mut files);
    let mut names = Vec::new();
    for file in files {
        // An attribute line `#[test]`, then (past any other attributes) its `fn` line.
        let mut pending = false;
        for line in read(&file).lines() {
            let line = line.trim_start();
            if line.starts_with("#[test]") {
                pending = true;
            } else if pending {
                let Some(f) = line.find("fn ") else { continue };
                let name: String = line[f + 3..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if name.contains('_') {
                    names.push(name);
                }
                pending = false;
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

/// Whether `name` occurs in `text` as a whole identifier.
fn names_identifier(text: &str, name: &str) -> bool {
    let b = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut from = 0;
    while let Some(k) = text[from..].find(name) {
        let at = from + k;
        let end = at + name.len();
        if (at == 0 || !ident(b[at - 1])) && (end == b.len() || !ident(b[end])) {
            return true;
        }
        from = at + 1;
    }
    false
}

#[test]
fn no_user_document_names_an_issue_number_or_a_test_function() {
    let tests = test_function_names();
    assert!(
        tests.len() > 10,
        "found only {} test functions: the scan is broken",
        tests.len()
    );
    // The scanners themselves, on text made up for them.
    assert_eq!(
        issue_mentions("see Issue #13 and issues 4, not tissue 5").len(),
        2
    );
    assert!(has_hash_number("fixed in #42") && !has_hash_number("&#8212; and # 1"));
    assert!(names_identifier("run `a_b` now", "a_b") && !names_identifier("xa_b", "a_b"));

    let mut found = Vec::new();
    for doc in user_documents() {
        let text = read(&doc);
        for at in issue_mentions(&text) {
            let n = text[..at].matches('\n').count() + 1;
            found.push(format!("{}:{n}: an issue number", shown(&doc)));
        }
        for (n, line) in prose_lines(&text) {
            if has_hash_number(&without_link_targets(&line)) {
                found.push(format!("{}:{n}: `#` and a number", shown(&doc)));
            }
        }
        for name in &tests {
            if names_identifier(&text, name) {
                found.push(format!("{}: the test function `{name}`", shown(&doc)));
            }
        }
    }
    assert!(
        found.is_empty(),
        "user documents must say what the program does, not how it was developed:\n  {}",
        found.join("\n  ")
    );
}
