//! Keys of `[workload.stack]` (kind `ttcp`): a TCP/IP stack's profile. Units: bytes,
//! segments, ms, percent.
//!
//! The rules that tie keys together (`rto_min_ms <= rto_initial_ms <= rto_max_ms`, the
//! delayed ACK below the minimum RTO, one full segment within the largest buffer) are
//! checked by `tcp::StackProfile::check` and `scenario::stack`.

use super::{Param, Section};

pub const SECTION: Section = Section {
    title: "[workload.stack] (kind = \"ttcp\")",
    about: "The TCP/IP stack of both hosts of a ttcp run, as a hardware file writes it \
            (scenarios/ttcp1995/ttcp-1995.toml: Linux 1.2; scenarios/ttcp1985/ttcp-1985.toml: \
            4.2BSD).",
    params: PARAMS,
};

const BUFFER_MAX: (i64, &str) = (
    1 << 20,
    "engineering bound: 1 MiB (a 16-bit window cannot use more than 64 KB)",
);
const U32_MIN: (i64, &str) = (0, "unsigned 32-bit; not checked further");
const U32_MAX: (i64, &str) = (u32::MAX as i64, "unsigned 32-bit; not checked further");
const RTO_MIN: (f64, &str) = (1.0, "engineering bound: a millisecond");
const RTO_MAX: (f64, &str) = (600_000.0, "engineering bound: ten minutes");

