//! Workload `traffic`: open-loop stations offering a given load of mixed frame sizes.
//!
//! Measures the MAC and the medium alone, as [`super::saturate`] does, but loads the wire
//! the way Boggs, Mogul and Kent (1988, "Measured capacity of an Ethernet: myths and
//! reality") did: each of `senders` stations generates frames on its own schedule,
//! whatever the wire does (open loop), and queues them for its MAC.
//!
//! - **Arrivals.** Each station's frames arrive at mean interval
//!   `T = senders x mean_frame_bytes x 8 x bit_ns / offered_load` (ns), so that all
//!   stations together offer `offered_load` times the bit rate. The offered bits are the
//!   frame's own, header to FCS, the same bits the carried throughput counts; preamble,
//!   SFD and interframe gap are *not* counted, so carried and offered load compare
//!   directly (at full load of 1518-byte frames the wire is also busy 20 bytes per frame
//!   with preamble and gap). Poisson arrivals draw exponential intervals of mean `T`;
//!   constant arrivals come every `T`, each station starting at a random phase in
//!   `[0, T)` so that the stations do not all send at the same instant.
//! - **Sizes** (header to FCS) are drawn per frame: fixed, uniform over `min..=max`,
//!   bimodal (`small` with probability `small_fraction`, else `large`) or from an
//!   empirical table of sizes and weights.
//! - **Queue.** The MAC's transmit queue holds at most `queue_frames`, the frame being
//!   sent included; a frame arriving at a full queue is dropped and counted.
//! - **Access delay** of a frame: from its arrival to the end of its successful
//!   transmission (queueing plus contention plus its own transmission time), ns.
//!
//! Every draw comes from the station's own [`StreamKind::Traffic`] stream, so the MAC's
//! backoff streams are the same as without the source, and the same seed gives the same
//! run. A frame's arrival time (ns) travels in its tag.

use rand::RngExt;
use rand_distr::weighted::WeightedIndex;
use rand_distr::{Bernoulli, Distribution, Exp, Uniform};
use serde::Serialize;

use crate::engine::{Engine, Model, SimRng, StreamKind};
use crate::ether::{EtherEvent, EtherReport, Frame, Indication, Segment, SegmentConfig, StationId};
use crate::lan::observe::{drive, reborrow, Content, Observed, Observer, Tap};
use crate::stats::Histogram;
use crate::time::{SimDuration, SimTime};

pub use super::saturate::Destination;

/// How a station's frames arrive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Arrivals {
    /// Exponential intervals (a Poisson process) of the mean interval.
    Poisson,
    /// Every mean interval exactly, from a random phase.
    Constant,
}

/// The frame sizes, bytes header to FCS.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Sizes {
    Fixed {
        bytes: u32,
    },
    /// Every size in `min..=max` equally likely.
    Uniform {
        min: u32,
        max: u32,
    },
    /// `small` with probability `small_fraction`, else `large`.
    Bimodal {
        small: u32,
        large: u32,
        small_fraction: f64,
    },
    /// `bytes[i]` with probability `weights[i] / sum(weights)`; weights are non-negative,
    /// their sum positive, the two lists of equal length.
    Table {
        bytes: Vec<u32>,
        weights: Vec<f64>,
    },
}

impl Sizes {
    /// The expected frame size, bytes.
    pub fn mean_bytes(&self) -> f64 {
        match self {
            Sizes::Fixed { bytes } => *bytes as f64,
            Sizes::Uniform { min, max } => (*min as f64 + *max as f64) / 2.0,
            Sizes::Bimodal {
                small,
                large,
                small_fraction,
            } => small_fraction * *small as f64 + (1.0 - small_fraction) * *large as f64,
            Sizes::Table { bytes, weights } => {
                let total: f64 = weights.iter().sum();
                bytes
                    .iter()
                    .zip(weights)
                    .map(|(&b, &w)| b as f64 * w)
                    .sum::<f64>()
                    / total
            }
        }
    }

    /// The largest size drawn, bytes.
    pub fn max_bytes(&self) -> u32 {
        match self {
            Sizes::Fixed { bytes } => *bytes,
            Sizes::Uniform { max, .. } => *max,
            Sizes::Bimodal { small, large, .. } => (*small).max(*large),
            Sizes::Table { bytes, .. } => bytes.iter().copied().max().unwrap_or(0),
        }
    }
}

