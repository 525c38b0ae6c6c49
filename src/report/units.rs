//! How a number reads: one formatting rule per unit, for everything a person reads (the
//! `run` views, `--explain`, the sweep summary, the Figure 1 comparison, the calibration
//! summary). CSV and JSON do not use these rules: they keep full precision
//! ([`super::fmt_num`]).
//!
//! The rules:
//! - throughput in KB/s (1 KB = 1000 bytes): 1 decimal (`1040.8`);
//! - throughput in Mb/s: 3 decimals (`9.552`); in b/s: a whole number;
//! - a share (a fraction of the time, 0..=1): a percentage with 1 decimal (`87.6%`); a
//!   figure that is a percentage already (ttcp's system time over real time) likewise;
//! - an error or a change relative to a reference: a signed percentage with 1 decimal
//!   (`+7.1%`); a mean absolute percentage error: 2 decimals (`4.07%`), because
//!   calibrations are compared by hundredths; a spread over seeds (coefficient of
//!   variation) likewise with 2 decimals (`0.03%`), because seed noise is small;
//! - a time: in the unit among ns, µs, ms and s in which it is at least 1 (seconds past
//!   1000 s), with 2 decimals (`62.50 ms`, `51.20 µs`); a column of times shares the unit
//!   that fits its largest value; where a column's name states its unit
//!   (`access_delay_mean_us`, `rx_real_s`), in that unit ([`Unit::column_named`]);
//! - a count (frames, collisions, events, bytes): a whole number, rounded;
//! - a rate per second: 1 decimal; a ratio (per block, a run length): 2 decimals; an index
//!   in 0..=1 (Jain's fairness): 3 decimals.
//!
//! An undefined figure (NaN) reads `-` whatever its unit.
//!
//! Also the low-level text helpers every view shares: [`pretty`] (a number whose unit is
//! not known, as on chart ticks) and [`align`]/[`align_with`] (rows laid out in columns).
//! This module depends on no other of `report`; the views depend on it.

