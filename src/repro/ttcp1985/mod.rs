//! The 1985 ttcp table (seed 001): every row of the transmitter (VGR) and receiver (TGR)
//! tables run from the shipped scenarios (`scenarios/ttcp-1985-*.toml`, one per
//! configuration; repeated rows share it), over 5 seeds, against `data/ttcp1985/ttcp-1985.csv`
//! (compiled in). The runner of this reproduction; formatting is plain text and
//! CSV, files are the CLI's.
//!
//! Each simulated side is reported with the seed's truncations (REFERENCE-ttcp.md,
//! "ttcp"): real in whole seconds (truncated), user and system time in tenths
//! (truncated), %cpu = (user + sys centiseconds) x 100 / real centiseconds (integer),
//! Kby/S = 1024 / whole real seconds, Kby/Cpu-Sec = 1024 / (%cpu/100 x whole real
//! seconds) (truncated); then the mean over the seeds. System CPU % is sys / real.
//!
//! Units: KB = 1024 bytes; seconds; percent.

pub mod report;

use crate::scenario::{Override, Scenario, ScenarioError, Workload};
use crate::workload::ttcp::{self, TtcpError, TtcpSide};

/// The measured tables, compiled in.
pub const MEASURED_CSV: &str = include_str!("../../../data/ttcp1985/ttcp-1985.csv");

/// Seeds each configuration runs with (the scenario's own, then four more).
pub const SEEDS: [u64; 5] = [1985, 1, 2, 3, 4];

/// (config, interface, trailers as in the CSV, scenario name): the scenario is the
/// catalogue's `ttcp1985/NAME.toml`.
pub const CASES: [(&str, &str, &str, &str); 9] = [
    ("dual", "ex0", "no", "ttcp-1985-dual-ex0-notrailers"),
    ("dual", "ex0", "yes", "ttcp-1985-dual-ex0-trailers"),
    ("dual", "il0", "no", "ttcp-1985-dual-il0-notrailers"),
    ("dual", "il0", "yes", "ttcp-1985-dual-il0-trailers"),
    ("dual", "pcl0", "n/a", "ttcp-1985-dual-pcl0"),
    ("single", "pcl0", "n/a", "ttcp-1985-single-pcl0"),
    ("single", "il0", "yes", "ttcp-1985-single-il0-trailers"),
    ("single", "ex0", "yes", "ttcp-1985-single-ex0-trailers"),
    ("single", "ex0", "no", "ttcp-1985-single-ex0-notrailers"),
];

/// Why the table could not be produced.
#[derive(Debug, thiserror::Error)]
pub enum Ttcp1985Error {
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    #[error("{name}: {source}")]
    Run { name: String, source: TtcpError },
    #[error("no 1985 ttcp configuration is named `{name}` (allowed: {allowed})")]
    UnknownCase { name: String, allowed: String },
}

/// One side as the seed prints it (after its truncations).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Printed {
    pub usr_s: f64,
    pub sys_s: f64,
    pub cpu_pct: f64,
    pub real_s: f64,
    pub kbytes_per_s: f64,
    pub kbytes_per_cpu_s: f64,
}

impl Printed {
    /// System CPU as a share of real time, percent.
    pub fn sys_pct(&self) -> f64 {
        self.sys_s / self.real_s * 100.0
    }

    /// What the seed's table would show for one simulated side.
    pub fn of(side: &TtcpSide) -> Printed {
        Printed::from_times(side.bytes, side.real_s, side.user_s, side.sys_s)
    }

    /// The same from the raw figures: bytes moved, real, user and system seconds.
    pub fn from_times(bytes: u64, real_s: f64, user_s: f64, sys_s: f64) -> Printed {
        let tenths = |s: f64| (s * 10.0 + 1e-9).floor() / 10.0;
        let real_cs = (real_s * 100.0).floor();
        let cpu_cs = ((user_s + sys_s) * 100.0 + 1e-9).floor();
        let cpu_pct = if real_cs > 0.0 {
            (cpu_cs * 100.0 / real_cs).floor()
        } else {
            0.0
        };
        let real = real_s.floor().max(1.0);
        let kb = bytes as f64 / 1024.0;
        Printed {
            usr_s: tenths(user_s),
            sys_s: tenths(sys_s),
            cpu_pct,
            real_s: real,
            kbytes_per_s: (kb / real * 10.0).floor() / 10.0,
            kbytes_per_cpu_s: if cpu_pct > 0.0 {
                (kb / (cpu_pct / 100.0 * real)).floor()
            } else {
                f64::NAN
            },
        }
    }

