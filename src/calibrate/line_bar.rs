//! A bar on the shape of each scenario's curve (`[line_bar]` of a calibration file): the
//! straight line t = a + b·B through a throughput curve (t the time per block of B bytes,
//! [`CostLine`]), simulated against measured.
//!
//! A fit to the points alone can match every point within a few percent and still tilt the
//! line: small blocks fast and large ones slow. A user whose fidelity bar is on the
//! per-block cost a and the per-byte cost b says so here: each percent the simulated a is
//! beyond `per_block_percent` of the measured a adds `per_block_weight` to the objective,
//! and each percent b is beyond `per_byte_percent` adds `per_byte_weight`.
//!
//! Invariants: the bar applies to the points of the `throughput_kbps` figure only (KB/s,
//! 1 KB = 1000 bytes), keyed by block size in bytes (whole numbers, 1 to `u32::MAX`),
//! at least three block sizes per scenario, all checked when the file loads. The per-block
//! bar is not applied to a scenario whose measured a is within [`MIN_SIGNIFICANT_SE`]
//! standard errors of zero: a relative bar on a cost the measurements cannot tell from
//! nothing would let their scatter steer the fit. Units: percent; weights are objective
//! units per percent.

use serde::Deserialize;

use crate::repro::bulletin::analysis::CostLine;
use crate::scenario::error::FieldError;

use super::measured::Measured;

/// The figure whose curve has a line: throughput in KB/s against block size in bytes.
pub const LINE_FIGURE: &str = "throughput_kbps";
/// Weight per percent beyond a bar (this file's and `point_bar_percent`'s) when the file
/// gives none, and the largest allowed.
pub const DEFAULT_BAR_WEIGHT: f64 = 10.0;
pub const MAX_BAR_WEIGHT: f64 = 1000.0;
/// A measured per-block cost nearer zero than this many of its standard errors gets no
/// per-block bar.
pub const MIN_SIGNIFICANT_SE: f64 = 2.0;
/// The penalty of a curve whose simulated line cannot be fitted (a point missing or at
/// zero): as if a and b were each 1000% off.
const UNFITTED_PERCENT: f64 = 1000.0;

/// The `[line_bar]` table as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawLineBar {
    per_block_percent: Option<f64>,
    per_block_weight: Option<f64>,
    per_byte_percent: Option<f64>,
    per_byte_weight: Option<f64>,
}

/// One bar: how far off (percent of the measured value) is free, and the weight of each
/// percent beyond.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bar {
    pub percent: f64,
    pub weight: f64,
}

impl Bar {
    /// The penalty of an error of `pct` percent (0 within the bar).
    pub fn penalty(self, pct: f64) -> f64 {
        (pct.abs() - self.percent).max(0.0) * self.weight
    }
}

/// A validated `[line_bar]`: at least one of the two bars.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineBar {
    pub per_block: Option<Bar>,
    pub per_byte: Option<Bar>,
}

impl RawLineBar {
    /// Checks the ranges: each percent in (0, 100], each weight in (0, 1000] and only with
    /// its percent, and at least one bar.
    pub(super) fn validate(&self) -> Result<LineBar, FieldError> {
        let per_block = bar(
            "line_bar.per_block_percent",
            self.per_block_percent,
            "line_bar.per_block_weight",
            self.per_block_weight,
        )?;
        let per_byte = bar(
            "line_bar.per_byte_percent",
            self.per_byte_percent,
            "line_bar.per_byte_weight",
            self.per_byte_weight,
        )?;
        if per_block.is_none() && per_byte.is_none() {
            return Err(FieldError::invalid(
                "line_bar",
                "gives no bar: set per_block_percent, per_byte_percent or both",
            ));
        }
        Ok(LineBar { per_block, per_byte })
    }
}

/// One bar from its percent key and weight key: none without the percent, and a weight
/// only with it; percent in (0, 100], weight in (0, [`MAX_BAR_WEIGHT`]], default
/// [`DEFAULT_BAR_WEIGHT`].
pub(super) fn bar(
    pkey: &str,
    percent: Option<f64>,
    wkey: &str,
    weight: Option<f64>,
) -> Result<Option<Bar>, FieldError> {
    let Some(percent) = percent else {
        return match weight {
            None => Ok(None),
            Some(_) => Err(FieldError::invalid(
                wkey,
                format!("needs {pkey}, the bar it weighs"),
            )),
        };
    };
    if !(percent.is_finite() && percent > 0.0 && percent <= 100.0) {
        return Err(FieldError::range(pkey, percent, "(0, 100]"));
    }
    let weight = weight.unwrap_or(DEFAULT_BAR_WEIGHT);
    if !(weight.is_finite() && weight > 0.0 && weight <= MAX_BAR_WEIGHT) {
        return Err(FieldError::range(wkey, weight, format!("(0, {MAX_BAR_WEIGHT}]")));
    }
    Ok(Some(Bar { percent, weight }))
}

