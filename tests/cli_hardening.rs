//! The command line under hostile use (issue 9): settings that contradict each other, an
//! unwritable stderr, and an output directory that cannot be used, found before any run.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Stdio;
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

/// A sweep or run that would take minutes: 1024 stations for 100 simulated seconds.
const LONG: [&str; 4] = [
    "--set",
    "nodes.stations.count=1024",
    "--set",
    "run.duration_s=100",
];

// --- contradicting settings (class 4) ---

/// A sweep of contradicting settings: a usage error (exit status 2), nothing written.
fn sweep_fails(args: &[&str], message: &str) {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("out");
    ethersim()
        .arg("sweep")
        .arg(scenario())
        .args(["--set", "run.duration_s=0.01"])
        .args(args)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(message));
    assert!(!out.exists(), "nothing may be written for {args:?}");
}

#[test]
fn test_sweep_refuses_a_param_given_twice() {
    sweep_fails(
        &[
            "--param",
            "nodes.stations.count",
            "--values",
            "1,2",
            "--param",
            "nodes.stations.count",
            "--values",
            "24",
        ],
        "--param nodes.stations.count is given twice",
    );
}

#[test]
fn test_sweep_refuses_a_param_also_set() {
    sweep_fails(
        &[
            "--set",
            "nodes.stations.count=3",
            "--param",
            "nodes.stations.count",
            "--values",
            "1,2",
        ],
        "--set nodes.stations.count and --param nodes.stations.count both set `nodes.stations.count`",
    );
    // a table set around a swept key
    sweep_fails(
        &[
            "--set",
            "segment={length_m=100.0}",
            "--param",
            "segment.length_m",
            "--values",
            "10,20",
        ],
        "`segment.length_m` is inside `segment`",
    );
}

#[test]
fn test_sweep_refuses_a_swept_seed_with_seed() {
    sweep_fails(
        &["--seed", "5", "--param", "seed", "--values", "1,2"],
        "--param seed and --seed both set `seed`",
    );
}

#[test]
fn test_run_refuses_a_key_set_twice_or_seed_set_twice() {
    for args in [
        &[
            "--set",
            "nodes.stations.count=2",
            "--set",
            "nodes.stations.count=3",
        ][..],
        &["--set", "seed=2", "--seed", "3"][..],
    ] {
        ethersim()
            .arg("run")
            .arg(scenario())
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("give it once").or(predicate::str::contains("given twice")));
    }
}

// --- an unwritable stderr (class 8) ---

/// Runs `args` with stderr on /dev/full (every write fails with ENOSPC) and stdout
/// discarded; returns the exit status.
fn status_with_full_stderr(args: &[&std::ffi::OsStr]) -> Option<i32> {
    let bin = assert_cmd::cargo::cargo_bin("ethersim");
    std::process::Command::new(bin)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::from(File::create("/dev/full").unwrap()))
        .status()
        .unwrap()
        .code()
}

#[test]
fn test_unwritable_stderr_keeps_the_intended_status() {
    if !Path::new("/dev/full").exists() {
        return; // not Linux
    }
    let s = scenario();
    let d = tempfile::tempdir().unwrap();
    let os = |x: &'static str| std::ffi::OsStr::new(x);
    let short = [os("--set"), os("run.duration_s=0.01")];
    // success: 0
    let mut run = vec![os("run"), s.as_os_str()];
    run.extend(short);
    assert_eq!(status_with_full_stderr(&run), Some(0));
    // success with a warning on stderr
    let mut warn = run.clone();
    warn.extend([
        os("--set"),
        os("apps[0].frame_bytes=3000"),
        os("--set"),
        os("segment.allow_oversize=true"),
    ]);
    assert_eq!(status_with_full_stderr(&warn), Some(0));
    // success writing files ("wrote ..." on stderr)
    let mut sweep = vec![os("sweep"), s.as_os_str()];
    sweep.extend(short);
    sweep.extend([
        os("--param"),
        os("nodes.stations.count"),
        os("--values"),
        os("1,2"),
    ]);
    sweep.extend([os("--out"), d.path().as_os_str()]);
    assert_eq!(status_with_full_stderr(&sweep), Some(0));
    assert!(d.path().join("sweep.csv").is_file());
    // an error: 1
    let mut bad = run.clone();
    bad.extend([os("--set"), os("nodes.stations.count=0")]);
    assert_eq!(status_with_full_stderr(&bad), Some(1));
    // a usage error (clap): 2
    assert_eq!(
        status_with_full_stderr(&[os("run"), os("--no-such-flag")]),
        Some(2)
    );
}

// --- --out checked before running (class 9) ---

/// `args` with `--out` at `out` fails at once (well before the long run would end) with a
/// message naming `--out`, and leaves the file in the way as it was.
fn out_refused_at_once(args: &[&str], out: &Path, in_the_way: &Path) {
    let mut c = ethersim();
    c.timeout(Duration::from_secs(15));
    c.args(args)
        .arg("--out")
        .arg(out)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("--out"));
    assert_eq!(std::fs::read(in_the_way).unwrap(), b"not a directory");
}

#[test]
fn test_out_in_the_way_is_refused_before_running() {
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("file");
    std::fs::write(&file, b"not a directory").unwrap();
    let s = scenario();
    let s = s.to_str().unwrap();
    let mut run = vec!["run", s];
    run.extend(LONG);
    let mut sweep = vec!["sweep", s, "--param", "seed", "--values", "1,2,3,4,5,6,7,8"];
    sweep.extend(LONG);
    for args in [&run[..], &sweep[..], &["figure1"][..]] {
        // the output directory is a file
        out_refused_at_once(args, &file, &file);
        // the output directory would have to be created inside a file
        out_refused_at_once(args, &file.join("sub"), &file);
    }
}

#[test]
fn test_out_that_does_not_exist_yet_is_created() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("a/b");
    ethersim()
        .arg("run")
        .arg(scenario())
        .args(["--set", "run.duration_s=0.01", "--format", "csv", "--out"])
        .arg(&out)
        .assert()
        .success();
    assert!(out.join("run.csv").is_file());
    // the probe file is gone
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1);
    assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
}
