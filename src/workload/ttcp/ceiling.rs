//! The ceiling of a bulk TCP transfer on an otherwise idle 10 Mb/s segment: what ttcp
//! would report if the hosts and adapters took no time.
//!
//! Every data segment carries a full MSS in a frame of IP and TCP headers without options
//! ([`crate::tcp::segment`]); the receiver sends one pure ACK (a minimum 64-byte frame)
//! per `ack_every_segments` data segments; each frame is preceded by the preamble and
//! followed by the interframe gap (802.3 4.2.5, 4.4.2); nothing collides. For Linux 1.2
//! (MSS 1436, an ACK per segment) at 100 ns a bit: 1436 bytes per 1211.2 + 67.2 us,
//! 1097.0 KiB/s.
//!
//! Units: KiB/s (ttcp's KB, 1024 bytes), from sizes in bytes and the bit time in ns.

use crate::ether::consts::{INTERFRAME_GAP_BITS, MIN_FRAME_BYTES, PREAMBLE_SFD_BITS};
use crate::ether::frame_bytes;
use crate::tcp::segment::{IP_HEADER_BYTES, TCP_HEADER_BYTES};
use crate::tcp::StackProfile;

/// Bits a frame of `bytes` (header to FCS) occupies the wire for, with its preamble and
/// the gap after it.
fn wire_bits(bytes: u32) -> u64 {
    bytes.max(MIN_FRAME_BYTES) as u64 * 8 + PREAMBLE_SFD_BITS + INTERFRAME_GAP_BITS
}

/// The ceiling in KiB/s of `stack` on a segment of `bit_ns` ns per bit.
pub fn ceiling_kib_per_s(stack: &StackProfile, bit_ns: u64) -> f64 {
    let headers = IP_HEADER_BYTES + TCP_HEADER_BYTES;
    let data = wire_bits(frame_bytes(headers + stack.mss_bytes)) as f64;
    let ack = wire_bits(frame_bytes(headers)) as f64 / stack.ack_every_segments.max(1) as f64;
    let seconds = (data + ack) * bit_ns as f64 * 1e-9;
    stack.mss_bytes as f64 / 1024.0 / seconds
}
