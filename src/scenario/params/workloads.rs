//! Keys of `[workload]` for the kinds `saturate`, `traffic`, `perform3` and `lanperf` (the `ttcp`
//! kind has its own files, [`super::ttcp`] and [`super::stack`]). Units: seconds, ms,
//! bytes, kinstr.

use super::{Param, Section};
use crate::ether::consts::{MAX_OVERSIZE_FRAME_BYTES, MIN_FRAME_BYTES};
use crate::workload::lanperf::params::{BLOCK_BYTES, FILE_BLOCKS, TEST_S};

const STATIONS_1024: (i64, &str) = (1024, "802.3 8.1.2: at most 1024 stations in a collision domain");
const STATIONS_1023: (i64, &str) = (
    1023,
    "802.3 8.1.2: 1024 stations in a collision domain, one of them the server",
);

pub const WORKLOAD: Section = Section {
    title: "[workload]",
    about: "The traffic of the run. `kind` picks the workload; the other keys of the table \
            are the kind's own, below.",
    params: &[KIND],
};

pub const SATURATE: Section = Section {
    title: "[workload] kind = \"saturate\"",
    about: "Always-backlogged stations on the bare segment: the MAC and the cable alone. With \
            destination = \"sink\" one silent station is added at the far end of the segment.",
    params: SATURATE_PARAMS,
};

/// The workload kinds this build knows.
pub const KINDS: &[&str] = &["saturate", "traffic", "perform3", "lanperf", "ttcp", "shared"];

/// `workload.kind`, shared by every kind.
const KIND: Param = Param::choice("workload.kind", KINDS, "the workload kinds this build models")
    .label("Workload")
    .means("Which traffic runs; the other [workload] keys depend on it.");

const SATURATE_PARAMS: &[Param] = &[
    Param::int("workload.stations", (1, "one sender"), STATIONS_1024)
        .kind("saturate")
        .unit("stations")
        .label("Stations")
        .means("Sending stations, each always with a frame queued."),
    Param::int(
        "workload.frame_bytes",
        (MIN_FRAME_BYTES as i64, "802.3 4.4.2 minFrameSize"),
        (
            MAX_OVERSIZE_FRAME_BYTES as i64,
            "802.3 4.4.2 maxUntaggedFrameSize 1518; 4318 (AEX PACKET_SIZE 4300) with medium.allow_oversize",
        ),
    )
    .kind("saturate")
    .unit("bytes")
    .default("1518")
    .label("Frame size (bytes, header to FCS)")
    .means("Size of every frame, destination address to FCS."),
    Param::choice(
        "workload.destination",
        &["sink", "round_robin"],
        "the two traffic patterns this workload models",
    )
    .kind("saturate")
    .default("sink")
    .label("Destination (sink; round_robin)")
    .means("All stations send to one silent sink, or each to the other senders in turn (needs 2 or more)."),
    Param::real_above(
        "workload.duration_s",
        (0.0, "a run lasts some time"),
        (
            3600.0,
            "engineering bound: an hour; the event budget may refuse less",
        ),
    )
    .kind("saturate")
    .unit("s")
    .default("10")
    .label("Simulated duration (s)")
    .means("Simulated time of the run."),
];

pub const TRAFFIC: Section = Section {
    title: "[workload] kind = \"traffic\"",
    about: "Open-loop stations on the bare segment, offering a load of mixed frame sizes (after \
            Boggs, Mogul and Kent 1988). Each station's mean interval between frames is \
            stations x mean frame bits / (offered_load x bit rate), counting the frame's bits \
            header to FCS (not preamble or gap). Frames arriving at a full transmit queue are \
            dropped. `sizes` is a table with its own `kind`: fixed (bytes), uniform (min, max), \
            bimodal (small, large, small_fraction) or table (bytes, weights).",
    params: TRAFFIC_PARAMS,
};

