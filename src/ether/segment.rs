//! One collision domain: the medium plus the MAC of every station on it.
//!
//! Owns the CSMA/CD transitions (802.3 4.2.3.2): 1-persistent deference with the
//! interframe gap, transmission, collision detection, jam, truncated binary exponential
//! backoff and the 16-attempt limit; and reception, which succeeds only at stations where
//! no other signal overlapped the frame.
//!
//! The segment is generic over the simulation's event type `E: From<EtherEvent>`, so the
//! layers above embed [`EtherEvent`] in their own event enum. Results for the MAC client
//! (frame sent, dropped, received) are pushed as [`Indication`]s that the caller drains
//! after each event.
//!
//! Collision detection: a transmitting station detects a collision the instant another
//! signal reaches it. Following the formal description (4.2.8, `BitTransmitter`), the
//! preamble and SFD are always sent in full, so the jam starts at the later of detection
//! and the end of the preamble, and lasts 32 bits.

use super::backoff::draw_backoff_slots;
use super::consts::{ATTEMPT_LIMIT, INTERFRAME_GAP_BITS, JAM_BITS, PREAMBLE_SFD_BITS, SLOT_TIME_BITS};
use super::frame::{Frame, StationId};
use super::mac::{Mac, MacState};
use super::medium::{Medium, Overlap, TxId};
use super::observe::WireEvent;
use super::report::{CaptureStats, EtherReport};
use crate::engine::{Engine, RngStreams, SimRng, StreamKind};
use crate::time::{SimDuration, SimTime};
use rand::RngExt;

/// What a station's MAC reacts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MacEvent {
    /// The deference timer: the carrier should have been clear for an IFG by now.
    DeferEnd,
    /// The last bit of the frame has been sent.
    TxEnd,
    /// Another station's signal reaches this (transmitting) station.
    CollisionSense,
    /// The jam is over.
    JamEnd,
    /// The backoff delay is over.
    BackoffEnd,
}

/// Events of the Ethernet layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EtherEvent {
    /// A timer or signal for one station's MAC; stale unless `gen` is the station's current one.
    Mac {
        station: StationId,
        gen: u32,
        event: MacEvent,
    },
    /// The last bit of transmission `tx` reaches station `dst`.
    RxEnd { tx: TxId, dst: StationId },
    /// The last bit of the frame `station` is sending on a point-to-point link
    /// ([`super::link::Link`]) has left; never raised on a CSMA/CD segment.
    LinkTxEnd { station: StationId },
}

/// What the segment tells the MAC clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Indication {
    /// `frame` left its station without a collision; its buffer is free.
    Sent { frame: Frame },
    /// `frame` was discarded after 16 attempts (excessive collisions).
    Dropped { frame: Frame },
    /// `frame` arrived intact at its destination.
    Received { frame: Frame },
    /// `frame` was sent but arrived damaged (overlap or injected bit error) and was discarded
    /// by the receiver's FCS check.
    Corrupted { frame: Frame },
}

/// Physical description of a segment.
#[derive(Clone, Debug, PartialEq)]
pub struct SegmentConfig {
    /// Station positions, metres from one end.
    pub positions_m: Vec<f64>,
    /// Signal speed as a fraction of c.
    pub velocity_factor: f64,
    /// Bit time in ns (100 at 10 Mb/s).
    pub bit_ns: u64,
    /// Fraction of otherwise intact frames damaged on the wire (fault injection), 0..1.
    pub corrupt_fraction: f64,
}

/// The medium and the MACs of all stations on it.
pub struct Segment {
    medium: Medium,
    macs: Vec<Mac>,
    preamble: SimDuration,
    jam: SimDuration,
    slot: SimDuration,
    ifg: SimDuration,
    /// End of each station's last own transmission (frame or jam).
    own_end: Vec<SimTime>,
    corrupt_fraction: f64,
    fault_rng: SimRng,
    out: Vec<Indication>,
    scratch: Vec<Overlap>,
    capture: CaptureStats,
    /// Span `[a, b)` at each station of the last frame it received intact.
    last_rx: Vec<(SimTime, SimTime)>,
    /// Intact receptions that overlapped the previous one at the same station (must stay 0).
    rx_overlaps: u64,
    /// Observations waiting to be drained, when observation is on ([`Segment::observe`]).
    tap: Option<Vec<WireEvent>>,
}

