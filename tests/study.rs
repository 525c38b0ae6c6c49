//! Studies as indexed runs, end to end through the binary: a sweep, Figure 1 and a
//! calibration's cross-validation run one run per process (`--run-index`, in shuffled
//! order, a few processes at a time) and merged give the same files byte for byte as the
//! one-process command; a study killed part-way finishes by re-running every index, and
//! only the unfinished runs do work; `merge` refuses a missing, foreign, duplicated or
//! truncated run and writes nothing; an index out of range is a usage error.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

mod shipped;

fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_ethersim"))
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn ethersim(args: &[String]) -> Output {
    Command::new(bin()).args(args).output().expect("ethersim runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// A sweep of 12 short runs: 3 station counts x 2 cable lengths (one not a whole number)
/// x 2 replications.
fn sweep_args(durations: &str) -> Vec<String> {
    let s = root().join("scenarios/saturate.toml");
    strings(&[
        "sweep",
        s.to_str().unwrap(),
        "-q",
        "--set",
        "nodes.stations.count=4",
        "--param",
        "run.duration_s",
        "--values",
        durations,
        "--param",
        "segment.length_m",
        "--values",
        "10.5,100",
        "--replications",
        "2",
    ])
}

fn with(args: &[String], more: &[&str]) -> Vec<String> {
    let mut a = args.to_vec();
    a.extend(more.iter().map(|s| s.to_string()));
    a
}

fn out_args(args: &[String], out: &Path) -> Vec<String> {
    with(args, &["--out", out.to_str().unwrap()])
}

/// 0..n in an order drawn by a small xorshift from `seed` (Fisher-Yates).
fn shuffled(n: usize, seed: u64) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    let mut x = seed | 1;
    for i in (1..n).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.swap(i, (x % (i as u64 + 1)) as usize);
    }
    v
}

/// Runs `--run-index i` for each of `order`, `width` processes at a time; the output of
/// each, by index.
fn run_sharded(study: &[String], out: &Path, order: &[usize], width: usize) -> Vec<(usize, Output)> {
    let mut done = Vec::new();
    for batch in order.chunks(width) {
        let children: Vec<(usize, Child)> = batch
            .iter()
            .map(|&i| {
                let c = Command::new(bin())
                    .args(out_args(study, out))
                    .args(["--run-index", &i.to_string()])
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("ethersim starts");
                (i, c)
            })
            .collect();
        for (i, c) in children {
            let o = c.wait_with_output().expect("ethersim ends");
            assert!(o.status.success(), "run {i}: {}", text(&o.stderr));
            done.push((i, o));
        }
    }
    done
}

/// The number of runs `--list-runs` announces, after checking one line per run.
fn list_runs(study: &[String], out: &Path) -> usize {
    let o = ethersim(&with(&out_args(study, out), &["--list-runs"]));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let listing = text(&o.stdout);
    let mut lines = listing.lines();
    let n: usize = lines
        .next()
        .unwrap()
        .parse()
        .expect("the first line is the number of runs");
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), n, "{listing}");
    for (i, row) in rows.iter().enumerate() {
        let fields: Vec<&str> = row.split('\t').collect();
        assert_eq!(fields[0], i.to_string(), "{row}");
        assert!(fields[1..].iter().all(|f| f.contains('=')), "{row}");
    }
    n
}

fn merge(dir: &Path) -> Output {
    ethersim(&strings(&["merge", dir.to_str().unwrap()]))
}

fn same_files(a: &Path, b: &Path, names: &[&str]) {
    for n in names {
        let (x, y) = (fs::read(a.join(n)).unwrap(), fs::read(b.join(n)).unwrap());
        assert!(x == y, "{n} differs between {} and {}", a.display(), b.display());
    }
}

const SWEEP_FILES: [&str; 4] = ["sweep.csv", "sweep_summary.csv", "sweep.svg", "sweep.png"];