const FRAME_MIN: (i64, &str) = (MIN_FRAME_BYTES as i64, "802.3 4.4.2 minFrameSize");
const FRAME_MAX: (i64, &str) = (
    MAX_OVERSIZE_FRAME_BYTES as i64,
    "802.3 4.4.2 maxUntaggedFrameSize 1518; 4318 (AEX PACKET_SIZE 4300) with medium.allow_oversize",
);

const TRAFFIC_PARAMS: &[Param] = &[
    Param::int("workload.stations", (1, "one sender"), STATIONS_1024)
        .kind("traffic")
        .unit("stations")
        .label("Stations")
        .means("Sending stations, each generating frames on its own schedule."),
    Param::choice(
        "workload.destination",
        &["sink", "round_robin"],
        "the two traffic patterns this workload models",
    )
    .kind("traffic")
    .default("sink")
    .label("Destination (sink; round_robin)")
    .means("All stations send to one silent sink, or each to the other senders in turn (needs 2 or more)."),
    Param::choice(
        "workload.arrivals",
        &["poisson", "constant"],
        "the two arrival processes this workload models",
    )
    .kind("traffic")
    .default("poisson")
    .label("Arrivals (poisson; constant)")
    .means("Exponential intervals between a station's frames, or a constant interval from a random phase."),
    Param::real_above(
        "workload.offered_load",
        (0.0, "some load: nothing to measure without it"),
        (
            100.0,
            "engineering bound: 100 times the bit rate, so that each of up to 100 stations can \
             offer more than the whole wire carries and its queue never empties (a backlogged \
             station, as in `saturate`)",
        ),
    )
    .kind("traffic")
    .label("Offered load (fraction of the bit rate)")
    .means("Frame bits (header to FCS) all stations generate per second, over the bit rate; above 1 the wire is overloaded; above the number of stations every station alone offers more than the wire, so every queue stays full."),
    Param::choice(
        "workload.sizes.kind",
        &["fixed", "uniform", "bimodal", "table"],
        "the frame size mixes this workload models",
    )
    .kind("traffic")
    .label("Frame size mix")
    .means("How each frame's size is drawn: one size, uniform over a range, two sizes, or an empirical table."),
    Param::int("workload.sizes.bytes", FRAME_MIN, FRAME_MAX)
        .kind("traffic")
        .unit("bytes")
        .label("Frame size (bytes, header to FCS)")
        .means("fixed: the one size; table: the list of sizes (1 to 256 of them), one weight each."),
    Param::int("workload.sizes.min", FRAME_MIN, FRAME_MAX)
        .kind("traffic")
        .unit("bytes")
        .label("Smallest frame (bytes, header to FCS)")
        .means("uniform: the smallest size drawn."),
    Param::int("workload.sizes.max", FRAME_MIN, FRAME_MAX)
        .kind("traffic")
        .unit("bytes")
        .label("Largest frame (bytes, header to FCS)")
        .means("uniform: the largest size drawn (at least min)."),
    Param::int("workload.sizes.small", FRAME_MIN, FRAME_MAX)
        .kind("traffic")
        .unit("bytes")
        .default("64")
        .label("Small frame (bytes, header to FCS)")
        .means("bimodal: the small size."),
    Param::int("workload.sizes.large", FRAME_MIN, FRAME_MAX)
        .kind("traffic")
        .unit("bytes")
        .default("1518")
        .label("Large frame (bytes, header to FCS)")
        .means("bimodal: the large size."),
    Param::real(
        "workload.sizes.small_fraction",
        (0.0, "all large"),
        (1.0, "all small"),
    )
    .kind("traffic")
    .default("0.5")
    .label("Share of small frames (fraction)")
    .means("bimodal: the probability that a frame is small."),
    Param::real(
        "workload.sizes.weights",
        (0.0, "a size never drawn"),
        (1.0e12, "engineering bound"),
    )
    .kind("traffic")
    .list()
    .label("Size weights")
    .means("table: the relative frequency of each size of bytes (any scale; their sum must be positive)."),
    Param::int(
        "workload.queue_frames",
        (1, "the frame being sent"),
        (4096, "engineering bound"),
    )
    .kind("traffic")
    .unit("frames")
    .default("16")
    .label("Transmit queue (frames)")
    .means("Frames a station holds, the one being sent included; one arriving at a full queue is dropped."),
    Param::real_above(
        "workload.duration_s",
        (0.0, "a run lasts some time"),
        (
            3600.0,
            "engineering bound: an hour; the event budget may refuse less",
        ),
    )
    .kind("traffic")
    .unit("s")
    .default("10")
    .label("Simulated duration (s)")
    .means("Simulated time of the run."),
];

