//! Several ttcp transfers on one cable, each on two hosts of its own: the shipped
//! `two-ttcp-transfers.toml` (a bus-master pair of Pentium-90s and a 3C509 pair of
//! 486s), the same LAN with two identical pairs, and two transfers beside the file
//! service.
//!
//! Held: each transfer is reported by its hosts and the wire's shares (each transfer's,
//! collisions, idle) add up to the window; the run's `ttcp_` figures are the transfers
//! together; each transfer moves less than it does alone on the cable and the two
//! together no more than the wire carries (means of 5 seeds); two identical pairs split
//! the wire evenly; every transfer's conservation audit holds with 0%, 1% and 10% of
//! frames damaged on the wire; the workload form links a list of ttcp scenarios, and a
//! malformed or unreadable entry of the list is refused naming the file, line and key;
//! LANPERF beside two transfers reports each by its hosts; `--explain` names each transfer
//! and, for the starved one, the capture effect.

use std::path::{Path, PathBuf};

use ethersim::run;
use ethersim::run::output::RunDetail;
use ethersim::scenario::{self, Override};
use ethersim::workload::shared::SharedReport;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// A short window, then `sets` (a later `--set` of a key wins).
fn overrides(sets: &[&str]) -> Vec<Override> {
    ["run.warmup_s=0.5", "run.measure_s=2"]
        .iter()
        .chain(sets)
        .map(|s| Override::parse(s).unwrap())
        .collect()
}

/// A short run of the shipped scenario `name` with `sets`.
fn shipped(name: &str, sets: &[&str]) -> (run::output::RunOutput, SharedReport) {
    let s = scenario::load(&root().join("scenarios").join(name), &overrides(sets))
        .unwrap_or_else(|e| panic!("{e}"));
    let out = run::run(&s);
    let r = match &out.detail {
        RunDetail::Shared(r) => (**r).clone(),
        _ => panic!("not a shared run"),
    };
    (out, r)
}

/// Two identical pairs: the slow pair's hosts and cards made the fast pair's.
const TWINS: [&str; 4] = [
    "nodes.vl-a.host=p90-pci",
    "nodes.vl-b.host=p90-pci",
    "nodes.vl-a.adapter=pcnet-lance",
    "nodes.vl-b.adapter=pcnet-lance",
];

#[test]
fn two_transfers_each_report_their_throughput_and_the_wire_adds_up() {
    let (out, r) = shipped("two-ttcp-transfers.toml", &[]);
    assert_eq!(r.ttcp.len(), 2);
    let names: Vec<(&str, &str)> = r
        .ttcp
        .iter()
        .map(|t| (t.transmitter.as_str(), t.receiver.as_str()))
        .collect();
    assert_eq!(names, [("p90-a", "p90-b"), ("vl-a", "vl-b")]);
    for t in &r.ttcp {
        assert!(t.throughput_kbps > 50.0, "{t:?}");
        // a transfer's data is 1460 bytes of each 1538 on the wire: its throughput is at
        // most its share of 10 Mb/s
        assert!(t.throughput_kbps <= t.wire_share * 10e6 / 8.0 / 1000.0, "{t:?}");
    }
    let w = &r.wire;
    // and the receivers' ACKs take wire time too (at most one 72-byte frame per data
    // frame): together the transfers move at least 1460 / (1538 + 72) of their share,
    // less what crossed the window's edges (delivered, not yet read). The starved pair
    // alone may fall below it: over 2 s its few frames are mostly edge
    let all: f64 = r.ttcp.iter().map(|t| t.throughput_kbps).sum();
    assert!(all >= 0.85 * w.ttcp * 10e6 / 8.0 / 1000.0, "{all} KB/s in {w:?}");
    let pairs: f64 = r.ttcp.iter().map(|t| t.wire_share).sum();
    assert!((pairs - w.ttcp).abs() < 1e-9, "{pairs} against {w:?}");
    let sum = w.file_service + w.ttcp + w.background + w.collision + w.corrupted + w.idle;
    assert!((sum - 1.0).abs() < 1e-9, "{w:?}");
    // the run's ttcp figures are the transfers together
    assert_eq!(out.headline.name, "ttcp_kbps");
    assert!(
        (out.headline.value - all).abs() < 1e-6,
        "{} against {all}",
        out.headline.value
    );
    assert!(r.audit_violations.is_empty(), "{:?}", r.audit_violations);
}

