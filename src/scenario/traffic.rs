//! Workload kind `traffic`: open-loop stations offering a load on the bare segment.
//!
//! Keys (under `[workload]`, besides `kind`; declared in [`params::workloads`]):
//! `stations`, `destination` (`sink` or `round_robin`, as for `saturate`), `arrivals`
//! (`poisson` or `constant`), `offered_load` (fraction of the bit rate, header-to-FCS
//! bits, all stations together), `sizes` (a table with its own `kind`: `fixed`,
//! `uniform`, `bimodal` or `table`), `queue_frames` and `duration_s`. Sizes are bytes,
//! header to FCS, within 64..=1518 (4318 with `medium.allow_oversize`).

use serde::Deserialize;

use super::error::{show, FieldError};
use super::medium::Medium;
use super::saturate::RawDestination;
use super::Sections;
use super::{budget, params};
use crate::ether::SegmentConfig;
use crate::lan::source::{Offer, SourceConfig};
use crate::workload::traffic::{Arrivals, Destination, Sizes, TrafficConfig};

/// Most entries of a `table` of sizes.
pub const MAX_TABLE_ENTRIES: usize = 256;

/// This kind's entry of a registered key (see [`params`]).
fn param(key: &str) -> &'static params::Param {
    params::get(Some("traffic"), key)
}

/// `[workload]` of kind `traffic`, as written (`kind` already removed).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTraffic {
    pub stations: i64,
    pub destination: Option<RawDestination>,
    pub arrivals: Option<RawArrivals>,
    pub offered_load: f64,
    pub sizes: RawSizes,
    pub queue_frames: Option<i64>,
    pub duration_s: Option<f64>,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawArrivals {
    Poisson,
    Constant,
}

/// `workload.sizes`, tagged by its `kind`.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum RawSizes {
    Fixed {
        bytes: i64,
    },
    Uniform {
        min: i64,
        max: i64,
    },
    Bimodal {
        small: Option<i64>,
        large: Option<i64>,
        small_fraction: Option<f64>,
    },
    Table {
        bytes: Vec<i64>,
        weights: Vec<f64>,
    },
}

/// A validated traffic run: the workload and the segment it runs on.
#[derive(Clone, Debug)]
pub struct TrafficWorkload {
    pub config: TrafficConfig,
    pub segment: SegmentConfig,
}

impl RawSizes {
    fn validate(self, medium: &Medium, warnings: &mut Vec<String>) -> Result<Sizes, FieldError> {
        let mut size = |path: &str, b: i64| -> Result<u32, FieldError> {
            if let Some(w) = medium.check_frame_bytes(path, b)? {
                if !warnings.contains(&w) {
                    warnings.push(w);
                }
            }
            Ok(b as u32)
        };
        Ok(match self {
            RawSizes::Fixed { bytes } => Sizes::Fixed {
                bytes: size("workload.sizes.bytes", bytes)?,
            },
            RawSizes::Uniform { min, max } => {
                let min = size("workload.sizes.min", min)?;
                let max = size("workload.sizes.max", max)?;
                if max < min {
                    return Err(FieldError::invalid(
                        "workload.sizes.max",
                        format!("{max} is below workload.sizes.min = {min}"),
                    ));
                }
                Sizes::Uniform { min, max }
            }
            RawSizes::Bimodal {
                small,
                large,
                small_fraction,
            } => {
                let small = size("workload.sizes.small", small.unwrap_or(64))?;
                let large = size("workload.sizes.large", large.unwrap_or(1518))?;
                let f = small_fraction.unwrap_or(0.5);
                let (lo, hi) = param("workload.sizes.small_fraction").real_range();
                if !(lo..=hi).contains(&f) {
                    return Err(FieldError::range(
                        "workload.sizes.small_fraction",
                        show(f),
                        format!("{lo}..={hi}"),
                    ));
                }
                Sizes::Bimodal {
                    small,
                    large,
                    small_fraction: f,
                }
            }
            RawSizes::Table { bytes, weights } => {
                if bytes.is_empty() || bytes.len() > MAX_TABLE_ENTRIES {
                    return Err(FieldError::invalid(
                        "workload.sizes.bytes",
                        format!("has {} entries; give 1 to {MAX_TABLE_ENTRIES}", bytes.len()),
                    ));
                }
                if weights.len() != bytes.len() {
                    return Err(FieldError::invalid(
                        "workload.sizes.weights",
                        format!(
                            "has {} entries but workload.sizes.bytes has {}: one weight per size",
                            weights.len(),
                            bytes.len()
                        ),
                    ));
                }
                let sizes = bytes
                    .iter()
                    .enumerate()
                    .map(|(i, &b)| size(&format!("workload.sizes.bytes[{i}]"), b))
                    .collect::<Result<Vec<u32>, _>>()?;
                let (lo, hi) = param("workload.sizes.weights").real_range();
                for (i, &w) in weights.iter().enumerate() {
                    if !(lo..=hi).contains(&w) {
                        return Err(FieldError::range(
                            format!("workload.sizes.weights[{i}]"),
                            show(w),
                            format!("{lo}..={hi}"),
                        ));
                    }
                }
                if weights.iter().sum::<f64>() <= 0.0 {
                    return Err(FieldError::invalid(
                        "workload.sizes.weights",
                        "sum to zero: at least one size needs a positive weight",
                    ));
                }
                Sizes::Table {
                    bytes: sizes,
                    weights,
                }
            }
        })
    }
}

