//! Issue 15: with the pcap writer and the event log observing (into sinks), a 10 s
//! saturated run's heap stays flat: the observation buffer is emptied after every event
//! and the pcap writer holds only undecided transmissions.

use ethersim::engine::Engine;
use ethersim::ether::SegmentConfig;
use ethersim::lan::instruments::events::{EventLog, EventsHeader};
use ethersim::lan::instruments::pcap::PcapWriter;
use ethersim::lan::instruments::Tee;
use ethersim::lan::observe::{drive, Observed};
use ethersim::time::{SimDuration, SimTime};
use ethersim::workload::saturate::{Destination, SaturateConfig, SaturateModel};

mod common;
use common::live_bytes;

#[global_allocator]
static ALLOC: common::Counting = common::Counting;

#[test]
fn heap_stays_flat_with_pcap_and_events() {
    let n = 25;
    let seg = SegmentConfig {
        positions_m: (0..n).map(|i| 185.0 * i as f64 / (n - 1) as f64).collect(),
        velocity_factor: 0.65,
        bit_ns: 100,
        corrupt_fraction: 0.01,
    };
    let cfg = SaturateConfig {
        senders: 24,
        frame_bytes: 64,
        destination: Destination::Sink,
        duration: SimDuration::from_secs(10),
    };
    let mut engine = Engine::new(3);
    let mut model = SaturateModel::new(cfg, &seg, &engine);
    model.start_observing();
    model.start(&mut engine);
    let end = SimTime::from_nanos(u64::MAX);
    let mut pcap = PcapWriter::new(std::io::sink(), 100, SimTime::ZERO, end, "limits").expect("header");
    let header = EventsHeader {
        format: "ethersim-events",
        version: 1,
        scenario: "limits",
        seed: 3,
        bit_ns: 100,
        stations_m: &seg.positions_m,
    };
    let mut log = EventLog::new(std::io::sink(), &header).expect("header");
    let mut samples = Vec::new();
    {
        let mut tee = Tee(vec![&mut pcap, &mut log]);
        for secs in [1u64, 5, 10] {
            drive(
                &mut model,
                &mut engine,
                SimTime::ZERO + SimDuration::from_secs(secs),
                Some(&mut tee),
            );
            samples.push(live_bytes());
        }
    }
    eprintln!(
        "live heap bytes at 1 s, 5 s, 10 s: {samples:?}; {} event lines, pcap holds {} records",
        log.lines(),
        pcap.held()
    );
    assert!(log.lines() > 500_000, "a saturated run: {} lines", log.lines());
    assert!(pcap.held() < 100, "pcap holds {} records", pcap.held());
    let histogram_cap = 25 * 64 * 32 * 8;
    assert!(samples[2] <= samples[0] + histogram_cap, "heap grew: {samples:?}");
    assert!(samples[2] < 1 << 20, "{samples:?}");
}
