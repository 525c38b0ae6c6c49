//! Simulated time.
//!
//! Owns the two time newtypes of the simulator: [`SimTime`] (an instant since the start
//! of a run) and [`SimDuration`] (a span). Both are integer nanoseconds with private
//! fields, so no floating-point value ever decides the order of events. At 10 Mb/s a bit
//! time is exactly 100 ns, a slot (512 bits) 51.2 us and the interframe gap 9.6 us, all
//! exact in this unit. A `u64` of nanoseconds spans 584 years of simulated time.
//!
//! Arithmetic is checked in every build, not only in debug builds: an instant before time
//! zero, a negative span, a span that overflows 584 years or a span built from a negative,
//! NaN or huge float is a bug in a model (its causality is wrong), never a user error, so
//! it panics with a message instead of saturating or wrapping into a wrong result. Where a
//! model means "zero if negative" it says so with [`SimTime::saturating_since`].

use std::fmt;
use std::ops::{Add, AddAssign, Mul, Sub};

/// An instant of simulated time, in nanoseconds since the start of the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimTime(u64);

/// A span of simulated time, in nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimDuration(u64);

impl SimTime {
    /// The start of every run.
    pub const ZERO: SimTime = SimTime(0);

    pub const fn from_nanos(ns: u64) -> Self {
        SimTime(ns)
    }
    pub const fn as_nanos(self) -> u64 {
        self.0
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 * 1e-9
    }
    /// The span from `earlier` to `self`; zero if `earlier` is later.
    pub fn saturating_since(self, earlier: SimTime) -> SimDuration {
        SimDuration(self.0.saturating_sub(earlier.0))
    }
}

impl SimDuration {
    pub const ZERO: SimDuration = SimDuration(0);

    pub const fn from_nanos(ns: u64) -> Self {
        SimDuration(ns)
    }
    /// Panics if the span does not fit in a `u64` of nanoseconds.
    pub const fn from_micros(us: u64) -> Self {
        SimDuration::scaled(us, 1_000)
    }
    /// Panics if the span does not fit in a `u64` of nanoseconds.
    pub const fn from_millis(ms: u64) -> Self {
        SimDuration::scaled(ms, 1_000_000)
    }
    /// Panics if the span does not fit in a `u64` of nanoseconds.
    pub const fn from_secs(s: u64) -> Self {
        SimDuration::scaled(s, 1_000_000_000)
    }
    const fn scaled(n: u64, ns_per_unit: u64) -> Self {
        match n.checked_mul(ns_per_unit) {
            Some(ns) => SimDuration(ns),
            None => panic!("time span overflows u64 nanoseconds (584 years)"),
        }
    }
    /// Rounds a duration given in (possibly fractional) nanoseconds to the nearest ns.
    /// Only for building constants from configuration, never for ordering events.
    ///
    /// Panics if `ns` is NaN, rounds to a negative number of nanoseconds, or does not fit
    /// in a `u64` (a float cast would silently give 0 or `u64::MAX`).
    pub fn from_nanos_f64(ns: f64) -> Self {
        let r = ns.round();
        // 2^64 is exactly representable; every f64 below it converts exactly after rounding
        if !(0.0..18_446_744_073_709_551_616.0).contains(&r) {
            panic!("time span of {ns} ns is negative, NaN or beyond 584 years");
        }
        SimDuration(r as u64)
    }
    pub const fn as_nanos(self) -> u64 {
        self.0
    }
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 * 1e-9
    }
    pub fn as_micros_f64(self) -> f64 {
        self.0 as f64 * 1e-3
    }
}