/// A validated traffic workload.
#[derive(Clone, Debug)]
pub struct TrafficConfig {
    pub senders: usize,
    pub destination: Destination,
    pub arrivals: Arrivals,
    /// All stations together, as a fraction of the bit rate, header-to-FCS bits; (0, 2].
    pub offered_load: f64,
    pub sizes: Sizes,
    /// Most frames a station's MAC holds, the one being sent included (at least 1).
    pub queue_frames: usize,
    pub duration: SimDuration,
}

impl TrafficConfig {
    /// Each station's mean interval between arrivals, ns, on a wire of bit time `bit_ns`.
    pub fn mean_interarrival_ns(&self, bit_ns: u64) -> f64 {
        self.senders as f64 * self.sizes.mean_bytes() * 8.0 * bit_ns as f64 / self.offered_load
    }
}

/// Events of the traffic composition: the wire's, and a station's next arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrafficEvent {
    Ether(EtherEvent),
    /// A frame arrives at `station`'s queue.
    Arrival {
        station: StationId,
    },
}

impl From<EtherEvent> for TrafficEvent {
    fn from(e: EtherEvent) -> Self {
        TrafficEvent::Ether(e)
    }
}

/// A station's size distribution, ready to draw.
#[derive(Clone, Debug)]
enum SizeDraw {
    Fixed(u32),
    Uniform(Uniform<u32>),
    Bimodal {
        small: u32,
        large: u32,
        pick: Bernoulli,
    },
    Table {
        bytes: Vec<u32>,
        index: WeightedIndex<f64>,
    },
}

impl SizeDraw {
    fn new(s: &Sizes) -> Self {
        match s {
            Sizes::Fixed { bytes } => SizeDraw::Fixed(*bytes),
            Sizes::Uniform { min, max } => {
                SizeDraw::Uniform(Uniform::new_inclusive(*min, *max).expect("validated: min <= max"))
            }
            Sizes::Bimodal {
                small,
                large,
                small_fraction,
            } => SizeDraw::Bimodal {
                small: *small,
                large: *large,
                pick: Bernoulli::new(*small_fraction).expect("validated: fraction in [0, 1]"),
            },
            Sizes::Table { bytes, weights } => SizeDraw::Table {
                bytes: bytes.clone(),
                index: WeightedIndex::new(weights).expect("validated: weights >= 0, sum > 0"),
            },
        }
    }

    fn draw(&self, rng: &mut SimRng) -> u32 {
        match self {
            SizeDraw::Fixed(b) => *b,
            SizeDraw::Uniform(u) => u.sample(rng),
            SizeDraw::Bimodal { small, large, pick } => {
                if pick.sample(rng) {
                    *small
                } else {
                    *large
                }
            }
            SizeDraw::Table { bytes, index } => bytes[index.sample(rng)],
        }
    }
}

/// The source's own counts.
#[derive(Clone, Debug, Default)]
struct SourceStats {
    arrived: u64,
    arrived_bytes: u64,
    queue_drops: u64,
    /// Arrival to end of successful transmission, ns.
    delay: Histogram,
}

/// The model: a segment plus the open-loop sources.
pub struct TrafficModel {
    segment: Segment,
    cfg: TrafficConfig,
    mean_ns: f64,
    interval: Option<Exp<f64>>,
    sizes: SizeDraw,
    rngs: Vec<SimRng>,
    next_dst: Vec<StationId>,
    stats: SourceStats,
    buf: Vec<Indication>,
    tap: Tap,
}

impl TrafficModel {
    /// `seg` must hold `senders` stations, plus one more (the sink) for [`Destination::Sink`].
    pub fn new(cfg: TrafficConfig, seg: &SegmentConfig, engine: &Engine<TrafficEvent>) -> Self {
        let segment = Segment::new(seg, engine.rng_streams());
        let mean_ns = cfg.mean_interarrival_ns(seg.bit_ns);
        let interval = match cfg.arrivals {
            Arrivals::Poisson => Some(Exp::new(1.0 / mean_ns).expect("validated: positive rate")),
            Arrivals::Constant => None,
        };
        let rngs = (0..cfg.senders)
            .map(|s| engine.rng_streams().stream(StreamKind::Traffic, s as u64))
            .collect();
        let next_dst = (0..cfg.senders).map(|s| (s + 1) % cfg.senders.max(1)).collect();
        TrafficModel {
            segment,
            sizes: SizeDraw::new(&cfg.sizes),
            cfg,
            mean_ns,
            interval,
            rngs,
            next_dst,
            stats: SourceStats::default(),
            buf: Vec::with_capacity(8),
            tap: Tap::default(),
        }
    }

