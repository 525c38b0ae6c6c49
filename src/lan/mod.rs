//! The composition layer: a LAN of hosts on one segment, node 0 the file server and nodes
//! 1..=n workstations (and, with several servers, nodes n+1.. the others; each
//! workstation talks to its own server only, [`LanConfig::server_of`]).
//!
//! Owns the wiring of the layers for one run, and nothing else: each node's CPU
//! (`crate::host`), adapter (`crate::adapter`), NetBIOS sessions, redirector or file
//! server (`crate::nos`) and application ([`Application`], implemented in
//! `crate::workload`), and the segment they share (`crate::ether`). The state machines
//! below decide *what* happens; this layer turns each step into a CPU job, a frame or a
//! timer on the engine. Nothing here computes a throughput from a formula: throughput is
//! what the workstations' sessions receive per second of simulated time.
//!
//! A frame's path, top to bottom (every arrow is an event or a CPU job finishing):
//! 1. [`Lan::pump`]: a session has a packet and the driver a buffer: an `NbSend` job
//!    (NetBIOS builds the packet; a response's file data is copied into it).
//! 2. `NbSend` done: the driver takes the frame ([`Adapter::submit`](crate::adapter::Adapter::submit)); the resulting
//!    [`TxStep`] is applied by [`Lan::apply_tx`], the one place that starts a copy to the
//!    card (a `TxCopy` job at the priority of the code that started it) or hands a frame
//!    to the MAC.
//! 3. `TxCopy` done: `Adapter::copied_to_card`, applied by `apply_tx`.
//! 4. The MAC sends it (CSMA/CD); `Indication::Sent` raises the transmit-complete
//!    interrupt (`TxIsr` job); done: `Adapter::transmit_complete`, applied by `apply_tx`.
//! 5. At the destination, `Indication::Received`: the frame lands in the receive ring and
//!    the receive interrupt copies it out (`RxIsr` job); NetBIOS takes the packet.
//!
//! Steps 2-5 are the shared frame path of `path` (also used by the TCP/IP composition).
//!
//! Event flow of one read (workstation W, server S): the application's `Read` -> request
//! message (W) -> frame path -> `ServerRead` job (S) -> response packets -> frame path ->
//! `RedirDone` job (W) copies the data to the application -> next request, or the read is
//! complete and the application gives its next operation.
//!
//! A write goes the other way: the application's `Write` -> write requests carrying the
//! data (W copies it into each packet as it is built) -> frame path (the server's receive
//! interrupt copies it off the card) -> `ServerWrite` job (S copies it into its cache and
//! stores it) -> a short reply -> `RedirDone` (W) -> next request, or the next operation.

mod app;
mod audit;
mod config;
mod event;
pub mod instruments;
mod net;
mod node;
pub mod observe;
mod path;
pub mod source;
mod stats;
pub mod tcp;

pub use app::{AppOp, Application};
pub use audit::{AuditError, AuditReport};
pub use config::{LanConfig, LanProfile, StorageConfig};
pub use event::{LanEvent, NosEvent, TcpEvent};
pub use net::{Absent, FileServiceNet, Net, SourceNet, TcpNet};
pub use source::{SourceEvent, Sources};
pub use stats::{medium_time, CpuShare, LanSnapshot, NodeSnapshot};

use crate::adapter::{Carries, TxStep};
use crate::engine::{Engine, SimRng, StreamKind};
use crate::ether::{frame_bytes, Frame, Indication, SharedSegment};
use crate::host::{Cost, Priority};
use crate::nos::cache::{Extent, WritePolicy};
use crate::nos::config::{LatencyScope, ReplyCopy};
use crate::nos::packet::{Packet, PacketKind, WRITE_FLAG};
use crate::nos::server::{ReadRequest, WRITE_REPLY_BYTES};
use crate::nos::session::{OutMsg, TimerRequest};
use crate::time::SimTime;
use node::{Node, Role};

