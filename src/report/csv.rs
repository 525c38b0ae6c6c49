//! CSV output: a header of the point columns, then one row per workload point.

use super::{fmt_num, Exporter, ReportError};
use crate::run::output::RunOutput;

/// The `csv` format.
pub struct CsvExporter;

/// Writes `header` and `rows` as CSV text (quoting as needed).
pub fn to_csv(header: &[String], rows: &[Vec<String>]) -> Result<String, ReportError> {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    let err = |e: ::csv::Error| ReportError::Encode(e.to_string());
    w.write_record(header).map_err(err)?;
    for r in rows {
        w.write_record(r).map_err(err)?;
    }
    let bytes = w.into_inner().map_err(|e| ReportError::Encode(e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| ReportError::Encode(e.to_string()))
}

impl Exporter for CsvExporter {
    fn extension(&self) -> &'static str {
        "csv"
    }

    fn render(&self, out: &RunOutput) -> Result<String, ReportError> {
        let rows: Vec<Vec<String>> = out
            .points
            .iter()
            .map(|p| p.iter().map(|v| fmt_num(*v)).collect())
            .collect();
        to_csv(&out.columns, &rows)
    }
}
