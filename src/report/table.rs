//! Human-readable output of a run, in two views, numbers by the rules of [`super::units`]:
//!
//! - the default view ([`TableExporter::default()`]), which fits in 100 columns: for
//!   PERFORM3 the "where the time went" table with the bottleneck of each block size
//!   ([`super::explain::perform3_table`]); for saturate a compact block of the figures
//!   that matter, in words;
//! - the wide view (`--wide`): every figure of every point; one figure per line for a run
//!   with one point, else one row per point with a column per figure (the column names of
//!   the CSV, their units on a second heading line). A time whose name states its unit
//!   (`_us`, `_ms`, `_s`) is shown in that unit.
//!
//! Both start with the same header: scenario, workload, seed and the headline figure.

use super::explain;
use super::figures;
use super::units::align_with;
use super::{Exporter, ReportError};
use crate::run::output::{RunDetail, RunOutput};

/// The `table` format: the default view, or with `wide` every figure.
#[derive(Clone, Copy, Debug, Default)]
pub struct TableExporter {
    pub wide: bool,
}

/// Scenario, workload, seed and the headline with its label.
fn header(out: &RunOutput) -> String {
    format!(
        "scenario  {}\nworkload  {}\nseed      {}\nheadline  {}\n\n",
        out.scenario,
        out.workload,
        out.seed,
        figures::headline_text(out)
    )
}

/// The value of column `key` of point `i` (NaN if there is no such column).
fn get(out: &RunOutput, i: usize, key: &str) -> f64 {
    out.columns
        .iter()
        .position(|c| c == key)
        .and_then(|c| out.points.get(i)?.get(c).copied())
        .unwrap_or(f64::NAN)
}

/// The compact block of a one-point (saturate) run.
fn compact(out: &RunOutput) -> String {
    let v = |k: &str| get(out, 0, k);
    let show = |k: &str| figures::unit(k).show(v(k));
    let num = |k: &str| figures::unit(k).number(v(k));
    let rows: Vec<Vec<String>> = vec![
        vec![
            "throughput".into(),
            format!("{} ({})", show("throughput_mbps"), show("frames_per_s")),
        ],
        vec![
            "frames".into(),
            format!(
                "{} delivered of {} offered, {} queued at the end",
                num("frames_delivered"),
                num("frames_offered"),
                num("frames_queued")
            ),
        ],
        vec![
            "lost".into(),
            format!(
                "{} dropped after 16 attempts, {} damaged on the wire",
                num("frames_dropped"),
                num("frames_corrupted")
            ),
        ],
        vec![
            "wire".into(),
            format!(
                "{} carrying delivered frames; {} in collisions, {} with damaged frames",
                show("utilization"),
                show("time_collision_s"),
                show("time_corrupted_s")
            ),
        ],
        vec![
            "contention".into(),
            format!("{} collisions, {} deferrals", num("collisions"), num("deferrals")),
        ],
        vec![
            "access delay".into(),
            format!(
                "mean {}, 99th percentile {}",
                show("access_delay_mean_us"),
                show("access_delay_p99_us")
            ),
        ],
        vec![
            "fairness".into(),
            format!(
                "Jain's index {}; capture runs: mean {}, longest {}",
                show("fairness_jain"),
                show("capture_mean_run"),
                show("capture_longest_run")
            ),
        ],
        vec!["events".into(), show("events")],
    ];
    align_with(&rows, "  ", |_| true)
}

/// Every figure: one per line for a one-point run, else a column per figure.
fn wide(out: &RunOutput) -> String {
    if out.points.len() == 1 {
        let rows: Vec<Vec<String>> = std::iter::once(["figure", "value", "unit"].map(String::from).to_vec())
            .chain(out.columns.iter().zip(&out.points[0]).map(|(c, &v)| {
                let unit = figures::unit(c);
                let (sym, cells) = unit.column_named(c, &[v]);
                let sym = if v.is_nan() || unit.is_percentage() {
                    String::new()
                } else {
                    sym
                };
                vec![c.clone(), cells[0].clone(), sym]
            }))
            .collect();
        return align_with(&rows, "  ", |c| c != 1);
    }
    let mut names = Vec::with_capacity(out.columns.len());
    let mut units = Vec::with_capacity(out.columns.len());
    let mut cells: Vec<Vec<String>> = Vec::with_capacity(out.columns.len());
    for (c, name) in out.columns.iter().enumerate() {
        let vs: Vec<f64> = out.points.iter().map(|p| p[c]).collect();
        let unit = figures::unit(name);
        let (sym, col) = unit.column_named(name, &vs);
        names.push(name.clone());
        units.push(if unit.is_percentage() { "%".into() } else { sym });
        cells.push(col);
    }
    let mut rows = vec![names, units];
    // points in block-size order, smallest first, where the run has block sizes
    let mut order: Vec<usize> = (0..out.points.len()).collect();
    if let Some(b) = out.columns.iter().position(|c| c == "block_size") {
        order.sort_by(|&i, &j| out.points[i][b].total_cmp(&out.points[j][b]));
    }
    for i in order {
        rows.push(cells.iter().map(|col| col[i].clone()).collect());
    }
    align_with(&rows, "  ", |_| false)
}

impl Exporter for TableExporter {
    fn extension(&self) -> &'static str {
        "txt"
    }

    fn render(&self, out: &RunOutput) -> Result<String, ReportError> {
        // LANPERF prints its own layout (with --wide, every figure as for the others)
        if let (RunDetail::Lanperf(r), false) = (&out.detail, self.wide) {
            return Ok(super::lanperf::table(r));
        }
        let mut s = header(out);
        if self.wide {
            s.push_str(&wide(out));
        } else {
            match &out.detail {
                crate::run::output::RunDetail::Perform3(r) => s.push_str(&explain::perform3_table(r)),
                crate::run::output::RunDetail::Saturate(_) => s.push_str(&compact(out)),
                // one point of a few figures: each on its own line is already compact
                crate::run::output::RunDetail::Traffic(_) => s.push_str(&wide(out)),
                crate::run::output::RunDetail::Lanperf(_) => unreachable!("LANPERF returned above"),
                // one point: every figure on its own line is already compact
                crate::run::output::RunDetail::Ttcp(_) => s.push_str(&wide(out)),
                // one point, two applications: every figure on its own line
                crate::run::output::RunDetail::Shared(_) => s.push_str(&wide(out)),
            }
        }
        Ok(s)
    }
}
