//! The shared cable: where every transmission is, as seen from every station.
//!
//! Owns the record of recent transmissions and the stations' positions. A station's
//! position is kept as the propagation time from one end of the segment (integer ns), so
//! the delay between two stations is exact, symmetric and obeys the triangle equality.
//!
//! Carrier sense is computed on demand: the signal of transmission `x` is present at
//! station `s` during `[x.start + d, x.end + d)` with `d` the propagation delay between
//! `x.src` and `s`. This is exact (no per-station arrival events) and costs a scan of the
//! few transmissions still within reach of the present.
//!
//! Invariants: records are ordered by start time (ids increase with start); a record's
//! `end` only moves earlier (a collision truncates it to the end of the jam); a record is
//! pruned only when no station can still sense it and no pending reception depends on it.

use std::collections::VecDeque;

use super::consts::{INTERFRAME_GAP_BITS, PREAMBLE_SFD_BITS};
use super::frame::{Frame, StationId};
use crate::time::{SimDuration, SimTime};

/// Identifier of one transmission attempt on the medium.
pub type TxId = u64;

/// One transmission attempt, from the first preamble bit to the last bit (frame or jam).
#[derive(Clone, Debug)]
pub struct Transmission {
    pub id: TxId,
    pub src: StationId,
    pub start: SimTime,
    /// Last bit leaves the transmitter; moved earlier if a collision cuts the frame short.
    pub end: SimTime,
    pub frame: Frame,
    /// The transmitter detected a collision during this attempt.
    pub collided: bool,
    /// The frame was damaged on the wire: by fault injection (decided when it starts), or
    /// found overlapped at its receiver. It left without a collision but is not delivered.
    pub damaged: bool,
}

/// Another transmission that a new one will collide with, and when each side hears it.
#[derive(Clone, Copy, Debug)]
pub struct Overlap {
    pub other: TxId,
    pub other_src: StationId,
    /// When the other signal reaches the new transmitter.
    pub heard_by_me: SimTime,
    /// When the new signal reaches the other transmitter.
    pub heard_by_other: SimTime,
}

/// Busy-period accounting of the medium as a whole (global time at the transmitters).
///
/// Every busy period falls in exactly one class, so success + corrupted + collision +
/// idle time is the elapsed time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MediumTime {
    /// Time carrying a single transmission that was delivered intact (preamble + frame).
    /// A frame still on the wire at the horizon counts here unless already known damaged.
    pub success_ns: u64,
    /// Time carrying a single transmission, free of collision, that was damaged on the wire
    /// ([`Transmission::damaged`]): the wire was busy but nothing was delivered.
    pub corrupted_ns: u64,
    /// Time of busy periods that held a collision (fragments and jams).
    pub collision_ns: u64,
}

/// The shared segment as a physical object.
pub struct Medium {
    /// Propagation time from the segment's end to each station, ns.
    pos_ns: Vec<u64>,
    bit_ns: u64,
    ifg: SimDuration,
    max_prop: SimDuration,
    /// Longest transmission started so far (bounds how far back a scan must look).
    max_tx: SimDuration,
    txs: VecDeque<Transmission>,
    next_id: TxId,
    /// Busy-period accounting, fed by records as they are pruned (their ends are final).
    busy: BusyPeriods,
}

/// Folds transmissions, in start order, into busy periods and classifies each period.
#[derive(Clone, Debug, Default)]
struct BusyPeriods {
    start: SimTime,
    end: SimTime,
    txs: u32,
    clean: bool,
    /// The period's (single) transmission was damaged on the wire.
    damaged: bool,
    time: MediumTime,
    /// Time between busy periods (before the first included), measured gap by gap
    /// rather than as the remainder of the elapsed time.
    idle_ns: u64,
}

