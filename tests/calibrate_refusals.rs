//! `ethersim calibrate` refuses hostile or meaningless inputs before any search and before
//! any output is written: measured values too small for a percentage error, a start whose
//! objective is not finite, cross-validation over one scenario, too few report seeds,
//! integer bounds with no integer inside, inputs that are not regular files or are too
//! large, and input echoed back unbounded or with control characters.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use ethersim::calibrate::Calibration;
use ethersim::repro::bulletin::HARDWARE;

mod shipped;

/// The scenarios calibrated.
const SCENARIOS: [&str; 2] = ["16bit-optimized", "8bit-optimized"];

const BLOCKS: [u32; 3] = [3072, 15360, 64512];

/// A run that takes longer than this is taken to hang (a FIFO read blocks forever).
const TIMEOUT: Duration = Duration::from_secs(120);

/// The bulletin hardware, the server's data-port times given directly.
fn hardware() -> String {
    let mut doc: toml_edit::DocumentMut = HARDWARE.1.parse().unwrap();
    // the server's port times given directly rather than from its bus cycle
    doc["hosts"]["server"].as_table_mut().unwrap().remove("isa");
    doc["adapter"]["io_access_ns_16bit"] = toml_edit::value(700.0);
    doc["adapter"]["io_access_ns_8bit"] = toml_edit::value(1740.0);
    doc.to_string()
}

const CAL: &str = r#"name = "refusals"
hardware = "artisoft-1992.toml"
scenarios = ["16bit-optimized.toml", "8bit-optimized.toml"]
figure = "throughput_kbps"
seeds = [1992]
report_seeds = [1992, 1, 2, 3, 4]
max_evaluations = 2

[measured]
file = "measured.csv"
scenario_column = "config"
key_column = "block_size"
value_column = "kbps"

[[parameter]]
key = "adapter.io_access_ns_8bit"
min = 1000.0
max = 4000.0
"#;

/// The scenarios' names, in the order of the calibration file.
fn names() -> Vec<String> {
    SCENARIOS.iter().map(|n| n.to_string()).collect()
}

/// A measured CSV with every point at 500 KB/s.
fn csv() -> String {
    let mut csv = String::from("config,block_size,kbps\n");
    for n in names() {
        for b in BLOCKS {
            csv.push_str(&format!("{n},{b},500\n"));
        }
    }
    csv
}

/// The calibration's files in `dir`, the calibration file edited by `edit`.
fn setup(dir: &Path, edit: impl Fn(String) -> String) -> PathBuf {
    std::fs::write(dir.join("artisoft-1992.toml"), hardware()).unwrap();
    // short runs: 3 block sizes, 0.2 s + 1 s
    for name in SCENARIOS {
        shipped::export_edited(dir, name, |d| shipped::short_perform3(d, &BLOCKS, 0.2, 1.0));
    }
    std::fs::write(dir.join("measured.csv"), csv()).unwrap();
    let file = dir.join("cal.toml");
    std::fs::write(&file, edit(CAL.to_string())).unwrap();
    file
}

/// Runs `ethersim calibrate FILE --out DIR/out ARGS` (failing the test if it hangs) and
/// returns its stderr, expecting a refusal: a failure, with nothing written.
fn refused(file: &Path, args: &[&str]) -> String {
    let out = file.parent().unwrap().join("out");
    let start = Instant::now();
    let o = Command::cargo_bin("ethersim")
        .unwrap()
        .args([
            "calibrate",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            "1",
        ])
        .args(args)
        .timeout(TIMEOUT)
        .output()
        .unwrap();
    assert!(
        start.elapsed() < TIMEOUT,
        "calibrate hung (killed after {TIMEOUT:?})"
    );
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!o.status.success(), "accepted: {err}");
    assert!(!out.exists(), "nothing is written on a refusal: {err}");
    err
}

fn contains_all(err: &str, wants: &[&str]) {
    for w in wants {
        assert!(err.contains(w), "{w:?} not in: {err}");
    }
}

// 1. measured values too small for a percentage error; a start whose objective is not finite

#[test]
fn a_measured_value_too_small_for_a_percentage_error_is_refused_at_its_line_and_column() {
    for bad in ["1e-300", "0", "-5", "1e-10"] {
        let dir = tempfile::tempdir().unwrap();
        let file = setup(dir.path(), |t| t);
        let text = csv().replacen(",3072,500\n", &format!(",3072,{bad}\n"), 1);
        std::fs::write(dir.path().join("measured.csv"), text).unwrap();
        let err = refused(&file, &[]);
        contains_all(
            &err,
            &[
                "cal.toml",
                "measured.file",
                "measured.csv",
                "line 2",
                "column 3",
                "1e-9",
                "percent",
            ],
        );
    }
}

