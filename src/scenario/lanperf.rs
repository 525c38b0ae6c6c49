//! Workload kind `lanperf`: PC Week's LANPERF 1.1 on a LAN.
//!
//! Keys (under `[workload]`, besides `kind`): `stations` (workstations, 1..=1023),
//! `servers` (1..=8, default 1: the workstations are assigned to the servers in turn,
//! the seed's "maximum LAN throughput" experiment; each server has the disk and cache
//! below and the server's `[hosts]`, `[adapter]` and `[nos]` settings); the
//! LANPERF options either as keys, `test_s` (t, 10..=65535 s), `block` (b, 1..=65535
//! bytes), `file_blocks` (f, 1..=65535), `tests` (`["write", "read"]`, either or both) and
//! `sharing` (`"compatibility"`, `"deny read"`, `"deny write"`, `"deny read/write"`,
//! `"deny none"`), or as LANPERF's own command line in `options` (`"t30 b64 f10 r w
//! drw"`), not both; an option not given keeps its `x` default (t60 b512 f64 r w dc).
//! Both ways are checked by [`LanperfParams::check`], so they fail with the same
//! message. Model constants: `block_kinstr` (the program's and DOS's work per block) and
//! `poll_ms` (how often a waiting station looks for LANPERF.GO). The server's disk is
//! `[workload.disk]` (`avg_seek_ms`, `track_to_track_ms`, `rpm`, `media_mbit_s`,
//! `controller_ms`, `capacity_mb`) and its LANCACHE `[workload.cache]` (`size_kb`,
//! `block_bytes`, `read_ahead_bytes`, `write_policy` = `"write-through"` or `"delayed"`,
//! `flush_s`, and the NOS rule `delay_shared_writes`: whether writes to a file opened in
//! a mode that lets others write (deny read, deny none) may be delayed too). Omitted keys
//! take the defaults below. `[workload.local]` (`device` = `"ram-disk"` or `"hard-disk"`,
//! `redirector` = true/false, `dos_kinstr`, `redirector_kinstr`) runs the seed's local
//! baseline instead, on one workstation with no network. The stations' files must fit on the disk (checked here,
//! before anything runs). It needs the `[hosts]`, `[adapter]` and `[nos]` sections.

use serde::Deserialize;

use super::error::{show, FieldError};
use super::lan::LanProfile;
use super::Sections;
use super::{budget, params};
use crate::host::DiskProfile;
use crate::lan::source::SourceConfig;
use crate::lan::{LanConfig, StorageConfig};
use crate::nos::cache::{CacheConfig, WritePolicy};
use crate::time::SimDuration;
use crate::workload::lanperf::local::{LocalConfig, LocalDevice};
use crate::workload::lanperf::{LanperfConfig, LanperfCosts, LanperfParams, OptionError, Sharing, Test};

/// This kind's entry of a registered key (see [`params`]).
fn param(key: &str) -> &'static params::Param {
    params::get(Some("lanperf"), key)
}

/// `[workload]` of kind `lanperf`, as written (`kind` already removed).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLanperf {
    pub stations: i64,
    pub servers: Option<i64>,
    pub options: Option<String>,
    pub test_s: Option<i64>,
    pub block: Option<i64>,
    pub file_blocks: Option<i64>,
    pub tests: Option<Vec<String>>,
    pub sharing: Option<String>,
    pub block_kinstr: Option<f64>,
    pub poll_ms: Option<f64>,
    pub disk: Option<RawDisk>,
    pub cache: Option<RawCache>,
    pub local: Option<RawLocal>,
    /// ttcp scenarios whose transfers run beside the file service (as in `shared`): one
    /// path or a list.
    pub ttcp: Option<toml::Value>,
    /// perform3 scenarios whose file services run beside LANPERF's (as in `shared`).
    pub file_services: Option<toml::Value>,
    /// Groups of background frame sources beside the file service (as in `shared`).
    #[serde(default)]
    pub background: Vec<super::shared::RawBackground>,
}

/// `[workload.local]`: a local baseline instead of the LAN.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLocal {
    /// `"ram-disk"` or `"hard-disk"` (the `[workload.disk]` drive, no cache).
    pub device: String,
    /// Is the redirector loaded?
    pub redirector: bool,
    /// DOS's file system work per call, kinstr (default 5, assumed).
    pub dos_kinstr: Option<f64>,
    /// The redirector's examination of a local call, kinstr (default: the hardware's
    /// `nos.costs.redir_request_kinstr`).
    pub redirector_kinstr: Option<f64>,
}

