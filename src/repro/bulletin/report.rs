//! Figure 1 of the 1992 Artisoft bulletin: PERFORM3 throughput against block size for the
//! four AE2 configurations, simulated lines against the measured points of Table 1.
//!
//! Throughput is in KB/s with 1 KB = 1000 bytes (the bulletin's 10 Mb/s = 1250 KB/s).
//! The renderers take a [`Figure1Data`] (built by [`super`], the runner) and know nothing of
//! the model that produced it:
//! [`write_outputs`] stages `figure1.csv`, `figure1.svg` and `figure1.png`;
//! [`comparison_table`] is the printed table of simulated against measured with each
//! point's error, each curve's MAPE and its time per block as a straight line in the
//! block size (a per block, b per byte; [`super::analysis::CostLine`]), simulated against
//! measured, with the measured line's standard errors and how many of them separate the
//! simulated a from the measured one.

use super::analysis::{Figure1Data, Figure1Point};
use super::{summary, Summary, CONFIGS, QUOTED_SUMMARY};
use crate::report::atomic::Staged;
use crate::report::csv::to_csv;
use crate::report::fmt_num;
use crate::report::plot::{write_chart, Chart, Mark, Series};
use crate::report::units::align;
use crate::report::units::{error_pct, mape_pct, Unit};
use crate::report::ReportError;

/// The wire's capacity in KB/s (10 Mb/s / 8 / 1000).
pub const CEILING_KBPS: f64 = 1250.0;

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
    let note = data.seeds_note();
    let simulated = if note.is_empty() {
        "simulated KB/s".to_string()
    } else {
        format!("simulated KB/s ({note})")
    };
    for c in &data.curves {
        let mut rows = vec![vec![
            "block".to_string(),
            "measured KB/s".to_string(),
            simulated.clone(),
            "error".to_string(),
        ]];
        let kbps = Unit::KiloBytesPerSecond;
        for p in &c.points {
            rows.push(vec![
                p.block_size.to_string(),
                kbps.number(p.measured_kbps),
                kbps.number(p.simulated_kbps),
                error_pct(p.error_pct()),
            ]);
        }
        let worst = c
            .points
            .iter()
            .max_by(|a, b| a.error_pct().abs().total_cmp(&b.error_pct().abs()));
        out.push_str(&format!("{} ({})\n", c.config, c.label));
        out.push_str(&align(&rows));
        out.push_str(&format!("MAPE {}", mape_pct(c.mape())));
        if let Some(w) = worst {
            out.push_str(&format!(
                ", worst point {} at {} bytes",
                error_pct(w.error_pct()),
                w.block_size
            ));
        }
        out.push('\n');
        if let (Some(m), Some(sim)) = (c.measured_cost_line(), c.simulated_cost_line()) {
            let vs = |s: f64, m: f64| error_pct((s - m) / m * 100.0);
            let se =
                |x: Option<f64>, digits: usize| x.map_or(String::new(), |e| format!(" +/- {e:.digits$}"));
            let sigmas = m
                .per_block_in_standard_errors(sim.per_block_ms)
                .map_or(String::new(), |z| format!(", {z:+.1} SE"));
            out.push_str(&format!(
                "time per block t = a + b x B: a {:.2} ms (measured {:.2}{}, {}{}),\n  \
                 b {:.0} ns/B (measured {:.0}{}, {})\n",
                sim.per_block_ms,
                m.per_block_ms,
                se(m.per_block_se_ms, 2),
                vs(sim.per_block_ms, m.per_block_ms),
                sigmas,
                sim.per_byte_ns,
                m.per_byte_ns,
                se(m.per_byte_se_ns, 0),
                vs(sim.per_byte_ns, m.per_byte_ns),
            ));
        }
        out.push_str(&packet_lines(c));
        out.push('\n');
    }
    out.push_str(&summary_lines(data));
    out
}

/// One of the bulletin's summary figures, read from a [`Summary`].
type SummaryFigure = fn(&Summary) -> f64;

/// The bulletin's summary figures (percent differences of the curves' averages),
/// simulated, from Table 1's averages and as the text quotes them; nothing unless all
/// four curves are there.
fn summary_lines(data: &Figure1Data) -> String {
    let average = |config: &str, pick: fn(&Figure1Point) -> f64| {
        let c = data.curves.iter().find(|c| c.config == config)?;
        (!c.points.is_empty()).then(|| c.points.iter().map(pick).sum::<f64>() / c.points.len() as f64)
    };
    if CONFIGS.iter().any(|c| average(c, |p| p.measured_kbps).is_none()) {
        return String::new();
    }
    let of = |pick: fn(&Figure1Point) -> f64| summary(|c| average(c, pick).unwrap_or(f64::NAN));
    let (sim, table) = (of(|p| p.simulated_kbps), of(|p| p.measured_kbps));
    let rows: [(&str, SummaryFigure); 3] = [
        ("8-bit below 16-bit, defaults", |s| s.defaults_8_vs_16_pct),
        ("8-bit below 16-bit, optimized", |s| s.optimized_8_vs_16_pct),
        ("8-bit defaults below 16-bit optimized", |s| s.best_vs_worst_pct),
    ];
    let mut out = String::from("The bulletin's summary figures, from the curves' averages:\n");
    for (what, figure) in rows {
        out += &format!(
            "  {what}: {:.1}% (Table 1 {:.1}%, quoted {}%)\n",
            figure(&sim),
            figure(&table),
            figure(&QUOTED_SUMMARY)
        );
    }
    out
}

