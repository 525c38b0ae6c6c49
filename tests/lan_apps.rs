//! Several applications on one cable, placed on nodes: the shipped
//! `file-service-ttcp-and-background.toml` runs LANtastic file service (PERFORM3), a ttcp
//! transfer and a group of ten bare stations offering open-loop background traffic.
//!
//! Held: each application's throughput is reported and the wire's shares add up to the
//! window; more background load slows the elastic applications and lengthens the
//! background frames' own access delay; the audits hold with damaged frames; a
//! backlogged (saturate) group beside the file service takes the wire's capacity; the
//! same seed gives the same bytes; `--set` reaches an application by its index; and
//! misplaced applications are refused naming the file, line and key.

use std::path::{Path, PathBuf};

use ethersim::run;
use ethersim::run::output::RunDetail;
use ethersim::scenario::{self, Override};
use ethersim::workload::shared::SharedReport;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn shipped() -> PathBuf {
    root().join("scenarios/file-service-ttcp-and-background.toml")
}

fn overrides(sets: &[&str]) -> Vec<Override> {
    sets.iter()
        .chain(&["run.warmup_s=0.5", "run.measure_s=2"])
        .map(|s| Override::parse(s).unwrap())
        .collect()
}

/// A short run of the shipped scenario with `sets`.
fn lan(sets: &[&str]) -> SharedReport {
    let s = scenario::load(&shipped(), &overrides(sets)).unwrap_or_else(|e| panic!("{e}"));
    match run::run(&s).detail {
        RunDetail::Shared(r) => *r,
        _ => panic!("not a shared run"),
    }
}

#[test]
fn three_applications_each_report_their_throughput_and_the_wire_adds_up() {
    let r = lan(&[]);
    assert!(r.file_services[0].point.throughput_kbps > 50.0, "{r:?}");
    let t = r.ttcp.first().expect("a ttcp transfer");
    assert!(t.throughput_kbps > 20.0, "{r:?}");
    assert_eq!(r.background.len(), 1);
    let g = &r.background[0];
    assert_eq!(g.senders, 10);
    assert_eq!(g.offered_load, Some(0.2));
    // 20% offered on a wire with room left: the group carries what it offers (within
    // the Poisson noise of 2 s) and drops nothing
    assert!((g.carried_load - 0.2).abs() < 0.03, "{g:?}");
    assert_eq!(g.queue_drops, 0, "{g:?}");
    let mean = g.queue_access_delay_mean_us.expect("frames were sent");
    let p99 = g.queue_access_delay_p99_us.expect("frames were sent");
    // no frame is done sooner than a 64-byte frame's own time on the wire (57.6 µs)
    assert!(mean >= 57.6 && p99 >= mean, "{g:?}");
    let w = &r.wire;
    let sum = w.file_service + w.ttcp + w.background + w.collision + w.corrupted + w.idle;
    assert!((sum - 1.0).abs() < 1e-9, "shares add up to {sum}: {w:?}");
    for x in [w.file_service, w.ttcp, w.background, w.collision, w.idle] {
        assert!((0.0..=1.0).contains(&x), "{w:?}");
    }
    assert!(w.background > 0.1, "{w:?}");
    assert!(r.audit_violations.is_empty(), "{:?}", r.audit_violations);
}

#[test]
fn more_background_load_slows_ttcp_and_the_file_service_and_waits_longer() {
    let light = lan(&["apps[2].offered_load=0.05"]);
    let heavy = lan(&["apps[2].offered_load=0.5"]);
    let kbps = |r: &SharedReport| r.ttcp.first().expect("a ttcp transfer").throughput_kbps;
    assert!(
        kbps(&heavy) < 0.8 * kbps(&light),
        "ttcp {} against {}",
        kbps(&heavy),
        kbps(&light)
    );
    assert!(
        heavy.file_services[0].point.throughput_kbps < light.file_services[0].point.throughput_kbps,
        "file service {} against {}",
        heavy.file_services[0].point.throughput_kbps,
        light.file_services[0].point.throughput_kbps
    );
    let delay = |r: &SharedReport| r.background[0].queue_access_delay_mean_us.expect("frames sent");
    assert!(
        delay(&heavy) > delay(&light),
        "{} against {}",
        delay(&heavy),
        delay(&light)
    );
    assert!(heavy.wire.background > light.wire.background);
}

