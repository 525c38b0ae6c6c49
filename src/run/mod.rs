//! Running validated scenarios: one run, or a sweep over parameters.
//!
//! [`run`] dispatches on the workload and returns a [`RunOutput`], a shape every exporter,
//! sweep and plot understands without knowing which workload ran: named columns, one row
//! per workload point, a headline figure and the workload's full typed report.
//!
//! The runner produces results ([`output`]); it never formats them (that is
//! the `report` module's job).
//!
//! A sweep ([`plan_sweep`], [`run_sweep`]) is the cross product of parameter values, each
//! combination validated up front (nothing runs if one is invalid), times `replications`
//! seeds. Replication `r` uses [`replication_seed`]`(seed, r)`. Runs execute on a local
//! rayon pool and are handed on one by one in plan order as they finish, so the result
//! does not depend on the number of threads and a sweep's memory does not grow with its
//! number of runs.

use crate::engine::seed;
use crate::ether::{SegmentConfig, WireConfig};
use crate::lan::observe::{reborrow, Observer};
pub mod exact;
pub mod output;

use self::output::{Headline, RunDetail, RunOutput, SweepParam, SweepRun};
pub use self::output::{
    LANPERF_COLUMNS, PERFORM3_COLUMNS, SATURATE_COLUMNS, SHARED_COLUMNS, TRAFFIC_COLUMNS,
};
use crate::scenario::{self, Override, Scenario, ScenarioError, Source, Workload};
use crate::time::SimDuration;
use crate::workload::{lanperf, perform3, saturate, shared, traffic, ttcp};

/// Builds a row of named figures in order.
#[derive(Default)]
struct Row {
    columns: Vec<String>,
    values: Vec<f64>,
}

impl Row {
    fn put(&mut self, name: &str, value: impl Into<f64>) -> &mut Self {
        self.columns.push(name.to_string());
        self.values.push(value.into());
        self
    }
}

/// The CSMA/CD segment a scenario's run observes, or `None` for a point-to-point link
/// or a LANPERF local baseline (no network).
pub fn observed_segment(scenario: &Scenario) -> Option<&SegmentConfig> {
    match &scenario.workload {
        Workload::Saturate(w) => Some(&w.segment),
        Workload::Traffic(w) => Some(&w.segment),
        Workload::Perform3(w) => Some(&w.config.lan.segment),
        Workload::Lanperf(w) if w.config.local.is_none() => Some(&w.config.lan.segment),
        Workload::Lanperf(_) => None,
        Workload::Shared(w) => Some(&w.config.segment),
        Workload::Ttcp(w) => match &w.config.wire {
            WireConfig::Csma(c) => Some(c),
            WireConfig::PointToPoint(_) => None,
        },
    }
}

/// How long the observed run lasts, when known before it runs (saturate, traffic: its duration;
/// PERFORM3: warm-up and window); `None` when the run ends when its work is done.
pub fn planned_span(scenario: &Scenario) -> Option<SimDuration> {
    match &scenario.workload {
        Workload::Saturate(w) => Some(w.config.duration),
        Workload::Traffic(w) => Some(w.config.duration),
        Workload::Perform3(w) => Some(w.config.warmup + w.config.measure),
        Workload::Shared(w) => Some(w.config.warmup + w.config.measure),
        Workload::Lanperf(_) | Workload::Ttcp(_) => None,
    }
}

/// Runs a scenario to completion.
pub fn run(scenario: &Scenario) -> RunOutput {
    run_observed(scenario, None)
}

