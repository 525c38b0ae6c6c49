//! ttcp over TCP/IP between two hosts: a transmitter writing `-n` buffers of `-l` bytes
//! (source mode `-s`: a pattern, no file) and a receiver reading until end of file (sink
//! mode), through sockets of `-b` bytes, on an otherwise idle segment.
//!
//! What each side reports is what ttcp prints: bytes, real seconds and KB/s (ttcp's KB is
//! 1024 bytes; the transmitter's clock stops when its last write returns, the
//! receiver's when a read returns 0 at the FIN), and its CPU time. Without a clock tick
//! (the 1995 hosts) user time is the application's own work and system time everything
//! the host's CPU does for the transfer (interrupt service charged to the process, as
//! Linux 1.2's tick sampling mostly does). With a clock tick (4.2BSD) both are the ticks
//! the process accounting charged ([`crate::host::account`]): interrupts over the idle
//! loop are nobody's. The
//! wire's view comes from the segment: frames, collisions and deferrals. What an idle
//! wire allows at most is [`ceiling_kib_per_s`].
//!
//! Units: bytes, seconds.

mod ceiling;
mod summary;

pub use ceiling::ceiling_kib_per_s;
pub use summary::{summarise, TtcpSummary, TTCP_COLUMNS};

use crate::engine::Engine;
use crate::ether::{EtherReport, WireConfig};
use crate::lan::tcp::{SockCall, SocketApp, TcpHost, TcpLan, TcpNodeReport};
use crate::lan::LanEvent;
use crate::lan::TcpNet;
use crate::time::{SimDuration, SimTime};

/// Which end of the transfer a ttcp process is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// `ttcp -t -s`: writes `nbuf` buffers of `buflen` bytes, then closes.
    Transmit { buflen: u32, nbuf: u32 },
    /// `ttcp -r -s`: reads `buflen` at a time until end of file.
    Receive { buflen: u32 },
}

/// One ttcp process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ttcp {
    role: Role,
    calls: u32,
    bytes: u64,
    closed: bool,
    eof: bool,
    /// When its timer stopped (last write returned / read returned 0).
    stop: Option<SimTime>,
}

impl Ttcp {
    pub fn new(role: Role) -> Self {
        Ttcp {
            role,
            calls: 0,
            bytes: 0,
            closed: false,
            eof: false,
            stop: None,
        }
    }
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
    pub fn stop(&self) -> Option<SimTime> {
        self.stop
    }
}

impl SocketApp for Ttcp {
    fn next_call(&mut self, _now: SimTime) -> Option<SockCall> {
        match self.role {
            Role::Transmit { buflen, nbuf } => {
                if self.calls < nbuf {
                    Some(SockCall::Write { bytes: buflen })
                } else if !self.closed {
                    self.closed = true;
                    Some(SockCall::Close)
                } else {
                    None
                }
            }
            Role::Receive { buflen } => (!self.eof).then_some(SockCall::Read { max: buflen }),
        }
    }

    fn returned(&mut self, now: SimTime, call: SockCall, bytes: u64) {
        match (self.role, call) {
            (Role::Transmit { nbuf, .. }, SockCall::Write { .. }) => {
                self.calls += 1;
                self.bytes += bytes;
                if self.calls == nbuf {
                    self.stop = Some(now);
                }
            }
            (Role::Receive { .. }, SockCall::Read { .. }) => {
                if bytes == 0 {
                    self.eof = true;
                    self.stop = Some(now);
                } else {
                    self.calls += 1;
                    self.bytes += bytes;
                }
            }
            (_, SockCall::Close) => {}
            (role, call) => unreachable!("{call:?} returned to a ttcp {role:?}"),
        }
    }
}

/// A ttcp measurement: which host transmits, the options and the hardware.
#[derive(Clone, Debug, PartialEq)]
pub struct TtcpConfig {
    /// The medium between the hosts: the Ethernet segment or a point-to-point link.
    pub wire: WireConfig,
    /// Host 0 and host 1; `transmitter` is the index of the one running `ttcp -t`.
    pub hosts: [TcpHost; 2],
    pub transmitter: usize,
    /// `-l`, `-n`.
    pub buflen: u32,
    pub nbuf: u32,
    /// Longest simulated time before the run is declared stuck.
    pub limit: SimDuration,
}

/// What one ttcp process prints.
#[derive(Clone, Debug, PartialEq)]
pub struct TtcpSide {
    pub bytes: u64,
    pub real_s: f64,
    /// ttcp's KB/s: bytes / 1024 / real seconds.
    pub kbytes_per_s: f64,
    pub user_s: f64,
    pub sys_s: f64,
    pub node: TcpNodeReport,
}

/// Both sides and the wire.
#[derive(Clone, Debug)]
pub struct TtcpReport {
    pub transmitter: TtcpSide,
    pub receiver: TtcpSide,
    pub ether: EtherReport,
    pub frames_lost: u64,
    pub events: u64,
    /// The largest window the receiver offered the transmitter, bytes, and the
    /// receiver's socket receive buffer it came from.
    pub max_window: u64,
    pub rcvbuf: u32,
    pub mss: u32,
}

