//! # ethersim
//!
//! A discrete-event simulator of a shared 10 Mb/s Ethernet LAN of the early 1990s.
//!
//! The layers, bottom to top (each only calls the ones below it):
//!
//! - [`time`]: simulated time as integer nanoseconds.
//! - [`engine`]: the event queue ordered by (time, sequence), the clock and the seeded
//!   random streams. Models never read a clock or the environment.
//! - [`ether`]: the cable and CSMA/CD MACs (bus, mac, backoff).
//! - [`stats`]: histograms and fairness shared by the components.
//! - [`workload`]: traffic generators that drive the layers below
//!   (`saturate`: the MAC alone).
//! - [`scenario`]: the TOML scenario files, parsed in two tiers (raw serde structs, then a
//!   validated model whose errors name file, line and key).
//! - `cli` (in the binary): argument parsing and output; the only place that does I/O.

pub mod adapter;
pub mod bulletin;
pub mod engine;
pub mod ether;
pub mod host;
pub mod lan;
pub mod nos;
pub mod report;
pub mod results;
pub mod run;
pub mod scenario;
pub mod stats;
pub mod time;
pub mod workload;
