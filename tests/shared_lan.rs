//! One LAN, two applications: the shipped `ttcp-beside-file-service.toml` runs PERFORM3
//! on the bulletin's file service and a ttcp transfer between two 1995 PCs on one cable.
//!
//! Held: each application's throughput is reported, and the wire's shares (each
//! application's delivered frames, collisions, damaged frames, idle) add up to the window;
//! ttcp slows as workstations join (mean of 5 seeds); both applications' conservation
//! audits hold with 0%, 1% and 10% of frames damaged on the wire; the file service's
//! frames and ttcp's are told apart on the wire by their stations; and a shared scenario
//! that links a file it cannot use is refused, naming the file, line and key.

use std::path::{Path, PathBuf};

use ethersim::run;
use ethersim::run::output::RunDetail;
use ethersim::scenario::{self, Override};
use ethersim::workload::shared::SharedReport;

fn shipped() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/ttcp-beside-file-service.toml")
}

/// A short run of the shipped scenario with `sets`.
fn shared(sets: &[&str]) -> SharedReport {
    let o: Vec<Override> = sets
        .iter()
        .chain(&["run.warmup_s=0.5", "run.measure_s=2"])
        .map(|s| Override::parse(s).unwrap())
        .collect();
    let s = scenario::load(&shipped(), &o).unwrap_or_else(|e| panic!("{e}"));
    match run::run(&s).detail {
        RunDetail::Shared(r) => *r,
        _ => panic!("not a shared run"),
    }
}

#[test]
fn each_application_s_throughput_is_reported_and_the_wire_s_shares_add_up_to_the_window() {
    let r = shared(&[]);
    assert_eq!(r.workstations, 5);
    assert!(
        r.file_services[0].point.throughput_kbps > 50.0,
        "file service {:.1} KB/s",
        r.file_services[0].point.throughput_kbps
    );
    assert!(
        r.ttcp.first().expect("a ttcp transfer").throughput_kbps > 50.0,
        "ttcp {:.1} KB/s",
        r.ttcp.first().expect("a ttcp transfer").throughput_kbps
    );
    let w = &r.wire;
    for (name, x) in [
        ("file service", w.file_service),
        ("ttcp", w.ttcp),
        ("collision", w.collision),
        ("corrupted", w.corrupted),
        ("idle", w.idle),
    ] {
        assert!((0.0..=1.0).contains(&x), "{name} share {x}");
    }
    let total = w.file_service + w.ttcp + w.collision + w.corrupted + w.idle;
    assert!(total <= 1.0 + 1e-9, "shares add up to {total}");
    // every delivered frame belongs to one application: nothing of the wire's time is lost
    assert!(total > 0.999, "shares add up to {total}");
    // the shares follow the data each moved: ttcp's data is ~1460 bytes of 1518 a frame,
    // so its throughput is at most its share of 10 Mb/s
    let ttcp_ceiling_kbps = w.ttcp * 10e6 / 8.0 / 1000.0;
    assert!(
        r.ttcp.first().expect("a ttcp transfer").throughput_kbps <= ttcp_ceiling_kbps,
        "{r:?}"
    );
    assert!(
        r.ttcp.first().expect("a ttcp transfer").throughput_kbps >= 0.85 * ttcp_ceiling_kbps,
        "{r:?}"
    );
    assert!(r.audit_violations.is_empty(), "{:?}", r.audit_violations);
}

/// ttcp's throughput with `n` workstations, the mean of 5 seeds.
fn ttcp_mean(n: usize) -> f64 {
    (0..5)
        .map(|k| {
            let ws = format!("nodes.workstations.count={n}");
            let seed = format!("seed={}", 1995 + k);
            shared(&[ws.as_str(), seed.as_str()])
                .ttcp
                .first()
                .expect("a ttcp transfer")
                .throughput_kbps
        })
        .sum::<f64>()
        / 5.0
}

