//! The admission rule: a scenario is refused up front when the number of events its run
//! would dispatch is estimated to be over [`MAX_EVENTS`].
//!
//! The estimate counts every dimension that drives events:
//! - **saturate**: the medium carries at most `F = duration x frames/s` frames (frames/s
//!   from the bit rate and frame size, [`Medium::max_frames_per_s`]), a few events each;
//!   every sending station adds events at a rate set by the slot time (deferrals,
//!   collisions, backoff ends: proportional to the bit rate), and the start, where all
//!   stations collide at once, adds some per station:
//!   `3 F + duration x stations x 500/s x (bit rate / 10 Mb/s) + 10 stations^1.5`.
//! - **traffic**: as saturate, plus one event per generated frame, and contention that
//!   grows with the square of the offered load ([`traffic_events`]).
//! - **perform3**, per block size: blocks per second are the least of what the wire and
//!   the server can do and of what the closed loop allows (each workstation reads one
//!   block at a time and a server task is held until its reply is acknowledged, so at most
//!   `min(workstations, network_tasks) / (workstation + server + wire time per block)`
//!   blocks per second), from the bit rate, MIPS, copy ns/byte, port access ns,
//!   per-request and per-block kinstr and the block size; each block costs events per frame it
//!   puts on the wire; and every session's timers can fire at most once per tick
//!   (timers are at least one PC timer tick); many workstations contend for the wire:
//!   `(warmup + measure) x (blocks/s x events per block + timer events/s) + 2.5
//!   workstations^1.5`, summed over the block sizes.
//! - **ttcp**: a transfer costs events per data segment (with its ACK: both frames' wire
//!   events, the copies, interrupts and protocol work at both ends) and per buffer written
//!   (the write and the reads that take its bytes). The segments are counted as if every
//!   write went out in its own `ceil(buflen / MSS)` segments: exact for writes of at least
//!   an MSS, an upper bound for shorter ones, which Nagle's rule coalesces. A lost frame
//!   costs some segments sent again: `(S (1 + 8 p)) x 17 + nbuf x 2` with
//!   `S = nbuf x ceil(buflen / MSS)` and `p` the fraction of frames damaged on the wire.
//!   The run's simulated time does not enter: an idle wire waiting for a retransmission
//!   timer dispatches almost nothing, and `limit_s` ends a stuck transfer.
//!
//! Propagation does not appear: the loader's ranges (velocity factor at least 0.4, at most
//! 2500 m) keep the transmission records carrier sense scans to a handful, so the cost of
//! an event does not grow with them.
//!
//! The estimate is checked against the events the engine dispatches
//! (`tests/admission_props.rs`): within a factor of 2 over a spread of shapes, and never
//! below the measured count by more than that. The CPU time is the estimate times the
//! cost of an event, a fixed part plus a part per station, measured per workload
//! ([`SATURATE_COST`], [`PERFORM3_COST`], [`TTCP_COST`]; release build, one core); over [`MAX_CPU_S`]
//! (ten minutes) the run is refused. Over the measured shapes the estimated CPU time is
//! within a factor of 2 of the measured time.

use super::error::FieldError;
use super::lan::LanProfile;
use super::medium::Medium;
use crate::adapter::CopyEngine;
use crate::ether::consts::MIN_FRAME_BYTES;
use crate::workload::ttcp::TtcpConfig;

/// CPU time of one event (release build, one core): a fixed part plus a part per station
/// on the segment (carrier changes loop over the deferring stations, and a LAN node's
/// events touch its CPU, adapter and sessions).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EventCost {
    pub fixed_ns: f64,
    pub per_station_ns: f64,
}

impl EventCost {
    /// ns per event on a segment of `stations`.
    pub fn ns(&self, stations: usize) -> f64 {
        self.fixed_ns + self.per_station_ns * stations as f64
    }
}

