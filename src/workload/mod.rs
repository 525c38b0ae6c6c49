//! Traffic generators: each drives the layers below and measures what it gets.
//!
//! - [`saturate`]: always-backlogged stations on a bare segment (the MAC alone).
//! - [`perform3`]: the Artisoft bulletin's synchronized read test.
//! - [`lanperf`]: PC Week's LANPERF 1.1, timed READ and WRITE tests.
//! - [`shared`]: several applications on one cable (file services, ttcp transfers,
//!   background groups).
//! - [`background`]: what background groups offered and carried, for any run with them.
//! - [`file_app`]: a workstation's program on a LAN whose file services run different
//!   programs (LANPERF beside PERFORM3).
//! - [`traffic`]: open-loop stations offering a load of mixed frame sizes (the MAC alone).

pub mod background;
pub mod file_app;
pub mod lanperf;
pub mod perform3;
pub mod saturate;
pub mod shared;
pub mod traffic;
pub mod ttcp;
