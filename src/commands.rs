//! What each subcommand does, in three steps: validate every input, compute, then write.
//!
//! The output directory is checked before anything runs, and no output file is replaced
//! until every scenario (every sweep combination) has been validated and every run has
//! finished: files are staged and renamed into place together ([`Staged`]; a sweep writes
//! `sweep.csv` into its staged file as the runs finish), so an invalid scenario or a
//! failure leaves the output directory as it was.

use std::io::{IsTerminal, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use clap::{ArgMatches, CommandFactory, FromArgMatches};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cli::{Cli, Command, FormatArg, Reproduction, RunArgs, ScenarioArgs, SweepArgs, ValidateArgs};
use crate::reproduce_cmd;
use ethersim::report::atomic::Staged;
use ethersim::report::sweep::SweepStream;
use ethersim::report::{self, figures, plot, Format, ReportError};
use ethersim::results::SweepParam;
use ethersim::run;
use ethersim::scenario::{self, Override, Scenario, Source};

/// Parses the command line and runs the subcommand.
pub fn run() -> Result<()> {
    let matches = Cli::command()
        .try_get_matches()
        .unwrap_or_else(|e| usage_error(e));
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| usage_error(e));
    QUIET.store(cli.quiet, std::sync::atomic::Ordering::Relaxed);
    match cli.command {
        Command::Run(a) => run_cmd(a),
        Command::Sweep(a) => {
            let m = matches.subcommand_matches("sweep").context("sweep arguments")?;
            sweep_cmd(a, m)
        }
        Command::Validate(a) => validate_cmd(a),
        Command::Figure1(a) => reproduce_cmd::run(Reproduction::Figure1, &a, &[]),
        Command::Ttcp1995(a) => reproduce_cmd::run(Reproduction::Ttcp1995, &a, &[]),
        Command::Reproduce(a) => match a.name {
            Some(r) if !a.list => reproduce_cmd::run(r, &a.output, &a.set),
            _ => print(&reproduce_cmd::list()),
        },
        Command::Trace(a) => crate::trace_cmd::run(&a),
        Command::PcapList(a) => crate::wire_cmd::pcap_list(&a),
        Command::Ttcp1985(a) => reproduce_cmd::run(Reproduction::Ttcp1985, &a, &[]),
        Command::Calibrate(a) => {
            let j = jobs(a.jobs);
            crate::calibrate_cmd::run(a, j)
        }
    }
}

/// Writes to stdout; a closed pipe (`ethersim ... | head`) is not an error.
pub(crate) fn print(text: &str) -> Result<()> {
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r.context("writing to stdout"),
    }
}

/// Writes a line to stderr (a warning, an error, a file written). A stderr that cannot be
/// written (`2>/dev/full`, a closed descriptor) is not an error: the line is dropped.
/// Control and bidirectional-formatting characters other than line breaks are escaped
/// ([`scenario::error::escape_message`]): whatever input a message quotes, it cannot
/// drive the terminal.
pub fn note(line: &str) {
    let _ = writeln!(
        std::io::stderr().lock(),
        "{}",
        scenario::error::escape_message(line)
    );
}

/// `--quiet`: warnings are not printed (errors still are).
static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Writes a warning to stderr through [`note`], unless `--quiet` was given.
pub fn warning(message: &str) {
    if !QUIET.load(std::sync::atomic::Ordering::Relaxed) {
        note(&format!("warning: {message}"));
    }
}

/// A command line clap refuses: its message (which quotes the bad argument) goes through
/// [`note`]; `--help` and `--version` print to stdout as usual.
fn usage_error(e: clap::Error) -> ! {
    if !e.use_stderr() {
        e.exit();
    }
    note(e.to_string().trim_end());
    std::process::exit(e.exit_code());
}

