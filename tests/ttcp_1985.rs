//! The 1985 ttcp reproduction (seed 001) at the level reached with the constants
//! `ethersim calibrate calibrations/ttcp1985/fit.toml` fitted: what holds over the 5 seeds of
//! `ethersim ttcp1985`, and what the what-if sweeps found. README ("ttcp over TCP/IP,
//! 1985") says what is not reached and why.

use ethersim::repro::ttcp1985::{self, Row};
use ethersim::scenario::Override;

fn rows(overrides: &[Override]) -> Vec<Row> {
    ttcp1985::run(overrides).unwrap()
}

/// Mean over the non-anomalous rows of `iface` on `side` of `f`.
fn mean(rows: &[Row], side: &str, iface: &str, f: impl Fn(&Row) -> f64) -> f64 {
    let v: Vec<f64> = rows
        .iter()
        .filter(|r| !r.anomalous() && r.side.starts_with(side) && r.interface == iface)
        .map(f)
        .collect();
    v.iter().sum::<f64>() / v.len() as f64
}

#[test]
fn excelan_beats_pcl_beats_interlan_and_the_interlan_receiver_costs_less_cpu_per_kb() {
    let r = rows(&[]);
    // the seed's ordering by throughput at the receiver (measured ex0 59.6 > pcl0 54.7 >
    // il0 43.3 KB/s), on the unrounded 5-seed means as `reproduce ttcp-1985` ranks them,
    // and by what ttcp printed
    let exact = |iface| mean(&r, "receiver", iface, |r| r.simulated_exact_kbytes_per_s);
    let (ex, pcl, il) = (exact("ex0"), exact("pcl0"), exact("il0"));
    assert!(
        ex > pcl && pcl > 1.1 * il,
        "unrounded: ex0 {ex:.1}, pcl0 {pcl:.1}, il0 {il:.1} KB/s"
    );
    let kb = |iface| mean(&r, "receiver", iface, |r| r.simulated.kbytes_per_s);
    let (ex, pcl, il) = (kb("ex0"), kb("pcl0"), kb("il0"));
    assert!(
        ex > pcl && pcl > 1.1 * il,
        "as ttcp printed: ex0 {ex:.1}, pcl0 {pcl:.1}, il0 {il:.1} KB/s"
    );
    // per CPU second the Interlan receiver is cheaper than the Excelan's (measured 185-194
    // against 104-133); the transmitters come out equal (measured 170-186 against
    // 150-162: not reached, README), held here within 3%
    let per_cpu = |side, iface| mean(&r, side, iface, |r| r.simulated.kbytes_per_cpu_s);
    let (il, ex) = (per_cpu("receiver", "il0"), per_cpu("receiver", "ex0"));
    assert!(
        il > 1.1 * ex,
        "receiver: il0 {il:.0} vs ex0 {ex:.0} KB per CPU second"
    );
    let (il, ex) = (per_cpu("transmitter", "il0"), per_cpu("transmitter", "ex0"));
    assert!(
        il > 0.97 * ex,
        "transmitter: il0 {il:.1} vs ex0 {ex:.1} KB per CPU second"
    );
    // before ttcp's truncations (user + system seconds unrounded, as `reproduce
    // ttcp-1985` ranks them) both sides rank the interfaces as the seed does, pcl0 >
    // il0 > ex0 KB per CPU second; on the transmitter by a narrow margin (163.9 against
    // 162.6 with the shipped constants)
    let exact_cpu = |side, iface| mean(&r, side, iface, |r| r.simulated_exact_kbytes_per_cpu_s);
    for side in ["transmitter", "receiver"] {
        let (pcl, il, ex) = (
            exact_cpu(side, "pcl0"),
            exact_cpu(side, "il0"),
            exact_cpu(side, "ex0"),
        );
        assert!(
            pcl > il && il > ex,
            "{side}, unrounded: pcl0 {pcl:.1}, il0 {il:.1}, ex0 {ex:.1} KB per CPU second"
        );
    }
}

