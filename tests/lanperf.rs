//! LANPERF (issue 11): whole-scenario behaviour of the `lanperf` workload.
//!
//! - the seed's sample output, laid out by the table exporter from its operation counts;
//! - consistency with Figure 1 (PERFORM3, 16-bit optimized) at 32 KB blocks;
//! - the step from cache to disk when the files stop fitting, and write-through against
//!   delayed write;
//! - bad input: every range, a bad option string, contradicting forms, a disk too small;
//! - a WRITE over a medium that corrupts 1% and 10% of frames loses and duplicates nothing.

use std::path::Path;

use ethersim::scenario::{self, Override, Scenario, Workload};
use ethersim::workload::lanperf::{self, LanperfReport, Test};
use ethersim::workload::perform3;

fn load(file: &str, sets: &[&str]) -> Result<Scenario, String> {
    let o: Vec<Override> = sets
        .iter()
        .map(|s| Override::parse(s).expect("override parses"))
        .collect();
    scenario::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios").join(file),
        &o,
    )
    .map_err(|e| e.to_string())
}

/// Runs a LANPERF scenario with the audit; panics if the audit fails.
fn run(file: &str, sets: &[&str]) -> LanperfReport {
    let s = load(file, sets).unwrap_or_else(|e| panic!("{e}"));
    let Workload::Lanperf(w) = &s.workload else {
        panic!("lanperf expected")
    };
    let (r, audit) = lanperf::run_audited(&w.config, s.seed);
    let a = audit.unwrap_or_else(|e| panic!("{file} {sets:?}: {e}"));
    assert_eq!(a.bytes_stored, a.bytes_written_sent);
    r
}

#[test]
fn test_table_prints_the_seeds_sample_output_from_its_operation_counts() {
    let params = lanperf::LanperfParams::parse_options("t10 b512 f64").unwrap();
    let runs = [(Test::Write, 1153), (Test::Read, 1725)].map(|(test, operations)| lanperf::TestRun {
        test,
        operations,
        ticks: 183,
        start: Default::default(),
        end: Default::default(),
    });
    let report = LanperfReport {
        workstations: 1,
        servers: 1,
        params: params.clone(),
        stations: vec![lanperf::StationResult {
            station: 1,
            tests: runs
                .iter()
                .map(|r| lanperf::TestResult::new(&params, r))
                .collect(),
        }],
        totals: vec![],
        finished_s: 0.0,
        events: 0,
        ttcp: Vec::new(),
        background: vec![],
        file_services: Vec::new(),
        lanperf_services: Vec::new(),
    };
    let t = ethersim::report::lanperf::table(&report);
    assert!(t.contains("Test time : 10 seconds\nBlock size : 512 bytes\nFile size : 64 blocks (32768 bytes)\nSharing : Compatibility"), "{t}");
    assert!(t.contains("WRITE :       1153          8.673       57.65"), "{t}");
    assert!(t.contains("READ  :       1725          5.797       86.25"), "{t}");
}

#[test]
fn test_x_defaults_run_both_tests_on_five_stations_audited() {
    let r = run("lanperf/lanperf-x.toml", &[]);
    assert_eq!(r.stations.len(), 5);
    for s in &r.stations {
        let tests: Vec<Test> = s.tests.iter().map(|t| t.test).collect();
        assert_eq!(tests, vec![Test::Write, Test::Read], "WRITE, then READ");
        for t in &s.tests {
            // a whole number of ticks, at least 60 s = 1093 ticks (18.2065 Hz, rounded
            // up), and at most the block that crossed the line (plus one tick) more
            let tick_s = 65536.0 / 1_193_182.0;
            let ticks = t.measured_s / tick_s;
            assert!((ticks - ticks.round()).abs() < 1e-6, "{t:?}");
            let over = t.mean_response_ms * 1e-3 / tick_s + 1.0;
            assert!(
                ticks.round() >= 1093.0 && ticks.round() <= 1093.0 + over.ceil(),
                "{t:?}"
            );
        }
    }
    let write = r.total_kbps(Test::Write).unwrap();
    let read = r.total_kbps(Test::Read).unwrap();
    assert!(
        write > 0.0 && read > write,
        "write-through makes WRITE slower: {write} vs {read}"
    );
}

