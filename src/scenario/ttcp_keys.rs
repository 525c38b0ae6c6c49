//! The ttcp workload's registered keys ([`super::params`]), looked up and range-checked for
//! the ttcp scenario's validators (`super::ttcp`, `super::unibus`): each value is held to
//! the range its registry entry states. Units are the keys' own.

use super::error::{real_within, FieldError};
use super::params;

/// This kind's entry of registered key `key` (`*` for a name the file chooses).
pub(super) fn param(key: &str) -> &'static params::Param {
    params::get(Some("ttcp"), key)
}

/// `v` at `path` within the range of registered key `key`.
pub(super) fn real(path: String, key: &str, v: f64) -> Result<f64, FieldError> {
    let (lo, hi) = param(key).real_range();
    real_within(path, v, lo, hi)
}

/// `v` at `path` within the range of registered integer key `key`.
pub(super) fn int(path: String, key: &str, v: i64) -> Result<u32, FieldError> {
    let (lo, hi) = param(key).int_range();
    if (lo..=hi).contains(&v) {
        Ok(v as u32)
    } else {
        Err(FieldError::range(path, v, format!("{lo}..={hi}")))
    }
}
