//! The 1992 Artisoft performance bulletin: its four configurations and Figure 1.
//!
//! The four scenario files and the shared hardware file they include are embedded in the
//! binary (the same files as in `scenarios/`), so `ethersim figure1` runs from any
//! directory. Each configuration is a PERFORM3 run over the 16 block sizes of Table 1; the
//! simulated throughput of each point is set beside the measured one.
//!
//! Table 1 is compiled in from `data/bulletin/bulletin-table1.csv` ([`table1`]); throughput is in
//! KB/s with 1 KB = 1000 bytes (the bulletin's 10 Mb/s = 1250 KB/s).

pub mod analysis;
pub mod report;

use rayon::prelude::*;

use self::analysis::{Figure1Curve, Figure1Data, Figure1Point, Packetization};
use crate::engine::seed;
use crate::scenario::{Override, Scenario, ScenarioError, Workload};
use crate::workload::perform3::{self, Perform3Report};

/// The four configurations, in the bulletin's order (Table 1's columns).
pub const CONFIGS: [&str; 4] = [
    "16bit-optimized",
    "8bit-optimized",
    "16bit-defaults",
    "8bit-defaults",
];

/// Table 1 of the bulletin, as shipped in the repository.
pub const TABLE1_CSV: &str = include_str!("../../../data/bulletin/bulletin-table1.csv");

/// A Table 1 CSV that cannot be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Table1Error {
    #[error("Table 1 is not valid CSV: {0}")]
    Csv(String),
    #[error(
        "unexpected Table 1 header {0:?}: columns must be block_size then <config>_kbps for {CONFIGS:?}"
    )]
    Header(Vec<String>),
    #[error("Table 1 block size {0:?} is not a whole number of bytes")]
    BlockSize(String),
    #[error("Table 1 value {value:?} of {config} at block size {block} is not a number")]
    Value {
        config: String,
        block: u32,
        value: String,
    },
}

/// Table 1 as `(config, block_size, measured KB/s)`, configurations in [`CONFIGS`] order
/// within each block size row order of the file.
pub fn table1() -> Vec<(String, u32, f64)> {
    parse_table1(TABLE1_CSV).expect("data/bulletin/bulletin-table1.csv is compiled in and well formed")
}

/// Parses Table 1's CSV (`block_size,16bit_optimized_kbps,...`).
pub fn parse_table1(text: &str) -> Result<Vec<(String, u32, f64)>, Table1Error> {
    let csv_err = |e: ::csv::Error| Table1Error::Csv(e.to_string());
    let mut r = ::csv::Reader::from_reader(text.as_bytes());
    let header = r.headers().map_err(csv_err)?.clone();
    let configs: Vec<String> = header
        .iter()
        .skip(1)
        .map(|h| h.trim_end_matches("_kbps").replace('_', "-"))
        .collect();
    if configs.iter().any(|c| !CONFIGS.contains(&c.as_str())) {
        return Err(Table1Error::Header(header.iter().map(String::from).collect()));
    }
    let mut out = Vec::new();
    for rec in r.records() {
        let rec = rec.map_err(csv_err)?;
        let cell = rec.get(0).unwrap_or("");
        let block: u32 = cell
            .parse()
            .map_err(|_| Table1Error::BlockSize(cell.to_string()))?;
        for (c, cell) in configs.iter().zip(rec.iter().skip(1)) {
            let kbps: f64 = cell.parse().map_err(|_| Table1Error::Value {
                config: c.clone(),
                block,
                value: cell.to_string(),
            })?;
            out.push((c.clone(), block, kbps));
        }
    }
    Ok(out)
}

/// Legend text of a configuration name (`16bit-optimized` -> `16-bit, optimized`).
pub fn config_label(config: &str) -> String {
    match config.split_once("bit-") {
        Some((bits, rest)) => format!("{bits}-bit, {rest}"),
        None => config.to_string(),
    }
}

/// Figure 1 data with Table 1 as the measured values and `simulate(config, block,
/// measured)` as the simulated ones (for tests and previews of the renderers).
pub fn from_table1(simulate: impl Fn(&str, u32, f64) -> f64) -> Figure1Data {
    let t = table1();
    let curves = CONFIGS
        .iter()
        .map(|&config| Figure1Curve {
            config: config.to_string(),
            label: config_label(config),
            packets: packetization(config, &[]).ok(),
            points: t
                .iter()
                .filter(|(c, _, _)| c == config)
                .map(|(_, b, m)| Figure1Point {
                    block_size: *b,
                    measured_kbps: *m,
                    simulated_kbps: simulate(config, *b, *m),
                })
                .collect(),
        })
        .collect();
    Figure1Data {
        curves,
        seeds: Vec::new(),
    }
}

