//! Applications sharing one cable: file services of NetBIOS LANs (PERFORM3 reading
//! blocks on each workstation from its server; each service its own server, workstations
//! and hardware), ttcp transfers (each between its own two
//! TCP/IP hosts), and groups of background frame sources (open-loop or backlogged bare
//! stations, [`crate::lan::source`]), all on one CSMA/CD segment. Each node runs its own
//! stack; the frames of every application contend for the same wire, so each one's
//! throughput is what the MAC leaves it. A run has two applications or more of these.
//!
//! Each file service is a run of stations (server first, then its workstations), one
//! service after another from station 0; each ttcp pair the next two (in order), then
//! each background group's senders and sink. The run has a warm-up, not
//! counted, then a measurement window. Each application's throughput is the data its
//! receivers took in during the window, per second: PERFORM3's file data at the
//! workstations, ttcp's bytes
//! read by its receiver (the transmitter writes without end, `ttcp -t -s` with an
//! unbounded `-n`), and the background frames delivered intact.
//!
//! The wire's time in the window is split by what it carried: frames of each application
//! delivered intact (the medium's time carrying intact frames, split in proportion to the
//! preamble-and-frame time of the frames each application's stations delivered),
//! collisions, frames damaged on the wire, and idle. The shares add up to 1.
//!
//! Units: KB/s with 1 KB = 1000 bytes for the file service and ttcp (ttcp itself prints
//! KiB/s), Mb/s for background groups, shares 0..1, times µs.

use serde::Serialize;

pub use super::background::BackgroundShare;
use super::background::{mac_counts, shares, MacCounts};
use super::perform3::{self, Perform3App, Perform3Point};
use super::ttcp::{Role, Ttcp};
use crate::engine::Engine;
use crate::ether::medium::MediumTime;
use crate::ether::{AnyWire, SegmentConfig, SharedSegment};
use crate::lan::observe::{drive, reborrow, Observer};
use crate::lan::source::SourceConfig;
use crate::lan::tcp::{TcpHost, TcpLan};
use crate::lan::{medium_time, AuditError, Lan, LanConfig, LanEvent, LanSnapshot, Net};
use crate::time::{SimDuration, SimTime};

/// The LAN of a shared run.
pub type SharedNet = Net<Perform3App, Ttcp>;

/// A validated run of several applications on one cable.
#[derive(Clone, Debug, PartialEq)]
pub struct SharedConfig {
    /// The cable, with every part's stations on it.
    pub segment: SegmentConfig,
    /// The file services, each on its own stations, in order (each configuration's
    /// segment is the cable).
    pub file_services: Vec<FileService>,
    /// The ttcp transfers, each on its own two hosts, in order.
    pub ttcp: Vec<SharedTtcp>,
    /// Groups of background frame sources, after the ttcp hosts, in order.
    pub background: Vec<SourceConfig>,
    pub warmup: SimDuration,
    pub measure: SimDuration,
}

/// A file service of a shared run: PERFORM3 on every workstation.
#[derive(Clone, Debug, PartialEq)]
pub struct FileService {
    /// What the reports call it: its server's node name (or the scenario that gave it).
    pub name: String,
    pub lan: LanConfig,
    /// PERFORM3's block size, bytes.
    pub block: u32,
}

/// The ttcp transfer of a shared run.
#[derive(Clone, Debug, PartialEq)]
pub struct SharedTtcp {
    /// The ttcp hosts as configured, and their names.
    pub hosts: [TcpHost; 2],
    pub host_names: [String; 2],
    /// Which host runs `ttcp -t`.
    pub transmitter: usize,
    /// ttcp's `-l`, bytes.
    pub buflen: u32,
}

impl SharedConfig {
    /// The file services' stations (the first on the cable; none without one).
    pub fn file_stations(&self) -> usize {
        self.file_services.iter().map(|f| f.lan.nodes()).sum()
    }

    /// The first station (the server's) of file service `k`.
    pub fn file_base(&self, k: usize) -> usize {
        self.file_services[..k].iter().map(|f| f.lan.nodes()).sum()
    }

    /// The workstations of every file service together.
    pub fn workstations(&self) -> usize {
        self.file_services.iter().map(|f| f.lan.workstations).sum()
    }