#[test]
fn a_search_whose_objective_at_its_start_is_not_finite_is_refused_naming_scenario_and_point() {
    // a scatter of 1e-300 percent divides every error by 1e-300: the squares overflow
    let dir = tempfile::tempdir().unwrap();
    let file = setup(dir.path(), |t| {
        t.replace(
            "value_column = \"kbps\"",
            "value_column = \"kbps\"\nscatter_percent = 1e-300",
        )
    });
    let err = refused(&file, &[]);
    eprintln!("{err}");
    let first = &names()[0];
    contains_all(
        &err,
        &["not finite", first.as_str(), "block_size = 3072", "start"],
    );
    // --evaluate judges the current values: the same refusal
    let err = refused(&file, &["--evaluate"]);
    contains_all(&err, &["not finite", first.as_str()]);
}

// 2. cross-validation over fewer than two scenarios

#[test]
fn cross_validation_with_one_scenario_is_refused_before_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let file = setup(dir.path(), |t| {
        t.replace(
            "scenarios = [\"16bit-optimized.toml\", \"8bit-optimized.toml\"]",
            "scenarios = [\"8bit-optimized.toml\"]",
        )
    });
    let one = names()[1].clone();
    let text: String = csv()
        .lines()
        .filter(|l| !l.starts_with(&names()[0]))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.path().join("measured.csv"), text).unwrap();
    let start = Instant::now();
    let err = refused(&file, &["--cross-validate"]);
    contains_all(&err, &["cal.toml", "scenarios", "at least 2", "has 1"]);
    assert!(!err.contains("evaluations"), "{err}");
    // before the search: no scenario ran (a fit takes seconds)
    assert!(start.elapsed() < Duration::from_secs(20), "{:?}", start.elapsed());
    // without --cross-validate the one scenario is a valid calibration
    assert!(Calibration::load(&file).is_ok(), "{one}");
}

// 3. fewer than 5 report seeds

#[test]
fn fewer_than_five_report_seeds_are_refused_naming_the_key_and_file() {
    for seeds in ["[1]", "[1, 2, 3, 4]"] {
        let dir = tempfile::tempdir().unwrap();
        let file = setup(dir.path(), |t| {
            t.replace(
                "report_seeds = [1992, 1, 2, 3, 4]",
                &format!("report_seeds = {seeds}"),
            )
        });
        let err = refused(&file, &[]);
        contains_all(&err, &["cal.toml", "report_seeds", "at least 5"]);
    }
    // absent, the report seeds are the fit's seeds: one is too few
    let dir = tempfile::tempdir().unwrap();
    let file = setup(dir.path(), |t| {
        t.replace("report_seeds = [1992, 1, 2, 3, 4]\n", "")
    });
    let err = refused(&file, &[]);
    contains_all(&err, &["cal.toml", "report_seeds", "at least 5"]);
    // the fit's own seeds may be fewer
    let dir = tempfile::tempdir().unwrap();
    let file = setup(dir.path(), |t| t);
    let cal = Calibration::load(&file).unwrap();
    assert_eq!((cal.seeds.len(), cal.report_seeds.len()), (1, 5));
}

// 4. integer bounds with no integer inside

#[test]
fn integer_bounds_with_no_integer_inside_are_refused_naming_the_parameter() {
    let dir = tempfile::tempdir().unwrap();
    let file = setup(dir.path(), |t| {
        t + "\n[[parameter]]\nkey = \"hosts.workstation.isa.io_recovery_clocks_8bit\"\nmin = 2.2\nmax = 2.8\n"
    });
    let err = refused(&file, &[]);
    contains_all(
        &err,
        &[
            "cal.toml",
            "parameter[1]",
            "io_recovery_clocks_8bit",
            "no integer",
        ],
    );
    // bounds that hold one integer are fine
    let dir = tempfile::tempdir().unwrap();
    let file = setup(dir.path(), |t| {
        t + "\n[[parameter]]\nkey = \"hosts.workstation.isa.io_recovery_clocks_8bit\"\nmin = 2.2\nmax = 3.0\n"
    });
    Calibration::load(&file).unwrap();
}

// 5. every input a regular file of bounded size

