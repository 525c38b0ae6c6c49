//! The LANPERF harness: builds the LAN (every LANPERF service, then the PERFORM3 services,
//! ttcp transfers and background groups beside them, each on stations of its own), starts
//! every station on the starting gun, watches them until all have finished their tests
//! (noting, per service and test, when all its stations were in the test's timed loop),
//! lets the LAN settle, audits it, and reports each service and what ran beside it.
//!
//! Times are simulated; throughputs as in the parent module (1 KB = 1024 bytes for
//! LANPERF's own figures, 1000 for PERFORM3's and ttcp's).

use super::{
    local, usage, LanperfApp, LanperfConfig, LanperfLan, LanperfParams, LanperfReport, LanperfServiceReport,
    StationResult, TestResult, TestTotal,
};
use crate::engine::Engine;
use crate::ether::{AnyWire, SharedSegment};
use crate::lan::observe::{drive, reborrow, Observer};
use crate::lan::{AuditError, AuditReport, Lan, LanConfig, LanEvent, LanSnapshot, Net};
use crate::time::{SimDuration, SimTime};
use crate::workload::background::{mac_counts, shares, MacCounts};
use crate::workload::file_app::FileApp;
use crate::workload::perform3;
use crate::workload::shared::{audit_pairs, audit_services, ttcp_share, FileServiceShare, TtcpCounts};

/// How often the harness looks at the stations, simulated time.
const LOOK_EVERY: SimDuration = SimDuration::from_millis(20);
/// Time given to the LAN after the last station finished, for acknowledgements in flight.
const SETTLE: SimDuration = SimDuration::from_secs(2);

/// The stations' first file number: station `w` uses `FILES_PER_STATION * w + test`.
pub const FILES_PER_STATION: u32 = 2;

/// Builds the LAN: LANPERF on every workstation of each LANPERF service, PERFORM3 on every
/// workstation of each PERFORM3 service, then the ttcp pairs and background groups.
pub fn build_lan(cfg: &LanperfConfig, engine: &mut Engine<LanEvent>) -> LanperfLan {
    let segment = SharedSegment::new(&cfg.lan.segment, engine.rng_streams());
    // every LANPERF service, this one first, each on the stations after the one before
    let mut lans = Vec::new();
    let mut base = 0;
    for (lc, p, costs) in cfg.lanperf_all() {
        let apps = (1..=lc.workstations)
            .map(|w| {
                FileApp::Lanperf(LanperfApp::new(
                    p.clone(),
                    costs.clone(),
                    FILES_PER_STATION * w as u32,
                ))
            })
            .collect();
        lans.push(Lan::new(lc.clone(), apps, segment.clone(), base, engine));
        base += lc.nodes();
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
    // the PERFORM3 services beside LANPERF (after the LANPERF services), from time zero
    let nl = cfg.lanperf_all().len();
    let at_zero: Vec<LanSnapshot> = lan.file_services()[nl..]
        .iter()
        .map(|l| l.snapshot(&engine))
        .collect();
    let (windows, t) = watch(cfg, &mut lan, &mut engine, reborrow(&mut obs));
    let finished_s = t.as_secs_f64();
    drive(&mut lan, &mut engine, t + SETTLE, reborrow(&mut obs));
    let audit = audit_all(cfg, &lan, engine.now());
    let events = engine.events_dispatched();
    let mut report = report(&cfg.lan, &cfg.params, fs(&lan), &windows[0], finished_s, events);
    for (k, s) in cfg.lanperf_services.iter().enumerate() {
        let l = &lan.file_services()[1 + k];
        report.lanperf_services.push(LanperfServiceReport {
            name: s.name.clone(),
            report: self::report(&s.lan, &s.params, l, &windows[1 + k], finished_s, events),
        });
    }
    beside(cfg, &lan, &engine, &at_zero, &mut report);
    (report, audit)
}

/// Per LANPERF service (this one first) and test: the snapshot when all its stations were
/// timing the test, and when the first left.
type Windows = Vec<Vec<(Option<LanSnapshot>, Option<LanSnapshot>)>>;

/// Runs the LAN, looking at the LANPERF stations every [`LOOK_EVERY`], until every one
/// has finished its tests (or the time limit); returns each service's test windows and
/// the time the harness stopped.
fn watch(
    cfg: &LanperfConfig,
    lan: &mut LanperfLan,
    engine: &mut Engine<LanEvent>,
    mut obs: Option<&mut dyn Observer>,
) -> (Windows, SimTime) {
    let all = cfg.lanperf_all();
    let mut windows: Windows = all
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
        drive(lan, engine, t, reborrow(&mut obs));
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
                    w.0 = Some(fs.snapshot(engine));
                } else if w.0.is_some() && w.1.is_none() && !all_in {
                    w.1 = Some(fs.snapshot(engine));
                }
            }
            done &= apps.iter().all(|a| a.is_done());
        }
        if done || t >= limit {
            return (windows, t);
        }
    }
}

