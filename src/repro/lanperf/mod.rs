//! PC Week's LANPERF 1.1 (1989; seed 002): the seed's own sample arithmetic, and the
//! "maximum server throughput" experiment it describes, run on the bulletin's hardware.
//!
//! The seed publishes no measured LAN figures, so this reproduction has two parts of a
//! different standing:
//! - **The sample output** ([`SAMPLE_CSV`]): the seed prints one run (t10 b512 f64: WRITE 1153
//!   operations, 8.673 ms, 57.65 KB/s; READ 1725, 5.797 ms, 86.25 KB/s). LANPERF's own
//!   formulas, as the simulator implements them ([`lanperf::throughput_kbps`],
//!   [`lanperf::mean_response_ms`]), must give those printed figures from the printed
//!   operation counts. This checks the formulas and their units (KB = 1024 bytes, the
//!   nominal test time as the divisor), not a LAN.
//! - **The maximum server throughput** ([`run`]): the seed's recipe ("if successive tests
//!   are run with additional stations, a point will be reached where the sum of the
//!   station throughput results does not increase") run on
//!   `scenarios/lanperf/lanperf-max.toml` for 1 to [`MAX_STATIONS`] stations, each the
//!   mean over [`SEEDS`]. These figures are the model's **prediction**: nothing measured
//!   stands beside them.
//!
//! All runs go in parallel on the current rayon pool and are collected in station and
//! seed order, so the result is the same bit for bit whatever the number of threads.
//! Units: KB/s with LANPERF's 1024-byte KB; ms; busy shares in [0, 1].

pub mod report;

use rayon::prelude::*;

use crate::engine::seed;
use crate::scenario::{Override, Scenario, ScenarioError, Workload};
use crate::workload::lanperf::{self, Limit, Test};

/// The maximum-server-throughput scenario, compiled in (the same file as in
/// `scenarios/lanperf/`); it includes the bulletin's hardware file.
pub const SCENARIO: (&str, &str) = (
    "lanperf-max.toml",
    include_str!("../../../scenarios/lanperf/lanperf-max.toml"),
);

/// The key of the experiment's station count, in its scenario of nodes.
pub const STATIONS_KEY: &str = "nodes.workstations.count";

/// The station counts of the experiment: 1 to this many.
pub const MAX_STATIONS: usize = 20;

/// The seeds each station count is the mean over (the scenario's seed, 1989, first).
pub const SEEDS: [u64; seed::REPORT_SEED_COUNT] = seed::report_seeds(1989);

/// A sum within this share of the maximum counts as reaching it (the summary's "within
/// 2%": the seed noise of one station count is under 0.5%).
pub const NEAR_MAX: f64 = 0.02;

/// The seed's sample output as printed (`data/lanperf/lanperf-sample.csv`, compiled in):
/// `test,test_s,block_size,operations,mean_response_ms,throughput_kbps`.
pub const SAMPLE_CSV: &str = include_str!("../../../data/lanperf/lanperf-sample.csv");

/// One line of the seed's sample output: the test, its time and block size, its
/// operations as printed, and the mean response time and throughput LANPERF printed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleLine {
    pub test: Test,
    pub test_s: u32,
    pub block: u32,
    pub operations: u64,
    pub printed_ms: f64,
    pub printed_kbps: f64,
}

/// The sample output's CSV cannot be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("data/lanperf/lanperf-sample.csv, line {line}: {message}")]
pub struct SampleError {
    pub line: usize,
    pub message: String,
}

/// Parses the sample output's CSV.
pub fn parse_sample(text: &str) -> Result<Vec<SampleLine>, SampleError> {
    let mut r = ::csv::Reader::from_reader(text.as_bytes());
    let mut out = Vec::new();
    for (i, rec) in r.records().enumerate() {
        let line = i + 2;
        let bad = |message: String| SampleError { line, message };
        let rec = rec.map_err(|e| bad(e.to_string()))?;
        let cell = |k: usize| rec.get(k).unwrap_or("").trim();
        let num = |k: usize| -> Result<f64, SampleError> {
            cell(k)
                .parse::<f64>()
                .map_err(|_| bad(format!("column {} is not a number: {:?}", k + 1, cell(k))))
        };
        let test = match cell(0) {
            "WRITE" => Test::Write,
            "READ" => Test::Read,
            other => return Err(bad(format!("test {other:?} is neither WRITE nor READ"))),
        };
        let int = |k: usize| -> Result<u64, SampleError> {
            cell(k)
                .parse::<u64>()
                .map_err(|_| bad(format!("column {} is not a whole number: {:?}", k + 1, cell(k))))
        };
        out.push(SampleLine {
            test,
            test_s: u32::try_from(int(1)?).map_err(|e| bad(e.to_string()))?,
            block: u32::try_from(int(2)?).map_err(|e| bad(e.to_string()))?,
            operations: int(3)?,
            printed_ms: num(4)?,
            printed_kbps: num(5)?,
        });
    }
    Ok(out)
}