    /// The station of host `i` (0 or 1) of ttcp pair `pair`.
    pub fn tcp_station(&self, pair: usize, i: usize) -> usize {
        self.file_stations() + 2 * pair + i
    }

    /// Every station on the cable.
    pub fn stations(&self) -> usize {
        self.background_bases().last().map_or(self.tcp_end(), |&b| {
            b + self.background.last().map_or(0, SourceConfig::stations)
        })
    }

    /// The station after the ttcp hosts (after the file service without them).
    fn tcp_end(&self) -> usize {
        self.file_stations() + 2 * self.ttcp.len()
    }

    /// The first station of each background group.
    pub fn background_bases(&self) -> Vec<usize> {
        crate::lan::source::bases(self.tcp_end(), &self.background)
    }
}

/// Shares of the wire's time in the window, adding up to 1.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct WireShares {
    /// Frames of the file services delivered intact, every service's.
    pub file_service: f64,
    /// Frames of the ttcp transfers (data and ACKs) delivered intact, every pair's.
    pub ttcp: f64,
    /// Frames of the background groups delivered intact.
    pub background: f64,
    pub collision: f64,
    /// Frames damaged on the wire (fault injection).
    pub corrupted: f64,
    pub idle: f64,
}

/// What a ttcp transfer (or every transfer of a run together) met on the wire and in its
/// hosts during the window.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct TtcpShare {
    /// The hosts that run `ttcp -t` and `ttcp -r` (empty for every transfer together).
    pub transmitter: String,
    pub receiver: String,
    /// Bytes the receiver read in the window, per second, KB/s (1 KB = 1000 bytes).
    pub throughput_kbps: f64,
    /// The share of the window the wire spent carrying this transfer's frames intact.
    pub wire_share: f64,
    /// The transmitter's frames: sent in the window, and per frame the times it found
    /// the carrier busy (deferrals) and collided.
    pub frames_sent: u64,
    pub deferrals_per_frame: f64,
    pub collisions_per_frame: f64,
    /// Mean time from a frame's reaching the head of the transmitter's MAC queue to the
    /// start of its successful transmission, µs.
    pub access_delay_mean_us: f64,
    /// CPU busy share of the transmitter and of the receiver (for every transfer
    /// together, the mean over the transmitters and over the receivers).
    pub transmitter_cpu: f64,
    pub receiver_cpu: f64,
}

/// What a file service did in the window.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FileServiceShare {
    /// Its name (its server's node).
    pub name: String,
    pub workstations: usize,
    /// The share of the window the wire spent carrying this service's frames intact.
    pub wire_share: f64,
    /// PERFORM3's point: its throughput, per workstation, and what limited it (the wire
    /// shares there are the whole wire's).
    pub point: Perform3Point,
}

/// Result of a shared run.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SharedReport {
    /// The file services' workstations, all together (0 without a file service).
    pub workstations: usize,
    pub warmup_s: f64,
    pub measure_s: f64,
    /// Each file service, in order.
    pub file_services: Vec<FileServiceShare>,
    /// Each ttcp transfer, in order.
    pub ttcp: Vec<TtcpShare>,
    /// Every ttcp transfer together (the figures of the run's `ttcp_` columns: the
    /// receivers' throughputs summed, the transmitters' frames taken together); none
    /// without a transfer. For one transfer, the same figures as its own.
    #[serde(skip)]
    pub ttcp_all: Option<TtcpShare>,
    /// Each background group, in order.
    pub background: Vec<BackgroundShare>,
    pub wire: WireShares,
    /// Events the run dispatched.
    pub events: u64,
    /// Every application's conservation audit at the end of the window (each file
    /// service's, each ttcp transfer's, each background group's): the violations, empty when every
    /// byte and frame is accounted for.
    pub audit_violations: Vec<String>,
}

/// The counters of ttcp transfers at an instant (of one, or of several summed): the
/// transmitters' MAC, the bytes the receivers read, the transmitters' and the receivers'
/// CPU busy time (ns), and how many transfers they count.
#[derive(Clone, Debug, Default)]
pub struct TtcpCounts {
    pub mac: MacCounts,
    pub read: u64,
    /// `[transmitters, receivers]`.
    pub cpu_busy: [u64; 2],
    pub transfers: u32,
}