#[test]
fn ttcp_slows_as_perform3_workstations_join_the_cable() {
    let alone = ttcp_mean(0);
    let two = ttcp_mean(2);
    let five = ttcp_mean(5);
    // alone it has the wire: at least 90% of 10 Mb/s less framing is ~1100 KB/s
    assert!(alone > 1000.0, "ttcp alone {alone:.1} KB/s");
    assert!(
        two < alone * 0.97,
        "2 workstations: {two:.1} against {alone:.1} alone"
    );
    assert!(
        five < two * 0.95,
        "5 workstations: {five:.1} against {two:.1} with 2"
    );
}

#[test]
fn with_no_workstations_the_file_service_carries_nothing_and_ttcp_has_the_wire() {
    let r = shared(&["nodes.workstations.count=0"]);
    assert_eq!(
        r.file_services[0].point.throughput_kbps.to_bits(),
        0.0f64.to_bits()
    );
    assert_eq!(r.wire.file_service, 0.0);
    assert!(r.wire.ttcp > 0.9, "ttcp's share {}", r.wire.ttcp);
    assert_eq!(
        r.ttcp.first().expect("a ttcp transfer").collisions_per_frame,
        0.0,
        "nobody to collide with but its own ACKs: {r:?}"
    );
}

#[test]
fn both_audits_hold_with_frames_damaged_on_the_wire() {
    for corrupt in ["0", "0.01", "0.1"] {
        let set = format!("segment.corrupt_fraction={corrupt}");
        let r = shared(&[set.as_str()]);
        assert!(
            r.audit_violations.is_empty(),
            "{corrupt}: {:?}",
            r.audit_violations
        );
        assert!(r.file_services[0].point.throughput_kbps > 0.0, "{corrupt}: {r:?}");
        assert!(
            r.ttcp.first().expect("a ttcp transfer").throughput_kbps > 0.0,
            "{corrupt}: {r:?}"
        );
        if corrupt != "0" {
            assert!(r.wire.corrupted > 0.0, "{corrupt}: no damaged frame on the wire");
        }
    }
}

#[test]
fn the_explanation_speaks_of_each_application_and_says_why_ttcp_slows() {
    let s = scenario::load(&shipped(), &[]).unwrap();
    let out = run::run(&s);
    let text = ethersim::report::explain::run(&out);
    assert!(
        text.contains("File service (PERFORM3 on 5 workstations"),
        "{text}"
    );
    assert!(text.contains("ttcp:"), "{text}");
    assert!(text.contains("Why:"), "{text}");
    assert!(text.contains("file-service frames"), "{text}");
}

#[test]
fn admission_s_estimate_of_the_events_is_within_a_factor_of_two_of_the_run_s() {
    for ws in ["0", "5"] {
        let set = format!("nodes.workstations.count={ws}");
        let o = [Override::parse(&set).unwrap()];
        let s = scenario::load(&shipped(), &o).unwrap();
        let scenario::Workload::Shared(w) = &s.workload else {
            panic!("not shared")
        };
        let events = ethersim::workload::shared::run(&w.config, s.seed).events as f64;
        let ratio = w.estimated_events / events;
        assert!(
            (0.5..=2.0).contains(&ratio),
            "{ws} workstations: estimate {} against {events}",
            w.estimated_events
        );
    }
}

#[test]
fn the_same_seed_gives_the_same_numbers() {
    let a = shared(&[]);
    let b = shared(&[]);
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
}

