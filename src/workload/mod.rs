//! Traffic generators: each drives the layers below and measures what it gets.
//!
//! - [`saturate`]: always-backlogged stations on a bare segment (the MAC alone).
//! - [`perform3`]: the Artisoft bulletin's synchronized read test.
//! - [`lanperf`]: PC Week's LANPERF 1.1, timed READ and WRITE tests.
//! - [`shared`]: the file service and a ttcp transfer on one cable.
//! - [`traffic`]: open-loop stations offering a load of mixed frame sizes (the MAC alone).

pub mod lanperf;
pub mod perform3;
pub mod saturate;
pub mod shared;
pub mod traffic;
pub mod ttcp;
