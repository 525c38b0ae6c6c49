//! "Where the time went": the explanation of a run, for `ethersim run --explain`, and the
//! PERFORM3 table that is also `run`'s default view.
//!
//! For PERFORM3, per block size: throughput, the time per block read (all workstations
//! together), the wire's share of the window carrying frames, in collisions and idle; the
//! server CPU's share split into copying (programmed I/O over the bus and memory copies),
//! protocol work (interrupts, driver, NetBIOS) and file-server work; the workstations'
//! CPU; and the share of time a server session sat waiting for an acknowledgement. The
//! resource nearest to 100% is the bottleneck that sets the throughput. Shares are of the
//! measurement window. Numbers follow [`super::units`]; every line fits in 100 columns.

use std::fmt::Write;

use super::units::{align_with, Unit};
use crate::run::output::{RunDetail, RunOutput};
use crate::workload::perform3::{Bottleneck, Perform3Report};
use crate::workload::saturate::SaturateReport;
use crate::workload::traffic::TrafficReport;

/// The width every line of a default view fits in.
pub const COLUMNS: usize = 100;

/// The explanation of any run, from its workload's report: for PERFORM3 the table and
/// the narrative, for saturate the narrative.
pub fn run(out: &RunOutput) -> String {
    match &out.detail {
        RunDetail::Saturate(r) => saturate(r),
        RunDetail::Traffic(r) => traffic(r),
        RunDetail::Perform3(r) => perform3(r),
        RunDetail::Lanperf(r) => lanperf(r),
        RunDetail::Ttcp(r) => r.explain(),
        RunDetail::Shared(r) => shared(r),
    }
}

/// LANPERF's table of where the time went, then what shared its cable, wrapped.
fn lanperf(r: &crate::workload::lanperf::LanperfReport) -> String {
    let mut s = super::lanperf::explain(r);
    for p in super::lanperf::beside(r) {
        s.push_str(&wrap(&p));
        s.push('\n');
    }
    s
}

/// The narrative alone (what `--explain` adds to the default view, which already holds
/// the PERFORM3 table).
pub fn narrative(out: &RunOutput) -> String {
    match &out.detail {
        RunDetail::Saturate(r) => saturate(r),
        RunDetail::Traffic(r) => traffic(r),
        RunDetail::Perform3(r) => perform3_narrative(r),
        // LANPERF's default view is its own layout, so the explanation is all of it
        RunDetail::Lanperf(r) => lanperf(r),
        RunDetail::Ttcp(r) => r.explain(),
        RunDetail::Shared(r) => shared(r),
    }
}

/// A shared run's paragraphs, wrapped, a blank line between them.
fn shared(r: &crate::workload::shared::SharedReport) -> String {
    let paragraphs: Vec<String> = super::shared::paragraphs(r).iter().map(|p| wrap(p)).collect();
    paragraphs.join("\n")
}

fn pct(x: f64) -> String {
    Unit::Share.number(x)
}

/// A bottleneck in a word or two, for the table's last column.
fn short(b: Bottleneck) -> &'static str {
    match b {
        Bottleneck::Wire => "wire",
        Bottleneck::ServerCpu => "server CPU",
        Bottleneck::WorkstationCpu => "wkstn CPU",
        Bottleneck::Latency => "latency",
    }
}

