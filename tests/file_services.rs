//! Several file services on one cable, each its own server, workstations and hardware:
//! the shipped `two-file-services.toml` (an office of the bulletin's optimized 16-bit LAN
//! and an office of 8-bit cards with LANtastic's defaults), the same LAN with two
//! identical offices, and the workload form that links perform3 scenarios.
//!
//! Held: each service is reported by its server and the wire's shares (each service's,
//! collisions, idle) add up to the window; the run's figures are the services together;
//! each office moves less than it does with the other office idle, and the two together
//! no more than the wire carries (means of 5 seeds); two identical offices split the wire
//! evenly; every service's conservation audit holds with 0%, 1% and 10% of frames damaged
//! on the wire; a node may not serve two services and a service beside others reads one
//! block size, each refused naming the key; `--explain` names each office by its server.
//! PERFORM3 beside LANPERF is reported over the whole run and slows LANPERF's
//! latency-bound READ, not its disk-bound WRITE; two LANPERF services each run their
//! tests and are reported by their servers; a LANPERF scenario linked into a shared run
//! (no LANPERF harness) is refused.

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

/// A short run of the shipped two offices with `sets`.
fn shipped(sets: &[&str]) -> (run::output::RunOutput, SharedReport) {
    let s = scenario::load(&root().join("scenarios/two-file-services.toml"), &overrides(sets))
        .unwrap_or_else(|e| panic!("{e}"));
    let out = run::run(&s);
    let r = match &out.detail {
        RunDetail::Shared(r) => (**r).clone(),
        _ => panic!("not a shared run"),
    };
    (out, r)
}

fn column(out: &run::output::RunOutput, name: &str) -> f64 {
    let i = out.columns.iter().position(|c| c == name).expect(name);
    out.points[0][i]
}

/// Office B made office A: the same cards, settings and stacks.
const TWINS: [&str; 4] = [
    "nodes.server-b.adapter=ae2-16bit-optimized-server",
    "nodes.server-b.stack=lantastic-optimized-server",
    "nodes.ws-b.adapter=ae2-16bit-optimized-workstation",
    "nodes.ws-b.stack=lantastic-optimized-workstation",
];

/// Each office's throughput, KB/s, the mean of seeds 1 to 5.
fn means(sets: &[&str]) -> [f64; 2] {
    let mut sum = [0.0; 2];
    for seed in 1..=5 {
        let seed = format!("seed={seed}");
        let all: Vec<&str> = sets.iter().copied().chain([seed.as_str()]).collect();
        let (_, r) = shipped(&all);
        assert_eq!(r.file_services.len(), 2);
        for (s, f) in sum.iter_mut().zip(&r.file_services) {
            *s += f.point.throughput_kbps / 5.0;
        }
    }
    sum
}

#[test]
fn each_service_is_reported_by_its_server_and_the_wire_adds_up() {
    let (out, r) = shipped(&[]);
    let names: Vec<&str> = r.file_services.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["server-a", "server-b"]);
    for f in &r.file_services {
        assert_eq!(f.workstations, 5);
        assert_eq!(f.point.per_station_kbps.len(), 5, "{f:?}");
        assert!(f.point.throughput_kbps > 20.0, "{f:?}");
        // a service's file data is part of the frames it had on the wire
        assert!(
            f.point.throughput_kbps <= f.wire_share * 10e6 / 8.0 / 1000.0,
            "{f:?}"
        );
    }
    let w = &r.wire;
    let services: f64 = r.file_services.iter().map(|f| f.wire_share).sum();
    assert!(
        (services - w.file_service).abs() < 1e-9,
        "{services} against {w:?}"
    );
    let sum = w.file_service + w.ttcp + w.background + w.collision + w.corrupted + w.idle;
    assert!((sum - 1.0).abs() < 1e-9, "{w:?}");
    // the run's figures are the services together
    let kbps: f64 = r.file_services.iter().map(|f| f.point.throughput_kbps).sum();
    assert_eq!(column(&out, "file_service_kbps"), kbps);
    assert_eq!(column(&out, "workstations"), 10.0);
    assert_eq!(column(&out, "block_size"), 15360.0);
    let cpu: f64 = r
        .file_services
        .iter()
        .map(|f| f.point.explanation.server_cpu.busy)
        .sum::<f64>()
        / 2.0;
    assert!((column(&out, "server_cpu") - cpu).abs() < 1e-12);
    assert!(r.audit_violations.is_empty(), "{:?}", r.audit_violations);
}

