//! One node of the LAN: its CPU, adapter, NetBIOS sessions and role (the file server, or a
//! workstation with its redirector and application).
//!
//! Invariants: a server has one session per workstation (index = workstation - 1), a
//! workstation one session, with the server (index 0).

use super::app::Application;
use super::config::LanConfig;
use super::Job;
use crate::adapter::Adapter;
use crate::host::{Cpu, Disk, HostProfile};
use crate::nos::cache::{Cache, WritePolicy};
use crate::nos::config::{SendOrder, SessionConfig};
use crate::nos::redirector::Redirector;
use crate::nos::server::FileServer;
use crate::nos::session::{OutMsg, Session};
use crate::time::SimTime;

/// A server's disk and cache.
pub struct Storage {
    pub cache: Cache,
    pub disk: Disk,
    /// Writes may stay dirty in the cache (policy and sharing mode allow it).
    pub delay_writes: bool,
}

/// What a node does on the LAN.
pub enum Role<A> {
    Server(FileServer),
    Workstation { redir: Redirector, app: A },
}

pub struct Node<A> {
    pub cpu: Cpu<Job>,
    pub adapter: Adapter,
    pub host: HostProfile,
    pub session_cfg: SessionConfig,
    sessions: Vec<Session>,
    rr: usize,
    /// Where the round robin over sessions with data to send resumes.
    data_rr: usize,
    next_order: u64,
    pub role: Role<A>,
    stall_since: Vec<Option<SimTime>>,
    /// Session-time spent with the window closed or a message awaiting its ack, ns.
    pub stall_ns: u64,
    /// The server's disk and cache, if modelled.
    pub storage: Option<Storage>,
    /// Replies whose network task waits (for the disk, or its per-request latency)
    /// before they can go.
    pub replies_waiting: u64,
    /// When the server's critical section (a per-request latency of scope "server") is
    /// free again: the waits are granted in the order asked, back to back.
    pub critical_free_at: SimTime,
    /// A workstation's server (node number); a server's own number.
    pub server: usize,
}

fn session_between(from: &SessionConfig, from_packet: u32, to: &SessionConfig, to_packet: u32) -> Session {
    let payload = from.payload(from_packet);
    let window = from.window(payload, to.buffers);
    let peer_payload = to.payload(to_packet);
    let ack_every = to.window(peer_payload, from.buffers);
    Session::new(payload, window, ack_every, !from.ack_timeout.is_zero())
}

impl<A: Application> Node<A> {
    /// Server node number `me`, with a session for every workstation.
    pub fn server(cfg: &LanConfig, me: usize) -> Self {
        let p = &cfg.profile;
        let sessions = (0..cfg.workstations)
            .map(|_| {
                session_between(
                    &p.server_session,
                    p.server_adapter.packet_size,
                    &p.workstation_session,
                    p.workstation_adapter.packet_size,
                )
            })
            .collect();
        let mut node = Node::build(
            p.server_host.clone(),
            Adapter::new(p.server_adapter.clone()),
            p.server_session.clone(),
            sessions,
            Role::Server(FileServer::new(&p.server, p.costs.server_yield)),
            me,
        );
        node.storage = cfg.storage.as_ref().map(|s| Storage {
            cache: Cache::new(s.cache.clone()),
            disk: Disk::new(s.disk.clone()),
            delay_writes: s.delay_writes && matches!(s.cache.policy, WritePolicy::Delayed { .. }),
        });
        node
    }

    /// Workstation `w` (1-based) served by node `server`.
    pub fn workstation(cfg: &LanConfig, app: A, w: usize, server: usize) -> Self {
        let p = &cfg.profile;
        let session = session_between(
            &p.workstation_session,
            p.workstation_adapter.packet_size,
            &p.server_session,
            p.server_adapter.packet_size,
        );
        Node::build(
            p.workstation_host.clone(),
            Adapter::new(p.workstation_adapter_of(w).clone()),
            p.workstation_session.clone(),
            vec![session],
            Role::Workstation {
                redir: Redirector::new(),
                app,
            },
            server,
        )
    }

