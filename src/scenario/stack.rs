//! The `stack` table: a TCP/IP stack's profile as a scenario's hardware file writes it
//! (`[workload.stack]` of `scenarios/ttcp1995/ttcp-1995.toml` for Linux 1.2), validated into a
//! [`crate::tcp::StackProfile`] plus the socket-buffer defaults and limits.
//!
//! Keys: `name`, `mss_bytes`, `ack_every_segments` (required with the default
//! `ack_clock = "one_shot"`, refused with `"fast_timeout"`), `delayed_ack_ms`,
//! `send_rule` (`"full_last_or_idle"`, the default, or `"full_all_or_quarter_window"`),
//! `socket_buffer_bytes` (the default) with `socket_buffer_min_bytes` and
//! `socket_buffer_max_bytes` (what a `-b` is clamped to), `window` (an inline table with
//! `rule = "half_free_space"` and its four byte counts, or `rule = "free_space"` and
//! `sws_divisor`), `window_update` (`"more_than_mss"` or `{ percent_of_buffer = P }`),
//! `buffer_overhead_bytes`, `congestion` (`"none"` or `{ max_segments = N }`), `nagle`,
//! `rto_initial_ms`, `rto_min_ms`, `rto_max_ms`, `checksum_in_copy`.

use serde::Deserialize;

use super::error::FieldError;
use super::params;
use crate::tcp::{AckClock, Congestion, SendRule, StackProfile, WindowRule, WindowUpdateRule};

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStack {
    pub name: String,
    pub mss_bytes: i64,
    pub ack_every_segments: Option<i64>,
    pub delayed_ack_ms: f64,
    #[serde(default)]
    pub ack_clock: RawAckClock,
    #[serde(default)]
    pub send_rule: RawSendRule,
    pub socket_buffer_bytes: i64,
    pub socket_buffer_min_bytes: i64,
    pub socket_buffer_max_bytes: i64,
    pub window: RawWindow,
    pub window_update: RawWindowUpdate,
    pub buffer_overhead_bytes: i64,
    pub congestion: RawCongestion,
    pub nagle: bool,
    pub rto_initial_ms: f64,
    pub rto_min_ms: f64,
    pub rto_max_ms: f64,
    pub checksum_in_copy: bool,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(tag = "rule", rename_all = "snake_case", deny_unknown_fields)]
pub enum RawWindow {
    HalfFreeSpace {
        reserve_bytes: u32,
        max_bytes: u32,
        full_margin_bytes: u32,
        sws_floor_bytes: u32,
    },
    FreeSpace {
        sws_divisor: u32,
    },
}

#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawAckClock {
    #[default]
    OneShot,
    FastTimeout,
}

#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawSendRule {
    #[default]
    FullLastOrIdle,
    FullAllOrQuarterWindow,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(untagged)]
