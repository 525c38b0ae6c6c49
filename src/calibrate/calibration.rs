//! The calibration file: which scenarios, which measurements, which constants, which
//! seeds. Parsed in two tiers like a scenario: a raw serde struct that rejects unknown
//! keys, then validation whose errors name the file, line and key.
//!
//! Paths in the file are relative to the file. Every check that can be made without
//! running the model is made here, before any run: the scenarios load and include the
//! calibrated hardware file; each parameter is a key of that file that at least one
//! scenario does not set itself; bounds are finite and non-empty, choices non-empty; the
//! measured CSV has the named columns and exactly the scenarios' points.
//!
//! The measurements are one `[measured]` table whose figure is the top-level `figure`,
//! or several `[[measured]]` tables, each naming its own `figure` (e.g. throughput and the
//! system CPU time of both sides, each from its column): every point is matched to the
//! simulated value of its table's figure, and the objective sums over all of them.
//! A table may give `scatter_percent`, its measurements' own run-to-run scatter in
//! percent of the value (0 < s <= 100): its points' errors are divided by it before the
//! objective squares or sums them, so figures that repeat poorly weigh less (weighted
//! least squares). Without it an error counts as it is.
//!
//! `point_bar_percent = P` (0 < P <= 100) puts a bar on every single point: a point whose
//! error (in percent of its measurement, before any scatter scaling) is beyond P adds
//! `point_bar_weight` (default [`DEFAULT_BAR_WEIGHT`], 0 < w <= [`MAX_BAR_WEIGHT`])
//! to the objective per percent beyond, so the search trades the sum for the worst point
//! when a fidelity bar is on the worst point as well as on the mean.
//!
//! `[line_bar]` puts bars on the shape of each throughput curve, the per-block and
//! per-byte costs of its straight line ([`super::line_bar`]).
//!
//! `overrides = ["KEY=VALUE", ...]` (at most [`MAX_OVERRIDES`]) are held in every scenario
//! of every evaluation, after the scenario and the trial hardware file, as `--set` holds
//! them: a hypothesis fitted without editing the scenarios. They are checked like `--set`
//! (each scenario loads with them) and may not name a fitted key.
//!
//! `extends = "../fit.toml"` makes the file a hypothesis on that fit: it holds only what it
//! changes, merged onto the fit by the rule of [`super::extends`] before the raw tier.
//! `[verdict]` records what was decided about the file and the objective `--evaluate`
//! gives for it ([`super::verdict`]).
//!
//! Where the searches start is never written in the file as a point: a fit searches from
//! the middle of the bounds and from `design_starts = N` (0..=[`MAX_DESIGN_STARTS`],
//! default 0) points of a Latin-hypercube design seeded by `design_seed` (a non-negative
//! integer, default [`DEFAULT_DESIGN_SEED`]) ([`super::design`]). A `start` in a
//! `[[parameter]]` and the former `search_from` are refused, naming the file, line and key.

use std::path::{Path, PathBuf};

use crate::scenario::de::from_value;
use crate::scenario::error::{FieldError, Location, Problem};
use crate::scenario::{self, Override, Scenario, ScenarioError, Source};

use super::design::{SearchStart, DEFAULT_DESIGN_SEED, MAX_DESIGN_STARTS};
use super::extends::{located_in, Merged};
use super::line_bar::{Bar, LineBar, RawLineBar, LINE_FIGURE};
use super::measured::{measured_tables, read_measured, Measured, MAX_SCATTER_PERCENT};
use super::parameter::{clip, Parameter, MAX_PARAMETERS};
use super::raw::RawFile;
use super::verdict::{RawVerdict, Verdict};
use super::CalibrationError;

/// Most seeds and evaluations a file may ask for.
pub const MAX_SEEDS: usize = 64;
/// Fewest report seeds: the seed noise of the objective, and with it whether a constant is
/// pinned down by the data, is a standard deviation over them (the fit's own `seeds` may
/// be fewer).
pub const MIN_REPORT_SEEDS: usize = 5;
/// Fewest scenarios cross-validation needs: each fold fits all but one of them.
pub const MIN_CROSS_VALIDATION_SCENARIOS: usize = 2;
pub const MAX_EVALUATIONS: u32 = 20_000;
/// Weight per percent beyond any bar (`point_bar_percent`, `[line_bar]`) when the file
/// gives none, and the largest allowed: one percent beyond a bar then costs what ten
/// points each one percent off do.
pub use super::line_bar::{DEFAULT_BAR_WEIGHT, MAX_BAR_WEIGHT};

