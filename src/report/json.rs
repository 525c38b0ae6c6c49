//! JSON output, schema version 4 (documented in the guide, stable; version 2 added the
//! `shared` workload, its points and its detail; version 3 made a run's ttcp transfers in
//! its detail a list; version 4 made a shared run's file service in its detail a list,
//! `file_services`, each with its name, workstations and wire share beside its point):
//!
//! ```text
//! { "schema_version": 4, "scenario": str, "seed": u64, "workload": str,
//!   "headline": { "name": str, "value": number },
//!   "points": [ { column: number, ... }, ... ],   // one object per workload point
//!   "detail": { ... } }                           // the workload's full report
//! ```
//! Whole numbers are written as JSON integers; non-finite numbers as `null`.

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use super::{Exporter, ReportError};
use crate::run::output::RunOutput;

/// The `json` format.
pub struct JsonExporter;

pub const SCHEMA_VERSION: u32 = 4;

/// A figure as a JSON number.
pub fn number(v: f64) -> serde_json::Value {
    if v.is_finite() && v.fract() == 0.0 && v.abs() < 9.0e15 {
        serde_json::Value::from(v as i64)
    } else {
        serde_json::Number::from_f64(v).map_or(serde_json::Value::Null, serde_json::Value::Number)
    }
}

/// One point as an object whose keys keep the column order.
struct Point<'a> {
    columns: &'a [String],
    values: &'a [f64],
}

impl Serialize for Point<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.columns.len()))?;
        for (c, v) in self.columns.iter().zip(self.values) {
            m.serialize_entry(c, &number(*v))?;
        }
        m.end()
    }
}

#[derive(Serialize)]
struct Headline<'a> {
    name: &'a str,
    value: serde_json::Value,
}

#[derive(Serialize)]
struct Document<'a> {
    schema_version: u32,
    scenario: &'a str,
    seed: u64,
    workload: &'a str,
    headline: Headline<'a>,
    points: Vec<Point<'a>>,
    detail: serde_json::Value,
}

impl Exporter for JsonExporter {
    fn extension(&self) -> &'static str {
        "json"
    }

    fn render(&self, out: &RunOutput) -> Result<String, ReportError> {
        // through a `Value`, so the detail's keys come out sorted (stable across versions)
        let detail = serde_json::to_value(&out.detail).map_err(|e| ReportError::Encode(e.to_string()))?;
        let doc = Document {
            schema_version: SCHEMA_VERSION,
            scenario: &out.scenario,
            seed: out.seed,
            workload: &out.workload,
            headline: Headline {
                name: &out.headline.name,
                value: number(out.headline.value),
            },
            points: out
                .points
                .iter()
                .map(|p| Point {
                    columns: &out.columns,
                    values: p,
                })
                .collect(),
            detail,
        };
        let mut s = serde_json::to_string_pretty(&doc).map_err(|e| ReportError::Encode(e.to_string()))?;
        s.push('\n');
        Ok(s)
    }
}