    /// Schedules every station's first arrival: a random phase in `[0, T)` for constant
    /// arrivals, an exponential interval from zero for Poisson ones.
    pub fn start(&mut self, engine: &mut Engine<TrafficEvent>) {
        for s in 0..self.cfg.senders {
            let first = match self.interval {
                Some(exp) => exp.sample(&mut self.rngs[s]),
                None => self.rngs[s].random::<f64>() * self.mean_ns,
            };
            engine.schedule_in(ns(first), TrafficEvent::Arrival { station: s });
        }
    }

    fn destination(&mut self, s: StationId) -> StationId {
        match self.cfg.destination {
            Destination::Sink => self.cfg.senders,
            Destination::RoundRobin => {
                let n = self.cfg.senders;
                let d = self.next_dst[s];
                let mut next = (d + 1) % n;
                if next == s {
                    next = (next + 1) % n;
                }
                self.next_dst[s] = next;
                d
            }
        }
    }

    fn on_arrival(&mut self, s: StationId, engine: &mut Engine<TrafficEvent>) {
        let now = engine.now();
        let bytes = self.sizes.draw(&mut self.rngs[s]);
        self.stats.arrived += 1;
        self.stats.arrived_bytes += bytes as u64;
        if self.segment.queue_len(s) >= self.cfg.queue_frames {
            self.stats.queue_drops += 1;
        } else {
            let dst = self.destination(s);
            let frame = Frame {
                src: s,
                dst,
                bytes,
                tag: now.as_nanos(),
                pad: 0,
            };
            self.segment.enqueue(frame, engine);
        }
        let next = match self.interval {
            Some(exp) => exp.sample(&mut self.rngs[s]),
            None => self.mean_ns,
        };
        engine.schedule_in(ns(next), TrafficEvent::Arrival { station: s });
    }

    /// Records the access delay of every frame sent since the last event.
    fn settle(&mut self, now: SimTime) {
        self.segment.drain_indications(&mut self.buf);
        for ind in self.buf.drain(..) {
            if let Indication::Sent { frame } = ind {
                self.stats.delay.record(now.as_nanos() - frame.tag);
            }
        }
    }

    pub fn segment(&self) -> &Segment {
        &self.segment
    }
}

/// `x` ns rounded to a whole ns (the engine's resolution).
fn ns(x: f64) -> SimDuration {
    SimDuration::from_nanos(x.round() as u64)
}

impl Observed for TrafficModel {
    fn start_observing(&mut self) {
        self.tap.enable();
        self.segment.observe();
    }

    fn flush_observations(&mut self, obs: &mut dyn Observer) {
        let segment = &mut self.segment;
        self.tap
            .flush(|buf| segment.drain_observed(buf), |_| Content::Opaque, obs);
    }
}

impl Model for TrafficModel {
    type Event = TrafficEvent;
    fn handle(&mut self, ev: TrafficEvent, engine: &mut Engine<TrafficEvent>) {
        match ev {
            TrafficEvent::Ether(e) => self.segment.handle(e, engine),
            TrafficEvent::Arrival { station } => self.on_arrival(station, engine),
        }
        self.settle(engine.now());
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
    let ether = model.segment.report(end);
    let st = &model.stats;
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
    fn test_mean_bytes_of_each_mix() {
        assert_eq!(Sizes::Fixed { bytes: 100 }.mean_bytes(), 100.0);
        assert_eq!(Sizes::Uniform { min: 64, max: 1518 }.mean_bytes(), 791.0);
        let b = Sizes::Bimodal {
            small: 64,
            large: 1518,
            small_fraction: 0.25,
        };
        assert_eq!(b.mean_bytes(), 0.25 * 64.0 + 0.75 * 1518.0);
        let t = Sizes::Table {
            bytes: vec![64, 576, 1518],
            weights: vec![2.0, 0.0, 2.0],
        };
        assert_eq!(t.mean_bytes(), 791.0);
        assert_eq!(t.max_bytes(), 1518);
    }

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
    }

    #[test]
    fn test_table_draws_only_weighted_sizes() {
        let d = SizeDraw::new(&Sizes::Table {
            bytes: vec![64, 576, 1518],
            weights: vec![1.0, 0.0, 3.0],
        });
        let mut rng = crate::engine::RngStreams::new(5).stream(StreamKind::Traffic, 0);
        let draws: Vec<u32> = (0..4000).map(|_| d.draw(&mut rng)).collect();
        assert!(!draws.contains(&576));
        let small = draws.iter().filter(|&&b| b == 64).count() as f64 / 4000.0;
        assert!((small - 0.25).abs() < 0.03, "{small}");
    }
}