impl path::FrameJob for Job {
    fn tx_copy(frame: Frame, prio: Priority) -> Self {
        Job::TxCopy { frame, prio }
    }
    fn tx_isr() -> Self {
        Job::TxIsr
    }
    fn rx_isr(frame: Frame) -> Self {
        Job::RxIsr { frame }
    }
}

/// The level a packet is built and handed to the driver at: AI-LANBIOS answers with an
/// acknowledgement (or a negative one) from its receive path, at interrupt level; every
/// other packet is built by the sending task.
fn level_of(packet: &Packet) -> Priority {
    if packet.kind.is_ack() {
        Priority::Interrupt
    } else {
        Priority::Task
    }
}

/// Work a CPU does; what happens when it completes is in [`Lan::job_done`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// AI-LANBIOS builds a packet; then the driver takes the frame.
    NbSend { peer: u32, packet: Packet, payload: u32 },
    /// Programmed-I/O copy of a frame into a card transmit slot, at the priority of the
    /// code that started it (the NetBIOS send or the transmit-complete interrupt), or at
    /// the background level for a driver whose `send_copy` is `when_idle`.
    TxCopy { frame: Frame, prio: Priority },
    /// Transmit-complete interrupt.
    TxIsr,
    /// Receive interrupt: copy the frame out of the ring, then NetBIOS receive.
    RxIsr { frame: Frame },
    /// A server network task serves a read request.
    ServerRead { peer: u32, asked: u32 },
    /// A server network task stores the data of a write request.
    ServerWrite { peer: u32, bytes: u32 },
    /// The redirector hands a response's data to the application.
    RedirDone { bytes: u32 },
    /// The application's computation ([`AppOp::Compute`]) is done.
    App,
}

/// The model of one LAN run, its workstations running applications of type `A`.
pub struct Lan<A> {
    cfg: LanConfig,
    /// The segment, shared with the other parts of the LAN if there are any.
    segment: SharedSegment,
    /// The station of node 0: node `i` is station `base + i` of the segment. Nodes are
    /// numbered from 0 inside the part; frames, CPU completions and events carry
    /// stations.
    base: usize,
    nodes: Vec<Node<A>>,
    /// One host stream per node, for its application's randomness.
    rngs: Vec<SimRng>,
    /// Packets lost and delivered, for [`Lan::audit`] (never read by the model).
    ledger: audit::Ledger,
    /// Observations of the hosts' work per frame (off unless observed).
    tap: observe::Tap,
}

impl<A: Application> Lan<A> {
    /// Builds the file service with one application per workstation (`apps[i]` runs on
    /// node `i + 1`) on `segment`, whose stations `base..base + cfg.nodes()` are its
    /// nodes; each application starts after its own [`Application::start_delay`].
    pub(crate) fn new(
        cfg: LanConfig,
        apps: Vec<A>,
        segment: SharedSegment,
        base: usize,
        engine: &mut Engine<LanEvent>,
    ) -> Self {
        assert_eq!(apps.len(), cfg.workstations, "one application per workstation");
        assert!(
            segment.get().stations() >= base + cfg.nodes(),
            "a station for every node"
        );
        let n = cfg.workstations;
        let mut nodes = Vec::with_capacity(cfg.nodes());
        nodes.push(Node::server(&cfg, 0));
        for (i, app) in apps.into_iter().enumerate() {
            nodes.push(Node::workstation(&cfg, app, i + 1, cfg.server_of(i + 1)));
        }
        for s in cfg.server_nodes().into_iter().skip(1) {
            nodes.push(Node::server(&cfg, s));
        }
        let rngs: Vec<SimRng> = (0..nodes.len())
            .map(|i| engine.rng_streams().stream(StreamKind::Host, (base + i) as u64))
            .collect();
        let nodes_len = nodes.len();
        let mut lan = Lan {
            cfg,
            segment,
            base,
            nodes,
            rngs,
            ledger: audit::Ledger::new(nodes_len, base),
            tap: observe::Tap::default(),
        };
        if let Some(WritePolicy::Delayed { flush_every }) = lan.cfg.storage.as_ref().map(|s| s.cache.policy) {
            for s in lan.cfg.server_nodes() {
                if lan.nodes[s].storage.as_ref().is_some_and(|st| st.delay_writes) {
                    engine.schedule_in(
                        flush_every,
                        NosEvent::Flush {
                            node: (base + s) as u32,
                        },
                    );
                }
            }
        }
        for w in 1..=n {
            let (_, app) = lan.nodes[w].workstation_mut();
            let delay = app.start_delay(&mut lan.rngs[w]);
            engine.schedule_in(
                delay,
                NosEvent::Start {
                    node: (base + w) as u32,
                },
            );
        }
        lan
    }