/// Runs a scenario to completion, handing every observation of the wire and the hosts to
/// `obs` if given ([`crate::lan::observe`]). A workload of several independent runs
/// (PERFORM3's block sizes) is observed in its first run. The results are the same
/// with or without an observer.
pub fn run_observed(scenario: &Scenario, mut obs: Option<&mut dyn Observer>) -> RunOutput {
    match &scenario.workload {
        Workload::Ttcp(w) => {
            let s = ttcp::summarise(ttcp::run_observed(&w.config, scenario.seed, reborrow(&mut obs)));
            RunOutput {
                scenario: scenario.name.clone(),
                seed: scenario.seed,
                workload: scenario.workload.kind().to_string(),
                columns: ttcp::TTCP_COLUMNS.iter().map(|c| c.to_string()).collect(),
                points: vec![s.row()],
                headline: Headline {
                    name: "kbytes_per_s".into(),
                    value: s.kbytes_per_s,
                },
                detail: RunDetail::Ttcp(Box::new(s)),
            }
        }
        Workload::Saturate(w) => {
            let r = saturate::run_observed(&w.config, &w.segment, scenario.seed, reborrow(&mut obs));
            let e = &r.ether;
            let mut row = Row::default();
            row.put("throughput_bps", e.throughput_bps)
                .put("throughput_mbps", e.throughput_bps / 1e6)
                .put("frames_per_s", e.frames_per_s)
                .put("frames_offered", e.frames_offered as f64)
                .put("frames_delivered", e.frames_delivered as f64)
                .put("frames_dropped", e.frames_dropped as f64)
                .put("frames_corrupted", e.frames_corrupted as f64)
                .put("frames_queued", e.frames_queued as f64)
                .put("collisions", e.collisions as f64)
                .put("deferrals", e.deferrals as f64)
                .put("utilization", e.utilization)
                .put("time_collision_s", e.time_collision_s)
                .put("time_corrupted_s", e.time_corrupted_s)
                .put("fairness_jain", e.fairness_jain)
                .put("capture_mean_run", e.capture_mean_run)
                .put(
                    "capture_longest_run",
                    e.capture_longest_run.map_or(f64::NAN, |n| n as f64),
                )
                .put("access_delay_mean_us", e.access_delay.mean_us)
                .put("access_delay_p99_us", e.access_delay.p99_us)
                .put("events", r.events as f64);
            let throughput_mbps = e.throughput_bps / 1e6;
            RunOutput {
                scenario: scenario.name.clone(),
                seed: scenario.seed,
                workload: scenario.workload.kind().to_string(),
                columns: row.columns,
                points: vec![row.values],
                headline: Headline {
                    name: "throughput_mbps".into(),
                    value: throughput_mbps,
                },
                detail: RunDetail::Saturate(Box::new(r)),
            }
        }
        Workload::Traffic(w) => {
            let r = traffic::run_observed(&w.config, &w.segment, scenario.seed, reborrow(&mut obs));
            let mut row = Row::default();
            row.put("offered_load", r.offered_load)
                .put("offered_load_measured", r.offered_load_measured)
                .put("carried_load", r.carried_load)
                .put("throughput_mbps", r.throughput_mbps)
                .put("frames_arrived", r.frames_arrived as f64)
                .put("mean_frame_bytes", r.mean_frame_bytes)
                .put("frames_sent", r.frames_sent as f64)
                .put("collisions_per_frame", r.collisions_per_frame)
                .put("queue_access_delay_mean_us", r.queue_access_delay_mean_us)
                .put("queue_access_delay_p95_us", r.queue_access_delay_p95_us)
                .put("queue_access_delay_p99_us", r.queue_access_delay_p99_us)
                .put("queue_drops", r.queue_drops as f64)
                .put("excessive_collision_drops", r.excessive_collision_drops as f64)
                .put("frames_queued", r.ether.frames_queued as f64)
                .put("utilization", r.ether.utilization)
                .put("events", r.events as f64);
            RunOutput {
                scenario: scenario.name.clone(),
                seed: scenario.seed,
                workload: scenario.workload.kind().to_string(),
                columns: row.columns,
                points: vec![row.values],
                headline: Headline {
                    name: "throughput_mbps".into(),
                    value: r.throughput_mbps,
                },
                detail: RunDetail::Traffic(Box::new(r)),
            }
        }
        Workload::Perform3(w) => {
            let r = match reborrow(&mut obs) {
                Some(o) => perform3::run_observed(&w.config, scenario.seed, o),
                None => perform3::run(&w.config, scenario.seed),
            };
            let mean_kbps = r.mean_kbps();
            let mut columns = Vec::new();
            let points = r
                .points
                .iter()
                .map(|p| {
                    let x = &p.explanation;
                    let mut row = Row::default();
                    row.put("block_size", p.block_size)
                        .put("throughput_kbps", p.throughput_kbps)
                        .put("blocks_completed", p.blocks_completed as f64)
                        .put("ms_per_block", x.ms_per_block)
                        .put("wire_success", x.wire_success)
                        .put("wire_collision", x.wire_collision)
                        .put("wire_corrupted", x.wire_corrupted)
                        .put("wire_idle", x.wire_idle)
                        .put("collisions_per_block", x.collisions_per_block)
                        .put("server_cpu", x.server_cpu.busy)
                        .put("server_copy", x.server_cpu.copy)
                        .put("server_protocol", x.server_cpu.protocol)
                        .put("server_work", x.server_cpu.work)
                        .put("workstation_cpu", x.workstation_cpu.busy)
                        .put("workstation_copy", x.workstation_cpu.copy)
                        .put("server_waiting_for_ack", x.server_waiting_for_ack)
                        .put("packets_retransmitted", x.packets_retransmitted as f64)
                        .put("rx_ring_drops", x.rx_ring_drops as f64)
                        .put("events", p.events as f64);
                    columns = row.columns;
                    row.values
                })
                .collect();
            RunOutput {
                scenario: scenario.name.clone(),
                seed: scenario.seed,
                workload: scenario.workload.kind().to_string(),
                columns,
                points,
                headline: Headline {
                    name: "throughput_kbps".into(),
                    value: mean_kbps,
                },
                detail: RunDetail::Perform3(r),
            }
        }
        Workload::Lanperf(w) => {
            let r = match reborrow(&mut obs) {
                Some(o) => {
                    let (r, audit) = lanperf::run_observed(&w.config, scenario.seed, Some(o));
                    if cfg!(debug_assertions) {
                        if let Err(e) = audit {
                            panic!("seed {}: {e}", scenario.seed);
                        }
                    }
                    r
                }
                None => lanperf::run(&w.config, scenario.seed),
            };
            let mut columns = Vec::new();
            // on a LAN, no window means the stations were never all in a test's timed loop
            // together: the utilisations are missing (NaN), not 0; a local baseline has none
            let missing = if r.servers > 0 { f64::NAN } else { 0.0 };
            let points = r
                .totals
                .iter()
                .map(|t| {
                    let u = t.usage.clone().unwrap_or(lanperf::Usage {
                        window_s: missing,
                        wire_busy: missing,
                        server_cpu: crate::lan::CpuShare {
                            busy: missing,
                            ..Default::default()
                        },
                        disk_busy: missing,
                        workstation_cpu: missing,
                        packets_retransmitted: 0,
                        limit: lanperf::Limit::Latency,
                    });
                    let mut row = Row::default();
                    row.put("test", lanperf_test_code(t.test))
                        .put("stations", r.workstations as f64)
                        .put("block_size", r.params.block)
                        .put("operations", t.operations as f64)
                        .put("mean_response_ms", t.mean_response_ms)
                        .put("throughput_kbps", t.throughput_kbps)
                        .put("wire_busy", u.wire_busy)
                        .put("server_cpu", u.server_cpu.busy)
                        .put("disk_busy", u.disk_busy)
                        .put("workstation_cpu", u.workstation_cpu)
                        .put("packets_retransmitted", u.packets_retransmitted as f64)
                        .put("events", r.events as f64);
                    columns = row.columns;
                    row.values
                })
                .collect();
            RunOutput {
                scenario: scenario.name.clone(),
                seed: scenario.seed,
                workload: scenario.workload.kind().to_string(),
                columns,
                points,
                headline: Headline {
                    name: "throughput_kbps".into(),
                    value: r.headline_kbps(),
                },
                detail: RunDetail::Lanperf(Box::new(r)),
            }
        }
        Workload::Shared(w) => {
            let r = shared::run_observed(&w.config, scenario.seed, reborrow(&mut obs));
            // every file service together: figures summed (`f`), averaged (`mean`), or
            // the one they all share (`same`, NaN where they differ)
            let fs = &r.file_services;
            let f = |get: fn(&perform3::Perform3Point) -> f64| -> f64 {
                if fs.is_empty() {
                    f64::NAN
                } else {
                    fs.iter().fold(0.0, |s, x| s + get(&x.point))
                }
            };
            let mean = |get: fn(&perform3::Perform3Point) -> f64| f(get) / fs.len() as f64;
            let same = |get: fn(&perform3::Perform3Point) -> f64| -> f64 {
                match fs.first().map(|x| get(&x.point)) {
                    Some(v) if fs.iter().all(|x| get(&x.point) == v) => v,
                    _ => f64::NAN,
                }
            };
            // every transfer together
            let t = |get: fn(&shared::TtcpShare) -> f64| r.ttcp_all.as_ref().map_or(f64::NAN, get);
            let g = &r.background;
            let sent: u64 = g.iter().map(|g| g.frames_sent).sum();
            // the groups' frame-weighted access delays (open-loop groups only)
            let delay = |get: fn(&shared::BackgroundShare) -> Option<f64>| -> f64 {
                let (sum, n) = g.iter().fold((0.0, 0u64), |(s, n), g| match get(g) {
                    Some(d) => (s + d * g.frames_sent as f64, n + g.frames_sent),
                    None => (s, n),
                });
                if n > 0 {
                    sum / n as f64
                } else {
                    f64::NAN
                }
            };
            let p99 = g
                .iter()
                .filter_map(|g| g.queue_access_delay_p99_us)
                .fold(f64::NAN, f64::max);
            let mut row = Row::default();
            row.put("workstations", r.workstations as f64)
                .put("block_size", same(|f| f.block_size as f64))
                .put("file_service_kbps", f(|f| f.throughput_kbps))
                .put("ttcp_kbps", t(|t| t.throughput_kbps))
                .put(
                    "background_mbps",
                    // from +0: no group carries +0 Mb/s, not -0
                    g.iter().fold(0.0, |s, g| s + g.throughput_mbps),
                )
                .put("wire_file_service", r.wire.file_service)
                .put("wire_ttcp", r.wire.ttcp)
                .put("wire_background", r.wire.background)
                .put("wire_collision", r.wire.collision)
                .put("wire_corrupted", r.wire.corrupted)
                .put("wire_idle", r.wire.idle)
                .put("ttcp_deferrals_per_frame", t(|t| t.deferrals_per_frame))
                .put("ttcp_collisions_per_frame", t(|t| t.collisions_per_frame))
                .put("ttcp_access_delay_mean_us", t(|t| t.access_delay_mean_us))
                .put("ttcp_transmitter_cpu", t(|t| t.transmitter_cpu))
                .put("ttcp_receiver_cpu", t(|t| t.receiver_cpu))
                .put("background_frames_sent", sent as f64)
                .put(
                    "background_access_delay_mean_us",
                    delay(|g| g.queue_access_delay_mean_us),
                )
                .put("background_access_delay_p99_us", p99)
                .put(
                    "background_queue_drops",
                    g.iter().map(|g| g.queue_drops).sum::<u64>() as f64,
                )
                .put("server_cpu", mean(|f| f.explanation.server_cpu.busy))
                .put("audit_violations", r.audit_violations.len() as f64)
                .put("events", r.events as f64);
            RunOutput {
                scenario: scenario.name.clone(),
                seed: scenario.seed,
                workload: scenario.workload.kind().to_string(),
                columns: row.columns,
                points: vec![row.values],
                headline: match (&r.ttcp_all, fs.is_empty()) {
                    (Some(t), _) => Headline {
                        name: "ttcp_kbps".into(),
                        value: t.throughput_kbps,
                    },
                    (None, false) => Headline {
                        name: "file_service_kbps".into(),
                        value: f(|f| f.throughput_kbps),
                    },
                    (None, true) => Headline {
                        name: "background_mbps".into(),
                        value: r.background.iter().map(|g| g.throughput_mbps).sum(),
                    },
                },
                detail: RunDetail::Shared(Box::new(r)),
            }
        }
    }
}

