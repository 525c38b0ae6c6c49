//! The CSMA/CD transmit state of one station, and the statistics it produces.
//!
//! [`MacState`] is the station's single state machine (802.3 4.2.3.2 names in its
//! `Display`). The transitions live in [`super::segment::Segment`], which owns both the
//! stations and the medium; each is a named arm of one `match (state, event)` there.
//!
//! Every timer a station sets carries the station's generation number at the time; the
//! number changes on every transition, so a timer made stale by a collision or a
//! re-deferral is recognised and ignored when it fires.

use std::collections::VecDeque;
use std::fmt;

use super::consts::ATTEMPT_LIMIT;
use super::frame::Frame;
use super::medium::TxId;
use crate::engine::SimRng;
use crate::stats::Histogram;
use crate::time::SimTime;

/// Where a station's transmit process is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MacState {
    /// No frame to send.
    Idle,
    /// A frame is ready; waiting until the carrier has been absent for an IFG.
    Deferring { wake: SimTime },
    /// Sending preamble and frame.
    Transmitting { tx: TxId, end: SimTime },
    /// A collision was detected: sending the jam until `until`.
    Jamming { tx: TxId, until: SimTime },
    /// Waiting `r` slot times before the next attempt.
    Backoff { until: SimTime },
}

impl fmt::Display for MacState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            MacState::Idle => "IDLE",
            MacState::Deferring { .. } => "DEFERRING",
            MacState::Transmitting { .. } => "TRANSMITTING",
            MacState::Jamming { .. } => "JAMMING",
            MacState::Backoff { .. } => "BACKOFF",
        };
        f.write_str(name)
    }
}

/// Counters of one station.
#[derive(Clone, Debug, Default)]
pub struct MacStats {
    /// Frames handed to the MAC by its client.
    pub frames_offered: u64,
    /// Frames whose transmission ended without a detected collision.
    pub frames_sent: u64,
    /// Frames sent by this station that arrived intact at their destination.
    pub frames_delivered: u64,
    /// Bytes (header to FCS, padded) of those frames.
    pub bytes_delivered: u64,
    /// Frames received intact by this station.
    pub frames_received: u64,
    /// Frames that were sent but arrived damaged at their destination.
    pub frames_corrupted: u64,
    /// Collisions this station detected.
    pub collisions: u64,
    /// `collisions_by_attempt[n-1]`: collisions on the n-th attempt of a frame.
    pub collisions_by_attempt: [u64; ATTEMPT_LIMIT as usize],
    /// Times a ready frame had to wait for the carrier (and the IFG after it).
    pub deferrals: u64,
    /// Frames discarded after 16 attempts (excessive collisions).
    pub dropped_excessive: u64,
    /// Head of queue to start of the successful transmission, ns.
    pub access_delay: Histogram,
}

/// One station's MAC: its queue, its state and its backoff stream.
pub struct Mac {
    pub state: MacState,
    /// Generation of the timers that are valid now.
    pub gen: u32,
    /// Frames waiting, the head being the one in progress.
    pub queue: VecDeque<Frame>,
    /// Collisions suffered so far by the head frame.
    pub attempts: u32,
    /// When the head frame reached the head of the queue.
    pub head_since: SimTime,
    pub rng: SimRng,
    pub stats: MacStats,
}

impl Mac {
    pub fn new(rng: SimRng) -> Self {
        Mac {
            state: MacState::Idle,
            gen: 0,
            queue: VecDeque::new(),
            attempts: 0,
            head_since: SimTime::ZERO,
            rng,
            stats: MacStats::default(),
        }
    }

    /// Moves to `state`, invalidating every timer set in the previous one.
    #[inline]
    pub fn enter(&mut self, state: MacState) -> u32 {
        self.state = state;
        self.gen = self.gen.wrapping_add(1);
        self.gen
    }
}
