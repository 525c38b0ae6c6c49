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

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::scenario::de::from_value;
use crate::scenario::error::{FieldError, Location, Problem};
use crate::scenario::source::parse_path;
use crate::scenario::{self, Override, Scenario, ScenarioError, Source};

use super::line_bar::{Bar, LineBar, RawLineBar, LINE_FIGURE};
use super::CalibrationError;

/// Most seeds, parameters, choices per parameter and evaluations a file may ask for.
pub const MAX_SEEDS: usize = 64;
pub const MAX_PARAMETERS: usize = 32;
pub const MAX_CHOICES: usize = 64;
pub const MAX_EVALUATIONS: u32 = 20_000;
/// Largest `scatter_percent` of a measured table: a measurement that scatters by more
/// than its own value says nothing.
pub const MAX_SCATTER_PERCENT: f64 = 100.0;
/// Weight per percent beyond any bar (`point_bar_percent`, `[line_bar]`) when the file
/// gives none, and the largest allowed: one percent beyond a bar then costs what ten
/// points each one percent off do.
pub use super::line_bar::{DEFAULT_BAR_WEIGHT, MAX_BAR_WEIGHT};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    name: Option<String>,
    hardware: String,
    scenarios: Vec<String>,
    figure: Option<String>,
    objective: Option<String>,
    /// A bar on every point's error, in percent: points beyond it add a penalty.
    point_bar_percent: Option<f64>,
    /// The penalty per percent beyond the bar.
    point_bar_weight: Option<f64>,
    /// Bars on each curve's per-block and per-byte costs (a, b of t = a + b·B).
    line_bar: Option<RawLineBar>,
    seeds: Vec<i64>,
    report_seeds: Option<Vec<i64>>,
    max_evaluations: Option<i64>,
    /// Where the searches start (`"start"`, `"middle"`), one search each.
    search_from: Option<Vec<String>>,
    /// One table, or an array of tables each with its `figure`.
    measured: toml::Value,
    /// `KEY=VALUE` settings held in every scenario while fitting (as `--set` would).
    #[serde(default)]
    overrides: Vec<String>,
    #[serde(default)]
    parameter: Vec<RawParameter>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMeasured {
    /// The simulated figure its values are compared with (with `[[measured]]`).
    figure: Option<String>,
    file: String,
    scenario_column: String,
    key_column: String,
    value_column: String,
    /// The measurement's own run-to-run scatter, in percent of its value: each error is
    /// divided by it before the objective squares or sums it (weighted least squares).
    scatter_percent: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawParameter {
    key: String,
    min: Option<f64>,
    max: Option<f64>,
    start: Option<toml::Value>,
    choices: Option<Vec<toml::Value>>,
}

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

/// The values a parameter may take.
#[derive(Clone, Debug, PartialEq)]
pub enum Domain {
    /// A real number in `[min, max]`; written as an integer if `integer`.
    Continuous { min: f64, max: f64, integer: bool },
    /// One of a list of TOML values.
    Discrete { choices: Vec<toml::Value> },
}

/// Where one search of the fit starts (`search_from`). The fit keeps the lowest objective
/// its searches reach; each search has the whole `max_evaluations`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchStart {
    /// Each constant's `start` (the middle of its bounds where it has none).
    Stated,
    /// The middle of every constant's bounds (its middle choice).
    Middle,
}

impl SearchStart {
    pub const NAMES: [&'static str; 2] = ["start", "middle"];

    pub fn name(self) -> &'static str {
        match self {
            SearchStart::Stated => Self::NAMES[0],
            SearchStart::Middle => Self::NAMES[1],
        }
    }
}

/// One constant to fit: a key of the hardware file.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameter {
    pub key: String,
    pub domain: Domain,
    /// Where the search starts: the stated `start`, else the middle of the bounds (the
    /// middle choice), never the hardware file's current value.
    pub start: toml::Value,
    /// The middle of the bounds (the middle choice): where a search from `"middle"` starts.
    pub middle: toml::Value,
    /// The hardware file's current value (the "before" of the report).
    pub current: toml::Value,
}

