//! A sweep's memory does not grow with its number of runs (issue 9, class 3).
//!
//! The runs of a sweep execute on a thread pool, so the per-thread count of
//! `tests/common` cannot see them; this binary counts live heap bytes over all threads
//! and their peak. Its tests take [`ONE_AT_A_TIME`], so nothing else allocates while one
//! measures.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicIsize, Ordering};

use ethersim::report::sweep::SweepStream;
use ethersim::run::output::SweepParam;
use ethersim::run::{plan_sweep, run_sweep, RUNS_IN_FLIGHT_PER_THREAD};
use ethersim::scenario::{Override, Source};

/// The system allocator, counting live heap bytes over all threads and their peak.
struct Peak;

static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

fn count(delta: isize) {
    let now = LIVE.fetch_add(delta, Ordering::Relaxed) + delta;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Peak {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as isize - layout.size() as isize);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOC: Peak = Peak;

/// Held by each test for its whole length: the count is over every thread of the binary,
/// and another test's allocations (its child's output captured, say) would move the peak.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn alone() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner())
}

/// Sweeps `seeds` seeds x `replications` of a short 128-station saturate run on `jobs`
/// threads, streaming `sweep.csv` to `dir`; returns the peak heap growth over the sweep
/// (the plan excluded: it is made before the measure starts) and the bytes of `sweep.csv`.
fn sweep_peak(dir: &Path, seeds: i64, replications: u32, jobs: usize) -> (isize, Vec<u8>) {
    let text = include_str!("../scenarios/saturate.toml");
    let source = Source::from_bytes(Path::new("saturate.toml"), text.into()).unwrap();
    let set = [
        Override::parse("nodes.stations.count=128").unwrap(),
        Override::parse("run.duration_s=0.002").unwrap(),
    ];
    let params = [SweepParam {
        key: "seed".into(),
        values: (1..=seeds).map(toml::Value::Integer).collect(),
    }];
    let combos = plan_sweep(&source, &set, &params, None, replications).unwrap();
    let values: Vec<Vec<toml::Value>> = combos.iter().map(|c| c.values.clone()).collect();
    let path = dir.join(format!("sweep-{seeds}-{replications}-{jobs}.csv"));

    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let file = std::fs::File::create(&path).unwrap();
    let mut stream = SweepStream::new(&params, &values, file);
    run_sweep::<Box<dyn std::error::Error>>(&combos, replications, jobs, &|| {}, &mut |r| {
        Ok(stream.push(&r)?)
    })
    .unwrap();
    let (summary, file) = stream.finish().unwrap();
    drop((summary, file));
    let peak = PEAK.load(Ordering::Relaxed) - before;
    (peak, std::fs::read(&path).unwrap())
}

#[test]
fn test_sweep_memory_is_flat_in_the_number_of_runs() {
    let _alone = alone();
    let dir = tempfile::tempdir().unwrap();
    // what one run's output holds (its full report), for scale
    let one_run = {
        let text = include_str!("../scenarios/saturate.toml");
        let s = ethersim::scenario::load_source(
            &Source::from_bytes(Path::new("saturate.toml"), text.into()).unwrap(),
            &[
                Override::parse("nodes.stations.count=128").unwrap(),
                Override::parse("run.duration_s=0.002").unwrap(),
            ],
        )
        .unwrap();
        let before = LIVE.load(Ordering::Relaxed);
        let out = ethersim::run::run(&s);
        let held = LIVE.load(Ordering::Relaxed) - before;
        drop(out);
        held
    };
    assert!(one_run > 10_000, "a run's output should be sizeable: {one_run}");

    // one combination, replicated: nothing of a run may stay behind. On one thread the
    // runs finish in order, so the peak is the same but for a few bytes per run (the
    // headlines of the combination being received).
    let (few, _) = sweep_peak(dir.path(), 1, 20, 1);
    let (many, csv_many) = sweep_peak(dir.path(), 1, 200, 1);
    eprintln!("1 thread: peak {few} B for 20 runs, {many} B for 200; one run's output holds {one_run} B");
    assert!(
        many - few < 16 * 1024,
        "peak grew by {} B from 20 to 200 runs (one run holds {one_run} B)",
        many - few
    );
    assert_eq!(csv_many.iter().filter(|&&b| b == b'\n').count(), 201);
    // On two threads, runs finish out of order and wait in the reorder window, so the peak
    // depends on timing; it is bounded by the window, not by the number of runs (keeping
    // the 180 more runs would add 180 x one_run).
    let jobs = 2;
    let window = (jobs * RUNS_IN_FLIGHT_PER_THREAD) as isize;
    let (few, _) = sweep_peak(dir.path(), 1, 20, jobs);
    let (many, _) = sweep_peak(dir.path(), 1, 200, jobs);
    eprintln!("{jobs} threads: peak {few} B for 20 runs, {many} B for 200");
    assert!(
        many - few < window * one_run + 64 * 1024,
        "peak grew by {} B from 20 to 200 runs (one run holds {one_run} B)",
        many - few
    );

    // many combinations: each keeps only its summary (well under 1 kB)
    let (few, _) = sweep_peak(dir.path(), 20, 1, 1);
    let (many, _) = sweep_peak(dir.path(), 200, 1, 1);
    eprintln!("combinations: peak {few} B for 20 runs, {many} B for 200");
    assert!(
        many - few < 180 * 1024,
        "peak grew by {} B from 20 to 200 combinations",
        many - few
    );

    // the stream is the same whatever the number of threads
    let (_, one) = sweep_peak(dir.path(), 3, 7, 1);
    let (_, three) = sweep_peak(dir.path(), 3, 7, 3);
    assert_eq!(one, three);
}

/// A sweep's runs are admitted together: 10,000 seeds of a 1,024-station, 120 s
/// saturated medium (each run admitted alone, about 89 hours in all) is refused at once,
/// naming the estimate, the limit and the flag that raises it, and writes nothing.
#[test]
fn a_sweep_over_its_total_cpu_budget_is_refused() {
    let _alone = alone();
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("sweep");
    let o = assert_cmd::Command::cargo_bin("ethersim")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["sweep", "scenarios/saturate.toml", "-q"])
        .args([
            "--set",
            "nodes.stations.count=1024",
            "--set",
            "run.duration_s=120",
        ])
        .args(["--param", "seed", "--range", "1..10000", "--out"])
        .arg(&out)
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("10000 runs") && err.contains("--max-cpu-hours") && err.contains("hours of CPU"),
        "{err}"
    );
    assert!(!out.exists(), "a refused sweep wrote {out:?}");
    // the same sweep over a few seeds stays inside the default limit's arithmetic
    let few = assert_cmd::Command::cargo_bin("ethersim")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["sweep", "scenarios/saturate.toml", "-q"])
        .args([
            "--set",
            "run.duration_s=0.05",
            "--param",
            "seed",
            "--range",
            "1..3",
            "--out",
        ])
        .arg(&out)
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    assert!(few.status.success(), "{}", String::from_utf8_lossy(&few.stderr));
}
