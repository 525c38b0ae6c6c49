//! One LAN: the medium and the parts of the LAN that share it, each part a group of
//! nodes running one stack. The NetBIOS file service ([`Lan`]: a server and its
//! workstations, the stations below the first TCP/IP host), pairs of TCP/IP hosts
//! ([`TcpLan`]: each pair two consecutive stations of its own) and groups of bare frame
//! sources ([`Sources`]: open-loop or backlogged stations, each group on its own stations)
//! are parts; a LAN has any of them, any number of TCP/IP pairs and source groups, on one
//! cable.
//!
//! [`Net`] is the one model the engine runs for any LAN. It owns the dispatch of
//! [`LanEvent`]: the medium's events to the medium, whose indications go to the part
//! that owns the frame's station; a CPU's completion to the part that owns the node;
//! each stack's events to its part. A part's events are scheduled only by that part, so
//! each reaches the part that scheduled it.
//!
//! Invariant: between events no indication waits in the medium (a CPU job or a stack's
//! timer may hand frames to the MAC, which raises indications only in its own events);
//! checked in builds with debug assertions.

use super::observe::{self, Observed, Observer, Tap};
use super::source::{SourceConfig, Sources};
use super::tcp::{SocketApp, TcpLan};
use super::{path, Application, Lan, LanEvent};
use crate::engine::{Engine, Model};
use crate::ether::{AnyWire, Indication, Wire, WireEvent};

/// A LAN: the medium and the parts on it.
pub struct Net<A, S> {
    wire: AnyWire,
    nos: Option<Lan<A>>,
    /// Pairs of TCP/IP hosts, each on its own two stations, in station order.
    tcp: Vec<TcpLan<S>>,
    /// Groups of frame sources, each on its own stations.
    sources: Vec<Sources>,
    /// The first station of the TCP/IP hosts (stations below it are the file service's).
    tcp_base: usize,
    inds: Vec<Indication>,
    /// Wire observations waiting to be handed out (observing only).
    wire_seen: Vec<WireEvent>,
}

/// Which part of the LAN a station belongs to.
enum Owner {
    Nos,
    Tcp(usize),
    Source(usize),
}

impl<A: Application, S: SocketApp> Net<A, S> {
    /// A LAN of `wire` with the parts given; the TCP/IP pairs are stations `tcp_base`,
    /// `tcp_base + 1`, ... (two each, in order), every station below them the file
    /// service's.
    pub(crate) fn new(wire: AnyWire, nos: Option<Lan<A>>, tcp: Vec<TcpLan<S>>, tcp_base: usize) -> Self {
        debug_assert!(
            tcp.iter().enumerate().all(|(i, t)| t.base() == tcp_base + 2 * i),
            "the TCP/IP pairs take two stations each from tcp_base, in order"
        );
        Net {
            wire,
            nos,
            tcp,
            sources: Vec::new(),
            tcp_base,
            inds: Vec::with_capacity(8),
            wire_seen: Vec::new(),
        }
    }

    /// The NetBIOS file service, if this LAN has one.
    pub fn file_service(&self) -> Option<&Lan<A>> {
        self.nos.as_ref()
    }

    /// The pairs of TCP/IP hosts, in station order (none if this LAN has none).
    pub fn tcp_pairs(&self) -> &[TcpLan<S>] {
        &self.tcp
    }

    /// The groups of frame sources, in the order they were added.
    pub fn sources(&self) -> &[Sources] {
        &self.sources
    }

    /// Every source group's conservation audit: the violations, each naming its group
    /// (1, 2, ...), empty when all hold.
    pub fn audit_sources(&self) -> Vec<String> {
        let AnyWire::Csma(seg) = &self.wire else {
            return Vec::new();
        };
        let seg = seg.get();
        self.sources
            .iter()
            .enumerate()
            .flat_map(|(i, g)| {
                g.audit(&seg)
                    .into_iter()
                    .map(move |v| format!("background group {}: {v}", i + 1))
            })
            .collect()
    }

    /// Restarts every source group's counts (the start of a measurement window).
    pub fn restart_source_counts(&mut self) {
        for g in &mut self.sources {
            g.restart_counts();
        }
    }

