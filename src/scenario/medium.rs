//! Section `[medium]`: the cable of the segment.
//!
//! Every key has a default (a 185 m thin-coax 10 Mb/s segment), so scenarios that do not
//! care about the wire can leave the section out. Units: Mb/s, metres, fractions of c.
//!
//! Invariant of a validated medium: the round-trip propagation over the whole segment
//! (`2 x length_m / (velocity_factor x c)`) is at most one slot time (512 bit times,
//! 802.3 4.4.2), the condition under which a transmitter hears every collision before its
//! frame's first slot is over. A faster bit rate or a longer or slower cable is refused.

use serde::Deserialize;

use super::error::{show, FieldError};
use super::params;
use crate::ether::consts::{
    MAX_FRAME_BYTES, MAX_OVERSIZE_FRAME_BYTES, MIN_FRAME_BYTES, SLOT_TIME_BITS, SPEED_OF_LIGHT_M_PER_S,
    VELOCITY_FACTOR_THIN,
};
use crate::ether::SegmentConfig;

/// `[medium]` as written.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMedium {
    pub bit_rate_mbps: Option<f64>,
    pub velocity_factor: Option<f64>,
    pub length_m: Option<f64>,
    pub positions_m: Option<Vec<f64>>,
    pub allow_oversize: Option<bool>,
    pub corrupt_fraction: Option<f64>,
}

/// The validated medium.
#[derive(Clone, Debug, PartialEq)]
pub struct Medium {
    /// One bit time, ns (100 at 10 Mb/s).
    pub bit_ns: u64,
    /// Signal speed as a fraction of c, within the range of `medium.velocity_factor`.
    pub velocity_factor: f64,
    /// Segment length, metres, within the range of `medium.length_m`.
    pub length_m: f64,
    /// Explicit station positions (metres from one end), each within `0..=length_m`.
    pub positions_m: Option<Vec<f64>>,
    /// Frames up to [`MAX_OVERSIZE_FRAME_BYTES`] are allowed (the AEX driver's large packets).
    pub allow_oversize: bool,
    /// Fraction of intact frames damaged on the wire (fault injection), in [0, 1].
    pub corrupt_fraction: f64,
}

impl Default for Medium {
    fn default() -> Self {
        Medium {
            bit_ns: 100,
            velocity_factor: VELOCITY_FACTOR_THIN,
            length_m: 185.0,
            positions_m: None,
            allow_oversize: false,
            corrupt_fraction: 0.0,
        }
    }
}

impl RawMedium {
    pub fn validate(self) -> Result<Medium, FieldError> {
        let mut m = Medium::default();
        if let Some(rate) = self.bit_rate_mbps {
            let (lo, hi) = params::real_range("medium.bit_rate_mbps");
            let bit_ns = 1000.0 / rate;
            let whole = bit_ns.round();
            if !(rate.is_finite() && rate > 0.0)
                || (bit_ns - whole).abs() > 1e-9 * whole
                || !((1000.0 / hi)..=(1000.0 / lo)).contains(&whole)
            {
                return Err(FieldError::range(
                    "medium.bit_rate_mbps",
                    show(rate),
                    format!(
                        "{}..={} such that 1000/bit_rate_mbps is a whole number of ns (e.g. 1, 10, 100)",
                        show(lo),
                        show(hi)
                    ),
                )
                .with_note("1 Mb/s (1BASE5) to 1000 Mb/s, the CSMA/CD rates of 802.3"));
            }
            m.bit_ns = whole as u64;
        }
        if let Some(v) = self.velocity_factor {
            let (lo, hi) = params::real_range("medium.velocity_factor");
            if !(lo..=hi).contains(&v) {
                return Err(
                    FieldError::range("medium.velocity_factor", show(v), format!("{lo}..={hi}"))
                        .with_note("real cables: 0.65 for thin coax, 0.77 for thick"),
                );
            }
            m.velocity_factor = v;
        }
        if let Some(len) = self.length_m {
            let (lo, hi) = params::real_range("medium.length_m");
            if !(len > lo && len <= hi) {
                return Err(FieldError::range(
                    "medium.length_m",
                    show(len),
                    format!("({}, {}] metres", show(lo), show(hi)),
                )
                .with_note("2500 m is the largest 10 Mb/s collision domain of 802.3"));
            }
            m.length_m = len;
        }
        if let Some(pos) = self.positions_m {
            // the far end is the segment's own length, not the registry's largest one
            let (lo, _) = params::real_range("medium.positions_m");
            for (i, &p) in pos.iter().enumerate() {
                if !(lo..=m.length_m).contains(&p) {
                    return Err(FieldError::range(
                        format!("medium.positions_m[{i}]"),
                        show(p),
                        format!("{lo}..={} metres (the segment's length_m)", m.length_m),
                    ));
                }
            }
            m.positions_m = Some(pos);
        }
        m.check_round_trip()?;
        m.allow_oversize = self.allow_oversize.unwrap_or(false);
        if let Some(c) = self.corrupt_fraction {
            let (lo, hi) = params::real_range("medium.corrupt_fraction");
            if !(lo..=hi).contains(&c) {
                return Err(FieldError::range(
                    "medium.corrupt_fraction",
                    show(c),
                    format!("{lo}..={hi}"),
                ));
            }
            m.corrupt_fraction = c;
        }
        Ok(m)
    }
}

