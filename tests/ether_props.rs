//! Property tests of the CSMA/CD segment (issue 5): random valid segments driven by the
//! `saturate` workload for a few tens of simulated milliseconds must keep every
//! bookkeeping and physical invariant, and the same seed must give the same report.
//!
//! A case draws 2..=64 stations (the senders plus the sink, if any) at random positions
//! on 0..500 m of cable, a velocity factor in 0.65..0.77, a frame size in 1..=1518 bytes
//! (under 64 is padded), a sink or round-robin destination, a fault-injection fraction in
//! 0..=10 % (half the cases have none), a duration of 20..50 ms and a seed. The invariants are listed on [`check_invariants`].

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use ethersim::engine::{run_until, Engine};
use ethersim::ether::consts::{ATTEMPT_LIMIT, INTERFRAME_GAP_BITS, MIN_FRAME_BYTES, PREAMBLE_SFD_BITS};
use ethersim::ether::{Segment, SegmentConfig};
use ethersim::lan::LanEvent;
use ethersim::time::{SimDuration, SimTime};
use ethersim::workload::saturate::{run, Destination, SaturateConfig, SaturateModel};

/// Cases per property: enough to cover odd corners (one sender, clustered stations,
/// 64 stations of short frames) while the whole file stays within seconds in release.
const CASES: u32 = 512;

#[derive(Clone, Debug)]
struct Case {
    workload: SaturateConfig,
    segment: SegmentConfig,
    seed: u64,
}

/// A random valid case: round robin needs two senders, a sink is one extra station.
fn case() -> impl Strategy<Value = Case> {
    (
        prop_oneof![Just(Destination::Sink), Just(Destination::RoundRobin)],
        2usize..=64,
        0.65f64..0.77,
        1u32..=1518,
        prop_oneof![4 => Just(0.0f64), 3 => 0.0f64..=0.10, 1 => 0.0f64..=1.0, 1 => Just(1.0f64)],
        20u64..50,
        any::<u64>(),
    )
        .prop_flat_map(|(destination, stations, vf, bytes, corrupt, ms, seed)| {
            let stations = stations.max(2);
            let senders = match destination {
                Destination::Sink => stations - 1,
                Destination::RoundRobin => stations,
            };
            prop::collection::vec(0.0f64..500.0, stations).prop_map(move |positions_m| Case {
                workload: SaturateConfig {
                    senders,
                    frame_bytes: bytes,
                    destination,
                    duration: SimDuration::from_millis(ms),
                },
                segment: SegmentConfig {
                    positions_m,
                    velocity_factor: vf,
                    bit_ns: 100,
                    corrupt_fraction: corrupt,
                },
                seed,
            })
        })
}

/// Frames station `s` sent (the transmission ended without a collision by `horizon`)
/// whose last bit has not reached the receiver by `horizon`, counted from the medium's
/// records rather than from any counter.
fn in_flight_on_medium(seg: &Segment, s: usize, horizon: SimTime) -> u64 {
    let m = seg.medium();
    m.records()
        .filter(|x| x.src == s && !x.collided && x.end <= horizon)
        .filter(|x| x.end + m.prop(x.src, x.frame.dst) > horizon)
        .count() as u64
}

