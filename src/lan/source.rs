//! Frame sources: a part of the LAN made of bare stations that hand frames straight to
//! their MAC, with no host, card or stack behind them. They load the wire the way
//! Boggs, Mogul and Kent (1988, "Measured capacity of an Ethernet: myths and reality")
//! loaded theirs, beside whatever else runs on the cable.
//!
//! A group ([`Sources`]) is `senders` stations, from station `base` on, plus a silent
//! sink after them when its frames go to a sink. Each station offers its frames one of
//! two ways ([`Offer`]):
//!
//! - **Open loop.** Frames arrive at the station's queue on their own schedule, whatever
//!   the wire does: each station's mean interval is
//!   `T = senders x mean_frame_bytes x 8 x bit_ns / offered_load` (ns), so the group
//!   offers `offered_load` times the bit rate (header-to-FCS bits: preamble, SFD and
//!   gap are not counted, so carried and offered load compare directly). Poisson
//!   arrivals draw exponential intervals of mean `T`; constant arrivals come every `T`
//!   from a random phase in `[0, T)`. Sizes are drawn per frame ([`Sizes`]). The MAC's
//!   queue holds at most `queue_frames`, the frame being sent included; a frame
//!   arriving at a full queue is dropped and counted.
//! - **Backlogged.** Each station always has exactly one frame queued: a new one is
//!   handed over as soon as the previous one is sent or dropped (the saturate workload).
//!
//! Every draw comes from the station's own [`StreamKind::Traffic`] stream (numbered by
//! its station on the segment), so the MAC's backoff streams and the other parts'
//! streams are the same with or without the group. A frame's arrival time (ns) travels
//! in its tag; its access delay is from arrival to the end of its successful
//! transmission (queueing, contention and its own time on the wire), ns.

use rand::RngExt;
use rand_distr::weighted::WeightedIndex;
use rand_distr::{Bernoulli, Distribution, Exp, Uniform};
use serde::Serialize;

use super::LanEvent;
use crate::engine::{Engine, SimRng, StreamKind};
use crate::ether::{Frame, Indication, Segment, StationId};
use crate::stats::Histogram;
use crate::time::SimDuration;

/// Where a group's frames go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Destination {
    /// One extra station of the group that only receives.
    Sink,
    /// Each station cycles through the other senders of its group.
    RoundRobin,
}

/// How an open-loop station's frames arrive.
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
                bytes.iter().zip(weights).map(|(b, w)| *b as f64 * w).sum::<f64>() / total
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

/// How a group's stations offer their frames.
#[derive(Clone, Debug, PartialEq)]
pub enum Offer {
    /// Open-loop arrivals: the whole group offers `offered_load` times the bit rate.
    Open {
        arrivals: Arrivals,
        offered_load: f64,
        sizes: Sizes,
        /// Most frames a station's MAC holds, the one being sent included (at least 1).
        queue_frames: usize,
    },
    /// One frame of `frame_bytes` always queued.
    Backlogged { frame_bytes: u32 },
}

/// A validated group of frame sources.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceConfig {
    pub senders: usize,
    pub destination: Destination,
    pub offer: Offer,
}

impl SourceConfig {
    /// Stations the group takes on the segment: its senders, and its sink if it has one.
    pub fn stations(&self) -> usize {
        self.senders + usize::from(self.destination == Destination::Sink)
    }

    /// Each open-loop station's mean interval between arrivals, ns, on a wire of bit
    /// time `bit_ns` (`None` for backlogged stations).
    pub fn mean_interarrival_ns(&self, bit_ns: u64) -> Option<f64> {
        match &self.offer {
            Offer::Open {
                offered_load, sizes, ..
            } => Some(self.senders as f64 * sizes.mean_bytes() * 8.0 * bit_ns as f64 / offered_load),
            Offer::Backlogged { .. } => None,
        }
    }
}

/// The first station of each of `groups`, laid out one after another from station `first`.
pub fn bases(first: usize, groups: &[SourceConfig]) -> Vec<usize> {
    groups
        .iter()
        .scan(first, |base, g| {
            let b = *base;
            *base += g.stations();
            Some(b)
        })
        .collect()
}

/// Events of a group of frame sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceEvent {
    /// A frame arrives at `station`'s queue (open loop).
    Arrival { station: u32 },
}

