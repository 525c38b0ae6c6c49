//! One node of the LAN: its CPU, adapter, sessions and role (server or workstation).
//!
//! Invariants: a server has one session per workstation (index = workstation - 1), a
//! workstation one session, with the server (index 0). Busy server tasks never exceed the
//! configured network tasks; a workstation's outstanding requests never exceed its
//! redirector buffers.

use std::collections::VecDeque;

use super::config::LanConfig;
use super::Job;
use crate::adapter::Adapter;
use crate::host::{Cpu, HostProfile};
use crate::nos::config::SessionConfig;
use crate::nos::session::Session;
use crate::time::SimTime;

/// The file server's request handling.
#[derive(Debug)]
pub struct ServerState {
    tasks: u32,
    busy: u32,
    pending: VecDeque<(usize, u32)>,
    pub requests: u64,
}

impl ServerState {
    /// A read request for `asked` bytes from workstation `from`: returns it if a network
    /// task is free to take it now, else queues it.
    pub fn request(&mut self, from: usize, asked: u32) -> Option<(usize, u32)> {
        self.requests += 1;
        if self.busy < self.tasks {
            self.busy += 1;
            Some((from, asked))
        } else {
            self.pending.push_back((from, asked));
            None
        }
    }

    /// A task's response was acknowledged: the task takes the next waiting request.
    pub fn task_done(&mut self) -> Option<(usize, u32)> {
        debug_assert!(self.busy > 0);
        match self.pending.pop_front() {
            Some(r) => Some(r),
            None => {
                self.busy -= 1;
                None
            }
        }
    }

    /// Network tasks working on a request (serving it or waiting for its response's ack).
    pub fn busy(&self) -> u32 {
        self.busy
    }

    /// The configured network tasks.
    pub fn tasks(&self) -> u32 {
        self.tasks
    }

    /// Requests waiting for a free task.
    pub fn waiting(&self) -> usize {
        self.pending.len()
    }
}

/// A workstation running PERFORM3 through the redirector.
#[derive(Debug)]
pub struct WsState {
    block: u32,
    to_request: u32,
    remaining: u32,
    in_flight: VecDeque<u32>,
    block_started: SimTime,
    pub blocks_done: u64,
    pub block_time_ns: crate::stats::Histogram,
    /// File data handed to the application so far, bytes (for audits).
    pub bytes_to_app: u64,
}

impl WsState {
    /// A workstation that will read blocks of `block` bytes, not yet started.
    pub fn new(block: u32) -> Self {
        WsState {
            block,
            to_request: 0,
            remaining: 0,
            in_flight: VecDeque::new(),
            block_started: SimTime::ZERO,
            blocks_done: 0,
            block_time_ns: crate::stats::Histogram::new(),
            bytes_to_app: 0,
        }
    }

    pub fn start_block(&mut self) {
        self.to_request = self.block;
        self.remaining = self.block;
    }

    /// The next read request the redirector may send, if any.
    pub fn next_request(&mut self, size: u32, buffers: u32) -> Option<u32> {
        if self.to_request == 0 || self.in_flight.len() as u32 >= buffers {
            return None;
        }
        let asked = size.min(self.to_request);
        self.to_request -= asked;
        self.in_flight.push_back(asked);
        Some(asked)
    }

    /// A response of `bytes` was handed to the application; true if the block needs more.
    pub fn response_done(&mut self, bytes: u32) -> bool {
        let asked = self.in_flight.pop_front().expect("response without a request");
        let got = bytes.min(asked);
        self.bytes_to_app += got as u64;
        self.to_request += asked - got; // a short reply: ask again for the rest
        self.remaining -= got;
        self.remaining > 0
    }

    /// The block size, bytes.
    pub fn block(&self) -> u32 {
        self.block
    }

    /// Bytes of the current block not yet asked of the server.
    pub fn to_request(&self) -> u32 {
        self.to_request
    }

    /// Bytes of the current block not yet handed to the application (0 between blocks).
    pub fn remaining(&self) -> u32 {
        self.remaining
    }

    /// Bytes asked by each outstanding read request, oldest first.
    pub fn in_flight(&self) -> impl Iterator<Item = u32> + '_ {
        self.in_flight.iter().copied()
    }

    pub fn block_done(&mut self, now: SimTime) {
        self.blocks_done += 1;
        self.block_time_ns.record((now - self.block_started).as_nanos());
        self.block_started = now;
    }
}

pub enum Role {
    Server(ServerState),
    Workstation(WsState),
}

pub struct Node {
    pub cpu: Cpu<Job>,
    pub adapter: Adapter,
    pub host: HostProfile,
    pub session_cfg: SessionConfig,
    sessions: Vec<Session>,
    rr: usize,
    next_order: u64,
    pub role: Role,
    stall_since: Vec<Option<SimTime>>,
    /// Session-time spent with the window closed or a message awaiting its ack, ns.
    pub stall_ns: u64,
}

