//! LANPERF's local baselines (seed 002, "Applying LANPERF"): the same test on one
//! workstation, not connected, against a RAM disk or its own hard disk, with or without
//! the redirector loaded.
//!
//! The program is the same [`LanperfApp`], driven by a small executor on one host instead
//! of the LAN: its per-block work runs on the CPU; a DOS read or write costs DOS's file
//! system work (`dos_kinstr`), the copy of the block between the program's buffer and the
//! RAM disk or DOS's buffers (the host's memcpy rate), and, on a hard disk, the disk
//! access (no cache beyond DOS's: each block goes to the disk, sequential within the file).
//! With the redirector loaded every call is first examined by it (`redirector_kinstr`),
//! which is what the seed's "redirector overhead" test measures. Nothing else runs, so
//! the time per block is the sum of these. Units: kinstr, bytes, nanoseconds.

use super::app::{LanperfApp, LanperfCosts};
use super::params::LanperfParams;
use crate::engine::{RngStreams, StreamKind};
use crate::host::{Disk, DiskProfile, HostProfile};
use crate::lan::{AppOp, Application};
use crate::time::{SimDuration, SimTime};

/// Where the local file lives.
#[derive(Clone, Debug, PartialEq)]
pub enum LocalDevice {
    RamDisk,
    HardDisk(DiskProfile),
}

/// A local baseline run.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalConfig {
    pub host: HostProfile,
    pub device: LocalDevice,
    /// DOS's file system work per read or write call, kinstr.
    pub dos_kinstr: f64,
    /// The redirector's examination of each call, kinstr, if it is loaded.
    pub redirector_kinstr: Option<f64>,
}

/// Runs LANPERF on one station locally; returns the finished tests and the number of
/// operations the executor ran (its "events").
pub fn run_local(
    cfg: &LocalConfig,
    params: &LanperfParams,
    costs: &LanperfCosts,
    seed: u64,
) -> (LanperfApp, u64) {
    let mut rng = RngStreams::new(seed).stream(StreamKind::Host, 1);
    let mut app = LanperfApp::new(params.clone(), costs.clone(), 0);
    let mut now = SimTime::ZERO + app.start_delay(&mut rng);
    let mut disk = match &cfg.device {
        LocalDevice::HardDisk(p) => Some(Disk::new(p.clone())),
        LocalDevice::RamDisk => None,
    };
    let (mut file, mut pos, mut ops) = (0u32, 0u64, 0u64);
    let call = cfg
        .host
        .instructions(cfg.dos_kinstr + cfg.redirector_kinstr.unwrap_or(0.0));
    loop {
        ops += 1;
        match app.next_op(now, &mut rng) {
            AppOp::Compute { kinstr } => now += cfg.host.instructions(kinstr),
            op @ (AppOp::Read { .. } | AppOp::Write { .. }) => {
                let (bytes, write) = match op {
                    AppOp::Write { bytes } => (bytes, true),
                    AppOp::Read { bytes } => (bytes, false),
                    _ => unreachable!("matched above"),
                };
                now += call + cfg.host.memcpy(bytes as u64);
                if let Some(d) = disk.as_mut() {
                    now = d.access(now, file, pos, bytes as u64, write);
                }
                pos += bytes as u64;
            }
            AppOp::Open { file: f } => {
                file = f;
                pos = 0;
            }
            AppOp::Seek { offset } => pos = offset,
            AppOp::Stop => break,
        }
        if now > SimTime::ZERO + SimDuration::from_secs(params.test_s as u64 * 2 + 7200) {
            break; // a guard: the tests end long before this
        }
    }
    (app, ops)
}