/// File name and text of the shared hardware description.
pub const HARDWARE: (&str, &str) = (
    "artisoft-1992.toml",
    include_str!("../../../scenarios/bulletin/artisoft-1992.toml"),
);

/// File name and text of each configuration's scenario, in Table 1's column order.
pub const SCENARIOS: [(&str, &str); 4] = [
    (
        "16bit-optimized.toml",
        include_str!("../../../scenarios/bulletin/16bit-optimized.toml"),
    ),
    (
        "8bit-optimized.toml",
        include_str!("../../../scenarios/bulletin/8bit-optimized.toml"),
    ),
    (
        "16bit-defaults.toml",
        include_str!("../../../scenarios/bulletin/16bit-defaults.toml"),
    ),
    (
        "8bit-defaults.toml",
        include_str!("../../../scenarios/bulletin/8bit-defaults.toml"),
    ),
];

/// Loads configuration `config` (one of [`CONFIGS`]) from the embedded files.
pub fn scenario(config: &str, overrides: &[Override]) -> Result<Scenario, ScenarioError> {
    let Some(i) = CONFIGS.iter().position(|c| *c == config) else {
        return Err(ScenarioError::UnknownConfiguration {
            name: config.to_string(),
            allowed: CONFIGS.join(", "),
        });
    };
    load(SCENARIOS[i].0, None, overrides)
}

/// Loads the bulletin's scenario file `name` (`16bit-optimized.toml`, or any other of
/// `scenarios/bulletin/`) from the embedded files, with `hardware` (a text) in place of
/// the hardware file `artisoft-1992.toml` if given, and `overrides`.
pub fn load(name: &str, hardware: Option<&str>, overrides: &[Override]) -> Result<Scenario, ScenarioError> {
    let path = format!("bulletin/{name}");
    match hardware {
        Some(hw) => super::catalogue::load_with(&path, &[("bulletin/artisoft-1992.toml", hw)], overrides),
        None => super::catalogue::load(&path, overrides),
    }
}

/// How configuration `config`'s server packs file data ([`Packetization`]): packets of
/// the AI-LANBIOS payload its packet size allows, replies of at most its network buffer.
pub fn packetization(config: &str, overrides: &[Override]) -> Result<Packetization, ScenarioError> {
    let s = scenario(config, overrides)?;
    let Workload::Perform3(w) = &s.workload else {
        unreachable!("bulletin scenario {config} has workload {}", s.workload.kind())
    };
    let p = &w.config.lan.profile;
    Ok(Packetization {
        payload: p.server_session.payload(p.server_adapter.packet_size),
        reply_bytes: p.server.network_buffer,
    })
}

/// Runs one configuration's PERFORM3 sweep of block sizes.
pub fn run_config(config: &str, overrides: &[Override]) -> Result<Perform3Report, ScenarioError> {
    let s = scenario(config, overrides)?;
    match &s.workload {
        Workload::Perform3(w) => Ok(perform3::run(&w.config, s.seed)),
        other => unreachable!("bulletin scenario {config} has workload {}", other.kind()),
    }
}

/// The seeds Figure 1 averages over: the scenarios' own seed (1992) and four more
/// ([`seed::report_seeds`]). The calibration of the bulletin (`calibrations/bulletin/fit.toml`)
/// reports over the same seeds.
pub const SEEDS: [u64; seed::REPORT_SEED_COUNT] = seed::report_seeds(1992);

/// Runs configuration `config` (with `overrides` applied) once per seed of `seeds`.
pub fn run_config_seeds(
    config: &str,
    seeds: &[u64],
    overrides: &[Override],
) -> Result<Vec<Perform3Report>, ScenarioError> {
    let s = scenario(config, overrides)?;
    let Workload::Perform3(w) = &s.workload else {
        unreachable!("bulletin scenario {config} has workload {}", s.workload.kind())
    };
    Ok(seeds
        .par_iter()
        .map(|&seed| perform3::run(&w.config, seed))
        .collect())
}

/// Runs all four configurations on every seed of [`SEEDS`] (in parallel on the current
/// rayon pool) and pairs each point's mean over the seeds with Table 1.
pub fn figure1() -> Result<Figure1Data, ScenarioError> {
    figure1_with(&[])
}