fn mkfifo(path: &Path) -> bool {
    std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn a_fifo_in_place_of_any_input_is_refused_without_blocking() {
    // each input in turn is a FIFO nobody writes to: a read would block forever
    for input in ["measured.csv", "artisoft-1992.toml", "parent.toml", "cal.toml"] {
        let dir = tempfile::tempdir().unwrap();
        let file = setup(dir.path(), |t| t);
        if input == "parent.toml" {
            std::fs::write(dir.path().join("hyp.toml"), "extends = \"parent.toml\"\n").unwrap();
        }
        let fifo = dir.path().join(input);
        let _ = std::fs::remove_file(&fifo);
        if !mkfifo(&fifo) {
            eprintln!("skipped: mkfifo is absent or failed, so no FIFO can be made");
            return;
        }
        let target = if input == "parent.toml" {
            dir.path().join("hyp.toml")
        } else {
            file
        };
        let err = refused(&target, &[]);
        contains_all(&err, &[input, "not a regular file"]);
    }
}

#[test]
fn a_measured_file_over_the_cap_or_a_device_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = setup(dir.path(), |t| t);
    // a sparse file of 2 MiB of NULs: over the 1 MiB cap
    let f = std::fs::File::create(dir.path().join("measured.csv")).unwrap();
    f.set_len(2 << 20).unwrap();
    drop(f);
    let err = refused(&file, &[]);
    contains_all(&err, &["measured.csv", "too large", "1048576"]);
    assert!(err.len() < 2000, "{} bytes of stderr", err.len());
    // /dev/zero never ends: refused as not a regular file, before any read
    if Path::new("/dev/zero").exists() {
        let file = setup(dir.path(), |t| {
            t.replace("file = \"measured.csv\"", "file = \"/dev/zero\"")
        });
        let err = refused(&file, &[]);
        contains_all(&err, &["/dev/zero", "not a regular file"]);
    }
}

// 6. echoed input bounded and escaped

/// Stderr of a refusal quoting hostile input: short, and with no control character but
/// its line breaks.
fn tame(err: &str) {
    assert!(err.len() < 4000, "{} bytes of stderr: {}", err.len(), &err[..400]);
    assert!(
        !err.chars().any(|c| c.is_control() && c != '\n'),
        "a control character reaches the terminal: {err:?}"
    );
}

#[test]
fn echoed_csv_cells_headers_and_names_are_shortened_and_escaped() {
    let junk = format!("\u{1b}]0;owned\u{7}\u{1b}[31m{}\r", "\0".repeat(200_000));
    // in the calibration file, as a TOML string (each NUL written as six characters)
    let short = format!("\u{1b}]0;owned\u{7}\u{1b}[31m{}\r", "\0".repeat(20_000));
    let quoted = toml::Value::String(short).to_string();
    type Edit<'a> = Box<dyn Fn(String) -> String + 'a>;
    let cases: Vec<(Edit, Edit)> = vec![
        // a header without the named column
        (
            Box::new(|t| t),
            Box::new(|c: String| c.replacen("config", &junk, 1)),
        ),
        // a scenario name that is not a scenario
        (
            Box::new(|t| t),
            Box::new(|c: String| format!("{c}{junk},3072,500\n")),
        ),
        // a key and a value that are not numbers
        (
            Box::new(|t| t),
            Box::new(|c: String| c.replacen(",3072,", &format!(",{junk},"), 1)),
        ),
        (
            Box::new(|t| t),
            Box::new(|c: String| c.replacen(",3072,500", &format!(",3072,{junk}"), 1)),
        ),
        // a named column the CSV does not have
        (
            Box::new(|t: String| t.replace("value_column = \"kbps\"", &format!("value_column = {quoted}"))),
            Box::new(|c| c),
        ),
        // a key column no scenario knows
        (
            Box::new(|t: String| t.replace("key_column = \"block_size\"", &format!("key_column = {quoted}"))),
            Box::new(|c| c),
        ),
    ];
    for (i, (edit, edit_csv)) in cases.iter().enumerate() {
        let dir = tempfile::tempdir().unwrap();
        let file = setup(dir.path(), edit);
        std::fs::write(dir.path().join("measured.csv"), edit_csv(csv())).unwrap();
        let err = refused(&file, &[]);
        eprintln!("case {i}: {} bytes", err.len());
        tame(&err);
    }
}

