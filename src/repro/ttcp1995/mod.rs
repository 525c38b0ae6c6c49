//! The 1995 ttcp table (seed 004): the eight measurements (four card pairings, midkemia
//! receiving and transmitting) run from the shipped scenarios, against the measured
//! values of `data/ttcp1995/ttcp-1995.csv` (compiled in). The runner of this reproduction:
//! it produces a [`TtcpTable`]; formatting and files are [`report`]'s.
//!
//! Each case runs once per seed of [`seed::report_seeds`] of its scenario's seed (1995, 1,
//! 2, 3, 4), all runs in parallel on the current rayon pool; every run is independent and
//! seeded, and the results are collected in case and seed order, so the table is the same
//! bit for bit whatever the number of threads.
//!
//! Units: KB/s with ttcp's 1024-byte KB; errors in percent of the measured value.

pub mod report;
pub mod table;

use rayon::prelude::*;

use self::table::{CardName, TtcpCase, TtcpCeiling, TtcpDirection, TtcpTable};
use crate::engine::seed;
use crate::scenario::{Override, Scenario, ScenarioError, Workload};
use crate::stats::Spread;
use crate::workload::ttcp::{self, TtcpConfig, TtcpError, TtcpSummary};

/// The measured table, compiled in.
pub const MEASURED_CSV: &str = include_str!("../../../data/ttcp1995/ttcp-1995.csv");

/// File name and text of the shared hardware description the cases include.
pub const HARDWARE: (&str, &str) = (
    "ttcp-1995.toml",
    include_str!("../../../scenarios/ttcp1995/ttcp-1995.toml"),
);

/// 3Com EtherLink III (programmed I/O through FIFOs).
pub const C3C509: CardName = CardName {
    name: "3C509",
    short: "3C509",
};
/// SMC Elite Ultra (shared memory).
pub const SMC_ULTRA: CardName = CardName {
    name: "SMC Elite Ultra",
    short: "SMC",
};
/// BOCA Research's PCI card with an AMD Lance (bus-master DMA).
pub const LANCE: CardName = CardName {
    name: "BOCA Lance PCI",
    short: "Lance",
};

/// One measurement: the cards of midkemia (486DX2-66) and kelewan (P90), the direction
/// from midkemia, and the scenario that models it (its file name without `.toml`).
#[derive(Clone, Copy, Debug)]
pub struct Case {
    pub midkemia: CardName,
    pub kelewan: CardName,
    pub direction: TtcpDirection,
    pub scenario: &'static str,
    pub text: &'static str,
}

macro_rules! case {
    ($m:expr, $k:expr, $d:ident, $file:literal) => {
        Case {
            midkemia: $m,
            kelewan: $k,
            direction: TtcpDirection::$d,
            scenario: $file,
            text: include_str!(concat!("../../../scenarios/ttcp1995/", $file, ".toml")),
        }
    };
}

/// The eight cases, in the measured table's order.
pub const CASES: [Case; 8] = [
    case!(C3C509, C3C509, Receive, "ttcp-1995-3c509-3c509-receive"),
    case!(C3C509, C3C509, Transmit, "ttcp-1995-3c509-3c509-transmit"),
    case!(SMC_ULTRA, C3C509, Receive, "ttcp-1995-smc-ultra-3c509-receive"),
    case!(SMC_ULTRA, C3C509, Transmit, "ttcp-1995-smc-ultra-3c509-transmit"),
    case!(
        SMC_ULTRA,
        SMC_ULTRA,
        Receive,
        "ttcp-1995-smc-ultra-smc-ultra-receive"
    ),
    case!(
        SMC_ULTRA,
        SMC_ULTRA,
        Transmit,
        "ttcp-1995-smc-ultra-smc-ultra-transmit"
    ),
    case!(SMC_ULTRA, LANCE, Receive, "ttcp-1995-smc-ultra-lance-receive"),
    case!(SMC_ULTRA, LANCE, Transmit, "ttcp-1995-smc-ultra-lance-transmit"),
];

