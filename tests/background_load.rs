//! The shipped background-load scenario as its study uses it: access delay at light load
//! is the frame's own time on the wire; with every station backlogged (a load of 24 x the
//! bit rate, or twice the bit rate with queues deep enough never to empty) the open-loop
//! source carries what the closed-loop `saturate` workload carries; with the scenario's
//! 16-frame queues at twice the bit rate, short frames carry less (the capture effect
//! drains the winner's queue); and a sweep gives the same bytes on one thread and on two.

use std::path::{Path, PathBuf};
use std::process::Command;

use ethersim::run;
use ethersim::run::output::RunDetail;
use ethersim::scenario::{self, Override};

const SIZES: [(&str, &str); 3] = [
    ("64-byte", "{kind=\"fixed\",bytes=64}"),
    ("1518-byte", "{kind=\"fixed\",bytes=1518}"),
    (
        "bimodal",
        "{kind=\"bimodal\",small=64,large=1518,small_fraction=0.5}",
    ),
];

fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios").join(name)
}

/// Runs a shipped scenario with `sets`, returning its first point's columns by name.
fn point(name: &str, sets: &[String]) -> (Vec<String>, Vec<f64>, RunDetail) {
    let o: Vec<Override> = sets.iter().map(|s| Override::parse(s).unwrap()).collect();
    let s = scenario::load(&shipped(name), &o).expect("valid scenario");
    let out = run::run(&s);
    (out.columns.clone(), out.points[0].clone(), out.detail)
}

fn col(cols: &[String], vals: &[f64], name: &str) -> f64 {
    vals[cols
        .iter()
        .position(|c| c == name)
        .unwrap_or_else(|| panic!("no {name}"))]
}

/// Mean throughput (Mb/s) over seeds 1..=5.
fn mean_mbps(name: &str, sets: &[String]) -> f64 {
    (1..=5)
        .map(|seed| {
            let mut s = sets.to_vec();
            s.push(format!("seed={seed}"));
            let (c, v, _) = point(name, &s);
            col(&c, &v, "throughput_mbps")
        })
        .sum::<f64>()
        / 5.0
}

#[test]
fn at_one_percent_load_the_access_delay_is_the_frame_s_own_time_on_the_wire() {
    for (what, sizes) in SIZES {
        let (c, v, _) = point(
            "background-load.toml",
            &[
                format!("apps[0].sizes={sizes}"),
                "apps[0].offered_load=0.01".into(),
                "run.duration_s=60".into(),
            ],
        );
        // preamble and SFD (8 bytes) and the frame, 100 ns a bit at 10 Mb/s
        let own_us = (col(&c, &v, "mean_frame_bytes") + 8.0) * 8.0 * 0.1;
        let delay = col(&c, &v, "queue_access_delay_mean_us");
        assert!(
            (delay / own_us - 1.0).abs() < 0.02,
            "{what}: mean access delay {delay:.2} µs against {own_us:.2} µs on the wire"
        );
        assert!(
            col(&c, &v, "frames_sent") > 400.0,
            "{what}: too few frames to judge"
        );
    }
}

#[test]
fn with_every_station_backlogged_the_open_loop_source_carries_what_saturate_carries() {
    // 24 stations each offering the whole wire (24 x the bit rate in all): no queue
    // ever empties, so each station always has a frame, as in `saturate`
    for bytes in [64, 1518] {
        let traffic = mean_mbps(
            "background-load.toml",
            &[
                format!("apps[0].sizes={{kind=\"fixed\",bytes={bytes}}}"),
                "apps[0].offered_load=24".into(),
                "run.duration_s=1".into(),
            ],
        );
        let saturate = mean_mbps(
            "saturate.toml",
            &[format!("apps[0].frame_bytes={bytes}"), "run.duration_s=1".into()],
        );
        assert!(
            (traffic / saturate - 1.0).abs() < 0.01,
            "{bytes}-byte frames: open loop {traffic:.3} Mb/s, saturate {saturate:.3} Mb/s"
        );
    }
}

