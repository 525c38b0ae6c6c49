//! `ethersim calibrate` end to end on small problems built in a temporary directory from
//! the bulletin's files: recovery of known constants from synthetic measurements, the
//! flag on a constant the data cannot pin down, bad calibration files refused before any
//! run, and byte-identical outputs whatever the number of threads.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use assert_cmd::Command;
use ethersim::calibrate::{self, Calibration, SearchStart};
use ethersim::repro::bulletin::HARDWARE;

mod shipped;

/// The two scenarios calibrated: each data port is seen by one of them.
const SCENARIOS: [&str; 2] = ["16bit-optimized", "8bit-optimized"];

const TRUE_IO16: f64 = 1200.0;
// The true 8-bit access sits inside the ISA range (0.85-1.8 us). Far above it (2 us) the
// five 32 KB replies of a 64 KB block outlast the 500 ms retry timer on some seeds, and a
// short run's objective is then set by that cliff rather than by the port.
const TRUE_IO8: f64 = 1700.0;
const BLOCKS: [u32; 3] = [3072, 15360, 64512];

/// The bulletin hardware with the
/// server's two data-port access times given directly, `io16` and `io8`. (With 1.5 s measured, the 3 KB point varied
/// by 2-3% between the report seeds once acknowledgements went out at interrupt level,
/// and that noise hid the 16-bit port from the fold that sees it.)
fn hardware(io16: f64, io8: f64) -> String {
    let mut doc: toml_edit::DocumentMut = HARDWARE.1.parse().unwrap();
    // the server's port times given directly rather than from its bus cycle
    doc["hosts"]["server"].as_table_mut().unwrap().remove("isa");
    doc["adapter"]["io_access_ns_16bit"] = toml_edit::value(io16);
    doc["adapter"]["io_access_ns_8bit"] = toml_edit::value(io8);
    doc.to_string()
}

/// The two optimized scenarios, shortened (3 block sizes, 0.5 s + 3 s), beside the
/// hardware file already in `dir`.
fn write_scenarios(dir: &Path) {
    for name in SCENARIOS {
        shipped::export_edited(dir, name, |d| shipped::short_perform3(d, &BLOCKS, 0.5, 3.0));
    }
}

/// The two data ports: each is seen by one of the two scenarios only.
macro_rules! ports {
    () => {
        r#"
[[parameter]]
key = "adapter.io_access_ns_16bit"
min = 600.0
max = 2400.0

[[parameter]]
key = "adapter.io_access_ns_8bit"
min = 1000.0
max = 4000.0
"#
    };
}

/// The two data ports alone.
const PORTS: &str = ports!();

const PARAMS: &str = concat!(
    ports!(),
    r#"
# no frame is lost in these runs, so the retransmission timer never fires: the data
# cannot say anything about it
[[parameter]]
key = "nos.protocol.retry_base_ms"
min = 200.0
max = 1000.0
"#
);

/// A calibration directory: hardware (with the true constants), the two optimized
/// scenarios, measurements simulated with the true constants plus up to 1% noise, and a
/// calibration file with `extra` appended (or `params` replaced).
fn setup(dir: &Path, params: &str) -> PathBuf {
    std::fs::write(dir.join("artisoft-1992.toml"), hardware(TRUE_IO16, TRUE_IO8)).unwrap();
    write_scenarios(dir);
    let mut csv = String::from("config,block_size,kbps\n");
    let mut k = 0u32;
    for name in SCENARIOS {
        let s = ethersim::scenario::load(&dir.join(format!("{name}.toml")), &[]).unwrap();
        let out = ethersim::run::run(&s);
        for p in &out.points {
            // deterministic noise within +-1%
            k += 1;
            let noise = 1.0 + 0.01 * ((k * 7919 % 21) as f64 - 10.0) / 10.0;
            csv.push_str(&format!("{},{},{}\n", s.name, p[0], p[1] * noise));
        }
    }
    std::fs::write(dir.join("measured.csv"), csv).unwrap();
    let file = dir.join("cal.toml");
    std::fs::write(
        &file,
        format!(
            r#"name = "small"
hardware = "artisoft-1992.toml"
scenarios = ["16bit-optimized.toml", "8bit-optimized.toml"]
figure = "throughput_kbps"
seeds = [1992]
report_seeds = [1992, 1, 2, 3, 4]
max_evaluations = 90

[measured]
file = "measured.csv"
scenario_column = "config"
key_column = "block_size"
value_column = "kbps"
{params}"#
        ),
    )
    .unwrap();
    file
}

/// Replaces the calibration file's evaluation budget.
fn set_budget(file: &Path, evaluations: u32) {
    let text = std::fs::read_to_string(file).unwrap();
    let text = text.replace(
        "max_evaluations = 90",
        &format!("max_evaluations = {evaluations}"),
    );
    std::fs::write(file, text).unwrap();
}

fn number(v: &toml::Value) -> f64 {
    v.as_float().or_else(|| v.as_integer().map(|i| i as f64)).unwrap()
}

#[test]
fn recovers_identifiable_constants_and_flags_the_other() {
    let dir = tempfile::tempdir().unwrap();
    let cal = Calibration::load(&setup(dir.path(), PARAMS)).expect("valid calibration");
    let fit = calibrate::fit(&cal, &AtomicBool::new(false), &|_| {}).expect("fit runs");
    let by_key = |k: &str| fit.parameters.iter().find(|p| p.key == k).unwrap();
    for (key, truth) in [
        ("adapter.io_access_ns_16bit", TRUE_IO16),
        ("adapter.io_access_ns_8bit", TRUE_IO8),
    ] {
        let p = by_key(key);
        let got = number(&p.fitted);
        assert!(
            (got - truth).abs() / truth < 0.05,
            "{key}: fitted {got}, true {truth} (started at {})",
            p.start
        );
        assert!(!p.flagged, "{key} is pinned down by the data: {p:?}");
    }
    let retry = by_key("nos.protocol.retry_base_ms");
    assert!(retry.flagged, "the retry timer cannot be identified: {retry:?}");
    // it started from the middle of the bounds, not from the answer
    assert_eq!(number(&by_key("adapter.io_access_ns_16bit").start), 1500.0);
    // it ends at the noise floor the true constants reach (their objective is the
    // measurements' 1% noise): a search lands in a step of the event-driven objective
    // near the truth (1.45 against 1.26 at the truth, a port 3.6% off), never far above
    assert!(
        fit.objective_after < 1.5 * fit.objective_before.max(1.0),
        "fitted {} against {} at the true constants",
        fit.objective_after,
        fit.objective_before
    );
}

