//! Workload `traffic`: open-loop stations offering a given load of mixed frame sizes.
//!
//! Measures the MAC and the medium alone, as [`super::saturate`] does, but loads the wire
//! the way Boggs, Mogul and Kent (1988, "Measured capacity of an Ethernet: myths and
//! reality") did: each of `senders` stations generates frames on its own schedule,
//! whatever the wire does (open loop), and queues them for its MAC.
//!
//! The stations are one group of open-loop frame sources ([`crate::lan::source`], where
//! the arrivals, the size mixes, the queue and the access delay are defined) on a LAN of
//! their own; the same group can run beside other applications on one cable.

use serde::Serialize;

use crate::engine::{Engine, Model};
use crate::ether::SharedSegment;
use crate::ether::{EtherReport, SegmentConfig};
use crate::lan::observe::{drive, reborrow, Observed, Observer};
use crate::lan::source::{Offer, SourceConfig, SourceStats};
use crate::lan::{LanEvent, SourceNet};
use crate::time::{SimDuration, SimTime};

pub use crate::lan::source::{Arrivals, Destination, Sizes};

/// A validated traffic workload.
#[derive(Clone, Debug)]
pub struct TrafficConfig {
    pub senders: usize,
    pub destination: Destination,
    pub arrivals: Arrivals,
    /// All stations together, as a fraction of the bit rate, header-to-FCS bits.
    pub offered_load: f64,
    pub sizes: Sizes,
    /// Most frames a station's MAC holds, the one being sent included (at least 1).
    pub queue_frames: usize,
    pub duration: SimDuration,
}

impl TrafficConfig {
    /// The senders as a group of open-loop frame sources.
    pub fn sources(&self) -> SourceConfig {
        SourceConfig {
            senders: self.senders,
            destination: self.destination,
            offer: Offer::Open {
                arrivals: self.arrivals,
                offered_load: self.offered_load,
                sizes: self.sizes.clone(),
                queue_frames: self.queue_frames,
            },
        }
    }

    /// Each station's mean interval between arrivals, ns, on a wire of bit time `bit_ns`.
    pub fn mean_interarrival_ns(&self, bit_ns: u64) -> f64 {
        self.senders as f64 * self.sizes.mean_bytes() * 8.0 * bit_ns as f64 / self.offered_load
    }
}

/// The model: a LAN of one group of open-loop frame sources (stations `0..senders`,
/// the sink after them).
pub struct TrafficModel {
    net: SourceNet,
    segment: SharedSegment,
    cfg: TrafficConfig,
}

impl TrafficModel {
    /// `seg` must hold `senders` stations, plus one more (the sink) for [`Destination::Sink`].
    pub fn new(cfg: TrafficConfig, seg: &SegmentConfig, engine: &Engine<LanEvent>) -> Self {
        let (net, segment) = SourceNet::segment_only(seg, engine);
        TrafficModel { net, segment, cfg }
    }

    /// Schedules every station's first arrival.
    pub fn start(&mut self, engine: &mut Engine<LanEvent>) {
        self.net.add_sources(self.cfg.sources(), 0, engine);
    }

    /// The sources' own counts.
    fn stats(&self) -> &SourceStats {
        self.net.sources()[0].stats()
    }

    /// The medium's statistics at `end`.
    fn ether(&self, end: SimTime) -> EtherReport {
        self.segment.get().report(end)
    }
}

impl Observed for TrafficModel {
    fn start_observing(&mut self) {
        self.net.start_observing();
    }

    fn flush_observations(&mut self, obs: &mut dyn Observer) {
        self.net.flush_observations(obs);
    }
}

impl Model for TrafficModel {
    type Event = LanEvent;
    fn handle(&mut self, ev: LanEvent, engine: &mut Engine<LanEvent>) {
        self.net.handle(ev, engine);
    }
}

