//! The 1985 ttcp comparison (seed 001) as text, CSV and two charts: each row of the seed's
//! transmitter and receiver tables, measured against simulated (the mean over the report
//! seeds, with the seed's truncations applied by the runner [`super`]), for
//! throughput, system CPU %, CPU % and KB per CPU second; then how many non-anomalous rows
//! meet issue 14's bars (throughput within 10%, system CPU within 8 points), the
//! interfaces ranked by throughput and by KB per CPU second, and each interface's user
//! and system seconds on each side, measured against simulated. The charts
//! (`ttcp-1985.svg`/`.png`: throughput; `ttcp-1985-sys.svg`/`.png`: system CPU % of both
//! sides) have one group of bars per configuration: the mean of its non-anomalous
//! measured runs, with their least and greatest as an error bar, beside the simulated.
//!
//! Units: KB/s and KB per CPU second with ttcp's 1024-byte KB; CPU in percent of real time.

use super::Row;
use crate::report::atomic::Staged;
use crate::report::csv::to_csv;
use crate::report::plot::{write_chart, Chart, Point, Series};
use crate::report::ReportError;

/// The file names' stem: `ttcp-1985.csv`, `.svg`, `.png` and `ttcp-1985-sys.svg`, `.png`.
pub const STEM: &str = "ttcp-1985";

/// The CSV columns, in order.
pub const CSV_COLUMNS: [&str; 21] = [
    "side",
    "config",
    "interface",
    "trailers",
    "anomalous",
    "measured_kbytes_per_s",
    "simulated_kbytes_per_s",
    "throughput_error_pct",
    "measured_sys_pct",
    "simulated_sys_pct",
    "sys_error_points",
    "measured_cpu_pct",
    "simulated_cpu_pct",
    "measured_kbytes_per_cpu_s",
    "simulated_kbytes_per_cpu_s",
    "simulated_exact_kbytes_per_s",
    "simulated_exact_kbytes_per_cpu_s",
    "measured_user_s",
    "simulated_exact_user_s",
    "measured_sys_s",
    "simulated_exact_sys_s",
];

/// The comparison as text: one line per row, then the goals.
pub fn comparison_table(rows: &[Row]) -> String {
    let mut s = String::from(
        "ttcp between two VAX-11/780s under 4.2BSD, 1985; KB/s of 1024 bytes; simulated: mean of 5 seeds\n",
    );
    s += &format!(
        "{:<15} {:<6} {:<4} {:<4} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>7} {:>8} {:>8}\n",
        "side",
        "mode",
        "if",
        "trl",
        "KB/s",
        "sim",
        "err%",
        "sys%",
        "sim",
        "pts",
        "cpu%",
        "sim cpu",
        "KB/cpu-s",
        "sim"
    );
    for r in rows {
        s += &format!(
            "{:<15} {:<6} {:<4} {:<4} {:>6.1} {:>6.1} {:>+6.1} {:>6.1} {:>6.1} {:>+6.1} {:>6.0} {:>7.1} {:>8.0} {:>8.0}{}\n",
            r.side,
            r.config,
            r.interface,
            r.trailers,
            r.measured.kbytes_per_s,
            r.simulated.kbytes_per_s,
            r.throughput_error_pct(),
            r.measured.sys_pct(),
            r.simulated.sys_pct(),
            r.sys_error_points(),
            r.measured.cpu_pct,
            r.simulated.cpu_pct,
            r.measured.kbytes_per_cpu_s,
            r.simulated.kbytes_per_cpu_s,
            if r.anomalous() { "  (anomalous)" } else { "" }
        );
    }
    s += "side: whose figures (transmitter_VGR: BRL's dual VAX VGR sending; receiver_TGR: the \
          780 TGR receiving); mode: VGR dual or single processor; if: interface (ex0 Excelan, \
          il0 Interlan, pcl0 PCL-11); trl: trailers; KB/s, sim: measured and simulated \
          throughput, err%: the error; sys%, sim: system time over real time, pts: the \
          difference in points; cpu%, sim cpu: user and system time over real time; KB/cpu-s, \
          sim: KB per CPU second; (anomalous): the source's rows of anomalously low system \
          time, left out of the goals\n";
    let normal: Vec<&Row> = rows.iter().filter(|r| !r.anomalous()).collect();
    let within = normal
        .iter()
        .filter(|r| r.throughput_error_pct().abs() <= 10.0)
        .count();
    let sys_ok = normal
        .iter()
        .filter(|r| r.sys_error_points().abs() <= 8.0)
        .count();
    s += &format!(
        "non-anomalous rows: throughput within 10% in {within} of {n}; system CPU within 8 points in {sys_ok} of {n}\n",
        n = normal.len()
    );
    s += &ordering_line(&normal);
    s += &cpu_per_kb_lines(&normal);
    s += &cpu_seconds_lines(&normal);
    s
}