/// The curve against its packets, simulated against measured: the fit t = a + c x
/// packets + d x B, then the steps between block sizes grouped by the packets they add,
/// a line per count; nothing when every step adds as many packets (the packets then say
/// nothing the straight line does not).
fn packet_lines(c: &super::analysis::Figure1Curve) -> String {
    let (Some(p), Some((measured, simulated))) = (c.packets, c.packet_steps()) else {
        return String::new();
    };
    if measured.len() < 2 {
        return String::new();
    }
    let mut out = String::new();
    if let Some((m, sim)) = c.packet_lines() {
        out += &format!(
            "t = a + c x packets + d x B: a {:.2} ms (measured {:.2}), c {:.2} ms (measured {:.2}),\n  \
             d {:.0} ns/B (measured {:.0}); rms {:.2} ms (measured {:.2})\n",
            sim.per_block_ms,
            m.per_block_ms,
            sim.per_packet_ms,
            m.per_packet_ms,
            sim.per_byte_ns,
            m.per_byte_ns,
            sim.rms_ms,
            m.rms_ms
        );
    }
    out += &format!(
        "steps between block sizes by packets added ({} B packets, replies <= {} B):\n",
        p.payload, p.reply_bytes
    );
    for m in &measured {
        let sim = simulated
            .iter()
            .find(|s| s.added == m.added)
            .map_or("-".to_string(), |s| format!("{:.2} ms", s.mean_ms));
        out += &format!(
            "  +{} packets: {:.2} ms (mean of {} steps), simulated {sim}\n",
            m.added, m.mean_ms, m.steps
        );
    }
    out
}

/// The chart: a line per simulated curve, the measured points as markers of the same
/// colour, and the wire's ceiling.
pub fn chart(data: &Figure1Data) -> Chart {
    let mut series = Vec::new();
    for (i, c) in data.curves.iter().enumerate() {
        let colour = i;
        let note = data.seeds_note();
        let what = if note.is_empty() {
            "simulated".to_string()
        } else {
            format!("simulated, {note}")
        };
        let mut sim = Series::line(&format!("{} ({what})", c.label), colour);
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
        y_top: None,
        diagonal: None,
    }
}

/// Stages `figure1.csv`, `figure1.svg` and `figure1.png` in `out`.
pub fn write_outputs(data: &Figure1Data, out: &mut Staged) -> Result<(), ReportError> {
    out.write("figure1.csv", csv(data)?.as_bytes())?;
    write_chart(&chart(data), out, "figure1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repro::bulletin::from_table1;

    #[test]
    fn test_mape_and_errors() {
        let d = from_table1(|_, _, m| m * 1.02);
        for c in &d.curves {
            assert!((c.mape() - 2.0).abs() < 1e-9);
        }
        let t = comparison_table(&d);
        assert!(t.contains("16bit-optimized (16-bit, optimized)"));
        assert!(t.contains("+2.0%"));
        assert!(t.contains("MAPE 2.00%"));
    }

    #[test]
    fn test_summary_figures_are_those_of_the_averages_and_need_all_four_curves() {
        // every simulated point 10% above Table 1: the averages scale alike, so every
        // summary figure (a ratio of averages) is Table 1's own
        let d = from_table1(|_, _, m| m * 1.1);
        let t = summary_lines(&d);
        assert!(
            t.contains("8-bit below 16-bit, defaults: 39.2% (Table 1 39.2%, quoted 39%)"),
            "{t}"
        );
        assert!(
            t.contains("optimized: 57.8% (Table 1 57.8%, quoted 57.8%)"),
            "{t}"
        );
        assert!(
            t.contains("16-bit optimized: 74.4% (Table 1 74.4%, quoted 74%)"),
            "{t}"
        );
        // only the 8-bit defaults 10% faster: its figures move, the optimized one does not
        let d = from_table1(|c, _, m| if c == "8bit-defaults" { m * 1.1 } else { m });
        let t = summary_lines(&d);
        assert!(t.contains("defaults: 33.1% (Table 1 39.2%"), "{t}");
        assert!(t.contains("optimized: 57.8% (Table 1 57.8%"), "{t}");
        let mut three = d.clone();
        three.curves.pop();
        assert_eq!(summary_lines(&three), "");
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
}
