//! The LANtastic file server's handling of read and write requests.
//!
//! The server has a fixed number of network tasks. A request takes a free task, or waits
//! in arrival order for one. For a read, a task reads the file data and answers with at
//! most its network buffer of data; for a write, it stores the data the request carried
//! and answers with a short reply of [`WRITE_REPLY_BYTES`]. Either way it stays busy until
//! its response is acknowledged, then takes the next waiting request. Where the data
//! lives (LANCACHE or disk, and how long that takes) is the composition layer's business
//! (the LAN model above, with [`super::cache`] and the host's disk); this module counts
//! what each workstation wrote, for the conservation audit.
//!
//! SERVER runs as a DOS program beside the foreground: after every `run_burst` requests it
//! takes up, it yields the CPU to the foreground for a turn of CPU time (`server_yield`,
//! zero unless a scenario sets it) before it takes up the next ([`FileServer::take_up`]).
//! Interrupts (the AEX driver, AI-LANBIOS) still preempt the foreground.
//!
//! Invariants: `busy <= tasks`; a request waits only while every task is busy; every
//! write request's data is stored once (`stored`), in the order the session delivered it;
//! `taken_since_yield <= run_burst`. Units: bytes; times in simulated ns.

use std::collections::VecDeque;

use super::config::ServerConfig;
use super::packet::PacketKind;
use super::session::OutMsg;
use crate::time::SimDuration;

/// Payload of the server's reply to a write request (its status), bytes. The reply is a
/// minimum-size frame whatever this is; LANtastic's exact reply size is unknown (assumed).
pub const WRITE_REPLY_BYTES: u32 = 1;

/// A request: which workstation asked, for how many bytes (a read), or how many bytes of
/// data it carries (a write).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadRequest {
    pub from: usize,
    pub asked: u32,
    pub write: bool,
}

/// The file server of one node.
#[derive(Debug)]
pub struct FileServer {
    tasks: u32,
    network_buffer: u32,
    busy: u32,
    pending: VecDeque<ReadRequest>,
    /// Requests received.
    pub requests: u64,
    /// File data stored for each workstation (index = workstation), bytes.
    stored: Vec<u64>,
    /// The file each workstation has open and its file pointer (index = workstation).
    open: Vec<Option<OpenFile>>,
    run_burst: u32,
    yield_for: SimDuration,
    /// Requests taken up since SERVER last yielded.
    taken_since_yield: u32,
    /// Times SERVER has yielded to the foreground.
    pub yields: u64,
}

/// A workstation's open file on the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenFile {
    pub file: u32,
    /// Offset of the next read or write, bytes.
    pub pos: u64,
    /// Bytes in the file.
    pub size: u64,
}

impl FileServer {
    /// A server with no request yet; a zero `yield_for` makes SERVER's yields cost
    /// nothing ([`FileServer::take_up`] is then always zero).
    pub fn new(cfg: &ServerConfig, yield_for: SimDuration) -> Self {
        FileServer {
            tasks: cfg.network_tasks,
            network_buffer: cfg.network_buffer,
            busy: 0,
            pending: VecDeque::new(),
            requests: 0,
            stored: Vec::new(),
            open: Vec::new(),
            run_burst: cfg.run_burst.max(1),
            yield_for,
            taken_since_yield: 0,
            yields: 0,
        }
    }

    /// A network task takes a request up: the CPU time the foreground takes first, if
    /// SERVER's last run burst is complete (it then yields to the foreground before going
    /// on), else zero. The request counts toward the next burst.
    pub fn take_up(&mut self) -> SimDuration {
        if self.yield_for.is_zero() {
            return SimDuration::ZERO;
        }
        let turn = if self.taken_since_yield == self.run_burst {
            self.taken_since_yield = 0;
            self.yields += 1;
            self.yield_for
        } else {
            SimDuration::ZERO
        };
        self.taken_since_yield += 1;
        turn
    }

    /// A read request arrived: returns it if a network task is free to take it now, else
    /// queues it.
    pub fn request(&mut self, r: ReadRequest) -> Option<ReadRequest> {
        self.requests += 1;
        if self.busy < self.tasks {
            self.busy += 1;
            Some(r)
        } else {
            self.pending.push_back(r);
            None
        }
    }

    /// The response to a request that asked for `asked` bytes: at most a network buffer.
    pub fn response(&self, asked: u32) -> OutMsg {
        let reply = asked.min(self.network_buffer);
        OutMsg {
            kind: PacketKind::Response,
            bytes: reply,
            value: reply,
        }
    }

    /// Stores `bytes` of a write request from workstation `from`; returns the reply.
    pub fn store(&mut self, from: usize, bytes: u32) -> OutMsg {
        if self.stored.len() <= from {
            self.stored.resize(from + 1, 0);
        }
        self.stored[from] += bytes as u64;
        OutMsg {
            kind: PacketKind::Response,
            bytes: WRITE_REPLY_BYTES,
            value: WRITE_REPLY_BYTES,
        }
    }