/// Each transfer's throughput, the mean of 5 seeds, of the shipped LAN with `sets` (a 2 s
/// window unless `sets` says otherwise).
fn means(sets: &[&str]) -> Vec<f64> {
    let mut sum = vec![0.0; 2];
    for seed in 1..=5 {
        let seed = format!("seed={seed}");
        let all: Vec<&str> = sets.iter().copied().chain([seed.as_str()]).collect();
        let (_, r) = shipped("two-ttcp-transfers.toml", &all);
        for (s, t) in sum.iter_mut().zip(&r.ttcp) {
            *s += t.throughput_kbps / 5.0;
        }
    }
    sum
}

/// The transfer of pair `pair` (0 or 1) of the shipped LAN alone on the cable, KB/s
/// (1000 bytes), the mean of 5 seeds: the other pair's nodes and application left out.
fn alone(pair: usize) -> f64 {
    let text = std::fs::read_to_string(root().join("scenarios/two-ttcp-transfers.toml")).unwrap();
    let (keep, drop) = if pair == 0 { ("p90", "vl") } else { ("vl", "p90") };
    // the scenario's tables, each kept unless it is the other pair's
    let mut kept = String::new();
    for table in text.split("\n[") {
        let other_nodes = table.starts_with(&format!("nodes.{drop}-"));
        let other_app = table.starts_with("[apps]]") && table.contains(&format!("\"{drop}-a\""));
        if !(other_nodes || other_app) {
            if !kept.is_empty() {
                kept.push_str("\n[");
            }
            kept.push_str(table);
        }
    }
    assert!(kept.contains(&format!("{keep}-a")) && !kept.contains(&format!("\"{drop}-a\"")));
    let kept = kept.replace("\"../hardware/", &format!("\"{}/hardware/", root().display()));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("alone.toml");
    std::fs::write(&path, kept).unwrap();
    let mut kbps = 0.0;
    for seed in 1..=5 {
        let seed = format!("seed={seed}");
        // a transfer alone runs as the ttcp workload: its 16 MiB, timed as ttcp times it
        let o: Vec<Override> = [seed.as_str()]
            .iter()
            .map(|s| Override::parse(s).unwrap())
            .collect();
        let s = scenario::load(&path, &o).unwrap_or_else(|e| panic!("{e}"));
        let out = run::run(&s);
        let i = out
            .columns
            .iter()
            .position(|c| c == "kbytes_per_s")
            .expect("kbytes_per_s");
        // ttcp prints KiB/s
        kbps += out.points[0][i] * 1.024 / 5.0;
    }
    kbps
}

#[test]
fn each_transfer_moves_less_than_alone_and_together_no_more_than_the_wire_carries() {
    let together = means(&[]);
    let alone: Vec<f64> = (0..2).map(alone).collect();
    for (t, a) in together.iter().zip(&alone) {
        assert!(t < a, "together {together:?} alone {alone:?}");
    }
    // 10 Mb/s is 1250 KB/s of frames; the data of a full frame is 1460 of its 1538 bytes
    let wire = 1250.0 * 1460.0 / 1538.0;
    let sum: f64 = together.iter().sum();
    assert!(sum <= wire, "{sum} KB/s together");
    // the bus-master pair keeps the larger part of the wire
    assert!(together[0] > together[1], "{together:?}");
}

#[test]
fn two_identical_transfers_split_the_wire_evenly() {
    // a seed's split swings by up to a fifth either way (which transfer wins the backoff
    // contests in a run of them); over 5 seeds of 10 s the two means are within a tenth
    let sets: Vec<&str> = TWINS.iter().copied().chain(["run.measure_s=10"]).collect();
    let m = means(&sets);
    let (lo, hi) = (m[0].min(m[1]), m[0].max(m[1]));
    assert!(hi <= 1.10 * lo, "{m:?}");
}

