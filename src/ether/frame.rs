//! What travels on the wire: a frame's addressing, its size and an opaque tag.
//!
//! Sizes are bytes from the destination address to the FCS (the preamble is not part of
//! the frame). The medium pads frames shorter than 64 bytes (see [`Frame::wire_bytes`]).

use super::consts::{FCS_BYTES, HEADER_BYTES, MIN_FRAME_BYTES};

/// Index of a station on a segment (its position in the scenario's station list).
pub type StationId = usize;

/// A MAC frame as the MAC client hands it over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    pub src: StationId,
    /// Destination station (unicast; the NOS traffic modelled here is all unicast).
    pub dst: StationId,
    /// Header to FCS, before padding: what the hosts copy.
    pub bytes: u32,
    /// Opaque to the medium: the upper layer uses it to find what the frame carries.
    pub tag: u64,
    /// Bytes the card sends after the frame's own, when its driver sends a whole buffer
    /// (`adapter.transmit_length` "data" or "message"); zero otherwise. On the wire and in the
    /// receiver's ring, not copied by either host.
    pub pad: u32,
}

/// Size of a frame (header to FCS, before padding) whose data field holds `data_bytes`:
/// the 14-byte header (addresses and type/length, 802.3 3.1.1) plus the data plus the
/// 4-byte FCS. The one place this sum is written.
#[inline]
pub const fn frame_bytes(data_bytes: u32) -> u32 {
    HEADER_BYTES + data_bytes + FCS_BYTES
}

impl Frame {
    /// Bytes on the wire between preamble and end: the frame and any buffer padding its
    /// driver sends, at least the 64-byte minimum frame.
    #[inline]
    pub fn wire_bytes(&self) -> u32 {
        (self.bytes + self.pad).max(MIN_FRAME_BYTES)
    }
}