#[test]
fn the_excelan_receiver_is_charged_more_system_time_than_its_transmitter() {
    // measured: receiver 45-59%, transmitter 35-42%. With one receive request hung at a
    // time (if_ex.c) the data frames reach the receiver while its reader is in its call,
    // where their interrupts are its system time; the transmitter's transmit replies
    // come at interrupt level, mostly over its idle loop
    let r = rows(&[]);
    let sys = |side| mean(&r, side, "ex0", |r| r.simulated.sys_pct());
    let (tx, rx) = (sys("transmitter"), sys("receiver"));
    assert!(
        rx > tx + 4.0,
        "ex0 system CPU: receiver {rx:.1}%, transmitter {tx:.1}%"
    );
    // the single-processor Excelan transmitter rows within 8 points
    for row in r
        .iter()
        .filter(|r| r.side.starts_with("transmitter") && r.config == "single" && r.interface == "ex0")
    {
        assert!(
            row.sys_error_points().abs() <= 8.0,
            "{} {} {}: {:+.1} points",
            row.side,
            row.config,
            row.trailers,
            row.sys_error_points()
        );
    }
}

#[test]
fn the_level_reached() {
    let r = rows(&[]);
    let ok: Vec<&Row> = r.iter().filter(|r| !r.anomalous()).collect();
    assert_eq!(ok.len(), 26);
    let thr = ok
        .iter()
        .filter(|r| r.throughput_error_pct().abs() <= 10.0)
        .count();
    let sys = ok.iter().filter(|r| r.sys_error_points().abs() <= 8.0).count();
    assert!(thr >= 24, "throughput within 10% in {thr} of 26");
    // 22: the fit searched from neutral starts (the middle and a seeded design) reaches
    // 22 rows; 23 came from hand-picked starts that had seen every row (the bar moved,
    // docs/repro/ttcp1985.md says so)
    assert!(sys >= 22, "system CPU within 8 points in {sys} of 26");
    // the single-processor Excelan rows within 8% (they were 13-22% fast without the
    // EXOS's request take-up); the Interlan rows within 26%
    for row in &ok {
        let bound = match (row.config.as_str(), row.interface.as_str()) {
            ("single", "ex0") => 8.0,
            (_, "il0") => 26.0,
            _ => continue,
        };
        assert!(
            row.throughput_error_pct().abs() <= bound,
            "{} {} {} {}: {:+.1}%",
            row.side,
            row.config,
            row.interface,
            row.trailers,
            row.throughput_error_pct()
        );
    }
}

#[test]
fn the_unrounded_cpu_seconds_are_what_ttcp_truncated_to_tenths() {
    // each seed's printed user and system seconds are its own cut to tenths, so their
    // mean over the seeds lies at most 0.1 s below the mean of the unrounded seconds;
    // and the simulated system time is nearly all of the CPU the model charges
    // (measured: user at most 0.6 s of 4-10 s)
    for r in rows(&[]) {
        let tag = format!("{} {} {} {}", r.side, r.config, r.interface, r.trailers);
        for (printed, exact) in [
            (r.simulated.usr_s, r.simulated_exact_user_s),
            (r.simulated.sys_s, r.simulated_exact_sys_s),
        ] {
            assert!(
                printed <= exact + 1e-9 && exact < printed + 0.1 + 1e-9,
                "{tag}: printed {printed:.3} against unrounded {exact:.3}"
            );
        }
        assert!(
            r.simulated_exact_user_s < 0.1 * r.simulated_exact_sys_s,
            "{tag}: user {:.2} s against system {:.2} s",
            r.simulated_exact_user_s,
            r.simulated_exact_sys_s
        );
    }
}

#[test]
fn the_socket_buffer_limits_1985_ttcp() {
    let kb = |buf: &str| {
        let o = [Override::parse(&format!("apps[0].socket_buffer={buf}")).unwrap()];
        mean(&rows(&o), "receiver", "ex0", |r| r.simulated.kbytes_per_s)
    };
    let (b2, b8) = (kb("2048"), kb("8192"));
    assert!(b8 > 1.6 * b2, "8 KB buffers: {b8:.1} vs {b2:.1} KB/s");
}

