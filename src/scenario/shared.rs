//! Workload kind `shared`: the file service of a NetBIOS LAN and a ttcp transfer on one
//! cable (`crate::workload::shared`).
//!
//! Keys (under `[workload]`, besides `kind`; ranges in [`params::workloads`]):
//! `workstations` (PERFORM3 clients of the server, 0 for the ttcp transfer alone),
//! `block_size` (bytes), `warmup_s`, `measure_s`, and `ttcp`: the path, relative to this
//! file, of a `ttcp` scenario whose hosts, cards, stack and `-l` the transfer uses (its
//! own cable is not used: the cable is this scenario's `[medium]`, which must be
//! CSMA/CD at the same bit rate). The file service's hosts, cards and NOS come from this
//! scenario's `[hosts]`, `[adapter]` and `[nos]` (usually its `hardware` include).
//!
//! Stations: the server first, then the workstations, then the two ttcp hosts, spaced
//! evenly along the segment (or at `medium.positions_m`, in that order).
//!
//! The linked ttcp scenario is read and validated in full by the loader before this
//! kind is validated ([`Linked`]); its errors name its own file and line.

use serde::Deserialize;

use super::error::{show, FieldError};
use super::lan::LanProfile;
use super::ttcp::TtcpWorkload;
use super::Sections;
use super::{budget, params};
use crate::ether::WireConfig;
use crate::lan::LanConfig;
use crate::time::SimDuration;
use crate::workload::shared::SharedConfig;

/// This kind's entry of a registered key (see [`params`]).
fn param(key: &str) -> &'static params::Param {
    params::get(Some("shared"), key)
}

/// The ttcp scenario a `shared` workload names, read and validated.
#[derive(Clone, Debug)]
pub struct Linked {
    /// Its path as written in `workload.ttcp`.
    pub written: String,
    pub ttcp: TtcpWorkload,
}

/// `[workload]` of kind `shared`, as written (`kind` already removed).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawShared {
    pub workstations: i64,
    pub block_size: i64,
    pub ttcp: String,
    pub warmup_s: Option<f64>,
    pub measure_s: Option<f64>,
}

/// A validated shared run.
#[derive(Clone, Debug)]
pub struct SharedWorkload {
    pub config: SharedConfig,
    /// The linked ttcp scenario's path as written.
    pub ttcp_file: String,
    /// The events the run is estimated to dispatch (admission's estimate): the file
    /// service's and the transfer's.
    pub estimated_events: f64,
}

fn duration(path: &str, v: f64) -> Result<SimDuration, FieldError> {
    params::param_duration(param(path), path, v)
}

impl RawShared {
    pub fn validate(self, s: &Sections<'_>) -> Result<SharedWorkload, FieldError> {
        let lan: &LanProfile = s.lan.ok_or_else(|| {
            FieldError::invalid(
                "workload.kind",
                "shared needs the file service's [hosts], [adapter] and [nos] sections (usually \
                 from hardware = \"...\")",
            )
        })?;
        let (lo, hi) = param("workload.workstations").int_range();
        if !(lo..=hi).contains(&self.workstations) {
            return Err(FieldError::range(
                "workload.workstations",
                self.workstations,
                format!("{lo}..={hi}"),
            ));
        }
        let n = self.workstations as usize;
        let (lo, hi) = param("workload.block_size").int_range();
        if !(lo..=hi).contains(&self.block_size) {
            return Err(FieldError::range(
                "workload.block_size",
                self.block_size,
                format!("{lo}..={hi} bytes"),
            ));
        }
        let linked = s.linked.ok_or_else(|| {
            FieldError::invalid(
                "workload.ttcp",
                "the linked ttcp scenario was not read (a scenario with no file behind it \
                 cannot link one)",
            )
        })?;
        let t = &linked.ttcp.config;
        let medium = s.medium;
        match &t.wire {
            WireConfig::Csma(c) if c.bit_ns == medium.segment(vec![0.0]).bit_ns => {}
            WireConfig::Csma(c) => {
                return Err(FieldError::invalid(
                    "workload.ttcp",
                    format!(
                        "{} runs at {} Mb/s and this cable at {} Mb/s: the hosts share this \
                         cable, so their scenario must use its bit rate",
                        linked.written,
                        show(1000.0 / c.bit_ns as f64),
                        show(1000.0 / medium.segment(vec![0.0]).bit_ns as f64)
                    ),
                ))
            }
            WireConfig::PointToPoint(_) => {
                return Err(FieldError::invalid(
                    "workload.ttcp",
                    format!(
                        "{} joins its hosts by a point-to-point link; a ttcp transfer beside \
                         the file service needs hosts with Ethernet cards (a scenario whose \
                         medium is the CSMA/CD segment)",
                        linked.written
                    ),
                ))
            }
        }
        let warmup = duration("workload.warmup_s", self.warmup_s.unwrap_or(1.0))?;
        let measure = duration("workload.measure_s", self.measure_s.unwrap_or(5.0))?;
        let stations = n + 3;
        let positions = medium.positions(
            stations,
            "stations (server, workstations, then the two ttcp hosts)",
        )?;
        super::lan::check_workstation_cards(lan, n)?;
        let window_s = (warmup + measure).as_secs_f64();
        let events = budget::perform3_events(medium, lan, n, &[self.block_size as u32], window_s)
            + budget::ttcp_events_for(t, window_s);
        budget::admit(
            "workload.measure_s",
            budget::PERFORM3_COST,
            events,
            stations,
            &format!("{n} workstations and a ttcp transfer x {} s", show(window_s)),
            "shorten warmup_s/measure_s or use fewer workstations",
        )?;
        let lan_cfg = LanConfig {
            workstations: n,
            servers: 1,
            segment: medium.segment(positions),
            profile: lan.clone(),
            storage: None,
        };
        Ok(SharedWorkload {
            config: SharedConfig {
                lan: lan_cfg,
                block: self.block_size as u32,
                hosts: t.hosts.clone(),
                host_names: [linked.ttcp.hosts[0].0.clone(), linked.ttcp.hosts[1].0.clone()],
                transmitter: t.transmitter,
                buflen: t.buflen,
                warmup,
                measure,
            },
            ttcp_file: linked.written.clone(),
            estimated_events: events,
        })
    }
}

impl SharedWorkload {
    /// One line for `ethersim validate`.
    pub fn summary(&self) -> String {
        let c = &self.config;
        format!(
            "{} workstations + server reading {}-byte blocks, and ttcp from {} to {} ({}), on one \
             cable, {} s + {} s",
            c.lan.workstations,
            c.block,
            c.host_names[c.transmitter],
            c.host_names[1 - c.transmitter],
            self.ttcp_file,
            c.warmup.as_secs_f64(),
            c.measure.as_secs_f64()
        )
    }
}
