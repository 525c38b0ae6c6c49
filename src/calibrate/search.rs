//! The fit: Nelder-Mead over the continuous constants and an explicit search over the
//! discrete ones, then what the data says about each constant.
//!
//! Continuous constants are searched in coordinates scaled to their bounds (`u` in
//! [0, 1]); a simplex vertex outside is evaluated at the nearest point inside, with a
//! penalty growing with the distance, so the search stays within the bounds. The search:
//! 1. Nelder-Mead from the start, the discrete constants at their starting choices;
//! 2. for each discrete constant, each other choice, with a short Nelder-Mead polish of
//!    the continuous ones; a better result is kept;
//! 3. repeat 1-2 from the best point while a discrete change helped (at most 3 rounds),
//!    within `max_evaluations`.
//!
//! A fit runs that search from the middle of the bounds and then from each of the
//! `design_starts` points of the seeded design ([`super::design`]), each with its own
//! budget, and keeps the lowest objective (the earlier search on a tie). No start depends
//! on a measurement or on the hardware file's current values, so a fold of
//! cross-validation searches from exactly the full fit's starts, on its own scenarios, and
//! its choice never sees the held-out one.
//!
//! **Sensitivity.** At the fitted point, each continuous constant is moved by +-10% of its
//! value (within its bounds) and each discrete one to each other choice; the sensitivity
//! is the smallest rise of the objective, relative to its fitted value. **Seed noise** is
//! the spread of the objective over the seeds one at a time. A constant whose sensitivity
//! is below twice the noise of the fit's objective (the per-seed standard deviation over
//! the square root of the number of seeds), or below 1%, is flagged as not pinned down by
//! the data.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Mutex;

use argmin::core::{CostFunction, Executor};
use argmin::solver::neldermead::NelderMead;

use super::calibration::Calibration;
use super::design::{latin_hypercube, SearchStart};
use super::line_bar::{line_error, LineError, LINE_FIGURE};
use super::parameter::Domain;
use super::trial::{self, check_bounds, error_pct, means, objective, simulate, written};
use super::verdict::Verdict;
use super::CalibrationError;
use crate::scenario::error::show;

/// How far the fit has got, for a progress bar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    pub evaluations: u32,
    pub max_evaluations: u32,
    pub best: f64,
}

/// One constant's result.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamFit {
    pub key: String,
    /// The hardware file's value before the fit.
    pub before: toml::Value,
    /// Where the search the fit kept started (the middle for [`evaluate`]).
    pub start: toml::Value,
    pub fitted: toml::Value,
    /// Smallest relative rise of the objective when the constant moves (see module doc).
    pub sensitivity: f64,
    /// The data does not pin the constant down.
    pub flagged: bool,
}

/// Agreement with one scenario's measurements. Serialised exactly (a fold's result read
/// back from a study's run file).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ScenarioFit {
    pub scenario: String,
    #[serde(with = "crate::run::exact::float")]
    pub mape: f64,
    /// The point farthest off: its key and signed error, percent.
    #[serde(with = "crate::run::exact::float")]
    pub worst_key: f64,
    #[serde(with = "crate::run::exact::float")]
    pub worst_pct: f64,
    /// With a `[line_bar]`: the simulated line of its throughput curve against the
    /// measured one.
    pub line: Option<LineError>,
}

/// One measured point, before and after.
#[derive(Clone, Debug, PartialEq)]
pub struct PointFit {
    pub scenario: String,
    /// The simulated figure it is compared with.
    pub figure: String,
    pub key: f64,
    pub measured: f64,
    pub before: f64,
    pub after: f64,
}

