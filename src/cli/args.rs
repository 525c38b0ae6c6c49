//! The command line as typed: clap's raw arguments, one struct per subcommand.
//!
//! Nothing here is checked beyond clap's syntax; the subcommands turn these into validated
//! scenarios and sweep plans before anything runs or is written.

use std::path::PathBuf;

use ethersim::scenario::{units, Override, ScenarioError};
use ethersim::time::SimTime;

use clap::{Args, Parser, Subcommand, ValueEnum};

const MAIN_EXAMPLES: &str = "\
Examples:
  ethersim run scenarios/saturate.toml
  ethersim run scenarios/saturate.toml --set nodes.stations.count=2 --format json
  ethersim sweep scenarios/saturate.toml --param nodes.stations.count --values 1,2,4,8,16
  ethersim validate scenarios/saturate.toml
  ethersim figure1 --out output
  ethersim reproduce --list";

const RUN_EXAMPLES: &str = "\
Examples:
  ethersim run scenarios/saturate.toml
  ethersim run scenarios/saturate.toml --set nodes.stations.count=2 --set 'apps[0].frame_bytes=64'
  ethersim run scenarios/saturate.toml --seed 7 --format json --out results/
  ethersim run scenarios/bulletin/16bit-optimized.toml --set adapters.server.transmit_buffers=4
  ethersim run scenarios/bulletin/8bit-optimized.toml --explain
  ethersim run scenarios/bulletin/16bit-optimized.toml --wide --quiet