pub const PERFORM3: Section = Section {
    title: "[workload] kind = \"perform3\"",
    about: "The PERFORM3 synchronized read test of the Artisoft bulletin. Needs [hosts], \
            [adapter] and [nos]. The server is station 0; the workstations follow it.",
    params: PERFORM3_PARAMS,
};

const WINDOW_MAX: (f64, &str) = (3600.0, "engineering bound: an hour per block size");

const PERFORM3_PARAMS: &[Param] = &[
    Param::int("workload.workstations", (1, "one workstation"), STATIONS_1023)
        .kind("perform3")
        .unit("workstations")
        .label("Workstations")
        .means("Workstations reading from the server at once."),
    Param::int(
        "workload.block_sizes",
        (1, "one byte"),
        (65_535, "PERFORM3 is a DOS program: 16-bit byte counts"),
    )
    .kind("perform3")
    .unit("bytes")
    .list()
    .label("Block size (bytes)")
    .means("The block sizes read, one measurement each (1 to 256 of them)."),
    Param::real("workload.warmup_s", (0.0, "no warm-up"), WINDOW_MAX)
        .kind("perform3")
        .unit("s")
        .default("1")
        .label("Warm-up per block size (s)")
        .means("Simulated time per block size before the measurement, not counted."),
    Param::real_above(
        "workload.measure_s",
        (0.0, "a measurement lasts some time"),
        WINDOW_MAX,
    )
    .kind("perform3")
    .unit("s")
    .default("5")
    .label("Measurement per block size (s)")
    .means("Simulated time measured per block size."),
    Param::real(
        "workload.app_jitter",
        (0.0, "no variation"),
        (1.0, "engineering bound: +-100%"),
    )
    .kind("perform3")
    .default("0.5")
    .label("Application jitter (fraction)")
    .means("Relative variation of the application's work per block (keeps stations from phase-locking)."),
    Param::real(
        "workload.start_skew_ms",
        (0.0, "all start together"),
        (60_000.0, "engineering bound: a minute"),
    )
    .kind("perform3")
    .unit("ms")
    .default("10")
    .label("Start skew (ms)")
    .means("The stations start within this span."),
];

pub const SHARED: Section = Section {
    title: "[workload] kind = \"shared\"",
    about: "Applications sharing one cable: PERFORM3 on file services' workstations, ttcp \
            transfers between TCP/IP hosts, and groups of background frame sources, two \
            applications or more. The scenario's own file service needs [hosts], [adapter] \
            and [nos]; further file services come from the perform3 scenarios \
            `file_services` links, the ttcp hosts from the ttcp scenarios `ttcp` links. \
            Stations: each file service's server and workstations, each transfer's two ttcp \
            hosts, then each background group's senders and sink.",
    params: SHARED_PARAMS,
};

