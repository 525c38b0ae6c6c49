//! Keys of `[hosts]` and `[adapter]`: the computers and network cards of a LAN scenario
//! (`perform3`, `lanperf`). Units: MIPS, ns, ns per byte, bytes, frames.

use super::{Param, Section};

pub const HOSTS: Section = Section {
    title: "[hosts]",
    about: "The server and the workstations of a LAN scenario (workloads perform3 and \
            lanperf), as `[hosts.server]` and `[hosts.workstation]`. Usually from a hardware \
            file.",
    params: HOSTS_PARAMS,
};

const MIPS_MIN: (f64, &str) = (
    0.1,
    "engineering bound: an 8088 PC at 4.77 MHz runs about 0.33 MIPS; 0.1 leaves room for slower machines",
);
const MIPS_MAX: (f64, &str) = (
    200.0,
    "engineering bound: a mid-1990s Pentium runs some 100-200 MIPS",
);
const MEMCPY_MIN: (f64, &str) = (0.0, "a copy takes no negative time");
const MEMCPY_MAX: (f64, &str) = (
    10_000.0,
    "engineering bound: REP MOVSB on an 8088 is about 3.6 us per byte; 10 us covers XMS moves with mode switches",
);

const CLOCK_MIN: (f64, &str) = (4.0, "engineering bound: below the PC/XT's 4.77 MHz bus");
const CLOCK_MAX: (f64, &str) = (
    12.0,
    "engineering bound: AT bus clocks of 386/486 boards are 6-8.33 MHz; some ran ISA to 10-12 MHz",
);
const RECOVERY_MIN: (i64, &str) = (0, "no recovery inserted");
const RECOVERY_MAX: (i64, &str) = (
    16,
    "engineering bound: BIOS setups of 386/486 chipsets offer up to 8 bus clocks",
);