KEY is a dotted path into the scenario file (nodes.stations.count, segment.length_m, 'apps[0].frame_bytes', ...).
VALUE is read as TOML (3, 0.5, true, [3072,7168], \"text\"); a bare word is a string.";

const CALIBRATE_EXAMPLES: &str = "\
Examples:
  ethersim calibrate calibrations/bulletin/fit.toml
  ethersim calibrate calibrations/bulletin/fit.toml --cross-validate --jobs 2
  ethersim calibrate my-lan.toml --in-place
  ethersim calibrate calibrations/ttcp1985/fit.toml --cross-validate --run-index 3 --out cv

FILE names the scenarios, the measured CSV, the constants to fit (keys of the shared
hardware file, with bounds or choices) and the seeds; see calibrations/bulletin/fit.toml.
Writes DIR/<hardware file> (a copy with the fitted values, every comment kept, each fitted
value marked), DIR/calibration.csv (measured, before, fitted), DIR/calibration.svg + .png,
and with --cross-validate DIR/cross_validation.csv. Ctrl-C stops the search and writes the
best values found so far. --in-place also replaces the hardware file itself.";

const SWEEP_EXAMPLES: &str = "\
Examples:
  ethersim sweep scenarios/saturate.toml --param nodes.stations.count --values 1,2,4,8,16,32
  ethersim sweep scenarios/saturate.toml --param nodes.stations.count --range 2..32:2 \\
      --param 'apps[0].frame_bytes' --values 64,512,1518 --replications 5 --jobs 2
  ethersim sweep scenarios/bulletin/16bit-optimized.toml --param adapters.server.transmit_buffers --values 2,4,8,16,35
  ethersim sweep scenarios/saturate.toml --param nodes.stations.count --range 1..32 --out study --list-runs
  ethersim sweep scenarios/saturate.toml --param nodes.stations.count --range 1..32 --out study --run-index 7

Each --param is followed by its --values (comma-separated TOML values; brackets group
arrays) or --range START..END[:STEP] (END included). Several --param sweep the cross
product; each key may be given once (not to two --param, nor to a --param and a --set;
--seed and --param seed contradict each other). Writes DIR/sweep.csv (every run), DIR/sweep_summary.csv (mean and 95% CI per
combination) and DIR/sweep.svg + DIR/sweep.png (the headline figure against the first
--param, one line per combination of the others). --list-runs and --run-index I split the
sweep into runs for a batch system; `ethersim merge DIR` then writes the same files.";

const VALIDATE_EXAMPLES: &str = "\
Examples:
  ethersim validate scenarios/saturate.toml
  ethersim validate scenarios/saturate.toml --set nodes.stations.count=2000   # fails: out of range";

const FIGURE1_EXAMPLES: &str = "\
Examples:
  ethersim figure1
  ethersim figure1 --out output --jobs 2

The same as `ethersim reproduce bulletin`. Writes DIR/figure1.csv
(config,block_size,measured_kbps,simulated_kbps), DIR/figure1.svg and DIR/figure1.png, and
prints simulated (the mean over the seeds 1992, 1, 2, 3, 4) against measured values with the
error of each point and the MAPE of each curve.";

const TTCP1995_EXAMPLES: &str = "\
Examples:
  ethersim ttcp1995
  ethersim ttcp1995 --out output --jobs 2

The same as `ethersim reproduce ttcp1995`. Runs the eight ttcp measurements of 1995
(scenarios/ttcp1995/ttcp-1995-*.toml) on the seeds 1995, 1, 2, 3, 4, writes DIR/ttcp-1995.csv
(measured, the simulated mean, error, the least and greatest run, the coefficient of
variation, the seeds and each seed's value) and DIR/ttcp-1995.svg + .png (measured and
simulated bars per case, the TCP ceiling), and prints the table with each error and the mean
absolute error.";

const REPRODUCE_EXAMPLES: &str = "\
Examples:
  ethersim reproduce --list
  ethersim reproduce bulletin
  ethersim reproduce ttcp1995 --out output --jobs 2
  ethersim reproduce ttcp1985 --set 'apps[0].socket_buffer=4096'   # into output/what-if/...
  ethersim reproduce lanperf
  ethersim reproduce figure1 --out study --run-index 12   # one of its 20 runs; then ethersim merge study

Each reproduction runs the shipped scenarios of a published figure or table on 5 seeds
(the scenarios' own seed, then 1, 2, 3, 4), prints simulated (the mean over the seeds)
against measured with each error (or, where nothing was measured, labels its figures a
prediction), and writes its CSVs and charts into DIR, all files or none. `ethersim
figure1`, `ethersim ttcp1995` and `ethersim ttcp1985` are the same as `reproduce bulletin`,
`reproduce ttcp1995` and `reproduce ttcp1985`. --set KEY=VALUE changes a key in every
scenario of it (a what-if of the whole table; not `seed`).";

const PCAP_LIST_EXAMPLES: &str = "\
Examples:
  ethersim run scenarios/bulletin/16bit-optimized.toml --set 'apps[0].block_sizes=[1024]' --pcap run.pcapng
  ethersim pcap-list run.pcapng --count 12

Columns: number, time (s), source MAC -> destination MAC, type/length, length (captured/original
when cut short), Info (NetBIOS, IPv4/TCP, saturate, jam), error flags, # comment.";

const TRACE_EXAMPLES: &str = "\
Examples:
  ethersim trace scenarios/two-stations-collision.toml --from 0 --to 20us --out output/trace
  ethersim trace scenarios/saturate.toml --from 1ms --to 2ms --out trace --set workload.stations=4

Writes DIR/trace.svg and DIR/trace.png (atomically): position along the segment across,
time running down; each transmission is the band its signal covers as it spreads both ways
at the cable's velocity. The window (times with s, ms, us or ns; a bare number is seconds)
must lie in the run and be at most 5 ms long. Only a CSMA/CD segment can be drawn.";

const TTCP1985_EXAMPLES: &str = "\
Examples:
  ethersim ttcp1985
  ethersim ttcp1985 --out output

Runs every row of the 1985 VAX ttcp tables (scenarios/ttcp1985/ttcp-1985-*.toml, 5 seeds each),
writes DIR/ttcp-1985.csv (measured, simulated and error for throughput and system CPU %)
and prints the error table.";

/// ethersim: a discrete-event simulator of a shared 10 Mb/s Ethernet LAN of the early 1990s.
#[derive(Debug, Parser)]
#[command(name = "ethersim", version = env!("ETHERSIM_VERSION"), about, after_help = MAIN_EXAMPLES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Print no warnings (such as a scenario's oversized frames); errors are still printed.
    #[arg(long, short, global = true)]
    pub quiet: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run one scenario and print its results.
    #[command(after_help = RUN_EXAMPLES)]
    Run(RunArgs),
    /// Run a scenario over a grid of parameter values, in parallel, and plot the results.
    #[command(after_help = SWEEP_EXAMPLES)]
    Sweep(SweepArgs),
    /// Check a scenario without running it.
    #[command(after_help = VALIDATE_EXAMPLES)]
    Validate(ValidateArgs),
    /// Regenerate Figure 1 of the Artisoft bulletin (simulated against measured).
    #[command(after_help = FIGURE1_EXAMPLES)]
    Figure1(Figure1Args),
    /// Reproduce the 1995 ttcp table over TCP/IP (simulated against measured).
    #[command(after_help = TTCP1995_EXAMPLES)]
    Ttcp1995(OutputArgs),
    /// Reproduce a published figure or table by name (simulated against measured).
    #[command(after_help = REPRODUCE_EXAMPLES)]
    Reproduce(ReproduceArgs),
    /// Reproduce the 1985 VAX ttcp tables under 4.2BSD (simulated against measured).
    #[command(after_help = TTCP1985_EXAMPLES)]
    Ttcp1985(OutputArgs),
    /// Draw the space-time diagram of the cable over a time window (SVG and PNG).
    #[command(after_help = TRACE_EXAMPLES)]
    Trace(TraceArgs),
    /// List the frames of a pcapng capture, one line each (Wireshark-style; the product's own decoder).
    #[command(name = "pcap-list", after_help = PCAP_LIST_EXAMPLES)]
    PcapList(PcapListArgs),
    /// Fit constants of a hardware file to measurements (with --cross-validate: predict each
    /// scenario from a fit to the others).
    #[command(after_help = CALIBRATE_EXAMPLES)]
    Calibrate(CalibrateArgs),
    /// List every scenario key: its workload, range, default and label (from the one
    /// parameter registry; --markdown prints docs/scenarios.md).
    #[command(after_help = KEYS_EXAMPLES)]
    Keys(KeysArgs),
    /// List the named host, adapter and stack profiles of a hardware catalogue, for
    /// scenarios of nodes and applications.
    #[command(after_help = PROFILES_EXAMPLES)]
    Profiles(ProfilesArgs),
    /// Rewrite a perform3, lanperf or ttcp scenario as nodes and applications (to standard output):
    /// the same LAN, its hardware as profiles in the new file.
    #[command(after_help = MIGRATE_EXAMPLES)]
    Migrate(MigrateArgs),
    /// List the scenarios shipped in the binary; show one, or export it with its include.
    #[command(after_help = SCENARIOS_EXAMPLES)]
    Scenarios(ScenariosArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish or powershell) to standard
    /// output.
    #[command(after_help = COMPLETIONS_EXAMPLES)]
    Completions(CompletionsArgs),
    /// Print the manual page (roff) of ethersim and its subcommands to standard output.
    #[command(after_help = MAN_EXAMPLES)]
    Man,
    /// Put the runs of a study run one by one (--run-index) together: check that every run
    /// is there, of one study, once and whole, then write the files the one-process command
    /// writes.
    #[command(after_help = MERGE_EXAMPLES)]
    Merge(MergeArgs),
}

const MERGE_EXAMPLES: &str = "\
Examples:
  ethersim sweep scenarios/saturate.toml --param nodes.stations.count --values 1,2,4 --out study --list-runs
  for i in 0 1 2; do ethersim sweep scenarios/saturate.toml --param nodes.stations.count --values 1,2,4 --out study --run-index $i; done
  ethersim merge study

DIR is the --out of the study: its runs are DIR/runs/run-NNNNN.json. Every run must be
there, of the same study (the same scenario texts, overrides, definition and ethersim
version), once, and whole; otherwise the runs that are not are named and nothing is
written. Then DIR gets what the one-process command writes (sweep.csv, sweep_summary.csv
and the chart; a reproduction's files; cross_validation.csv and cross_validation.txt).";

/// Arguments of `merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The study's output directory (its runs are in DIR/runs/).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

/// One run of a study at a time, for a batch system (Slurm, Kubernetes, HTCondor, GNU
/// parallel): list the runs, run one by index; `ethersim merge` puts them together.
#[derive(Debug, Default, Args)]
pub struct ShardArgs {
    /// Print the number of runs, then one line per run (tab-separated: its index, then
    /// name=value fields saying what it runs), and exit.
    #[arg(long, conflicts_with = "run_index")]
    pub list_runs: bool,
    /// Run only run I (0 to the number of runs less one; see --list-runs) and write its
    /// result to DIR/runs/run-NNNNN.json, unless it is complete there already; then
    /// `ethersim merge DIR`.
    #[arg(long, value_name = "I")]
    pub run_index: Option<usize>,
}

impl ShardArgs {
    /// Whether the command lists or runs one run rather than the whole study.
    pub fn any(&self) -> bool {
        self.list_runs || self.run_index.is_some()
    }
}

const KEYS_EXAMPLES: &str = "\
Examples:
  ethersim keys
  ethersim keys | grep adapter.
  ethersim keys --markdown > scenarios.md

One line per key, tab-separated: key, workload kind (- for every kind), allowed range,
default, label. Keys under a name of your choosing are written with `*`
(workload.hosts.*.mips).";

const PROFILES_EXAMPLES: &str = "\
Examples:
  ethersim profiles
  ethersim profiles hardware/catalogue.toml
  ethersim profiles my-hardware.toml | grep hosts

One line per profile, tab-separated: kind (hosts, adapters, stacks), name, what it is, and
where it is defined. A scenario names them in its nodes: host = \"486dx50\".";

const MIGRATE_EXAMPLES: &str = "\
Examples:
  ethersim migrate scenarios/bulletin/16bit-optimized.toml > my-lan.toml
  ethersim run my-lan.toml

The new file describes the same LAN (it validates to the same model); the old file's
comments, the sources of its constants, are not carried, and its header names the file it
came from. Both forms run; the reproductions keep theirs.";

const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  ethersim completions bash > ~/.local/share/bash-completion/completions/ethersim
  ethersim completions zsh > ~/.zfunc/_ethersim        # with fpath+=(~/.zfunc)
  ethersim completions fish > ~/.config/fish/completions/ethersim.fish";

const MAN_EXAMPLES: &str = "\
Examples:
  ethersim man > ethersim.1 && man ./ethersim.1
  ethersim man | gzip > ~/.local/share/man/man1/ethersim.1.gz";

const SCENARIOS_EXAMPLES: &str = "\
Examples:
  ethersim scenarios
  ethersim scenarios show 16bit-optimized
  ethersim scenarios export 16bit-optimized my-lan && ethersim run my-lan/16bit-optimized.toml
  ethersim run 16bit-optimized            # a catalogue name where no such file exists";

/// Arguments of `scenarios`.
#[derive(Debug, Args)]
pub struct ScenariosArgs {
    #[command(subcommand)]
    pub action: Option<ScenariosAction>,
}

/// What `scenarios` does besides listing.
#[derive(Debug, Subcommand)]
pub enum ScenariosAction {
    /// Print a scenario (or hardware file) of the catalogue.
    Show {
        /// Its name (file stem) or path under scenarios/.
        name: String,
    },
    /// Write a scenario and the hardware file it includes into DIR, side by side.
    Export {
        /// Its name (file stem) or path under scenarios/.
        name: String,
        /// The folder to write into (created if absent).
        dir: std::path::PathBuf,
    },
}

/// Arguments of `completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

/// Arguments of `profiles`.
#[derive(Debug, Args)]
pub struct ProfilesArgs {
    /// The catalogue (or a scenario of nodes): its profiles and those of the files it
    /// includes.
    #[arg(value_name = "FILE", default_value = "hardware/catalogue.toml")]
    pub file: PathBuf,
}

/// Arguments of `migrate`.
#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// The scenario of one workload (perform3, lanperf or ttcp).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// Arguments of `keys`.
#[derive(Debug, Args)]
pub struct KeysArgs {
    /// Print the full reference as Markdown (every key's unit, range, bound sources,
    /// default and meaning), the text of docs/scenarios.md.
    #[arg(long)]
    pub markdown: bool,
}

/// Arguments of `pcap-list`.
#[derive(Debug, Args)]
pub struct PcapListArgs {
    /// The capture: pcapng (as `ethersim run --pcap` writes it, or from another tool) or
    /// legacy pcap; Ethernet frames are decoded, other link types listed raw.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// List at most the first N frames.
    #[arg(long, value_name = "N")]
    pub count: Option<usize>,
}

/// Output formats of `run`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    Table,
    Csv,
    Json,
}

/// The scenario and its overrides, common to the subcommands that load one.
#[derive(Debug, Args)]
pub struct ScenarioArgs {
    /// Scenario file (TOML), or the name of a shipped scenario (`ethersim scenarios`).
    #[arg(value_name = "SCENARIO")]
    pub scenario: PathBuf,
    /// Override a scenario key (repeatable); applied after the file and its hardware include.
    #[arg(short = 's', long = "set", value_name = "KEY=VALUE", value_parser = set_arg)]
    pub set: Vec<String>,
    /// Replace the scenario's seed (any u64).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Output format on stdout (table: a view that fits in 100 columns; csv and json: every
    /// figure at full precision).
    #[arg(short = 'f', long, value_enum, default_value = "table")]
    pub format: FormatArg,
    /// With the table format, every figure of every point (one column per figure); not
    /// with --format csv or json, which hold every figure already.
    #[arg(long)]
    pub wide: bool,
    /// Also write the result to DIR/run.{txt,csv,json} (atomically).
    #[arg(short = 'o', long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Also print where the time went (wire, collisions, server and workstation CPU split
    /// into copying and protocol work, waiting for acknowledgements) and the bottleneck.
    #[arg(long)]
    pub explain: bool,
    /// Write every frame put on the wire to FILE as pcapng (Wireshark), as the run goes.
    #[arg(long, value_name = "FILE")]
    pub pcap: Option<PathBuf>,
    /// Only the frames whose transmission starts in FROM..TO (simulated time: a number
    /// with s, ms, us or ns, on both ends; both bare are seconds), e.g. 1ms..3ms.
    #[arg(long, value_name = "FROM..TO", requires = "pcap", value_parser = parse_window)]
    pub pcap_window: Option<(SimTime, SimTime)>,
    /// Write one JSON line per MAC event (and host work per frame) to FILE, as the run goes.
    #[arg(long, value_name = "FILE")]
    pub events: Option<PathBuf>,
}

/// A simulated instant: a number with a unit (s, ms, us, ns; none: seconds), read by the
/// same reader as a scenario's durations ([`units::parse_duration_text`]).
pub fn parse_time(text: &str) -> Result<SimTime, String> {
    let (v, unit) = units::parse_duration_text(text).map_err(|e| e.to_string())?;
    let ns = v * unit.unwrap_or(units::TimeUnit::S).nanos();
    if !ns.is_finite() || !(0.0..=3.6e12).contains(&ns) {
        return Err(format!("`{text}` is out of range (0 to 3600 s)"));
    }
    Ok(SimTime::from_nanos(ns.round() as u64))
}

/// The unit a time is written with, if any (`"ms"` of `"3ms"`).
fn unit_of(text: &str) -> Option<&str> {
    units::parse_duration_text(text).ok()?.1?;
    let t = text.trim();
    Some(&t[t.trim_end_matches(char::is_alphabetic).len()..])
}

/// A simulated instant for a message: `1.5 ms`.
fn shown(t: SimTime) -> String {
    let ns = t.as_nanos() as f64;
    let (v, u) = if ns >= 1e9 {
        (ns / 1e9, "s")
    } else if ns >= 1e6 {
        (ns / 1e6, "ms")
    } else if ns >= 1e3 {
        (ns / 1e3, "us")
    } else {
        (ns, "ns")
    };
    format!("{} {u}", (v * 1e6).round() / 1e6)
}

/// `FROM..TO`, two times with FROM before TO, each with its unit (both bare: seconds). A
/// bare FROM beside a TO with a unit is ambiguous (`1..3ms`: one second, or one
/// millisecond?) and refused, saying how it would have been read.
pub fn parse_window(text: &str) -> Result<(SimTime, SimTime), String> {
    let (a, b) = text
        .split_once("..")
        .ok_or_else(|| format!("`{text}` is not a window FROM..TO (e.g. 1ms..3ms)"))?;
    if let (None, Some(u)) = (unit_of(a), unit_of(b)) {
        let from = parse_time(a)?;
        return Err(format!(
            "window `{text}` is ambiguous: FROM `{}` has no unit and reads as {}, TO as {}; \
             write the unit on both, e.g. `{}{u}..{}`",
            a.trim(),
            shown(from),
            shown(parse_time(b)?),
            a.trim(),
            b.trim()
        ));
    }
    let (from, to) = (parse_time(a)?, parse_time(b)?);
    if to <= from {
        return Err(format!(
            "window `{text}`: TO ({}) must be after FROM ({})",
            shown(to),
            shown(from)
        ));
    }
    Ok((from, to))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_from_beside_a_unit_is_ambiguous_and_says_how_it_reads() {
        let ms = |x: u64| SimTime::from_nanos(x * 1_000_000);
        let e = parse_window("1..3ms").unwrap_err();
        assert!(
            e.contains("ambiguous") && e.contains("reads as 1 s") && e.contains("`1ms..3ms`"),
            "{e}"
        );
        assert_eq!(parse_window("1ms..3ms"), Ok((ms(1), ms(3))));
        // both bare: seconds, as a lone time is
        assert_eq!(parse_window("1..3"), Ok((ms(1000), ms(3000))));
        // each with its own unit
        assert_eq!(
            parse_window("500us..1ms"),
            Ok((SimTime::from_nanos(500_000), ms(1)))
        );
    }

    #[test]
    fn the_command_line_definition_is_consistent() {
        // clap's own checks: no short or long flag given twice in one command, every
        // `requires` and `conflicts_with` names an argument that exists
        <Cli as clap::CommandFactory>::command().debug_assert();
    }

    #[test]
    fn a_backward_window_names_both_times() {
        let e = parse_window("3ms..1ms").unwrap_err();
        assert!(e.contains("TO (1 ms)") && e.contains("FROM (3 ms)"), "{e}");
        let e = parse_window("2s..1").unwrap_err();
        assert!(e.contains("FROM (2 s)"), "{e}");
    }
}

#[derive(Debug, Args)]
pub struct TraceArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Start of the window (simulated time: a number with s, ms, us or ns; bare: seconds).
    #[arg(long, value_name = "T", value_parser = parse_time)]
    pub from: SimTime,
    /// End of the window, after --from and at most 5 ms later.
    #[arg(long, value_name = "T", value_parser = parse_time)]
    pub to: SimTime,
    /// Output directory for trace.svg and trace.png.
    #[arg(short = 'o', long, value_name = "DIR", default_value = "output")]
    pub out: PathBuf,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("sweep_values").args(["values", "range"]).multiple(true).required(true)))]
