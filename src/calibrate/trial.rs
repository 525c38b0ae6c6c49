//! One evaluation of the objective: trial values in the hardware file, every scenario on
//! every seed, the simulated figure at each measured point.
//!
//! Units: the figure's own (e.g. KB/s); errors in percent of the measured value.

use std::path::Path;

use rayon::prelude::*;

use super::calibration::{CalScenario, Calibration};
use super::line_bar::LINE_FIGURE;
pub use super::parameter::written;
use super::parameter::Domain;
use super::CalibrationError;
use crate::scenario;

fn edit_value(v: &toml::Value) -> Option<toml_edit::Value> {
    Some(match v {
        toml::Value::Integer(i) => (*i).into(),
        toml::Value::Float(f) => (*f).into(),
        toml::Value::String(s) => s.as_str().into(),
        toml::Value::Boolean(b) => (*b).into(),
        _ => return None,
    })
}

/// The hardware file's text with `values` (one per parameter) in place of its own; every
/// comment is kept. With `marker`, each fitted value gets a trailing comment naming the
/// calibration and the value it replaced.
pub fn hardware_text(
    cal: &Calibration,
    values: &[toml::Value],
    marker: Option<&str>,
) -> Result<String, CalibrationError> {
    let mut doc: toml_edit::DocumentMut = cal
        .hardware
        .text
        .parse()
        .map_err(|e: toml_edit::TomlError| CalibrationError::Edit(e.to_string()))?;
    for (p, v) in cal.parameters.iter().zip(values) {
        let parts: Vec<&str> = p.key.split('.').collect();
        let missing =
            || CalibrationError::Edit(format!("{} has no key {}", cal.hardware.path.display(), p.key));
        // how many parts lead to an inline table holding the value, if one does: a comment
        // cannot go inside `{ ... }`, so the marker then goes after the whole table
        let mut inline_at = None;
        let mut item = doc.as_item_mut();
        for (i, part) in parts.iter().enumerate() {
            if inline_at.is_none() && item.as_value().is_some_and(|v| v.is_inline_table()) {
                inline_at = Some(i);
            }
            item = item.get_mut(part).ok_or_else(missing)?;
        }
        let old = item
            .as_value()
            .ok_or_else(|| CalibrationError::Edit(format!("{} is not a value", p.key)))?;
        let mut decor = old.decor().clone();
        let mut new =
            edit_value(v).ok_or_else(|| CalibrationError::Edit(format!("{} cannot hold {v}", p.key)))?;
        // the old value as written, without its own trailing comment
        let mut bare = old.clone();
        bare.decor_mut().clear();
        let was = bare.to_string().trim().to_string();
        if let (Some(m), None) = (marker, inline_at) {
            decor.set_suffix(format!(" # {m} (was {was})"));
        }
        *new.decor_mut() = decor;
        *item = toml_edit::Item::Value(new);
        if let (Some(m), Some(k)) = (marker, inline_at) {
            let mut table = doc.as_item_mut();
            for part in &parts[..k] {
                table = table.get_mut(part).ok_or_else(missing)?;
            }
            let inner = parts[k..].join(".");
            let value = table.as_value_mut().ok_or_else(missing)?;
            let suffix = value
                .decor()
                .suffix()
                .and_then(|s| s.as_str())
                .unwrap_or("")
                .to_string();
            value.decor_mut().set_suffix(table_note(&suffix, m, &inner, &was));
        }
    }
    Ok(doc.to_string())
}

/// The comment after an inline table once `inner` (a key inside it) is calibrated:
/// ` # MARKER: key (was old); key2 (was old2)`, one entry per key, in the order first
/// fitted. A key fitted again replaces its own entry, so a value's note names the value
/// it replaced, as a value outside an inline table does, and repeated calibrations do
/// not lengthen the line. Any other comment that was there is replaced.
fn table_note(suffix: &str, marker: &str, inner: &str, was: &str) -> String {
    let head = format!(" # {marker}:");
    let entry = format!("{inner} (was {was})");
    let mut entries: Vec<String> = suffix
        .strip_prefix(&head)
        .map(|rest| {
            rest.split("; ")
                .map(|e| e.trim().to_string())
                .filter(|e| !e.is_empty())
                .collect()
        })
        .unwrap_or_default();
    let own = format!("{inner} (was ");
    match entries.iter_mut().find(|e| e.starts_with(&own)) {
        Some(e) => *e = entry,
        None => entries.push(entry),
    }
    format!("{head} {}", entries.join("; "))
}

/// One point of a run: its key and the value of each fitted figure.
type KeyedFigures = (f64, Vec<f64>);