    pub fn config(&self) -> &LanConfig {
        &self.cfg
    }

    /// The station of node 0 (the server).
    pub fn base(&self) -> usize {
        self.base
    }

    /// The application of node `node`, if it is a workstation.
    pub fn app(&self, node: usize) -> Option<&A> {
        self.nodes.get(node)?.app()
    }

    /// A snapshot of every counter, for differencing over a measurement window.
    pub fn snapshot(&self, engine: &Engine<LanEvent>) -> LanSnapshot {
        LanSnapshot::take(&self.nodes, &self.segment.get(), engine.now())
    }

    /// Runs an application's operation on workstation `n`.
    fn start_op(&mut self, n: usize, op: AppOp, engine: &mut Engine<LanEvent>) {
        match op {
            AppOp::Compute { kinstr } => {
                let cost = Cost {
                    work: self.nodes[n].host.instructions(kinstr),
                    ..Cost::default()
                };
                self.start_job(n, Priority::Task, cost, Job::App, engine);
            }
            AppOp::Read { bytes } => {
                self.nodes[n].workstation_mut().0.start_read(bytes);
                self.issue_requests(n, engine);
            }
            AppOp::Write { bytes } => {
                self.nodes[n].workstation_mut().0.start_write(bytes);
                self.issue_requests(n, engine);
            }
            AppOp::Stop => {}
            AppOp::Open { .. } | AppOp::Seek { .. } => unreachable!("handled in next_op"),
        }
    }

    /// The application of workstation `n` finished an operation: start its next one
    /// (opens and seeks take no time: the application is asked again at once).
    fn next_op(&mut self, n: usize, engine: &mut Engine<LanEvent>) {
        loop {
            let (_, app) = self.nodes[n].workstation_mut();
            let op = app.next_op(engine.now(), &mut self.rngs[n]);
            match op {
                AppOp::Open { file } => self.open_file(n, file),
                AppOp::Seek { offset } => self.seek_file(n, offset),
                op => return self.start_op(n, op, engine),
            }
        }
    }

    /// Workstation `n` creates and opens `file`.
    fn open_file(&mut self, n: usize, file: u32) {
        let s = self.nodes[n].server;
        self.nodes[s].server_mut().open(n, file);
    }

    /// Workstation `n` moves its file pointer.
    fn seek_file(&mut self, n: usize, offset: u64) {
        let s = self.nodes[n].server;
        self.nodes[s].server_mut().seek(n, offset);
    }

    fn start_job(&mut self, n: usize, prio: Priority, cost: Cost, job: Job, engine: &mut Engine<LanEvent>) {
        path::start_job(&mut self.nodes[n].cpu, self.base + n, prio, cost, job, engine);
    }

    fn arm(&mut self, n: usize, peer: usize, t: Option<TimerRequest>, engine: &mut Engine<LanEvent>) {
        let (node, peer32) = ((self.base + n) as u32, (self.base + peer) as u32);
        match t {
            Some(TimerRequest::Retry { gen }) => engine.schedule_in(
                self.nodes[n].session_cfg.retry_period,
                NosEvent::Retry {
                    node,
                    peer: peer32,
                    gen,
                },
            ),
            Some(TimerRequest::Ack { gen }) => engine.schedule_in(
                self.nodes[n].session_cfg.ack_timeout,
                NosEvent::AckTimer {
                    node,
                    peer: peer32,
                    gen,
                },
            ),
            None => {}
        }
    }