/// A sample line with the simulator's formulas applied to its operation count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleCheck {
    pub line: SampleLine,
    pub computed_ms: f64,
    pub computed_kbps: f64,
}

impl SampleCheck {
    /// Whether the computed figures print as LANPERF printed them (three and two
    /// decimals).
    pub fn agrees(&self) -> bool {
        format!("{:.3}", self.computed_ms) == format!("{:.3}", self.line.printed_ms)
            && format!("{:.2}", self.computed_kbps) == format!("{:.2}", self.line.printed_kbps)
    }
}

/// The sample's lines with LANPERF's formulas applied.
pub fn sample() -> Vec<SampleCheck> {
    parse_sample(SAMPLE_CSV)
        .expect("data/lanperf/lanperf-sample.csv is compiled in and well formed")
        .into_iter()
        .map(|line| SampleCheck {
            line,
            computed_ms: lanperf::mean_response_ms(line.test_s, line.operations),
            computed_kbps: lanperf::throughput_kbps(line.test_s, line.block, line.operations),
        })
        .collect()
}

/// The READ test's LAN total at one station count, over the seeds.
#[derive(Clone, Debug, PartialEq)]
pub struct StationPoint {
    pub stations: usize,
    /// The sum of the stations' READ throughputs, one per seed of [`SEEDS`], KB/s.
    pub per_seed_kbps: Vec<f64>,
    /// Means over the seeds of the busiest server CPU's and the wire's busy shares while
    /// every station was in the timed loop.
    pub server_cpu: f64,
    pub wire_busy: f64,
    /// The limit most seeds name (the first seed's on a tie).
    pub limit: Limit,
}

impl StationPoint {
    /// Mean of the per-seed sums, KB/s.
    pub fn mean_kbps(&self) -> f64 {
        self.per_seed_kbps.iter().sum::<f64>() / self.per_seed_kbps.len() as f64
    }
}

/// The experiment's outcome: one point per station count, and the sample check.
#[derive(Clone, Debug, PartialEq)]
pub struct LanperfRepro {
    pub points: Vec<StationPoint>,
    pub sample: Vec<SampleCheck>,
    pub seeds: Vec<u64>,
}

impl LanperfRepro {
    /// The point of the highest mean sum: the maximum server throughput.
    pub fn maximum(&self) -> Option<&StationPoint> {
        self.points
            .iter()
            .fold(None, |best: Option<&StationPoint>, p| match best {
                Some(b) if b.mean_kbps() >= p.mean_kbps() => Some(b),
                _ => Some(p),
            })
    }

    /// The station counts whose mean sum is within [`NEAR_MAX`] of the maximum.
    pub fn near_maximum(&self) -> Vec<usize> {
        let Some(max) = self.maximum().map(StationPoint::mean_kbps) else {
            return Vec::new();
        };
        self.points
            .iter()
            .filter(|p| p.mean_kbps() >= max * (1.0 - NEAR_MAX))
            .map(|p| p.stations)
            .collect()
    }
}

/// The LANPERF reproduction could not run.
#[derive(Debug, thiserror::Error)]
pub enum LanperfReproError {
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    #[error("lanperf-max.toml is not a LANPERF scenario")]
    NotLanperf,
    #[error(
        "the scenario's options run no READ test at {stations} stations: the experiment \
         sums READ throughputs (keep `r` in apps[0].options)"
    )]
    NoRead { stations: usize },
    #[error(
        "{0}: the experiment sets nodes.workstations.count itself (1 to {MAX_STATIONS}); change any \
         other key"
    )]
    StationsSet(String),
    #[error("no run {index}: the experiment has runs 0..{}", RUNS - 1)]
    NoRun { index: usize },
}

/// The experiment's scenario at `stations` stations, with the overrides `set` (applied
/// after the station count, so `--set nodes.workstations.count=...` is refused by the caller's
/// conflict check rather than silently lost).
pub fn scenario(stations: usize, set: &[Override]) -> Result<Scenario, ScenarioError> {
    let mut o = vec![Override::parse(&format!("{STATIONS_KEY}={stations}"))?];
    o.extend(set.iter().cloned());
    super::catalogue::load(&format!("lanperf/{}", SCENARIO.0), &o)
}