pub enum RawWindowUpdate {
    Named(NamedUpdate),
    Percent { percent_of_buffer: u32 },
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NamedUpdate {
    MoreThanMss,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(untagged)]
pub enum RawCongestion {
    Named(NamedCongestion),
    Linear { max_segments: u32 },
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NamedCongestion {
    None,
}

/// A validated stack.
#[derive(Clone, Debug, PartialEq)]
pub struct Stack {
    pub name: String,
    pub profile: StackProfile,
    pub socket_buffer_bytes: u32,
    pub socket_buffer_range: (u32, u32),
}

impl Stack {
    /// A requested socket buffer (ttcp `-b`) as the stack applies it: clamped to its range.
    pub fn clamp_socket_buffer(&self, requested: u32) -> u32 {
        requested.clamp(self.socket_buffer_range.0, self.socket_buffer_range.1)
    }
}

/// The registered entry of `stack.<key>` (`workload.stack.<key>`).
fn param(path: &str) -> &'static params::Param {
    params::get(Some("ttcp"), &format!("workload.{path}"))
}

/// `v` at `stack.<key>` within its registered range.
fn bytes_key(path: &str, v: i64) -> Result<u32, FieldError> {
    let (lo, hi) = param(path).int_range();
    bytes(path, v, lo, hi)
}

/// A duration at `stack.<key>` by its registered entry.
fn millis(path: &str, v: f64) -> Result<crate::time::SimDuration, FieldError> {
    params::param_duration(param(path), path, v)
}

fn bytes(path: &str, v: i64, lo: i64, hi: i64) -> Result<u32, FieldError> {
    if !(lo..=hi).contains(&v) {
        return Err(FieldError::range(path, v, format!("{lo}..={hi} bytes")));
    }
    Ok(v as u32)
}

impl RawStack {
    pub fn validate(self) -> Result<Stack, FieldError> {
        let lo = bytes_key("stack.socket_buffer_min_bytes", self.socket_buffer_min_bytes)?;
        // the largest buffer is at least the smallest (the registry's bound source says so)
        let (_, max) = param("stack.socket_buffer_max_bytes").int_range();
        let hi = bytes(
            "stack.socket_buffer_max_bytes",
            self.socket_buffer_max_bytes,
            lo as i64,
            max,
        )?;
        let default = bytes(
            "stack.socket_buffer_bytes",
            self.socket_buffer_bytes,
            lo as i64,
            hi as i64,
        )?;
        let ack_clock = match self.ack_clock {
            RawAckClock::OneShot => AckClock::OneShot,
            RawAckClock::FastTimeout => AckClock::FastTimeout,
        };
        let ack_every_segments =
            match (ack_clock, self.ack_every_segments) {
                (AckClock::OneShot, None) => {
                    return Err(FieldError::invalid(
                        "stack.ack_every_segments",
                        "missing (required with ack_clock = \"one_shot\")",
                    ))
                }
                (AckClock::FastTimeout, Some(_)) => return Err(FieldError::invalid(
                    "stack.ack_every_segments",
                    "not used with ack_clock = \"fast_timeout\" (no segment count forces an ACK): remove it",
                )),
                (AckClock::FastTimeout, None) => 1,
                (AckClock::OneShot, Some(n)) => {
                    let (lo, hi) = param("stack.ack_every_segments").int_range();
                    if !(lo..=hi).contains(&n) {
                        return Err(FieldError::range(
                            "stack.ack_every_segments",
                            n,
                            format!("{lo}..={hi}"),
                        ));
                    }
                    n as u32
                }
            };
        let profile = StackProfile {
            mss_bytes: bytes_key("stack.mss_bytes", self.mss_bytes)?,
            ack_every_segments,
            ack_clock,
            send_rule: match self.send_rule {
                RawSendRule::FullLastOrIdle => SendRule::FullLastOrIdle,
                RawSendRule::FullAllOrQuarterWindow => SendRule::FullAllOrQuarterWindow,
            },
            delayed_ack: millis("stack.delayed_ack_ms", self.delayed_ack_ms)?,
            window: match self.window {
                RawWindow::HalfFreeSpace {
                    reserve_bytes,
                    max_bytes,
                    full_margin_bytes,
                    sws_floor_bytes,
                } => WindowRule::HalfFreeSpace {
                    reserve_bytes,
                    max_bytes,
                    full_margin_bytes,
                    sws_floor_bytes,
                },
                RawWindow::FreeSpace { sws_divisor } => WindowRule::FreeSpace { sws_divisor },
            },
            window_update: match self.window_update {
                RawWindowUpdate::Named(NamedUpdate::MoreThanMss) => WindowUpdateRule::MoreThanMss,
                RawWindowUpdate::Percent { percent_of_buffer } => {
                    WindowUpdateRule::PercentOfBuffer(percent_of_buffer)
                }
            },
            buffer_overhead_bytes: bytes_key("stack.buffer_overhead_bytes", self.buffer_overhead_bytes)?,
            congestion: match self.congestion {
                RawCongestion::Named(NamedCongestion::None) => Congestion::None,
                RawCongestion::Linear { max_segments } => Congestion::Linear { max_segments },
            },
            nagle: self.nagle,
            rto_initial: millis("stack.rto_initial_ms", self.rto_initial_ms)?,
            rto_min: millis("stack.rto_min_ms", self.rto_min_ms)?,
            rto_max: millis("stack.rto_max_ms", self.rto_max_ms)?,
            checksum_in_copy: self.checksum_in_copy,
        };
        profile.check().map_err(|(field, why)| {
            let key = match field {
                "delayed_ack" | "rto_initial" => format!("stack.{field}_ms"),
                _ => format!("stack.{field}"),
            };
            FieldError::invalid(key, why)
        })?;
        if profile.mss_bytes as u64 + profile.buffer_overhead_bytes as u64 > hi as u64 {
            return Err(FieldError::invalid(
                "stack.socket_buffer_max_bytes",
                "must hold at least one full segment with its overhead",
            ));
        }
        Ok(Stack {
            name: self.name,
            profile,
            socket_buffer_bytes: default,
            socket_buffer_range: (lo, hi),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimDuration;

    /// The `[workload.stack]` table of a shipped hardware file.
    fn shipped(name: &str) -> toml::Value {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios")
            .join(name);
        let text = std::fs::read_to_string(path).expect("shipped hardware file");
        let mut v: toml::Table = toml::from_str(&text).expect("TOML");
        let mut w = v.remove("workload").expect("[workload]");
        w.as_table_mut()
            .expect("a table")
            .remove("stack")
            .expect("[workload.stack]")
    }

    #[test]
    fn test_linux_1_2_profile_from_its_file() {
        let raw: RawStack =
            super::super::de::from_value(shipped("ttcp1995/ttcp-1995.toml"), "stack").unwrap();
        let s = raw.validate().unwrap();
        assert_eq!(s.profile.mss_bytes, 1436);
        assert_eq!(s.profile.ack_every_segments, 1);
        assert_eq!(s.profile.rto_min, SimDuration::from_millis(200));
        assert!(matches!(
            s.profile.window,
            WindowRule::HalfFreeSpace { max_bytes: 16384, .. }
        ));
        assert_eq!(s.clamp_socket_buffer(32_767), 32_767);
        assert_eq!(s.clamp_socket_buffer(65_536), 32_767);
        assert_eq!(s.clamp_socket_buffer(10), 256);
    }

    #[test]
    fn test_bad_stack_names_the_key() {
        let mut v = shipped("ttcp1995/ttcp-1995.toml");
        v.as_table_mut()
            .unwrap()
            .insert("ack_every_segments".into(), toml::Value::Integer(2));
        let raw: RawStack = super::super::de::from_value(v, "stack").unwrap();
        let e = raw.validate().unwrap_err();
        assert_eq!(e.path, "stack.delayed_ack_ms");
    }
}
