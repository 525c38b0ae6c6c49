//! The LANtastic redirector (REDIR) on a workstation: turns an application's file read
//! into read requests to the server and hands the responses' data back.
//!
//! A read of B bytes is asked for in requests of at most the redirector's buffer SIZE,
//! with at most BUFFERS requests outstanding at once. A response shorter than its request
//! (the server's network buffer is smaller) makes the redirector ask again for the rest.
//! The read is complete when all B bytes have been handed to the application.
//!
//! Invariants: `remaining = to_request + sum(in_flight)` while a read is in progress;
//! `in_flight.len() <= BUFFERS`. Units: bytes.

use std::collections::VecDeque;

use super::config::RedirConfig;
use super::packet::PacketKind;
use super::session::OutMsg;

/// The redirector of one workstation.
#[derive(Debug, Default)]
pub struct Redirector {
    read: u32,
    to_request: u32,
    remaining: u32,
    in_flight: VecDeque<u32>,
    /// File data handed to the application so far, bytes (for audits).
    pub bytes_to_app: u64,
}

impl Redirector {
    /// A redirector with no read in progress.
    pub fn new() -> Self {
        Redirector::default()
    }

    /// The application reads `bytes` (the previous read must be complete).
    pub fn start_read(&mut self, bytes: u32) {
        debug_assert_eq!(self.remaining, 0, "a read while another is in progress");
        self.read = bytes;
        self.to_request = bytes;
        self.remaining = bytes;
    }

    /// The next read request to send, if the read needs one and a buffer is free: asks for
    /// at most `size` bytes, with at most `buffers` requests outstanding.
    pub fn next_request(&mut self, size: u32, buffers: u32) -> Option<u32> {
        if self.to_request == 0 || self.in_flight.len() as u32 >= buffers {
            return None;
        }
        let asked = size.min(self.to_request);
        self.to_request -= asked;
        self.in_flight.push_back(asked);
        Some(asked)
    }

    /// The next read request as a NetBIOS message of `request_bytes` on the wire.
    pub fn next_request_message(&mut self, cfg: &RedirConfig, request_bytes: u32) -> Option<OutMsg> {
        let asked = self.next_request(cfg.size, cfg.buffers)?;
        Some(OutMsg {
            kind: PacketKind::Request,
            bytes: request_bytes,
            value: asked,
        })
    }

    /// A response of `bytes` was handed to the application; true if the read needs more.
    pub fn response_done(&mut self, bytes: u32) -> bool {
        let asked = self.in_flight.pop_front().expect("response without a request");
        let got = bytes.min(asked);
        self.bytes_to_app += got as u64;
        self.to_request += asked - got; // a short reply: ask again for the rest
        self.remaining -= got;
        self.remaining > 0
    }

    /// Size of the current (or last) read, bytes.
    pub fn read_size(&self) -> u32 {
        self.read
    }

    /// Bytes of the current read not yet asked of the server.
    pub fn to_request(&self) -> u32 {
        self.to_request
    }

    /// Bytes of the current read not yet handed to the application (0 between reads).
    pub fn remaining(&self) -> u32 {
        self.remaining
    }

    /// Bytes asked by each outstanding read request, oldest first.
    pub fn in_flight(&self) -> impl Iterator<Item = u32> + '_ {
        self.in_flight.iter().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_reading_splits_a_read_into_requests_of_its_buffer_size() {
        let mut w = Redirector::new();
        w.start_read(7168);
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
        assert_eq!(w.bytes_to_app, 7168);
        // a 32 KB buffer asks for the whole read at once; two buffers pipeline
        let mut w = Redirector::new();
        w.start_read(64_512);
        assert_eq!(w.next_request(32_768, 2), Some(32_768));
        assert_eq!(w.next_request(32_768, 2), Some(31_744));
        assert_eq!(w.next_request(32_768, 2), None);
    }

    #[test]
    fn test_reading_short_reply_makes_the_redirector_ask_again() {
        let mut w = Redirector::new();
        w.start_read(32_768);
        assert_eq!(w.next_request(32_768, 1), Some(32_768));
        // the server's network buffer holds 4096 bytes: it answers short
        assert!(w.response_done(4096));
        assert_eq!(w.next_request(32_768, 1), Some(28_672));
        assert_eq!(w.remaining(), 28_672);
    }

    #[test]
    fn test_idle_request_message_carries_the_bytes_asked() {
        let mut w = Redirector::new();
        let cfg = RedirConfig {
            buffers: 1,
            size: 1024,
        };
        assert_eq!(w.next_request_message(&cfg, 64), None, "no read, no request");
        w.start_read(3000);
        let m = w.next_request_message(&cfg, 64).unwrap();
        assert_eq!((m.kind, m.bytes, m.value), (PacketKind::Request, 64, 1024));
    }
}