/// The unit of a figure, which decides how it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// KB/s, 1 KB = 1000 bytes.
    KiloBytesPerSecond,
    /// Mb/s.
    MegabitsPerSecond,
    /// b/s.
    BitsPerSecond,
    /// A fraction of the time in 0..=1, shown as a percentage.
    Share,
    /// A percentage already (0..=100, as ttcp's system time over real time), shown as one.
    Percent,
    /// A time stored in seconds.
    Seconds,
    /// A time stored in milliseconds.
    Milliseconds,
    /// A time stored in microseconds.
    Microseconds,
    /// A count of things (`what`: "frames", "bytes", ...; empty for a bare count).
    Count(&'static str),
    /// Things per second (`what` per s).
    PerSecond(&'static str),
    /// A ratio such as collisions per block or a mean run length (`what`, may be empty).
    Ratio(&'static str),
    /// An index in 0..=1 such as Jain's fairness.
    Index,
}

impl Unit {
    /// The unit's symbol as shown after a value or in a heading (`KB/s`, `%`, `frames`);
    /// for a time, the symbol of the unit that fits `v`.
    pub fn symbol(self, v: f64) -> String {
        match self {
            Unit::KiloBytesPerSecond => "KB/s".into(),
            Unit::MegabitsPerSecond => "Mb/s".into(),
            Unit::BitsPerSecond => "b/s".into(),
            Unit::Share | Unit::Percent => "%".into(),
            Unit::Seconds | Unit::Milliseconds | Unit::Microseconds => {
                TimeUnit::fitting(self.to_seconds(v)).symbol().into()
            }
            Unit::Count(w) | Unit::Ratio(w) => w.into(),
            Unit::PerSecond("") => "/s".into(),
            Unit::PerSecond(w) => format!("{w}/s"),
            Unit::Index => String::new(),
        }
    }

    fn to_seconds(self, v: f64) -> f64 {
        match self {
            Unit::Milliseconds => v / 1e3,
            Unit::Microseconds => v / 1e6,
            _ => v,
        }
    }

    /// `v` as a number by this unit's rule, without the unit (a share keeps its `%`);
    /// a time is shown in the unit that fits it.
    pub fn number(self, v: f64) -> String {
        match self {
            Unit::Seconds | Unit::Milliseconds | Unit::Microseconds => {
                let s = self.to_seconds(v);
                self.number_in(v, TimeUnit::fitting(s))
            }
            _ => self.number_in(v, TimeUnit::S),
        }
    }

    /// `v` by this unit's rule; a time is shown in `time` whatever its size.
    fn number_in(self, v: f64, time: TimeUnit) -> String {
        if v.is_nan() {
            return "-".into();
        }
        if v.is_infinite() {
            return if v > 0.0 { "inf" } else { "-inf" }.into();
        }
        match self {
            Unit::KiloBytesPerSecond => format!("{v:.1}"),
            Unit::MegabitsPerSecond => format!("{v:.3}"),
            Unit::Share => format!("{:.1}%", v * 100.0),
            Unit::Percent => format!("{v:.1}%"),
            Unit::Seconds | Unit::Milliseconds | Unit::Microseconds => {
                format!("{:.2}", self.to_seconds(v) / time.seconds())
            }
            Unit::BitsPerSecond | Unit::Count(_) => whole(v),
            Unit::PerSecond(_) => format!("{v:.1}"),
            Unit::Ratio(_) => format!("{v:.2}"),
            Unit::Index => format!("{v:.3}"),
        }
    }

    /// `v` with its unit (`9.552 Mb/s`, `87.6%`, `62.50 ms`, `7866 frames`); `-` if undefined.
    pub fn show(self, v: f64) -> String {
        let n = self.number(v);
        let sym = self.symbol(v);
        if v.is_nan() || sym.is_empty() || self.is_percentage() {
            n
        } else {
            format!("{n} {sym}")
        }
    }

    /// Is the number shown with its own `%` (a share or a percentage)?
    pub fn is_percentage(self) -> bool {
        matches!(self, Unit::Share | Unit::Percent)
    }

    /// The time unit a column's name states (`_s`, `_ms`, `_us`, `_ns` at its end), if
    /// this unit is a time.
    fn stated_in(self, name: &str) -> Option<TimeUnit> {
        if !matches!(self, Unit::Seconds | Unit::Milliseconds | Unit::Microseconds) {
            return None;
        }
        [
            ("_ns", TimeUnit::Ns),
            ("_us", TimeUnit::Us),
            ("_ms", TimeUnit::Ms),
            ("_s", TimeUnit::S),
        ]
        .into_iter()
        .find_map(|(suffix, t)| name.ends_with(suffix).then_some(t))
    }

    /// A column of values of the figure `name`, and the symbol for its heading: as
    /// [`Unit::column`], except that a time whose name states its unit
    /// (`access_delay_mean_us`) is shown in that unit, so that name and unit agree, with 2
    /// decimals, or as many more as a value under 1 needs for 3 significant digits.
    pub fn column_named(self, name: &str, vs: &[f64]) -> (String, Vec<String>) {
        let Some(time) = self.stated_in(name) else {
            return self.column(vs);
        };
        let scaled: Vec<f64> = vs.iter().map(|&v| self.to_seconds(v) / time.seconds()).collect();
        let decimals = scaled
            .iter()
            .filter(|v| v.is_finite() && **v != 0.0 && v.abs() < 1.0)
            .map(|v| 2 + (-v.abs().log10()).ceil() as usize)
            .max()
            .unwrap_or(2)
            .min(9);
        let cells = scaled
            .iter()
            .map(|&v| {
                if v.is_nan() {
                    "-".into()
                } else if v.is_infinite() {
                    if v > 0.0 { "inf" } else { "-inf" }.into()
                } else {
                    format!("{v:.decimals$}")
                }
            })
            .collect();
        (time.symbol().into(), cells)
    }

    /// A column of values by this unit's rule, all times in the unit that fits the largest,
    /// and that unit's symbol for the heading.
    pub fn column(self, vs: &[f64]) -> (String, Vec<String>) {
        let largest = vs
            .iter()
            .filter(|v| v.is_finite())
            .fold(0.0f64, |m, v| m.max(v.abs()));
        let time = TimeUnit::fitting(self.to_seconds(largest));
        (
            self.symbol(largest),
            vs.iter().map(|&v| self.number_in(v, time)).collect(),
        )
    }
}

/// A whole number, rounded (`-0` reads `0`).
fn whole(v: f64) -> String {
    let r = v.round();
    if r == 0.0 {
        "0".into()
    } else {
        format!("{r:.0}")
    }
}

/// The unit a time is shown in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TimeUnit {
    Ns,
    Us,
    Ms,
    S,
}

impl TimeUnit {
    /// The largest unit in which `seconds` is at least 1 (ns for anything smaller; 0 is 0 s).
    fn fitting(seconds: f64) -> Self {
        let a = seconds.abs();
        if a == 0.0 || !a.is_finite() || a >= 1.0 {
            TimeUnit::S
        } else if a >= 1e-3 {
            TimeUnit::Ms
        } else if a >= 1e-6 {
            TimeUnit::Us
        } else {
            TimeUnit::Ns
        }
    }

    fn seconds(self) -> f64 {
        match self {
            TimeUnit::Ns => 1e-9,
            TimeUnit::Us => 1e-6,
            TimeUnit::Ms => 1e-3,
            TimeUnit::S => 1.0,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            TimeUnit::Ns => "ns",
            TimeUnit::Us => "µs",
            TimeUnit::Ms => "ms",
            TimeUnit::S => "s",
        }
    }
}

/// A signed percentage error or change with 1 decimal (`+7.1%`), given in percent.
pub fn error_pct(pct: f64) -> String {
    if pct.is_nan() {
        return "-".into();
    }
    format!("{pct:+.1}%")
}

/// A mean absolute percentage error with 2 decimals (`4.07%`), given in percent.
pub fn mape_pct(pct: f64) -> String {
    if pct.is_nan() {
        return "-".into();
    }
    format!("{pct:.2}%")
}

/// A spread over seeds (a coefficient of variation) with 2 decimals (`0.03%`), given in
/// percent.
pub fn spread_pct(pct: f64) -> String {
    mape_pct(pct)
}

/// A mean and its 95% confidence half-width in the same format: `937.2 ± 3.1` (with the
/// unit: `937.2 ± 3.1 KB/s`); the mean alone when there is no interval (one replication).
pub fn mean_ci(unit: Unit, mean: f64, ci95: Option<f64>, with_unit: bool) -> String {
    // a time's interval is shown in the mean's unit
    let (sym, cells) = unit.column(&[mean, ci95.unwrap_or(f64::NAN)]);
    let mut s = match ci95 {
        Some(_) => format!("{} ± {}", cells[0], cells[1]),
        None => cells[0].clone(),
    };
    if with_unit && !sym.is_empty() && !unit.is_percentage() && !mean.is_nan() {
        s.push(' ');
        s.push_str(&sym);
    }
    s
}

/// A number for reading when its unit is not known (chart ticks): whole numbers as
/// integers, others with a precision that suits their size; `-` for NaN.
pub fn pretty(v: f64) -> String {
    if v.is_nan() {
        return "-".to_string();
    }
    if !v.is_finite() {
        return format!("{v}");
    }
    if v.fract() == 0.0 && v.abs() < 9.0e15 {
        return format!("{}", v as i64);
    }
    let a = v.abs();
    if a >= 1000.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.4}")
    } else {
        format!("{v:.6}")
    }
}

