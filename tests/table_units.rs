//! One number format in every run table: for a shipped scenario of each workload kind,
//! the wide view (and the default view where it lists figures) shows every column
//! registered with a unit, counts as whole numbers, and a time whose name states its unit
//! (`_us`, `_ms`, `_s`) in that unit.

use std::path::Path;
use std::time::Duration;

use assert_cmd::Command;
use ethersim::report::figures;
use ethersim::report::units::Unit;

fn table(args: &[&str]) -> String {
    let o = Command::cargo_bin("ethersim")
        .unwrap()
        .timeout(Duration::from_secs(300))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "-q"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// The cells of a right-aligned table line, each keyed by the character offset where it
/// ends (a column's cells all end at the same offset).
fn cells_by_end(line: &str) -> Vec<(usize, String)> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == ' ' {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && chars[i] != ' ' {
            i += 1;
        }
        out.push((i, chars[start..i].iter().collect()));
    }
    out
}

/// `(figure, value, unit)` of every figure in a table's wide part: the `figure value
/// unit` lines of a one-point run, or the columns of a run of several points.
fn figures_of(text: &str) -> Vec<(String, String, String)> {
    let body: Vec<&str> = text
        .split("\n\n")
        .nth(1)
        .expect("a header, a blank line, the figures")
        .lines()
        .collect();
    let mut out = Vec::new();
    if body[0].starts_with("figure") {
        for line in &body[1..] {
            let mut w = line.split_whitespace();
            let name = w.next().unwrap().to_string();
            let value = w.next().unwrap().to_string();
            out.push((name, value, w.next().unwrap_or("").to_string()));
        }
        return out;
    }
    let names = cells_by_end(body[0]);
    let units = cells_by_end(body[1]);
    for row in &body[2..] {
        let cells = cells_by_end(row);
        for (end, name) in &names {
            let value = cells.iter().find(|(e, _)| e == end).map(|c| c.1.clone());
            let unit = units
                .iter()
                .find(|(e, _)| e == end)
                .map_or(String::new(), |c| c.1.clone());
            out.push((
                name.clone(),
                value.unwrap_or_else(|| panic!("no cell of {name} in {row}")),
                unit,
            ));
        }
    }
    out
}

fn check(what: &str, text: &str) {
    let figs = figures_of(text);
    assert!(figs.len() >= 10, "{what}: too few figures read:\n{text}");
    for (name, value, unit) in figs {
        let Some(f) = figures::figure(&name) else {
            panic!("{what}: column {name} has no unit registered")
        };
        if value == "-" {
            continue;
        }
        if let Unit::Count(w) = f.unit {
            assert!(
                !value.contains('.') && value.parse::<i64>().is_ok(),
                "{what}: {name} is a count but reads {value}"
            );
            assert_eq!(unit, w, "{what}: {name}");
        }
        // a rate (`frames_per_s`, `kbytes_per_s`) is per second; any other `_s` is a time
        if name.ends_with("_per_s") {
            assert!(unit.ends_with("/s"), "{what}: {name} = {value} {unit}");
            continue;
        }
        for (suffix, symbol) in [("_us", "µs"), ("_ms", "ms"), ("_s", "s")] {
            if name.ends_with(suffix) {
                assert_eq!(unit, symbol, "{what}: {name} = {value} {unit}");
                break;
            }
        }
        if matches!(f.unit, Unit::Share | Unit::Percent) {
            assert!(
                value.ends_with('%') || unit == "%",
                "{what}: {name} is a share but reads {value} {unit}"
            );
        }
        if !matches!(f.unit, Unit::Count("") | Unit::Index | Unit::Ratio("")) {
            assert!(
                !unit.is_empty() || value.ends_with('%'),
                "{what}: {name} = {value} has no unit"
            );
        }
    }
}

#[test]
fn test_every_workload_kind_prints_counts_whole_and_times_in_their_named_unit() {
    let ttcp1985 = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/ttcp1985"))
        .unwrap()
        .filter_map(|e| e.ok()?.path().to_str().map(String::from))
        .find(|p| p.ends_with(".toml") && !p.ends_with("ttcp-1985.toml"))
        .unwrap();
    let runs: Vec<(&str, Vec<&str>)> = vec![
        (
            "saturate",
            vec!["scenarios/saturate.toml", "--set", "run.duration_s=1"],
        ),
        ("traffic", vec!["scenarios/background-load.toml"]),
        (
            "perform3",
            vec![
                "scenarios/bulletin/16bit-optimized.toml",
                "--set",
                "apps[0].block_sizes=[3072,64512]",
            ],
        ),
        ("lanperf", vec!["scenarios/lanperf/lanperf-x.toml"]),
        ("ttcp1985", vec![ttcp1985.as_str()]),
        (
            "ttcp1995",
            vec!["scenarios/ttcp1995/ttcp-1995-3c509-3c509-receive.toml"],
        ),
    ];
    for (what, args) in runs {
        let mut wide = args.clone();
        wide.push("--wide");
        check(&format!("{what} --wide"), &table(&wide));
        // the default view of the one-point kinds that are not saturate is the same list
        if matches!(what, "traffic" | "ttcp1985" | "ttcp1995") {
            check(what, &table(&args));
        }
    }
}

#[test]
fn test_the_ttcp_figures_of_the_known_run_read_as_ttcp_prints_them() {
    let text = table(&["scenarios/ttcp1995/ttcp-1995-3c509-3c509-receive.toml"]);
    let figs = figures_of(&text);
    let get = |n: &str| {
        figs.iter()
            .find(|f| f.0 == n)
            .map(|f| format!("{} {}", f.1, f.2).trim().to_string())
            .unwrap()
    };
    assert_eq!(get("bytes"), "16777216 bytes");
    assert_eq!(get("data_frames"), "11684 frames");
    assert_eq!(get("frames_lost"), "0 frames");
    assert!(get("kbytes_per_s").ends_with(" KB/s"), "{}", get("kbytes_per_s"));
    assert!(get("tx_cpu").ends_with('%') && get("wire_utilization").ends_with('%'));
    assert!(text.contains("headline  Throughput (1 KB = 1024 B) "), "{text}");
}