/// The simulated value of each measured point's figure (in the order of `cal.measured`),
/// for each of `seeds`: `result[point][seed]`.
pub fn simulate(
    cal: &Calibration,
    values: &[toml::Value],
    seeds: &[u64],
) -> Result<Vec<Vec<f64>>, CalibrationError> {
    let hw_text = hardware_text(cal, values, None)?;
    let tasks: Vec<(usize, u64)> = (0..cal.scenarios.len())
        .flat_map(|s| seeds.iter().map(move |&k| (s, k)))
        .collect();
    let outputs: Vec<Result<Vec<KeyedFigures>, CalibrationError>> = tasks
        .par_iter()
        .map(|&(si, seed)| {
            let sc = &cal.scenarios[si];
            let mut s = load_trial(cal, sc, &hw_text).map_err(|e| trial_error(cal, values, &sc.name, e))?;
            s.seed = seed;
            let out = crate::run::run(&s);
            let col = |name: &str| out.columns.iter().position(|c| *c == name);
            let Some(k) = col(&cal.key_column) else {
                return Ok(Vec::new());
            };
            let fs: Vec<Option<usize>> = cal.figures.iter().map(|f| col(f)).collect();
            Ok(out
                .points
                .iter()
                .map(|p| (p[k], fs.iter().map(|f| f.map_or(f64::NAN, |f| p[f])).collect()))
                .collect())
        })
        .collect();
    let mut by_task = Vec::with_capacity(outputs.len());
    for o in outputs {
        by_task.push(o?);
    }
    Ok(cal
        .measured
        .iter()
        .map(|m| {
            tasks
                .iter()
                .zip(&by_task)
                .filter(|((si, _), _)| *si == m.scenario)
                .map(|(_, pts)| {
                    pts.iter()
                        .find(|(k, _)| *k == m.key)
                        .map_or(f64::NAN, |(_, v)| v[m.figure])
                })
                .collect()
        })
        .collect())
}

fn trial_error(
    cal: &Calibration,
    values: &[toml::Value],
    scenario: &str,
    e: scenario::ScenarioError,
) -> CalibrationError {
    let key = e.key().unwrap_or("").to_string();
    let value = cal
        .parameters
        .iter()
        .zip(values)
        .find(|(p, _)| p.key == key || key.ends_with(&p.key))
        .map_or_else(
            || {
                cal.parameters
                    .iter()
                    .zip(values)
                    .map(|(p, v)| format!("{}={v}", p.key))
                    .collect::<Vec<_>>()
                    .join(", ")
            },
            |(_, v)| v.to_string(),
        );
    CalibrationError::Trial {
        key: if key.is_empty() { "the trial".into() } else { key },
        value,
        scenario: scenario.to_string(),
        err: Box::new(e),
    }
}

impl Calibration {
    /// Loads and validates the calibration file at `path` (and the scenarios, hardware file
    /// and measurements it names), before any run; a fitted constant no scenario's model
    /// uses ([`check_used`]) is refused at its `key`.
    pub fn load(path: &Path) -> Result<Calibration, CalibrationError> {
        let cal = Calibration::read(path)?;
        check_used(&cal).map_err(|e| match e {
            CalibrationError::Unused { index, message } => cal.parameter_error(index, message),
            other => other,
        })?;
        Ok(cal)
    }
}

/// Scenario `sc` of `cal` loaded with `hw_text` standing for the hardware file, and the
/// calibration's overrides.
pub(super) fn load_trial(
    cal: &Calibration,
    sc: &CalScenario,
    hw_text: &str,
) -> Result<scenario::Scenario, scenario::ScenarioError> {
    scenario::load_embedded(
        &sc.source.path.to_string_lossy(),
        &sc.source.text,
        Some((&cal.hardware.path.to_string_lossy(), hw_text)),
        &cal.overrides,
    )
}

/// Every scenario loaded with `values` in the hardware file: its model (cable and
/// workload, as text), or the trial error naming parameter `i` and its value.
fn models(cal: &Calibration, values: &[toml::Value], i: usize) -> Result<Vec<String>, CalibrationError> {
    let hw_text = hardware_text(cal, values, None)?;
    cal.scenarios
        .iter()
        .map(|sc| {
            let s = load_trial(cal, sc, &hw_text).map_err(|e| CalibrationError::Trial {
                key: cal.parameters[i].key.clone(),
                value: values[i].to_string(),
                scenario: sc.name.clone(),
                err: Box::new(e),
            })?;
            Ok(format!("{:?} {:?}", s.medium, s.workload))
        })
        .collect()
}

