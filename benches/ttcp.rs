//! Speed of the ttcp workload (issue 12): one 16 MiB transfer (`-l 8192 -n 2048`) of the
//! 1995 setup over Linux 1.2 TCP/IP, from the scenarios embedded in the binary
//! (`ttcp1995::scenario`): SMC Elite Ultra to SMC Elite Ultra (midkemia transmits; the
//! wire runs at the TCP ceiling) and 3C509 to 3C509 with midkemia receiving (the slowest
//! case: the P90's 3C509 copy holds the wire up).
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

use ethersim::ttcp1995;
use ethersim::workload::ttcp::{self, TtcpConfig};

const CASES: [(&str, &str); 2] = [
    ("smc_smc_transmit", "ttcp-1995-smc-ultra-smc-ultra-transmit"),
    ("3c509_3c509_receive", "ttcp-1995-3c509-3c509-receive"),
];

/// Events and simulated seconds of one run.
fn run(cfg: &TtcpConfig, seed: u64) -> (u64, f64) {
    let r = ttcp::run(cfg, seed).expect("the 1995 transfer finishes");
    (r.events, r.receiver.real_s)
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("ttcp_16MiB");
    for (id, name) in CASES {
        let s = ttcp1995::scenario(name, &[]).expect("embedded scenario loads");
        let cfg = ttcp1995::config(&s).expect("a ttcp scenario").clone();
        let t = Instant::now();
        let mut last = (0, 0.0);
        for _ in 0..5 {
            last = run(&cfg, s.seed);
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
        g.bench_function(id, |b| b.iter(|| black_box(run(&cfg, s.seed).0)));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
