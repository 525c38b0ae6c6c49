//! What the groups of background frame sources of a run ([`crate::lan::source`]) offered
//! and carried over a window, from their own counts and their senders' MAC counters:
//! shared by every workload that runs groups beside its applications.
//!
//! Units: loads are fractions of the bit rate (header-to-FCS bits), throughput Mb/s,
//! delays µs.

use serde::Serialize;

use crate::ether::consts::PREAMBLE_SFD_BITS;
use crate::ether::Segment;
use crate::lan::source::{Offer, SourceConfig, SourceStats};

/// Per-station counters of the MAC at an instant.
#[derive(Clone, Debug, Default)]
pub struct MacCounts {
    pub frames_sent: u64,
    pub frames_delivered: u64,
    pub bytes_delivered: u64,
    pub collisions: u64,
    pub deferrals: u64,
    pub delay_count: u64,
    pub delay_sum: u128,
}

impl MacCounts {
    /// The bits on the wire (preamble and frame) of the frames delivered intact.
    pub fn delivered_bits(&self) -> u64 {
        self.frames_delivered * PREAMBLE_SFD_BITS + 8 * self.bytes_delivered
    }

    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &MacCounts) {
        self.frames_sent += other.frames_sent;
        self.frames_delivered += other.frames_delivered;
        self.bytes_delivered += other.bytes_delivered;
        self.collisions += other.collisions;
        self.deferrals += other.deferrals;
        self.delay_count += other.delay_count;
        self.delay_sum += other.delay_sum;
    }
}

/// Every station's MAC counters of `seg` now.
pub fn mac_counts(seg: &Segment) -> Vec<MacCounts> {
    (0..seg.stations())
        .map(|i| {
            let st = &seg.mac(i).stats;
            MacCounts {
                frames_sent: st.frames_sent,
                frames_delivered: st.frames_delivered,
                bytes_delivered: st.bytes_delivered,
                collisions: st.collisions,
                deferrals: st.deferrals,
                delay_count: st.access_delay.count(),
                delay_sum: st.access_delay.sum(),
            }
        })
        .collect()
}

/// What a background group offered and carried in the window.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct BackgroundShare {
    pub senders: usize,
    /// "open" (open-loop arrivals) or "backlogged".
    pub offer: String,
    /// The load asked for, a fraction of the bit rate (open loop; none when backlogged).
    pub offered_load: Option<f64>,
    /// Bits generated per second over the bit rate (header to FCS).
    pub offered_load_measured: f64,
    /// Bits its senders delivered intact per second over the bit rate.
    pub carried_load: f64,
    pub throughput_mbps: f64,
    pub frames_sent: u64,
    pub collisions_per_frame: f64,
    /// Arrival to end of successful transmission, µs (open loop; none when backlogged
    /// or when no frame was sent).
    pub queue_access_delay_mean_us: Option<f64>,
    pub queue_access_delay_p99_us: Option<f64>,
    /// Frames that arrived at a full queue.
    pub queue_drops: u64,
}

/// Each group's share of a window of `secs` seconds on a wire of bit time `bit_ns`:
/// `groups[k]` on stations from `bases[k]`, its own counts over the window `stats[k]`, its
/// senders' MAC counters `a` at the window's start and `b` at its end.
pub fn shares(
    groups: &[SourceConfig],
    bases: &[usize],
    stats: &[SourceStats],
    a: &[MacCounts],
    b: &[MacCounts],
    secs: f64,
    bit_ns: f64,
) -> Vec<BackgroundShare> {
    let bit_rate = 1e9 / bit_ns;
    groups
        .iter()
        .zip(bases)
        .zip(stats)
        .map(|((g, &base), st)| {
            let r = base..base + g.senders;
            let sum = |f: fn(&MacCounts) -> u64| -> u64 { r.clone().map(|i| f(&b[i]) - f(&a[i])).sum() };
            let frames_sent = sum(|m| m.frames_sent);
            let carried_bits = 8 * sum(|m| m.bytes_delivered);
            let delay = |v: f64| (st.delay.count() > 0).then_some(v);
            BackgroundShare {
                senders: g.senders,
                offer: match g.offer {
                    Offer::Open { .. } => "open".into(),
                    Offer::Backlogged { .. } => "backlogged".into(),
                },
                offered_load: match g.offer {
                    Offer::Open { offered_load, .. } => Some(offered_load),
                    Offer::Backlogged { .. } => None,
                },
                offered_load_measured: st.arrived_bytes as f64 * 8.0 / secs / bit_rate,
                carried_load: carried_bits as f64 / secs / bit_rate,
                throughput_mbps: carried_bits as f64 / secs / 1e6,
                frames_sent,
                collisions_per_frame: sum(|m| m.collisions) as f64 / frames_sent.max(1) as f64,
                queue_access_delay_mean_us: delay(st.delay.mean() / 1e3),
                queue_access_delay_p99_us: delay(st.delay.quantile(0.99) as f64 / 1e3),
                queue_drops: st.queue_drops,
            }
        })
        .collect()
}