/// The interfaces ranked by throughput at the receiver, the mean over each interface's
/// non-anomalous rows: measured (as ttcp printed it) and simulated (unrounded, before
/// ttcp's whole-second truncation, which can print two different runs alike).
pub fn ordering(rows: &[&Row]) -> Vec<(String, f64, f64)> {
    per_interface(
        rows,
        "receiver",
        |r| r.measured.kbytes_per_s,
        |r| r.simulated_exact_kbytes_per_s,
    )
}

/// The interfaces' KB per CPU second on `side` ("transmitter" or "receiver"), the mean
/// over each interface's rows: measured (as the seed printed it) and simulated before
/// ttcp's truncations (user + system seconds unrounded), which decide a near tie that
/// the printed integers can turn either way.
pub fn cpu_per_kb(rows: &[&Row], side: &str) -> Vec<(String, f64, f64)> {
    per_interface(
        rows,
        side,
        |r| r.measured.kbytes_per_cpu_s,
        |r| r.simulated_exact_kbytes_per_cpu_s,
    )
}

/// User and system seconds.
pub type UserSys = (f64, f64);

/// The interfaces' user and system seconds on `side` for the 1 MiB transfer, the mean
/// over each interface's rows: measured (as the seed printed them, in tenths) and
/// simulated before ttcp's truncation. They say where a side's CPU per KB goes wrong:
/// in user or system time, and on which interface.
pub fn cpu_seconds(rows: &[&Row], side: &str) -> Vec<(String, UserSys, UserSys)> {
    let user = per_interface(rows, side, |r| r.measured.usr_s, |r| r.simulated_exact_user_s);
    let sys = per_interface(rows, side, |r| r.measured.sys_s, |r| r.simulated_exact_sys_s);
    user.into_iter()
        .zip(sys)
        .map(|((name, mu, su), (_, ms, ss))| (name, (mu, ms), (su, ss)))
        .collect()
}

fn cpu_seconds_lines(rows: &[&Row]) -> String {
    ["transmitter", "receiver"]
        .iter()
        .map(|side| {
            let each: Vec<String> = cpu_seconds(rows, side)
                .iter()
                .map(|(name, (mu, ms), (su, ss))| {
                    format!("{name} measured {mu:.2} + {ms:.2}, simulated {su:.2} + {ss:.2}")
                })
                .collect();
            format!(
                "{side} CPU seconds per MiB, user + system (mean of non-anomalous rows): {}\n",
                each.join("; ")
            )
        })
        .collect()
}

/// Per interface (in the rows' order) on `side`: the mean of `measured` and of
/// `simulated` over its rows.
fn per_interface(
    rows: &[&Row],
    side: &str,
    measured: fn(&Row) -> f64,
    simulated: fn(&Row) -> f64,
) -> Vec<(String, f64, f64)> {
    let mut names: Vec<&str> = Vec::new();
    for r in rows.iter().filter(|r| r.side.starts_with(side)) {
        if !names.contains(&r.interface.as_str()) {
            names.push(&r.interface);
        }
    }
    names
        .into_iter()
        .map(|name| {
            let of: Vec<&&Row> = rows
                .iter()
                .filter(|r| r.side.starts_with(side) && r.interface == name)
                .collect();
            let n = of.len() as f64;
            let m = of.iter().map(|r| measured(r)).sum::<f64>() / n;
            let s = of.iter().map(|r| simulated(r)).sum::<f64>() / n;
            (name.to_string(), m, s)
        })
        .collect()
}

