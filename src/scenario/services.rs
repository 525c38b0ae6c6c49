//! File services a `shared` or `lanperf` workload links with `workload.file_services` (a
//! list of paths; or the file services of a LAN of nodes, each lowered to a scenario of its
//! own): each a perform3 scenario of one block size, or (beside LANPERF only) a lanperf
//! scenario, read and validated by the loader (`super::link`), then checked here to fit
//! the cable it joins. Each runs on stations of its own on that cable; its own cable and
//! times are not used.

use super::error::{show, FieldError};
use super::Sections;
use crate::ether::SegmentConfig;
use crate::lan::LanConfig;
use crate::workload::lanperf::{LanperfConfig, LanperfService};
use crate::workload::perform3::Perform3Config;
use crate::workload::shared::FileService;

/// The workload of a linked file service, as its scenario validated it.
#[derive(Clone, Debug)]
pub enum ServiceWorkload {
    Perform3(Box<Perform3Config>),
    Lanperf(Box<LanperfConfig>),
}

/// A file service a workload links, read and validated.
#[derive(Clone, Debug)]
pub struct LinkedService {
    /// Its path as written (or the nodes it runs on).
    pub written: String,
    /// The key that names it: `workload.file_services[k]` (or the application's).
    pub key: String,
    /// What reports call it: the scenario's name (or the server node's).
    pub name: String,
    pub workload: ServiceWorkload,
}

impl LinkedService {
    /// Its PERFORM3 workload, if it is one.
    pub fn perform3(&self) -> Option<&Perform3Config> {
        match &self.workload {
            ServiceWorkload::Perform3(w) => Some(w),
            ServiceWorkload::Lanperf(_) => None,
        }
    }

    /// Its LANPERF workload, if it is one.
    pub fn lanperf(&self) -> Option<&LanperfConfig> {
        match &self.workload {
            ServiceWorkload::Lanperf(w) => Some(w),
            ServiceWorkload::Perform3(_) => None,
        }
    }

    /// Its LAN as its own scenario configured it.
    pub fn lan(&self) -> &LanConfig {
        match &self.workload {
            ServiceWorkload::Perform3(c) => &c.lan,
            ServiceWorkload::Lanperf(c) => &c.lan,
        }
    }

    /// As a PERFORM3 service on `segment` (the cable it shares), if it is one.
    pub fn file_service(&self, segment: &SegmentConfig) -> Option<FileService> {
        let c = self.perform3()?;
        Some(FileService {
            name: self.name.clone(),
            lan: LanConfig {
                segment: segment.clone(),
                ..c.lan.clone()
            },
            block: c.block_sizes[0],
        })
    }

    /// As a further LANPERF service on `segment`, if it is one.
    pub fn lanperf_service(&self, segment: &SegmentConfig) -> Option<LanperfService> {
        let c = self.lanperf()?;
        Some(LanperfService {
            name: self.name.clone(),
            lan: LanConfig {
                segment: segment.clone(),
                ..c.lan.clone()
            },
            params: c.params.clone(),
            costs: c.costs.clone(),
        })
    }
}

/// The paths `workload.file_services` gives: a non-empty list of paths.
pub(super) fn service_paths(v: &toml::Value) -> Result<Vec<String>, FieldError> {
    link_list(
        v,
        "workload.file_services",
        false,
        "expected a list of paths of perform3 scenarios (a file service each)",
    )
}

/// The paths a key that links scenarios (`key`) gives: a non-empty list of paths, or, if
/// `single`, one path alone; otherwise an error at `key` saying what was `expected`.
pub(super) fn link_list(
    v: &toml::Value,
    key: &str,
    single: bool,
    expected: &str,
) -> Result<Vec<String>, FieldError> {
    let bad = || FieldError::invalid(key, expected);
    match v {
        toml::Value::String(p) if single => Ok(vec![p.clone()]),
        toml::Value::Array(a) if !a.is_empty() => a
            .iter()
            .map(|p| p.as_str().map(str::to_string).ok_or_else(bad))
            .collect(),
        _ => Err(bad()),
    }
}

/// The file services a workload links with `workload.file_services` (`written`, if it
/// names any), read by the loader, each checked to fit this cable: a perform3 service
/// reads one block size from its cache; a lanperf service (only where `lanperf` allows
/// one: beside LANPERF) runs on the network with nothing of its own beside it.
pub(super) fn linked_services<'s>(
    written: Option<&toml::Value>,
    s: &Sections<'s>,
    lanperf: bool,
) -> Result<Vec<&'s LinkedService>, FieldError> {
    let Some(written) = written else {
        return Ok(Vec::new());
    };
    let paths = service_paths(written)?;
    if s.services.len() != paths.len() {
        return Err(FieldError::invalid(
            "workload.file_services",
            "the linked perform3 scenarios were not read (a scenario with no file behind it \
             cannot link one)",
        ));
    }
    let bit_ns = s.medium.segment(vec![0.0]).bit_ns;
    for l in s.services {
        let refuse = |why: String| Err(FieldError::invalid(l.key.clone(), format!("{} {why}", l.written)));
        let lan = l.lan();
        if lan.segment.bit_ns != bit_ns {
            return refuse(format!(
                "runs at {} Mb/s and this cable at {} Mb/s: its nodes share this cable, so their \
                 scenario must use its bit rate",
                show(1000.0 / lan.segment.bit_ns as f64),
                show(1000.0 / bit_ns as f64)
            ));
        }
        match &l.workload {
            ServiceWorkload::Perform3(c) => {
                if c.block_sizes.len() != 1 {
                    return refuse(format!(
                        "reads {} block sizes; beside other applications a file service reads one \
                         (block_sizes = [B])",
                        c.block_sizes.len()
                    ));
                }
                if c.lan.storage.is_some() {
                    return refuse(
                        "models its server's disk; beside other applications a file service serves \
                         PERFORM3's files from its cache"
                            .into(),
                    );
                }
            }
            ServiceWorkload::Lanperf(_) if !lanperf => {
                return refuse(
                    "is a LANPERF service: LANPERF's harness times its tests, so a LAN with one \
                     runs as the lanperf workload; link this from a lanperf scenario's \
                     file_services, or place the lanperf application on nodes"
                        .into(),
                );
            }
            ServiceWorkload::Lanperf(c) => {
                if c.local.is_some()
                    || !c.ttcp.is_empty()
                    || !c.background.is_empty()
                    || !c.file_services.is_empty()
                    || !c.lanperf_services.is_empty()
                {
                    return refuse(
                        "runs a local baseline or has applications of its own beside it; a linked \
                         LANPERF service is a server and its stations on the network, with the \
                         other applications given here"
                            .into(),
                    );
                }
            }
        }
    }
    Ok(s.services.iter().collect())
}
