//! LANtastic settings that bear on file-read traffic, and what each means in the model.
//!
//! Units: bytes, packets, and durations in nanoseconds (ticks of the PC timer, 1/18.2 s,
//! are converted by the scenario loader).

use crate::time::SimDuration;

/// AI-LANBIOS (the NetBIOS layer) of one node.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionConfig {
    /// Session header bytes in every packet (NetBIOS + LANtastic framing).
    pub header_bytes: u32,
    /// SIZE: the NetBIOS buffer (packet) size; a packet's payload is
    /// `min(SIZE, AEX PACKET_SIZE) - header_bytes`.
    pub buffer_size: u32,
    /// BUFFERS: receive buffers. A receiver lets a sender have at most this many packets
    /// unacknowledged, and acknowledges when that many have arrived.
    pub buffers: u32,
    /// INITIAL_SEND_SIZE: bytes of a message sent before the first acknowledgement is
    /// awaited; the window in packets is `ceil(INITIAL_SEND_SIZE / payload)`.
    pub initial_send_size: u32,
    /// RUN_BURST: packets sent back to back before the sender waits for an acknowledgement.
    pub run_burst: u32,
    /// ACK_TIMEOUT: delay before a partial window is acknowledged; zero disables the timer
    /// (acknowledge only at the end of a window or a message).
    pub ack_timeout: SimDuration,
    /// RETRY_PERIOD: retransmission timeout of the go-back-N recovery.
    pub retry_period: SimDuration,
    /// In what order the node's packets of concurrent messages go to the driver.
    pub send_order: SendOrder,
}

/// How AI-LANBIOS shares the driver among messages to different sessions whose windows
/// are open (acknowledgements always go first). Not documented in our sources: each
/// is a hypothesis the calibration can choose between.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendOrder {
    /// The oldest message sends its next packet: one send request is served until its
    /// window closes (a single-threaded NetBIOS working through its send queue).
    OldestMessage,
    /// One packet per session in turn: concurrent replies progress together and end
    /// together (a NetBIOS that rotates over its sessions on every free buffer).
    RoundRobin,
    /// One message in flight for the whole node: the oldest message is sent until the
    /// peer has acknowledged all of it, and only then does the next one (to any session)
    /// start (a NetBIOS that completes one SEND NCB before it takes up the next).
    OneMessage,
}

impl SessionConfig {
    /// Data bytes per packet given the driver's packet size.
    pub fn payload(&self, aex_packet_size: u32) -> u32 {
        self.buffer_size
            .min(aex_packet_size)
            .saturating_sub(self.header_bytes)
            .max(1)
    }

    /// Packets a sender may have unacknowledged towards a receiver with `peer_buffers`.
    pub fn window(&self, payload: u32, peer_buffers: u32) -> u16 {
        let by_size = self.initial_send_size.div_ceil(payload).max(1);
        by_size.min(peer_buffers).min(self.run_burst).clamp(1, 4095) as u16
    }
}

/// REDIR on a workstation.
#[derive(Clone, Debug, PartialEq)]
pub struct RedirConfig {
    /// BUFFERS: read requests the redirector may have outstanding at once.
    pub buffers: u32,
    /// SIZE: the redirector's buffer; the most a single read request asks for (unless
    /// the read goes direct).
    pub size: u32,
    /// What REDIR does with a read of at least SIZE bytes (issue 13; not documented in our
    /// sources, so a hypothesis the calibration can choose).
    pub large_reads: LargeReads,
}

/// How REDIR reads a block of at least its buffer SIZE.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LargeReads {
    /// Through its buffer like any read: requests of at most SIZE bytes, each copied from
    /// the buffer into the application's.
    #[default]
    Buffered,
    /// Straight into the application's buffer: one request for the whole read (at most
    /// [`MAX_READ_REQUEST`] bytes, so the server's network buffer is what splits it), and
    /// no copy on the workstation.
    Direct,
}

/// The most one read request asks for, bytes: a DOS read count and a NetBIOS message
/// length are 16-bit.
pub const MAX_READ_REQUEST: u32 = 65_535;

