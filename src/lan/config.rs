//! The validated description of a LAN: its size and cable, and the profile of its hosts,
//! adapters and NOS settings.

use crate::adapter::AdapterProfile;
use crate::ether::SegmentConfig;
use crate::host::HostProfile;
use crate::nos::config::{NosCosts, RedirConfig, ServerConfig, SessionConfig};

/// The hosts, adapters and NOS settings of a LAN, whatever its size and cable (what the
/// `[hosts]`, `[adapter]` and `[nos]` sections of a scenario describe).
#[derive(Clone, Debug, PartialEq)]
pub struct LanProfile {
    pub server_host: HostProfile,
    pub workstation_host: HostProfile,
    pub server_adapter: AdapterProfile,
    pub workstation_adapter: AdapterProfile,
    pub server_session: SessionConfig,
    pub workstation_session: SessionConfig,
    pub redir: RedirConfig,
    pub server: ServerConfig,
    pub costs: NosCosts,
}

/// Everything needed to build a [`super::Lan`]. Station 0 of `segment` is the server,
/// stations 1..=workstations the workstations.
#[derive(Clone, Debug, PartialEq)]
pub struct LanConfig {
    pub workstations: usize,
    pub segment: SegmentConfig,
    pub profile: LanProfile,
}
