//! What travels on the wire: a frame's addressing, its size and an opaque tag.
//!
//! Sizes are bytes from the destination address to the FCS (the preamble is not part of
//! the frame). The medium pads frames shorter than 64 bytes (see [`Frame::wire_bytes`]).

use super::consts::MIN_FRAME_BYTES;

/// Index of a station on a segment (its position in the scenario's station list).
pub type StationId = usize;

/// A MAC frame as the MAC client hands it over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    pub src: StationId,
    /// Destination station (unicast; the NOS traffic modelled here is all unicast).
    pub dst: StationId,
    /// Header to FCS, before padding.
    pub bytes: u32,
    /// Opaque to the medium: the upper layer uses it to find what the frame carries.
    pub tag: u64,
}

impl Frame {
    /// Bytes on the wire between preamble and end: at least the 64-byte minimum frame.
    #[inline]
    pub fn wire_bytes(&self) -> u32 {
        self.bytes.max(MIN_FRAME_BYTES)
    }
}