/// "measured A > B; simulated, unrounded B > A", each ranked highest first.
fn ranked_pair(o: &[(String, f64, f64)]) -> String {
    let ranked = |key: fn(&(String, f64, f64)) -> f64| {
        let mut v: Vec<&(String, f64, f64)> = o.iter().collect();
        v.sort_by(|a, b| key(b).total_cmp(&key(a)));
        v.iter()
            .map(|e| format!("{} {:.1}", e.0, key(e)))
            .collect::<Vec<_>>()
            .join(" > ")
    };
    format!(
        "measured {}; simulated, unrounded {}",
        ranked(|e| e.1),
        ranked(|e| e.2)
    )
}

fn ordering_line(rows: &[&Row]) -> String {
    format!(
        "interfaces by receiver KB/s (mean of non-anomalous rows): {}\n",
        ranked_pair(&ordering(rows))
    )
}

fn cpu_per_kb_lines(rows: &[&Row]) -> String {
    ["transmitter", "receiver"]
        .iter()
        .map(|side| {
            format!(
                "interfaces by {side} KB per CPU second (mean of non-anomalous rows): {}\n",
                ranked_pair(&cpu_per_kb(rows, side))
            )
        })
        .collect()
}

/// The comparison as CSV: measured, simulated and error for throughput and system CPU %
/// (quoted where a field needs it).
pub fn csv(rows: &[Row]) -> Result<String, ReportError> {
    let header: Vec<String> = CSV_COLUMNS.iter().map(|c| c.to_string()).collect();
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.side.clone(),
                r.config.clone(),
                r.interface.clone(),
                r.trailers.clone(),
                r.anomalous().to_string(),
                r.measured.kbytes_per_s.to_string(),
                format!("{:.2}", r.simulated.kbytes_per_s),
                format!("{:.2}", r.throughput_error_pct()),
                format!("{:.2}", r.measured.sys_pct()),
                format!("{:.2}", r.simulated.sys_pct()),
                format!("{:.2}", r.sys_error_points()),
                r.measured.cpu_pct.to_string(),
                format!("{:.2}", r.simulated.cpu_pct),
                r.measured.kbytes_per_cpu_s.to_string(),
                format!("{:.1}", r.simulated.kbytes_per_cpu_s),
                format!("{:.2}", r.simulated_exact_kbytes_per_s),
                format!("{:.2}", r.simulated_exact_kbytes_per_cpu_s),
                r.measured.usr_s.to_string(),
                format!("{:.3}", r.simulated_exact_user_s),
                r.measured.sys_s.to_string(),
                format!("{:.3}", r.simulated_exact_sys_s),
            ]
        })
        .collect();
    to_csv(&header, &body)
}

/// One configuration's rows on one side: its label and, for `f`, the mean of the
/// non-anomalous measured rows with their range, and the simulated value.
struct Group {
    label: String,
    measured: (f64, f64, f64),
    simulated: f64,
}