/// Saturate. Measured (release, `ethersim run scenarios/saturate.toml`, wall time over
/// events dispatched): 59 ns at 1 station, 81 at 24, 147 at 100, 209 at 300, 490..550 at
/// 1024 (5 s and 20 s; 20 s of 1024 stations took 4.6 s for 9.3 M events).
pub const SATURATE_COST: EventCost = EventCost {
    fixed_ns: 70.0,
    per_station_ns: 0.43,
};
/// PERFORM3 (block sizes run in parallel, so CPU time is about twice the wall time on two
/// cores). Measured on `16bit-optimized.toml`: about 210 ns at 5 workstations, 380 at 100,
/// 710 at 300.
pub const PERFORM3_COST: EventCost = EventCost {
    fixed_ns: 200.0,
    per_station_ns: 1.7,
};
/// ttcp (two hosts). Measured (release, `ethersim run` of the 1995 scenarios, wall time over
/// events dispatched, with other builds sharing the 2 cores): 118-127 ns (16 MiB, 200,490
/// events in 24 ms; 1 GiB in 1 MiB writes, 12.7 M events in 1.6 s).
pub const TTCP_COST: EventCost = EventCost {
    fixed_ns: 130.0,
    per_station_ns: 0.0,
};
/// A LANPERF local baseline (one station, no LAN). Measured (release): a RAM disk with
/// `t600 b1 f1`, both tests, took 537 s for 3.6e10 events: 15 ns per event.
pub const LOCAL_COST: EventCost = EventCost {
    fixed_ns: 15.0,
    per_station_ns: 0.0,
};
/// Events per simulated second of a local baseline's timed tests: 3.6e10 events over
/// 2 x 600 s with 1-byte blocks on a RAM disk, the fastest operations there are; larger
/// blocks or a hard disk do fewer operations a second, so this bounds them from above.
const LOCAL_EVENTS_PER_S: f64 = 3.0e7;

/// Estimated events of a LANPERF local baseline whose timed tests last `window_s` in all.
pub fn lanperf_local_events(window_s: f64) -> f64 {
    LOCAL_EVENTS_PER_S * window_s
}

/// Longest run admitted, seconds of CPU (ten minutes).
pub const MAX_CPU_S: f64 = 600.0;

/// Estimated CPU seconds of `events` of cost `cost` on a segment of `stations`.
pub fn cpu_s(cost: EventCost, events: f64, stations: usize) -> f64 {
    events * cost.ns(stations) * 1e-9
}

/// Events per frame the saturate medium can carry (transmission end, reception, next frame).
const SAT_PER_FRAME: f64 = 3.0;
/// Events per second of each sending station at 10 Mb/s (deferrals, collisions, backoff
/// ends), measured at 360..580 over 24..300 stations; it scales with the bit rate.
const SAT_PER_STATION_S: f64 = 500.0;
/// Events of the start, when every station sends at time zero and all collide: about
/// this many times `sqrt(stations)` per station.
const SAT_START: f64 = 10.0;

/// Events per frame of a PERFORM3 block (the frame's wire events, interrupts and CPU
/// jobs at both ends).
const P3_PER_FRAME: f64 = 9.0;
/// Events per PERFORM3 block besides its frames (application and redirector jobs).
const P3_PER_BLOCK: f64 = 4.0;
/// Events of the workstations' contention for the wire (their requests collide, they
/// defer and back off): about this many times `workstations^1.5` per block size, measured
/// at 300 and 1023 workstations.
const P3_CONTENTION: f64 = 2.5;

