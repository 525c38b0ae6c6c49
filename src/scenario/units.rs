//! Conversions of scenario numbers into simulated time, checked.
//!
//! Every duration a scenario gives (seconds or milliseconds, as a float) goes through
//! [`duration`]: the value must be finite and inside its key's range, and it must not round
//! to 0 ns unless it is exactly 0 and the key allows 0. The ranges keep every product the
//! simulator later forms (a duration times a count of frames, blocks or retries) far below
//! `u64` nanoseconds (584 years), so no input reaches the time arithmetic's overflow.

use super::error::{show, FieldError};
use crate::time::SimDuration;

/// The PC timer's tick, ms: 65536 / 1,193,182 Hz (the 8253/8254 at its slowest rate, the
/// clock DOS and NetBIOS timers count in).
pub const PC_TICK_MS: f64 = 65_536.0 / 1_193_182.0 * 1e3;

/// `v` (in units of `unit_ns` nanoseconds, named `unit`) at key `path` as a duration;
/// allowed: `lo..=hi` units (`lo` excluded unless `allow_zero` and `v == 0`).
pub fn duration(
    path: &str,
    v: f64,
    (lo, hi): (f64, f64),
    allow_zero: bool,
    unit: &str,
    unit_ns: f64,
) -> Result<SimDuration, FieldError> {
    let zero_ok = allow_zero && v == 0.0;
    let in_range = v.is_finite() && v >= lo && v <= hi && (v > 0.0 || zero_ok);
    let range = || {
        let open = if allow_zero || lo > 0.0 { "[" } else { "(" };
        let lo_text = if allow_zero { "0".to_string() } else { show(lo) };
        format!("{open}{lo_text}, {}] {unit}", show(hi))
    };
    if !in_range && !zero_ok {
        return Err(FieldError::range(path, show(v), range()));
    }
    let d = SimDuration::from_nanos_f64(v * unit_ns);
    if d.is_zero() && !zero_ok {
        return Err(FieldError::range(path, show(v), range())
            .with_note("it rounds to 0 ns; the simulator's clock counts whole nanoseconds"));
    }
    Ok(d)
}

/// [`duration`] in seconds.
pub fn seconds(path: &str, v: f64, range: (f64, f64), allow_zero: bool) -> Result<SimDuration, FieldError> {
    duration(path, v, range, allow_zero, "seconds", 1e9)
}

/// [`duration`] in milliseconds.
pub fn millis(path: &str, v: f64, range: (f64, f64), allow_zero: bool) -> Result<SimDuration, FieldError> {
    duration(path, v, range, allow_zero, "ms", 1e6)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_duration_rounding_to_zero_is_refused() {
        assert!(seconds("k", 1e-12, (0.0, 10.0), false).is_err());
        assert!(seconds("k", 1e-12, (0.0, 10.0), true).is_err());
        assert_eq!(seconds("k", 0.0, (0.0, 10.0), true).unwrap(), SimDuration::ZERO);
        assert!(seconds("k", 0.0, (0.0, 10.0), false).is_err());
        assert_eq!(seconds("k", 1e-9, (0.0, 10.0), false).unwrap().as_nanos(), 1);
        for bad in [f64::NAN, f64::INFINITY, -1.0, 11.0, 1e300] {
            assert!(seconds("k", bad, (0.0, 10.0), true).is_err(), "{bad}");
        }
        let e = millis("k", 1.0, (PC_TICK_MS, 100.0), false).unwrap_err();
        assert!(e.problem.to_string().contains("ms"), "{e:?}");
    }
}