/// Office `keep` ("a" or "b") alone on the cable, KB/s, the mean of seeds 1 to 5: the
/// other office's nodes and application left out (it runs as the perform3 workload).
fn alone(keep: &str) -> f64 {
    let drop = if keep == "a" { "b" } else { "a" };
    let (_dir, path) = edited(|text| {
        // the scenario's tables, each kept unless it is the other office's
        let mut kept = String::new();
        for table in text.split("\n[") {
            let other_nodes = table.starts_with(&format!("nodes.server-{drop}]"))
                || table.starts_with(&format!("nodes.ws-{drop}]"));
            let other_app = table.starts_with("[apps]]") && table.contains(&format!("\"server-{drop}\""));
            if !(other_nodes || other_app) {
                if !kept.is_empty() {
                    kept.push_str("\n[");
                }
                kept.push_str(table);
            }
        }
        assert!(!kept.contains(&format!("ws-{drop}]")), "{kept}");
        kept
    });
    let mut kbps = 0.0;
    for seed in 1..=5 {
        let seed = format!("seed={seed}");
        let s = scenario::load(&path, &overrides(&[seed.as_str()])).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.workload.kind(), "perform3");
        let out = run::run(&s);
        kbps += column(&out, "throughput_kbps") / 5.0;
    }
    kbps
}

#[test]
fn each_office_moves_less_than_alone_and_together_no_more_than_the_wire() {
    let together = means(&[]);
    let (a_alone, b_alone) = (alone("a"), alone("b"));
    assert!(together[0] < a_alone, "together {together:?}, A alone {a_alone}");
    assert!(together[1] < b_alone, "together {together:?}, B alone {b_alone}");
    // 10 Mb/s is 1250 KB/s of frames, and every block needs requests and acknowledgements
    let sum: f64 = together.iter().sum();
    assert!(sum < 1250.0, "{sum} KB/s together");
    // the 16-bit office with the optimized settings keeps the larger part
    assert!(together[0] > together[1], "{together:?}");
}

#[test]
fn two_identical_offices_split_the_wire_evenly() {
    let m = means(&TWINS);
    let (lo, hi) = (m[0].min(m[1]), m[0].max(m[1]));
    assert!(hi <= 1.10 * lo, "{m:?}");
}

#[test]
fn every_service_s_audit_holds_with_frames_damaged_on_the_wire() {
    for corrupt in ["0", "0.01", "0.1"] {
        let set = format!("segment.corrupt_fraction={corrupt}");
        let (_, r) = shipped(&[set.as_str()]);
        assert!(
            r.audit_violations.is_empty(),
            "{corrupt}: {:?}",
            r.audit_violations
        );
        for f in &r.file_services {
            assert!(f.point.throughput_kbps > 0.0, "{corrupt}: {f:?}");
        }
        if corrupt != "0" {
            assert!(r.wire.corrupted > 0.0, "{corrupt}: {:?}", r.wire);
        }
    }
}

#[test]
fn the_explanation_names_each_office_by_its_server() {
    let s = scenario::load(&root().join("scenarios/two-file-services.toml"), &overrides(&[])).unwrap();
    let out = run::run(&s);
    let text = ethersim::report::explain::run(&out).replace('\n', " ");
    assert!(
        text.contains("File service of server-a (PERFORM3 on 5 workstations"),
        "{text}"
    );
    assert!(
        text.contains("File service of server-b (PERFORM3 on 5 workstations"),
        "{text}"
    );
    assert!(
        text.contains("of server-a") && text.contains("of server-b"),
        "{text}"
    );
    assert!(text.contains("the other file services' frames"), "{text}");
}