/// LANPERF READ on Figure 1's LAN (16-bit optimized, 5 stations, 32 KB blocks in cache)
/// against PERFORM3 at the nearest block size, 31744 bytes. Both in bytes/s. PERFORM3
/// does more per block (its C loop and timing: `app_block_kinstr` 47.5 against LANPERF's
/// 20), so the per-block times may differ by that work (and by the 1024 bytes more per
/// LANPERF block at the measured byte rate); beyond that, at most 5%.
#[test]
fn test_read_agrees_with_figure_1_at_32k_blocks() {
    let r = run(
        "lanperf/lanperf-max.toml",
        &[
            "nodes.workstations.count=5",
            "apps[0].options=\"t10 b32768 f4 r\"",
        ],
    );
    let lp_bytes_s = r.total_kbps(Test::Read).unwrap() * 1024.0;
    let s = load("bulletin/16bit-optimized.toml", &["apps[0].block_sizes=[31744]"]).unwrap();
    let Workload::Perform3(w) = &s.workload else {
        panic!()
    };
    let p3 = perform3::run(&w.config, s.seed);
    let p3_bytes_s = p3.points[0].throughput_kbps * 1000.0;
    let diff = (lp_bytes_s - p3_bytes_s) / p3_bytes_s;
    eprintln!(
        "LANPERF READ {lp_bytes_s:.0} B/s, PERFORM3 {p3_bytes_s:.0} B/s: {:+.1}%",
        diff * 100.0
    );
    if diff.abs() > 0.05 {
        // explained by the work per block: per-station time per block
        let lp_ms = 32768.0 * 5.0 / lp_bytes_s * 1e3;
        let p3_ms = 31744.0 * 5.0 / p3_bytes_s * 1e3;
        let mips = w.config.lan.profile.workstation_host.mips;
        let extra_work_ms = (w.config.lan.profile.costs.app_block_kinstr - 20.0) / mips;
        let extra_bytes_ms = 1024.0 * 5.0 / p3_bytes_s * 1e3;
        let expected = p3_ms - extra_work_ms + extra_bytes_ms;
        assert!(
            ((lp_ms - expected) / expected).abs() < 0.05,
            "LANPERF {lp_bytes_s:.0} B/s vs PERFORM3 {p3_bytes_s:.0} B/s ({diff:+.3}); per block {lp_ms:.2} ms vs {p3_ms:.2} ms, expected {expected:.2}"
        );
    }
}

#[test]
fn test_read_steps_from_cache_to_disk_when_the_files_stop_fitting() {
    // 5 stations x 4 KB x f blocks against a 1 MB cache: 5 x 200 KB fits, 5 x 256 KB not
    let fits = run("lanperf/lanperf-x.toml", &["apps[0].options=\"t10 b4096 f50 r\""]);
    let spills = run("lanperf/lanperf-x.toml", &["apps[0].options=\"t10 b4096 f64 r\""]);
    let (a, b) = (fits.totals[0].clone(), spills.totals[0].clone());
    let (ua, ub) = (a.usage.unwrap(), b.usage.unwrap());
    assert!(ua.disk_busy < 0.05, "in cache: no disk: {ua:?}");
    assert_eq!(ub.limit, lanperf::Limit::Disk, "{ub:?}");
    assert!(
        b.throughput_kbps < 0.8 * a.throughput_kbps,
        "{} vs {}",
        b.throughput_kbps,
        a.throughput_kbps
    );
}

#[test]
fn test_write_delayed_beats_write_through_and_sharing_mode_decides() {
    let opts = "apps[0].options=\"t10 b4096 f16 w\"";
    let through = run("lanperf/lanperf-x.toml", &[opts]);
    let delayed = run(
        "lanperf/lanperf-x.toml",
        &[opts, "apps[0].cache.write_policy=\"delayed\""],
    );
    let shared = run(
        "lanperf/lanperf-x.toml",
        &[
            "apps[0].options=\"t10 b4096 f16 w dn\"",
            "apps[0].cache.write_policy=\"delayed\"",
        ],
    );
    let (t, d, s) = (
        through.total_kbps(Test::Write).unwrap(),
        delayed.total_kbps(Test::Write).unwrap(),
        shared.total_kbps(Test::Write).unwrap(),
    );
    assert!(d > 2.0 * t, "delayed {d} vs write-through {t}");
    assert_eq!(
        through.totals[0].usage.as_ref().unwrap().limit,
        lanperf::Limit::Disk
    );
    // deny none lets other writers in: the server writes through (the NOS rule)
    assert!((s - t).abs() < 0.1 * t, "deny none {s} vs write-through {t}");
}