pub struct SweepArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// A key to sweep (repeatable); each is followed by --values or --range.
    #[arg(long, value_name = "KEY", required = true, value_parser = param_key)]
    pub param: Vec<String>,
    /// Comma-separated values of the preceding --param.
    #[arg(long, value_name = "V1,V2,...", allow_hyphen_values = true, value_parser = value_list)]
    pub values: Vec<String>,
    /// START..END[:STEP] for the preceding --param (END included; STEP defaults to 1).
    #[arg(long, value_name = "START..END[:STEP]", allow_hyphen_values = true, value_parser = range_spec)]
    pub range: Vec<String>,
    /// Runs per combination, with seeds derived from the scenario's seed.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub replications: u32,
    /// Also summarise and chart FIGURE (a column of the workload's points, mean over a
    /// run's points), besides the headline: two more columns of sweep_summary.csv and
    /// DIR/sweep-FIGURE.svg/.png. Repeat for several.
    #[arg(long = "y", value_name = "FIGURE")]
    pub y: Vec<String>,
    /// The chart's x axis: a column of the workload's points (`block_size`: the headline's
    /// figure at each block size, one line per setting, as Figure 1), or the first swept
    /// key (the headline's mean over the points against it). Default: `block_size` for a
    /// PERFORM3 scenario with several block sizes, else the first swept key.
    #[arg(long = "x", value_name = "KEY")]
    pub x: Option<String>,
    /// Threads (default: all cores).
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: Option<u32>,
    /// Output directory.
    #[arg(short = 'o', long, value_name = "DIR", default_value = "output")]
    pub out: PathBuf,
    /// Refuse a sweep whose runs are estimated at more than this many hours of CPU in all
    /// (each run is admitted on its own at up to 10 minutes).
    #[arg(long, value_name = "H", default_value_t = 10.0, value_parser = cpu_hours)]
    pub max_cpu_hours: f64,
    #[command(flatten)]
    pub shard: ShardArgs,
}