/// The result of a fit.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    pub parameters: Vec<ParamFit>,
    pub evaluations: u32,
    /// Ctrl-C stopped the search: this is the best point found until then.
    pub interrupted: bool,
    /// The values were searched for ([`fit`]), not only evaluated ([`evaluate`]).
    pub searched: bool,
    /// The objective over the fit seeds, at the hardware file's values and fitted.
    pub objective_before: f64,
    pub objective_after: f64,
    /// The objective at the fitted values for each report seed alone.
    pub per_seed: Vec<(u64, f64)>,
    /// Noise of the fit's objective: per-seed standard deviation / sqrt(fit seeds).
    pub noise: f64,
    /// Per scenario, over the mean of the report seeds.
    pub before: Vec<ScenarioFit>,
    pub after: Vec<ScenarioFit>,
    pub points: Vec<PointFit>,
    /// The fitted values, one per parameter.
    pub values: Vec<toml::Value>,
    /// Each search of the fit and the lowest objective it reached (empty for
    /// [`evaluate`]); the fit is the lowest of them.
    pub searches: Vec<(SearchStart, f64)>,
    /// The file's recorded `[verdict]`, to be shown beside the objective judged now.
    pub recorded: Option<Verdict>,
}

/// One fold of cross-validation: fitted without `held_out`, then predicting it.
/// Serialised exactly: every float as its exact text, every value as TOML text.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Fold {
    pub held_out: String,
    pub prediction: ScenarioFit,
    /// Constants flagged as not pinned down when this scenario is left out.
    pub flagged: Vec<String>,
    pub evaluations: u32,
    /// The fold's own objective: the fit to the other scenarios, at its fitted values (mean
    /// over the fit seeds). Two searches of the same fold (from different starts) are
    /// compared by it, never by the held-out prediction.
    #[serde(with = "crate::run::exact::float")]
    pub objective: f64,
    /// The fold's searches and the objective each reached (the fold keeps the lowest).
    #[serde(with = "searches_exact")]
    pub searches: Vec<(SearchStart, f64)>,
    /// The fold's fitted values, one per parameter (in the calibration's order).
    #[serde(with = "crate::run::exact::toml_values")]
    pub values: Vec<toml::Value>,
}

/// The best point so far: objective, continuous coordinates, discrete choice indices.
type Best = (f64, Vec<f64>, Vec<usize>);

/// Evaluations with a cache, a budget and a stop flag, remembering the best point.
struct Evaluator<'a> {
    cal: &'a Calibration,
    stop: &'a AtomicBool,
    budget: u32,
    count: AtomicU32,
    cache: Mutex<HashMap<Vec<String>, f64>>,
    best: Mutex<Option<Best>>,
    progress: &'a (dyn Fn(Progress) + Sync),
    failure: Mutex<Option<CalibrationError>>,
    /// An evaluation was refused (budget, stop or failure): the search is over.
    halted: AtomicBool,
}

/// The search's resolution, as a fraction of a constant's range: the Nelder-Mead search
/// stops when its simplex is this small, and a coordinate this close to either end of
/// the range is that end.
const RESOLUTION: f64 = 1e-6;

/// The value at search coordinate `u` of a constant ranging over `min..=max`: inside the
/// range, and exactly at an end within [`RESOLUTION`] of it (so that a search that runs
/// to a bound of 0 proposes 0, not a remnant such as 2.7e-7 ms that no scenario clock
/// can hold).
fn scaled(min: f64, max: f64, u: f64) -> f64 {
    let t = u.clamp(0.0, 1.0);
    if t < RESOLUTION {
        min
    } else if t > 1.0 - RESOLUTION {
        max
    } else {
        min + t * (max - min)
    }
}

/// The constants' values at search coordinates `u` (the continuous constants, in order,
/// scaled to their bounds) and choice indices `d` (the discrete ones, in order).
fn values_at(cal: &Calibration, u: &[f64], d: &[usize]) -> Vec<toml::Value> {
    let (mut j, mut k) = (0, 0);
    cal.parameters
        .iter()
        .map(|p| {
            let x = match &p.domain {
                Domain::Continuous { min, max, .. } => {
                    j += 1;
                    scaled(*min, *max, u[j - 1])
                }
                Domain::Discrete { .. } => {
                    k += 1;
                    d[k - 1] as f64
                }
            };
            written(&p.domain, x)
        })
        .collect()
}