#[test]
fn test_write_over_a_lossy_medium_loses_and_duplicates_nothing() {
    for frac in ["0.01", "0.1"] {
        let set = format!("segment.corrupt_fraction={frac}");
        for policy in ["\"write-through\"", "\"delayed\""] {
            let p = format!("apps[0].cache.write_policy={policy}");
            let r = run(
                "lanperf/lanperf-x.toml",
                &[&set, &p, "apps[0].options=\"t10 b4096 f16 w\""],
            );
            let u = r.totals[0].usage.as_ref().unwrap();
            assert!(
                u.packets_retransmitted > 0,
                "{frac}: corruption makes retransmissions"
            );
            assert!(r.total_kbps(Test::Write).unwrap() > 0.0);
        }
    }
}

/// A LANPERF scenario with the structured keys (no option string) on the bulletin's
/// hardware, with `sets` applied.
fn structured(sets: &[&str]) -> Result<Scenario, String> {
    let text =
        "name = \"bad\"\nhardware = \"artisoft-1992.toml\"\n[workload]\nkind = \"lanperf\"\nstations = 2\n";
    let o: Vec<Override> = sets
        .iter()
        .map(|s| Override::parse(s).expect("override parses"))
        .collect();
    scenario::load_embedded("bad.toml", text, Some(ethersim::repro::bulletin::HARDWARE), &o)
        .map_err(|e| e.to_string())
}

#[test]
fn test_bad_input_is_a_clear_error() {
    // the structured keys
    let keys: &[(&str, &str)] = &[
        ("workload.test_s=9", "key `workload.test_s`: test length (s) 9 is out of range 10..=65535 (LANPERF option t#)"),
        ("workload.test_s=65536", "65536 is out of range 10..=65535"),
        ("workload.block=0", "key `workload.block`: block size (bytes) 0 is out of range 1..=65535"),
        ("workload.block=65536", "65536 is out of range 1..=65535"),
        ("workload.file_blocks=0", "key `workload.file_blocks`: file size (blocks) 0"),
        ("workload.file_blocks=-3", "-3 is out of range 1..=65535 (LANPERF option f#)"),
        ("workload.file_blocks=99999999999", "99999999999 is out of range"),
        ("workload.sharing=\"deny everything\"", "workload.sharing"),
        ("workload.tests=[]", "no test selected"),
        ("workload.tests=[\"copy\"]", "workload.tests[0]"),
        ("workload.stations=0", "workload.stations"),
        ("workload.block_kinstr=-1", "workload.block_kinstr"),
        ("workload.cache.write_policy=\"lazy\"", "write policy"),
        ("workload.cache.block_bytes=100", "workload.cache.block_bytes"),
        ("workload.disk.rpm=0", "workload.disk.rpm"),
        ("workload.disk.capacity_mb=0.1", "the stations' files need 131072 bytes (2 stations x 2 files x 64 blocks x 512 bytes), the disk has 100000 bytes"),
    ];
    for (set, want) in keys {
        let e = structured(&[set])
            .err()
            .unwrap_or_else(|| panic!("{set} accepted"));
        assert!(e.contains(want), "{set}: {e}");
    }
    // the option string: the same ranges, the same words
    let opts: &[(&str, &str)] = &[
        (
            "t9",
            "test length (s) 9 is out of range 10..=65535 (LANPERF option t#)",
        ),
        ("b65536", "block size (bytes) 65536 is out of range 1..=65535"),
        ("f0", "file size (blocks) 0 is out of range 1..=65535"),
        ("f99999999999999999999999", "out of range 1..=65535"),
        ("t30 q", "option `q`"),
        ("t", "needs a number"),
        ("dz", "sharing mode"),
        ("b65535 f65535", "the disk has 130000000 bytes"),
    ];
    for (o, want) in opts {
        let set = format!("workload.options=\"{o}\"");
        let e = structured(&[&set])
            .err()
            .unwrap_or_else(|| panic!("{o} accepted"));
        assert!(e.contains("workload.") && e.contains(want), "{o}: {e}");
    }
    // both forms at once
    let e = structured(&["workload.options=\"t30\"", "workload.test_s=30"]).unwrap_err();
    assert!(e.contains("not both"), "{e}");
    assert!(structured(&["workload.options=\"t30 b64 f10 r w drw\""]).is_ok());
}

#[test]
fn test_run_output_has_the_declared_columns_one_row_per_test() {
    let s = load(
        "lanperf/lanperf-x.toml",
        &["apps[0].options=\"t10 b512 f8\"", "nodes.workstations.count=2"],
    )
    .unwrap();
    let out = ethersim::run::run(&s);
    assert_eq!(out.columns, ethersim::run::LANPERF_COLUMNS.to_vec());
    assert_eq!(
        ethersim::run::point_columns(&s),
        &ethersim::run::LANPERF_COLUMNS[..]
    );
    assert_eq!(out.points.len(), 2);
    assert_eq!(
        (out.points[0][0], out.points[1][0]),
        (1.0, 2.0),
        "WRITE, then READ"
    );
    assert_eq!(ethersim::run::point_keys(&s, "test").unwrap(), vec![1.0, 2.0]);
    assert_eq!(
        out.headline.value, out.points[1][5],
        "the headline is the READ total"
    );
}

