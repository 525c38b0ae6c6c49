//! Workload PERFORM3: the synchronized traffic test of the 1992 Artisoft bulletin.
//!
//! N workstations start together; each reads its own file (held in the server's
//! LANCACHE, so no disk is involved) sequentially in blocks of B bytes, over and over.
//! For each block size the LAN runs a warm-up that is not counted, then a measurement
//! window. Throughput is the file data the workstations' sessions received in order
//! during the window, summed over workstations, per second, in KB/s with
//! **1 KB = 1000 bytes** (the bulletin treats 10 Mb/s as 1.25 MB/s).
//!
//! Counting received data rather than completed blocks keeps the result free of the
//! quantisation of a few large blocks per window; over the window the two differ by at
//! most one block in progress per workstation.
//!
//! - [`app`]: the program each workstation runs (per-block work, then a read).
//! - this module: the measurement harness (warm-up, window, figures, bottleneck).

pub mod app;

use rayon::prelude::*;
use serde::Serialize;

pub use app::{Perform3App, Perform3Params};

use crate::engine::{seed, Engine};
use crate::lan::observe::{drive, reborrow, Observer};
use crate::lan::{AuditError, AuditReport, CpuShare, FileServiceNet, Lan, LanConfig, LanEvent, LanSnapshot};
use crate::time::{SimDuration, SimTime};

/// The LAN PERFORM3 runs on.
pub type Perform3Lan = Lan<Perform3App>;
/// The LAN of a PERFORM3 run: its file service alone on the segment.
pub type Perform3Net = FileServiceNet<Perform3App>;

/// A validated PERFORM3 run.
#[derive(Clone, Debug, PartialEq)]
pub struct Perform3Config {
    pub lan: LanConfig,
    /// Block sizes, bytes, in the order to report them.
    pub block_sizes: Vec<u32>,
    pub warmup: SimDuration,
    pub measure: SimDuration,
}

/// Where the time went during the measurement window of one block size.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Explanation {
    /// Aggregate milliseconds per block (window / blocks completed by all workstations).
    pub ms_per_block: f64,
    /// Medium carrying frames delivered intact, collision periods, frames damaged on the
    /// wire (sent without a collision, not delivered: fault injection) and idle: shares of
    /// the window, adding up to 1 (see [`crate::ether::medium::MediumTime`]).
    pub wire_success: f64,
    pub wire_collision: f64,
    pub wire_corrupted: f64,
    pub wire_idle: f64,
    /// Collisions per block read.
    pub collisions_per_block: f64,
    pub server_cpu: CpuShare,
    /// Mean over workstations.
    pub workstation_cpu: CpuShare,
    /// Mean share of time a server session had data out and was waiting for an ack.
    pub server_waiting_for_ack: f64,
    pub packets_retransmitted: u64,
    pub rx_ring_drops: u64,
    /// The most loaded resource if one is above 90% busy, else latency.
    pub bottleneck: Bottleneck,
}

/// What limits a PERFORM3 point's throughput. Serialised (and displayed) as the words a
/// reader sees: `"wire"`, `"server CPU"`, `"workstation CPU"`,
/// `"latency (tasks waiting for acks)"`.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub enum Bottleneck {
    /// The medium carries frames or collisions at least 90% of the time.
    #[serde(rename = "wire")]
    Wire,
    /// The server's CPU is the busiest resource, at least 90% busy.
    #[serde(rename = "server CPU")]
    ServerCpu,
    /// A workstation's CPU is the busiest resource, at least 90% busy.
    #[serde(rename = "workstation CPU")]
    WorkstationCpu,
    /// Nothing is 90% busy: requests wait for server tasks that wait for acknowledgements.
    #[serde(rename = "latency (tasks waiting for acks)")]
    Latency,
}

impl std::fmt::Display for Bottleneck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Bottleneck::Wire => "wire",
            Bottleneck::ServerCpu => "server CPU",
            Bottleneck::WorkstationCpu => "workstation CPU",
            Bottleneck::Latency => "latency (tasks waiting for acks)",
        })
    }
}

/// Result for one block size.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Perform3Point {
    pub block_size: u32,
    /// Aggregate throughput, KB/s (1 KB = 1000 bytes).
    pub throughput_kbps: f64,
    pub per_station_kbps: Vec<f64>,
    pub blocks_completed: u64,
    pub events: u64,
    pub explanation: Explanation,
}

/// Result of a PERFORM3 run.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Perform3Report {
    pub workstations: usize,
    pub warmup_s: f64,
    pub measure_s: f64,
    pub points: Vec<Perform3Point>,
}

impl Perform3Report {
    /// Mean throughput over the block sizes, KB/s.
    pub fn mean_kbps(&self) -> f64 {
        self.points.iter().map(|p| p.throughput_kbps).sum::<f64>() / self.points.len().max(1) as f64
    }
}

