//! The Figure 1 renderers on synthetic data (Table 1 as measured, a made-up simulation):
//! the CSV columns, the comparison table, and SVG/PNG files that carry their labels.
//! Set ETHERSIM_PREVIEW_DIR to keep a copy of the images for a look.

use ethersim::report::atomic::Staged;
use ethersim::repro::bulletin::analysis::Figure1Data;
use ethersim::repro::bulletin::report as figure1;
use ethersim::repro::bulletin::{from_table1, CONFIGS};

fn synthetic() -> Figure1Data {
    // a smooth curve a few percent off the measurements
    from_table1(|config, block, measured| {
        let wiggle = if config.starts_with("16") { 0.03 } else { -0.02 };
        measured * (1.0 + wiggle * (block as f64 / 64512.0))
    })
}

#[test]
fn figure1_files_have_the_bulletin_labels() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("output");
    let data = synthetic();
    let mut staged = Staged::new(&out);
    figure1::write_outputs(&data, &mut staged).unwrap();
    let files = staged.commit().unwrap();
    assert_eq!(files.len(), 3);

    let csv = std::fs::read_to_string(out.join("figure1.csv")).unwrap();
    assert!(csv.starts_with("config,block_size,measured_kbps,simulated_kbps\n"));
    assert_eq!(csv.lines().count(), 65);
    for c in CONFIGS {
        assert_eq!(
            csv.lines().filter(|l| l.starts_with(&format!("{c},"))).count(),
            16
        );
    }

    let svg = std::fs::read_to_string(out.join("figure1.svg")).unwrap();
    for label in [
        "AE2 Ethernet performance: 8-bit vs 16-bit (simulated lines, measured points)",
        "Block size (bytes)",
        "Throughput (KB/s, 1 KB = 1000 bytes)",
        "10 Mb/s = 1250 KB/s (not reachable)",
        "16-bit, optimized (simulated)",
        "8-bit, defaults (measured)",
    ] {
        assert!(svg.contains(label), "SVG lacks {label:?}");
    }
    let png = std::fs::read(out.join("figure1.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(png.len() > 20_000, "PNG suspiciously small: {} bytes", png.len());

    if let Some(dir) = std::env::var_os("ETHERSIM_PREVIEW_DIR") {
        std::fs::create_dir_all(&dir).unwrap();
        for f in ["figure1.png", "figure1.svg", "figure1.csv"] {
            std::fs::copy(out.join(f), std::path::Path::new(&dir).join(f)).unwrap();
        }
    }
}

#[test]
fn comparison_table_shows_errors_and_mape_per_curve() {
    let t = figure1::comparison_table(&synthetic());
    assert_eq!(t.matches("MAPE").count(), 4);
    assert!(t.contains("64512"));
    assert!(t.contains("+3.0"), "{t}");
    assert!(t.contains("-2.0"), "{t}");
}

#[test]
fn png_text_is_drawn_with_the_embedded_font() {
    // the same chart with and without text must differ: text pixels come from the font
    let d = tempfile::tempdir().unwrap();
    let data = synthetic();
    let mut chart = figure1::chart(&data);
    let mut s = Staged::new(d.path());
    ethersim::report::plot::write_chart(&chart, &mut s, "with").unwrap();
    chart.title.clear();
    chart.x_label.clear();
    chart.y_label.clear();
    ethersim::report::plot::write_chart(&chart, &mut s, "without").unwrap();
    s.commit().unwrap();
    let a = std::fs::read(d.path().join("with.png")).unwrap();
    let b = std::fs::read(d.path().join("without.png")).unwrap();
    assert_ne!(a, b);
}
