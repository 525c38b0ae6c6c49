//! A what-if of Figure 1: a sweep of a PERFORM3 scenario draws throughput against block
//! size, one line per setting, with the bulletin's measured curve over it; its CSV has one
//! row per (value, block size); `--x` picks the mean-over-blocks view instead.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};

fn sweep(args: &[&str], out: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ethersim"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["sweep", "scenarios/bulletin/16bit-optimized.toml", "-q", "-o"])
        .arg(out)
        .args(args)
        .output()
        .unwrap()
}

/// The (swept value, block size) pairs of a sweep.csv, and its row count.
fn pairs(out: &Path) -> (BTreeSet<(String, String)>, usize) {
    let mut r = csv::Reader::from_path(out.join("sweep.csv")).unwrap();
    let head = r.headers().unwrap().clone();
    let block = head.iter().position(|h| h == "block_size").unwrap();
    let mut set = BTreeSet::new();
    let mut rows = 0;
    for rec in r.records() {
        let rec = rec.unwrap();
        set.insert((rec[0].to_string(), rec[block].to_string()));
        rows += 1;
    }
    (set, rows)
}

fn svg_texts(path: &Path) -> Vec<String> {
    let svg = std::fs::read_to_string(path).unwrap();
    svg.split("<text")
        .skip(1)
        .map(|p| {
            p.split_once('>')
                .unwrap()
                .1
                .split("</text>")
                .next()
                .unwrap()
                .trim()
                .to_string()
        })
        .collect()
}

#[test]
fn a_transmit_buffer_sweep_is_one_curve_per_value_against_block_size() {
    let dir = tempfile::tempdir().unwrap();
    let o = sweep(
        &[
            "--param",
            "adapters.server.transmit_buffers",
            "--range",
            "2..6",
            "-j",
            "2",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (set, rows) = pairs(dir.path());
    // 5 values x the 16 block sizes of the bulletin, each pair once
    assert_eq!(rows, 5 * 16);
    assert_eq!(set.len(), 5 * 16);
    let texts = svg_texts(&dir.path().join("sweep.svg"));
    assert!(
        texts.iter().any(|t| t.contains("against Block size")),
        "{texts:?}"
    );
    for v in 2..=6 {
        let entry = format!("AEX TRANSMIT_BUFFERS (frames) = {v}");
        assert_eq!(texts.iter().filter(|t| **t == entry).count(), 1, "{entry}");
    }
    assert_eq!(
        texts
            .iter()
            .filter(|t| t.starts_with("measured: 16-bit, optimized"))
            .count(),
        1,
        "the bulletin's measured curve is overlaid"
    );
    // the mean over the block sizes stays available beside it
    assert!(dir.path().join("sweep-mean.svg").is_file());
    let mean = svg_texts(&dir.path().join("sweep-mean.svg"));
    assert!(
        mean.iter().any(|t| t.contains("mean over the 16 block sizes")),
        "{mean:?}"
    );
}

#[test]
fn a_packet_size_sweep_has_one_row_per_value_and_block_size() {
    let dir = tempfile::tempdir().unwrap();
    let o = sweep(
        &[
            "--param",
            "adapters.server.packet_size",
            "--range",
            "600..1700:100",
            "--set",
            "apps[0].block_sizes=[3072,15360,64512]",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (set, rows) = pairs(dir.path());
    assert_eq!(rows, 12 * 3);
    assert_eq!(set.len(), 12 * 3);
}

#[test]
fn x_picks_the_mean_view_or_refuses_a_key_it_cannot_draw() {
    let dir = tempfile::tempdir().unwrap();
    let o = sweep(
        &[
            "--param",
            "adapters.server.transmit_buffers",
            "--values",
            "2,4",
            "--set",
            "apps[0].block_sizes=[3072,64512]",
            "--x",
            "adapters.server.transmit_buffers",
        ],
        &dir.path().join("mean"),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!dir.path().join("mean/sweep-mean.svg").exists());
    let texts = svg_texts(&dir.path().join("mean/sweep.svg"));
    assert!(
        texts.iter().any(|t| t.contains("mean over the 2 block sizes")),
        "{texts:?}"
    );

    let o = sweep(
        &[
            "--param",
            "adapters.server.transmit_buffers",
            "--values",
            "2,4",
            "--x",
            "stacks.server.server.run_burst",
        ],
        &dir.path().join("bad"),
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--x stacks.server.server.run_burst") && err.contains("block_size"),
        "{err}"
    );
    assert!(!dir.path().join("bad").exists());
}