/// `--set KEY=VALUE`: a key path and a value (the key is checked against the scenario
/// later; here only the form).
fn set_arg(s: &str) -> Result<String, String> {
    Override::parse(s).map(|_| s.to_string()).map_err(|e| match e {
        ScenarioError::BadOverride { message, .. } => message,
        e => e.to_string(),
    })
}

/// `--param KEY`: a dotted key path, as `--set` takes it.
fn param_key(s: &str) -> Result<String, String> {
    match Override::new(s, toml::Value::Boolean(false)) {
        Err(ScenarioError::BadOverride { message, .. }) => Err(message),
        _ => Ok(s.to_string()),
    }
}

/// `--values V1,V2,...`: no value of the list empty.
fn value_list(s: &str) -> Result<String, String> {
    if ethersim::run::parse_values(s)
        .iter()
        .any(|v| matches!(v, toml::Value::String(t) if t.is_empty()))
    {
        return Err(format!("`{s}` has an empty value in the list"));
    }
    Ok(s.to_string())
}

/// `--range START..END[:STEP]`: its syntax, bounds and size.
fn range_spec(s: &str) -> Result<String, String> {
    ethersim::run::parse_range(s)
        .map(|_| s.to_string())
        .map_err(|e| e.to_string())
}

/// Checks what clap cannot: each `--param` followed by exactly one `--values` or
/// `--range` (before the next `--param`), none of them before the first `--param`, and no
/// key given twice among `--set`, `--param` and `--seed`. `m` are the sweep's matches.
pub fn check_sweep(a: &SweepArgs, m: &clap::ArgMatches) -> Result<(), String> {
    let idx = |id: &str| {
        m.indices_of(id)
            .map_or_else(Vec::new, Iterator::collect::<Vec<usize>>)
    };
    let (pi, vi, ri) = (idx("param"), idx("values"), idx("range"));
    if vi.iter().chain(&ri).any(|&i| pi.first().is_none_or(|&p| i < p)) {
        return Err("--values and --range must follow the --param they belong to".into());
    }
    for (n, key) in a.param.iter().enumerate() {
        let (start, end) = (pi[n], pi.get(n + 1).copied().unwrap_or(usize::MAX));
        let given = vi.iter().chain(&ri).filter(|&&i| i > start && i < end).count();
        match given {
            1 => {}
            0 => {
                return Err(format!(
                    "--param {key} needs --values V1,V2,... or --range START..END[:STEP] after it"
                ))
            }
            _ => {
                return Err(format!(
                    "--param {key} has more than one --values/--range; give exactly one"
                ))
            }
        }
    }
    let set: Vec<Override> = a
        .scenario
        .set
        .iter()
        .filter_map(|s| Override::parse(s).ok())
        .collect();
    let params: Vec<ethersim::run::output::SweepParam> = a
        .param
        .iter()
        .map(|k| ethersim::run::output::SweepParam {
            key: k.clone(),
            values: Vec::new(),
        })
        .collect();
    ethersim::run::check_conflicts(&set, &params, a.scenario.seed).map_err(|e| e.to_string())
}