/// One measured point.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// Index into [`Calibration::scenarios`].
    pub scenario: usize,
    /// Index into [`Calibration::figures`]: the simulated figure it is compared with.
    pub figure: usize,
    pub key: f64,
    pub value: f64,
    /// The measurement's run-to-run scatter, percent of its value: the objective counts
    /// the point's error in units of it (1 when the table does not give one, so the
    /// error counts as it is).
    pub scatter_pct: f64,
}

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
    /// The searches of a fit, in order (at least one; `[Stated]` by default). A fold of
    /// cross-validation runs the same searches.
    pub search_from: Vec<SearchStart>,
    pub parameters: Vec<Parameter>,
    pub measured: Vec<Measured>,
    /// Settings held in every scenario of every evaluation (a hypothesis the scenarios do
    /// not carry): applied after the scenario and the trial hardware file, like `--set`.
    /// The fitted constants hold only under them, so they are never written in place.
    pub overrides: Vec<Override>,
}

/// Most `overrides` a calibration file may hold.
pub const MAX_OVERRIDES: usize = 32;

fn located(src: &Source, e: FieldError) -> CalibrationError {
    let steps = parse_path(&e.path);
    let at = match src.find(&steps) {
        Some((depth, offset)) if depth > 0 => src.location(offset),
        _ => Location::FileOnly {
            path: src.path.clone(),
        },
    };
    CalibrationError::File(ScenarioError::Field {
        at,
        key: e.path,
        problem: Box::new(e.problem),
    })
}

fn relative(base: &Path, p: &str) -> PathBuf {
    base.parent().unwrap_or(Path::new(".")).join(p)
}

