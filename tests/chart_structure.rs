//! What a test can check of the charts a user puts in a paper, read from the SVG the
//! commands write: the title fits the canvas, tick labels carry no more decimals than the
//! axis needs (none on an axis of whole-number settings), and the legend lists each entry
//! once, outside the data.

use std::path::Path;
use std::process::Command;

use ethersim::report::plot::{self, Chart};

fn ethersim(args: &[&str], out: &Path) {
    let o = Command::new(env!("CARGO_BIN_EXE_ethersim"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The text elements of an SVG: (font size, text).
fn texts(svg: &str) -> Vec<(f64, String)> {
    let mut v = Vec::new();
    for part in svg.split("<text").skip(1) {
        let (attrs, rest) = part.split_once('>').unwrap();
        let text = rest.split("</text>").next().unwrap().to_string();
        let size = attrs
            .split("font-size=\"")
            .nth(1)
            .and_then(|x| x.split('"').next())
            .and_then(|x| x.parse().ok())
            .unwrap_or(0.0);
        let text = text
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">");
        v.push((size, text.trim().to_string()));
    }
    v
}

fn numbers(t: &[(f64, String)]) -> Vec<String> {
    t.iter()
        .map(|(_, s)| s.trim().to_string())
        .filter(|s| !s.is_empty() && s.parse::<f64>().is_ok())
        .collect()
}

fn decimals(s: &str) -> usize {
    s.split_once('.').map_or(0, |(_, d)| d.len())
}

#[test]
fn the_figure1_chart_has_whole_tick_labels_a_title_that_fits_and_nine_legend_entries() {
    let dir = tempfile::tempdir().unwrap();
    ethersim(&["figure1", "-q"], dir.path());
    let svg = std::fs::read_to_string(dir.path().join("figure1.svg")).unwrap();
    let t = texts(&svg);
    // block sizes 0..65536 and throughput 0..1300 KB/s: whole numbers only
    for n in numbers(&t) {
        assert_eq!(decimals(&n), 0, "tick label {n}");
    }
    let title = t
        .iter()
        .find(|(_, s)| s.starts_with("AE2 Ethernet performance"))
        .unwrap();
    assert!(
        0.6 * title.0 * title.1.chars().count() as f64 <= plot::SIZE.0 as f64,
        "{title:?}"
    );
    // four simulated curves, four measured, the ceiling: each named once in the legend
    // (the ceiling's label also stands on its line)
    for label in [
        "16-bit, optimized (measured)",
        "8-bit, defaults (simulated, mean of 5 seeds)",
    ] {
        assert_eq!(t.iter().filter(|(_, s)| s == label).count(), 1, "{label}");
    }
    let entries = t
        .iter()
        .filter(|(_, s)| s.ends_with("(measured)") || s.ends_with("(simulated, mean of 5 seeds)"))
        .count();
    assert_eq!(entries, 8);
}

#[test]
fn a_sweep_over_a_whole_number_setting_labels_whole_numbers_and_fits_its_long_title() {
    let dir = tempfile::tempdir().unwrap();
    ethersim(
        &[
            "sweep",
            "scenarios/saturate.toml",
            "--set",
            "run.duration_s=0.2",
            "--param",
            "nodes.stations.count",
            "--values",
            "2,3,4,5,6",
            "--param",
            "apps[0].frame_bytes",
            "--values",
            "64,1518",
            "-q",
        ],
        dir.path(),
    );
    let svg = std::fs::read_to_string(dir.path().join("sweep.svg")).unwrap();
    let t = texts(&svg);
    let nums = numbers(&t);
    for x in ["2", "3", "4", "5", "6"] {
        assert!(nums.iter().any(|n| n == x), "no tick {x} in {nums:?}");
    }
    // nothing between the stations (2.2, 2.4, ... was the old defect)
    assert!(
        !nums.iter().any(|n| n
            .parse::<f64>()
            .is_ok_and(|v| v > 2.0 && v < 6.0 && v.fract() != 0.0)),
        "{nums:?}"
    );
    for n in &nums {
        assert!(decimals(n) <= 2, "tick label {n}");
    }
    // one legend entry per frame size
    for label in ["= 64", "= 1518"] {
        assert_eq!(
            t.iter().filter(|(_, s)| s.ends_with(label)).count(),
            1,
            "{label}: {t:?}"
        );
    }
}

#[test]
fn the_ttcp_and_calibration_charts_count_their_legend_entries() {
    let dir = tempfile::tempdir().unwrap();
    ethersim(
        &["calibrate", "calibrations/ttcp1985/fit.toml", "--evaluate", "-q"],
        dir.path(),
    );
    let svg = std::fs::read_to_string(dir.path().join("calibration.svg")).unwrap();
    let t = texts(&svg);
    // one panel per measured figure, each with its points, the diagonal and the band
    let panels = t
        .iter()
        .filter(|(_, s)| s.starts_with("Calibration ttcp-1985: "))
        .count();
    assert_eq!(panels, 3);
    assert_eq!(t.iter().filter(|(_, s)| s == "simulated = measured").count(), 3);
    assert_eq!(t.iter().filter(|(_, s)| s == "±10%").count(), 3);
    for n in numbers(&t) {
        assert!(decimals(&n) <= 2, "tick label {n}");
    }

    ethersim(&["ttcp1995", "-q"], &dir.path().join("t95"));
    let svg = std::fs::read_to_string(dir.path().join("t95/ttcp-1995.svg")).unwrap();
    let t = texts(&svg);
    assert_eq!(t.iter().filter(|(_, s)| s == "measured (1995)").count(), 1);
    for n in numbers(&t) {
        assert_eq!(decimals(&n), 0, "tick label {n}");
    }
}

#[test]
fn a_narrow_spread_gets_a_stated_non_zero_origin() {
    use ethersim::report::plot::Series;
    let mut s = Series::line("a", 0);
    s.points = vec![(1.0, 950.0, None), (2.0, 1012.0, None)];
    let chart = Chart {
        title: "t".into(),
        x_label: "x".into(),
        y_label: "Throughput".into(),
        x_categories: None,
        series: vec![s],
        ceiling: None,
        y_top: None,
        diagonal: None,
    };
    let dir = tempfile::tempdir().unwrap();
    let mut staged = ethersim::report::atomic::Staged::new(dir.path());
    plot::write_chart(&chart, &mut staged, "c").unwrap();
    staged.commit().unwrap();
    let t = texts(&std::fs::read_to_string(dir.path().join("c.svg")).unwrap());
    let axis = t.iter().find(|(_, s)| s.starts_with("Throughput")).unwrap();
    assert!(axis.1.contains("(axis from 9"), "{axis:?}");
    assert!(
        !numbers(&t).iter().any(|n| n == "0"),
        "the axis must not start at 0"
    );
    assert_eq!(chart.legend_row_count(), 1);
}