/// [`figure1`] with `overrides` applied to every configuration (a what-if of the whole
/// figure: `ethersim reproduce figure1 --set KEY=VALUE`): the [`RUNS`] runs of
/// [`figure1_run`], in parallel, put together by [`figure1_from_runs`].
pub fn figure1_with(overrides: &[Override]) -> Result<Figure1Data, ScenarioError> {
    let runs: Vec<Vec<BlockKbps>> = (0..RUNS)
        .into_par_iter()
        .map(|i| figure1_run(i, overrides))
        .collect::<Result<_, _>>()?;
    figure1_from_runs(&runs, overrides)
}

/// How many runs Figure 1 takes: each configuration of [`CONFIGS`] on each seed of [`SEEDS`].
pub const RUNS: usize = CONFIGS.len() * SEEDS.len();

/// The configuration and seed of run `index` (configurations in [`CONFIGS`] order, the
/// seeds of each in [`SEEDS`] order); `None` past [`RUNS`].
pub fn run_at(index: usize) -> Option<(&'static str, u64)> {
    (index < RUNS).then(|| (CONFIGS[index / SEEDS.len()], SEEDS[index % SEEDS.len()]))
}

/// The simulated throughput of one block size in one run (KB/s, 1 KB = 1000 bytes),
/// serialised exactly ([`crate::run::exact`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BlockKbps {
    pub block_size: u32,
    #[serde(with = "crate::run::exact::float")]
    pub kbps: f64,
}

/// Run `index` of Figure 1 ([`run_at`]) with `overrides`: each block size's throughput.
pub fn figure1_run(index: usize, overrides: &[Override]) -> Result<Vec<BlockKbps>, ScenarioError> {
    let Some((config, seed)) = run_at(index) else {
        return Err(ScenarioError::UnknownConfiguration {
            name: format!("run {index}"),
            allowed: format!("runs 0..{}", RUNS - 1),
        });
    };
    let s = scenario(config, overrides)?;
    let Workload::Perform3(w) = &s.workload else {
        unreachable!("bulletin scenario {config} has workload {}", s.workload.kind())
    };
    Ok(perform3::run(&w.config, seed)
        .points
        .iter()
        .map(|p| BlockKbps {
            block_size: p.block_size,
            kbps: p.throughput_kbps,
        })
        .collect())
}

/// Figure 1 from its [`RUNS`] runs, in run order: each point's mean over the seeds beside
/// Table 1 (a point missing from a run is left out).
pub fn figure1_from_runs(
    runs: &[Vec<BlockKbps>],
    overrides: &[Override],
) -> Result<Figure1Data, ScenarioError> {
    let measured = table1();
    let mut curves = Vec::with_capacity(4);
    for (config, reports) in CONFIGS.iter().zip(runs.chunks(SEEDS.len())) {
        let mut points: Vec<Figure1Point> = measured
            .iter()
            .filter(|(c, _, _)| c == config)
            .filter_map(|(_, block, kbps)| {
                let runs: Vec<f64> = reports
                    .iter()
                    .filter_map(|r| r.iter().find(|p| p.block_size == *block))
                    .map(|p| p.kbps)
                    .collect();
                if runs.len() != reports.len() {
                    return None;
                }
                Some(Figure1Point {
                    block_size: *block,
                    measured_kbps: *kbps,
                    simulated_kbps: runs.iter().sum::<f64>() / runs.len() as f64,
                })
            })
            .collect();
        points.sort_by_key(|p| p.block_size);
        curves.push(Figure1Curve {
            config: config.to_string(),
            label: config_label(config),
            points,
            packets: Some(packetization(config, overrides)?),
        });
    }
    Ok(Figure1Data {
        curves,
        seeds: SEEDS.to_vec(),
    })
}

/// The bulletin's summary figures from a set of curves: the percent differences of the
/// averages it quotes (8-bit vs 16-bit with defaults, 39%; with the NOS optimized, 57.8%;
/// 8-bit defaults vs 16-bit optimized relative to the former, 74% in its arithmetic).
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub defaults_8_vs_16_pct: f64,
    pub optimized_8_vs_16_pct: f64,
    pub best_vs_worst_pct: f64,
}

/// The summary figures as the bulletin's text quotes them.
pub const QUOTED_SUMMARY: Summary = Summary {
    defaults_8_vs_16_pct: 39.0,
    optimized_8_vs_16_pct: 57.8,
    best_vs_worst_pct: 74.0,
};