/// The `test` column of a LANPERF row: 1 = WRITE, 2 = READ.
pub fn lanperf_test_code(t: lanperf::Test) -> f64 {
    match t {
        lanperf::Test::Write => 1.0,
        lanperf::Test::Read => 2.0,
    }
}

/// The columns of each point of `scenario`'s run, known before running it.
pub fn point_columns(scenario: &Scenario) -> &'static [&'static str] {
    match &scenario.workload {
        Workload::Saturate(_) => &SATURATE_COLUMNS,
        Workload::Traffic(_) => &TRAFFIC_COLUMNS,
        Workload::Perform3(_) => &PERFORM3_COLUMNS,
        Workload::Lanperf(_) => &LANPERF_COLUMNS,
        Workload::Ttcp(_) => &ttcp::TTCP_COLUMNS,
        Workload::Shared(_) => &SHARED_COLUMNS,
    }
}

/// The value of `column` at each point of `scenario`'s run, for a column known before
/// running (a PERFORM3 run's `block_size`, a LANPERF run's `test`, a ttcp run's
/// `bytes`); an error names the columns that are.
pub fn point_keys(scenario: &Scenario, column: &str) -> Result<Vec<f64>, String> {
    match (&scenario.workload, column) {
        (Workload::Perform3(w), "block_size") => Ok(w.config.block_sizes.iter().map(|&b| b as f64).collect()),
        (Workload::Lanperf(w), "test") => Ok(w
            .config
            .params
            .tests
            .iter()
            .map(|&t| lanperf_test_code(t))
            .collect()),
        // a ttcp run's one point: the bytes ttcp moves, -l times -n
        (Workload::Ttcp(w), "bytes") => Ok(vec![w.config.buflen as f64 * w.config.nbuf as f64]),
        (w, _) => Err(format!(
            "{column:?} is not known before a {} run (known: {})",
            w.kind(),
            match w {
                Workload::Perform3(_) => "block_size",
                Workload::Lanperf(_) => "test",
                Workload::Saturate(_) => "none: a saturate run has one point",
                Workload::Traffic(_) => "none: a traffic run has one point",
                Workload::Ttcp(_) => "bytes (its one point)",
                Workload::Shared(_) => "none: a shared run has one point",
            }
        )),
    }
}

