//! `ethersim calibrate`: fit constants of a hardware file to measurements.
//!
//! The modules, each depending only on those above it:
//!
//! - [`measured`]: the `[measured]` tables and the measured CSV, one point per row.
//! - [`line_bar`]: the bars on each throughput curve's per-block and per-byte costs.
//! - [`parameter`]: the constants to fit, their domains and middles, and how a trial
//!   value is rounded.
//! - [`design`]: where the searches start: the middle, and a seeded Latin-hypercube design
//!   that depends on nothing measured.
//! - [`verdict`]: the `[verdict]` of a file: kept or rejected, at which objective, why.
//! - [`extends`]: a hypothesis file on its fit: the merge rule of `extends`, `remove`
//!   and `remove_parameters`, and errors located in the file that gives the key.
//! - `raw`: the raw serde tier of a calibration file (unknown keys refused).
//! - [`calibration`]: the validated calibration (scenarios, measurements, parameters,
//!   seeds, bars), loaded in two tiers with errors that name file, line and key.
//! - [`trial`]: one evaluation: the hardware file with trial values (written with
//!   `toml_edit`, so every comment survives), every scenario run on every seed, the
//!   objective over the measured points.
//! - [`budget`]: the most a fit and its cross-validation can cost, admitted before any
//!   run against a limit of CPU hours.
//! - [`search`]: the fit: Nelder-Mead (argmin) over the continuous constants, in
//!   coordinates scaled to their bounds, and an explicit search over the discrete ones;
//!   then the sensitivity of the objective to each constant and the seed noise.
//! - [`report`]: the calibration's results as text, CSV and a chart (formatting only).
//!
//! Every file calibrate reads (the calibration file, the file it `extends`, the hardware
//! file, the scenarios and each measured CSV) is read as a scenario file is
//! ([`crate::scenario::Source::read`]): a regular file (a FIFO or device is refused before
//! it is opened, so nothing blocks) of at most
//! [`crate::scenario::source::MAX_FILE_BYTES`] (1 MiB). Everything that can be refused is
//! refused before any search and before any output is written: measured values below
//! [`measured::MIN_MEASURED`], fewer than [`calibration::MIN_REPORT_SEEDS`] report seeds,
//! integer bounds without an integer inside, cross-validation over fewer than two
//! scenarios, and a search whose objective at its start is not finite.
//!
//! The objective is deterministic: every evaluation runs the same seeds (common random
//! numbers), and runs go in parallel on the current rayon pool but are combined in a fixed
//! order, so the result is the same for any number of threads. The searches start from the
//! middle of the bounds and from a seeded design, never from the hardware file's current
//! values nor from any point chosen by hand. Trial values are rounded to 6 significant digits (integers for integer
//! keys) before they are evaluated, so the written file reproduces the fit exactly.

pub mod budget;
pub mod calibration;
pub mod design;
pub mod extends;
pub mod line_bar;
pub mod measured;
pub mod parameter;
mod raw;
pub mod report;
pub mod search;
pub mod trial;
pub mod verdict;

pub use calibration::{Calibration, Objective};
pub use design::SearchStart;
pub use measured::Measured;
pub use parameter::{Domain, Parameter};
pub use search::{
    cross_validate, cross_validate_fold, evaluate, fit, Fit, Fold, ParamFit, Progress, ScenarioFit,
};
pub use verdict::{Decision, Verdict};

use crate::scenario::ScenarioError;

/// Why a calibration cannot run or stopped.
#[derive(Debug, thiserror::Error)]
pub enum CalibrationError {
    /// The calibration file, or a file it names, is unreadable or invalid (located).
    #[error(transparent)]
    File(#[from] ScenarioError),
    /// A trial value makes a scenario invalid (the bounds allow a value the model does not).
    #[error("with {key} = {value}, scenario {scenario} is invalid: {err}")]
    Trial {
        key: String,
        value: String,
        scenario: String,
        err: Box<ScenarioError>,
    },
    /// The objective is not finite where a search starts (or at the values judged): a
    /// measurement or its scatter makes a point's error overflow.
    #[error("{0}")]
    NotFinite(String),
    /// The calibration's estimated cost is beyond the limit it was given.
    #[error("{0}")]
    Budget(String),
    /// A fitted constant no scenario's model uses (each sets it itself, or an override
    /// holds it).
    #[error("parameter[{index}]: {message}")]
    Unused { index: usize, message: String },
    /// The fitted hardware text cannot be built.
    #[error("cannot edit the hardware file: {0}")]
    Edit(String),
}
