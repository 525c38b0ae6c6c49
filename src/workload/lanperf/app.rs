//! LANPERF's test program on one workstation, as an [`Application`].
//!
//! The station waits for the starting gun (it polls for LANPERF.GO once per
//! `poll_interval`, so it starts at a uniformly random moment of the first interval after
//! the gun, which is fired at time zero), then runs its tests in LANPERF's order, WRITE
//! then READ. Each test creates the station's own private file (empty). The READ test
//! first fills it with `f` blocks (not timed). Then the timed loop: per block the
//! program's work (INT 21h, the assembly loop, the BIOS clock read: `block_kinstr`), then
//! one DOS read or write of `b` bytes at the file pointer; after `f` blocks the pointer
//! goes back to 0. After each block the BIOS tick count (18.2 Hz, from a phase of its
//! own) is checked, and the test ends at the first check at least `test_ticks` ticks
//! after the one at its start, so a test lasts a whole number of ticks plus part of the
//! block that crossed the line. Each written block differs from the one before (LANPERF
//! changes the data); the model carries no data, so nothing can skip an unchanged block.
//!
//! Phases: `NotStarted -> [Filling ->] Working -> Io -> Working -> ... -> Done`.
//! Units: bytes, blocks, BIOS ticks, nanoseconds.

use rand::RngExt;

use super::params::{LanperfParams, Test};
use crate::engine::SimRng;
use crate::lan::{AppOp, Application};
use crate::time::{SimDuration, SimTime};

/// The 8254 timer's input clock, Hz (the BIOS tick is 65536 of its periods).
pub const PIT_HZ: u64 = 1_193_182;
/// PIT periods per BIOS tick (INT 08h, 18.2065 Hz).
pub const PIT_PER_TICK: u64 = 65_536;

/// BIOS ticks in `secs` seconds, rounded up: the test ends at the first check at least
/// this many ticks after its start.
pub fn ticks_in(secs: u32) -> u64 {
    (secs as u64 * PIT_HZ).div_ceil(PIT_PER_TICK)
}

/// Duration of `ticks` BIOS ticks, seconds.
pub fn ticks_secs(ticks: u64) -> f64 {
    ticks as f64 * PIT_PER_TICK as f64 / PIT_HZ as f64
}

/// How the program runs on the modelled hardware (not LANPERF options).
#[derive(Clone, Debug, PartialEq)]
pub struct LanperfCosts {
    /// The program's and DOS's work per block, thousands of instructions.
    pub block_kinstr: f64,
    /// Interval at which a waiting station looks for LANPERF.GO.
    pub poll_interval: SimDuration,
}

/// One test as a station ran it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TestRun {
    pub test: Test,
    /// Blocks read or written in the timed loop.
    pub operations: u64,
    /// BIOS ticks from the start check to the end check.
    pub ticks: u64,
    pub start: SimTime,
    pub end: SimTime,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    NotStarted,
    /// Writing block `i` of the READ test's file (not timed).
    Filling {
        i: u32,
    },
    /// The per-block work of the timed loop is running.
    Working,
    /// The timed block's read or write is in progress.
    Io,
    Done,
}

/// LANPERF on one workstation.
#[derive(Debug)]
pub struct LanperfApp {
    params: LanperfParams,
    costs: LanperfCosts,
    /// File numbers are `file_base + test index`.
    file_base: u32,
    phase: Phase,
    /// Index into `params.tests` of the test in progress.
    test: usize,
    /// Position of the BIOS tick counter's phase, ns (0..one tick).
    tick_phase_ns: u64,
    start_tick: u64,
    started: SimTime,
    operations: u64,
    /// Block index of the file pointer.
    at_block: u32,
    blocks_read: u64,
    blocks_written: u64,
    runs: Vec<TestRun>,
    /// Local operations (open, seek) to hand out before the next one.
    pending: Option<AppOp>,
}

