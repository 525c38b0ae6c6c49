//! The LANPERF reproduction's files and table: `lanperf.csv` (the READ total against
//! stations, with each seed's sum), `lanperf-sample.csv` (the seed's sample output beside
//! LANPERF's formulas), and the chart `lanperf-max.svg`/`.png`. Every label says that the
//! station curve is a prediction: the seed has no measured numbers.
//!
//! Formatting only: every figure comes from [`LanperfRepro`]. Units: KB/s with LANPERF's
//! 1024-byte KB, ms, busy shares as percent in the table and as fractions in the CSV.

use std::fmt::Write;

use super::{LanperfRepro, NEAR_MAX};
use crate::report::atomic::Staged;
use crate::report::csv::to_csv;
use crate::report::fmt_num;
use crate::report::plot::{write_chart, Chart, Series};
use crate::report::ReportError;

/// Columns of `lanperf.csv`.
pub const CSV_COLUMNS: [&str; 9] = [
    "stations",
    "predicted_read_kbytes_per_s",
    "min_kbytes_per_s",
    "max_kbytes_per_s",
    "server_cpu_busy",
    "wire_busy",
    "limit",
    "seeds",
    "per_seed_kbytes_per_s",
];

/// Columns of `lanperf-sample.csv`.
pub const SAMPLE_COLUMNS: [&str; 6] = [
    "test",
    "operations",
    "printed_ms",
    "computed_ms",
    "printed_kbytes_per_s",
    "computed_kbytes_per_s",
];

fn seeds(d: &LanperfRepro) -> String {
    d.seeds.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
}

/// The text of `lanperf.csv`: one row per station count, full precision.
pub fn csv(d: &LanperfRepro) -> Result<String, ReportError> {
    let header: Vec<String> = CSV_COLUMNS.map(String::from).to_vec();
    let rows: Vec<Vec<String>> = d
        .points
        .iter()
        .map(|p| {
            let min = p.per_seed_kbps.iter().copied().fold(f64::INFINITY, f64::min);
            let max = p.per_seed_kbps.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            vec![
                p.stations.to_string(),
                fmt_num(p.mean_kbps()),
                fmt_num(min),
                fmt_num(max),
                fmt_num(p.server_cpu),
                fmt_num(p.wire_busy),
                p.limit.to_string(),
                seeds(d),
                p.per_seed_kbps
                    .iter()
                    .map(|v| fmt_num(*v))
                    .collect::<Vec<_>>()
                    .join(" "),
            ]
        })
        .collect();
    to_csv(&header, &rows)
}

/// The text of `lanperf-sample.csv`.
pub fn sample_csv(d: &LanperfRepro) -> Result<String, ReportError> {
    let header: Vec<String> = SAMPLE_COLUMNS.map(String::from).to_vec();
    let rows: Vec<Vec<String>> = d
        .sample
        .iter()
        .map(|c| {
            vec![
                c.line.test.to_string(),
                c.line.operations.to_string(),
                fmt_num(c.line.printed_ms),
                fmt_num(c.computed_ms),
                fmt_num(c.line.printed_kbps),
                fmt_num(c.computed_kbps),
            ]
        })
        .collect();
    to_csv(&header, &rows)
}

/// The table printed by `ethersim reproduce lanperf`.
pub fn comparison_table(d: &LanperfRepro) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "LANPERF 1.1's sample output (seed 002, t10 b512 f64) beside LANPERF's formulas:"
    );
    let _ = writeln!(
        s,
        "  {:<6} {:>10}  {:>10} {:>10}  {:>10} {:>10}",
        "test", "operations", "printed ms", "formula", "printed KB/s", "formula"
    );
    for c in &d.sample {
        let _ = writeln!(
            s,
            "  {:<6} {:>10}  {:>10.3} {:>10.3}  {:>12.2} {:>10.2}  {}",
            c.line.test.to_string(),
            c.line.operations,
            c.line.printed_ms,
            c.computed_ms,
            c.line.printed_kbps,
            c.computed_kbps,
            if c.agrees() { "agrees" } else { "DIFFERS" }
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Maximum server throughput, READ (lanperf-max.toml): a PREDICTION, the seed has no\n\
         measured numbers; mean of {} seeds, KB = 1024 bytes",
        d.seeds.len()
    );
    let _ = writeln!(
        s,
        "  {:>8} {:>10} {:>15} {:>11} {:>6}  limit",
        "stations", "sum KB/s", "seeds min-max", "server CPU", "wire"
    );
    for p in &d.points {
        let min = p.per_seed_kbps.iter().copied().fold(f64::INFINITY, f64::min);
        let max = p.per_seed_kbps.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let _ = writeln!(
            s,
            "  {:>8} {:>10.1} {:>15} {:>10.0}% {:>5.0}%  {}",
            p.stations,
            p.mean_kbps(),
            format!("{min:.1}-{max:.1}"),
            p.server_cpu * 100.0,
            p.wire_busy * 100.0,
            p.limit
        );
    }
    if let Some(m) = d.maximum() {
        let near: Vec<String> = d.near_maximum().iter().map(usize::to_string).collect();
        let _ = writeln!(
            s,
            "Predicted maximum server throughput: {:.1} KB/s at {} stations (within {:.0}% of it \
             at {} stations).",
            m.mean_kbps(),
            m.stations,
            NEAR_MAX * 100.0,
            near.join(", ")
        );
    }
    s
}

/// The chart: the predicted READ sum against stations, with each seed's sum as markers.
pub fn chart(d: &LanperfRepro) -> Chart {
    let mut mean = Series::line(
        &format!(
            "READ, sum of the stations (prediction, mean of {} seeds)",
            d.seeds.len()
        ),
        0,
    );
    let mut spread = Series {
        mark: crate::report::plot::Mark::Markers,
        ..Series::line("each seed", 0)
    };
    for p in &d.points {
        let x = p.stations as f64;
        mean.points.push((x, p.mean_kbps(), None));
        for v in &p.per_seed_kbps {
            spread.points.push((x, *v, None));
        }
    }
    Chart {
        title: "LANPERF maximum server throughput (simulated prediction, no measurement)".into(),
        x_label: "Stations".into(),
        y_label: "Throughput (KB/s, 1 KB = 1024 bytes)".into(),
        x_categories: None,
        series: vec![mean, spread],
        ceiling: Some((1_250_000.0 / 1024.0, "10 Mb/s = 1221 KB/s (not reachable)".into())),
        y_top: None,
        diagonal: None,
    }
}

/// Stages `lanperf.csv`, `lanperf-sample.csv`, `lanperf-max.svg` and `lanperf-max.png`.
pub fn write_outputs(d: &LanperfRepro, out: &mut Staged) -> Result<(), ReportError> {
    out.write("lanperf.csv", csv(d)?.as_bytes())?;
    out.write("lanperf-sample.csv", sample_csv(d)?.as_bytes())?;
    write_chart(&chart(d), out, "lanperf-max")
}
