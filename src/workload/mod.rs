//! Traffic generators: each drives the layers below and measures what it gets.
//!
//! - [`saturate`]: always-backlogged stations on a bare segment (the MAC alone).

pub mod perform3;
pub mod saturate;
pub mod ttcp;