const HOSTS_PARAMS: &[Param] = &[
    Param::text("hosts.server.name", "any text")
        .default("\"server\"")
        .label("Server")
        .means("The server's name in reports."),
    Param::real("hosts.server.mips", MIPS_MIN, MIPS_MAX)
        .unit("MIPS")
        .label("Server speed (MIPS)")
        .means("The server CPU's speed; every CPU cost in kinstr is divided by it."),
    Param::real("hosts.server.memcpy_ns_per_byte", MEMCPY_MIN, MEMCPY_MAX)
        .unit("ns/byte")
        .label("Server memory copy (ns/byte)")
        .means("The server's cost of moving one byte of file data in memory (cache to packet)."),
    Param::choice(
        "hosts.server.isa.path",
        &["at_bus", "vl_chipset"],
        "a file-service host's card sits on an ISA bus its chipset drives",
    )
    .default("\"at_bus\"")
    .label("Server ISA path (at_bus; vl_chipset)")
    .means("How the server's CPU reaches its card's ISA bus: the board's chipset runs the AT bus, or a VL board's chipset drives it (the same bus cycle here)."),
    Param::real("hosts.server.isa.clock_mhz", CLOCK_MIN, CLOCK_MAX)
        .unit("MHz")
        .default("no ISA bus: the card's data-port access times are then given in [adapter]")
        .label("Server AT bus clock (MHz)")
        .means("The server's ISA bus clock (BCLK). With it the card's 8- and 16-bit data-port accesses are derived from the AT bus cycle: (2 + wait states + recovery) clocks plus the card's ready time."),
    Param::int("hosts.server.isa.io_recovery_clocks_8bit", RECOVERY_MIN, RECOVERY_MAX)
        .unit("clocks")
        .default("0")
        .label("Server 8-bit I/O recovery (clocks)")
        .means("Bus clocks the server's chipset inserts after each 8-bit I/O cycle (BIOS setup: 8-bit I/O recovery)."),
    Param::int("hosts.server.isa.io_recovery_clocks_16bit", RECOVERY_MIN, RECOVERY_MAX)
        .unit("clocks")
        .default("0")
        .label("Server 16-bit I/O recovery (clocks)")
        .means("Bus clocks the server's chipset inserts after each 16-bit I/O cycle (BIOS setup: 16-bit I/O recovery)."),
    Param::text("hosts.workstation.name", "any text")
        .default("\"workstation\"")
        .label("Workstation")
        .means("The workstations' name in reports."),
    Param::real("hosts.workstation.mips", MIPS_MIN, MIPS_MAX)
        .unit("MIPS")
        .label("Workstation speed (MIPS)")
        .means("A workstation CPU's speed."),
    Param::real("hosts.workstation.memcpy_ns_per_byte", MEMCPY_MIN, MEMCPY_MAX)
        .unit("ns/byte")
        .label("Workstation memory copy (ns/byte)")
        .means("A workstation's cost of moving one byte in memory."),
    Param::choice(
        "hosts.workstation.isa.path",
        &["at_bus", "vl_chipset"],
        "a file-service host's card sits on an ISA bus its chipset drives",
    )
    .default("\"at_bus\"")
    .label("Workstation ISA path (at_bus; vl_chipset)")
    .means("How the workstation's CPU reaches its card's ISA bus: the board's chipset runs the AT bus, or a VL board's chipset drives it (the same bus cycle here)."),
    Param::real("hosts.workstation.isa.clock_mhz", CLOCK_MIN, CLOCK_MAX)
        .unit("MHz")
        .default("no ISA bus: the card's data-port access times are then given in [adapter]")
        .label("Workstation AT bus clock (MHz)")
        .means("The workstation's ISA bus clock (BCLK). With it the card's 8- and 16-bit data-port accesses are derived from the AT bus cycle: (2 + wait states + recovery) clocks plus the card's ready time."),
    Param::int("hosts.workstation.isa.io_recovery_clocks_8bit", RECOVERY_MIN, RECOVERY_MAX)
        .unit("clocks")
        .default("0")
        .label("Workstation 8-bit I/O recovery (clocks)")
        .means("Bus clocks the workstation's chipset inserts after each 8-bit I/O cycle (BIOS setup: 8-bit I/O recovery)."),
    Param::int("hosts.workstation.isa.io_recovery_clocks_16bit", RECOVERY_MIN, RECOVERY_MAX)
        .unit("clocks")
        .default("0")
        .label("Workstation 16-bit I/O recovery (clocks)")
        .means("Bus clocks the workstation's chipset inserts after each 16-bit I/O cycle (BIOS setup: 16-bit I/O recovery)."),
];

pub const ADAPTER: Section = Section {
    title: "[adapter]",
    about: "The network card in every node of a LAN scenario and the settings of its AEX \
            driver; `[adapter.workstation]` gives what differs on the workstations. The \
            data-port access time of the card's bus width is either given (io_access_ns_8bit, \
            _16bit or _32bit) or, for 8 and 16 bits, derived from the AT bus cycle where a \
            host gives an isa clock_mhz.",
    params: ADAPTER_PARAMS,
};

const IO_MIN: (f64, &str) = (
    10.0,
    "engineering bound: below any ISA cycle (at least 125 ns at 8 MHz with no wait state)",
);
const IO_MAX: (f64, &str) = (100_000.0, "engineering bound: 100 us is far slower than any card");
const SETUP_MIN: (f64, &str) = (0.0, "no set-up at all");
const SETUP_MAX: (f64, &str) = (
    1_000_000.0,
    "engineering bound: 1 ms, a thousand ISA register writes",
);
const TX_MIN: (i64, &str) = (2, "AEX driver, TRANSMIT_BUFFERS range");
const TX_MAX: (i64, &str) = (80, "AEX driver, TRANSMIT_BUFFERS range");
const PKT_MIN: (i64, &str) = (574, "AEX driver, PACKET_SIZE range");
const PKT_MAX: (i64, &str) = (
    4300,
    "AEX driver, PACKET_SIZE range; above 1500 only with medium.allow_oversize (frames over 1518 bytes)",
);

