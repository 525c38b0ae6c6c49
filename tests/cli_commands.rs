//! End to end: every subcommand on the shipped saturate scenario, overrides, formats,
//! output files and sweep determinism across thread counts.

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

/// `ethersim run` with a short duration and the given extra arguments; stdout.
fn run(args: &[&str]) -> String {
    let out = ethersim()
        .arg("run")
        .arg(scenario())
        .args(["--set", "run.duration_s=0.2"])
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut a = vec!["--format", "json"];
    a.extend_from_slice(args);
    serde_json::from_str(&run(&a)).unwrap()
}

#[test]
fn run_prints_a_table_by_default() {
    let text = run(&[]);
    for want in [
        "scenario  saturate",
        "throughput",
        "Mb/s",
        "delivered",
        "collisions",
    ] {
        assert!(text.contains(want), "missing {want} in\n{text}");
    }
    let text = run(&["--wide"]);
    for want in [
        "scenario  saturate",
        "throughput_bps",
        "frames_delivered",
        "collisions",
        "utilization",
    ] {
        assert!(text.contains(want), "missing {want} in\n{text}");
    }
}

#[test]
fn run_json_follows_the_schema() {
    let v = json(&[]);
    assert_eq!(v["schema_version"], 4);
    assert_eq!(v["scenario"], "saturate");
    assert_eq!(v["seed"], 1);
    assert_eq!(v["workload"], "saturate");
    assert_eq!(v["headline"]["name"], "throughput_mbps");
    let points = v["points"].as_array().unwrap();
    assert_eq!(points.len(), 1);
    for key in [
        "throughput_bps",
        "frames_delivered",
        "frames_dropped",
        "collisions",
        "utilization",
    ] {
        assert!(points[0][key].is_number(), "{key} missing: {}", points[0]);
    }
    assert!(v["detail"]["stations"].is_array());
    let bps = points[0]["throughput_bps"].as_f64().unwrap();
    assert!(bps > 5e6 && bps < 1e7, "{bps}");
}

#[test]
fn run_csv_has_a_header_and_one_row() {
    let text = run(&["--format", "csv"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("throughput_bps,"));
}

#[test]
fn set_changes_the_result_and_seed_is_reproducible() {
    let base = json(&[]);
    let two = json(&["--set", "nodes.stations.count=2"]);
    assert_eq!(two["detail"]["senders"], 2);
    assert_ne!(base["points"][0]["collisions"], two["points"][0]["collisions"]);
    let small = json(&["--set", "apps[0].frame_bytes=64"]);
    assert!(
        small["points"][0]["throughput_bps"].as_f64().unwrap()
            < base["points"][0]["throughput_bps"].as_f64().unwrap()
    );
    // same seed, same bytes; another seed, another run
    assert_eq!(run(&["--format", "json"]), run(&["--format", "json"]));
    let other = json(&["--seed", "18446744073709551615"]);
    assert_eq!(other["seed"], u64::MAX);
    assert_ne!(other["points"][0]["collisions"], base["points"][0]["collisions"]);
}

#[test]
fn run_out_writes_the_file_atomically() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("res");
    let printed = run(&["--format", "json", "--out", out.to_str().unwrap()]);
    let written = std::fs::read_to_string(out.join("run.json")).unwrap();
    assert_eq!(printed, written);
    let names: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec!["run.json"], "no temporary files left");
}

#[test]
fn validate_prints_a_one_line_summary() {
    ethersim()
        .arg("validate")
        .arg(scenario())
        .assert()
        .success()
        .stdout(predicate::str::starts_with("ok: ").and(predicate::str::contains("24 stations + sink")))
        .stdout(predicate::function(|s: &str| s.lines().count() == 1));
}