/// Why a run did not finish.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TtcpError {
    #[error(
        "the transfer did not finish within {limit_s} simulated seconds ({bytes} of {total} bytes read): {why}"
    )]
    Stuck {
        limit_s: f64,
        bytes: u64,
        total: u64,
        /// What the connection's state says held it up.
        why: String,
    },
    #[error("the receiver read {read} bytes but {written} were written")]
    Conservation { read: u64, written: u64 },
    #[error(transparent)]
    Audit(crate::lan::AuditError),
}

fn side(lan: &TcpLan<Ttcp>, n: usize) -> TtcpSide {
    let app = lan.app(n);
    let real_s = app.stop().map_or(0.0, |t| t.as_secs_f64());
    let node = lan.node_report(n);
    let bytes = app.bytes();
    TtcpSide {
        bytes,
        real_s,
        kbytes_per_s: if real_s > 0.0 {
            bytes as f64 / 1024.0 / real_s
        } else {
            0.0
        },
        user_s: match node.clock_tick {
            Some(t) => node.ticks.user as f64 * t.as_secs_f64(),
            None => node.cpu.work_ns as f64 * 1e-9,
        },
        sys_s: match node.clock_tick {
            Some(t) => node.ticks.system as f64 * t.as_secs_f64(),
            None => (node.cpu.busy_ns - node.cpu.work_ns) as f64 * 1e-9,
        },
        node,
    }
}

/// What held up a transfer that ran out of time, from the connection's state: a window
/// the receiver kept shut, frames the medium lost, or (neither) a time limit too short
/// for a transfer still moving.
fn why_stuck(lan: &TcpLan<Ttcp>, tx: usize, bytes: u64) -> String {
    let c = lan.conn(tx);
    let s = c.stats();
    if c.peer_window() == 0 && (s.window_probes > 0 || bytes == 0) {
        format!(
            "the receiver's window stayed shut ({} zero-window probes sent)",
            s.window_probes
        )
    } else if lan.frames_lost > 0 {
        format!(
            "the medium lost {} frames ({} retransmission timeouts)",
            lan.frames_lost, s.retransmit_timeouts
        )
    } else {
        "the transfer was still moving when the time limit (ttcp's limit_s) ran out".into()
    }
}

/// Runs one ttcp transfer (both timers start at time 0: the connection is established).
pub fn run(cfg: &TtcpConfig, seed: u64) -> Result<TtcpReport, TtcpError> {
    run_observed(cfg, seed, None)
}

/// As [`run`], handing every observation to `obs` if given.
pub fn run_observed(
    cfg: &TtcpConfig,
    seed: u64,
    mut obs: Option<&mut dyn crate::lan::observe::Observer>,
) -> Result<TtcpReport, TtcpError> {
    use crate::lan::observe::Observed;
    let mut engine: Engine<LanEvent> = Engine::new(seed);
    let tx = cfg.transmitter;
    let mut apps = [
        Ttcp::new(Role::Receive { buflen: cfg.buflen }),
        Ttcp::new(Role::Receive { buflen: cfg.buflen }),
    ];
    apps[tx] = Ttcp::new(Role::Transmit {
        buflen: cfg.buflen,
        nbuf: cfg.nbuf,
    });
    let mut net = TcpNet::tcp_only(&cfg.wire, cfg.hosts.clone(), apps, &mut engine);
    let limit = SimTime::ZERO + cfg.limit;
    if let Some(o) = crate::lan::observe::reborrow(&mut obs) {
        net.start_observing();
        net.flush_observations(o);
    }
    while !net.hosts().finished() {
        let Some(ev) = engine.pop_until(limit) else {
            let lan = net.hosts();
            let bytes = lan.app(1 - tx).bytes();
            return Err(TtcpError::Stuck {
                limit_s: cfg.limit.as_secs_f64(),
                bytes,
                total: cfg.buflen as u64 * cfg.nbuf as u64,
                why: why_stuck(lan, tx, bytes),
            });
        };
        crate::engine::Model::handle(&mut net, ev, &mut engine);
        if let Some(o) = crate::lan::observe::reborrow(&mut obs) {
            net.flush_observations(o);
        }
        // the byte-conservation audit after every event in checked builds (CI's tests)
        if cfg!(debug_assertions) {
            net.hosts().audit(engine.now()).map_err(TtcpError::Audit)?;
        }
    }
    let lan = net.hosts();
    lan.audit(engine.now()).map_err(TtcpError::Audit)?;
    let (written, read) = (lan.app(tx).bytes(), lan.app(1 - tx).bytes());
    if written != read || lan.conn(1 - tx).stats().bytes_read != read {
        return Err(TtcpError::Conservation { read, written });
    }
    Ok(TtcpReport {
        transmitter: side(lan, tx),
        receiver: side(lan, 1 - tx),
        ether: lan.ether(engine.now()),
        frames_lost: lan.frames_lost,
        events: engine.events_dispatched(),
        max_window: lan.conn(tx).max_peer_window(),
        rcvbuf: lan.conn(1 - tx).rcvbuf(),
        mss: lan.conn(tx).mss(),
    })
}

#[cfg(test)]
mod tests;
