//! The view of a `shared` run's `--explain`: each application's throughput and what
//! limited it, and how the wire's time split between them, as paragraphs (the
//! explanation wraps them). Shares are of the measurement window; numbers follow
//! [`super::units`].

use super::units::Unit;
use crate::workload::shared::{BackgroundShare, SharedReport};

fn pct(x: f64) -> String {
    Unit::Share.number(x)
}

/// The narrative: one paragraph for the wire, one per application (and one if the audit
/// failed), each unwrapped.
pub fn paragraphs(r: &SharedReport) -> Vec<String> {
    let w = &r.wire;
    let busy = 1.0 - w.idle;
    let mut out = Vec::new();
    let mut carried = Vec::new();
    match r.file_services.as_slice() {
        [] => {}
        [_] => carried.push(format!("{} file-service frames", pct(w.file_service))),
        many => carried.push(format!(
            "{} file-service frames ({})",
            pct(w.file_service),
            many.iter()
                .map(|f| format!("{} of {}", pct(f.wire_share), f.name))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
    match r.ttcp.len() {
        0 => {}
        1 => carried.push(format!("{} ttcp frames", pct(w.ttcp))),
        _ => carried.push(format!(
            "{} ttcp frames ({})",
            pct(w.ttcp),
            r.ttcp
                .iter()
                .map(|t| format!("{} from {}", pct(t.wire_share), t.transmitter))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
    if !r.background.is_empty() {
        carried.push(format!("{} background frames", pct(w.background)));
    }
    out.push(format!(
        "The wire, over the {} s window: busy {} ({}, {} collisions, {} damaged frames), idle {}.",
        r.measure_s,
        pct(busy),
        carried.join(", "),
        pct(w.collision),
        pct(w.corrupted),
        pct(w.idle)
    ));
    let services = r.file_services.len();
    for s in &r.file_services {
        let (f, x) = (&s.point, &s.point.explanation);
        let name = if services > 1 {
            format!("File service of {}", s.name)
        } else {
            "File service".to_string()
        };
        let mut text = format!(
            "{name} (PERFORM3 on {} workstations, {}-byte blocks): {} KB/s. Server CPU busy {}, \
             workstation CPU {}; limited by {}.",
            s.workstations,
            f.block_size,
            Unit::KiloBytesPerSecond.number(f.throughput_kbps),
            pct(x.server_cpu.busy),
            pct(x.workstation_cpu.busy),
            x.bottleneck
        );
        if services > 1 {
            text.push_str(&format!(
                " Its frames held the wire {} of the window; each request and reply also waits \
                 behind the other file services' frames.",
                pct(s.wire_share)
            ));
        }
        out.push(text);
    }
    let several = r.ttcp.len() > 1;
    for t in &r.ttcp {
        // the frames of every other application on the cable
        let mut parts = Vec::new();
        // a server with no workstations sends no frames
        match r.file_services.iter().filter(|f| f.workstations > 0).count() {
            0 => {}
            1 if services == 1 => parts.push("the file service's"),
            _ => parts.push("the file services'"),
        }
        if several {
            parts.push("the other ttcp transfers'");
        }
        if !r.background.is_empty() {
            parts.push("the background groups'");
        }
        let others = match parts.as_slice() {
            [] => None,
            [one] => Some(format!("{one} frames")),
            [first @ .., last] => Some(format!("{} and {last} frames", first.join(", "))),
        };
        let why = match others {
            None => "nothing else shares the wire: this is ttcp alone on the cable".to_string(),
            Some(_) if t.transmitter_cpu >= 0.9 => format!(
                "the transmitting host's CPU is busy {}: it, not the wire, sets ttcp's pace",
                pct(t.transmitter_cpu)
            ),
            Some(o) if busy >= 0.9 => format!(
                "the wire is full: ttcp gets the share of it that the MAC gives its frames, and \
                 every one of {o} it defers to is time it cannot send"
            ),
            Some(o) => format!(
                "the wire has idle time, but each ttcp frame waits for {o} before it goes, and \
                 the waits hold back the transfer's window and the writes behind it"
            ),
        };
        // another transfer whose frames reach the wire far sooner: it wins the backoff
        // contests this one's frames lose (at least 3 times sooner, with collisions)
        let captured = r
            .ttcp
            .iter()
            .filter(|u| !std::ptr::eq(*u, t))
            .min_by(|a, b| a.access_delay_mean_us.total_cmp(&b.access_delay_mean_us))
            .filter(|u| {
                t.collisions_per_frame >= 0.5 && t.access_delay_mean_us > 3.0 * u.access_delay_mean_us
            });
        let why = match captured {
            Some(u) => format!(
                "{why}. Its frames wait {} times as long for the wire as those of the transfer \
                 from {}: after a collision, the station that wins sends again at once with its \
                 count of collisions reset, while the loser backs off over a range that doubles \
                 with each one, so the transmitter with frames queued behind keeps the wire (the \
                 capture effect)",
                Unit::Ratio("").number(t.access_delay_mean_us / u.access_delay_mean_us.max(1e-9)),
                u.transmitter
            ),
            None => why,
        };
        let delay = format!(
            "{} {}",
            Unit::Microseconds.number(t.access_delay_mean_us),
            Unit::Microseconds.symbol(t.access_delay_mean_us)
        );
        let name = if several {
            format!("ttcp from {} to {}", t.transmitter, t.receiver)
        } else {
            "ttcp".to_string()
        };
        out.push(format!(
            "{name}: {} KB/s. Its transmitter's frames deferred {} times each and collided {} \
             times each; from the head of the queue to the wire took {} on average. \
             Transmitter CPU {}, receiver CPU {}. Why: {why}.",
            Unit::KiloBytesPerSecond.number(t.throughput_kbps),
            Unit::Ratio("").number(t.deferrals_per_frame),
            Unit::Ratio("").number(t.collisions_per_frame),
            delay,
            pct(t.transmitter_cpu),
            pct(t.receiver_cpu)
        ));
    }
    for (i, g) in r.background.iter().enumerate() {
        out.push(background(i, g));
    }
    if !r.audit_violations.is_empty() {
        out.push(format!(
            "The conservation audit FAILED: {}",
            r.audit_violations.join("; ")
        ));
    }
    out
}

/// One background group's paragraph: what it offered, carried and waited.
pub(super) fn background(i: usize, g: &BackgroundShare) -> String {
    let offered = match g.offered_load {
        Some(l) => format!(
            "offering {} of the bit rate open loop ({} arrived)",
            pct(l),
            pct(g.offered_load_measured)
        ),
        None => "each always backlogged".to_string(),
    };
    let mut s = format!(
        "Background group {}, {} stations {offered}: carried {} ({} Mb/s), {} collisions per frame",
        i + 1,
        g.senders,
        pct(g.carried_load),
        Unit::Ratio("").number(g.throughput_mbps),
        Unit::Ratio("").number(g.collisions_per_frame),
    );
    if let (Some(m), Some(p)) = (g.queue_access_delay_mean_us, g.queue_access_delay_p99_us) {
        s.push_str(&format!(
            "; a frame's access delay, from its arrival to the end of its transmission, {} {} on \
             average, {} {} at the 99th percentile",
            Unit::Microseconds.number(m),
            Unit::Microseconds.symbol(m),
            Unit::Microseconds.number(p),
            Unit::Microseconds.symbol(p)
        ));
    }
    if g.queue_drops > 0 {
        s.push_str(&format!(
            "; {} frames arrived at a full queue and were dropped: the group offers more than the \
             wire leaves it",
            g.queue_drops
        ));
    }
    s.push('.');
    s
}