/// The (block size, KB/s) points of scenario `scenario` in figure `figure`, simulated
/// (`values` parallel to `measured`).
fn curve(measured: &[Measured], values: &[f64], scenario: usize, figure: usize) -> Vec<(u32, f64)> {
    measured
        .iter()
        .zip(values)
        .filter(|(m, _)| m.scenario == scenario && m.figure == figure)
        .map(|(m, v)| (m.key as u32, *v))
        .collect()
}

/// The line through scenario `scenario`'s measured curve in figure `figure`.
fn measured_line(measured: &[Measured], scenario: usize, figure: usize) -> Option<CostLine> {
    CostLine::fit(
        measured
            .iter()
            .filter(|m| m.scenario == scenario && m.figure == figure)
            .map(|m| (m.key as u32, m.value)),
    )
}

impl LineBar {
    /// Checks that the measurements allow the bar: `figure` is the index of
    /// [`LINE_FIGURE`] among the fitted figures (`None`: not fitted), and every scenario
    /// has at least three distinct whole block sizes of it whose measured line fits.
    pub(super) fn check(
        &self,
        figure: Option<usize>,
        measured: &[Measured],
        scenarios: &[String],
    ) -> Result<(), FieldError> {
        let Some(figure) = figure else {
            return Err(FieldError::invalid(
                "line_bar",
                format!("needs a measured table of {LINE_FIGURE} (KB/s by block size in bytes)"),
            ));
        };
        for (i, name) in scenarios.iter().enumerate() {
            let keys: Vec<f64> = measured
                .iter()
                .filter(|m| m.scenario == i && m.figure == figure)
                .map(|m| m.key)
                .collect();
            if let Some(k) = keys
                .iter()
                .find(|k| !(k.fract() == 0.0 && **k >= 1.0 && **k <= u32::MAX as f64))
            {
                return Err(FieldError::invalid(
                    "line_bar",
                    format!("scenario {name}: key {k} is not a block size in bytes (a whole number from 1)"),
                ));
            }
            let fitted = measured_line(measured, i, figure);
            if keys.len() < 3 || fitted.is_none() {
                return Err(FieldError::invalid(
                    "line_bar",
                    format!(
                        "scenario {name}: needs at least three block sizes of {LINE_FIGURE} with positive measurements"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The penalty over every scenario of the simulated lines (from `sims`, parallel to
    /// `measured`) against the measured ones, in the fitted figure `figure`.
    pub fn penalty(&self, figure: usize, measured: &[Measured], sims: &[f64]) -> f64 {
        let scenarios = measured.iter().map(|m| m.scenario + 1).max().unwrap_or(0);
        (0..scenarios)
            .filter_map(|i| line_error(figure, measured, sims, i))
            .map(|e| {
                let block = self
                    .per_block
                    .filter(|_| e.per_block_judged)
                    .map_or(0.0, |b| b.penalty(e.per_block_pct));
                block + self.per_byte.map_or(0.0, |b| b.penalty(e.per_byte_pct))
            })
            .sum()
    }

    /// The objective's label for the bar.
    pub fn label(&self) -> String {
        let mut parts = Vec::new();
        if let Some(b) = self.per_block {
            parts.push(format!(
                "{} per percent a curve's per-block cost is beyond {}% (where measured at least {MIN_SIGNIFICANT_SE} standard errors from zero)",
                b.weight, b.percent
            ));
        }
        if let Some(b) = self.per_byte {
            parts.push(format!(
                "{} per percent its per-byte cost is beyond {}%",
                b.weight, b.percent
            ));
        }
        format!("plus {}", parts.join(" and "))
    }
}

/// How far one scenario's simulated line is from its measured one.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LineError {
    /// The simulated per-block cost's error, percent of the measured one.
    #[serde(with = "crate::run::exact::float")]
    pub per_block_pct: f64,
    /// The simulated per-byte cost's error, percent of the measured one.
    #[serde(with = "crate::run::exact::float")]
    pub per_byte_pct: f64,
    /// Whether the per-block bar applies: the measured a is told from zero
    /// ([`judges_per_block`]).
    pub per_block_judged: bool,
}

/// Scenario `scenario`'s line error in figure `figure`, the simulated values `sims`
/// parallel to `measured`; `None` when the scenario has no measured line there (a fold
/// without it). A simulated curve whose line cannot be fitted counts 1000% off.
pub fn line_error(figure: usize, measured: &[Measured], sims: &[f64], scenario: usize) -> Option<LineError> {
    let want = measured_line(measured, scenario, figure)?;
    let (per_block_pct, per_byte_pct) = match CostLine::fit(curve(measured, sims, scenario, figure)) {
        Some(got) => (
            pct(got.per_block_ms, want.per_block_ms),
            pct(got.per_byte_ns, want.per_byte_ns),
        ),
        None => (UNFITTED_PERCENT, UNFITTED_PERCENT),
    };
    Some(LineError {
        per_block_pct,
        per_byte_pct,
        per_block_judged: judges_per_block(&want),
    })
}

/// Whether a measured line's per-block cost is far enough from zero for a relative bar.
pub fn judges_per_block(measured: &CostLine) -> bool {
    match measured.per_block_se_ms {
        Some(se) if se > 0.0 => measured.per_block_ms.abs() >= MIN_SIGNIFICANT_SE * se,
        _ => measured.per_block_ms != 0.0,
    }
}

fn pct(got: f64, want: f64) -> f64 {
    let e = (got - want) / want * 100.0;
    if e.is_finite() {
        e
    } else {
        UNFITTED_PERCENT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(scenario: usize, key: f64, value: f64) -> Measured {
        Measured {
            scenario,
            figure: 0,
            key,
            value,
            scatter_pct: 1.0,
        }
    }

    /// Points exactly on t = a + b·B (ms, ns/B) at three block sizes.
    fn on_line(scenario: usize, a_ms: f64, b_ns: f64) -> Vec<Measured> {
        [3072.0, 7168.0, 11264.0]
            .iter()
            .map(|&bytes| m(scenario, bytes, bytes / (a_ms + b_ns * 1e-6 * bytes)))
            .collect()
    }

    #[test]
    fn test_penalty_counts_each_percent_beyond_each_bar_by_hand() {
        let bar = LineBar {
            per_block: Some(Bar {
                percent: 25.0,
                weight: 2.0,
            }),
            per_byte: Some(Bar {
                percent: 3.0,
                weight: 10.0,
            }),
        };
        let measured = on_line(0, 2.0, 1000.0);
        // a 40% high (15 points beyond 25), b 5% low (2 beyond 3): 2*15 + 10*2 = 50
        let sims: Vec<f64> = on_line(0, 2.8, 950.0).iter().map(|p| p.value).collect();
        let got = bar.penalty(0, &measured, &sims);
        assert!((got - 50.0).abs() < 1e-6, "{got}");
        // within both bars: nothing
        let sims: Vec<f64> = on_line(0, 2.4, 1020.0).iter().map(|p| p.value).collect();
        assert!(bar.penalty(0, &measured, &sims).abs() < 1e-9);
        // a point at zero: the line cannot be fitted, both bars count 1000%
        let mut sims = sims;
        sims[1] = 0.0;
        let want = 2.0 * (1000.0 - 25.0) + 10.0 * (1000.0 - 3.0);
        assert!((bar.penalty(0, &measured, &sims) - want).abs() < 1e-6);
    }

    #[test]
    fn test_per_block_bar_skips_a_curve_whose_measured_a_is_not_told_from_zero() {
        let bar = LineBar {
            per_block: Some(Bar {
                percent: 25.0,
                weight: 1.0,
            }),
            per_byte: None,
        };
        // a measured a of 0.05 ms with scatter: the points off the line by +-2%
        let mut measured = on_line(0, 0.05, 2000.0);
        measured.push(m(0, 15360.0, 15360.0 / (0.05 + 2e-3 * 15360.0) * 1.02));
        measured[1].value *= 0.98;
        let line = CostLine::fit(measured.iter().map(|p| (p.key as u32, p.value))).unwrap();
        assert!(!judges_per_block(&line), "{line:?}");
        // a simulated a ten times the measured one costs nothing there
        let sims: Vec<f64> = measured.iter().map(|p| p.key / (0.5 + 2e-3 * p.key)).collect();
        assert_eq!(bar.penalty(0, &measured, &sims), 0.0);
        // while a well-measured a of 2 ms, 25% beyond its bar, costs 25
        let measured = on_line(1, 2.0, 2000.0);
        let sims: Vec<f64> = on_line(1, 3.0, 2000.0).iter().map(|p| p.value).collect();
        assert!((bar.penalty(0, &measured, &sims) - 25.0).abs() < 1e-6);
    }

    #[test]
    fn test_validate_refuses_out_of_range_and_orphan_weights() {
        let raw = |a: Option<f64>, aw: Option<f64>, b: Option<f64>, bw: Option<f64>| RawLineBar {
            per_block_percent: a,
            per_block_weight: aw,
            per_byte_percent: b,
            per_byte_weight: bw,
        };
        let ok = raw(Some(25.0), None, Some(3.0), Some(20.0)).validate().unwrap();
        assert_eq!(ok.per_block.unwrap().weight, DEFAULT_BAR_WEIGHT);
        assert_eq!(ok.per_byte.unwrap().weight, 20.0);
        for (r, key) in [
            (raw(None, None, None, None), "line_bar"),
            (raw(Some(0.0), None, None, None), "per_block_percent"),
            (raw(None, None, Some(101.0), None), "per_byte_percent"),
            (raw(Some(25.0), Some(0.0), None, None), "per_block_weight"),
            (raw(None, None, Some(3.0), Some(2000.0)), "per_byte_weight"),
            (raw(None, Some(1.0), Some(3.0), None), "per_block_weight"),
        ] {
            let e = r.validate().unwrap_err();
            assert!(format!("{e:?}").contains(key), "{key}: {e:?}");
        }
    }
}