    fn mean(all: &[Printed]) -> Printed {
        let n = all.len() as f64;
        let m = |f: fn(&Printed) -> f64| all.iter().map(f).sum::<f64>() / n;
        Printed {
            usr_s: m(|p| p.usr_s),
            sys_s: m(|p| p.sys_s),
            cpu_pct: m(|p| p.cpu_pct),
            real_s: m(|p| p.real_s),
            kbytes_per_s: m(|p| p.kbytes_per_s),
            kbytes_per_cpu_s: m(|p| p.kbytes_per_cpu_s),
        }
    }
}

/// One row of the seed's tables against the model.
#[derive(Clone, Debug)]
pub struct Row {
    pub side: String,
    pub config: String,
    pub interface: String,
    pub trailers: String,
    pub note: String,
    pub measured: Printed,
    pub simulated: Printed,
    /// The simulated side's throughput before ttcp's whole-second truncation: the mean
    /// over the seeds of bytes / 1024 / real seconds, KB/s.
    pub simulated_exact_kbytes_per_s: f64,
    /// The simulated side's KB per CPU second before ttcp's truncations: the mean over
    /// the seeds of bytes / 1024 / (user + system seconds).
    pub simulated_exact_kbytes_per_cpu_s: f64,
    /// The simulated side's user seconds before ttcp's truncation to tenths: the mean
    /// over the seeds.
    pub simulated_exact_user_s: f64,
    /// The simulated side's system seconds before ttcp's truncation to tenths: the mean
    /// over the seeds.
    pub simulated_exact_sys_s: f64,
}

impl Row {
    /// The seed's anomalous low-system-time pcl rows.
    pub fn anomalous(&self) -> bool {
        self.note.starts_with("anomalous")
    }
    pub fn throughput_error_pct(&self) -> f64 {
        (self.simulated.kbytes_per_s / self.measured.kbytes_per_s - 1.0) * 100.0
    }
    /// Simulated minus measured system CPU %, points.
    pub fn sys_error_points(&self) -> f64 {
        self.simulated.sys_pct() - self.measured.sys_pct()
    }
}

/// One side's throughput without ttcp's truncation, KB/s (1024-byte KB).
fn exact_kbytes_per_s(side: &TtcpSide) -> f64 {
    side.bytes as f64 / 1024.0 / side.real_s
}

/// One side's KB per CPU second (user + system) without ttcp's truncations.
fn exact_kbytes_per_cpu_s(side: &TtcpSide) -> f64 {
    let cpu = side.user_s + side.sys_s;
    if cpu > 0.0 {
        side.bytes as f64 / 1024.0 / cpu
    } else {
        f64::NAN
    }
}

/// The unrounded means over the seeds: KB/s, KB per CPU second, user and system seconds.
#[derive(Clone, Copy, Default)]
struct Exact {
    kbytes_per_s: f64,
    kbytes_per_cpu_s: f64,
    user_s: f64,
    sys_s: f64,
}

impl Exact {
    fn add(&mut self, side: &TtcpSide, n: usize) {
        let n = n as f64;
        self.kbytes_per_s += exact_kbytes_per_s(side) / n;
        self.kbytes_per_cpu_s += exact_kbytes_per_cpu_s(side) / n;
        self.user_s += side.user_s / n;
        self.sys_s += side.sys_s / n;
    }
}

/// Splits one CSV line (quoted fields may hold commas).
fn fields(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(String::new()),
            _ => out.last_mut().expect("one field").push(c),
        }
    }
    out
}

/// Loads the configuration whose scenario is `name` (e.g. `ttcp-1985-single-ex0-trailers`)
/// from the embedded files, with `overrides` applied.
pub fn scenario(name: &str, overrides: &[Override]) -> Result<Scenario, Ttcp1985Error> {
    if !CASES.iter().any(|c| c.3 == name) {
        return Err(Ttcp1985Error::UnknownCase {
            name: name.to_string(),
            allowed: CASES.map(|c| c.3).join(", "),
        });
    }
    Ok(super::catalogue::load(
        &format!("ttcp1985/{name}.toml"),
        overrides,
    )?)
}