/// The seed of replication `r` of a run seeded `seed` (see [`seed::replication`]).
pub fn replication_seed(seed: u64, r: u32) -> u64 {
    seed::replication(seed, r)
}

/// A sweep that cannot be planned.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    #[error("the sweep has {runs} runs (combinations x replications); at most {max} are allowed")]
    TooLarge {
        /// The number of runs asked for (saturated at `u64::MAX` if it overflows).
        runs: u64,
        max: usize,
    },
    #[error(transparent)]
    Conflict(#[from] ConflictError),
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
}

/// Two command-line settings of one scenario key (`--set`, `--param`, `--seed`) that
/// contradict each other. Each key may be given once: a later setting would silently
/// replace an earlier one, and a sweep would label its rows with values it did not run.
/// A key inside a table set by another (`a.b` and `a.b.c`) counts as the same key.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ConflictError {
    #[error("{arg} is given twice; give each key once")]
    Twice { arg: String },
    #[error("{first} and {second} both set `{key}`; give it once")]
    Both {
        first: String,
        second: String,
        key: String,
    },
    #[error("{outer} and {inner} overlap: `{inner_key}` is inside `{outer_key}`; set the table or the key inside it, not both")]
    Nested {
        outer: String,
        inner: String,
        outer_key: String,
        inner_key: String,
    },
}

