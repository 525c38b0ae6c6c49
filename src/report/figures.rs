//! The registry of figures: for every column a run produces (and every headline), a name,
//! a [`Unit`] and a description. The labels of scenario keys (a sweep's axis) come from
//! the parameter registry ([`crate::scenario::params`]).
//! Chart axes and legends, table headings and the sweep summary take their words from
//! here, never from the raw column names.
//!
//! Every column of every workload ([`crate::run::output::SATURATE_COLUMNS`],
//! [`crate::run::output::TRAFFIC_COLUMNS`], [`crate::run::output::PERFORM3_COLUMNS`],
//! [`crate::run::output::LANPERF_COLUMNS`], [`crate::workload::ttcp::TTCP_COLUMNS`],
//! [`crate::run::output::SHARED_COLUMNS`]) has an
//! entry (a test checks it), so a new workload's columns must be registered here.

use super::units::Unit;
use crate::run::output::RunOutput;

/// One figure: what a column measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figure {
    /// The column's name in CSV and JSON.
    pub key: &'static str,
    /// What is measured, capitalised, for an axis or a heading ("Throughput").
    pub name: &'static str,
    pub unit: Unit,
    /// One sentence: over what, of what.
    pub description: &'static str,
}

impl Figure {
    /// The axis title: name and unit, `Throughput, KB/s (1 KB = 1000 B)`.
    pub fn label(&self) -> String {
        let sym = match self.unit {
            Unit::KiloBytesPerSecond => "KB/s (1 KB = 1000 B)".to_string(),
            Unit::Seconds | Unit::Milliseconds | Unit::Microseconds => match self.unit {
                Unit::Seconds => "s".into(),
                Unit::Milliseconds => "ms".into(),
                _ => "µs".into(),
            },
            u => u.symbol(1.0),
        };
        if sym.is_empty() {
            self.name.to_string()
        } else {
            format!("{}, {sym}", self.name)
        }
    }
}

const fn fig(key: &'static str, name: &'static str, unit: Unit, description: &'static str) -> Figure {
    Figure {
        key,
        name,
        unit,
        description,
    }
}

