//! TCP/IP on a host, as pure state machines (at the layer of [`crate::nos`]: the
//! composition layer turns what they ask for into CPU jobs, frames and timers).
//!
//! - [`segment`]: what a TCP segment carries and its size on the wire (IP and TCP
//!   headers, then [`crate::ether::frame_bytes`]).
//! - [`profile`]: a stack's constants (MSS, ACK policy, window rules, timers, checksum
//!   placement), one [`StackProfile`] per stack; the values and their sources live in
//!   scenario files, not here.
//! - [`encap`]: the interface's framing (Ethernet, 4.2BSD trailers, none), IP
//!   fragmentation to its MTU, and the UNIBUS driver's copy-or-remap rules.
//! - [`rto`]: the retransmission timeout estimator (smoothed RTT and deviation, Karn's
//!   rule, exponential backoff).
//! - [`conn`]: one established connection: the send half (socket send buffer,
//!   segmentation by MSS, the peer's window, congestion window, retransmission on
//!   timeout, FIN) and the receive half (socket receive buffer, offered window, window
//!   updates, immediate or delayed ACKs).
//!
//! Nothing here touches the engine, a CPU or an adapter; time is passed in. Sequence
//! numbers are byte offsets from the start of the connection as `u64` (a transfer never
//! wraps them; the SYN exchange is not modelled: a connection starts ESTABLISHED), and
//! a FIN takes one sequence number after the last data byte.

pub mod conn;
pub mod encap;
pub mod profile;
pub mod rto;
pub mod segment;

pub use conn::{ConnError, ConnStats, Connection, Timer, TimerRequest};
pub use encap::{Framing, Interface, Piece, UbaWork};
pub use profile::{AckClock, Congestion, SendRule, StackProfile, WindowRule, WindowUpdateRule};
pub use segment::Segment;