    /// Hands packets to the driver while it has room, acks first, sessions round robin.
    fn pump(&mut self, n: usize, engine: &mut Engine<LanEvent>) {
        loop {
            if !self.nodes[n].adapter.can_accept() {
                return;
            }
            let Some(peer) = self.nodes[n].next_ready_peer() else {
                return;
            };
            let now = engine.now();
            let node = &mut self.nodes[n];
            let (packet, payload, timer) = node
                .session_mut(peer)
                .next_packet()
                .expect("ready session has a packet");
            node.track_stall(peer, now);
            let reserved = node.adapter.reserve();
            assert!(reserved, "the driver refused a buffer it said it had");
            // File data is copied into each packet as the packet is built: a response's
            // payload from the server's cache, a write request's from the application's
            // buffer (read requests and acks carry none); unless the server moved the
            // whole reply before it sent it (`ReplyCopy::BeforeSend`).
            let moved = packet.kind == PacketKind::Response
                && matches!(node.role, Role::Server(_))
                && self.cfg.profile.server.reply_copy == ReplyCopy::BeforeSend;
            let data = if packet.carries_data() && !moved {
                payload as u64
            } else {
                0
            };
            let cost = Cost {
                protocol: node.host.instructions(self.cfg.profile.costs.packet_kinstr),
                copy: node.host.memcpy(data),
                ..Cost::default()
            };
            self.arm(n, peer, timer, engine);
            if self.tap.is_on() {
                let bytes = frame_bytes(self.nodes[n].session_cfg.header_bytes + payload);
                let f = Frame {
                    src: self.base + n,
                    dst: self.base + peer,
                    bytes,
                    tag: packet.encode(),
                    pad: 0,
                };
                self.tap.host(
                    now,
                    self.base + n,
                    observe::HostWorkKind::Build,
                    &f,
                    cost.copy,
                    cost.protocol,
                );
            }
            let prio = level_of(&packet);
            let peer = peer as u32;
            self.start_job(
                n,
                prio,
                cost,
                Job::NbSend {
                    peer,
                    packet,
                    payload,
                },
                engine,
            );
        }
    }

    fn job_done(&mut self, n: usize, job: Job, engine: &mut Engine<LanEvent>) {
        match job {
            Job::NbSend {
                peer,
                packet,
                payload,
            } => {
                let header = self.nodes[n].session_cfg.header_bytes;
                let frame = Frame {
                    src: self.base + n,
                    dst: self.base + peer as usize,
                    bytes: frame_bytes(header + payload),
                    tag: packet.encode(),
                    pad: 0,
                };
                let what = if packet.carries_data() {
                    Carries::FileData
                } else if packet.kind.is_ack() {
                    Carries::Control
                } else {
                    Carries::Request
                };
                // the driver copies the packet to the card at the level it was built at
                let prio = level_of(&packet);
                let step = self.nodes[n].adapter.submit_carrying(frame, what);
                self.apply_tx(n, step, prio, engine);
            }
            Job::TxCopy { frame, prio } => {
                let step = self.nodes[n].adapter.copied_to_card(frame);
                self.apply_tx(n, step, prio, engine);
            }
            Job::TxIsr => {
                let step = self.nodes[n].adapter.transmit_complete();
                self.apply_tx(n, step, Priority::Interrupt, engine);
                self.pump(n, engine);
            }
            Job::RxIsr { frame } => {
                self.ledger.arrived(&frame);
                self.nodes[n].adapter.copied_from_card(&frame);
                self.receive_packet(n, frame.src - self.base, Packet::decode(frame.tag), engine);
            }
            Job::ServerRead { peer, asked } => {
                let p = peer as usize;
                let response = self.nodes[n].server_mut().response(asked);
                let now = engine.now();
                let ready = self.storage_access(n, p, response.bytes, false, now);
                // the task's wait besides CPU work (zero unless the scenario sets one)
                let ready = self
                    .request_latency(n, now)
                    .map_or(ready, |end| Some(ready.map_or(end, |t| t.max(end))));
                self.reply_when(n, p, response, ready, engine);
            }
            Job::ServerWrite { peer, bytes } => {
                let p = peer as usize;
                let reply = self.nodes[n].server_mut().store(p, bytes);
                let ready = self.storage_access(n, p, bytes, true, engine.now());
                self.reply_when(n, p, reply, ready, engine);
            }
            Job::RedirDone { bytes } => {
                let (redir, _) = self.nodes[n].workstation_mut();
                if redir.response_done(bytes) {
                    self.issue_requests(n, engine);
                } else {
                    self.next_op(n, engine);
                }
            }
            Job::App => self.next_op(n, engine),
        }
    }