/// Lays out `rows` (the first is the header) in columns separated by two spaces; column 0
/// left-aligned, the others right-aligned.
pub fn align(rows: &[Vec<String>]) -> String {
    align_with(rows, "  ", |c| c == 0)
}

/// Lays out `rows` in columns separated by `sep`, the columns for which `left` holds
/// left-aligned and the others right-aligned; trailing spaces are trimmed.
pub fn align_with(rows: &[Vec<String>], sep: &str, left: impl Fn(usize) -> bool) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, s)| {
                if left(c) {
                    format!("{s:<w$}", w = widths[c])
                } else {
                    format!("{s:>w$}", w = widths[c])
                }
            })
            .collect();
        out.push_str(cells.join(sep).trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn test_align_trims_and_aligns() {
        let rows = vec![
            vec!["a".to_string(), "bb".to_string()],
            vec!["ccc".to_string(), "d".to_string()],
        ];
        assert_eq!(align(&rows), "a    bb\nccc   d\n");
        assert_eq!(align_with(&rows, " ", |_| true), "a   bb\nccc d\n");
    }

    #[test]
    fn test_pretty() {
        assert_eq!(pretty(f64::NAN), "-");
        assert_eq!(pretty(3.0), "3");
        assert_eq!(pretty(0.5), "0.500000");
    }

    use super::*;

    #[test]
    fn test_throughputs_have_fixed_decimals() {
        assert_eq!(Unit::KiloBytesPerSecond.number(937.2204), "937.2");
        assert_eq!(Unit::KiloBytesPerSecond.number(1002.2), "1002.2");
        assert_eq!(Unit::KiloBytesPerSecond.number(1000.0), "1000.0");
        assert_eq!(Unit::KiloBytesPerSecond.show(986.748), "986.7 KB/s");
        assert_eq!(Unit::MegabitsPerSecond.show(9.5524704), "9.552 Mb/s");
        assert_eq!(Unit::BitsPerSecond.show(9552470.4), "9552470 b/s");
    }

    #[test]
    fn test_shares_are_percentages() {
        assert_eq!(Unit::Share.number(0.000061), "0.0%");
        assert_eq!(Unit::Share.number(0.882869), "88.3%");
        assert_eq!(Unit::Share.number(1.0), "100.0%");
        assert_eq!(Unit::Share.show(0.0), "0.0%");
    }

    #[test]
    fn test_times_take_the_unit_that_fits() {
        assert_eq!(Unit::Milliseconds.show(62.5), "62.50 ms");
        assert_eq!(Unit::Milliseconds.show(0.0512), "51.20 µs");
        assert_eq!(Unit::Microseconds.show(0.25), "250.00 ns");
        assert_eq!(Unit::Seconds.show(10.0), "10.00 s");
        assert_eq!(Unit::Seconds.show(2500.0), "2500.00 s");
        assert_eq!(Unit::Seconds.show(0.0), "0.00 s");
        assert_eq!(Unit::Microseconds.show(1234.5), "1.23 ms");
    }

    #[test]
    fn test_a_column_of_times_shares_one_unit() {
        let (sym, cells) = Unit::Milliseconds.column(&[62.5, 4.6838, 0.5]);
        assert_eq!(sym, "ms");
        assert_eq!(cells, ["62.50", "4.68", "0.50"]);
        let (sym, cells) = Unit::Seconds.column(&[0.0021, 0.0]);
        assert_eq!((sym.as_str(), cells[1].as_str()), ("ms", "0.00"));
    }

    #[test]
    fn test_counts_are_whole() {
        assert_eq!(Unit::Count("frames").show(7866.0), "7866 frames");
        assert_eq!(Unit::Count("").number(2.6), "3");
        assert_eq!(Unit::Count("").number(-0.2), "0");
        assert_eq!(Unit::Count("").show(12.0), "12");
    }

    #[test]
    fn test_ratios_rates_and_indices() {
        assert_eq!(Unit::PerSecond("frames").show(786.6), "786.6 frames/s");
        assert_eq!(Unit::Ratio("").number(1.3765), "1.38");
        assert_eq!(Unit::Index.show(0.99876), "0.999");
    }

    #[test]
    fn test_undefined_reads_dash() {
        for u in [
            Unit::KiloBytesPerSecond,
            Unit::Share,
            Unit::Seconds,
            Unit::Index,
            Unit::Count("x"),
        ] {
            assert_eq!(u.show(f64::NAN), "-");
        }
        assert_eq!(error_pct(f64::NAN), "-");
    }

    #[test]
    fn test_errors_and_mape() {
        assert_eq!(error_pct(7.0567), "+7.1%");
        assert_eq!(error_pct(-0.04), "-0.0%");
        assert_eq!(mape_pct(4.0666), "4.07%");
    }

    #[test]
    fn test_mean_and_interval_share_the_format() {
        let u = Unit::KiloBytesPerSecond;
        assert_eq!(mean_ci(u, 937.2204, Some(3.125), true), "937.2 ± 3.1 KB/s");
        assert_eq!(mean_ci(u, 1002.2, None, false), "1002.2");
        assert_eq!(
            mean_ci(Unit::Milliseconds, 12.0, Some(0.5), true),
            "12.00 ± 0.50 ms"
        );
        assert_eq!(mean_ci(Unit::Share, 0.5, Some(0.01), true), "50.0% ± 1.0%");
    }

    #[test]
    fn test_a_time_whose_name_states_its_unit_is_shown_in_it() {
        let (sym, cells) = Unit::Microseconds.column_named("access_delay_mean_us", &[2840.123]);
        assert_eq!((sym.as_str(), cells[0].as_str()), ("µs", "2840.12"));
        let (sym, cells) = Unit::Seconds.column_named("time_collision_s", &[0.0849, 0.0]);
        assert_eq!(sym, "s");
        assert_eq!(cells, ["0.0849", "0.0000"]);
        let (sym, cells) = Unit::Seconds.column_named("rx_real_s", &[24.3, f64::NAN]);
        assert_eq!(
            (sym.as_str(), cells.as_slice()),
            ("s", &["24.30".to_string(), "-".into()][..])
        );
        // a name that states no unit: the unit that fits
        let (sym, _) = Unit::Milliseconds.column_named("ms_per_block", &[0.5]);
        assert_eq!(sym, "µs");
        // not a time: as by its rule
        let (_, cells) = Unit::Count("bytes").column_named("bytes", &[16777216.0]);
        assert_eq!(cells, ["16777216"]);
    }

    #[test]
    fn test_a_percentage_reads_like_a_share() {
        assert_eq!(Unit::Percent.show(54.537), "54.5%");
        assert_eq!(Unit::Share.show(0.54537), "54.5%");
        assert_eq!(Unit::Percent.show(f64::NAN), "-");
    }
}
