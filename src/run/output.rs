//! What one run produces, in a workload-independent shape that every exporter, sweep and
//! plot understands without knowing which workload ran: named columns, one row per
//! workload point, a headline figure, and the workload's full typed report
//! ([`RunDetail`]). A sweep's runs are [`SweepRun`]s.
//!
//! Owned by the runner ([`super`]) that builds them; `crate::report` only reads them.
//! Nothing here computes a figure: values are copied from the workloads' reports.
//! Units are in the column names (`_bps`, `_kbps`, `_ms`, ...).

use serde::{Deserialize, Serialize};

use crate::workload::lanperf::LanperfReport;
use crate::workload::perform3::Perform3Report;
use crate::workload::saturate::SaturateReport;
use crate::workload::traffic::TrafficReport;
use crate::workload::ttcp::TtcpSummary;

/// The headline figure of a run: what a sweep plots.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Headline {
    pub name: String,
    #[serde(with = "super::exact::float")]
    pub value: f64,
}

/// The full report of the workload that ran. Serialised as the report itself (no tag).
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum RunDetail {
    Saturate(Box<SaturateReport>),
    Traffic(Box<TrafficReport>),
    Perform3(Perform3Report),
    Lanperf(Box<LanperfReport>),
    Ttcp(Box<TtcpSummary>),
    Shared(Box<crate::workload::shared::SharedReport>),
}

/// The result of one run, in a workload-independent shape.
#[derive(Clone, Debug)]
pub struct RunOutput {
    pub scenario: String,
    pub seed: u64,
    /// The workload kind.
    pub workload: String,
    /// Names of the figures of each point.
    pub columns: Vec<String>,
    /// One row per workload point (a saturate run has one; PERFORM3 one per block size),
    /// in the order of `columns`.
    pub points: Vec<Vec<f64>>,
    pub headline: Headline,
    /// The workload's full report.
    pub detail: RunDetail,
}

impl RunOutput {
    /// What a sweep keeps of this run ([`RunRecord`]).
    pub fn record(&self) -> RunRecord {
        RunRecord {
            scenario: self.scenario.clone(),
            seed: self.seed,
            workload: self.workload.clone(),
            columns: self.columns.clone(),
            points: self.points.clone(),
            headline: self.headline.clone(),
            unfinished: self.unfinished(),
        }
    }

    /// Why the run did not do the work it was asked (a ttcp transfer that did not
    /// finish), naming the scenario; `None` for a complete run.
    pub fn unfinished(&self) -> Option<String> {
        match &self.detail {
            RunDetail::Ttcp(s) => s.error.as_ref().map(|e| format!("{}: {e}", self.scenario)),
            RunDetail::Saturate(_)
            | RunDetail::Traffic(_)
            | RunDetail::Perform3(_)
            | RunDetail::Lanperf(_) => None,
            RunDetail::Shared(r) if !r.audit_violations.is_empty() => Some(format!(
                "{}: the conservation audit failed: {}",
                self.scenario,
                r.audit_violations.join("; ")
            )),
            RunDetail::Shared(_) => None,
        }
    }

    /// What a reader must know before taking the figures as they stand: a LANPERF run on a
    /// LAN whose stations were never all in a test's timed loop together (its sum is not
    /// a LAN throughput, and its utilisations are missing); `None` otherwise.
    pub fn caveat(&self) -> Option<String> {
        match &self.detail {
            RunDetail::Lanperf(r) if r.servers > 0 && r.totals.iter().any(|t| t.usage.is_none()) => {
                Some(format!(
                    "LANPERF with {} stations: the stations were never all in the timed loop \
                     together: their sum is not a LAN throughput, and the utilisations are left out",
                    r.workstations
                ))
            }
            _ => None,
        }
    }
}

/// What a sweep's files read of a run: every figure of every point, the headline and
/// whether the run did its work, without the workload's typed report. Serialised
/// losslessly (every float as its exact text, [`super::exact`]), so a run written by one
/// process and read by another gives the same bytes in `sweep.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    pub scenario: String,
    pub seed: u64,
    pub workload: String,
    pub columns: Vec<String>,
    #[serde(with = "super::exact::rows")]
    pub points: Vec<Vec<f64>>,
    pub headline: Headline,
    /// [`RunOutput::unfinished`].
    pub unfinished: Option<String>,
}