impl BusyPeriods {
    fn account(&mut self, start: SimTime, end: SimTime, collided: bool, damaged: bool) {
        if self.txs == 0 || start >= self.end {
            self.close();
            // `end` is that of the previous period (zero before the first)
            self.idle_ns += (start - self.end).as_nanos();
            self.start = start;
            self.end = end;
            self.txs = 1;
            self.clean = !collided;
            self.damaged = damaged;
        } else {
            self.end = self.end.max(end);
            self.txs += 1;
            self.clean = false;
        }
    }

    fn close(&mut self) {
        if self.txs == 0 {
            return;
        }
        let len = (self.end - self.start).as_nanos();
        if self.clean && self.txs == 1 {
            if self.damaged {
                self.time.corrupted_ns += len;
            } else {
                self.time.success_ns += len;
            }
        } else {
            self.time.collision_ns += len;
        }
        self.txs = 0;
    }
}

impl Medium {
    /// A medium with stations at `positions_m` (metres from one end), a signal velocity of
    /// `velocity_factor` x c and a bit time of `bit_ns` nanoseconds.
    pub fn new(positions_m: &[f64], velocity_factor: f64, bit_ns: u64) -> Self {
        let v = super::consts::SPEED_OF_LIGHT_M_PER_S * velocity_factor;
        let pos_ns: Vec<u64> = positions_m
            .iter()
            .map(|&m| (m / v * 1e9).round() as u64)
            .collect();
        let lo = pos_ns.iter().copied().min().unwrap_or(0);
        let hi = pos_ns.iter().copied().max().unwrap_or(0);
        Medium {
            pos_ns,
            bit_ns,
            ifg: SimDuration::from_nanos(INTERFRAME_GAP_BITS * bit_ns),
            max_prop: SimDuration::from_nanos(hi - lo),
            max_tx: SimDuration::ZERO,
            txs: VecDeque::with_capacity(64),
            next_id: 0,
            busy: BusyPeriods::default(),
        }
    }

    pub fn stations(&self) -> usize {
        self.pos_ns.len()
    }

    /// One bit time.
    #[inline]
    pub fn bit_time(&self) -> SimDuration {
        SimDuration::from_nanos(self.bit_ns)
    }

    /// `bits` bit times.
    #[inline]
    pub fn bits(&self, bits: u64) -> SimDuration {
        SimDuration::from_nanos(bits * self.bit_ns)
    }

    /// Propagation delay between two stations.
    #[inline]
    pub fn prop(&self, a: StationId, b: StationId) -> SimDuration {
        SimDuration::from_nanos(self.pos_ns[a].abs_diff(self.pos_ns[b]))
    }

    /// Propagation time from the segment's end (position 0 m) to station `s`.
    #[inline]
    pub fn position_ns(&self, s: StationId) -> SimDuration {
        SimDuration::from_nanos(self.pos_ns[s])
    }

    /// Largest propagation delay between any two stations.
    pub fn max_prop(&self) -> SimDuration {
        self.max_prop
    }

    /// Time on the wire of a frame: preamble + SFD + padded frame.
    #[inline]
    pub fn frame_time(&self, frame: &Frame) -> SimDuration {
        self.bits(PREAMBLE_SFD_BITS + 8 * frame.wire_bytes() as u64)
    }

    /// How far back (before `t`) a record can start and still matter at or after `t`.
    #[inline]
    fn reach(&self) -> SimDuration {
        self.max_tx + self.max_prop
    }

    /// The transmission with id `id`, if still recorded.
    pub fn get(&self, id: TxId) -> Option<&Transmission> {
        let front = self.txs.front()?.id;
        self.txs.get(id.checked_sub(front)? as usize)
    }

    fn get_mut(&mut self, id: TxId) -> Option<&mut Transmission> {
        let front = self.txs.front()?.id;
        self.txs.get_mut(id.checked_sub(front)? as usize)
    }

    /// Records that may still be heard at or after `since`, newest first.
    fn recent(&self, since: SimTime) -> impl Iterator<Item = &Transmission> {
        let reach = self.reach();
        self.txs
            .iter()
            .rev()
            .take_while(move |x| x.start + reach >= since)
    }