/// `[workload.disk]`. Defaults: a Seagate ST3144A (IDE, 1992; REFERENCE-lanperf.md).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDisk {
    pub avg_seek_ms: Option<f64>,
    pub track_to_track_ms: Option<f64>,
    pub rpm: Option<i64>,
    pub media_mbit_s: Option<f64>,
    pub controller_ms: Option<f64>,
    pub capacity_mb: Option<f64>,
}

/// `[workload.cache]`. Defaults are assumptions (LANCACHE's are unknown).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCache {
    pub size_kb: Option<f64>,
    pub block_bytes: Option<i64>,
    pub read_ahead_bytes: Option<i64>,
    pub write_policy: Option<String>,
    pub flush_s: Option<f64>,
    pub delay_shared_writes: Option<bool>,
}

/// A finite number within the range of registered key `path`.
fn num(path: &str, v: f64) -> Result<f64, FieldError> {
    let (lo, hi) = param(path).real_range();
    if v.is_finite() && (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(FieldError::range(
            path,
            show(v),
            format!("{}..={}", show(lo), show(hi)),
        ))
    }
}

/// An integer within the range of registered key `path`.
fn int(path: &str, v: i64) -> Result<i64, FieldError> {
    let (lo, hi) = param(path).int_range();
    if (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(FieldError::range(path, v, format!("{lo}..={hi}")))
    }
}

impl RawDisk {
    fn validate(&self) -> Result<DiskProfile, FieldError> {
        let ms = |path: &str, v: Option<f64>, d: f64| -> Result<SimDuration, FieldError> {
            Ok(SimDuration::from_nanos_f64(num(path, v.unwrap_or(d))? * 1e6))
        };
        Ok(DiskProfile {
            avg_seek: ms("workload.disk.avg_seek_ms", self.avg_seek_ms, 16.0)?,
            track_to_track: ms("workload.disk.track_to_track_ms", self.track_to_track_ms, 4.0)?,
            rpm: int("workload.disk.rpm", self.rpm.unwrap_or(3211))? as u32,
            media_bytes_per_s: num("workload.disk.media_mbit_s", self.media_mbit_s.unwrap_or(15.0))? * 1e6
                / 8.0,
            controller: ms("workload.disk.controller_ms", self.controller_ms, 1.0)?,
            capacity_bytes: (num("workload.disk.capacity_mb", self.capacity_mb.unwrap_or(130.0))? * 1e6)
                as u64,
        })
    }
}

impl RawCache {
    fn validate(&self) -> Result<(CacheConfig, bool), FieldError> {
        let policies = param("workload.cache.write_policy").choices();
        let policy = match self.write_policy.as_deref().unwrap_or("write-through") {
            "write-through" => WritePolicy::WriteThrough,
            "delayed" => WritePolicy::Delayed {
                flush_every: SimDuration::from_nanos_f64(
                    num("workload.cache.flush_s", self.flush_s.unwrap_or(3.3))? * 1e9,
                ),
            },
            other => {
                return Err(FieldError::invalid(
                    "workload.cache.write_policy",
                    format!(
                        "{:?} is not a write policy; use {}",
                        super::error::clip(other, 40),
                        quoted_or(policies)
                    ),
                ))
            }
        };
        Ok((
            CacheConfig {
                size_bytes: (num("workload.cache.size_kb", self.size_kb.unwrap_or(1024.0))? * 1024.0) as u64,
                block_bytes: int("workload.cache.block_bytes", self.block_bytes.unwrap_or(4096))? as u32,
                read_ahead_bytes: int(
                    "workload.cache.read_ahead_bytes",
                    self.read_ahead_bytes.unwrap_or(4096),
                )? as u32,
                policy,
            },
            self.delay_shared_writes.unwrap_or(false),
        ))
    }
}

/// `names` quoted, the last after "or": `"a", "b" or "c"`.
fn quoted_or(names: &[&str]) -> String {
    let q: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    match q.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => q.join(""),
    }
}

/// A validated LANPERF run.
#[derive(Clone, Debug)]
pub struct LanperfWorkload {
    pub config: LanperfConfig,
}

