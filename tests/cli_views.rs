//! Snapshots of every human-facing view (issue 16), reviewed by eye: `run`'s default view
//! for saturate and PERFORM3, `--wide`, `--explain`, the sweep summary, the Figure 1 and
//! ttcp 1995 comparisons, `reproduce --list` and `validate`; and the rule that no line of a default view is wider than
//! 100 columns.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;

fn scenario(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios").join(name)
}

/// stdout of `ethersim ARGS` run in the crate's directory (scenario paths stay relative).
fn stdout(args: &[&str]) -> String {
    let out = Command::cargo_bin("ethersim")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .timeout(Duration::from_secs(120))
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

fn assert_fits(what: &str, text: &str) {
    for line in text.lines() {
        assert!(
            line.chars().count() <= 100,
            "{what}: a line of {} columns:\n{line}",
            line.chars().count()
        );
    }
}

const SCENARIOS: [&str; 5] = [
    "saturate.toml",
    "bulletin/16bit-optimized.toml",
    "bulletin/16bit-defaults.toml",
    "bulletin/8bit-optimized.toml",
    "bulletin/8bit-defaults.toml",
];

#[test]
fn run_default_view_saturate() {
    insta::assert_snapshot!(stdout(&["run", "scenarios/saturate.toml"]));
}

#[test]
fn run_default_view_perform3() {
    insta::assert_snapshot!(stdout(&["run", "scenarios/bulletin/16bit-optimized.toml", "-q"]));
}

#[test]
fn run_wide_perform3() {
    insta::assert_snapshot!(stdout(&[
        "run",
        "scenarios/bulletin/16bit-optimized.toml",
        "-q",
        "--wide"
    ]));
}

#[test]
fn run_wide_saturate() {
    insta::assert_snapshot!(stdout(&["run", "scenarios/saturate.toml", "--wide"]));
}

#[test]
fn run_explain_perform3() {
    insta::assert_snapshot!(stdout(&[
        "run",
        "scenarios/bulletin/8bit-defaults.toml",
        "--explain"
    ]));
}

#[test]
fn run_explain_saturate() {
    insta::assert_snapshot!(stdout(&["run", "scenarios/saturate.toml", "--explain"]));
}

#[test]
fn sweep_summary_with_replications() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("sweep");
    let text = stdout(&[
        "sweep",
        "scenarios/bulletin/16bit-optimized.toml",
        "-q",
        "--param",
        "adapters.server.transmit_buffers",
        "--values",
        "2,4",
        "--set",
        "apps[0].block_sizes=[3072,64512]",
        "--set",
        "run.measure_s=1",
        "--replications",
        "3",
        "--jobs",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_fits("sweep summary", &text);
    insta::assert_snapshot!(text);
}

#[test]
fn figure1_comparison() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("fig");
    let text = stdout(&["figure1", "--jobs", "2", "--out", out.to_str().unwrap()]);
    assert_fits("figure1 comparison", &text);
    insta::assert_snapshot!(text);
}

#[test]
fn ttcp1995_comparison() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("ttcp");
    let text = stdout(&[
        "reproduce",
        "ttcp-1995",
        "--jobs",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_fits("ttcp 1995 comparison", &text);
    insta::assert_snapshot!(text);
}

#[test]
fn reproduce_list() {
    let text = stdout(&["reproduce", "--list"]);
    assert_fits("reproduce --list", &text);
    insta::assert_snapshot!(text);
}

#[test]
fn validate_view() {
    insta::assert_snapshot!(stdout(&["validate", "scenarios/saturate.toml"]));
}

#[test]
fn default_views_fit_in_100_columns() {
    for s in SCENARIOS {
        let path = scenario(s);
        let p = path.to_str().unwrap();
        assert_fits(s, &stdout(&["run", p, "-q"]));
        assert_fits(&format!("{s} --explain"), &stdout(&["run", p, "-q", "--explain"]));
    }
}

#[test]
fn quiet_silences_warnings_not_errors() {
    let run = |args: &[&str]| {
        Command::cargo_bin("ethersim")
            .unwrap()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(args)
            .output()
            .unwrap()
    };
    // an oversized frame asked on the command line: one warning
    let long = [
        "validate",
        "scenarios/saturate.toml",
        "--set",
        "segment.allow_oversize=true",
        "--set",
        "apps[0].frame_bytes=1600",
    ];
    let loud = run(&long);
    assert!(
        String::from_utf8_lossy(&loud.stderr).contains("warning: apps[0].frame_bytes = 1600 exceeds"),
        "{}",
        String::from_utf8_lossy(&loud.stderr)
    );
    // a scenario file that allows its oversized AEX packets itself says so once, in the
    // file: no warning on every run
    let flagship = run(&["validate", "scenarios/bulletin/16bit-optimized.toml"]);
    assert!(flagship.status.success());
    assert_eq!(String::from_utf8_lossy(&flagship.stderr), "");
    // the same file without allow_oversize is refused, naming the packet size
    let strict = run(&[
        "validate",
        "scenarios/bulletin/16bit-optimized.toml",
        "--set",
        "segment.allow_oversize=false",
    ]);
    assert!(!strict.status.success());
    assert!(
        String::from_utf8_lossy(&strict.stderr).contains("adapters.server.packet_size"),
        "{}",
        String::from_utf8_lossy(&strict.stderr)
    );
    // a sweep of oversized frames warns once, not once per run
    let dir = tempfile::tempdir().unwrap();
    let sweep = run(&[
        "sweep",
        "scenarios/saturate.toml",
        "--set",
        "segment.allow_oversize=true",
        "--set",
        "apps[0].frame_bytes=1600",
        "--set",
        "run.duration_s=0.01",
        "--param",
        "nodes.stations.count",
        "--values",
        "1,2,3",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    assert!(
        sweep.status.success(),
        "{}",
        String::from_utf8_lossy(&sweep.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&sweep.stderr).matches("warning:").count(),
        1,
        "{}",
        String::from_utf8_lossy(&sweep.stderr)
    );
    let quiet = run(&[&long[..], &["--quiet"]].concat());
    assert!(quiet.status.success());
    assert_eq!(String::from_utf8_lossy(&quiet.stderr), "");
    let bad = run(&[
        "-q",
        "validate",
        "scenarios/saturate.toml",
        "--set",
        "nodes.stations.count=0",
    ]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("error:"));
}
