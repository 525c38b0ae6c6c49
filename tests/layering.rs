//! The crate's layering, checked on the source: a module under `src/` refers only to
//! modules at or below its own layer (the order of the crate doc in `src/lib.rs` and of
//! README's module map). A `crate::X` path in code (not in comments) that points up the
//! list fails the test, naming file, line and both layers.

use std::path::Path;

/// Bottom to top, as the crate doc in `src/lib.rs` lists them; modules on one line are
/// peers. The command line (`src/cli/`, in the binary) is above them all.
const LAYERS: [&[&str]; 15] = [
    &["time"],
    &["engine"],
    &["stats"],
    &["ether"],
    &["adapter"],
    &["host"],
    &["nos", "tcp"],
    &["lan"],
    &["workload"],
    &["scenario"],
    &["run"],
    &["report"],
    &["repro"],
    &["calibrate"],
    &["study"],
];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("src/ is readable") {
        let p = e.expect("directory entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every `crate::<name>` on a line of code.
fn crate_paths(line: &str) -> Vec<&str> {
    let code = line.split("//").next().unwrap_or("");
    code.match_indices("crate::")
        .map(|(i, _)| {
            let rest = &code[i + 7..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

#[test]
fn no_module_uses_one_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut violations = Vec::new();
    let mut checked = 0;
    for f in &files {
        let rel = f.strip_prefix(&src).expect("under src");
        let top = rel.iter().next().and_then(|c| c.to_str()).unwrap_or("");
        let Some(own) = layer(top.trim_end_matches(".rs")) else {
            continue; // lib.rs, main.rs, cli/: the top
        };
        let text = std::fs::read_to_string(f).expect("source is UTF-8");
        for (i, line) in text.lines().enumerate() {
            for m in crate_paths(line) {
                checked += 1;
                if let Some(l) = layer(m) {
                    if l > own {
                        violations.push(format!("{}:{}: {top} uses {m}", rel.display(), i + 1));
                    }
                }
            }
        }
    }
    assert!(
        checked > 50,
        "found only {checked} crate paths: is src/ where it should be?"
    );
    assert!(
        violations.is_empty(),
        "layering violations:\n{}",
        violations.join("\n")
    );
}

#[test]
fn the_checker_sees_an_upward_path() {
    assert_eq!(crate_paths("use crate::report::x; // crate::lan"), vec!["report"]);
    assert!(layer("report") > layer("lan"));
}