/// Events per ttcp data segment, its ACK included. Measured on
/// `ttcp-1995-smc-ultra-smc-ultra-transmit.toml`: 1 GiB in 1 MiB writes dispatched
/// 12,712,282 events for 747,732 data segments (17.0 each); the 16 MiB of the table,
/// 200,490 for 11,684 (17.2 with the writes).
const TTCP_PER_SEGMENT: f64 = 17.0;
/// Events per ttcp buffer besides its segments (the write call, the reads that take its
/// bytes). Measured on the same scenario with 2^20 writes of 64 bytes (2,891,499 events,
/// 46,735 segments: 2.0 per write) and of 1 byte (3,960,958 events, 116,510 segments:
/// 1.9 per write).
const TTCP_PER_BUFFER: f64 = 2.0;
/// Data segments sent again, per data segment and per unit of `p`, the fraction of frames
/// damaged on the wire. Measured on the same scenario (8 KB writes): at p = 0.01, 12,634
/// data segments for 11,684 (8.1% more: 8.1 per unit; 3.8 per frame lost, data or ACK); at
/// p = 0.1, 16,742 (43% more: 4.3 per unit).
const TTCP_RESENT_PER_LOSS: f64 = 8.0;

/// Estimated events of a ttcp transfer.
pub fn ttcp_events(cfg: &TtcpConfig) -> f64 {
    let mss = cfg.hosts[cfg.transmitter].stack.mss_bytes.max(1) as f64;
    let buffers = cfg.nbuf as f64;
    let segments = buffers * (cfg.buflen as f64 / mss).ceil();
    let resent = segments * TTCP_RESENT_PER_LOSS * cfg.wire.corrupt_fraction();
    (segments + resent) * TTCP_PER_SEGMENT + buffers * TTCP_PER_BUFFER
}

/// Estimated events of a ttcp transfer that runs for `window_s` seconds without end (the
/// transfer beside the file service): at most the full-size segments the wire can carry
/// in that time, each with its share of buffers written and read.
pub fn ttcp_events_for(cfg: &TtcpConfig, window_s: f64) -> f64 {
    let mss = cfg.hosts[cfg.transmitter].stack.mss_bytes.max(1) as f64;
    let segments = window_s * 1e9 / (cfg.wire.bit_ns().max(1) as f64 * 8.0 * mss);
    let resent = segments * TTCP_RESENT_PER_LOSS * cfg.wire.corrupt_fraction();
    let buffers = segments * mss / cfg.buflen.max(1) as f64;
    (segments + resent) * TTCP_PER_SEGMENT + buffers * TTCP_PER_BUFFER
}

/// Refuses a ttcp transfer whose estimated CPU time is over [`MAX_CPU_S`], naming
/// `workload.nbuf`.
pub fn admit_ttcp(cfg: &TtcpConfig) -> Result<(), FieldError> {
    admit(
        "workload.nbuf",
        TTCP_COST,
        ttcp_events(cfg),
        2,
        &format!("ttcp -l {} -n {}", cfg.buflen, cfg.nbuf),
        "write fewer buffers (nbuf, ttcp -n) or shorter ones (buflen, -l)",
    )
}

/// Traffic: the saturate composition plus one arrival event per generated frame, so
/// saturate's cost is kept. Measured (release, `ethersim run scenarios/background-load.toml`
/// with `--set`, wall time over events dispatched, other builds sharing the 2 cores): 91 ns
/// at 24 stations (64-byte frames at load 2.0, 20 s, 2.7 M events), 102 at 24 (the bimodal
/// mix at 0.9, 60 s), 197 at 300 (64 bytes at 2.0), 314 at 1024 (64 bytes at 1.0, 10 s,
/// 6.0 M events); saturate's figure gives 80, 80, 199 and 510.
pub const TRAFFIC_COST: EventCost = SATURATE_COST;
/// Events per generated frame of a traffic source (its arrival).
const TRAFFIC_PER_ARRIVAL: f64 = 1.0;