/// One swept key and its values.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepParam {
    pub key: String,
    pub values: Vec<toml::Value>,
}

/// One run of a sweep.
#[derive(Clone, Debug)]
pub struct SweepRun {
    /// Index into the plan's combinations.
    pub combination: usize,
    pub replication: u32,
    pub output: RunOutput,
}

/// The figures of each point (test: WRITE, then READ) of a LANPERF run, in column order;
/// `test` is 1 for WRITE and 2 for READ, the throughput is the LAN total (KB = 1024 B).
pub const LANPERF_COLUMNS: [&str; 12] = [
    "test",
    "stations",
    "block_size",
    "operations",
    "mean_response_ms",
    "throughput_kbps",
    "wire_busy",
    "server_cpu",
    "disk_busy",
    "workstation_cpu",
    "packets_retransmitted",
    "events",
];

/// The figures of each point of a saturate run, in column order.
pub const SATURATE_COLUMNS: [&str; 19] = [
    "throughput_bps",
    "throughput_mbps",
    "frames_per_s",
    "frames_offered",
    "frames_delivered",
    "frames_dropped",
    "frames_corrupted",
    "frames_queued",
    "collisions",
    "deferrals",
    "utilization",
    "time_collision_s",
    "time_corrupted_s",
    "fairness_jain",
    "capture_mean_run",
    "capture_longest_run",
    "access_delay_mean_us",
    "access_delay_p99_us",
    "events",
];

/// The figures of a traffic run's one point, in column order. Loads are fractions of the
/// bit rate counting frame bits header to FCS.
pub const TRAFFIC_COLUMNS: [&str; 16] = [
    "offered_load",
    "offered_load_measured",
    "carried_load",
    "throughput_mbps",
    "frames_arrived",
    "mean_frame_bytes",
    "frames_sent",
    "collisions_per_frame",
    "queue_access_delay_mean_us",
    "queue_access_delay_p95_us",
    "queue_access_delay_p99_us",
    "queue_drops",
    "excessive_collision_drops",
    "frames_queued",
    "utilization",
    "events",
];

/// The columns of a `shared` run's one point: each application's throughput (KB/s,
/// 1 KB = 1000 bytes; the background groups' together in Mb/s), the wire's shares of the
/// window, what the ttcp transmitter met, the background frames' access delays (mean
/// over their frames, the groups' highest 99th percentile), and the hosts' CPU shares.
/// The columns of a part the run does not have are empty (NaN).
pub const SHARED_COLUMNS: [&str; 23] = [
    "workstations",
    "block_size",
    "file_service_kbps",
    "ttcp_kbps",
    "background_mbps",
    "wire_file_service",
    "wire_ttcp",
    "wire_background",
    "wire_collision",
    "wire_corrupted",
    "wire_idle",
    "ttcp_deferrals_per_frame",
    "ttcp_collisions_per_frame",
    "ttcp_access_delay_mean_us",
    "ttcp_transmitter_cpu",
    "ttcp_receiver_cpu",
    "background_frames_sent",
    "background_access_delay_mean_us",
    "background_access_delay_p99_us",
    "background_queue_drops",
    "server_cpu",
    "audit_violations",
    "events",
];

/// The figures of each point (block size) of a PERFORM3 run, in column order.
pub const PERFORM3_COLUMNS: [&str; 19] = [
    "block_size",
    "throughput_kbps",
    "blocks_completed",
    "ms_per_block",
    "wire_success",
    "wire_collision",
    "wire_corrupted",
    "wire_idle",
    "collisions_per_block",
    "server_cpu",
    "server_copy",
    "server_protocol",
    "server_work",
    "workstation_cpu",
    "workstation_copy",
    "server_waiting_for_ack",
    "packets_retransmitted",
    "rx_ring_drops",
    "events",
];
