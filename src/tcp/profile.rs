//! A TCP/IP stack's constants: what differs between Linux 1.2 and 4.2BSD is data here,
//! not code elsewhere.
//!
//! Sizes are bytes, times [`SimDuration`]. The values of each stack, with their sources,
//! are in a scenario file (`[workload.stack]` of `scenarios/ttcp1995/ttcp-1995.toml`); [`StackProfile::check`] states the
//! ranges. The per-packet CPU costs of the stack belong to the host model, not here.

use crate::time::SimDuration;

/// How the receiver computes the window it offers from its buffer space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowRule {
    /// Linux 1.2 `sock_rspace` and `tcp_select_window`: offer
    /// `min((rcvbuf - rmem) / 2 - reserve, max)`, nothing if `rmem >= rcvbuf - full_margin`;
    /// an offer below `min(mss, sws_floor)` keeps the current edge.
    HalfFreeSpace {
        reserve_bytes: u32,
        max_bytes: u32,
        full_margin_bytes: u32,
        sws_floor_bytes: u32,
    },
    /// 4.2BSD `tcp_output`: offer the free space, nothing if it is below
    /// `rcvbuf / sws_divisor` (receiver silly-window avoidance).
    FreeSpace { sws_divisor: u32 },
}

/// When a read that opened the window makes the receiver send a window update.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowUpdateRule {
    /// Linux 1.2 `tcp_read`: the offered edge moved by more than one MSS. The model sends
    /// it once the edge moves by RFC 1122 4.2.3.3's `min(MSS, rcvbuf / 2)`: at exactly one
    /// MSS Linux's own test would leave a one-segment window shut (see `conn::read`).
    MoreThanMss,
    /// The offered edge moved by at least this percentage of the receive buffer
    /// (4.2BSD `tcp_output`: 35%).
    PercentOfBuffer(u32),
}

/// How the sender's congestion window evolves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Congestion {
    /// No congestion window (4.2BSD as released): the peer's window alone limits.
    None,
    /// Starts at one segment and grows by one segment per window of ACKs, up to
    /// `max_segments`; a timeout sets it back to one (Linux 1.2: ssthresh 0).
    Linear { max_segments: u32 },
}

/// When an owed acknowledgement leaves on its own (without data to ride on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AckClock {
    /// A one-shot timer of `delayed_ack` started by the first unacknowledged segment; the
    /// `ack_every_segments`-th segment is acknowledged at once (Linux 1.2 style).
    OneShot,
    /// 4.2BSD `tcp_fasttimo`: a free-running host clock ticking every `delayed_ack`
    /// (`PR_FASTHZ` = 5/s: 200 ms) sends every owed ACK at its next tick, however long it
    /// was owed; no segment count forces one (`ack_every_segments` is not used).
    FastTimeout,
}

/// When the sender sends data that is not a full segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendRule {
    /// A full segment; the last queued bytes (held by Nagle while data is in flight, if
    /// `nagle`); or, when nothing is in flight, a segment the peer's window cuts short if
    /// it is at least half the largest window the peer offered (sender silly-window
    /// avoidance, RFC 1122 4.2.3.4; Linux 1.2 `tcp_write`: `copy < max_window >> 1`
    /// waits), else what the window allows when the persist timer overrides (Linux 1.2).
    FullLastOrIdle,
    /// 4.2BSD `tcp_output`: a full segment, or all the queued data, or `len * 4 >=`
    /// the peer's offered window (`snd_wnd`); Nagle does not exist yet.
    FullAllOrQuarterWindow,
}

/// The constants of one TCP/IP stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackProfile {
    /// Largest payload per segment.
    pub mss_bytes: u32,
    /// Acknowledge at once when this many in-order data segments are unacknowledged
    /// (1: every segment).
    pub ack_every_segments: u32,
    /// Time an owed acknowledgement may wait for a ride before it is sent alone (only
    /// when `ack_every_segments > 1`).
    pub delayed_ack: SimDuration,
    /// What sends an owed acknowledgement on its own.
    pub ack_clock: AckClock,
    /// When a partial segment is sent.
    pub send_rule: SendRule,
    pub window: WindowRule,
    pub window_update: WindowUpdateRule,
    /// Bytes a queued segment costs in a socket buffer besides its payload (Linux counts
    /// the skb's allocation size; 0 counts payload only).
    pub buffer_overhead_bytes: u32,
    pub congestion: Congestion,
    /// Hold a short segment while data is unacknowledged (Nagle, RFC 896).
    pub nagle: bool,
    /// Retransmission timeout before any round trip is measured, and its bounds.
    pub rto_initial: SimDuration,
    pub rto_min: SimDuration,
    pub rto_max: SimDuration,
    /// The checksum is computed in the same pass as the user-kernel copy (else a
    /// separate pass over the data); read by the host model.
    pub checksum_in_copy: bool,
}

impl StackProfile {
    /// The first range that does not hold, as (field, reason).
    pub fn check(&self) -> Result<(), (&'static str, &'static str)> {
        if !(64..=65_495).contains(&self.mss_bytes) {
            return Err(("mss_bytes", "must be 64..=65495"));
        }
        if !(1..=64).contains(&self.ack_every_segments) {
            return Err(("ack_every_segments", "must be 1..=64"));
        }
        if (self.ack_every_segments > 1 || self.ack_clock == AckClock::FastTimeout)
            && self.delayed_ack.is_zero()
        {
            return Err((
                "delayed_ack",
                "must be positive when ACKs wait for a second segment",
            ));
        }
        if self.rto_min.is_zero() || self.rto_min > self.rto_initial || self.rto_initial > self.rto_max {
            return Err(("rto_initial", "needs 0 < rto_min <= rto_initial <= rto_max"));
        }
        if let WindowRule::FreeSpace { sws_divisor: 0 } = self.window {
            return Err(("window", "sws_divisor must be positive"));
        }
        if let WindowUpdateRule::PercentOfBuffer(p) = self.window_update {
            if !(1..=100).contains(&p) {
                return Err(("window_update", "percent must be 1..=100"));
            }
        }
        if self.nagle && self.send_rule == SendRule::FullAllOrQuarterWindow {
            return Err(("nagle", "the 4.2BSD send rule has no Nagle algorithm"));
        }
        if let Congestion::Linear { max_segments: 0 } = self.congestion {
            return Err(("congestion", "max_segments must be positive"));
        }
        Ok(())
    }
}