/// Every registered figure: the saturate columns, then those of traffic, PERFORM3, ttcp
/// and LANPERF (a column several workloads share, such as `events`, is registered once).
pub const FIGURES: &[Figure] = &[
    // saturate
    fig(
        "throughput_bps",
        "Throughput",
        Unit::BitsPerSecond,
        "bits of delivered frames (header to FCS) per second",
    ),
    fig(
        "throughput_mbps",
        "Throughput",
        Unit::MegabitsPerSecond,
        "bits of delivered frames (header to FCS) per second",
    ),
    fig(
        "frames_per_s",
        "Frames delivered per second",
        Unit::PerSecond("frames"),
        "frames delivered intact per second",
    ),
    fig(
        "frames_offered",
        "Frames offered",
        Unit::Count("frames"),
        "frames handed to the MACs",
    ),
    fig(
        "frames_delivered",
        "Frames delivered",
        Unit::Count("frames"),
        "frames that arrived intact",
    ),
    fig(
        "frames_dropped",
        "Frames dropped",
        Unit::Count("frames"),
        "frames discarded after 16 transmission attempts",
    ),
    fig(
        "frames_corrupted",
        "Frames corrupted",
        Unit::Count("frames"),
        "frames sent without a collision but damaged on the wire",
    ),
    fig(
        "frames_queued",
        "Frames still queued",
        Unit::Count("frames"),
        "frames still queued at the end of the run",
    ),
    fig(
        "collisions",
        "Collisions",
        Unit::Count(""),
        "collisions suffered by the senders",
    ),
    fig(
        "deferrals",
        "Deferrals",
        Unit::Count(""),
        "times a sender deferred to another's carrier",
    ),
    fig(
        "utilization",
        "Utilization",
        Unit::Share,
        "share of time the cable carried frames delivered intact (preamble included)",
    ),
    fig(
        "time_collision_s",
        "Time in collisions",
        Unit::Seconds,
        "time of busy periods that held a collision",
    ),
    fig(
        "time_corrupted_s",
        "Time carrying damaged frames",
        Unit::Seconds,
        "time the cable carried frames damaged on the wire",
    ),
    fig(
        "fairness_jain",
        "Fairness (Jain's index)",
        Unit::Index,
        "Jain's index over the senders' delivered bytes (1 = fair)",
    ),
    fig(
        "capture_mean_run",
        "Capture: mean run",
        Unit::Ratio("frames"),
        "mean run of consecutive deliveries from one station",
    ),
    fig(
        "capture_longest_run",
        "Capture: longest run",
        Unit::Count("frames"),
        "longest run of consecutive deliveries from one station",
    ),
    fig(
        "access_delay_mean_us",
        "Access delay, mean",
        Unit::Microseconds,
        "from a frame reaching the head of its queue to the start of its successful transmission",
    ),
    fig(
        "access_delay_p99_us",
        "Access delay, 99th percentile",
        Unit::Microseconds,
        "from a frame reaching the head of its queue to the start of its successful transmission",
    ),
    // traffic (besides throughput_mbps, frames_queued, utilization and events above)
    fig(
        "offered_load",
        "Offered load",
        Unit::Share,
        "frame bits (header to FCS) the stations were asked to generate per second, over the bit rate",
    ),
    fig(
        "offered_load_measured",
        "Offered load, generated",
        Unit::Share,
        "frame bits (header to FCS) the stations generated per second, over the bit rate",
    ),
    fig(
        "carried_load",
        "Carried load",
        Unit::Share,
        "frame bits (header to FCS) delivered intact per second, over the bit rate",
    ),
    fig(
        "frames_arrived",
        "Frames generated",
        Unit::Count("frames"),
        "frames the open-loop sources generated, dropped ones included",
    ),
    fig(
        "mean_frame_bytes",
        "Mean frame size",
        Unit::Count("bytes"),
        "mean size of the frames generated, header to FCS",
    ),
    fig(
        "frames_sent",
        "Frames sent",
        Unit::Count("frames"),
        "frames that left their station without a collision",
    ),
    fig(
        "collisions_per_frame",
        "Collisions per frame",
        Unit::Ratio(""),
        "collisions suffered per frame sent",
    ),
    fig(
        "queue_access_delay_mean_us",
        "Access delay with queueing, mean",
        Unit::Microseconds,
        "from a frame's arrival at its station to the end of its successful transmission",
    ),
    fig(
        "queue_access_delay_p95_us",
        "Access delay with queueing, 95th percentile",
        Unit::Microseconds,
        "from a frame's arrival at its station to the end of its successful transmission",
    ),
    fig(
        "queue_access_delay_p99_us",
        "Access delay with queueing, 99th percentile",
        Unit::Microseconds,
        "from a frame's arrival at its station to the end of its successful transmission",
    ),
    fig(
        "queue_drops",
        "Frames dropped at a full queue",
        Unit::Count("frames"),
        "frames that arrived at a full transmit queue",
    ),
    fig(
        "excessive_collision_drops",
        "Frames dropped after 16 attempts",
        Unit::Count("frames"),
        "frames discarded after 16 transmission attempts (excessive collisions)",
    ),
    fig(
        "events",
        "Events",
        Unit::Count(""),
        "events the simulation dispatched",
    ),
    // perform3
    fig("block_size", "Block size", Unit::Count("bytes"), "bytes per read"),
    fig(
        "throughput_kbps",
        "Throughput",
        Unit::KiloBytesPerSecond,
        "file data the workstations received, all workstations together",
    ),
    fig(
        "blocks_completed",
        "Blocks read",
        Unit::Count("blocks"),
        "blocks read in the measurement window, all workstations together",
    ),
    fig(
        "ms_per_block",
        "Time per block",
        Unit::Milliseconds,
        "the measurement window divided by the blocks read",
    ),
    fig(
        "wire_success",
        "Wire carrying frames",
        Unit::Share,
        "share of the window the cable carried frames delivered intact",
    ),
    fig(
        "wire_collision",
        "Wire in collisions",
        Unit::Share,
        "share of the window the cable was in collisions",
    ),
    fig(
        "wire_corrupted",
        "Wire carrying damaged frames",
        Unit::Share,
        "share of the window the cable carried frames damaged on the wire",
    ),
    fig(
        "wire_idle",
        "Wire idle",
        Unit::Share,
        "share of the window the cable carried nothing",
    ),
    fig(
        "collisions_per_block",
        "Collisions per block",
        Unit::Ratio(""),
        "collisions per block read",
    ),
    fig(
        "server_cpu",
        "Server CPU busy",
        Unit::Share,
        "share of the window the server's CPU was busy",
    ),
    fig(
        "server_copy",
        "Server CPU copying",
        Unit::Share,
        "share of the window the server's CPU copied data (bus and memory)",
    ),
    fig(
        "server_protocol",
        "Server CPU in protocol work",
        Unit::Share,
        "share of the window the server's CPU ran interrupts, the driver and NetBIOS",
    ),
    fig(
        "server_work",
        "Server CPU in the file server",
        Unit::Share,
        "share of the window the server's CPU ran the file server, or the foreground in the turns SERVER yields after its run burst",
    ),
    fig(
        "workstation_cpu",
        "Workstation CPU busy",
        Unit::Share,
        "share of the window a workstation's CPU was busy (mean)",
    ),
    fig(
        "workstation_copy",
        "Workstation CPU copying",
        Unit::Share,
        "share of the window a workstation's CPU copied data (mean)",
    ),
    fig(
        "server_waiting_for_ack",
        "Server waiting for acks",
        Unit::Share,
        "mean share of time a server session had data out and waited for an acknowledgement",
    ),
    fig(
        "packets_retransmitted",
        "Packets retransmitted",
        Unit::Count("packets"),
        "NOS retransmissions",
    ),
    fig(
        "rx_ring_drops",
        "Receive ring drops",
        Unit::Count("frames"),
        "frames lost to a full receive ring",
    ),
    // ttcp (besides collisions, capture_mean_run, rx_ring_drops and events above)
    fig(
        "kbytes_per_s",
        "Throughput (1 KB = 1024 B)",
        Unit::PerSecond("KB"),
        "data the receiving ttcp read per second of its real time, as ttcp prints it",
    ),
    fig(
        "tx_kbytes_per_s",
        "Transmitter's throughput (1 KB = 1024 B)",
        Unit::PerSecond("KB"),
        "data the transmitting ttcp wrote per second of its real time, as ttcp prints it",
    ),
    fig(
        "bytes",
        "Bytes transferred",
        Unit::Count("bytes"),
        "data the receiving ttcp read",
    ),
    fig(
        "rx_real_s",
        "Receiver's real time",
        Unit::Seconds,
        "the receiving ttcp's real (elapsed) time",
    ),
    fig(
        "tx_real_s",
        "Transmitter's real time",
        Unit::Seconds,
        "the transmitting ttcp's real (elapsed) time",
    ),
    fig(
        "tx_user_s",
        "Transmitter's user time",
        Unit::Seconds,
        "user time charged to the transmitting ttcp",
    ),
    fig(
        "tx_sys_s",
        "Transmitter's system time",
        Unit::Seconds,
        "system time charged to the transmitting ttcp",
    ),
    fig(
        "rx_user_s",
        "Receiver's user time",
        Unit::Seconds,
        "user time charged to the receiving ttcp",
    ),
    fig(
        "rx_sys_s",
        "Receiver's system time",
        Unit::Seconds,
        "system time charged to the receiving ttcp",
    ),
    fig(
        "tx_sys_pct",
        "Transmitter's system time",
        Unit::Percent,
        "the transmitter's system time over its own real time, in percent",
    ),
    fig(
        "rx_sys_pct",
        "Receiver's system time",
        Unit::Percent,
        "the receiver's system time over its own real time, in percent",
    ),
    fig(
        "tx_cpu",
        "Transmitter CPU busy",
        Unit::Share,
        "share of the receiver's real time the transmitter's CPU was busy",
    ),
    fig(
        "tx_copy",
        "Transmitter CPU copying",
        Unit::Share,
        "share of the receiver's real time the transmitter's CPU copied data",
    ),
    fig(
        "rx_cpu",
        "Receiver CPU busy",
        Unit::Share,
        "share of the receiver's real time the receiver's CPU was busy",
    ),
    fig(
        "rx_copy",
        "Receiver CPU copying",
        Unit::Share,
        "share of the receiver's real time the receiver's CPU copied data",
    ),
    fig(
        "data_frames",
        "Data frames",
        Unit::Count("frames"),
        "TCP data segments the transmitter sent",
    ),
    fig(
        "ack_frames",
        "ACK frames",
        Unit::Count("frames"),
        "pure acknowledgements sent, both sides together",
    ),
    fig(
        "wire_utilization",
        "Wire carrying frames",
        Unit::Share,
        "share of time the wire carried frames delivered intact",
    ),
    fig(
        "tx_window_limited",
        "Transmitter waiting for the window",
        Unit::Share,
        "share of the receiver's real time the transmitter had data but the window was shut",
    ),
    fig(
        "tx_copy_wait",
        "Wire waiting for the transmitter's copy",
        Unit::Share,
        "share of the receiver's real time the card had nothing to send while the CPU copied the next frame",
    ),
    fig(
        "rx_ack_backlog",
        "ACKs queued at the receiver",
        Unit::Ratio("ACKs"),
        "ACKs waiting in the receiver's driver or card when a data segment arrives, mean",
    ),
    fig(
        "frames_lost",
        "Frames lost",
        Unit::Count("frames"),
        "frames lost on the wire or at a full receive ring",
    ),
    fig(
        "retransmit_timeouts",
        "Retransmission timeouts",
        Unit::Count(""),
        "times the transmitter's retransmission timer expired",
    ),
    // lanperf (besides block_size, throughput_kbps, server_cpu, workstation_cpu,
    // packets_retransmitted and events)
    fig(
        "test",
        "LANPERF test",
        Unit::Count(""),
        "which test: 1 WRITE, 2 READ",
    ),
    fig(
        "stations",
        "Stations",
        Unit::Count("stations"),
        "stations running LANPERF",
    ),
    fig(
        "operations",
        "Operations",
        Unit::Count(""),
        "reads or writes completed in the test, all stations together",
    ),
    fig(
        "mean_response_ms",
        "Mean response time",
        Unit::Milliseconds,
        "the test's length over its operations, as LANPERF computes it",
    ),
    fig(
        "wire_busy",
        "Wire busy",
        Unit::Share,
        "share of the test the cable carried a signal",
    ),
    fig(
        "disk_busy",
        "Server disk busy",
        Unit::Share,
        "share of the test the server's disk was busy",
    ),
    // shared (the file service and ttcp on one cable)
    fig(
        "workstations",
        "Workstations",
        Unit::Count("workstations"),
        "workstations running PERFORM3 against the file server",
    ),
    fig(
        "file_service_kbps",
        "File service throughput",
        Unit::KiloBytesPerSecond,
        "file data the workstations received in the window, all together",
    ),
    fig(
        "ttcp_kbps",
        "ttcp throughput",
        Unit::KiloBytesPerSecond,
        "bytes the ttcp receiver read in the window",
    ),
    fig(
        "wire_file_service",
        "Wire carrying file-service frames",
        Unit::Share,
        "share of the window the cable carried the file service's frames delivered intact",
    ),
    fig(
        "wire_ttcp",
        "Wire carrying ttcp frames",
        Unit::Share,
        "share of the window the cable carried the ttcp hosts' frames delivered intact",
    ),
    fig(
        "background_mbps",
        "Background throughput (Mb/s)",
        Unit::MegabitsPerSecond,
        "bits the background groups' senders delivered intact per second, all groups together",
    ),
    fig(
        "wire_background",
        "Wire carrying background frames",
        Unit::Share,
        "share of the window the cable carried the background groups' frames delivered intact",
    ),
    fig(
        "background_frames_sent",
        "Background frames sent",
        Unit::Count("frames"),
        "frames the background groups sent in the window",
    ),
    fig(
        "background_access_delay_mean_us",
        "Background access delay, mean (µs)",
        Unit::Microseconds,
        "an open-loop background frame's time from its arrival to the end of its transmission, mean over the frames sent in the window",
    ),
    fig(
        "background_access_delay_p99_us",
        "Background access delay, 99th percentile (µs)",
        Unit::Microseconds,
        "the same time's 99th percentile, the highest of the open-loop groups",
    ),
    fig(
        "background_queue_drops",
        "Background frames dropped at a full queue",
        Unit::Count("frames"),
        "open-loop background frames that arrived at a full transmit queue in the window",
    ),
    fig(
        "ttcp_deferrals_per_frame",
        "ttcp deferrals per frame",
        Unit::Ratio(""),
        "times the ttcp transmitter found the carrier busy, per frame it sent",
    ),
    fig(
        "ttcp_collisions_per_frame",
        "ttcp collisions per frame",
        Unit::Ratio(""),
        "collisions the ttcp transmitter detected, per frame it sent",
    ),
    fig(
        "ttcp_access_delay_mean_us",
        "ttcp access delay, mean",
        Unit::Microseconds,
        "from a frame's reaching the head of the ttcp transmitter's MAC queue to the start of its successful transmission",
    ),
    fig(
        "ttcp_transmitter_cpu",
        "ttcp transmitter CPU busy",
        Unit::Share,
        "share of the window the transmitting host's CPU was busy",
    ),
    fig(
        "ttcp_receiver_cpu",
        "ttcp receiver CPU busy",
        Unit::Share,
        "share of the window the receiving host's CPU was busy",
    ),
    fig(
        "audit_violations",
        "Audit violations",
        Unit::Count(""),
        "conservation rules broken at the end of the window (0: every byte and frame accounted for)",
    ),
];