#[test]
fn every_transfer_s_audit_holds_with_frames_damaged_on_the_wire() {
    for corrupt in ["0", "0.01", "0.1"] {
        let set = format!("segment.corrupt_fraction={corrupt}");
        let (_, r) = shipped("two-ttcp-transfers.toml", &[set.as_str()]);
        assert!(
            r.audit_violations.is_empty(),
            "{corrupt}: {:?}",
            r.audit_violations
        );
        for t in &r.ttcp {
            assert!(t.throughput_kbps > 0.0, "{corrupt}: {t:?}");
        }
        if corrupt != "0" {
            assert!(r.wire.corrupted > 0.0, "{corrupt}: {:?}", r.wire);
        }
    }
}

/// A shared scenario in the workload form: this cable and `ttcp = <links>`, written in a
/// temporary folder.
fn workload_form(links: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pairs.toml");
    std::fs::write(
        &path,
        format!(
            "name = \"pairs\"\nseed = 7\n\n[medium]\nlength_m = 30.0\n\n[workload]\nkind = \"shared\"\n\
             ttcp = {links}\nwarmup_s = 0.5\nmeasure_s = 2\n"
        ),
    )
    .unwrap();
    (dir, path)
}

fn ttcp1995(name: &str) -> String {
    format!(
        "{:?}",
        root().join("scenarios/ttcp1995").join(name).display().to_string()
    )
}

#[test]
fn the_workload_form_links_a_list_of_ttcp_scenarios_a_transfer_each() {
    let a = ttcp1995("ttcp-1995-smc-ultra-smc-ultra-transmit.toml");
    let b = ttcp1995("ttcp-1995-3c509-3c509-transmit.toml");
    let (_dir, path) = workload_form(&format!("[{a}, {b}]"));
    let s = scenario::load(&path, &[]).unwrap_or_else(|e| panic!("{e}"));
    let RunDetail::Shared(r) = run::run(&s).detail else {
        panic!("not a shared run")
    };
    assert_eq!(r.ttcp.len(), 2);
    // the 3C509 pair beside the SMC Ultra pair gets little of the wire, but some
    assert!(r.ttcp.iter().all(|t| t.throughput_kbps > 0.0), "{:?}", r.ttcp);
    assert!(r.ttcp[0].throughput_kbps > 500.0, "{:?}", r.ttcp);
    assert!(r.audit_violations.is_empty(), "{:?}", r.audit_violations);
    // the same pair twice is two transfers on four hosts
    let (_dir, path) = workload_form(&format!("[{a}, {a}]"));
    let s = scenario::load(&path, &[]).unwrap_or_else(|e| panic!("{e}"));
    let RunDetail::Shared(r) = run::run(&s).detail else {
        panic!("not a shared run")
    };
    assert_eq!(r.ttcp.len(), 2);
}

#[test]
fn a_malformed_or_unreadable_entry_of_the_list_is_refused_naming_the_file_line_and_key() {
    let a = ttcp1995("ttcp-1995-smc-ultra-smc-ultra-transmit.toml");
    for (links, key, says) in [
        ("[]".to_string(), "workload.ttcp", "a list of paths"),
        ("5".to_string(), "workload.ttcp", "a list of paths"),
        (format!("[{a}, 5]"), "workload.ttcp", "a list of paths"),
        (
            format!("[{a}, \"no-such.toml\"]"),
            "workload.ttcp[1]",
            "not a readable file",
        ),
    ] {
        let (_dir, path) = workload_form(&links);
        let err = scenario::load(&path, &[]).expect_err(&links).to_string();
        assert!(err.contains("pairs.toml:9"), "{links}: {err}");
        assert!(err.contains(&format!("`{key}`")), "{links}: {err}");
        assert!(err.contains(says), "{links}: {err}");
    }
}

#[test]
fn a_transfer_may_not_share_a_node_with_another() {
    let text = std::fs::read_to_string(root().join("scenarios/two-ttcp-transfers.toml")).unwrap();
    let text = text
        .replace("transmitter = \"vl-a\"", "transmitter = \"p90-a\"")
        .replace("\"../hardware/", &format!("\"{}/hardware/", root().display()));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shared-node.toml");
    std::fs::write(&path, text).unwrap();
    let err = scenario::load(&path, &[])
        .expect_err("a node of two transfers")
        .to_string();
    assert!(err.contains("apps[1].transmitter"), "{err}");
    assert!(err.contains("p90-a"), "{err}");
}