    /// Adds a group of frame sources on stations `base..base + cfg.stations()`, which no
    /// other part may use; its first frames are scheduled now. The medium must be a
    /// CSMA/CD segment (a point-to-point link has two stations, both taken).
    pub fn add_sources(&mut self, cfg: SourceConfig, base: usize, engine: &mut Engine<LanEvent>) {
        let AnyWire::Csma(segment) = &self.wire else {
            panic!("frame sources need a CSMA/CD segment (validated by the scenario)");
        };
        let mut seg = segment.get_mut();
        let bit_ns = seg.medium().bit_time().as_nanos();
        let mut group = Sources::new(cfg, base, bit_ns, engine.rng_streams());
        group.start(&mut seg, engine);
        self.sources.push(group);
    }

    /// The CSMA/CD segment all the parts share, if the medium is one.
    pub fn csma(&self) -> Option<std::cell::Ref<'_, crate::ether::Segment>> {
        match &self.wire {
            AnyWire::Csma(s) => Some(s.get()),
            AnyWire::PointToPoint(_) => None,
        }
    }

    /// The medium all the parts share.
    pub fn wire(&self) -> &AnyWire {
        &self.wire
    }

    fn owner(&self, station: usize) -> Owner {
        if let Some(i) = self.sources.iter().position(|g| g.owns(station)) {
            Owner::Source(i)
        } else if station < self.tcp_base {
            Owner::Nos
        } else {
            Owner::Tcp((station - self.tcp_base) / 2)
        }
    }

    fn on_indication(&mut self, ind: Indication, engine: &mut Engine<LanEvent>) {
        let station = match ind {
            Indication::Sent { frame } | Indication::Dropped { frame } => frame.src,
            Indication::Received { frame } | Indication::Corrupted { frame } => frame.dst,
        };
        match self.owner(station) {
            Owner::Nos => {
                if let Some(lan) = self.nos.as_mut() {
                    lan.on_indication(ind, engine);
                }
            }
            Owner::Tcp(i) => {
                if let Some(tcp) = self.tcp.get_mut(i) {
                    tcp.on_indication(ind, engine);
                }
            }
            Owner::Source(i) => {
                if let AnyWire::Csma(seg) = &self.wire {
                    self.sources[i].on_indication(ind, &mut seg.get_mut(), engine);
                }
            }
        }
    }

    fn dispatch(&mut self, ev: LanEvent, engine: &mut Engine<LanEvent>) {
        match ev {
            LanEvent::Ether(e) => {
                let mut inds = path::ether_step(&mut self.wire, &mut self.inds, e, engine);
                for ind in &inds {
                    self.on_indication(*ind, engine);
                }
                inds.clear();
                self.inds = inds;
                return;
            }
            LanEvent::CpuDone { node, gen } => match self.owner(node as usize) {
                Owner::Nos => {
                    if let Some(lan) = self.nos.as_mut() {
                        lan.cpu_done(node, gen, engine);
                    }
                }
                Owner::Tcp(i) => {
                    if let Some(tcp) = self.tcp.get_mut(i) {
                        tcp.cpu_done(node, gen, engine);
                    }
                }
                // frame sources have no CPU, so they schedule no completion
                Owner::Source(_) => {}
            },
            LanEvent::Nos(e) => {
                if let Some(lan) = self.nos.as_mut() {
                    lan.handle(e, engine);
                }
            }
            LanEvent::Tcp(e) => {
                if let Owner::Tcp(i) = self.owner(e.node() as usize) {
                    if let Some(tcp) = self.tcp.get_mut(i) {
                        tcp.handle(e, engine);
                    }
                }
            }
            LanEvent::Source(e) => {
                let super::SourceEvent::Arrival { station } = e;
                if let (Owner::Source(i), AnyWire::Csma(seg)) = (self.owner(station as usize), &self.wire) {
                    self.sources[i].handle(e, &mut seg.get_mut(), engine);
                }
            }
        }
        // a job or a timer may have handed frames to the MAC: it raises no indication
        // until its own events
        self.wire.drain_indications(&mut self.inds);
        debug_assert!(self.inds.is_empty(), "indications outside the ether handler");
        self.inds.clear();
    }
}

impl<A: Application, S: SocketApp> Model for Net<A, S> {
    type Event = LanEvent;

    fn handle(&mut self, ev: LanEvent, engine: &mut Engine<LanEvent>) {
        self.dispatch(ev, engine);
        for tcp in &mut self.tcp {
            tcp.track_copy_wait(engine.now());
        }
    }
}

impl<A: Application, S: SocketApp> Observed for Net<A, S> {
    fn start_observing(&mut self) {
        self.wire.observe();
        if let Some(lan) = self.nos.as_mut() {
            lan.start_observing();
        }
        for tcp in &mut self.tcp {
            tcp.start_observing();
        }
    }