#[cfg(test)]
mod lanperf_tests {
    use super::*;
    use crate::run::output::{Headline, RunDetail, RunOutput};

    #[test]
    fn test_lanperf_throughput_is_labelled_in_1024_byte_kb() {
        let out = |workload: &str| RunOutput {
            scenario: "s".into(),
            seed: 1,
            workload: workload.into(),
            columns: vec![],
            points: vec![vec![]],
            headline: Headline {
                name: "throughput_kbps".into(),
                value: 100.0,
            },
            detail: RunDetail::Perform3(crate::workload::perform3::Perform3Report {
                workstations: 1,
                warmup_s: 0.0,
                measure_s: 0.0,
                points: vec![],
            }),
        };
        assert!(headline(&out("lanperf")).1.contains("1 KB = 1024 B"));
        assert!(headline(&out("perform3")).1.contains("1 KB = 1000 B"));
    }
}

/// The figure of a column, if registered.
pub fn figure(key: &str) -> Option<&'static Figure> {
    FIGURES.iter().find(|f| f.key == key)
}

/// LANPERF's throughput: the program counts a KB as 1024 bytes, and so does its column.
const LANPERF_THROUGHPUT: Figure = Figure {
    key: "throughput_kbps",
    name: "Throughput (1 KB = 1024 B)",
    unit: Unit::PerSecond("KB"),
    description: "data read or written, all stations together, as LANPERF counts it",
};

