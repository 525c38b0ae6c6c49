//! Workload kind `shared`: file services of NetBIOS LANs, ttcp transfers and groups of
//! background frame sources on one cable (`crate::workload::shared`).
//!
//! Keys (under `[workload]`, besides `kind`; ranges in [`params::workloads`]):
//! `workstations` (optional: the file service, PERFORM3 clients of the server, 0 for a
//! server with none) and `block_size` (bytes, with it), `warmup_s`, `measure_s`; `ttcp`
//! (optional): the path, relative to this file, of a `ttcp` scenario whose hosts, cards,
//! stack and `-l` the transfer uses (its own cable is not used: the cable is this
//! scenario's `[medium]`, which must be CSMA/CD at the same bit rate), or a list of such
//! paths, a transfer on two hosts of its own each; `file_services` (optional): a list of
//! paths, relative to this file, of `perform3` scenarios of one block size each, a file
//! service each (its server, workstations, hosts, cards and NOS; its cable and times are
//! not used: this scenario's are), after this scenario's own file service if it has one;
//! and `background`
//! (optional): a list of groups, each the keys of a `traffic` or a `saturate` workload
//! (with its `kind`, without `duration_s`: the groups run for the whole run). A shared run
//! has two applications or more. Its own file service's hosts, cards and NOS come from
//! this scenario's `[hosts]`, `[adapter]` and `[nos]` (usually its `hardware` include).
//!
//! Stations: each file service's server then its workstations (in order), then each
//! transfer's two ttcp hosts (in order), then each
//! background group's senders (and its sink), spaced evenly along the segment (or at
//! `medium.positions_m`, in that order).
//!
//! The linked ttcp scenario is read and validated in full by the loader before this
//! kind is validated ([`Linked`]); its errors name its own file and line.

use serde::Deserialize;

use super::error::{show, FieldError};
use super::lan::LanProfile;
use super::saturate::RawSaturate;
use super::services::linked_services;
pub use super::services::LinkedService;
use super::traffic::RawTraffic;
use super::ttcp::TtcpWorkload;
use super::Sections;
use super::{budget, params};
use crate::ether::WireConfig;
use crate::lan::source::{Offer, SourceConfig};
use crate::lan::LanConfig;
use crate::time::SimDuration;
use crate::workload::shared::{FileService, SharedConfig, SharedTtcp};

/// This kind's entry of a registered key (see [`params`]).
fn param(key: &str) -> &'static params::Param {
    params::get(Some("shared"), key)
}

/// A ttcp scenario a `shared` or `lanperf` workload names, read and validated.
#[derive(Clone, Debug)]
pub struct Linked {
    /// Its path as written in `workload.ttcp`.
    pub written: String,
    /// The key that names it: `workload.ttcp`, or `workload.ttcp[k]` in a list.
    pub key: String,
    pub ttcp: TtcpWorkload,
}

/// The paths `workload.ttcp` gives: one path, or a non-empty list of paths.
pub(super) fn link_paths(v: &toml::Value) -> Result<Vec<String>, FieldError> {
    super::services::link_list(
        v,
        "workload.ttcp",
        true,
        "expected the path of a ttcp scenario, or a list of paths (a transfer each)",
    )
}

/// `[workload]` of kind `shared`, as written (`kind` already removed).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawShared {
    pub workstations: Option<i64>,
    pub block_size: Option<i64>,
    pub ttcp: Option<toml::Value>,
    pub file_services: Option<toml::Value>,
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
    /// The linked ttcp scenarios' paths as written, a transfer each.
    pub ttcp_files: Vec<String>,
    /// The events the run is estimated to dispatch (admission's estimate): the file
    /// service's and the transfer's.
    pub estimated_events: f64,
}

fn duration(path: &str, v: f64) -> Result<SimDuration, FieldError> {
    params::param_duration(param(path), path, v)
}