const SHARED_PARAMS: &[Param] = &[
    Param::int("workload.workstations", (0, "a server with no clients: no file-service traffic"), STATIONS_1023)
        .kind("shared")
        .unit("workstations")
        .default("none: no file service")
        .label("Workstations")
        .means("Workstations running PERFORM3 against the server, beside the other applications; with it, block_size and the file service's [hosts], [adapter] and [nos]."),
    Param::int(
        "workload.block_size",
        (1, "one byte"),
        (65_535, "PERFORM3 is a DOS program: 16-bit byte counts"),
    )
    .kind("shared")
    .unit("bytes")
    .default("required with workstations")
    .label("Block size (bytes)")
    .means("The block size PERFORM3 reads."),
    Param::text(
        "workload.ttcp",
        "a path, relative to this file, of a scenario of kind ttcp on a CSMA/CD medium at this cable's bit rate, or a list of such paths (a transfer each)",
    )
    .kind("shared")
    .default("none: no ttcp transfer")
    .label("ttcp scenario")
    .means("Each ttcp transfer's hosts, cards, stack and -l (its own cable is not used: the transfer runs on this one, on two hosts of its own after the file service's, without end, measured over the window)."),
    Param::text(
        "workload.file_services",
        "a list of paths, relative to this file, of scenarios of kind perform3 with one block size, no disk and this cable's bit rate (a file service each)",
    )
    .list()
    .kind("shared")
    .default("none: no file service but the scenario's own")
    .label("File services")
    .means("Each file service's server, workstations, hosts, cards, NOS and block size (its own cable and times are not used: the service runs on this one, on stations of its own after the scenario's own service, measured over the window)."),
    Param::text(
        "workload.background",
        "[[workload.background]] tables, each the keys of a traffic or a saturate workload with its kind and without duration_s",
    )
    .list()
    .kind("shared")
    .default("none")
    .label("Background groups")
    .means("Groups of bare stations loading the cable beside the applications: open-loop traffic (Poisson or constant arrivals, fixed, uniform, bimodal or tabled sizes) or always-backlogged (saturate) stations. They run for the whole run."),
    Param::real("workload.warmup_s", (0.0, "no warm-up"), WINDOW_MAX)
        .kind("shared")
        .unit("s")
        .default("1")
        .label("Warm-up (s)")
        .means("Simulated time before the measurement, not counted."),
    Param::real_above(
        "workload.measure_s",
        (0.0, "a measurement lasts some time"),
        WINDOW_MAX,
    )
    .kind("shared")
    .unit("s")
    .default("5")
    .label("Measurement (s)")
    .means("Simulated time measured."),
];

pub const LANPERF: Section = Section {
    title: "[workload] kind = \"lanperf\"",
    about: "PC Week's LANPERF 1.1 on a LAN, with the server's disk ([workload.disk]) and \
            LANCACHE ([workload.cache]), or the local baseline ([workload.local]). Needs \
            [hosts], [adapter] and [nos]. The LANPERF options are given either as keys \
            (test_s, block, file_blocks, tests, sharing) or as `options`, not both.",
    params: LANPERF_PARAMS,
};

const KINSTR_MAX: (f64, &str) = (100_000.0, "engineering bound: 0.1 G instructions");
const DISK_MS_MAX: (f64, &str) = (1000.0, "engineering bound: a second");

