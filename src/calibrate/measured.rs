//! The measurements a calibration fits: the `[measured]` table (or `[[measured]]`
//! tables) as written, and the measured CSV read into one [`Measured`] per point.
//!
//! Invariants: every table names its figure (the top-level `figure` for a single
//! `[measured]` table), all tables share the key column, no figure is measured twice;
//! every CSV row names one of the scenarios and one of its point keys, once, with a
//! finite value of at least [`MIN_MEASURED`], and every scenario has at least one point. Units: the value is
//! the figure's own; `scatter_percent` is percent of the value.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::scenario::de::from_value;
use crate::scenario::error::{show, FieldError};
use crate::scenario::{ScenarioError, Source};

use super::parameter::clip;

/// Largest `scatter_percent` of a measured table: a measurement that scatters by more
/// than its own value says nothing.
pub const MAX_SCATTER_PERCENT: f64 = 100.0;

/// One measured point.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// Index into [`super::Calibration::scenarios`].
    pub scenario: usize,
    /// Index into [`super::Calibration::figures`]: the simulated figure it is compared with.
    pub figure: usize,
    pub key: f64,
    pub value: f64,
    /// The measurement's run-to-run scatter, percent of its value: the objective counts
    /// the point's error in units of it (1 when the table does not give one, so the
    /// error counts as it is).
    pub scatter_pct: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMeasured {
    /// The simulated figure its values are compared with (with `[[measured]]`).
    pub(super) figure: Option<String>,
    pub(super) file: String,
    pub(super) scenario_column: String,
    pub(super) key_column: String,
    pub(super) value_column: String,
    /// The measurement's own run-to-run scatter, in percent of its value: each error is
    /// divided by it before the objective squares or sums it (weighted least squares).
    pub(super) scatter_percent: Option<f64>,
}

/// The measured tables with their key paths (`measured`, or `measured[i]`), each with
/// its figure: a `[measured]` table takes the top-level `figure`; `[[measured]]` tables
/// name their own (and then there is no top-level one). All share the key column.
pub(super) fn measured_tables(
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
                    "{}, where {} has {}: all tables key their points the same way",
                    quoted(&t.key_column),
                    tables[0].0,
                    quoted(&tables[0].1.key_column)
                ),
            ));
        }
        if tables.iter().filter(|(_, u)| u.figure == t.figure).count() > 1 {
            return Err(FieldError::invalid(
                format!("{at}.figure"),
                format!(
                    "{} is measured by two tables",
                    quoted(t.figure.as_deref().unwrap_or(""))
                ),
            ));
        }
    }
    Ok(tables)
}

/// Smallest measured value accepted, in the figure's own unit (KB/s, seconds, ...). Every
/// error is in percent of its measurement, so a measurement near zero turns any simulated
/// value into an error near infinity: below 1e-9 one point's squared error overflows the
/// objective (and its seed noise), and no figure of a real measurement is that small.
pub const MIN_MEASURED: f64 = 1e-9;

/// Most columns a "has no column" message lists.
const MAX_LISTED_COLUMNS: usize = 16;

/// A cell, header or name of the input, quoted for a message: control characters escaped
/// and cut to a bounded length (see [`super::parameter::clip`]).
fn quoted(s: &str) -> String {
    format!("\"{}\"", clip(s))
}

/// Reads the measured CSV: one row per point, matched to the scenarios' points. The file
/// is read as a scenario file is ([`Source::read`]): a regular file of at most
/// [`crate::scenario::source::MAX_FILE_BYTES`] (1 MiB), UTF-8. Messages name the line and column (1-based field
/// number) of a bad cell and quote input shortened and escaped.
pub(super) fn read_measured(
    path: &Path,
    cols: &RawMeasured,
    figure: usize,
    scenarios: &[(&str, &[f64])],
) -> Result<Vec<Measured>, String> {
    let text = match Source::read(path) {
        Ok(source) => source.text,
        Err(ScenarioError::Read { err, .. }) => return Err(format!("cannot read: {err}")),
        Err(ScenarioError::TooLarge { size, limit, .. }) => {
            return Err(format!(
                "too large ({size} bytes; a measured file may have at most {limit} bytes, 1 MiB)"
            ))
        }
        Err(ScenarioError::NotUtf8 { line, column, .. }) => {
            return Err(format!(
                "line {line}, column {column}: the file is not UTF-8 text"
            ))
        }
        Err(other) => return Err(other.to_string()),
    };
    let mut r = ::csv::Reader::from_reader(text.as_bytes());
    let header = r.headers().map_err(|e| e.to_string())?.clone();
    let col = |name: &str| {
        header.iter().position(|h| h == name).ok_or_else(|| {
            let listed: Vec<String> = header.iter().take(MAX_LISTED_COLUMNS).map(quoted).collect();
            let more = header.len().saturating_sub(MAX_LISTED_COLUMNS);
            format!(
                "has no column {} (columns: {}{})",
                quoted(name),
                listed.join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
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
        let line = rec.position().map_or(line, |p| p.line() as usize);
        let name = rec.get(cs).unwrap_or("");
        let Some(si) = scenarios.iter().position(|s| s.0 == name) else {
            return Err(format!(
                "line {line}: {} is not one of the scenarios ({})",
                quoted(name),
                scenarios.iter().map(|s| s.0).collect::<Vec<_>>().join(", ")
            ));
        };
        let parse = |c: usize, what: &str| -> Result<f64, String> {
            let cell = rec.get(c).unwrap_or("");
            cell.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| {
                    format!(
                        "line {line}, column {} ({}): {} is not a finite number",
                        c + 1,
                        quoted(what),
                        quoted(cell)
                    )
                })
        };
        let key = parse(ck, &cols.key_column)?;
        let value = parse(cv, &cols.value_column)?;
        if value < MIN_MEASURED {
            return Err(format!(
                "line {line}, column {} ({}): measured value {} is below {MIN_MEASURED:e} (in the \
                 figure's unit): errors are in percent of the measured value, so it must be \
                 positive, and from a smaller one any error would overflow the objective",
                cv + 1,
                quoted(&cols.value_column),
                show(value)
            ));
        }
        if !scenarios[si].1.contains(&key) {
            return Err(format!(
                "line {line}: scenario {} has no point with {} = {} (its points: {:?})",
                quoted(name),
                clip(&cols.key_column),
                show(key),
                scenarios[si].1
            ));
        }
        if let Some(prev) = seen.insert((si, key.to_bits()), line) {
            return Err(format!(
                "line {line}: the point {} {} is measured twice (also line {prev})",
                quoted(name),
                show(key)
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
            return Err(format!("no measured point for scenario {}", quoted(s.0)));
        }
    }
    Ok(out)
}