/// The key an option error is about, for the structured form.
fn key_of(e: &OptionError) -> &'static str {
    match e {
        OptionError::Range { letter: 't', .. } => "workload.test_s",
        OptionError::Range { letter: 'b', .. } => "workload.block",
        OptionError::Range { letter: 'f', .. } => "workload.file_blocks",
        _ => "workload.tests",
    }
}

/// An integer key into `u32` range for [`LanperfParams::check`] to judge (values beyond
/// `u32` are out of every LANPERF range anyway).
fn clamp(v: i64) -> u32 {
    v.clamp(0, u32::MAX as i64) as u32
}

impl RawLanperf {
    fn params(&self) -> Result<LanperfParams, FieldError> {
        let structured = self.test_s.is_some()
            || self.block.is_some()
            || self.file_blocks.is_some()
            || self.tests.is_some()
            || self.sharing.is_some();
        if let Some(opts) = &self.options {
            if structured {
                return Err(FieldError::invalid(
                    "workload.options",
                    "give LANPERF's options either as `options` or as the keys test_s, block, file_blocks, tests, sharing, not both",
                ));
            }
            return LanperfParams::parse_options(opts)
                .map_err(|e| FieldError::invalid("workload.options", e.to_string()));
        }
        let d = LanperfParams::default();
        let mut p = LanperfParams {
            test_s: self.test_s.map_or(d.test_s, clamp),
            block: self.block.map_or(d.block, clamp),
            file_blocks: self.file_blocks.map_or(d.file_blocks, clamp),
            tests: d.tests.clone(),
            sharing: d.sharing,
        };
        if let Some(tests) = &self.tests {
            let mut want = Vec::new();
            for (i, t) in tests.iter().enumerate() {
                match t.to_ascii_lowercase().as_str() {
                    "read" | "r" => want.push(Test::Read),
                    "write" | "w" => want.push(Test::Write),
                    _ => {
                        return Err(FieldError::invalid(
                            format!("workload.tests[{i}]"),
                            format!(
                                "{:?} is not a LANPERF test; use \"read\" and/or \"write\"",
                                super::error::clip(t, 40)
                            ),
                        ))
                    }
                }
            }
            p.tests = [Test::Write, Test::Read]
                .into_iter()
                .filter(|t| want.contains(t))
                .collect();
        }
        if let Some(s) = &self.sharing {
            p.sharing = Sharing::parse(s).ok_or_else(|| {
                FieldError::invalid(
                    "workload.sharing",
                    format!(
                        "{:?} is not a sharing mode; use one of {}",
                        super::error::clip(s, 40),
                        Sharing::ALL.map(|m| format!("{:?}", m.1)).join(", ")
                    ),
                )
            })?;
        }
        // values beyond u32 are reported as given
        for (key, v, letter) in [
            ("workload.test_s", self.test_s, 't'),
            ("workload.block", self.block, 'b'),
            ("workload.file_blocks", self.file_blocks, 'f'),
        ] {
            if let Some(v) = v {
                if v < 0 || v > u32::MAX as i64 {
                    let (what, range) = match letter {
                        't' => ("test length (s)", crate::workload::lanperf::params::TEST_S),
                        'b' => (
                            "block size (bytes)",
                            crate::workload::lanperf::params::BLOCK_BYTES,
                        ),
                        _ => (
                            "file size (blocks)",
                            crate::workload::lanperf::params::FILE_BLOCKS,
                        ),
                    };
                    return Err(FieldError::invalid(
                        key,
                        format!(
                            "{what} {v} is out of range {}..={} (LANPERF option {letter}#)",
                            range.0, range.1
                        ),
                    ));
                }
            }
        }
        p.check()
            .map_err(|e| FieldError::invalid(key_of(&e), e.to_string()))?;
        Ok(p)
    }