/// Checks an output directory before anything runs, so a bad `--out` fails at once and
/// not after a long run: it is a directory, or can be created (its nearest existing
/// ancestor is a directory), and a file can be created there (probed with a file that is
/// created and removed at once; permission bits alone do not tell, e.g. for root or a
/// read-only file system).
pub(crate) fn check_out_dir(dir: &Path) -> Result<()> {
    let bad = |why: String| anyhow::anyhow!("--out {dir:?}: {why}");
    let mut existing = dir;
    loop {
        match std::fs::metadata(existing) {
            Ok(m) if m.is_dir() => break,
            Ok(_) if existing == dir => return Err(bad("exists and is not a directory".into())),
            Ok(_) => return Err(bad(format!("cannot be created: {existing:?} is not a directory"))),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) =>
            {
                existing = match existing.parent() {
                    Some(p) if p.as_os_str().is_empty() => Path::new("."),
                    Some(p) => p,
                    None => return Err(bad("cannot be created".into())),
                };
            }
            Err(e) => return Err(bad(format!("cannot use {existing:?}: {e}"))),
        }
    }
    let probe = existing.join(format!(".ethersim-probe-{}", std::process::id()));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) if existing == dir => Err(bad(format!("cannot write there: {e}"))),
        Err(e) => Err(bad(format!("cannot be created in {existing:?}: {e}"))),
    }
}

pub(crate) fn overrides(set: &[String]) -> Result<Vec<Override>> {
    Ok(set.iter().map(|s| Override::parse(s)).collect::<Result<_, _>>()?)
}

fn warn(s: &Scenario) {
    for w in &s.warnings {
        warning(w);
    }
}

/// Loads and validates the scenario of `args`, with its overrides and seed.
pub(crate) fn load(args: &ScenarioArgs) -> Result<Scenario> {
    let set = overrides(&args.set)?;
    run::check_conflicts(&set, &[], args.seed)?;
    let mut s = scenario::load(&args.scenario, &set)?;
    if let Some(seed) = args.seed {
        s.seed = seed;
    }
    warn(&s);
    Ok(s)
}

pub(crate) fn jobs(j: Option<u32>) -> usize {
    j.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |j| j as usize,
    )
}

pub(crate) fn wrote(files: &[std::path::PathBuf]) {
    for f in files {
        note(&format!("wrote {}", f.display()));
    }
}

fn run_cmd(a: RunArgs) -> Result<()> {
    let s = load(&a.scenario)?;
    if let Some(dir) = &a.out {
        check_out_dir(dir)?;
    }
    let format = match a.format {
        FormatArg::Table if a.wide => Format::WideTable,
        FormatArg::Table => Format::Table,
        FormatArg::Csv => Format::Csv,
        FormatArg::Json => Format::Json,
    };
    let out = if a.pcap.is_some() || a.events.is_some() {
        let (out, files) =
            crate::wire_cmd::run_with_views(&s, a.pcap.as_deref(), a.pcap_window, a.events.as_deref())?;
        wrote(&files);
        out
    } else {
        run::run(&s)
    };
    let exporter = report::exporter(format);
    let text = exporter.render(&out)?;
    if let Some(dir) = &a.out {
        let mut staged = Staged::new(dir);
        staged.write(&format!("run.{}", exporter.extension()), text.as_bytes())?;
        wrote(&staged.commit()?);
    }
    print(&text)?;
    if a.explain {
        print("\n")?;
        // the default view already holds the PERFORM3 table: add only the narrative
        if format == Format::Table {
            print(&report::explain::narrative(&out))?;
        } else {
            print(&report::explain::run(&out))?;
        }
    }
    Ok(())
}

fn validate_cmd(a: ValidateArgs) -> Result<()> {
    let s = load(&a.scenario)?;
    let include = s
        .hardware
        .as_ref()
        .map_or(String::new(), |h| format!(" (hardware from {})", h.display()));
    print(&format!("ok: {}{include}: {}\n", s.path.display(), s.summary()))
}

