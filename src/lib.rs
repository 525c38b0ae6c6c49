//! # ethersim
//!
//! A discrete-event simulator of a shared 10 Mb/s Ethernet LAN of the early 1990s.
//!
//! The layers, bottom to top. A module uses only modules listed before it (the binary's
//! `cli` uses them all); each behaviour has one home:
//!
//! - [`time`]: simulated time as integer nanoseconds (`SimTime`, `SimDuration`).
//! - [`engine`]: the event queue ordered by (time, sequence), the clock, and randomness:
//!   every seed the simulator derives ([`engine::seed`]) and the per-component streams.
//!   Models never read a clock or the environment.
//! - [`stats`]: histograms and fairness shared by the components.
//! - [`ether`]: the cable and CSMA/CD: medium (propagation, carrier sense), MAC, backoff,
//!   the segment's transitions and its statistics; frame sizes ([`ether::frame_bytes`]).
//! - [`adapter`]: the network card and its driver: copy engine, transmit slots, receive
//!   ring; each transmit-side step returns an [`adapter::TxStep`].
//! - [`host`]: a host's CPU (interrupt and task queues, preemption) and its speed; a
//!   server's disk.
//! - [`nos`]: the network operating system's state machines: NetBIOS packets and
//!   sessions, the redirector (reads and writes), the file server, LANCACHE, and the
//!   LANtastic settings.
//! - [`tcp`]: TCP/IP as pure state machines beside the NOS: segments and their frame
//!   size, a stack's profile (MSS, ACK policy, window rules, timers), and one connection
//!   (socket buffers, windows, delayed ACKs, retransmission on timeout).
//! - [`lan`]: the one composition layer. It wires each node (CPU, adapter, sessions,
//!   redirector or server, application) to the segment, turning each state machine's step
//!   into CPU jobs, frames and timers; it runs any [`lan::Application`]. It also audits
//!   the conservation of frames, packets and bytes ([`lan::Lan::audit`]).
//! - [`workload`]: the applications and their measurement harnesses: `saturate` (the MAC
//!   alone), `perform3` (PERFORM3's per-block program, and the warm-up/window
//!   harness that turns counters into throughput and a bottleneck) and `lanperf` (PC
//!   Week's LANPERF: timed READ and WRITE tests, LANPERF's formulas and layout).
//! - [`scenario`]: the TOML scenario files, parsed in two tiers (raw serde structs, then a
//!   validated model whose errors name file, line and key).
//! - [`run`]: the runner of one scenario and of a sweep, and what a run produces
//!   ([`run::output`]: named columns, rows and a headline, the shape every exporter reads).
//! - [`report`]: formatting only: exporters (table, CSV, JSON), the explanation, sweep
//!   tables, charts with an embedded font, the space-time drawing, the pcap listing, and
//!   atomic file writes. It reads results; it never runs or watches a model.
//! - [`repro`]: the published figures and tables the simulator reproduces, one folder each
//!   (runner, analysis, report) behind the [`repro::Reproduction`] trait, registered once
//!   in [`repro::REGISTRY`]; a reproduction reports the mean over the seeds of
//!   [`engine::seed::report_seeds`].
//! - [`calibrate`]: refits constants of a hardware file to measurements (a runner over
//!   [`run`]), with sensitivities, seed noise and cross-validation.
//! - [`study`]: multi-run commands (a sweep, a reproduction, a cross-validation) as
//!   indexed runs that separate processes can do, each written to its own file with the
//!   study's fingerprint, and the merge that writes what the one-process command writes.
//! - `cli` (in the binary, `src/cli/`): argument parsing, one file per subcommand, and the
//!   only I/O.
//!
//! The live-run instruments (pcap capture, event log, space-time recorder) are observers
//! of the LAN's one observation stream and live beside it, in [`lan::instruments`].

pub mod adapter;
pub mod calibrate;
pub mod engine;
pub mod ether;
pub mod host;
pub mod lan;
pub mod nos;
pub mod report;
pub mod repro;
pub mod run;
pub mod scenario;
pub mod stats;
pub mod study;
pub mod tcp;
pub mod time;
pub mod workload;
