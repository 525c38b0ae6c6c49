//! Keys of `[nos]`: LANtastic's protocol, CPU costs, SERVER and AI-LANBIOS/REDIR switches.
//! Units: bytes, ms, kinstr (thousands of instructions), ticks of the PC timer
//! (65536/1193182 s = 54.9 ms) for the AI-LANBIOS timers.

use super::{Param, Section};
use crate::scenario::units::PC_TICK_MS;

pub const SECTION: Section = Section {
    title: "[nos]",
    about: "LANtastic on every node of a LAN scenario: `[nos.protocol]`, `[nos.costs]`, \
            `[nos.server]` with `[nos.server.ailanbio]`, and `[nos.workstation.ailanbio]` \
            with `[nos.workstation.redir]`. Usually from a hardware file.",
    params: PARAMS,
};

const KINSTR_MIN: (f64, &str) = (0.0, "no work at all");
const KINSTR_MAX: (f64, &str) = (
    10_000.0,
    "engineering bound: 10 million instructions, seconds on the slowest host",
);
const TICKS_MIN: (i64, &str) = (0, "AI-LANBIOS switch, a count of PC timer ticks");
const TICKS_MAX: (i64, &str) = (255, "AI-LANBIOS switch, one byte");
const BYTE_MIN: (i64, &str) = (1, "AI-LANBIOS switch");
const BYTE_MAX: (i64, &str) = (255, "AI-LANBIOS switch, one byte");
const SIZE_MIN: (i64, &str) = (
    1,
    "nos.protocol.header_bytes + 1 (a buffer holds the header and some data)",
);
const WORD_MAX: (i64, &str) = (65_535, "AI-LANBIOS switch, a 16-bit byte count");
const SEND_ORDERS: &[&str] = &["oldest_message", "round_robin", "one_message"];
const SEND_ORDER_SOURCE: &str =
    "hypotheses for how AI-LANBIOS shares the driver among concurrent messages (not documented)";

