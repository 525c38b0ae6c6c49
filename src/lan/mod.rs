//! A LAN of hosts on one segment: node 0 is the file server, nodes 1..=n workstations.
//!
//! Owns the composition of the layers for one run: every node's CPU, adapter and NOS
//! sessions, the segment they share, and the redirector/server/application logic that
//! turns a workstation's block read into requests, responses, packets, copies and frames.
//! Every piece of work becomes a job on a CPU (see [`Job`]); every frame goes through the
//! adapter and the CSMA/CD segment. Nothing here computes a throughput from a formula:
//! throughput is what the workstations' sessions receive per second of simulated time.
//!
//! Event flow of one read (workstation W, server S):
//! `AppBlock` (W) -> request message -> `NbSend` (W) -> `TxCopy` (W, PIO) -> wire ->
//! `RxIsr` (S, PIO) -> `ServerRead` (S) -> response packets: `NbSend`/`TxCopy` (S) -> wire
//! -> `RxIsr` (W) ... -> ack -> `RedirDone` (W) -> next request or next block.

mod audit;
mod config;
mod node;
mod stats;

pub use audit::AuditReport;
pub use config::{LanConfig, LanProfile};
pub use stats::{CpuShare, LanSnapshot, NodeSnapshot};

use rand::RngExt;

use crate::engine::{Engine, Model, SimRng, StreamKind};
use crate::ether::{EtherEvent, Frame, Indication, Segment};
use crate::host::{Cost, Priority};
use crate::nos::packet::{Packet, PacketKind};
use crate::nos::session::{OutMsg, TimerRequest};
use crate::time::SimDuration;
use node::Node;

/// Events of the LAN model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LanEvent {
    Ether(EtherEvent),
    /// The running job on `node`'s CPU is done (stale unless `gen` is the CPU's current one).
    CpuDone {
        node: u32,
        gen: u32,
    },
    /// A session's retransmission timer.
    Retry {
        node: u32,
        peer: u32,
        gen: u32,
    },
    /// A session's delayed-acknowledgement timer.
    AckTimer {
        node: u32,
        peer: u32,
        gen: u32,
    },
    /// A workstation starts the benchmark.
    Start {
        node: u32,
    },
}

impl From<EtherEvent> for LanEvent {
    fn from(e: EtherEvent) -> Self {
        LanEvent::Ether(e)
    }
}

/// Work a CPU does; what happens when it completes is in [`Lan::job_done`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// AI-LANBIOS builds a packet; then the driver takes the frame.
    NbSend { peer: u32, packet: Packet, payload: u32 },
    /// Programmed-I/O copy of a frame into a card transmit slot, at the priority of the
    /// code that started it (the NetBIOS send or the transmit-complete interrupt).
    TxCopy { frame: Frame, interrupt: bool },
    /// Transmit-complete interrupt.
    TxIsr,
    /// Receive interrupt: copy the frame out of the ring, then NetBIOS receive.
    RxIsr { frame: Frame },
    /// A server network task serves a read request.
    ServerRead { peer: u32, asked: u32 },
    /// The redirector hands a response's data to the application.
    RedirDone { bytes: u32 },
    /// The application finishes a block and issues the next read.
    AppBlock,
}

/// The model of one LAN run.
pub struct Lan {
    cfg: LanConfig,
    segment: Segment,
    nodes: Vec<Node>,
    inds: Vec<Indication>,
    /// One stream per node for the variation of its application's work.
    rngs: Vec<SimRng>,
    /// Packets lost and delivered, for [`Lan::audit`] (never read by the model).
    ledger: audit::Ledger,
}

impl Lan {
    /// Builds the LAN; workstations start reading blocks of `block` bytes at time zero.
    pub fn new(cfg: LanConfig, block: u32, engine: &mut Engine<LanEvent>) -> Self {
        let segment = Segment::new(&cfg.segment, engine.rng_streams());
        let n = cfg.workstations;
        let mut nodes = Vec::with_capacity(n + 1);
        nodes.push(Node::server(&cfg));
        for w in 1..=n {
            nodes.push(Node::workstation(&cfg, w, block));
        }
        let rngs: Vec<SimRng> = (0..=n)
            .map(|i| engine.rng_streams().stream(StreamKind::Host, i as u64))
            .collect();
        let mut lan = Lan {
            cfg,
            segment,
            nodes,
            inds: Vec::with_capacity(8),
            rngs,
            ledger: audit::Ledger::new(n + 1),
        };
        for w in 1..=n {
            // PERFORM3's stations start together, to within the start-up skew
            let skew = lan.cfg.profile.costs.start_skew.as_nanos();
            let offset = if skew > 0 {
                lan.rngs[w].random_range(0..skew)
            } else {
                0
            };
            engine.schedule_in(
                SimDuration::from_nanos(offset),
                LanEvent::Start { node: w as u32 },
            );
        }
        lan
    }

    pub fn config(&self) -> &LanConfig {
        &self.cfg
    }