impl Medium {
    /// Propagation time from one end of the segment to the other, ns, rounded as
    /// `ether::Medium` rounds station positions.
    pub fn end_to_end_ns(&self) -> u64 {
        (self.length_m / (SPEED_OF_LIGHT_M_PER_S * self.velocity_factor) * 1e9).round() as u64
    }

    /// One slot time (512 bit times), ns.
    pub fn slot_ns(&self) -> u64 {
        SLOT_TIME_BITS * self.bit_ns
    }

    /// Refuses a segment whose round trip exceeds the slot time: collision detection (and
    /// the backoff that assumes it) would not work, and the results would be wrong
    /// without a word.
    fn check_round_trip(&self) -> Result<(), FieldError> {
        let round_trip_ns = 2 * self.end_to_end_ns();
        if round_trip_ns <= self.slot_ns() {
            return Ok(());
        }
        let rate_mbps = 1000.0 / self.bit_ns as f64;
        let max_m = self.slot_ns() as f64 * 1e-9 / 2.0 * SPEED_OF_LIGHT_M_PER_S * self.velocity_factor;
        Err(FieldError::invalid(
            "medium.length_m",
            format!(
                "the round-trip propagation of {round_trip_ns} ns (2 x medium.length_m = {} m at medium.velocity_factor = {} x c) exceeds the slot time of {} ns allowed at medium.bit_rate_mbps = {} (512 bit times of {} ns, 802.3 4.4.2); at this bit rate and velocity factor the segment may be at most {:.1} m long",
                show(self.length_m),
                show(self.velocity_factor),
                self.slot_ns(),
                show(rate_mbps),
                self.bit_ns,
                (max_m * 10.0).floor() / 10.0
            ),
        ))
    }

    /// Largest frame (header to FCS) a workload may send on this medium.
    pub fn max_frame_bytes(&self) -> u32 {
        if self.allow_oversize {
            MAX_OVERSIZE_FRAME_BYTES
        } else {
            MAX_FRAME_BYTES
        }
    }

    /// Checks a frame size given at key `path`; `Ok(Some(warning))` for an oversize frame.
    pub fn check_frame_bytes(&self, path: &str, bytes: i64) -> Result<Option<String>, FieldError> {
        let max = self.max_frame_bytes() as i64;
        if !(MIN_FRAME_BYTES as i64..=max).contains(&bytes) {
            let e = FieldError::range(
                path,
                bytes,
                format!("{MIN_FRAME_BYTES}..={max} bytes, header to FCS"),
            );
            return Err(if self.allow_oversize {
                e
            } else {
                e.with_note(format!(
                    "set medium.allow_oversize = true for frames up to {MAX_OVERSIZE_FRAME_BYTES} bytes"
                ))
            });
        }
        Ok((bytes > MAX_FRAME_BYTES as i64).then(|| {
            format!("{path} = {bytes} exceeds the 802.3 maximum of {MAX_FRAME_BYTES} bytes (allowed by medium.allow_oversize)")
        }))
    }

    /// Positions of `n` stations: the explicit list (which must have `n` entries) or `n`
    /// stations evenly spaced from one end to the other.
    pub fn positions(&self, n: usize, what: &str) -> Result<Vec<f64>, FieldError> {
        match &self.positions_m {
            Some(p) if p.len() != n => Err(FieldError::invalid(
                "medium.positions_m",
                format!("has {} entries but the scenario has {n} {what}", p.len()),
            )),
            Some(p) => Ok(p.clone()),
            None => Ok(self.even_positions(n)),
        }
    }

    /// `n` stations evenly spaced over the segment, the first at 0 and the last at its end.
    pub fn even_positions(&self, n: usize) -> Vec<f64> {
        (0..n)
            .map(|i| {
                if n <= 1 {
                    0.0
                } else {
                    self.length_m * i as f64 / (n - 1) as f64
                }
            })
            .collect()
    }

    /// The segment with stations at `positions_m`.
    pub fn segment(&self, positions_m: Vec<f64>) -> SegmentConfig {
        SegmentConfig {
            positions_m,
            velocity_factor: self.velocity_factor,
            bit_ns: self.bit_ns,
            corrupt_fraction: self.corrupt_fraction,
        }
    }

