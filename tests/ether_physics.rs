//! Whole-segment physics: exact ceilings, collision timing by hand, the vulnerable window,
//! saturated stations, the capture effect and seeds.

use ethersim::engine::{run_until, Engine, Model};
use ethersim::ether::mac::MacState;
use ethersim::ether::{EtherEvent, Frame, Indication, Segment, SegmentConfig};
use ethersim::lan::LanEvent;
use ethersim::time::{SimDuration, SimTime};
use ethersim::workload::saturate::{run, Destination, SaturateConfig, SaturateModel, SaturateReport};

fn bus(n: usize, length_m: f64) -> SegmentConfig {
    let positions_m = (0..n)
        .map(|i| {
            if n == 1 {
                0.0
            } else {
                length_m * i as f64 / (n - 1) as f64
            }
        })
        .collect();
    SegmentConfig {
        positions_m,
        velocity_factor: 0.65,
        bit_ns: 100,
        corrupt_fraction: 0.0,
    }
}

fn saturate(senders: usize, frame_bytes: u32, secs: u64, seed: u64) -> SaturateReport {
    let cfg = SaturateConfig {
        senders,
        frame_bytes,
        destination: Destination::Sink,
        duration: SimDuration::from_secs(secs),
    };
    run(&cfg, &bus(senders + 1, 185.0), seed)
}

#[test]
fn one_station_1518_byte_ceiling_is_exact() {
    let r = saturate(1, 1518, 10, 1);
    // (64 preamble + 1518*8) bits + 96 IFG = 12 304 bit times = 1230.4 us per frame
    let fps = r.ether.frames_per_s;
    assert!((fps / 812.74 - 1.0).abs() < 1e-4, "frames/s = {fps}");
    let mbps = r.ether.throughput_bps / 1e6;
    assert!((mbps / 9.870 - 1.0).abs() < 1e-4, "Mb/s = {mbps}");
    assert_eq!(r.ether.collisions, 0);
    assert_eq!(r.ether.deferrals, 0);
}

#[test]
fn one_station_64_byte_ceiling_is_exact() {
    let r = saturate(1, 64, 10, 1);
    // (64 + 512) bits + 96 IFG = 672 bit times = 67.2 us per frame
    let fps = r.ether.frames_per_s;
    assert!((fps / 14_880.95 - 1.0).abs() < 1e-4, "frames/s = {fps}");
}

#[test]
fn short_frames_are_padded_to_64_bytes() {
    let r = saturate(1, 20, 1, 1);
    assert!((r.ether.frames_per_s / 14_880.95 - 1.0).abs() < 1e-3);
    assert_eq!(r.ether.bytes_delivered, r.ether.frames_delivered * 64);
}

/// Drives a two-station segment by hand, recording each MAC state change.
struct Probe {
    seg: Segment,
    log: Vec<(u64, usize, String)>,
    inds: Vec<Indication>,
}

impl Probe {
    fn observe(
        &mut self,
        eng: &mut Engine<EtherEvent>,
        act: impl FnOnce(&mut Segment, &mut Engine<EtherEvent>),
    ) {
        let before: Vec<MacState> = (0..self.seg.stations()).map(|s| self.seg.mac(s).state).collect();
        act(&mut self.seg, eng);
        for (s, b) in before.iter().enumerate() {
            let after = self.seg.mac(s).state;
            if after != *b {
                self.log.push((eng.now().as_nanos(), s, after.to_string()));
            }
        }
        self.seg.drain_indications(&mut self.inds);
    }
}

impl Model for Probe {
    type Event = EtherEvent;
    fn handle(&mut self, ev: EtherEvent, eng: &mut Engine<EtherEvent>) {
        self.observe(eng, |seg, eng| seg.handle(ev, eng));
    }
}