/// Pairs each `--param` with the `--values` or `--range` that follows it on the command line.
fn sweep_params(a: &SweepArgs, m: &ArgMatches) -> Result<Vec<SweepParam>> {
    let idx = |id: &str| {
        m.indices_of(id)
            .map_or_else(Vec::new, |i| i.collect::<Vec<usize>>())
    };
    let (pi, vi, ri) = (idx("param"), idx("values"), idx("range"));
    let mut params = Vec::new();
    for (n, key) in a.param.iter().enumerate() {
        let start = pi[n];
        let end = pi.get(n + 1).copied().unwrap_or(usize::MAX);
        let within = |ix: &[usize]| {
            ix.iter()
                .enumerate()
                .filter(|(_, &i)| i > start && i < end)
                .map(|(k, _)| k)
                .collect::<Vec<_>>()
        };
        let (v, r) = (within(&vi), within(&ri));
        let values = match (v.as_slice(), r.as_slice()) {
            ([k], []) => run::parse_values(&a.values[*k]),
            ([], [k]) => run::parse_range(&a.range[*k]).map_err(|e| anyhow::anyhow!("--range {e}"))?,
            ([], []) => bail!("--param {key} needs --values V1,V2,... or --range START..END[:STEP] after it"),
            _ => bail!("--param {key} has more than one --values/--range; give exactly one"),
        };
        if values
            .iter()
            .any(|v| matches!(v, toml::Value::String(s) if s.is_empty()))
        {
            bail!("--param {key}: empty value in the list");
        }
        if let Err(scenario::ScenarioError::BadOverride { message, .. }) =
            Override::new(key, toml::Value::Boolean(false))
        {
            bail!("--param {key}: {message}");
        }
        params.push(SweepParam {
            key: key.clone(),
            values,
        });
    }
    if vi.iter().chain(&ri).any(|&i| pi.first().is_none_or(|&p| i < p)) {
        bail!("--values and --range must follow the --param they belong to");
    }
    Ok(params)
}

fn sweep_cmd(a: SweepArgs, m: &ArgMatches) -> Result<()> {
    let params = sweep_params(&a, m)?;
    check_out_dir(&a.out)?;
    let base = overrides(&a.scenario.set)?;
    let source = Source::read(&a.scenario.scenario)?;
    let combos = run::plan_sweep(&source, &base, &params, a.scenario.seed, a.replications)?;
    let mut warned = std::collections::BTreeSet::new();
    for c in &combos {
        for w in &c.scenario.warnings {
            if warned.insert(w.clone()) {
                warning(w);
            }
        }
    }

    // sweep.csv is written as the runs finish, straight into its staged file
    let mut staged = Staged::new(&a.out);
    let total = (combos.len() * a.replications as usize) as u64;
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(total), target);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} runs  {elapsed_precise} (eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let values: Vec<Vec<toml::Value>> = combos.iter().map(|c| c.values.clone()).collect();
    let csv_path = staged.path_for("sweep.csv")?;
    let csv_file = std::fs::File::create(&csv_path).map_err(|err| ReportError::Io {
        path: csv_path.clone(),
        err,
    })?;
    let mut stream = SweepStream::new(&params, &values, csv_file);
    run::run_sweep::<anyhow::Error>(&combos, a.replications, jobs(a.jobs), &|| bar.inc(1), &mut |r| {
        Ok(stream.push(&r)?)
    })?;
    bar.finish_and_clear();
    let (rep, _csv_file) = stream.finish()?;

    let name = combos
        .first()
        .map_or("scenario".into(), |c| c.scenario.name.clone());
    let title = format!(
        "{name}: {} against {}",
        rep.headline_label,
        figures::param_label(&params[0].key)
    );
    staged.write("sweep_summary.csv", rep.summary_csv()?.as_bytes())?;
    plot::write_chart(&rep.chart(&title), &mut staged, "sweep")?;
    let files = staged.commit()?;
    print(&rep.summary_table())?;
    // LANPERF's maximum-throughput experiments: name the maximum and where it is reached
    if combos
        .first()
        .is_some_and(|c| c.scenario.workload.kind() == "lanperf")
    {
        for line in rep.peaks(0.02) {
            print(&format!("{line}\n"))?;
        }
    }
    wrote(&files);
    Ok(())
}