    /// Most frames of `frame_bytes` one second of this medium can carry (one station alone:
    /// preamble, frame and interframe gap back to back).
    pub fn max_frames_per_s(&self, frame_bytes: u32) -> f64 {
        use crate::ether::consts::{INTERFRAME_GAP_BITS, PREAMBLE_SFD_BITS};
        let bits = PREAMBLE_SFD_BITS + INTERFRAME_GAP_BITS + 8 * frame_bytes.max(MIN_FRAME_BYTES) as u64;
        1e9 / (bits * self.bit_ns) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::error::Problem;

    fn raw(s: &str) -> RawMedium {
        toml::from_str(s).unwrap()
    }

    #[test]
    fn test_defaults_are_thin_coax_10mbps() {
        let m = RawMedium::default().validate().unwrap();
        assert_eq!(m, Medium::default());
        assert_eq!(m.bit_ns, 100);
    }

    #[test]
    fn test_bit_rate_must_give_whole_ns() {
        assert_eq!(raw("bit_rate_mbps = 100").validate().unwrap().bit_ns, 10);
        assert_eq!(raw("bit_rate_mbps = 1").validate().unwrap().bit_ns, 1000);
        for bad in ["3", "0", "-10", "2000", "nan", "inf", "0.5", "0.001"] {
            let e = raw(&format!("bit_rate_mbps = {bad}")).validate().unwrap_err();
            assert_eq!(e.path, "medium.bit_rate_mbps");
            assert!(matches!(e.problem, Problem::OutOfRange { .. }));
        }
    }

    #[test]
    fn test_ranges() {
        for (text, path) in [
            ("velocity_factor = 0.0", "medium.velocity_factor"),
            ("velocity_factor = 1.5", "medium.velocity_factor"),
            ("velocity_factor = 1e-9", "medium.velocity_factor"),
            ("velocity_factor = 1e-300", "medium.velocity_factor"),
            ("velocity_factor = 1.0", "medium.velocity_factor"),
            ("length_m = -1.0", "medium.length_m"),
            ("length_m = 1e9", "medium.length_m"),
            ("corrupt_fraction = 1.01", "medium.corrupt_fraction"),
            ("positions_m = [0.0, 200.0]", "medium.positions_m[1]"),
        ] {
            assert_eq!(raw(text).validate().unwrap_err().path, path, "{text}");
        }
    }

    #[test]
    fn test_round_trip_must_fit_in_a_slot() {
        // 185 m of thin coax: 949 ns end to end, a round trip of 1898 ns
        assert_eq!(Medium::default().end_to_end_ns(), 949);
        assert!(raw("bit_rate_mbps = 100").validate().is_ok()); // slot 5120 ns
        assert!(raw("length_m = 2500.0").validate().is_ok()); // 25.65 us of 51.2 us
        let e = raw("bit_rate_mbps = 1000").validate().unwrap_err(); // slot 512 ns
        assert_eq!(e.path, "medium.length_m");
        let msg = e.problem.to_string();
        for part in [
            "1898 ns",
            "512 ns",
            "medium.bit_rate_mbps = 1000",
            "medium.length_m = 185 m",
            "medium.velocity_factor = 0.65",
            "at most 49.8 m",
        ] {
            assert!(msg.contains(part), "{part:?} missing from: {msg}");
        }
        assert!(raw("bit_rate_mbps = 1000\nlength_m = 49.0").validate().is_ok());
        assert!(
            raw("bit_rate_mbps = 1000\nlength_m = 49.0\nvelocity_factor = 0.5")
                .validate()
                .is_err()
        );
        // a segment of exactly one slot's round trip is allowed (100 Mb/s, 5120 ns)
        let at_limit = 2560e-9 * SPEED_OF_LIGHT_M_PER_S * 0.5;
        assert!(raw(&format!(
            "bit_rate_mbps = 100\nvelocity_factor = 0.5\nlength_m = {at_limit}"
        ))
        .validate()
        .is_ok());
    }

    #[test]
    fn test_frame_bytes_and_oversize() {
        let m = Medium::default();
        assert_eq!(m.check_frame_bytes("f", 1518), Ok(None));
        assert!(m.check_frame_bytes("f", 63).is_err());
        assert!(m.check_frame_bytes("f", 1519).is_err());
        let m = Medium {
            allow_oversize: true,
            ..m
        };
        assert!(m.check_frame_bytes("f", 4318).unwrap().is_some());
        assert!(m.check_frame_bytes("f", 4319).is_err());
    }

    #[test]
    fn test_even_positions_span_the_segment() {
        let m = Medium::default();
        assert_eq!(m.even_positions(3), vec![0.0, 92.5, 185.0]);
        assert_eq!(m.even_positions(1), vec![0.0]);
        assert!(m.positions(2, "stations").is_ok());
        let m = Medium {
            positions_m: Some(vec![1.0]),
            ..m
        };
        assert!(m.positions(2, "stations").is_err());
    }
}