/// Word-wraps `text` (one paragraph) at [`COLUMNS`].
pub fn wrap(text: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > COLUMNS {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The PERFORM3 table: one row per block size with the bottleneck named, and its legend.
pub fn perform3_table(r: &Perform3Report) -> String {
    let mut s = wrap(&format!(
        "Where the time went ({} workstations, {} s measured per block size; shares of that time):",
        r.workstations, r.measure_s
    ));
    let ms: Vec<f64> = r.points.iter().map(|p| p.explanation.ms_per_block).collect();
    let (ms_unit, ms_cells) = Unit::Milliseconds.column(&ms);
    let mut rows = vec![[
        "block",
        "KB/s",
        &format!("{ms_unit}/blk"),
        "wire",
        "coll",
        "idle",
        "server",
        "copy",
        "proto",
        "work",
        "wkstn",
        "ack wait",
        "bottleneck",
    ]
    .map(String::from)
    .to_vec()];
    // smallest block first, as Figure 1 reads
    let mut order: Vec<(&crate::workload::perform3::Perform3Point, String)> =
        r.points.iter().zip(ms_cells).collect();
    order.sort_by_key(|(p, _)| p.block_size);
    for (p, ms) in order {
        let x = &p.explanation;
        rows.push(vec![
            p.block_size.to_string(),
            Unit::KiloBytesPerSecond.number(p.throughput_kbps),
            ms,
            pct(x.wire_success),
            pct(x.wire_collision),
            pct(x.wire_idle),
            pct(x.server_cpu.busy),
            pct(x.server_cpu.copy),
            pct(x.server_cpu.protocol),
            pct(x.server_cpu.work),
            pct(x.workstation_cpu.busy),
            pct(x.server_waiting_for_ack),
            short(x.bottleneck).to_string(),
        ]);
    }
    s.push_str(&align_with(&rows, "  ", |c| c == 12));
    s.push_str(&wrap(
        "ms/blk: time per block read, all workstations together; wire: carrying frames \
         delivered intact; coll: in collisions; server: the server's CPU \
         busy, of which copy (bus and memory), proto (interrupts, driver, NetBIOS) and work (file \
         server, and the foreground's turns it yields); wkstn: a workstation's CPU; ack wait: a server session waiting for an \
         acknowledgement; latency: no resource saturated, tasks wait for acks.",
    ));
    s
}

/// The explanation of a PERFORM3 run: the table, then the narrative.
pub fn perform3(r: &Perform3Report) -> String {
    let mut s = perform3_table(r);
    let n = perform3_narrative(r);
    if !n.is_empty() {
        s.push('\n');
        s.push_str(&n);
    }
    s
}

/// What sets the throughput at the largest block size, in words.
pub fn perform3_narrative(r: &Perform3Report) -> String {
    let Some(big) = r.points.iter().max_by_key(|p| p.block_size) else {
        return String::new();
    };
    let x = &big.explanation;
    let mut s = format!("At {} bytes: ", big.block_size);
    let _ = match x.bottleneck {
        Bottleneck::ServerCpu => write!(
            s,
            "the server's CPU is busy {} of the time ({} of it copying frames over the bus), so \
             throughput is flat where the server runs out of CPU: a bigger block only spreads the \
             per-request work thinner.",
            pct(x.server_cpu.busy),
            pct(x.server_cpu.copy / x.server_cpu.busy.max(1e-9))
        ),
        Bottleneck::Wire => write!(
            s,
            "the wire carries frames {} of the time: throughput approaches what 10 Mb/s allows after \
             preambles, gaps, headers and acknowledgements.",
            pct(x.wire_success)
        ),
        Bottleneck::WorkstationCpu => write!(
            s,
            "the workstations' CPUs are the busiest resource ({} on average).",
            pct(x.workstation_cpu.busy)
        ),
        Bottleneck::Latency => write!(
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
    if x.rx_ring_drops > 0 {
        let _ = write!(
            s,
            " Receive rings overflowed {} times (a card was emptied too slowly for the frames \
             arriving: a card in a narrower mode than its sender's, or a slower host), and {} \
             packets were sent again: that CPU and wire time carried no new data.",
            x.rx_ring_drops, x.packets_retransmitted
        );
    }
    wrap(&s)
}

/// The explanation of a traffic run: what was offered, what the wire carried and at what
/// delay, then how the medium's time was spent.
pub fn traffic(r: &TrafficReport) -> String {
    let count = |n: u64| Unit::Count("").number(n as f64);
    let mut s = wrap(&format!(
        "Offered {} of the wire ({} arrived), carried {} ({}): {} frames sent of {} generated, \
         {} collisions per frame; access delay (arrival to the end of a successful \
         transmission) mean {}, 95th percentile {}, 99th {}. Dropped: {} at a full queue of {} frames, \
         {} after 16 attempts.",
        pct(r.offered_load),
        pct(r.offered_load_measured),
        pct(r.carried_load),
        Unit::MegabitsPerSecond.show(r.throughput_mbps),
        count(r.frames_sent),
        count(r.frames_arrived),
        Unit::Ratio("").number(r.collisions_per_frame),
        Unit::Microseconds.show(r.queue_access_delay_mean_us),
        Unit::Microseconds.show(r.queue_access_delay_p95_us),
        Unit::Microseconds.show(r.queue_access_delay_p99_us),
        count(r.queue_drops),
        r.queue_frames,
        count(r.excessive_collision_drops)
    ));
    let e = &r.ether;
    s.push_str(&wrap(&format!(
        "Medium time over {}: {} carrying successful frames, {} in collisions, {} idle.",
        Unit::Seconds.show(e.elapsed_s),
        pct(e.time_success_s / e.elapsed_s),
        pct(e.time_collision_s / e.elapsed_s),
        pct(e.time_idle_s / e.elapsed_s)
    )));
    s
}

/// The explanation of a saturate run: how the medium's time was spent.
pub fn saturate(r: &SaturateReport) -> String {
    let e = &r.ether;
    let mut s = wrap(&format!(
        "Medium time over {}: {} carrying successful frames, {} in collisions (fragments and \
         jams), {} idle (gaps and backoff with nobody sending).",
        Unit::Seconds.show(e.elapsed_s),
        pct(e.time_success_s / e.elapsed_s),
        pct(e.time_collision_s / e.elapsed_s),
        pct(e.time_idle_s / e.elapsed_s)
    ));
    if e.time_corrupted_s > 0.0 {
        s.push_str(&wrap(&format!(
            "{} carrying frames damaged on the wire (sent, never delivered).",
            pct(e.time_corrupted_s / e.elapsed_s)
        )));
    }
    let count = |n: u64| Unit::Count("").number(n as f64);
    s.push_str(&wrap(&match e.capture_longest_run {
        Some(longest) => format!(
            "{} collisions, {} frames dropped after 16 attempts; capture: mean run {} frames, \
             longest {}; fairness (Jain) {}.",
            count(e.collisions),
            count(e.frames_dropped),
            Unit::Ratio("").number(e.capture_mean_run),
            count(longest),
            Unit::Index.number(e.fairness_jain)
        ),
        None => format!(
            "{} collisions, {} frames dropped after 16 attempts; nothing delivered, so no capture \
             runs and no fairness.",
            count(e.collisions),
            count(e.frames_dropped)
        ),
    }));
    s
}
