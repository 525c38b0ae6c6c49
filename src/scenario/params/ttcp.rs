//! Keys of `[workload]` for the kind `ttcp`: the run, the stack's CPU costs, the hosts
//! (`workload.hosts.<name>`) and the cards (`workload.cards.<name>`), VAX-era ones
//! (UNIBUS DMA, point-to-point links) included. The TCP/IP stack's own keys are
//! [`super::stack`]. Units: bytes, kinstr, instructions per byte, ns, MHz, ms, s.

use super::{Param, Section};

pub const SECTION: Section = Section {
    title: "[workload] kind = \"ttcp\"",
    about: "A ttcp transfer between exactly two hosts over TCP/IP. `*` stands for a name the \
            file chooses: `workload.hosts.<host>`, `workload.cards.<card>`, and \
            `workload.card.<host> = \"<card>\"` (which card each host has). A card takes \
            only the keys of its `engine`.",
    params: PARAMS,
};

const KINSTR_MIN: (f64, &str) = (0.0, "no work");
const KINSTR_MAX: (f64, &str) = (1e4, "engineering bound: 10 million instructions");
const MEGA: (i64, &str) = (1 << 20, "engineering bound: 1 MiB");
const ONE_BUFFER: (i64, &str) = (1, "a card needs at least one buffer");
const U32_MAX: (i64, &str) = (u32::MAX as i64, "unsigned 32-bit; not checked further");
const NS_1E7: (f64, &str) = (1e7, "engineering bound: 10 ms");
const ZERO_NS: (f64, &str) = (0.0, "no time");
const CLOCKS_MIN: (f64, &str) = (1.0, "one bus clock");
const CLOCKS_MAX: (f64, &str) = (64.0, "engineering bound: far above any ISA card's wait states");