#[test]
fn a_sweep_run_as_twelve_processes_merges_to_the_one_process_files() {
    let d = tempfile::tempdir().unwrap();
    let (one, sharded) = (d.path().join("one"), d.path().join("sharded"));
    let study = sweep_args("0.05,0.1,0.2");
    let o = ethersim(&out_args(&study, &one));
    assert!(o.status.success(), "{}", text(&o.stderr));

    assert_eq!(list_runs(&study, &sharded), 12);
    assert!(!sharded.exists(), "--list-runs writes nothing");
    let order = shuffled(12, 43);
    assert_ne!(order, (0..12).collect::<Vec<_>>());
    run_sharded(&study, &sharded, &order, 3);
    let m = merge(&sharded);
    assert!(m.status.success(), "{}", text(&m.stderr));
    same_files(&one, &sharded, &SWEEP_FILES);
    // the printed summary too
    assert_eq!(text(&m.stdout), text(&o.stdout));
    // the run files name their run, the study and what it depends on
    let f: serde_json::Value =
        serde_json::from_slice(&fs::read(sharded.join("runs/run-00007.json")).unwrap()).unwrap();
    assert_eq!(f["index"], 7);
    let fp = &f["fingerprint"];
    assert_eq!(fp["runs"], 12);
    assert_eq!(fp["ethersim"], env!("CARGO_PKG_VERSION"));
    assert_eq!(fp["overrides"][0], "nodes.stations.count=4");
    assert_eq!(fp["content_sha256"].as_str().unwrap().len(), 64);
    assert_eq!(fp["definition"]["params"][1]["values"][0], "10.5");
}

#[test]
fn a_what_if_sweep_with_further_figures_merges_to_the_same_summary_and_charts() {
    // a PERFORM3 sweep (drawn against block size) with a further figure (--y): the merge
    // writes the same summary columns and the same set of charts
    let d = tempfile::tempdir().unwrap();
    let (one, sharded) = (d.path().join("one"), d.path().join("sharded"));
    let s = root().join("scenarios/bulletin/16bit-optimized.toml");
    let study = strings(&[
        "sweep",
        s.to_str().unwrap(),
        "-q",
        "--set",
        "apps[0].block_sizes=[3072,64512]",
        "--param",
        "adapters.server.transmit_buffers",
        "--values",
        "2,4",
        "--y",
        "server_cpu",
    ]);
    let o = ethersim(&out_args(&study, &one));
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(list_runs(&study, &sharded), 2);
    run_sharded(&study, &sharded, &[1, 0], 2);
    let m = merge(&sharded);
    assert!(m.status.success(), "{}", text(&m.stderr));
    same_files(&one, &sharded, &["sweep.csv", "sweep_summary.csv"]);
    let summary = fs::read_to_string(one.join("sweep_summary.csv")).unwrap();
    assert!(summary
        .lines()
        .next()
        .unwrap()
        .ends_with("server_cpu_mean,server_cpu_ci95"));
    for f in ["sweep.svg", "sweep-mean.svg", "sweep-server_cpu.svg"] {
        assert!(one.join(f).is_file() && sharded.join(f).is_file(), "{f}");
    }
}

#[test]
fn figure1_run_as_twenty_processes_merges_to_the_one_process_files() {
    let d = tempfile::tempdir().unwrap();
    let (one, sharded) = (d.path().join("one"), d.path().join("sharded"));
    let o = ethersim(&strings(&["figure1", "--out", one.to_str().unwrap()]));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let study = strings(&["reproduce", "figure1"]);
    let n = list_runs(&study, &sharded);
    assert_eq!(n, 20, "4 configurations x 5 seeds");
    let started = Instant::now();
    run_sharded(&study, &sharded, &shuffled(n, 1992), 3);
    eprintln!(
        "figure1: 20 runs, 3 processes at a time: {:.2?}",
        started.elapsed()
    );
    let m = merge(&sharded);
    assert!(m.status.success(), "{}", text(&m.stderr));
    same_files(&one, &sharded, &["figure1.csv", "figure1.svg", "figure1.png"]);
    assert_eq!(text(&m.stdout), text(&o.stdout));
}

