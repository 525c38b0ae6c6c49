//! PERFORM3's program on one workstation: read the file block by block, forever.
//!
//! Each block is the application's own work (DOS's INT 21h and PERFORM3's loop and timing,
//! `app_block_kinstr`, varied uniformly by +-`app_jitter`, because DOS, timer ticks and the
//! benchmark's bookkeeping do not take the same time every block, and the variation keeps
//! the stations from phase-locking), then a read of B bytes through the redirector. The
//! stations start together, to within the start-up skew.
//!
//! Phases: `NotStarted -> Working -> Reading -> Working -> ...`; a block is done when its
//! read completes. Units: bytes, thousands of instructions, nanoseconds.

use rand::RngExt;

use crate::engine::SimRng;
use crate::lan::{AppOp, Application};
use crate::stats::Histogram;
use crate::time::{SimDuration, SimTime};

/// The parameters of PERFORM3's loop on a workstation.
#[derive(Clone, Debug, PartialEq)]
pub struct Perform3Params {
    /// Block size B, bytes.
    pub block: u32,
    /// The application's and DOS's work per block, thousands of instructions.
    pub block_kinstr: f64,
    /// Relative variation of that work (uniform, +-).
    pub jitter: f64,
    /// The workstations start within this span of each other.
    pub start_skew: SimDuration,
}

/// Where the loop is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    NotStarted,
    /// The per-block work is running on the CPU.
    Working,
    /// The block is being read.
    Reading,
}

/// PERFORM3 on one workstation.
#[derive(Debug)]
pub struct Perform3App {
    params: Perform3Params,
    phase: Phase,
    block_started: SimTime,
    blocks_done: u64,
    block_time_ns: Histogram,
}

impl Perform3App {
    pub fn new(params: Perform3Params) -> Self {
        Perform3App {
            params,
            phase: Phase::NotStarted,
            block_started: SimTime::ZERO,
            blocks_done: 0,
            block_time_ns: Histogram::new(),
        }
    }

    /// Blocks read so far.
    pub fn blocks_done(&self) -> u64 {
        self.blocks_done
    }

    /// Time from the end of one block to the end of the next (the first from time zero), ns.
    pub fn block_times(&self) -> &Histogram {
        &self.block_time_ns
    }

    fn work(&self, rng: &mut SimRng) -> AppOp {
        let j = self.params.jitter;
        let f = if j > 0.0 {
            1.0 + j * (2.0 * rng.random::<f64>() - 1.0)
        } else {
            1.0
        };
        AppOp::Compute {
            kinstr: self.params.block_kinstr * f,
        }
    }
}

impl Application for Perform3App {
    fn start_delay(&mut self, rng: &mut SimRng) -> SimDuration {
        let skew = self.params.start_skew.as_nanos();
        SimDuration::from_nanos(if skew > 0 { rng.random_range(0..skew) } else { 0 })
    }

    fn next_op(&mut self, now: SimTime, rng: &mut SimRng) -> AppOp {
        match self.phase {
            Phase::NotStarted => {
                self.phase = Phase::Working;
                self.work(rng)
            }
            Phase::Working => {
                self.phase = Phase::Reading;
                AppOp::Read {
                    bytes: self.params.block,
                }
            }
            Phase::Reading => {
                self.blocks_done += 1;
                self.block_time_ns.record((now - self.block_started).as_nanos());
                self.block_started = now;
                self.phase = Phase::Working;
                self.work(rng)
            }
        }
    }

    fn bytes_read(&self) -> u64 {
        self.blocks_done * self.params.block as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{RngStreams, StreamKind};

    fn app(jitter: f64) -> Perform3App {
        Perform3App::new(Perform3Params {
            block: 4096,
            block_kinstr: 100.0,
            jitter,
            start_skew: SimDuration::from_micros(500),
        })
    }

    #[test]
    fn test_working_then_reading_then_working_counts_a_block() {
        let mut rng = RngStreams::new(1).stream(StreamKind::Host, 1);
        let mut a = app(0.0);
        let t = |ms| SimTime::ZERO + SimDuration::from_millis(ms);
        assert_eq!(a.next_op(t(0), &mut rng), AppOp::Compute { kinstr: 100.0 });
        assert_eq!(a.next_op(t(1), &mut rng), AppOp::Read { bytes: 4096 });
        assert_eq!(a.bytes_read(), 0, "a read in progress is not yet read");
        assert_eq!(a.next_op(t(5), &mut rng), AppOp::Compute { kinstr: 100.0 });
        assert_eq!((a.blocks_done(), a.bytes_read()), (1, 4096));
        assert_eq!(a.block_times().count(), 1);
    }

    #[test]
    fn test_not_started_jittered_work_and_skew_stay_in_range() {
        let mut rng = RngStreams::new(2).stream(StreamKind::Host, 1);
        let mut a = app(0.25);
        for _ in 0..200 {
            assert!(a.start_delay(&mut rng) < SimDuration::from_micros(500));
        }
        let mut seen = (f64::MAX, f64::MIN);
        for _ in 0..400 {
            if let AppOp::Compute { kinstr } = a.next_op(SimTime::ZERO, &mut rng) {
                assert!((75.0..=125.0).contains(&kinstr), "{kinstr}");
                seen = (seen.0.min(kinstr), seen.1.max(kinstr));
            }
        }
        assert!(
            seen.0 < 80.0 && seen.1 > 120.0,
            "the jitter spans its range: {seen:?}"
        );
    }
}