fn seeds(v: &[i64], key: &str) -> Result<Vec<u64>, FieldError> {
    if v.is_empty() || v.len() > MAX_SEEDS {
        return Err(FieldError::invalid(
            key,
            format!("needs 1..={MAX_SEEDS} seeds, has {}", v.len()),
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

/// The value at dotted `key` in `table`, if present.
pub fn lookup<'a>(table: &'a toml::Table, key: &str) -> Option<&'a toml::Value> {
    let mut parts = key.split('.');
    let mut v = table.get(parts.next()?)?;
    for p in parts {
        v = v.as_table()?.get(p)?;
    }
    Some(v)
}

fn number(v: &toml::Value) -> Option<f64> {
    match v {
        toml::Value::Integer(i) => Some(*i as f64),
        toml::Value::Float(f) => Some(*f),
        _ => None,
    }
}

impl Calibration {
    /// Reads and validates the calibration file at `path` (and the files it names).
    pub fn load(path: &Path) -> Result<Calibration, CalibrationError> {
        let src = Source::read(path)?;
        let doc = src.parse()?;
        let raw: RawFile = from_value(toml::Value::Table(doc), "").map_err(|e| located(&src, e))?;
        let err = |e: FieldError| located(&src, e);

        let objective = match raw.objective.as_deref() {
            None | Some("squared_percentage_error") => Objective::SquaredPercentageError,
            Some("absolute_percentage_error") => Objective::AbsolutePercentageError,
            Some(other) => {
                return Err(err(FieldError::new(
                    "objective",
                    Problem::UnknownVariant {
                        value: other.to_string(),
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
        let fit_seeds = seeds(&raw.seeds, "seeds").map_err(err)?;
        let report_seeds = match &raw.report_seeds {
            Some(v) => seeds(v, "report_seeds").map_err(err)?,
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

        let search_from = search_starts(raw.search_from.as_deref()).map_err(err)?;

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
                format!("cannot read {}: {io}", hw_path.display()),
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
        let file_name = path.file_name().map_or_else(
            || path.display().to_string(),
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
                    format!("cannot read {}: {io}", p.display()),
                )),
                other => CalibrationError::File(other),
            })?;
            let loaded: Scenario = scenario::load_source(&source, &overrides)?;
            let includes = loaded
                .hardware
                .as_ref()
                .map(|h| std::fs::canonicalize(h).unwrap_or(h.clone()));
            if includes.as_ref() != Some(&hw_canon) {
                return Err(err(FieldError::invalid(
                    format!("scenarios[{i}]"),
                    format!(
                        "{} does not include the calibrated hardware file {} (its `hardware` key must name it)",
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
            let keys = crate::run::point_keys(&loaded, &key_column)
                .map_err(|m| err(FieldError::invalid(format!("{}.key_column", tables[0].0), m)))?;
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
                            value: f.to_string(),
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
        for (i, p) in raw.parameter.iter().enumerate() {
            let at = |k: &str| format!("parameter[{i}].{k}");
            let Some(current) = lookup(&hw_doc, &p.key).cloned() else {
                return Err(err(FieldError::invalid(
                    at("key"),
                    format!(
                        "`{}` is not a key of the hardware file {}",
                        clip(&p.key),
                        hw_path.display()
                    ),
                )));
            };
            if overrides.iter().any(|o| o.keys.join(".") == p.key) {
                return Err(err(FieldError::invalid(
                    at("key"),
                    format!("`{}` is both fitted and held by `overrides`", clip(&p.key)),
                )));
            }
            if parameters.iter().any(|q| q.key == p.key) {
                return Err(err(FieldError::invalid(
                    at("key"),
                    format!("`{}` is fitted twice", clip(&p.key)),
                )));
            }
            if docs.iter().all(|d| lookup(d, &p.key).is_some()) {
                return Err(err(FieldError::invalid(
                    at("key"),
                    format!(
                        "every scenario sets `{}` itself, so no scenario uses the hardware file's value",
                        clip(&p.key)
                    ),
                )));
            }
            let (domain, start, middle) =
                match (&p.choices, p.min, p.max) {
                    (Some(choices), None, None) => {
                        if choices.is_empty() || choices.len() > MAX_CHOICES {
                            return Err(err(FieldError::invalid(
                                at("choices"),
                                format!("needs 1..={MAX_CHOICES} choices, has {}", choices.len()),
                            )));
                        }
                        for (j, c) in choices.iter().enumerate() {
                            if c.type_str() != current.type_str() {
                                return Err(err(FieldError::invalid(
                                    format!("parameter[{i}].choices[{j}]"),
                                    format!(
                                        "a {} where the hardware file has a {}",
                                        c.type_str(),
                                        current.type_str()
                                    ),
                                )));
                            }
                        }
                        let start = match &p.start {
                            Some(s) if choices.contains(s) => s.clone(),
                            Some(s) => {
                                return Err(err(FieldError::invalid(
                                    at("start"),
                                    format!("{s} is not one of the choices"),
                                )))
                            }
                            None => choices[(choices.len() - 1) / 2].clone(),
                        };
                        let middle = choices[(choices.len() - 1) / 2].clone();
                        (
                            Domain::Discrete {
                                choices: choices.clone(),
                            },
                            start,
                            middle,
                        )
                    }
                    (None, Some(min), Some(max)) => {
                        let integer = matches!(current, toml::Value::Integer(_));
                        if number(&current).is_none() {
                            return Err(err(FieldError::invalid(
                                at("key"),
                                format!(
                                    "the hardware file's `{}` is not a number: give `choices`",
                                    clip(&p.key)
                                ),
                            )));
                        }
                        if !(min.is_finite() && max.is_finite() && min < max) {
                            return Err(err(FieldError::range(
                                at("max"),
                                format!("[{min}, {max}]"),
                                "finite bounds with min < max",
                            )));
                        }
                        let start = match &p.start {
                            None => (min + max) / 2.0,
                            Some(v) => match number(v) {
                                Some(s) if (min..=max).contains(&s) => s,
                                _ => {
                                    return Err(err(FieldError::range(
                                        at("start"),
                                        v,
                                        format!("a number in [{min}, {max}]"),
                                    )));
                                }
                            },
                        };
                        let domain = Domain::Continuous { min, max, integer };
                        let start = super::trial::written(&domain, start);
                        let middle = super::trial::written(&domain, (min + max) / 2.0);
                        (domain, start, middle)
                    }
                    _ => return Err(err(FieldError::invalid(
                        format!("parameter[{i}]"),
                        "give either `min` and `max` (a continuous constant) or `choices` (a discrete one)",
                    ))),
                };
            parameters.push(Parameter {
                key: p.key.clone(),
                domain,
                start,
                middle,
                current,
            });
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
            measured.extend(read_measured(&m_path, t, figure, &scenarios).map_err(|m| {
                err(FieldError::invalid(
                    format!("{at}.file"),
                    format!("{}: {m}", m_path.display()),
                ))
            })?);
        }

        if let Some(bar) = &line_bar {
            let names: Vec<String> = scenarios.iter().map(|s| s.name.clone()).collect();
            bar.check(figures.iter().position(|f| f == LINE_FIGURE), &measured, &names)
                .map_err(err)?;
        }

        Ok(Calibration {
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
            search_from,
            parameters,
            measured,
            overrides,
        })
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

/// `point_bar_percent` and `point_bar_weight`: none without the bar, and a weight only
/// with a bar; the ranges and default of every bar ([`super::line_bar::bar`]).
fn point_bar(percent: Option<f64>, weight: Option<f64>) -> Result<Option<PointBar>, FieldError> {
    super::line_bar::bar("point_bar_percent", percent, "point_bar_weight", weight)
}

/// `search_from`: one to two distinct names of [`SearchStart`]; `["start"]` when absent.
fn search_starts(names: Option<&[String]>) -> Result<Vec<SearchStart>, FieldError> {
    let Some(names) = names else {
        return Ok(vec![SearchStart::Stated]);
    };
    if names.is_empty() || names.len() > SearchStart::NAMES.len() {
        return Err(FieldError::invalid(
            "search_from",
            format!(
                "needs 1..={} of {:?}, has {}",
                SearchStart::NAMES.len(),
                SearchStart::NAMES,
                names.len()
            ),
        ));
    }
    let mut out = Vec::new();
    for (i, n) in names.iter().enumerate() {
        let s = match n.as_str() {
            "start" => SearchStart::Stated,
            "middle" => SearchStart::Middle,
            other => {
                return Err(FieldError::invalid(
                    format!("search_from[{i}]"),
                    format!("`{}` is not one of {:?}", clip(other), SearchStart::NAMES),
                ))
            }
        };
        if out.contains(&s) {
            return Err(FieldError::invalid(
                format!("search_from[{i}]"),
                format!("`{n}` is given twice"),
            ));
        }
        out.push(s);
    }
    Ok(out)
}

/// The measured tables with their key paths (`measured`, or `measured[i]`), each with
/// its figure: a `[measured]` table takes the top-level `figure`; `[[measured]]` tables
/// name their own (and then there is no top-level one). All share the key column.
fn measured_tables(
    value: toml::Value,
    figure: Option<String>,
) -> Result<Vec<(String, RawMeasured)>, FieldError> {
    let mut tables = Vec::new();
    match value {
        toml::Value::Array(items) => {
            if items.is_empty() {
                return Err(FieldError::invalid(
                    "measured",
                    "needs at least one [[measured]] table",
                ));
            }
            if figure.is_some() {
                return Err(FieldError::invalid(
                    "figure",
                    "with [[measured]] tables each names its own `figure`: drop the top-level one",
                ));
            }
            for (i, item) in items.into_iter().enumerate() {
                let at = format!("measured[{i}]");
                let t: RawMeasured = from_value(item, &at)?;
                if t.figure.is_none() {
                    return Err(FieldError::invalid(
                        format!("{at}.figure"),
                        "missing: which simulated figure these values are",
                    ));
                }
                tables.push((at, t));
            }
        }
        other => {
            let mut t: RawMeasured = from_value(other, "measured")?;
            match (t.figure.is_some(), figure) {
                (false, Some(f)) => t.figure = Some(f),
                (true, None) => {}
                (true, Some(_)) => {
                    return Err(FieldError::invalid(
                        "measured.figure",
                        "the figure is given twice (here and at the top level)",
                    ))
                }
                (false, None) => {
                    return Err(FieldError::invalid(
                        "figure",
                        "missing: which simulated figure to fit",
                    ))
                }
            }
            tables.push(("measured".to_string(), t));
        }
    }
    for (at, t) in &tables[1..] {
        if t.key_column != tables[0].1.key_column {
            return Err(FieldError::invalid(
                format!("{at}.key_column"),
                format!(
                    "{:?}, where {} has {:?}: all tables key their points the same way",
                    t.key_column, tables[0].0, tables[0].1.key_column
                ),
            ));
        }
        if tables.iter().filter(|(_, u)| u.figure == t.figure).count() > 1 {
            return Err(FieldError::invalid(
                format!("{at}.figure"),
                format!(
                    "{:?} is measured by two tables",
                    t.figure.as_deref().unwrap_or("")
                ),
            ));
        }
    }
    Ok(tables)
}

fn clip(s: &str) -> String {
    crate::scenario::error::clip(&s.escape_debug().to_string(), 80)
}

/// Reads the measured CSV: one row per point, matched to the scenarios' points.
fn read_measured(
    path: &Path,
    cols: &RawMeasured,
    figure: usize,
    scenarios: &[CalScenario],
) -> Result<Vec<Measured>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut r = ::csv::Reader::from_reader(text.as_bytes());
    let header = r.headers().map_err(|e| e.to_string())?.clone();
    let col = |name: &str| {
        header.iter().position(|h| h == name).ok_or_else(|| {
            format!(
                "has no column {name:?} (columns: {})",
                header.iter().collect::<Vec<_>>().join(", ")
            )
        })
    };
    let (cs, ck, cv) = (
        col(&cols.scenario_column)?,
        col(&cols.key_column)?,
        col(&cols.value_column)?,
    );
    let mut seen: BTreeMap<(usize, u64), usize> = BTreeMap::new();
    let mut out = Vec::new();
    for (row, rec) in r.records().enumerate() {
        let line = row + 2;
        let rec = rec.map_err(|e| format!("line {line}: {e}"))?;
        let name = rec.get(cs).unwrap_or("");
        let Some(si) = scenarios.iter().position(|s| s.name == name) else {
            return Err(format!(
                "line {line}: {name:?} is not one of the scenarios ({})",
                scenarios
                    .iter()
                    .map(|s| s.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        };
        let parse = |c: usize, what: &str| -> Result<f64, String> {
            let cell = rec.get(c).unwrap_or("");
            cell.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("line {line}: {what} {cell:?} is not a finite number"))
        };
        let key = parse(ck, &cols.key_column)?;
        let value = parse(cv, &cols.value_column)?;
        if value <= 0.0 {
            return Err(format!(
                "line {line}: measured {value} must be positive (errors are in percent of it)"
            ));
        }
        if !scenarios[si].keys.contains(&key) {
            return Err(format!(
                "line {line}: scenario {name:?} has no point with {} = {key} (its points: {:?})",
                cols.key_column, scenarios[si].keys
            ));
        }
        if let Some(prev) = seen.insert((si, key.to_bits()), line) {
            return Err(format!(
                "line {line}: the point {name:?} {key} is measured twice (also line {prev})"
            ));
        }
        out.push(Measured {
            scenario: si,
            figure,
            key,
            value,
            scatter_pct: cols.scatter_percent.unwrap_or(1.0),
        });
    }
    for (i, s) in scenarios.iter().enumerate() {
        if !out.iter().any(|m| m.scenario == i) {
            return Err(format!("no measured point for scenario {:?}", s.name));
        }
    }
    Ok(out)
}