const ADAPTER_PARAMS: &[Param] = &[
    Param::text("adapter.name", "any text")
        .default("\"adapter\"")
        .label("Adapter")
        .means("The card's name in reports."),
    Param::choice(
        "adapter.engine",
        &["programmed_io"],
        "the card engine the file service's model has (NE1000/NE2000 class); a TCP/IP host's engines are refused by name",
    )
    .default("programmed_io")
    .label("Card engine")
    .means("How frames move between host and card: programmed I/O through the data port, the CPU busy throughout."),
    Param::ints(
        "adapter.bus_width",
        &[8, 16, 32],
        "ISA 8- and 16-bit data ports; 32 for EISA/VL cards",
    )
        .unit("bits")
        .label("Bus width (bits)")
        .means("Width of the data-port accesses: 8, 16 or 32 bits."),
    Param::real("adapter.io_access_ns_8bit", IO_MIN, IO_MAX)
        .unit("ns")
        .default("required when bus_width = 8")
        .label("8-bit data-port access (ns)")
        .means("Time of one 8-bit data-port access (OUTSB/INSB) on the server."),
    Param::real("adapter.io_access_ns_16bit", IO_MIN, IO_MAX)
        .unit("ns")
        .default("required when bus_width = 16")
        .label("16-bit data-port access (ns)")
        .means("Time of one 16-bit data-port access (OUTSW/INSW) on the server."),
    Param::real("adapter.io_access_ns_32bit", IO_MIN, IO_MAX)
        .unit("ns")
        .default("required when bus_width = 32")
        .label("32-bit data-port access (ns)")
        .means("Time of one 32-bit data-port access on the server."),
    Param::int("adapter.wait_states_8bit", (0, "a zero-wait-state (NOWS) card"), (15, "engineering bound"))
        .unit("clocks")
        .default("4 (the AT's standard 8-bit I/O cycle)")
        .label("8-bit wait states (clocks)")
        .means("Wait states of the card's 8-bit I/O cycle, where a host gives an isa clock_mhz."),
    Param::int("adapter.wait_states_16bit", (0, "a zero-wait-state (NOWS) card"), (15, "engineering bound"))
        .unit("clocks")
        .default("1 (the AT's standard 16-bit I/O cycle)")
        .label("16-bit wait states (clocks)")
        .means("Wait states of the card's 16-bit I/O cycle, where a host gives an isa clock_mhz."),
    Param::real("adapter.ready_ns", (0.0, "the card never holds IOCHRDY"), (5_000.0, "engineering bound: far beyond any card's hold per access"))
        .unit("ns")
        .default("0")
        .label("Card ready time (ns)")
        .means("Time the card holds IOCHRDY per data-port access beyond its wait states (the DP8390's remote DMA fetching from buffer RAM); the same in both widths and on every host."),
    Param::real("adapter.setup_ns", SETUP_MIN, SETUP_MAX)
        .unit("ns")
        .label("Transfer set-up (ns)")
        .means("Per-frame set-up of a transfer between host and card (register writes, driver code)."),
    Param::choice(
        "adapter.transmit_length",
        &["frame", "data", "message"],
        "hypotheses for the AEX driver's transmit byte count (its switch notes: several small and several large buffers)",
    )
    .default("frame")
    .label("Frames sent a large buffer long (frame: none; data; message)")
    .means("The byte count given to the transmit command: each frame's own, PACKET_SIZE for file data, or PACKET_SIZE for every packet of a message."),
    Param::choice(
        "adapter.send_copy",
        &["queued", "at_once", "when_idle"],
        "hypotheses for when the AEX driver copies a packet into the card",
    )
    .default("queued")
    .label("When the driver copies a frame into the card (queued; at_once; when_idle)")
    .means("When a packet handed to the driver is copied into the card: behind queued NOS work, inside the send call, or only when the transmitter is idle."),
    Param::int(
        "adapter.ram_bytes",
        (1024, "engineering bound: each half must still hold one frame (checked)"),
        (1 << 20, "engineering bound: 1 MiB, far above any ISA card's buffer"),
    )
    .unit("bytes")
    .label("Card buffer RAM (bytes)")
    .means("The card's buffer memory, split in halves for transmit and receive."),
    Param::int(
        "adapter.page_bytes",
        (64, "engineering bound"),
        (4096, "engineering bound"),
    )
    .unit("bytes")
    .default("256 (the DP8390's buffer page)")
    .label("Buffer page (bytes)")
    .means("The unit in which the card's receive ring is allocated."),
    Param::int("adapter.transmit_buffers", TX_MIN, TX_MAX)
        .unit("frames")
        .label("AEX TRANSMIT_BUFFERS (frames)")
        .means("The AEX driver's TRANSMIT_BUFFERS: packets it can hold for sending."),
    Param::int("adapter.packet_size", PKT_MIN, PKT_MAX)
        .unit("bytes")
        .label("AEX PACKET_SIZE (bytes)")
        .means("The AEX driver's PACKET_SIZE: the largest packet of data, frame header and FCS excluded."),
    Param::ints(
        "adapter.workstation.bus_width",
        &[8, 16, 32],
        "ISA 8- and 16-bit data ports; 32 for EISA/VL cards",
    )
    .unit("bits")
    .default("adapter.bus_width")
    .label("Workstation bus width (bits)")
    .means("The workstations' cards in another mode than the server's (e.g. a 16-bit server with 8-bit workstations)."),
    Param::ints(
        "adapter.workstation.bus_widths",
        &[8, 16, 32],
        "ISA 8- and 16-bit data ports; 32 for EISA/VL cards",
    )
    .unit("bits")
    .default("adapter.workstation.bus_width for every workstation")
    .list()
    .label("Workstation bus widths (bits, one per workstation)")
    .means("Each workstation's card mode, in node order, one entry per workstation (e.g. [8, 8, 8, 16, 16]: three 8-bit cards and two 16-bit ones); replaces adapter.workstation.bus_width."),
    Param::int("adapter.workstation.transmit_buffers", TX_MIN, TX_MAX)
        .unit("frames")
        .default("adapter.transmit_buffers")
        .label("Workstation AEX TRANSMIT_BUFFERS (frames)")
        .means("TRANSMIT_BUFFERS on the workstations."),
    Param::int("adapter.workstation.packet_size", PKT_MIN, PKT_MAX)
        .unit("bytes")
        .default("adapter.packet_size")
        .label("Workstation AEX PACKET_SIZE (bytes)")
        .means("PACKET_SIZE on the workstations."),
    Param::real("adapter.workstation.io_access_ns_8bit", IO_MIN, IO_MAX)
        .unit("ns")
        .default("adapter.io_access_ns_8bit")
        .label("Workstation 8-bit data-port access (ns)")
        .means("One 8-bit data-port access on a workstation (another CPU, chipset and bus clock)."),
    Param::real("adapter.workstation.io_access_ns_16bit", IO_MIN, IO_MAX)
        .unit("ns")
        .default("adapter.io_access_ns_16bit")
        .label("Workstation 16-bit data-port access (ns)")
        .means("One 16-bit data-port access on a workstation."),
    Param::real("adapter.workstation.io_access_ns_32bit", IO_MIN, IO_MAX)
        .unit("ns")
        .default("adapter.io_access_ns_32bit")
        .label("Workstation 32-bit data-port access (ns)")
        .means("One 32-bit data-port access on a workstation."),
    Param::real("adapter.workstation.setup_ns", SETUP_MIN, SETUP_MAX)
        .unit("ns")
        .default("adapter.setup_ns")
        .label("Workstation transfer set-up (ns)")
        .means("Per-frame transfer set-up on a workstation."),
];
