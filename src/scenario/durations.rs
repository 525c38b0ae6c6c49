//! Durations written with their unit in a scenario file: the strings at keys the
//! parameter registry declares a time, turned into numbers in each key's own unit before
//! the raw structs read them. Joins the registry (`params`, which keys are times, in which
//! unit, whole or not) and the duration reader (`units`), which know nothing of each other.

use super::error::{clip, show, FieldError};
use super::params::{self, Range};
use super::units::{duration_in, unit_words, TimeUnit};

/// Durations written with their unit: every string at a key that the parameter registry
/// declares a time (its unit `s`, `ms` or `ns`) becomes the number in the key's own unit
/// (`duration_s = "500ms"` is `0.5`; an integer key takes a whole number). A bare number
/// is left as it is, and so is a string at any other key, for the raw structs to judge.
/// The workload's `kind` picks the keys of its kind.
pub fn resolve_durations(doc: &mut toml::Table) -> Result<(), FieldError> {
    let kind = doc
        .get("workload")
        .and_then(|w| w.get("kind"))
        .and_then(toml::Value::as_str)
        .map(str::to_owned);
    for (k, v) in doc.iter_mut() {
        resolve_in(v, k, kind.as_deref())?;
    }
    Ok(())
}

fn resolve_in(value: &mut toml::Value, path: &str, kind: Option<&str>) -> Result<(), FieldError> {
    match value {
        toml::Value::Table(t) => {
            for (k, v) in t.iter_mut() {
                resolve_in(v, &format!("{path}.{k}"), kind)?;
            }
        }
        toml::Value::Array(a) => {
            for (i, v) in a.iter_mut().enumerate() {
                resolve_in(v, &format!("{path}[{i}]"), kind)?;
            }
        }
        toml::Value::String(text) => {
            let Some(p) = params::find_for(kind, path) else {
                return Ok(());
            };
            let Some(unit) = TimeUnit::of_key_unit(p.unit) else {
                return Ok(());
            };
            let own = unit_words(unit);
            let v = duration_in(text, unit)
                .map_err(|e| FieldError::invalid(path, format!("{e}; a bare number is in {own}")))?;
            *value = match p.range {
                Range::Int { .. } | Range::Ints { .. } => {
                    let whole = v.round();
                    if (v - whole).abs() > 1e-9 * whole.abs().max(1.0) || whole.abs() > 9.0e15 {
                        return Err(FieldError::invalid(
                            path,
                            format!(
                                "`{}` is {} {own}; this key takes a whole number of {own}",
                                clip(text, 40),
                                show(v)
                            ),
                        ));
                    }
                    toml::Value::Integer(whole as i64)
                }
                _ => toml::Value::Float(v),
            };
        }
        _ => {}
    }
    Ok(())
}
