//! Traffic generators: each drives the layers below and measures what it gets.
//!
//! - [`saturate`]: always-backlogged stations on a bare segment (the MAC alone).
//! - [`perform3`]: the Artisoft bulletin's synchronized read test.
//! - [`lanperf`]: PC Week's LANPERF 1.1, timed READ and WRITE tests.
//! - [`shared`]: several applications on one cable (the file service, a ttcp transfer,
//!   background groups).
//! - [`background`]: what background groups offered and carried, for any run with them.
//! - [`traffic`]: open-loop stations offering a load of mixed frame sizes (the MAC alone).

pub mod background;
pub mod lanperf;
pub mod perform3;
pub mod saturate;
pub mod shared;
pub mod traffic;
pub mod ttcp;