/// Every part's audit at `now`, the LAN settled: LANPERF's (with every byte written
/// stored once), each further LANPERF service's, each PERFORM3 service's, each background
/// group's and each ttcp pair's.
fn audit_all(cfg: &LanperfConfig, lan: &LanperfLan, now: SimTime) -> Result<AuditReport, AuditError> {
    let nl = cfg.lanperf_all().len();
    let audit = audit_written(fs(lan), now);
    let mut stray = lan.audit_sources();
    for (k, s) in cfg.lanperf_services.iter().enumerate() {
        if let Err(e) = audit_written(&lan.file_services()[1 + k], now) {
            stray.extend(
                e.violations
                    .into_iter()
                    .map(|v| format!("file service {}: {v}", s.name)),
            );
        }
    }
    let names: Vec<String> = cfg.file_services.iter().map(|f| f.name.clone()).collect();
    stray.extend(audit_services(&lan.file_services()[nl..], &names, true, now));
    stray.extend(audit_pairs(lan.tcp_pairs(), now));
    if stray.is_empty() {
        return audit;
    }
    match audit {
        Ok(_) => Err(AuditError {
            at_ns: now.as_nanos(),
            violations: stray,
        }),
        Err(mut e) => {
            e.violations.extend(stray);
            Err(e)
        }
    }
}

/// The share of a run of `run_ns` the wire spent carrying the frames stations `range`
/// delivered intact (their MAC counters `macs` over the run; bit time `bit_ns`).
fn run_share(macs: &[MacCounts], range: std::ops::Range<usize>, bit_ns: f64, run_ns: f64) -> f64 {
    macs.get(range)
        .unwrap_or_default()
        .iter()
        .map(|m| m.delivered_bits() as f64 * bit_ns)
        .sum::<f64>()
        / run_ns
}

/// What ran beside LANPERF, each over the whole run from time zero, into `report`: each
/// ttcp transfer, each PERFORM3 service (its counters at time zero `at_zero`) and each
/// background group.
fn beside(
    cfg: &LanperfConfig,
    lan: &LanperfLan,
    engine: &Engine<LanEvent>,
    at_zero: &[LanSnapshot],
    report: &mut LanperfReport,
) {
    let macs = lan.csma().map(|seg| mac_counts(&seg)).unwrap_or_default();
    let bit_ns = cfg.lan.segment.bit_ns as f64;
    let run_ns = engine.now().as_nanos() as f64;
    for (k, (t, pair)) in cfg.ttcp.iter().zip(lan.tcp_pairs()).enumerate() {
        let base = cfg.tcp_base(k);
        let none = MacCounts::default();
        let mac = macs.get(base + t.transmitter).unwrap_or(&none);
        let end = TtcpCounts::of(pair, t.transmitter, mac, pair.app(1 - t.transmitter).bytes());
        let mut share = ttcp_share(&TtcpCounts::default(), &end, run_ns);
        share.wire_share = run_share(&macs, base..base + 2, bit_ns, run_ns);
        t.name(&mut share);
        report.ttcp.push(share);
    }
    let nl = cfg.lanperf_all().len();
    let events = engine.events_dispatched();
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
        report.file_services.push(FileServiceShare {
            name: f.name.clone(),
            workstations: f.lan.workstations,
            wire_share: run_share(&macs, base..base + f.lan.nodes(), bit_ns, run_ns),
            point: perform3::point(f.block, blocks, &at_zero[k], &l.snapshot(engine), events),
        });
    }
    if !cfg.background.is_empty() {
        let stats: Vec<_> = lan.sources().iter().map(|g| g.stats().clone()).collect();
        let a = vec![MacCounts::default(); macs.len()];
        let secs = engine.now().as_secs_f64();
        report.background = shares(
            &cfg.background,
            &cfg.background_bases(),
            &stats,
            &a,
            &macs,
            secs,
            bit_ns,
        );
    }
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
