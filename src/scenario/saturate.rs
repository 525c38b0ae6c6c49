//! Workload kind `saturate`: always-backlogged stations on the bare segment.
//!
//! Keys (under `[workload]`, besides `kind`; declared in [`params::workloads`]):
//! `stations` (senders), `frame_bytes` (header to FCS), `destination` (`sink` or
//! `round_robin`) and `duration_s`. With a sink,
//! one silent station is added at the far end of the segment (at `medium.length_m`).

use serde::Deserialize;

use super::error::{show, FieldError};
use super::medium::Medium;
use super::Sections;
use super::{budget, params};
use crate::ether::SegmentConfig;
use crate::workload::saturate::{Destination, SaturateConfig};

/// This kind's entry of a registered key (see [`params`]).
fn param(key: &str) -> &'static params::Param {
    params::get(Some("saturate"), key)
}

/// `[workload]` of kind `saturate`, as written (`kind` already removed).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSaturate {
    pub stations: i64,
    pub frame_bytes: Option<i64>,
    pub destination: Option<RawDestination>,
    pub duration_s: Option<f64>,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawDestination {
    Sink,
    RoundRobin,
}

/// A validated saturate run: the workload and the segment it runs on.
#[derive(Clone, Debug)]
pub struct SaturateWorkload {
    pub config: SaturateConfig,
    pub segment: SegmentConfig,
}

impl RawSaturate {
    /// The senders, their frame size and where they send: every key but `duration_s`
    /// (paths as in a saturate workload, `workload.KEY`).
    pub(super) fn group(
        &self,
        medium: &Medium,
        warnings: &mut Vec<String>,
    ) -> Result<(usize, u32, Destination), FieldError> {
        let senders = super::saturate::senders(self.stations)?;
        let frame_bytes = self.frame_bytes.unwrap_or(1518);
        if let Some(w) = medium.check_frame_bytes("workload.frame_bytes", frame_bytes)? {
            if !warnings.contains(&w) {
                warnings.push(w);
            }
        }
        let frame_bytes = frame_bytes as u32;
        let destination = super::saturate::destination(self.destination);
        if destination == Destination::RoundRobin && senders < 2 {
            return Err(FieldError::invalid(
                "workload.destination",
                "round_robin needs at least 2 stations (use \"sink\" for one)",
            ));
        }
        Ok((senders, frame_bytes, destination))
    }

    pub fn validate(
        self,
        s: &Sections<'_>,
        warnings: &mut Vec<String>,
    ) -> Result<SaturateWorkload, FieldError> {
        let medium: &Medium = s.medium;
        let (senders, frame_bytes, destination) = self.group(medium, warnings)?;
        let duration_s = self.duration_s.unwrap_or(10.0);
        let duration =
            params::param_duration(param("workload.duration_s"), "workload.duration_s", duration_s)?;
        let events = budget::saturate_events(medium, senders, frame_bytes, duration.as_secs_f64());
        budget::admit(
            "workload.duration_s",
            budget::SATURATE_COST,
            events,
            senders + 1,
            &format!(
                "{senders} stations for {} s of {frame_bytes}-byte frames",
                show(duration_s)
            ),
            "shorten duration_s or use fewer stations",
        )?;
        let positions = positions(medium, senders, destination)?;
        Ok(SaturateWorkload {
            config: SaturateConfig {
                senders,
                frame_bytes,
                destination,
                duration,
            },
            segment: medium.segment(positions),
        })
    }
}

/// The stations' positions: the senders (evenly spaced, or `medium.positions_m`), and for
/// `workload.stations` of a medium workload, inside its registered range.
pub(super) fn senders(stations: i64) -> Result<usize, FieldError> {
    let (lo, hi) = param("workload.stations").int_range();
    if !(lo..=hi).contains(&stations) {
        return Err(FieldError::range(
            "workload.stations",
            stations,
            format!("{lo}..={hi}"),
        ));
    }
    Ok(stations as usize)
}

/// `workload.destination` of a medium workload (a sink by default).
pub(super) fn destination(raw: Option<RawDestination>) -> Destination {
    match raw.unwrap_or(RawDestination::Sink) {
        RawDestination::Sink => Destination::Sink,
        RawDestination::RoundRobin => Destination::RoundRobin,
    }
}

/// a sink one more at the far end (`medium.length_m`).
pub(super) fn positions(
    medium: &Medium,
    senders: usize,
    destination: Destination,
) -> Result<Vec<f64>, FieldError> {
    Ok(match destination {
        Destination::Sink => match &medium.positions_m {
            Some(_) => {
                let mut p = medium.positions(senders, "stations")?;
                p.push(medium.length_m);
                p
            }
            None => medium.even_positions(senders + 1),
        },
        Destination::RoundRobin => medium.positions(senders, "stations")?,
    })
}

impl SaturateWorkload {
    /// One line for `ethersim validate`.
    pub fn summary(&self) -> String {
        let c = &self.config;
        let dest = match c.destination {
            Destination::Sink => " + sink",
            Destination::RoundRobin => " (round robin)",
        };
        format!(
            "{} stations{dest}, {}-byte frames, {} s",
            c.senders,
            c.frame_bytes,
            c.duration.as_secs_f64()
        )
    }
}
