//! "Where the time went": the explanation of a run, for `ethersim run --explain`.
//!
//! For PERFORM3, per block size: milliseconds per block read (all workstations together),
//! the wire's share of the window carrying frames, in collisions and idle; the server CPU's
//! share split into copying (programmed I/O over the bus and memory copies), protocol work
//! (interrupts, driver, NetBIOS) and file-server work; the workstations' CPU; and the share
//! of time a server session sat waiting for an acknowledgement. The resource nearest to
//! 100% is the bottleneck that sets the throughput. Shares are of the measurement window.

use std::fmt::Write;

use crate::results::{RunDetail, RunOutput};
use crate::workload::perform3::{Bottleneck, Perform3Report};
use crate::workload::saturate::SaturateReport;

/// The explanation of any run, from its workload's report.
pub fn run(out: &RunOutput) -> String {
    match &out.detail {
        RunDetail::Saturate(r) => saturate(r),
        RunDetail::Perform3(r) => perform3(r),
        RunDetail::Ttcp(r) => r.explain(),
    }
}

fn pct(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

/// The explanation of a PERFORM3 run.
pub fn perform3(r: &Perform3Report) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Where the time went ({} workstations, {} s measured per block size; shares of that time):",
        r.workstations, r.measure_s
    );
    let _ = writeln!(
        s,
        "{:>6} {:>7} {:>8} | {:>5} {:>5} {:>5} | {:>6} {:>5} {:>5} {:>5} | {:>6} | {:>8} | bottleneck",
        "block",
        "KB/s",
        "ms/block",
        "wire",
        "coll",
        "idle",
        "server",
        "copy",
        "proto",
        "work",
        "wkstn",
        "ack-wait"
    );
    for p in &r.points {
        let x = &p.explanation;
        let _ = writeln!(
            s,
            "{:>6} {:>7.1} {:>8.2} | {:>5} {:>5} {:>5} | {:>6} {:>5} {:>5} {:>5} | {:>6} | {:>8} | {}",
            p.block_size,
            p.throughput_kbps,
            x.ms_per_block,
            pct(x.wire_success),
            pct(x.wire_collision),
            pct(x.wire_idle),
            pct(x.server_cpu.busy),
            pct(x.server_cpu.copy),
            pct(x.server_cpu.protocol),
            pct(x.server_cpu.work),
            pct(x.workstation_cpu.busy),
            pct(x.server_waiting_for_ack),
            x.bottleneck
        );
    }
    if let Some(big) = r.points.iter().max_by_key(|p| p.block_size) {
        let x = &big.explanation;
        let _ = write!(s, "\nAt {} bytes: ", big.block_size);
        let _ = match x.bottleneck {
            Bottleneck::ServerCpu => writeln!(
                s,
                "the server's CPU is busy {} of the time ({} of it copying frames over the bus), so \
                 throughput is flat where the server runs out of CPU: a bigger block only spreads the \
                 per-request work thinner.",
                pct(x.server_cpu.busy),
                pct(x.server_cpu.copy / x.server_cpu.busy.max(1e-9))
            ),
            Bottleneck::Wire => writeln!(
                s,
                "the wire carries frames {} of the time: throughput approaches what 10 Mb/s allows after \
                 preambles, gaps, headers and acknowledgements.",
                pct(x.wire_success)
            ),
            Bottleneck::WorkstationCpu => writeln!(
                s,
                "the workstations' CPUs are the busiest resource ({} on average).",
                pct(x.workstation_cpu.busy)
            ),
            Bottleneck::Latency => writeln!(
                s,
                "no resource is saturated (server CPU {}, wire {}): the limit is latency. A server task \
                 that has sent its reply stays busy until the reply is acknowledged, and the server's \
                 sessions wait for acknowledgements {} of the time, so requests queue for a free task \
                 while the CPU idles.",
                pct(x.server_cpu.busy),
                pct(x.wire_success + x.wire_collision),
                pct(x.server_waiting_for_ack)
            ),
        };
    }
    s
}

/// The explanation of a saturate run: how the medium's time was spent.
pub fn saturate(r: &SaturateReport) -> String {
    let e = &r.ether;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Medium time over {:.3} s: {} carrying successful frames, {} in collisions (fragments and \
         jams), {} idle (gaps and backoff with nobody sending).",
        e.elapsed_s,
        pct(e.time_success_s / e.elapsed_s),
        pct(e.time_collision_s / e.elapsed_s),
        pct(e.time_idle_s / e.elapsed_s)
    );
    if e.time_corrupted_s > 0.0 {
        let _ = writeln!(
            s,
            "{} carrying frames damaged on the wire (sent, never delivered).",
            pct(e.time_corrupted_s / e.elapsed_s)
        );
    }
    let _ = match e.capture_longest_run {
        Some(longest) => writeln!(
            s,
            "{} collisions, {} frames dropped after 16 attempts; capture: mean run {:.2}, longest {}; \
             fairness (Jain) {:.3}.",
            e.collisions, e.frames_dropped, e.capture_mean_run, longest, e.fairness_jain
        ),
        None => writeln!(
            s,
            "{} collisions, {} frames dropped after 16 attempts; nothing delivered, so no capture \
             runs and no fairness.",
            e.collisions, e.frames_dropped
        ),
    };
    s
}