impl LanperfApp {
    /// `file_base`: the first of the station's file numbers (one per test).
    pub fn new(params: LanperfParams, costs: LanperfCosts, file_base: u32) -> Self {
        LanperfApp {
            params,
            costs,
            file_base,
            phase: Phase::NotStarted,
            test: 0,
            tick_phase_ns: 0,
            start_tick: 0,
            started: SimTime::ZERO,
            operations: 0,
            at_block: 0,
            blocks_read: 0,
            blocks_written: 0,
            runs: Vec::new(),
            pending: None,
        }
    }

    /// The tests finished so far.
    pub fn runs(&self) -> &[TestRun] {
        &self.runs
    }

    /// The test whose timed loop is running, if any.
    pub fn timing(&self) -> Option<Test> {
        match self.phase {
            Phase::Working | Phase::Io => Some(self.params.tests[self.test]),
            _ => None,
        }
    }

    pub fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// The BIOS tick count at `now`.
    fn ticks(&self, now: SimTime) -> u64 {
        let ns = (now.as_nanos() + self.tick_phase_ns) as u128;
        (ns * PIT_HZ as u128 / (PIT_PER_TICK as u128 * 1_000_000_000)) as u64
    }

    fn work(&self) -> AppOp {
        AppOp::Compute {
            kinstr: self.costs.block_kinstr,
        }
    }

    /// Creates the test's file; the READ test then fills it, the WRITE test starts timing.
    fn begin_test(&mut self, now: SimTime) -> AppOp {
        self.at_block = 0;
        let file = self.file_base + self.test as u32;
        let first = match self.params.tests[self.test] {
            Test::Read => {
                self.phase = Phase::Filling { i: 0 };
                AppOp::Write {
                    bytes: self.params.block,
                }
            }
            Test::Write => self.start_timing(now),
        };
        self.pending = Some(first);
        AppOp::Open { file }
    }

    fn start_timing(&mut self, now: SimTime) -> AppOp {
        self.phase = Phase::Working;
        self.start_tick = self.ticks(now);
        self.started = now;
        self.operations = 0;
        self.at_block = 0;
        self.work()
    }

    /// The file pointer moved past a block: back to 0 at the end of the file.
    fn advance(&mut self) -> Option<AppOp> {
        self.at_block += 1;
        if self.at_block == self.params.file_blocks {
            self.at_block = 0;
            return Some(AppOp::Seek { offset: 0 });
        }
        None
    }

    fn io(&self) -> AppOp {
        let bytes = self.params.block;
        match self.params.tests[self.test] {
            Test::Read => AppOp::Read { bytes },
            Test::Write => AppOp::Write { bytes },
        }
    }
}

impl Application for LanperfApp {
    fn start_delay(&mut self, rng: &mut SimRng) -> SimDuration {
        let tick_ns = PIT_PER_TICK * 1_000_000_000 / PIT_HZ;
        self.tick_phase_ns = rng.random_range(0..tick_ns);
        let poll = self.costs.poll_interval.as_nanos();
        SimDuration::from_nanos(if poll > 0 { rng.random_range(0..poll) } else { 0 })
    }

    fn next_op(&mut self, now: SimTime, _rng: &mut SimRng) -> AppOp {
        if let Some(op) = self.pending.take() {
            return op;
        }
        match self.phase {
            Phase::NotStarted => self.begin_test(now),
            Phase::Filling { i } => {
                self.blocks_written += 1;
                if i + 1 == self.params.file_blocks {
                    // the file is full; the pointer goes back to 0 and timing starts
                    self.pending = Some(self.start_timing(now));
                    AppOp::Seek { offset: 0 }
                } else {
                    self.phase = Phase::Filling { i: i + 1 };
                    AppOp::Write {
                        bytes: self.params.block,
                    }
                }
            }
            Phase::Working => {
                self.phase = Phase::Io;
                self.io()
            }
            Phase::Io => {
                self.operations += 1;
                match self.params.tests[self.test] {
                    Test::Read => self.blocks_read += 1,
                    Test::Write => self.blocks_written += 1,
                }
                let seek = self.advance();
                let ticks = self.ticks(now) - self.start_tick;
                let next = if ticks >= ticks_in(self.params.test_s) {
                    self.runs.push(TestRun {
                        test: self.params.tests[self.test],
                        operations: self.operations,
                        ticks,
                        start: self.started,
                        end: now,
                    });
                    self.test += 1;
                    if self.test < self.params.tests.len() {
                        self.begin_test(now)
                    } else {
                        self.phase = Phase::Done;
                        AppOp::Stop
                    }
                } else {
                    self.phase = Phase::Working;
                    self.work()
                };
                match seek {
                    // an ended test's pointer does not matter
                    Some(s) if self.phase == Phase::Working => {
                        self.pending = Some(next);
                        s
                    }
                    _ => next,
                }
            }
            Phase::Done => AppOp::Stop,
        }
    }

