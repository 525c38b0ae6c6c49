//! The LANtastic redirector (REDIR) on a workstation: turns an application's file read or
//! write into requests to the server and hands the responses' data back.
//!
//! A read of B bytes is asked for in requests of at most the redirector's buffer SIZE,
//! with at most BUFFERS requests outstanding at once. A response shorter than its request
//! (the server's network buffer is smaller) makes the redirector ask again for the rest.
//! The read is complete when all B bytes have been handed to the application.
//!
//! A write of B bytes goes the same way the other direction: the data is copied into
//! write requests of at most SIZE bytes each (at most BUFFERS outstanding); the server
//! stores each one and answers with a short reply; the write is complete when every
//! request has been answered. One operation (read or write) is in progress at a time.
//!
//! Invariants: `remaining = to_request + sum(in_flight)` while an operation is in
//! progress; `in_flight.len() <= BUFFERS`; `bytes_written_sent = bytes_written_acked +
//! sum(in_flight)` during a write. Units: bytes.

use std::collections::VecDeque;

use super::config::{LargeReads, RedirConfig, MAX_READ_REQUEST};
use super::packet::{PacketKind, WRITE_FLAG};
use super::session::OutMsg;

/// The redirector of one workstation.
#[derive(Debug, Default)]
pub struct Redirector {
    write: bool,
    read: u32,
    to_request: u32,
    remaining: u32,
    in_flight: VecDeque<u32>,
    /// File data handed to the application so far, bytes (for audits).
    pub bytes_to_app: u64,
    /// File data put into write requests so far, bytes.
    pub bytes_written_sent: u64,
    /// File data of write requests the server has answered, bytes.
    pub bytes_written_acked: u64,
    /// Payload bytes of the servers' write replies (status, not file data).
    pub write_reply_bytes: u64,
}

impl Redirector {
    /// A redirector with no read in progress.
    pub fn new() -> Self {
        Redirector::default()
    }

    /// The application reads `bytes` (the previous read must be complete).
    pub fn start_read(&mut self, bytes: u32) {
        debug_assert_eq!(self.remaining, 0, "a read while another is in progress");
        self.write = false;
        self.read = bytes;
        self.to_request = bytes;
        self.remaining = bytes;
    }

    /// The application writes `bytes` (the previous operation must be complete).
    pub fn start_write(&mut self, bytes: u32) {
        debug_assert_eq!(
            self.remaining, 0,
            "a write while another operation is in progress"
        );
        self.start_read(bytes);
        self.write = true;
    }