impl TtcpCounts {
    /// The counters of the transfer of `pair` whose transmitter is host `tx`, from its
    /// transmitter's MAC counters `mac`.
    pub fn of<S: crate::lan::tcp::SocketApp>(
        pair: &TcpLan<S>,
        tx: usize,
        mac: &MacCounts,
        read: u64,
    ) -> Self {
        TtcpCounts {
            mac: mac.clone(),
            read,
            cpu_busy: [
                pair.node_report(tx).cpu.busy_ns,
                pair.node_report(1 - tx).cpu.busy_ns,
            ],
            transfers: 1,
        }
    }

    /// The counters of several transfers together.
    pub fn sum<'a>(all: impl IntoIterator<Item = &'a TtcpCounts>) -> Self {
        all.into_iter().fold(TtcpCounts::default(), |mut s, c| {
            s.mac.add(&c.mac);
            s.read += c.read;
            s.cpu_busy[0] += c.cpu_busy[0];
            s.cpu_busy[1] += c.cpu_busy[1];
            s.transfers += c.transfers;
            s
        })
    }
}

/// What ttcp transfers met over a window of `w_ns`, from their counters `a` at the
/// window's start and `b` at its end (names and wire share left for the caller).
pub fn ttcp_share(a: &TtcpCounts, b: &TtcpCounts, w_ns: f64) -> TtcpShare {
    let (mx, my) = (&a.mac, &b.mac);
    let frames_sent = my.frames_sent - mx.frames_sent;
    let per_frame = |n: u64| n as f64 / frames_sent.max(1) as f64;
    let delays = my.delay_count - mx.delay_count;
    let hosts = f64::from(b.transfers.max(1));
    let cpu = |i: usize| (b.cpu_busy[i] - a.cpu_busy[i]) as f64 / (w_ns * hosts);
    TtcpShare {
        throughput_kbps: (b.read - a.read) as f64 / (w_ns * 1e-9) / 1000.0,
        frames_sent,
        deferrals_per_frame: per_frame(my.deferrals - mx.deferrals),
        collisions_per_frame: per_frame(my.collisions - mx.collisions),
        access_delay_mean_us: if delays > 0 {
            (my.delay_sum - mx.delay_sum) as f64 / delays as f64 / 1e3
        } else {
            0.0
        },
        transmitter_cpu: cpu(0).min(1.0),
        receiver_cpu: cpu(1).min(1.0),
        ..Default::default()
    }
}

impl SharedTtcp {
    /// The transfer's two hosts on stations `base` and `base + 1` of `wire`, the
    /// transmitter writing without end, both applications started.
    pub fn pair(&self, wire: AnyWire, base: usize, engine: &mut Engine<LanEvent>) -> TcpLan<Ttcp> {
        let receive = || Ttcp::new(Role::Receive { buflen: self.buflen });
        let mut apps = [receive(), receive()];
        apps[self.transmitter] = Ttcp::new(Role::Transmit {
            buflen: self.buflen,
            nbuf: u32::MAX,
        });
        TcpLan::new(wire, base, self.hosts.clone(), apps, engine)
    }

    /// Names `share` by this transfer's hosts.
    pub fn name(&self, share: &mut TtcpShare) {
        share.transmitter = self.host_names[self.transmitter].clone();
        share.receiver = self.host_names[1 - self.transmitter].clone();
    }
}

/// The conservation audit of every ttcp pair at `now`: the violations, each naming its
/// transfer (`ttcp:` for a run's one transfer, `ttcp 1:`, `ttcp 2:`, ... for several).
pub fn audit_pairs<S: crate::lan::tcp::SocketApp>(pairs: &[TcpLan<S>], now: SimTime) -> Vec<String> {
    let label = |k: usize| {
        if pairs.len() == 1 {
            "ttcp".to_string()
        } else {
            format!("ttcp {}", k + 1)
        }
    };
    pairs
        .iter()
        .enumerate()
        .filter_map(|(k, p)| p.audit(now).err().map(|e| (k, e)))
        .flat_map(|(k, AuditError { violations, .. })| {
            violations.into_iter().map(move |v| format!("{}: {v}", label(k)))
        })
        .collect()
}