/// Refuses `--set` overrides, swept keys and a `--seed` that set the same key (or a key
/// and a table around it), whatever their order.
pub fn check_conflicts(
    overrides: &[Override],
    params: &[SweepParam],
    seed: Option<u64>,
) -> Result<(), ConflictError> {
    let mut set: Vec<(&str, Vec<&str>)> = Vec::new();
    set.extend(
        overrides
            .iter()
            .map(|o| ("--set", o.keys.iter().map(String::as_str).collect())),
    );
    set.extend(params.iter().map(|p| ("--param", p.key.split('.').collect())));
    if seed.is_some() {
        set.push(("--seed", vec!["seed"]));
    }
    let name = |(flag, keys): &(&str, Vec<&str>)| match *flag {
        "--seed" => "--seed".to_string(),
        _ => format!("{flag} {}", keys.join(".")),
    };
    for (i, a) in set.iter().enumerate() {
        for b in &set[i + 1..] {
            let (outer, inner) = if a.1.len() <= b.1.len() { (a, b) } else { (b, a) };
            if !inner.1.starts_with(&outer.1) {
                continue;
            }
            return Err(if outer.1.len() < inner.1.len() {
                ConflictError::Nested {
                    outer: name(outer),
                    inner: name(inner),
                    outer_key: outer.1.join("."),
                    inner_key: inner.1.join("."),
                }
            } else if a.0 == b.0 {
                ConflictError::Twice { arg: name(a) }
            } else {
                ConflictError::Both {
                    first: name(a),
                    second: name(b),
                    key: a.1.join("."),
                }
            });
        }
    }
    Ok(())
}

/// A `--range` that cannot be expanded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RangeError {
    #[error("{0:?} is not START..END[:STEP] (e.g. 2..16:2 or 0.1..0.5:0.1)")]
    Syntax(String),
    #[error("{0:?}: need finite START <= END and a positive STEP")]
    Bounds(String),
    #[error("{spec:?} gives {count} values; at most {max}")]
    TooMany { spec: String, count: f64, max: usize },
}

/// Most runs (combinations x replications) one sweep may ask for.
pub const MAX_SWEEP_RUNS: usize = 100_000;

/// Most values one `--range` may expand to.
pub const MAX_RANGE_VALUES: usize = 10_000;

/// Splits `a,b,[c,d]` at the commas outside brackets, braces and quotes, and parses each
/// item as a TOML value (a bare word is a string).
pub fn parse_values(list: &str) -> Vec<toml::Value> {
    let mut items = Vec::new();
    let (mut depth, mut quote, mut start) = (0i32, None::<char>, 0);
    for (i, c) in list.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '[' | '{') => depth += 1,
            (None, ']' | '}') => depth -= 1,
            (None, ',') if depth <= 0 => {
                items.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&list[start..]);
    items
        .into_iter()
        .map(|s| scenario::merge::parse_value(s.trim()))
        .collect()
}

/// Expands `START..END[:STEP]` (END included when a step lands on it; STEP defaults to 1).
/// All-integer bounds give integers, otherwise floats.
pub fn parse_range(spec: &str) -> Result<Vec<toml::Value>, RangeError> {
    let bad = || RangeError::Syntax(spec.to_string());
    let (bounds, step) = match spec.split_once(':') {
        Some((b, s)) => (b, Some(s.trim())),
        None => (spec, None),
    };
    let (start, end) = bounds.split_once("..").ok_or_else(bad)?;
    let (start, end) = (start.trim(), end.trim());
    if let (Ok(a), Ok(b), Ok(s)) = (
        start.parse::<i64>(),
        end.parse::<i64>(),
        step.map_or(Ok(1), str::parse::<i64>),
    ) {
        if s <= 0 || b < a {
            return Err(RangeError::Bounds(spec.to_string()));
        }
        let n = ((b as i128 - a as i128) / s as i128 + 1) as u128;
        if n > MAX_RANGE_VALUES as u128 {
            return Err(RangeError::TooMany {
                spec: spec.to_string(),
                count: n as f64,
                max: MAX_RANGE_VALUES,
            });
        }
        return Ok((0..n as i64).map(|k| toml::Value::Integer(a + k * s)).collect());
    }
    let a: f64 = start.parse().map_err(|_| bad())?;
    let b: f64 = end.parse().map_err(|_| bad())?;
    let s: f64 = step.map_or(Ok(1.0), str::parse).map_err(|_| bad())?;
    if !(a.is_finite() && b.is_finite() && s.is_finite()) || s <= 0.0 || b < a {
        return Err(RangeError::Bounds(spec.to_string()));
    }
    let n = ((b - a) / s + 1e-9).floor() + 1.0;
    if n > MAX_RANGE_VALUES as f64 {
        return Err(RangeError::TooMany {
            spec: spec.to_string(),
            count: n,
            max: MAX_RANGE_VALUES,
        });
    }
    // a + k*s, rounded to 12 significant digits so 0.1 steps print as 0.3, not 0.30000000000000004
    Ok((0..n as i64)
        .map(|k| {
            let v = a + k as f64 * s;
            toml::Value::Float(format!("{v:.12e}").parse().unwrap_or(v))
        })
        .collect())
}

