//! Workload kind `shared`: the file service of a NetBIOS LAN, a ttcp transfer and groups
//! of background frame sources on one cable (`crate::workload::shared`).
//!
//! Keys (under `[workload]`, besides `kind`; ranges in [`params::workloads`]):
//! `workstations` (PERFORM3 clients of the server, 0 for none), `block_size` (bytes),
//! `warmup_s`, `measure_s`; `ttcp` (optional): the path, relative to this file, of a
//! `ttcp` scenario whose hosts, cards, stack and `-l` the transfer uses (its own cable is
//! not used: the cable is this scenario's `[medium]`, which must be CSMA/CD at the same
//! bit rate); and `background` (optional): a list of groups, each the keys of a `traffic`
//! or a `saturate` workload (with its `kind`, without `duration_s`: the groups run for the
//! whole run). A shared run has a ttcp transfer, a background group, or both. The file
//! service's hosts, cards and NOS come from this scenario's `[hosts]`, `[adapter]` and
//! `[nos]` (usually its `hardware` include).
//!
//! Stations: the server first, then the workstations, then the two ttcp hosts, then each
//! background group's senders (and its sink), spaced evenly along the segment (or at
//! `medium.positions_m`, in that order).
//!
//! The linked ttcp scenario is read and validated in full by the loader before this
//! kind is validated ([`Linked`]); its errors name its own file and line.

use serde::Deserialize;

use super::error::{show, FieldError};
use super::lan::LanProfile;
use super::saturate::RawSaturate;
use super::traffic::RawTraffic;
use super::ttcp::TtcpWorkload;
use super::Sections;
use super::{budget, params};
use crate::ether::WireConfig;
use crate::lan::source::{Offer, SourceConfig};
use crate::lan::LanConfig;
use crate::time::SimDuration;
use crate::workload::shared::{SharedConfig, SharedTtcp};

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
    pub ttcp: Option<String>,
    #[serde(default)]
    pub background: Vec<RawBackground>,
    pub warmup_s: Option<f64>,
    pub measure_s: Option<f64>,
}

/// A group of background frame sources, as written: the keys of a traffic or a saturate
/// workload.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RawBackground {
    Traffic(RawTraffic),
    Saturate(RawSaturate),
}

impl RawBackground {
    /// The group, validated; errors at `workload.background[i].KEY`.
    fn validate(
        &self,
        i: usize,
        medium: &super::medium::Medium,
        warnings: &mut Vec<String>,
    ) -> Result<SourceConfig, FieldError> {
        let here = format!("workload.background[{i}]");
        let rebase = |mut e: FieldError| {
            e.path = match e.path.strip_prefix("workload.") {
                Some(rest) => format!("{here}.{rest}"),
                None => here.clone(),
            };
            e
        };
        let duration = match self {
            RawBackground::Traffic(t) => t.duration_s,
            RawBackground::Saturate(t) => t.duration_s,
        };
        if duration.is_some() {
            return Err(FieldError::invalid(
                format!("{here}.duration_s"),
                "a background group runs for the whole shared run: its length is the \
                 workload's warmup_s + measure_s",
            ));
        }
        match self {
            RawBackground::Traffic(t) => Ok(t.group(medium, warnings).map_err(rebase)?.sources()),
            RawBackground::Saturate(t) => {
                let (senders, frame_bytes, destination) = t.group(medium, warnings).map_err(rebase)?;
                Ok(SourceConfig {
                    senders,
                    destination,
                    offer: Offer::Backlogged { frame_bytes },
                })
            }
        }
    }
}

/// A validated shared run.
#[derive(Clone, Debug)]
pub struct SharedWorkload {
    pub config: SharedConfig,
    /// The linked ttcp scenario's path as written (none without a transfer).
    pub ttcp_file: Option<String>,
    /// The events the run is estimated to dispatch (admission's estimate): the file
    /// service's and the transfer's.
    pub estimated_events: f64,
}

fn duration(path: &str, v: f64) -> Result<SimDuration, FieldError> {
    params::param_duration(param(path), path, v)
}

