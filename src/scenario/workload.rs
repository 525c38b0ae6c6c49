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
use super::ttcp::{RawTtcp, TtcpWorkload};
use super::Sections;

/// The workload kinds this build knows (declared with `workload.kind` in the registry).
pub use super::params::workloads::KINDS;

/// A validated workload.
#[derive(Clone, Debug)]
pub enum Workload {
    Saturate(SaturateWorkload),
    Perform3(Box<Perform3Workload>),
    Lanperf(Box<LanperfWorkload>),
    Ttcp(Box<TtcpWorkload>),
}

impl Workload {
    /// The `kind` name.
    pub fn kind(&self) -> &'static str {
        match self {
            Workload::Saturate(_) => "saturate",
            Workload::Perform3(_) => "perform3",
            Workload::Lanperf(_) => "lanperf",
            Workload::Ttcp(_) => "ttcp",
        }
    }

    /// One line describing the run.
    pub fn summary(&self) -> String {
        match self {
            Workload::Saturate(w) => w.summary(),
            Workload::Perform3(w) => w.summary(),
            Workload::Lanperf(w) => w.summary(),
            Workload::Ttcp(w) => w.summary(),
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
