//! Host computers: their CPUs and the profiles that say how fast they are.
//!
//! A host is a single CPU that everything on the node queues for: interrupt service
//! (including programmed-I/O copies to and from the adapter), the NetBIOS layer, the
//! redirector or server, and the application. Costs are given in thousands of
//! instructions and turned into time by the host's MIPS rating; copies over the ISA bus
//! are timed by the adapter's bus cycles instead (they are bus-bound, not CPU-bound).
//! [`account`] samples a CPU at clock ticks the way 4.2BSD charged user and system time.

pub mod account;
pub mod cpu;
pub mod disk;

pub use cpu::{Completion, Cost, Cpu, CpuStats, Priority};
pub use disk::{Disk, DiskProfile};

use crate::time::SimDuration;

/// How fast one kind of host runs.
#[derive(Clone, Debug, PartialEq)]
pub struct HostProfile {
    /// Descriptive name (e.g. "80486DX-50").
    pub name: String,
    /// Millions of instructions per second for the NOS's integer code.
    pub mips: f64,
    /// Memory-to-memory copy cost (REP MOVS between conventional buffers), ns per byte.
    pub memcpy_ns_per_byte: f64,
}

impl HostProfile {
    /// Time to execute `kinstr` thousand instructions.
    pub fn instructions(&self, kinstr: f64) -> SimDuration {
        SimDuration::from_nanos_f64(kinstr * 1e3 / self.mips * 1e-6 * 1e9)
    }

    /// Time to copy `bytes` in memory.
    pub fn memcpy(&self, bytes: u64) -> SimDuration {
        SimDuration::from_nanos_f64(bytes as f64 * self.memcpy_ns_per_byte)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_instruction_time_scales_with_mips() {
        let h = HostProfile {
            name: "x".into(),
            mips: 40.0,
            memcpy_ns_per_byte: 20.0,
        };
        // 40 kinstr at 40 MIPS = 1 ms
        assert_eq!(h.instructions(40.0), SimDuration::from_millis(1));
        assert_eq!(h.memcpy(1000), SimDuration::from_micros(20));
    }
}
