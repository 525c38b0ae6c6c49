//! Workload LANPERF: PC Week's LAN Performance Test 1.1 (seed 002), timed READ and WRITE
//! tests on every workstation at once.
//!
//! Each workstation runs [`LanperfApp`] on its own private file on the server; they start
//! on the LANPERF.GO starting gun. Per station and test LANPERF reports the total
//! operations, the mean response time `t / operations` (ms) and the throughput
//! `operations x b / t` in KB/s with **1 KB = 1024 bytes**, where `t` is the nominal test
//! length (the seed's sample output, 1153 and 1725 operations in 10 s with 512-byte
//! blocks = 8.673 ms / 57.65 KB/s and 5.797 ms / 86.25 KB/s, is reproduced exactly only
//! with the nominal length as divisor, not the ticks measured). The LAN total is the sum
//! over stations.
//!
//! The harness runs until every station has finished its tests, then lets the LAN settle
//! and audits it ([`Lan::audit`]), checking also that every byte written is stored on the
//! server exactly once. For `--explain` it measures, per test, the resources' load over
//! the span when every station is in that test's timed loop.
//!
//! - [`params`]: the options, ranges, defaults and the option string.
//! - [`app`]: the program on a workstation.
//! - this module: the harness and the report.

pub mod app;
mod harness;
pub mod local;
pub mod params;

use serde::Serialize;

pub use app::{LanperfApp, LanperfCosts, TestRun};
pub use harness::{build_lan, run, run_audited, run_observed, FILES_PER_STATION};
pub use params::{LanperfParams, OptionError, Sharing, Test};

use crate::lan::source::SourceConfig;
use crate::lan::{CpuShare, LanConfig, LanSnapshot, Net};
use crate::workload::background::BackgroundShare;
use crate::workload::file_app::FileApp;
use crate::workload::shared::{FileService, FileServiceShare, SharedTtcp, TtcpShare};
use crate::workload::ttcp::Ttcp;

/// The LAN LANPERF runs on: its file service first, then any PERFORM3 services beside it.
pub type LanperfLan = Net<FileApp, Ttcp>;

/// A validated LANPERF run.
#[derive(Clone, Debug, PartialEq)]
pub struct LanperfConfig {
    pub lan: LanConfig,
    pub params: LanperfParams,
    pub costs: LanperfCosts,
    /// A local baseline instead of the LAN: one station, no network.
    pub local: Option<local::LocalConfig>,
    /// Further LANPERF services on the cable, each on stations of its own after this
    /// one's, in order: each its own server, stations, hardware and options; their
    /// stations run their tests as this service's do, and the run lasts until every one
    /// has finished.
    pub lanperf_services: Vec<LanperfService>,
    /// PERFORM3 file services on the cable, each on stations of its own after the LANPERF
    /// services', in order.
    pub file_services: Vec<FileService>,
    /// ttcp transfers on the cable, each on its own two hosts after the file services'
    /// stations, in order.
    pub ttcp: Vec<SharedTtcp>,
    /// Groups of background frame sources on the cable, after the file service's
    /// stations and the ttcp hosts, in order.
    pub background: Vec<SourceConfig>,
}

/// A further LANPERF service of a run: its name (its server's node), LAN and options.
#[derive(Clone, Debug, PartialEq)]
pub struct LanperfService {
    pub name: String,
    pub lan: LanConfig,
    pub params: LanperfParams,
    pub costs: LanperfCosts,
}

impl LanperfConfig {
    /// The first station (the server's) of further LANPERF service `k`.
    pub fn lanperf_base(&self, k: usize) -> usize {
        self.lan.nodes()
            + self.lanperf_services[..k]
                .iter()
                .map(|f| f.lan.nodes())
                .sum::<usize>()
    }

    /// The first station (the server's) of PERFORM3 service `k`.
    pub fn file_base(&self, k: usize) -> usize {
        self.lanperf_base(self.lanperf_services.len())
            + self.file_services[..k]
                .iter()
                .map(|f| f.lan.nodes())
                .sum::<usize>()
    }

