//! A ttcp run whose transfer does not finish never exits 0 silently: `ethersim run` still
//! prints (and writes) its figures in every format, then exits non-zero with a message on
//! stderr naming the scenario, the bytes moved of the bytes asked and the reason; a sweep
//! writes its files, then names each unfinished run by its values and seed and exits
//! non-zero.

use assert_cmd::Command;

const SCENARIO: &str = "scenarios/ttcp1995/ttcp-1995-3c509-3c509-transmit.toml";
const NAME: &str = "ttcp-1995-3c509-3c509-transmit";

fn ethersim(args: &[&str]) -> std::process::Output {
    Command::cargo_bin("ethersim")
        .unwrap()
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn run_out_of_time_fails_in_every_format() {
    for format in ["table", "csv", "json"] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().to_str().unwrap();
        let o = ethersim(&[
            "run",
            SCENARIO,
            "--set",
            "apps[0].nbuf=64",
            "--set",
            "apps[0].limit_s=0.01",
            "--format",
            format,
            "--out",
            out,
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{format}: {err}");
        assert!(
            err.contains(&format!("error: {NAME}: the transfer did not finish")),
            "{err}"
        );
        assert!(err.contains("of 524288 bytes read"), "{format}: {err}");
        assert!(err.contains("time limit (ttcp's limit_s)"), "{format}: {err}");
        // the figures are still printed and written
        assert!(!o.stdout.is_empty(), "{format}");
        let ext = if format == "table" { "txt" } else { format };
        assert!(dir.path().join(format!("run.{ext}")).exists(), "{format}");
    }
}

#[test]
fn run_on_a_medium_that_loses_every_frame_fails_with_the_loss() {
    let o = ethersim(&[
        "run",
        SCENARIO,
        "--set",
        "segment.corrupt_fraction=1.0",
        "--set",
        "apps[0].limit_s=5",
        "--format",
        "csv",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("(0 of 16777216 bytes read)"), "{err}");
    assert!(err.contains("the medium lost"), "{err}");
    assert!(String::from_utf8_lossy(&o.stdout).contains("NaN"));
}

#[test]
fn run_that_finishes_exits_0() {
    let o = ethersim(&["run", SCENARIO, "--set", "apps[0].nbuf=64", "--format", "csv"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn sweep_names_its_unfinished_runs_and_fails_after_writing() {
    let dir = tempfile::tempdir().unwrap();
    let o = ethersim(&[
        "sweep",
        SCENARIO,
        "--set",
        "apps[0].nbuf=64",
        "--param",
        "apps[0].limit_s",
        "--values",
        "0.01,60",
        "--replications",
        "2",
        "--jobs",
        "2",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("error: 2 of 4 runs did not finish"), "{err}");
    assert!(err.contains("apps[0].limit_s=0.01 seed 1995: "), "{err}");
    assert_eq!(err.matches("apps[0].limit_s=0.01 seed ").count(), 2, "{err}");
    assert!(!err.contains("apps[0].limit_s=60 seed"), "{err}");
    for f in ["sweep.csv", "sweep_summary.csv", "sweep.svg"] {
        assert!(dir.path().join(f).exists(), "{f} not written");
    }
    let csv = std::fs::read_to_string(dir.path().join("sweep.csv")).unwrap();
    assert_eq!(csv.lines().count(), 5, "{csv}");
}