/// Result of a traffic run. Loads are fractions of the bit rate, header-to-FCS bits.
#[derive(Clone, Debug, Serialize)]
pub struct TrafficReport {
    pub senders: usize,
    pub destination: Destination,
    pub arrivals: Arrivals,
    pub sizes: Sizes,
    pub queue_frames: usize,
    /// The load asked for.
    pub offered_load: f64,
    /// The load that arrived: bits of every frame generated, per second, over the bit rate.
    pub offered_load_measured: f64,
    /// Bits delivered intact per second over the bit rate.
    pub carried_load: f64,
    pub throughput_mbps: f64,
    pub frames_arrived: u64,
    /// Mean size of the frames generated, bytes.
    pub mean_frame_bytes: f64,
    pub frames_sent: u64,
    /// Collisions suffered per frame sent.
    pub collisions_per_frame: f64,
    /// Arrival to end of successful transmission, µs, over the frames sent.
    pub queue_access_delay_mean_us: f64,
    /// 95th percentile of the same (within 1/32 of the value, [`Histogram`]).
    pub queue_access_delay_p95_us: f64,
    /// 99th percentile of the same (within 1/32 of the value).
    pub queue_access_delay_p99_us: f64,
    /// Frames that arrived at a full queue.
    pub queue_drops: u64,
    /// Frames discarded after 16 attempts.
    pub excessive_collision_drops: u64,
    pub events: u64,
    #[serde(flatten)]
    pub ether: EtherReport,
}

/// Runs a traffic workload for its duration.
pub fn run(cfg: &TrafficConfig, seg: &SegmentConfig, seed: u64) -> TrafficReport {
    run_observed(cfg, seg, seed, None)
}

/// As [`run`], handing every observation of the wire to `obs` if given.
pub fn run_observed(
    cfg: &TrafficConfig,
    seg: &SegmentConfig,
    seed: u64,
    mut obs: Option<&mut dyn Observer>,
) -> TrafficReport {
    let mut engine = Engine::new(seed);
    let mut model = TrafficModel::new(cfg.clone(), seg, &engine);
    if obs.is_some() {
        model.start_observing();
    }
    model.start(&mut engine);
    let end = SimTime::ZERO + cfg.duration;
    drive(&mut model, &mut engine, end, reborrow(&mut obs));
    if cfg!(debug_assertions) {
        let violations = model.net.audit_sources();
        assert!(violations.is_empty(), "{violations:?}");
    }
    let ether = model.ether(end);
    let st = model.stats();
    let secs = cfg.duration.as_secs_f64();
    let bit_rate = 1e9 / seg.bit_ns as f64;
    let per_frame = |x: f64, n: u64| if n == 0 { f64::NAN } else { x / n as f64 };
    TrafficReport {
        senders: cfg.senders,
        destination: cfg.destination,
        arrivals: cfg.arrivals,
        sizes: cfg.sizes.clone(),
        queue_frames: cfg.queue_frames,
        offered_load: cfg.offered_load,
        offered_load_measured: st.arrived_bytes as f64 * 8.0 / secs / bit_rate,
        carried_load: ether.throughput_bps / bit_rate,
        throughput_mbps: ether.throughput_bps / 1e6,
        frames_arrived: st.arrived,
        mean_frame_bytes: per_frame(st.arrived_bytes as f64, st.arrived),
        frames_sent: ether.frames_sent,
        collisions_per_frame: per_frame(ether.collisions as f64, ether.frames_sent),
        queue_access_delay_mean_us: if st.delay.count() == 0 {
            f64::NAN
        } else {
            st.delay.mean() / 1e3
        },
        queue_access_delay_p95_us: if st.delay.count() == 0 {
            f64::NAN
        } else {
            st.delay.quantile(0.95) as f64 / 1e3
        },
        queue_access_delay_p99_us: if st.delay.count() == 0 {
            f64::NAN
        } else {
            st.delay.quantile(0.99) as f64 / 1e3
        },
        queue_drops: st.queue_drops,
        excessive_collision_drops: ether.frames_dropped,
        events: engine.events_dispatched(),
        ether,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_interarrival_gives_the_offered_load() {
        // 10 stations of 1000-byte frames at half of 10 Mb/s: 625 frames/s in all,
        // 62.5 per station, every 16 ms
        let cfg = TrafficConfig {
            senders: 10,
            destination: Destination::Sink,
            arrivals: Arrivals::Constant,
            offered_load: 0.5,
            sizes: Sizes::Fixed { bytes: 1000 },
            queue_frames: 16,
            duration: SimDuration::from_nanos(1),
        };
        assert_eq!(cfg.mean_interarrival_ns(100), 16_000_000.0);
        assert_eq!(cfg.sources().mean_interarrival_ns(100), Some(16_000_000.0));
    }
}