    fn bytes_read(&self) -> u64 {
        self.blocks_read * self.params.block as u64
    }

    fn bytes_written(&self) -> u64 {
        self.blocks_written * self.params.block as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{RngStreams, StreamKind};
    use crate::workload::lanperf::params::Sharing;

    fn app(tests: Vec<Test>, file_blocks: u32) -> LanperfApp {
        let params = LanperfParams {
            test_s: 10,
            block: 512,
            file_blocks,
            tests,
            sharing: Sharing::Compatibility,
        };
        let costs = LanperfCosts {
            block_kinstr: 10.0,
            poll_interval: SimDuration::from_millis(55),
        };
        LanperfApp::new(params, costs, 4)
    }

    #[test]
    fn test_ticks_ten_seconds_is_183_ticks() {
        assert_eq!(ticks_in(10), 183); // 182.065 rounded up
        assert_eq!(ticks_in(60), 1093); // 1092.39
        assert!((ticks_secs(183) - 10.0513).abs() < 1e-4);
    }

    #[test]
    fn test_read_fills_then_times_and_wraps_at_end_of_file() {
        let mut rng = RngStreams::new(1).stream(StreamKind::Host, 1);
        let mut a = app(vec![Test::Read], 2);
        a.start_delay(&mut rng);
        let t0 = SimTime::ZERO;
        let mut ops = Vec::new();
        for _ in 0..10 {
            ops.push(a.next_op(t0, &mut rng));
        }
        let w = AppOp::Write { bytes: 512 };
        let r = AppOp::Read { bytes: 512 };
        let c = AppOp::Compute { kinstr: 10.0 };
        let s = AppOp::Seek { offset: 0 };
        assert_eq!(
            ops,
            vec![AppOp::Open { file: 4 }, w, w, s, c, r, c, r, s, c],
            "fill two blocks untimed, then read, wrapping after two"
        );
        assert_eq!((a.bytes_written(), a.bytes_read()), (1024, 1024));
        assert_eq!(a.timing(), Some(Test::Read));
    }

    #[test]
    fn test_timed_loop_ends_at_first_check_past_the_length() {
        let mut rng = RngStreams::new(2).stream(StreamKind::Host, 1);
        let mut a = app(vec![Test::Write, Test::Read], 64);
        a.start_delay(&mut rng);
        // a toy executor: work takes 2 ms, a write 5 ms, open and seek nothing
        let mut now = SimTime::ZERO;
        let mut writes = 0u64;
        let mut opened = Vec::new();
        for _ in 0..100_000 {
            match a.next_op(now, &mut rng) {
                AppOp::Compute { .. } => now += SimDuration::from_millis(2),
                AppOp::Write { .. } => {
                    writes += 1;
                    now += SimDuration::from_millis(5);
                }
                AppOp::Open { file } => {
                    opened.push(file);
                    if file == 5 {
                        break;
                    }
                }
                AppOp::Seek { offset } => assert_eq!(offset, 0),
                op => panic!("unexpected {op:?}"),
            }
        }
        assert_eq!(opened, vec![4, 5], "WRITE's file, then READ's");
        let run = a.runs()[0];
        assert_eq!(run.test, Test::Write);
        assert_eq!(run.operations, writes);
        assert_eq!(run.ticks, 183, "a 7 ms block cannot overshoot a 55 ms tick");
        let secs = (run.end - run.start).as_secs_f64();
        assert!((10.0 - 0.06..=10.06).contains(&secs), "{secs}");
    }
}