#[test]
fn oversize_frames_need_the_flag_and_warn() {
    ethersim()
        .arg("validate")
        .arg(scenario())
        .args(["--set", "apps[0].frame_bytes=3000"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("allow_oversize"));
    ethersim()
        .arg("validate")
        .arg(scenario())
        .args([
            "--set",
            "apps[0].frame_bytes=3000",
            "--set",
            "segment.allow_oversize=true",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains("warning:"));
}

#[test]
fn every_subcommand_help_shows_an_example() {
    for sub in ["run", "sweep", "validate", "figure1", "ttcp1995", "reproduce"] {
        ethersim().args([sub, "--help"]).assert().success().stdout(
            predicate::str::contains("Examples:").and(predicate::str::contains(format!("ethersim {sub}"))),
        );
    }
    ethersim()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("Examples:"));
}

fn sweep(out: &Path, jobs: &str) {
    ethersim()
        .arg("sweep")
        .arg(scenario())
        .args(["--set", "run.duration_s=0.1"])
        .args(["--param", "nodes.stations.count", "--values", "1,4,16"])
        .args(["--param", "apps[0].frame_bytes", "--range", "500..1500:500"])
        .args(["--replications", "3", "--jobs", jobs, "--out"])
        .arg(out)
        .assert()
        .success()
        .stdout(predicate::str::contains("nodes.stations.count"));
}

#[test]
fn sweep_writes_csv_and_plots_identically_on_any_thread_count() {
    let d = tempfile::tempdir().unwrap();
    let (a, b) = (d.path().join("j1"), d.path().join("j2"));
    sweep(&a, "1");
    sweep(&b, "2");
    for f in ["sweep.csv", "sweep_summary.csv", "sweep.svg", "sweep.png"] {
        let (x, y) = (
            std::fs::read(a.join(f)).unwrap(),
            std::fs::read(b.join(f)).unwrap(),
        );
        assert!(!x.is_empty(), "{f} is empty");
        assert!(x == y, "{f} differs between --jobs 1 and --jobs 2");
    }
    let csv = std::fs::read_to_string(a.join("sweep.csv")).unwrap();
    let mut lines = csv.lines();
    let header = lines.next().unwrap();
    assert!(header.starts_with(
        "nodes.stations.count,apps[0].frame_bytes,replication,seed,point,headline_throughput_mbps,"
    ));
    assert_eq!(lines.count(), 3 * 3 * 3);
    let summary = std::fs::read_to_string(a.join("sweep_summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 1 + 9);
    // with replications every combination of more than one station has a confidence interval
    assert!(summary.lines().skip(1).all(|l| !l.ends_with(',')), "{summary}");
    // the chart's axes and legend say what is measured, from the registry of figures
    let svg = std::fs::read_to_string(a.join("sweep.svg")).unwrap();
    for want in [
        "Stations",
        "Throughput, Mb/s",
        "Frame size (bytes, header to FCS) = 500",
    ] {
        assert!(svg.contains(want), "missing {want:?} in sweep.svg");
    }
    assert_eq!(&std::fs::read(a.join("sweep.png")).unwrap()[1..4], b"PNG");
}

#[test]
fn sweep_needs_values_after_each_param() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("o");
    ethersim()
        .arg("sweep")
        .arg(scenario())
        .args([
            "--param",
            "nodes.stations.count",
            "--param",
            "apps[0].frame_bytes",
            "--values",
            "64",
        ])
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--param nodes.stations.count needs --values",
        ));
    assert!(!out.exists());
}

#[test]
fn sweep_with_an_invalid_combination_runs_and_writes_nothing() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("o");
    ethersim()
        .arg("sweep")
        .arg(scenario())
        .args(["--param", "nodes.stations.count", "--values", "1,2,2000"])
        .arg("--out")
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("nodes.stations.count").and(predicate::str::contains("0..=1024")));
    assert!(!out.exists());
}

