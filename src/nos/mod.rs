//! The network operating system, modelled after LANtastic over AI-LANBIOS over AEX.
//!
//! - [`packet`]: NetBIOS session packets, carried in the frame tag.
//! - [`session`]: the reliable session (splitting, window, acknowledgements, retries).
//! - [`config`]: the LANtastic settings that bear on this traffic and their meaning.
//!
//! The redirector and the file server are driven by the LAN model (`crate::lan`), which
//! owns the CPU jobs their work becomes.

pub mod config;
pub mod packet;
pub mod session;