/// What the fit minimises over the measured points, each error in percent of the measured
/// value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// Sum of squared percentage errors (the default).
    SquaredPercentageError,
    /// Sum of absolute percentage errors (less pulled by one bad point).
    AbsolutePercentageError,
}

impl Objective {
    pub const NAMES: [&'static str; 2] = ["squared_percentage_error", "absolute_percentage_error"];

    pub fn name(self) -> &'static str {
        match self {
            Objective::SquaredPercentageError => Self::NAMES[0],
            Objective::AbsolutePercentageError => Self::NAMES[1],
        }
    }

    /// The contribution of one point with error `pct` percent.
    pub fn term(self, pct: f64) -> f64 {
        match self {
            Objective::SquaredPercentageError => pct * pct,
            Objective::AbsolutePercentageError => pct.abs(),
        }
    }
}

/// A bar on every single point's error: each point whose error is more than `percent`
/// percent of its measurement adds `weight` to the objective per percent beyond it (the
/// same arithmetic as each bar of a [`LineBar`]).
pub type PointBar = Bar;

/// One scenario of the calibration, with its text (re-loaded with each trial hardware).
#[derive(Clone, Debug)]
pub struct CalScenario {
    pub name: String,
    pub source: Source,
    /// The point keys it produces, in its output order.
    pub keys: Vec<f64>,
}

/// A validated calibration file.
#[derive(Clone, Debug)]
pub struct Calibration {
    pub name: String,
    pub path: PathBuf,
    pub hardware: Source,
    pub scenarios: Vec<CalScenario>,
    /// The fitted figures, in the order of the measured tables (one for a `[measured]`
    /// table).
    pub figures: Vec<String>,
    pub key_column: String,
    pub objective: Objective,
    /// A bar on every single point's error, with its penalty (`point_bar_percent`).
    pub point_bar: Option<PointBar>,
    /// Bars on the shape of each throughput curve, with their penalties (`[line_bar]`).
    pub line_bar: Option<LineBar>,
    pub seeds: Vec<u64>,
    pub report_seeds: Vec<u64>,
    pub max_evaluations: u32,
    /// Searches from the seeded design besides the one from the middle (`design_starts`).
    /// A fold of cross-validation runs the same searches from the same starts.
    pub design_starts: u32,
    /// The seed of the design (`design_seed`).
    pub design_seed: u64,
    pub parameters: Vec<Parameter>,
    pub measured: Vec<Measured>,
    /// Settings held in every scenario of every evaluation (a hypothesis the scenarios do
    /// not carry): applied after the scenario and the trial hardware file, like `--set`.
    /// The fitted constants hold only under them, so they are never written in place.
    pub overrides: Vec<Override>,
    /// What was decided about the file and the objective that decided it (`[verdict]`).
    pub verdict: Option<Verdict>,
    /// The file it extends (`extends`), if any: a hypothesis on that fit.
    pub extends: Option<PathBuf>,
    /// The file that gives `scenarios` (to locate a refusal of cross-validation).
    scenarios_from: Source,
    /// Where each parameter's `key` is written (to locate a refusal of it).
    parameter_at: Vec<Location>,
}

/// Most `overrides` a calibration file may hold.
pub const MAX_OVERRIDES: usize = 32;

fn relative(base: &Path, p: &str) -> PathBuf {
    base.parent().unwrap_or(Path::new(".")).join(p)
}

/// The seeds at `key`: `min..=MAX_SEEDS` distinct non-negative integers.
fn seeds(v: &[i64], key: &str, min: usize) -> Result<Vec<u64>, FieldError> {
    if v.len() < min || v.len() > MAX_SEEDS {
        return Err(FieldError::invalid(
            key,
            format!(
                "needs at least {min} distinct seeds (at most {MAX_SEEDS}), has {}",
                v.len()
            ),
        ));
    }
    let mut out = Vec::with_capacity(v.len());
    for (i, &s) in v.iter().enumerate() {
        if s < 0 {
            return Err(FieldError::range(
                format!("{key}[{i}]"),
                s,
                "0..=9223372036854775807",
            ));
        }
        if out.contains(&(s as u64)) {
            return Err(FieldError::invalid(
                format!("{key}[{i}]"),
                format!("seed {s} is listed twice"),
            ));
        }
        out.push(s as u64);
    }
    Ok(out)
}

