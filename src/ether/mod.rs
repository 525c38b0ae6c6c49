//! The Ethernet layer: a 10 Mb/s CSMA/CD bus (IEEE 802.3 Clause 4).
//!
//! - [`consts`]: the standard's parameters, in bits and bytes.
//! - [`frame`]: what a MAC client hands over.
//! - [`medium`]: the cable, positions and propagation; carrier sense and overlap checks.
//! - [`backoff`]: truncated binary exponential backoff.
//! - [`mac`]: one station's transmit state machine and its counters.
//! - [`segment`]: the transitions, tying the stations to the medium.
//! - [`observe`]: what an observer sees of the MAC and the medium ([`WireEvent`]).
//! - [`report`]: the segment's statistics.
//! - [`link`]: a point-to-point link (no CSMA/CD, no link header), the other medium kind.
//! - [`wire`]: the [`Wire`] trait the layers above use for either medium, and
//!   [`AnyWire`], the medium a scenario chose.

pub mod backoff;
pub mod consts;
pub mod frame;
pub mod link;
pub mod mac;
pub mod medium;
pub mod observe;
pub mod report;
pub mod segment;
pub mod wire;

pub use frame::{frame_bytes, Frame, StationId};
pub use link::{Link, LinkConfig};
pub use observe::WireEvent;
pub use report::EtherReport;
pub use segment::{EtherEvent, Indication, MacEvent, Segment, SegmentConfig};
pub use wire::{AnyWire, SharedSegment, Wire, WireConfig};
