//! The interface between an application on a workstation and the node that runs it.
//!
//! An application is a sequence of operations: compute on the host's CPU, or read from
//! or write to its file on the server through the redirector, until it stops. The LAN runs each operation (a CPU job
//! at task level, or the redirector's requests, the frames and the server's work) and asks
//! the application for the next one when it completes. Applications live in
//! `crate::workload` (PERFORM3's per-block loop, for one); the LAN knows only this trait.
//!
//! An application draws its randomness from the node's host stream, which the LAN passes
//! in, so its draws are reproducible and do not depend on other nodes.

use crate::engine::SimRng;
use crate::time::{SimDuration, SimTime};

/// One operation of an application.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AppOp {
    /// Run `kinstr` thousand instructions on the host's CPU (task level).
    Compute { kinstr: f64 },
    /// Read `bytes` of the application's file through the redirector.
    Read { bytes: u32 },
    /// Write `bytes` to the application's file through the redirector.
    Write { bytes: u32 },
    /// Create (empty) and open file number `file` (numbers are the LAN's, one per file);
    /// reads and writes go to it from offset 0. Handled by the redirector and the server
    /// at once: the model does not time DOS's open and create.
    Open { file: u32 },
    /// Move the file pointer to `offset` (a DOS LSEEK: local to the redirector, the next
    /// request carries the new offset).
    Seek { offset: u64 },
    /// The application has finished: it asks for nothing more.
    Stop,
}

/// An application running on a workstation.
pub trait Application {
    /// How long after time zero the application starts (called once, as the LAN is built).
    fn start_delay(&mut self, rng: &mut SimRng) -> SimDuration;
    /// The next operation: at the start, and each time the previous one completed (`now`).
    fn next_op(&mut self, now: SimTime, rng: &mut SimRng) -> AppOp;
    /// File data of the reads completed so far, bytes (for the LAN's conservation audit).
    fn bytes_read(&self) -> u64;
    /// File data of the writes completed so far, bytes (for the audit; most applications
    /// only read).
    fn bytes_written(&self) -> u64 {
        0
    }
}
