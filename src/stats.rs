//! Statistics helpers shared by every component: a bounded-memory delay histogram,
//! Jain's fairness index, the spread of a figure over seeds ([`Spread`]) and the time a
//! condition held ([`TimeIn`]).
//!
//! [`Histogram`] records non-negative integer values (nanoseconds) in log-linear buckets:
//! 32 sub-buckets per power of two, so a quantile is reported within 1/32 (about 3%) of
//! the true value, while count, mean, min and max are exact. Memory is fixed (at most
//! 64 x 32 buckets), whatever the run length.

use serde::Serialize;

use crate::time::SimTime;

/// The time a condition held, from observations of it at event times (the only times a
/// simulated state changes): an interval opens at the first observation that finds it
/// true and closes at the next that finds it false. Units: ns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeIn {
    since: Option<SimTime>,
    total_ns: u64,
}

impl TimeIn {
    /// The condition is `holds` at `now`.
    pub fn observe(&mut self, holds: bool, now: SimTime) {
        match (holds, self.since) {
            (true, None) => self.since = Some(now),
            (false, Some(t)) => {
                self.since = None;
                self.total_ns += now.saturating_since(t).as_nanos();
            }
            _ => {}
        }
    }

    /// Time of the closed intervals, ns (one still open is not counted).
    pub fn total_ns(&self) -> u64 {
        self.total_ns
    }
}

const SUB_BITS: u32 = 5;
const SUB: u64 = 1 << SUB_BITS;

/// Log-linear histogram of `u64` values.
#[derive(Clone, Debug, Default)]
pub struct Histogram {
    buckets: Vec<u64>,
    count: u64,
    sum: u128,
    min: u64,
    max: u64,
}

/// Summary of a histogram, in the histogram's unit converted to microseconds.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct DelaySummary {
    pub count: u64,
    pub mean_us: f64,
    pub p50_us: f64,
    pub p99_us: f64,
    pub max_us: f64,
}

fn bucket_of(v: u64) -> usize {
    if v < SUB {
        return v as usize;
    }
    let exp = 63 - v.leading_zeros(); // >= SUB_BITS
    let shift = exp - SUB_BITS;
    let sub = (v >> shift) - SUB; // 0..SUB
    ((exp - SUB_BITS + 1) as u64 * SUB + sub) as usize
}

/// The smallest value in bucket `b`.
fn bucket_floor(b: usize) -> u64 {
    let b = b as u64;
    if b < SUB {
        return b;
    }
    let group = b / SUB; // >= 1
    let sub = b % SUB;
    (SUB + sub) << (group - 1)
}

impl Histogram {
    pub fn new() -> Self {
        Self::default()
    }

    #[inline]
    pub fn record(&mut self, v: u64) {
        let b = bucket_of(v);
        if b >= self.buckets.len() {
            self.buckets.resize(b + 1, 0);
        }
        self.buckets[b] += 1;
        if self.count == 0 || v < self.min {
            self.min = v;
        }
        self.max = self.max.max(v);
        self.count += 1;
        self.sum += v as u128;
    }

    pub fn merge(&mut self, other: &Histogram) {
        if other.count == 0 {
            return;
        }
        if other.buckets.len() > self.buckets.len() {
            self.buckets.resize(other.buckets.len(), 0);
        }
        for (a, b) in self.buckets.iter_mut().zip(&other.buckets) {
            *a += b;
        }
        if self.count == 0 || other.min < self.min {
            self.min = other.min;
        }
        self.max = self.max.max(other.max);
        self.count += other.count;
        self.sum += other.sum;
    }

    pub fn count(&self) -> u64 {
        self.count
    }

    /// The sum of the samples.
    pub fn sum(&self) -> u128 {
        self.sum
    }

    pub fn max(&self) -> u64 {
        self.max
    }