impl Add<SimDuration> for SimTime {
    type Output = SimTime;
    /// Panics if the instant would pass 584 years.
    #[inline]
    fn add(self, d: SimDuration) -> SimTime {
        match self.0.checked_add(d.0) {
            Some(t) => SimTime(t),
            None => panic!("simulated time overflows: {} ns + {} ns", self.0, d.0),
        }
    }
}
impl AddAssign<SimDuration> for SimTime {
    #[inline]
    fn add_assign(&mut self, d: SimDuration) {
        *self = *self + d;
    }
}
impl Sub<SimTime> for SimTime {
    type Output = SimDuration;
    /// Panics if `rhs` is later than `self`: a model asking for a negative span has its
    /// causality wrong.
    #[inline]
    fn sub(self, rhs: SimTime) -> SimDuration {
        match self.0.checked_sub(rhs.0) {
            Some(d) => SimDuration(d),
            None => panic!("negative time span: {} ns - {} ns", self.0, rhs.0),
        }
    }
}
impl Sub<SimDuration> for SimTime {
    type Output = SimTime;
    /// Panics if the result would be before time zero.
    #[inline]
    fn sub(self, d: SimDuration) -> SimTime {
        match self.0.checked_sub(d.0) {
            Some(t) => SimTime(t),
            None => panic!("instant before time zero: {} ns - {} ns", self.0, d.0),
        }
    }
}
impl Add for SimDuration {
    type Output = SimDuration;
    /// Panics if the span would pass 584 years.
    #[inline]
    fn add(self, d: SimDuration) -> SimDuration {
        match self.0.checked_add(d.0) {
            Some(t) => SimDuration(t),
            None => panic!("time span overflows: {} ns + {} ns", self.0, d.0),
        }
    }
}
impl AddAssign for SimDuration {
    #[inline]
    fn add_assign(&mut self, d: SimDuration) {
        *self = *self + d;
    }
}
impl Sub for SimDuration {
    type Output = SimDuration;
    /// Panics if `d` is longer than `self`.
    #[inline]
    fn sub(self, d: SimDuration) -> SimDuration {
        match self.0.checked_sub(d.0) {
            Some(t) => SimDuration(t),
            None => panic!("negative time span: {} ns - {} ns", self.0, d.0),
        }
    }
}
impl Mul<u64> for SimDuration {
    type Output = SimDuration;
    /// Panics if the span would pass 584 years.
    #[inline]
    fn mul(self, k: u64) -> SimDuration {
        match self.0.checked_mul(k) {
            Some(t) => SimDuration(t),
            None => panic!("time span overflows: {} ns x {k}", self.0),
        }
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.6} s", self.as_secs_f64())
    }
}
impl fmt::Display for SimDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ns", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_arithmetic_is_exact() {
        let t = SimTime::ZERO + SimDuration::from_nanos(9_600);
        assert_eq!(t.as_nanos(), 9_600);
        assert_eq!((t - SimTime::ZERO).as_nanos(), 9_600);
        assert_eq!(
            SimDuration::from_nanos(100) * 512,
            SimDuration::from_micros(51) + SimDuration::from_nanos(200)
        );
        assert_eq!(SimTime::ZERO.saturating_since(t), SimDuration::ZERO);
        assert_eq!(t - SimDuration::from_nanos(9_600), SimTime::ZERO);
        assert_eq!(SimDuration::from_nanos_f64(949.37).as_nanos(), 949);
        assert_eq!(SimDuration::from_nanos_f64(-0.4), SimDuration::ZERO);
        assert_eq!(SimDuration::from_secs(3600).as_nanos(), 3_600_000_000_000);
    }

    #[test]
    #[should_panic(expected = "negative time span")]
    fn test_instant_minus_later_instant_panics() {
        let _ = SimTime::from_nanos(5) - SimTime::from_nanos(6);
    }

    #[test]
    #[should_panic(expected = "instant before time zero")]
    fn test_instant_before_zero_panics() {
        let _ = SimTime::from_nanos(5) - SimDuration::from_nanos(6);
    }

    #[test]
    #[should_panic(expected = "negative time span")]
    fn test_negative_duration_panics() {
        let _ = SimDuration::from_nanos(5) - SimDuration::from_nanos(6);
    }

    #[test]
    #[should_panic(expected = "simulated time overflows")]
    fn test_instant_overflow_panics() {
        let mut t = SimTime::from_nanos(u64::MAX - 1);
        t += SimDuration::from_nanos(2);
    }

    #[test]
    #[should_panic(expected = "time span overflows")]
    fn test_duration_sum_overflow_panics() {
        let _ = SimDuration::from_nanos(u64::MAX) + SimDuration::from_nanos(1);
    }

    #[test]
    #[should_panic(expected = "time span overflows")]
    fn test_duration_product_overflow_panics() {
        let _ = SimDuration::from_nanos(1 << 40) * (1 << 30);
    }

    #[test]
    #[should_panic(expected = "584 years")]
    fn test_from_secs_overflow_panics() {
        let _ = SimDuration::from_secs(u64::MAX / 1_000);
    }

    #[test]
    #[should_panic(expected = "negative, NaN or beyond")]
    fn test_from_nanos_f64_negative_panics() {
        let _ = SimDuration::from_nanos_f64(-1.0);
    }

    #[test]
    #[should_panic(expected = "negative, NaN or beyond")]
    fn test_from_nanos_f64_nan_panics() {
        let _ = SimDuration::from_nanos_f64(f64::NAN);
    }

    #[test]
    #[should_panic(expected = "negative, NaN or beyond")]
    fn test_from_nanos_f64_huge_panics() {
        let _ = SimDuration::from_nanos_f64(1e20);
    }

    #[test]
    #[should_panic(expected = "negative, NaN or beyond")]
    fn test_from_nanos_f64_infinite_panics() {
        let _ = SimDuration::from_nanos_f64(f64::INFINITY);
    }
}