const PARAMS: &[Param] = &[
    Param::text("workload.transmitter", "one of the names under workload.hosts")
        .kind("ttcp")
        .label("Transmitter")
        .means("The host that runs ttcp -t; the other runs ttcp -r."),
    Param::int("workload.buflen", (1, "ttcp -l"), MEGA)
        .kind("ttcp")
        .unit("bytes")
        .label("Buffer length (bytes)")
        .means("ttcp -l: bytes per write and read call."),
    Param::int("workload.nbuf", (1, "ttcp -n"), (1 << 20, "engineering bound: 1 Mi buffers, at most 1 GiB in all"))
        .kind("ttcp")
        .unit("buffers")
        .label("Buffers sent")
        .means("ttcp -n: buffers the transmitter writes."),
    Param::int("workload.socket_buffer", (1, "ttcp -b"), MEGA)
        .kind("ttcp")
        .unit("bytes")
        .default("workload.stack.socket_buffer_bytes")
        .label("Socket buffer (bytes)")
        .means("ttcp -b: the socket buffer asked for on both sides, clamped by the stack."),
    Param::real("workload.limit_s", (0.001, "engineering bound: a millisecond"), (3600.0, "engineering bound: an hour"))
        .kind("ttcp")
        .unit("s")
        .default("600")
        .label("Time limit (s)")
        .means("Simulated time after which an unfinished transfer stops."),
    Param::flag("workload.trailers")
        .kind("ttcp")
        .default("false")
        .label("Trailer encapsulation")
        .means("4.2BSD trailer encapsulation on Ethernet (headers after the data)."),
    Param::text("workload.card.*", "one of the names under workload.cards")
        .kind("ttcp")
        .label("Card")
        .means("The card the host named by the key has."),
    Param::real("workload.costs.syscall_kinstr", KINSTR_MIN, KINSTR_MAX)
        .kind("ttcp")
        .unit("kinstr")
        .label("System call cost (kinstr)")
        .means("The stack's work per read or write call."),
    Param::real("workload.costs.segment_kinstr", KINSTR_MIN, KINSTR_MAX)
        .kind("ttcp")
        .unit("kinstr")
        .label("Segment cost (kinstr)")
        .means("TCP/IP work per segment sent or received."),
    Param::real("workload.costs.interrupt_kinstr", KINSTR_MIN, KINSTR_MAX)
        .kind("ttcp")
        .unit("kinstr")
        .label("Interrupt cost (kinstr)")
        .means("Interrupt entry, exit and the driver's status handling per frame."),
    Param::real(
        "workload.costs.checksum_instr_per_byte",
        (0.0, "no checksum"),
        (100.0, "engineering bound: far above any checksum loop"),
    )
    .kind("ttcp")
    .unit("instr/byte")
    .label("Checksum cost (instructions/byte)")
    .means("The Internet checksum's instructions per byte."),
    Param::real("workload.costs.user_call_kinstr", KINSTR_MIN, KINSTR_MAX)
        .kind("ttcp")
        .unit("kinstr")
        .default("0")
        .label("User call cost (kinstr)")
        .means("ttcp's own work per call in user mode."),
    Param::real("workload.costs.fragment_kinstr", KINSTR_MIN, KINSTR_MAX)
        .kind("ttcp")
        .unit("kinstr")
        .default("0")
        .label("Fragment cost (kinstr)")
        .means("Work per IP fragment."),
    Param::real("workload.costs.page_remap_kinstr", KINSTR_MIN, KINSTR_MAX)
        .kind("ttcp")
        .unit("kinstr")
        .default("0")
        .label("Page remap cost (kinstr)")
        .means("Work per page remapped instead of copied (4.2BSD trailers)."),
    Param::real("workload.costs.rx_mbuf_kinstr", KINSTR_MIN, KINSTR_MAX)
        .kind("ttcp")
        .unit("kinstr")
        .default("0")
        .label("Receive mbuf cost (kinstr)")
        .means("Work per mbuf filled on receive."),
    Param::real("workload.costs.read_mbuf_kinstr", KINSTR_MIN, KINSTR_MAX)
        .kind("ttcp")
        .unit("kinstr")
        .default("0")
        .label("Read mbuf cost (kinstr)")
        .means("Work per mbuf a read call takes."),
    Param::real("workload.costs.data_input_kinstr", KINSTR_MIN, KINSTR_MAX)
        .kind("ttcp")
        .unit("kinstr")
        .default("0")
        .label("Data input cost (kinstr)")
        .means("Work per data segment taken in (beyond segment_kinstr)."),
    Param::text("workload.hosts.*.name", "any text")
        .kind("ttcp")
        .default("the host's key")
        .label("Host")
        .means("The host's CPU and board, for reports."),
    Param::real("workload.hosts.*.mips", (0.1, "engineering bound: slower than an 8088 PC"), (1e6, "engineering bound"))
        .kind("ttcp")
        .unit("MIPS")
        .label("Host speed (MIPS)")
        .means("The host CPU's speed for kernel code."),
    Param::real("workload.hosts.*.memcpy_ns_per_byte", (0.0, "no time"), (1e4, "engineering bound: 10 us per byte"))
        .kind("ttcp")
        .unit("ns/byte")
        .label("Memory copy (ns/byte)")
        .means("The host's cost of copying one byte in memory."),
    Param::choice("workload.hosts.*.isa.path", &["at_bus", "vl_chipset", "pci_bridge"], "the ISA paths of 1990s PCs: the chipset drives ISA, or a PCI-ISA bridge does")
        .kind("ttcp")
        .default("\"at_bus\" with isa given; no ISA bus without (a VAX)")
        .label("ISA path (at_bus; vl_chipset; pci_bridge)")
        .means("How the CPU reaches the ISA bus: the board's chipset drives it (an AT-bus or a VL board: no added delay), or a PCI-ISA bridge (adding bridge_ns to each access)."),
    Param::real("workload.hosts.*.isa.clock_mhz", (4.0, "ISA bus clock, about 4.77 MHz on the PC"), (16.0, "engineering bound: above any ISA clock"))
        .kind("ttcp")
        .unit("MHz")
        .label("ISA clock (MHz)")
        .means("The ISA bus clock."),
    Param::real("workload.hosts.*.isa.bridge_ns", (0.0, "no delay"), (10_000.0, "engineering bound: 10 us"))
        .kind("ttcp")
        .unit("ns")
        .default("required with path = \"pci_bridge\"")
        .label("PCI-ISA bridge delay (ns)")
        .means("What a PCI-ISA bridge adds to each ISA access."),
    Param::real("workload.hosts.*.pci.clock_mhz", (20.0, "engineering bound"), (66.0, "PCI 2.1: 66 MHz"))
        .kind("ttcp")
        .unit("MHz")
        .default("no PCI bus")
        .label("PCI clock (MHz)")
        .means("The PCI bus clock (for bus-master cards)."),
    Param::real("workload.hosts.*.pci.bytes_per_clock", (0.5, "engineering bound"), (8.0, "PCI: 64 bits per clock"))
        .kind("ttcp")
        .unit("bytes/clock")
        .label("PCI bytes per clock")
        .means("Bytes a PCI burst moves per clock."),
    Param::flag("workload.hosts.*.attached_processor")
        .kind("ttcp")
        .default("false")
        .label("Attached processor")
        .means("A second CPU runs user mode (the VAX-11/782)."),
    Param::real("workload.hosts.*.clock_tick_ms", (0.1, "engineering bound"), (1000.0, "engineering bound: a second"))
        .kind("ttcp")
        .unit("ms")
        .default("none (exact accounting)")
        .label("Clock tick (ms)")
        .means("4.2BSD's tick: CPU time is charged by whole ticks."),
    Param::text("workload.cards.*.name", "any text")
        .kind("ttcp")
        .default("the card's key")
        .label("Card")
        .means("The card's name in reports."),
    Param::real(
        "workload.cards.*.setup_ns",
        ZERO_NS,
        (
            1e7,
            "engineering bound: 10 ms on a UNIBUS card; an ISA or PCI card has adapter.setup_ns's bound (1 ms)",
        ),
    )
        .kind("ttcp")
        .unit("ns")
        .label("Transfer set-up (ns)")
        .means("Per-frame set-up of a transfer between host and card."),
    Param::int("workload.cards.*.transmit_buffers", (1, "one frame"), (256, "engineering bound"))
        .kind("ttcp")
        .unit("frames")
        .label("Driver queue (frames)")
        .means("Frames the driver holds for sending."),
    Param::choice(
        "workload.cards.*.engine",
        &["fifo_pio", "shared_memory", "bus_master", "unibus_dma"],
        "the copy engines this build models",
    )
    .kind("ttcp")
    .label("Copy engine")
    .means("How frames move between host and card: FIFO PIO (3C509), shared memory (SMC Ultra), PCI bus master (LANCE), UNIBUS DMA."),
    Param::int("workload.cards.*.tx_fifo_bytes", ONE_BUFFER, U32_MAX)
        .kind("ttcp")
        .unit("bytes")
        .default("required with engine = \"fifo_pio\"")
        .label("Transmit FIFO (bytes)")
        .means("The card's transmit FIFO."),
    Param::int("workload.cards.*.rx_fifo_bytes", ONE_BUFFER, U32_MAX)
        .kind("ttcp")
        .unit("bytes")
        .default("required with engine = \"fifo_pio\"")
        .label("Receive FIFO (bytes)")
        .means("The card's receive FIFO; it must hold a full frame."),
    Param::real("workload.cards.*.io_clocks", CLOCKS_MIN, CLOCKS_MAX)
        .kind("ttcp")
        .unit("clocks")
        .default("required with engine = \"fifo_pio\"")
        .label("I/O access (ISA clocks)")
        .means("One data-port access in ISA bus clocks (the card's wait states decide it)."),
    Param::int("workload.cards.*.ram_bytes", ONE_BUFFER, U32_MAX)
        .kind("ttcp")
        .unit("bytes")
        .default("required with engine = \"shared_memory\"")
        .label("Card RAM (bytes)")
        .means("The card's shared memory; its receive part must hold a full frame."),
    Param::int("workload.cards.*.tx_buffers", ONE_BUFFER, U32_MAX)
        .kind("ttcp")
        .unit("frames")
        .default("required with engine = \"shared_memory\"")
        .label("Transmit buffers (frames)")
        .means("Frames the card's memory holds for sending."),
    Param::real("workload.cards.*.mem_clocks", CLOCKS_MIN, CLOCKS_MAX)
        .kind("ttcp")
        .unit("clocks")
        .default("required with engine = \"shared_memory\"")
        .label("Memory access (ISA clocks)")
        .means("One shared-memory access in ISA bus clocks."),
    Param::int("workload.cards.*.tx_ring", ONE_BUFFER, U32_MAX)
        .kind("ttcp")
        .unit("descriptors")
        .default("required with engine = \"bus_master\"")
        .label("Transmit ring (descriptors)")
        .means("The bus master's transmit descriptor ring."),
    Param::int("workload.cards.*.rx_ring", ONE_BUFFER, U32_MAX)
        .kind("ttcp")
        .unit("descriptors")
        .default("required with engine = \"bus_master\"")
        .label("Receive ring (descriptors)")
        .means("The bus master's receive descriptor ring."),
    Param::real("workload.cards.*.request_ns", ZERO_NS, NS_1E7)
        .kind("ttcp")
        .unit("ns")
        .default("required with engine = \"unibus_dma\"")
        .label("Request cost (ns)")
        .means("CPU per frame for the card's requests (with queue: per message); 0 for none."),
    Param::int("workload.cards.*.tx_slots", (1, "one frame"), (64, "engineering bound"))
        .kind("ttcp")
        .unit("frames")
        .default("required with engine = \"unibus_dma\"")
        .label("Transmit slots (frames)")
        .means("Frames the UNIBUS card holds for sending."),
    Param::int("workload.cards.*.rx_bytes", ONE_BUFFER, U32_MAX)
        .kind("ttcp")
        .unit("bytes")
        .default("required with engine = \"unibus_dma\"")
        .label("Receive space (bytes)")
        .means("The UNIBUS card's receive space; it must hold a full frame."),
    Param::real("workload.cards.*.dma.word_ns", (750.0, "DEC UNIBUS: at most one word per 750 ns (REFERENCE-ttcp.md)"), (20_000.0, "engineering bound: 20 us"))
        .kind("ttcp")
        .unit("ns")
        .default("no dma table: the card's DMA is its transmission")
        .label("DMA word time (ns)")
        .means("Time of one UNIBUS DMA word."),
    Param::int("workload.cards.*.dma.burst_words", (1, "one word"), (16, "engineering bound"))
        .kind("ttcp")
        .unit("words")
        .label("DMA burst (words)")
        .means("Words per DMA burst."),
    Param::real("workload.cards.*.dma.burst_overhead_ns", ZERO_NS, (20_000.0, "engineering bound: 20 us"))
        .kind("ttcp")
        .unit("ns")
        .label("DMA burst overhead (ns)")
        .means("Bus arbitration time per DMA burst."),
    Param::real("workload.cards.*.command.latency_ns", ZERO_NS, NS_1E7)
        .kind("ttcp")
        .unit("ns")
        .default("no command handshake")
        .label("Command latency (ns)")
        .means("The card takes one command at a time (the NI1010A); needs a dma table."),
    Param::real("workload.cards.*.queue.take_up_ns", ZERO_NS, NS_1E7)
        .kind("ttcp")
        .unit("ns")
        .default("no message queues")
        .label("Queue take-up (ns)")
        .means("Time until the card takes up a queued request (the EXOS 204); needs dma, excludes command."),
    Param::choice("workload.cards.*.queue.take_up", &["fixed", "polled"], "the two take-up models: fixed, or uniform on [0, 2 x take_up_ns)")
        .kind("ttcp")
        .default("fixed")
        .label("Queue take-up (fixed; polled)")
        .means("The take-up time is fixed, or uniform on [0, 2 x take_up_ns)."),
    Param::real("workload.cards.*.queue.reply_ns", ZERO_NS, NS_1E7)
        .kind("ttcp")
        .unit("ns")
        .default("request_ns")
        .label("Reply cost (ns)")
        .means("CPU per reply taken from the card's queue."),
    Param::real("workload.cards.*.link.bit_rate_mbps", (0.01, "engineering bound"), (10.0, "engineering bound: the fastest link of the era"))
        .kind("ttcp")
        .unit("Mb/s")
        .default("no link: the card is on the Ethernet")
        .label("Link bit rate (Mb/s)")
        .means("The card's own point-to-point link (the PCL-11); both hosts' cards need one."),
    Param::int("workload.cards.*.link.overhead_bytes", (0, "no overhead"), (64, "engineering bound"))
        .kind("ttcp")
        .unit("bytes")
        .label("Link overhead (bytes)")
        .means("Bytes the link adds to each transfer."),
    Param::int("workload.cards.*.link.mtu_bytes", (68, "RFC 791: every host takes 68-byte datagrams"), (65_535, "RFC 791: 16-bit total length"))
        .kind("ttcp")
        .unit("bytes")
        .label("Link MTU (bytes)")
        .means("The interface's MTU on the link."),
    Param::flag("workload.cards.*.link.retry_if_busy")
        .kind("ttcp")
        .default("false")
        .label("Retry if busy")
        .means("The receiver takes one transfer per receive buffer armed; the sender retries meanwhile (the PCL-11B)."),
];