/// The figure of a run's headline: as registered, except where the workload gives the
/// column a meaning of its own (LANPERF's 1024-byte KB).
fn headline_figure(out: &RunOutput) -> Option<&'static Figure> {
    headline_figure_of(&out.workload, &out.headline.name)
}

fn headline_figure_of(workload: &str, name: &str) -> Option<&'static Figure> {
    if workload == "lanperf" && name == LANPERF_THROUGHPUT.key {
        return Some(&LANPERF_THROUGHPUT);
    }
    figure(name)
}

/// The unit of a column (a bare number if it is not registered).
pub fn unit(key: &str) -> Unit {
    figure(key).map_or(Unit::Ratio(""), |f| f.unit)
}

/// The label of a scenario key for an axis or a legend: the parameter registry's label
/// ([`crate::scenario::params::label`]), else the key itself.
pub fn param_label(key: &str) -> String {
    crate::scenario::params::label(key)
}

/// What a workload's points are, in the plural, for "mean over the 16 block sizes".
fn points_noun(workload: &str) -> &'static str {
    match workload {
        "perform3" => "block sizes",
        _ => "points",
    }
}

/// The headline of a run as a labelled figure: its registered unit, and an axis title that
/// says how it is aggregated ("Throughput, KB/s (1 KB = 1000 B), mean over the 16 block
/// sizes").
pub fn headline(out: &RunOutput) -> (Unit, String) {
    headline_of(&out.workload, &out.headline.name, out.points.len())
}