    /// A snapshot of every counter, for differencing over a measurement window.
    pub fn snapshot(&self, engine: &Engine<LanEvent>) -> LanSnapshot {
        LanSnapshot::take(&self.nodes, &self.segment, engine.now())
    }

    /// The application's work for one block: `app_block_kinstr`, varied uniformly by
    /// +-`app_jitter` (DOS, timer ticks and the benchmark's own bookkeeping do not take the
    /// same time every block; the variation also keeps the stations from phase-locking).
    fn app_cost(&mut self, w: usize) -> Cost {
        let j = self.cfg.profile.costs.app_jitter;
        let f = if j > 0.0 {
            1.0 + j * (2.0 * self.rngs[w].random::<f64>() - 1.0)
        } else {
            1.0
        };
        Cost {
            work: self.nodes[w]
                .host
                .instructions(self.cfg.profile.costs.app_block_kinstr * f),
            ..Cost::default()
        }
    }

    fn start_job(&mut self, n: usize, prio: Priority, cost: Cost, job: Job, engine: &mut Engine<LanEvent>) {
        let now = engine.now();
        if let Some(c) = self.nodes[n].cpu.submit(now, prio, cost, job) {
            engine.schedule(
                c.at,
                LanEvent::CpuDone {
                    node: n as u32,
                    gen: c.gen,
                },
            );
        }
    }

    fn arm(&mut self, n: usize, peer: usize, t: Option<TimerRequest>, engine: &mut Engine<LanEvent>) {
        let (node, peer32) = (n as u32, peer as u32);
        match t {
            Some(TimerRequest::Retry { gen }) => engine.schedule_in(
                self.nodes[n].session_cfg.retry_period,
                LanEvent::Retry {
                    node,
                    peer: peer32,
                    gen,
                },
            ),
            Some(TimerRequest::Ack { gen }) => engine.schedule_in(
                self.nodes[n].session_cfg.ack_timeout,
                LanEvent::AckTimer {
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
            debug_assert!(reserved);
            // File data is copied from the server's network buffer into each packet as the
            // packet is built (a response's payload; requests and acks carry none).
            let data = if packet.kind == PacketKind::Response {
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
            // AI-LANBIOS answers with an acknowledgement from its receive path (interrupt
            // level); data packets are built by the sending task.
            let prio = if packet.kind.is_ack() {
                Priority::Interrupt
            } else {
                Priority::Task
            };
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
                    src: n,
                    dst: peer as usize,
                    bytes: 14 + header + payload + 4,
                    tag: packet.encode(),
                };
                if let crate::adapter::TxAction::Copy(f) = self.nodes[n].adapter.submit(frame) {
                    self.copy_to_card(n, f, Priority::Task, engine);
                }
            }
            Job::TxCopy { frame, interrupt } => {
                let (mac, copy) = self.nodes[n].adapter.copied_to_card(frame);
                if let Some(f) = mac {
                    self.segment.enqueue(f, engine);
                }
                if let crate::adapter::TxAction::Copy(f) = copy {
                    let prio = if interrupt {
                        Priority::Interrupt
                    } else {
                        Priority::Task
                    };
                    self.copy_to_card(n, f, prio, engine);
                }
            }
            Job::TxIsr => {
                let (mac, copy) = self.nodes[n].adapter.transmit_complete();
                if let Some(f) = mac {
                    self.segment.enqueue(f, engine);
                }
                if let crate::adapter::TxAction::Copy(f) = copy {
                    self.copy_to_card(n, f, Priority::Interrupt, engine);
                }
                self.pump(n, engine);
            }
            Job::RxIsr { frame } => {
                self.ledger.arrived(&frame);
                self.nodes[n].adapter.copied_from_card(&frame);
                self.receive_packet(n, frame.src, Packet::decode(frame.tag), engine);
            }
            Job::ServerRead { peer, asked } => {
                let reply = asked.min(self.cfg.profile.server.network_buffer);
                let p = peer as usize;
                self.nodes[n].send(
                    p,
                    OutMsg {
                        kind: PacketKind::Response,
                        bytes: reply,
                        value: reply,
                    },
                );
                self.nodes[n].track_stall(p, engine.now());
                self.pump(n, engine);
            }
            Job::RedirDone { bytes } => {
                let more = self.nodes[n].ws_mut().response_done(bytes);
                if more {
                    self.issue_requests(n, engine);
                } else {
                    self.nodes[n].ws_mut().block_done(engine.now());
                    let cost = self.app_cost(n);
                    self.start_job(n, Priority::Task, cost, Job::AppBlock, engine);
                }
            }
            Job::AppBlock => {
                self.nodes[n].ws_mut().start_block();
                self.issue_requests(n, engine);
            }
        }
    }

    fn copy_to_card(&mut self, n: usize, frame: Frame, prio: Priority, engine: &mut Engine<LanEvent>) {
        let cost = Cost {
            copy: self.nodes[n].adapter.profile.copy_time(frame.bytes),
            ..Cost::default()
        };
        let interrupt = prio == Priority::Interrupt;
        self.start_job(n, prio, cost, Job::TxCopy { frame, interrupt }, engine);
    }

    /// The redirector sends read requests while it has buffers and bytes to ask for.
    fn issue_requests(&mut self, n: usize, engine: &mut Engine<LanEvent>) {
        let size = self.cfg.profile.redir.size;
        let buffers = self.cfg.profile.redir.buffers;
        let request_bytes = self.cfg.profile.costs.request_bytes;
        while let Some(asked) = self.nodes[n].ws_mut().next_request(size, buffers) {
            let msg = OutMsg {
                kind: PacketKind::Request,
                bytes: request_bytes,
                value: asked,
            };
            self.nodes[n].send(0, msg);
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
            if let Some((peer, asked)) = self.nodes[n].server_mut().task_done() {
                self.start_server_read(n, peer, asked, engine);
            }
        }
        match r.message {
            None => {}
            Some(m) if m.kind == PacketKind::Request => {
                if let Some((peer, asked)) = self.nodes[n].server_mut().request(from, m.value) {
                    self.start_server_read(n, peer, asked, engine);
                }
            }
            Some(m) => {
                let host = &self.nodes[n].host;
                let cost = Cost {
                    copy: host.memcpy(m.bytes as u64),
                    work: host.instructions(self.cfg.profile.costs.redir_request_kinstr),
                    ..Cost::default()
                };
                self.start_job(n, Priority::Task, cost, Job::RedirDone { bytes: m.bytes }, engine);
            }
        }
        self.pump(n, engine);
    }

    fn start_server_read(&mut self, n: usize, peer: usize, asked: u32, engine: &mut Engine<LanEvent>) {
        let cost = Cost {
            work: self.nodes[n]
                .host
                .instructions(self.cfg.profile.costs.server_request_kinstr),
            ..Cost::default()
        };
        self.start_job(
            n,
            Priority::Task,
            cost,
            Job::ServerRead {
                peer: peer as u32,
                asked,
            },
            engine,
        );
    }

    fn on_indication(&mut self, ind: Indication, engine: &mut Engine<LanEvent>) {
        if let Indication::Dropped { frame } | Indication::Corrupted { frame } = ind {
            self.ledger.lost(&frame);
        }
        match ind {
            Indication::Sent { frame } | Indication::Dropped { frame } => {
                let n = frame.src;
                let cost = Cost {
                    protocol: self.nodes[n]
                        .host
                        .instructions(self.cfg.profile.costs.interrupt_kinstr),
                    ..Cost::default()
                };
                self.start_job(n, Priority::Interrupt, cost, Job::TxIsr, engine);
            }
            Indication::Received { frame } => {
                let n = frame.dst;
                if self.nodes[n].adapter.arrive(&frame) {
                    let node = &self.nodes[n];
                    let cost = Cost {
                        copy: node.adapter.profile.copy_time(frame.bytes),
                        protocol: node.host.instructions(
                            self.cfg.profile.costs.interrupt_kinstr + self.cfg.profile.costs.packet_kinstr,
                        ),
                        ..Cost::default()
                    };
                    self.start_job(n, Priority::Interrupt, cost, Job::RxIsr { frame }, engine);
                } else {
                    self.ledger.lost(&frame);
                }
            }
            // the receiver's FCS check discards it; the sender's session recovers
            Indication::Corrupted { .. } => {}
        }
    }
}

impl Model for Lan {
    type Event = LanEvent;