    /// When the per-request latency of a request whose CPU work ends at `now` on server `n`
    /// is over (`None`: no latency). With scope "server" the waits take turns: each starts
    /// when the one before it ends.
    fn request_latency(&mut self, n: usize, now: SimTime) -> Option<SimTime> {
        let costs = &self.cfg.profile.costs;
        let latency = costs.server_request_latency;
        if latency.is_zero() {
            return None;
        }
        Some(match costs.server_request_latency_scope {
            LatencyScope::Task => now + latency,
            LatencyScope::Server => {
                let node = &mut self.nodes[n];
                let end = node.critical_free_at.max(now) + latency;
                node.critical_free_at = end;
                end
            }
        })
    }

    /// Server `n` reads or writes `bytes` at workstation `p`'s file pointer through its
    /// cache; returns when the disk accesses this needs are done (`None`: no disk
    /// modelled, or no file open: the data is in the cache).
    fn storage_access(
        &mut self,
        n: usize,
        p: usize,
        bytes: u32,
        write: bool,
        now: SimTime,
    ) -> Option<SimTime> {
        let node = &mut self.nodes[n];
        let storage = node.storage.as_mut()?;
        let f = match &mut node.role {
            Role::Server(sv) => sv.advance(p, bytes, write)?,
            Role::Workstation { .. } => unreachable!("storage on a workstation"),
        };
        let extents: Vec<Extent> = if write {
            let delay = storage.delay_writes;
            storage.cache.write(f.file, f.pos, bytes as u64, delay)
        } else {
            storage.cache.read(f.file, f.pos, bytes as u64, f.size)
        };
        extents
            .iter()
            .map(|x| storage.disk.access(now, x.file, x.offset, x.bytes, x.write))
            .last()
    }

    /// Sends `reply` from server `n` to `p` now, or at `ready` (the disk done, or the task's
    /// per-request latency over).
    fn reply_when(
        &mut self,
        n: usize,
        p: usize,
        reply: OutMsg,
        ready: Option<SimTime>,
        engine: &mut Engine<LanEvent>,
    ) {
        match ready {
            Some(t) if t > engine.now() => {
                self.nodes[n].replies_waiting += 1;
                engine.schedule(
                    t,
                    NosEvent::DiskDone {
                        node: (self.base + n) as u32,
                        peer: (self.base + p) as u32,
                        reply,
                    },
                )
            }
            _ => self.send_reply(n, p, reply, engine),
        }
    }

    fn send_reply(&mut self, n: usize, p: usize, reply: OutMsg, engine: &mut Engine<LanEvent>) {
        let node = &mut self.nodes[n];
        node.send(p, reply);
        node.track_stall(p, engine.now());
        self.pump(n, engine);
    }

    /// Does what a transmit-side step of node `n`'s driver asks, in order: the frame for
    /// the MAC goes to the segment, then the next copy into the card starts as a CPU job
    /// at `prio` (the priority of the code that took the step).
    fn apply_tx(&mut self, n: usize, step: TxStep, prio: Priority, engine: &mut Engine<LanEvent>) {
        let node = &mut self.nodes[n];
        if let (true, Some(f)) = (self.tap.is_on(), step.copy) {
            let copy = node.adapter.profile.tx_copy_time(f.bytes);
            let kind = observe::HostWorkKind::TxCopy;
            self.tap
                .host(engine.now(), self.base + n, kind, &f, copy, Default::default());
        }
        path::apply_tx(
            &mut self.segment,
            &mut node.cpu,
            &node.adapter,
            self.base + n,
            step,
            prio,
            engine,
        );
    }

