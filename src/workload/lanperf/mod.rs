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
pub mod local;
pub mod params;

use serde::Serialize;

pub use app::{LanperfApp, LanperfCosts, TestRun};
pub use params::{LanperfParams, OptionError, Sharing, Test};

use crate::engine::Engine;
use crate::ether::{AnyWire, SharedSegment};
use crate::lan::observe::{drive, reborrow, Observer};
use crate::lan::source::SourceConfig;
use crate::lan::{AuditError, AuditReport, CpuShare, Lan, LanConfig, LanEvent, LanSnapshot, Net};
use crate::time::{SimDuration, SimTime};
use crate::workload::background::{mac_counts, shares, BackgroundShare, MacCounts};
use crate::workload::file_app::FileApp;
use crate::workload::perform3;
use crate::workload::shared::{
    audit_pairs, audit_services, ttcp_share, FileService, FileServiceShare, SharedTtcp, TtcpCounts, TtcpShare,
};
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

/// How often the harness looks at the stations, simulated time.
const LOOK_EVERY: SimDuration = SimDuration::from_millis(20);
/// Time given to the LAN after the last station finished, for acknowledgements in flight.
const SETTLE: SimDuration = SimDuration::from_secs(2);

/// The stations' first file number: station `w` uses `FILES_PER_STATION * w + test`.
pub const FILES_PER_STATION: u32 = 2;

/// Builds the LAN with LANPERF on every workstation.
pub fn build_lan(cfg: &LanperfConfig, engine: &mut Engine<LanEvent>) -> LanperfLan {
    let apps = (1..=cfg.lan.workstations)
        .map(|w| {
            FileApp::Lanperf(LanperfApp::new(
                cfg.params.clone(),
                cfg.costs.clone(),
                FILES_PER_STATION * w as u32,
            ))
        })
        .collect();
    let segment = SharedSegment::new(&cfg.lan.segment, engine.rng_streams());
    let mut lans = vec![Lan::new(cfg.lan.clone(), apps, segment.clone(), 0, engine)];
    for (k, l) in cfg.lanperf_services.iter().enumerate() {
        let apps = (1..=l.lan.workstations)
            .map(|w| {
                FileApp::Lanperf(LanperfApp::new(
                    l.params.clone(),
                    l.costs.clone(),
                    FILES_PER_STATION * w as u32,
                ))
            })
            .collect();
        lans.push(Lan::new(
            l.lan.clone(),
            apps,
            segment.clone(),
            cfg.lanperf_base(k),
            engine,
        ));
    }
    for (k, f) in cfg.file_services.iter().enumerate() {
        let apps = perform3::apps(&f.lan, f.block)
            .into_iter()
            .map(FileApp::Perform3)
            .collect();
        lans.push(Lan::new(
            f.lan.clone(),
            apps,
            segment.clone(),
            cfg.file_base(k),
            engine,
        ));
    }
    let wire = AnyWire::Csma(segment);
    let tcp = cfg
        .ttcp
        .iter()
        .enumerate()
        .map(|(k, t)| t.pair(wire.clone(), cfg.tcp_base(k), engine))
        .collect();
    let mut net = Net::new(wire, lans, tcp);
    for (g, b) in cfg.background.iter().zip(cfg.background_bases()) {
        net.add_sources(g.clone(), b, engine);
    }
    net
}

/// The file service of a LANPERF LAN (LANPERF's own).
fn fs(net: &LanperfLan) -> &Lan<FileApp> {
    net.file_service()
        .expect("a LANPERF LAN is built with its file service")
}

/// The longest a run may take before the harness gives up on stations still running:
/// the tests' lengths plus an hour for filling files.
fn time_limit(p: &LanperfParams) -> SimTime {
    SimTime::ZERO + SimDuration::from_secs(p.test_s as u64 * p.tests.len() as u64 + 3600)
}

/// Runs LANPERF; in builds with debug assertions the LAN is audited at the end and a
/// violation panics.
pub fn run(cfg: &LanperfConfig, seed: u64) -> LanperfReport {
    let (r, audit) = run_audited(cfg, seed);
    if cfg!(debug_assertions) {
        if let Err(e) = audit {
            panic!("seed {seed}: {e}");
        }
    }
    r
}

/// Runs LANPERF and audits the LAN once it has settled after the last station finished:
/// the conservation audit, and every byte written stored exactly once.
pub fn run_audited(cfg: &LanperfConfig, seed: u64) -> (LanperfReport, Result<AuditReport, AuditError>) {
    run_observed(cfg, seed, None)
}

