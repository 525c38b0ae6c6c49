//! One LAN: the medium and the parts of the LAN that share it, each part a group of
//! nodes running one stack. NetBIOS file services ([`Lan`]: a server and its
//! workstations, each service on consecutive stations of its own), pairs of TCP/IP hosts
//! ([`TcpLan`]: each pair two consecutive stations of its own) and groups of bare frame
//! sources ([`Sources`]: open-loop or backlogged stations, each group on its own stations)
//! are parts; a LAN has any number of each on one cable.
//!
//! Invariant: every station belongs to one part at most (the owner table says which;
//! checked when a part is added).
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
    /// File services, each on its own stations, in station order.
    nos: Vec<Lan<A>>,
    /// Pairs of TCP/IP hosts, each on its own two stations, in station order.
    tcp: Vec<TcpLan<S>>,
    /// Groups of frame sources, each on its own stations.
    sources: Vec<Sources>,
    /// The part each station belongs to, by station (`None`: no part's).
    owners: Vec<Option<Owner>>,
    inds: Vec<Indication>,
    /// Wire observations waiting to be handed out (observing only).
    wire_seen: Vec<WireEvent>,
}

/// Which part of the LAN a station belongs to (the index of the part among its kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owner {
    Nos(usize),
    Tcp(usize),
    Source(usize),
}

impl<A: Application, S: SocketApp> Net<A, S> {
    /// A LAN of `wire` with the parts given, each on the stations it was built on (a
    /// file service's `base..base + nodes`, a TCP/IP pair's `base` and `base + 1`).
    pub(crate) fn new(wire: AnyWire, nos: Vec<Lan<A>>, tcp: Vec<TcpLan<S>>) -> Self {
        let mut net = Net {
            wire,
            nos: Vec::new(),
            tcp: Vec::new(),
            sources: Vec::new(),
            owners: Vec::new(),
            inds: Vec::with_capacity(8),
            wire_seen: Vec::new(),
        };
        for (i, lan) in nos.iter().enumerate() {
            net.claim(lan.base()..lan.base() + lan.config().nodes(), Owner::Nos(i));
        }
        for (i, pair) in tcp.iter().enumerate() {
            net.claim(pair.base()..pair.base() + 2, Owner::Tcp(i));
        }
        net.nos = nos;
        net.tcp = tcp;
        net
    }

    /// Gives `stations` to part `owner`; no other part may have any of them.
    fn claim(&mut self, stations: std::ops::Range<usize>, owner: Owner) {
        if self.owners.len() < stations.end {
            self.owners.resize(stations.end, None);
        }
        for s in stations {
            assert!(
                self.owners[s].is_none(),
                "station {s} given to {owner:?} belongs to {:?}",
                self.owners[s]
            );
            self.owners[s] = Some(owner);
        }
    }

    /// The NetBIOS file service, if this LAN has one (the first, if it has several).
    pub fn file_service(&self) -> Option<&Lan<A>> {
        self.nos.first()
    }

    /// The NetBIOS file services, in station order (none if this LAN has none).
    pub fn file_services(&self) -> &[Lan<A>] {
        &self.nos
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
        drop(seg);
        let n = self.sources.len();
        self.claim(group.stations(), Owner::Source(n));
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

    fn owner(&self, station: usize) -> Option<Owner> {
        self.owners.get(station).copied().flatten()
    }

    fn on_indication(&mut self, ind: Indication, engine: &mut Engine<LanEvent>) {
        let station = match ind {
            Indication::Sent { frame } | Indication::Dropped { frame } => frame.src,
            Indication::Received { frame } | Indication::Corrupted { frame } => frame.dst,
        };
        match self.owner(station) {
            Some(Owner::Nos(i)) => self.nos[i].on_indication(ind, engine),
            Some(Owner::Tcp(i)) => self.tcp[i].on_indication(ind, engine),
            Some(Owner::Source(i)) => {
                if let AnyWire::Csma(seg) = &self.wire {
                    self.sources[i].on_indication(ind, &mut seg.get_mut(), engine);
                }
            }
            None => {}
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
                Some(Owner::Nos(i)) => self.nos[i].cpu_done(node, gen, engine),
                Some(Owner::Tcp(i)) => self.tcp[i].cpu_done(node, gen, engine),
                // frame sources have no CPU, so they schedule no completion
                Some(Owner::Source(_)) | None => {}
            },
            LanEvent::Nos(e) => {
                if let Some(Owner::Nos(i)) = self.owner(e.node() as usize) {
                    self.nos[i].handle(e, engine);
                }
            }
            LanEvent::Tcp(e) => {
                if let Some(Owner::Tcp(i)) = self.owner(e.node() as usize) {
                    self.tcp[i].handle(e, engine);
                }
            }
            LanEvent::Source(e) => {
                let super::SourceEvent::Arrival { station } = e;
                if let (Some(Owner::Source(i)), AnyWire::Csma(seg)) =
                    (self.owner(station as usize), &self.wire)
                {
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
        for lan in &mut self.nos {
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
        for lan in &mut self.nos {
            lan.tap().flush_host(obs);
        }
        for tcp in &mut self.tcp {
            tcp.tap().flush_host(obs);
        }
        self.wire.drain_observed(&mut self.wire_seen);
        let (nos, tcp, owners) = (&self.nos, &self.tcp, &self.owners);
        Tap::flush_wire(
            &mut self.wire_seen,
            |f| match owners.get(f.src).copied().flatten() {
                Some(Owner::Nos(i)) => nos[i].content(f),
                Some(Owner::Tcp(i)) => tcp[i].content(f),
                Some(Owner::Source(_)) | None => observe::Content::Opaque,
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
        let lan = Lan::new(cfg, apps, segment.clone(), 0, engine);
        Net::new(AnyWire::Csma(segment), vec![lan], Vec::new())
    }

    /// The file service.
    pub fn lan(&self) -> &Lan<A> {
        self.nos.first().expect("built by file_service_only")
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
            Net::new(AnyWire::Csma(segment.clone()), Vec::new(), Vec::new()),
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
        Net::new(medium, Vec::new(), vec![tcp])
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
