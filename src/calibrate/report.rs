//! A calibration's results as text, CSV and a chart: fitted constants with their
//! sensitivity, per-scenario MAPE and worst point before and after, seed noise, and the
//! cross-validation table. Formatting only: the numbers come from `calibrate::Fit`.

use super::{Fit, Fold, ScenarioFit, SearchStart};
use crate::report::atomic::Staged;
use crate::report::csv::to_csv;
use crate::report::fmt_num;
use crate::report::plot::{write_panels, Chart, Mark, Series};
use crate::report::units::align;
use crate::report::units::{error_pct, mape_pct};
use crate::report::ReportError;

/// The printed summary of a fit.
pub fn summary(name: &str, objective: &str, fit: &Fit) -> String {
    let mut s = String::new();
    if fit.interrupted {
        s.push_str(&format!(
            "INTERRUPTED after {} evaluations: these are the best values found so far.\n\n",
            fit.evaluations
        ));
    }
    if fit.searched {
        s.push_str(&format!(
            "Calibration {name}: {} evaluations; objective ({objective}, mean over the fit seeds) {:.1} with the hardware file's values, {:.1} fitted.\n\n",
            fit.evaluations, fit.objective_before, fit.objective_after
        ));
        if fit.searches.len() > 1 {
            s.push_str(&format!(
                "Searches (each with the whole budget; the fit keeps the lowest): {}.\n\n",
                searches(&fit.searches)
            ));
        }
    } else {
        s.push_str(&format!(
            "Calibration {name}, evaluated at the hardware file's values (no search): objective ({objective}, mean over the fit seeds) {:.1}.\n\n",
            fit.objective_after
        ));
    }
    s.push_str(&recorded(fit));
    let head: &[&str] = if fit.searched {
        &[
            "constant",
            "before",
            "start",
            "fitted",
            "sensitivity",
            "pinned down",
        ]
    } else {
        &["constant", "value", "sensitivity", "pinned down"]
    };
    let mut rows = vec![head.iter().map(|h| h.to_string()).collect::<Vec<_>>()];
    for p in &fit.parameters {
        let mut row = if fit.searched {
            vec![
                p.key.clone(),
                p.before.to_string(),
                p.start.to_string(),
                p.fitted.to_string(),
            ]
        } else {
            vec![p.key.clone(), p.fitted.to_string()]
        };
        row.push(if p.sensitivity.is_finite() {
            error_pct(p.sensitivity * 100.0)
        } else {
            "-".into()
        });
        row.push(if p.flagged {
            "NO: barely constrained".into()
        } else {
            "yes".into()
        });
        rows.push(row);
    }
    s.push_str(&align(&rows));
    s.push_str(
        "(sensitivity: the smallest rise of the objective when the constant moves by 10% of its value, or to another choice)\n\n",
    );
    let mut rows = if fit.searched {
        vec![[
            "scenario",
            "MAPE before",
            "worst before",
            "MAPE after",
            "worst after",
        ]
        .map(String::from)
        .to_vec()]
    } else {
        vec![["scenario", "MAPE", "worst"].map(String::from).to_vec()]
    };
    for (b, a) in fit.before.iter().zip(&fit.after) {
        let mut row = vec![a.scenario.clone()];
        if fit.searched {
            row.push(mape_pct(b.mape));
            row.push(format!("{} at {}", error_pct(b.worst_pct), fmt_num(b.worst_key)));
        }
        row.push(mape_pct(a.mape));
        row.push(format!("{} at {}", error_pct(a.worst_pct), fmt_num(a.worst_key)));
        rows.push(row);
    }
    s.push_str(&format!(
        "Agreement, simulated as the mean over the {} report seeds:\n",
        fit.per_seed.len()
    ));
    s.push_str(&align(&rows));
    s.push_str(&lines(fit));
    let objs: Vec<String> = fit.per_seed.iter().map(|(k, f)| format!("{k}: {f:.1}")).collect();
    s.push_str(&format!(
        "\nSeed noise: the {} objective seed by seed is {}; noise of the fit's objective {:.2}.\n",
        if fit.searched { "fitted" } else { "evaluated" },
        objs.join(", "),
        fit.noise
    ));
    s
}

/// The file's recorded verdict beside the objective it records, judged now: the
/// hardware file's values (what `--evaluate` prints, and a search's "before").
fn recorded(fit: &Fit) -> String {
    let Some(v) = &fit.recorded else {
        return String::new();
    };
    let now = format!("{:.1}", fit.objective_before);
    let note = if now == v.objective_text() {
        ""
    } else {
        " (differs: the model or the files changed since it was recorded)"
    };
    format!(
        "Recorded verdict: {} at {}; evaluated now{}: {now}{note}.\nWhy: {}\n\n",
        v.decision.name(),
        v.objective_text(),
        if fit.searched {
            " at the hardware file's values"
        } else {
            ""
        },
        v.reason.split_whitespace().collect::<Vec<_>>().join(" ")
    )
}