#[test]
fn lanperf_run_as_a_hundred_processes_merges_to_the_one_process_files() {
    let d = tempfile::tempdir().unwrap();
    let (one, sharded) = (d.path().join("one"), d.path().join("sharded"));
    // a what-if with 10-second tests (the shortest LANPERF allows), to keep the runs short
    let study = strings(&["reproduce", "lanperf", "--set", "apps[0].options=t10 b4096 f16 r"]);
    let o = ethersim(&out_args(&study, &one));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let n = list_runs(&study, &sharded);
    assert_eq!(n, 100, "20 station counts x 5 seeds");
    run_sharded(&study, &sharded, &shuffled(n, 1989), 3);
    let m = merge(&sharded);
    assert!(m.status.success(), "{}", text(&m.stderr));
    same_files(
        &one,
        &sharded,
        &[
            "lanperf.csv",
            "lanperf-sample.csv",
            "lanperf-max.svg",
            "lanperf-max.png",
        ],
    );
    assert_eq!(text(&m.stdout), text(&o.stdout));
}

#[test]
fn a_sweep_over_hardware_files_is_one_study_whose_hash_covers_every_include() {
    use ethersim::repro::bulletin::HARDWARE;
    // a scenario of one workload names its hardware file, and a sweep may swap it
    let old_form =
        fs::read_to_string(root().join("tests/fixtures/workload-form/bulletin/16bit-optimized.toml"))
            .unwrap();
    let old_form = old_form.replace(
        "hardware = \"../../../../scenarios/bulletin/artisoft-1992.toml\"",
        "hardware = \"hw-a.toml\"",
    );
    let d = tempfile::tempdir().unwrap();
    let lan = d.path().join("lan");
    fs::create_dir(&lan).unwrap();
    fs::write(lan.join("16bit-optimized.toml"), &old_form).unwrap();
    fs::write(lan.join("hw-a.toml"), HARDWARE.1).unwrap();
    let slower = HARDWARE
        .1
        .replace("wait_states_16bit = 1\n", "wait_states_16bit = 3\n");
    assert_ne!(slower, HARDWARE.1);
    fs::write(lan.join("hw-b.toml"), &slower).unwrap();
    let scenario = lan.join("16bit-optimized.toml");
    let study = strings(&[
        "sweep",
        scenario.to_str().unwrap(),
        "-q",
        "--set",
        "workload.block_sizes=[3072]",
        "--set",
        "workload.warmup_s=0.05",
        "--set",
        "workload.measure_s=0.2",
        "--param",
        "hardware",
        "--values",
        "hw-a.toml,hw-b.toml",
    ]);
    let (one, sharded) = (d.path().join("one"), d.path().join("sharded"));
    let o = ethersim(&out_args(&study, &one));
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(list_runs(&study, &sharded), 2);
    run_sharded(&study, &sharded, &[1, 0], 1);
    let m = merge(&sharded);
    assert!(m.status.success(), "{}", text(&m.stderr));
    same_files(&one, &sharded, &SWEEP_FILES);
    // the two runs differ: each ran its own hardware file
    let csv = fs::read_to_string(sharded.join("sweep.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 2);
    let figures = |r: &str| r.split_once(',').map(|(_, rest)| rest.to_string());
    assert_ne!(figures(rows[0]), figures(rows[1]), "{csv}");
    // run 0 reads hw-a.toml only, but its study is also hw-b.toml's: once that changes,
    // the run file there is another study's
    fs::write(lan.join("hw-b.toml"), format!("{slower}\n# edited\n")).unwrap();
    let o = ethersim(&with(&out_args(&study, &sharded), &["--run-index", "0"]));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("the scenario files' contents"),
        "{}",
        text(&o.stderr)
    );
}

/// A calibration of the bulletin's two data ports on three short scenarios, with a small
/// budget: measurements simulated with known ports.
fn small_calibration(dir: &Path) -> PathBuf {
    use ethersim::repro::bulletin::HARDWARE;
    let mut doc: toml_edit::DocumentMut = HARDWARE.1.parse().unwrap();
    doc["hosts"]["server"].as_table_mut().unwrap().remove("isa");
    doc["adapter"]["io_access_ns_16bit"] = toml_edit::value(1200.0);
    doc["adapter"]["io_access_ns_8bit"] = toml_edit::value(1700.0);
    let hw = doc.to_string();
    fs::write(dir.join("artisoft-1992.toml"), &hw).unwrap();
    let mut csv = String::from("config,block_size,kbps\n");
    for name in ["16bit-optimized", "8bit-optimized", "16bit-defaults"] {
        // short runs: two block sizes, 0.2 s + 1 s
        let path = shipped::export_edited(dir, name, |d| {
            shipped::short_perform3(d, &[3072, 64512], 0.2, 1.0)
        });
        let s = ethersim::scenario::load(&path, &[]).unwrap();
        for p in &ethersim::run::run(&s).points {
            csv.push_str(&format!("{},{},{}\n", s.name, p[0], p[1] * 1.01));
        }
    }
    fs::write(dir.join("measured.csv"), csv).unwrap();
    let file = dir.join("cal.toml");
    fs::write(
        &file,
        r#"name = "small"
hardware = "artisoft-1992.toml"
scenarios = ["16bit-optimized.toml", "8bit-optimized.toml", "16bit-defaults.toml"]
figure = "throughput_kbps"
seeds = [1992]
report_seeds = [1992, 1, 2, 3, 4]
max_evaluations = 16

[measured]
file = "measured.csv"
scenario_column = "config"
key_column = "block_size"
value_column = "kbps"

[[parameter]]
key = "adapter.io_access_ns_16bit"
min = 600.0
max = 2400.0

[[parameter]]
key = "adapter.io_access_ns_8bit"
min = 1000.0
max = 4000.0
"#,
    )
    .unwrap();
    file
}

#[test]
fn cross_validation_by_fold_merges_to_the_one_process_table() {
    let d = tempfile::tempdir().unwrap();
    let file = small_calibration(d.path());
    let (one, sharded) = (d.path().join("one"), d.path().join("sharded"));
    let study = strings(&[
        "calibrate",
        file.to_str().unwrap(),
        "--cross-validate",
        "--jobs",
        "1",
    ]);
    let o = ethersim(&out_args(&study, &one));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let n = list_runs(&study, &sharded);
    assert_eq!(n, 3, "one fold per scenario");
    run_sharded(&study, &sharded, &[2, 0, 1], 3);
    let m = merge(&sharded);
    assert!(m.status.success(), "{}", text(&m.stderr));
    same_files(&one, &sharded, &["cross_validation.csv"]);
    let table = fs::read_to_string(sharded.join("cross_validation.txt")).unwrap();
    assert_eq!(text(&m.stdout), table);
    assert!(table.starts_with("Cross-validation"), "{table}");
    // the one-process report ends with the same table
    let report = fs::read_to_string(one.join("calibration.txt")).unwrap();
    assert!(report.ends_with(&format!("\n{table}")), "{report}\n---\n{table}");
    // only folds: no fit, no hardware file
    assert!(!sharded.join("artisoft-1992.toml").exists());
    // a fold index needs --cross-validate
    let o = ethersim(&strings(&[
        "calibrate",
        file.to_str().unwrap(),
        "--run-index",
        "0",
    ]));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("--cross-validate"));
}