    /// Every LANPERF service of the run, this one first: its LAN, options and costs.
    pub fn lanperf_all(&self) -> Vec<(&LanConfig, &LanperfParams, &LanperfCosts)> {
        std::iter::once((&self.lan, &self.params, &self.costs))
            .chain(
                self.lanperf_services
                    .iter()
                    .map(|s| (&s.lan, &s.params, &s.costs)),
            )
            .collect()
    }

    /// The first station of ttcp pair `k` (after every file service's).
    pub fn tcp_base(&self, k: usize) -> usize {
        self.file_base(self.file_services.len()) + 2 * k
    }

    /// The first station of each background group (after the file services' and the ttcp
    /// hosts).
    pub fn background_bases(&self) -> Vec<usize> {
        crate::lan::source::bases(self.tcp_base(self.ttcp.len()), &self.background)
    }
}

/// LANPERF's mean response time, ms: test length / operations.
pub fn mean_response_ms(test_s: u32, operations: u64) -> f64 {
    if operations == 0 {
        return f64::INFINITY;
    }
    test_s as f64 * 1000.0 / operations as f64
}

/// LANPERF's throughput, KB/s (1 KB = 1024 bytes): operations x block / test length.
pub fn throughput_kbps(test_s: u32, block: u32, operations: u64) -> f64 {
    operations as f64 * block as f64 / test_s as f64 / 1024.0
}

/// One station's result for one test, as LANPERF prints it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TestResult {
    pub test: Test,
    pub operations: u64,
    pub mean_response_ms: f64,
    pub throughput_kbps: f64,
    /// The test's real length: BIOS ticks from the start check to the end check, seconds.
    pub measured_s: f64,
}

impl TestResult {
    pub fn new(params: &LanperfParams, run: &TestRun) -> Self {
        TestResult {
            test: run.test,
            operations: run.operations,
            mean_response_ms: mean_response_ms(params.test_s, run.operations),
            throughput_kbps: throughput_kbps(params.test_s, params.block, run.operations),
            measured_s: app::ticks_secs(run.ticks),
        }
    }
}

/// One workstation's results.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct StationResult {
    pub station: usize,
    pub tests: Vec<TestResult>,
}

/// What limits a test's throughput. Displayed as the words a reader sees.
#[derive(Clone, Copy, Debug, Serialize, serde::Deserialize, PartialEq, Eq)]
pub enum Limit {
    #[serde(rename = "wire")]
    Wire,
    /// The (busiest) server's CPU.
    #[serde(rename = "server CPU")]
    ServerCpu,
    #[serde(rename = "server disk")]
    Disk,
    #[serde(rename = "workstation CPU")]
    WorkstationCpu,
    #[serde(rename = "latency (round trips, nothing saturated)")]
    Latency,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Limit::Wire => "wire",
            Limit::ServerCpu => "server CPU",
            Limit::Disk => "server disk",
            Limit::WorkstationCpu => "workstation CPU",
            Limit::Latency => "latency (round trips, nothing saturated)",
        })
    }
}

/// The load on each resource while every station was in one test's timed loop.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Usage {
    pub window_s: f64,
    /// Share of the window the medium carried frames or collisions.
    pub wire_busy: f64,
    /// The busiest server's CPU.
    pub server_cpu: CpuShare,
    /// Share of the window the (busiest) server's disk was busy.
    pub disk_busy: f64,
    /// The busiest workstation's CPU.
    pub workstation_cpu: f64,
    pub packets_retransmitted: u64,
    /// The resource nearest to saturation if one is at least 90% busy, else latency.
    pub limit: Limit,
}

/// The LAN total of one test.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TestTotal {
    pub test: Test,
    pub operations: u64,
    /// Sum of the stations' throughputs, KB/s.
    pub throughput_kbps: f64,
    /// Mean of the stations' mean response times, ms.
    pub mean_response_ms: f64,
    /// `None` if the stations were never all in the timed loop at once.
    pub usage: Option<Usage>,
}