/// `--max-cpu-hours`: a finite, positive number of hours, at most a year.
fn cpu_hours(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(h) if h.is_finite() && h > 0.0 && h <= 8760.0 => Ok(h),
        _ => Err(format!("{s:?} is not a number of hours in (0, 8760]")),
    }
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
}

/// Where a reproduction writes and on how many threads.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Output directory [default: output; with `reproduce --set`,
    /// output/what-if/NAME_KEY=VALUE,..., so that a what-if never replaces the
    /// reproduction's own files].
    #[arg(short = 'o', long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Threads (default: all cores); results do not depend on it.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: Option<u32>,
}

/// The names `reproduce` accepts, from the registry of reproductions (each name with
/// its aliases and its one-line summary as the help `--list` and `--help` show).
fn reproduction_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(ethersim::repro::REGISTRY.iter().map(|r| {
        clap::builder::PossibleValue::new(r.name())
            .aliases(r.aliases().iter().copied())
            .help(r.summary())
    }))
}

#[derive(Debug, Args)]
pub struct ReproduceArgs {
    /// Which figure or table (see --list).
    #[arg(value_parser = reproduction_names(), value_name = "NAME", required_unless_present = "list")]
    pub name: Option<String>,
    /// List the reproductions, with their aliases, and exit.
    #[arg(long, conflicts_with = "name")]
    pub list: bool,
    /// Override a key of every scenario of the reproduction (repeatable), as `run --set`
    /// does for one: a what-if of the whole figure or table against the measurements.
    #[arg(short = 's', long, value_name = "KEY=VALUE", conflicts_with = "list", value_parser = set_arg)]
    pub set: Vec<String>,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub shard: ShardArgs,
}

