//! The validated description of a LAN: its size and cable, and the profile of its hosts,
//! adapters and NOS settings.

use crate::adapter::AdapterProfile;
use crate::ether::SegmentConfig;
use crate::host::{DiskProfile, HostProfile};
use crate::nos::cache::CacheConfig;
use crate::nos::config::{NosCosts, RedirConfig, ServerConfig, SessionConfig};

/// The hosts, adapters and NOS settings of a LAN, whatever its size and cable (what the
/// `[hosts]`, `[adapter]` and `[nos]` sections of a scenario describe).
#[derive(Clone, Debug, PartialEq)]
pub struct LanProfile {
    pub server_host: HostProfile,
    pub workstation_host: HostProfile,
    pub server_adapter: AdapterProfile,
    /// The workstations' card (every workstation's, unless `workstation_adapters` says
    /// otherwise).
    pub workstation_adapter: AdapterProfile,
    /// Each workstation's own card, in node order (workstation 1 first), when they differ
    /// (`adapter.workstation.bus_widths`); its length is then the number of workstations.
    pub workstation_adapters: Option<Vec<AdapterProfile>>,
    pub server_session: SessionConfig,
    pub workstation_session: SessionConfig,
    pub redir: RedirConfig,
    pub server: ServerConfig,
    pub costs: NosCosts,
}

/// The server's disk and LANCACHE.
#[derive(Clone, Debug, PartialEq)]
pub struct StorageConfig {
    pub disk: DiskProfile,
    pub cache: CacheConfig,
    /// Whether the server may delay writes to the files the workstations open (the
    /// cache's policy allows it and the sharing mode keeps other writers out: the
    /// workload decides, see `crate::workload::lanperf`).
    pub delay_writes: bool,
}

/// Everything needed to build a [`super::Lan`]. Station 0 of `segment` is the (first)
/// server, stations 1..=workstations the workstations, and stations workstations+1.. the
/// further servers, if any ([`LanConfig::server_of`] says which serves whom).
#[derive(Clone, Debug, PartialEq)]
pub struct LanConfig {
    pub workstations: usize,
    /// File servers (at least 1), each with the same profile, disk and cache.
    pub servers: usize,
    pub segment: SegmentConfig,
    pub profile: LanProfile,
    /// The server's disk and cache; `None`: every file is in the cache already and no
    /// disk is modelled (PERFORM3's setting: its files are read, never written).
    pub storage: Option<StorageConfig>,
}

impl LanProfile {
    /// The card of workstation `w` (1-based, its node number on a one-server LAN).
    pub fn workstation_adapter_of(&self, w: usize) -> &AdapterProfile {
        self.workstation_adapters
            .as_ref()
            .and_then(|v| v.get(w.wrapping_sub(1)))
            .unwrap_or(&self.workstation_adapter)
    }
}

impl LanConfig {
    /// The node numbers of the servers: 0, then after the workstations.
    pub fn server_nodes(&self) -> Vec<usize> {
        std::iter::once(0)
            .chain((1..self.servers).map(|k| self.workstations + k))
            .collect()
    }

    /// The server of workstation `w` (1..=workstations): the servers in turn.
    pub fn server_of(&self, w: usize) -> usize {
        let k = (w - 1) % self.servers.max(1);
        if k == 0 {
            0
        } else {
            self.workstations + k
        }
    }

    /// Nodes on the segment: workstations and servers.
    pub fn nodes(&self) -> usize {
        self.workstations + self.servers.max(1)
    }
}
