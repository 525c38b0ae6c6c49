//! Conventions a user of other command-line tools expects: `--version` names the commit,
//! `-` reads the scenario from standard input, every command that writes files defaults
//! `--out` to `output`, and colour only on a terminal.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scenario(rel: &str) -> PathBuf {
    root().join(rel)
}

fn ethersim() -> Command {
    let mut c = Command::cargo_bin("ethersim").unwrap();
    c.timeout(Duration::from_secs(120));
    c
}

// --- --version ---

#[test]
fn test_version_names_the_package_and_the_commit() {
    let o = ethersim().arg("--version").output().unwrap();
    assert!(o.status.success());
    let v = String::from_utf8(o.stdout).unwrap();
    assert!(v.starts_with("ethersim 0.1.0"), "{v}");
    // built inside a git checkout: the short hash of HEAD in parentheses
    let head = std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(root())
        .output();
    if let Ok(h) = head {
        if h.status.success() && root().join(".git").exists() {
            let hash = String::from_utf8(h.stdout).unwrap().trim().to_string();
            assert!(v.contains(&format!("({hash}")), "{v} does not name {hash}");
        }
    }
}

// --- `-`: the scenario from standard input ---

fn saturate_text() -> String {
    std::fs::read_to_string(scenario("scenarios/saturate.toml"))
        .unwrap()
        .replace("duration_s = 10.0", "duration_s = 0.01")
}

#[test]
fn test_run_reads_the_scenario_from_stdin() {
    let from_stdin = ethersim()
        .args(["run", "-", "--format", "csv"])
        .write_stdin(saturate_text())
        .output()
        .unwrap();
    assert!(
        from_stdin.status.success(),
        "{}",
        String::from_utf8_lossy(&from_stdin.stderr)
    );
    let from_file = ethersim()
        .arg("run")
        .arg(scenario("scenarios/saturate.toml"))
        .args(["--set", "run.duration_s=0.01", "--format", "csv"])
        .output()
        .unwrap();
    assert!(from_file.status.success());
    assert_eq!(
        from_stdin.stdout, from_file.stdout,
        "the same scenario, the same result"
    );
}

#[test]
fn test_validate_reads_stdin_and_locates_errors_there() {
    ethersim()
        .args(["validate", "-"])
        .write_stdin(saturate_text())
        .assert()
        .success()
        .stdout(predicate::str::starts_with("ok: <stdin>: \"saturate\""));
    ethersim()
        .args(["validate", "-"])
        .write_stdin(saturate_text().replace("count = 24", "count = 0"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("<stdin>:").and(predicate::str::contains("nodes.stations.count")));
}

#[test]
fn test_stdin_resolves_its_include_from_the_current_directory() {
    let text = std::fs::read_to_string(scenario("scenarios/bulletin/16bit-optimized.toml")).unwrap();
    // from the scenario's folder, its include is found
    ethersim()
        .args(["validate", "-", "-q"])
        .current_dir(scenario("scenarios/bulletin"))
        .write_stdin(text.clone())
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "profiles from ../../hardware/catalogue.toml",
        ));
    // from elsewhere, the error says how an include from standard input resolves
    let d = tempfile::tempdir().unwrap();
    ethersim()
        .args(["validate", "-"])
        .current_dir(d.path())
        .write_stdin(text)
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("catalogue.toml is not a readable file")
                .and(predicate::str::contains("standard input"))
                .and(predicate::str::contains("current directory")),
        );
}

#[test]
fn test_trace_reads_stdin() {
    let d = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(scenario("scenarios/two-stations-collision.toml")).unwrap();
    ethersim()
        .args(["trace", "-", "--from", "0", "--to", "20us", "--out"])
        .arg(d.path())
        .write_stdin(text)
        .assert()
        .success();
    assert!(d.path().join("trace.svg").is_file());
}

// --- --out defaults to `output` ---

#[test]
fn test_trace_writes_into_output_by_default() {
    let d = tempfile::tempdir().unwrap();
    ethersim()
        .arg("trace")
        .arg(scenario("scenarios/two-stations-collision.toml"))
        .args(["--from", "0", "--to", "20us"])
        .current_dir(d.path())
        .assert()
        .success();
    for f in ["trace.svg", "trace.png"] {
        assert!(d.path().join("output").join(f).is_file(), "no output/{f}");
    }
}

#[test]
fn test_help_shows_the_same_out_default_for_every_writer() {
    for sub in ["sweep", "trace", "figure1", "reproduce"] {
        let o = ethersim().args([sub, "--help"]).output().unwrap();
        let help = String::from_utf8(o.stdout).unwrap();
        assert!(help.contains("default: output"), "{sub} --help: {help}");
    }
}

// --- colour ---

#[test]
fn test_piped_stderr_has_no_colour_codes() {
    for no_color in [None, Some("1")] {
        let mut c = ethersim();
        c.arg("run")
            .arg(scenario("scenarios/saturate.toml"))
            .args(["--set", "nodes.stations.count=0"]);
        if let Some(v) = no_color {
            c.env("NO_COLOR", v);
        }
        let o = c.output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.starts_with("error: "), "{err}");
        assert!(!err.contains('\x1b'), "escape codes on a pipe: {err:?}");
        // a usage error from clap and a warning likewise
        let o = ethersim().args(["run", "--nope"]).output().unwrap();
        assert!(!String::from_utf8_lossy(&o.stderr).contains('\x1b'));
        let o = ethersim()
            .arg("validate")
            .arg(scenario("scenarios/saturate.toml"))
            .args([
                "--set",
                "apps[0].frame_bytes=3000",
                "--set",
                "segment.allow_oversize=true",
            ])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("warning: ") && !err.contains('\x1b'), "{err:?}");
    }
}