    /// Is the current (or last) operation a write?
    pub fn is_write(&self) -> bool {
        self.write
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

    /// The next request as a NetBIOS message: a read request of `request_bytes` on the
    /// wire, or a write request of `request_bytes` followed by the data it carries.
    pub fn next_request_message(&mut self, cfg: &RedirConfig, request_bytes: u32) -> Option<OutMsg> {
        let size = if self.is_direct(cfg) {
            MAX_READ_REQUEST
        } else {
            cfg.size
        };
        let asked = self.next_request(size, cfg.buffers)?;
        Some(if self.write {
            self.bytes_written_sent += asked as u64;
            OutMsg {
                kind: PacketKind::Request,
                bytes: request_bytes + asked,
                value: WRITE_FLAG | asked,
            }
        } else {
            OutMsg {
                kind: PacketKind::Request,
                bytes: request_bytes,
                value: asked,
            }
        })
    }

    /// A response of `bytes` was handed to the application (a read), or the reply to the
    /// oldest write request arrived; true if the operation needs more.
    pub fn response_done(&mut self, bytes: u32) -> bool {
        let asked = self.in_flight.pop_front().expect("response without a request");
        if self.write {
            self.bytes_written_acked += asked as u64;
            self.write_reply_bytes += bytes as u64;
            self.remaining -= asked;
            return self.remaining > 0;
        }
        let got = bytes.min(asked);
        self.bytes_to_app += got as u64;
        self.to_request += asked - got; // a short reply: ask again for the rest
        self.remaining -= got;
        self.remaining > 0
    }

    /// Does the current read go straight into the application's buffer (a read of at
    /// least SIZE bytes with `large_reads = "direct"`)? Its responses then need no copy.
    pub fn is_direct(&self, cfg: &RedirConfig) -> bool {
        !self.write && cfg.large_reads == LargeReads::Direct && self.read >= cfg.size
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
    fn test_writing_sends_data_in_requests_and_counts_replies_not_as_file_data() {
        let mut w = Redirector::new();
        let cfg = RedirConfig {
            buffers: 2,
            size: 1024,
            large_reads: LargeReads::Buffered,
        };
        w.start_write(2500);
        let m = w.next_request_message(&cfg, 64).unwrap();
        assert_eq!(
            (m.kind, m.bytes, m.value),
            (PacketKind::Request, 64 + 1024, WRITE_FLAG | 1024)
        );
        assert!(w.next_request_message(&cfg, 64).is_some());
        assert!(w.next_request_message(&cfg, 64).is_none(), "two buffers");
        assert_eq!(w.bytes_written_sent, 2048);
        assert!(w.response_done(1), "one reply: more to write");
        let m = w.next_request_message(&cfg, 64).unwrap();
        assert_eq!(m.value, WRITE_FLAG | 452);
        assert!(w.response_done(1));
        assert!(!w.response_done(1), "the last reply completes the write");
        assert_eq!(
            (w.bytes_written_acked, w.write_reply_bytes, w.bytes_to_app),
            (2500, 3, 0)
        );
    }

    #[test]
    fn test_idle_request_message_carries_the_bytes_asked() {
        let mut w = Redirector::new();
        let cfg = RedirConfig {
            buffers: 1,
            size: 1024,
            large_reads: LargeReads::Buffered,
        };
        assert_eq!(w.next_request_message(&cfg, 64), None, "no read, no request");
        w.start_read(3000);
        let m = w.next_request_message(&cfg, 64).unwrap();
        assert_eq!((m.kind, m.bytes, m.value), (PacketKind::Request, 64, 1024));
    }

    #[test]
    fn test_direct_reads_ask_for_the_whole_block_and_small_reads_stay_buffered() {
        let cfg = RedirConfig {
            buffers: 1,
            size: 32_768,
            large_reads: LargeReads::Direct,
        };
        let mut w = Redirector::new();
        w.start_read(35_840);
        assert!(w.is_direct(&cfg));
        let m = w.next_request_message(&cfg, 64).unwrap();
        assert_eq!((m.bytes, m.value), (64, 35_840), "one request for the whole read");
        // a 64 KB read is asked at most 65,535 at a time; the server's 57,344-byte network
        // buffer answers short and the rest is asked again
        let mut w = Redirector::new();
        w.start_read(100_000);
        assert_eq!(w.next_request_message(&cfg, 64).unwrap().value, MAX_READ_REQUEST);
        assert!(w.response_done(57_344));
        assert_eq!(w.next_request_message(&cfg, 64).unwrap().value, 100_000 - 57_344);
        // below SIZE: through the buffer, as with large_reads = "buffered"
        let mut w = Redirector::new();
        w.start_read(3072);
        assert!(!w.is_direct(&cfg));
        assert_eq!(w.next_request_message(&cfg, 64).unwrap().value, 3072);
        // writes never go direct
        let mut w = Redirector::new();
        w.start_write(40_000);
        assert!(!w.is_direct(&cfg));
        assert_eq!(
            w.next_request_message(&cfg, 64).unwrap().value,
            WRITE_FLAG | 32_768
        );
        // buffered: SIZE at most, whatever the read
        let buffered = RedirConfig {
            large_reads: LargeReads::Buffered,
            ..cfg
        };
        let mut w = Redirector::new();
        w.start_read(35_840);
        assert!(!w.is_direct(&buffered));
        assert_eq!(w.next_request_message(&buffered, 64).unwrap().value, 32_768);
    }
}