#[test]
fn every_audit_holds_with_frames_damaged_on_the_wire() {
    for corrupt in ["0", "0.01", "0.1"] {
        let set = format!("segment.corrupt_fraction={corrupt}");
        let r = lan(&[set.as_str()]);
        assert!(
            r.audit_violations.is_empty(),
            "{corrupt}: {:?}",
            r.audit_violations
        );
        assert!(r.file_services[0].point.throughput_kbps > 0.0, "{corrupt}");
        assert!(
            r.ttcp.first().expect("a ttcp transfer").throughput_kbps > 0.0,
            "{corrupt}"
        );
        assert!(r.background[0].throughput_mbps > 0.0, "{corrupt}");
        if corrupt != "0" {
            assert!(r.wire.corrupted > 0.0, "{corrupt}");
        }
    }
}

/// The file service beside a backlogged group: no ttcp transfer, so its columns are
/// empty; the ten backlogged stations take most of the wire (each always has a frame,
/// the file service's stations only now and then), and the wire is busy nearly all the
/// time.
#[test]
fn a_backlogged_group_beside_the_file_service_fills_the_wire() {
    let text = std::fs::read_to_string(shipped()).unwrap();
    let a = text.find("[nodes.midkemia]").unwrap();
    let b = text.find("# bare stations").unwrap();
    let c = text.find("[[apps]]\nkind = \"ttcp\"").unwrap();
    let d = text.find("# Boggs").unwrap();
    let mut t = format!("{}{}{}", &text[..a], &text[b..c], &text[d..]);
    let e = t.find("[[apps]]\nkind = \"traffic\"").unwrap();
    let f = t.find("[run]").unwrap();
    t.replace_range(
        e..f,
        "[[apps]]\nkind = \"saturate\"\nsenders = \"load\"\nframe_bytes = 1518\n\n",
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("saturated.toml");
    std::fs::write(
        &path,
        t.replace("../hardware/", &format!("{}/hardware/", root().display())),
    )
    .unwrap();
    let s = scenario::load(&path, &overrides(&[])).unwrap_or_else(|e| panic!("{e}"));
    let out = run::run(&s);
    let RunDetail::Shared(r) = &out.detail else {
        panic!("not a shared run")
    };
    assert!(r.ttcp.is_empty());
    let col = |name: &str| out.points[0][out.columns.iter().position(|c| c == name).unwrap()];
    assert!(col("ttcp_kbps").is_nan());
    assert_eq!(r.background[0].offered_load, None);
    // idle only in the interframe gaps (9.6 of every 1230 µs) and the backoffs
    assert!(r.wire.idle < 0.05, "{:?}", r.wire);
    assert!(r.wire.background > 0.8, "{:?}", r.wire);
    assert_eq!(r.wire.ttcp.to_bits(), 0.0f64.to_bits(), "{:?}", r.wire);
    assert!(r.file_services[0].point.throughput_kbps > 0.0, "{r:?}");
    assert!(r.audit_violations.is_empty(), "{:?}", r.audit_violations);
}

#[test]
fn the_same_seed_gives_the_same_run() {
    let s = scenario::load(&shipped(), &overrides(&[])).unwrap();
    let a = serde_json::to_string(&run::run(&s).points).unwrap();
    let b = serde_json::to_string(&run::run(&s).points).unwrap();
    assert_eq!(a, b);
    let other = scenario::load(&shipped(), &overrides(&["seed=7"])).unwrap();
    assert_ne!(a, serde_json::to_string(&run::run(&other).points).unwrap());
}

/// A scenario text with `from` replaced by `to`, written beside the catalogue, loaded.
fn load_edited(from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(shipped()).unwrap();
    assert!(text.contains(from), "{from}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("edited.toml");
    let text = text
        .replacen(from, to, 1)
        .replace("../hardware/", &format!("{}/hardware/", root().display()));
    std::fs::write(&path, text).unwrap();
    match scenario::load(&path, &[]) {
        Ok(_) => panic!("{to:?} was accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn misplaced_applications_are_refused_naming_the_file_line_and_key() {
    // perform3's clients on bare stations
    let e = load_edited("clients = \"ws\"", "clients = \"load\"");
    assert!(e.contains("edited.toml:") && e.contains("apps[0].clients"), "{e}");
    assert!(e.contains("bare station"), "{e}");
    // a background group on nodes with a host, card and stack
    let e = load_edited("senders = \"load\"", "senders = \"ws\"");
    assert!(
        e.contains("apps[2].senders") && e.contains("give the group none of them"),
        "{e}"
    );
    // an unknown group, with did-you-mean
    let e = load_edited("senders = \"load\"", "senders = \"loads\"");
    assert!(e.contains("apps[2].senders") && e.contains("load"), "{e}");
    // a bad value of a background group names the key where it was written
    let e = load_edited("offered_load = 0.2", "offered_load = -1");
    assert!(
        e.contains("apps[2].offered_load") && e.contains("out of range"),
        "{e}"
    );
    // a background group with its own length
    let e = load_edited("offered_load = 0.2", "offered_load = 0.2\nduration_s = 3");
    assert!(e.contains("unknown key") && e.contains("duration_s"), "{e}");
    // a background group beside lanperf
    let e = load_edited("kind = \"perform3\"", "kind = \"lanperf\"");
    assert!(e.contains("apps["), "{e}");
}

#[test]
fn a_set_reaches_an_application_by_its_index_and_refuses_one_that_is_not_there() {
    let e = scenario::load(
        &shipped(),
        &[Override::parse("apps[3].offered_load=0.1").unwrap()],
    )
    .map(|_| ())
    .unwrap_err()
    .to_string();
    assert!(e.contains("apps[3]") && e.contains("3 entries"), "{e}");
    let s = scenario::load(
        &shipped(),
        &[Override::parse("apps[2].offered_load=0.1").unwrap()],
    )
    .unwrap();
    assert!(format!("{:?}", s.workload).contains("offered_load: 0.1"));
}

#[test]
fn a_lone_background_group_on_bare_stations_runs_as_the_traffic_workload() {
    let old = root().join("tests/fixtures/workload-form/background-load.toml");
    let text = ethersim::scenario::nodes::migrate::migrate(&old).unwrap();
    assert!(text.contains("senders = \"stations\""), "{text}");
    assert!(!text.contains("host ="), "{text}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("migrated.toml");
    std::fs::write(&path, &text).unwrap();
    let sets = [Override::parse("run.duration_s=1").unwrap()];
    let new = scenario::load(&path, &sets).unwrap();
    let old = scenario::load(&old, &[Override::parse("workload.duration_s=1").unwrap()]).unwrap();
    assert_eq!(new.workload.kind(), "traffic");
    let json = |s: &scenario::Scenario| serde_json::to_string(&run::run(s).points).unwrap();
    assert_eq!(json(&new), json(&old));
}

/// A short run of a shipped scenario of nodes with `sets`.
fn shipped_run(name: &str, sets: &[&str]) -> (run::output::RunOutput, SharedReport) {
    let s = scenario::load(&root().join("scenarios").join(name), &overrides(sets))
        .unwrap_or_else(|e| panic!("{e}"));
    let out = run::run(&s);
    let RunDetail::Shared(r) = &out.detail else {
        panic!("not a shared run")
    };
    let r = (**r).clone();
    (out, r)
}

#[test]
fn ttcp_under_background_load_runs_without_a_file_service() {
    let (out, r) = shipped_run("ttcp-under-background-load.toml", &[]);
    assert!(r.file_services.is_empty());
    assert_eq!(r.workstations, 0);
    let col = |name: &str| out.points[0][out.columns.iter().position(|c| c == name).unwrap()];
    assert!(col("file_service_kbps").is_nan() && col("server_cpu").is_nan());
    assert_eq!(out.headline.name, "ttcp_kbps");
    let w = &r.wire;
    assert_eq!(w.file_service.to_bits(), 0.0f64.to_bits());
    let sum = w.ttcp + w.background + w.collision + w.corrupted + w.idle;
    assert!((sum - 1.0).abs() < 1e-9, "{w:?}");
    assert!(r.audit_violations.is_empty(), "{:?}", r.audit_violations);
    // the transfer slows as the background load rises
    let kbps = |load: &str| {
        let set = format!("apps[1].offered_load={load}");
        shipped_run("ttcp-under-background-load.toml", &[set.as_str()])
            .1
            .ttcp
            .first()
            .expect("a transfer")
            .throughput_kbps
    };
    let (light, heavy) = (kbps("0.05"), kbps("0.6"));
    assert!(heavy < 0.8 * light, "{heavy} against {light}");
}

#[test]
fn several_background_groups_share_a_cable_alone() {
    let text = r#"
name = "two-groups"
seed = 3
[segment]
length_m = 100.0
[nodes.short]
count = 4
[nodes.long]
count = 4
[[apps]]
kind = "traffic"
senders = "short"
offered_load = 0.2
sizes = { kind = "fixed", bytes = 64 }
[[apps]]
kind = "saturate"
senders = "long"
frame_bytes = 1518
[run]
warmup_s = 0.2
measure_s = 1
"#;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two-groups.toml");
    std::fs::write(&path, text).unwrap();
    let s = scenario::load(&path, &[]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.workload.kind(), "shared");
    let out = run::run(&s);
    let RunDetail::Shared(r) = &out.detail else {
        panic!("not a shared run")
    };
    assert!(r.file_services.is_empty() && r.ttcp.is_empty());
    assert_eq!(r.background.len(), 2);
    assert_eq!(out.headline.name, "background_mbps");
    // the backlogged long frames take what the short ones leave: the wire is full
    assert!(r.wire.idle < 0.05, "{:?}", r.wire);
    assert!(
        r.background[0].throughput_mbps > 0.0 && r.background[1].throughput_mbps > 5.0,
        "{r:?}"
    );
    // a lone group instead runs for a duration, with no warm-up
    let one = text
        .replace(
            "[[apps]]\nkind = \"saturate\"\nsenders = \"long\"\nframe_bytes = 1518\n",
            "",
        )
        .replace("[nodes.long]\ncount = 4\n", "");
    std::fs::write(&path, one).unwrap();
    let e = scenario::load(&path, &[]).map(|_| ()).unwrap_err().to_string();
    assert!(e.contains("key `run.") && e.contains("duration_s"), "{e}");
}

#[test]
fn a_shared_run_of_one_application_or_a_block_size_without_workstations_is_refused() {
    // the shared workload's own form (the shipped scenario's old form)
    let old = root().join("tests/fixtures/workload-form/ttcp-beside-file-service.toml");
    let text = std::fs::read_to_string(&old).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let write = |t: &str| {
        let p = dir.path().join("shared.toml");
        let scenarios = format!("\"{}/scenarios/", root().display());
        let t = t.replace("\"../../../scenarios/", &scenarios);
        std::fs::write(&p, t).unwrap();
        scenario::load(&p, &[]).map(|_| ()).unwrap_err().to_string()
    };
    let no_ws: String = text
        .lines()
        .filter(|l| !l.starts_with("workstations"))
        .collect::<Vec<_>>()
        .join("\n");
    let e = write(&no_ws);
    assert!(
        e.contains("workload.block_size") && e.contains("workstations"),
        "{e}"
    );
    let alone: String = no_ws
        .lines()
        .filter(|l| !l.starts_with("block_size"))
        .collect::<Vec<_>>()
        .join("\n");
    let alone: String = alone
        .lines()
        .filter(|l| !l.starts_with("ttcp ="))
        .collect::<Vec<_>>()
        .join("\n");
    let e = write(&alone);
    assert!(e.contains("two applications or more"), "{e}");
}

/// LANPERF with a background group on its cable: READ, which the round trips limit, slows
/// as the background frames take the wire; WRITE, which the server's disk limits, does
/// not; the group's audit holds (a violation fails the run in a build with debug
/// assertions).
#[test]
fn lanperf_beside_a_background_group_reads_slower_and_writes_as_fast() {
    let lanperf = ethersim::scenario::nodes::migrate::migrate(
        &root().join("tests/fixtures/workload-form/lanperf/lanperf-x.toml"),
    )
    .unwrap();
    let with_load = lanperf.replacen("[[apps]]", "[nodes.load]\ncount = 10\n\n[[apps]]", 1)
        + "\n[[apps]]\nkind = \"traffic\"\nsenders = \"load\"\noffered_load = 0.5\n\
           destination = \"round_robin\"\n\
           sizes = { kind = \"bimodal\", small = 64, large = 1518, small_fraction = 0.5 }\n";
    let dir = tempfile::tempdir().unwrap();
    let totals = |text: &str| {
        let path = dir.path().join("lanperf.toml");
        std::fs::write(&path, text).unwrap();
        let o = [Override::parse("apps[0].options=t10 b512 f16").unwrap()];
        let s = scenario::load(&path, &o).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.workload.kind(), "lanperf");
        match run::run(&s).detail {
            RunDetail::Lanperf(r) => *r,
            _ => panic!("not a lanperf run"),
        }
    };
    let (quiet, loaded) = (totals(&lanperf), totals(&with_load));
    use ethersim::workload::lanperf::Test;
    let kbps = |r: &ethersim::workload::lanperf::LanperfReport, t| r.total_kbps(t).expect("ran");
    assert!(
        kbps(&loaded, Test::Read) < 0.85 * kbps(&quiet, Test::Read),
        "READ {} against {}",
        kbps(&loaded, Test::Read),
        kbps(&quiet, Test::Read)
    );
    let w = kbps(&loaded, Test::Write) / kbps(&quiet, Test::Write);
    assert!((w - 1.0).abs() < 0.03, "WRITE changed by {w}");
    assert!(quiet.background.is_empty());
    let g = &loaded.background[0];
    assert!((g.carried_load - 0.5).abs() < 0.05, "{g:?}");
}

/// LANPERF with a ttcp transfer on its cable: both report, the transfer over the whole
/// run, and every audit holds (a violation fails the run in a build with debug
/// assertions); the bulk transfer takes the wire from LANPERF's short requests.
#[test]
fn lanperf_beside_a_ttcp_transfer_reports_both() {
    let lanperf = ethersim::scenario::nodes::migrate::migrate(
        &root().join("tests/fixtures/workload-form/lanperf/lanperf-x.toml"),
    )
    .unwrap();
    let catalogue = root().join("hardware/catalogue.toml");
    let text = format!("include = [{:?}]\n", catalogue.display().to_string())
        + &lanperf.replacen(
            "[[apps]]",
            "[nodes.midkemia]\nhost = \"486dx2-66-vl\"\nadapter = \"smc-ultra\"\nstack = \"linux-1-2\"\n\n\
             [nodes.kelewan]\nhost = \"p90-pci\"\nadapter = \"smc-ultra\"\nstack = \"linux-1-2\"\n\n[[apps]]",
            1,
        )
        + "\n[[apps]]\nkind = \"ttcp\"\ntransmitter = \"midkemia\"\nreceiver = \"kelewan\"\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lanperf-ttcp.toml");
    std::fs::write(&path, &text).unwrap();
    let o = [Override::parse("apps[0].options=t10 b512 f16").unwrap()];
    let s = scenario::load(&path, &o).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(s.workload.kind(), "lanperf");
    let r = match run::run(&s).detail {
        RunDetail::Lanperf(r) => *r,
        _ => panic!("not a lanperf run"),
    };
    let t = r.ttcp.first().expect("a ttcp transfer");
    assert!(t.throughput_kbps > 500.0, "{t:?}");
    use ethersim::workload::lanperf::Test;
    let read = r.total_kbps(Test::Read).expect("READ ran");
    assert!(
        read > 0.0 && read < 100.0,
        "READ {read} KB/s beside a bulk transfer"
    );
}
