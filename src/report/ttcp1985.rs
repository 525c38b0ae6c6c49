//! The 1985 ttcp comparison (seed 001) as text and CSV: each row of the seed's
//! transmitter and receiver tables, measured against simulated (the mean over the report
//! seeds, with the seed's truncations applied by the runner [`crate::ttcp1985`]), for
//! throughput, system CPU %, CPU % and KB per CPU second; then how many non-anomalous rows
//! meet issue 14's bars (throughput within 10%, system CPU within 8 points).
//!
//! Units: KB/s and KB per CPU second with ttcp's 1024-byte KB; CPU in percent of real time.

use super::csv::to_csv;
use super::ReportError;
use crate::ttcp1985::Row;

/// The CSV columns, in order.
pub const CSV_COLUMNS: [&str; 15] = [
    "side",
    "config",
    "interface",
    "trailers",
    "anomalous",
    "measured_kbytes_per_s",
    "simulated_kbytes_per_s",
    "throughput_error_pct",
    "measured_sys_pct",
    "simulated_sys_pct",
    "sys_error_points",
    "measured_cpu_pct",
    "simulated_cpu_pct",
    "measured_kbytes_per_cpu_s",
    "simulated_kbytes_per_cpu_s",
];

/// The comparison as text: one line per row, then the goals.
pub fn comparison_table(rows: &[Row]) -> String {
    let mut s = format!(
        "{:<15} {:<6} {:<4} {:<4} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>7} {:>8} {:>8}\n",
        "side",
        "config",
        "if",
        "trl",
        "KB/s",
        "sim",
        "err%",
        "sys%",
        "sim",
        "pts",
        "cpu%",
        "sim cpu",
        "KB/cpu-s",
        "sim"
    );
    for r in rows {
        s += &format!(
            "{:<15} {:<6} {:<4} {:<4} {:>6.1} {:>6.1} {:>+6.1} {:>6.1} {:>6.1} {:>+6.1} {:>6.0} {:>7.1} {:>8.0} {:>8.0}{}\n",
            r.side,
            r.config,
            r.interface,
            r.trailers,
            r.measured.kbytes_per_s,
            r.simulated.kbytes_per_s,
            r.throughput_error_pct(),
            r.measured.sys_pct(),
            r.simulated.sys_pct(),
            r.sys_error_points(),
            r.measured.cpu_pct,
            r.simulated.cpu_pct,
            r.measured.kbytes_per_cpu_s,
            r.simulated.kbytes_per_cpu_s,
            if r.anomalous() { "  (anomalous)" } else { "" }
        );
    }
    let normal: Vec<&Row> = rows.iter().filter(|r| !r.anomalous()).collect();
    let within = normal
        .iter()
        .filter(|r| r.throughput_error_pct().abs() <= 10.0)
        .count();
    let sys_ok = normal
        .iter()
        .filter(|r| r.sys_error_points().abs() <= 8.0)
        .count();
    s += &format!(
        "non-anomalous rows: throughput within 10% in {within} of {n}; system CPU within 8 points in {sys_ok} of {n}\n",
        n = normal.len()
    );
    s
}

/// The comparison as CSV: measured, simulated and error for throughput and system CPU %
/// (quoted where a field needs it).
pub fn csv(rows: &[Row]) -> Result<String, ReportError> {
    let header: Vec<String> = CSV_COLUMNS.iter().map(|c| c.to_string()).collect();
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.side.clone(),
                r.config.clone(),
                r.interface.clone(),
                r.trailers.clone(),
                r.anomalous().to_string(),
                r.measured.kbytes_per_s.to_string(),
                format!("{:.2}", r.simulated.kbytes_per_s),
                format!("{:.2}", r.throughput_error_pct()),
                format!("{:.2}", r.measured.sys_pct()),
                format!("{:.2}", r.simulated.sys_pct()),
                format!("{:.2}", r.sys_error_points()),
                r.measured.cpu_pct.to_string(),
                format!("{:.2}", r.simulated.cpu_pct),
                r.measured.kbytes_per_cpu_s.to_string(),
                format!("{:.1}", r.simulated.kbytes_per_cpu_s),
            ]
        })
        .collect();
    to_csv(&header, &body)
}
