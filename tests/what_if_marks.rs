//! A what-if of a reproduction can never pass for it: with `--set`, the chart (SVG and
//! PNG), the printed table, the provenance record beside the CSV and the output folder all
//! name the overrides; without, the provenance says it is the reproduction as shipped.

use std::path::Path;
use std::process::{Command, Output};

fn ethersim(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ethersim"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// Pixels of the top strip (the what-if line's place) in the mark's red.
fn red_in_top_strip(png_path: &Path) -> usize {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(png_path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let width = info.width as usize;
    (0..30 * width)
        .filter(|i| {
            let p = &buf[i * channels..i * channels + 3];
            p[0] > 150 && p[1] < 80 && p[2] < 80
        })
        .count()
}

#[test]
fn a_what_if_of_figure1_names_its_override_in_every_output() {
    let dir = tempfile::tempdir().unwrap();
    let o = ethersim(
        dir.path(),
        &[
            "reproduce",
            "figure1",
            "--set",
            "adapters.server.transmit_buffers=4",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // the folder is named after the override
    let out = dir
        .path()
        .join("output/what-if/bulletin_adapters.server.transmit_buffers=4");
    assert!(
        out.join("figure1.csv").is_file(),
        "{:?}",
        std::fs::read_dir(dir.path().join("output/what-if"))
            .unwrap()
            .collect::<Vec<_>>()
    );
    // the table's heading
    let table = String::from_utf8(o.stdout).unwrap();
    let first = table.lines().next().unwrap();
    assert!(
        first.starts_with("WHAT-IF") && first.contains("adapters.server.transmit_buffers=4"),
        "{first}"
    );
    assert!(first.contains("1992"), "the seeds: {first}");
    // the chart, SVG and PNG
    let svg = std::fs::read_to_string(out.join("figure1.svg")).unwrap();
    assert!(svg.contains("WHAT-IF, not the published bulletin: adapters.server.transmit_buffers=4"));
    assert!(red_in_top_strip(&out.join("figure1.png")) > 100);
    // the provenance record
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("figure1.meta.json")).unwrap()).unwrap();
    assert_eq!(meta["what_if"], true);
    assert_eq!(meta["overrides"][0], "adapters.server.transmit_buffers=4");
    assert_eq!(meta["seeds"].as_array().unwrap().len(), 5);
    assert_eq!(meta["scenarios_sha256"].as_str().unwrap().len(), 64);
    assert_eq!(meta["ethersim"], env!("CARGO_PKG_VERSION"));
    assert!(meta["commit"].is_string());
    assert!(meta["scenario_files"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f == "scenarios/bulletin/16bit-optimized.toml"));
}

#[test]
fn the_reproduction_as_shipped_is_unmarked_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let o = ethersim(dir.path(), &["figure1", "-q"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = dir.path().join("output");
    assert!(!String::from_utf8(o.stdout).unwrap().contains("WHAT-IF"));
    assert!(!std::fs::read_to_string(out.join("figure1.svg"))
        .unwrap()
        .contains("WHAT-IF"));
    assert_eq!(red_in_top_strip(&out.join("figure1.png")), 0);
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("figure1.meta.json")).unwrap()).unwrap();
    assert_eq!(meta["what_if"], false);
    assert_eq!(meta["overrides"].as_array().unwrap().len(), 0);
}

#[test]
fn a_what_if_of_the_ttcp_table_is_marked_too() {
    let dir = tempfile::tempdir().unwrap();
    let o = ethersim(
        dir.path(),
        &[
            "reproduce",
            "ttcp1995",
            "--set",
            "apps[0].socket_buffer=16384",
            "-o",
            "w",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = dir.path().join("w");
    assert!(std::fs::read_to_string(out.join("ttcp-1995.svg"))
        .unwrap()
        .contains("apps[0].socket_buffer=16384"));
    let meta = std::fs::read_to_string(out.join("ttcp-1995.meta.json")).unwrap();
    assert!(
        meta.contains("\"what_if\": true") && meta.contains("1995"),
        "{meta}"
    );
}
