//! The registry of reproductions, walked entry by entry: each has its folder of code, its
//! data, its scenarios (each one loads), its calibration where it says it has one, its
//! documentation page and its committed image; each runs, and writes exactly the files
//! it declares; and the command line lists every one of them.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use ethersim::report::atomic::Staged;
use ethersim::repro::{Reproduction, REGISTRY};
use ethersim::scenario;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The files directly in `dir` with extension `ext`, sorted.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == ext))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// What is missing of reproduction `r` in the repository, one line each.
fn missing(r: &dyn Reproduction) -> Vec<String> {
    let name = r.name();
    let mut out = Vec::new();
    let mut need = |ok: bool, what: String| {
        if !ok {
            out.push(format!("{name}: {what}"));
        }
    };
    need(
        root().join("src/repro").join(name).join("mod.rs").is_file(),
        format!("no src/repro/{name}/mod.rs"),
    );
    need(
        !files(&root().join("data").join(name), "csv").is_empty(),
        format!("no CSV in data/{name}/"),
    );
    let scenarios = files(&root().join("scenarios").join(name), "toml");
    need(!scenarios.is_empty(), format!("no scenario in scenarios/{name}/"));
    need(
        root().join("calibrations").join(name).join("fit.toml").is_file() == r.calibrated(),
        format!(
            "calibrated() is {} but calibrations/{name}/fit.toml {}",
            r.calibrated(),
            if r.calibrated() { "is missing" } else { "exists" }
        ),
    );
    need(
        root().join("docs/repro").join(format!("{name}.md")).is_file(),
        format!("no docs/repro/{name}.md"),
    );
    let images: Vec<&&str> = r.files().iter().filter(|f| f.ends_with(".png")).collect();
    need(!images.is_empty(), "declares no image (.png)".into());
    for i in images {
        need(
            root().join("output").join(i).is_file(),
            format!("its image output/{i} is not in the repository"),
        );
    }
    out
}

#[test]
fn every_reproduction_has_its_folder_data_scenarios_calibration_page_and_image() {
    assert!(REGISTRY.len() >= 4, "the four seed systems");
    let problems: Vec<String> = REGISTRY.iter().flat_map(|r| missing(*r)).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_reproductions_scenario_loads() {
    let mut loaded = 0;
    for r in REGISTRY {
        let all = files(&root().join("scenarios").join(r.name()), "toml");
        // a hardware file (named by the others' `hardware` key) is not a scenario itself
        // (or one the profile catalogue takes profiles `from`)
        let hardware: Vec<String> = all
            .iter()
            .flat_map(|f| {
                let text = std::fs::read_to_string(f).unwrap();
                let doc: toml::Table = text.parse().unwrap();
                doc.get("hardware")
                    .and_then(|h| h.as_str())
                    .map(|h| h.rsplit('/').next().unwrap_or(h).to_string())
            })
            .collect();
        let catalogue = std::fs::read_to_string(root().join("hardware/catalogue.toml")).unwrap();
        for f in &all {
            let file = f.file_name().unwrap().to_string_lossy().into_owned();
            if hardware.contains(&file) || catalogue.contains(&format!("/{file}#")) {
                continue;
            }
            if let Err(e) = scenario::load(f, &[]) {
                panic!("{}: {e}", f.display());
            }
            loaded += 1;
        }
    }
    assert!(loaded >= 4 + 8 + 9 + 3, "only {loaded} scenarios loaded");
}

#[test]
fn the_walk_notices_what_is_missing() {
    /// A reproduction with nothing behind it.
    struct Ghost;
    impl Reproduction for Ghost {
        fn name(&self) -> &'static str {
            "ghost"
        }
        fn aliases(&self) -> &'static [&'static str] {
            &[]
        }
        fn summary(&self) -> &'static str {
            "nothing"
        }
        fn measured(&self) -> bool {
            false
        }
        fn calibrated(&self) -> bool {
            true
        }
        fn report_seeds(&self) -> Vec<u64> {
            vec![1]
        }
        fn files(&self) -> &'static [&'static str] {
            &["ghost.png"]
        }
        fn run(
            &self,
            _: &[scenario::Override],
            _: &mut Staged,
        ) -> Result<String, ethersim::repro::ReproError> {
            Ok(String::new())
        }
    }
    let m = missing(&Ghost);
    assert_eq!(m.len(), 6, "{m:#?}");
}

#[test]
fn every_reproduction_writes_exactly_the_files_it_declares() {
    for r in REGISTRY {
        let dir = tempfile::tempdir().unwrap();
        let mut staged = Staged::new(dir.path());
        let table = r
            .run(&[], &mut staged)
            .unwrap_or_else(|e| panic!("{}: {e}", r.name()));
        assert!(!table.is_empty(), "{}: an empty table", r.name());
        let written = staged.commit().unwrap();
        let mut names: Vec<String> = written
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let mut declared: Vec<String> = r.files().iter().map(|s| s.to_string()).collect();
        declared.sort();
        assert_eq!(names, declared, "{}", r.name());
        // a prediction says so in its table
        if !r.measured() {
            assert!(
                table.to_lowercase().contains("prediction"),
                "{}: a reproduction without measurements must label its figures a \
                 prediction:\n{table}",
                r.name()
            );
        }
    }
}

#[test]
fn reproduce_list_names_every_reproduction_and_accepts_every_alias() {
    let out = Command::cargo_bin("ethersim")
        .unwrap()
        .args(["reproduce", "--list"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for r in REGISTRY {
        assert!(
            text.lines().any(|l| l.trim_start().starts_with(r.name())),
            "{} not listed:\n{text}",
            r.name()
        );
        for a in r.aliases() {
            assert!(text.contains(a), "alias {a} not listed:\n{text}");
            assert_eq!(ethersim::repro::find(a).map(|x| x.name()), Some(r.name()), "{a}");
        }
    }
    // a name outside the registry is refused, and the message lists the registry's names
    let bad = Command::cargo_bin("ethersim")
        .unwrap()
        .args(["reproduce", "figure9"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    for r in REGISTRY {
        assert!(err.contains(r.name()), "{err}");
    }
}
