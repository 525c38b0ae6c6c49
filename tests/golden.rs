//! Golden results (issue 5): regression fingerprints of seeded runs.
//!
//! The four bulletin scenarios (every block size: throughput rounded to 0.1 KB/s, blocks
//! completed, retransmissions, ring drops, events, and the audit's frame and packet totals)
//! and one saturated medium (`scenarios/saturate.toml` for 0.5 s) are compared with the
//! insta snapshots in `tests/snapshots/`. Any change in simulated behaviour changes them:
//! review the new figures, then regenerate with
//!
//! ```text
//! INSTA_UPDATE=always cargo test --test golden
//! ```
//!
//! and commit `tests/snapshots/golden__*.snap` with the change that caused it.

use std::path::Path;

use serde_json::{json, Value};

use ethersim::repro::bulletin;
use ethersim::repro::bulletin::CONFIGS;
use ethersim::scenario::{self, Override, Workload};
use ethersim::workload::perform3::run_audited;
use ethersim::workload::saturate;

/// `x` rounded to `decimals` places (so that it prints exactly, e.g. 673.4).
fn round(x: f64, decimals: i32) -> f64 {
    let k = 10f64.powi(decimals);
    (x * k).round() / k
}

/// The fingerprint of one bulletin configuration, every block size audited.
fn bulletin_fingerprint(config: &str) -> Value {
    let s = bulletin::scenario(config, &[]).expect("bulletin scenario loads");
    let Workload::Perform3(w) = &s.workload else {
        panic!("{config}: perform3 expected")
    };
    let (report, audits) = run_audited(&w.config, s.seed);
    let points: Vec<Value> = report
        .points
        .iter()
        .zip(&audits)
        .map(|(p, a)| {
            let a = a
                .as_ref()
                .unwrap_or_else(|e| panic!("{config} block {}: {e}", p.block_size));
            json!({
                "block_size": p.block_size,
                "throughput_kbps": round(p.throughput_kbps, 1),
                "blocks_completed": p.blocks_completed,
                "packets_retransmitted": p.explanation.packets_retransmitted,
                "rx_ring_drops": p.explanation.rx_ring_drops,
                "events": p.events,
                "frames_offered": a.frames_offered,
                "data_packets_sent": a.data_packets_sent,
                "acks_sent": a.acks_sent,
                "bytes_to_app": a.bytes_to_app,
            })
        })
        .collect();
    json!({
        "config": config,
        "seed": s.seed,
        "mean_kbps": round(report.mean_kbps(), 1),
        "points": points,
    })
}

#[test]
fn golden_16bit_optimized() {
    insta::assert_json_snapshot!("16bit-optimized", bulletin_fingerprint(CONFIGS[0]));
}

#[test]
fn golden_8bit_optimized() {
    insta::assert_json_snapshot!("8bit-optimized", bulletin_fingerprint(CONFIGS[1]));
}

#[test]
fn golden_16bit_defaults() {
    insta::assert_json_snapshot!("16bit-defaults", bulletin_fingerprint(CONFIGS[2]));
}

#[test]
fn golden_8bit_defaults() {
    insta::assert_json_snapshot!("8bit-defaults", bulletin_fingerprint(CONFIGS[3]));
}

#[test]
fn golden_saturated_medium() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/saturate.toml");
    let set = [Override::parse("run.duration_s=0.5").expect("valid override")];
    let s = scenario::load(&path, &set).expect("saturate.toml loads");
    let Workload::Saturate(w) = &s.workload else {
        panic!("saturate expected")
    };
    let r = saturate::run(&w.config, &w.segment, s.seed);
    let e = &r.ether;
    assert_eq!(e.rx_overlaps, 0);
    insta::assert_json_snapshot!(
        "saturate",
        json!({
            "seed": s.seed,
            "senders": r.senders,
            "frame_bytes": r.frame_bytes,
            "events": r.events,
            "frames_offered": e.frames_offered,
            "frames_delivered": e.frames_delivered,
            "bytes_delivered": e.bytes_delivered,
            "frames_dropped": e.frames_dropped,
            "frames_queued": e.frames_queued,
            "collisions": e.collisions,
            "collisions_by_attempt": e.collisions_by_attempt,
            "deferrals": e.deferrals,
            "throughput_mbps": round(e.throughput_bps / 1e6, 3),
            "utilization": round(e.utilization, 4),
            "fairness_jain": round(e.fairness_jain, 4),
            "capture_longest_run": e.capture_longest_run,
        })
    );
}
