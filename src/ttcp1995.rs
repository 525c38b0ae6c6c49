//! The 1995 ttcp table (seed 004): the eight measurements (four card pairings, midkemia
//! receiving and transmitting) run from the shipped scenarios, against the measured
//! values of `data/ttcp-1995.csv` (compiled in), with each error and the mean absolute
//! error. A runner, peer of [`crate::bulletin`]; formatting and files are the CLI's.
//!
//! Units: KB/s with ttcp's 1024-byte KB; errors in percent of the measured value.

use crate::scenario::{self, Override, ScenarioError, Workload};
use crate::workload::ttcp::{self, TtcpSummary};

/// The measured table, compiled in.
pub const MEASURED_CSV: &str = include_str!("../data/ttcp-1995.csv");

const HARDWARE: (&str, &str) = ("ttcp-1995.toml", include_str!("../scenarios/ttcp-1995.toml"));

/// (midkemia card, kelewan card, direction from midkemia, scenario name, its text).
pub const CASES: [(&str, &str, &str, &str, &str); 8] = [
    (
        "3C509",
        "3C509",
        "receive",
        "ttcp-1995-3c509-3c509-receive",
        include_str!("../scenarios/ttcp-1995-3c509-3c509-receive.toml"),
    ),
    (
        "3C509",
        "3C509",
        "transmit",
        "ttcp-1995-3c509-3c509-transmit",
        include_str!("../scenarios/ttcp-1995-3c509-3c509-transmit.toml"),
    ),
    (
        "SMC Elite Ultra",
        "3C509",
        "receive",
        "ttcp-1995-smc-ultra-3c509-receive",
        include_str!("../scenarios/ttcp-1995-smc-ultra-3c509-receive.toml"),
    ),
    (
        "SMC Elite Ultra",
        "3C509",
        "transmit",
        "ttcp-1995-smc-ultra-3c509-transmit",
        include_str!("../scenarios/ttcp-1995-smc-ultra-3c509-transmit.toml"),
    ),
    (
        "SMC Elite Ultra",
        "SMC Elite Ultra",
        "receive",
        "ttcp-1995-smc-ultra-smc-ultra-receive",
        include_str!("../scenarios/ttcp-1995-smc-ultra-smc-ultra-receive.toml"),
    ),
    (
        "SMC Elite Ultra",
        "SMC Elite Ultra",
        "transmit",
        "ttcp-1995-smc-ultra-smc-ultra-transmit",
        include_str!("../scenarios/ttcp-1995-smc-ultra-smc-ultra-transmit.toml"),
    ),
    (
        "SMC Elite Ultra",
        "BOCA Lance PCI",
        "receive",
        "ttcp-1995-smc-ultra-lance-receive",
        include_str!("../scenarios/ttcp-1995-smc-ultra-lance-receive.toml"),
    ),
    (
        "SMC Elite Ultra",
        "BOCA Lance PCI",
        "transmit",
        "ttcp-1995-smc-ultra-lance-transmit",
        include_str!("../scenarios/ttcp-1995-smc-ultra-lance-transmit.toml"),
    ),
];

/// One row of the comparison.
#[derive(Clone, Debug)]
pub struct Row {
    pub midkemia: &'static str,
    pub kelewan: &'static str,
    pub direction: &'static str,
    pub measured: f64,
    pub simulated: f64,
    pub summary: TtcpSummary,
}

impl Row {
    /// Simulated against measured, percent.
    pub fn error_pct(&self) -> f64 {
        (self.simulated / self.measured - 1.0) * 100.0
    }
}

/// The measured KB/s of a case, from the compiled-in CSV.
pub fn measured(midkemia: &str, kelewan: &str, direction: &str) -> Option<f64> {
    MEASURED_CSV.lines().skip(1).find_map(|l| {
        let f: Vec<&str> = l.split(',').collect();
        (f.len() == 4 && f[0] == midkemia && f[1] == kelewan && f[2] == direction)
            .then(|| f[3].trim().parse().ok())?
    })
}

/// Runs the eight cases (with `overrides` applied to each).
pub fn run(overrides: &[Override]) -> Result<Vec<Row>, ScenarioError> {
    CASES
        .iter()
        .map(|&(m, k, d, name, text)| {
            let s = scenario::load_embedded(name, text, Some(HARDWARE), overrides)?;
            let Workload::Ttcp(w) = &s.workload else {
                unreachable!("{name} is a ttcp scenario")
            };
            let summary = ttcp::summarise(ttcp::run(&w.config, s.seed));
            Ok(Row {
                midkemia: m,
                kelewan: k,
                direction: d,
                measured: measured(m, k, d).expect("every case is in data/ttcp-1995.csv"),
                simulated: summary.kbytes_per_s,
                summary,
            })
        })
        .collect()
}

/// Mean absolute error over `rows`, percent.
pub fn mean_abs_error_pct(rows: &[Row]) -> f64 {
    rows.iter().map(|r| r.error_pct().abs()).sum::<f64>() / rows.len() as f64
}

/// The comparison as text: one line per case, then the mean absolute error.
pub fn table(rows: &[Row]) -> String {
    let mut s = format!(
        "{:<16} {:<16} {:<9} {:>9} {:>9} {:>7}\n",
        "midkemia", "kelewan", "midkemia", "measured", "simulated", "error"
    );
    for r in rows {
        s += &format!(
            "{:<16} {:<16} {:<9} {:>9.2} {:>9.2} {:>+6.1}%\n",
            r.midkemia,
            r.kelewan,
            r.direction,
            r.measured,
            r.simulated,
            r.error_pct()
        );
    }
    s += &format!("mean absolute error {:.1}%\n", mean_abs_error_pct(rows));
    s
}

/// The comparison as CSV (measured, simulated, error).
pub fn csv(rows: &[Row]) -> String {
    let mut s = String::from("midkemia_card,kelewan_card,direction_from_midkemia,measured_kbytes_per_s,simulated_kbytes_per_s,error_pct\n");
    for r in rows {
        s += &format!(
            "{},{},{},{},{:.2},{:.2}\n",
            r.midkemia,
            r.kelewan,
            r.direction,
            r.measured,
            r.simulated,
            r.error_pct()
        );
    }
    s
}
