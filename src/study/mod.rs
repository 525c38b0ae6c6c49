//! Studies as indexed runs: the contract a batch system (Slurm, Kubernetes, HTCondor, GNU
//! parallel) needs to spread a multi-run command over machines, and the merge that puts
//! the runs back together into the files the one-process command writes, byte for byte.
//!
//! A [`Study`] is a list of runs numbered `0..N`, each independent of the others: a sweep
//! (its combinations times its replications, [`sweep`]), a reproduction ([`reproduce`]:
//! its scenarios times its seeds) or a calibration's cross-validation ([`folds`]: one fold
//! per held-out scenario). The contract:
//!
//! - [`list`]: the number of runs, then one tab-separated line per run: its index and what
//!   it runs (`key=value` fields: swept values, replication, seed, scenario or fold).
//! - [`run_index`]: runs one run and writes its result to `OUT/runs/run-NNNNN.json`
//!   ([`runfile`]), atomically, with the study's [`fingerprint::Fingerprint`]. A run whose
//!   complete file is there already is not run again ([`Done::AlreadyComplete`]).
//! - [`merge::collect`] then [`finish`]: every run present, of one study, once, and whole,
//!   or a refusal naming the runs that are not; then the study's own files, staged for the
//!   caller to commit.
//!
//! Invariants: a run's seed is the one-process command's (the sweep's replication seed,
//! the reproduction's report seeds), so a run gives the same bytes wherever it runs; the
//! one-process command and `finish` share the code that turns results into files. This
//! module does no I/O beyond the run files; the command line prints and commits.

pub mod fingerprint;
pub mod folds;
pub mod merge;
pub mod provenance;
pub mod reproduce;
pub mod runfile;
pub mod sweep;

use std::path::{Path, PathBuf};

use self::fingerprint::{Definition, Fingerprint};
use crate::report::atomic::Staged;
use crate::report::ReportError;

/// A study: runs numbered from 0, each run on its own.
pub trait Study: Sync {
    /// The study's identity, written into each run file.
    fn fingerprint(&self) -> &Fingerprint;
    /// What run `index` runs, as (name, value) pairs.
    fn describe(&self, index: usize) -> Vec<(String, String)>;
    /// Runs run `index` (in range) and returns its result, floats as exact text.
    fn run(&self, index: usize) -> Result<serde_json::Value, StudyError>;
}

/// Why a study cannot list, run or merge.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    #[error("--run-index {index} is out of range: this study has {runs} runs, 0..{}", runs.saturating_sub(1))]
    OutOfRange { index: usize, runs: usize },
    #[error("cannot use {}: {err}", path.display())]
    Io { path: PathBuf, err: std::io::Error },
    #[error("cannot encode a run file: {0}")]
    Encode(String),
    #[error(
        "{} holds run {index} of another study (it differs in {}); write this study to another --out, or remove that file",
        path.display(), differences.join(", ")
    )]
    Foreign {
        path: PathBuf,
        index: usize,
        differences: Vec<String>,
    },
    #[error("run {index}: its result does not read back: {message}")]
    BadResult { index: usize, message: String },
    #[error("`reproduce {0}` runs only as a whole: it is not split into indexed runs")]
    NotIndexed(String),
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Report(#[from] ReportError),
    #[error(transparent)]
    Sweep(#[from] crate::run::SweepError),
    #[error(transparent)]
    Scenario(#[from] crate::scenario::ScenarioError),
    #[error(transparent)]
    Repro(#[from] crate::repro::ReproError),
    #[error(transparent)]
    Calibration(#[from] crate::calibrate::CalibrationError),
}

/// The text of `--list-runs`: the number of runs on the first line, then per run its
/// index and `name=value` fields, tab-separated.
pub fn list(study: &dyn Study) -> String {
    let runs = study.fingerprint().runs;
    let mut out = format!("{runs}\n");
    for i in 0..runs {
        out += &i.to_string();
        for (k, v) in study.describe(i) {
            out += &format!("\t{k}={v}");
        }
        out.push('\n');
    }
    out
}

/// What [`run_index`] did.
#[derive(Debug, Clone, PartialEq)]
pub enum Done {
    /// The run ran and its file was written; `replaced` says why a file that was there
    /// was not complete (cut short, not a run file).
    Ran { path: PathBuf, replaced: Option<String> },
    /// A complete file of this run of this study was there: nothing ran.
    AlreadyComplete(PathBuf),
}

/// Checks `index` against the study's number of runs.
pub fn check_index(study: &dyn Study, index: usize) -> Result<(), StudyError> {
    let runs = study.fingerprint().runs;
    if index >= runs {
        return Err(StudyError::OutOfRange { index, runs });
    }
    Ok(())
}

/// Runs run `index` of `study` into `out/runs/`, unless its complete file is there. A
/// file of another study at that name is refused (never overwritten); one that does not
/// read whole is replaced.
pub fn run_index(study: &dyn Study, out: &Path, index: usize) -> Result<Done, StudyError> {
    check_index(study, index)?;
    let path = runfile::path(out, index);
    let fp = study.fingerprint();
    let replaced = match runfile::read(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(err) => return Err(StudyError::Io { path, err }),
        Ok(Ok(f)) if f.study == fp.digest() && f.index == index => return Ok(Done::AlreadyComplete(path)),
        Ok(Ok(f)) if f.study != fp.digest() => {
            return Err(StudyError::Foreign {
                differences: fp.differences(&f.fingerprint),
                path,
                index: f.index,
            })
        }
        Ok(Ok(f)) => Some(format!("it held run {}", f.index)),
        Ok(Err(runfile::Unusable::Damaged(why))) => Some(format!("it did not read whole: {why}")),
        Ok(Err(runfile::Unusable::Tampered)) => Some("its fingerprint did not match its digest".into()),
    };
    let result = study.run(index)?;
    let path = runfile::write(out, fp, index, result)?;
    Ok(Done::Ran { path, replaced })
}

/// What a merge writes and says.
#[derive(Debug)]
pub struct Merged {
    /// The text the one-process command prints.
    pub table: String,
    /// Runs that did not do their work, as the one-process command names them (the files
    /// are written; the command fails).
    pub unfinished: Option<String>,
}

/// Stages the files of the study whose runs `merge::collect` gathered, as the
/// one-process command writes them, and returns what it prints.
pub fn finish(collected: &merge::Collected, staged: &mut Staged) -> Result<Merged, StudyError> {
    let fp = &collected.fingerprint;
    match &fp.definition {
        Definition::Sweep { .. } => sweep::finish(fp, &collected.results, staged),
        Definition::Reproduce { name } => reproduce::finish(name, &fp.overrides, &collected.results, staged),
        Definition::CrossValidation { keys, .. } => folds::finish(keys, &collected.results, staged),
    }
}

/// Deserialises run `index`'s result.
fn result_of<T: serde::de::DeserializeOwned>(index: usize, v: &serde_json::Value) -> Result<T, StudyError> {
    serde_json::from_value(v.clone()).map_err(|e| StudyError::BadResult {
        index,
        message: e.to_string(),
    })
}

/// Serialises a run's result.
fn to_result<T: serde::Serialize>(index: usize, t: &T) -> Result<serde_json::Value, StudyError> {
    serde_json::to_value(t).map_err(|e| StudyError::BadResult {
        index,
        message: e.to_string(),
    })
}
