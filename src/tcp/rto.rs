//! The retransmission timeout: smoothed round-trip time and mean deviation (Jacobson
//! 1988; RFC 6298 section 2 gains 1/8 and 1/4), `RTO = SRTT + 4 * RTTVAR` clamped to the
//! profile's bounds, doubled on each timeout (and reset by a new sample).
//!
//! Times are integer nanoseconds. Karn's rule (samples only from segments never
//! retransmitted) is the caller's part: [`crate::tcp::conn`] times one segment at a time.

use crate::time::SimDuration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RtoEstimator {
    /// (SRTT, RTTVAR) in ns once a sample arrived.
    smoothed: Option<(u64, u64)>,
    /// Timeouts since the last sample: the RTO is doubled this many times.
    backoffs: u32,
    initial: SimDuration,
    min: SimDuration,
    max: SimDuration,
}

impl RtoEstimator {
    pub fn new(initial: SimDuration, min: SimDuration, max: SimDuration) -> Self {
        RtoEstimator {
            smoothed: None,
            backoffs: 0,
            initial,
            min,
            max,
        }
    }

    /// A round-trip measurement.
    pub fn sample(&mut self, rtt: SimDuration) {
        let r = rtt.as_nanos();
        self.smoothed = Some(match self.smoothed {
            None => (r, r / 2),
            Some((srtt, var)) => {
                let var = var - var / 4 + srtt.abs_diff(r) / 4;
                let srtt = srtt - srtt / 8 + r / 8;
                (srtt, var)
            }
        });
        self.backoffs = 0;
    }

    /// A timeout happened: the next RTO is twice as long (up to the maximum).
    pub fn back_off(&mut self) {
        self.backoffs = (self.backoffs + 1).min(32);
    }

    /// The timeout to arm now.
    pub fn rto(&self) -> SimDuration {
        let base = match self.smoothed {
            None => self.initial.as_nanos(),
            Some((srtt, var)) => srtt.saturating_add(var.saturating_mul(4)),
        };
        let base = base.clamp(self.min.as_nanos(), self.max.as_nanos());
        let backed = base.saturating_mul(1u64 << self.backoffs.min(20));
        SimDuration::from_nanos(backed.min(self.max.as_nanos()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est() -> RtoEstimator {
        RtoEstimator::new(
            SimDuration::from_millis(3000),
            SimDuration::from_millis(200),
            SimDuration::from_secs(120),
        )
    }

    #[test]
    fn test_unsampled_uses_initial_and_doubles() {
        let mut e = est();
        assert_eq!(e.rto(), SimDuration::from_millis(3000));
        e.back_off();
        assert_eq!(e.rto(), SimDuration::from_millis(6000));
    }

    #[test]
    fn test_first_sample_gives_three_rtt_clamped_to_min() {
        let mut e = est();
        e.sample(SimDuration::from_millis(100)); // srtt 100, var 50: 300 ms
        assert_eq!(e.rto(), SimDuration::from_millis(300));
        let mut e = est();
        e.sample(SimDuration::from_millis(2)); // 6 ms, clamped to 200 ms
        assert_eq!(e.rto(), SimDuration::from_millis(200));
    }

    #[test]
    fn test_backoff_caps_at_max() {
        let mut e = est();
        for _ in 0..40 {
            e.back_off();
        }
        assert_eq!(e.rto(), SimDuration::from_secs(120));
        e.sample(SimDuration::from_millis(100));
        assert_eq!(e.rto(), SimDuration::from_millis(300));
    }
}