/// The validated keys of open-loop stations, but their duration.
pub(super) struct OpenGroup {
    senders: usize,
    destination: Destination,
    arrivals: Arrivals,
    load: f64,
    sizes: Sizes,
    queue_frames: usize,
}

impl OpenGroup {
    /// The stations as a group of open-loop frame sources.
    pub(super) fn sources(self) -> SourceConfig {
        SourceConfig {
            senders: self.senders,
            destination: self.destination,
            offer: Offer::Open {
                arrivals: self.arrivals,
                offered_load: self.load,
                sizes: self.sizes,
                queue_frames: self.queue_frames,
            },
        }
    }
}

impl RawTraffic {
    /// The stations as a group of open-loop frame sources: every key but `duration_s`
    /// (paths as in a traffic workload, `workload.KEY`).
    pub(super) fn group(&self, medium: &Medium, warnings: &mut Vec<String>) -> Result<OpenGroup, FieldError> {
        let senders = super::saturate::senders(self.stations)?;
        let destination = super::saturate::destination(self.destination);
        if destination == Destination::RoundRobin && senders < 2 {
            return Err(FieldError::invalid(
                "workload.destination",
                "round_robin needs at least 2 stations (use \"sink\" for one)",
            ));
        }
        let arrivals = match self.arrivals.unwrap_or(RawArrivals::Poisson) {
            RawArrivals::Poisson => Arrivals::Poisson,
            RawArrivals::Constant => Arrivals::Constant,
        };
        let load = self.offered_load;
        let (lo, hi) = param("workload.offered_load").real_range();
        if !(load.is_finite() && load > lo && load <= hi) {
            return Err(FieldError::range(
                "workload.offered_load",
                show(load),
                format!("({lo}, {hi}], a fraction of the bit rate"),
            ));
        }
        let sizes = self.sizes.clone().validate(medium, warnings)?;
        let queue_frames = self.queue_frames.unwrap_or(16);
        let (lo, hi) = param("workload.queue_frames").int_range();
        if !(lo..=hi).contains(&queue_frames) {
            return Err(FieldError::range(
                "workload.queue_frames",
                queue_frames,
                format!("{lo}..={hi}"),
            ));
        }
        Ok(OpenGroup {
            senders,
            destination,
            arrivals,
            load,
            sizes,
            queue_frames: queue_frames as usize,
        })
    }

    pub fn validate(
        self,
        s: &Sections<'_>,
        warnings: &mut Vec<String>,
    ) -> Result<TrafficWorkload, FieldError> {
        let medium: &Medium = s.medium;
        let OpenGroup {
            senders,
            destination,
            arrivals,
            load,
            sizes,
            queue_frames,
        } = self.group(medium, warnings)?;
        let duration_s = self.duration_s.unwrap_or(10.0);
        let duration =
            params::param_duration(param("workload.duration_s"), "workload.duration_s", duration_s)?;
        let events =
            budget::traffic_events(medium, senders, sizes.mean_bytes(), load, duration.as_secs_f64());
        budget::admit(
            "workload.duration_s",
            budget::TRAFFIC_COST,
            events,
            senders + 1,
            &format!(
                "{senders} stations offering {} of the wire for {} s",
                show(load),
                show(duration_s)
            ),
            "shorten duration_s, lower offered_load or use fewer stations",
        )?;
        let positions = super::saturate::positions(medium, senders, destination)?;
        Ok(TrafficWorkload {
            config: TrafficConfig {
                senders,
                destination,
                arrivals,
                offered_load: load,
                sizes,
                queue_frames,
                duration,
            },
            segment: medium.segment(positions),
        })
    }
}

impl TrafficWorkload {
    /// One line for `ethersim validate`.
    pub fn summary(&self) -> String {
        let c = &self.config;
        let dest = match c.destination {
            Destination::Sink => " + sink",
            Destination::RoundRobin => " (round robin)",
        };
        let arrivals = match c.arrivals {
            Arrivals::Poisson => "Poisson",
            Arrivals::Constant => "constant",
        };
        format!(
            "{} stations{dest}, {arrivals} arrivals at load {}, mean frame {:.0} bytes, {} s",
            c.senders,
            show(c.offered_load),
            c.sizes.mean_bytes(),
            c.duration.as_secs_f64()
        )
    }
}