    fn build(
        host: HostProfile,
        adapter: Adapter,
        session_cfg: SessionConfig,
        sessions: Vec<Session>,
        role: Role<A>,
        server: usize,
    ) -> Self {
        let n = sessions.len();
        Node {
            cpu: Cpu::new(),
            adapter,
            host,
            session_cfg,
            sessions,
            rr: 0,
            data_rr: 0,
            next_order: 0,
            role,
            stall_since: vec![None; n],
            stall_ns: 0,
            storage: None,
            replies_waiting: 0,
            critical_free_at: SimTime::ZERO,
            server,
        }
    }
}

impl<A> Node<A> {
    fn index(&self, peer: usize) -> usize {
        match self.role {
            Role::Server(_) => peer - 1,
            Role::Workstation { .. } => {
                debug_assert_eq!(peer, self.server);
                0
            }
        }
    }

    fn peer_of(&self, index: usize) -> usize {
        match self.role {
            Role::Server(_) => index + 1,
            Role::Workstation { .. } => self.server,
        }
    }

    pub fn session_mut(&mut self, peer: usize) -> &mut Session {
        let i = self.index(peer);
        &mut self.sessions[i]
    }

    pub fn sessions(&self) -> &[Session] {
        &self.sessions
    }

    /// The next peer (round robin) whose session has something to send.
    ///
    /// Acknowledgements go first (round robin among sessions). Data goes by the node's
    /// [`SendOrder`]: with `OldestMessage` in the order the messages were handed to
    /// AI-LANBIOS (the oldest message whose window is open sends its next packet, so one
    /// send request is served until its window closes); with `RoundRobin` one packet per
    /// session with an open window in turn; with `OneMessage` as `OldestMessage`, but a
    /// message once started keeps the driver to itself until it is acknowledged in full.
    pub fn next_ready_peer(&mut self) -> Option<usize> {
        let n = self.sessions.len();
        for k in 0..n {
            let i = (self.rr + k) % n;
            if self.sessions[i].has_ack() {
                self.rr = (i + 1) % n;
                return Some(self.peer_of(i));
            }
        }
        if self.session_cfg.send_order == SendOrder::RoundRobin {
            let i = (0..n)
                .map(|k| (self.data_rr + k) % n)
                .find(|&i| self.sessions[i].sendable_order().is_some())?;
            self.data_rr = (i + 1) % n;
            return Some(self.peer_of(i));
        }
        if self.session_cfg.send_order == SendOrder::OneMessage {
            if let Some((_, i)) = (0..n)
                .filter_map(|i| Some((self.sessions[i].in_flight_order()?, i)))
                .min()
            {
                self.sessions[i].sendable_order()?;
                return Some(self.peer_of(i));
            }
        }
        let i = (0..n)
            .filter_map(|i| Some((self.sessions[i].sendable_order()?, i)))
            .min()?
            .1;
        Some(self.peer_of(i))
    }

    /// Queues `msg` to `peer`, stamped with the order it was handed over.
    pub fn send(&mut self, peer: usize, msg: OutMsg) {
        self.next_order += 1;
        let order = self.next_order;
        self.session_mut(peer).send_ordered(msg, order);
    }

    /// Updates the time the session with `peer` has spent waiting for acknowledgements.
    pub fn track_stall(&mut self, peer: usize, now: SimTime) {
        let i = self.index(peer);
        let stalled = self.sessions[i].waiting_for_ack();
        match (stalled, self.stall_since[i]) {
            (true, None) => self.stall_since[i] = Some(now),
            (false, Some(t)) => {
                self.stall_ns += (now - t).as_nanos();
                self.stall_since[i] = None;
            }
            _ => {}
        }
    }

    /// Stall time including stalls still open at `now`.
    pub fn stall_until(&self, now: SimTime) -> u64 {
        self.stall_ns
            + self
                .stall_since
                .iter()
                .flatten()
                .map(|t| (now - *t).as_nanos())
                .sum::<u64>()
    }

    /// Time the node's disk has been busy by `now`, ns (0 without a disk).
    pub fn disk_busy_until(&self, now: SimTime) -> u64 {
        self.storage.as_ref().map_or(0, |s| s.disk.busy_until(now))
    }

    /// The redirector and application of a workstation.
    pub fn workstation_mut(&mut self) -> (&mut Redirector, &mut A) {
        match &mut self.role {
            Role::Workstation { redir, app } => (redir, app),
            Role::Server(_) => unreachable!("server asked for workstation state"),
        }
    }

    /// The application of a workstation, if this is one.
    pub fn app(&self) -> Option<&A> {
        match &self.role {
            Role::Workstation { app, .. } => Some(app),
            Role::Server(_) => None,
        }
    }