/// Two stations `length_m` apart; station 0 gets a frame at 0, station 1 at `t1_ns`.
/// Runs until `until_ns` and returns the log.
fn two_stations(length_m: f64, vf: f64, t1_ns: u64, until_ns: u64) -> Probe {
    let mut cfg = bus(2, length_m);
    cfg.velocity_factor = vf;
    let mut eng: Engine<EtherEvent> = Engine::new(5);
    let mut p = Probe {
        seg: Segment::new(&cfg, eng.rng_streams()),
        log: vec![],
        inds: vec![],
    };
    p.observe(&mut eng, |seg, eng| {
        seg.enqueue(
            Frame {
                src: 0,
                dst: 1,
                bytes: 1000,
                tag: 0,
                pad: 0,
            },
            eng,
        )
    });
    ethersim::engine::run_until(&mut p, &mut eng, SimTime::from_nanos(t1_ns));
    p.observe(&mut eng, |seg, eng| {
        seg.enqueue(
            Frame {
                src: 1,
                dst: 0,
                bytes: 1000,
                tag: 0,
                pad: 0,
            },
            eng,
        )
    });
    ethersim::engine::run_until(&mut p, &mut eng, SimTime::from_nanos(until_ns));
    p
}

fn first(p: &Probe, station: usize, state: &str) -> u64 {
    p.log
        .iter()
        .find(|(_, s, st)| *s == station && st == state)
        .unwrap_or_else(|| panic!("station {station} never entered {state}: {:?}", p.log))
        .0
}

#[test]
fn collision_timing_at_both_ends_of_185m_thin_coax() {
    // Propagation: 185 m / (0.65 c) = 949.37 ns -> 949 ns.
    // Both start at t = 0; each hears the other at 949 ns, during its preamble (64 bits =
    // 6.4 us), so each finishes the preamble and jams 32 bits: jam ends at 6.4 + 3.2 = 9.6 us.
    let p = two_stations(185.0, 0.65, 0, 12_000);
    for s in 0..2 {
        assert_eq!(first(&p, s, "TRANSMITTING"), 0);
        assert_eq!(first(&p, s, "JAMMING"), 949, "station {s} detects");
        let after_jam = p.log.iter().find(|(t, st, _)| *st == s && *t > 949).unwrap();
        assert_eq!(after_jam.0, 9_600, "station {s} stops jamming");
    }
}

#[test]
fn collision_timing_staggered_start() {
    // Station 1 starts at 900 ns, before station 0's signal reaches it at 949 ns.
    // Station 1 detects at 949; station 0 detects station 1's signal at 900 + 949 = 1849.
    // Jams end one preamble + 32 bits after each start: 9 600 and 10 500 ns.
    let p = two_stations(185.0, 0.65, 900, 12_000);
    assert_eq!(first(&p, 1, "TRANSMITTING"), 900);
    assert_eq!(first(&p, 1, "JAMMING"), 949);
    assert_eq!(first(&p, 0, "JAMMING"), 1_849);
    let end0 = p.log.iter().find(|(t, s, _)| *s == 0 && *t > 1_849).unwrap().0;
    let end1 = p.log.iter().find(|(t, s, _)| *s == 1 && *t > 949).unwrap().0;
    assert_eq!((end0, end1), (9_600, 10_500));
}

#[test]
fn collision_detected_after_preamble_on_a_long_network() {
    // 2 500 m of thick coax: 2500 / (0.77 c) = 10 830.0 ns, longer than the preamble, so the
    // jam starts at detection and ends 3.2 us later.
    let p = two_stations(2_500.0, 0.77, 0, 20_000);
    for s in 0..2 {
        assert_eq!(first(&p, s, "JAMMING"), 10_830);
        let end = p.log.iter().find(|(t, st, _)| *st == s && *t > 10_830).unwrap().0;
        assert_eq!(end, 14_030);
    }
}

#[test]
fn vulnerable_window_collide_before_arrival_defer_after() {
    // Station 0's signal reaches station 1 at 949 ns.
    let p = two_stations(185.0, 0.65, 949, 200_000);
    assert_eq!(first(&p, 1, "TRANSMITTING"), 949);
    assert!(p.log.iter().any(|(_, s, st)| *s == 1 && st == "JAMMING"));

    let p = two_stations(185.0, 0.65, 950, 2_000_000);
    assert_eq!(first(&p, 1, "DEFERRING"), 950);
    assert!(!p.log.iter().any(|(_, _, st)| st == "JAMMING"), "{:?}", p.log);
    // station 1 waits for the end of station 0's frame (64 + 8000 bits = 806.4 us) at its
    // position, then an IFG: 806 400 + 949 + 9 600
    assert_eq!(first(&p, 1, "TRANSMITTING"), 806_400 + 949 + 9_600);
    let delivered = p
        .inds
        .iter()
        .filter(|i| matches!(i, Indication::Received { .. }))
        .count();
    assert_eq!(delivered, 2);
}