fn session_between(from: &SessionConfig, from_packet: u32, to: &SessionConfig, to_packet: u32) -> Session {
    let payload = from.payload(from_packet);
    let window = from.window(payload, to.buffers);
    let peer_payload = to.payload(to_packet);
    let ack_every = to.window(peer_payload, from.buffers);
    Session::new(payload, window, ack_every, !from.ack_timeout.is_zero())
}

impl Node {
    pub fn server(cfg: &LanConfig) -> Self {
        let sessions = (0..cfg.workstations)
            .map(|_| {
                session_between(
                    &cfg.profile.server_session,
                    cfg.profile.server_adapter.packet_size,
                    &cfg.profile.workstation_session,
                    cfg.profile.workstation_adapter.packet_size,
                )
            })
            .collect();
        let role = Role::Server(ServerState {
            tasks: cfg.profile.server.network_tasks,
            busy: 0,
            pending: VecDeque::new(),
            requests: 0,
        });
        Node::build(
            cfg.profile.server_host.clone(),
            Adapter::new(cfg.profile.server_adapter.clone()),
            cfg.profile.server_session.clone(),
            sessions,
            role,
        )
    }

    pub fn workstation(cfg: &LanConfig, _index: usize, block: u32) -> Self {
        let session = session_between(
            &cfg.profile.workstation_session,
            cfg.profile.workstation_adapter.packet_size,
            &cfg.profile.server_session,
            cfg.profile.server_adapter.packet_size,
        );
        let role = Role::Workstation(WsState::new(block));
        Node::build(
            cfg.profile.workstation_host.clone(),
            Adapter::new(cfg.profile.workstation_adapter.clone()),
            cfg.profile.workstation_session.clone(),
            vec![session],
            role,
        )
    }

    fn build(
        host: HostProfile,
        adapter: Adapter,
        session_cfg: SessionConfig,
        sessions: Vec<Session>,
        role: Role,
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
        }
    }

    fn index(&self, peer: usize) -> usize {
        match self.role {
            Role::Server(_) => peer - 1,
            Role::Workstation(_) => {
                debug_assert_eq!(peer, 0);
                0
            }
        }
    }

    fn peer_of(&self, index: usize) -> usize {
        match self.role {
            Role::Server(_) => index + 1,
            Role::Workstation(_) => 0,
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
    pub fn send(&mut self, peer: usize, msg: crate::nos::session::OutMsg) {
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

    pub fn ws_mut(&mut self) -> &mut WsState {
        match &mut self.role {
            Role::Workstation(w) => w,
            Role::Server(_) => unreachable!("server asked for workstation state"),
        }
    }

    pub fn server_mut(&mut self) -> &mut ServerState {
        match &mut self.role {
            Role::Server(s) => s,
            Role::Workstation(_) => unreachable!("workstation asked for server state"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ws(block: u32) -> WsState {
        WsState::new(block)
    }

    #[test]
    fn test_redirector_splits_a_read_into_requests_of_its_buffer_size() {
        let mut w = ws(7168);
        w.start_block();
        // one redirector buffer: one request at a time, 1024 bytes each
        assert_eq!(w.next_request(1024, 1), Some(1024));
        assert_eq!(
            w.next_request(1024, 1),
            None,
            "one buffer: one request outstanding"
        );
        let mut asked = vec![1024];
        while w.response_done(1024) {
            asked.push(w.next_request(1024, 1).unwrap());
        }
        assert_eq!(asked, vec![1024; 7]);
        // a 32 KB buffer asks for the whole block at once; two buffers pipeline
        let mut w = ws(64_512);
        w.start_block();
        assert_eq!(w.next_request(32_768, 2), Some(32_768));
        assert_eq!(w.next_request(32_768, 2), Some(31_744));
        assert_eq!(w.next_request(32_768, 2), None);
    }

    #[test]
    fn test_short_reply_makes_the_redirector_ask_again() {
        let mut w = ws(32_768);
        w.start_block();
        assert_eq!(w.next_request(32_768, 1), Some(32_768));
        // the server's network buffer holds 4096 bytes: it answers short
        assert!(w.response_done(4096));
        assert_eq!(w.next_request(32_768, 1), Some(28_672));
    }

    #[test]
    fn test_server_tasks_limit_concurrent_requests() {
        let mut s = ServerState {
            tasks: 2,
            busy: 0,
            pending: VecDeque::new(),
            requests: 0,
        };
        assert_eq!(s.request(1, 100), Some((1, 100)));
        assert_eq!(s.request(2, 200), Some((2, 200)));
        assert_eq!(s.request(3, 300), None, "both tasks busy");
        assert_eq!(
            s.task_done(),
            Some((3, 300)),
            "the freed task takes the waiting request"
        );
        assert_eq!(s.task_done(), None);
        assert_eq!(s.busy, 1);
    }
}
