//! Figure 1 of the 1992 Artisoft bulletin: PERFORM3 throughput against block size for the
//! four AE2 configurations, simulated lines against the measured points of Table 1.
//!
//! Throughput is in KB/s with 1 KB = 1000 bytes (the bulletin's 10 Mb/s = 1250 KB/s).
//! Table 1 is compiled in from `data/bulletin-table1.csv` ([`table1`]). The renderers take
//! a [`Figure1Data`] and know nothing of the model that produced it:
//! [`write_outputs`] stages `figure1.csv`, `figure1.svg` and `figure1.png`;
//! [`comparison_table`] is the printed table of simulated against measured with each
//! point's error and each curve's MAPE.

use serde::Serialize;

use super::atomic::Staged;
use super::csv::to_csv;
use super::fmt_num;
use super::plot::{write_chart, Chart, Mark, Series};
use super::table::align;
use super::ReportError;

/// The four configurations, in the bulletin's order.
pub const CONFIGS: [&str; 4] = [
    "16bit-optimized",
    "8bit-optimized",
    "16bit-defaults",
    "8bit-defaults",
];

/// The wire's capacity in KB/s (10 Mb/s / 8 / 1000).
pub const CEILING_KBPS: f64 = 1250.0;

/// Table 1 of the bulletin, as shipped in the repository.
pub const TABLE1_CSV: &str = include_str!("../../data/bulletin-table1.csv");

/// One point of a curve.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Figure1Point {
    pub block_size: u32,
    pub measured_kbps: f64,
    pub simulated_kbps: f64,
}

/// One configuration's curve.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Figure1Curve {
    /// One of [`CONFIGS`].
    pub config: String,
    /// Legend text, e.g. "16-bit, optimized".
    pub label: String,
    pub points: Vec<Figure1Point>,
}

/// Everything Figure 1 shows.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Figure1Data {
    pub curves: Vec<Figure1Curve>,
}

/// Table 1 as `(config, block_size, measured KB/s)`, configurations in [`CONFIGS`] order
/// within each block size row order of the file.
pub fn table1() -> Vec<(String, u32, f64)> {
    parse_table1(TABLE1_CSV).expect("data/bulletin-table1.csv is compiled in and well formed")
}

/// Parses Table 1's CSV (`block_size,16bit_optimized_kbps,...`).
pub fn parse_table1(text: &str) -> Result<Vec<(String, u32, f64)>, String> {
    let mut r = ::csv::Reader::from_reader(text.as_bytes());
    let header = r.headers().map_err(|e| e.to_string())?.clone();
    let configs: Vec<String> = header
        .iter()
        .skip(1)
        .map(|h| h.trim_end_matches("_kbps").replace('_', "-"))
        .collect();
    if configs.iter().any(|c| !CONFIGS.contains(&c.as_str())) {
        return Err(format!("unexpected Table 1 header {header:?}"));
    }
    let mut out = Vec::new();
    for rec in r.records() {
        let rec = rec.map_err(|e| e.to_string())?;
        let block: u32 = rec
            .get(0)
            .unwrap_or("")
            .parse()
            .map_err(|e| format!("block size: {e}"))?;
        for (c, cell) in configs.iter().zip(rec.iter().skip(1)) {
            let kbps: f64 = cell.parse().map_err(|e| format!("{c} at {block}: {e}"))?;
            out.push((c.clone(), block, kbps));
        }
    }
    Ok(out)
}

/// Legend text of a configuration name (`16bit-optimized` -> `16-bit, optimized`).
pub fn config_label(config: &str) -> String {
    match config.split_once("bit-") {
        Some((bits, rest)) => format!("{bits}-bit, {rest}"),
        None => config.to_string(),
    }
}

/// Signed error of a point, percent of the measured value.
pub fn error_pct(p: &Figure1Point) -> f64 {
    (p.simulated_kbps - p.measured_kbps) / p.measured_kbps * 100.0
}

/// Mean absolute percentage error of a curve.
pub fn mape(curve: &Figure1Curve) -> f64 {
    if curve.points.is_empty() {
        return f64::NAN;
    }
    curve.points.iter().map(|p| error_pct(p).abs()).sum::<f64>() / curve.points.len() as f64
}

/// The text of `figure1.csv`: `config,block_size,measured_kbps,simulated_kbps`.
pub fn csv(data: &Figure1Data) -> Result<String, ReportError> {
    let header: Vec<String> = ["config", "block_size", "measured_kbps", "simulated_kbps"]
        .map(String::from)
        .to_vec();
    let rows: Vec<Vec<String>> = data
        .curves
        .iter()
        .flat_map(|c| {
            c.points.iter().map(|p| {
                vec![
                    c.config.clone(),
                    p.block_size.to_string(),
                    fmt_num(p.measured_kbps),
                    fmt_num(p.simulated_kbps),
                ]
            })
        })
        .collect();
    to_csv(&header, &rows)
}