/// One combination of the swept values, validated.
#[derive(Clone, Debug)]
pub struct Combination {
    /// The value of each swept key, in the order of the parameters.
    pub values: Vec<toml::Value>,
    pub scenario: Scenario,
}

/// Validates every combination of `params` (the first parameter varies slowest) on top of
/// the scenario `source` with `overrides`; `seed` replaces the scenario's seed if given.
/// Settings that contradict each other (see [`check_conflicts`]: a key swept twice, swept
/// and `--set`, or `seed` swept with a `--seed`) are refused before anything is loaded.
pub fn plan_sweep(
    source: &Source,
    overrides: &[Override],
    params: &[SweepParam],
    seed: Option<u64>,
    replications: u32,
) -> Result<Vec<Combination>, SweepError> {
    plan_sweep_with(source, &[], overrides, params, seed, replications)
}

/// As [`plan_sweep`], with `includes` standing for the scenario's include files
/// ([`scenario::load_source_with`]).
pub fn plan_sweep_with(
    source: &Source,
    includes: &[Source],
    overrides: &[Override],
    params: &[SweepParam],
    seed: Option<u64>,
    replications: u32,
) -> Result<Vec<Combination>, SweepError> {
    let count = check_plan(overrides, params, seed, replications)?;
    (0..count)
        .map(|i| load_combination(source, includes, overrides, params, seed, i))
        .collect()
}

/// Combination `i` of the plan of [`plan_sweep_with`], validated and loaded alone (the
/// others are not): what one run of a sweep run by index needs. `i` must be below the
/// number of combinations.
pub fn plan_combination(
    source: &Source,
    includes: &[Source],
    overrides: &[Override],
    params: &[SweepParam],
    seed: Option<u64>,
    replications: u32,
    i: usize,
) -> Result<Combination, SweepError> {
    let count = check_plan(overrides, params, seed, replications)?;
    assert!(i < count, "combination {i} of a plan of {count}");
    load_combination(source, includes, overrides, params, seed, i)
}

/// Refuses contradicting settings and a sweep over [`MAX_SWEEP_RUNS`]; returns the number
/// of combinations.
fn check_plan(
    overrides: &[Override],
    params: &[SweepParam],
    seed: Option<u64>,
    replications: u32,
) -> Result<usize, SweepError> {
    check_conflicts(overrides, params, seed)?;
    let count = params
        .iter()
        .try_fold(1usize, |n, p| n.checked_mul(p.values.len()));
    let runs = count.and_then(|c| c.checked_mul(replications.max(1) as usize));
    if runs.is_none_or(|r| r > MAX_SWEEP_RUNS) {
        return Err(SweepError::TooLarge {
            runs: runs.map_or(u64::MAX, |r| r as u64),
            max: MAX_SWEEP_RUNS,
        });
    }
    Ok(count.unwrap_or(0))
}

/// Loads combination `i`: the scenario with `overrides`, then the swept values as
/// `--param` overrides, then `seed`.
fn load_combination(
    source: &Source,
    includes: &[Source],
    overrides: &[Override],
    params: &[SweepParam],
    seed: Option<u64>,
    i: usize,
) -> Result<Combination, SweepError> {
    let values = combination_values(params, i);
    let mut all = overrides.to_vec();
    for (p, v) in params.iter().zip(&values) {
        let mut o = Override::new(&p.key, v.clone())?;
        o.arg = format!("--param {}", o.arg);
        all.push(o);
    }
    let mut scenario = scenario::load_source_with(source, includes, &all)?;
    if let Some(s) = seed {
        scenario.seed = s;
    }
    Ok(Combination { values, scenario })
}

/// How many combinations `params` make (their cross product), saturated at `usize::MAX`.
pub fn combination_count(params: &[SweepParam]) -> usize {
    params
        .iter()
        .try_fold(1usize, |n, p| n.checked_mul(p.values.len()))
        .unwrap_or(usize::MAX)
}