/// As [`run_audited`], handing every observation to `obs` if given (a local baseline has
/// no network: nothing to observe).
pub fn run_observed(
    cfg: &LanperfConfig,
    seed: u64,
    mut obs: Option<&mut dyn Observer>,
) -> (LanperfReport, Result<AuditReport, AuditError>) {
    if let Some(l) = &cfg.local {
        // nothing crosses a network: nothing to audit
        return (run_local(cfg, l, seed), Ok(AuditReport::default()));
    }
    let mut engine: Engine<LanEvent> = Engine::new(seed);
    let mut lan = build_lan(cfg, &mut engine);
    // the LANPERF services (this one first), then the PERFORM3 services beside them
    let all = cfg.lanperf_all();
    let nl = all.len();
    // the PERFORM3 services beside LANPERF, measured from time zero
    let at_zero: Vec<LanSnapshot> = lan.file_services()[nl..]
        .iter()
        .map(|l| l.snapshot(&engine))
        .collect();
    // per service and test: the snapshot when all its stations were timing the test, and
    // when the first left
    let mut windows: Vec<Vec<(Option<LanSnapshot>, Option<LanSnapshot>)>> = all
        .iter()
        .map(|(_, p, _)| vec![(None, None); p.tests.len()])
        .collect();
    let limit = all
        .iter()
        .map(|(_, p, _)| time_limit(p))
        .max()
        .unwrap_or(SimTime::ZERO);
    let mut t = SimTime::ZERO;
    loop {
        t += LOOK_EVERY;
        drive(&mut lan, &mut engine, t, reborrow(&mut obs));
        let mut done = true;
        for (s, (l, p, _)) in all.iter().enumerate() {
            let fs = &lan.file_services()[s];
            let apps: Vec<&LanperfApp> = (1..=l.workstations)
                .filter_map(|w| fs.app(w).and_then(FileApp::lanperf))
                .collect();
            for (k, test) in p.tests.iter().enumerate() {
                let all_in = apps.iter().all(|a| a.timing() == Some(*test));
                let w = &mut windows[s][k];
                if w.0.is_none() && all_in {
                    w.0 = Some(fs.snapshot(&engine));
                } else if w.0.is_some() && w.1.is_none() && !all_in {
                    w.1 = Some(fs.snapshot(&engine));
                }
            }
            done &= apps.iter().all(|a| a.is_done());
        }
        if done || t >= limit {
            break;
        }
    }
    let finished_s = t.as_secs_f64();
    drive(&mut lan, &mut engine, t + SETTLE, reborrow(&mut obs));
    let mut audit = audit_written(fs(&lan), engine.now());
    let mut stray = lan.audit_sources();
    for (k, s) in cfg.lanperf_services.iter().enumerate() {
        if let Err(e) = audit_written(&lan.file_services()[1 + k], engine.now()) {
            stray.extend(
                e.violations
                    .into_iter()
                    .map(|v| format!("file service {}: {v}", s.name)),
            );
        }
    }
    let names: Vec<String> = cfg.file_services.iter().map(|f| f.name.clone()).collect();
    stray.extend(audit_services(
        &lan.file_services()[nl..],
        &names,
        true,
        engine.now(),
    ));
    stray.extend(audit_pairs(lan.tcp_pairs(), engine.now()));
    if !stray.is_empty() {
        let at_ns = engine.now().as_nanos();
        audit = match audit {
            Ok(_) => Err(AuditError {
                at_ns,
                violations: stray,
            }),
            Err(mut e) => {
                e.violations.extend(stray);
                Err(e)
            }
        };
    }
    let events = engine.events_dispatched();
    let mut report = report(&cfg.lan, &cfg.params, fs(&lan), &windows[0], finished_s, events);
    for (k, s) in cfg.lanperf_services.iter().enumerate() {
        let l = &lan.file_services()[1 + k];
        report.lanperf_services.push(LanperfServiceReport {
            name: s.name.clone(),
            report: self::report(&s.lan, &s.params, l, &windows[1 + k], finished_s, events),
        });
    }
    if !cfg.ttcp.is_empty() {
        // each transfer over the whole run, from time zero
        let (macs, bit_ns) = lan
            .csma()
            .map(|seg| (mac_counts(&seg), seg.medium().bit_time().as_nanos() as f64))
            .unwrap_or_default();
        let run_ns = engine.now().as_nanos() as f64;
        for (k, (t, pair)) in cfg.ttcp.iter().zip(lan.tcp_pairs()).enumerate() {
            let base = cfg.tcp_base(k);
            let none = MacCounts::default();
            let mac = macs.get(base + t.transmitter).unwrap_or(&none);
            let end = TtcpCounts::of(pair, t.transmitter, mac, pair.app(1 - t.transmitter).bytes());
            let mut share = ttcp_share(&TtcpCounts::default(), &end, run_ns);
            // the wire's time carrying the pair's frames intact, over the run
            share.wire_share = macs
                .get(base..base + 2)
                .unwrap_or_default()
                .iter()
                .map(|m| m.delivered_bits() as f64 * bit_ns)
                .sum::<f64>()
                / run_ns;
            t.name(&mut share);
            report.ttcp.push(share);
        }
    }
    if !cfg.file_services.is_empty() {
        // each PERFORM3 service over the whole run, from time zero
        let macs = lan.csma().map(|seg| mac_counts(&seg)).unwrap_or_default();
        let bit_ns = cfg.lan.segment.bit_ns as f64;
        let run_ns = engine.now().as_nanos() as f64;
        for (k, (f, l)) in cfg
            .file_services
            .iter()
            .zip(&lan.file_services()[nl..])
            .enumerate()
        {
            let blocks = (1..=f.lan.workstations)
                .filter_map(|w| l.app(w).and_then(FileApp::perform3))
                .map(perform3::Perform3App::blocks_done)
                .sum();
            let base = cfg.file_base(k);
            let wire = macs
                .get(base..base + f.lan.nodes())
                .unwrap_or_default()
                .iter()
                .map(|m| m.delivered_bits() as f64 * bit_ns)
                .sum::<f64>()
                / run_ns;
            report.file_services.push(FileServiceShare {
                name: f.name.clone(),
                workstations: f.lan.workstations,
                wire_share: wire,
                point: perform3::point(f.block, blocks, &at_zero[k], &l.snapshot(&engine), events),
            });
        }
    }
    if !cfg.background.is_empty() {
        // each group over the whole run, from time zero
        let stats: Vec<_> = lan.sources().iter().map(|g| g.stats().clone()).collect();
        let b = lan.csma().map(|seg| mac_counts(&seg)).unwrap_or_default();
        let a = vec![MacCounts::default(); b.len()];
        let secs = engine.now().as_secs_f64();
        let bit_ns = cfg.lan.segment.bit_ns as f64;
        report.background = shares(
            &cfg.background,
            &cfg.background_bases(),
            &stats,
            &a,
            &b,
            secs,
            bit_ns,
        );
    }
    (report, audit)
}

