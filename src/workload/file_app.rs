//! The program on a workstation of a LAN whose file services run different programs
//! (LANPERF's service beside PERFORM3's): one application type for every file service of
//! the LAN, each workstation running one of the programs. The LAN asks it for operations
//! as it asks the program itself; the harnesses read each program's own state through
//! [`FileApp::lanperf`] and [`FileApp::perform3`].

use super::lanperf::app::LanperfApp;
use super::perform3::app::Perform3App;
use crate::engine::SimRng;
use crate::lan::{AppOp, Application};
use crate::time::{SimDuration, SimTime};

/// A workstation's program: LANPERF or PERFORM3.
#[derive(Debug)]
pub enum FileApp {
    Lanperf(LanperfApp),
    Perform3(Perform3App),
}

impl FileApp {
    /// The LANPERF program, if this workstation runs it.
    pub fn lanperf(&self) -> Option<&LanperfApp> {
        match self {
            FileApp::Lanperf(a) => Some(a),
            FileApp::Perform3(_) => None,
        }
    }

    /// The PERFORM3 program, if this workstation runs it.
    pub fn perform3(&self) -> Option<&Perform3App> {
        match self {
            FileApp::Perform3(a) => Some(a),
            FileApp::Lanperf(_) => None,
        }
    }
}

impl Application for FileApp {
    fn start_delay(&mut self, rng: &mut SimRng) -> SimDuration {
        match self {
            FileApp::Lanperf(a) => a.start_delay(rng),
            FileApp::Perform3(a) => a.start_delay(rng),
        }
    }

    fn next_op(&mut self, now: SimTime, rng: &mut SimRng) -> AppOp {
        match self {
            FileApp::Lanperf(a) => a.next_op(now, rng),
            FileApp::Perform3(a) => a.next_op(now, rng),
        }
    }

    fn bytes_read(&self) -> u64 {
        match self {
            FileApp::Lanperf(a) => a.bytes_read(),
            FileApp::Perform3(a) => a.bytes_read(),
        }
    }

    fn bytes_written(&self) -> u64 {
        match self {
            FileApp::Lanperf(a) => a.bytes_written(),
            FileApp::Perform3(a) => a.bytes_written(),
        }
    }
}
