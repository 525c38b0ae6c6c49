//! Statistics of a segment, per station and for the medium, as a serialisable report.
//!
//! Throughput counts the bits of delivered frames from header to FCS (padding included,
//! preamble excluded) per second of elapsed simulated time. Medium time is split into
//! frames delivered intact, frames damaged on the wire (sent without a collision but not
//! delivered), collision periods and idle time (global time, at the transmitters); the four
//! add up to the elapsed time. The capture effect is measured as runs of consecutive
//! deliveries from the same station.
//!
//! Figures over deliveries are undefined when nothing was delivered (say every frame was
//! corrupted): fairness and both capture figures are then NaN / `None`, written as JSON
//! `null` and `-` in tables, never a number that would read as a result.

use serde::Serialize;

use super::consts::ATTEMPT_LIMIT;
use super::frame::StationId;
use super::mac::Mac;
use super::medium::{Medium, MediumTime};
use crate::stats::{jain_index, DelaySummary, Histogram};
use crate::time::SimTime;

/// Runs of consecutive deliveries (frames received intact) from one station, in the
/// order they arrive.
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

    /// Mean length of a run of consecutive deliveries from one station; NaN when nothing
    /// was delivered.
    pub fn mean_run(&self) -> f64 {
        if self.runs == 0 {
            f64::NAN
        } else {
            self.successes as f64 / self.runs as f64
        }
    }

    /// Longest run; `None` when nothing was delivered.
    pub fn longest_run(&self) -> Option<u64> {
        (self.runs > 0).then_some(self.longest)
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
    /// Fraction of time the medium carried frames delivered intact (preamble included):
    /// `time_success_s / elapsed_s`; 0 when every frame was corrupted.
    pub utilization: f64,
    /// Wire time of frames delivered intact (a frame still on the wire at the end counts
    /// unless already damaged).
    pub time_success_s: f64,
    /// Wire time of frames sent without a collision but damaged on the wire (fault
    /// injection, `medium.corrupt_fraction`): busy, yet nothing delivered.
    pub time_corrupted_s: f64,
    /// Wire time of busy periods that held a collision (fragments and jams).
    pub time_collision_s: f64,
    /// Time between busy periods. success + corrupted + collision + idle = elapsed.
    pub time_idle_s: f64,
    /// Jain's index over the delivered bytes of the stations that offered traffic; NaN
    /// (JSON `null`) when nothing was delivered.
    pub fairness_jain: f64,
    /// Mean run of consecutive deliveries from one station; NaN (JSON `null`) when
    /// nothing was delivered.
    pub capture_mean_run: f64,
    /// Longest such run; `None` (JSON `null`) when nothing was delivered.
    pub capture_longest_run: Option<u64>,
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
        let split = medium.time_split(now);
        let frames_queued = stations.iter().map(|s| s.queued).sum();
        EtherReport::from_stations(
            now,
            stations,
            WireTotals {
                time: split,
                idle_ns: medium.idle_ns(now),
                frames_queued,
                access_delay: all_delay.summary_us(),
                collisions_by_attempt: by_attempt,
                capture_mean_run: capture.mean_run(),
                capture_longest_run: capture.longest_run(),
                rx_overlaps,
            },
        )
    }

    /// The report of a wire from its stations' reports and what only the wire knows: the
    /// totals are the stations' sums, throughput and rates per second of `now`.
    pub(super) fn from_stations(now: SimTime, stations: Vec<StationReport>, w: WireTotals) -> Self {
        let secs = now.as_secs_f64();
        let per_s = |x: f64| if secs > 0.0 { x / secs } else { 0.0 };
        let sum = |f: fn(&StationReport) -> u64| stations.iter().map(f).sum::<u64>();
        let bytes = sum(|s| s.bytes_delivered);
        let senders: Vec<f64> = stations
            .iter()
            .filter(|s| s.frames_offered > 0)
            .map(|s| s.bytes_delivered as f64)
            .collect();
        EtherReport {
            elapsed_s: secs,
            frames_offered: sum(|s| s.frames_offered),
            frames_sent: sum(|s| s.frames_sent),
            frames_delivered: sum(|s| s.frames_delivered),
            bytes_delivered: bytes,
            throughput_bps: per_s(bytes as f64 * 8.0),
            frames_per_s: per_s(sum(|s| s.frames_delivered) as f64),
            collisions: sum(|s| s.collisions),
            collisions_by_attempt: w.collisions_by_attempt,
            deferrals: sum(|s| s.deferrals),
            frames_dropped: sum(|s| s.dropped_excessive),
            frames_corrupted: sum(|s| s.frames_corrupted),
            frames_queued: w.frames_queued,
            access_delay: w.access_delay,
            utilization: if now.as_nanos() > 0 {
                w.time.success_ns as f64 / now.as_nanos() as f64
            } else {
                0.0
            },
            time_success_s: w.time.success_ns as f64 * 1e-9,
            time_corrupted_s: w.time.corrupted_ns as f64 * 1e-9,
            time_collision_s: w.time.collision_ns as f64 * 1e-9,
            time_idle_s: w.idle_ns as f64 * 1e-9,
            fairness_jain: jain_index(&senders),
            capture_mean_run: w.capture_mean_run,
            capture_longest_run: w.capture_longest_run,
            rx_overlaps: w.rx_overlaps,
            stations,
        }
    }
}

/// What a wire knows beyond its stations' counters (see [`EtherReport::from_stations`]).
pub(super) struct WireTotals {
    /// The wire's busy time up to the report, by kind, ns.
    pub time: MediumTime,
    /// Its idle time, ns.
    pub idle_ns: u64,
    /// Frames queued or on their way at the report.
    pub frames_queued: u64,
    pub access_delay: DelaySummary,
    /// Collisions by attempt number, summed over the stations (empty: no collisions).
    pub collisions_by_attempt: Vec<u64>,
    pub capture_mean_run: f64,
    pub capture_longest_run: Option<u64>,
    pub rx_overlaps: u64,
}