/// Why an evaluation did not happen.
#[derive(Debug)]
enum Halt {
    Budget,
    Stopped,
    Failed,
}

impl<'a> Evaluator<'a> {
    fn eval(&self, u: &[f64], d: &[usize]) -> Result<f64, Halt> {
        let values = values_at(self.cal, u, d);
        let key: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        if let Some(f) = self.cache.lock().expect("cache").get(&key) {
            return Ok(*f);
        }
        // a stop takes effect once the start has been evaluated, so there is always a
        // best point to report
        if self.stop.load(Ordering::SeqCst) && self.count.load(Ordering::SeqCst) > 0 {
            self.halted.store(true, Ordering::SeqCst);
            return Err(Halt::Stopped);
        }
        if self.count.load(Ordering::SeqCst) >= self.budget {
            self.halted.store(true, Ordering::SeqCst);
            return Err(Halt::Budget);
        }
        let n = self.count.fetch_add(1, Ordering::SeqCst) + 1;
        let sims = simulate(self.cal, &values, &self.cal.seeds).map_err(|e| {
            *self.failure.lock().expect("failure") = Some(e);
            self.halted.store(true, Ordering::SeqCst);
            Halt::Failed
        })?;
        let f = objective(self.cal, &means(&sims));
        self.cache.lock().expect("cache").insert(key, f);
        let mut best = self.best.lock().expect("best");
        if best.as_ref().is_none_or(|(b, _, _)| f < *b) {
            *best = Some((f, u.iter().map(|x| x.clamp(0.0, 1.0)).collect(), d.to_vec()));
        }
        let b = best.as_ref().map_or(f, |(b, _, _)| *b);
        drop(best);
        (self.progress)(Progress {
            evaluations: n,
            max_evaluations: self.budget,
            best: b,
        });
        Ok(f)
    }

    fn best(&self) -> Option<Best> {
        self.best.lock().expect("best").clone()
    }

    /// Nelder-Mead over the continuous constants from `u0`, discrete ones fixed at `d`,
    /// for at most `iters` iterations. Returns false if the budget or a stop ended it (or
    /// had already ended the search).
    fn nelder_mead(&self, u0: &[f64], d: &[usize], iters: u64) -> bool {
        if self.halted.load(Ordering::SeqCst) {
            return false;
        }
        if u0.is_empty() {
            return self.eval(u0, d).is_ok();
        }
        let mut simplex = vec![u0.to_vec()];
        for i in 0..u0.len() {
            let mut v = u0.to_vec();
            v[i] = if v[i] + 0.2 <= 1.0 { v[i] + 0.2 } else { v[i] - 0.2 };
            simplex.push(v);
        }
        let Ok(solver) = NelderMead::new(simplex).with_sd_tolerance(RESOLUTION) else {
            return false;
        };
        let problem = Problem {
            ev: self,
            d: d.to_vec(),
        };
        let finished = Executor::new(problem, solver)
            .configure(|s| s.max_iters(iters))
            .ctrlc(false)
            .run()
            .is_ok();
        finished && !self.halted.load(Ordering::SeqCst)
    }
}

struct Problem<'e, 'a> {
    ev: &'e Evaluator<'a>,
    d: Vec<usize>,
}

impl CostFunction for Problem<'_, '_> {
    type Param = Vec<f64>;
    type Output = f64;

    /// Never an error: argmin's Nelder-Mead unwraps the costs of its first simplex, so an
    /// evaluation that is refused (budget, stop, failure) costs infinity instead, and
    /// the search loop sees `halted` and ends.
    fn cost(&self, u: &Vec<f64>) -> Result<f64, argmin::core::Error> {
        let outside: f64 = u
            .iter()
            .map(|x| (x - x.clamp(0.0, 1.0)).powi(2))
            .sum::<f64>()
            .sqrt();
        Ok(match self.ev.eval(u, &self.d) {
            Ok(f) => f * (1.0 + 10.0 * outside) + outside,
            Err(_) => f64::INFINITY,
        })
    }
}