/// The shipped two offices with `edit` applied to its text, written beside the catalogue.
fn edited(edit: impl Fn(String) -> String) -> (tempfile::TempDir, PathBuf) {
    let text = std::fs::read_to_string(root().join("scenarios/two-file-services.toml")).unwrap();
    let text = edit(text).replace("\"../hardware/", &format!("\"{}/hardware/", root().display()));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("offices.toml");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

#[test]
fn a_node_may_not_serve_two_services() {
    let (_dir, path) = edited(|t| t.replace("server = \"server-b\"", "server = \"server-a\""));
    let err = scenario::load(&path, &[])
        .expect_err("a server of two services")
        .to_string();
    assert!(err.contains("apps[1].server"), "{err}");
    assert!(
        err.contains("server-a") && err.contains("already runs apps[0]"),
        "{err}"
    );
}

/// The shipped `lanperf-x.toml` with an office of PERFORM3 (`office` applications' text,
/// appended) on its cable.
fn lanperf_with(office: &str) -> (tempfile::TempDir, PathBuf) {
    let text = std::fs::read_to_string(root().join("scenarios/lanperf/lanperf-x.toml")).unwrap();
    let text = text.replace("\"../../hardware/", &format!("\"{}/hardware/", root().display()))
        + "\n[nodes.office-server]\nhost = \"486dx50\"\nadapter = \"ae2-16bit-optimized-server\"\n\
           stack = \"lantastic-optimized-server\"\n\n[nodes.office]\ncount = 5\nhost = \"386sx25\"\n\
           adapter = \"ae2-16bit-optimized-workstation\"\nstack = \"lantastic-optimized-workstation\"\n\n"
        + office;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lanperf-office.toml");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

const OFFICE: &str = "[[apps]]\nkind = \"perform3\"\nserver = \"office-server\"\nclients = \"office\"\n\
                      block_sizes = [15360]\n";

/// LANPERF's READ and WRITE totals (KB/s, 1 KB = 1024 bytes), the mean of seeds 1 to 5,
/// and the last run's report.
fn lanperf_means(path: &Path) -> ([f64; 2], ethersim::workload::lanperf::LanperfReport) {
    let mut sum = [0.0; 2];
    let mut last = None;
    for seed in 1..=5 {
        let o: Vec<Override> = ["apps[0].options=t10 b512 f16".to_string(), format!("seed={seed}")]
            .iter()
            .map(|s| Override::parse(s).unwrap())
            .collect();
        let s = scenario::load(path, &o).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.workload.kind(), "lanperf");
        // (a build with debug assertions fails the run on any audit violation)
        let RunDetail::Lanperf(r) = run::run(&s).detail else {
            panic!("not a lanperf run")
        };
        use ethersim::workload::lanperf::Test;
        sum[0] += r.total_kbps(Test::Read).expect("READ ran") / 5.0;
        sum[1] += r.total_kbps(Test::Write).expect("WRITE ran") / 5.0;
        last = Some(*r);
    }
    (sum, last.expect("five runs"))
}

#[test]
fn perform3_beside_lanperf_is_reported_over_the_run_and_slows_lanperf_s_reads() {
    let (_dir, with) = lanperf_with(OFFICE);
    let (beside, r) = lanperf_means(&with);
    assert_eq!(r.file_services.len(), 1);
    let f = &r.file_services[0];
    assert_eq!((f.name.as_str(), f.workstations), ("office-server", 5));
    assert!(f.point.throughput_kbps > 100.0, "{f:?}");
    assert!(f.wire_share > 0.0 && f.wire_share < 1.0, "{f:?}");
    assert!(
        f.point.throughput_kbps <= f.wire_share * 10e6 / 8.0 / 1000.0,
        "{f:?}"
    );
    // the same LAN without the office
    let (_dir2, alone) = lanperf_with("");
    let text = std::fs::read_to_string(&alone).unwrap();
    let cut = text.find("\n[nodes.office-server]").unwrap();
    std::fs::write(&alone, &text[..cut]).unwrap();
    let (quiet, q) = lanperf_means(&alone);
    assert!(q.file_services.is_empty());
    // READ is latency-bound: each round trip now waits for the office's frames; WRITE is
    // bound by the server's disk, which the office does not use
    assert!(beside[0] < 0.8 * quiet[0], "READ {beside:?} against {quiet:?}");
    assert!(
        (beside[1] - quiet[1]).abs() <= 0.1 * quiet[1],
        "WRITE {beside:?} against {quiet:?}"
    );
}

#[test]
fn two_lanperf_services_each_run_their_tests_and_are_reported_by_their_servers() {
    let second = "[[apps]]\nkind = \"lanperf\"\nserver = \"office-server\"\nclients = \"office\"\n\
                  options = \"t10 b512 f16\"\n[apps.disk]\navg_seek_ms = 16.0\ntrack_to_track_ms = 4.0\n\
                  rpm = 3211\nmedia_mbit_s = 15.0\ncontroller_ms = 1.0\ncapacity_mb = 130.0\n";
    let (_dir, path) = lanperf_with(second);
    let (_, r) = lanperf_means(&path);
    assert_eq!(r.lanperf_services.len(), 1);
    let o = &r.lanperf_services[0];
    assert_eq!(o.name, "office-server");
    assert_eq!(o.report.stations.len(), 5);
    use ethersim::workload::lanperf::Test;
    for report in [&r, &o.report] {
        for test in [Test::Write, Test::Read] {
            let kbps = report.total_kbps(test).expect("the test ran");
            assert!(kbps > 5.0, "{test:?}: {kbps}");
        }
        // each service's WRITE is bound by its own server's disk
        let w = report.totals.iter().find(|t| t.test == Test::Write).unwrap();
        let u = w.usage.as_ref().expect("all stations were in WRITE together");
        assert!(u.disk_busy > 0.9, "{u:?}");
    }
    // the office's optimized cards and LANtastic settings read faster than the first
    // service's defaults on the same cable
    assert!(o.report.total_kbps(Test::Read) > r.total_kbps(Test::Read));
    // the text view and --explain give the second service its own tables
    let o = [Override::parse("apps[0].options=t10 b512 f16").unwrap()];
    let out = run::run(&scenario::load(&path, &o).unwrap());
    let text = ethersim::report::explain::run(&out);
    assert!(
        text.contains("File service of office-server: Where the time went"),
        "{text}"
    );
}

#[test]
fn a_lanperf_scenario_linked_beside_perform3_alone_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    perform3_file(dir.path(), "office-a", 3, "[15360]");
    let lanperf = std::fs::read_to_string(root().join("tests/fixtures/workload-form/lanperf/lanperf-x.toml"))
        .unwrap()
        .replace(
            "\"../../../../scenarios/",
            &format!("\"{}/scenarios/", root().display()),
        );
    std::fs::write(dir.path().join("lanperf-x.toml"), lanperf).unwrap();
    let shared = dir.path().join("offices.toml");
    std::fs::write(
        &shared,
        "name = \"offices\"\nseed = 7\n\n[medium]\nlength_m = 30.0\nallow_oversize = true\n\n\
         [workload]\nkind = \"shared\"\nfile_services = [\"office-a.toml\", \"lanperf-x.toml\"]\n",
    )
    .unwrap();
    let err = scenario::load(&shared, &[])
        .expect_err("lanperf in shared")
        .to_string();
    assert!(err.contains("`workload.file_services[1]`"), "{err}");
    assert!(err.contains("is a LANPERF service"), "{err}");
}