/// A shared scenario in a temporary folder beside the shipped hardware, linking `link`.
fn refused(link: &str, extra: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    // the shared scenario of one workload (the shipped scenario's old form) links `link`
    let old = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/workload-form/ttcp-beside-file-service.toml");
    let text = std::fs::read_to_string(old)
        .unwrap()
        .replace(
            "hardware = \"../../../scenarios/bulletin/artisoft-1992.toml\"",
            &format!(
                "hardware = \"{}\"",
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("scenarios/bulletin/artisoft-1992.toml")
                    .display()
            ),
        )
        .replace(
            "ttcp = \"../../../scenarios/ttcp1995/ttcp-1995-smc-ultra-smc-ultra-transmit.toml\"",
            &format!("ttcp = \"{link}\"{extra}"),
        );
    let path = dir.path().join("mine.toml");
    std::fs::write(&path, text).unwrap();
    let scen = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    for d in ["bulletin", "ttcp1995", "ttcp1985"] {
        std::os::unix::fs::symlink(scen.join(d), dir.path().join(d)).unwrap();
    }
    match scenario::load(&path, &[]) {
        Ok(_) => panic!("{link} accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_link_to_a_file_that_is_not_there_is_refused_with_the_nearest_names() {
    let e = refused("ttcp1995/ttcp-1995-smc-ultra-smc-ultra-transmitt.toml", "");
    assert!(e.contains("mine.toml:"), "{e}");
    assert!(e.contains("key `workload.ttcp`"), "{e}");
    assert!(e.contains("did you mean"), "{e}");
    assert!(e.contains("ttcp-1995-smc-ultra-smc-ultra-transmit.toml"), "{e}");
}

#[test]
fn ttcp_placed_on_nodes_without_a_tcp_ip_stack_is_refused() {
    // the bulletin's scenario describes NetBIOS nodes: no TCP/IP hosts for ttcp
    let e = refused("bulletin/16bit-optimized.toml", "");
    assert!(e.contains("key `workload.ttcp`"), "{e}");
    assert!(e.contains("perform3 scenario"), "{e}");
    assert!(e.contains("kind ttcp"), "{e}");
}

#[test]
fn a_scenario_that_links_itself_is_refused() {
    let e = refused("mine.toml", "");
    assert!(e.contains("this scenario itself"), "{e}");
}

#[test]
fn ttcp_hosts_joined_by_a_point_to_point_link_cannot_share_the_cable() {
    let e = refused("ttcp1985/ttcp-1985-single-pcl0.toml", "");
    assert!(e.contains("point-to-point"), "{e}");
}

#[test]
fn an_invalid_linked_scenario_is_reported_with_its_own_file_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad-ttcp.toml");
    // a linked scenario of one workload (the 1995 scenario's old form)
    let good = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/workload-form/ttcp1995/ttcp-1995-smc-ultra-smc-ultra-transmit.toml"),
    )
    .unwrap();
    std::fs::write(
        &bad,
        good.replace(
            "hardware = \"../../../../scenarios/ttcp1995/ttcp-1995.toml\"",
            &format!(
                "hardware = \"{}\"",
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("scenarios/ttcp1995/ttcp-1995.toml")
                    .display()
            ),
        )
        .replace("transmitter = \"midkemia\"", "transmitter = \"midkemiaa\""),
    )
    .unwrap();
    let e = refused(&bad.display().to_string(), "");
    assert!(
        e.contains("key `workload.ttcp`: the linked scenario is invalid"),
        "{e}"
    );
    assert!(e.contains("bad-ttcp.toml"), "{e}");
    assert!(e.contains("workload.transmitter"), "{e}");
}

#[test]
fn one_capture_holds_both_applications_frames_each_decoded_by_its_stack() {
    let dir = tempfile::tempdir().unwrap();
    let pcap = dir.path().join("shared.pcapng");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_ethersim"))
        .arg("run")
        .arg(shipped())
        .args(["--set", "run.warmup_s=0", "--set", "run.measure_s=0.05", "--pcap"])
        .arg(&pcap)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let list = std::process::Command::new(env!("CARGO_BIN_EXE_ethersim"))
        .arg("pcap-list")
        .arg(&pcap)
        .output()
        .unwrap();
    assert!(list.status.success());
    let text = String::from_utf8_lossy(&list.stdout);
    // ttcp's segments between the two PCs (stations 6 and 7: after the server and five
    // workstations) and the file service's NetBIOS requests to the server (station 0)
    assert!(text.contains("TCP 10.0.0.8:5001 → 10.0.0.7:5001"), "{text}");
    assert!(text.contains("02:00:5e:10:00:00 0x88b5"), "{text}");
    assert!(text.contains("NetBIOS request"), "{text}");
}