const PARAMS: &[Param] = &[
    Param::text("workload.stack.name", "any text")
        .kind("ttcp")
        .label("Stack")
        .means("The stack's name in reports."),
    Param::int(
        "workload.stack.mss_bytes",
        (64, "engineering bound"),
        (65_495, "RFC 791/793: 65535 less 40 bytes of IP and TCP headers"),
    )
    .kind("ttcp")
    .unit("bytes")
    .label("MSS (bytes)")
    .means("Largest segment's data."),
    Param::int(
        "workload.stack.ack_every_segments",
        (1, "every segment"),
        (64, "engineering bound"),
    )
    .kind("ttcp")
    .unit("segments")
    .default("required with ack_clock = \"one_shot\"; refused with \"fast_timeout\"")
    .label("ACK every (segments)")
    .means("A receiver acknowledges at the latest after this many segments."),
    Param::real(
        "workload.stack.delayed_ack_ms",
        (0.0, "no delay"),
        (10_000.0, "engineering bound: ten seconds"),
    )
    .kind("ttcp")
    .unit("ms")
    .label("Delayed ACK (ms)")
    .means("How long a receiver holds an acknowledgement."),
    Param::choice(
        "workload.stack.ack_clock",
        &["one_shot", "fast_timeout"],
        "the two ACK timers modelled: Linux 1.2's one-shot, 4.2BSD's fast timeout",
    )
    .kind("ttcp")
    .default("one_shot")
    .label("ACK clock (one_shot; fast_timeout)")
    .means("A one-shot delayed-ACK timer per ACK, or the periodic fast timeout (4.2BSD)."),
    Param::choice(
        "workload.stack.send_rule",
        &["full_last_or_idle", "full_all_or_quarter_window"],
        "the two send rules modelled: Linux 1.2, 4.2BSD tcp_output",
    )
    .kind("ttcp")
    .default("full_last_or_idle")
    .label("Send rule")
    .means("When a partial segment may go out."),
    Param::int(
        "workload.stack.socket_buffer_bytes",
        (1, "socket_buffer_min_bytes"),
        BUFFER_MAX,
    )
    .kind("ttcp")
    .unit("bytes")
    .label("Default socket buffer (bytes)")
    .means(
        "The socket buffer when ttcp gives no -b; within socket_buffer_min_bytes..=socket_buffer_max_bytes.",
    ),
    Param::int(
        "workload.stack.socket_buffer_min_bytes",
        (1, "one byte"),
        BUFFER_MAX,
    )
    .kind("ttcp")
    .unit("bytes")
    .label("Smallest socket buffer (bytes)")
    .means("The smallest buffer a -b is clamped to."),
    Param::int(
        "workload.stack.socket_buffer_max_bytes",
        (1, "socket_buffer_min_bytes"),
        BUFFER_MAX,
    )
    .kind("ttcp")
    .unit("bytes")
    .label("Largest socket buffer (bytes)")
    .means("The largest buffer a -b is clamped to; it must hold one full segment with its overhead."),
    Param::choice(
        "workload.stack.window.rule",
        &["half_free_space", "free_space"],
        "the two window rules modelled: Linux 1.2 sock_rspace, 4.2BSD",
    )
    .kind("ttcp")
    .label("Window rule (half_free_space; free_space)")
    .means("How the receiver computes the window it offers."),
    Param::int("workload.stack.window.reserve_bytes", U32_MIN, U32_MAX)
        .kind("ttcp")
        .unit("bytes")
        .default("required with rule = \"half_free_space\"")
        .label("Window reserve (bytes)")
        .means("Bytes taken off half the free space."),
    Param::int("workload.stack.window.max_bytes", U32_MIN, U32_MAX)
        .kind("ttcp")
        .unit("bytes")
        .default("required with rule = \"half_free_space\"")
        .label("Largest window (bytes)")
        .means("The largest window offered."),
    Param::int("workload.stack.window.full_margin_bytes", U32_MIN, U32_MAX)
        .kind("ttcp")
        .unit("bytes")
        .default("required with rule = \"half_free_space\"")
        .label("Full margin (bytes)")
        .means("A buffer within this margin of full offers no window."),
    Param::int("workload.stack.window.sws_floor_bytes", U32_MIN, U32_MAX)
        .kind("ttcp")
        .unit("bytes")
        .default("required with rule = \"half_free_space\"")
        .label("SWS floor (bytes)")
        .means("An offer below min(mss, this) keeps the current window (silly window avoidance)."),
    Param::int("workload.stack.window.sws_divisor", U32_MIN, U32_MAX)
        .kind("ttcp")
        .default("required with rule = \"free_space\"")
        .label("SWS divisor")
        .means("An offer below the buffer divided by this keeps the current window."),
    Param::choice(
        "workload.stack.window_update",
        &["more_than_mss"],
        "Linux 1.2 tcp_read; or a table with percent_of_buffer",
    )
    .kind("ttcp")
    .label("Window update rule")
    .means("When a read sends an extra window update: \"more_than_mss\", or { percent_of_buffer = P }."),
    Param::int("workload.stack.window_update.percent_of_buffer", U32_MIN, U32_MAX)
        .kind("ttcp")
        .unit("%")
        .default("used when window_update is a table")
        .label("Window update (% of buffer)")
        .means("A read sends a window update when the window grew by this share of the buffer (4.2BSD: 35)."),
    Param::int(
        "workload.stack.buffer_overhead_bytes",
        (0, "no overhead"),
        (4096, "engineering bound"),
    )
    .kind("ttcp")
    .unit("bytes")
    .label("Buffer overhead (bytes)")
    .means("Bytes a socket buffer counts per segment beyond its data."),
    Param::choice(
        "workload.stack.congestion",
        &["none"],
        "4.2BSD had none; or a table with max_segments",
    )
    .kind("ttcp")
    .label("Congestion window")
    .means("\"none\", or { max_segments = N }: +1 segment per window of ACKs up to N."),
    Param::int("workload.stack.congestion.max_segments", U32_MIN, U32_MAX)
        .kind("ttcp")
        .unit("segments")
        .default("used when congestion is a table")
        .label("Largest congestion window (segments)")
        .means("Cap of the linear congestion window."),
    Param::flag("workload.stack.nagle")
        .kind("ttcp")
        .label("Nagle")
        .means("A partial segment is held while data is unacknowledged."),
    Param::real("workload.stack.rto_initial_ms", RTO_MIN, RTO_MAX)
        .kind("ttcp")
        .unit("ms")
        .label("Initial RTO (ms)")
        .means("Retransmission timeout before any round trip is measured."),
    Param::real("workload.stack.rto_min_ms", RTO_MIN, RTO_MAX)
        .kind("ttcp")
        .unit("ms")
        .label("Smallest RTO (ms)")
        .means("Lower clamp of the retransmission timeout."),
    Param::real("workload.stack.rto_max_ms", RTO_MIN, RTO_MAX)
        .kind("ttcp")
        .unit("ms")
        .label("Largest RTO (ms)")
        .means("Upper clamp of the retransmission timeout."),
    Param::flag("workload.stack.checksum_in_copy")
        .kind("ttcp")
        .label("Checksum in copy")
        .means("The checksum is computed while copying (one pass) rather than separately."),
];