/// The seed's "maximum LAN throughput": with the stations spread over more servers the sum
/// rises above the single-server maximum while the wire has room, and flattens once the
/// wire is busy (`lanperf-2servers.toml`: 16-bit defaults, 10 stations, 4 KB reads; with
/// the bulletin's constants 374, 665, 783 and 797 KB/s from 1-4 servers, the wire 37% busy
/// with one and 76% with four, where collisions and deferrals take the rest).
#[test]
fn test_more_servers_raise_the_sum_until_the_wire_is_saturated() {
    let sum = |servers: &str| {
        let r = run(
            "lanperf/lanperf-2servers.toml",
            &[&format!("nodes.server.count={servers}")],
        );
        let t = r.totals[0].clone();
        (t.throughput_kbps, t.usage.unwrap())
    };
    let (one, u1) = sum("1");
    let (two, u2) = sum("2");
    let (three, _) = sum("3");
    let (four, u4) = sum("4");
    assert!(u1.wire_busy < 0.5, "one server leaves the wire room: {u1:?}");
    assert!(two > 1.5 * one, "two servers: {two} vs {one}");
    assert!(three > 1.1 * two, "a third server still adds: {three} vs {two}");
    assert!(u4.wire_busy > 0.7 && u4.wire_busy > u2.wire_busy, "{u2:?} {u4:?}");
    assert!(
        four < 1.05 * three,
        "a fourth server on a busy wire adds little: {four} vs {three}"
    );
}

/// The seed's local baselines: a RAM disk is fastest; loading the redirector costs every
/// call its examination; a local hard disk without a cache pays the drive per block; the
/// network READ costs more than the redirector alone.
#[test]
fn test_local_baselines_order_ram_disk_redirector_hard_disk_and_network() {
    let local = |dev: &str, redir: bool| {
        let set = format!("apps[0].local={{device=\"{dev}\", redirector={redir}}}");
        let r = run(
            "lanperf/lanperf-x.toml",
            &["nodes.workstations.count=1", "apps[0].options=\"t10 r\"", &set],
        );
        assert_eq!(r.servers, 0);
        r.total_kbps(Test::Read).unwrap()
    };
    let ram = local("ram-disk", false);
    let ram_redir = local("ram-disk", true);
    let disk = local("hard-disk", false);
    let net = run(
        "lanperf/lanperf-x.toml",
        &["nodes.workstations.count=1", "apps[0].options=\"t10 r\""],
    )
    .total_kbps(Test::Read)
    .unwrap();
    assert!(
        ram > ram_redir && ram_redir > net,
        "ram {ram}, with redirector {ram_redir}, network {net}"
    );
    assert!(disk < ram, "hard disk {disk} vs ram {ram}");
    let e = load(
        "lanperf/lanperf-x.toml",
        &[
            "apps[0].local={device=\"floppy\", redirector=false}",
            "nodes.workstations.count=1",
        ],
    )
    .unwrap_err();
    assert!(e.contains("apps[0].local.device"), "{e}");
}

#[test]
fn test_bad_input_through_the_cli_writes_nothing_and_does_not_panic() {
    let dir = tempfile::tempdir().unwrap();
    for (sets, want) in [
        (
            &["apps[0].options=\"t9\""][..],
            "out of range 10..=65535 (LANPERF option t#)",
        ),
        (
            &["apps[0].options=\"t30 b64 f10 q\""],
            "option `q`: unknown option",
        ),
        (
            &["apps[0].options=\"b70000\""],
            "out of range 1..=65535 (LANPERF option b#)",
        ),
        (
            &["apps[0].options=\"f65535 b65535\"", "nodes.workstations.count=10"],
            "the disk has",
        ),
    ] {
        let out = dir.path().join("out");
        let mut cmd = assert_cmd::Command::cargo_bin("ethersim").unwrap();
        cmd.arg("run")
            .arg("scenarios/lanperf/lanperf-x.toml")
            .arg("--out")
            .arg(&out);
        for s in sets {
            cmd.arg("--set").arg(s);
        }
        let o = cmd.output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{sets:?}: {err}");
        assert!(
            err.contains("error:") && err.contains(want) && !err.contains("panicked"),
            "{sets:?}: {err}"
        );
        assert!(!out.join("run.txt").exists(), "{sets:?}: nothing is written");
    }
}