/// Each parameter's two ends (its first and last choice), the others at their middles.
fn ends(cal: &Calibration) -> impl Iterator<Item = (usize, Vec<Vec<toml::Value>>)> + '_ {
    let start: Vec<toml::Value> = cal.parameters.iter().map(|p| p.middle.clone()).collect();
    cal.parameters.iter().enumerate().map(move |(i, p)| {
        let ends: Vec<toml::Value> = match &p.domain {
            Domain::Continuous { min, max, .. } => vec![written(&p.domain, *min), written(&p.domain, *max)],
            Domain::Discrete { choices } => choices.clone(),
        };
        let trials = ends
            .into_iter()
            .map(|v| {
                let mut values = start.clone();
                values[i] = v;
                values
            })
            .collect();
        (i, trials)
    })
}

/// Checks, without running anything, that every scenario loads with each parameter at each
/// end of its range (the others at their middles).
pub fn check_bounds(cal: &Calibration) -> Result<(), CalibrationError> {
    for (i, trials) in ends(cal) {
        for values in trials {
            models(cal, &values, i)?;
        }
    }
    Ok(())
}

/// Checks that some scenario's model changes with each parameter between the ends of its
/// range: a constant every scenario sets itself (in a scenario of one workload, or in its
/// own profile of a scenario of nodes), or that an override holds, cannot be fitted.
pub fn check_used(cal: &Calibration) -> Result<(), CalibrationError> {
    for (i, trials) in ends(cal) {
        if trials.windows(2).all(|w| w[0][i] == w[1][i]) {
            continue; // a range of one value: nothing to see
        }
        let mut seen: Vec<Vec<String>> = Vec::new();
        for values in trials {
            seen.push(models(cal, &values, i)?);
        }
        if seen.windows(2).all(|w| w[0] == w[1]) {
            return Err(CalibrationError::Unused {
                index: i,
                message: format!(
                    "no scenario uses the hardware file's value of `{}`: no scenario's model \
                     changes as it goes from one end of its range to the other (every scenario \
                     sets it itself, or an override holds it)",
                    cal.parameters[i].key
                ),
            });
        }
    }
    Ok(())
}

/// Percentage error of `sim` against `measured`.
pub fn error_pct(sim: f64, measured: f64) -> f64 {
    (sim - measured) / measured * 100.0
}

/// The objective over the points, from each point's simulated value: each point's
/// percentage error in units of its measurement's scatter (`scatter_pct`), plus the
/// penalty of the file's bar on single points (`point_bar_percent`) on the plain error,
/// plus the penalty of its bars on each curve's line (`[line_bar]`).
pub fn objective(cal: &Calibration, sims: &[f64]) -> f64 {
    points(cal, sims) + line_penalty(cal, sims)
}

/// The penalty of the file's bars on each curve's line (`[line_bar]`), 0 without them.
pub fn line_penalty(cal: &Calibration, sims: &[f64]) -> f64 {
    let figure = cal.figures.iter().position(|f| f == LINE_FIGURE);
    match (cal.line_bar, figure) {
        (Some(bar), Some(figure)) => bar.penalty(figure, &cal.measured, sims),
        _ => 0.0,
    }
}

/// The objective's sum over the points, with the bar on single points.
fn points(cal: &Calibration, sims: &[f64]) -> f64 {
    cal.measured
        .iter()
        .zip(sims)
        .map(|(m, s)| {
            let e = error_pct(*s, m.value);
            let (e, scaled) = if e.is_finite() {
                (e, e / m.scatter_pct)
            } else {
                // a point the run did not produce (or a zero): as bad as 1000% off
                (1000.0, 1000.0)
            };
            cal.objective.term(scaled) + cal.point_bar.map_or(0.0, |b| b.penalty(e))
        })
        .sum()
}

/// The point contributing most to the objective (the first whose contribution is not
/// finite, if any), for a message about an objective that overflowed; `None` without
/// points.
pub fn worst_point(cal: &Calibration, sims: &[f64]) -> Option<usize> {
    let term = |(m, s): (&super::Measured, &f64)| {
        let e = error_pct(*s, m.value);
        cal.objective.term(e / m.scatter_pct) + cal.point_bar.map_or(0.0, |b| b.penalty(e))
    };
    let terms: Vec<f64> = cal.measured.iter().zip(sims).map(term).collect();
    terms
        .iter()
        .position(|t| !t.is_finite())
        .or_else(|| (0..terms.len()).max_by(|&a, &b| terms[a].total_cmp(&terms[b])))
}

/// The mean over seeds of each point's simulated values.
pub fn means(sims: &[Vec<f64>]) -> Vec<f64> {
    sims.iter()
        .map(|v| v.iter().sum::<f64>() / v.len().max(1) as f64)
        .collect()
}