/// The configurations of `side` ("transmitter" or "receiver") in table order, for `f`.
fn groups(rows: &[Row], side: &str, f: impl Fn(&super::Printed) -> f64) -> Vec<Group> {
    let mut keys: Vec<(&str, &str, &str)> = Vec::new();
    for r in rows.iter().filter(|r| r.side.starts_with(side)) {
        let k = (r.config.as_str(), r.interface.as_str(), r.trailers.as_str());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    keys.into_iter()
        .map(|(config, interface, trailers)| {
            let mine: Vec<&Row> = rows
                .iter()
                .filter(|r| {
                    r.side.starts_with(side)
                        && !r.anomalous()
                        && (r.config.as_str(), r.interface.as_str(), r.trailers.as_str())
                            == (config, interface, trailers)
                })
                .collect();
            let m: Vec<f64> = mine.iter().map(|r| f(&r.measured)).collect();
            let mean = m.iter().sum::<f64>() / m.len().max(1) as f64;
            let lo = m.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = m.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let trl = match trailers {
                "yes" => " trl",
                "no" => " -trl",
                _ => "",
            };
            Group {
                label: format!("{config} {interface}{trl}"),
                measured: (mean, lo, hi),
                simulated: mine.first().map_or(f64::NAN, |r| f(&r.simulated)),
            }
        })
        .collect()
}

/// A measured bar at category `i`: the mean, with the range when the runs differ.
fn measured_point(i: usize, g: &Group) -> Point {
    let (mean, lo, hi) = g.measured;
    (i as f64, mean, (hi > lo).then_some((lo, hi)))
}

fn seeds_note() -> String {
    format!("simulated: mean of {} seeds", super::SEEDS.len())
}

/// Throughput per configuration: measured (mean and range of its runs) and simulated.
pub fn throughput_chart(rows: &[Row]) -> Chart {
    let g = groups(rows, "transmitter", |p| p.kbytes_per_s);
    let mut measured = Series::bar("measured, 1985 (error bar: its runs' range)", 0);
    let mut simulated = Series::bar(&seeds_note(), 1);
    for (i, g) in g.iter().enumerate() {
        measured.points.push(measured_point(i, g));
        simulated.points.push((i as f64, g.simulated, None));
    }
    Chart {
        title: "ttcp between two VAX-11/780s under 4.2BSD, 1985: throughput".into(),
        x_label: "VGR mode, interface, trailers (-trl: off)".into(),
        y_label: "Throughput (KB/s, 1 KB = 1024 bytes, as ttcp prints)".into(),
        x_categories: Some(g.iter().map(|g| g.label.clone()).collect()),
        series: vec![measured, simulated],
        ceiling: None,
        y_top: Some(90.0),
        diagonal: None,
    }
}

/// System CPU % of both sides per configuration: measured (mean and range) and simulated.
pub fn sys_chart(rows: &[Row]) -> Chart {
    let sides = [
        ("transmitter", "VGR (transmitter)"),
        ("receiver", "TGR (receiver)"),
    ];
    let mut series = Vec::new();
    let mut labels = Vec::new();
    for (k, (side, name)) in sides.iter().enumerate() {
        let g = groups(rows, side, |p| p.sys_pct());
        let mut measured = Series::bar(&format!("{name} measured"), 2 * k);
        let mut simulated = Series::bar(&format!("{name} simulated"), 2 * k + 1);
        for (i, g) in g.iter().enumerate() {
            measured.points.push(measured_point(i, g));
            simulated.points.push((i as f64, g.simulated, None));
        }
        labels = g.into_iter().map(|g| g.label).collect();
        series.push(measured);
        series.push(simulated);
    }
    Chart {
        title: format!(
            "ttcp 1985: system CPU as 4.2BSD charged it ({}; anomalous pcl runs left out)",
            seeds_note()
        ),
        x_label: "VGR mode, interface, trailers (-trl: off)".into(),
        y_label: "System CPU (% of real time)".into(),
        x_categories: Some(labels),
        series,
        ceiling: None,
        y_top: Some(90.0),
        diagonal: None,
    }
}

/// Stages `ttcp-1985.csv` and the two charts (SVG and PNG) in `out`.
pub fn write_outputs(rows: &[Row], out: &mut Staged) -> Result<(), ReportError> {
    out.write(&format!("{STEM}.csv"), csv(rows)?.as_bytes())?;
    write_chart(&throughput_chart(rows), out, STEM)?;
    write_chart(&sys_chart(rows), out, &format!("{STEM}-sys"))
}

#[cfg(test)]
mod tests {
    use super::super::Printed;
    use super::*;

    fn row(side: &str, config: &str, kb: f64, sys_s: f64, sim_kb: f64, note: &str) -> Row {
        let printed = |kb: f64, sys_s: f64| Printed {
            sys_s,
            real_s: 20.0,
            kbytes_per_s: kb,
            ..Printed::default()
        };
        Row {
            side: side.into(),
            config: config.into(),
            interface: "pcl0".into(),
            trailers: "n/a".into(),
            note: note.into(),
            measured: printed(kb, sys_s),
            simulated: printed(sim_kb, 4.0),
            simulated_exact_kbytes_per_s: sim_kb,
            simulated_exact_kbytes_per_cpu_s: 0.0,
            simulated_exact_user_s: 0.0,
            simulated_exact_sys_s: 4.0,
        }
    }

    #[test]
    fn test_cpu_seconds_split_user_and_system_per_interface_and_side() {
        // by hand: transmitter pcl0 rows measured 0.5 + 5.0 and 0.1 + 6.0 (means 0.3 and
        // 5.5), simulated unrounded 0.2 + 4.25 and 0.2 + 4.75 (0.2 and 4.5); il0 one row,
        // 0.3 + 5.4 against 0.25 + 6.0; the receiver row stays on its side
        let with = |side: &str, iface: &str, m: (f64, f64), s: (f64, f64)| {
            let mut r = row(side, "single", 50.0, m.1, 50.0, "");
            r.interface = iface.into();
            r.measured.usr_s = m.0;
            r.simulated_exact_user_s = s.0;
            r.simulated_exact_sys_s = s.1;
            r
        };
        let rows = [
            with("transmitter_VGR", "pcl0", (0.5, 5.0), (0.2, 4.25)),
            with("transmitter_VGR", "il0", (0.3, 5.4), (0.25, 6.0)),
            with("transmitter_VGR", "pcl0", (0.1, 6.0), (0.2, 4.75)),
            with("receiver_TGR", "pcl0", (0.0, 7.0), (0.2, 5.0)),
        ];
        let refs: Vec<&Row> = rows.iter().collect();
        let tx = cpu_seconds(&refs, "transmitter");
        assert_eq!(tx.len(), 2);
        assert_eq!(tx[0].0, "pcl0");
        assert!((tx[0].1 .0 - 0.3).abs() < 1e-12 && (tx[0].1 .1 - 5.5).abs() < 1e-12);
        assert!((tx[0].2 .0 - 0.2).abs() < 1e-12 && (tx[0].2 .1 - 4.5).abs() < 1e-12);
        assert_eq!(tx[1], ("il0".to_string(), (0.3, 5.4), (0.25, 6.0)));
        assert_eq!(
            cpu_seconds_lines(&refs),
            "transmitter CPU seconds per MiB, user + system (mean of non-anomalous rows): pcl0 measured 0.30 + 5.50, simulated 0.20 + 4.50; il0 measured 0.30 + 5.40, simulated 0.25 + 6.00\n\
             receiver CPU seconds per MiB, user + system (mean of non-anomalous rows): pcl0 measured 0.00 + 7.00, simulated 0.20 + 5.00\n"
        );
    }

    #[test]
    fn test_cpu_per_kb_ranks_each_side_on_its_own_rows_unrounded() {
        // by hand: on the transmitter il0 printed 180 and 170 (mean 175) against ex0 156,
        // simulated unrounded 171.2 against 171.5: the printed order and the simulated
        // one differ; the receiver rows (ex0 110, simulated 130) stay on their side
        let with = |side: &str, iface: &str, printed: f64, exact: f64| {
            let mut r = row(side, "single", 50.0, 5.0, 50.0, "");
            r.interface = iface.into();
            r.measured.kbytes_per_cpu_s = printed;
            r.simulated_exact_kbytes_per_cpu_s = exact;
            r
        };
        let rows = [
            with("transmitter_VGR", "il0", 180.0, 171.0),
            with("transmitter_VGR", "ex0", 156.0, 171.5),
            with("transmitter_VGR", "il0", 170.0, 171.4),
            with("receiver_TGR", "ex0", 110.0, 130.0),
        ];
        let refs: Vec<&Row> = rows.iter().collect();
        assert_eq!(
            cpu_per_kb(&refs, "transmitter"),
            [
                ("il0".to_string(), 175.0, 171.2),
                ("ex0".to_string(), 156.0, 171.5)
            ]
        );
        assert_eq!(
            cpu_per_kb_lines(&refs),
            "interfaces by transmitter KB per CPU second (mean of non-anomalous rows): measured il0 175.0 > ex0 156.0; simulated, unrounded ex0 171.5 > il0 171.2\n\
             interfaces by receiver KB per CPU second (mean of non-anomalous rows): measured ex0 110.0; simulated, unrounded ex0 130.0\n"
        );
    }

    #[test]
    fn test_ordering_ranks_interfaces_by_receiver_rows_and_prints_both() {
        // by hand: pcl0 receiver rows measured 50 and 56 (mean 53), simulated unrounded
        // 60 and 61 (60.5); il0 one row, 45 against 44; the transmitter rows and the
        // interface order of the rows do not count
        let mut il = row("receiver_TGR", "single", 45.0, 5.0, 44.0, "");
        il.interface = "il0".into();
        let rows = [
            row("transmitter_VGR", "single", 10.0, 5.0, 10.0, ""),
            il,
            row("receiver_TGR", "single", 50.0, 7.0, 60.0, ""),
            row("receiver_TGR", "dual", 56.0, 8.0, 61.0, ""),
        ];
        let refs: Vec<&Row> = rows.iter().collect();
        assert_eq!(
            ordering(&refs),
            [("il0".to_string(), 45.0, 44.0), ("pcl0".to_string(), 53.0, 60.5)]
        );
        assert_eq!(
            ordering_line(&refs),
            "interfaces by receiver KB/s (mean of non-anomalous rows): measured pcl0 53.0 > il0 45.0; simulated, unrounded pcl0 60.5 > il0 44.0\n"
        );
    }

    #[test]
    fn test_charts_group_a_configurations_runs_and_leave_the_anomalous_out() {
        let rows = vec![
            row("transmitter_VGR", "single", 50.0, 5.0, 60.0, ""),
            row("transmitter_VGR", "single", 56.0, 6.0, 60.0, ""),
            row("transmitter_VGR", "single", 53.0, 1.0, 60.0, "anomalous"),
            row("transmitter_VGR", "dual", 58.0, 5.0, 61.0, ""),
            row("receiver_TGR", "single", 50.0, 7.0, 60.0, ""),
            row("receiver_TGR", "single", 56.0, 9.0, 60.0, ""),
            row("receiver_TGR", "dual", 58.0, 8.0, 61.0, ""),
        ];
        let c = throughput_chart(&rows);
        assert_eq!(c.x_categories.unwrap(), ["single pcl0", "dual pcl0"]);
        // single: the mean of 50 and 56 with their range; dual: one run, no range
        assert_eq!(
            c.series[0].points,
            [(0.0, 53.0, Some((50.0, 56.0))), (1.0, 58.0, None)]
        );
        assert_eq!(c.series[1].points, [(0.0, 60.0, None), (1.0, 61.0, None)]);
        let s = sys_chart(&rows);
        assert_eq!(s.series.len(), 4);
        // transmitter single: 5 and 6 s of 20 s (the anomalous 1 s left out)
        assert_eq!(s.series[0].points[0], (0.0, 27.5, Some((25.0, 30.0))));
        // receiver single: 7 and 9 s of 20 s; simulated 4 s of 20 s
        assert_eq!(s.series[2].points[0], (0.0, 40.0, Some((35.0, 45.0))));
        assert_eq!(s.series[3].points[0], (0.0, 20.0, None));
    }
}