/// Runs one block size. In builds with debug assertions the LAN is audited at the end
/// ([`Lan::audit`]) and a violation panics.
pub fn run_block(cfg: &Perform3Config, block: u32, seed: u64) -> Perform3Point {
    let (point, _audit) = run_block_with(cfg, block, seed, |lan, engine| {
        if cfg!(debug_assertions) {
            if let Err(e) = lan.audit(engine.now()) {
                panic!("block {block}, seed {seed}: {e}");
            }
        }
    });
    point
}

/// Runs one block size and audits the LAN at the end of the measurement window.
pub fn run_block_audited(
    cfg: &Perform3Config,
    block: u32,
    seed: u64,
) -> (Perform3Point, Result<AuditReport, AuditError>) {
    run_block_with(cfg, block, seed, |lan, engine| lan.audit(engine.now()))
}

/// Runs one block size; `end` looks at the LAN once the measurement window is over.
pub fn run_block_with<T>(
    cfg: &Perform3Config,
    block: u32,
    seed: u64,
    end: impl FnOnce(&Perform3Lan, &Engine<LanEvent>) -> T,
) -> (Perform3Point, T) {
    run_block_observed(cfg, block, seed, None, end)
}

/// As [`run_block_with`], handing every observation to `obs` if given.
pub fn run_block_observed<T>(
    cfg: &Perform3Config,
    block: u32,
    seed: u64,
    mut obs: Option<&mut dyn Observer>,
    end: impl FnOnce(&Perform3Lan, &Engine<LanEvent>) -> T,
) -> (Perform3Point, T) {
    let mut engine: Engine<LanEvent> = Engine::new(seed);
    let mut net = build_lan(&cfg.lan, block, &mut engine);
    let t0 = SimTime::ZERO + cfg.warmup;
    drive(&mut net, &mut engine, t0, reborrow(&mut obs));
    let a = net.lan().snapshot(&engine);
    let blocks_a = blocks_done(net.lan());
    drive(&mut net, &mut engine, t0 + cfg.measure, reborrow(&mut obs));
    let b = net.lan().snapshot(&engine);
    let blocks = blocks_done(net.lan()) - blocks_a;
    let p = point(block, blocks, &a, &b, engine.events_dispatched());
    let t = end(net.lan(), &engine);
    (p, t)
}

/// The seed of block size `block`'s run within a PERFORM3 run seeded `seed`.
pub fn block_seed(seed: u64, block: u32) -> u64 {
    seed::point(seed, block as u64)
}

/// The LAN of `cfg` with PERFORM3 reading blocks of `block` bytes on every workstation.
pub fn build_lan(cfg: &LanConfig, block: u32, engine: &mut Engine<LanEvent>) -> Perform3Net {
    FileServiceNet::file_service_only(cfg.clone(), apps(cfg, block), engine)
}

/// PERFORM3 reading blocks of `block` bytes, one for each workstation of `cfg`.
pub fn apps(cfg: &LanConfig, block: u32) -> Vec<Perform3App> {
    let costs = &cfg.profile.costs;
    let params = Perform3Params {
        block,
        block_kinstr: costs.app_block_kinstr,
        jitter: costs.app_jitter,
        start_skew: costs.start_skew,
    };
    (0..cfg.workstations)
        .map(|_| Perform3App::new(params.clone()))
        .collect()
}

/// Blocks read so far by all workstations.
pub(crate) fn blocks_done(lan: &Perform3Lan) -> u64 {
    (1..=lan.config().workstations)
        .filter_map(|i| lan.app(i))
        .map(Perform3App::blocks_done)
        .sum()
}

