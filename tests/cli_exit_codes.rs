//! Exit statuses of the command line: 0 for success, 2 for a command line that is wrong
//! in itself (a flag's syntax, flags that contradict each other or miss their partner),
//! 1 for every other failure (an input file that is missing or invalid, a run that fails).
//! Each usage error names the flag at fault, and nothing is written.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;

fn scenario() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/saturate.toml")
}

fn ethersim() -> Command {
    let mut c = Command::cargo_bin("ethersim").unwrap();
    c.timeout(Duration::from_secs(120));
    c
}

/// `args` (after the subcommand and the scenario) exits with `code`, its stderr contains
/// every one of `words`, and `--out` is left unwritten.
fn refused(sub: &str, args: &[&str], code: i32, words: &[&str]) {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("out");
    let mut c = ethersim();
    c.arg(sub).arg(scenario()).args(args);
    if sub != "validate" {
        c.arg("--out").arg(&out);
    }
    let o = c.output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(code), "{sub} {args:?}: {err}");
    for w in words {
        assert!(err.contains(w), "{sub} {args:?}: no {w:?} in {err}");
    }
    assert!(err.contains("error"), "{sub} {args:?}: {err}");
    assert!(!out.exists(), "{sub} {args:?} wrote {}", out.display());
}

fn usage(sub: &str, args: &[&str], words: &[&str]) {
    refused(sub, args, 2, words)
}

/// A sweep of `args`, its runs cut short (should the command line be wrongly accepted).
fn sweep_usage(args: &[&str], words: &[&str]) {
    let mut all = vec!["--set", "run.duration_s=0.01"];
    all.extend_from_slice(args);
    usage("sweep", &all, words)
}

#[test]
fn test_sweep_param_without_values_is_a_usage_error() {
    sweep_usage(&["--param", "nodes.stations.count"], &["--param"]);
}

#[test]
fn test_sweep_param_left_without_values_among_others_is_a_usage_error() {
    sweep_usage(
        &[
            "--param",
            "nodes.stations.count",
            "--param",
            "apps[0].frame_bytes",
            "--values",
            "64",
        ],
        &["--param nodes.stations.count needs --values"],
    );
}

#[test]
fn test_sweep_param_with_two_value_lists_is_a_usage_error() {
    sweep_usage(
        &[
            "--param",
            "nodes.stations.count",
            "--values",
            "1",
            "--range",
            "2..3",
        ],
        &["--param nodes.stations.count", "more than one"],
    );
}

#[test]
fn test_sweep_values_before_any_param_is_a_usage_error() {
    sweep_usage(
        &[
            "--values",
            "1,2",
            "--param",
            "nodes.stations.count",
            "--values",
            "3",
        ],
        &["--values", "must follow"],
    );
}

#[test]
fn test_sweep_range_of_bad_syntax_is_a_usage_error() {
    sweep_usage(
        &["--param", "nodes.stations.count", "--range", "2-4"],
        &["--range", "2-4"],
    );
}

#[test]
fn test_sweep_empty_value_is_a_usage_error() {
    sweep_usage(
        &["--param", "nodes.stations.count", "--values", "1,,2"],
        &["--values", "empty"],
    );
}

#[test]
fn test_sweep_param_that_is_no_key_is_a_usage_error() {
    sweep_usage(&["--param", "apps[0]..stations", "--values", "1"], &["--param"]);
}

#[test]
fn test_sweep_key_given_twice_is_a_usage_error() {
    sweep_usage(
        &[
            "--param",
            "nodes.stations.count",
            "--values",
            "1,2",
            "--param",
            "nodes.stations.count",
            "--values",
            "3",
        ],
        &["--param nodes.stations.count is given twice"],
    );
    sweep_usage(
        &["--seed", "5", "--param", "seed", "--values", "1,2"],
        &["--param seed and --seed"],
    );
}

#[test]
fn test_run_wide_with_another_format_is_refused() {
    for f in ["json", "csv"] {
        usage("run", &["--format", f, "--wide"], &["--wide", "--format"]);
    }
}