impl RawShared {
    /// The file service's workstations and block size, and its sections, if the run has
    /// one (`workstations` given).
    fn file_service<'s>(&self, s: &Sections<'s>) -> Result<Option<(usize, u32, &'s LanProfile)>, FieldError> {
        let Some(ws) = self.workstations else {
            if self.block_size.is_some() {
                return Err(FieldError::invalid(
                    "workload.block_size",
                    "a block size is PERFORM3's, on the file service's workstations: give \
                     workload.workstations too",
                ));
            }
            return Ok(None);
        };
        let lan: &LanProfile = s.lan.ok_or_else(|| {
            FieldError::invalid(
                "workload.workstations",
                "a file service needs its [hosts], [adapter] and [nos] sections (usually from \
                 hardware = \"...\")",
            )
        })?;
        let (lo, hi) = param("workload.workstations").int_range();
        if !(lo..=hi).contains(&ws) {
            return Err(FieldError::range(
                "workload.workstations",
                ws,
                format!("{lo}..={hi}"),
            ));
        }
        let Some(block) = self.block_size else {
            return Err(FieldError::invalid(
                "workload.block_size",
                "the file service's workstations read blocks of this size: give it (bytes)",
            ));
        };
        let (lo, hi) = param("workload.block_size").int_range();
        if !(lo..=hi).contains(&block) {
            return Err(FieldError::range(
                "workload.block_size",
                block,
                format!("{lo}..={hi} bytes"),
            ));
        }
        super::lan::check_workstation_cards(lan, ws as usize)?;
        Ok(Some((ws as usize, block as u32, lan)))
    }

    pub fn validate(
        self,
        s: &Sections<'_>,
        warnings: &mut Vec<String>,
    ) -> Result<SharedWorkload, FieldError> {
        let own = self.file_service(s)?;
        let medium = s.medium;
        let linked = linked_transfers(self.ttcp.as_ref(), s)?;
        let services = linked_services(self.file_services.as_ref(), s, false)?;
        // every file service: its name, workstations, block size and profile
        let file_services: Vec<(String, usize, u32, &LanProfile)> = own
            .map(|(n, block, lan)| ("server".to_string(), n, block, lan))
            .into_iter()
            .chain(services.iter().filter_map(|l| {
                let c = l.perform3()?;
                Some((
                    l.name.clone(),
                    c.lan.workstations,
                    c.block_sizes[0],
                    &c.lan.profile,
                ))
            }))
            .collect();
        let apps = file_services.len() + linked.len() + self.background.len();
        if apps < 2 {
            return Err(FieldError::invalid(
                "workload.kind",
                "shared runs two applications or more on one cable: file services \
                 (workload.workstations and block_size, workload.file_services), ttcp transfers \
                 (workload.ttcp) and background groups (workload.background); one alone is its \
                 own workload (perform3, ttcp, traffic or saturate)",
            ));
        }
        let background = validate_groups(&self.background, medium, warnings)?;
        let warmup = duration("workload.warmup_s", self.warmup_s.unwrap_or(1.0))?;
        let measure = duration("workload.measure_s", self.measure_s.unwrap_or(5.0))?;
        let file_stations: usize = file_services.iter().map(|f| f.1 + 1).sum();
        let tcp_stations = 2 * linked.len();
        let source_stations: usize = background.iter().map(SourceConfig::stations).sum();
        let stations = file_stations + tcp_stations + source_stations;
        let positions = medium.positions(
            stations,
            "stations (each file service's server and workstations, each transfer's two ttcp \
             hosts, then each background group's senders and sink)",
        )?;
        let window_s = (warmup + measure).as_secs_f64();
        let mut events = 0.0;
        for &(_, n, block, lan) in &file_services {
            events += budget::perform3_events(medium, lan, n, &[block], window_s);
        }
        for l in &linked {
            events += budget::ttcp_events_for(&l.ttcp.config, window_s);
        }
        events += background_events(&background, medium, window_s);
        let mut parts = Vec::new();
        match file_services.as_slice() {
            [] => {}
            [(_, n, _, _)] => parts.push(format!("{n} workstations")),
            many => parts.push(format!(
                "{} file services of {} workstations",
                many.len(),
                many.iter()
                    .map(|f| f.1.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
        match linked.len() {
            0 => {}
            1 => parts.push("a ttcp transfer".to_string()),
            n => parts.push(format!("{n} ttcp transfers")),
        }
        if !background.is_empty() {
            parts.push(format!("{} background groups", background.len()));
        }
        budget::admit(
            "workload.measure_s",
            budget::PERFORM3_COST,
            events,
            stations,
            &format!("{} x {} s", parts.join(", "), show(window_s)),
            "shorten warmup_s/measure_s or use fewer stations",
        )?;
        let segment = medium.segment(positions);
        let file_services = file_services
            .into_iter()
            .map(|(name, n, block, lan)| FileService {
                name,
                lan: LanConfig {
                    workstations: n,
                    servers: 1,
                    segment: segment.clone(),
                    profile: lan.clone(),
                    storage: None,
                },
                block,
            })
            .collect();
        let ttcp = linked.iter().map(|l| shared_ttcp(l)).collect();
        Ok(SharedWorkload {
            config: SharedConfig {
                segment,
                file_services,
                ttcp,
                background,
                warmup,
                measure,
            },
            ttcp_files: linked.iter().map(|l| l.written.clone()).collect(),
            estimated_events: events,
        })
    }
}

/// The ttcp scenarios a workload links with `workload.ttcp` (`written`, if it names any),
/// read by the loader, their hosts checked to fit this cable.
pub(super) fn linked_transfers<'s>(
    written: Option<&toml::Value>,
    s: &Sections<'s>,
) -> Result<Vec<&'s Linked>, FieldError> {
    let Some(written) = written else {
        return Ok(Vec::new());
    };
    let paths = link_paths(written)?;
    if s.linked.len() != paths.len() {
        return Err(FieldError::invalid(
            "workload.ttcp",
            "the linked ttcp scenario was not read (a scenario with no file behind it cannot \
             link one)",
        ));
    }
    for l in s.linked {
        check_cable(l, s.medium)?;
    }
    Ok(s.linked.iter().collect())
}

/// Background groups as written, validated; errors at `workload.background[i].KEY`.
pub(super) fn validate_groups(
    groups: &[RawBackground],
    medium: &super::medium::Medium,
    warnings: &mut Vec<String>,
) -> Result<Vec<SourceConfig>, FieldError> {
    groups
        .iter()
        .enumerate()
        .map(|(i, g)| g.validate(i, medium, warnings))
        .collect()
}

/// The events background groups dispatch in `window_s` (admission's estimate).
pub(super) fn background_events(
    groups: &[SourceConfig],
    medium: &super::medium::Medium,
    window_s: f64,
) -> f64 {
    groups
        .iter()
        .map(|g| match &g.offer {
            Offer::Open {
                offered_load, sizes, ..
            } => budget::traffic_events(medium, g.senders, sizes.mean_bytes(), *offered_load, window_s),
            Offer::Backlogged { frame_bytes } => {
                budget::saturate_events(medium, g.senders, *frame_bytes, window_s)
            }
        })
        .sum()
}

/// The transfer of a linked ttcp scenario, to run beside other applications.
pub(super) fn shared_ttcp(l: &Linked) -> SharedTtcp {
    let t = &l.ttcp.config;
    SharedTtcp {
        hosts: t.hosts.clone(),
        host_names: [l.ttcp.hosts[0].0.clone(), l.ttcp.hosts[1].0.clone()],
        transmitter: t.transmitter,
        buflen: t.buflen,
    }
}

/// The linked ttcp scenario's hosts must have Ethernet cards at this cable's bit rate.
fn check_cable(linked: &Linked, medium: &super::medium::Medium) -> Result<(), FieldError> {
    let bit_ns = medium.segment(vec![0.0]).bit_ns;
    match &linked.ttcp.config.wire {
        WireConfig::Csma(c) if c.bit_ns == bit_ns => Ok(()),
        WireConfig::Csma(c) => Err(FieldError::invalid(
            linked.key.clone(),
            format!(
                "{} runs at {} Mb/s and this cable at {} Mb/s: the hosts share this \
                 cable, so their scenario must use its bit rate",
                linked.written,
                show(1000.0 / c.bit_ns as f64),
                show(1000.0 / bit_ns as f64)
            ),
        )),
        WireConfig::PointToPoint(_) => Err(FieldError::invalid(
            linked.key.clone(),
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
        for (t, file) in c.ttcp.iter().zip(&self.ttcp_files) {
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
        for (k, f) in c.file_services.iter().enumerate() {
            let of = if c.file_services.len() > 1 {
                format!(" ({})", f.name)
            } else {
                String::new()
            };
            parts.insert(
                k,
                format!(
                    "{} workstations + server{of} reading {}-byte blocks",
                    f.lan.workstations, f.block
                ),
            );
        }
        format!(
            "{}, on one cable, {} s + {} s",
            parts.join(", and "),
            c.warmup.as_secs_f64(),
            c.measure.as_secs_f64()
        )
    }
}
