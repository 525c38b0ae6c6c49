//! A TCP segment as the model carries it, and its size on the wire.
//!
//! Sizes are bytes. An IP datagram is the 20-byte IP header (RFC 791 section 3.1, no
//! options), the 20-byte TCP header (RFC 793 section 3.1, data offset 5: no options on
//! data segments) and the payload; the Ethernet frame around it is
//! [`crate::ether::frame_bytes`] of that (the medium pads short frames to 64 bytes).

use crate::ether::frame_bytes;

/// IP header without options, bytes (RFC 791 section 3.1, IHL = 5).
pub const IP_HEADER_BYTES: u32 = 20;
/// TCP header without options, bytes (RFC 793 section 3.1, data offset = 5).
pub const TCP_HEADER_BYTES: u32 = 20;

/// One segment: `len` payload bytes from sequence `seq`, acknowledging everything before
/// `ack` and offering `window` bytes beyond it; `fin` takes the sequence number
/// `seq + len`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    pub seq: u64,
    pub len: u32,
    pub ack: u64,
    pub window: u32,
    pub fin: bool,
}

impl Segment {
    /// Sequence space the segment occupies (payload, plus one for a FIN).
    pub fn seq_len(&self) -> u64 {
        self.len as u64 + self.fin as u64
    }
    /// End of the sequence space the segment occupies.
    pub fn end(&self) -> u64 {
        self.seq + self.seq_len()
    }
    /// True for a segment that carries neither data nor a FIN (an ACK or window update).
    pub fn is_pure_ack(&self) -> bool {
        self.seq_len() == 0
    }
    /// IP datagram size: headers and payload.
    pub fn ip_bytes(&self) -> u32 {
        IP_HEADER_BYTES + TCP_HEADER_BYTES + self.len
    }
    /// Ethernet frame size (header to FCS, before padding).
    pub fn frame_bytes(&self) -> u32 {
        frame_bytes(self.ip_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_full_linux_segment_is_1494_bytes() {
        // REFERENCE-ttcp.md, ceiling table: MSS 1436 gives a 1494-byte data frame
        let s = Segment {
            seq: 0,
            len: 1436,
            ack: 0,
            window: 0,
            fin: false,
        };
        assert_eq!(s.frame_bytes(), 1494);
        assert_eq!(s.end(), 1436);
    }

    #[test]
    fn test_pure_ack_is_58_bytes_before_padding() {
        let s = Segment {
            seq: 7,
            len: 0,
            ack: 9,
            window: 100,
            fin: false,
        };
        assert!(s.is_pure_ack());
        assert_eq!(s.frame_bytes(), 58);
        let f = Segment { fin: true, ..s };
        assert!(!f.is_pure_ack());
        assert_eq!(f.end(), 8);
    }
}