/// Runs `case` and checks, at the horizon:
///
/// 1. conservation per station and in total: offered = delivered + corrupted + dropped
///    (16 attempts) + queued + in flight, with in flight (sent, not yet at the receiver)
///    counted from the medium's records, not from the counters: 0 or 1 per station, and
///    exactly sent - delivered - corrupted; exactly one frame queued at every saturated
///    sender;
/// 2. no station received two intact frames that overlapped (`rx_overlaps == 0`);
/// 3. success + corrupted + collision time <= elapsed, and the four with idle add up to
///    the elapsed time, idle being measured by the medium gap by gap (so the busy periods
///    tile the timeline);
/// 4. success + corrupted time is exactly the sent frames' wire time (plus at most one
///    frame still on the wire at the horizon): a frame that was sent never shares its busy
///    period; success time alone is the delivered frames' time plus at most the frames in
///    flight and the one on the wire; utilization is success time over elapsed;
/// 5. delivered bits <= the one-station ceiling 8 B / ((64 + 8 B + 96) bit times) over
///    the elapsed time plus one IFG (the first frame is not preceded by a gap);
/// 6. each station's collision histogram sums to its collisions, a collision on attempt
///    n + 1 needs one on attempt n, and 16th-attempt collisions are the drops (plus at
///    most one jam in progress);
/// 7. per-station figures sum to the totals; bytes are frames x padded size; frames
///    received at destinations equal frames delivered; one access delay per sent frame;
/// 8. the report built here equals the one `saturate::run` returns;
/// 9. the medium holds few records and the engine few pending events.
fn check_invariants(c: &Case) -> Result<(), TestCaseError> {
    let cfg = &c.workload;
    let end = SimTime::ZERO + cfg.duration;
    let mut engine: Engine<LanEvent> = Engine::new(c.seed);
    let mut model = SaturateModel::new(cfg.clone(), &c.segment, &engine);
    model.start(&mut engine);
    run_until(&mut model, &mut engine, end);
    let seg = model.segment();
    let r = seg.report(end);

    let wire_bytes = u64::from(cfg.frame_bytes.max(MIN_FRAME_BYTES));
    let frame_bits = PREAMBLE_SFD_BITS + 8 * wire_bytes;
    let bit_ns = c.segment.bit_ns;
    let frame_ns = frame_bits * bit_ns;
    let elapsed_ns = cfg.duration.as_nanos();

    // 1. conservation
    let mut in_flight_total = 0;
    for (s, st) in r.stations.iter().enumerate() {
        let in_flight = in_flight_on_medium(&seg, s, end);
        prop_assert!(in_flight <= 1, "station {s}: {in_flight} frames in flight");
        prop_assert_eq!(
            st.frames_sent,
            st.frames_delivered + st.frames_corrupted + in_flight,
            "station {} sent, arrived and on the wire",
            s
        );
        in_flight_total += in_flight;
        prop_assert_eq!(
            st.frames_offered,
            st.frames_delivered + st.frames_corrupted + st.dropped_excessive + st.queued + in_flight,
            "station {}",
            s
        );
        let expected_queue = u64::from(s < cfg.senders);
        prop_assert_eq!(st.queued, expected_queue, "station {} queue", s);
        if s >= cfg.senders {
            prop_assert_eq!(st.frames_offered, 0, "the sink sent");
        }
    }
    prop_assert_eq!(
        r.frames_offered,
        r.frames_delivered + r.frames_corrupted + r.frames_dropped + r.frames_queued + in_flight_total
    );
    if c.segment.corrupt_fraction == 0.0 {
        prop_assert_eq!(r.frames_corrupted, 0);
    }

    // 2. no overlapping receptions
    prop_assert_eq!(r.rx_overlaps, 0);

    // 3. medium time
    let ns = |s: f64| (s * 1e9).round() as u64;
    let (success_ns, corrupted_ns, collision_ns, idle_ns) = (
        ns(r.time_success_s),
        ns(r.time_corrupted_s),
        ns(r.time_collision_s),
        ns(r.time_idle_s),
    );
    prop_assert!(
        success_ns + corrupted_ns + collision_ns <= elapsed_ns,
        "busy > elapsed: {r:?}"
    );
    prop_assert_eq!(success_ns + corrupted_ns + collision_ns + idle_ns, elapsed_ns);
    prop_assert!(r.utilization <= 1.0);
    prop_assert!((r.utilization - success_ns as f64 / elapsed_ns as f64).abs() < 1e-9);
    if c.segment.corrupt_fraction == 0.0 {
        prop_assert_eq!(corrupted_ns, 0);
    }

    // 4. success + corrupted time is the sent frames' time; success alone the delivered ones'
    let sent_ns = r.frames_sent * frame_ns;
    prop_assert!(
        success_ns + corrupted_ns >= sent_ns && success_ns + corrupted_ns <= sent_ns + frame_ns,
        "success {success_ns} + corrupted {corrupted_ns} ns for {} sent frames of {frame_ns} ns",
        r.frames_sent
    );
    let delivered_ns = r.frames_delivered * frame_ns;
    prop_assert!(
        success_ns >= delivered_ns && success_ns <= delivered_ns + (in_flight_total + 1) * frame_ns,
        "success {success_ns} ns for {} delivered frames of {frame_ns} ns",
        r.frames_delivered
    );

    // 5. one-station ceiling
    let period_bits = PREAMBLE_SFD_BITS + 8 * wire_bytes + INTERFRAME_GAP_BITS;
    let ceiling_bps = (8 * wire_bytes) as f64 / (period_bits * bit_ns) as f64 * 1e9;
    let window_s = (elapsed_ns + INTERFRAME_GAP_BITS * bit_ns) as f64 * 1e-9;
    let bits = (r.bytes_delivered * 8) as f64;
    prop_assert!(
        bits <= ceiling_bps * window_s * (1.0 + 1e-12),
        "{bits} bits in {window_s} s exceeds the {ceiling_bps} b/s ceiling"
    );
    prop_assert!(r.throughput_bps <= ceiling_bps * window_s / r.elapsed_s * (1.0 + 1e-12));

    // 6. collision histograms
    let mut by_attempt = [0u64; ATTEMPT_LIMIT as usize];
    for s in 0..seg.stations() {
        let st = &seg.mac(s).stats;
        let h = &st.collisions_by_attempt;
        prop_assert_eq!(h.iter().sum::<u64>(), st.collisions, "station {} histogram", s);
        for n in 1..h.len() {
            prop_assert!(h[n] <= h[n - 1], "station {s}: {h:?}");
        }
        let last = h[ATTEMPT_LIMIT as usize - 1];
        prop_assert!(
            st.dropped_excessive <= last && last <= st.dropped_excessive + 1,
            "station {s}: {} drops, {last} 16th-attempt collisions",
            st.dropped_excessive
        );
        for (a, b) in by_attempt.iter_mut().zip(h) {
            *a += b;
        }
    }
    prop_assert_eq!(&r.collisions_by_attempt[..], &by_attempt[..]);
    prop_assert_eq!(by_attempt.iter().sum::<u64>(), r.collisions);

    // 7. per-station sums
    let sum = |f: fn(&ethersim::ether::report::StationReport) -> u64| r.stations.iter().map(f).sum::<u64>();
    prop_assert_eq!(sum(|s| s.frames_offered), r.frames_offered);
    prop_assert_eq!(sum(|s| s.frames_sent), r.frames_sent);
    prop_assert_eq!(sum(|s| s.frames_delivered), r.frames_delivered);
    prop_assert_eq!(sum(|s| s.bytes_delivered), r.bytes_delivered);
    prop_assert_eq!(sum(|s| s.frames_received), r.frames_delivered);
    prop_assert_eq!(sum(|s| s.frames_corrupted), r.frames_corrupted);
    prop_assert_eq!(sum(|s| s.collisions), r.collisions);
    prop_assert_eq!(sum(|s| s.deferrals), r.deferrals);
    prop_assert_eq!(sum(|s| s.dropped_excessive), r.frames_dropped);
    prop_assert_eq!(sum(|s| s.queued), r.frames_queued);
    prop_assert_eq!(sum(|s| s.access_delay.count), r.access_delay.count);
    prop_assert_eq!(r.access_delay.count, r.frames_sent);
    prop_assert_eq!(r.bytes_delivered, r.frames_delivered * wire_bytes);
    for st in &r.stations {
        prop_assert_eq!(st.bytes_delivered, st.frames_delivered * wire_bytes);
    }
    if r.frames_delivered > 0 {
        prop_assert!(r.fairness_jain > 0.0 && r.fairness_jain <= 1.0 + 1e-12);
        prop_assert!(r.capture_mean_run >= 1.0 && r.capture_longest_run.is_some());
    } else {
        prop_assert!(r.fairness_jain.is_nan() && r.capture_mean_run.is_nan());
        prop_assert_eq!(r.capture_longest_run, None);
    }

    // 8. the public entry point gives the same figures
    let via_run = run(cfg, &c.segment, c.seed);
    prop_assert_eq!(via_run.events, engine.events_dispatched());
    prop_assert_eq!(
        serde_json::to_string(&via_run.ether).unwrap(),
        serde_json::to_string(&r).unwrap()
    );

    // 9. bounded state. Records and stale timers only reach back about two frame times
    //    plus propagation, and one station starts at most one transmission per
    //    preamble + jam + IFG (19.2 us at 10 Mb/s), so both are bounded by the
    //    configuration, whatever the duration (tests/ether_limits.rs checks the growth).
    let per_station = (2 * frame_ns + 20_000) / ((PREAMBLE_SFD_BITS + 32 + INTERFRAME_GAP_BITS) * bit_ns) + 2;
    let bound = seg.stations() as u64 * per_station;
    let held = seg.medium().records_held() as u64;
    prop_assert!(held <= bound, "{held} records held, bound {bound}");
    let pending = engine.pending() as u64;
    prop_assert!(
        pending <= 2 * bound,
        "{pending} events pending, bound {}",
        2 * bound
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: CASES, ..ProptestConfig::default() })]

    #[test]
    fn random_segments_keep_every_invariant(c in case()) {
        check_invariants(&c)?;
    }

    #[test]
    fn same_config_and_seed_give_identical_reports(c in case()) {
        let a = serde_json::to_string(&run(&c.workload, &c.segment, c.seed)).unwrap();
        let b = serde_json::to_string(&run(&c.workload, &c.segment, c.seed)).unwrap();
        prop_assert_eq!(a, b);
    }
}