impl Segment {
    pub fn new(cfg: &SegmentConfig, rngs: &RngStreams) -> Self {
        let n = cfg.positions_m.len();
        let medium = Medium::new(&cfg.positions_m, cfg.velocity_factor, cfg.bit_ns);
        Segment {
            preamble: medium.bits(PREAMBLE_SFD_BITS),
            jam: medium.bits(JAM_BITS),
            slot: medium.bits(SLOT_TIME_BITS),
            ifg: medium.bits(INTERFRAME_GAP_BITS),
            medium,
            macs: (0..n)
                .map(|i| Mac::new(rngs.stream(StreamKind::Backoff, i as u64)))
                .collect(),
            own_end: vec![SimTime::ZERO; n],
            corrupt_fraction: cfg.corrupt_fraction,
            fault_rng: rngs.stream(StreamKind::Faults, 0),
            out: Vec::with_capacity(8),
            scratch: Vec::with_capacity(8),
            capture: CaptureStats::default(),
            last_rx: vec![(SimTime::ZERO, SimTime::ZERO); n],
            rx_overlaps: 0,
            tap: None,
        }
    }

    /// Turns observation on: from now on every MAC decision is recorded as a
    /// [`WireEvent`], to be collected with [`Segment::drain_observed`] after each event.
    pub fn observe(&mut self) {
        self.tap.get_or_insert_with(|| Vec::with_capacity(16));
    }

    /// Moves the recorded observations into `out` (appending), oldest first.
    pub fn drain_observed(&mut self, out: &mut Vec<WireEvent>) {
        if let Some(t) = &mut self.tap {
            out.append(t);
        }
    }

    #[inline]
    fn record(&mut self, ev: WireEvent) {
        if let Some(t) = &mut self.tap {
            t.push(ev);
        }
    }

    pub fn medium(&self) -> &Medium {
        &self.medium
    }

    pub fn stations(&self) -> usize {
        self.macs.len()
    }

    pub fn mac(&self, s: StationId) -> &Mac {
        &self.macs[s]
    }

    /// Frames queued at station `s`, the one in progress included.
    pub fn queue_len(&self, s: StationId) -> usize {
        self.macs[s].queue.len()
    }

    /// Moves the pending indications into `buf` (appending).
    pub fn drain_indications(&mut self, buf: &mut Vec<Indication>) {
        buf.append(&mut self.out);
    }

    /// The client of station `frame.src` hands a frame to its MAC.
    pub fn enqueue<E: From<EtherEvent>>(&mut self, frame: Frame, eng: &mut Engine<E>) {
        let s = frame.src;
        let mac = &mut self.macs[s];
        mac.stats.frames_offered += 1;
        mac.queue.push_back(frame);
        if mac.state == MacState::Idle {
            mac.head_since = eng.now();
            self.try_transmit(s, eng);
        }
    }

    /// Handles one Ethernet event at `eng.now()`.
    pub fn handle<E: From<EtherEvent>>(&mut self, ev: EtherEvent, eng: &mut Engine<E>) {
        match ev {
            EtherEvent::Mac { station, gen, event } => {
                if self.macs[station].gen != gen {
                    return; // a timer made stale by a later transition
                }
                self.on_mac_event(station, event, eng);
            }
            EtherEvent::RxEnd { tx, dst } => self.on_rx_end(tx, dst, eng.now()),
            EtherEvent::LinkTxEnd { .. } => {
                unreachable!("a point-to-point link event on a CSMA/CD segment: {ev:?}")
            }
        }
    }

    fn on_mac_event<E: From<EtherEvent>>(&mut self, s: StationId, event: MacEvent, eng: &mut Engine<E>) {
        let state = self.macs[s].state;
        match (state, event) {
            (MacState::Deferring { .. }, MacEvent::DeferEnd) => self.try_transmit(s, eng),
            (MacState::Backoff { .. }, MacEvent::BackoffEnd) => self.try_transmit(s, eng),
            (MacState::Transmitting { tx, end }, MacEvent::TxEnd) => self.transmit_ok(s, tx, end, eng),
            (MacState::Transmitting { tx, .. }, MacEvent::CollisionSense) => self.start_jam(s, tx, eng),
            (MacState::Jamming { .. }, MacEvent::JamEnd) => self.jam_over(s, eng),
            (state, event) => {
                unreachable!("station {s}: event {event:?} in state {state} with a current timer")
            }
        }
    }

    fn schedule<E: From<EtherEvent>>(
        eng: &mut Engine<E>,
        at: SimTime,
        station: StationId,
        gen: u32,
        event: MacEvent,
    ) {
        eng.schedule(at, EtherEvent::Mac { station, gen, event });
    }

