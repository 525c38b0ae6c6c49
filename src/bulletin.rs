//! The 1992 Artisoft performance bulletin: its four configurations and Figure 1.
//!
//! The four scenario files and the shared hardware file they include are embedded in the
//! binary (the same files as in `scenarios/`), so `ethersim figure1` runs from any
//! directory. Each configuration is a PERFORM3 run over the 16 block sizes of Table 1; the
//! simulated throughput of each point is set beside the measured one.

use rayon::prelude::*;

use crate::report::figure1::{config_label, table1, Figure1Curve, Figure1Data, Figure1Point, CONFIGS};
use crate::scenario::{self, Override, Scenario, ScenarioError, Workload};
use crate::workload::perform3::{self, Perform3Report};

/// File name and text of the shared hardware description.
pub const HARDWARE: (&str, &str) = (
    "artisoft-1992.toml",
    include_str!("../scenarios/artisoft-1992.toml"),
);

/// File name and text of each configuration's scenario, in Table 1's column order.
pub const SCENARIOS: [(&str, &str); 4] = [
    (
        "16bit-optimized.toml",
        include_str!("../scenarios/16bit-optimized.toml"),
    ),
    (
        "8bit-optimized.toml",
        include_str!("../scenarios/8bit-optimized.toml"),
    ),
    (
        "16bit-defaults.toml",
        include_str!("../scenarios/16bit-defaults.toml"),
    ),
    (
        "8bit-defaults.toml",
        include_str!("../scenarios/8bit-defaults.toml"),
    ),
];

/// Loads configuration `config` (one of [`CONFIGS`]) from the embedded files.
pub fn scenario(config: &str, overrides: &[Override]) -> Result<Scenario, ScenarioError> {
    let i = CONFIGS
        .iter()
        .position(|c| *c == config)
        .unwrap_or_else(|| panic!("unknown configuration {config}"));
    let (name, text) = SCENARIOS[i];
    scenario::load_embedded(name, text, Some(HARDWARE), overrides)
}

/// Runs one configuration's PERFORM3 sweep of block sizes.
pub fn run_config(config: &str, overrides: &[Override]) -> Result<Perform3Report, ScenarioError> {
    let s = scenario(config, overrides)?;
    match &s.workload {
        Workload::Perform3(w) => Ok(perform3::run(&w.config, s.seed)),
        other => unreachable!("bulletin scenario {config} has workload {}", other.kind()),
    }
}

/// Runs all four configurations (in parallel on the current rayon pool) and pairs each
/// simulated point with Table 1.
pub fn figure1() -> Result<Figure1Data, ScenarioError> {
    let reports: Vec<Result<Perform3Report, ScenarioError>> =
        CONFIGS.par_iter().map(|c| run_config(c, &[])).collect();
    let measured = table1();
    let mut curves = Vec::with_capacity(4);
    for (config, report) in CONFIGS.iter().zip(reports) {
        let report = report?;
        let mut points: Vec<Figure1Point> = measured
            .iter()
            .filter(|(c, _, _)| c == config)
            .filter_map(|(_, block, kbps)| {
                let p = report.points.iter().find(|p| p.block_size == *block)?;
                Some(Figure1Point {
                    block_size: *block,
                    measured_kbps: *kbps,
                    simulated_kbps: p.throughput_kbps,
                })
            })
            .collect();
        points.sort_by_key(|p| p.block_size);
        curves.push(Figure1Curve {
            config: config.to_string(),
            label: config_label(config),
            points,
        });
    }
    Ok(Figure1Data { curves })
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