    /// The parts' host work first (it was submitted before the MAC events of the same
    /// instant it caused), then the medium's events in order, each frame's content as
    /// the part that sent it reads it.
    fn flush_observations(&mut self, obs: &mut dyn Observer) {
        if let Some(lan) = self.nos.as_mut() {
            lan.tap().flush_host(obs);
        }
        for tcp in &mut self.tcp {
            tcp.tap().flush_host(obs);
        }
        self.wire.drain_observed(&mut self.wire_seen);
        let (nos, tcp, base, sources) = (&self.nos, &self.tcp, self.tcp_base, &self.sources);
        Tap::flush_wire(
            &mut self.wire_seen,
            |f| {
                let part = if sources.iter().any(|g| g.owns(f.src)) {
                    None
                } else if f.src < base {
                    nos.as_ref().map(|l| l.content(f))
                } else {
                    tcp.get((f.src - base) / 2).map(|t| t.content(f))
                };
                part.unwrap_or(observe::Content::Opaque)
            },
            obs,
        );
    }
}

/// The application of a part a LAN does not have (no value of it exists, so a LAN
/// typed with it for a part has no such part).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Absent {}

impl Application for Absent {
    fn start_delay(&mut self, _rng: &mut crate::engine::SimRng) -> crate::time::SimDuration {
        match *self {}
    }
    fn next_op(&mut self, _now: crate::time::SimTime, _rng: &mut crate::engine::SimRng) -> super::AppOp {
        match *self {}
    }
    fn bytes_read(&self) -> u64 {
        match *self {}
    }
}

impl SocketApp for Absent {
    fn next_call(&mut self, _now: crate::time::SimTime) -> Option<super::tcp::SockCall> {
        match *self {}
    }
    fn returned(&mut self, _now: crate::time::SimTime, _call: super::tcp::SockCall, _bytes: u64) {
        match *self {}
    }
}

/// A LAN of the NetBIOS file service alone.
pub type FileServiceNet<A> = Net<A, Absent>;
/// A LAN of two TCP/IP hosts alone.
pub type TcpNet<S> = Net<Absent, S>;
impl<A: Application> Net<A, Absent> {
    /// The file service of `cfg` alone on its segment, `apps[i]` on workstation `i + 1`.
    pub fn file_service_only(cfg: super::LanConfig, apps: Vec<A>, engine: &mut Engine<LanEvent>) -> Self {
        let segment = crate::ether::SharedSegment::new(&cfg.segment, engine.rng_streams());
        let base = cfg.nodes();
        let lan = Lan::new(cfg, apps, segment.clone(), engine);
        Net::new(AnyWire::Csma(segment), Some(lan), Vec::new(), base)
    }

    /// The file service.
    pub fn lan(&self) -> &Lan<A> {
        self.nos.as_ref().expect("built by file_service_only")
    }
}

/// A LAN of groups of frame sources alone.
pub type SourceNet = Net<Absent, Absent>;

impl Net<Absent, Absent> {
    /// A CSMA/CD segment of `cfg` with no part on it yet, and a handle to it: groups of
    /// frame sources are added with [`Net::add_sources`].
    pub fn segment_only(
        cfg: &crate::ether::SegmentConfig,
        engine: &Engine<LanEvent>,
    ) -> (Self, crate::ether::SharedSegment) {
        let segment = crate::ether::SharedSegment::new(cfg, engine.rng_streams());
        (
            Net::new(AnyWire::Csma(segment.clone()), None, Vec::new(), usize::MAX),
            segment,
        )
    }
}

impl<S: SocketApp> Net<Absent, S> {
    /// Two TCP/IP hosts alone on `wire` (stations 0 and 1), `apps[i]` on host `i`.
    pub fn tcp_only(
        wire: &crate::ether::WireConfig,
        hosts: [super::tcp::TcpHost; 2],
        apps: [S; 2],
        engine: &mut Engine<LanEvent>,
    ) -> Self {
        let medium = AnyWire::new(wire, engine.rng_streams());
        let tcp = TcpLan::new(medium.clone(), 0, hosts, apps, engine);
        Net::new(medium, None, vec![tcp], 0)
    }

    /// The TCP/IP hosts.
    pub fn hosts(&self) -> &TcpLan<S> {
        self.tcp.first().expect("built by tcp_only")
    }

    /// Test seam: the TCP/IP hosts, to tamper with.
    #[cfg(test)]
    pub(crate) fn hosts_mut(&mut self) -> &mut TcpLan<S> {
        self.tcp.first_mut().expect("built by tcp_only")
    }
}