    /// The redirector sends read requests while it has buffers and bytes to ask for.
    fn issue_requests(&mut self, n: usize, engine: &mut Engine<LanEvent>) {
        let request_bytes = self.cfg.profile.costs.request_bytes;
        let node = &mut self.nodes[n];
        while let Some(msg) = node
            .workstation_mut()
            .0
            .next_request_message(&self.cfg.profile.redir, request_bytes)
        {
            let server = node.server;
            node.send(server, msg);
        }
        self.pump(n, engine);
    }

    fn receive_packet(&mut self, n: usize, from: usize, packet: Packet, engine: &mut Engine<LanEvent>) {
        let now = engine.now();
        let r = self.nodes[n].session_mut(from).receive(packet);
        self.nodes[n].track_stall(from, now);
        self.arm(n, from, r.timer, engine);
        if r.send_complete == Some(PacketKind::Response) {
            // a response was acknowledged: its server task is free for the next request
            if let Some(req) = self.nodes[n].server_mut().task_done() {
                self.start_server_read(n, req, engine);
            }
        }
        match r.message {
            None => {}
            Some(m) if m.kind == PacketKind::Request => {
                let req = ReadRequest {
                    from,
                    asked: m.value & !WRITE_FLAG,
                    write: m.value & WRITE_FLAG != 0,
                };
                if let Some(req) = self.nodes[n].server_mut().request(req) {
                    self.start_server_read(n, req, engine);
                }
            }
            Some(m) => {
                // from the redirector's buffer into the application's, unless the read
                // went straight into the application's buffer
                let direct = self.nodes[n]
                    .workstation_mut()
                    .0
                    .is_direct(&self.cfg.profile.redir);
                let copied = if direct { 0 } else { m.bytes as u64 };
                let host = &self.nodes[n].host;
                let cost = Cost {
                    copy: host.memcpy(copied),
                    work: host.instructions(self.cfg.profile.costs.redir_request_kinstr),
                    ..Cost::default()
                };
                self.start_job(n, Priority::Task, cost, Job::RedirDone { bytes: m.bytes }, engine);
            }
        }
        self.pump(n, engine);
    }

    /// A network task takes request `req`: the server's per-request work, for a write the
    /// copy of its data from the network buffer into the cache, and with
    /// `ReplyCopy::BeforeSend` the move of the whole reply out of the cache.
    fn start_server_read(&mut self, n: usize, req: ReadRequest, engine: &mut Engine<LanEvent>) {
        // SERVER's run burst done: the foreground's turn on the CPU comes first
        let turn = self.nodes[n].server_mut().take_up();
        // the reply's bytes, moved now only if the whole reply goes before its send
        let before_send = match self.cfg.profile.server.reply_copy {
            ReplyCopy::PerPacket => 0,
            ReplyCopy::BeforeSend if req.write => WRITE_REPLY_BYTES as u64,
            ReplyCopy::BeforeSend => self.nodes[n].server_mut().response(req.asked).bytes as u64,
        };
        let host = &self.nodes[n].host;
        let work = host.instructions(self.cfg.profile.costs.server_request_kinstr) + turn;
        let peer = req.from as u32;
        let (cost, job) = if req.write {
            let cost = Cost {
                work,
                copy: host.memcpy(req.asked as u64 + before_send),
                ..Cost::default()
            };
            (
                cost,
                Job::ServerWrite {
                    peer,
                    bytes: req.asked,
                },
            )
        } else {
            let cost = Cost {
                work,
                copy: host.memcpy(before_send),
                ..Cost::default()
            };
            (
                cost,
                Job::ServerRead {
                    peer,
                    asked: req.asked,
                },
            )
        };
        self.start_job(n, Priority::Task, cost, job, engine);
    }