/// Result of a LANPERF run.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LanperfReport {
    pub workstations: usize,
    pub servers: usize,
    pub params: LanperfParams,
    pub stations: Vec<StationResult>,
    pub totals: Vec<TestTotal>,
    /// Simulated seconds until the last station finished.
    pub finished_s: f64,
    pub events: u64,
    /// Each ttcp transfer over the whole run (none without transfers).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ttcp: Vec<TtcpShare>,
    /// Each background group over the whole run (none without groups).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub background: Vec<BackgroundShare>,
    /// Each PERFORM3 file service beside LANPERF's, over the whole run (none without).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub file_services: Vec<FileServiceShare>,
    /// Each further LANPERF service, its own report (none without).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lanperf_services: Vec<LanperfServiceReport>,
}

/// What a further LANPERF service measured: its name (its server's node) and its report.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LanperfServiceReport {
    pub name: String,
    pub report: LanperfReport,
}

impl LanperfReport {
    /// The LAN total of `test`, KB/s, if it ran.
    pub fn total_kbps(&self, test: Test) -> Option<f64> {
        self.totals
            .iter()
            .find(|t| t.test == test)
            .map(|t| t.throughput_kbps)
    }

    /// The headline: the READ total if READ ran, else the WRITE total, KB/s.
    pub fn headline_kbps(&self) -> f64 {
        self.total_kbps(Test::Read)
            .or_else(|| self.total_kbps(Test::Write))
            .unwrap_or(0.0)
    }
}

/// The load on each resource between two snapshots; with several servers, the busiest
/// server's CPU and disk.
pub fn usage(a: &LanSnapshot, b: &LanSnapshot, servers: &[usize]) -> Usage {
    let w_ns = b.window_ns(a).max(1) as f64;
    let wire_busy = ((b.medium.success_ns - a.medium.success_ns)
        + (b.medium.collision_ns - a.medium.collision_ns)) as f64
        / w_ns;
    let server_cpu = servers
        .iter()
        .map(|&s| b.cpu_share(a, s))
        .fold(None::<CpuShare>, |m, c| match m {
            Some(m) if m.busy >= c.busy => Some(m),
            _ => Some(c),
        })
        .unwrap_or_default();
    let disk_busy = servers
        .iter()
        .map(|&s| (b.nodes[s].disk_busy_ns - a.nodes[s].disk_busy_ns) as f64 / w_ns)
        .fold(0.0, f64::max);
    let workstation_cpu = (1..b.nodes.len())
        .filter(|i| !servers.contains(i))
        .map(|i| b.cpu_share(a, i).busy)
        .fold(0.0, f64::max);
    let candidates = [
        (server_cpu.busy, Limit::ServerCpu),
        (disk_busy, Limit::Disk),
        (wire_busy, Limit::Wire),
        (workstation_cpu, Limit::WorkstationCpu),
    ];
    let (max, which) = candidates
        .iter()
        .fold((f64::MIN, Limit::Latency), |m, c| if c.0 > m.0 { *c } else { m });
    let packets_retransmitted = (0..b.nodes.len())
        .map(|i| b.nodes[i].packets_retransmitted - a.nodes[i].packets_retransmitted)
        .sum();
    Usage {
        window_s: w_ns * 1e-9,
        wire_busy,
        server_cpu,
        disk_busy,
        workstation_cpu,
        packets_retransmitted,
        limit: if max >= 0.9 { which } else { Limit::Latency },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_formulas_reproduce_the_seeds_sample_output() {
        // LANPERF.DOC: t10 b512, WRITE 1153 operations, READ 1725
        let fmt = |ops| {
            format!(
                "{:.3} {:.2}",
                mean_response_ms(10, ops),
                throughput_kbps(10, 512, ops)
            )
        };
        assert_eq!(fmt(1153), "8.673 57.65");
        assert_eq!(fmt(1725), "5.797 86.25");
        // KB = 1024 B: with 1000 B the READ line would say 88.32
        assert!((throughput_kbps(10, 512, 1725) - 86.25).abs() < 1e-12);
    }
}
