//! What a calibration will cost before it runs: the admission of its total, by the same
//! per-run estimates a scenario is admitted with ([`crate::scenario::Workload::estimated_cpu_s`]).
//!
//! A fit evaluates the objective at most `max_evaluations` times per search, each
//! evaluation running every scenario on every fit seed; it then judges the fitted point
//! (the objective before and after, two runs per constant for its sensitivity, the
//! report seeds before and after). Cross-validation does the same once per fold on all
//! scenarios but one, then predicts the one held out over the report seeds. The estimate
//! is an upper bound on the number of runs (the search caches repeated points and often
//! stops before its budget), each run at its admission estimate. Units: CPU seconds.

use super::calibration::Calibration;
use super::parameter::Domain;
use super::trial::{hardware_text, load_trial};
use super::CalibrationError;

/// The runs and CPU seconds a calibration may spend, at most.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Scenario runs (each scenario on one seed).
    pub runs: f64,
    /// CPU seconds, by the runs' admission estimates.
    pub cpu_s: f64,
}

/// Each scenario's estimated CPU seconds for one run, at the hardware file's values.
fn per_scenario(cal: &Calibration) -> Result<Vec<f64>, CalibrationError> {
    let current: Vec<toml::Value> = cal.parameters.iter().map(|p| p.current.clone()).collect();
    let hw_text = hardware_text(cal, &current, None)?;
    cal.scenarios
        .iter()
        .map(|sc| {
            let s = load_trial(cal, sc, &hw_text)?;
            Ok(s.workload.estimated_cpu_s(&s.medium))
        })
        .collect()
}

/// Runs of the judgement after a search, per scenario: the objective before and after,
/// the sensitivity moves of each constant (two for a continuous one, one per other
/// choice for a discrete one) on the fit seeds, and the report seeds before and after.
fn judgement_runs(cal: &Calibration) -> f64 {
    let moves: usize = cal
        .parameters
        .iter()
        .map(|p| match &p.domain {
            Domain::Continuous { .. } => 2,
            Domain::Discrete { choices } => choices.len().saturating_sub(1),
        })
        .sum();
    ((2 + moves) * cal.seeds.len() + 2 * cal.report_seeds.len()) as f64
}

/// One fit of `cal` whose scenarios cost `costs` CPU seconds a run: (runs, CPU seconds).
fn fit_cost(cal: &Calibration, costs: &[f64]) -> (f64, f64) {
    let per_eval: f64 = costs.iter().sum::<f64>() * cal.seeds.len() as f64;
    let evals = cal.searches().len() as f64 * cal.max_evaluations as f64;
    let runs_per_eval = (costs.len() * cal.seeds.len()) as f64;
    let judge = judgement_runs(cal);
    (
        evals * runs_per_eval + judge * costs.len() as f64,
        evals * per_eval + judge * costs.iter().sum::<f64>(),
    )
}

/// The most a fit (and with `cross_validate` its folds) can cost.
pub fn estimate(cal: &Calibration, cross_validate: bool) -> Result<Estimate, CalibrationError> {
    let costs = per_scenario(cal)?;
    let (mut runs, mut cpu_s) = fit_cost(cal, &costs);
    if cross_validate {
        for held in 0..costs.len() {
            let keep: Vec<f64> = costs
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != held)
                .map(|(_, c)| *c)
                .collect();
            let (r, c) = fit_cost(cal, &keep);
            let predict = cal.report_seeds.len() as f64;
            runs += r + predict;
            cpu_s += c + predict * costs[held];
        }
    }
    Ok(Estimate { runs, cpu_s })
}

/// Refuses a calibration estimated at more than `limit_h` hours of CPU, saying how to
/// raise the limit or what to cut.
pub fn admit(cal: &Calibration, cross_validate: bool, limit_h: f64) -> Result<Estimate, CalibrationError> {
    let e = estimate(cal, cross_validate)?;
    if e.cpu_s.is_finite() && e.cpu_s <= limit_h * 3600.0 {
        return Ok(e);
    }
    let what = if cross_validate {
        "the fit and its cross-validation are"
    } else {
        "the fit is"
    };
    Err(CalibrationError::Budget(format!(
        "{}: {what} refused as too long: up to {:.0} scenario runs estimated at {:.1} hours \
         of CPU in all (limit {limit_h} hours; {} searches of at most {} evaluations, {} \
         scenarios on {} seeds each); raise the limit with --max-cpu-hours H, or lower \
         max_evaluations, the seeds or design_starts",
        cal.path.display(),
        e.runs,
        e.cpu_s / 3600.0,
        cal.searches().len(),
        cal.max_evaluations,
        cal.scenarios.len(),
        cal.seeds.len(),
    )))
}