/// The printed comparison: per curve, each block size with measured, simulated and error,
/// then the curve's MAPE and worst point.
pub fn comparison_table(data: &Figure1Data) -> String {
    let mut out = String::new();
    for c in &data.curves {
        let mut rows = vec![["block", "measured KB/s", "simulated KB/s", "error %"]
            .map(String::from)
            .to_vec()];
        for p in &c.points {
            rows.push(vec![
                p.block_size.to_string(),
                format!("{:.1}", p.measured_kbps),
                format!("{:.1}", p.simulated_kbps),
                format!("{:+.1}", error_pct(p)),
            ]);
        }
        let worst = c.points.iter().map(|p| error_pct(p).abs()).fold(0.0, f64::max);
        out.push_str(&format!("{} ({})\n", c.config, c.label));
        out.push_str(&align(&rows));
        out.push_str(&format!("MAPE {:.2}%, worst point {:.1}%\n\n", mape(c), worst));
    }
    out
}

/// The chart: a line per simulated curve, the measured points as markers of the same
/// colour, and the wire's ceiling.
pub fn chart(data: &Figure1Data) -> Chart {
    let mut series = Vec::new();
    for (i, c) in data.curves.iter().enumerate() {
        let colour = CONFIGS.iter().position(|k| *k == c.config).unwrap_or(i);
        let mut sim = Series::line(&format!("{} (simulated)", c.label), colour);
        let mut meas = Series {
            mark: Mark::Markers,
            ..Series::line(&format!("{} (measured)", c.label), colour)
        };
        for p in &c.points {
            let x = p.block_size as f64;
            sim.points.push((x, p.simulated_kbps, None));
            meas.points.push((x, p.measured_kbps, None));
        }
        series.push(sim);
        series.push(meas);
    }
    Chart {
        title: "AE2 Ethernet performance: 8-bit vs 16-bit (simulated lines, measured points)".into(),
        x_label: "Block size (bytes)".into(),
        y_label: "Throughput (KB/s, 1 KB = 1000 bytes)".into(),
        x_categories: None,
        series,
        ceiling: Some((CEILING_KBPS, "10 Mb/s = 1250 KB/s (not reachable)".into())),
        // between the 16-bit optimized curve (above ~900 KB/s past 10 kB) and the rest (below ~450)
        legend: Some(plotters::chart::SeriesLabelPosition::MiddleRight),
    }
}

/// Stages `figure1.csv`, `figure1.svg` and `figure1.png` in `out`.
pub fn write_outputs(data: &Figure1Data, out: &mut Staged) -> Result<(), ReportError> {
    out.write("figure1.csv", csv(data)?.as_bytes())?;
    write_chart(&chart(data), out, "figure1")
}

/// Figure 1 data with Table 1 as the measured values and `simulate(config, block)` as the
/// simulated ones (for tests and previews).
pub fn from_table1(simulate: impl Fn(&str, u32, f64) -> f64) -> Figure1Data {
    let t = table1();
    let curves = CONFIGS
        .iter()
        .map(|&config| Figure1Curve {
            config: config.to_string(),
            label: config_label(config),
            points: t
                .iter()
                .filter(|(c, _, _)| c == config)
                .map(|(_, b, m)| Figure1Point {
                    block_size: *b,
                    measured_kbps: *m,
                    simulated_kbps: simulate(config, *b, *m),
                })
                .collect(),
        })
        .collect();
    Figure1Data { curves }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_table1_has_four_curves_of_sixteen_points() {
        let t = table1();
        assert_eq!(t.len(), 64);
        assert_eq!(t[0], ("16bit-optimized".to_string(), 3072, 673.10));
        assert_eq!(t[63], ("8bit-defaults".to_string(), 64512, 262.25));
        for c in CONFIGS {
            assert_eq!(t.iter().filter(|x| x.0 == c).count(), 16);
        }
    }

    #[test]
    fn test_mape_and_errors() {
        let d = from_table1(|_, _, m| m * 1.02);
        for c in &d.curves {
            assert!((mape(c) - 2.0).abs() < 1e-9);
        }
        let t = comparison_table(&d);
        assert!(t.contains("16bit-optimized (16-bit, optimized)"));
        assert!(t.contains("+2.0"));
        assert!(t.contains("MAPE 2.00%"));
    }

    #[test]
    fn test_csv_columns() {
        let d = from_table1(|_, _, m| m);
        let text = csv(&d).unwrap();
        let mut lines = text.lines();
        assert_eq!(
            lines.next(),
            Some("config,block_size,measured_kbps,simulated_kbps")
        );
        assert_eq!(lines.next(), Some("16bit-optimized,3072,673.1,673.1"));
        assert_eq!(text.lines().count(), 65);
    }

    #[test]
    fn test_bad_table1_is_an_error() {
        assert!(parse_table1("block_size,foo_kbps\n1,2\n").is_err());
        assert!(parse_table1("block_size,8bit_defaults_kbps\nx,2\n").is_err());
    }
}