/// The conservation audit of every file service at `now`: the violations, each naming
/// its service (`file service:` for a run's one service, `file service NAME:` for
/// several, or when `named`).
pub fn audit_services<A: crate::lan::Application>(
    services: &[Lan<A>],
    names: &[String],
    named: bool,
    now: SimTime,
) -> Vec<String> {
    let label = |k: usize| {
        if services.len() == 1 && !named {
            "file service".to_string()
        } else {
            format!("file service {}", names.get(k).map_or("?", String::as_str))
        }
    };
    services
        .iter()
        .enumerate()
        .filter_map(|(k, l)| l.audit(now).err().map(|e| (k, e)))
        .flat_map(|(k, AuditError { violations, .. })| {
            violations.into_iter().map(move |v| format!("{}: {v}", label(k)))
        })
        .collect()
}

/// What the window differences.
struct Snapshot {
    at: SimTime,
    /// Each file service's counters.
    lan: Vec<LanSnapshot>,
    /// Each file service's blocks done.
    blocks: Vec<u64>,
    medium: MediumTime,
    macs: Vec<MacCounts>,
    /// Each ttcp transfer's counters.
    ttcp: Vec<TtcpCounts>,
}

fn snapshot(
    net: &SharedNet,
    segment: &SharedSegment,
    cfg: &SharedConfig,
    engine: &Engine<LanEvent>,
) -> Snapshot {
    let seg = segment.get();
    let macs = mac_counts(&seg);
    let ttcp = net
        .tcp_pairs()
        .iter()
        .zip(&cfg.ttcp)
        .enumerate()
        .map(|(k, (pair, t))| {
            let tx = t.transmitter;
            TtcpCounts::of(pair, tx, &macs[cfg.tcp_station(k, tx)], pair.app(1 - tx).bytes())
        })
        .collect();
    let lans = net.file_services();
    Snapshot {
        at: engine.now(),
        lan: lans.iter().map(|l| l.snapshot(engine)).collect(),
        blocks: lans.iter().map(perform3::blocks_done).collect(),
        medium: medium_time(&seg.report(engine.now())),
        macs,
        ttcp,
    }
}

/// Builds the LAN: the file services from station 0, the ttcp hosts after them, then the
/// background groups; and a handle to its segment.
pub fn build(cfg: &SharedConfig, engine: &mut Engine<LanEvent>) -> (SharedNet, SharedSegment) {
    let segment = SharedSegment::new(&cfg.segment, engine.rng_streams());
    let lans = cfg
        .file_services
        .iter()
        .enumerate()
        .map(|(k, f)| {
            Lan::new(
                f.lan.clone(),
                perform3::apps(&f.lan, f.block),
                segment.clone(),
                cfg.file_base(k),
                engine,
            )
        })
        .collect();
    let wire = AnyWire::Csma(segment.clone());
    let tcp = cfg
        .ttcp
        .iter()
        .enumerate()
        .map(|(k, t)| t.pair(wire.clone(), cfg.tcp_station(k, 0), engine))
        .collect();
    let mut net = Net::new(wire, lans, tcp);
    for (g, b) in cfg.background.iter().zip(cfg.background_bases()) {
        net.add_sources(g.clone(), b, engine);
    }
    (net, segment)
}

/// Runs the warm-up and the window.
pub fn run(cfg: &SharedConfig, seed: u64) -> SharedReport {
    run_observed(cfg, seed, None)
}

/// As [`run`], handing every observation to `obs` if given.
pub fn run_observed(cfg: &SharedConfig, seed: u64, mut obs: Option<&mut dyn Observer>) -> SharedReport {
    let mut engine: Engine<LanEvent> = Engine::new(seed);
    let (mut net, segment) = build(cfg, &mut engine);
    let t0 = SimTime::ZERO + cfg.warmup;
    drive(&mut net, &mut engine, t0, reborrow(&mut obs));
    let a = snapshot(&net, &segment, cfg, &engine);
    net.restart_source_counts();
    drive(&mut net, &mut engine, t0 + cfg.measure, reborrow(&mut obs));
    let b = snapshot(&net, &segment, cfg, &engine);
    let now = engine.now();
    let mut audit_violations = Vec::new();
    let names: Vec<String> = cfg.file_services.iter().map(|f| f.name.clone()).collect();
    audit_violations.extend(audit_services(net.file_services(), &names, false, now));
    audit_violations.extend(audit_pairs(net.tcp_pairs(), now));
    audit_violations.extend(net.audit_sources());
    let groups: Vec<_> = net.sources().iter().map(|g| g.stats().clone()).collect();
    report(cfg, &a, &b, &groups, engine.events_dispatched(), audit_violations)
}

