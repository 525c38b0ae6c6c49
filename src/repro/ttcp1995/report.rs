//! The 1995 ttcp table reproduced: the printed comparison, `ttcp-1995.csv` and the bar
//! chart `ttcp-1995.svg`/`.png`, from a [`TtcpTable`] (built by [`super`], the runner; nothing
//! here knows the model).
//!
//! Throughput is ttcp's KB/s (1 KB = 1024 bytes). Each simulated value is the mean over
//! the case's seeds, shown with the least and greatest run and the coefficient of
//! variation; errors are the mean's, in percent of the measured value; the mean absolute
//! error is over the eight means. The printed table reads by the rules of
//! [`super::units`]; the CSV keeps full precision.

use super::table::{TtcpCase, TtcpDirection, TtcpTable};
use crate::report::atomic::Staged;
use crate::report::csv::to_csv;
use crate::report::fmt_num;
use crate::report::plot::{write_chart, Chart, Series};
use crate::report::units::align_with;
use crate::report::units::{error_pct, mape_pct, spread_pct, Unit};
use crate::report::ReportError;

/// The file names' stem: `ttcp-1995.csv`, `.svg`, `.png`.
pub const STEM: &str = "ttcp-1995";

/// The columns of `ttcp-1995.csv`.
pub const CSV_COLUMNS: [&str; 12] = [
    "midkemia_card",
    "kelewan_card",
    "direction_from_midkemia",
    "measured_kbytes_per_s",
    "simulated_kbytes_per_s",
    "error_pct",
    "runs",
    "simulated_min_kbytes_per_s",
    "simulated_max_kbytes_per_s",
    "simulated_cv_pct",
    "seeds",
    "simulated_per_seed_kbytes_per_s",
];

/// The seeds of `cases` when they all share them ("1995, 1, 2, 3, 4"), else "each
/// scenario's".
fn seeds_text(t: &TtcpTable) -> String {
    match t.cases.first() {
        Some(c) if t.cases.iter().all(|o| o.seeds == c.seeds) => {
            c.seeds.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
        }
        _ => "each case's own".into(),
    }
}

/// "mean of 5 seeds" (the fewest runs of any case).
fn runs_note(t: &TtcpTable) -> String {
    let n = t.cases.iter().map(|c| c.simulated.runs).min().unwrap_or(0);
    format!("mean of {n} seed{}", if n == 1 { "" } else { "s" })
}

/// The text of `ttcp-1995.csv`: one row per case ([`CSV_COLUMNS`]); the seeds and the
/// per-seed values are space-separated within their cells.
pub fn csv(t: &TtcpTable) -> Result<String, ReportError> {
    let header: Vec<String> = CSV_COLUMNS.map(String::from).to_vec();
    let join = |xs: Vec<String>| xs.join(" ");
    let rows: Vec<Vec<String>> = t
        .cases
        .iter()
        .map(|c| {
            let s = &c.simulated;
            vec![
                c.first.name.to_string(),
                c.second.name.to_string(),
                c.direction.name().to_string(),
                fmt_num(c.measured_kbps),
                fmt_num(s.mean),
                fmt_num(c.error_pct()),
                s.runs.to_string(),
                fmt_num(s.min),
                fmt_num(s.max),
                fmt_num(s.cv_pct),
                join(c.seeds.iter().map(u64::to_string).collect()),
                join(c.runs.iter().map(|r| fmt_num(r.kbytes_per_s)).collect()),
            ]
        })
        .collect();
    to_csv(&header, &rows)
}

/// The printed comparison, within 100 columns: per case the cards, the direction,
/// measured, the simulated mean, its least and greatest run and coefficient of variation,
/// and the error; then the mean absolute error and the ceiling.
pub fn comparison_table(t: &TtcpTable) -> String {
    let kbps = Unit::KiloBytesPerSecond;
    let mut rows = vec![[
        "midkemia's card",
        "kelewan's card",
        "midkemia",
        "measured",
        "simulated",
        "min-max",
        "CV",
        "error",
    ]
    .map(String::from)
    .to_vec()];
    for c in &t.cases {
        let s = &c.simulated;
        rows.push(vec![
            c.first.name.to_string(),
            c.second.name.to_string(),
            c.direction.name().to_string(),
            kbps.number(c.measured_kbps),
            kbps.number(s.mean),
            format!("{}-{}", kbps.number(s.min), kbps.number(s.max)),
            spread_pct(s.cv_pct),
            error_pct(c.error_pct()),
        ]);
    }
    let mut out = format!(
        "ttcp 1995, Linux 1.2 TCP/IP, KB/s of 1024 bytes; simulated: {} ({})\n",
        runs_note(t),
        seeds_text(t)
    );
    out += &align_with(&rows, "  ", |col| col < 3);
    out += "midkemia (486DX2-66) receives or transmits; kelewan (Pentium-90) does the other\n";
    out += "min-max and CV (coefficient of variation): over the seeds; error: of the mean\n";
    out += &identical_note(t);
    out += &format!(
        "mean absolute error {} over the {} means\n{}\n",
        mape_pct(t.mean_abs_error_pct()),
        t.cases.len(),
        ceiling_text(t),
    );
    out
}

/// How many cases gave the same throughput on every seed, and why when none of their runs
/// had a collision (on a two-host wire the backoff after a collision is the only random
/// draw); empty when every case varied.
fn identical_note(t: &TtcpTable) -> String {
    let same: Vec<&TtcpCase> = t
        .cases
        .iter()
        .filter(|c| c.simulated.runs > 1 && c.simulated.min == c.simulated.max)
        .collect();
    if same.is_empty() {
        return String::new();
    }
    let why = if same.iter().all(|c| c.runs.iter().all(|r| r.collisions == 0.0)) {
        " (no collision in their runs: no backoff drawn)"
    } else {
        ""
    };
    format!(
        "{} of {} cases gave the same throughput on every seed{why}\n",
        same.len(),
        t.cases.len()
    )
}

