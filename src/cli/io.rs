//! The command line's input and output helpers, shared by every subcommand: stdout and
//! stderr that never fail the exit status, warnings and `--quiet`, the output directory's
//! check, `--set` overrides, scenario loading, the thread count and the "wrote" lines.
//!
//! The bottom of the command line: it imports nothing from the subcommands above it.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

use super::args::ScenarioArgs;
use ethersim::run;
use ethersim::scenario::{self, Override, Scenario};

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

/// A command line that clap accepted but whose values do not fit together or with the
/// scenario: the message on stderr and exit status 2, as for clap's own usage errors.
pub(crate) fn usage(message: &str) -> ! {
    note(&format!("error: {message}"));
    std::process::exit(2);
}

/// `--quiet`: warnings are not printed (errors still are).
pub(crate) static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Writes a warning to stderr through [`note`], unless `--quiet` was given.
pub fn warning(message: &str) {
    if !QUIET.load(std::sync::atomic::Ordering::Relaxed) {
        note(&format!("warning: {message}"));
    }
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

pub(crate) fn warn(s: &Scenario) {
    for w in &s.warnings {
        warning(w);
    }
}

/// The scenario at `path`: the file if there is one, else the catalogue's entry of that
/// name with its include (said on stderr), else the file (whose read then fails plainly).
pub(crate) fn scenario_source(path: &std::path::Path) -> Result<(scenario::Source, Vec<scenario::Source>)> {
    use ethersim::repro::catalogue;
    if !path.exists() {
        if let Some(e) = path.to_str().and_then(catalogue::find) {
            note(&format!(
                "no file {}: using the catalogue's scenarios/{} (ethersim scenarios show {})",
                path.display(),
                e.path,
                e.name()
            ));
            let includes = e.include_entry().map(|h| h.source()).transpose()?;
            return Ok((e.source()?, includes.into_iter().collect()));
        }
    }
    Ok((scenario::Source::read(path)?, Vec::new()))
}

/// Loads and validates the scenario of `args`, with its overrides and seed.
pub(crate) fn load(args: &ScenarioArgs) -> Result<Scenario> {
    let set = overrides(&args.set)?;
    run::check_conflicts(&set, &[], args.seed)?;
    let (source, includes) = scenario_source(&args.scenario)?;
    let mut s = scenario::load_source_with(&source, &includes, &set)?;
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

/// A command line that is well formed but asks for what the command cannot do (a
/// `--run-index` past the study's last run): reported as clap reports its own usage
/// errors, with exit status 2.
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// The name and text of a scenario and of every file its combinations include (each
/// include once, in order of first use): what a study's content hash covers. Names are
/// file names without their folders.
pub(crate) fn scenario_texts(
    source: &scenario::Source,
    includes: &[scenario::Source],
    scenarios: &[&Scenario],
) -> Result<Vec<(String, String)>> {
    let name = |p: &Path| {
        p.file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned())
    };
    let mut texts = vec![(name(&source.path), source.text.clone())];
    let mut seen: Vec<&Path> = Vec::new();
    for s in scenarios {
        let Some(hw) = s.hardware.as_deref() else { continue };
        if seen.contains(&hw) {
            continue;
        }
        seen.push(hw);
        let text = match includes.iter().find(|i| i.path == hw) {
            Some(i) => i.text.clone(),
            None => scenario::Source::read(hw)?.text,
        };
        texts.push((name(hw), text));
    }
    Ok(texts)
}