/// Runs every configuration over [`SEEDS`] (with `overrides` applied) and pairs each
/// row of the tables with its side of the simulated runs.
pub fn run(overrides: &[Override]) -> Result<Vec<Row>, Ttcp1985Error> {
    let mut sims = Vec::new();
    for &(config, iface, trailers, name) in &CASES {
        let s = scenario(name, overrides)?;
        let Workload::Ttcp(w) = &s.workload else {
            unreachable!("{name} is a ttcp scenario")
        };
        let (mut tx, mut rx) = (Vec::new(), Vec::new());
        let (mut tx_exact, mut rx_exact) = (Exact::default(), Exact::default());
        for (i, &seed) in SEEDS.iter().enumerate() {
            let seed = if i == 0 { s.seed } else { seed };
            let r = ttcp::run(&w.config, seed).map_err(|source| Ttcp1985Error::Run {
                name: name.to_string(),
                source,
            })?;
            tx.push(Printed::of(&r.transmitter));
            rx.push(Printed::of(&r.receiver));
            tx_exact.add(&r.transmitter, SEEDS.len());
            rx_exact.add(&r.receiver, SEEDS.len());
        }
        sims.push((
            (config, iface, trailers),
            (Printed::mean(&tx), tx_exact),
            (Printed::mean(&rx), rx_exact),
        ));
    }
    let mut rows = Vec::new();
    for line in MEASURED_CSV.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let f = fields(line);
        let num = |i: usize| {
            f[i].trim()
                .parse::<f64>()
                .expect("data/ttcp1985/ttcp-1985.csv holds numbers")
        };
        let measured = Printed {
            usr_s: num(4),
            sys_s: num(5),
            cpu_pct: num(6),
            real_s: num(7),
            kbytes_per_s: num(8),
            kbytes_per_cpu_s: num(9),
        };
        let key = (f[1].as_str(), f[2].as_str(), f[3].as_str());
        let (_, tx, rx) = sims
            .iter()
            .find(|(k, _, _)| *k == key)
            .expect("every row of data/ttcp1985/ttcp-1985.csv has a scenario");
        let (simulated, exact) = if f[0].starts_with("transmitter") { *tx } else { *rx };
        rows.push(Row {
            side: f[0].clone(),
            config: f[1].clone(),
            interface: f[2].clone(),
            trailers: f[3].clone(),
            note: f.get(10).cloned().unwrap_or_default(),
            measured,
            simulated,
            simulated_exact_kbytes_per_s: exact.kbytes_per_s,
            simulated_exact_kbytes_per_cpu_s: exact.kbytes_per_cpu_s,
            simulated_exact_user_s: exact.user_s,
            simulated_exact_sys_s: exact.sys_s,
        });
    }
    Ok(rows)
}

/// The 1985 ttcp tables, as a [`Reproduction`](super::Reproduction).
pub struct Ttcp1985;

impl super::Reproduction for Ttcp1985 {
    fn name(&self) -> &'static str {
        "ttcp1985"
    }
    fn aliases(&self) -> &'static [&'static str] {
        &["ttcp-1985"]
    }
    fn summary(&self) -> &'static str {
        "The 1985 ttcp tables: 4.2BSD between two VAX-11/780s over the Excelan, the Interlan \
         and the PCL-11, throughput and system CPU on both sides"
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
        &[
            "ttcp-1985.csv",
            "ttcp-1985.svg",
            "ttcp-1985.png",
            "ttcp-1985-sys.svg",
            "ttcp-1985-sys.png",
        ]
    }
    fn run(
        &self,
        set: &[Override],
        out: &mut crate::report::atomic::Staged,
    ) -> Result<String, super::ReproError> {
        let rows = run(set)?;
        report::write_outputs(&rows, out)?;
        Ok(report::comparison_table(&rows))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_printed_applies_the_seeds_truncations() {
        // 17.23 s real, 0.19 user, 6.58 sys: 0.1 usr, 6.5 sys, (19 + 658) x 100 / 1723 =
        // 39 %cpu, 1024 / 17 = 60.2 KB/s, 1024 / (0.39 x 17) = 154 KB per CPU second
        let p = Printed::from_times(1 << 20, 17.23, 0.19, 6.58);
        assert_eq!((p.usr_s, p.sys_s, p.cpu_pct, p.real_s), (0.1, 6.5, 39.0, 17.0));
        assert_eq!(p.kbytes_per_s, 60.2);
        assert_eq!(p.kbytes_per_cpu_s, 154.0);
    }

    #[test]
    fn test_csv_fields_keep_quoted_commas() {
        let f = fields(r#"a,b,"x, y",c"#);
        assert_eq!(f, vec!["a", "b", "x, y", "c"]);
    }
}