#[test]
fn the_excelan_burst_matters_little_from_four_words_up() {
    // README's what-if: from the seed's 4-word bursts, longer bursts pay the UNIBUS
    // request and grant less often and move each frame sooner, but the take-up of each
    // request and the two-segment window hold the cycle: 8 and 16 words gain a few
    // percent (57.7, 59.3, 59.9 KB/s with the shipped constants), never more than 6%
    let kb = |words: u32| {
        let o = [Override::parse(&format!("adapters.excelan-exos-204.dma.burst_words={words}")).unwrap()];
        mean(&rows(&o), "receiver", "ex0", |r| r.simulated_exact_kbytes_per_s)
    };
    let (w4, w8, w16) = (kb(4), kb(8), kb(16));
    assert!(
        w4 < w8 && w8 < w16 && w16 < 1.06 * w4,
        "4 words {w4:.2}, 8 words {w8:.2}, 16 words {w16:.2} KB/s"
    );
}

#[test]
fn cli_reproduce_writes_the_1985_comparison() {
    let dir = tempfile::tempdir().unwrap();
    let out = assert_cmd::Command::cargo_bin("ethersim")
        .unwrap()
        .args(["reproduce", "ttcp-1985", "--out", dir.path().to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let printed = String::from_utf8(out.stdout).unwrap();
    assert!(
        printed.contains("non-anomalous rows: throughput within 10% in"),
        "{printed}"
    );
    assert!(
        printed.contains("interfaces by receiver KB/s (mean of non-anomalous rows): measured ex0 59.6 > pcl0 54.7 > il0 43.3; simulated, unrounded "),
        "{printed}"
    );
    // the two charts, as SVG and as PNG
    for f in [
        "ttcp-1985.svg",
        "ttcp-1985.png",
        "ttcp-1985-sys.svg",
        "ttcp-1985-sys.png",
    ] {
        let len = std::fs::metadata(dir.path().join(f)).unwrap().len();
        assert!(len > 10_000, "{f}: {len} bytes");
    }
    let svg = std::fs::read_to_string(dir.path().join("ttcp-1985-sys.svg")).unwrap();
    assert!(svg.contains("TGR (receiver) measured"), "the sys chart's legend");
    let csv = std::fs::read_to_string(dir.path().join("ttcp-1985.csv")).unwrap();
    let header = ethersim::repro::ttcp1985::report::CSV_COLUMNS.join(",");
    assert!(csv.starts_with(&header), "{csv}");
    // every row of the seed's two tables, once
    let measured_rows = ethersim::repro::ttcp1985::MEASURED_CSV
        .lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .count();
    assert_eq!(csv.lines().count(), 1 + measured_rows, "{csv}");
}

/// ttcp's throughput of `scenario`, mean over the 5 report seeds, unrounded.
fn kbytes_per_s(scenario: &str) -> f64 {
    let mut sum = 0.0;
    for seed in ["1985", "1", "2", "3", "4"] {
        let out = assert_cmd::Command::cargo_bin("ethersim")
            .unwrap()
            .args(["run", scenario, "--seed", seed, "--format", "json", "-q"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        sum += v["headline"]["value"].as_f64().unwrap();
    }
    sum / 5.0
}

#[test]
fn the_dual_vax_is_as_fast_as_the_single_one() {
    // the second processor takes only ttcp's user-mode loop (0.1 thousand instructions
    // a write), so dual and single differ by little. Before the process's output was
    // kept inside its call (4.2BSD's write runs tcp_output and the driver's start
    // routine before it returns), the next write's system call could overtake the
    // previous write's copy to the card when the user work ran beside the CPU, and the
    // dual VAX came out 8% slower than the single one (53.8 vs 57.5 KB/s)
    for trailers in ["trailers", "notrailers"] {
        let dual = kbytes_per_s(&format!("scenarios/ttcp1985/ttcp-1985-dual-ex0-{trailers}.toml"));
        let single = kbytes_per_s(&format!(
            "scenarios/ttcp1985/ttcp-1985-single-ex0-{trailers}.toml"
        ));
        assert!(
            (dual / single - 1.0).abs() < 0.02,
            "ex0 {trailers}: dual {dual:.2}, single {single:.2} KB/s"
        );
    }
}

/// `reproduce ttcp-1985 --set KEY=VALUE` runs the whole table with the key changed in
/// every scenario: with 8 KB socket buffers every row's simulated throughput (before ttcp's
/// truncation) is above what the 4.2BSD buffers give, the library's own run of the table.
#[test]
fn cli_reproduce_with_set_is_a_what_if_of_the_whole_table() {
    let dir = tempfile::tempdir().unwrap();
    let out = assert_cmd::Command::cargo_bin("ethersim")
        .unwrap()
        .args(["reproduce", "ttcp-1985", "--set", "apps[0].socket_buffer=8192"])
        .args(["--out", dir.path().to_str().unwrap(), "--jobs", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let csv = std::fs::read_to_string(dir.path().join("ttcp-1985.csv")).unwrap();
    let column = ethersim::repro::ttcp1985::report::CSV_COLUMNS
        .iter()
        .position(|c| *c == "simulated_exact_kbytes_per_s")
        .unwrap();
    let what_if: Vec<f64> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(column).unwrap().parse().unwrap())
        .collect();
    let shipped = rows(&[]);
    assert_eq!(what_if.len(), shipped.len());
    for (w, r) in what_if.iter().zip(&shipped) {
        assert!(
            *w > r.simulated_exact_kbytes_per_s * 1.2,
            "{} {} {}: {w} against {}",
            r.side,
            r.config,
            r.interface,
            r.simulated_exact_kbytes_per_s
        );
    }
}

/// A reproduction is the mean over its own report seeds, so `--set seed=` is refused (a
/// usage error, as is a key given twice), as are a key no scenario has and a value out of
/// range (bad input, exit 1); nothing is written.
#[test]
fn cli_reproduce_refuses_a_seed_an_unknown_key_and_a_key_twice() {
    for (set, says, code) in [
        (vec!["seed=3"], "`seed` cannot be set", 2),
        (vec!["apps[0].nokey=1"], "key `apps[0].nokey`: unknown key", 1),
        (
            vec!["apps[0].socket_buffer=4096", "apps[0].socket_buffer=8192"],
            "given twice",
            2,
        ),
        (
            vec!["adapters.excelan-exos-204.queue.take_up_ns=-1"],
            "allowed: [0, 10000000]",
            1,
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out");
        let mut cmd = assert_cmd::Command::cargo_bin("ethersim").unwrap();
        cmd.args(["reproduce", "ttcp-1985", "--out", target.to_str().unwrap()]);
        for s in &set {
            cmd.args(["--set", s]);
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(code), "{set:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{set:?}: {err}");
        assert!(!target.exists(), "{set:?}: nothing written");
    }
}

/// `--explain` of a run over the PCL-11 (a point-to-point link, where nobody contends
/// for the medium) says so instead of printing a mean capture run of NaN.
#[test]
fn explain_over_the_point_to_point_link_has_no_nan() {
    let out = assert_cmd::Command::cargo_bin("ethersim")
        .unwrap()
        .args([
            "run",
            "scenarios/ttcp1985/ttcp-1985-dual-pcl0.toml",
            "--explain",
            "-q",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let printed = String::from_utf8(out.stdout).unwrap();
    assert!(!printed.contains("NaN"), "{printed}");
    assert!(
        printed.contains("0 collisions (data against ACK), no capture runs (no contention for the medium)"),
        "{printed}"
    );
}

/// Without `--out`, `reproduce --set` writes into a folder of `output/what-if` named
/// after the reproduction and its overrides, never over the reproduction's own files in
/// `output` (README shows those); without `--set` it writes into `output`.
#[test]
fn a_what_if_without_out_goes_to_its_own_directory() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let out = assert_cmd::Command::cargo_bin("ethersim")
            .unwrap()
            .current_dir(dir.path())
            .args(["reproduce", "ttcp-1985", "-q", "--jobs", "1"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    run(&["--set", "apps[0].socket_buffer=4096"]);
    let what_if_dir = dir
        .path()
        .join("output/what-if/ttcp1985_apps-0-.socket_buffer=4096");
    assert!(what_if_dir.join("ttcp-1985.csv").exists());
    assert!(!dir.path().join("output/ttcp-1985.csv").exists());
    run(&[]);
    let shipped = std::fs::read_to_string(dir.path().join("output/ttcp-1985.csv")).unwrap();
    let what_if = std::fs::read_to_string(what_if_dir.join("ttcp-1985.csv")).unwrap();
    assert_ne!(shipped, what_if);
}

#[test]
fn the_calibration_table_is_the_mean_of_each_configurations_non_anomalous_runs() {
    // data/ttcp1985/ttcp-1985-calibration.csv (what `calibrate` fits) against the seed's own rows:
    // per scenario the runs, the receiver's KB/s and each side's system seconds and
    // system % (Sys over Real, run by run) averaged over the non-anomalous runs
    let r = rows(&[]);
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/ttcp1985/ttcp-1985-calibration.csv"
    );
    let mut table = csv::Reader::from_path(path).unwrap();
    let head = table.headers().unwrap().clone();
    let col = |name: &str| head.iter().position(|h| h == name).unwrap();
    let mut seen = 0;
    for rec in table.records() {
        let rec = rec.unwrap();
        let num = |name: &str| rec[col(name)].parse::<f64>().unwrap();
        let (config, iface, trailers, _) = ttcp1985::CASES
            .iter()
            .find(|c| c.3 == &rec[col("scenario")])
            .unwrap();
        let runs: Vec<&Row> = r
            .iter()
            .filter(|x| {
                !x.anomalous() && x.config == *config && x.interface == *iface && x.trailers == *trailers
            })
            .collect();
        let side =
            |s: &str| -> Vec<&Row> { runs.iter().filter(|x| x.side.starts_with(s)).copied().collect() };
        let avg = |s: &str, f: &dyn Fn(&Row) -> f64| {
            let v: Vec<f64> = side(s).into_iter().map(f).collect();
            v.iter().sum::<f64>() / v.len() as f64
        };
        assert_eq!(side("receiver").len() as f64, num("runs"), "{:?}", rec);
        assert_eq!(side("transmitter").len() as f64, num("runs"), "{:?}", rec);
        let close = |a: f64, b: f64, tol: f64| assert!((a - b).abs() <= tol, "{a} vs {b} in {rec:?}");
        close(
            num("kbytes_per_s"),
            avg("receiver", &|x| x.measured.kbytes_per_s),
            0.01,
        );
        // what the calibration fits: the middle of what each run's printed whole second
        // allows, 1024 / (real + 0.5), averaged over the runs
        close(
            num("kbytes_per_s_midpoint"),
            avg("receiver", &|x| 1024.0 / (x.measured.real_s + 0.5)),
            0.005,
        );
        close(num("tx_sys_s"), avg("transmitter", &|x| x.measured.sys_s), 0.001);
        close(num("rx_sys_s"), avg("receiver", &|x| x.measured.sys_s), 0.001);
        close(
            num("tx_sys_pct"),
            avg("transmitter", &|x| x.measured.sys_pct()),
            0.005,
        );
        close(
            num("rx_sys_pct"),
            avg("receiver", &|x| x.measured.sys_pct()),
            0.005,
        );
        seen += 1;
    }
    assert_eq!(seen, ttcp1985::CASES.len());
}

#[test]
fn a_configuration_loads_by_its_scenario_name_and_an_unknown_name_lists_the_nine() {
    let s = ttcp1985::scenario("ttcp-1985-single-pcl0", &[]).expect("embedded scenario loads");
    assert_eq!(s.name, "ttcp-1985-single-pcl0");
    let e = ttcp1985::scenario("ttcp-1985-single-pcl1", &[])
        .unwrap_err()
        .to_string();
    assert!(e.contains("`ttcp-1985-single-pcl1`"), "{e}");
    for &(.., name) in &ttcp1985::CASES {
        assert!(e.contains(name), "{e} lacks {name}");
    }
}

#[test]
fn the_calibrations_scatter_is_the_seeds_own_run_to_run_scatter() {
    // calibrations/ttcp1985/fit.toml weighs each figure by `scatter_percent`: the pooled
    // relative standard deviation of one run over the configurations the seed ran more
    // than once (its non-anomalous runs), recomputed here from the seed's rows
    let r = rows(&[]);
    let pooled = |side: &str, f: &dyn Fn(&Row) -> f64| {
        let (mut ss, mut df) = (0.0, 0usize);
        for (config, iface, trailers, _) in ttcp1985::CASES.iter() {
            let v: Vec<f64> = r
                .iter()
                .filter(|x| {
                    !x.anomalous()
                        && x.side.starts_with(side)
                        && x.config == *config
                        && x.interface == *iface
                        && x.trailers == *trailers
                })
                .map(f)
                .collect();
            if v.len() < 2 {
                continue;
            }
            let m = v.iter().sum::<f64>() / v.len() as f64;
            ss += v.iter().map(|x| ((x - m) / m).powi(2)).sum::<f64>();
            df += v.len() - 1;
        }
        assert_eq!(
            df, 4,
            "single pcl0 (3 runs) and single ex0 with and without trailers (2 each)"
        );
        100.0 * (ss / df as f64).sqrt()
    };
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/calibrations/ttcp1985/fit.toml");
    let cal: toml::Table = std::fs::read_to_string(path).unwrap().parse().unwrap();
    let stated = |figure: &str| {
        cal["measured"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["figure"].as_str() == Some(figure))
            .and_then(|m| m.get("scatter_percent"))
            .and_then(|v| v.as_float())
            .unwrap_or_else(|| panic!("{figure} has a scatter_percent"))
    };
    for (figure, side, got) in [
        (
            "kbytes_per_s",
            "receiver",
            // the throughput as the calibration fits it, 1024 / (real + 0.5) per run
            pooled("receiver", &|x| 1024.0 / (x.measured.real_s + 0.5)),
        ),
        (
            "tx_sys_s",
            "transmitter",
            pooled("transmitter", &|x| x.measured.sys_s),
        ),
        ("rx_sys_s", "receiver", pooled("receiver", &|x| x.measured.sys_s)),
    ] {
        assert!(
            (stated(figure) - got).abs() < 0.006,
            "{figure} ({side}): stated {} against {got:.3} from the seed",
            stated(figure)
        );
    }
}

/// The seed's pcl anomaly (system time 5-8% on both VAXes at the usual throughput) is not
/// a matter of where the 100 Hz ticks fall in the model: over 20 seeds (each draws both
/// hosts' tick phases) the single-VAX PCL run charges each side within 8% of its mean
/// and never below 20% of the run, while the CPUs are busy well above what is charged
/// (work over the idle loop is charged to nobody). The link and the driver's
/// completions set the segment cycle, which drifts across the tick (README, "The pcl
/// anomaly").
#[test]
fn the_pcl_charge_does_not_hinge_on_the_tick_phase() {
    let mut tx = Vec::new();
    let mut rx = Vec::new();
    for seed in 1..=20 {
        let out = assert_cmd::Command::cargo_bin("ethersim")
            .unwrap()
            .args(["run", "scenarios/ttcp1985/ttcp-1985-single-pcl0.toml"])
            .args(["--seed", &seed.to_string(), "--format", "json", "-q"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let p = &v["points"][0];
        let f = |k: &str| p[k].as_f64().unwrap();
        tx.push((f("tx_sys_s"), f("tx_real_s"), f("tx_cpu")));
        rx.push((f("rx_sys_s"), f("rx_real_s"), f("rx_cpu")));
    }
    for (side, runs) in [("transmitter", &tx), ("receiver", &rx)] {
        let mean = runs.iter().map(|r| r.0).sum::<f64>() / runs.len() as f64;
        for &(sys, real, busy) in runs.iter() {
            assert!(
                (sys / mean - 1.0).abs() < 0.08,
                "{side}: {sys} s against a mean of {mean:.2}"
            );
            assert!(sys / real > 0.20, "{side}: charged {sys} s of {real:.2} s");
            assert!(
                busy > sys / real,
                "{side}: busy {busy:.3}, charged {:.3}",
                sys / real
            );
        }
    }
}
