//! Snapshots of a LAN's counters, differenced over a measurement window.
//!
//! Busy times are in ns. CPU time is counted when a job starts, so a job running across
//! the end of a window is counted in full in the window where it started (at most one job
//! per CPU per window edge; the busy total is clipped to the window).

use serde::Serialize;

use super::node::Node;
use crate::ether::medium::MediumTime;
use crate::ether::Segment;
use crate::host::CpuStats;
use crate::time::SimTime;

/// Counters of one node at an instant.
#[derive(Clone, Debug, Default)]
pub struct NodeSnapshot {
    pub cpu: CpuStats,
    pub cpu_busy_ns: u64,
    pub payload_received: u64,
    pub packets_sent: u64,
    pub packets_retransmitted: u64,
    pub retry_timeouts: u64,
    pub rx_ring_drops: u64,
    pub stall_ns: u64,
    pub sessions: u64,
    /// Time the node's disk has been busy (0 without one), ns.
    pub disk_busy_ns: u64,
}

/// Counters of the whole LAN at an instant.
#[derive(Clone, Debug, Default)]
pub struct LanSnapshot {
    pub at: SimTime,
    pub nodes: Vec<NodeSnapshot>,
    pub medium: MediumTime,
    pub collisions: u64,
    pub frames_sent: u64,
    pub frames_dropped: u64,
    pub frames_corrupted: u64,
    pub bytes_delivered: u64,
}

/// Shares of a CPU's time over a window, 0..1.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct CpuShare {
    pub busy: f64,
    pub copy: f64,
    pub protocol: f64,
    pub work: f64,
}

/// The medium's busy times in `r` (a report of the segment at an instant), whole ns.
pub fn medium_time(r: &crate::ether::EtherReport) -> MediumTime {
    MediumTime {
        success_ns: (r.time_success_s * 1e9).round() as u64,
        collision_ns: (r.time_collision_s * 1e9).round() as u64,
        corrupted_ns: (r.time_corrupted_s * 1e9).round() as u64,
    }
}

impl LanSnapshot {
    pub(super) fn take<A>(nodes: &[Node<A>], segment: &Segment, at: SimTime) -> Self {
        let nodes = nodes
            .iter()
            .map(|n| {
                let sess = n.sessions();
                let sum = |f: fn(&crate::nos::session::SessionStats) -> u64| {
                    sess.iter().map(|s| f(&s.stats)).sum::<u64>()
                };
                NodeSnapshot {
                    cpu: n.cpu.stats().clone(),
                    cpu_busy_ns: n.cpu.busy_until(at),
                    payload_received: sum(|s| s.payload_received),
                    packets_sent: sum(|s| s.packets_sent),
                    packets_retransmitted: sum(|s| s.packets_retransmitted),
                    retry_timeouts: sum(|s| s.retry_timeouts),
                    rx_ring_drops: n.adapter.stats.rx_ring_drops,
                    stall_ns: n.stall_until(at),
                    sessions: sess.len() as u64,
                    disk_busy_ns: n.disk_busy_until(at),
                }
            })
            .collect();
        let r = segment.report(at);
        LanSnapshot {
            at,
            nodes,
            medium: medium_time(&r),
            collisions: r.collisions,
            frames_sent: r.frames_sent,
            frames_dropped: r.frames_dropped,
            frames_corrupted: r.frames_corrupted,
            bytes_delivered: r.bytes_delivered,
        }
    }

    /// Window length from `earlier` to `self`, ns.
    pub fn window_ns(&self, earlier: &LanSnapshot) -> u64 {
        (self.at - earlier.at).as_nanos()
    }

    /// Share of node `i`'s CPU over the window.
    pub fn cpu_share(&self, earlier: &LanSnapshot, i: usize) -> CpuShare {
        let w = self.window_ns(earlier).max(1) as f64;
        let (a, b) = (&earlier.nodes[i], &self.nodes[i]);
        CpuShare {
            busy: (b.cpu_busy_ns - a.cpu_busy_ns) as f64 / w,
            copy: (b.cpu.copy_ns - a.cpu.copy_ns) as f64 / w,
            protocol: (b.cpu.protocol_ns - a.cpu.protocol_ns) as f64 / w,
            work: (b.cpu.work_ns - a.cpu.work_ns) as f64 / w,
        }
    }
}