/// "TCP ceiling on 10 Mb/s: 1097.0 KB/s (MSS 1436, an ACK per segment)".
fn ceiling_text(t: &TtcpTable) -> String {
    let c = &t.ceiling;
    let acks = match c.ack_every_segments {
        1 => "an ACK per segment".to_string(),
        n => format!("an ACK every {n} segments"),
    };
    format!(
        "TCP ceiling on {} Mb/s: {} KB/s (MSS {}, {acks})",
        fmt_num(c.bit_rate_mbps),
        Unit::KiloBytesPerSecond.number(c.kbps),
        c.mss_bytes
    )
}

/// A case's label on the chart: the sending card, the receiving card and midkemia's
/// direction (`3C509→SMC rx`: kelewan's 3C509 sends to midkemia's SMC).
pub fn label(c: &TtcpCase) -> String {
    let (from, to) = c.sender_receiver();
    let dir = match c.direction {
        TtcpDirection::Receive => "rx",
        TtcpDirection::Transmit => "tx",
    };
    format!("{}→{} {dir}", from.short, to.short)
}

/// The bar chart: per case a measured bar and a simulated one (the mean, with the least and
/// greatest run as an error bar), and the ceiling as a line.
pub fn chart(t: &TtcpTable) -> Chart {
    let mut measured = Series::bar("measured (1995)", 0);
    let mut simulated = Series::bar(
        &format!("simulated, {} (error bar: least to greatest)", runs_note(t)),
        1,
    );
    for (i, c) in t.cases.iter().enumerate() {
        let x = i as f64;
        let s = &c.simulated;
        measured.points.push((x, c.measured_kbps, None));
        simulated.points.push((x, s.mean, Some((s.min, s.max))));
    }
    let ceiling = &t.ceiling;
    Chart {
        title: format!(
            "ttcp over Linux 1.2 TCP/IP, 1995: measured and simulated ({})",
            runs_note(t)
        ),
        x_label: "sending card → receiving card; rx: midkemia receives, tx: midkemia transmits".into(),
        y_label: "Throughput (KB/s, 1 KB = 1024 bytes, as ttcp prints)".into(),
        x_categories: Some(t.cases.iter().map(label).collect()),
        series: vec![measured, simulated],
        ceiling: Some((ceiling.kbps, ceiling_text(t))),
        // room above the bars and the ceiling for the legend
        y_top: Some(ceiling.kbps * 1.3),
        diagonal: None,
    }
}

/// Stages `ttcp-1995.csv`, `ttcp-1995.svg` and `ttcp-1995.png` in `out`.
pub fn write_outputs(t: &TtcpTable, out: &mut Staged) -> Result<(), ReportError> {
    out.write(&format!("{STEM}.csv"), csv(t)?.as_bytes())?;
    write_chart(&chart(t), out, STEM)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repro::ttcp1995::table::{CardName, TtcpCeiling};
    use crate::stats::Spread;

    const A: CardName = CardName {
        name: "Card A",
        short: "A",
    };
    const B: CardName = CardName {
        name: "Card B",
        short: "B",
    };

    fn table() -> TtcpTable {
        let case = |direction, measured_kbps, xs: &[f64]| TtcpCase {
            scenario: "test".into(),
            first: A,
            second: B,
            direction,
            measured_kbps,
            seeds: (0..xs.len() as u64).collect(),
            simulated: Spread::of(xs),
            runs: Vec::new(),
        };
        TtcpTable {
            cases: vec![
                case(TtcpDirection::Receive, 100.0, &[99.0, 101.0, 102.0]),
                case(TtcpDirection::Transmit, 200.0, &[190.0, 190.0, 190.0]),
            ],
            ceiling: TtcpCeiling {
                kbps: 1097.0,
                mss_bytes: 1436,
                ack_every_segments: 1,
                bit_rate_mbps: 10.0,
            },
        }
    }

    #[test]
    fn test_table_has_spread_errors_and_mae() {
        let text = comparison_table(&table());
        assert!(text.contains("simulated: mean of 3 seeds (0, 1, 2)"), "{text}");
        assert!(text.lines().all(|l| l.chars().count() <= 100), "{text}");
        assert!(text.contains("99.0-102.0"), "{text}");
        assert!(text.contains("+0.7%") && text.contains("-5.0%"), "{text}");
        assert!(
            text.contains("mean absolute error 2.83% over the 2 means"),
            "{text}"
        );
        assert!(
            text.contains("TCP ceiling on 10 Mb/s: 1097.0 KB/s (MSS 1436, an ACK per segment)"),
            "{text}"
        );
    }

    #[test]
    fn test_csv_has_the_seeds_and_the_spread() {
        let text = csv(&table()).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some(CSV_COLUMNS.join(",").as_str()));
        let first: Vec<&str> = lines.next().unwrap().split(',').collect();
        assert_eq!(first[..3], ["Card A", "Card B", "receive"]);
        assert_eq!(
            first[6..10],
            [
                "3",
                "99",
                "102",
                &fmt_num(Spread::of(&[99.0, 101.0, 102.0]).cv_pct)
            ]
        );
        assert_eq!(first[10], "0 1 2");
    }

    #[test]
    fn test_labels_name_sender_then_receiver() {
        let t = table();
        assert_eq!(label(&t.cases[0]), "B→A rx");
        assert_eq!(label(&t.cases[1]), "A→B tx");
        let c = chart(&t);
        assert_eq!(c.x_categories.unwrap(), ["B→A rx", "A→B tx"]);
        assert_eq!(c.series[1].points[0].2, Some((99.0, 102.0)));
    }
}
