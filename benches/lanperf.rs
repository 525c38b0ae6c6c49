//! Speed of the LANPERF workload next to PERFORM3's (issue 11).
//!
//! LANPERF: `scenarios/lanperf/lanperf-x.toml` (the `x` defaults: 60 s WRITE + 60 s READ on five
//! workstations, with the server's disk and cache). PERFORM3: `scenarios/bulletin/16bit-optimized.toml`
//! at one block size (31744 bytes, 1 s + 4 s). Criterion reports events per second
//! (`Throughput::Elements` = the run's dispatched events); the wall time of one run of
//! each is printed once to stderr before the measurement.
//!
//! Run: `cargo bench --bench lanperf -- --warm-up-time 1 --measurement-time 5`.

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use ethersim::scenario::{self, Override, Workload};
use ethersim::workload::{lanperf, perform3};

fn load(file: &str, sets: &[&str]) -> scenario::Scenario {
    let o: Vec<Override> = sets
        .iter()
        .map(|s| Override::parse(s).expect("override"))
        .collect();
    scenario::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios").join(file),
        &o,
    )
    .expect("scenario loads")
}

fn bench(c: &mut Criterion) {
    let lp = load("lanperf/lanperf-x.toml", &[]);
    let Workload::Lanperf(lw) = &lp.workload else {
        panic!("lanperf")
    };
    let p3 = load(
        "bulletin/16bit-optimized.toml",
        &["apps[0].block_sizes=[31744]", "run.measure_s=4.0"],
    );
    let Workload::Perform3(pw) = &p3.workload else {
        panic!("perform3")
    };

    let t = Instant::now();
    let lr = lanperf::run(&lw.config, lp.seed);
    eprintln!(
        "lanperf x defaults: {} events in {:.3} s wall",
        lr.events,
        t.elapsed().as_secs_f64()
    );
    let t = Instant::now();
    let pr = perform3::run(&pw.config, p3.seed);
    let pe = pr.points[0].events;
    eprintln!(
        "perform3 31744 B: {pe} events in {:.3} s wall",
        t.elapsed().as_secs_f64()
    );

    let mut g = c.benchmark_group("workload");
    g.throughput(Throughput::Elements(lr.events));
    g.bench_function("lanperf_x", |b| {
        b.iter(|| black_box(lanperf::run(&lw.config, lp.seed).events))
    });
    g.throughput(Throughput::Elements(pe));
    g.bench_function("perform3_31744", |b| {
        b.iter(|| black_box(perform3::run(&pw.config, p3.seed).points[0].events))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