/// Runs the experiment with overrides `set` in every run: the [`RUNS`] runs of
/// [`read_run`], in parallel on the current rayon pool, put together by [`from_runs`].
pub fn run(set: &[Override]) -> Result<LanperfRepro, LanperfReproError> {
    check_set(set)?;
    let results = (0..RUNS)
        .into_par_iter()
        .map(|i| read_run(i, set))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(from_runs(&results))
}

/// How many runs the experiment takes: each station count, 1 to [`MAX_STATIONS`], on each
/// seed of [`SEEDS`].
pub const RUNS: usize = MAX_STATIONS * SEEDS.len();

/// The station count and seed of run `index` (station counts in order, the seeds of each
/// in [`SEEDS`] order); `None` past [`RUNS`].
pub fn run_at(index: usize) -> Option<(usize, u64)> {
    (index < RUNS).then(|| (index / SEEDS.len() + 1, SEEDS[index % SEEDS.len()]))
}

/// What the experiment keeps of one run: the READ test's LAN total and what limited it
/// (the busy shares are NaN when the stations were never all in the timed loop).
/// Serialised exactly ([`crate::run::exact`]).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ReadRun {
    #[serde(with = "crate::run::exact::float")]
    pub kbps: f64,
    #[serde(with = "crate::run::exact::float")]
    pub server_cpu: f64,
    #[serde(with = "crate::run::exact::float")]
    pub wire_busy: f64,
    pub limit: Limit,
}

/// The experiment sets [`STATIONS_KEY`] itself: an override of it is refused.
fn check_set(set: &[Override]) -> Result<(), LanperfReproError> {
    match set.iter().find(|o| o.keys.join(".") == STATIONS_KEY) {
        Some(o) => Err(LanperfReproError::StationsSet(o.arg.clone())),
        None => Ok(()),
    }
}

/// Run `index` of the experiment ([`run_at`]) with the overrides `set`.
pub fn read_run(index: usize, set: &[Override]) -> Result<ReadRun, LanperfReproError> {
    check_set(set)?;
    let (stations, seed) = run_at(index).ok_or(LanperfReproError::NoRun { index })?;
    let s = scenario(stations, set)?;
    let Workload::Lanperf(w) = &s.workload else {
        return Err(LanperfReproError::NotLanperf);
    };
    let r = lanperf::run(&w.config, seed);
    let total = r
        .totals
        .iter()
        .find(|t| t.test == Test::Read)
        .ok_or(LanperfReproError::NoRead { stations })?;
    let (server_cpu, wire_busy, limit) = total
        .usage
        .as_ref()
        .map_or((f64::NAN, f64::NAN, Limit::Latency), |u| {
            (u.server_cpu.busy, u.wire_busy, u.limit)
        });
    Ok(ReadRun {
        kbps: total.throughput_kbps,
        server_cpu,
        wire_busy,
        limit,
    })
}

/// The experiment from its [`RUNS`] runs, in run order: one point per station count.
pub fn from_runs(results: &[ReadRun]) -> LanperfRepro {
    let points = results
        .chunks(SEEDS.len())
        .enumerate()
        .map(|(i, runs)| {
            let n = runs.len() as f64;
            StationPoint {
                stations: i + 1,
                per_seed_kbps: runs.iter().map(|r| r.kbps).collect(),
                server_cpu: runs.iter().map(|r| r.server_cpu).sum::<f64>() / n,
                wire_busy: runs.iter().map(|r| r.wire_busy).sum::<f64>() / n,
                limit: majority(runs.iter().map(|r| r.limit)),
            }
        })
        .collect();
    LanperfRepro {
        points,
        sample: sample(),
        seeds: SEEDS.to_vec(),
    }
}

/// The value that occurs most often; the earliest of those on a tie.
fn majority(items: impl Iterator<Item = Limit>) -> Limit {
    let v: Vec<Limit> = items.collect();
    let count = |l: &Limit| v.iter().filter(|x| *x == l).count();
    v.iter()
        .copied()
        .fold(None, |best: Option<Limit>, l| match best {
            Some(b) if count(&b) >= count(&l) => Some(b),
            _ => Some(l),
        })
        .unwrap_or(Limit::Latency)
}

/// LANPERF's maximum-server-throughput experiment, as a
/// [`Reproduction`](super::Reproduction).
pub struct Lanperf;

