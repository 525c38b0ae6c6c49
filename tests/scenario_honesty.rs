//! Scenarios that could report figures that are not what they claim, or settings that do
//! nothing: each is refused, warned about or shown as missing, through the binary.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;

/// A shipped scenario, or (for one rewritten as nodes and applications) its old form of
/// one workload, whose keys these checks name.
fn scenario(rel: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let old = root.join("tests/fixtures/workload-form").join(rel);
    if old.is_file() {
        old
    } else {
        root.join("scenarios").join(rel)
    }
}

fn ethersim() -> Command {
    let mut c = Command::cargo_bin("ethersim").unwrap();
    c.timeout(Duration::from_secs(120));
    c
}

const TTCP: &str = "ttcp1995/ttcp-1995-smc-ultra-3c509-receive.toml";

/// `ethersim validate rel --set s...` fails cleanly; returns stderr.
fn refused(rel: &str, set: &[&str]) -> String {
    let mut cmd = ethersim();
    cmd.arg("validate").arg(scenario(rel));
    for s in set {
        cmd.args(["--set", s]);
    }
    let a = cmd.assert().code(1);
    let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(err.starts_with("error: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// `ethersim validate rel --set s...` succeeds; returns stderr.
fn accepted(rel: &str, set: &[&str]) -> String {
    let mut cmd = ethersim();
    cmd.arg("validate").arg(scenario(rel));
    for s in set {
        cmd.args(["--set", s]);
    }
    let a = cmd.assert().success();
    String::from_utf8_lossy(&a.get_output().stderr).to_string()
}

/// Item 1: 500 stations with 10 s tests are never all in the timed loop together; the
/// utilisations are missing (null in JSON), never 0, and stderr says why.
#[test]
fn lanperf_crowd_reports_no_zero_utilisation() {
    let a = ethersim()
        .arg("run")
        .arg(scenario("lanperf/lanperf-max.toml"))
        .args(["--set", "workload.stations=500"])
        .args(["--set", "workload.options=\"t10 b512 r\""])
        .args(["--format", "json"])
        .assert()
        .success();
    let out = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let text = v.to_string();
    for key in ["wire_busy", "server_cpu", "disk_busy", "workstation_cpu"] {
        assert!(text.contains(&format!("\"{key}\"")), "{key} missing: {text}");
        assert!(
            !text.contains(&format!("\"{key}\":0,")),
            "{key} reported as 0: {text}"
        );
        assert!(
            !text.contains(&format!("\"{key}\":0.0,")),
            "{key} reported as 0: {text}"
        );
        assert!(
            text.contains(&format!("\"{key}\":null")),
            "{key} not null: {text}"
        );
    }
    assert!(
        err.contains("never all in the timed loop together"),
        "no warning: {err}"
    );
}

/// Item 2: a card with no transmit buffer or no transmit FIFO is a range error.
#[test]
fn zero_card_buffers_are_range_errors() {
    for key in [
        "workload.cards.3c509.tx_fifo_bytes",
        "workload.cards.smc_ultra.tx_buffers",
    ] {
        let err = refused(TTCP, &[&format!("{key}=0")]);
        assert!(err.contains(&format!("`{key}`")), "{err}");
        assert!(err.contains("out of range (allowed: 1..="), "{err}");
        assert!(err.contains("a card needs at least one buffer"), "{err}");
    }
}

/// Item 3: a `workload.card` entry for a host that is not defined is an error naming it
/// and the hosts that exist.
#[test]
fn card_for_an_undefined_host_is_refused() {
    let err = refused(TTCP, &["workload.card.nohost=\"3c509\""]);
    assert!(err.contains("workload.card.nohost"), "{err}");
    assert!(err.contains("kelewan") && err.contains("midkemia"), "{err}");
}

/// Item 4: write-through with `delay_shared_writes = true`: a warning naming both keys.
#[test]
fn write_through_with_delayed_shared_writes_warns() {
    let err = accepted(
        "lanperf/lanperf-x.toml",
        &["workload.cache.delay_shared_writes=true"],
    );
    assert!(err.contains("workload.cache.delay_shared_writes"), "{err}");
    assert!(err.contains("workload.cache.write_policy"), "{err}");
}

/// Item 6: serde's messages never name a Rust type.
#[test]
fn type_errors_name_no_rust_types() {
    let err = refused(TTCP, &["workload.hosts.midkemia.isa=3"]);
    assert!(!err.contains("RawIsa") && !err.contains("struct"), "{err}");
    assert!(err.contains("expected a table"), "{err}");
    let err = refused(TTCP, &["workload.hosts.nohost=3"]);
    assert!(!err.contains("RawHost") && !err.contains("struct"), "{err}");
    assert!(err.contains("expected a table"), "{err}");
}

/// Item 5: a local baseline is admitted against the budget like a LAN run: a RAM disk
/// with 1-byte blocks for 65535 s would take hours.
#[test]
fn long_local_baseline_is_refused() {
    let err = refused(
        "lanperf/lanperf-x.toml",
        &[
            "workload.stations=1",
            "workload.options=\"t65535 b1 f1\"",
            "workload.local={ device = \"ram-disk\", redirector = false }",
        ],
    );
    assert!(err.contains("too long a run"), "{err}");
    accepted(
        "lanperf/lanperf-x.toml",
        &[
            "workload.stations=1",
            "workload.options=\"t60 b1 f1\"",
            "workload.local={ device = \"ram-disk\", redirector = false }",
        ],
    );
}