    fn slot(&mut self, from: usize) -> &mut Option<OpenFile> {
        if self.open.len() <= from {
            self.open.resize(from + 1, None);
        }
        &mut self.open[from]
    }

    /// Workstation `from` creates `file` (empty) and opens it.
    pub fn open(&mut self, from: usize, file: u32) {
        *self.slot(from) = Some(OpenFile {
            file,
            pos: 0,
            size: 0,
        });
    }

    /// Workstation `from` moves its file pointer.
    pub fn seek(&mut self, from: usize, offset: u64) {
        if let Some(f) = self.slot(from) {
            f.pos = offset;
        }
    }

    /// The file workstation `from` has open, if any (PERFORM3's stations open none: their
    /// file is assumed to be in LANCACHE already).
    pub fn open_file(&self, from: usize) -> Option<OpenFile> {
        self.open.get(from).copied().flatten()
    }

    /// Moves workstation `from`'s file pointer past `bytes` just read or written (a write
    /// past the end grows the file); returns the file as it was before the access.
    pub fn advance(&mut self, from: usize, bytes: u32, write: bool) -> Option<OpenFile> {
        let f = self.slot(from).as_mut()?;
        let at = *f;
        f.pos += bytes as u64;
        if write {
            f.size = f.size.max(f.pos);
        }
        Some(at)
    }

    /// File data stored for workstation `from` so far, bytes.
    pub fn stored(&self, from: usize) -> u64 {
        self.stored.get(from).copied().unwrap_or(0)
    }

    /// A task's response was acknowledged: the task takes the next waiting request.
    pub fn task_done(&mut self) -> Option<ReadRequest> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nos::config::ReplyCopy;

    fn server(tasks: u32, network_buffer: u32) -> FileServer {
        let cfg = ServerConfig {
            network_tasks: tasks,
            network_buffer,
            run_burst: 1,
            reply_copy: ReplyCopy::PerPacket,
        };
        FileServer::new(&cfg, SimDuration::ZERO)
    }

    #[test]
    fn test_server_yields_to_the_foreground_after_its_run_burst() {
        let cfg = ServerConfig {
            network_tasks: 7,
            network_buffer: 4096,
            run_burst: 3,
            reply_copy: ReplyCopy::PerPacket,
        };
        let ms = SimDuration::from_millis;
        let mut s = FileServer::new(&cfg, ms(2));
        // the first burst of three goes without a turn; the fourth request waits for the
        // foreground's 2 ms, and so does every third after it
        let turns: Vec<u64> = (0..10).map(|_| s.take_up().as_nanos() / 1_000_000).collect();
        assert_eq!(turns, [0, 0, 0, 2, 0, 0, 2, 0, 0, 2]);
        assert_eq!(s.yields, 3);
        // a run burst of 1 yields before every request but the first
        let one = ServerConfig {
            run_burst: 1,
            ..cfg.clone()
        };
        let mut s = FileServer::new(&one, ms(3));
        let turns: Vec<u64> = (0..4).map(|_| s.take_up().as_nanos() / 1_000_000).collect();
        assert_eq!(turns, [0, 3, 3, 3]);
        // no yield time: no turns, no yields counted
        let mut free = FileServer::new(&one, SimDuration::ZERO);
        assert!((0..10).all(|_| free.take_up().is_zero()));
        assert_eq!(free.yields, 0);
    }

    fn req(from: usize, asked: u32) -> ReadRequest {
        ReadRequest {
            from,
            asked,
            write: false,
        }
    }

    #[test]
    fn test_busy_request_waits_for_a_task() {
        let mut s = server(2, 4096);
        assert_eq!(s.request(req(1, 100)), Some(req(1, 100)));
        assert_eq!(s.request(req(2, 200)), Some(req(2, 200)));
        assert_eq!(s.request(req(3, 300)), None, "both tasks busy");
        assert_eq!(
            s.task_done(),
            Some(req(3, 300)),
            "the freed task takes the waiting request"
        );
        assert_eq!(s.task_done(), None);
        assert_eq!(s.busy(), 1);
        assert_eq!(s.requests, 3);
    }

    #[test]
    fn test_write_is_stored_once_and_answered_short() {
        let mut s = server(1, 4096);
        let r = s.store(3, 1024);
        assert_eq!((r.kind, r.bytes), (PacketKind::Response, WRITE_REPLY_BYTES));
        s.store(3, 512);
        assert_eq!((s.stored(3), s.stored(2), s.stored(9)), (1536, 0, 0));
    }

    #[test]
    fn test_response_is_at_most_a_network_buffer() {
        let s = server(1, 4096);
        assert_eq!(s.response(1000).bytes, 1000);
        let r = s.response(32_768);
        assert_eq!((r.kind, r.bytes, r.value), (PacketKind::Response, 4096, 4096));
    }
}