/// The values of combination `i` of `params`, in the order of the parameters: the first
/// parameter varies slowest, the last fastest (the plan order of [`plan_sweep`]).
pub fn combination_values(params: &[SweepParam], i: usize) -> Vec<toml::Value> {
    let mut rest = i;
    let mut values = vec![toml::Value::Boolean(false); params.len()];
    for (j, p) in params.iter().enumerate().rev() {
        values[j] = p.values[rest % p.values.len()].clone();
        rest /= p.values.len();
    }
    values
}

/// Run `k` of a sweep of `combos`, each replicated `replications` times, in plan order:
/// combination `k / replications` on the seed of its replication `k % replications`
/// ([`replication_seed`]). [`run_sweep`] runs exactly these; a study's `--run-index k`
/// runs one of them.
pub fn sweep_run(combos: &[Combination], replications: u32, k: usize) -> RunOutput {
    let reps = replications.max(1) as usize;
    let mut s = combos[k / reps].scenario.clone();
    s.seed = replication_seed(s.seed, (k % reps) as u32);
    run(&s)
}

/// Most runs of a sweep started and not yet handed on, per thread: the reorder buffer of
/// [`run_sweep`] holds at most `jobs` times this many finished runs.
pub const RUNS_IN_FLIGHT_PER_THREAD: usize = 4;