/// Arguments of `figure1`: where to write, and one run at a time.
#[derive(Debug, Args)]
pub struct Figure1Args {
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub shard: ShardArgs,
}

#[derive(Debug, Args)]
pub struct CalibrateArgs {
    /// Calibration file (TOML).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Output directory (default: output/calibrate-NAME).
    #[arg(short = 'o', long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Also overwrite the hardware file with the fitted values.
    #[arg(long)]
    pub in_place: bool,
    /// Then fit on all scenarios but one and predict the one held out, for each.
    #[arg(long)]
    pub cross_validate: bool,
    /// Only evaluate the hardware file's current values, without a search: the objective,
    /// each constant's sensitivity and whether the data pins it down there, the seed noise
    /// and the agreement per scenario (writes calibration.txt, .csv and the chart; never
    /// the hardware file).
    #[arg(long, conflicts_with_all = ["in_place", "cross_validate"])]
    pub evaluate: bool,
    /// Refuse a calibration estimated at more than this many hours of CPU in all (every
    /// search at its whole budget, and with --cross-validate every fold).
    #[arg(long, value_name = "H", default_value_t = 10.0, value_parser = cpu_hours)]
    pub max_cpu_hours: f64,
    /// Threads (default: all cores); results do not depend on it.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: Option<u32>,
    /// With --cross-validate: one fold per run (--list-runs, --run-index I); the full fit
    /// is not a fold.
    #[command(flatten)]
    pub shard: ShardArgs,
}
