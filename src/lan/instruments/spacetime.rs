//! The space-time diagram's data: what of a run's observation stream falls in a time
//! window, as plain data for [`super::spacetime_draw`]. An [`Observer`].
//!
//! [`SpaceTimeRecorder`] reads the same stream as the pcap writer and the event log (no
//! instrumentation of its own) and keeps, for the window `[from, to)`:
//! - each transmission whose signal is on the cable somewhere in the window, as [`Band`]s
//!   at its sender: the frame (or the part of it sent before the jam, when it collided)
//!   and the jam;
//! - the marks at each station ([`Mark`]): deferral to a sensed carrier, collision
//!   detected, each backoff with its attempt and the slots drawn, a frame dropped.
//!
//! Invariants: memory is bounded by the window, not the run: only the transmissions still
//! on the wire (a handful) are held before `from`, and a window longer than
//! [`MAX_WINDOW`] or holding more than [`MAX_TRANSMISSIONS`] transmissions is refused
//! (the picture would be unreadable). Times are simulated instants (integer ns); positions
//! are metres from one end of the segment.

use crate::ether::consts::SPEED_OF_LIGHT_M_PER_S;
use crate::ether::medium::TxId;
use crate::ether::{SegmentConfig, StationId, WireEvent};
use crate::lan::observe::{Observation, Observer};
use crate::time::{SimDuration, SimTime};

/// The longest window drawn: beyond it a 64-byte frame (57.6 µs with its preamble) is a
/// sliver and the marks run into each other.
pub const MAX_WINDOW: SimDuration = SimDuration::from_millis(5);

/// The most transmissions drawn in one window.
pub const MAX_TRANSMISSIONS: usize = 400;

/// Why a trace cannot be drawn.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum TraceError {
    #[error("the trace window is empty: --to ({to_ns} ns) must be after --from ({from_ns} ns)")]
    Empty { from_ns: u64, to_ns: u64 },
    #[error(
        "the trace window is {len_us:.1} µs long, over the limit of {} µs: the diagram would be unreadable; choose a shorter window",
        MAX_WINDOW.as_nanos() / 1000
    )]
    TooLong { len_us: f64 },
    #[error(
        "the trace window holds more than {MAX_TRANSMISSIONS} transmissions (the limit for a readable diagram); choose a shorter window"
    )]
    TooMany,
}

/// The time window of a diagram, `[from, to)`, checked against the limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    from: SimTime,
    to: SimTime,
}

impl Window {
    /// A window from `from` to `to`: `to` after `from`, at most [`MAX_WINDOW`] long.
    pub fn new(from: SimTime, to: SimTime) -> Result<Self, TraceError> {
        if to <= from {
            return Err(TraceError::Empty {
                from_ns: from.as_nanos(),
                to_ns: to.as_nanos(),
            });
        }
        let len = to.saturating_since(from);
        if len > MAX_WINDOW {
            return Err(TraceError::TooLong {
                len_us: len.as_micros_f64(),
            });
        }
        Ok(Window { from, to })
    }

    pub fn from(&self) -> SimTime {
        self.from
    }

    pub fn to(&self) -> SimTime {
        self.to
    }

    /// Its length.
    pub fn len(&self) -> SimDuration {
        self.to.saturating_since(self.from)
    }

    /// Always false: a window is never empty (kept for clippy's `len_without_is_empty`).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Whether `[a, b]` meets the window.
    fn meets(&self, a: SimTime, b: SimTime) -> bool {
        a < self.to && b >= self.from
    }
}

/// What a band of signal is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BandKind {
    /// A frame sent whole (or still being sent when the run ended).
    Frame,
    /// The part of a frame sent before its jam: it collided.
    Collided,
    /// The 32-bit jam after a collision.
    Jam,
}

/// A signal put on the cable by `station` from `start` to `end` (at the sender); it
/// reaches a point `d` metres away `d / velocity` later.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Band {
    pub station: StationId,
    pub start: SimTime,
    pub end: SimTime,
    pub kind: BandKind,
    /// Attempt number of the frame (1..=16).
    pub attempt: u32,
}

/// Something that happened at one station.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A ready frame waited for the carrier it sensed (or the IFG after it) until `until`.
    Defer {
        station: StationId,
        at: SimTime,
        until: SimTime,
    },
    /// The station detected a collision.
    Collision { station: StationId, at: SimTime },
    /// After collision number `attempt`, the station waits `slots` slot times until `until`.
    Backoff {
        station: StationId,
        at: SimTime,
        until: SimTime,
        attempt: u32,
        slots: u64,
    },
    /// A frame dropped after `attempts` collisions.
    Drop {
        station: StationId,
        at: SimTime,
        attempts: u32,
    },
}