    fn handle(&mut self, ev: LanEvent, engine: &mut Engine<LanEvent>) {
        match ev {
            LanEvent::Ether(e) => {
                self.segment.handle(e, engine);
                self.segment.drain_indications(&mut self.inds);
                let inds = std::mem::take(&mut self.inds);
                for ind in &inds {
                    self.on_indication(*ind, engine);
                }
                self.inds = inds;
                self.inds.clear();
            }
            LanEvent::CpuDone { node, gen } => {
                let n = node as usize;
                if !self.nodes[n].cpu.is_current(gen) {
                    return; // the job was preempted; it completes later
                }
                let (job, next) = self.nodes[n].cpu.finish(engine.now());
                if let Some(c) = next {
                    engine.schedule(c.at, LanEvent::CpuDone { node, gen: c.gen });
                }
                self.job_done(n, job, engine);
                // a job may have handed frames to the MAC
                self.segment.drain_indications(&mut self.inds);
                debug_assert!(self.inds.is_empty(), "indications outside the ether handler");
            }
            LanEvent::Retry { node, peer, gen } => {
                let (n, p) = (node as usize, peer as usize);
                self.nodes[n].session_mut(p).retry_expired(gen);
                self.nodes[n].track_stall(p, engine.now());
                self.pump(n, engine);
            }
            LanEvent::AckTimer { node, peer, gen } => {
                let (n, p) = (node as usize, peer as usize);
                self.nodes[n].session_mut(p).ack_expired(gen);
                self.pump(n, engine);
            }
            LanEvent::Start { node } => {
                let n = node as usize;
                let cost = self.app_cost(n);
                self.start_job(n, Priority::Task, cost, Job::AppBlock, engine);
            }
        }
    }
}
