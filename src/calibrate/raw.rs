//! The raw tier of a calibration file: serde structs that mirror the TOML and reject
//! unknown keys. Nothing here is checked beyond its TOML type; [`super::calibration`]
//! validates it and names the file, line and key of any error. `extends`, `remove` and
//! `remove_parameters` never reach it: [`super::extends`] consumes them.

use serde::Deserialize;

use super::line_bar::RawLineBar;
use super::parameter::RawParameter;
use super::verdict::RawVerdict;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFile {
    pub(super) name: Option<String>,
    pub(super) hardware: String,
    pub(super) scenarios: Vec<String>,
    pub(super) figure: Option<String>,
    pub(super) objective: Option<String>,
    /// A bar on every point's error, in percent: points beyond it add a penalty.
    pub(super) point_bar_percent: Option<f64>,
    /// The penalty per percent beyond the bar.
    pub(super) point_bar_weight: Option<f64>,
    /// Bars on each curve's per-block and per-byte costs (a, b of t = a + b·B).
    pub(super) line_bar: Option<RawLineBar>,
    pub(super) seeds: Vec<i64>,
    pub(super) report_seeds: Option<Vec<i64>>,
    pub(super) max_evaluations: Option<i64>,
    /// Refused: every fit searches from the middle and from `design_starts` design points.
    pub(super) search_from: Option<toml::Value>,
    /// Searches from a seeded Latin-hypercube design, besides the one from the middle.
    pub(super) design_starts: Option<i64>,
    /// The seed of that design.
    pub(super) design_seed: Option<i64>,
    /// One table, or an array of tables each with its `figure`.
    pub(super) measured: toml::Value,
    /// `KEY=VALUE` settings held in every scenario while fitting (as `--set` would).
    #[serde(default)]
    pub(super) overrides: Vec<String>,
    #[serde(default)]
    pub(super) parameter: Vec<RawParameter>,
    /// What was decided about the file (never inherited through `extends`).
    pub(super) verdict: Option<RawVerdict>,
}