#[test]
fn test_run_pcap_window_without_pcap_is_a_usage_error() {
    usage("run", &["--pcap-window", "1ms..2ms"], &["--pcap"]);
}

#[test]
fn test_run_set_without_a_value_is_a_usage_error() {
    usage("run", &["--set", "nodes.stations.count"], &["--set", "KEY=VALUE"]);
    usage("validate", &["--set", "=3"], &["--set"]);
}

#[test]
fn test_run_key_set_twice_is_a_usage_error() {
    usage(
        "run",
        &[
            "--set",
            "nodes.stations.count=2",
            "--set",
            "nodes.stations.count=3",
        ],
        &["--set", "given twice"],
    );
    usage("run", &["--set", "seed=2", "--seed", "3"], &["--seed", "--set"]);
}

#[test]
fn test_bad_numbers_in_flags_are_usage_errors() {
    usage("run", &["--seed", "x"], &["--seed"]);
    usage("run", &["--format", "xml"], &["--format"]);
    usage(
        "run",
        &["--pcap", "p", "--pcap-window", "1..3ms"],
        &["--pcap-window"],
    );
}

#[test]
fn test_trace_window_errors_are_usage_errors() {
    usage("trace", &["--from", "3ms", "--to", "1ms"], &["--to", "--from"]);
    usage("trace", &["--from", "0", "--to", "6ms"], &["--to", "5000 µs"]);
}

#[test]
fn test_calibrate_contradictory_flags_are_usage_errors() {
    let o = ethersim()
        .args([
            "calibrate",
            "calibrations/bulletin/fit.toml",
            "--evaluate",
            "--in-place",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--in-place"));
}

#[test]
fn test_unknown_subcommand_or_flag_is_a_usage_error() {
    ethersim()
        .arg("runn")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("runn"));
    ethersim()
        .args(["run", "x.toml", "--frobnicate"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--frobnicate"));
}

// --- failures that are not usage errors: exit 1 ---

#[test]
fn test_missing_scenario_file_fails_with_1() {
    let d = tempfile::tempdir().unwrap();
    let missing = d.path().join("no-such-scenario.toml");
    for sub in ["run", "validate"] {
        ethersim()
            .arg(sub)
            .arg(&missing)
            .assert()
            .code(1)
            .stderr(predicate::str::contains("no-such-scenario.toml"));
    }
}

#[test]
fn test_invalid_scenario_value_fails_with_1() {
    refused(
        "run",
        &["--set", "nodes.stations.count=2000"],
        1,
        &["nodes.stations.count", "out of range"],
    );
    refused(
        "validate",
        &["--set", "nodes.stations.count=0"],
        1,
        &["nodes.stations.count"],
    );
}

#[test]
fn test_invalid_scenario_file_fails_with_1() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("bad.toml");
    std::fs::write(
        &f,
        "name = \"x\"\n[workload]\nkind = \"saturate\"\nstations = \"many\"\n",
    )
    .unwrap();
    ethersim()
        .arg("validate")
        .arg(&f)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("bad.toml:4"));
}

#[test]
fn test_success_is_0() {
    ethersim().arg("validate").arg(scenario()).assert().code(0);
}

#[test]
fn test_unknown_catalogue_name_is_a_usage_error() {
    for action in ["show", "export"] {
        let d = tempfile::tempdir().unwrap();
        let mut c = ethersim();
        c.args(["scenarios", action, "no-such-scenario"]);
        if action == "export" {
            c.arg(d.path().join("x"));
        }
        c.assert().code(2).stderr(
            predicate::str::contains("no-such-scenario").and(predicate::str::contains("ethersim scenarios")),
        );
        assert!(!d.path().join("x").exists());
    }
}

#[test]
fn test_sweep_range_bounds_and_size_are_usage_errors() {
    sweep_usage(
        &["--param", "nodes.stations.count", "--range", "5..1"],
        &["--range", "5..1"],
    );
    sweep_usage(
        &["--param", "nodes.stations.count", "--range", "1..10000000"],
        &["--range", "at most"],
    );
}
