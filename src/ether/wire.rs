//! What a MAC client sees of a medium, whichever kind it is: hand over a frame, let the
//! medium handle its events, collect its indications, read its report. The CSMA/CD
//! [`Segment`] and the point-to-point [`Link`] both implement [`Wire`]; [`AnyWire`] is
//! the one a scenario chose. The MAC's rules stay inside each medium: no caller
//! special-cases a kind.
//!
//! One medium can have several clients: the parts of one LAN (the NetBIOS file service
//! and TCP/IP hosts on one cable) each hold a handle to it ([`SharedSegment`], and
//! [`AnyWire`], whose handles are cheap clones of one medium). The engine is single
//! threaded and a handle is borrowed only for the length of one call, so the borrows
//! never overlap.

use super::frame::Frame;
use super::link::{Link, LinkConfig};
use super::report::EtherReport;
use super::segment::{EtherEvent, Indication, Segment, SegmentConfig};
use std::cell::{Ref, RefCell, RefMut};
use std::rc::Rc;

use crate::engine::{Engine, RngStreams};
use crate::time::SimTime;

/// A medium as its clients use it.
pub trait Wire {
    /// The client of station `frame.src` hands over a frame.
    fn enqueue<E: From<EtherEvent>>(&mut self, frame: Frame, eng: &mut Engine<E>);
    /// Handles one of the medium's own events at `eng.now()`.
    fn handle<E: From<EtherEvent>>(&mut self, ev: EtherEvent, eng: &mut Engine<E>);
    /// Moves the pending indications into `buf` (appending).
    fn drain_indications(&mut self, buf: &mut Vec<Indication>);
    /// Statistics of the run so far.
    fn report(&self, now: SimTime) -> EtherReport;
    /// Station `station`'s client can take a frame again (its receive buffer is re-armed).
    /// Only a medium with receiver flow control uses it (a link with `retry_if_busy`);
    /// CSMA/CD has none: a frame that finds no room is the receiver's loss.
    fn receiver_ready<E: From<EtherEvent>>(&mut self, station: usize, eng: &mut Engine<E>);
}

impl Wire for Segment {
    fn enqueue<E: From<EtherEvent>>(&mut self, frame: Frame, eng: &mut Engine<E>) {
        Segment::enqueue(self, frame, eng)
    }
    fn handle<E: From<EtherEvent>>(&mut self, ev: EtherEvent, eng: &mut Engine<E>) {
        Segment::handle(self, ev, eng)
    }
    fn drain_indications(&mut self, buf: &mut Vec<Indication>) {
        Segment::drain_indications(self, buf)
    }
    fn report(&self, now: SimTime) -> EtherReport {
        Segment::report(self, now)
    }
    fn receiver_ready<E: From<EtherEvent>>(&mut self, _station: usize, _eng: &mut Engine<E>) {}
}

impl Wire for Link {
    fn enqueue<E: From<EtherEvent>>(&mut self, frame: Frame, eng: &mut Engine<E>) {
        Link::enqueue(self, frame, eng)
    }
    fn handle<E: From<EtherEvent>>(&mut self, ev: EtherEvent, eng: &mut Engine<E>) {
        Link::handle(self, ev, eng)
    }
    fn drain_indications(&mut self, buf: &mut Vec<Indication>) {
        Link::drain_indications(self, buf)
    }
    fn report(&self, now: SimTime) -> EtherReport {
        Link::report(self, now)
    }
    fn receiver_ready<E: From<EtherEvent>>(&mut self, station: usize, eng: &mut Engine<E>) {
        Link::receiver_ready(self, station, eng)
    }
}

/// A handle to a CSMA/CD segment that several clients share (cloning clones the handle,
/// not the segment).
#[derive(Clone)]
pub struct SharedSegment(Rc<RefCell<Segment>>);

impl SharedSegment {
    pub fn new(cfg: &SegmentConfig, rngs: &RngStreams) -> Self {
        SharedSegment(Rc::new(RefCell::new(Segment::new(cfg, rngs))))
    }
    /// The segment, to read (for reports and audits).
    pub fn get(&self) -> Ref<'_, Segment> {
        self.0.borrow()
    }
    /// The segment, to change (observation on and off).
    pub fn get_mut(&self) -> RefMut<'_, Segment> {
        self.0.borrow_mut()
    }
}

