//! Section `[workload]`: which traffic runs, chosen by its `kind` key.
//!
//! Each kind has its own file with a raw serde struct (deny unknown fields) and a
//! `validate` into its model. Adding a kind is one variant of [`Workload`], one name in
//! [`KINDS`] and one arm in [`validate`].

use super::budget;
use super::de;
use super::error::{clip, FieldError, Problem};
use super::lanperf::{LanperfWorkload, RawLanperf};
use super::perform3::{Perform3Workload, RawPerform3};
use super::saturate::{RawSaturate, SaturateWorkload};
use super::shared::{RawShared, SharedWorkload};
use super::traffic::{RawTraffic, TrafficWorkload};
use super::ttcp::{RawTtcp, TtcpWorkload};
use super::Sections;

/// The workload kinds this build knows (declared with `workload.kind` in the registry).
pub use super::params::workloads::KINDS;

/// A validated workload.
#[derive(Clone, Debug)]
pub enum Workload {
    Saturate(SaturateWorkload),
    Traffic(Box<TrafficWorkload>),
    Perform3(Box<Perform3Workload>),
    Lanperf(Box<LanperfWorkload>),
    Ttcp(Box<TtcpWorkload>),
    Shared(Box<SharedWorkload>),
}

impl Workload {
    /// The run's estimated CPU time, seconds, by the same estimates admission uses
    /// ([`budget`]); for a sweep's total budget.
    pub fn estimated_cpu_s(&self, medium: &super::Medium) -> f64 {
        match self {
            Workload::Saturate(w) => {
                let c = &w.config;
                let events =
                    budget::saturate_events(medium, c.senders, c.frame_bytes, c.duration.as_secs_f64());
                budget::cpu_s(budget::SATURATE_COST, events, c.senders + 1)
            }
            Workload::Traffic(w) => {
                let c = &w.config;
                let events = budget::traffic_events(
                    medium,
                    c.senders,
                    c.sizes.mean_bytes(),
                    c.offered_load,
                    c.duration.as_secs_f64(),
                );
                budget::cpu_s(budget::TRAFFIC_COST, events, c.senders + 1)
            }
            Workload::Perform3(w) => {
                let c = &w.config;
                let n = c.lan.workstations;
                let window_s = (c.warmup + c.measure).as_secs_f64();
                let events = budget::perform3_events(medium, &c.lan.profile, n, &c.block_sizes, window_s);
                budget::cpu_s(budget::PERFORM3_COST, events, n + 1)
            }
            Workload::Lanperf(w) => {
                let c = &w.config;
                let p = &c.params;
                let window_s = p.test_s as f64 * p.tests.len() as f64;
                if c.local.is_some() {
                    let events = budget::lanperf_local_events(window_s);
                    return budget::cpu_s(budget::LOCAL_COST, events, 1);
                }
                let n = c.lan.workstations;
                let reads = p.tests.contains(&crate::workload::lanperf::Test::Read);
                let events = budget::perform3_events(medium, &c.lan.profile, n, &[p.block], window_s)
                    * (1.0 + reads as u8 as f64 * super::lanperf::fill_share(p));
                budget::cpu_s(budget::PERFORM3_COST, events, n + c.lan.servers)
            }
            Workload::Ttcp(w) => budget::cpu_s(budget::TTCP_COST, budget::ttcp_events(&w.config), 2),
            Workload::Shared(w) => {
                budget::cpu_s(budget::PERFORM3_COST, w.estimated_events, w.config.stations())
            }
        }
    }

    /// The `kind` name.
    pub fn kind(&self) -> &'static str {
        match self {
            Workload::Saturate(_) => "saturate",
            Workload::Traffic(_) => "traffic",
            Workload::Perform3(_) => "perform3",
            Workload::Lanperf(_) => "lanperf",
            Workload::Ttcp(_) => "ttcp",
            Workload::Shared(_) => "shared",
        }
    }

    /// One line describing the run.
    pub fn summary(&self) -> String {
        match self {
            Workload::Saturate(w) => w.summary(),
            Workload::Traffic(w) => w.summary(),
            Workload::Perform3(w) => w.summary(),
            Workload::Lanperf(w) => w.summary(),
            Workload::Ttcp(w) => w.summary(),
            Workload::Shared(w) => w.summary(),
        }
    }
}

/// Validates the `[workload]` table against the already validated sections.
pub(super) fn validate(
    mut table: toml::Table,
    sections: &Sections<'_>,
    warnings: &mut Vec<String>,
) -> Result<Workload, FieldError> {
    let kind = match table.remove("kind") {
        None => return Err(FieldError::new("workload.kind", Problem::Missing)),
        Some(toml::Value::String(k)) => k,
        Some(other) => {
            return Err(FieldError::new(
                "workload.kind",
                Problem::WrongType {
                    message: format!(
                        "invalid type: {}, expected a string naming the kind",
                        other.type_str()
                    ),
                },
            ))
        }
    };
    let body = toml::Value::Table(table);
    match kind.as_str() {
        "saturate" => {
            let raw: RawSaturate = de::from_value(body, "workload")?;
            Ok(Workload::Saturate(raw.validate(sections, warnings)?))
        }
        "traffic" => {
            let raw: RawTraffic = de::from_value(body, "workload")?;
            Ok(Workload::Traffic(Box::new(raw.validate(sections, warnings)?)))
        }
        "perform3" => {
            let raw: RawPerform3 = de::from_value(body, "workload")?;
            Ok(Workload::Perform3(Box::new(raw.validate(sections)?)))
        }
        "lanperf" => {
            let raw: RawLanperf = de::from_value(body, "workload")?;
            Ok(Workload::Lanperf(Box::new(raw.validate(sections, warnings)?)))
        }
        "ttcp" => {
            let raw: RawTtcp = de::from_value(body, "workload")?;
            let w = raw.validate(sections)?;
            budget::admit_ttcp(&w.config)?;
            Ok(Workload::Ttcp(Box::new(w)))
        }
        "shared" => {
            let raw: RawShared = de::from_value(body, "workload")?;
            Ok(Workload::Shared(Box::new(raw.validate(sections, warnings)?)))
        }
        _ => {
            let valid: Vec<String> = KINDS.iter().map(|k| k.to_string()).collect();
            let suggestions = de::nearest(&kind, &valid);
            Err(FieldError::new(
                "workload.kind",
                Problem::UnknownVariant {
                    value: clip(&kind, 60),
                    suggestions,
                    valid,
                },
            ))
        }
    }
}
