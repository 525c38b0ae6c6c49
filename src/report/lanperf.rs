//! LANPERF's own printout and its explanation.
//!
//! [`table`] lays a LANPERF run out the way LANPERF 1.1 prints it (seed 002: the heading
//! with test time, block size, file size and sharing mode, then `Test / Total Operations /
//! Mean Response Time (ms) / Throughput (KB/s)` with three and two decimals), one block
//! per station, then the same block for the LAN total (operations and throughput summed,
//! response time the mean over stations). [`explain`] says, per test, how loaded each
//! resource was while all stations were in that test, and which one limits it.
//! Formatting only: every figure comes from the workload's report.

use std::fmt::Write;

use crate::workload::lanperf::LanperfReport;

fn heading(r: &LanperfReport, s: &mut String) {
    let p = &r.params;
    let _ = writeln!(s, "LANPERF Version 1.1");
    let _ = writeln!(s, "PC Week LAN Performance Test");
    let _ = writeln!(s);
    let _ = writeln!(s, "Test time : {} seconds", p.test_s);
    let _ = writeln!(s, "Block size : {} bytes", p.block);
    let _ = writeln!(
        s,
        "File size : {} blocks ({} bytes)",
        p.file_blocks,
        p.file_bytes()
    );
    let _ = writeln!(s, "Sharing : {}", p.sharing);
}

fn block(s: &mut String, title: &str, lines: &[(String, u64, f64, f64)]) {
    let _ = writeln!(s);
    let _ = writeln!(s, "{title}");
    let _ = writeln!(
        s,
        "{:<8}{:>10}  {:>13}  {:>10}",
        "", "Total", "Mean Response", "Throughput"
    );
    let _ = writeln!(
        s,
        "{:<8}{:>10}  {:>13}  {:>10}",
        "Test", "Operations", "Time (ms)", "(KB/s)"
    );
    let _ = writeln!(
        s,
        "{:<8}{:>10}  {:>13}  {:>10}",
        "----", "----------", "-------------", "----------"
    );
    for (name, ops, ms, kbps) in lines {
        let _ = writeln!(s, "{:<6}: {:>10}  {:>13.3}  {:>10.2}", name, ops, ms, kbps);
    }
}

/// The run in LANPERF's layout.
pub fn table(r: &LanperfReport) -> String {
    let mut s = String::new();
    heading(r, &mut s);
    for st in &r.stations {
        let lines: Vec<_> = st
            .tests
            .iter()
            .map(|t| {
                (
                    t.test.to_string(),
                    t.operations,
                    t.mean_response_ms,
                    t.throughput_kbps,
                )
            })
            .collect();
        block(&mut s, &format!("Station {}", st.station), &lines);
    }
    let lines: Vec<_> = r
        .totals
        .iter()
        .map(|t| {
            (
                t.test.to_string(),
                t.operations,
                t.mean_response_ms,
                t.throughput_kbps,
            )
        })
        .collect();
    let servers = match r.servers {
        0 => ", local".to_string(),
        1 => String::new(),
        k => format!(", {k} servers"),
    };
    block(
        &mut s,
        &format!("Total ({} stations{servers})", r.workstations),
        &lines,
    );
    // each further LANPERF service on the cable, in the same layout
    for o in &r.lanperf_services {
        let _ = writeln!(s, "\nFile service of {}", o.name);
        s.push_str(&table(&o.report));
    }
    s
}

fn pct(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

/// Where the time went in each test.
pub fn explain(r: &LanperfReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Where the time went ({} stations, LANPERF t{} b{} f{}; shares of the span when all stations were in the test):",
        r.workstations, r.params.test_s, r.params.block, r.params.file_blocks
    );
    let _ = writeln!(
        s,
        "{:<6} {:>9} {:>8} | {:>5} | {:>6} {:>5} {:>5} {:>5} | {:>5} | {:>6} | {:>6} | limit",
        "test", "KB/s", "ms/op", "wire", "server", "copy", "proto", "work", "disk", "wkstn", "retx"
    );
    for t in &r.totals {
        match &t.usage {
            Some(u) => {
                let _ = writeln!(
                    s,
                    "{:<6} {:>9.2} {:>8.3} | {:>5} | {:>6} {:>5} {:>5} {:>5} | {:>5} | {:>6} | {:>6} | {}",
                    t.test.to_string(),
                    t.throughput_kbps,
                    t.mean_response_ms,
                    pct(u.wire_busy),
                    pct(u.server_cpu.busy),
                    pct(u.server_cpu.copy),
                    pct(u.server_cpu.protocol),
                    pct(u.server_cpu.work),
                    pct(u.disk_busy),
                    pct(u.workstation_cpu),
                    u.packets_retransmitted,
                    u.limit
                );
            }
            None => {
                let why = if r.servers == 0 {
                    "local baseline: the station's own CPU and RAM disk or hard disk, no network"
                } else {
                    "the stations were never all in this test at once"
                };
                let _ = writeln!(
                    s,
                    "{:<6} {:>9.2} {:>8.3} | ({why})",
                    t.test.to_string(),
                    t.throughput_kbps,
                    t.mean_response_ms
                );
            }
        }
    }
    let _ = writeln!(
        s,
        "server copy = programmed I/O over the bus and memory copies; proto = interrupts, driver, NetBIOS; work = the file server's per-request work. A resource at 90% or more limits the throughput; if none is, the round trips (latency) do."
    );
    // each further LANPERF service on the cable: its own table
    for o in &r.lanperf_services {
        let _ = write!(s, "File service of {}: ", o.name);
        s.push_str(&explain(&o.report));
    }
    s
}

/// The paragraphs on what shared LANPERF's cable, each unwrapped: each PERFORM3 file
/// service, each ttcp transfer and each background group, over the whole run.
pub fn beside(r: &LanperfReport) -> Vec<String> {
    let mut out = Vec::new();
    for f in &r.file_services {
        let x = &f.point.explanation;
        out.push(format!(
            "File service of {} beside LANPERF, over the whole run (PERFORM3 on {} workstations, \
             {}-byte blocks): {} KB/s; its frames held the wire {} of the run. Server CPU busy {}, \
             workstation CPU {}; limited by {}.",
            f.name,
            f.workstations,
            f.point.block_size,
            super::units::Unit::KiloBytesPerSecond.number(f.point.throughput_kbps),
            pct(f.wire_share),
            pct(x.server_cpu.busy),
            pct(x.workstation_cpu.busy),
            x.bottleneck
        ));
    }
    for t in &r.ttcp {
        let name = if r.ttcp.len() > 1 {
            format!("ttcp from {} to {}", t.transmitter, t.receiver)
        } else {
            "ttcp".to_string()
        };
        out.push(format!(
            "{name} beside LANPERF, over the whole run: {} KB/s; its transmitter's frames deferred \
             {} times each and collided {} times each, {} µs from the head of the queue to the \
             wire on average; transmitter CPU {}, receiver CPU {}.",
            super::units::Unit::KiloBytesPerSecond.number(t.throughput_kbps),
            super::units::Unit::Ratio("").number(t.deferrals_per_frame),
            super::units::Unit::Ratio("").number(t.collisions_per_frame),
            super::units::Unit::Microseconds.number(t.access_delay_mean_us),
            pct(t.transmitter_cpu),
            pct(t.receiver_cpu)
        ));
    }
    for (i, g) in r.background.iter().enumerate() {
        out.push(format!(
            "{} (Figures over the whole run.)",
            super::shared::background(i, g)
        ));
    }
    out
}
