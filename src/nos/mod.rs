//! The network operating system, modelled after LANtastic over AI-LANBIOS over AEX.
//!
//! - [`packet`]: NetBIOS session packets, carried in the frame tag.
//! - [`session`]: the reliable session (splitting, window, acknowledgements, retries).
//! - [`redirector`]: REDIR on a workstation: an application's read as read requests.
//! - [`server`]: the file server's network tasks and their responses.
//! - [`config`]: the LANtastic settings that bear on this traffic and their meaning.
//!
//! Everything here is a pure state machine: it never touches the engine, a CPU or an
//! adapter. The LAN model (the `lan` module, above this one) turns the work these machines ask for into CPU jobs
//! and frames.

pub mod cache;
pub mod config;
pub mod packet;
pub mod redirector;
pub mod server;
pub mod session;