/// With a `[line_bar]`: each curve's per-block and per-byte costs (a, b of t = a + b·B),
/// simulated against measured, before and after; a per-block error the bar does not
/// judge (the measured a within two standard errors of zero) is in parentheses.
fn lines(fit: &Fit) -> String {
    if fit.after.iter().all(|a| a.line.is_none()) {
        return String::new();
    }
    let mut head = vec!["scenario"];
    if fit.searched {
        head.extend(["a before", "b before"]);
    }
    head.extend(if fit.searched {
        ["a after", "b after"]
    } else {
        ["a", "b"]
    });
    let mut rows = vec![head.into_iter().map(String::from).collect::<Vec<_>>()];
    for (b, a) in fit.before.iter().zip(&fit.after) {
        let mut row = vec![a.scenario.clone()];
        if fit.searched {
            row.extend(line_cells(b));
        }
        row.extend(line_cells(a));
        rows.push(row);
    }
    format!(
        "\nEach curve's line t = a + b x B against the measured one (a: per block, b: per byte; in parentheses an a the bar does not judge):\n{}",
        align(&rows)
    )
}

/// A scenario's line errors as two cells, a and b ("-" without a line); an a the bar
/// does not judge is in parentheses.
fn line_cells(f: &ScenarioFit) -> [String; 2] {
    match f.line {
        Some(e) => {
            let a = error_pct(e.per_block_pct);
            let a = if e.per_block_judged { a } else { format!("({a})") };
            [a, format!("{:+.2}%", e.per_byte_pct)]
        }
        None => ["-".into(), "-".into()],
    }
}