    pub fn server_mut(&mut self) -> &mut FileServer {
        match &mut self.role {
            Role::Server(s) => s,
            Role::Workstation { .. } => unreachable!("workstation asked for server state"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapter::{AdapterProfile, CopyEngine, SendCopy, TransmitLength};
    use crate::nos::config::{ReplyCopy, ServerConfig};
    use crate::nos::packet::{Packet, PacketKind};
    use crate::time::SimDuration;

    struct NoApp;
    impl Application for NoApp {
        fn start_delay(&mut self, _: &mut crate::engine::SimRng) -> SimDuration {
            SimDuration::ZERO
        }
        fn next_op(&mut self, _: SimTime, _: &mut crate::engine::SimRng) -> super::super::app::AppOp {
            unreachable!("a server node never asks its application")
        }
        fn bytes_read(&self) -> u64 {
            0
        }
    }

    /// A server with three sessions (peers 1, 2, 3), each with a 3-packet reply queued
    /// in the order peer 1, 2, 3 and a window of 4 packets.
    fn server(order: SendOrder) -> Node<NoApp> {
        let cfg = SessionConfig {
            header_bytes: 32,
            buffer_size: 1032,
            buffers: 4,
            initial_send_size: 4000,
            run_burst: 8,
            ack_timeout: SimDuration::ZERO,
            retry_period: SimDuration::from_millis(500),
            send_order: order,
        };
        let adapter = AdapterProfile {
            name: "test".into(),
            bus_width_bits: 16,
            copy: CopyEngine::ProgrammedIo {
                access_ns: 500.0,
                setup_ns: 0.0,
                transmit_length: TransmitLength::Frame,
                send_copy: SendCopy::Queued,
            },
            card_ram_bytes: 16 * 1024,
            page_bytes: 256,
            transmit_buffers: 8,
            packet_size: 1500,
        };
        let host = HostProfile {
            name: "test".into(),
            mips: 10.0,
            memcpy_ns_per_byte: 100.0,
        };
        let sessions = (0..3).map(|_| Session::new(1000, 4, 4, false)).collect();
        let server = FileServer::new(
            &ServerConfig {
                network_tasks: 3,
                network_buffer: 4096,
                run_burst: 1,
                reply_copy: ReplyCopy::PerPacket,
            },
            SimDuration::ZERO,
        );
        let mut node = Node::build(
            host,
            Adapter::new(adapter),
            cfg,
            sessions,
            Role::Server(server),
            0,
        );
        for peer in 1..=3 {
            let msg = OutMsg {
                kind: PacketKind::Response,
                bytes: 3000,
                value: 3000,
            };
            node.send(peer, msg);
        }
        node
    }

    /// The peers of the next data packets the node hands to the driver, at most `k`.
    fn first_packets(node: &mut Node<NoApp>, k: usize) -> Vec<usize> {
        let mut peers = Vec::new();
        while peers.len() < k {
            let Some(peer) = node.next_ready_peer() else {
                break;
            };
            node.session_mut(peer).next_packet().expect("a packet");
            peers.push(peer);
        }
        peers
    }

    #[test]
    fn test_oldest_message_serves_one_reply_then_the_next() {
        assert_eq!(
            first_packets(&mut server(SendOrder::OldestMessage), 6),
            [1, 1, 1, 2, 2, 2]
        );
    }

    #[test]
    fn test_one_message_waits_for_the_whole_reply_s_acknowledgement() {
        let mut node = server(SendOrder::OneMessage);
        assert_eq!(first_packets(&mut node, 3), [1, 1, 1]);
        // peer 1's reply is out but not acknowledged: no other reply may start
        assert_eq!(node.next_ready_peer(), None);
        let ack = Packet {
            kind: PacketKind::Ack,
            msg: 0,
            seq: 0,
            last: false,
            value: 3,
            acks: false,
        };
        node.session_mut(1).receive(ack);
        assert_eq!(first_packets(&mut node, 4), [2, 2, 2]);
        assert_eq!(node.next_ready_peer(), None);
    }

    #[test]
    fn test_round_robin_interleaves_the_replies_packet_by_packet() {
        assert_eq!(
            first_packets(&mut server(SendOrder::RoundRobin), 6),
            [1, 2, 3, 1, 2, 3]
        );
    }
}
