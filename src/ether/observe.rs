//! What the MAC and the medium let an observer see: one [`WireEvent`] per MAC decision
//! or signal, in the order the segment takes them.
//!
//! The segment records observations only when asked ([`super::Segment::observe`]); they
//! wait in a buffer that its owner drains after every event it hands the segment, so the
//! buffer holds at most the few observations of one event. With observation off nothing
//! is recorded: a branch on an `Option` per MAC decision is the whole cost.
//!
//! Times are simulated instants at the station named (`station`), in integer ns. Every
//! consumer (the pcap writer, the event log, the space-time diagram) reads this one
//! stream; none of them reaches into the MAC.

use super::frame::{Frame, StationId};
use super::medium::TxId;
use crate::time::SimTime;

/// One thing a station's MAC did or sensed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireEvent {
    /// `station` has a frame ready but must wait for the carrier it senses (or the
    /// interframe gap after it) until `until` (802.3 4.2.3.2.1).
    Defer {
        at: SimTime,
        station: StationId,
        until: SimTime,
    },
    /// `station` puts the first preamble bit of transmission `tx` on the wire; `attempt`
    /// counts from 1; `damaged`: fault injection will damage it on the wire.
    TxStart {
        at: SimTime,
        station: StationId,
        tx: TxId,
        frame: Frame,
        attempt: u32,
        damaged: bool,
    },
    /// Another signal reached transmitting `station`: a collision of `tx`.
    Collision {
        at: SimTime,
        station: StationId,
        tx: TxId,
    },
    /// `station` sends the 32-bit jam of `tx` from `at` (after the preamble) to `until`;
    /// transmission `tx` ends there.
    Jam {
        at: SimTime,
        station: StationId,
        tx: TxId,
        until: SimTime,
    },
    /// After collision number `attempt` of its frame, `station` waits `slots` slot times
    /// until `until` (4.2.3.2.5); `slots` may be 0.
    Backoff {
        at: SimTime,
        station: StationId,
        attempt: u32,
        slots: u64,
        until: SimTime,
    },
    /// The last bit of `tx` left `station` without a collision (the frame may still be
    /// damaged on the wire: see [`WireEvent::Rx`]).
    Success {
        at: SimTime,
        station: StationId,
        tx: TxId,
        frame: Frame,
    },
    /// `station` discards `frame` after its 16th collision (excessive collisions).
    Drop {
        at: SimTime,
        station: StationId,
        frame: Frame,
        attempts: u32,
    },
    /// The last bit of `tx` reached its destination `station`: `intact`, or damaged (an
    /// overlap there, or fault injection) and discarded by the FCS check.
    Rx {
        at: SimTime,
        station: StationId,
        tx: TxId,
        frame: Frame,
        intact: bool,
    },
}

impl WireEvent {
    /// When the event happened.
    pub fn at(&self) -> SimTime {
        match *self {
            WireEvent::Defer { at, .. }
            | WireEvent::TxStart { at, .. }
            | WireEvent::Collision { at, .. }
            | WireEvent::Jam { at, .. }
            | WireEvent::Backoff { at, .. }
            | WireEvent::Success { at, .. }
            | WireEvent::Drop { at, .. }
            | WireEvent::Rx { at, .. } => at,
        }
    }

    /// The station it happened at.
    pub fn station(&self) -> StationId {
        match *self {
            WireEvent::Defer { station, .. }
            | WireEvent::TxStart { station, .. }
            | WireEvent::Collision { station, .. }
            | WireEvent::Jam { station, .. }
            | WireEvent::Backoff { station, .. }
            | WireEvent::Success { station, .. }
            | WireEvent::Drop { station, .. }
            | WireEvent::Rx { station, .. } => station,
        }
    }

    /// Its name in the event log (`defer`, `tx_start`, `collision`, `jam`, `backoff`,
    /// `success`, `drop`, `rx`).
    pub fn name(&self) -> &'static str {
        match self {
            WireEvent::Defer { .. } => "defer",
            WireEvent::TxStart { .. } => "tx_start",
            WireEvent::Collision { .. } => "collision",
            WireEvent::Jam { .. } => "jam",
            WireEvent::Backoff { .. } => "backoff",
            WireEvent::Success { .. } => "success",
            WireEvent::Drop { .. } => "drop",
            WireEvent::Rx { .. } => "rx",
        }
    }
}