/// Estimated events of a traffic run: every generated frame's arrival, the frames the
/// medium carries (at most what it can carry of the mean size, as for saturate) and the
/// stations' contention, which grows with the square of the load (at light load a frame
/// rarely meets another) up to saturate's rate at full load:
/// `duration x (A + 3 min(A, F) + stations x 500/s x min(load, 1)^2 x (bit rate / 10 Mb/s))`
/// with `A = load x bit rate / (8 x mean bytes)` arrivals per second and `F` the frames per
/// second the medium can carry of the mean size. Checked against the events dispatched
/// (`tests/traffic.rs`): within a factor of 2 from one station at 0.1 to 300 stations at
/// 2.0 (64-byte frames at 24 and 300 stations dispatch about 1.4 times the estimate).
pub fn traffic_events(
    medium: &Medium,
    senders: usize,
    mean_frame_bytes: f64,
    offered_load: f64,
    duration_s: f64,
) -> f64 {
    let n = senders as f64;
    let bit_rate = 1e9 / medium.bit_ns as f64;
    let arrivals = offered_load * bit_rate / (8.0 * mean_frame_bytes.max(1.0));
    let carried = arrivals.min(medium.max_frames_per_s(mean_frame_bytes.round() as u32));
    let busy = offered_load.min(1.0);
    let per_station_s = SAT_PER_STATION_S * 100.0 / medium.bit_ns as f64 * busy * busy;
    duration_s * (arrivals * TRAFFIC_PER_ARRIVAL + carried * SAT_PER_FRAME + n * per_station_s)
}

/// Estimated events of a saturate run.
pub fn saturate_events(medium: &Medium, senders: usize, frame_bytes: u32, duration_s: f64) -> f64 {
    let n = senders as f64;
    let frames = duration_s * medium.max_frames_per_s(frame_bytes);
    let per_station_s = SAT_PER_STATION_S * 100.0 / medium.bit_ns as f64;
    frames * SAT_PER_FRAME + duration_s * n * per_station_s + n * SAT_START * n.sqrt()
}

/// Seconds of the wire for one frame carrying `bytes` of data (plus preamble and gap).
fn wire_s(medium: &Medium, frame_bytes: u32) -> f64 {
    1.0 / medium.max_frames_per_s(frame_bytes)
}

/// Nanoseconds per byte moved through an adapter's data port (0 for other engines).
fn port_ns_per_byte(p: &crate::adapter::AdapterProfile) -> (f64, f64) {
    match p.copy {
        CopyEngine::ProgrammedIo {
            access_ns, setup_ns, ..
        } => (access_ns / (p.bus_width_bits as f64 / 8.0), setup_ns),
        CopyEngine::FifoPio {
            access_ns, setup_ns, ..
        }
        | CopyEngine::SharedMemory {
            access_ns, setup_ns, ..
        } => (access_ns / 2.0, setup_ns),
        CopyEngine::BusMaster { setup_ns, .. } => (0.0, setup_ns),
        CopyEngine::UnibusDma {
            setup_ns, request_ns, ..
        } => (0.0, setup_ns + request_ns),
    }
}

