//! The constants a calibration fits: the `[[parameter]]` table as written (raw tier),
//! the validated [`Parameter`] with its [`Domain`] and its middle (where the first search
//! starts), and how a trial value is rounded before it is evaluated or written.
//!
//! Invariants: a parameter's key is a key of the hardware file, fitted once, not held by
//! an override, and left to the hardware file by at least one scenario; a continuous
//! domain has finite bounds with min < max (an integer key's
//! bounds hold at least one integer, and every trial value is one of them); a discrete one has
//! 1..=[`MAX_CHOICES`] choices of the hardware value's type. Units are the hardware key's
//! own.

use std::path::Path;

use serde::Deserialize;

use crate::scenario::error::FieldError;

use super::CalibrationError;

/// Most parameters and choices per parameter a file may ask for.
pub const MAX_PARAMETERS: usize = 32;
pub const MAX_CHOICES: usize = 64;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawParameter {
    pub(super) key: String,
    min: Option<f64>,
    max: Option<f64>,
    /// Refused: searches start only from the middle of the bounds and a seeded design.
    start: Option<toml::Value>,
    choices: Option<Vec<toml::Value>>,
}

/// The values a parameter may take.
#[derive(Clone, Debug, PartialEq)]
pub enum Domain {
    /// A real number in `[min, max]`; written as an integer if `integer`.
    Continuous { min: f64, max: f64, integer: bool },
    /// One of a list of TOML values.
    Discrete { choices: Vec<toml::Value> },
}

/// One constant to fit: a key of the hardware file.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameter {
    pub key: String,
    pub domain: Domain,
    /// The middle of the bounds (the middle choice): where the first search starts, never
    /// the hardware file's current value.
    pub middle: toml::Value,
    /// The hardware file's current value (the "before" of the report).
    pub current: toml::Value,
}

/// Rounds a trial value as it will be written: an integer key to an integer, a real one to
/// 6 significant digits.
pub fn written(domain: &Domain, x: f64) -> toml::Value {
    match domain {
        Domain::Continuous { min, max, integer } => {
            let x = x.clamp(*min, *max);
            if *integer {
                // rounded, then kept inside the bounds: [2.4, 3.6] never gives 2
                toml::Value::Integer(x.round().clamp(min.ceil(), max.floor()) as i64)
            } else {
                toml::Value::Float(format!("{x:.5e}").parse().unwrap_or(x))
            }
        }
        Domain::Discrete { choices } => choices[(x.max(0.0) as usize).min(choices.len() - 1)].clone(),
    }
}

/// The value at dotted `key` in `table`, if present.
pub fn lookup<'a>(table: &'a toml::Table, key: &str) -> Option<&'a toml::Value> {
    let mut parts = key.split('.');
    let mut v = table.get(parts.next()?)?;
    for p in parts {
        v = v.as_table()?.get(p)?;
    }
    Some(v)
}

pub(super) fn number(v: &toml::Value) -> Option<f64> {
    match v {
        toml::Value::Integer(i) => Some(*i as f64),
        toml::Value::Float(f) => Some(*f),
        _ => None,
    }
}

impl RawParameter {
    /// The `i`th `[[parameter]]` checked against the hardware file's document `hw_doc`
    /// (read from `hw_path`), the scenarios' documents `docs`, the keys `held` by
    /// overrides and the parameters `before` it; `err` locates a field error in the file.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn validate(
        &self,
        i: usize,
        hw_doc: &toml::Table,
        hw_path: &Path,
        docs: &[toml::Table],
        held: &[String],
        before: &[Parameter],
        err: &dyn Fn(FieldError) -> CalibrationError,
    ) -> Result<Parameter, CalibrationError> {
        let p = self;
        let at = |k: &str| format!("parameter[{i}].{k}");
        if p.start.is_some() {
            return Err(err(FieldError::invalid(
                at("start"),
                "a hand-picked start is not accepted: searches start only from the middle of \
                 the bounds and from a seeded Latin-hypercube design (`design_starts`, \
                 `design_seed`), never from a point an earlier fit chose; remove the line",
            )));
        }
        let Some(current) = lookup(hw_doc, &p.key).cloned() else {
            return Err(err(FieldError::invalid(
                at("key"),
                format!(
                    "`{}` is not a key of the hardware file {}",
                    clip(&p.key),
                    hw_path.display()
                ),
            )));
        };
        if held.contains(&p.key) {
            return Err(err(FieldError::invalid(
                at("key"),
                format!("`{}` is both fitted and held by `overrides`", clip(&p.key)),
            )));
        }
        if before.iter().any(|q| q.key == p.key) {
            return Err(err(FieldError::invalid(
                at("key"),
                format!("`{}` is fitted twice", clip(&p.key)),
            )));
        }
        if docs.iter().all(|d| lookup(d, &p.key).is_some()) {
            return Err(err(FieldError::invalid(
                at("key"),
                format!(
                    "every scenario sets `{}` itself, so no scenario uses the hardware file's value",
                    clip(&p.key)
                ),
            )));
        }
        let (domain, middle) = match (&p.choices, p.min, p.max) {
            (Some(choices), None, None) => {
                if choices.is_empty() || choices.len() > MAX_CHOICES {
                    return Err(err(FieldError::invalid(
                        at("choices"),
                        format!("needs 1..={MAX_CHOICES} choices, has {}", choices.len()),
                    )));
                }
                for (j, c) in choices.iter().enumerate() {
                    if c.type_str() != current.type_str() {
                        return Err(err(FieldError::invalid(
                            format!("parameter[{i}].choices[{j}]"),
                            format!(
                                "a {} where the hardware file has a {}",
                                c.type_str(),
                                current.type_str()
                            ),
                        )));
                    }
                }
                let middle = choices[(choices.len() - 1) / 2].clone();
                (
                    Domain::Discrete {
                        choices: choices.clone(),
                    },
                    middle,
                )
            }
            (None, Some(min), Some(max)) => {
                let integer = matches!(current, toml::Value::Integer(_));
                if number(&current).is_none() {
                    return Err(err(FieldError::invalid(
                        at("key"),
                        format!(
                            "the hardware file's `{}` is not a number: give `choices`",
                            clip(&p.key)
                        ),
                    )));
                }
                if !(min.is_finite() && max.is_finite() && min < max) {
                    return Err(err(FieldError::range(
                        at("max"),
                        format!("[{min}, {max}]"),
                        "finite bounds with min < max",
                    )));
                }
                if integer && min.ceil() > max.floor() {
                    return Err(err(FieldError::invalid(
                        at("max"),
                        format!(
                            "`{}` is an integer in the hardware file, and [{min}, {max}] holds no \
                             integer: give bounds with at least one integer inside",
                            clip(&p.key)
                        ),
                    )));
                }
                let domain = Domain::Continuous { min, max, integer };
                let middle = written(&domain, (min + max) / 2.0);
                (domain, middle)
            }
            _ => {
                return Err(err(FieldError::invalid(
                    format!("parameter[{i}]"),
                    "give either `min` and `max` (a continuous constant) or `choices` (a discrete one)",
                )))
            }
        };
        Ok(Parameter {
            key: p.key.clone(),
            domain,
            middle,
            current,
        })
    }
}

pub(super) fn clip(s: &str) -> String {
    crate::scenario::error::clip(&s.escape_debug().to_string(), 80)
}