/// Each search's start and the objective it reached: "from middle 30.2, from design 1 24.9".
fn searches(s: &[(SearchStart, f64)]) -> String {
    s.iter()
        .map(|(from, f)| format!("from {} {f:.1}", from.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The printed cross-validation table (with a column of each fold's searches when the
/// fit runs more than one).
pub fn folds(folds: &[Fold]) -> String {
    let several = folds.iter().any(|f| f.searches.len() > 1);
    let mut head = vec!["held out", "fit objective"];
    if several {
        head.push("searches");
    }
    head.extend(["held-out MAPE", "worst point"]);
    let lines = folds.iter().any(|f| f.prediction.line.is_some());
    if lines {
        head.extend(["held-out a", "held-out b"]);
    }
    head.push("not pinned down without it");
    let mut rows = vec![head.into_iter().map(String::from).collect::<Vec<_>>()];
    for f in folds {
        let mut row = vec![f.held_out.clone(), format!("{:.1}", f.objective)];
        if several {
            row.push(searches(&f.searches));
        }
        row.extend([
            mape_pct(f.prediction.mape),
            format!(
                "{} at {}",
                error_pct(f.prediction.worst_pct),
                fmt_num(f.prediction.worst_key)
            ),
        ]);
        if lines {
            row.extend(line_cells(&f.prediction));
        }
        row.extend([if f.flagged.is_empty() {
            "-".into()
        } else {
            f.flagged.join(", ")
        }]);
        rows.push(row);
    }
    format!(
        "Cross-validation: each scenario predicted by a fit to the others\n{}",
        align(&rows)
    )
}

/// `calibration.csv`: every measured point with the simulated value before and after.
/// With one figure its name is in the value columns' names; with several, a `figure`
/// column says which each row is.
pub fn points_csv(fit: &Fit, key_column: &str, figures: &[String]) -> Result<String, ReportError> {
    let (one, suffix) = match figures {
        [f] => (true, format!("_{f}")),
        _ => (false, String::new()),
    };
    let mut header: Vec<String> = vec!["scenario".into()];
    if !one {
        header.push("figure".into());
    }
    header.extend([key_column.into(), format!("measured{suffix}")]);
    if fit.searched {
        header.extend([
            format!("before{suffix}"),
            format!("fitted{suffix}"),
            "fitted_error_pct".into(),
        ]);
    } else {
        // evaluated at the hardware file's values: before and after are the same
        header.extend([format!("simulated{suffix}"), "error_pct".into()]);
    }
    let rows: Vec<Vec<String>> = fit
        .points
        .iter()
        .map(|p| {
            let mut row = vec![p.scenario.clone()];
            if !one {
                row.push(p.figure.clone());
            }
            row.extend([fmt_num(p.key), fmt_num(p.measured)]);
            if fit.searched {
                row.push(fmt_num(p.before));
            }
            row.extend([
                fmt_num(p.after),
                fmt_num((p.after - p.measured) / p.measured * 100.0),
            ]);
            row
        })
        .collect();
    to_csv(&header, &rows)
}

/// `cross_validation.csv`: one row per fold, then the fold's fitted value of each
/// constant (`keys`, the calibration's parameters in order) in a column named by its key.
pub fn folds_csv(folds: &[Fold], keys: &[String]) -> Result<String, ReportError> {
    let mut header: Vec<String> = [
        "held_out",
        "fit_objective",
        "mape_pct",
        "worst_key",
        "worst_pct",
        "not_pinned_down",
        "evaluations",
    ]
    .map(String::from)
    .to_vec();
    header.extend(keys.iter().cloned());
    let rows = folds
        .iter()
        .map(|f| {
            let mut row = vec![
                f.held_out.clone(),
                fmt_num(f.objective),
                fmt_num(f.prediction.mape),
                fmt_num(f.prediction.worst_key),
                fmt_num(f.prediction.worst_pct),
                f.flagged.join(" "),
                f.evaluations.to_string(),
            ];
            row.extend(f.values.iter().map(value_cell));
            row
        })
        .collect::<Vec<_>>();
    to_csv(&header, &rows)
}

/// A fitted value as a CSV cell: numbers in full precision, anything else as TOML.
fn value_cell(v: &toml::Value) -> String {
    match v {
        toml::Value::Float(x) => fmt_num(*x),
        toml::Value::Integer(i) => i.to_string(),
        other => other.to_string(),
    }
}

/// The error band drawn around the diagonal of the calibration chart (a fraction).
pub const CHART_BAND: f64 = 0.10;

/// The calibration chart: one panel per measured figure, each point a measurement (one
/// scenario at one key value) at its measured value (x) and its fitted or simulated value
/// (y), with the diagonal where they agree and a band of ±[`CHART_BAND`] around it.
pub fn charts(name: &str, fit: &Fit) -> Vec<Chart> {
    let mut figures: Vec<&str> = Vec::new();
    for p in &fit.points {
        if !figures.contains(&p.figure.as_str()) {
            figures.push(&p.figure);
        }
    }
    let word = if fit.searched {
        "fitted"
    } else {
        "simulated at the hardware file's values"
    };
    figures
        .iter()
        .map(|&f| {
            let mut pts = Series {
                mark: Mark::Markers,
                ..Series::line(&format!("one measurement (scenario and {})", "point"), 0)
            };
            for p in fit.points.iter().filter(|p| p.figure == f) {
                pts.points.push((p.measured, p.after, None));
            }
            pts.label = format!("{} measurements, {word}", pts.points.len());
            Chart {
                title: format!("Calibration {name}: {f}"),
                x_label: format!("{f}, measured"),
                y_label: format!("{f}, {}", if fit.searched { "fitted" } else { "simulated" }),
                x_categories: None,
                series: vec![pts],
                ceiling: None,
                y_top: None,
                diagonal: Some(CHART_BAND),
            }
        })
        .collect()
}

/// Stages the fitted hardware file, the CSV and the chart.
pub fn write_outputs(
    out: &mut Staged,
    hardware_name: &str,
    hardware_text: &str,
    fit: &Fit,
    name: &str,
    key_column: &str,
    figures: &[String],
) -> Result<(), ReportError> {
    out.write(hardware_name, hardware_text.as_bytes())?;
    write_evaluation(out, fit, name, key_column, figures)
}

/// Stages the points' CSV and the chart of `fit` (what `calibrate --evaluate` writes).
pub fn write_evaluation(
    out: &mut Staged,
    fit: &Fit,
    name: &str,
    key_column: &str,
    figures: &[String],
) -> Result<(), ReportError> {
    out.write(
        "calibration.csv",
        points_csv(fit, key_column, figures)?.as_bytes(),
    )?;
    let _ = (key_column, figures);
    write_panels(&charts(name, fit), out, "calibration").map_err(plain_write_error)
}

/// The drawing backends wrap a failed write twice (`backend error: Drawing backend error:
/// No space left on device`): such an error becomes one plain sentence naming the file,
/// `cannot write calibration.svg: No space left on device (os error 28)`.
fn plain_write_error(e: ReportError) -> ReportError {
    match e {
        ReportError::Plot { what, message } if message.contains("(os error ") => {
            let plain = message.rsplit("rror: ").next().unwrap_or(&message).to_string();
            ReportError::Io {
                path: what.into(),
                err: std::io::Error::other(plain),
            }
        }
        other => other,
    }
}

#[cfg(test)]
mod write_error_tests {
    use super::*;

    #[test]
    fn test_a_failed_chart_write_is_one_sentence_naming_the_file() {
        let e = plain_write_error(ReportError::Plot {
            what: "calibration.svg".into(),
            message: "backend error: Drawing backend error: No space left on device (os error 28)".into(),
        });
        assert_eq!(
            e.to_string(),
            "cannot write calibration.svg: No space left on device (os error 28)"
        );
    }
}