impl Wire for SharedSegment {
    fn enqueue<E: From<EtherEvent>>(&mut self, frame: Frame, eng: &mut Engine<E>) {
        self.0.borrow_mut().enqueue(frame, eng)
    }
    fn handle<E: From<EtherEvent>>(&mut self, ev: EtherEvent, eng: &mut Engine<E>) {
        self.0.borrow_mut().handle(ev, eng)
    }
    fn drain_indications(&mut self, buf: &mut Vec<Indication>) {
        self.0.borrow_mut().drain_indications(buf)
    }
    fn report(&self, now: SimTime) -> EtherReport {
        self.0.borrow().report(now)
    }
    fn receiver_ready<E: From<EtherEvent>>(&mut self, _station: usize, _eng: &mut Engine<E>) {}
}

/// Which medium a scenario describes.
#[derive(Clone, Debug, PartialEq)]
pub enum WireConfig {
    Csma(SegmentConfig),
    PointToPoint(LinkConfig),
}

impl WireConfig {
    /// One bit time, ns.
    pub fn bit_ns(&self) -> u64 {
        match self {
            WireConfig::Csma(c) => c.bit_ns,
            WireConfig::PointToPoint(c) => c.bit_ns,
        }
    }
    /// Share of frames damaged on the wire by fault injection (none on a link).
    pub fn corrupt_fraction(&self) -> f64 {
        match self {
            WireConfig::Csma(c) => c.corrupt_fraction,
            WireConfig::PointToPoint(_) => 0.0,
        }
    }
}

/// A handle to the medium a scenario chose (cloning clones the handle: every clone is
/// the same medium).
#[derive(Clone)]
pub enum AnyWire {
    Csma(SharedSegment),
    PointToPoint(Rc<RefCell<Link>>),
}

impl AnyWire {
    pub fn new(cfg: &WireConfig, rngs: &RngStreams) -> Self {
        match cfg {
            WireConfig::Csma(c) => AnyWire::Csma(SharedSegment::new(c, rngs)),
            WireConfig::PointToPoint(c) => AnyWire::PointToPoint(Rc::new(RefCell::new(Link::new(c)))),
        }
    }

    /// Turns observation on ([`Segment::observe`]); a point-to-point link records
    /// nothing (it has no MAC to observe).
    pub fn observe(&mut self) {
        if let AnyWire::Csma(s) = self {
            s.get_mut().observe();
        }
    }

    /// Moves the recorded observations into `out` ([`Segment::drain_observed`]).
    pub fn drain_observed(&mut self, out: &mut Vec<super::WireEvent>) {
        if let AnyWire::Csma(s) = self {
            s.get_mut().drain_observed(out);
        }
    }
}

impl Wire for AnyWire {
    fn enqueue<E: From<EtherEvent>>(&mut self, frame: Frame, eng: &mut Engine<E>) {
        match self {
            AnyWire::Csma(s) => s.enqueue(frame, eng),
            AnyWire::PointToPoint(l) => l.borrow_mut().enqueue(frame, eng),
        }
    }
    fn handle<E: From<EtherEvent>>(&mut self, ev: EtherEvent, eng: &mut Engine<E>) {
        match self {
            AnyWire::Csma(s) => s.handle(ev, eng),
            AnyWire::PointToPoint(l) => l.borrow_mut().handle(ev, eng),
        }
    }
    fn drain_indications(&mut self, buf: &mut Vec<Indication>) {
        match self {
            AnyWire::Csma(s) => s.drain_indications(buf),
            AnyWire::PointToPoint(l) => l.borrow_mut().drain_indications(buf),
        }
    }
    fn report(&self, now: SimTime) -> EtherReport {
        match self {
            AnyWire::Csma(s) => s.report(now),
            AnyWire::PointToPoint(l) => l.borrow().report(now),
        }
    }
    fn receiver_ready<E: From<EtherEvent>>(&mut self, station: usize, eng: &mut Engine<E>) {
        match self {
            AnyWire::Csma(s) => s.receiver_ready(station, eng),
            AnyWire::PointToPoint(l) => l.borrow_mut().receiver_ready(station, eng),
        }
    }
}