const NS: [usize; 5] = [2, 5, 10, 24, 50];
const SIZES: [u32; 3] = [64, 512, 1518];

#[test]
fn saturated_stations_share_the_medium() {
    let mut table = vec![];
    for &bytes in &SIZES {
        let ceiling = saturate(1, bytes, 2, 1).ether.throughput_bps;
        let mut prev = f64::INFINITY;
        for &n in &NS {
            let r = saturate(n, bytes, 2, 11);
            let e = &r.ether;
            table.push((bytes, n, e.throughput_bps / 1e6));
            assert!(
                e.throughput_bps < ceiling,
                "{n}x{bytes}: above the 1-station ceiling"
            );
            // falls gently: never rises by more than noise, never drops by more than 15%
            assert!(
                e.throughput_bps <= prev * 1.01,
                "{n}x{bytes}: rose with N: {table:?}"
            );
            assert!(
                e.throughput_bps >= prev.min(ceiling) * 0.85,
                "{n}x{bytes}: fell steeply: {table:?}"
            );
            prev = e.throughput_bps;
            assert_eq!(e.rx_overlaps, 0, "overlapping receptions");
            assert!(e.collisions > 0);
        }
    }
    // longer frames carry more, at every N
    for &n in &NS {
        let t = |b: u32| table.iter().find(|r| r.0 == b && r.1 == n).unwrap().2;
        assert!(t(64) < t(512) && t(512) < t(1518), "N={n}: {table:?}");
    }
    let t24 = table.iter().find(|r| r.0 == 1518 && r.1 == 24).unwrap().2;
    assert!(t24 > 9.0, "24 x 1518 bytes: {t24} Mb/s");
    eprintln!("{table:.3?}");
}

#[test]
fn capture_effect_with_two_stations() {
    let r = saturate(2, 64, 10, 3);
    let e = &r.ether;
    eprintln!(
        "capture: mean run {:.2}, longest {}, dropped {}, fairness {:.3}",
        e.capture_mean_run,
        e.capture_longest_run.unwrap_or(0),
        e.frames_dropped,
        e.fairness_jain
    );
    assert!(e.capture_mean_run > 3.0, "mean run {}", e.capture_mean_run);
    assert!(e.capture_longest_run.expect("frames were delivered") > 50);
    assert!(e.frames_dropped > 0, "no frame hit the 16-attempt limit");
}

#[test]
fn same_seed_same_statistics_different_seed_different() {
    let a = serde_json::to_string(&saturate(10, 512, 1, 42)).unwrap();
    let b = serde_json::to_string(&saturate(10, 512, 1, 42)).unwrap();
    let c = serde_json::to_string(&saturate(10, 512, 1, 43)).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
}

/// Every frame offered is, at the horizon, delivered, corrupted, dropped after 16
/// attempts, still queued, or on the wire; the last counted from the medium's records
/// (transmissions that ended without a collision and whose last bit has not reached the
/// receiver), not derived from the other counters.
#[test]
fn frames_are_conserved() {
    let cfg = SaturateConfig {
        senders: 24,
        frame_bytes: 64,
        destination: Destination::Sink,
        duration: SimDuration::from_secs(1),
    };
    let end = SimTime::ZERO + cfg.duration;
    let mut engine: Engine<LanEvent> = Engine::new(9);
    let mut model = SaturateModel::new(cfg.clone(), &bus(25, 185.0), &engine);
    model.start(&mut engine);
    run_until(&mut model, &mut engine, end);
    let seg = model.segment();
    let m = seg.medium();
    let in_flight = m
        .records()
        .filter(|x| !x.collided && x.end <= end && x.end + m.prop(x.src, x.frame.dst) > end)
        .count() as u64;
    let e = seg.report(end);
    assert!(e.frames_delivered > 10_000, "{e:?}");
    assert!(
        in_flight <= 1,
        "one sender at a time can have a frame on the wire"
    );
    assert_eq!(e.frames_sent, e.frames_delivered + e.frames_corrupted + in_flight);
    assert_eq!(
        e.frames_offered,
        e.frames_delivered + e.frames_corrupted + e.frames_dropped + e.frames_queued + in_flight
    );
    assert_eq!(
        e.frames_queued, 24,
        "a saturated sender always has a frame queued"
    );
}