    /// The head frame is ready: send now if the carrier has been clear for an IFG, else defer.
    fn try_transmit<E: From<EtherEvent>>(&mut self, s: StationId, eng: &mut Engine<E>) {
        let now = eng.now();
        let clear = self.medium.clear_time(s, now);
        if clear == now {
            return self.start_transmission(s, eng);
        }
        let mac = &mut self.macs[s];
        if !matches!(mac.state, MacState::Deferring { .. }) && clear > (self.own_end[s] + self.ifg).max(now) {
            mac.stats.deferrals += 1; // waiting for somebody else's carrier, not just our own IFG
        }
        let gen = mac.enter(MacState::Deferring { wake: clear });
        Self::schedule(eng, clear, s, gen, MacEvent::DeferEnd);
        self.record(WireEvent::Defer {
            at: now,
            station: s,
            until: clear,
        });
    }

    fn start_transmission<E: From<EtherEvent>>(&mut self, s: StationId, eng: &mut Engine<E>) {
        let now = eng.now();
        let frame = *self.macs[s]
            .queue
            .front()
            .expect("transmitting with an empty queue");
        let tx = self.medium.start(s, now, frame);
        // Fault injection is decided as the frame starts, so that a frame still on the wire
        // at the horizon is already classed (its time is corrupted, not successful).
        let damaged = self.corrupt_fraction > 0.0 && self.fault_rng.random::<f64>() < self.corrupt_fraction;
        if damaged {
            self.medium.damage(tx);
        }
        let attempt = self.macs[s].attempts + 1;
        self.record(WireEvent::TxStart {
            at: now,
            station: s,
            tx,
            frame,
            attempt,
            damaged,
        });
        let end = now + self.medium.frame_time(&frame);
        let gen = self.macs[s].enter(MacState::Transmitting { tx, end });
        Self::schedule(eng, end, s, gen, MacEvent::TxEnd);

        // Signals already on their way collide with ours: each side detects the other's on arrival.
        self.medium.overlapping(tx, &mut self.scratch);
        let mut first_heard: Option<SimTime> = None;
        for o in &self.scratch {
            if o.heard_by_me < end {
                first_heard = Some(first_heard.map_or(o.heard_by_me, |t| t.min(o.heard_by_me)));
            }
            let other = &self.macs[o.other_src];
            if let MacState::Transmitting { tx: otx, end: oend } = other.state {
                if otx == o.other && o.heard_by_other < oend {
                    Self::schedule(
                        eng,
                        o.heard_by_other,
                        o.other_src,
                        other.gen,
                        MacEvent::CollisionSense,
                    );
                }
            }
        }
        if let Some(t) = first_heard {
            Self::schedule(eng, t, s, gen, MacEvent::CollisionSense);
        }
    }

    fn start_jam<E: From<EtherEvent>>(&mut self, s: StationId, tx: TxId, eng: &mut Engine<E>) {
        let now = eng.now();
        let start = self.medium.get(tx).expect("own transmission is recorded").start;
        let jam_from = now.max(start + self.preamble);
        let until = jam_from + self.jam;
        self.medium.truncate(tx, until);
        self.record(WireEvent::Collision {
            at: now,
            station: s,
            tx,
        });
        self.record(WireEvent::Jam {
            at: jam_from,
            station: s,
            tx,
            until,
        });
        self.own_end[s] = until;
        let mac = &mut self.macs[s];
        mac.attempts += 1;
        mac.stats.collisions += 1;
        mac.stats.collisions_by_attempt[(mac.attempts - 1) as usize] += 1;
        let gen = mac.enter(MacState::Jamming { tx, until });
        Self::schedule(eng, until, s, gen, MacEvent::JamEnd);
        self.redefer_waiting(s, until, eng);
    }

    /// The transmission of `src` was cut short to end at `until`: stations deferring to it
    /// may be clear earlier.
    ///
    /// A deferring station's `wake` is never later than its clear time on the current
    /// records (it was one when set; new records only push the clear time later, and every
    /// truncation comes through here). Truncation only uncovers instants from
    /// `until + prop + IFG` on at the station, so a clear time earlier than `wake` lies at
    /// or after that instant; a station whose `wake` is not later cannot move and is
    /// skipped without the scan of [`Medium::clear_time`].
    fn redefer_waiting<E: From<EtherEvent>>(&mut self, src: StationId, until: SimTime, eng: &mut Engine<E>) {
        let now = eng.now();
        for s in 0..self.macs.len() {
            if let MacState::Deferring { wake } = self.macs[s].state {
                if wake <= until + self.medium.prop(src, s) + self.ifg {
                    debug_assert!(
                        self.medium.clear_time(s, now) >= wake,
                        "station {s}: skipped a re-deferral"
                    );
                    continue;
                }
                let clear = self.medium.clear_time(s, now);
                if clear < wake {
                    let gen = self.macs[s].enter(MacState::Deferring { wake: clear });
                    Self::schedule(eng, clear, s, gen, MacEvent::DeferEnd);
                    self.record(WireEvent::Defer {
                        at: now,
                        station: s,
                        until: clear,
                    });
                }
            }
        }
    }