/// [`headline`] of a run of `workload` whose headline is `name`, over `points` points.
pub fn headline_of(workload: &str, name: &str, points: usize) -> (Unit, String) {
    let f = headline_figure_of(workload, name);
    let unit = f.map_or(Unit::Ratio(""), |f| f.unit);
    let mut label = f.map_or_else(|| name.to_string(), Figure::label);
    if points > 1 {
        label.push_str(&format!(", mean over the {points} {}", points_noun(workload)));
    }
    (unit, label)
}

/// The headline of a run in words, with its value: `Throughput 984.2 KB/s (1 KB = 1000 B),
/// mean over the 16 block sizes`.
pub fn headline_text(out: &RunOutput) -> String {
    let v = out.headline.value;
    let mut s = match headline_figure(out) {
        Some(f) => format!("{} {}", f.name, f.unit.show(v)),
        None => format!("{} {}", out.headline.name, super::units::pretty(v)),
    };
    if headline_figure(out).is_some_and(|f| f.unit == Unit::KiloBytesPerSecond) {
        s.push_str(" (1 KB = 1000 B)");
    }
    if out.points.len() > 1 {
        s.push_str(&format!(
            ", mean over the {} {}",
            out.points.len(),
            points_noun(&out.workload)
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::output::{
        LANPERF_COLUMNS, PERFORM3_COLUMNS, SATURATE_COLUMNS, SHARED_COLUMNS, TRAFFIC_COLUMNS,
    };
    use crate::workload::ttcp::TTCP_COLUMNS;

    #[test]
    fn test_every_column_is_registered() {
        for c in SATURATE_COLUMNS
            .iter()
            .chain(&PERFORM3_COLUMNS)
            .chain(&TRAFFIC_COLUMNS)
            .chain(&LANPERF_COLUMNS)
            .chain(&TTCP_COLUMNS)
            .chain(&SHARED_COLUMNS)
        {
            let f = figure(c).unwrap_or_else(|| panic!("column {c} has no entry in FIGURES"));
            assert!(!f.name.is_empty() && !f.description.is_empty(), "{c}");
        }
    }

    #[test]
    fn test_keys_are_unique() {
        for (i, f) in FIGURES.iter().enumerate() {
            assert!(FIGURES[i + 1..].iter().all(|g| g.key != f.key), "{} twice", f.key);
        }
    }

    #[test]
    fn test_labels() {
        assert_eq!(
            figure("throughput_kbps").unwrap().label(),
            "Throughput, KB/s (1 KB = 1000 B)"
        );
        assert_eq!(figure("ms_per_block").unwrap().label(), "Time per block, ms");
        assert_eq!(figure("wire_idle").unwrap().label(), "Wire idle, %");
        assert_eq!(
            figure("fairness_jain").unwrap().label(),
            "Fairness (Jain's index)"
        );
        assert_eq!(
            param_label("adapter.transmit_buffers"),
            "AEX TRANSMIT_BUFFERS (frames)"
        );
        assert_eq!(param_label("nos.costs.x"), "nos.costs.x");
    }
}