/// Everything a diagram shows.
#[derive(Clone, Debug, PartialEq)]
pub struct SpaceTime {
    pub window: Window,
    /// Each station's position, metres from one end.
    pub positions_m: Vec<f64>,
    /// Propagation delay per metre, ns (1 / the signal's velocity).
    pub ns_per_m: f64,
    /// In order of their start (then of their end).
    pub bands: Vec<Band>,
    /// In the order the stream gave them.
    pub marks: Vec<Mark>,
}

impl SpaceTime {
    /// The ends of the segment: the outermost stations (and 0 m).
    pub fn extent_m(&self) -> (f64, f64) {
        let lo = self.positions_m.iter().copied().fold(0.0f64, f64::min);
        let hi = self.positions_m.iter().copied().fold(0.0f64, f64::max);
        (lo, hi)
    }

    /// The vulnerable window of a transmission by `station`: the time its signal takes to
    /// reach the farthest end of the segment. Until then a station there can still start
    /// without sensing it, and collide.
    pub fn vulnerable(&self, station: StationId) -> SimDuration {
        let (lo, hi) = self.extent_m();
        let x = self.positions_m[station];
        SimDuration::from_nanos_f64((x - lo).max(hi - x) * self.ns_per_m)
    }

    /// The collision detection marks, `(station, at)`, in stream order.
    pub fn collisions(&self) -> Vec<(StationId, SimTime)> {
        self.marks
            .iter()
            .filter_map(|m| match *m {
                Mark::Collision { station, at } => Some((station, at)),
                _ => None,
            })
            .collect()
    }
}

/// A transmission still on the wire: its id, sender, start and attempt.
#[derive(Clone, Copy, Debug)]
struct Open {
    tx: TxId,
    station: StationId,
    start: SimTime,
    attempt: u32,
}

/// Collects a [`SpaceTime`] from an observation stream.
pub struct SpaceTimeRecorder {
    st: SpaceTime,
    open: Vec<Open>,
    /// The longest propagation on the segment: how long a signal stays on the cable
    /// after its sender stops.
    reach: SimDuration,
    too_many: bool,
}

impl SpaceTimeRecorder {
    /// A recorder of `window` on the segment `seg`.
    pub fn new(seg: &SegmentConfig, window: Window) -> Self {
        let ns_per_m = 1e9 / (SPEED_OF_LIGHT_M_PER_S * seg.velocity_factor);
        let st = SpaceTime {
            window,
            positions_m: seg.positions_m.clone(),
            ns_per_m,
            bands: Vec::new(),
            marks: Vec::new(),
        };
        let (lo, hi) = st.extent_m();
        SpaceTimeRecorder {
            reach: SimDuration::from_nanos_f64((hi - lo) * ns_per_m),
            st,
            open: Vec::new(),
            too_many: false,
        }
    }

    fn band(&mut self, o: Open, end: SimTime, kind: BandKind) {
        if !self.st.window.meets(o.start, end + self.reach) {
            return;
        }
        if kind != BandKind::Jam && self.transmissions() >= MAX_TRANSMISSIONS {
            self.too_many = true;
            return;
        }
        self.st.bands.push(Band {
            station: o.station,
            start: o.start,
            end,
            kind,
            attempt: o.attempt,
        });
    }

    fn transmissions(&self) -> usize {
        self.st.bands.iter().filter(|b| b.kind != BandKind::Jam).count()
    }

    fn close(&mut self, tx: TxId) -> Option<Open> {
        let i = self.open.iter().position(|o| o.tx == tx)?;
        Some(self.open.swap_remove(i))
    }

    fn mark(&mut self, m: Mark) {
        self.st.marks.push(m);
    }

    /// The diagram, once the run has ended at `end`: a transmission still going is drawn
    /// up to `end`.
    pub fn finish(mut self, end: SimTime) -> Result<SpaceTime, TraceError> {
        let mut open = std::mem::take(&mut self.open);
        open.sort_by_key(|o| (o.start, o.tx));
        for o in open {
            self.band(o, end.max(o.start), BandKind::Frame);
        }
        if self.too_many {
            return Err(TraceError::TooMany);
        }
        self.st.bands.sort_by_key(|b| (b.start, b.end, b.station));
        Ok(self.st)
    }
}

