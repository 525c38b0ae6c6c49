//! Results out: exporters per format, sweep tables, plots and atomic file writes.
//!
//! - [`Exporter`]: one implementation per output format of a [`RunOutput`] ([`table`],
//!   [`csv`], [`json`]); they never see the model, only the workload-independent output.
//! - [`units`]: how each unit reads (one rule per unit); [`figures`]: the registry of
//!   figures (name, unit, description) that labels tables and charts.
//! - [`sweep`]: the CSV files and summary statistics of a sweep.
//! - [`plot`]: SVG and PNG charts (lines, markers, grouped bars) with an embedded font
//!   (no system fonts needed).
//! - [`figure1`]: the bulletin's Figure 1 data, its CSV, comparison table and chart.
//! - [`ttcp1995`]: the 1995 ttcp table: its comparison table, CSV and bar chart.
//! - [`atomic`]: files are staged under temporary names and renamed into place together,
//!   so an error or interruption never leaves a partial result.

pub mod atomic;
pub mod cleanup;
pub mod csv;
pub mod explain;
pub mod figures;
pub mod json;
pub mod lanperf;
pub mod pcap_listing;
pub mod plot;
pub mod shared;
pub mod spacetime_draw;
pub mod stream_file;
pub mod sweep;
pub mod table;
pub mod target;
pub mod units;

use crate::run::output::RunOutput;

/// Failures while rendering or writing results.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("cannot write {}: {err}", path.display())]
    Io {
        path: std::path::PathBuf,
        err: std::io::Error,
    },
    #[error("cannot draw {what}: {message}")]
    Plot { what: String, message: String },
    #[error("cannot encode the output: {0}")]
    Encode(String),
}

/// An output format of `ethersim run`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The default view, which fits in 100 columns.
    Table,
    /// Every figure of every point (`--format table --wide`).
    WideTable,
    Csv,
    Json,
}

/// Renders a run's output in one format.
pub trait Exporter {
    /// File extension of this format (without the dot).
    fn extension(&self) -> &'static str;
    /// The whole document.
    fn render(&self, out: &RunOutput) -> Result<String, ReportError>;
}

/// The exporter of a format.
pub fn exporter(format: Format) -> Box<dyn Exporter> {
    match format {
        Format::Table => Box::new(table::TableExporter::default()),
        Format::WideTable => Box::new(table::TableExporter { wide: true }),
        Format::Csv => Box::new(csv::CsvExporter),
        Format::Json => Box::new(json::JsonExporter),
    }
}

/// A figure as text: whole numbers without a fraction, others in Rust's shortest exact form
/// (the same on every machine).
pub fn fmt_num(v: f64) -> String {
    if v.is_finite() && v.fract() == 0.0 && v.abs() < 9.0e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}