fn scenario_fits(cal: &Calibration, sims: &[f64]) -> Vec<ScenarioFit> {
    let line_figure = cal
        .line_bar
        .and_then(|_| cal.figures.iter().position(|f| f == LINE_FIGURE));
    cal.scenarios
        .iter()
        .enumerate()
        .map(|(si, sc)| {
            let errs: Vec<(f64, f64)> = cal
                .measured
                .iter()
                .zip(sims)
                .filter(|(m, _)| m.scenario == si)
                .map(|(m, s)| (m.key, error_pct(*s, m.value)))
                .collect();
            let worst = errs.iter().copied().fold((f64::NAN, 0.0f64), |w, e| {
                if e.1.abs() > w.1.abs() || w.0.is_nan() {
                    e
                } else {
                    w
                }
            });
            ScenarioFit {
                scenario: sc.name.clone(),
                mape: errs.iter().map(|e| e.1.abs()).sum::<f64>() / errs.len().max(1) as f64,
                worst_key: worst.0,
                worst_pct: worst.1,
                line: line_figure.and_then(|f| line_error(f, &cal.measured, sims, si)),
            }
        })
        .collect()
}

/// Where each search of `cal` starts, in order ([`Calibration::searches`]): its name, the
/// continuous constants' search coordinates and the discrete ones' choice indices. The
/// middle is the middle of each constant's bounds as written (an integer key rounded); a
/// design point is the seeded Latin-hypercube point; discrete constants start at their
/// middle choice in every search. Nothing here reads a measurement or a current value.
pub fn start_points(cal: &Calibration) -> Vec<(SearchStart, Vec<f64>, Vec<usize>)> {
    let mut middle_u = Vec::new();
    let mut middle_d = Vec::new();
    for p in &cal.parameters {
        match &p.domain {
            Domain::Continuous { min, max, .. } => {
                let s = p
                    .middle
                    .as_float()
                    .or_else(|| p.middle.as_integer().map(|x| x as f64))
                    .unwrap_or((min + max) / 2.0);
                middle_u.push((s - min) / (max - min));
            }
            Domain::Discrete { choices } => {
                middle_d.push(choices.iter().position(|c| *c == p.middle).unwrap_or(0));
            }
        }
    }
    let design = latin_hypercube(cal.design_seed, middle_u.len(), cal.design_starts);
    cal.searches()
        .into_iter()
        .map(|from| match from {
            SearchStart::Middle => (from, middle_u.clone(), middle_d.clone()),
            SearchStart::Design(k) => (from, design[k as usize - 1].clone(), middle_d.clone()),
        })
        .collect()
}

