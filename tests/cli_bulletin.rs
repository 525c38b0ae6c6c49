//! The command line on the bulletin scenarios: validate, run with --explain, a short sweep.

use assert_cmd::Command;
use predicates::prelude::*;

fn ethersim() -> Command {
    Command::cargo_bin("ethersim").unwrap()
}

#[test]
fn validate_every_bulletin_scenario() {
    for f in [
        "16bit-optimized",
        "8bit-optimized",
        "16bit-defaults",
        "8bit-defaults",
    ] {
        ethersim()
            .args(["validate", &format!("scenarios/bulletin/{f}.toml")])
            .assert()
            .success()
            .stdout(
                predicate::str::contains("perform3 workload")
                    .and(predicate::str::contains("artisoft-1992.toml")),
            );
    }
}

#[test]
fn run_explain_names_the_bottleneck() {
    ethersim()
        .args([
            "run",
            "scenarios/bulletin/8bit-optimized.toml",
            "--set",
            "apps[0].block_sizes=[31744]",
            "--set",
            "run.measure_s=1",
            "--explain",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("Where the time went").and(predicate::str::contains("server CPU")));
}

#[test]
fn json_output_has_throughput_per_block() {
    let out = ethersim()
        .args([
            "run",
            "scenarios/bulletin/16bit-defaults.toml",
            "--set",
            "apps[0].block_sizes=[3072,64512]",
            "--set",
            "run.measure_s=0.5",
            "--format",
            "json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["workload"], "perform3");
    let pts = v["points"].as_array().unwrap();
    assert_eq!(pts.len(), 2);
    for p in pts {
        let kbps = p["throughput_kbps"].as_f64().unwrap();
        assert!(kbps > 100.0 && kbps < 1250.0, "{kbps}");
    }
}

#[test]
fn out_of_range_packet_size_is_refused_with_its_range() {
    ethersim()
        .args([
            "run",
            "scenarios/bulletin/16bit-optimized.toml",
            "--set",
            "adapters.server.packet_size=5000",
        ])
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("adapters.server.packet_size")
                .and(predicate::str::contains("574..=4300")),
        );
}