    fn jam_over<E: From<EtherEvent>>(&mut self, s: StationId, eng: &mut Engine<E>) {
        let now = eng.now();
        let mac = &mut self.macs[s];
        if mac.attempts >= ATTEMPT_LIMIT {
            mac.stats.dropped_excessive += 1;
            let frame = mac.queue.pop_front().expect("dropping with an empty queue");
            let attempts = mac.attempts;
            self.out.push(Indication::Dropped { frame });
            self.record(WireEvent::Drop {
                at: now,
                station: s,
                frame,
                attempts,
            });
            return self.next_frame(s, eng);
        }
        let r = draw_backoff_slots(&mut mac.rng, mac.attempts);
        let attempt = mac.attempts;
        self.record(WireEvent::Backoff {
            at: now,
            station: s,
            attempt,
            slots: r,
            until: now + self.slot * r,
        });
        let mac = &mut self.macs[s];
        if r == 0 {
            return self.try_transmit(s, eng);
        }
        let until = now + self.slot * r;
        let gen = mac.enter(MacState::Backoff { until });
        Self::schedule(eng, until, s, gen, MacEvent::BackoffEnd);
    }

    fn transmit_ok<E: From<EtherEvent>>(
        &mut self,
        s: StationId,
        tx: TxId,
        end: SimTime,
        eng: &mut Engine<E>,
    ) {
        self.own_end[s] = end;
        let mac = &mut self.macs[s];
        let frame = mac.queue.pop_front().expect("sent with an empty queue");
        let start = end - self.medium.frame_time(&frame);
        mac.stats.frames_sent += 1;
        mac.stats.access_delay.record((start - mac.head_since).as_nanos());
        let arrival = end + self.medium.prop(s, frame.dst);
        eng.schedule(arrival, EtherEvent::RxEnd { tx, dst: frame.dst });
        self.out.push(Indication::Sent { frame });
        self.record(WireEvent::Success {
            at: end,
            station: s,
            tx,
            frame,
        });
        self.next_frame(s, eng);
    }

    fn next_frame<E: From<EtherEvent>>(&mut self, s: StationId, eng: &mut Engine<E>) {
        let mac = &mut self.macs[s];
        mac.attempts = 0;
        if mac.queue.is_empty() {
            mac.enter(MacState::Idle);
        } else {
            mac.head_since = eng.now();
            self.try_transmit(s, eng);
        }
    }

    fn on_rx_end(&mut self, tx: TxId, dst: StationId, now: SimTime) {
        let x = self.medium.get(tx).expect("reception of a pruned transmission");
        let (frame, damaged) = (x.frame, x.damaged);
        let intact = !damaged && self.medium.intact_at(tx, dst);
        if intact {
            self.capture.success(frame.src);
            let x = self.medium.get(tx).expect("checked above");
            let d = self.medium.prop(frame.src, dst);
            let span = (x.start + d, x.end + d);
            if span.0 < self.last_rx[dst].1 {
                self.rx_overlaps += 1;
                debug_assert!(false, "station {dst} received two overlapping frames");
            }
            self.last_rx[dst] = span;
            let src = &mut self.macs[frame.src].stats;
            src.frames_delivered += 1;
            src.bytes_delivered += frame.wire_bytes() as u64;
            self.macs[dst].stats.frames_received += 1;
            self.out.push(Indication::Received { frame });
        } else {
            self.medium.damage(tx);
            self.macs[frame.src].stats.frames_corrupted += 1;
            self.out.push(Indication::Corrupted { frame });
        }
        self.record(WireEvent::Rx {
            at: now,
            station: dst,
            tx,
            frame,
            intact,
        });
    }

    /// Statistics of the run so far, `elapsed` being the measured span ending now.
    pub fn report(&self, now: SimTime) -> EtherReport {
        EtherReport::build(&self.medium, &self.macs, &self.capture, self.rx_overlaps, now)
    }
}