/// Why the table could not be produced.
#[derive(Debug, thiserror::Error)]
pub enum Ttcp1995Error {
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    #[error("no ttcp 1995 case named {name:?} (allowed: {allowed})")]
    UnknownCase { name: String, allowed: String },
    #[error("{scenario} is not a ttcp scenario (workload {kind})")]
    NotTtcp { scenario: String, kind: &'static str },
    #[error("{scenario} on seed {seed}: {err}")]
    Run {
        scenario: String,
        seed: u64,
        err: TtcpError,
    },
    #[error("data/ttcp1995/ttcp-1995.csv has no measurement of {midkemia} / {kelewan} {direction}")]
    NotMeasured {
        midkemia: &'static str,
        kelewan: &'static str,
        direction: &'static str,
    },
}

/// The measured KB/s of a case, from the compiled-in CSV.
pub fn measured(midkemia: &str, kelewan: &str, direction: &str) -> Option<f64> {
    MEASURED_CSV.lines().skip(1).find_map(|l| {
        let f: Vec<&str> = l.split(',').collect();
        (f.len() == 4 && f[0] == midkemia && f[1] == kelewan && f[2] == direction)
            .then(|| f[3].trim().parse().ok())?
    })
}

/// Loads the case whose scenario is `name` (e.g. `ttcp-1995-smc-ultra-smc-ultra-transmit`)
/// from the embedded files, with `overrides` applied.
pub fn scenario(name: &str, overrides: &[Override]) -> Result<Scenario, Ttcp1995Error> {
    let Some(case) = CASES.iter().find(|c| c.scenario == name) else {
        return Err(Ttcp1995Error::UnknownCase {
            name: name.to_string(),
            allowed: CASES.map(|c| c.scenario).join(", "),
        });
    };
    load(case, overrides)
}

fn load(case: &Case, overrides: &[Override]) -> Result<Scenario, Ttcp1995Error> {
    Ok(super::catalogue::load(
        &format!("ttcp1995/{}.toml", case.scenario),
        overrides,
    )?)
}

/// The ttcp configuration of a loaded case.
pub fn config(s: &Scenario) -> Result<&TtcpConfig, Ttcp1995Error> {
    match &s.workload {
        Workload::Ttcp(w) => Ok(&w.config),
        other => Err(Ttcp1995Error::NotTtcp {
            scenario: s.name.clone(),
            kind: other.kind(),
        }),
    }
}

/// Runs the eight cases (with `overrides` applied to each), each on the five seeds of
/// [`seed::report_seeds`], in parallel on the current rayon pool.
pub fn run(overrides: &[Override]) -> Result<TtcpTable, Ttcp1995Error> {
    let scenarios = CASES
        .iter()
        .map(|c| load(c, overrides))
        .collect::<Result<Vec<_>, _>>()?;
    let configs = scenarios.iter().map(config).collect::<Result<Vec<_>, _>>()?;
    let jobs: Vec<(usize, u64)> = scenarios
        .iter()
        .enumerate()
        .flat_map(|(i, s)| seed::report_seeds(s.seed).map(|seed| (i, seed)))
        .collect();
    // collect keeps the order of `jobs` whichever thread ran each
    let runs: Vec<Result<TtcpSummary, Ttcp1995Error>> = jobs
        .par_iter()
        .map(|&(i, seed)| {
            ttcp::run(configs[i], seed)
                .map(|r| ttcp::summarise(Ok(r)))
                .map_err(|err| Ttcp1995Error::Run {
                    scenario: scenarios[i].name.clone(),
                    seed,
                    err,
                })
        })
        .collect();
    let mut runs = runs.into_iter();
    let mut cases = Vec::with_capacity(CASES.len());
    for (case, s) in CASES.iter().zip(&scenarios) {
        let seeds = seed::report_seeds(s.seed).to_vec();
        let summaries = runs.by_ref().take(seeds.len()).collect::<Result<Vec<_>, _>>()?;
        let kbps: Vec<f64> = summaries.iter().map(|r| r.kbytes_per_s).collect();
        let (m, k, d) = (case.midkemia.name, case.kelewan.name, case.direction.name());
        cases.push(TtcpCase {
            scenario: s.name.clone(),
            first: case.midkemia,
            second: case.kelewan,
            direction: case.direction,
            measured_kbps: measured(m, k, d).ok_or(Ttcp1995Error::NotMeasured {
                midkemia: m,
                kelewan: k,
                direction: d,
            })?,
            seeds,
            simulated: Spread::of(&kbps),
            runs: summaries,
        });
    }
    // the eight cases share the stack and the wire of ttcp-1995.toml
    let first = configs[0];
    let stack = &first.hosts[first.transmitter].stack;
    let ceiling = TtcpCeiling {
        kbps: ttcp::ceiling_kib_per_s(stack, first.wire.bit_ns()),
        mss_bytes: stack.mss_bytes,
        ack_every_segments: stack.ack_every_segments,
        bit_rate_mbps: 1000.0 / first.wire.bit_ns() as f64,
    };
    Ok(TtcpTable { cases, ceiling })
}

/// The 1995 ttcp table, as a [`Reproduction`](super::Reproduction).
pub struct Ttcp1995;

impl super::Reproduction for Ttcp1995 {
    fn name(&self) -> &'static str {
        "ttcp1995"
    }
    fn aliases(&self) -> &'static [&'static str] {
        &["ttcp-1995"]
    }
    fn summary(&self) -> &'static str {
        "The 1995 ttcp table: Linux 1.2 TCP/IP between a 486DX2-66 and a P90, four card \
         pairings (programmed I/O, shared memory, bus-master DMA), both directions"
    }
    fn measured(&self) -> bool {
        true
    }
    fn report_seeds(&self) -> Vec<u64> {
        crate::engine::seed::report_seeds(1995).to_vec()
    }
    fn calibrated(&self) -> bool {
        true
    }
    fn files(&self) -> &'static [&'static str] {
        &["ttcp-1995.csv", "ttcp-1995.svg", "ttcp-1995.png"]
    }
    fn run(
        &self,
        set: &[Override],
        out: &mut crate::report::atomic::Staged,
    ) -> Result<String, super::ReproError> {
        let table = run(set)?;
        report::write_outputs(&table, out)?;
        Ok(report::comparison_table(&table))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_every_case_is_measured_and_loads() {
        for c in &CASES {
            let (m, k, d) = (c.midkemia.name, c.kelewan.name, c.direction.name());
            assert!(measured(m, k, d).is_some(), "{m} / {k} {d}");
            let s = scenario(c.scenario, &[]).unwrap();
            assert_eq!(s.name, c.scenario);
            assert_eq!(s.seed, 1995);
            let Workload::Ttcp(w) = &s.workload else {
                panic!("{} is not ttcp", c.scenario)
            };
            // midkemia transmits in the transmit cases
            let tx = &w.hosts[w.config.transmitter].0;
            assert_eq!(tx == "midkemia", c.direction == TtcpDirection::Transmit, "{tx}");
        }
    }

    #[test]
    fn test_unknown_case_is_an_error_naming_the_cases() {
        let e = scenario("ttcp-1995-ne2000", &[]).unwrap_err().to_string();
        assert!(
            e.contains("ttcp-1995-ne2000") && e.contains("ttcp-1995-3c509-3c509-receive"),
            "{e}"
        );
    }
}