const PARAMS: &[Param] = &[
    Param::int(
        "nos.protocol.header_bytes",
        (0, "no header"),
        (512, "engineering bound: far above NetBIOS and LANtastic framing"),
    )
    .unit("bytes")
    .label("NOS header (bytes)")
    .means("NetBIOS session header plus LANtastic's framing in every packet."),
    Param::int(
        "nos.protocol.request_bytes",
        (1, "a request has content"),
        (1500, "engineering bound: one Ethernet packet"),
    )
    .unit("bytes")
    .label("Read request (bytes)")
    .means("Payload of a read request message beyond header_bytes."),
    Param::real(
        "nos.protocol.retry_base_ms",
        (PC_TICK_MS, "one PC timer tick (54.9 ms): NetBIOS timers count ticks"),
        (60_000.0, "engineering bound: a minute"),
    )
    .unit("ms")
    .label("Retry base (ms)")
    .means("Base retransmission timeout of an AI-LANBIOS session, to which retry_period ticks are added."),
    Param::real("nos.costs.interrupt_kinstr", KINSTR_MIN, KINSTR_MAX)
        .unit("kinstr")
        .label("Interrupt cost (kinstr)")
        .means("CPU work per frame interrupt: entry, exit, EOI and the driver's status handling."),
    Param::real("nos.costs.packet_kinstr", KINSTR_MIN, KINSTR_MAX)
        .unit("kinstr")
        .label("AI-LANBIOS packet cost (kinstr)")
        .means("AI-LANBIOS work per packet sent or received."),
    Param::real("nos.costs.server_request_kinstr", KINSTR_MIN, KINSTR_MAX)
        .unit("kinstr")
        .label("SERVER request cost (kinstr)")
        .means("SERVER's CPU work per read request (decode, cache lookup, DOS read, reply)."),
    Param::real(
        "nos.costs.server_request_latency_ms",
        (0.0, "no wait"),
        (1_000.0, "engineering bound: a DOS critical section or timer-driven step lasts a few ticks at most"),
    )
    .unit("ms")
    .default("0")
    .label("SERVER request wait (ms)")
    .means("A network task's wait per request besides its CPU work."),
    Param::choice(
        "nos.costs.server_request_latency_scope",
        &["task", "server"],
        "hypotheses: each task waits on its own, or one task at a time (a critical section)",
    )
    .default("task")
    .label("Who shares the request wait (task; server)")
    .means("Whether the request waits of concurrent tasks overlap (task) or queue one at a time (server)."),
    Param::real(
        "nos.costs.server_yield_ms",
        (0.0, "no yield"),
        (PC_TICK_MS, "one tick of the 18.2 Hz timer, at which SERVER takes the CPU back"),
    )
    .unit("ms")
    .default("0")
    .label("Foreground's turn when SERVER yields (ms of CPU)")
    .means("The foreground's turn of CPU each time SERVER yields after its run burst."),
    Param::real("nos.costs.redir_request_kinstr", KINSTR_MIN, KINSTR_MAX)
        .unit("kinstr")
        .label("REDIR request cost (kinstr)")
        .means("REDIR's work per read request on a workstation."),
    Param::real("nos.costs.app_block_kinstr", KINSTR_MIN, KINSTR_MAX)
        .unit("kinstr")
        .label("Application cost per block (kinstr)")
        .means("The benchmark's and DOS's work per block read on a workstation."),
    Param::int(
        "nos.server.network_tasks",
        (1, "SERVER startup parameter"),
        (64, "engineering bound: Appendix A uses 7"),
    )
    .unit("tasks")
    .label("SERVER network tasks")
    .means("SERVER's network tasks: requests it serves at once."),
    Param::int(
        "nos.server.network_buffer",
        (512, "engineering bound: one DOS sector"),
        (65_535, "SERVER startup parameter, a 16-bit byte count"),
    )
    .unit("bytes")
    .label("SERVER network buffer (bytes)")
    .means("Each network task's buffer; a larger read is split into several replies."),
    Param::int("nos.server.run_burst", BYTE_MIN, (255, "SERVER startup parameter; Appendix A sets 255"))
        .unit("requests")
        .default("1")
        .label("SERVER run burst (requests between yields)")
        .means("Requests SERVER takes up before it yields to the foreground."),
    Param::choice(
        "nos.server.reply_copy",
        &["per_packet", "before_send"],
        "hypotheses for when a network task moves a reply out of LANCACHE",
    )
    .default("per_packet")
    .label("When SERVER moves a reply out of its cache (per_packet; before_send)")
    .means("Move a reply's file data into each packet as it is built, or the whole reply into the task's buffer before the send."),
    Param::int("nos.server.ailanbio.size", SIZE_MIN, WORD_MAX)
        .unit("bytes")
        .label("Server AI-LANBIOS SIZE (bytes)")
        .means("The server's AI-LANBIOS packet buffer size (header included)."),
    Param::int("nos.server.ailanbio.buffers", BYTE_MIN, BYTE_MAX)
        .unit("buffers")
        .label("Server AI-LANBIOS BUFFERS")
        .means("The server's AI-LANBIOS packet buffers."),
    Param::int("nos.server.ailanbio.initial_send_size", (1, "AI-LANBIOS switch"), WORD_MAX)
        .unit("bytes")
        .label("Server AI-LANBIOS INITIAL_SEND_SIZE (bytes)")
        .means("Bytes of a message the server sends before its first acknowledgement."),
    Param::int("nos.server.ailanbio.run_burst", BYTE_MIN, BYTE_MAX)
        .unit("packets")
        .label("Server AI-LANBIOS RUN_BURST (packets)")
        .means("Packets the server's AI-LANBIOS sends in one go."),
    Param::int("nos.server.ailanbio.ack_timeout", TICKS_MIN, TICKS_MAX)
        .unit("ticks")
        .label("Server AI-LANBIOS ACK_TIMEOUT (ticks)")
        .means("How long the server holds an acknowledgement hoping to piggyback it, ticks of 1/18.2 s."),
    Param::int("nos.server.ailanbio.retry_period", TICKS_MIN, TICKS_MAX)
        .unit("ticks")
        .label("Server AI-LANBIOS RETRY_PERIOD (ticks)")
        .means("Ticks added to nos.protocol.retry_base_ms before the server retransmits."),
    Param::choice("nos.server.ailanbio.send_order", SEND_ORDERS, SEND_ORDER_SOURCE)
        .default("oldest_message")
        .label("Server AI-LANBIOS send order (oldest_message; round_robin; one_message)")
        .means("How the server shares the driver among concurrent replies."),
    Param::int("nos.workstation.ailanbio.size", SIZE_MIN, WORD_MAX)
        .unit("bytes")
        .label("Workstation AI-LANBIOS SIZE (bytes)")
        .means("A workstation's AI-LANBIOS packet buffer size (header included)."),
    Param::int("nos.workstation.ailanbio.buffers", BYTE_MIN, BYTE_MAX)
        .unit("buffers")
        .label("Workstation AI-LANBIOS BUFFERS")
        .means("A workstation's AI-LANBIOS packet buffers."),
    Param::int("nos.workstation.ailanbio.initial_send_size", (1, "AI-LANBIOS switch"), WORD_MAX)
        .unit("bytes")
        .label("Workstation AI-LANBIOS INITIAL_SEND_SIZE (bytes)")
        .means("Bytes of a message a workstation sends before its first acknowledgement."),
    Param::int("nos.workstation.ailanbio.run_burst", BYTE_MIN, BYTE_MAX)
        .unit("packets")
        .label("Workstation AI-LANBIOS RUN_BURST (packets)")
        .means("Packets a workstation's AI-LANBIOS sends in one go."),
    Param::int("nos.workstation.ailanbio.ack_timeout", TICKS_MIN, TICKS_MAX)
        .unit("ticks")
        .label("Workstation AI-LANBIOS ACK_TIMEOUT (ticks)")
        .means("How long a workstation holds an acknowledgement hoping to piggyback it, ticks of 1/18.2 s."),
    Param::int("nos.workstation.ailanbio.retry_period", TICKS_MIN, TICKS_MAX)
        .unit("ticks")
        .label("Workstation AI-LANBIOS RETRY_PERIOD (ticks)")
        .means("Ticks added to nos.protocol.retry_base_ms before a workstation retransmits."),
    Param::choice("nos.workstation.ailanbio.send_order", SEND_ORDERS, SEND_ORDER_SOURCE)
        .default("oldest_message")
        .label("Workstation AI-LANBIOS send order (oldest_message; round_robin; one_message)")
        .means("How a workstation shares the driver among concurrent messages."),
    Param::int("nos.workstation.redir.buffers", (1, "REDIR switch"), (16, "engineering bound"))
        .unit("buffers")
        .label("REDIR buffers")
        .means("REDIR's buffers on a workstation."),
    Param::int(
        "nos.workstation.redir.size",
        (512, "REDIR switch, one DOS sector"),
        (65_535, "REDIR switch, a 16-bit byte count"),
    )
    .unit("bytes")
    .label("REDIR SIZE (bytes)")
    .means("REDIR's buffer size: a DOS read is asked of the server this many bytes at a time."),
    Param::choice(
        "nos.workstation.redir.large_reads",
        &["buffered", "direct"],
        "hypotheses for how REDIR passes a read of at least SIZE bytes",
    )
    .default("buffered")
    .label("REDIR large reads (buffered; direct)")
    .means("A read of at least SIZE bytes goes through the buffer SIZE bytes at a time, or whole into the application's buffer."),
];