/// The point of block size `block` from the snapshots `a` and `b` at the ends of the
/// window, `blocks` read in it and `events` dispatched in the run.
pub(crate) fn point(block: u32, blocks: u64, a: &LanSnapshot, b: &LanSnapshot, events: u64) -> Perform3Point {
    let w_ns = b.window_ns(a) as f64;
    let secs = w_ns * 1e-9;
    let n = b.nodes.len();
    let per_station_kbps: Vec<f64> = (1..n)
        .map(|i| (b.nodes[i].payload_received - a.nodes[i].payload_received) as f64 / secs / 1000.0)
        .collect();
    let server_cpu = b.cpu_share(a, 0);
    let ws: Vec<CpuShare> = (1..n).map(|i| b.cpu_share(a, i)).collect();
    let k = ws.len().max(1) as f64;
    // + 0.0: no workstations is a share of 0, not the empty sum's -0
    let workstation_cpu = CpuShare {
        busy: (ws.iter().map(|c| c.busy).sum::<f64>() + 0.0) / k,
        copy: (ws.iter().map(|c| c.copy).sum::<f64>() + 0.0) / k,
        protocol: (ws.iter().map(|c| c.protocol).sum::<f64>() + 0.0) / k,
        work: (ws.iter().map(|c| c.work).sum::<f64>() + 0.0) / k,
    };
    let wire_success = (b.medium.success_ns - a.medium.success_ns) as f64 / w_ns;
    let wire_collision = (b.medium.collision_ns - a.medium.collision_ns) as f64 / w_ns;
    let wire_corrupted = (b.medium.corrupted_ns - a.medium.corrupted_ns) as f64 / w_ns;
    let sessions = b.nodes[0].sessions.max(1) as f64;
    let server_waiting_for_ack = (b.nodes[0].stall_ns - a.nodes[0].stall_ns) as f64 / w_ns / sessions;
    let wire = wire_success + wire_collision + wire_corrupted;
    let max_ws = ws.iter().map(|c| c.busy).fold(0.0, f64::max);
    // The resource nearest to 100% limits the throughput; if none is near it, the limit
    // is latency: requests wait for server tasks that wait for acknowledgements.
    let max_load = server_cpu.busy.max(wire).max(max_ws);
    let bottleneck = if max_load < 0.9 {
        Bottleneck::Latency
    } else if server_cpu.busy >= wire && server_cpu.busy >= max_ws {
        Bottleneck::ServerCpu
    } else if wire >= max_ws {
        Bottleneck::Wire
    } else {
        Bottleneck::WorkstationCpu
    };
    let sum = |f: fn(&crate::lan::NodeSnapshot) -> u64| {
        (0..n).map(|i| f(&b.nodes[i]) - f(&a.nodes[i])).sum::<u64>()
    };
    Perform3Point {
        block_size: block,
        // + 0.0: a file service with no workstations carries 0, not the empty sum's -0
        throughput_kbps: per_station_kbps.iter().sum::<f64>() + 0.0,
        per_station_kbps,
        blocks_completed: blocks,
        events,
        explanation: Explanation {
            ms_per_block: if blocks > 0 {
                w_ns / 1e6 / blocks as f64
            } else {
                f64::INFINITY
            },
            wire_success,
            wire_collision,
            wire_corrupted,
            wire_idle: (1.0 - wire).max(0.0),
            collisions_per_block: if blocks > 0 {
                (b.collisions - a.collisions) as f64 / blocks as f64
            } else {
                0.0
            },
            server_cpu,
            workstation_cpu,
            server_waiting_for_ack,
            packets_retransmitted: sum(|s| s.packets_retransmitted),
            rx_ring_drops: sum(|s| s.rx_ring_drops),
            bottleneck,
        },
    }
}

/// As [`run`], the first block size's run observed by `obs` (the block sizes are
/// independent runs, each from time 0; the others run as in [`run`]).
pub fn run_observed(cfg: &Perform3Config, seed: u64, obs: &mut dyn Observer) -> Perform3Report {
    let first = cfg.block_sizes[0];
    let (p0, _) = run_block_observed(cfg, first, block_seed(seed, first), Some(obs), |_, _| ());
    let mut points = vec![p0];
    points.extend(
        cfg.block_sizes[1..]
            .par_iter()
            .map(|&b| run_block(cfg, b, block_seed(seed, b)))
            .collect::<Vec<_>>(),
    );
    Perform3Report {
        workstations: cfg.lan.workstations,
        warmup_s: cfg.warmup.as_secs_f64(),
        measure_s: cfg.measure.as_secs_f64(),
        points,
    }
}

/// Runs every block size (in parallel on the current rayon pool; each block size has its
/// own engine seeded from `seed` and the block size, so results do not depend on threads).
pub fn run(cfg: &Perform3Config, seed: u64) -> Perform3Report {
    let points = cfg
        .block_sizes
        .par_iter()
        .map(|&b| run_block(cfg, b, block_seed(seed, b)))
        .collect();
    Perform3Report {
        workstations: cfg.lan.workstations,
        warmup_s: cfg.warmup.as_secs_f64(),
        measure_s: cfg.measure.as_secs_f64(),
        points,
    }
}

/// As [`run`], and audits each block size's LAN at the end of its window ([`Lan::audit`]);
/// the audits are in the order of the block sizes.
pub fn run_audited(
    cfg: &Perform3Config,
    seed: u64,
) -> (Perform3Report, Vec<Result<AuditReport, AuditError>>) {
    let (points, audits) = cfg
        .block_sizes
        .par_iter()
        .map(|&b| run_block_audited(cfg, b, block_seed(seed, b)))
        .unzip();
    let report = Perform3Report {
        workstations: cfg.lan.workstations,
        warmup_s: cfg.warmup.as_secs_f64(),
        measure_s: cfg.measure.as_secs_f64(),
        points,
    };
    (report, audits)
}
