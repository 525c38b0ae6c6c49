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
use crate::nos::config::SessionConfig;
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
    /// Replies whose network task waits for the disk.
    pub replies_waiting: u64,
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
    next_order: u64,
    pub role: Role<A>,
    stall_since: Vec<Option<SimTime>>,
    /// Session-time spent with the window closed or a message awaiting its ack, ns.
    pub stall_ns: u64,
    /// The server's disk and cache, if modelled.
    pub storage: Option<Storage>,
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
            Role::Server(FileServer::new(&p.server)),
            me,
        );
        node.storage = cfg.storage.as_ref().map(|s| Storage {
            cache: Cache::new(s.cache.clone()),
            disk: Disk::new(s.disk.clone()),
            delay_writes: s.delay_writes && matches!(s.cache.policy, WritePolicy::Delayed { .. }),
            replies_waiting: 0,
        });
        node
    }

    /// A workstation served by node `server`.
    pub fn workstation(cfg: &LanConfig, app: A, server: usize) -> Self {
        let p = &cfg.profile;
        let session = session_between(
            &p.workstation_session,
            p.workstation_adapter.packet_size,
            &p.server_session,
            p.server_adapter.packet_size,
        );
        Node::build(
            p.workstation_host.clone(),
            Adapter::new(p.workstation_adapter.clone()),
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
            next_order: 0,
            role,
            stall_since: vec![None; n],
            stall_ns: 0,
            storage: None,
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
    /// Acknowledgements go first (round robin among sessions). Data goes in the order the
    /// messages were handed to AI-LANBIOS: the oldest message whose window is open sends
    /// its next packet, so one send request is served until its window closes, as a
    /// single-threaded DOS NetBIOS does, rather than packets of all messages interleaved.
    pub fn next_ready_peer(&mut self) -> Option<usize> {
        let n = self.sessions.len();
        for k in 0..n {
            let i = (self.rr + k) % n;
            if self.sessions[i].has_ack() {
                self.rr = (i + 1) % n;
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
