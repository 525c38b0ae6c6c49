//! The reproductions: each published figure or table the simulator reproduces is one unit
//! behind the [`Reproduction`] trait, registered once in [`REGISTRY`].
//!
//! A reproduction is one folder, `src/repro/<name>/`, holding its runner (the compiled-in
//! scenarios and measurements, the seeds, the runs), its analysis and its report (the
//! comparison table, CSV and charts). Beside it, under the same name: `data/<name>/` (the
//! measurements it is compared with), `scenarios/<name>/` (the scenarios it runs, the same
//! files the binary embeds), `calibrations/<name>/` (where it has a fit) and
//! `docs/repro/<name>.md` (its fidelity, how to re-derive it, its held-out prediction).
//! Adding a reproduction is one folder and one line of [`REGISTRY`]: `ethersim reproduce
//! --list`, the command line's choices and the registry's tests are built from it.
//!
//! Invariants: names and aliases are unique across the registry; a reproduction's
//! results are the mean over its own report seeds ([`crate::engine::seed`]), the same on
//! any machine and any number of threads; it stages every file it writes in the one
//! [`Staged`] it is given, so that the caller commits all of them or none.

pub mod bulletin;
pub mod catalogue;
pub mod lanperf;
pub mod ttcp1985;
pub mod ttcp1995;

use crate::report::atomic::Staged;
use crate::report::ReportError;
use crate::scenario::Override;

/// A published figure or table the simulator reproduces.
pub trait Reproduction: Sync {
    /// The reproduction's name: its folder in `src/repro/`, `data/`, `scenarios/`,
    /// `calibrations/` and its page `docs/repro/<name>.md`.
    fn name(&self) -> &'static str;
    /// Other names `ethersim reproduce` accepts for it.
    fn aliases(&self) -> &'static [&'static str];
    /// One sentence: what was published and what is reproduced (for `reproduce --list`).
    fn summary(&self) -> &'static str;
    /// Whether the results are set beside measurements; `false`: the source published no
    /// numbers, and the results are the model's prediction.
    fn measured(&self) -> bool;
    /// Whether `calibrations/<name>/fit.toml` fits its constants to the measurements.
    fn calibrated(&self) -> bool;
    /// The seeds every result is the mean over ([`crate::engine::seed::report_seeds`] of
    /// the reproduction's scenario seed).
    fn report_seeds(&self) -> Vec<u64>;
    /// The files it writes into the output directory (its images end in `.png`).
    fn files(&self) -> &'static [&'static str];
    /// Runs the reproduction with the `--set` overrides `set` applied to every scenario
    /// of it (on the current rayon pool), stages its files in `out` and returns the
    /// comparison table to print.
    fn run(&self, set: &[Override], out: &mut Staged) -> Result<String, ReproError>;
    /// The reproduction as indexed runs that separate processes can do ([`Indexed`]), or
    /// `None` if it runs only as a whole.
    fn indexed(&self) -> Option<&dyn Indexed> {
        None
    }
}

/// A reproduction split into independent runs, numbered from 0: each can run in its own
/// process (its result serialised losslessly), and [`Indexed::finish`] puts the results
/// together into the same files and table as [`Reproduction::run`], which is itself
/// every run followed by `finish`.
pub trait Indexed: Sync {
    /// How many runs.
    fn runs(&self) -> usize;
    /// What run `index` runs, as (name, value) pairs (`scenario`, `seed`).
    fn describe(&self, index: usize) -> Vec<(String, String)>;
    /// The name and text of every scenario and include the runs read, for the study's
    /// content hash.
    fn sources(&self) -> Vec<(&'static str, &'static str)>;
    /// Runs run `index` with the overrides `set`; its result as JSON (floats exact).
    fn run_one(&self, set: &[Override], index: usize) -> Result<serde_json::Value, ReproError>;
    /// Puts the results of every run (in run order) together: stages the files in `out`
    /// and returns the table to print.
    fn finish(
        &self,
        set: &[Override],
        runs: &[serde_json::Value],
        out: &mut Staged,
    ) -> Result<String, ReproError>;
}

/// Every reproduction, in the order `reproduce --list` shows them.
pub static REGISTRY: &[&dyn Reproduction] = &[
    &bulletin::Bulletin,
    &ttcp1995::Ttcp1995,
    &ttcp1985::Ttcp1985,
    &lanperf::Lanperf,
];

/// The reproduction called `name` (its name or an alias).
pub fn find(name: &str) -> Option<&'static dyn Reproduction> {
    REGISTRY
        .iter()
        .copied()
        .find(|r| r.name() == name || r.aliases().contains(&name))
}

/// Every name and alias the registry accepts, names first.
pub fn names() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = REGISTRY.iter().map(|r| r.name()).collect();
    v.extend(REGISTRY.iter().flat_map(|r| r.aliases().iter().copied()));
    v
}

/// A reproduction that could not run or could not write its files.
#[derive(Debug, thiserror::Error)]
pub enum ReproError {
    #[error(transparent)]
    Scenario(#[from] crate::scenario::ScenarioError),
    #[error(transparent)]
    Ttcp1995(#[from] ttcp1995::Ttcp1995Error),
    #[error(transparent)]
    Ttcp1985(#[from] ttcp1985::Ttcp1985Error),
    #[error(transparent)]
    Lanperf(#[from] lanperf::LanperfReproError),
    #[error(transparent)]
    Report(#[from] ReportError),
    /// A run's result that does not read back (a run file of another version).
    #[error("run {index}: its result does not read back: {message}")]
    RunResult { index: usize, message: String },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_registry_names_are_unique() {
        let all = names();
        let mut sorted = all.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), all.len(), "a name or alias repeats: {all:?}");
    }

    #[test]
    fn test_find_by_name_and_alias() {
        assert_eq!(find("bulletin").map(|r| r.name()), Some("bulletin"));
        assert_eq!(find("figure1").map(|r| r.name()), Some("bulletin"));
        assert_eq!(find("ttcp-1995").map(|r| r.name()), Some("ttcp1995"));
        assert!(find("figure2").is_none());
    }
}