/// Runs every combination `replications` times on a pool of `jobs` threads and hands each
/// run to `sink` as it completes, in plan order (combination, then replication), so the
/// result does not depend on the number of threads. `tick` is called after each run (from
/// any thread).
///
/// Memory does not grow with the number of runs: at most `jobs` x
/// [`RUNS_IN_FLIGHT_PER_THREAD`] runs are started and not yet handed on; those that finish
/// ahead of an earlier one wait in a reorder buffer of that size. The first error of `sink`
/// stops the sweep (the runs already started finish and are dropped) and is returned. A
/// panicking run panics the caller.
pub fn run_sweep<E: From<rayon::ThreadPoolBuildError>>(
    combos: &[Combination],
    replications: u32,
    jobs: usize,
    tick: &(dyn Fn() + Sync),
    sink: &mut dyn FnMut(SweepRun) -> Result<(), E>,
) -> Result<(), E> {
    use std::collections::BTreeMap;
    use std::panic::{catch_unwind, AssertUnwindSafe};

    let reps = replications.max(1) as usize;
    let total = combos.len() * reps;
    let window = jobs.max(1) * RUNS_IN_FLIGHT_PER_THREAD;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs.max(1)).build()?;
    let (tx, rx) = std::sync::mpsc::channel::<(usize, std::thread::Result<RunOutput>)>();
    // The calling thread plans and hands on; the runs (and any nested parallelism of a
    // workload) execute on the pool, which never blocks.
    pool.in_place_scope(|scope| {
        let (mut started, mut next) = (0usize, 0usize);
        let mut finished: BTreeMap<usize, RunOutput> = BTreeMap::new();
        while next < total {
            while started < total && started < next + window {
                let (k, tx) = (started, tx.clone());
                scope.spawn(move |_| {
                    let output = catch_unwind(AssertUnwindSafe(|| sweep_run(combos, replications, k)));
                    tick();
                    let _ = tx.send((k, output)); // the receiver is gone only after an error
                });
                started += 1;
            }
            // `tx` is alive here, so `recv` fails only if that invariant is broken.
            let (k, output) = rx.recv().expect("the sweep's channel outlives its runs");
            match output {
                Ok(o) => finished.insert(k, o),
                Err(panic) => std::panic::resume_unwind(panic),
            };
            while let Some(output) = finished.remove(&next) {
                sink(SweepRun {
                    combination: next / reps,
                    replication: (next % reps) as u32,
                    output,
                })?;
                next += 1;
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use toml::Value::{Float, Integer, String as Str};

    #[test]
    fn test_parse_values_respects_brackets() {
        assert_eq!(parse_values("2,4,8"), vec![Integer(2), Integer(4), Integer(8)]);
        assert_eq!(
            parse_values("[3072,7168], [1]"),
            vec![
                toml::Value::Array(vec![Integer(3072), Integer(7168)]),
                toml::Value::Array(vec![Integer(1)])
            ]
        );
        assert_eq!(
            parse_values("sink,round_robin"),
            vec![Str("sink".into()), Str("round_robin".into())]
        );
        assert_eq!(
            parse_values("\"a,b\",c"),
            vec![Str("a,b".into()), Str("c".into())]
        );
    }

    #[test]
    fn test_parse_range_integers_and_floats() {
        assert_eq!(
            parse_range("2..8:2").unwrap(),
            vec![Integer(2), Integer(4), Integer(6), Integer(8)]
        );
        assert_eq!(
            parse_range("1..3").unwrap(),
            vec![Integer(1), Integer(2), Integer(3)]
        );
        assert_eq!(
            parse_range("0.1..0.3:0.1").unwrap(),
            vec![Float(0.1), Float(0.2), Float(0.3)]
        );
        for bad in [
            "5..1",
            "1..5:0",
            "1..5:-1",
            "x..y",
            "1-5",
            "0..1e9:1e-9",
            "0..9223372036854775807",
        ] {
            assert!(parse_range(bad).is_err(), "{bad}");
        }
    }

    fn set(arg: &str) -> Override {
        Override::parse(arg).unwrap()
    }

    fn swept(key: &str) -> SweepParam {
        SweepParam {
            key: key.into(),
            values: vec![Integer(1), Integer(24)],
        }
    }

    #[test]
    fn test_conflicts_same_key_twice() {
        let e = check_conflicts(
            &[],
            &[swept("workload.stations"), swept("workload.stations")],
            None,
        );
        assert_eq!(
            e,
            Err(ConflictError::Twice {
                arg: "--param workload.stations".into()
            })
        );
        let e = check_conflicts(&[set("medium.length_m=10"), set("medium.length_m=20")], &[], None);
        assert!(matches!(e, Err(ConflictError::Twice { .. })), "{e:?}");
    }

    #[test]
    fn test_conflicts_param_and_set_and_seed() {
        let e = check_conflicts(&[set("workload.stations=3")], &[swept("workload.stations")], None);
        assert!(
            matches!(e, Err(ConflictError::Both { ref key, .. }) if key == "workload.stations"),
            "{e:?}"
        );
        let e = check_conflicts(&[], &[swept("seed")], Some(7)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--param seed and --seed both set `seed`; give it once"
        );
        let e = check_conflicts(&[set("seed=3")], &[], Some(7));
        assert!(matches!(e, Err(ConflictError::Both { .. })), "{e:?}");
    }

    #[test]
    fn test_conflicts_table_and_key_inside() {
        let e = check_conflicts(
            &[set("medium={length_m=10.0}")],
            &[swept("medium.length_m")],
            None,
        );
        assert_eq!(
            e,
            Err(ConflictError::Nested {
                outer: "--set medium".into(),
                inner: "--param medium.length_m".into(),
                outer_key: "medium".into(),
                inner_key: "medium.length_m".into(),
            })
        );
        // siblings and keys that only share a prefix of characters do not conflict
        let ok = check_conflicts(
            &[set("medium.length_m=10"), set("medium.length=1")],
            &[swept("workload.stations"), swept("workload.stations_x")],
            Some(1),
        );
        assert_eq!(ok, Ok(()));
    }

    #[test]
    fn test_plan_refuses_a_key_swept_twice() {
        let text = include_str!("../../tests/fixtures/workload-form/saturate.toml");
        let source = Source::from_bytes(std::path::Path::new("saturate.toml"), text.into()).unwrap();
        let params = [swept("workload.stations"), swept("workload.stations")];
        assert!(matches!(
            plan_sweep(&source, &[], &params, None, 1),
            Err(SweepError::Conflict(ConflictError::Twice { .. }))
        ));
    }

    #[test]
    fn test_point_columns_are_what_a_run_produces() {
        let set = |v: &[&str]| v.iter().map(|o| Override::parse(o).unwrap()).collect::<Vec<_>>();
        let saturate = scenario::load_embedded(
            "saturate.toml",
            include_str!("../../tests/fixtures/workload-form/saturate.toml"),
            None,
            &set(&["workload.duration_s=0.01"]),
        )
        .unwrap();
        let perform3 = scenario::load(
            std::path::Path::new(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/scenarios/bulletin/16bit-defaults.toml"
            )),
            &set(&[
                "run.warmup_s=0.05",
                "run.measure_s=0.05",
                "apps[0].block_sizes=[3072,7168]",
            ]),
        )
        .unwrap();
        for s in [saturate, perform3] {
            let out = run(&s);
            assert_eq!(out.columns, point_columns(&s));
            if let Ok(keys) = point_keys(&s, "block_size") {
                assert_eq!(out.points.iter().map(|p| p[0]).collect::<Vec<_>>(), keys);
                assert_eq!(keys, vec![3072.0, 7168.0]);
            } else {
                assert_eq!(out.points.len(), 1);
            }
        }
    }

    #[test]
    fn test_oversized_sweep_is_its_own_error() {
        let text = include_str!("../../tests/fixtures/workload-form/saturate.toml");
        let source = Source::from_bytes(std::path::Path::new("saturate.toml"), text.into()).unwrap();
        let param = |key: &str, n: i64| SweepParam {
            key: key.into(),
            values: (1..=n).map(toml::Value::Integer).collect(),
        };
        let params = [param("workload.stations", 400), param("seed", 400)];
        match plan_sweep(&source, &[], &params, None, 1) {
            Err(SweepError::TooLarge { runs, max }) => assert_eq!((runs, max), (160_000, MAX_SWEEP_RUNS)),
            other => panic!("expected TooLarge, got {other:?}"),
        }
    }
}