    /// Is carrier sensed at station `s` at time `t`? A signal present at `s` during
    /// `[a, b)` is sensed during `(a, b]`: a signal arriving at the very instant a station
    /// decides is not yet sensed. This makes the outcome independent of the order in which
    /// simultaneous events are dispatched (two stations at the same point that start at the
    /// same instant collide, whichever is dispatched first).
    pub fn carrier_at(&self, s: StationId, t: SimTime) -> bool {
        self.recent(t).any(|x| {
            let d = self.prop(x.src, s);
            x.start + d < t && t <= x.end + d
        })
    }

    /// The earliest time `T >= t` at which station `s` may start to transmit: no carrier
    /// was sensed at `s` during `(T - IFG, T]` (802.3 4.2.3.2.1 deference, including after
    /// its own frames; sensing as in [`Medium::carrier_at`]).
    /// Signals that have not reached `s` by `T` are not sensed: that is the vulnerable
    /// window in which collisions happen.
    pub fn clear_time(&self, s: StationId, t: SimTime) -> SimTime {
        let mut when = t;
        loop {
            let window_start = SimTime::from_nanos(when.as_nanos().saturating_sub(self.ifg.as_nanos()));
            let mut moved = false;
            for x in self.recent(window_start) {
                let d = self.prop(x.src, s);
                let (a, b) = (x.start + d, x.end + d);
                if a < when && b > window_start {
                    let next = b + self.ifg;
                    if next > when {
                        when = next;
                        moved = true;
                    }
                }
            }
            if !moved {
                return when;
            }
        }
    }

    /// Records a transmission by `src` starting now; returns its id.
    pub fn start(&mut self, src: StationId, now: SimTime, frame: Frame) -> TxId {
        let dur = self.frame_time(&frame);
        self.max_tx = self.max_tx.max(dur);
        self.prune(now);
        let id = self.next_id;
        self.next_id += 1;
        self.txs.push_back(Transmission {
            id,
            src,
            start: now,
            end: now + dur,
            frame,
            collided: false,
            damaged: false,
        });
        id
    }

    /// Other transmissions whose signal will still be present at `src`'s position at or
    /// after `now`: `(other tx, other src, when src hears it, when the other hears src)`.
    /// Fills `out` (cleared first).
    pub fn overlapping(&self, id: TxId, out: &mut Vec<Overlap>) {
        out.clear();
        let Some(me) = self.get(id) else { return };
        out.extend(
            self.recent(me.start)
                .filter(|x| x.id != id && x.src != me.src)
                .filter_map(|x| {
                    let d = self.prop(x.src, me.src);
                    (x.end + d > me.start).then(|| Overlap {
                        other: x.id,
                        other_src: x.src,
                        heard_by_me: (x.start + d).max(me.start),
                        heard_by_other: me.start + d,
                    })
                }),
        );
    }

    /// A collision cut transmission `id` short: it now ends at `end`.
    pub fn truncate(&mut self, id: TxId, end: SimTime) {
        if let Some(x) = self.get_mut(id) {
            x.collided = true;
            if end < x.end {
                x.end = end;
            }
        }
    }

    /// Transmission `id` was damaged on the wire (see [`Transmission::damaged`]).
    pub fn damage(&mut self, id: TxId) {
        if let Some(x) = self.get_mut(id) {
            x.damaged = true;
        }
    }

    /// Did transmission `id` reach station `dst` intact: no other signal overlapped it at
    /// `dst` (which includes `dst`'s own transmissions: the MAC is half duplex)?
    pub fn intact_at(&self, id: TxId, dst: StationId) -> bool {
        let Some(me) = self.get(id) else { return false };
        if me.collided {
            return false;
        }
        let d = self.prop(me.src, dst);
        let (a, b) = (me.start + d, me.end + d);
        !self.recent(a).any(|x| {
            if x.id == id {
                return false;
            }
            let dx = self.prop(x.src, dst);
            x.start + dx < b && x.end + dx > a
        })
    }

