//! Speed of the ttcp workload, from the scenarios embedded in the binary:
//! - issue 12: one 16 MiB transfer (`-l 8192 -n 2048`) of the 1995 setup over Linux 1.2
//!   TCP/IP (`ttcp1995::scenario`): SMC Elite Ultra to SMC Elite Ultra (midkemia
//!   transmits; the wire runs at the TCP ceiling) and 3C509 to 3C509 with midkemia
//!   receiving (the slowest case: the P90's 3C509 copy holds the wire up);
//! - issue 14: one 1 MiB transfer (`-l 1024 -n 1024`) between the two VAX-11/780s under
//!   4.2BSD (`ttcp1985::scenario`): over the Excelan EXOS 204 (UNIBUS DMA, message
//!   queues, 4.2BSD tick accounting) and over the PCL-11B point-to-point link (two IP
//!   fragments per segment).
//!
//! Criterion reports events per second (`Throughput::Elements` = the run's dispatched
//! events). The events, simulated seconds (the receiver's ttcp time) and wall time of a
//! run, and simulated seconds per wall second, are printed once to stderr before the
//! measurement (the mean of 5 timed runs).
//!
//! Run: `cargo bench --bench ttcp -- --warm-up-time 1 --measurement-time 5`.

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use ethersim::repro::{ttcp1985, ttcp1995};
use ethersim::scenario::{Scenario, Workload};
use ethersim::workload::ttcp::{self, TtcpConfig};

const CASES_1995: [(&str, &str); 2] = [
    ("smc_smc_transmit", "ttcp-1995-smc-ultra-smc-ultra-transmit"),
    ("3c509_3c509_receive", "ttcp-1995-3c509-3c509-receive"),
];

const CASES_1985: [(&str, &str); 2] = [
    ("vax_ex0_trailers", "ttcp-1985-single-ex0-trailers"),
    ("vax_pcl0", "ttcp-1985-single-pcl0"),
];

/// Events and simulated seconds of one run.
fn run(cfg: &TtcpConfig, seed: u64) -> (u64, f64) {
    let r = ttcp::run(cfg, seed).expect("the transfer finishes");
    (r.events, r.receiver.real_s)
}

/// One group of cases: each case's (id, loaded configuration, seed).
fn group(c: &mut Criterion, name: &str, cases: Vec<(&str, TtcpConfig, u64)>) {
    let mut g = c.benchmark_group(name);
    for (id, cfg, seed) in cases {
        let t = Instant::now();
        let mut last = (0, 0.0);
        for _ in 0..5 {
            last = run(&cfg, seed);
        }
        let wall = t.elapsed().as_secs_f64() / 5.0;
        let (events, sim_s) = last;
        eprintln!(
            "{id}: {events} events, {sim_s:.2} s simulated in {:.1} ms wall: {:.2} M events/s, \
             {:.0} simulated s per wall s",
            wall * 1e3,
            events as f64 / wall / 1e6,
            sim_s / wall
        );
        g.throughput(Throughput::Elements(events));
        g.bench_function(id, |b| b.iter(|| black_box(run(&cfg, seed).0)));
    }
    g.finish();
}

/// Each case's id, ttcp configuration and seed, its scenario loaded by `load`.
fn cases(
    list: &[(&'static str, &str)],
    load: impl Fn(&str) -> Scenario,
) -> Vec<(&'static str, TtcpConfig, u64)> {
    list.iter()
        .map(|&(id, name)| {
            let s = load(name);
            let Workload::Ttcp(w) = &s.workload else {
                panic!("{name} is a ttcp scenario")
            };
            (id, w.config.clone(), s.seed)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let load_1995 = |name: &str| ttcp1995::scenario(name, &[]).expect("embedded scenario loads");
    group(c, "ttcp_16MiB", cases(&CASES_1995, load_1995));
    let load_1985 = |name: &str| ttcp1985::scenario(name, &[]).expect("embedded scenario loads");
    group(c, "ttcp_1985_1MiB", cases(&CASES_1985, load_1985));
}

criterion_group!(benches, bench);
criterion_main!(benches);