impl From<SourceEvent> for LanEvent {
    fn from(e: SourceEvent) -> Self {
        LanEvent::Source(e)
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

/// The ready-to-draw form of an [`Offer`].
enum Drawn {
    Open {
        mean_ns: f64,
        interval: Option<Exp<f64>>,
        sizes: SizeDraw,
        queue_frames: usize,
    },
    Backlogged {
        frame_bytes: u32,
    },
}

/// What a group's stations generated, since the start or the last [`Sources::restart_counts`].
#[derive(Clone, Debug, Default)]
pub struct SourceStats {
    /// Frames generated (open loop) or handed over (backlogged).
    pub arrived: u64,
    pub arrived_bytes: u64,
    /// Frames that arrived at a full queue.
    pub queue_drops: u64,
    /// Arrival to end of successful transmission, ns (open loop).
    pub delay: Histogram,
}

/// A group of frame sources on a segment (which the composition holding the group hands
/// to each call).
pub struct Sources {
    cfg: SourceConfig,
    base: usize,
    drawn: Drawn,
    rngs: Vec<SimRng>,
    /// Next destination of each sender, an index in the group.
    next_dst: Vec<usize>,
    stats: SourceStats,
    /// Frames handed to the senders' MACs since the start (never restarted: the audit's).
    enqueued: u64,
}

impl Sources {
    /// The group of `cfg` on stations `base..base + cfg.stations()` of a segment of bit
    /// time `bit_ns`, each station's random stream from `streams`; [`Self::start`] sends
    /// its first frames.
    pub fn new(cfg: SourceConfig, base: usize, bit_ns: u64, streams: &crate::engine::RngStreams) -> Self {
        let drawn = match &cfg.offer {
            Offer::Open {
                arrivals,
                sizes,
                queue_frames,
                ..
            } => {
                let mean_ns = cfg.mean_interarrival_ns(bit_ns).expect("open loop");
                Drawn::Open {
                    mean_ns,
                    interval: match arrivals {
                        Arrivals::Poisson => Some(Exp::new(1.0 / mean_ns).expect("validated: positive rate")),
                        Arrivals::Constant => None,
                    },
                    sizes: SizeDraw::new(sizes),
                    queue_frames: *queue_frames,
                }
            }
            Offer::Backlogged { frame_bytes } => Drawn::Backlogged {
                frame_bytes: *frame_bytes,
            },
        };
        let rngs = (0..cfg.senders)
            .map(|s| streams.stream(StreamKind::Traffic, (base + s) as u64))
            .collect();
        let next_dst = (0..cfg.senders).map(|s| (s + 1) % cfg.senders.max(1)).collect();
        Sources {
            cfg,
            base,
            drawn,
            rngs,
            next_dst,
            stats: SourceStats::default(),
            enqueued: 0,
        }
    }

    /// Every station's first arrival (a random phase in `[0, T)` for constant arrivals,
    /// an exponential interval from now for Poisson ones), or its first frame now.
    pub fn start(&mut self, segment: &mut Segment, engine: &mut Engine<LanEvent>) {
        for s in 0..self.cfg.senders {
            match &self.drawn {
                Drawn::Open {
                    mean_ns, interval, ..
                } => {
                    let first = match interval {
                        Some(exp) => exp.sample(&mut self.rngs[s]),
                        None => self.rngs[s].random::<f64>() * mean_ns,
                    };
                    let station = (self.base + s) as u32;
                    engine.schedule_in(ns(first), LanEvent::Source(SourceEvent::Arrival { station }));
                }
                Drawn::Backlogged { .. } => self.offer(s, segment, engine),
            }
        }
    }

    /// The group's stations: its senders, then its sink if it has one.
    pub fn stations(&self) -> std::ops::Range<StationId> {
        self.base..self.base + self.cfg.stations()
    }

    /// What the group generated since the start or the last [`Self::restart_counts`].
    pub fn stats(&self) -> &SourceStats {
        &self.stats
    }

    /// The group's conservation audit against `segment` (between events): every frame it
    /// handed over is counted by its sender's MAC, each of which has sent it, dropped it
    /// after 16 attempts, or holds it; a backlogged sender holds exactly one, an open-loop
    /// one at most its queue's length; the sink sends nothing. The violations, empty when
    /// it holds.
    pub fn audit(&self, segment: &Segment) -> Vec<String> {
        let mut v = Vec::new();
        let senders = self.base..self.base + self.cfg.senders;
        let offered: u64 = senders.clone().map(|s| segment.mac(s).stats.frames_offered).sum();
        if offered != self.enqueued {
            v.push(format!(
                "handed {} frames to its MACs, which counted {offered}",
                self.enqueued
            ));
        }
        let limit = match self.drawn {
            Drawn::Open { queue_frames, .. } => queue_frames,
            Drawn::Backlogged { .. } => 1,
        };
        for s in senders {
            let st = &segment.mac(s).stats;
            let held = segment.queue_len(s) as u64;
            if st.frames_offered != st.frames_sent + st.dropped_excessive + held {
                v.push(format!(
                    "station {s}: {} frames offered, {} sent, {} dropped, {held} held",
                    st.frames_offered, st.frames_sent, st.dropped_excessive
                ));
            }
            let backlogged = matches!(self.drawn, Drawn::Backlogged { .. });
            if held as usize > limit || (backlogged && held != 1) {
                v.push(format!("station {s} holds {held} frames (its limit {limit})"));
            }
        }
        if self.cfg.destination == Destination::Sink {
            let sink = self.base + self.cfg.senders;
            let sent = segment.mac(sink).stats.frames_offered;
            if sent > 0 {
                v.push(format!("its sink, station {sink}, sent {sent} frames"));
            }
        }
        v
    }

    /// Starts the counts afresh (the start of a measurement window).
    pub fn restart_counts(&mut self) {
        self.stats = SourceStats::default();
    }

    /// The station sender `s` (an index in the group) sends its next frame to.
    #[inline]
    fn destination(&mut self, s: usize) -> StationId {
        let local = match self.cfg.destination {
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
        };
        self.base + local
    }

    /// Hands sender `s` a new frame (backlogged stations).
    #[inline]
    fn offer(&mut self, s: usize, segment: &mut Segment, engine: &mut Engine<LanEvent>) {
        let Drawn::Backlogged { frame_bytes } = self.drawn else {
            return;
        };
        let frame = Frame {
            src: self.base + s,
            dst: self.destination(s),
            bytes: frame_bytes,
            tag: 0,
            pad: 0,
        };
        self.stats.arrived += 1;
        self.stats.arrived_bytes += frame_bytes as u64;
        self.enqueued += 1;
        segment.enqueue(frame, engine);
    }

    /// An event of this group.
    #[inline]
    pub fn handle(&mut self, ev: SourceEvent, segment: &mut Segment, engine: &mut Engine<LanEvent>) {
        match ev {
            SourceEvent::Arrival { station } => {
                self.on_arrival(station as usize - self.base, segment, engine)
            }
        }
    }

    /// A frame arrives at sender `s`'s queue, and its next arrival is scheduled.
    fn on_arrival(&mut self, s: usize, segment: &mut Segment, engine: &mut Engine<LanEvent>) {
        let Drawn::Open {
            mean_ns,
            interval,
            sizes,
            queue_frames,
        } = &self.drawn
        else {
            return;
        };
        let (mean_ns, interval, queue_frames) = (*mean_ns, *interval, *queue_frames);
        let now = engine.now();
        let bytes = sizes.draw(&mut self.rngs[s]);
        self.stats.arrived += 1;
        self.stats.arrived_bytes += bytes as u64;
        let station = self.base + s;
        if segment.queue_len(station) >= queue_frames {
            self.stats.queue_drops += 1;
        } else {
            let frame = Frame {
                src: station,
                dst: self.destination(s),
                bytes,
                tag: now.as_nanos(),
                pad: 0,
            };
            self.enqueued += 1;
            segment.enqueue(frame, engine);
        }
        let next = match interval {
            Some(exp) => exp.sample(&mut self.rngs[s]),
            None => mean_ns,
        };
        let station = station as u32;
        engine.schedule_in(ns(next), LanEvent::Source(SourceEvent::Arrival { station }));
    }

    /// The medium's indication for one of the group's stations: a sent frame's access
    /// delay is recorded (open loop); a backlogged station gets its next frame.
    #[inline]
    pub fn on_indication(&mut self, ind: Indication, segment: &mut Segment, engine: &mut Engine<LanEvent>) {
        match (ind, &self.drawn) {
            (Indication::Sent { frame }, Drawn::Open { .. }) => {
                self.stats.delay.record(engine.now().as_nanos() - frame.tag);
            }
            (Indication::Sent { frame } | Indication::Dropped { frame }, Drawn::Backlogged { .. }) => {
                self.offer(frame.src - self.base, segment, engine)
            }
            _ => {}
        }
    }
}

/// `x` ns rounded to a whole ns (the engine's resolution).
fn ns(x: f64) -> SimDuration {
    SimDuration::from_nanos(x.round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_mean_bytes_of_each_mix() {
        assert_eq!(Sizes::Fixed { bytes: 64 }.mean_bytes(), 64.0);
        assert_eq!(Sizes::Uniform { min: 64, max: 1518 }.mean_bytes(), 791.0);
        let bimodal = Sizes::Bimodal {
            small: 64,
            large: 1536,
            small_fraction: 0.5,
        };
        assert_eq!(bimodal.mean_bytes(), 800.0);
        let table = Sizes::Table {
            bytes: vec![64, 1518],
            weights: vec![3.0, 1.0],
        };
        assert_eq!(table.mean_bytes(), (3.0 * 64.0 + 1518.0) / 4.0);
    }

    #[test]
    fn test_groups_lie_one_after_another() {
        let group = |senders, destination| SourceConfig {
            senders,
            destination,
            offer: Offer::Backlogged { frame_bytes: 64 },
        };
        let groups = [
            group(4, Destination::Sink),
            group(3, Destination::RoundRobin),
            group(2, Destination::Sink),
        ];
        assert_eq!(bases(7, &groups), [7, 12, 15]);
        assert!(bases(7, &[]).is_empty());
    }

    #[test]
    fn test_a_sink_takes_one_station_more() {
        let mut cfg = SourceConfig {
            senders: 4,
            destination: Destination::Sink,
            offer: Offer::Backlogged { frame_bytes: 64 },
        };
        assert_eq!(cfg.stations(), 5);
        cfg.destination = Destination::RoundRobin;
        assert_eq!(cfg.stations(), 4);
        assert_eq!(cfg.mean_interarrival_ns(100), None);
    }

    /// The audit holds on a running group and catches a frame it did not hand over.
    #[test]
    fn test_the_audit_counts_every_frame_and_catches_a_stray_one() {
        use crate::ether::SegmentConfig;
        use crate::lan::SourceNet;
        let seg = SegmentConfig {
            positions_m: vec![0.0, 50.0, 100.0, 150.0],
            velocity_factor: 0.65,
            bit_ns: 100,
            corrupt_fraction: 0.0,
        };
        let cfg = SourceConfig {
            senders: 3,
            destination: Destination::Sink,
            offer: Offer::Open {
                arrivals: Arrivals::Poisson,
                offered_load: 1.5,
                sizes: Sizes::Fixed { bytes: 64 },
                queue_frames: 4,
            },
        };
        let mut engine: Engine<LanEvent> = Engine::new(11);
        let (mut net, segment) = SourceNet::segment_only(&seg, &engine);
        net.add_sources(cfg, 0, &mut engine);
        crate::engine::run_until(
            &mut net,
            &mut engine,
            crate::time::SimTime::from_nanos(20_000_000),
        );
        assert!(
            net.sources()[0].stats().queue_drops > 0,
            "overloaded: some queue overflows"
        );
        assert_eq!(net.audit_sources(), Vec::<String>::new());
        // a frame from a sender that the group did not hand over
        let stray = Frame {
            src: 0,
            dst: 3,
            bytes: 64,
            tag: 0,
            pad: 0,
        };
        segment.get_mut().enqueue(stray, &mut engine);
        let v = net.audit_sources();
        assert!(v.iter().any(|m| m.contains("which counted")), "{v:?}");
    }

    #[test]
    fn test_interarrival_gives_the_offered_load() {
        // 4 stations of 1000-byte frames offering half of 10 Mb/s: each offers 1.25 Mb/s,
        // one 8000-bit frame every 6.4 ms
        let cfg = SourceConfig {
            senders: 4,
            destination: Destination::Sink,
            offer: Offer::Open {
                arrivals: Arrivals::Poisson,
                offered_load: 0.5,
                sizes: Sizes::Fixed { bytes: 1000 },
                queue_frames: 16,
            },
        };
        assert_eq!(cfg.mean_interarrival_ns(100), Some(6_400_000.0));
    }
}