#[test]
fn figure1_writes_its_outputs() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("fig");
    let a = ethersim()
        .args(["figure1", "--jobs", "2", "--out"])
        .arg(&out)
        .timeout(Duration::from_secs(300))
        .assert()
        .success();
    let o = a.get_output();
    let csv = std::fs::read_to_string(out.join("figure1.csv")).unwrap();
    assert!(csv.starts_with("config,block_size,measured_kbps,simulated_kbps\n"));
    assert_eq!(csv.lines().count(), 1 + 64);
    assert!(out.join("figure1.svg").is_file() && out.join("figure1.png").is_file());
    assert!(String::from_utf8_lossy(&o.stdout).contains("MAPE"));
}

#[test]
fn reproduce_lists_its_names_and_refuses_others() {
    ethersim()
        .args(["reproduce", "--list"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("bulletin (also: figure1, bulletin-1992)")
                .and(predicate::str::contains("ttcp1995 (also: ttcp-1995)")),
        );
    // an unknown name is a usage error that lists the names, and writes nothing
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("none");
    ethersim()
        .args(["reproduce", "figure2", "--out"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("figure2")
                .and(predicate::str::contains("bulletin"))
                .and(predicate::str::contains("ttcp1995")),
        );
    assert!(!out.exists());
    ethersim().arg("reproduce").assert().code(2);
}

#[test]
fn reproduce_bulletin_1992_is_figure1() {
    let d = tempfile::tempdir().unwrap();
    let (a, b) = (d.path().join("a"), d.path().join("b"));
    let run = |args: &[&str], out: &Path| {
        let o = ethersim()
            .args(args)
            .arg("--out")
            .arg(out)
            .timeout(Duration::from_secs(300))
            .assert()
            .success();
        o.get_output().stdout.clone()
    };
    let printed = run(&["figure1", "--jobs", "2"], &a);
    assert_eq!(printed, run(&["reproduce", "bulletin-1992", "--jobs", "1"], &b));
    for f in ["figure1.csv", "figure1.svg", "figure1.png"] {
        assert!(
            std::fs::read(a.join(f)).unwrap() == std::fs::read(b.join(f)).unwrap(),
            "{f}"
        );
    }
}

/// A small sweep into `out`; returns the finished command's assertion.
fn small_sweep(out: &Path, stations: &str) -> assert_cmd::assert::Assert {
    ethersim()
        .arg("sweep")
        .arg(scenario())
        .args(["--set", "run.duration_s=0.05"])
        .args(["--param", "nodes.stations.count", "--values", stations])
        .args(["--jobs", "2", "--out"])
        .arg(out)
        .assert()
}

fn snapshot(dir: &Path) -> Vec<(String, Option<Vec<u8>>)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let bytes = e.path().is_file().then(|| std::fs::read(e.path()).unwrap());
            (e.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect();
    files.sort();
    files
}

#[test]
fn a_sweep_that_cannot_replace_one_file_leaves_every_old_file() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("o");
    small_sweep(&out, "1,2").success();
    // a directory where the last output goes: the first three are replaced, then put back
    std::fs::remove_file(out.join("sweep.png")).unwrap();
    std::fs::create_dir(out.join("sweep.png")).unwrap();
    let before = snapshot(&out);
    assert_eq!(before.len(), 4);
    let a = small_sweep(&out, "3,4").code(1);
    let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(err.contains("sweep.png"), "{err}");
    assert_eq!(snapshot(&out), before, "old files changed or temporaries left");
}

#[test]
fn a_second_writer_to_the_same_directory_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("o");
    small_sweep(&out, "1,2").success();
    // as if another ethersim (this test process, which is alive) held the directory
    let lock = out.join(".ethersim.lock");
    std::fs::write(&lock, format!("{}\n", std::process::id())).unwrap();
    let before = snapshot(&out);
    let a = small_sweep(&out, "3,4").code(1);
    let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(
        err.contains(&format!(
            "another ethersim (process {}) is writing",
            std::process::id()
        )),
        "{err}"
    );
    assert!(err.contains(".ethersim.lock"), "{err}");
    assert_eq!(snapshot(&out), before);
    std::fs::remove_file(&lock).unwrap();
    small_sweep(&out, "3,4").success();
    assert_ne!(snapshot(&out), before);
}