#[test]
fn above_saturation_with_queues_that_stay_full_it_carries_what_saturate_carries() {
    // Twice the bit rate offered by 24 stations, each queue 4096 frames deep: a queue
    // fills faster than its station's share of the wire drains it, and once full it never
    // empties, so every station has a frame whenever the MAC asks, as in `saturate`. The
    // queues start empty: the first seconds carry less (about -3% over 1 s, -1% over 3 s),
    // so the run is 10 s long.
    for bytes in [64, 1518] {
        let traffic = mean_mbps(
            "background-load.toml",
            &[
                format!("apps[0].sizes={{kind=\"fixed\",bytes={bytes}}}"),
                "apps[0].offered_load=2.0".into(),
                "apps[0].queue_frames=4096".into(),
                "run.duration_s=10".into(),
            ],
        );
        let saturate = mean_mbps(
            "saturate.toml",
            &[format!("apps[0].frame_bytes={bytes}"), "run.duration_s=10".into()],
        );
        assert!(
            (traffic / saturate - 1.0).abs() < 0.01,
            "{bytes}-byte frames at 2.0: open loop {traffic:.3} Mb/s, saturate {saturate:.3} Mb/s"
        );
    }
}

#[test]
fn at_twice_the_bit_rate_short_frames_carry_less_than_backlogged_stations() {
    // Each of 24 stations offers 1/12 of the wire: more than its fair share, less than
    // the wire. With the scenario's 16-frame queues, a station that captures the wire
    // sends faster than its frames arrive, empties its queue, and the wire idles while
    // the others are in long backoffs.
    let sets = |load: &str| {
        vec![
            "apps[0].sizes={kind=\"fixed\",bytes=64}".to_string(),
            format!("apps[0].offered_load={load}"),
            "run.duration_s=1".into(),
        ]
    };
    let at_two = mean_mbps("background-load.toml", &sets("2.0"));
    let backlogged = mean_mbps("background-load.toml", &sets("24"));
    assert!(
        at_two < 0.9 * backlogged,
        "64-byte frames at 2.0: {at_two:.3} Mb/s, backlogged {backlogged:.3} Mb/s"
    );
    let (_, _, detail) = point("background-load.toml", &sets("2.0"));
    match detail {
        RunDetail::Traffic(r) => {
            assert!(r.queue_drops > 0, "the queues must overflow at 2.0");
            assert!(r.ether.time_idle_s > 0.1 * r.ether.elapsed_s, "{:?}", r.ether);
        }
        _ => panic!("not a traffic run"),
    }
}

fn sweep(jobs: &str, out: &Path) -> Vec<u8> {
    let status = Command::new(env!("CARGO_BIN_EXE_ethersim"))
        .arg("sweep")
        .arg(shipped("background-load.toml"))
        .args(["--set", "run.duration_s=0.2", "--replications", "2"])
        .args(["--param", "apps[0].offered_load", "--values", "0.1,1.0,2.0"])
        .args(["--param", "apps[0].sizes", "--values"])
        .arg(SIZES.map(|s| s.1).join(","))
        .args(["--y", "queue_access_delay_p99_us", "-j", jobs, "-q", "-o"])
        .arg(out)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let mut bytes = std::fs::read(out.join("sweep.csv")).unwrap();
    bytes.extend(std::fs::read(out.join("sweep_summary.csv")).unwrap());
    bytes
}

#[test]
fn the_sweep_gives_the_same_bytes_on_one_thread_and_on_two() {
    let dir = tempfile::tempdir().unwrap();
    let one = sweep("1", &dir.path().join("one"));
    let two = sweep("2", &dir.path().join("two"));
    assert!(one == two, "one and two threads differ");
    let summary = std::fs::read_to_string(dir.path().join("one/sweep_summary.csv")).unwrap();
    // 3 loads x 3 mixes, and the asked figure summarised beside the headline
    assert_eq!(summary.lines().count(), 1 + 9);
    assert!(summary
        .lines()
        .next()
        .unwrap()
        .ends_with("queue_access_delay_p99_us_mean,queue_access_delay_p99_us_ci95"));
    for f in [
        "sweep-queue_access_delay_p99_us.svg",
        "sweep-queue_access_delay_p99_us.png",
    ] {
        assert!(dir.path().join("one").join(f).is_file(), "{f}");
    }
}

#[test]
fn a_figure_the_workload_does_not_have_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ethersim"))
        .arg("sweep")
        .arg(shipped("background-load.toml"))
        .args(["--param", "apps[0].offered_load", "--values", "0.1,0.2"])
        .args(["--y", "block_size", "-o"])
        .arg(dir.path().join("o"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--y block_size") && err.contains("queue_access_delay_p99_us"),
        "{err}"
    );
    assert!(!dir.path().join("o").exists());
}
