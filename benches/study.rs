//! What running a study one run per process costs, next to what a run of Figure 1 costs:
//!
//! - `figure1_run_in_process`: run 0 of Figure 1 (16-bit optimized on seed 1992, its 16
//!   block sizes) in this process, as `ethersim figure1` runs each of its 20 runs;
//! - `figure1_run_index`: the same run as `ethersim reproduce figure1 --run-index 0`, a
//!   process of its own writing `runs/run-00000.json` (atomically, fsynced) into a new
//!   directory: the run plus the overhead of a sharded run;
//! - `figure1_run_as_run`: the same simulation as `ethersim run
//!   scenarios/bulletin/16bit-optimized.toml` (a process that prints a table and writes
//!   no file): what a process running it costs without the study around it;
//! - `overhead_run_index`: the overhead alone: `ethersim sweep --run-index 0` of a run that
//!   simulates nothing worth measuring (2 stations for 1 ms), process start, scenario load
//!   and planning, and the run file's write;
//! - `already_complete`: `--run-index` of a run whose file is complete (resuming a study):
//!   start, load, read and check the file, exit.
//!
//! Run: `cargo bench --bench study -- --warm-up-time 1 --measurement-time 5`.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};

use ethersim::repro::bulletin;

fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_ethersim"))
}

/// A sweep of 3 runs of the saturated medium, each a millisecond of 2 stations.
fn tiny_sweep(out: &Path) -> Vec<String> {
    let s = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/saturate.toml");
    [
        "sweep",
        s.to_str().unwrap(),
        "-q",
        "--set",
        "run.duration_s=0.001",
        "--set",
        "nodes.stations.count=2",
        "--param",
        "segment.length_m",
        "--values",
        "10,100,185",
        "--out",
        out.to_str().unwrap(),
        "--run-index",
        "0",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn ethersim(args: &[String]) {
    let o = Command::new(bin()).args(args).output().expect("ethersim runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("study");
    g.sample_size(20);
    g.bench_function("figure1_run_in_process", |b| {
        b.iter(|| black_box(bulletin::figure1_run(0, &[]).expect("run 0 runs")))
    });
    g.bench_function("figure1_run_index", |b| {
        b.iter_batched(
            || tempfile::tempdir().expect("temp dir"),
            |d| {
                let out = d.path().join("out").display().to_string();
                ethersim(&["reproduce", "figure1", "--out", &out, "--run-index", "0"].map(String::from));
                d
            },
            BatchSize::PerIteration,
        )
    });
    let scenario = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/bulletin/16bit-optimized.toml");
    let run = ["run", scenario.to_str().unwrap(), "-q"].map(String::from);
    g.bench_function("figure1_run_as_run", |b| b.iter(|| ethersim(&run)));
    g.bench_function("overhead_run_index", |b| {
        b.iter_batched(
            || tempfile::tempdir().expect("temp dir"),
            |d| {
                ethersim(&tiny_sweep(&d.path().join("out")));
                d
            },
            BatchSize::PerIteration,
        )
    });
    let done = tempfile::tempdir().expect("temp dir");
    let args = tiny_sweep(&done.path().join("out"));
    ethersim(&args);
    g.bench_function("already_complete", |b| b.iter(|| ethersim(&args)));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