/// Sets the calibration file's number of design starts.
fn set_design_starts(file: &Path, n: u32) {
    let text = std::fs::read_to_string(file).unwrap();
    let text = text.replace(
        "seeds = [1992]\n",
        &format!("seeds = [1992]\ndesign_starts = {n}\n"),
    );
    std::fs::write(file, text).unwrap();
}

/// `design_starts = N`: a fit runs N + 1 searches (the middle, then each design point),
/// each with the whole budget, and keeps the lowest objective (the earlier on a tie); the
/// search from the middle is the fit without design starts. A fold of cross-validation
/// runs the same searches.
#[test]
fn design_starts_run_one_search_more_each_and_the_fit_keeps_the_lowest() {
    let dir = tempfile::tempdir().unwrap();
    let file = setup(dir.path(), PORTS);
    set_budget(&file, 12);
    let cal = Calibration::load(&file).expect("valid calibration");
    assert_eq!(cal.design_starts, 0);
    let middle = calibrate::fit(&cal, &AtomicBool::new(false), &|_| {}).expect("fit runs");
    assert_eq!(middle.searches.len(), 1);
    assert_eq!(middle.searches[0].0, SearchStart::Middle);

    set_design_starts(&file, 3);
    let cal = Calibration::load(&file).expect("valid calibration");
    let fit = calibrate::fit(&cal, &AtomicBool::new(false), &|_| {}).expect("fit runs");
    let from: Vec<SearchStart> = fit.searches.iter().map(|s| s.0).collect();
    assert_eq!(
        from,
        [
            SearchStart::Middle,
            SearchStart::Design(1),
            SearchStart::Design(2),
            SearchStart::Design(3)
        ]
    );
    assert_eq!(
        fit.searches[0], middle.searches[0],
        "the first search is the middle's"
    );
    assert!(fit.evaluations > middle.evaluations && fit.evaluations <= 4 * 12);
    // the lowest, the earliest on a tie
    let lowest = fit.searches.iter().map(|s| s.1).fold(f64::INFINITY, f64::min);
    assert_eq!(fit.objective_after, lowest);
    let kept = fit.searches.iter().position(|s| s.1 == lowest).unwrap();
    // the reported start is the kept search's: the middle, or its design point
    let starts = calibrate::search::start_points(&cal);
    assert_eq!(starts.len(), 4);
    let (_, u, _) = &starts[kept];
    for ((p, c), u) in fit.parameters.iter().zip(&cal.parameters).zip(u) {
        let calibrate::Domain::Continuous { min, max, .. } = c.domain else {
            unreachable!()
        };
        assert!(
            (number(&p.start) - (min + u * (max - min))).abs() <= 1e-4 * (max - min),
            "{p:?}"
        );
    }
    // each design point is elsewhere than the middle
    for (_, u, _) in &starts[1..] {
        assert!(u.iter().all(|x| (0.0..1.0).contains(x)) && u != &starts[0].1);
    }
    // cross-validation: each fold runs the same four searches from the same starts
    set_budget(&file, 4);
    let cal = Calibration::load(&file).unwrap();
    let folds = calibrate::cross_validate(&cal, &AtomicBool::new(false), &|_, _| {}).unwrap();
    for fold in &folds {
        let from: Vec<SearchStart> = fold.searches.iter().map(|s| s.0).collect();
        assert_eq!(from, SearchStart::all(3));
        let lowest = fold.searches.iter().map(|s| s.1).fold(f64::INFINITY, f64::min);
        assert_eq!(fold.objective, lowest, "{}", fold.held_out);
    }
}

/// No fold can see its held-out curve through a start: the only values in the files that
/// earlier fits (to all the curves) chose are the hardware file's current values of the
/// fitted constants, and with every one of them changed the folds are the same, to the
/// last digit (fitted values, objectives, searches, predictions).
#[test]
fn cross_validation_does_not_depend_on_the_hardware_file_s_current_values() {
    let dir = tempfile::tempdir().unwrap();
    let file = setup(dir.path(), PORTS);
    set_budget(&file, 5);
    set_design_starts(&file, 1);
    let folds = || {
        let cal = Calibration::load(&file).expect("valid calibration");
        calibrate::cross_validate(&cal, &AtomicBool::new(false), &|_, _| {}).expect("folds run")
    };
    let before = folds();
    // the same file with the two fitted constants elsewhere (the measurements stay)
    std::fs::write(dir.path().join("artisoft-1992.toml"), hardware(2333.0, 1111.0)).unwrap();
    let cal = Calibration::load(&file).unwrap();
    let current: Vec<f64> = cal.parameters.iter().map(|p| number(&p.current)).collect();
    assert_eq!(
        current,
        [2333.0, 1111.0],
        "every fitted constant's current value moved"
    );
    let after = folds();
    assert_eq!(before.len(), 2);
    assert_eq!(after, before);
}

#[test]
fn a_hand_picked_start_is_refused_naming_its_key_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = setup(dir.path(), PARAMS);
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replace("max = 4000.0", "max = 4000.0\nstart = 1700.0");
    let line = text.lines().position(|l| l == "start = 1700.0").unwrap() + 1;
    std::fs::write(&file, &text).unwrap();
    let err = Calibration::load(&file)
        .expect_err("a start is refused")
        .to_string();
    for want in [
        format!("cal.toml:{line}"),
        "parameter[1].start".into(),
        "middle of the bounds".into(),
        "design".into(),
    ] {
        assert!(err.contains(&want), "{want:?} not in: {err}");
    }
}