fn mtime(p: &Path) -> std::time::SystemTime {
    fs::metadata(p).unwrap().modified().unwrap()
}

#[test]
fn a_killed_study_resumes_and_only_the_unfinished_runs_do_work() {
    let d = tempfile::tempdir().unwrap();
    let (one, sharded) = (d.path().join("one"), d.path().join("sharded"));
    // runs 0-7 take milliseconds, 8-11 seconds: 0-3 complete, 8 and 9 are killed
    // part-way, the others never start
    let study = sweep_args("0.05,0.1,1500");
    let runs = sharded.join("runs");
    run_sharded(&study, &sharded, &[0, 1, 2, 3], 3);
    let children: Vec<Child> = [8, 9]
        .iter()
        .map(|i| {
            Command::new(bin())
                .args(out_args(&study, &sharded))
                .args(["--run-index", &i.to_string()])
                .stderr(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    std::thread::sleep(Duration::from_millis(400));
    for mut c in children {
        assert!(c.try_wait().unwrap().is_none(), "run ended before it was killed");
        let ok = Command::new("kill")
            .args(["-9", &c.id().to_string()])
            .status()
            .unwrap();
        assert!(ok.success());
        c.wait().unwrap();
    }
    // a temporary a killed writer left (its process id is above Linux's largest)
    let stale = runs.join(".run-00009.json.ethersim-tmp-4194304-0");
    fs::write(&stale, b"{\"format\": \"ethersim-run-1\", \"index\": 9,").unwrap();
    let m = merge(&sharded);
    assert_eq!(m.status.code(), Some(1));
    let why = text(&m.stderr);
    assert!(why.contains("missing: runs 4-11 of 0..11"), "{why}");
    assert!(!why.contains("ethersim-tmp"), "a temporary is not a run: {why}");

    let before: Vec<(Vec<u8>, std::time::SystemTime)> = (0..4)
        .map(|i| {
            let p = runs.join(format!("run-{i:05}.json"));
            (fs::read(&p).unwrap(), mtime(&p))
        })
        .collect();
    std::thread::sleep(Duration::from_millis(20)); // a rewrite would show in the mtime
    let again = run_sharded(&study, &sharded, &(0..12).collect::<Vec<_>>(), 3);
    for (i, o) in &again {
        let err = text(&o.stderr);
        if *i < 4 {
            assert!(
                err.contains(&format!("run {i} is already complete")),
                "run {i}: {err}"
            );
            assert!(!err.contains("wrote"), "run {i}: {err}");
        } else {
            assert!(err.contains("wrote"), "run {i}: {err}");
            assert!(!err.contains("already complete"), "run {i}: {err}");
        }
    }
    for (i, (bytes, t)) in before.iter().enumerate() {
        let p = runs.join(format!("run-{i:05}.json"));
        assert_eq!(&fs::read(&p).unwrap(), bytes, "run {i} rewritten");
        assert_eq!(mtime(&p), *t, "run {i} touched");
    }
    assert!(!stale.exists(), "the dead writer's temporary is removed");
    let m = merge(&sharded);
    assert!(m.status.success(), "{}", text(&m.stderr));
    let o = ethersim(&out_args(&study, &one));
    assert!(o.status.success(), "{}", text(&o.stderr));
    same_files(&one, &sharded, &SWEEP_FILES);
}

/// The names in `dir` other than `runs`.
fn written(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "runs")
        .collect();
    v.sort();
    v
}

/// Copies a directory of run files.
fn copy_study(from: &Path, to: &Path) {
    fs::create_dir_all(to.join("runs")).unwrap();
    for e in fs::read_dir(from.join("runs")).unwrap().flatten() {
        fs::copy(e.path(), to.join("runs").join(e.file_name())).unwrap();
    }
}

/// `merge` refuses, exit 1, names `expect` (each), prints nothing and writes nothing.
fn refused(dir: &Path, expect: &[&str]) {
    let m = merge(dir);
    let why = text(&m.stderr);
    assert_eq!(m.status.code(), Some(1), "{why}");
    for e in expect {
        assert!(why.contains(e), "expected {e:?} in: {why}");
    }
    assert!(m.stdout.is_empty(), "{}", text(&m.stdout));
    assert_eq!(written(dir), Vec::<String>::new(), "merge wrote something");
}

#[test]
fn merge_refuses_a_missing_foreign_duplicated_or_truncated_run_and_writes_nothing() {
    let d = tempfile::tempdir().unwrap();
    let good = d.path().join("good");
    let study = sweep_args("0.05,0.1");
    run_sharded(&study, &good, &[0, 1, 2, 3, 4, 5, 6, 7], 3);
    let m = merge(&good);
    assert!(m.status.success(), "{}", text(&m.stderr));

    // a missing run
    let dir = d.path().join("missing");
    copy_study(&good, &dir);
    fs::remove_file(dir.join("runs/run-00002.json")).unwrap();
    fs::remove_file(dir.join("runs/run-00006.json")).unwrap();
    refused(&dir, &["missing: runs 2, 6 of 0..7"]);

    // a run of another study: another override
    let other = d.path().join("other");
    let mut foreign_study = study.clone();
    foreign_study[4] = "nodes.stations.count=5".into();
    run_sharded(&foreign_study, &other, &[1], 1);
    let dir = d.path().join("foreign");
    copy_study(&good, &dir);
    fs::copy(other.join("runs/run-00001.json"), dir.join("runs/run-00001.json")).unwrap();
    refused(
        &dir,
        &[
            "from another study: runs/run-00001.json",
            "nodes.stations.count=5 against nodes.stations.count=4",
            "missing: run 1 of 0..7",
        ],
    );
    // ... which `--run-index` does not overwrite either
    let o = ethersim(&with(&out_args(&study, &dir), &["--run-index", "1"]));
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("another study"), "{}", text(&o.stderr));

    // a run claimed twice
    let dir = d.path().join("duplicated");
    copy_study(&good, &dir);
    fs::copy(
        dir.join("runs/run-00003.json"),
        dir.join("runs/run-00003-copy.json"),
    )
    .unwrap();
    refused(
        &dir,
        &["duplicated: run 3 in runs/run-00003-copy.json and runs/run-00003.json"],
    );

    // a truncated run file
    let dir = d.path().join("truncated");
    copy_study(&good, &dir);
    let p = dir.join("runs/run-00005.json");
    let bytes = fs::read(&p).unwrap();
    fs::write(&p, &bytes[..bytes.len() - 40]).unwrap();
    refused(&dir, &["truncated or unreadable: runs/run-00005.json"]);
    // ... which its run replaces, saying so; then the study merges
    let o = ethersim(&with(&out_args(&study, &dir), &["--run-index", "5"]));
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("did not read whole"),
        "{}",
        text(&o.stderr)
    );
    assert!(merge(&dir).status.success());
    same_files(&good, &dir, &SWEEP_FILES);

    // an empty directory
    let dir = d.path().join("empty");
    fs::create_dir_all(dir.join("runs")).unwrap();
    refused(&dir, &["no run files"]);
}

#[test]
fn a_run_index_out_of_range_is_a_usage_error_naming_the_range() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("out");
    let o = ethersim(&with(
        &out_args(&sweep_args("0.05,0.1"), &out),
        &["--run-index", "8"],
    ));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("this study has 8 runs, 0..7"),
        "{}",
        text(&o.stderr)
    );
    assert!(!out.exists(), "nothing written");
    let o = ethersim(&strings(&[
        "reproduce",
        "figure1",
        "--run-index",
        "20",
        "--out",
        out.to_str().unwrap(),
    ]));
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("0..19"), "{}", text(&o.stderr));
    // a reproduction that is not split says so
    let o = ethersim(&strings(&["reproduce", "ttcp1985", "--list-runs"]));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("runs only as a whole"),
        "{}",
        text(&o.stderr)
    );
}
