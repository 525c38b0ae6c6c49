//! Statistics of a segment, per station and for the medium, as a serialisable report.
//!
//! Throughput counts the bits of delivered frames from header to FCS (padding included,
//! preamble excluded) per second of elapsed simulated time. Medium time is split into
//! successful transmissions, collision periods and idle time (global time, at the
//! transmitters). The capture effect is measured as runs of consecutive successful
//! transmissions by the same station.

use serde::Serialize;

use super::consts::ATTEMPT_LIMIT;
use super::frame::StationId;
use super::mac::Mac;
use super::medium::Medium;
use crate::stats::{jain_index, DelaySummary, Histogram};
use crate::time::SimTime;

/// Runs of consecutive successes by one station.
#[derive(Clone, Debug, Default)]
pub struct CaptureStats {
    last: Option<StationId>,
    current: u64,
    runs: u64,
    longest: u64,
    successes: u64,
}

impl CaptureStats {
    pub fn success(&mut self, s: StationId) {
        self.successes += 1;
        if self.last == Some(s) {
            self.current += 1;
        } else {
            self.last = Some(s);
            self.current = 1;
            self.runs += 1;
        }
        self.longest = self.longest.max(self.current);
    }

    /// Mean length of a run of consecutive successes by one station.
    pub fn mean_run(&self) -> f64 {
        if self.runs == 0 {
            0.0
        } else {
            self.successes as f64 / self.runs as f64
        }
    }

    pub fn longest_run(&self) -> u64 {
        self.longest
    }
}

/// Figures of one station.
#[derive(Clone, Debug, Serialize)]
pub struct StationReport {
    pub station: usize,
    pub frames_offered: u64,
    pub frames_sent: u64,
    pub frames_delivered: u64,
    pub bytes_delivered: u64,
    pub frames_received: u64,
    pub frames_corrupted: u64,
    pub collisions: u64,
    pub deferrals: u64,
    pub dropped_excessive: u64,
    pub queued: u64,
    pub throughput_bps: f64,
    pub access_delay: DelaySummary,
}

/// Figures of the whole segment.
#[derive(Clone, Debug, Serialize)]
pub struct EtherReport {
    pub elapsed_s: f64,
    pub frames_offered: u64,
    pub frames_sent: u64,
    pub frames_delivered: u64,
    pub bytes_delivered: u64,
    /// Delivered frame bits (header to FCS) per second.
    pub throughput_bps: f64,
    pub frames_per_s: f64,
    pub collisions: u64,
    /// `collisions_by_attempt[n-1]`: collisions suffered on the n-th attempt of a frame.
    pub collisions_by_attempt: Vec<u64>,
    pub deferrals: u64,
    pub frames_dropped: u64,
    pub frames_corrupted: u64,
    /// Frames still queued at the end.
    pub frames_queued: u64,
    pub access_delay: DelaySummary,
    /// Fraction of time the medium carried successful frames (preamble included).
    pub utilization: f64,
    pub time_success_s: f64,
    pub time_collision_s: f64,
    pub time_idle_s: f64,
    /// Jain's index over the delivered bytes of the stations that offered traffic.
    pub fairness_jain: f64,
    pub capture_mean_run: f64,
    pub capture_longest_run: u64,
    /// Intact receptions that overlapped another at the same station (an audit: always 0).
    pub rx_overlaps: u64,
    pub stations: Vec<StationReport>,
}

impl EtherReport {
    pub(super) fn build(
        medium: &Medium,
        macs: &[Mac],
        capture: &CaptureStats,
        rx_overlaps: u64,
        now: SimTime,
    ) -> Self {
        let secs = now.as_secs_f64();
        let per_s = |x: f64| if secs > 0.0 { x / secs } else { 0.0 };
        let mut all_delay = Histogram::new();
        let mut by_attempt = vec![0u64; ATTEMPT_LIMIT as usize];
        let stations: Vec<StationReport> = macs
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let st = &m.stats;
                all_delay.merge(&st.access_delay);
                for (a, b) in by_attempt.iter_mut().zip(st.collisions_by_attempt.iter()) {
                    *a += b;
                }
                StationReport {
                    station: i,
                    frames_offered: st.frames_offered,
                    frames_sent: st.frames_sent,
                    frames_delivered: st.frames_delivered,
                    bytes_delivered: st.bytes_delivered,
                    frames_received: st.frames_received,
                    frames_corrupted: st.frames_corrupted,
                    collisions: st.collisions,
                    deferrals: st.deferrals,
                    dropped_excessive: st.dropped_excessive,
                    queued: m.queue.len() as u64,
                    throughput_bps: per_s(st.bytes_delivered as f64 * 8.0),
                    access_delay: st.access_delay.summary_us(),
                }
            })
            .collect();
        let sum = |f: fn(&StationReport) -> u64| stations.iter().map(f).sum::<u64>();
        let bytes = sum(|s| s.bytes_delivered);
        let senders: Vec<f64> = stations
            .iter()
            .filter(|s| s.frames_offered > 0)
            .map(|s| s.bytes_delivered as f64)
            .collect();
        let split = medium.time_split(now);
        EtherReport {
            elapsed_s: secs,
            frames_offered: sum(|s| s.frames_offered),
            frames_sent: sum(|s| s.frames_sent),
            frames_delivered: sum(|s| s.frames_delivered),
            bytes_delivered: bytes,
            throughput_bps: per_s(bytes as f64 * 8.0),
            frames_per_s: per_s(sum(|s| s.frames_delivered) as f64),
            collisions: sum(|s| s.collisions),
            collisions_by_attempt: by_attempt,
            deferrals: sum(|s| s.deferrals),
            frames_dropped: sum(|s| s.dropped_excessive),
            frames_corrupted: sum(|s| s.frames_corrupted),
            frames_queued: sum(|s| s.queued),
            access_delay: all_delay.summary_us(),
            utilization: if now.as_nanos() > 0 {
                split.success_ns as f64 / now.as_nanos() as f64
            } else {
                0.0
            },
            time_success_s: split.success_ns as f64 * 1e-9,
            time_collision_s: split.collision_ns as f64 * 1e-9,
            time_idle_s: medium.idle_ns(now) as f64 * 1e-9,
            fairness_jain: jain_index(&senders),
            capture_mean_run: capture.mean_run(),
            capture_longest_run: capture.longest_run(),
            rx_overlaps,
            stations,
        }
    }
}