/// Fits the calibration's constants: one search from the middle and one from each design
/// point ([`start_points`]), each with the whole budget, keeping the lowest objective (the
/// earlier search on a tie). `stop` ends the search early (Ctrl-C); the result is then the
/// best point found so far, complete. `progress` is called after each evaluation.
pub fn fit(
    cal: &Calibration,
    stop: &AtomicBool,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Fit, CalibrationError> {
    check_bounds(cal)?;
    let mut best: Option<(Best, Vec<toml::Value>)> = None;
    let mut evaluations = 0;
    let mut searches = Vec::new();
    for (from, u0, d0) in start_points(cal) {
        // a stop before anything ran still evaluates the first start
        if stop.load(Ordering::SeqCst) && best.is_some() {
            break;
        }
        let (found, n) = search(cal, from, &u0, &d0, stop, progress)?;
        evaluations += n;
        if let Some(found) = found {
            searches.push((from, found.0));
            if best.as_ref().is_none_or(|b| found.0 < b.0 .0) {
                best = Some((found, values_at(cal, &u0, &d0)));
            }
        }
    }
    let interrupted = stop.load(Ordering::SeqCst);
    let Some(((_, u, d), started)) = best else {
        return Err(CalibrationError::Edit("no evaluation completed".into()));
    };
    let values = values_at(cal, &u, &d);
    let mut f = finish(cal, values, evaluations, interrupted)?;
    for (p, s) in f.parameters.iter_mut().zip(started) {
        p.start = s;
    }
    f.searches = searches;
    Ok(f)
}

/// One search (Nelder-Mead over the continuous constants, with rounds over each discrete
/// constant's choices) from search coordinates `u0` and choices `d0` (the start `from`):
/// the best point it found and its evaluations.
fn search(
    cal: &Calibration,
    from: SearchStart,
    u0: &[f64],
    d0: &[usize],
    stop: &AtomicBool,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<(Option<Best>, u32), CalibrationError> {
    let cont = u0.len();
    let disc: Vec<usize> = (0..cal.parameters.len())
        .filter(|&i| matches!(cal.parameters[i].domain, Domain::Discrete { .. }))
        .collect();
    let ev = Evaluator {
        cal,
        stop,
        budget: cal.max_evaluations,
        count: AtomicU32::new(0),
        cache: Mutex::new(HashMap::new()),
        best: Mutex::new(None),
        progress,
        failure: Mutex::new(None),
        halted: AtomicBool::new(false),
    };
    let dims = cont.max(1) as u64;
    let main_iters = (cal.max_evaluations as u64).max(10);
    let polish_iters = 12 * dims;
    let first = ev.eval(u0, d0);
    if let Ok(f) = first {
        if !f.is_finite() {
            let at = format!("the start of the search from `{}`", from.name());
            return Err(not_finite(cal, &values_at(cal, u0, d0), &at));
        }
    }
    let mut running = first.is_ok() && ev.nelder_mead(u0, d0, main_iters / 2);
    let mut rounds = 0;
    while running && !disc.is_empty() && rounds < 3 {
        rounds += 1;
        let mut improved = false;
        for j in 0..disc.len() {
            let Some((best_f, u, d)) = ev.best() else { break };
            let Domain::Discrete { choices } = &cal.parameters[disc[j]].domain else {
                continue;
            };
            for c in 0..choices.len() {
                if c == d[j] || !running {
                    continue;
                }
                let mut d2 = d.clone();
                d2[j] = c;
                running = ev.nelder_mead(&u, &d2, polish_iters);
                if ev.best().is_some_and(|(f, _, _)| f < best_f) {
                    improved = true;
                }
            }
        }
        if !improved {
            break;
        }
        if let Some((_, u, d)) = ev.best() {
            running = running && ev.nelder_mead(&u, &d, main_iters / 4);
        }
    }
    if running {
        if let Some((_, u, d)) = ev.best() {
            // a final polish from the best point with a fresh simplex
            ev.nelder_mead(&u, &d, main_iters);
        }
    }
    if let Some(e) = ev.failure.lock().expect("failure").take() {
        return Err(e);
    }
    Ok((ev.best(), ev.count.load(Ordering::SeqCst)))
}

/// The refusal of an objective that is not finite at `values` (`at` says where they come
/// from), naming the scenario and point that contribute most to it.
fn not_finite(cal: &Calibration, values: &[toml::Value], at: &str) -> CalibrationError {
    let sims = match simulate(cal, values, &cal.seeds) {
        Ok(s) => means(&s),
        Err(e) => return e,
    };
    let f = objective(cal, &sims);
    let settings = cal
        .parameters
        .iter()
        .zip(values)
        .map(|(p, v)| format!("{}={v}", p.key))
        .collect::<Vec<_>>()
        .join(", ");
    let point = trial::worst_point(cal, &sims).map_or(String::new(), |i| {
        let m = &cal.measured[i];
        format!(
            "; the point farthest off is scenario {}, {} = {} ({}: measured {}, simulated {}, \
             scatter_percent {}): check its measured value and its table's scatter_percent",
            cal.scenarios[m.scenario].name,
            cal.key_column,
            show(m.key),
            cal.figures[m.figure],
            show(m.value),
            show(sims[i]),
            show(m.scatter_pct),
        )
    });
    CalibrationError::NotFinite(format!(
        "{}: the objective at {at} ({settings}) is {f}, not finite, so nothing can be compared \
         with it{point}",
        cal.path.display()
    ))
}

/// Evaluates the hardware file's current values without searching (`ethersim calibrate
/// --evaluate`): the objective, each constant's sensitivity and whether the data pins it
/// down there, the seed noise and the agreement per scenario, as [`fit`] reports them for
/// its result. The values need not be inside the calibration's bounds (a hand-set or
/// another fit's values can be judged too).
pub fn evaluate(cal: &Calibration) -> Result<Fit, CalibrationError> {
    let values: Vec<toml::Value> = cal.parameters.iter().map(|p| p.current.clone()).collect();
    let mut f = finish(cal, values, 0, false)?;
    f.searched = false;
    Ok(f)
}

/// The report of a fit at `values`: sensitivities, seed noise, before and after.
fn finish(
    cal: &Calibration,
    values: Vec<toml::Value>,
    evaluations: u32,
    interrupted: bool,
) -> Result<Fit, CalibrationError> {
    let before_values: Vec<toml::Value> = cal.parameters.iter().map(|p| p.current.clone()).collect();
    let fit_obj = |v: &[toml::Value]| -> Result<f64, CalibrationError> {
        Ok(objective(cal, &means(&simulate(cal, v, &cal.seeds)?)))
    };
    let f_after = fit_obj(&values)?;
    if !f_after.is_finite() {
        let at = if evaluations == 0 {
            "the hardware file's current values"
        } else {
            "the fitted values"
        };
        return Err(not_finite(cal, &values, at));
    }
    // an evaluation, or a fit that lands on the file's values, needs no second run
    let same = values == before_values;
    let f_before = if same { f_after } else { fit_obj(&before_values)? };

    // seed noise at the fitted point, over the report seeds
    let report_after = simulate(cal, &values, &cal.report_seeds)?;
    let per_seed: Vec<(u64, f64)> = cal
        .report_seeds
        .iter()
        .enumerate()
        .map(|(k, &s)| {
            let one: Vec<f64> = report_after.iter().map(|p| p[k]).collect();
            (s, objective(cal, &one))
        })
        .collect();
    let n = per_seed.len() as f64;
    let mean = per_seed.iter().map(|x| x.1).sum::<f64>() / n;
    let sd = if per_seed.len() > 1 {
        (per_seed.iter().map(|x| (x.1 - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
    } else {
        0.0
    };
    let noise = sd / (cal.seeds.len() as f64).sqrt();

    // sensitivity of each constant
    let mut parameters = Vec::new();
    for (i, p) in cal.parameters.iter().enumerate() {
        let alternatives: Vec<toml::Value> = match &p.domain {
            Domain::Continuous { min, max, .. } => {
                let x = values[i]
                    .as_float()
                    .or_else(|| values[i].as_integer().map(|v| v as f64))
                    .unwrap_or(0.0);
                let step = (0.1 * x.abs()).max((max - min) * 1e-3);
                [x - step, x + step]
                    .into_iter()
                    .map(|y| written(&p.domain, y))
                    .filter(|v| *v != values[i])
                    .collect()
            }
            Domain::Discrete { choices } => choices.iter().filter(|c| **c != values[i]).cloned().collect(),
        };
        let mut rise = f64::INFINITY;
        for a in alternatives {
            let mut v = values.clone();
            v[i] = a;
            rise = rise.min(fit_obj(&v)? - f_after);
        }
        let sensitivity = rise / f_after.max(f64::MIN_POSITIVE);
        let flagged = !(rise > 2.0 * noise && sensitivity > 0.01);
        parameters.push(ParamFit {
            key: p.key.clone(),
            before: p.current.clone(),
            start: p.middle.clone(),
            fitted: values[i].clone(),
            sensitivity,
            flagged,
        });
    }

    let report_before = if same {
        report_after.clone()
    } else {
        simulate(cal, &before_values, &cal.report_seeds)?
    };
    let (mb, ma) = (means(&report_before), means(&report_after));
    let points = cal
        .measured
        .iter()
        .zip(mb.iter().zip(&ma))
        .map(|(m, (b, a))| PointFit {
            scenario: cal.scenarios[m.scenario].name.clone(),
            figure: cal.figures[m.figure].clone(),
            key: m.key,
            measured: m.value,
            before: *b,
            after: *a,
        })
        .collect();
    Ok(Fit {
        parameters,
        evaluations,
        interrupted,
        searched: true,
        objective_before: f_before,
        objective_after: f_after,
        per_seed,
        noise,
        before: scenario_fits(cal, &mb),
        after: scenario_fits(cal, &ma),
        points,
        values,
        searches: Vec::new(),
        recorded: cal.verdict.clone(),
    })
}

/// Leave-one-scenario-out: for each scenario, fit on the others and predict it (over the
/// report seeds). `progress` gets the fold's evaluations. Fold `k` is
/// [`cross_validate_fold`]`(cal, k, ..)`: the folds are independent of each other.
pub fn cross_validate(
    cal: &Calibration,
    stop: &AtomicBool,
    progress: &(dyn Fn(usize, Progress) + Sync),
) -> Result<Vec<Fold>, CalibrationError> {
    cal.check_cross_validation()?;
    let mut folds = Vec::new();
    for held in 0..cal.scenarios.len() {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        folds.push(cross_validate_fold(cal, held, stop, progress)?);
    }
    Ok(folds)
}

/// One fold of [`cross_validate`]: fit on every scenario but `held` (an index into the
/// calibration's scenarios, which must be in range) and predict `held`.
pub fn cross_validate_fold(
    cal: &Calibration,
    held: usize,
    stop: &AtomicBool,
    progress: &(dyn Fn(usize, Progress) + Sync),
) -> Result<Fold, CalibrationError> {
    let keep: Vec<usize> = (0..cal.scenarios.len()).filter(|&i| i != held).collect();
    let sub = cal.subset(&keep);
    // a constant only the held-out scenario uses cannot be fitted without it
    let f = fit(&sub, stop, &|p| progress(held, p))?;
    let one = cal.subset(&[held]);
    let sims = means(&trial::simulate(&one, &f.values, &cal.report_seeds)?);
    let prediction = scenario_fits(&one, &sims).remove(0);
    Ok(Fold {
        held_out: cal.scenarios[held].name.clone(),
        prediction,
        flagged: f
            .parameters
            .iter()
            .filter(|p| p.flagged)
            .map(|p| p.key.clone())
            .collect(),
        evaluations: f.evaluations,
        objective: f.objective_after,
        searches: f.searches,
        values: f.values,
    })
}

/// The searches of a fold, each objective as its exact text ([`crate::run::exact`]).
mod searches_exact {
    use super::SearchStart;
    use crate::run::exact;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &[(SearchStart, f64)], s: S) -> Result<S::Ok, S::Error> {
        v.iter()
            .map(|(from, x)| (*from, exact::text(*x)))
            .collect::<Vec<_>>()
            .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(SearchStart, f64)>, D::Error> {
        Vec::<(SearchStart, String)>::deserialize(d)?
            .into_iter()
            .map(|(from, x)| Ok((from, exact::parse(&x).map_err(serde::de::Error::custom)?)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_coordinates_within_the_resolution_of_an_end_are_that_end() {
        assert_eq!(scaled(0.0, 5.0, 5.3e-8), 0.0);
        assert_eq!(scaled(0.0, 5.0, -0.1), 0.0);
        assert_eq!(scaled(400.0, 1000.0, 1.0 - 1e-7), 1000.0);
        assert_eq!(scaled(400.0, 1000.0, 0.5), 700.0);
        // one step of the resolution or more from an end is kept
        let v = scaled(0.0, 5.0, 2e-6);
        assert!(v > 0.0 && (v - 1e-5).abs() < 1e-12, "{v}");
    }
}