impl super::Reproduction for Lanperf {
    fn name(&self) -> &'static str {
        "lanperf"
    }
    fn aliases(&self) -> &'static [&'static str] {
        &["lanperf-1989"]
    }
    fn summary(&self) -> &'static str {
        "PC Week's LANPERF 1.1 (1989): the seed's sample arithmetic checked, and its maximum \
         server throughput experiment (READ with 1 to 20 stations) on the bulletin's hardware, \
         a prediction: the seed has no measured numbers"
    }
    fn measured(&self) -> bool {
        false
    }
    fn report_seeds(&self) -> Vec<u64> {
        SEEDS.to_vec()
    }
    fn calibrated(&self) -> bool {
        false
    }
    fn files(&self) -> &'static [&'static str] {
        &[
            "lanperf.csv",
            "lanperf-sample.csv",
            "lanperf-max.svg",
            "lanperf-max.png",
        ]
    }
    fn run(
        &self,
        set: &[Override],
        out: &mut crate::report::atomic::Staged,
    ) -> Result<String, super::ReproError> {
        let data = run(set)?;
        report::write_outputs(&data, out)?;
        Ok(report::comparison_table(&data))
    }
    fn indexed(&self) -> Option<&dyn super::Indexed> {
        Some(self)
    }
}

impl super::Indexed for Lanperf {
    fn runs(&self) -> usize {
        RUNS
    }
    fn describe(&self, index: usize) -> Vec<(String, String)> {
        run_at(index).map_or_else(Vec::new, |(stations, seed)| {
            vec![
                (
                    "scenario".into(),
                    SCENARIO.0.trim_end_matches(".toml").to_string(),
                ),
                (STATIONS_KEY.into(), stations.to_string()),
                ("seed".into(), seed.to_string()),
            ]
        })
    }
    fn sources(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            SCENARIO,
            super::bulletin::HARDWARE,
            super::catalogue::PROFILES,
            ("lanperf-sample.csv", SAMPLE_CSV),
        ]
    }
    fn run_one(&self, set: &[Override], index: usize) -> Result<serde_json::Value, super::ReproError> {
        let run = read_run(index, set)?;
        serde_json::to_value(run).map_err(|e| super::ReproError::RunResult {
            index,
            message: e.to_string(),
        })
    }
    fn finish(
        &self,
        set: &[Override],
        runs: &[serde_json::Value],
        out: &mut crate::report::atomic::Staged,
    ) -> Result<String, super::ReproError> {
        check_set(set)?;
        let runs = runs
            .iter()
            .enumerate()
            .map(|(index, v)| {
                serde_json::from_value::<ReadRun>(v.clone()).map_err(|e| super::ReproError::RunResult {
                    index,
                    message: e.to_string(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let data = from_runs(&runs);
        report::write_outputs(&data, out)?;
        Ok(report::comparison_table(&data))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_sample_arithmetic_prints_as_lanperf_printed() {
        let s = sample();
        assert_eq!(s.len(), 2);
        for c in &s {
            assert!(c.agrees(), "{c:?}");
        }
        // by hand: 1153 x 512 / 10 / 1024 = 57.6500 KB/s, 10 s / 1153 = 8.6730 ms
        assert!((s[0].computed_kbps - 57.65).abs() < 1e-9);
        assert!((s[0].computed_ms - 8.673_03).abs() < 1e-5);
    }

    #[test]
    fn test_sample_csv_errors_name_the_line() {
        let e = parse_sample("test,test_s,block_size,operations,ms,kbps\nREAD,10,512,x,1,2\n");
        assert_eq!(e.unwrap_err().line, 2);
        let e = parse_sample("test,test_s,block_size,operations,ms,kbps\nFOO,10,512,1,1,2\n");
        assert!(e.unwrap_err().message.contains("FOO"));
    }

    #[test]
    fn test_a_wrong_print_does_not_agree() {
        let mut c = sample()[1];
        c.line.printed_kbps = 86.26;
        assert!(!c.agrees());
    }

    #[test]
    fn test_majority_and_maximum() {
        let l = majority([Limit::Wire, Limit::ServerCpu, Limit::ServerCpu].into_iter());
        assert_eq!(l, Limit::ServerCpu);
        assert_eq!(majority([Limit::Wire, Limit::Disk].into_iter()), Limit::Wire);
        let p = |stations, k: f64| StationPoint {
            stations,
            per_seed_kbps: vec![k, k],
            server_cpu: 0.0,
            wire_busy: 0.0,
            limit: Limit::Latency,
        };
        let r = LanperfRepro {
            points: vec![p(1, 100.0), p(2, 990.0), p(3, 1000.0), p(4, 970.0)],
            sample: Vec::new(),
            seeds: vec![1, 2],
        };
        assert_eq!(r.maximum().map(|p| p.stations), Some(3));
        assert_eq!(r.near_maximum(), vec![2, 3]);
    }
}