#[test]
fn a_service_beside_others_reads_one_block_size() {
    let o = [Override::parse("apps[1].block_sizes=[1024, 15360]").unwrap()];
    let err = scenario::load(&root().join("scenarios/two-file-services.toml"), &o)
        .expect_err("two block sizes")
        .to_string();
    assert!(err.contains("apps[1].block_sizes"), "{err}");
    assert!(err.contains("one block size"), "{err}");
}

/// A perform3 scenario in the workload form, named `name`, on the bulletin's hardware
/// with `ws` workstations reading `blocks`.
fn perform3_file(dir: &Path, name: &str, ws: u32, blocks: &str) -> PathBuf {
    let hardware = root().join("scenarios/bulletin/artisoft-1992.toml");
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(
        &path,
        format!(
            "name = \"{name}\"\nseed = 3\nhardware = {:?}\n\n[medium]\nlength_m = 30.0\n\
             allow_oversize = true\n\n[workload]\nkind = \"perform3\"\nworkstations = {ws}\n\
             block_sizes = {blocks}\n",
            hardware.display().to_string()
        ),
    )
    .unwrap();
    path
}

#[test]
fn the_workload_form_links_perform3_scenarios_a_service_each() {
    let dir = tempfile::tempdir().unwrap();
    perform3_file(dir.path(), "office-a", 3, "[15360]");
    perform3_file(dir.path(), "office-b", 2, "[4096]");
    let shared = dir.path().join("offices.toml");
    let write = |links: &str| {
        std::fs::write(
            &shared,
            format!(
                "name = \"offices\"\nseed = 7\n\n[medium]\nlength_m = 30.0\nallow_oversize = true\n\n\
                 [workload]\nkind = \"shared\"\nfile_services = {links}\nwarmup_s = 0.5\nmeasure_s = 2\n"
            ),
        )
        .unwrap();
    };
    write("[\"office-a.toml\", \"office-b.toml\"]");
    let s = scenario::load(&shared, &[]).unwrap_or_else(|e| panic!("{e}"));
    let out = run::run(&s);
    let RunDetail::Shared(r) = &out.detail else {
        panic!("not a shared run")
    };
    let got: Vec<(&str, usize, u32)> = r
        .file_services
        .iter()
        .map(|f| (f.name.as_str(), f.workstations, f.point.block_size))
        .collect();
    assert_eq!(got, [("office-a", 3, 15360), ("office-b", 2, 4096)]);
    assert!(r.file_services.iter().all(|f| f.point.throughput_kbps > 0.0));
    assert!(r.audit_violations.is_empty(), "{:?}", r.audit_violations);
    // the services read different sizes: the run has no one block size
    assert!(column(&out, "block_size").is_nan());
    assert_eq!(column(&out, "workstations"), 5.0);

    // refused, naming the file, line and key
    perform3_file(dir.path(), "office-c", 2, "[4096, 15360]");
    for (links, key, says) in [
        ("[]", "workload.file_services", "a list of paths"),
        ("\"office-a.toml\"", "workload.file_services", "a list of paths"),
        (
            "[\"office-a.toml\", \"nowhere.toml\"]",
            "workload.file_services[1]",
            "not a readable file",
        ),
        (
            "[\"office-a.toml\", \"office-c.toml\"]",
            "workload.file_services[1]",
            "one (block_sizes = [B])",
        ),
    ] {
        write(links);
        let err = scenario::load(&shared, &[]).expect_err(links).to_string();
        assert!(err.contains("offices.toml:"), "{links}: {err}");
        assert!(err.contains(&format!("`{key}`")), "{links}: {err}");
        assert!(err.contains(says), "{links}: {err}");
    }
}

#[test]
fn one_service_beside_other_applications_is_named_by_its_server_node() {
    let text = std::fs::read_to_string(root().join("scenarios/ttcp-beside-file-service.toml")).unwrap();
    let text = text
        .replace("[nodes.server]", "[nodes.fs1]")
        .replace("server = \"server\"", "server = \"fs1\"")
        .replace("\"../hardware/", &format!("\"{}/hardware/", root().display()));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fs1.toml");
    std::fs::write(&path, text).unwrap();
    let s = scenario::load(&path, &overrides(&[])).unwrap_or_else(|e| panic!("{e}"));
    let RunDetail::Shared(r) = run::run(&s).detail else {
        panic!("not a shared run")
    };
    let names: Vec<&str> = r.file_services.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["fs1"]);
}
