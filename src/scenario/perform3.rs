//! Workload kind `perform3`: the PERFORM3 synchronized read test on a LAN.
//!
//! Keys (under `[workload]`, besides `kind`; declared with their ranges in
//! [`params::workloads`]): `workstations`, `block_sizes` (bytes), `warmup_s`, `measure_s`,
//! `app_jitter` (relative variation of the application's per-block work) and
//! `start_skew_ms` (the stations start within this span). It needs the `[hosts]`, `[adapter]` and `[nos]` sections. The server is
//! station 0 at one end of the segment; the workstations are spaced evenly after it (or at
//! `medium.positions_m`, server first).

use serde::Deserialize;

use super::error::{show, FieldError};
use super::lan::LanProfile;
use super::Sections;
use super::{budget, params};
use crate::lan::LanConfig;
use crate::time::SimDuration;
use crate::workload::perform3::Perform3Config;

/// Most block sizes in one run (engineering bound; the sizes' own range is registered).
pub const MAX_BLOCK_SIZES: usize = 256;

/// This kind's entry of a registered key (see [`params`]).
fn param(key: &str) -> &'static params::Param {
    params::get(Some("perform3"), key)
}

/// `[workload]` of kind `perform3`, as written (`kind` already removed).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPerform3 {
    pub workstations: i64,
    pub block_sizes: Vec<i64>,
    pub warmup_s: Option<f64>,
    pub measure_s: Option<f64>,
    pub app_jitter: Option<f64>,
    pub start_skew_ms: Option<f64>,
}

/// A validated PERFORM3 run.
#[derive(Clone, Debug)]
pub struct Perform3Workload {
    pub config: Perform3Config,
}

fn duration(path: &str, v: f64) -> Result<SimDuration, FieldError> {
    params::param_duration(param(path), path, v)
}

impl RawPerform3 {
    pub fn validate(self, s: &Sections<'_>) -> Result<Perform3Workload, FieldError> {
        let lan: &LanProfile = s.lan.ok_or_else(|| {
            FieldError::invalid(
                "workload.kind",
                "perform3 needs the [hosts], [adapter] and [nos] sections (usually from hardware = \"...\")",
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
        if self.block_sizes.is_empty() || self.block_sizes.len() > MAX_BLOCK_SIZES {
            return Err(FieldError::invalid(
                "workload.block_sizes",
                format!(
                    "needs 1..={MAX_BLOCK_SIZES} block sizes, has {}",
                    self.block_sizes.len()
                ),
            ));
        }
        let mut block_sizes = Vec::with_capacity(self.block_sizes.len());
        let (lo, hi) = param("workload.block_sizes").int_range();
        for (i, &b) in self.block_sizes.iter().enumerate() {
            if !(lo..=hi).contains(&b) {
                return Err(FieldError::range(
                    format!("workload.block_sizes[{i}]"),
                    b,
                    format!("{lo}..={hi} bytes"),
                ));
            }
            block_sizes.push(b as u32);
        }
        let warmup_s = self.warmup_s.unwrap_or(1.0);
        let measure_s = self.measure_s.unwrap_or(5.0);
        let warmup = duration("workload.warmup_s", warmup_s)?;
        let measure = duration("workload.measure_s", measure_s)?;
        let app_jitter = self.app_jitter.unwrap_or(0.5);
        let (lo, hi) = param("workload.app_jitter").real_range();
        if !(lo..=hi).contains(&app_jitter) {
            return Err(FieldError::range(
                "workload.app_jitter",
                show(app_jitter),
                format!("{lo}..={hi}"),
            ));
        }
        let skew_ms = self.start_skew_ms.unwrap_or(10.0);
        let start_skew = duration("workload.start_skew_ms", skew_ms)?;
        let medium = s.medium;
        let positions = medium.positions(n + 1, "stations (server first, then workstations)")?;
        super::lan::check_workstation_cards(lan, n)?;
        let mut profile = lan.clone();
        profile.costs.app_jitter = app_jitter;
        profile.costs.start_skew = start_skew;
        let window_s = (warmup + measure).as_secs_f64();
        let events = budget::perform3_events(medium, &profile, n, &block_sizes, window_s);
        budget::admit(
            "workload.measure_s",
            budget::PERFORM3_COST,
            events,
            n + 1,
            &format!(
                "{n} workstations x {} s x {} block sizes",
                show(window_s),
                block_sizes.len()
            ),
            "shorten warmup_s/measure_s, use fewer block sizes or fewer workstations",
        )?;
        let lan_cfg = LanConfig {
            workstations: n,
            servers: 1,
            segment: medium.segment(positions),
            profile,
            storage: None,
        };
        Ok(Perform3Workload {
            config: Perform3Config {
                lan: lan_cfg,
                block_sizes,
                warmup,
                measure,
            },
        })
    }
}

impl Perform3Workload {
    /// One line for `ethersim validate`.
    pub fn summary(&self) -> String {
        let c = &self.config;
        let (a, w) = (&c.lan.profile.server_adapter, &c.lan.profile.workstation_adapter);
        let widths = if a.bus_width_bits == w.bus_width_bits {
            format!("{}-bit adapters", a.bus_width_bits)
        } else {
            format!(
                "a {}-bit adapter in the server, {}-bit in the workstations",
                a.bus_width_bits, w.bus_width_bits
            )
        };
        format!(
            "{} workstations + server, {widths}, {} block sizes ({}..={} bytes), {} s + {} s each",
            c.lan.workstations,
            c.block_sizes.len(),
            c.block_sizes.iter().min().copied().unwrap_or(0),
            c.block_sizes.iter().max().copied().unwrap_or(0),
            c.warmup.as_secs_f64(),
            c.measure.as_secs_f64()
        )
    }
}