/// A local baseline as a one-station report.
fn run_local(cfg: &LanperfConfig, l: &local::LocalConfig, seed: u64) -> LanperfReport {
    let (app, events) = local::run_local(l, &cfg.params, &cfg.costs, seed);
    let p = &cfg.params;
    let tests: Vec<TestResult> = app.runs().iter().map(|r| TestResult::new(p, r)).collect();
    let totals = tests
        .iter()
        .map(|t| TestTotal {
            test: t.test,
            operations: t.operations,
            throughput_kbps: t.throughput_kbps,
            mean_response_ms: t.mean_response_ms,
            usage: None,
        })
        .collect();
    LanperfReport {
        workstations: 1,
        servers: 0,
        params: p.clone(),
        stations: vec![StationResult { station: 1, tests }],
        totals,
        finished_s: app.runs().last().map_or(0.0, |r| r.end.as_secs_f64()),
        events,
        ttcp: Vec::new(),
        background: Vec::new(),
        file_services: Vec::new(),
        lanperf_services: Vec::new(),
    }
}

/// The conservation audit, and, with the LAN settled, every byte written stored once.
fn audit_written(lan: &Lan<FileApp>, now: SimTime) -> Result<AuditReport, AuditError> {
    let r = lan.audit(now)?;
    if r.bytes_stored != r.bytes_written_sent || r.bytes_written_acked != r.bytes_written_sent {
        return Err(AuditError {
            at_ns: now.as_nanos(),
            violations: vec![format!(
                "settled LAN: bytes written {} = answered {} = stored {} does not hold",
                r.bytes_written_sent, r.bytes_written_acked, r.bytes_stored
            )],
        });
    }
    Ok(r)
}

/// The report of the LANPERF service `lan` (of configuration `lc` and options `p`), from
/// its stations' own counts and the windows the harness saw them all in each test.
fn report(
    lc: &LanConfig,
    p: &LanperfParams,
    lan: &Lan<FileApp>,
    windows: &[(Option<LanSnapshot>, Option<LanSnapshot>)],
    finished_s: f64,
    events: u64,
) -> LanperfReport {
    let stations: Vec<StationResult> = (1..=lc.workstations)
        .filter_map(|w| lan.app(w).and_then(FileApp::lanperf).map(|a| (w, a)))
        .map(|(w, a)| StationResult {
            station: w,
            tests: a.runs().iter().map(|r| TestResult::new(p, r)).collect(),
        })
        .collect();
    let totals = p
        .tests
        .iter()
        .enumerate()
        .map(|(k, &test)| {
            let results: Vec<&TestResult> = stations
                .iter()
                .flat_map(|s| s.tests.iter().filter(move |r| r.test == test))
                .collect();
            let operations = results.iter().map(|r| r.operations).sum();
            let usage = match &windows[k] {
                (Some(a), Some(b)) => Some(usage(a, b, &lc.server_nodes())),
                _ => None,
            };
            TestTotal {
                test,
                operations,
                throughput_kbps: results.iter().map(|r| r.throughput_kbps).sum(),
                mean_response_ms: results.iter().map(|r| r.mean_response_ms).sum::<f64>()
                    / results.len().max(1) as f64,
                usage,
            }
        })
        .collect();
    LanperfReport {
        workstations: lc.workstations,
        servers: lc.servers,
        params: p.clone(),
        stations,
        totals,
        finished_s,
        events,
        ttcp: Vec::new(),
        background: Vec::new(),
        file_services: Vec::new(),
        lanperf_services: Vec::new(),
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
