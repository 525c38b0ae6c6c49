//! Observing a run: the stream of [`Observation`]s a model hands to an [`Observer`].
//!
//! Owns the one observation interface of the simulator. The segment records
//! [`WireEvent`]s (`crate::ether::observe`); the composition that owns it drains them
//! after every event, adds what the frame carries ([`Content`], known only up here: a
//! NetBIOS packet, a TCP segment) and the hosts' work on each frame ([`HostWork`]), and
//! passes each observation to the observer. The pcap writer, the event log and the
//! space-time recorder ([`super::instruments`]) are observers of this same stream.
//!
//! Cost: a model is observed only when [`drive`] is given an observer; otherwise it runs
//! exactly as [`run_until`] (the segment's recording stays off and nothing is buffered).
//! With an observer, the buffer is emptied after every event, so memory does not grow
//! with the run.
//!
//! Times are simulated instants (integer ns); durations are ns.

use crate::engine::{run_until, Engine, Model};
use crate::ether::{Frame, StationId, WireEvent};
use crate::nos::packet::Packet;
use crate::tcp::{Piece, Segment as TcpSegment};
use crate::time::{SimDuration, SimTime};

/// What a frame carries, as far as the model knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Content {
    /// A frame of the saturate workload: no upper layer.
    Opaque,
    /// A NetBIOS session packet, with `header_bytes` of session header before its payload.
    Nos { packet: Packet, header_bytes: u32 },
    /// One frame (`piece`) of TCP segment `seg`: the IP datagram, or a fragment of it
    /// `offset` bytes into the TCP segment, `last` unless more fragments follow.
    Tcp {
        seg: TcpSegment,
        piece: Piece,
        offset: u32,
        last: bool,
    },
}

/// Which of a host's work on a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostWorkKind {
    /// The protocol builds the packet (NetBIOS send, with the copy of its data into it;
    /// TCP/IP: one segment's IP and TCP work, and a UNIBUS driver's copies and remaps, in
    /// one record naming the segment's first frame).
    Build,
    /// The driver copies the frame into a card transmit slot.
    TxCopy,
    /// The receive interrupt copies the frame out of the card and hands it up.
    RxInterrupt,
}

impl HostWorkKind {
    /// Its name in the event log (`build`, `tx_copy`, `rx_interrupt`).
    pub fn name(self) -> &'static str {
        match self {
            HostWorkKind::Build => "build",
            HostWorkKind::TxCopy => "tx_copy",
            HostWorkKind::RxInterrupt => "rx_interrupt",
        }
    }
}

/// CPU work a node submitted for one frame (it runs when the CPU gets to it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostWork {
    pub at: SimTime,
    pub node: StationId,
    pub kind: HostWorkKind,
    /// Source and destination stations of the frame.
    pub src: StationId,
    pub dst: StationId,
    /// Frame bytes (header to FCS, before padding).
    pub bytes: u32,
    /// Time moving bytes (programmed I/O or memory copy).
    pub copy: SimDuration,
    /// Time in protocol, driver and interrupt code.
    pub cpu: SimDuration,
}

/// One thing an observer is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Observation {
    /// A MAC event; `content` is what the frame carries for a [`WireEvent::TxStart`]
    /// (and [`Content::Opaque`] for every other event).
    Wire { ev: WireEvent, content: Content },
    /// A host's work on a frame (LAN and TCP workloads).
    Host(HostWork),
}

/// A consumer of observations.
pub trait Observer {
    fn observe(&mut self, o: &Observation);
}

/// The observation buffer of a composition: off unless [`Tap::enable`] was called.
#[derive(Debug, Default)]
pub struct Tap {
    on: bool,
    host: Vec<HostWork>,
    wire: Vec<WireEvent>,
}

impl Tap {
    pub fn enable(&mut self) {
        self.on = true;
    }

    #[inline]
    pub fn is_on(&self) -> bool {
        self.on
    }

    /// Records work node `node` submitted for `frame`, if observing.
    #[inline]
    pub fn host(
        &mut self,
        at: SimTime,
        node: StationId,
        kind: HostWorkKind,
        frame: &Frame,
        copy: SimDuration,
        cpu: SimDuration,
    ) {
        if self.on {
            self.host.push(HostWork {
                at,
                node,
                kind,
                src: frame.src,
                dst: frame.dst,
                bytes: frame.bytes,
                copy,
                cpu,
            });
        }
    }

    /// Hands everything recorded to `obs`: the host work first (it was submitted before
    /// the MAC events of the same instant it caused), then the medium's events that
    /// `wire_source` gives, in their order, each TxStart with the content `content` gives
    /// for its frame.
    pub fn flush(
        &mut self,
        wire_source: impl FnOnce(&mut Vec<WireEvent>),
        content: impl Fn(&Frame) -> Content,
        obs: &mut dyn Observer,
    ) {
        self.flush_host(obs);
        wire_source(&mut self.wire);
        Tap::flush_wire(&mut self.wire, content, obs);
    }

    /// Hands the host work recorded to `obs`, in the order it was submitted.
    pub fn flush_host(&mut self, obs: &mut dyn Observer) {
        for h in self.host.drain(..) {
            obs.observe(&Observation::Host(h));
        }
    }

    /// Hands the medium's events in `wire` to `obs` in their order (emptying it), each
    /// TxStart with the content `content` gives for its frame.
    pub fn flush_wire(
        wire: &mut Vec<WireEvent>,
        content: impl Fn(&Frame) -> Content,
        obs: &mut dyn Observer,
    ) {
        for ev in wire.drain(..) {
            let content = match &ev {
                WireEvent::TxStart { frame, .. } => content(frame),
                _ => Content::Opaque,
            };
            obs.observe(&Observation::Wire { ev, content });
        }
    }
}

/// A model that can be observed.
pub trait Observed: Model {
    /// Turns observation on (called once, before the run).
    fn start_observing(&mut self);
    /// Hands the observations of the last event to `obs`.
    fn flush_observations(&mut self, obs: &mut dyn Observer);
}

/// Runs `model` until `until`, handing every observation to `obs` if there is one; with
/// `None` this is [`run_until`].
pub fn drive<M: Observed>(
    model: &mut M,
    engine: &mut Engine<M::Event>,
    until: SimTime,
    obs: Option<&mut dyn Observer>,
) {
    match obs {
        None => run_until(model, engine, until),
        Some(obs) => {
            model.start_observing();
            model.flush_observations(obs);
            while let Some(ev) = engine.pop_until(until) {
                model.handle(ev, engine);
                model.flush_observations(obs);
            }
        }
    }
}

/// Reborrows an optional observer for one call, so that it can be passed again after.
pub fn reborrow<'a>(obs: &'a mut Option<&mut dyn Observer>) -> Option<&'a mut dyn Observer> {
    match obs {
        Some(o) => Some(&mut **o),
        None => None,
    }
}