    /// Drops records that nothing can sense or query any more, folding them into the
    /// busy-period accounting.
    fn prune(&mut self, now: SimTime) {
        // A reception is checked at `end + prop`, looking back one transmission and two
        // propagation delays; deference looks back one IFG.
        let keep = self.max_tx + self.max_prop * 3 + self.ifg;
        while let Some(front) = self.txs.front() {
            if front.end + keep >= now {
                break;
            }
            let x = self.txs.pop_front().expect("front exists");
            self.busy.account(x.start, x.end, x.collided, x.damaged);
        }
    }

    /// Busy periods up to `horizon` (records still held are counted up to it).
    fn periods_until(&self, horizon: SimTime) -> BusyPeriods {
        let mut busy = self.busy.clone();
        for x in self.txs.iter().take_while(|x| x.start < horizon) {
            busy.account(x.start, x.end.min(horizon), x.collided, x.damaged);
        }
        busy.close();
        busy
    }

    /// Busy-period totals up to `horizon`.
    pub fn time_split(&self, horizon: SimTime) -> MediumTime {
        self.periods_until(horizon).time
    }

    /// Idle time up to `horizon`, ns: the gaps between busy periods, measured one by one
    /// (not the remainder of the elapsed time), so that success, corrupted, collision and idle time
    /// sum to the elapsed time only if the busy periods tile the timeline without overlap.
    pub fn idle_ns(&self, horizon: SimTime) -> u64 {
        let p = self.periods_until(horizon);
        p.idle_ns + (horizon - p.end).as_nanos()
    }

    /// Number of transmission records held (bounded: memory does not grow with time).
    pub fn records_held(&self) -> usize {
        self.txs.len()
    }

    /// Iterates over the records still held (oldest first).
    pub fn records(&self) -> impl Iterator<Item = &Transmission> {
        self.txs.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(src: StationId, bytes: u32) -> Frame {
        Frame {
            src,
            dst: 1 - src,
            bytes,
            tag: 0,
            pad: 0,
        }
    }

    #[test]
    fn test_propagation_185m_thin_coax() {
        let m = Medium::new(&[0.0, 185.0], 0.65, 100);
        // 185 / (0.65 * 299792458) s = 949.37 ns, rounded to 949
        assert_eq!(m.prop(0, 1).as_nanos(), 949);
        assert_eq!(m.prop(1, 0), m.prop(0, 1));
    }

    #[test]
    fn test_carrier_arrives_after_propagation() {
        let mut m = Medium::new(&[0.0, 185.0], 0.65, 100);
        m.start(0, SimTime::ZERO, frame(0, 64));
        assert!(m.carrier_at(0, SimTime::from_nanos(1)));
        assert!(!m.carrier_at(1, SimTime::from_nanos(949)));
        assert!(m.carrier_at(1, SimTime::from_nanos(950)));
        // 64-byte frame + preamble = 576 bits = 57.6 us
        assert!(m.carrier_at(1, SimTime::from_nanos(57_600 + 949)));
        assert!(!m.carrier_at(1, SimTime::from_nanos(57_600 + 950)));
    }

    #[test]
    fn test_clear_time_waits_ifg_after_carrier() {
        let mut m = Medium::new(&[0.0, 185.0], 0.65, 100);
        m.start(0, SimTime::ZERO, frame(0, 64));
        // station 1 hears the frame until 58_549, then waits 9.6 us
        assert_eq!(
            m.clear_time(1, SimTime::from_nanos(1_000)).as_nanos(),
            58_549 + 9_600
        );
        // until the signal arrives, station 1 is clear to send (vulnerable window)
        assert_eq!(m.clear_time(1, SimTime::from_nanos(949)).as_nanos(), 949);
        // the sender itself waits an IFG after its own frame
        assert_eq!(
            m.clear_time(0, SimTime::from_nanos(57_600)).as_nanos(),
            57_600 + 9_600
        );
    }
}