#[test]
fn lanperf_beside_two_transfers_reports_each_by_its_hosts() {
    let lanperf = ethersim::scenario::nodes::migrate::migrate(
        &root().join("tests/fixtures/workload-form/lanperf/lanperf-x.toml"),
    )
    .unwrap();
    let catalogue = root().join("hardware/catalogue.toml");
    let pairs = "[nodes.a1]\nhost = \"p90-pci\"\nadapter = \"pcnet-lance\"\nstack = \"linux-1-2\"\n\n\
                 [nodes.a2]\nhost = \"p90-pci\"\nadapter = \"pcnet-lance\"\nstack = \"linux-1-2\"\n\n\
                 [nodes.b1]\nhost = \"486dx2-66-vl\"\nadapter = \"smc-ultra\"\nstack = \"linux-1-2\"\n\n\
                 [nodes.b2]\nhost = \"486dx2-66-vl\"\nadapter = \"smc-ultra\"\nstack = \"linux-1-2\"\n\n[[apps]]";
    let text = format!("include = [{:?}]\n", catalogue.display().to_string())
        + &lanperf.replacen("[[apps]]", pairs, 1)
        + "\n[[apps]]\nkind = \"ttcp\"\ntransmitter = \"a1\"\nreceiver = \"a2\"\n\
           \n[[apps]]\nkind = \"ttcp\"\ntransmitter = \"b1\"\nreceiver = \"b2\"\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lanperf-two-ttcp.toml");
    std::fs::write(&path, &text).unwrap();
    let o = [Override::parse("apps[0].options=t10 b512 f16").unwrap()];
    let s = scenario::load(&path, &o).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(s.workload.kind(), "lanperf");
    // (a build with debug assertions fails the run on any audit violation)
    let RunDetail::Lanperf(r) = run::run(&s).detail else {
        panic!("not a lanperf run")
    };
    let names: Vec<(&str, &str)> = r
        .ttcp
        .iter()
        .map(|t| (t.transmitter.as_str(), t.receiver.as_str()))
        .collect();
    assert_eq!(names, [("a1", "a2"), ("b1", "b2")]);
    for t in &r.ttcp {
        assert!(t.throughput_kbps > 0.0 && t.wire_share > 0.0, "{t:?}");
    }
    // the two transfers and LANPERF's frames share one wire
    let wire: f64 = r.ttcp.iter().map(|t| t.wire_share).sum();
    assert!(wire < 1.0, "{:?}", r.ttcp);
}

#[test]
fn the_explanation_names_each_transfer_and_the_capture_effect_on_the_starved_one() {
    let s = scenario::load(&root().join("scenarios/two-ttcp-transfers.toml"), &[]).unwrap();
    let out = run::run(&s);
    let text = ethersim::report::explain::run(&out).replace('\n', " ");
    assert!(text.contains("ttcp from p90-a to p90-b:"), "{text}");
    assert!(text.contains("ttcp from vl-a to vl-b:"), "{text}");
    assert!(text.contains("the other ttcp transfers' frames"), "{text}");
    // the 3C509 pair's paragraph, and only it, names the capture effect
    let slow = &text[text.find("ttcp from vl-a").unwrap()..];
    let fast = &text[text.find("ttcp from p90-a").unwrap()..text.find("ttcp from vl-a").unwrap()];
    assert!(
        slow.contains("capture effect") && slow.contains("the transfer from p90-a"),
        "{slow}"
    );
    assert!(!fast.contains("capture effect"), "{fast}");
}

#[test]
fn admission_s_estimate_counts_every_transfer_within_a_factor_of_two() {
    let s = scenario::load(&root().join("scenarios/two-ttcp-transfers.toml"), &[]).unwrap();
    let scenario::Workload::Shared(w) = &s.workload else {
        panic!("not shared")
    };
    let events = ethersim::workload::shared::run(&w.config, s.seed).events as f64;
    let ratio = w.estimated_events / events;
    // each transfer's events are estimated as if it had the wire alone (1.8 times the run's
    // here); counting one transfer only would give about half that, below the run's
    assert!(
        (1.0..=2.0).contains(&ratio),
        "estimated {} for {events}",
        w.estimated_events
    );
}