/// Leave-one-out: each fold is a plain fit of the other scenarios (same objective, same
/// values), reports that fit's own objective and values, and cannot pin down a constant
/// only the held-out scenario sees: without 16-bit optimized the 16-bit port is free,
/// without 8-bit optimized the 8-bit one; the other port is recovered.
#[test]
fn cross_validation_fits_each_fold_without_its_scenario_and_reports_its_objective() {
    let dir = tempfile::tempdir().unwrap();
    let cal = Calibration::load(&setup(dir.path(), PORTS)).expect("valid calibration");
    let stop = AtomicBool::new(false);
    let folds = calibrate::cross_validate(&cal, &stop, &|_, _| {}).expect("folds run");
    assert_eq!(folds.len(), 2);
    let io16 = "adapter.io_access_ns_16bit".to_string();
    let io8 = "adapter.io_access_ns_8bit".to_string();
    for (held, fold, (seen, truth, unseen)) in [
        (0usize, &folds[0], (1usize, TRUE_IO8, &io16)),
        (1, &folds[1], (0, TRUE_IO16, &io8)),
    ] {
        assert_eq!(fold.held_out, cal.scenarios[held].name);
        let alone = calibrate::fit(&cal.subset(&[1 - held]), &stop, &|_| {}).unwrap();
        assert_eq!(fold.objective, alone.objective_after, "{}", fold.held_out);
        assert_eq!(fold.values, alone.values, "{}", fold.held_out);
        assert_eq!(fold.flagged, vec![unseen.clone()], "{}", fold.held_out);
        let got = number(&fold.values[seen]);
        assert!(
            (got - truth).abs() / truth < 0.05,
            "{}: the port it sees, fitted {got}, true {truth}",
            fold.held_out
        );
    }
    // the command writes the same folds, with the fit objective and each fitted value
    let out = dir.path().join("cv");
    let o = Command::cargo_bin("ethersim")
        .unwrap()
        .args(["calibrate", "--cross-validate", "--jobs", "2", "--out"])
        .arg(&out)
        .arg(dir.path().join("cal.toml"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(out.join("cross_validation.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "held_out,fit_objective,mape_pct,worst_key,worst_pct,not_pinned_down,evaluations,\
         adapter.io_access_ns_16bit,adapter.io_access_ns_8bit"
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 2);
    for (row, fold) in rows.iter().zip(&folds) {
        assert_eq!(row[0], fold.held_out);
        assert_eq!(row[1].parse::<f64>().unwrap(), fold.objective);
        assert_eq!(row[7].parse::<f64>().unwrap(), number(&fold.values[0]));
        assert_eq!(row[8].parse::<f64>().unwrap(), number(&fold.values[1]));
    }
    let report = std::fs::read_to_string(out.join("calibration.txt")).unwrap();
    assert!(report.contains("fit objective"), "{report}");
}

fn calibrate_cmd(file: &Path, out: &Path, jobs: &str) -> std::process::Output {
    Command::cargo_bin("ethersim")
        .unwrap()
        .args([
            "calibrate",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            jobs,
        ])
        .output()
        .unwrap()
}

#[test]
fn same_files_with_one_or_two_threads_and_comments_kept() {
    let dir = tempfile::tempdir().unwrap();
    // one constant and few evaluations: this is about the outputs, not the fit
    let one = "\n[[parameter]]\nkey = \"adapter.io_access_ns_8bit\"\nmin = 1000.0\nmax = 4000.0\n";
    let file = setup(dir.path(), one);
    set_budget(&file, 12);
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    for (out, jobs) in [(&a, "1"), (&b, "2")] {
        let o = calibrate_cmd(&file, out, jobs);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    for f in [
        "artisoft-1992.toml",
        "calibration.csv",
        "calibration.txt",
        "calibration.svg",
    ] {
        let (x, y) = (
            std::fs::read(a.join(f)).unwrap(),
            std::fs::read(b.join(f)).unwrap(),
        );
        assert!(x == y, "{f} differs between --jobs 1 and --jobs 2");
    }
    assert!(a.join("calibration.png").exists());
    // the fitted copy keeps every comment of the hardware file and marks the fitted value
    let fitted = std::fs::read_to_string(a.join("artisoft-1992.toml")).unwrap();
    let original = std::fs::read_to_string(dir.path().join("artisoft-1992.toml")).unwrap();
    let comments = |t: &str| t.lines().filter(|l| l.trim_start().starts_with('#')).count();
    assert_eq!(comments(&fitted), comments(&original));
    let line = fitted
        .lines()
        .find(|l| l.starts_with("io_access_ns_8bit"))
        .unwrap();
    assert!(line.contains("# calibrated by cal.toml (was 1700"), "{line}");
    // the input is untouched without --in-place
    assert_eq!(original, hardware(TRUE_IO16, TRUE_IO8));
}

#[test]
fn in_place_from_the_calibrations_own_directory_rewrites_the_hardware_file() {
    // `calibrate cal.toml --in-place` run where the file is: the hardware file's path is
    // a bare name, whose parent is the empty path (it once failed with "cannot write :")
    let dir = tempfile::tempdir().unwrap();
    let one = "\n[[parameter]]\nkey = \"adapter.io_access_ns_8bit\"\nmin = 1000.0\nmax = 4000.0\n";
    let file = setup(dir.path(), one);
    set_budget(&file, 6);
    let o = Command::cargo_bin("ethersim")
        .unwrap()
        .current_dir(dir.path())
        .args([
            "calibrate",
            "cal.toml",
            "--in-place",
            "--jobs",
            "1",
            "--out",
            "out",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rewritten = std::fs::read_to_string(dir.path().join("artisoft-1992.toml")).unwrap();
    let fitted = std::fs::read_to_string(dir.path().join("out/artisoft-1992.toml")).unwrap();
    assert_eq!(
        rewritten, fitted,
        "--in-place writes the fitted copy over the hardware file"
    );
    assert!(
        rewritten.contains("# calibrated by cal.toml (was 1700"),
        "the fitted value is marked"
    );
}

#[test]
fn in_place_on_a_symlinked_hardware_file_rewrites_the_file_it_points_to() {
    // the hardware file named by the calibration is a link into another folder: the link
    // stays a link, and the file it points to gets the fit
    let dir = tempfile::tempdir().unwrap();
    let one = "\n[[parameter]]\nkey = \"adapter.io_access_ns_8bit\"\nmin = 1000.0\nmax = 4000.0\n";
    let file = setup(dir.path(), one);
    set_budget(&file, 6);
    let real_dir = dir.path().join("real");
    std::fs::create_dir(&real_dir).unwrap();
    let link = dir.path().join("artisoft-1992.toml");
    let real = real_dir.join("artisoft-1992.toml");
    std::fs::rename(&link, &real).unwrap();
    std::os::unix::fs::symlink("real/artisoft-1992.toml", &link).unwrap();
    let before = std::fs::read_to_string(&real).unwrap();
    let o = Command::cargo_bin("ethersim")
        .unwrap()
        .current_dir(dir.path())
        .args([
            "calibrate",
            "cal.toml",
            "--in-place",
            "--jobs",
            "1",
            "--out",
            "out",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(meta.file_type().is_symlink(), "the link was replaced by a file");
    let after = std::fs::read_to_string(&real).unwrap();
    let fitted = std::fs::read_to_string(dir.path().join("out/artisoft-1992.toml")).unwrap();
    assert_ne!(before, after, "the file the link points to is unchanged");
    assert_eq!(after, fitted, "the file the link points to holds the fit");
    // nothing was left beside the real file or the link
    let names = |d: &Path| -> Vec<String> {
        std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    };
    assert_eq!(names(&real_dir), vec!["artisoft-1992.toml".to_string()]);
    assert!(
        !names(dir.path()).iter().any(|n| n.starts_with('.')),
        "{:?}",
        names(dir.path())
    );
}

/// Runs `calibrate` on the setup with `edit` applied to the calibration file, expecting a
/// failure before any run whose message contains every one of `wants`.
fn refused(edit: impl Fn(String) -> String, wants: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let file = setup(dir.path(), PARAMS);
    std::fs::write(&file, edit(std::fs::read_to_string(&file).unwrap())).unwrap();
    let out = dir.path().join("out");
    let o = calibrate_cmd(&file, &out, "1");
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!o.status.success(), "accepted: {err}");
    for w in wants {
        assert!(err.contains(w), "{w:?} not in: {err}");
    }
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn bad_calibration_files_are_refused_before_any_run() {
    // an unknown key, located
    refused(
        |t| t.replace("figure =", "figur = 1\nfigure ="),
        &["cal.toml:", "figur", "unknown key"],
    );
    // empty bounds
    refused(
        |t| t.replace("min = 600.0", "min = 2400.0"),
        &["parameter[0].max", "min < max"],
    );
    // neither bounds nor choices
    refused(
        |t| t.replace("min = 600.0\nmax = 2400.0", ""),
        &["parameter[0]", "either"],
    );
    // a key that is not in the hardware file
    refused(
        |t| t.replace("adapter.io_access_ns_16bit", "adapter.io_access_16"),
        &["parameter[0].key", "not a key of the hardware file"],
    );
    // a measured file that is not there
    refused(
        |t| t.replace("measured.csv", "bad.csv"),
        &["measured.file", "cannot read"],
    );
    // a parameter that every scenario sets itself
    refused(
        |t| t.replace("nos.protocol.retry_base_ms", "adapter.transmit_buffers"),
        &["no scenario uses"],
    );
    // searches: the former search_from, too many or negative design starts, a negative
    // design seed
    for (line, want) in [
        (
            r#"search_from = ["middle"]"#,
            &["search_from", "no longer accepted", "design_starts"][..],
        ),
        ("design_starts = 65", &["design_starts", "0..=64"]),
        ("design_starts = -1", &["design_starts", "0..=64"]),
        ("design_seed = -3", &["design_seed", "0..="]),
    ] {
        refused(
            |t| t.replace("max_evaluations = 90", &format!("max_evaluations = 90\n{line}")),
            want,
        );
    }
    // a figure the scenarios do not produce
    refused(
        |t| t.replace("\"throughput_kbps\"", "\"goodput\""),
        &["figure", "goodput", "throughput_kbps"],
    );
    // too many evaluations
    refused(
        |t| t.replace("max_evaluations = 90", "max_evaluations = 0"),
        &["max_evaluations", "1..="],
    );
}

#[test]
fn measurements_that_do_not_match_the_scenarios_are_refused() {
    for (edit, want, line) in [
        (
            "16bit-optimized,3072,",
            "16bit-optimized,3000,",
            "line 2: scenario",
        ),
        (
            "\n8bit-optimized,",
            "\n9bit-optimized,",
            "line 5: \"9bit-optimized\" is not one of the scenarios",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let file = setup(dir.path(), PARAMS);
        let m = dir.path().join("measured.csv");
        std::fs::write(&m, std::fs::read_to_string(&m).unwrap().replacen(edit, want, 1)).unwrap();
        let o = calibrate_cmd(&file, &dir.path().join("out"), "1");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success());
        assert!(err.contains("measured.csv") && err.contains(line), "{err}");
    }
}

#[test]
fn ctrl_c_writes_the_best_so_far_complete() {
    let dir = tempfile::tempdir().unwrap();
    let file = setup(dir.path(), PARAMS);
    set_budget(&file, 20000);
    let out = dir.path().join("out");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_ethersim"))
        .args([
            "calibrate",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            "1",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // early: the search takes over a second in release; a stop that comes before the
    // first evaluation takes effect after it
    std::thread::sleep(std::time::Duration::from_millis(300));
    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let o = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    // SIGINT's own exit status, after the best-so-far is written
    assert_eq!(
        o.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(stdout.contains("INTERRUPTED"), "{stdout}");
    // every file is there and whole: the fitted hardware file loads as TOML
    let hw = std::fs::read_to_string(out.join("artisoft-1992.toml")).unwrap();
    assert!(hw.parse::<toml::Table>().is_ok());
    let csv = std::fs::read_to_string(out.join("calibration.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 2 * BLOCKS.len());
    assert!(out.join("calibration.png").exists() && out.join("calibration.txt").exists());
}

#[test]
fn ctrl_c_during_an_in_place_fit_leaves_the_hardware_file_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let file = setup(dir.path(), PARAMS);
    set_budget(&file, 20000);
    let hw = dir.path().join("artisoft-1992.toml");
    let before = std::fs::read(&hw).unwrap();
    let out = dir.path().join("out");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_ethersim"))
        .args([
            "calibrate",
            file.to_str().unwrap(),
            "--in-place",
            "--jobs",
            "1",
            "--out",
        ])
        .arg(&out)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert_eq!(
        std::fs::read(&hw).unwrap(),
        before,
        "an unfinished fit was written in place"
    );
    assert!(err.contains("unchanged"), "{err}");
    // the best so far is in the output directory, and nothing temporary is left anywhere
    assert!(out.join("artisoft-1992.toml").is_file());
    for d in [dir.path(), out.as_path()] {
        let stray: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("ethersim"))
            .collect();
        assert!(stray.is_empty(), "{stray:?}");
    }
}

#[test]
fn a_budget_spent_inside_the_first_simplex_ends_the_search_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let file = setup(dir.path(), PARAMS);
    set_budget(&file, 2);
    let cal = Calibration::load(&file).unwrap();
    let fit = calibrate::fit(&cal, &AtomicBool::new(false), &|_| {}).expect("a fit, not a panic");
    assert_eq!(fit.evaluations, 2);
    assert!(!fit.interrupted);
    // a stop before anything ran still evaluates the start, and reports it whole
    let stopped = calibrate::fit(&cal, &AtomicBool::new(true), &|_| {}).expect("the start");
    assert!(stopped.interrupted);
    assert_eq!(stopped.evaluations, 1);
    assert_eq!(
        number(&stopped.parameters[0].fitted),
        1500.0,
        "the start, the middle of the bounds"
    );
}

#[test]
fn fitted_values_inside_inline_tables_stay_valid_toml_and_are_marked_after_the_table() {
    // the 1995 ttcp calibration fits `workload.hosts.kelewan.isa.bridge_ns`, a value
    // inside `isa = { ... }` where a comment cannot go
    let cal = Calibration::load(Path::new("calibrations/ttcp1995/fit.toml")).expect("valid calibration");
    let values: Vec<toml::Value> = cal.parameters.iter().map(|p| p.middle.clone()).collect();
    let text = ethersim::calibrate::trial::hardware_text(&cal, &values, Some("calibrated by t"))
        .expect("the fitted copy is written");
    let doc: toml::Table = toml::from_str(&text).expect("the fitted copy parses");
    let bridge = &doc["workload"]["hosts"]["kelewan"]["isa"]["bridge_ns"];
    let i = cal
        .parameters
        .iter()
        .position(|p| p.key == "workload.hosts.kelewan.isa.bridge_ns")
        .unwrap();
    assert_eq!(number(bridge), number(&values[i]));
    let line = text
        .lines()
        .find(|l| l.starts_with("isa = { path = \"pci_bridge\""))
        .unwrap();
    assert!(line.contains("} # calibrated by t: bridge_ns (was "), "{line}");
    // a value outside an inline table keeps its marker on its own line
    let seg = text.lines().find(|l| l.starts_with("segment_kinstr")).unwrap();
    assert!(seg.contains(" # calibrated by t (was "), "{seg}");
}

#[test]
fn a_value_inside_an_inline_table_fitted_again_keeps_one_note_naming_the_value_it_replaced() {
    // `calibrate --in-place` run twice: the second run's hardware file is the first's output
    let mut cal = Calibration::load(Path::new("calibrations/ttcp1995/fit.toml")).expect("valid calibration");
    let i = cal
        .parameters
        .iter()
        .position(|p| p.key == "workload.hosts.kelewan.isa.bridge_ns")
        .unwrap();
    let first: Vec<toml::Value> = cal.parameters.iter().map(|p| p.middle.clone()).collect();
    let once = ethersim::calibrate::trial::hardware_text(&cal, &first, Some("calibrated by t"))
        .expect("the first fit is written");
    let mut second = first.clone();
    second[i] = toml::Value::Float(number(&first[i]) + 1.0);
    cal.hardware.text = once;
    let twice = ethersim::calibrate::trial::hardware_text(&cal, &second, Some("calibrated by t"))
        .expect("the second fit is written");
    let line = twice
        .lines()
        .find(|l| l.starts_with("isa = { path = \"pci_bridge\""))
        .unwrap();
    assert_eq!(line.matches("bridge_ns (was ").count(), 1, "{line}");
    // the note names the first fit's value, the one the second replaced
    let was = format!("bridge_ns (was {}", toml::Value::Float(number(&first[i])));
    assert!(line.contains(&was), "{line} lacks {was}");
    let doc: toml::Table = toml::from_str(&twice).expect("the twice-fitted copy parses");
    assert_eq!(
        number(&doc["workload"]["hosts"]["kelewan"]["isa"]["bridge_ns"]),
        number(&second[i])
    );
}

/// The calibration file of `setup` with its one `[measured]` table turned into two
/// `[[measured]]` tables, each naming its figure (`figures`, the second from `col2`).
fn two_tables(t: String, figures: [&str; 2], col2: &str) -> String {
    let t = t.replace("figure = \"throughput_kbps\"\n", "");
    let table = "[measured]\nfile = \"measured.csv\"\nscenario_column = \"config\"\nkey_column = \"block_size\"\nvalue_column = \"kbps\"\n";
    assert!(t.contains(table));
    let two = format!(
        "[[measured]]\nfigure = \"{}\"\nfile = \"measured.csv\"\nscenario_column = \"config\"\nkey_column = \"block_size\"\nvalue_column = \"kbps\"\n\n[[measured]]\nfigure = \"{}\"\nfile = \"measured.csv\"\nscenario_column = \"config\"\nkey_column = \"block_size\"\nvalue_column = \"{col2}\"\n",
        figures[0], figures[1]
    );
    t.replace(table, &two)
}

#[test]
fn several_measured_tables_each_with_its_figure() {
    let dir = tempfile::tempdir().unwrap();
    let file = setup(dir.path(), PARAMS);
    let one = Calibration::load(&file).unwrap();
    assert_eq!(one.figures, ["throughput_kbps"]);
    assert!(one.measured.iter().all(|m| m.figure == 0));
    // the same values compared with two figures: twice the points, the second table's
    // points on the second figure
    let text = two_tables(
        std::fs::read_to_string(&file).unwrap(),
        ["throughput_kbps", "ms_per_block"],
        "kbps",
    );
    std::fs::write(&file, &text).unwrap();
    let two = match Calibration::load(&file) {
        Ok(c) => c,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(two.figures, ["throughput_kbps", "ms_per_block"]);
    assert_eq!(two.measured.len(), 2 * one.measured.len());
    assert!(two.measured[..one.measured.len()].iter().all(|m| m.figure == 0));
    assert!(two.measured[one.measured.len()..].iter().all(|m| m.figure == 1));
    let values: Vec<toml::Value> = two.parameters.iter().map(|p| p.middle.clone()).collect();
    let sims = calibrate::trial::simulate(&two, &values, &[1992]).unwrap();
    let n = one.measured.len();
    for i in 0..n {
        assert!(sims[i][0].is_finite() && sims[n + i][0].is_finite());
    }
}

#[test]
fn bad_measured_tables_are_refused() {
    let cols = |t: String| two_tables(t, ["throughput_kbps", "throughput_kbps"], "kbps");
    refused(cols, &["measured[1].figure", "two tables"]);
    refused(
        |t| two_tables(t, ["throughput_kbps", "goodput"], "kbps"),
        &["measured[1].figure", "goodput"],
    );
    refused(
        |t| {
            two_tables(t, ["throughput_kbps", "throughput_kbps"], "kbps")
                .replace("figure = \"throughput_kbps\"\nfile", "file")
        },
        &["measured[0].figure", "missing"],
    );
    refused(
        |t| {
            format!(
                "figure = \"throughput_kbps\"\n{}",
                two_tables(t, ["throughput_kbps", "x"], "kbps")
            )
        },
        &["figure", "drop the top-level one"],
    );
}

/// The value at dotted `key` of a TOML document (tables and inline tables alike).
fn lookup<'a>(doc: &'a toml::Value, key: &str) -> Option<&'a toml::Value> {
    key.split('.').try_fold(doc, |v, k| v.get(k))
}

/// Every constant a shipped calibration file fits sits, in the hardware file it writes,
/// inside that file's bounds (or among its choices): the physical ranges each bound's
/// comment sources (issue 13: "every fitted constant inside its documented physical
/// range"; the same for the two ttcp tables). And the two ISA limits issue 13 names.
#[test]
fn shipped_constants_are_inside_their_calibration_bounds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in ["bulletin/fit.toml", "ttcp1995/fit.toml", "ttcp1985/fit.toml"] {
        let cal_path = root.join("calibrations").join(name);
        let cal: toml::Value = toml::from_str(&std::fs::read_to_string(&cal_path).unwrap()).unwrap();
        let hw_rel = cal["hardware"].as_str().unwrap();
        let hw_path = cal_path.parent().unwrap().join(hw_rel);
        let hw: toml::Value = toml::from_str(&std::fs::read_to_string(&hw_path).unwrap()).unwrap();
        let params = cal["parameter"].as_array().unwrap();
        assert!(!params.is_empty(), "{name}: no parameters");
        for p in params {
            let key = p["key"].as_str().unwrap();
            let v = lookup(&hw, key).unwrap_or_else(|| panic!("{name}: {key} not in {hw_rel}"));
            if let Some(choices) = p.get("choices") {
                let choices = choices.as_array().unwrap();
                assert!(choices.contains(v), "{name}: {key} = {v} not among {choices:?}");
            } else {
                let (lo, hi) = (number(&p["min"]), number(&p["max"]));
                let x = number(v);
                assert!(lo <= x && x <= hi, "{name}: {key} = {x} outside {lo}..={hi}");
            }
        }
        if name == "bulletin/fit.toml" {
            // the port times come from the AT bus cycle, not from free access times
            for key in ["adapter.io_access_ns_16bit", "adapter.io_access_ns_8bit"] {
                assert!(lookup(&hw, key).is_none(), "{key} given directly");
            }
            for host in ["server", "workstation"] {
                let mhz = number(lookup(&hw, &format!("hosts.{host}.isa.clock_mhz")).unwrap());
                assert!((6.0..=8.33).contains(&mhz), "{host}'s bus clock {mhz} MHz");
            }
            // the read request is held at an estimate, not fitted: inside the range its
            // comment argues (a dozen to a few dozen bytes beyond the header; SMB core's
            // whole read request is 45 bytes), never the 255 bytes the wide bounds allowed
            let key = "nos.protocol.request_bytes";
            assert!(
                params.iter().all(|p| p["key"].as_str() != Some(key)),
                "{key} is held"
            );
            let req = number(lookup(&hw, key).unwrap());
            assert!((16.0..=96.0).contains(&req), "{key} = {req} outside 16..=96");
        }
    }
}

/// `calibrate --evaluate` judges the hardware file's current values without a search: at
/// the true constants the objective is the noise floor and lower than at wrong ones, the
/// two port timings are pinned down there and the retry timer is not; the command writes
/// the report, the points and the chart but never a hardware file, and refuses
/// `--in-place`.
#[test]
fn evaluate_judges_the_current_values_without_a_search() {
    let dir = tempfile::tempdir().unwrap();
    let file = setup(dir.path(), PARAMS);
    let cal = Calibration::load(&file).expect("valid calibration");
    let at_truth = calibrate::evaluate(&cal).expect("evaluates");
    assert!(!at_truth.searched);
    assert_eq!(at_truth.evaluations, 0);
    assert_eq!(at_truth.objective_before, at_truth.objective_after);
    let by_key = |k: &str| at_truth.parameters.iter().find(|p| p.key == k).unwrap();
    assert_eq!(number(&by_key("adapter.io_access_ns_16bit").fitted), TRUE_IO16);
    assert!(!by_key("adapter.io_access_ns_16bit").flagged);
    assert!(!by_key("adapter.io_access_ns_8bit").flagged);
    assert!(by_key("nos.protocol.retry_base_ms").flagged);
    // the measurements carry up to 1% noise: a squared-percentage objective of a few
    // units per point at most
    assert!(
        at_truth.objective_after < 6.0 * 1.0,
        "{}",
        at_truth.objective_after
    );

    // the same calibration with a wrong 16-bit port timing in the hardware file
    let hw = dir.path().join("artisoft-1992.toml");
    let truth_text = std::fs::read_to_string(&hw).unwrap();
    std::fs::write(&hw, hardware(1500.0, TRUE_IO8)).unwrap();
    let wrong = calibrate::evaluate(&Calibration::load(&file).unwrap()).unwrap();
    assert!(
        wrong.objective_after > 10.0 * at_truth.objective_after.max(0.1),
        "{} against {}",
        wrong.objective_after,
        at_truth.objective_after
    );
    std::fs::write(&hw, &truth_text).unwrap();

    let out = dir.path().join("out");
    let o = Command::cargo_bin("ethersim")
        .unwrap()
        .args(["calibrate", file.to_str().unwrap(), "--evaluate", "--in-place"])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "--evaluate with --in-place is a usage error"
    );
    let o = Command::cargo_bin("ethersim")
        .unwrap()
        .args(["calibrate", file.to_str().unwrap(), "--evaluate", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let printed = String::from_utf8(o.stdout).unwrap();
    assert!(
        printed.contains("Calibration small, evaluated at the hardware file's values (no search): objective"),
        "{printed}"
    );
    let mut written: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(
        written,
        [
            "calibration.csv",
            "calibration.png",
            "calibration.svg",
            "calibration.txt"
        ]
    );
    let csv = std::fs::read_to_string(out.join("calibration.csv")).unwrap();
    assert!(
        csv.starts_with("scenario,block_size,measured_throughput_kbps,simulated_throughput_kbps,error_pct\n"),
        "{csv}"
    );
    assert_eq!(
        std::fs::read_to_string(&hw).unwrap(),
        truth_text,
        "the hardware file is untouched"
    );
}

/// The calibration file of `setup` with `overrides = [...]` (top level, before the tables).
fn with_overrides(file: &Path, overrides: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    let text = text.replace(
        "max_evaluations = 90",
        &format!("max_evaluations = 90\noverrides = {overrides}"),
    );
    std::fs::write(file, text).unwrap();
}

#[test]
fn overrides_hold_a_setting_in_every_scenario_and_are_never_written_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let file = setup(dir.path(), PARAMS);
    let plain = calibrate::evaluate(&Calibration::load(&file).unwrap()).expect("evaluates");
    // replies of at most 4 KB: a 15 or 63 KB read now takes several request round trips
    with_overrides(&file, r#"["stacks.server.server.network_buffer=4096"]"#);
    let cal = Calibration::load(&file).expect("valid calibration");
    assert_eq!(cal.overrides.len(), 1);
    let held = calibrate::evaluate(&cal).expect("evaluates");
    assert!(
        held.objective_after > 2.0 * plain.objective_after + 10.0,
        "the override must reach every evaluation: {} vs {}",
        held.objective_after,
        plain.objective_after
    );
    // the report says what was held; --in-place is refused and the hardware file untouched
    let before = std::fs::read_to_string(dir.path().join("artisoft-1992.toml")).unwrap();
    let out = dir.path().join("out");
    let o = Command::cargo_bin("ethersim")
        .unwrap()
        .current_dir(dir.path())
        .args(["calibrate", "cal.toml", "--evaluate", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("Held in every scenario (overrides): stacks.server.server.network_buffer=4096"),
        "{stdout}"
    );
    let o = Command::cargo_bin("ethersim")
        .unwrap()
        .current_dir(dir.path())
        .args(["calibrate", "cal.toml", "--in-place", "--out"])
        .arg(dir.path().join("out2"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("--in-place would write constants fitted under its `overrides`"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("artisoft-1992.toml")).unwrap(),
        before
    );
}

#[test]
fn a_bad_override_is_refused_at_its_place_in_the_calibration_file() {
    for (overrides, wants) in [
        (r#"["stacks.server.server.network_buffer"]"#, "expected KEY=VALUE"),
        (r#"["stacks.server.server.network_buffer=-5"]"#, "network_buffer"),
        (r#"["stacks.server.server.no_such_key=1"]"#, "no_such_key"),
        (
            r#"["adapters.server.io_access_ns_8bit=2000.0", "adapters.workstation.io_access_ns_8bit=2000.0"]"#,
            "an override holds it",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let file = setup(dir.path(), PARAMS);
        with_overrides(&file, overrides);
        let e = format!("{:#}", anyhow::Error::from(Calibration::load(&file).unwrap_err()));
        assert!(e.contains(wants), "{overrides}: {e}");
        assert!(
            e.contains("overrides") || e.contains("cal.toml"),
            "{overrides}: {e}"
        );
    }
}

#[test]
fn a_tables_scatter_counts_its_errors_in_units_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = setup(dir.path(), PARAMS);
    // the same throughput compared twice (two tables on the same column); a wrong 16-bit
    // port in the hardware file so that every point has an error
    std::fs::write(dir.path().join("artisoft-1992.toml"), hardware(1500.0, TRUE_IO8)).unwrap();
    let text = two_tables(
        std::fs::read_to_string(&file).unwrap(),
        ["throughput_kbps", "ms_per_block"],
        "kbps",
    );
    std::fs::write(&file, &text).unwrap();
    let plain = Calibration::load(&file).unwrap();
    assert!(plain.measured.iter().all(|m| m.scatter_pct == 1.0));
    let values: Vec<toml::Value> = plain.parameters.iter().map(|p| p.current.clone()).collect();
    let sims = calibrate::trial::simulate(&plain, &values, &[1992]).unwrap();
    let means = calibrate::trial::means(&sims);
    let n = plain.measured.len() / 2;
    let part = |r: std::ops::Range<usize>| {
        let mut c = plain.clone();
        c.measured = plain.measured[r.clone()].to_vec();
        calibrate::trial::objective(&c, &means[r])
    };
    let (first, second) = (part(0..n), part(n..2 * n));
    let both = calibrate::trial::objective(&plain, &means);
    assert!(first > 1.0 && second > 0.0, "{first} {second}");
    assert!((both - (first + second)).abs() < 1e-9 * both);

    // the first table scatters by 10%: its squared errors count a hundredth as much, the
    // second table's as before
    let scattered = text.replacen(
        "value_column = \"kbps\"\n",
        "value_column = \"kbps\"\nscatter_percent = 10.0\n",
        1,
    );
    std::fs::write(&file, &scattered).unwrap();
    let cal = Calibration::load(&file).unwrap();
    assert!(cal.measured[..n].iter().all(|m| m.scatter_pct == 10.0));
    assert!(cal.measured[n..].iter().all(|m| m.scatter_pct == 1.0));
    assert_eq!(plain.objective_label(), "squared_percentage_error");
    assert_eq!(
        cal.objective_label(),
        "squared_percentage_error, each error in units of its table's scatter_percent"
    );
    let weighted = calibrate::trial::objective(&cal, &means);
    let want = first / 100.0 + second;
    assert!((weighted - want).abs() < 1e-9 * want, "{weighted} against {want}");

    // out of its range: refused at its key, with the range
    for bad in ["0.0", "-3.0", "150.0", "nan"] {
        std::fs::write(
            &file,
            text.replacen(
                "value_column = \"kbps\"\n",
                &format!("value_column = \"kbps\"\nscatter_percent = {bad}\n"),
                1,
            ),
        )
        .unwrap();
        let e = format!("{:#}", anyhow::Error::from(Calibration::load(&file).unwrap_err()));
        assert!(e.contains("measured[0].scatter_percent"), "{bad}: {e}");
        assert!(e.contains("(0, 100]"), "{bad}: {e}");
    }
}

fn values_of(cal: &Calibration) -> Vec<toml::Value> {
    cal.parameters.iter().map(|p| p.current.clone()).collect()
}

fn plain_report_has_no_lines(cal: &Calibration) -> bool {
    let fit = calibrate::evaluate(cal).unwrap();
    fit.after.iter().all(|a| a.line.is_none())
        && !ethersim::calibrate::report::summary("small", "label", &fit).contains("Each curve's line")
}

/// The small calibration of [`setup`] with a wrong 16-bit port in its hardware file, so
/// that every point has an error: the file, its text, the loaded calibration and its
/// simulated points (seed 1992) at the hardware file's values.
fn wrong_16_bit_port(dir: &Path) -> (PathBuf, String, Calibration, Vec<f64>) {
    let file = setup(dir, PARAMS);
    std::fs::write(dir.join("artisoft-1992.toml"), hardware(1500.0, TRUE_IO8)).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let plain = Calibration::load(&file).unwrap();
    let means =
        calibrate::trial::means(&calibrate::trial::simulate(&plain, &values_of(&plain), &[1992]).unwrap());
    (file, text, plain, means)
}

#[test]
fn a_point_bar_adds_its_weight_per_percent_beyond_it() {
    let dir = tempfile::tempdir().unwrap();
    let (file, text, plain, means) = wrong_16_bit_port(dir.path());
    assert_eq!(plain.point_bar, None);
    let errors: Vec<f64> = plain
        .measured
        .iter()
        .zip(&means)
        .map(|(m, s)| calibrate::trial::error_pct(*s, m.value).abs())
        .collect();
    // the bar at the median error: about half the points are beyond it
    let mut sorted = errors.clone();
    sorted.sort_by(f64::total_cmp);
    let bar = sorted[sorted.len() / 2];
    let beyond: f64 = errors.iter().map(|e| (e - bar).max(0.0)).sum();
    assert!(beyond > 0.0 && errors.iter().any(|&e| e < bar), "{errors:?}");
    let base = calibrate::trial::objective(&plain, &means);

    for (weight_line, weight) in [("", 10.0), ("point_bar_weight = 2.5\n", 2.5)] {
        std::fs::write(
            &file,
            text.replacen(
                "max_evaluations =",
                &format!("point_bar_percent = {bar:?}\n{weight_line}max_evaluations ="),
                1,
            ),
        )
        .unwrap();
        let cal = Calibration::load(&file).unwrap();
        let got = calibrate::trial::objective(&cal, &means);
        let want = base + weight * beyond;
        assert!((got - want).abs() < 1e-9 * want, "{got} against {want}");
        assert!(
            cal.objective_label()
                .ends_with(&format!("plus {weight} per percent any point is beyond {bar}%")),
            "{}",
            cal.objective_label()
        );
    }

    // refused at its key, with the range
    for (lines, key, range) in [
        ("point_bar_percent = 0.0\n", "point_bar_percent", "(0, 100]"),
        ("point_bar_percent = 150.0\n", "point_bar_percent", "(0, 100]"),
        (
            "point_bar_percent = 8.0\npoint_bar_weight = 0.0\n",
            "point_bar_weight",
            "(0, 1000]",
        ),
        (
            "point_bar_percent = 8.0\npoint_bar_weight = 5000.0\n",
            "point_bar_weight",
            "(0, 1000]",
        ),
        (
            "point_bar_weight = 5.0\n",
            "point_bar_weight",
            "needs point_bar_percent",
        ),
    ] {
        std::fs::write(
            &file,
            text.replacen("max_evaluations =", &format!("{lines}max_evaluations ="), 1),
        )
        .unwrap();
        let e = format!("{:#}", anyhow::Error::from(Calibration::load(&file).unwrap_err()));
        assert!(e.contains(key) && e.contains(range), "{lines}: {e}");
    }
}

#[test]
fn a_line_bar_adds_its_weights_per_percent_each_curve_s_line_is_beyond_it() {
    use ethersim::repro::bulletin::analysis::CostLine;
    let dir = tempfile::tempdir().unwrap();
    // the 16-bit curve's line is off, the 8-bit one's nearly not
    let (file, text, plain, means) = wrong_16_bit_port(dir.path());
    assert_eq!(plain.line_bar, None);
    let base = calibrate::trial::objective(&plain, &means);
    // each curve's lines by hand, measured and simulated
    let line = |scenario: usize, values: &[f64]| {
        CostLine::fit(
            plain
                .measured
                .iter()
                .zip(values)
                .filter(|(m, _)| m.scenario == scenario)
                .map(|(m, v)| (m.key as u32, *v)),
        )
        .unwrap()
    };
    let measured: Vec<f64> = plain.measured.iter().map(|m| m.value).collect();
    let mut beyond_a = 0.0;
    let mut beyond_b = 0.0;
    let (bar_a, bar_b) = (1.0, 0.5);
    for s in 0..2 {
        let (want, got) = (line(s, &measured), line(s, &means));
        let ea = ((got.per_block_ms / want.per_block_ms - 1.0) * 100.0).abs();
        let eb = ((got.per_byte_ns / want.per_byte_ns - 1.0) * 100.0).abs();
        if calibrate::line_bar::judges_per_block(&want) {
            beyond_a += (ea - bar_a).max(0.0);
        }
        beyond_b += (eb - bar_b).max(0.0);
    }
    assert!(beyond_b > 1.0, "the wrong port must tilt a line: {beyond_b}");

    for (lines, wa, wb, has_a) in [
        (
            format!("per_block_percent = {bar_a:?}\nper_byte_percent = {bar_b:?}\n"),
            10.0,
            10.0,
            true,
        ),
        (
            format!("per_byte_percent = {bar_b:?}\nper_byte_weight = 2.5\n"),
            0.0,
            2.5,
            false,
        ),
    ] {
        std::fs::write(&file, format!("{text}\n[line_bar]\n{lines}")).unwrap();
        let cal = Calibration::load(&file).unwrap();
        let got = calibrate::trial::objective(&cal, &means);
        let want = base + wa * beyond_a + wb * beyond_b;
        assert!((got - want).abs() < 1e-9 * want, "{got} against {want}");
        let label = cal.objective_label();
        assert_eq!(label.contains("per-block cost"), has_a, "{label}");
        assert!(
            label.ends_with(&format!("{wb} per percent its per-byte cost is beyond {bar_b}%")),
            "{label}"
        );
    }
    // the report shows each curve's line error, over the report seeds, as the bar sees it
    let fit = calibrate::evaluate(&Calibration::load(&file).unwrap()).unwrap();
    let report_means = calibrate::trial::means(
        &calibrate::trial::simulate(&plain, &values_of(&plain), &plain.report_seeds).unwrap(),
    );
    for (s, sf) in fit.after.iter().enumerate() {
        let e = sf.line.expect("a line bar reports every curve's line");
        let (want, got) = (line(s, &measured), line(s, &report_means));
        assert!((e.per_byte_pct - (got.per_byte_ns / want.per_byte_ns - 1.0) * 100.0).abs() < 1e-9);
        assert!((e.per_block_pct - (got.per_block_ms / want.per_block_ms - 1.0) * 100.0).abs() < 1e-9);
    }
    let report = ethersim::calibrate::report::summary("small", "label", &fit);
    assert!(report.contains("Each curve's line t = a + b x B"), "{report}");
    assert!(fit.before.iter().all(|b| b.line.is_some()));
    assert!(
        plain_report_has_no_lines(&plain),
        "without the bar the report has no lines"
    );

    // refused at its key, with the range or the reason
    for (lines, key, why) in [
        (
            "per_block_percent = 0.0\n",
            "line_bar.per_block_percent",
            "(0, 100]",
        ),
        (
            "per_byte_percent = 3.0\nper_byte_weight = 5000.0\n",
            "line_bar.per_byte_weight",
            "(0, 1000]",
        ),
        (
            "per_block_weight = 5.0\nper_byte_percent = 3.0\n",
            "line_bar.per_block_weight",
            "needs line_bar.per_block_percent",
        ),
        ("", "line_bar", "gives no bar"),
        ("per_bytes_percent = 3.0\n", "per_bytes_percent", "unknown"),
    ] {
        std::fs::write(&file, format!("{text}\n[line_bar]\n{lines}")).unwrap();
        let e = format!("{:#}", anyhow::Error::from(Calibration::load(&file).unwrap_err()));
        assert!(e.contains(key) && e.contains(why), "{lines}: {e}");
    }
    // a figure other than throughput cannot have a line
    std::fs::write(
        &file,
        format!(
            "{}\n[line_bar]\nper_byte_percent = 3.0\n",
            text.replace("figure = \"throughput_kbps\"", "figure = \"ms_per_block\"")
        ),
    )
    .unwrap();
    let e = format!("{:#}", anyhow::Error::from(Calibration::load(&file).unwrap_err()));
    assert!(e.contains("line_bar") && e.contains("throughput_kbps"), "{e}");
}