    pub fn mean(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum as f64 / self.count as f64
        }
    }

    /// The value below which a fraction `q` of the samples lie (bucket midpoint, clamped
    /// to the exact min and max).
    pub fn quantile(&self, q: f64) -> u64 {
        if self.count == 0 {
            return 0;
        }
        let rank = ((q.clamp(0.0, 1.0) * self.count as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (b, &c) in self.buckets.iter().enumerate() {
            seen += c;
            if seen >= rank {
                let lo = bucket_floor(b);
                let hi = bucket_floor(b + 1);
                let mid = lo + (hi - lo) / 2;
                return mid.clamp(self.min, self.max);
            }
        }
        self.max
    }

    /// Summary in microseconds, the histogram holding nanoseconds.
    pub fn summary_us(&self) -> DelaySummary {
        DelaySummary {
            count: self.count,
            mean_us: self.mean() / 1e3,
            p50_us: self.quantile(0.5) as f64 / 1e3,
            p99_us: self.quantile(0.99) as f64 / 1e3,
            max_us: self.max as f64 / 1e3,
        }
    }
}

/// Jain's fairness index of `xs`: 1 when all equal, 1/n when one takes everything.
/// NaN for an empty or all-zero set: with nothing shared there is no share to compare.
pub fn jain_index(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let s: f64 = xs.iter().sum();
    let s2: f64 = xs.iter().map(|x| x * x).sum();
    if s2 == 0.0 {
        f64::NAN
    } else {
        s * s / (n * s2)
    }
}

/// A figure over several runs (seeds): mean, least and greatest value, and the coefficient
/// of variation. In the figure's own unit; NaN throughout for no runs, or if any run's
/// value is NaN.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Spread {
    pub runs: usize,
    pub mean: f64,
    pub min: f64,
    pub max: f64,
    /// Sample standard deviation (n - 1) over the mean, percent; 0 for one run.
    pub cv_pct: f64,
}

impl Spread {
    /// The spread of `xs`; the sums run in the given order, so the same values in the same
    /// order give the same bits on every machine.
    pub fn of(xs: &[f64]) -> Spread {
        let n = xs.len();
        if n == 0 || xs.iter().any(|x| x.is_nan()) {
            return Spread {
                runs: n,
                mean: f64::NAN,
                min: f64::NAN,
                max: f64::NAN,
                cv_pct: f64::NAN,
            };
        }
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = if n > 1 {
            xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        Spread {
            runs: n,
            mean,
            min: xs.iter().copied().fold(f64::INFINITY, f64::min),
            max: xs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            cv_pct: var.sqrt() / mean * 100.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_buckets_are_monotone_and_cover() {
        let mut last = 0;
        for v in (0..100_000u64).step_by(7).chain([1 << 40, u64::MAX / 2]) {
            let b = bucket_of(v);
            assert!(b >= last);
            last = b;
            assert!(bucket_floor(b) <= v && v < bucket_floor(b + 1), "v={v} b={b}");
        }
    }

    #[test]
    fn test_quantiles_within_resolution() {
        let mut h = Histogram::new();
        for v in 1..=10_000u64 {
            h.record(v * 1000);
        }
        assert_eq!(h.count(), 10_000);
        assert!((h.mean() - 5_000_500.0).abs() < 1e-6);
        let p50 = h.quantile(0.5) as f64;
        assert!((p50 / 5_000_000.0 - 1.0).abs() < 0.035, "p50={p50}");
        let p99 = h.quantile(0.99) as f64;
        assert!((p99 / 9_900_000.0 - 1.0).abs() < 0.035, "p99={p99}");
        assert_eq!(h.quantile(1.0), 10_000_000);
    }

    #[test]
    fn test_jain_index_bounds() {
        assert!((jain_index(&[1.0, 1.0, 1.0]) - 1.0).abs() < 1e-12);
        assert!((jain_index(&[1.0, 0.0, 0.0, 0.0]) - 0.25).abs() < 1e-12);
        assert!(jain_index(&[0.0, 0.0]).is_nan());
        assert!(jain_index(&[]).is_nan());
        let j = jain_index(&[1.0, 2.0]);
        assert!(j > 0.5 && j < 1.0);
    }

    #[test]
    fn test_spread_of_seeds() {
        let s = Spread::of(&[10.0, 12.0, 14.0]);
        assert_eq!((s.runs, s.mean, s.min, s.max), (3, 12.0, 10.0, 14.0));
        assert!((s.cv_pct - 2.0 / 12.0 * 100.0).abs() < 1e-12);
        assert_eq!(Spread::of(&[5.0]).cv_pct, 0.0);
        assert!(Spread::of(&[]).mean.is_nan());
        assert!(Spread::of(&[1.0, f64::NAN]).min.is_nan());
    }
}

#[cfg(test)]
mod time_in_tests {
    use super::*;

    #[test]
    fn test_time_in_adds_the_closed_intervals_only() {
        let t = SimTime::from_nanos;
        let mut x = TimeIn::default();
        x.observe(false, t(5));
        x.observe(true, t(10));
        x.observe(true, t(15)); // still in: the interval runs from 10
        x.observe(false, t(30));
        x.observe(true, t(40));
        assert_eq!(x.total_ns(), 20, "20 ns closed, the interval from 40 still open");
        x.observe(false, t(41));
        assert_eq!(x.total_ns(), 21);
    }
}