impl RawShared {
    pub fn validate(
        self,
        s: &Sections<'_>,
        warnings: &mut Vec<String>,
    ) -> Result<SharedWorkload, FieldError> {
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
        let medium = s.medium;
        let linked = match &self.ttcp {
            None => None,
            Some(_) => Some(s.linked.ok_or_else(|| {
                FieldError::invalid(
                    "workload.ttcp",
                    "the linked ttcp scenario was not read (a scenario with no file behind it \
                     cannot link one)",
                )
            })?),
        };
        if let Some(linked) = linked {
            check_cable(linked, medium)?;
        }
        if linked.is_none() && self.background.is_empty() {
            return Err(FieldError::invalid(
                "workload.kind",
                "shared runs the file service beside a ttcp transfer (workload.ttcp), background \
                 groups (workload.background) or both; with neither it is the perform3 workload",
            ));
        }
        let background = self
            .background
            .iter()
            .enumerate()
            .map(|(i, g)| g.validate(i, medium, warnings))
            .collect::<Result<Vec<_>, _>>()?;
        let warmup = duration("workload.warmup_s", self.warmup_s.unwrap_or(1.0))?;
        let measure = duration("workload.measure_s", self.measure_s.unwrap_or(5.0))?;
        let tcp_stations = if linked.is_some() { 2 } else { 0 };
        let source_stations: usize = background.iter().map(SourceConfig::stations).sum();
        let stations = n + 1 + tcp_stations + source_stations;
        let positions = medium.positions(
            stations,
            "stations (server, workstations, the two ttcp hosts, then each background group's \
             senders and sink)",
        )?;
        super::lan::check_workstation_cards(lan, n)?;
        let window_s = (warmup + measure).as_secs_f64();
        let mut events = budget::perform3_events(medium, lan, n, &[self.block_size as u32], window_s);
        if let Some(l) = linked {
            events += budget::ttcp_events_for(&l.ttcp.config, window_s);
        }
        for g in &background {
            events += match &g.offer {
                Offer::Open {
                    offered_load, sizes, ..
                } => budget::traffic_events(medium, g.senders, sizes.mean_bytes(), *offered_load, window_s),
                Offer::Backlogged { frame_bytes } => {
                    budget::saturate_events(medium, g.senders, *frame_bytes, window_s)
                }
            };
        }
        let parts = match (linked.is_some(), background.len()) {
            (true, 0) => "a ttcp transfer".to_string(),
            (false, g) => format!("{g} background groups"),
            (true, g) => format!("a ttcp transfer and {g} background groups"),
        };
        budget::admit(
            "workload.measure_s",
            budget::PERFORM3_COST,
            events,
            stations,
            &format!("{n} workstations, {parts} x {} s", show(window_s)),
            "shorten warmup_s/measure_s or use fewer workstations",
        )?;
        let lan_cfg = LanConfig {
            workstations: n,
            servers: 1,
            segment: medium.segment(positions),
            profile: lan.clone(),
            storage: None,
        };
        let ttcp = linked.map(|l| {
            let t = &l.ttcp.config;
            SharedTtcp {
                hosts: t.hosts.clone(),
                host_names: [l.ttcp.hosts[0].0.clone(), l.ttcp.hosts[1].0.clone()],
                transmitter: t.transmitter,
                buflen: t.buflen,
            }
        });
        Ok(SharedWorkload {
            config: SharedConfig {
                lan: lan_cfg,
                block: self.block_size as u32,
                ttcp,
                background,
                warmup,
                measure,
            },
            ttcp_file: linked.map(|l| l.written.clone()),
            estimated_events: events,
        })
    }
}

/// The linked ttcp scenario's hosts must have Ethernet cards at this cable's bit rate.
fn check_cable(linked: &Linked, medium: &super::medium::Medium) -> Result<(), FieldError> {
    let bit_ns = medium.segment(vec![0.0]).bit_ns;
    match &linked.ttcp.config.wire {
        WireConfig::Csma(c) if c.bit_ns == bit_ns => Ok(()),
        WireConfig::Csma(c) => Err(FieldError::invalid(
            "workload.ttcp",
            format!(
                "{} runs at {} Mb/s and this cable at {} Mb/s: the hosts share this \
                 cable, so their scenario must use its bit rate",
                linked.written,
                show(1000.0 / c.bit_ns as f64),
                show(1000.0 / bit_ns as f64)
            ),
        )),
        WireConfig::PointToPoint(_) => Err(FieldError::invalid(
            "workload.ttcp",
            format!(
                "{} joins its hosts by a point-to-point link; a ttcp transfer beside \
                 the file service needs hosts with Ethernet cards (a scenario whose \
                 medium is the CSMA/CD segment)",
                linked.written
            ),
        )),
    }
}

impl SharedWorkload {
    /// One line for `ethersim validate`.
    pub fn summary(&self) -> String {
        let c = &self.config;
        let mut parts = Vec::new();
        if let (Some(t), Some(file)) = (&c.ttcp, &self.ttcp_file) {
            parts.push(format!(
                "ttcp from {} to {} ({file})",
                t.host_names[t.transmitter],
                t.host_names[1 - t.transmitter]
            ));
        }
        for g in &c.background {
            parts.push(match &g.offer {
                Offer::Open {
                    offered_load, sizes, ..
                } => format!(
                    "{} background stations offering {} of the wire (mean frame {:.0} bytes)",
                    g.senders,
                    show(*offered_load),
                    sizes.mean_bytes()
                ),
                Offer::Backlogged { frame_bytes } => {
                    format!("{} backlogged stations of {frame_bytes}-byte frames", g.senders)
                }
            });
        }
        format!(
            "{} workstations + server reading {}-byte blocks, and {}, on one cable, {} s + {} s",
            c.lan.workstations,
            c.block,
            parts.join(", and "),
            c.warmup.as_secs_f64(),
            c.measure.as_secs_f64()
        )
    }
}
