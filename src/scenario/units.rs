//! Conversions of scenario numbers into simulated time, checked, and the one reader of
//! durations written with a unit (`"500ms"`, `"2.5 s"`), which scenario files and the
//! command line share ([`parse_duration_text`]; `durations` applies it to the keys the registry declares times).
//!
//! Every duration a scenario gives (seconds or milliseconds, as a float) goes through
//! [`duration`]: the value must be finite and inside its key's range, and it must not round
//! to 0 ns unless it is exactly 0 and the key allows 0. The ranges keep every product the
//! simulator later forms (a duration times a count of frames, blocks or retries) far below
//! `u64` nanoseconds (584 years), so no input reaches the time arithmetic's overflow.

use super::error::{clip, show, FieldError};
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

/// A unit a duration may be written in, in a scenario (`duration_s = "500ms"`) or on the
/// command line (`--from 1ms`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeUnit {
    Ns,
    Us,
    Ms,
    S,
}

impl TimeUnit {
    /// Nanoseconds in one of this unit.
    pub fn nanos(self) -> f64 {
        match self {
            TimeUnit::Ns => 1.0,
            TimeUnit::Us => 1e3,
            TimeUnit::Ms => 1e6,
            TimeUnit::S => 1e9,
        }
    }

    /// The unit of a symbol: `ns`, `us` (or `µs`), `ms`, `s`.
    pub fn from_symbol(symbol: &str) -> Option<TimeUnit> {
        match symbol {
            "ns" => Some(TimeUnit::Ns),
            "us" | "µs" => Some(TimeUnit::Us),
            "ms" => Some(TimeUnit::Ms),
            "s" => Some(TimeUnit::S),
            _ => None,
        }
    }

    /// The unit of a registry key whose own unit is `unit` (`"s"`, `"ms"`, `"ns"`), if it
    /// is a time.
    pub fn of_key_unit(unit: &str) -> Option<TimeUnit> {
        Self::from_symbol(unit)
    }
}

/// The forms a duration may be written in, for messages.
pub const DURATION_FORMS: &str = "a number with s, ms, us (or µs) or ns, as \"10s\", \"500ms\" or \"2.5 s\"";

/// Why a text is not a duration.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DurationTextError {
    /// The part before the unit is not a number.
    #[error("`{text}` is not a time ({DURATION_FORMS})")]
    NotANumber { text: String },
    /// The unit is not one of time.
    #[error("`{text}`: `{unit}` is not a unit of time ({DURATION_FORMS})")]
    NotATimeUnit { text: String, unit: String },
}

/// A duration as written: its number and its unit, if one is written (`"2.5 ms"` is
/// `(2.5, Some(Ms))`, `"3"` is `(3.0, None)`). Spaces around and between are allowed.
/// The number must be finite; its range is the reader's to check.
pub fn parse_duration_text(text: &str) -> Result<(f64, Option<TimeUnit>), DurationTextError> {
    let t = text.trim();
    let number = t.trim_end_matches(|c: char| c.is_alphabetic());
    let symbol = &t[number.len()..];
    let bad = || DurationTextError::NotANumber { text: clip(text, 40) };
    let v: f64 = number.trim().parse().map_err(|_| bad())?;
    if !v.is_finite() {
        return Err(bad());
    }
    if symbol.is_empty() {
        return Ok((v, None));
    }
    match TimeUnit::from_symbol(symbol) {
        Some(u) => Ok((v, Some(u))),
        None => Err(DurationTextError::NotATimeUnit {
            text: clip(text, 40),
            unit: clip(symbol, 20),
        }),
    }
}

/// `text` in units of `key_unit` (a bare number is already in them).
pub fn duration_in(text: &str, key_unit: TimeUnit) -> Result<f64, DurationTextError> {
    let (v, unit) = parse_duration_text(text)?;
    Ok(match unit {
        None => v,
        Some(u) if u == key_unit => v,
        Some(u) => v * u.nanos() / key_unit.nanos(),
    })
}

/// The words for a key's own unit, for "a bare number is in seconds".
pub(crate) fn unit_words(u: TimeUnit) -> &'static str {
    match u {
        TimeUnit::Ns => "nanoseconds",
        TimeUnit::Us => "microseconds",
        TimeUnit::Ms => "milliseconds",
        TimeUnit::S => "seconds",
    }
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

    #[test]
    fn test_duration_text_takes_a_unit_or_none() {
        assert_eq!(parse_duration_text("10s"), Ok((10.0, Some(TimeUnit::S))));
        assert_eq!(parse_duration_text(" 2.5 s "), Ok((2.5, Some(TimeUnit::S))));
        assert_eq!(parse_duration_text("500ms"), Ok((500.0, Some(TimeUnit::Ms))));
        assert_eq!(parse_duration_text("3µs"), Ok((3.0, Some(TimeUnit::Us))));
        assert_eq!(parse_duration_text("1e3ns"), Ok((1000.0, Some(TimeUnit::Ns))));
        assert_eq!(parse_duration_text("7"), Ok((7.0, None)));
        assert!(matches!(
            parse_duration_text("10kg"),
            Err(DurationTextError::NotATimeUnit { unit, .. }) if unit == "kg"
        ));
        for bad in ["", "s", "ms", "inf", "nan", "1..2s", "x3s"] {
            assert!(
                matches!(
                    parse_duration_text(bad),
                    Err(DurationTextError::NotANumber { .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn test_duration_in_converts_to_the_keys_unit() {
        assert_eq!(duration_in("500ms", TimeUnit::S), Ok(0.5));
        assert_eq!(duration_in("2.5 s", TimeUnit::Ms), Ok(2500.0));
        assert_eq!(duration_in("100us", TimeUnit::Ms), Ok(0.1));
        assert_eq!(duration_in("4", TimeUnit::Ms), Ok(4.0));
    }
}