    /// The medium's indication `ind` about a frame of this part's.
    pub(crate) fn on_indication(&mut self, ind: Indication, engine: &mut Engine<LanEvent>) {
        if let Indication::Dropped { frame } | Indication::Corrupted { frame } = ind {
            self.ledger.lost(&frame);
        }
        match ind {
            Indication::Sent { frame } | Indication::Dropped { frame } => {
                let node = &mut self.nodes[frame.src - self.base];
                let cost = Cost {
                    protocol: node.host.instructions(self.cfg.profile.costs.interrupt_kinstr),
                    ..Cost::default()
                };
                path::tx_interrupt(
                    &mut self.segment,
                    &mut node.cpu,
                    &mut node.adapter,
                    frame.src,
                    cost,
                    engine,
                );
            }
            Indication::Received { frame } => {
                let n = frame.dst - self.base;
                let costs = &self.cfg.profile.costs;
                let kinstr = costs.interrupt_kinstr + costs.packet_kinstr;
                let node = &mut self.nodes[n];
                if !path::rx_interrupt(
                    &mut node.cpu,
                    &mut node.adapter,
                    &node.host,
                    self.base + n,
                    frame,
                    kinstr,
                    engine,
                ) {
                    self.ledger.lost(&frame);
                } else if self.tap.is_on() {
                    let copy = node.adapter.profile.rx_copy_time(frame.bytes);
                    let cpu = node.host.instructions(kinstr);
                    let kind = observe::HostWorkKind::RxInterrupt;
                    self.tap
                        .host(engine.now(), self.base + n, kind, &frame, copy, cpu);
                }
            }
            // the receiver's FCS check discards it; the sender's session recovers
            Indication::Corrupted { .. } => {}
        }
    }
}

impl<A: Application> Lan<A> {
    /// Observation of this part's host work starts.
    pub(crate) fn start_observing(&mut self) {
        self.tap.enable();
    }

    /// The part's observation buffer.
    pub(crate) fn tap(&mut self) -> &mut observe::Tap {
        &mut self.tap
    }

    /// What frame `f` of this part carries: a NetBIOS packet.
    pub(crate) fn content(&self, f: &Frame) -> observe::Content {
        observe::Content::Nos {
            packet: Packet::decode(f.tag),
            header_bytes: self.nodes[f.src - self.base].session_cfg.header_bytes,
        }
    }

    /// The running job on node `node`'s CPU is done (if `gen` is current).
    pub(crate) fn cpu_done(&mut self, node: u32, gen: u32, engine: &mut Engine<LanEvent>) {
        let n = node as usize - self.base;
        let Some(job) = path::cpu_done(&mut self.nodes[n].cpu, node, gen, engine) else {
            return; // the job was preempted; it completes later
        };
        self.job_done(n, job, engine);
    }

    /// An event of the file service.
    pub(crate) fn handle(&mut self, ev: NosEvent, engine: &mut Engine<LanEvent>) {
        match ev {
            NosEvent::Retry { node, peer, gen } => {
                let (n, p) = (node as usize - self.base, peer as usize - self.base);
                self.nodes[n].session_mut(p).retry_expired(gen);
                self.nodes[n].track_stall(p, engine.now());
                self.pump(n, engine);
            }
            NosEvent::AckTimer { node, peer, gen } => {
                let (n, p) = (node as usize - self.base, peer as usize - self.base);
                self.nodes[n].session_mut(p).ack_expired(gen);
                self.pump(n, engine);
            }
            NosEvent::Start { node } => self.next_op(node as usize - self.base, engine),
            NosEvent::DiskDone { node, peer, reply } => {
                let n = node as usize - self.base;
                self.nodes[n].replies_waiting -= 1;
                self.send_reply(n, peer as usize - self.base, reply, engine);
            }
            NosEvent::Flush { node } => {
                let n = node as usize - self.base;
                let now = engine.now();
                if let Some(st) = self.nodes[n].storage.as_mut() {
                    for x in st.cache.flush() {
                        st.disk.access(now, x.file, x.offset, x.bytes, x.write);
                    }
                    if let WritePolicy::Delayed { flush_every } = st.cache.config().policy {
                        engine.schedule_in(flush_every, NosEvent::Flush { node });
                    }
                }
            }
        }
    }
}