impl Observer for SpaceTimeRecorder {
    fn observe(&mut self, o: &Observation) {
        let Observation::Wire { ev, .. } = o else {
            return;
        };
        let w = self.st.window;
        match *ev {
            WireEvent::TxStart {
                at,
                station,
                tx,
                attempt,
                ..
            } if at < w.to() => self.open.push(Open {
                tx,
                station,
                start: at,
                attempt,
            }),
            WireEvent::Success { at, tx, .. } => {
                if let Some(o) = self.close(tx) {
                    self.band(o, at, BandKind::Frame);
                }
            }
            WireEvent::Jam { at, tx, until, .. } => {
                if let Some(o) = self.close(tx) {
                    self.band(o, at, BandKind::Collided);
                    self.band(Open { start: at, ..o }, until, BandKind::Jam);
                }
            }
            WireEvent::Collision { at, station, .. } if w.meets(at, at) => {
                self.mark(Mark::Collision { station, at })
            }
            WireEvent::Defer { at, station, until } if w.meets(at, until) => {
                self.mark(Mark::Defer { station, at, until })
            }
            WireEvent::Backoff {
                at,
                station,
                attempt,
                slots,
                until,
            } if w.meets(at, until) => self.mark(Mark::Backoff {
                station,
                at,
                until,
                attempt,
                slots,
            }),
            WireEvent::Drop {
                at,
                station,
                attempts,
                ..
            } if w.meets(at, at) => self.mark(Mark::Drop {
                station,
                at,
                attempts,
            }),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_window_refuses_empty_and_too_long() {
        let t = SimTime::from_nanos;
        assert!(matches!(Window::new(t(5), t(5)), Err(TraceError::Empty { .. })));
        assert!(matches!(
            Window::new(t(0), t(5_000_001)),
            Err(TraceError::TooLong { .. })
        ));
        let w = Window::new(t(0), t(5_000_000)).expect("5 ms is allowed");
        assert_eq!(w.len(), MAX_WINDOW);
        let msg = Window::new(t(0), t(6_000_000)).unwrap_err().to_string();
        assert!(msg.contains("limit of 5000 µs"), "{msg}");
    }

    fn seg_185m() -> SegmentConfig {
        SegmentConfig {
            positions_m: vec![0.0, 185.0, 185.0],
            velocity_factor: 0.65,
            bit_ns: 100,
            corrupt_fraction: 0.0,
        }
    }

    fn wire(ev: WireEvent) -> Observation {
        Observation::Wire {
            ev,
            content: crate::lan::observe::Content::Opaque,
        }
    }

    #[test]
    fn test_recorder_refuses_too_many_transmissions() {
        let w = Window::new(SimTime::ZERO, SimTime::from_nanos(5_000_000)).expect("window");
        let mut r = SpaceTimeRecorder::new(&seg_185m(), w);
        let frame = crate::ether::Frame {
            src: 0,
            dst: 2,
            bytes: 64,
            tag: 0,
            pad: 0,
        };
        for tx in 0..=MAX_TRANSMISSIONS as u64 {
            let at = SimTime::from_nanos(tx * 10_000);
            r.observe(&wire(WireEvent::TxStart {
                at,
                station: 0,
                tx,
                frame,
                attempt: 1,
                damaged: false,
            }));
            r.observe(&wire(WireEvent::Success {
                at: at + SimDuration::from_nanos(5_000),
                station: 0,
                tx,
                frame,
            }));
        }
        assert_eq!(r.finish(SimTime::from_nanos(5_000_000)), Err(TraceError::TooMany));
    }

    #[test]
    fn test_recorder_keeps_what_meets_the_window() {
        let t = SimTime::from_nanos;
        let w = Window::new(t(10_000), t(20_000)).expect("window");
        let mut r = SpaceTimeRecorder::new(&seg_185m(), w);
        let frame = crate::ether::Frame {
            src: 0,
            dst: 2,
            bytes: 64,
            tag: 0,
            pad: 0,
        };
        // ends at 9.5 us at the sender, still on the cable at 10 us (949 ns to the far end)
        let starts = [(0, 0, 9_500), (1, 12_000, 30_000), (2, 25_000, 26_000)];
        for (tx, a, b) in starts {
            r.observe(&wire(WireEvent::TxStart {
                at: t(a),
                station: 0,
                tx,
                frame,
                attempt: 1,
                damaged: false,
            }));
            r.observe(&wire(WireEvent::Success {
                at: t(b),
                station: 0,
                tx,
                frame,
            }));
        }
        r.observe(&wire(WireEvent::Collision {
            at: t(9_000),
            station: 1,
            tx: 9,
        }));
        let st = r.finish(t(30_000)).expect("diagram");
        let kept: Vec<u64> = st.bands.iter().map(|b| b.start.as_nanos()).collect();
        assert_eq!(kept, vec![0, 12_000]);
        assert!(st.marks.is_empty(), "a mark before the window is not kept");
    }

    #[test]
    fn test_vulnerable_window_is_the_farthest_propagation() {
        let seg = seg_185m();
        let w = Window::new(SimTime::ZERO, SimTime::from_nanos(1000)).expect("window");
        let st = SpaceTimeRecorder::new(&seg, w)
            .finish(SimTime::ZERO)
            .expect("empty");
        assert_eq!(st.vulnerable(0).as_nanos(), 949);
        assert_eq!(st.vulnerable(1).as_nanos(), 949);
    }
}
