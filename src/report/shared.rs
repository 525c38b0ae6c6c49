//! The view of a `shared` run's `--explain`: each application's throughput and what
//! limited it, and how the wire's time split between them, as paragraphs (the
//! explanation wraps them). Shares are of the measurement window; numbers follow
//! [`super::units`].

use super::units::Unit;
use crate::workload::shared::SharedReport;

fn pct(x: f64) -> String {
    Unit::Share.number(x)
}

/// The narrative: one paragraph for the wire, one per application (and one if the audit
/// failed), each unwrapped.
pub fn paragraphs(r: &SharedReport) -> Vec<String> {
    let f = &r.file_service;
    let x = &f.explanation;
    let t = &r.ttcp;
    let w = &r.wire;
    let busy = 1.0 - w.idle;
    let mut out = Vec::new();
    out.push(format!(
        "The wire, over the {} s window: busy {} ({} file-service frames, {} ttcp frames, {} \
         collisions, {} damaged frames), idle {}.",
        r.measure_s,
        pct(busy),
        pct(w.file_service),
        pct(w.ttcp),
        pct(w.collision),
        pct(w.corrupted),
        pct(w.idle)
    ));
    out.push(format!(
        "File service (PERFORM3 on {} workstations, {}-byte blocks): {} KB/s. Server CPU busy {}, \
         workstation CPU {}; limited by {}.",
        r.workstations,
        f.block_size,
        Unit::KiloBytesPerSecond.number(f.throughput_kbps),
        pct(x.server_cpu.busy),
        pct(x.workstation_cpu.busy),
        x.bottleneck
    ));
    let why = if r.workstations == 0 {
        "no file-service traffic shares the wire: this is ttcp alone on the cable".to_string()
    } else if t.transmitter_cpu >= 0.9 {
        format!(
            "the transmitting host's CPU is busy {}: it, not the wire, sets ttcp's pace",
            pct(t.transmitter_cpu)
        )
    } else if busy >= 0.9 {
        "the wire is full: ttcp gets the share of it that the MAC gives its frames, and every \
         file-service frame it defers to is time it cannot send"
            .to_string()
    } else {
        "the wire has idle time, but each ttcp frame waits for the file service's frames \
         before it goes, and the waits hold back the transfer's window and the writes behind it"
            .to_string()
    };
    let delay = format!(
        "{} {}",
        Unit::Microseconds.number(t.access_delay_mean_us),
        Unit::Microseconds.symbol(t.access_delay_mean_us)
    );
    out.push(format!(
        "ttcp: {} KB/s. Its transmitter's frames deferred {} times each and collided {} \
         times each; from the head of the queue to the wire took {} on average. \
         Transmitter CPU {}, receiver CPU {}. Why: {why}.",
        Unit::KiloBytesPerSecond.number(t.throughput_kbps),
        Unit::Ratio("").number(t.deferrals_per_frame),
        Unit::Ratio("").number(t.collisions_per_frame),
        delay,
        pct(t.transmitter_cpu),
        pct(t.receiver_cpu)
    ));
    if !r.audit_violations.is_empty() {
        out.push(format!(
            "The conservation audit FAILED: {}",
            r.audit_violations.join("; ")
        ));
    }
    out
}