/// Estimated events of a PERFORM3 run of `workstations` over `block_sizes`, each run for
/// `window_s` (warm-up plus measurement) of simulated time.
pub fn perform3_events(
    medium: &Medium,
    lan: &LanProfile,
    workstations: usize,
    block_sizes: &[u32],
    window_s: f64,
) -> f64 {
    let n = workstations as f64;
    let sa = &lan.server_adapter;
    let header = lan.server_session.header_bytes;
    let payload = sa.packet_size.saturating_sub(header).max(1) as f64;
    let request_unit = lan.redir.size.min(lan.server.network_buffer).max(1) as f64;
    let (srv_port, srv_setup) = port_ns_per_byte(sa);
    let (ws_port, ws_setup) = port_ns_per_byte(&lan.workstation_adapter);
    let c = &lan.costs;
    let srv_us_per_kinstr = 1e3 / lan.server_host.mips;
    let ws_us_per_kinstr = 1e3 / lan.workstation_host.mips;
    let per_pkt_kinstr = c.interrupt_kinstr + c.packet_kinstr;
    // timers: each session (one per workstation, at both ends) can fire its retry and ack
    // timers at most once per their period; both are at least one tick
    let min_timer_s = |s: &crate::nos::config::SessionConfig| {
        let r = s.retry_period.as_secs_f64();
        let a = s.ack_timeout.as_secs_f64();
        (1.0 / r.max(1e-3)) + if a > 0.0 { 1.0 / a } else { 0.0 }
    };
    // a server task stays busy until its reply is acknowledged, which a workstation
    // piggybacks on its next request: at most `network_tasks` requests are in progress
    let concurrent = n.min(lan.server.network_tasks as f64);
    let timers_per_s = n * (min_timer_s(&lan.server_session) + min_timer_s(&lan.workstation_session));
    block_sizes
        .iter()
        .map(|&b| {
            let b = b as f64;
            let requests = (b / request_unit).ceil();
            let data_frames = requests * (request_unit.min(b) / payload).ceil();
            // a request and an acknowledgement per request, besides the data
            let frames = data_frames + 2.0 * requests;
            // data frames carry the block's bytes (a small block: a small frame); a request
            // carries request_bytes, an acknowledgement nothing
            let data_bytes = b / data_frames.max(1.0);
            let data_frame_bytes = crate::ether::frame_bytes(data_bytes.ceil() as u32 + header);
            let request_frame_bytes = crate::ether::frame_bytes(c.request_bytes + header);
            let wire = data_frames * wire_s(medium, data_frame_bytes.max(MIN_FRAME_BYTES))
                + requests
                    * (wire_s(medium, request_frame_bytes.max(MIN_FRAME_BYTES))
                        + wire_s(medium, MIN_FRAME_BYTES));
            // SERVER's CPU per block also holds the foreground's turns: one per run burst
            let turns = requests / lan.server.run_burst.max(1) as f64;
            let server = 1e-9 * (b * (lan.server_host.memcpy_ns_per_byte + srv_port) + frames * srv_setup)
                + 1e-6 * srv_us_per_kinstr * (requests * c.server_request_kinstr + frames * per_pkt_kinstr)
                + turns * c.server_yield.as_secs_f64();
            let workstation = 1e-9
                * (b * (lan.workstation_host.memcpy_ns_per_byte + ws_port) + frames * ws_setup)
                + 1e-6
                    * ws_us_per_kinstr
                    * (c.app_block_kinstr + requests * c.redir_request_kinstr + frames * per_pkt_kinstr);
            let bottleneck = wire.max(server).max(1e-9);
            let cycle = workstation + server + wire;
            // each workstation runs its application's work at once with the others; a
            // server task is held for the rest of the cycle and, at the end of a block,
            // until the workstation's acknowledgement (on its next request, after the
            // application's work, or when its ACK_TIMEOUT expires; at once without one)
            let app = 1e-6 * ws_us_per_kinstr * c.app_block_kinstr;
            let ack_wait = app.min(lan.workstation_session.ack_timeout.as_secs_f64());
            let task_busy = cycle - app + ack_wait;
            let blocks_per_s = (1.0 / bottleneck)
                .min(n / cycle.max(1e-9))
                .min(concurrent / task_busy.max(1e-9));
            window_s * (blocks_per_s * (P3_PER_BLOCK + P3_PER_FRAME * frames) + timers_per_s)
                + P3_CONTENTION * n * n.sqrt()
        })
        .sum()
}

/// Refuses a run estimated at `events` on a segment of `stations` when its CPU time
/// ([`cpu_s`]) is over [`MAX_CPU_S`], naming the key `path` to change and how.
pub fn admit(
    path: &str,
    cost: EventCost,
    events: f64,
    stations: usize,
    what: &str,
    advice: &str,
) -> Result<(), FieldError> {
    let cpu = cpu_s(cost, events, stations);
    if cpu.is_finite() && cpu <= MAX_CPU_S {
        return Ok(());
    }
    Err(FieldError::invalid(
        path,
        format!(
            "{what} is refused as too long a run: about {events:.2e} events, some {:.0} minutes of CPU \
             at {:.0} ns per event (limit {:.0} minutes); {advice}",
            cpu / 60.0,
            cost.ns(stations),
            MAX_CPU_S / 60.0,
        ),
    ))
}