    /// The validated workload; a setting that another makes meaningless is a warning
    /// pushed on `warnings`.
    pub fn validate(
        self,
        s: &Sections<'_>,
        warnings: &mut Vec<String>,
    ) -> Result<LanperfWorkload, FieldError> {
        let lan: &LanProfile = s.lan.ok_or_else(|| {
            FieldError::invalid(
                "workload.kind",
                "lanperf needs the [hosts], [adapter] and [nos] sections (usually from hardware = \"...\")",
            )
        })?;
        let (lo, max_stations) = param("workload.stations").int_range();
        if !(lo..=max_stations).contains(&self.stations) {
            return Err(FieldError::range(
                "workload.stations",
                self.stations,
                format!("{lo}..={max_stations}"),
            ));
        }
        let n = self.stations as usize;
        let servers = int("workload.servers", self.servers.unwrap_or(1))? as usize;
        if (n + servers) as i64 > max_stations + 1 {
            return Err(FieldError::range(
                "workload.stations",
                self.stations,
                format!(
                    "{lo}..={} with {servers} servers",
                    max_stations + 1 - servers as i64
                ),
            ));
        }
        let params = self.params()?;
        let block_kinstr = num("workload.block_kinstr", self.block_kinstr.unwrap_or(20.0))?;
        let poll = params::param_duration(
            param("workload.poll_ms"),
            "workload.poll_ms",
            self.poll_ms.unwrap_or(55.0),
        )?;
        let disk = self.disk.clone().unwrap_or_default().validate()?;
        let (cache, delay_shared) = self.cache.clone().unwrap_or_default().validate()?;
        // the busiest server holds ceil(n / servers) stations' files
        let per_server = n.div_ceil(servers);
        let files = params.tests.len() as u64 * per_server as u64;
        let needed = files * params.file_bytes();
        if needed > disk.capacity_bytes {
            let whose = if servers == 1 {
                "the stations'".to_string()
            } else {
                format!("one server's {per_server} stations'")
            };
            return Err(FieldError::invalid(
                "workload.disk.capacity_mb",
                format!(
                    "{whose} files need {needed} bytes ({per_server} stations x {} files x {} blocks x {} bytes), the disk has {} bytes",
                    params.tests.len(),
                    params.file_blocks,
                    params.block,
                    disk.capacity_bytes
                ),
            ));
        }
        let write_through = matches!(cache.policy, WritePolicy::WriteThrough);
        if write_through && self.cache.as_ref().and_then(|c| c.delay_shared_writes) == Some(true) {
            warnings.push(
                "workload.cache.delay_shared_writes = true does nothing with workload.cache.write_policy = \"write-through\": every write goes to the disk at once".into(),
            );
        }
        if let Some(l) = &self.local {
            if !l.redirector && l.redirector_kinstr.is_some() {
                warnings.push(
                    "workload.local.redirector_kinstr does nothing with workload.local.redirector = false: no redirector examines the calls".into(),
                );
            }
        }
        let delay_writes = matches!(cache.policy, WritePolicy::Delayed { .. })
            && (params.sharing.excludes_writers() || delay_shared);
        let storage = StorageConfig {
            disk,
            cache,
            delay_writes,
        };
        let local = match &self.local {
            None => None,
            Some(l) => {
                if n != 1 || servers != 1 {
                    return Err(FieldError::invalid(
                        "workload.local",
                        format!("a local baseline runs on one workstation with no server; set stations = 1 (has {n}) and leave servers at 1"),
                    ));
                }
                let device = match l.device.as_str() {
                    "ram-disk" => LocalDevice::RamDisk,
                    "hard-disk" => LocalDevice::HardDisk(storage.disk.clone()),
                    other => {
                        return Err(FieldError::invalid(
                            "workload.local.device",
                            format!(
                                "{:?} is not a local device; use {}",
                                super::error::clip(other, 40),
                                quoted_or(param("workload.local.device").choices())
                            ),
                        ))
                    }
                };
                let dos = num("workload.local.dos_kinstr", l.dos_kinstr.unwrap_or(5.0))?;
                let redir = num(
                    "workload.local.redirector_kinstr",
                    l.redirector_kinstr.unwrap_or(lan.costs.redir_request_kinstr),
                )?;
                Some(LocalConfig {
                    host: lan.workstation_host.clone(),
                    device,
                    dos_kinstr: dos,
                    redirector_kinstr: l.redirector.then_some(redir),
                })
            }
        };
        if local.is_some() {
            let window_s = params.test_s as f64 * params.tests.len() as f64;
            budget::admit(
                "workload.test_s",
                budget::LOCAL_COST,
                budget::lanperf_local_events(window_s),
                1,
                &format!(
                    "a local baseline of {} s x {} tests",
                    params.test_s,
                    params.tests.len()
                ),
                "shorten the test (t)",
            )?;
        }
        let medium = s.medium;
        if local.is_some() && !self.background.is_empty() {
            return Err(FieldError::invalid(
                "workload.background",
                "a local baseline has no network for background groups to load",
            ));
        }
        if local.is_some() && self.ttcp.is_some() {
            return Err(FieldError::invalid(
                "workload.ttcp",
                "a local baseline has no network for a ttcp transfer to share",
            ));
        }
        if local.is_some() && self.file_services.is_some() {
            return Err(FieldError::invalid(
                "workload.file_services",
                "a local baseline has no network for another file service to share",
            ));
        }
        let linked = super::shared::linked_transfers(self.ttcp.as_ref(), s)?;
        let services = super::services::linked_services(self.file_services.as_ref(), s, true)?;
        let service_stations: usize = services.iter().map(|l| l.lan().nodes()).sum();
        let background = super::shared::validate_groups(&self.background, medium, warnings)?;
        let source_stations: usize = background.iter().map(SourceConfig::stations).sum();
        let tcp_stations = 2 * linked.len();
        let positions = medium.positions(
            n + servers + service_stations + tcp_stations + source_stations,
            "stations (server first, then workstations, then any further servers, each \
             further file service's server and workstations, each transfer's two ttcp \
             hosts, then each background group's senders and sink)",
        )?;
        super::lan::check_workstation_cards(lan, n)?;
        let profile = lan.clone();
        // the timed tests, plus filling READ's file: at most the file, at the test's pace
        let lanperf_events = |profile: &super::lan::LanProfile, n: usize, p: &LanperfParams| {
            let window_s = p.test_s as f64 * p.tests.len() as f64;
            budget::perform3_events(medium, profile, n, &[p.block], window_s)
                * (1.0 + p.tests.contains(&Test::Read) as u8 as f64 * fill_share(p))
        };
        let mut events = lanperf_events(&profile, n, &params);
        // the run lasts until every LANPERF service is done: the others run as long
        let mut window_s = params.test_s as f64 * params.tests.len() as f64;
        for c in services.iter().filter_map(|l| l.lanperf()) {
            events += lanperf_events(&c.lan.profile, c.lan.workstations, &c.params);
            window_s = window_s.max(c.params.test_s as f64 * c.params.tests.len() as f64);
        }
        for l in &linked {
            events += budget::ttcp_events_for(&l.ttcp.config, window_s);
        }
        for c in services.iter().filter_map(|l| l.perform3()) {
            events += budget::perform3_events(
                medium,
                &c.lan.profile,
                c.lan.workstations,
                &c.block_sizes,
                window_s,
            );
        }
        events += super::shared::background_events(&background, medium, window_s);
        // the same LAN model as PERFORM3 (measured: 4.9 M events/s, ~200 ns, at 6 stations)
        budget::admit(
            "workload.test_s",
            budget::PERFORM3_COST,
            events,
            n + servers + service_stations + tcp_stations + source_stations,
            &format!(
                "{n} stations x {} s x {} tests",
                params.test_s,
                params.tests.len()
            ),
            "shorten the test (t), the file (f) or use fewer stations",
        )?;
        let segment = medium.segment(positions);
        Ok(LanperfWorkload {
            config: LanperfConfig {
                lanperf_services: services
                    .iter()
                    .filter_map(|l| l.lanperf_service(&segment))
                    .collect(),
                file_services: services.iter().filter_map(|l| l.file_service(&segment)).collect(),
                lan: LanConfig {
                    workstations: n,
                    servers,
                    segment,
                    profile,
                    storage: Some(storage),
                },
                params,
                costs: LanperfCosts {
                    block_kinstr,
                    poll_interval: poll,
                },
                local,
                ttcp: linked.iter().map(|l| super::shared::shared_ttcp(l)).collect(),
                background,
            },
        })
    }
}

/// Rough share of a READ test's events spent filling the file: bytes of the file over
/// the bytes a 1 MB/s station would move in the test.
pub(super) fn fill_share(p: &LanperfParams) -> f64 {
    p.file_bytes() as f64 / (p.test_s as f64 * 1.0e6)
}

impl LanperfWorkload {
    /// One line for `ethersim validate`.
    pub fn summary(&self) -> String {
        let c = &self.config;
        let p = &c.params;
        let servers = match (&c.local, c.lan.servers) {
            (Some(_), _) => "local baseline, no network".to_string(),
            (None, 1) => "server".to_string(),
            (None, k) => format!("{k} servers"),
        };
        format!(
            "{} workstations + {servers}, LANPERF t{} b{} f{} ({} bytes per file), {}, {}",
            c.lan.workstations,
            p.test_s,
            p.block,
            p.file_blocks,
            p.file_bytes(),
            p.tests
                .iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(" + "),
            p.sharing
        )
    }
}