const LANPERF_PARAMS: &[Param] = &[
    Param::int("workload.stations", (1, "one workstation"), STATIONS_1023)
        .kind("lanperf")
        .unit("stations")
        .label("Stations")
        .means("Workstations running LANPERF (with servers, at most 1024 stations)."),
    Param::int("workload.servers", (1, "one server"), (8, "engineering bound"))
        .kind("lanperf")
        .unit("servers")
        .default("1")
        .label("Servers")
        .means("File servers; the workstations are assigned to them in turn."),
    Param::text(
        "workload.options",
        "LANPERF's command line: t#, b#, f#, r, w and a sharing letter pair",
    )
    .kind("lanperf")
    .default("none (the keys below)")
    .label("LANPERF options")
    .means("LANPERF's own command line (\"t30 b64 f10 r w drw\"), instead of the keys."),
    Param::int(
        "workload.test_s",
        (TEST_S.0 as i64, "LANPERF option t#"),
        (TEST_S.1 as i64, "LANPERF option t#"),
    )
    .kind("lanperf")
    .unit("s")
    .default("60")
    .label("Test length (s)")
    .means("Length of each timed test (option t)."),
    Param::int(
        "workload.block",
        (BLOCK_BYTES.0 as i64, "LANPERF option b#"),
        (BLOCK_BYTES.1 as i64, "LANPERF option b#"),
    )
    .kind("lanperf")
    .unit("bytes")
    .default("512")
    .label("Block size (bytes)")
    .means("Bytes per read or write call (option b)."),
    Param::int(
        "workload.file_blocks",
        (FILE_BLOCKS.0 as i64, "LANPERF option f#"),
        (FILE_BLOCKS.1 as i64, "LANPERF option f#"),
    )
    .kind("lanperf")
    .unit("blocks")
    .default("64")
    .label("File size (blocks)")
    .means("Size of each station's test file (option f)."),
    Param::choice("workload.tests", &["write", "read"], "LANPERF options w and r")
        .kind("lanperf")
        .list()
        .default("[\"write\", \"read\"]")
        .label("Tests")
        .means("The timed tests, either or both (run write first)."),
    Param::choice(
        "workload.sharing",
        &[
            "compatibility",
            "deny read",
            "deny write",
            "deny read/write",
            "deny none",
        ],
        "DOS file sharing modes, LANPERF's sharing options",
    )
    .kind("lanperf")
    .default("compatibility")
    .label("Sharing mode")
    .means("The DOS sharing mode the test files are opened in."),
    Param::real("workload.block_kinstr", (0.0, "no work"), KINSTR_MAX)
        .kind("lanperf")
        .unit("kinstr")
        .default("20")
        .label("Work per block (kinstr)")
        .means("LANPERF's and DOS's work per block on a workstation."),
    Param::real(
        "workload.poll_ms",
        (0.0, "no wait"),
        (60_000.0, "engineering bound: a minute"),
    )
    .kind("lanperf")
    .unit("ms")
    .default("55")
    .label("GO poll interval (ms)")
    .means("How often a waiting station looks for LANPERF.GO."),
    Param::real("workload.disk.avg_seek_ms", (0.0, "no seek"), DISK_MS_MAX)
        .kind("lanperf")
        .unit("ms")
        .default("16 (Seagate ST3144A)")
        .label("Average seek (ms)")
        .means("The server disk's average seek time."),
    Param::real("workload.disk.track_to_track_ms", (0.0, "no seek"), DISK_MS_MAX)
        .kind("lanperf")
        .unit("ms")
        .default("4 (Seagate ST3144A)")
        .label("Track-to-track seek (ms)")
        .means("The server disk's seek to the next track."),
    Param::int(
        "workload.disk.rpm",
        (1, "a turning disk"),
        (20_000, "engineering bound: above any drive of the era"),
    )
    .kind("lanperf")
    .unit("rpm")
    .default("3211 (Seagate ST3144A)")
    .label("Disk speed (rpm)")
    .means("The server disk's rotation speed."),
    Param::real(
        "workload.disk.media_mbit_s",
        (0.1, "engineering bound"),
        (1000.0, "engineering bound"),
    )
    .kind("lanperf")
    .unit("Mb/s")
    .default("15 (Seagate ST3144A)")
    .label("Media rate (Mb/s)")
    .means("The server disk's rate off the media."),
    Param::real("workload.disk.controller_ms", (0.0, "no overhead"), DISK_MS_MAX)
        .kind("lanperf")
        .unit("ms")
        .default("1")
        .label("Controller overhead (ms)")
        .means("The disk controller's overhead per command."),
    Param::real(
        "workload.disk.capacity_mb",
        (0.0, "an empty disk"),
        (1.0e6, "engineering bound: a terabyte"),
    )
    .kind("lanperf")
    .unit("MB")
    .default("130 (Seagate ST3144A)")
    .label("Disk capacity (MB)")
    .means("The server disk's capacity; the stations' files must fit."),
    Param::real(
        "workload.cache.size_kb",
        (0.0, "no cache"),
        (16.0e6, "engineering bound: 16 GB"),
    )
    .kind("lanperf")
    .unit("KB")
    .default("1024")
    .label("Cache size (KB)")
    .means("LANCACHE's size on the server."),
    Param::int(
        "workload.cache.block_bytes",
        (512, "one DOS sector"),
        (65_536, "engineering bound"),
    )
    .kind("lanperf")
    .unit("bytes")
    .default("4096")
    .label("Cache block (bytes)")
    .means("LANCACHE's block size."),
    Param::int(
        "workload.cache.read_ahead_bytes",
        (0, "no read-ahead"),
        (1 << 20, "engineering bound: 1 MiB"),
    )
    .kind("lanperf")
    .unit("bytes")
    .default("4096")
    .label("Read-ahead (bytes)")
    .means("Bytes LANCACHE reads beyond a miss."),
    Param::choice(
        "workload.cache.write_policy",
        &["write-through", "delayed"],
        "LANCACHE's write modes",
    )
    .kind("lanperf")
    .default("write-through")
    .label("Cache write policy (write-through; delayed)")
    .means("Writes go to the disk at once, or are delayed and flushed every flush_s."),
    Param::real(
        "workload.cache.flush_s",
        (0.01, "engineering bound"),
        (3600.0, "engineering bound: an hour"),
    )
    .kind("lanperf")
    .unit("s")
    .default("3.3")
    .label("Cache flush interval (s)")
    .means("How often a delayed-write cache writes its dirty blocks."),
    Param::flag("workload.cache.delay_shared_writes")
        .kind("lanperf")
        .default("false")
        .label("Delay writes to shared files")
        .means("Whether writes to a file others may write (deny read, deny none) may be delayed too."),
    Param::choice(
        "workload.local.device",
        &["ram-disk", "hard-disk"],
        "the seed's local baselines",
    )
    .kind("lanperf")
    .label("Local device (ram-disk; hard-disk)")
    .means("The local baseline's drive: a RAM disk, or the [workload.disk] drive with no cache."),
    Param::flag("workload.local.redirector")
        .kind("lanperf")
        .label("Redirector loaded")
        .means("Whether the redirector is loaded in the local baseline (it examines every call)."),
    Param::real("workload.local.dos_kinstr", (0.0, "no work"), KINSTR_MAX)
        .kind("lanperf")
        .unit("kinstr")
        .default("5 (assumed)")
        .label("DOS work per call (kinstr)")
        .means("DOS's file system work per call in the local baseline."),
    Param::real("workload.local.redirector_kinstr", (0.0, "no work"), KINSTR_MAX)
        .kind("lanperf")
        .unit("kinstr")
        .default("nos.costs.redir_request_kinstr")
        .label("Redirector work per call (kinstr)")
        .means("The redirector's examination of a local call."),
    Param::text(
        "workload.background",
        "[[workload.background]] tables, each the keys of a traffic or a saturate workload with its kind and without duration_s",
    )
    .list()
    .kind("lanperf")
    .default("none")
    .label("Background groups")
    .means("Groups of bare stations loading the cable beside the file service for the whole run, after its stations (not with a local baseline); reported over the whole run."),
    Param::text(
        "workload.file_services",
        "a list of paths, relative to this file, of scenarios of kind perform3 (one block size, no disk) or lanperf (on the network, nothing beside it), at this cable's bit rate (a file service each)",
    )
    .list()
    .kind("lanperf")
    .default("none")
    .label("File services")
    .means("Further file services beside LANPERF's, each on stations of its own after LANPERF's (not with a local baseline): a PERFORM3 service reported over the whole run, a LANPERF service running its own tests, reported by its server."),
    Param::text(
        "workload.ttcp",
        "a path, relative to this file, of a scenario of kind ttcp on a CSMA/CD medium at this cable's bit rate, or a list of such paths (a transfer each)",
    )
    .kind("lanperf")
    .default("none: no ttcp transfer")
    .label("ttcp scenario")
    .means("ttcp transfers beside the file service for the whole run, each on two hosts of its own after the file service's stations (not with a local baseline); each reported over the whole run."),
];