fn report(
    cfg: &SharedConfig,
    a: &Snapshot,
    b: &Snapshot,
    groups: &[crate::lan::source::SourceStats],
    events: u64,
    audit_violations: Vec<String>,
) -> SharedReport {
    let w_ns = (b.at - a.at).as_nanos() as f64;
    let secs = w_ns * 1e-9;
    let bit_ns = cfg.segment.bit_ns as f64;
    // wire time of the frames stations `range` delivered intact in the window
    let delivered = |range: std::ops::Range<usize>| -> f64 {
        range
            .map(|i| (b.macs[i].delivered_bits() - a.macs[i].delivered_bits()) as f64 * bit_ns)
            // from +0: a part with no stations has a share of +0, not -0
            .fold(0.0, |a, x| a + x)
            / w_ns
    };
    let base = cfg.file_stations();
    let tcp_end = cfg.tcp_end();
    let bases = cfg.background_bases();
    let ranges: Vec<std::ops::Range<usize>> = cfg
        .background
        .iter()
        .zip(&bases)
        .map(|(g, &b0)| b0..b0 + g.senders)
        .collect();
    // the medium's time carrying intact frames, split between the applications in
    // proportion to the wire time of the frames each delivered in the window (a frame
    // across an edge of the window counts whole where it was delivered, the medium's time
    // is cut at the edges: the split keeps the shares adding up to the window)
    let fs = delivered(0..base);
    let tt = delivered(base..tcp_end);
    let bg = ranges.iter().fold(0.0, |s, r| s + delivered(r.clone()));
    // the medium's busy shares, as PERFORM3's point takes them
    let share = |f: fn(&MediumTime) -> u64| (f(&b.medium) - f(&a.medium)) as f64 / w_ns;
    let success = share(|m| m.success_ns);
    let collision = share(|m| m.collision_ns);
    let corrupted = share(|m| m.corrupted_ns);
    let total = fs + tt + bg;
    let part = |x: f64| if total > 0.0 { success * x / total } else { 0.0 };
    let wire = WireShares {
        file_service: part(fs),
        ttcp: part(tt),
        background: part(bg),
        collision,
        corrupted,
        idle: (1.0 - (success + collision + corrupted)).max(0.0),
    };
    let file_services = cfg
        .file_services
        .iter()
        .enumerate()
        .map(|(k, f)| {
            let base = cfg.file_base(k);
            FileServiceShare {
                name: f.name.clone(),
                workstations: f.lan.workstations,
                wire_share: part(delivered(base..base + f.lan.nodes())),
                point: perform3::point(f.block, b.blocks[k] - a.blocks[k], &a.lan[k], &b.lan[k], events),
            }
        })
        .collect();
    let ttcp = cfg
        .ttcp
        .iter()
        .enumerate()
        .map(|(k, t)| {
            let mut s = ttcp_share(&a.ttcp[k], &b.ttcp[k], w_ns);
            s.wire_share = part(delivered(cfg.tcp_station(k, 0)..cfg.tcp_station(k, 2)));
            t.name(&mut s);
            s
        })
        .collect();
    let ttcp_all = (!cfg.ttcp.is_empty()).then(|| {
        let mut s = ttcp_share(&TtcpCounts::sum(&a.ttcp), &TtcpCounts::sum(&b.ttcp), w_ns);
        s.wire_share = wire.ttcp;
        s
    });
    let background = shares(&cfg.background, &bases, groups, &a.macs, &b.macs, secs, bit_ns);
    SharedReport {
        workstations: cfg.workstations(),
        warmup_s: cfg.warmup.as_secs_f64(),
        measure_s: cfg.measure.as_secs_f64(),
        file_services,
        ttcp,
        ttcp_all,
        background,
        wire,
        events,
        audit_violations,
    }
}