impl Calibration {
    /// Reads and validates the calibration file at `path` (and the files it names); the
    /// check that each fitted constant is used is [`Calibration::load`]'s.
    pub(super) fn read(path: &Path) -> Result<Calibration, CalibrationError> {
        let merged = Merged::resolve(Source::read(path)?)?;
        let raw: RawFile =
            from_value(toml::Value::Table(merged.doc.clone()), "").map_err(|e| merged.locate(e))?;
        let err = |e: FieldError| merged.locate(e);
        let verdict = raw
            .verdict
            .as_ref()
            .map(RawVerdict::validate)
            .transpose()
            .map_err(err)?;

        let objective = match raw.objective.as_deref() {
            None | Some("squared_percentage_error") => Objective::SquaredPercentageError,
            Some("absolute_percentage_error") => Objective::AbsolutePercentageError,
            Some(other) => {
                return Err(err(FieldError::new(
                    "objective",
                    Problem::UnknownVariant {
                        value: clip(other),
                        suggestions: vec![],
                        valid: Objective::NAMES.iter().map(|s| s.to_string()).collect(),
                    },
                )))
            }
        };
        let point_bar = point_bar(raw.point_bar_percent, raw.point_bar_weight).map_err(err)?;
        let line_bar = raw
            .line_bar
            .as_ref()
            .map(RawLineBar::validate)
            .transpose()
            .map_err(err)?;
        let fit_seeds = seeds(&raw.seeds, "seeds", 1).map_err(err)?;
        let report_seeds = match &raw.report_seeds {
            Some(v) => seeds(v, "report_seeds", MIN_REPORT_SEEDS).map_err(err)?,
            None if fit_seeds.len() < MIN_REPORT_SEEDS => {
                return Err(err(FieldError::invalid(
                    "report_seeds",
                    format!(
                        "absent, so the results would be reported over the {} fit seeds: give at \
                         least {MIN_REPORT_SEEDS} distinct report seeds (the seed noise is their \
                         standard deviation)",
                        fit_seeds.len()
                    ),
                )))
            }
            None => fit_seeds.clone(),
        };
        let max_evaluations = raw.max_evaluations.unwrap_or(600);
        if !(1..=MAX_EVALUATIONS as i64).contains(&max_evaluations) {
            return Err(err(FieldError::range(
                "max_evaluations",
                max_evaluations,
                format!("1..={MAX_EVALUATIONS}"),
            )));
        }

        if raw.search_from.is_some() {
            return Err(err(FieldError::invalid(
                "search_from",
                "is no longer accepted: every fit searches from the middle of the bounds, plus \
                 `design_starts = N` searches from a seeded Latin-hypercube design \
                 (`design_seed`); remove the line",
            )));
        }
        let design_starts = raw.design_starts.unwrap_or(0);
        if !(0..=MAX_DESIGN_STARTS as i64).contains(&design_starts) {
            return Err(err(FieldError::range(
                "design_starts",
                design_starts,
                format!("0..={MAX_DESIGN_STARTS}"),
            )));
        }
        let design_seed = raw.design_seed.unwrap_or(DEFAULT_DESIGN_SEED as i64);
        if design_seed < 0 {
            return Err(err(FieldError::range(
                "design_seed",
                design_seed,
                "0..=9223372036854775807",
            )));
        }

        let tables = measured_tables(raw.measured, raw.figure).map_err(err)?;
        let key_column = tables[0].1.key_column.clone();
        let mut figures: Vec<String> = Vec::new();
        for (_, t) in &tables {
            let f = t.figure.clone().expect("measured_tables names each figure");
            if !figures.contains(&f) {
                figures.push(f);
            }
        }

        // the hardware file whose keys are fitted
        let hw_path = relative(path, &raw.hardware);
        let hardware = Source::read(&hw_path).map_err(|e| match e {
            ScenarioError::Read { err: io, .. } => err(FieldError::invalid(
                "hardware",
                format!("cannot read {}: {io}", clip(&hw_path.display().to_string())),
            )),
            other => CalibrationError::File(other),
        })?;
        let hw_doc = hardware.parse()?;
        let hw_canon = std::fs::canonicalize(&hw_path).unwrap_or(hw_path.clone());

        // the settings held in every scenario
        if raw.overrides.len() > MAX_OVERRIDES {
            return Err(err(FieldError::invalid(
                "overrides",
                format!("at most {MAX_OVERRIDES} settings, has {}", raw.overrides.len()),
            )));
        }
        let overrides_path = &merged.source_of("overrides").path;
        let file_name = overrides_path.file_name().map_or_else(
            || overrides_path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let mut overrides = Vec::new();
        for (i, text) in raw.overrides.iter().enumerate() {
            let mut o = Override::parse(text).map_err(|e| match e {
                ScenarioError::BadOverride { message, .. } => {
                    err(FieldError::invalid(format!("overrides[{i}]"), message))
                }
                other => CalibrationError::File(other),
            })?;
            o.arg = format!("overrides[{i}] `{}` of {file_name}", clip(text));
            overrides.push(o);
        }

        // the scenarios
        if raw.scenarios.is_empty() {
            return Err(err(FieldError::invalid(
                "scenarios",
                "needs at least one scenario",
            )));
        }
        let mut scenarios = Vec::new();
        let mut docs = Vec::new();
        for (i, s) in raw.scenarios.iter().enumerate() {
            let p = relative(path, s);
            let source = Source::read(&p).map_err(|e| match e {
                ScenarioError::Read { err: io, .. } => err(FieldError::invalid(
                    format!("scenarios[{i}]"),
                    format!("cannot read {}: {io}", clip(&p.display().to_string())),
                )),
                other => CalibrationError::File(other),
            })?;
            let loaded: Scenario = scenario::load_source(&source, &overrides)?;
            // a scenario of one workload includes it; one of nodes takes profiles from it
            let includes = loaded
                .files
                .iter()
                .any(|h| std::fs::canonicalize(h).unwrap_or(h.clone()) == hw_canon);
            if !includes {
                return Err(err(FieldError::invalid(
                    format!("scenarios[{i}]"),
                    format!(
                        "{} does not read the calibrated hardware file {} (its `hardware` key must name it, or its profiles take `from` it)",
                        p.display(),
                        hw_path.display()
                    ),
                )));
            }
            if scenarios.iter().any(|c: &CalScenario| c.name == loaded.name) {
                return Err(err(FieldError::invalid(
                    format!("scenarios[{i}]"),
                    format!("two scenarios are named {:?}", loaded.name),
                )));
            }
            let keys = crate::run::point_keys(&loaded, &key_column).map_err(|m| {
                err(FieldError::invalid(
                    format!("{}.key_column", tables[0].0),
                    clip_message(&m),
                ))
            })?;
            for (at, t) in &tables {
                let f = t.figure.as_deref().expect("named");
                if !crate::run::point_columns(&loaded).contains(&f) {
                    let key = if at == "measured" {
                        "figure".to_string()
                    } else {
                        format!("{at}.figure")
                    };
                    return Err(err(FieldError::new(
                        key,
                        Problem::UnknownVariant {
                            value: clip(f),
                            suggestions: vec![],
                            valid: crate::run::point_columns(&loaded)
                                .iter()
                                .map(|s| s.to_string())
                                .collect(),
                        },
                    )));
                }
            }
            docs.push(source.parse()?);
            scenarios.push(CalScenario {
                name: loaded.name.clone(),
                source,
                keys,
            });
        }

        // the parameters
        if raw.parameter.is_empty() || raw.parameter.len() > MAX_PARAMETERS {
            return Err(err(FieldError::invalid(
                "parameter",
                format!(
                    "needs 1..={MAX_PARAMETERS} [[parameter]] tables, has {}",
                    raw.parameter.len()
                ),
            )));
        }
        let mut parameters: Vec<Parameter> = Vec::new();
        let held: Vec<String> = overrides.iter().map(|o| o.keys.join(".")).collect();
        for (i, p) in raw.parameter.iter().enumerate() {
            let param = p.validate(i, &hw_doc, &hw_path, &docs, &held, &parameters, &err)?;
            parameters.push(param);
        }

        // the measurements
        let mut measured = Vec::new();
        for (at, t) in &tables {
            if let Some(sc) = t.scatter_percent {
                if !(sc.is_finite() && sc > 0.0 && sc <= MAX_SCATTER_PERCENT) {
                    return Err(err(FieldError::range(
                        format!("{at}.scatter_percent"),
                        sc,
                        format!("(0, {MAX_SCATTER_PERCENT}]"),
                    )));
                }
            }
            let m_path = relative(path, &t.file);
            let f = t.figure.as_deref().expect("named");
            let figure = figures.iter().position(|g| g == f).expect("listed");
            let points: Vec<(&str, &[f64])> = scenarios
                .iter()
                .map(|s| (s.name.as_str(), s.keys.as_slice()))
                .collect();
            measured.extend(read_measured(&m_path, t, figure, &points).map_err(|m| {
                err(FieldError::invalid(
                    format!("{at}.file"),
                    format!("{}: {m}", clip(&m_path.display().to_string())),
                ))
            })?);
        }

        if let Some(bar) = &line_bar {
            let names: Vec<String> = scenarios.iter().map(|s| s.name.clone()).collect();
            bar.check(figures.iter().position(|f| f == LINE_FIGURE), &measured, &names)
                .map_err(err)?;
        }

        let parameter_at = (0..parameters.len())
            .map(
                |i| match err(FieldError::invalid(format!("parameter[{i}].key"), "")) {
                    CalibrationError::File(ScenarioError::Field { at, .. }) => at,
                    _ => Location::FileOnly {
                        path: path.to_path_buf(),
                    },
                },
            )
            .collect();
        let cal = Calibration {
            name: raw.name.unwrap_or_else(|| {
                path.file_stem()
                    .map_or("calibration".into(), |s| s.to_string_lossy().into_owned())
            }),
            path: path.to_path_buf(),
            hardware,
            scenarios,
            figures,
            key_column,
            objective,
            point_bar,
            line_bar,
            seeds: fit_seeds,
            report_seeds,
            max_evaluations: max_evaluations as u32,
            design_starts: design_starts as u32,
            design_seed: design_seed as u64,
            parameters,
            measured,
            overrides,
            verdict,
            extends: merged.parent.as_ref().map(|p| p.path.clone()),
            scenarios_from: merged.source_of("scenarios").clone(),
            parameter_at,
        };
        Ok(cal)
    }

    /// A refusal of parameter `index`, located at its `key`.
    pub(super) fn parameter_error(&self, index: usize, message: String) -> CalibrationError {
        let key = format!("parameter[{index}].key");
        CalibrationError::File(ScenarioError::Field {
            at: self
                .parameter_at
                .get(index)
                .cloned()
                .unwrap_or(Location::FileOnly {
                    path: self.path.clone(),
                }),
            key,
            problem: Box::new(Problem::Invalid { message }),
        })
    }

    /// The searches of a fit, in order: the middle, then each design point.
    pub fn searches(&self) -> Vec<SearchStart> {
        SearchStart::all(self.design_starts)
    }

    /// Refuses cross-validation of a calibration with fewer than
    /// [`MIN_CROSS_VALIDATION_SCENARIOS`] scenarios (a fold would fit to none), at the key
    /// `scenarios` of the file that gives it. Checked before any search.
    pub fn check_cross_validation(&self) -> Result<(), CalibrationError> {
        let n = self.scenarios.len();
        if n >= MIN_CROSS_VALIDATION_SCENARIOS {
            return Ok(());
        }
        Err(located_in(
            &self.scenarios_from,
            FieldError::invalid(
                "scenarios",
                format!(
                    "cross-validation holds out one scenario at a time and fits the others: it \
                     needs at least {MIN_CROSS_VALIDATION_SCENARIOS} scenarios, has {n}"
                ),
            ),
        ))
    }

    /// The objective as the report names it: its kind, whether errors are counted in
    /// units of their tables' scatter, and the bar on single points with its weight.
    pub fn objective_label(&self) -> String {
        let mut label = self.objective.name().to_string();
        if self.measured.iter().any(|m| m.scatter_pct != 1.0) {
            label += ", each error in units of its table's scatter_percent";
        }
        if let Some(bar) = self.point_bar {
            label += &format!(
                ", plus {} per percent any point is beyond {}%",
                bar.weight, bar.percent
            );
        }
        if let Some(bar) = self.line_bar {
            label += &format!(", {}", bar.label());
        }
        label
    }

    /// The calibration restricted to the scenarios in `keep` (indices), for a fold of
    /// cross-validation.
    pub fn subset(&self, keep: &[usize]) -> Calibration {
        let mut c = self.clone();
        c.scenarios = keep.iter().map(|&i| self.scenarios[i].clone()).collect();
        c.measured = self
            .measured
            .iter()
            .filter_map(|m| {
                let pos = keep.iter().position(|&k| k == m.scenario)?;
                Some(Measured {
                    scenario: pos,
                    ..m.clone()
                })
            })
            .collect();
        c
    }
}

/// A message quoting input (a key or column name), escaped and cut to a bounded length.
fn clip_message(m: &str) -> String {
    crate::scenario::error::clip(&crate::scenario::error::escape(m), 400)
}

/// `point_bar_percent` and `point_bar_weight`: none without the bar, and a weight only
/// with a bar; the ranges and default of every bar ([`super::line_bar::bar`]).
fn point_bar(percent: Option<f64>, weight: Option<f64>) -> Result<Option<PointBar>, FieldError> {
    super::line_bar::bar("point_bar_percent", percent, "point_bar_weight", weight)
}