/// The LANtastic SERVER's startup parameters that bear on reads.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerConfig {
    /// Network tasks: requests the server works on at once.
    pub network_tasks: u32,
    /// Network buffer: the most file data a task returns for one request; a larger
    /// request gets a short reply and the redirector asks again for the rest.
    pub network_buffer: u32,
    /// Run burst: requests SERVER takes up before it yields the CPU to DOS's foreground
    /// for a turn of [`NosCosts::server_yield`] (1-255; Appendix A sets 255).
    pub run_burst: u32,
    /// When a reply's file data is moved out of the cache (the server host's per-byte move).
    pub reply_copy: ReplyCopy,
}

/// When SERVER moves a reply's file data out of the cache (the server host's
/// `memcpy_ns_per_byte`, per byte of the reply). Not documented in our sources: each is a
/// hypothesis the calibration can judge (issue 13).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplyCopy {
    /// Into each packet as AI-LANBIOS builds it: the move is spread over the reply's
    /// packets, and a packet can leave as soon as its own bytes are moved (the default).
    PerPacket,
    /// The network task reads the whole reply into its network buffer, as part of its
    /// work on the request, before it hands the SEND to AI-LANBIOS; the packets then cost
    /// no further move. The reply's first packet waits for the whole move. The move is
    /// charged when the task takes up the request, before any disk access a cache miss
    /// needs (LANPERF): the order of the two is not modelled, only their sum.
    BeforeSend,
}

/// CPU costs of the NOS code, in thousands of instructions (turned into time by each
/// host's MIPS rating).
#[derive(Clone, Debug, PartialEq)]
pub struct NosCosts {
    /// Interrupt entry and exit plus the AEX driver's per-frame work, per frame sent or
    /// received.
    pub interrupt_kinstr: f64,
    /// AI-LANBIOS per packet sent or received (build/parse, session bookkeeping).
    pub packet_kinstr: f64,
    /// LANtastic SERVER per read request (parse, file handle, LANCACHE lookup, DOS read).
    pub server_request_kinstr: f64,
    /// Time a server's network task waits per request besides its CPU work, before its
    /// reply can go (a DOS critical section, a timer-driven step of the NOS): the task is
    /// held, the CPU is free for the others. Zero unless a scenario sets it.
    pub server_request_latency: SimDuration,
    /// Whether the network tasks wait that latency each on their own or one at a time.
    pub server_request_latency_scope: LatencyScope,
    /// The foreground's turn of CPU each time SERVER yields after its run burst, taken
    /// before SERVER takes up its next request (interrupts still preempt it). Zero unless
    /// a scenario sets it.
    pub server_yield: SimDuration,
    /// REDIR per read request on the workstation (DOS redirector interface, build request).
    pub redir_request_kinstr: f64,
    /// The application and DOS per block read (INT 21h, PERFORM3's loop and timing).
    pub app_block_kinstr: f64,
    /// Size of a read request message (payload bytes).
    pub request_bytes: u32,
    /// Relative variation of the application's per-block work (uniform, +-).
    pub app_jitter: f64,
    /// The workstations start within this span of each other.
    pub start_skew: SimDuration,
}

/// Who shares the server's per-request latency (issue 13, hypothesis "a DOS critical
/// section"): not documented in our sources, so the calibration can choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LatencyScope {
    /// Every network task waits on its own: the waits of concurrent requests overlap.
    #[default]
    Task,
    /// The wait is a critical section of the whole server (DOS is not reentrant: one
    /// network task at a time is inside it), so concurrent requests take turns, in the
    /// order their CPU work ends.
    Server,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(initial: u32, buffers: u32, burst: u32) -> SessionConfig {
        SessionConfig {
            header_bytes: 32,
            buffer_size: 1700,
            buffers,
            initial_send_size: initial,
            run_burst: burst,
            ack_timeout: SimDuration::ZERO,
            retry_period: SimDuration::from_millis(55),
            send_order: SendOrder::OldestMessage,
        }
    }

    #[test]
    fn test_payload_is_smaller_of_sizes_less_header() {
        assert_eq!(cfg(1, 1, 1).payload(1500), 1468);
        assert_eq!(cfg(1, 1, 1).payload(4300), 1668);
    }

    #[test]
    fn test_window_is_the_tightest_limit() {
        assert_eq!(cfg(65_535, 29, 254).window(1668, 29), 29);
        assert_eq!(cfg(65_535, 29, 254).window(1668, 8), 8);
        assert_eq!(cfg(4_096, 29, 254).window(1468, 29), 3);
        assert_eq!(cfg(65_535, 29, 2).window(1668, 29), 2);
    }
}
