//! Speed of the saturated medium (issue 2): 24 stations always backlogged, sending to a
//! sink at the far end of a 185 m thin-coax segment, 1518-byte and 64-byte frames, 10 s of
//! simulated time per iteration.
//!
//! Criterion reports events per second (`Throughput::Elements` = the run's dispatched
//! events, stale timers included). Simulated seconds per wall second and the wall time of
//! one 10 s run are printed once to stderr before the measurement.
//!
//! The baseline is a bare "hold" loop on [`EventQueue`]: a fixed population of pending
//! events, each step popping the earliest and pushing one at a random later time. It is
//! the floor the full MAC is compared with (the MAC adds carrier sense, collisions and
//! bookkeeping on top of the same queue operations).
//!
//! Run: `cargo bench --bench medium -- --warm-up-time 1 --measurement-time 5`.

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::Rng;

use ethersim::engine::{EventQueue, RngStreams, StreamKind};
use ethersim::ether::SegmentConfig;
use ethersim::time::{SimDuration, SimTime};
use ethersim::workload::saturate::{run, Destination, SaturateConfig, SaturateReport};

const SENDERS: usize = 24;
const SIM_SECS: u64 = 10;
const SEED: u64 = 1;

/// 25 stations (24 senders and the sink) evenly over 185 m of thin coax at 10 Mb/s.
fn segment() -> SegmentConfig {
    let n = SENDERS + 1;
    SegmentConfig {
        positions_m: (0..n).map(|i| 185.0 * i as f64 / (n - 1) as f64).collect(),
        velocity_factor: 0.65,
        bit_ns: 100,
        corrupt_fraction: 0.0,
    }
}

fn workload(frame_bytes: u32) -> SaturateConfig {
    SaturateConfig {
        senders: SENDERS,
        frame_bytes,
        destination: Destination::Sink,
        duration: SimDuration::from_secs(SIM_SECS),
    }
}

fn saturate(frame_bytes: u32) -> SaturateReport {
    run(&workload(frame_bytes), &segment(), SEED)
}

fn bench_saturated_medium(c: &mut Criterion) {
    let mut group = c.benchmark_group("saturated_medium_24x10s");
    group.sample_size(20);
    for frame_bytes in [1518u32, 64] {
        // One timed run outside criterion: its event count sets the throughput unit, and its
        // wall time gives simulated seconds per wall second.
        let t = Instant::now();
        let report = black_box(saturate(frame_bytes));
        let wall = t.elapsed().as_secs_f64();
        eprintln!(
            "saturated medium, {SENDERS} x {frame_bytes} B x {SIM_SECS} s: {} events, \
             {:.4} s wall, {:.1} M events/s, {:.1} simulated s per wall s",
            report.events,
            wall,
            report.events as f64 / wall / 1e6,
            SIM_SECS as f64 / wall,
        );
        group.throughput(Throughput::Elements(report.events));
        group.bench_with_input(
            BenchmarkId::new("frame_bytes", frame_bytes),
            &frame_bytes,
            |b, &bytes| b.iter(|| saturate(black_box(bytes))),
        );
    }
    group.finish();
}

/// Pending events kept in the baseline queue: about what a saturated 24-station segment
/// holds (one timer per station plus stale timers and receptions).
const HOLD_POPULATION: usize = 64;
const HOLD_STEPS: u64 = 1_000_000;

/// `HOLD_STEPS` pop-then-push steps on a queue of `HOLD_POPULATION` events; each new event
/// lands 0..~100 us after the one just popped (the scale of MAC timers at 10 Mb/s).
fn hold_loop(rng: &mut impl Rng) -> u64 {
    let mut q: EventQueue<(u32, u32)> = EventQueue::new();
    for i in 0..HOLD_POPULATION {
        q.push(SimTime::from_nanos(rng.next_u64() & 0x1_ffff), (i as u32, 0));
    }
    let mut acc = 0u64;
    for _ in 0..HOLD_STEPS {
        let (t, (who, n)) = q.pop().expect("population is constant");
        acc = acc.wrapping_add(u64::from(who));
        let at = t + SimDuration::from_nanos(rng.next_u64() & 0x1_ffff);
        q.push(at, (who, n.wrapping_add(1)));
    }
    acc
}

fn bench_event_queue_baseline(c: &mut Criterion) {
    let mut group = c.benchmark_group("event_queue_baseline");
    group.throughput(Throughput::Elements(HOLD_STEPS));
    group.bench_function(BenchmarkId::new("hold_pop_push", HOLD_POPULATION), |b| {
        b.iter(|| {
            let mut rng = RngStreams::new(SEED).stream(StreamKind::Workload, 0);
            hold_loop(&mut rng)
        })
    });
    group.finish();
}

criterion_group!(benches, bench_saturated_medium, bench_event_queue_baseline);
criterion_main!(benches);