// the measured-CSV reader on arbitrary bytes

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, ..Default::default() })]

    /// Arbitrary bytes (and a valid CSV with bytes spliced in) as the measured file:
    /// loading never panics, and a refusal's message is bounded and holds no control
    /// character but its line breaks, whatever the bytes.
    #[test]
    fn the_measured_csv_reader_takes_arbitrary_bytes(
        junk in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..4096),
        at in 0usize..200,
        splice in proptest::prelude::any::<bool>(),
    ) {
        let d = tempfile::tempdir().unwrap();
        let file = setup(d.path(), |c| c);
        let bytes = if splice {
            let mut v = csv().into_bytes();
            let at = at.min(v.len());
            v.splice(at..at, junk.iter().copied());
            v
        } else {
            junk.clone()
        };
        std::fs::write(d.path().join("measured.csv"), &bytes).unwrap();
        if let Err(e) = Calibration::load(&file) {
            let msg = e.to_string();
            proptest::prop_assert!(msg.len() < 4000, "{} bytes: {}", msg.len(), &msg[..200]);
            proptest::prop_assert!(
                !msg.chars().any(|c| c.is_control() && c != '\n'),
                "a control character: {msg:?}"
            );
        }
    }
}

/// `--in-place` with a hardware file whose folder cannot be written is refused before the
/// search, naming the hardware file (not a lock file), and writes no output directory.
#[test]
fn in_place_into_an_unwritable_folder_is_refused_before_the_search() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let file = setup(d.path(), |c| c);
    std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o555)).unwrap();
    // root writes into a read-only folder; an immutable one (chattr +i) stops it too
    let mut immutable = false;
    if std::fs::write(d.path().join("probe"), b"").is_ok() {
        let _ = std::fs::remove_file(d.path().join("probe"));
        immutable = std::process::Command::new("chattr")
            .arg("+i")
            .arg(d.path())
            .status()
            .is_ok_and(|s| s.success());
        if !immutable || std::fs::write(d.path().join("probe"), b"").is_ok() {
            let _ = std::fs::remove_file(d.path().join("probe"));
            let _ = std::process::Command::new("chattr")
                .arg("-i")
                .arg(d.path())
                .status();
            std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
            eprintln!("skipped: this user writes into read-only folders and cannot make one immutable");
            return;
        }
    }
    let elsewhere = tempfile::tempdir().unwrap();
    let out = elsewhere.path().join("out");
    let start = Instant::now();
    let o = Command::cargo_bin("ethersim")
        .unwrap()
        .args([
            "calibrate",
            file.to_str().unwrap(),
            "--in-place",
            "--jobs",
            "1",
            "--out",
        ])
        .arg(&out)
        .timeout(TIMEOUT)
        .output()
        .unwrap();
    if immutable {
        std::process::Command::new("chattr")
            .arg("-i")
            .arg(d.path())
            .status()
            .unwrap();
    }
    std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains("artisoft-1992.toml") && !err.contains(".ethersim.lock"),
        "{err}"
    );
    assert!(
        !out.exists(),
        "the output directory was written before the refusal"
    );
    assert!(start.elapsed() < Duration::from_secs(30), "the search ran first");
}

// 10. the total cost of a fit and of its cross-validation is admitted before any run

#[test]
fn a_calibration_estimated_beyond_its_cpu_budget_is_refused_before_any_run() {
    let dir = tempfile::tempdir().unwrap();
    let file = setup(dir.path(), |t| {
        t.replace("max_evaluations = 2", "max_evaluations = 20000")
    });
    let cal = Calibration::load(&file).unwrap();
    let fit = ethersim::calibrate::budget::estimate(&cal, false).unwrap();
    let cv = ethersim::calibrate::budget::estimate(&cal, true).unwrap();
    // 20,000 evaluations of 2 scenarios on 1 seed, and the judgement after
    assert!(fit.runs >= 40_000.0 && fit.runs < 40_100.0, "{fit:?}");
    // two folds of one scenario each, on top of the fit
    assert!(
        cv.runs > 1.9 * fit.runs && cv.cpu_s > 1.9 * fit.cpu_s,
        "{fit:?} {cv:?}"
    );
    // a limit below the estimate is refused, naming the estimate and the flag
    let hours = fit.cpu_s / 3600.0;
    let limit = format!("{}", hours / 2.0);
    let start = Instant::now();
    let err = refused(&file, &["--max-cpu-hours", &limit]);
    contains_all(
        &err,
        &[
            "cal.toml",
            "refused as too long",
            "--max-cpu-hours",
            "max_evaluations",
        ],
    );
    assert!(start.elapsed() < Duration::from_secs(20), "{:?}", start.elapsed());
    // the fit alone fits under a limit that its cross-validation does not
    let limit = format!("{}", (fit.cpu_s + 0.5 * (cv.cpu_s - fit.cpu_s)) / 3600.0);
    let err = refused(&file, &["--cross-validate", "--max-cpu-hours", &limit]);
    contains_all(&err, &["cross-validation", "refused as too long"]);
}
