//! Human-readable output: a few header lines, then the figures as aligned columns.
//!
//! A run with one point prints one figure per line (`name  value`); a run with several
//! points prints one row per point with a column per figure. Numbers are right-aligned.

use super::{Exporter, ReportError};
use crate::results::{RunDetail, RunOutput};

/// The `table` format.
pub struct TableExporter;

/// A figure for reading: whole numbers as integers, others with a precision that suits
/// their size; `-` for a figure that is undefined (NaN, say fairness with nothing delivered).
pub fn pretty(v: f64) -> String {
    if v.is_nan() {
        return "-".to_string();
    }
    if !v.is_finite() {
        return format!("{v}");
    }
    if v.fract() == 0.0 && v.abs() < 9.0e15 {
        return format!("{}", v as i64);
    }
    let a = v.abs();
    if a >= 1000.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.4}")
    } else {
        format!("{v:.6}")
    }
}

/// Lays out `rows` (the first is the header) in columns; column 0 left-aligned, the others
/// right-aligned.
pub fn align(rows: &[Vec<String>]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, s)| {
                if c == 0 {
                    format!("{s:<w$}", w = widths[c])
                } else {
                    format!("{s:>w$}", w = widths[c])
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

impl Exporter for TableExporter {
    fn extension(&self) -> &'static str {
        "txt"
    }

    fn render(&self, out: &RunOutput) -> Result<String, ReportError> {
        // LANPERF prints its own layout
        if let RunDetail::Lanperf(r) = &out.detail {
            return Ok(super::lanperf::table(r));
        }
        let mut s = format!(
            "scenario  {}\nworkload  {}\nseed      {}\n{}  {}\n\n",
            out.scenario,
            out.workload,
            out.seed,
            out.headline.name,
            pretty(out.headline.value)
        );
        let rows: Vec<Vec<String>> = if out.points.len() == 1 {
            std::iter::once(vec!["figure".to_string(), "value".to_string()])
                .chain(
                    out.columns
                        .iter()
                        .zip(&out.points[0])
                        .map(|(c, v)| vec![c.clone(), pretty(*v)]),
                )
                .collect()
        } else {
            std::iter::once(out.columns.clone())
                .chain(out.points.iter().map(|p| p.iter().map(|v| pretty(*v)).collect()))
                .collect()
        };
        s.push_str(&align(&rows));
        Ok(s)
    }
}
