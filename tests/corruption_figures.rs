//! Figures under fault injection (issue 9, class 6): utilization counts only the wire time
//! of frames delivered intact, the wire time of damaged frames is its own figure, the four
//! shares of wire time still add up to the elapsed time, and figures over deliveries
//! (fairness, capture runs) are undefined (`null`, `-`) when nothing was delivered.

use assert_cmd::Command;
use ethersim::repro::bulletin::SCENARIOS;
use ethersim::scenario::{load_str, Override, Scenario, Workload};
use ethersim::workload::{perform3, saturate};

const SATURATE: &str = include_str!("fixtures/workload-form/saturate.toml");

fn saturate_with(sets: &[&str]) -> Scenario {
    let o: Vec<Override> = sets
        .iter()
        .map(|s| Override::parse(s).expect("override"))
        .collect();
    load_str("saturate.toml", SATURATE, &o).expect("valid scenario")
}

fn run_saturate(sets: &[&str]) -> saturate::SaturateReport {
    let s = saturate_with(sets);
    let Workload::Saturate(w) = &s.workload else {
        unreachable!()
    };
    saturate::run(&w.config, &w.segment, s.seed)
}

/// success + corrupted + collision + idle = elapsed, to the nanosecond.
fn assert_wire_time_adds_up(e: &ethersim::ether::EtherReport) {
    let ns = |s: f64| (s * 1e9).round() as u64;
    assert_eq!(
        ns(e.time_success_s) + ns(e.time_corrupted_s) + ns(e.time_collision_s) + ns(e.time_idle_s),
        ns(e.elapsed_s),
        "{e:?}"
    );
}

#[test]
fn total_corruption_delivers_nothing_and_says_so() {
    for sets in [
        &["medium.corrupt_fraction=1.0", "workload.duration_s=0.2"][..],
        &[
            "medium.corrupt_fraction=1.0",
            "workload.duration_s=0.2",
            "workload.stations=1",
        ],
        &[
            "medium.corrupt_fraction=1.0",
            "workload.duration_s=0.2",
            "workload.destination=\"round_robin\"",
        ],
    ] {
        let r = run_saturate(sets);
        let e = &r.ether;
        assert_eq!(e.frames_delivered, 0);
        assert!(e.frames_sent > 0);
        assert_eq!(e.utilization, 0.0, "{sets:?}");
        assert_eq!(e.time_success_s, 0.0);
        assert!(e.time_corrupted_s > 0.5 * e.elapsed_s, "{e:?}");
        assert!(e.fairness_jain.is_nan());
        assert!(e.capture_mean_run.is_nan());
        assert_eq!(e.capture_longest_run, None);
        assert_eq!(e.throughput_bps, 0.0);
        assert_wire_time_adds_up(e);
    }
}

#[test]
fn half_corruption_halves_utilization() {
    let clean = run_saturate(&["workload.duration_s=0.5"]).ether;
    let half = run_saturate(&["medium.corrupt_fraction=0.5", "workload.duration_s=0.5"]).ether;
    assert_wire_time_adds_up(&clean);
    assert_wire_time_adds_up(&half);
    assert_eq!(clean.time_corrupted_s, 0.0);
    // the busy time is the same, shared between delivered and damaged frames
    let busy = |e: &ethersim::ether::EtherReport| e.time_success_s + e.time_corrupted_s;
    assert!((busy(&half) / busy(&clean) - 1.0).abs() < 0.05);
    let ratio = half.utilization / clean.utilization;
    assert!(
        (0.4..0.6).contains(&ratio),
        "utilization {} vs {}",
        half.utilization,
        clean.utilization
    );
    assert!((half.time_corrupted_s / busy(&half) - 0.5).abs() < 0.1);
    assert!(half.fairness_jain > 0.0 && half.fairness_jain <= 1.0);
    assert!(half.capture_longest_run.is_some());
}

#[test]
fn total_corruption_is_null_in_json_and_dash_in_tables() {
    let out = Command::cargo_bin("ethersim")
        .unwrap()
        .args(["run", "scenarios/saturate.toml", "--format", "json"])
        .args([
            "--set",
            "segment.corrupt_fraction=1.0",
            "--set",
            "run.duration_s=0.1",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let p = &v["points"][0];
    assert_eq!(p["utilization"], serde_json::json!(0));
    for k in ["fairness_jain", "capture_mean_run", "capture_longest_run"] {
        assert!(p[k].is_null(), "{k}: {}", p[k]);
        assert!(v["detail"][k].is_null(), "detail {k}: {}", v["detail"][k]);
    }
    assert!(p["time_corrupted_s"].as_f64().unwrap() > 0.05);

    let out = Command::cargo_bin("ethersim")
        .unwrap()
        .args(["run", "scenarios/saturate.toml", "--format", "table", "--wide"])
        .args([
            "--set",
            "segment.corrupt_fraction=1.0",
            "--set",
            "run.duration_s=0.1",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for k in ["fairness_jain", "capture_mean_run", "capture_longest_run"] {
        let line = text.lines().find(|l| l.trim_start().starts_with(k)).expect(k);
        assert!(line.trim_end().ends_with(" -"), "{line:?}");
    }
    assert!(!text.contains("NaN"), "{text}");
}

#[test]
fn perform3_wire_shares_count_damaged_frames_apart() {
    let (name, _) = SCENARIOS[0];
    let o: Vec<Override> = ["segment.corrupt_fraction=0.3", "apps[0].block_sizes=[4096]"]
        .iter()
        .map(|s| Override::parse(s).unwrap())
        .collect();
    let s = ethersim::repro::bulletin::load(name, None, &o).expect("valid scenario");
    let Workload::Perform3(w) = &s.workload else {
        unreachable!()
    };
    let r = perform3::run(&w.config, s.seed);
    for p in &r.points {
        let x = &p.explanation;
        assert!(x.wire_corrupted > 0.0, "{x:?}");
        let sum = x.wire_success + x.wire_collision + x.wire_corrupted + x.wire_idle;
        assert!((sum - 1.0).abs() < 1e-6, "shares sum to {sum}: {x:?}");
    }
}