/// Computes [`Summary`] from the averages of `kbps(config)` over each curve.
pub fn summary(avg: impl Fn(&str) -> f64) -> Summary {
    let (o16, o8, d16, d8) = (avg(CONFIGS[0]), avg(CONFIGS[1]), avg(CONFIGS[2]), avg(CONFIGS[3]));
    Summary {
        defaults_8_vs_16_pct: (d16 - d8) / d16 * 100.0,
        optimized_8_vs_16_pct: (o16 - o8) / o16 * 100.0,
        // The bulletin writes ((988 - 253) / 253) x 100% but quotes 74%, which is
        // (988 - 253) / 988; we follow the quoted figure.
        best_vs_worst_pct: (o16 - d8) / o16 * 100.0,
    }
}

/// Figure 1 of the bulletin, as a [`Reproduction`](super::Reproduction).
pub struct Bulletin;

impl super::Reproduction for Bulletin {
    fn name(&self) -> &'static str {
        "bulletin"
    }
    fn aliases(&self) -> &'static [&'static str] {
        &["figure1", "bulletin-1992"]
    }
    fn summary(&self) -> &'static str {
        "Figure 1 of Artisoft's 1992 performance bulletin: PERFORM3 throughput against block \
         size for the AE2 in 8-bit and 16-bit mode, LANtastic defaults and optimized, against \
         Table 1"
    }
    fn measured(&self) -> bool {
        true
    }
    fn report_seeds(&self) -> Vec<u64> {
        SEEDS.to_vec()
    }
    fn calibrated(&self) -> bool {
        true
    }
    fn files(&self) -> &'static [&'static str] {
        &["figure1.csv", "figure1.svg", "figure1.png"]
    }
    fn run(
        &self,
        set: &[Override],
        out: &mut crate::report::atomic::Staged,
    ) -> Result<String, super::ReproError> {
        let data = figure1_with(set)?;
        report::write_outputs(&data, out)?;
        Ok(report::comparison_table(&data))
    }
    fn indexed(&self) -> Option<&dyn super::Indexed> {
        Some(self)
    }
}

impl super::Indexed for Bulletin {
    fn runs(&self) -> usize {
        RUNS
    }
    fn describe(&self, index: usize) -> Vec<(String, String)> {
        run_at(index).map_or_else(Vec::new, |(config, seed)| {
            vec![
                ("scenario".into(), config.to_string()),
                ("seed".into(), seed.to_string()),
            ]
        })
    }
    fn sources(&self) -> Vec<(&'static str, &'static str)> {
        let mut v = SCENARIOS.to_vec();
        v.push(HARDWARE);
        v.push(super::catalogue::PROFILES);
        v.push(("bulletin-table1.csv", TABLE1_CSV));
        v
    }
    fn run_one(&self, set: &[Override], index: usize) -> Result<serde_json::Value, super::ReproError> {
        let run = figure1_run(index, set)?;
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
        let runs = runs
            .iter()
            .enumerate()
            .map(|(index, v)| {
                serde_json::from_value::<Vec<BlockKbps>>(v.clone()).map_err(|e| {
                    super::ReproError::RunResult {
                        index,
                        message: e.to_string(),
                    }
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let data = figure1_from_runs(&runs, set)?;
        report::write_outputs(&data, out)?;
        Ok(report::comparison_table(&data))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_table1_has_four_curves_of_sixteen_points() {
        let t = table1();
        assert_eq!(t.len(), 64);
        assert_eq!(t[0], ("16bit-optimized".to_string(), 3072, 673.10));
        assert_eq!(t[63], ("8bit-defaults".to_string(), 64512, 262.25));
        for c in CONFIGS {
            assert_eq!(t.iter().filter(|x| x.0 == c).count(), 16);
        }
    }

    #[test]
    fn test_bad_table1_is_an_error() {
        assert!(matches!(
            parse_table1("block_size,foo_kbps\n1,2\n"),
            Err(Table1Error::Header(_))
        ));
        assert_eq!(
            parse_table1("block_size,8bit_defaults_kbps\nx,2\n"),
            Err(Table1Error::BlockSize("x".into()))
        );
        assert!(matches!(
            parse_table1("block_size,8bit_defaults_kbps\n512,fast\n"),
            Err(Table1Error::Value { block: 512, .. })
        ));
    }

    #[test]
    fn test_unknown_configuration_is_an_error() {
        let e = scenario("9bit-turbo", &[]).unwrap_err().to_string();
        assert!(e.contains("9bit-turbo") && e.contains("16bit-optimized"), "{e}");
    }
}
