//! Which card to upgrade: the bulletin's LAN with the server's and the workstations' cards in
//! 8- or 16-bit mode (the shipped `upgrade-server-only.toml` and its reverse), and cards in
//! mixed modes within the workstations, reported per node.
//!
//! The physics held: every mix lies between all-8-bit and all-16-bit at each block size;
//! the 8-bit LAN is held by the server's CPU copying through its port, so upgrading only
//! the workstations buys nothing and upgrading only the server buys most of the way.

use std::path::Path;

use ethersim::run;
use ethersim::run::output::RunDetail;
use ethersim::scenario::{self, Override};
use ethersim::workload::perform3::{Bottleneck, Perform3Report};

const BLOCKS: &str = "apps[0].block_sizes=[3072,15360,64512]";

fn perform3(file: &str, sets: &[&str]) -> Perform3Report {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/bulletin")
        .join(file);
    let o: Vec<Override> = sets
        .iter()
        .chain(&[BLOCKS])
        .map(|s| Override::parse(s).unwrap())
        .collect();
    let s = scenario::load(&path, &o).unwrap_or_else(|e| panic!("{file}: {e}"));
    match run::run(&s).detail {
        RunDetail::Perform3(r) => r,
        _ => panic!("not a PERFORM3 run"),
    }
}

fn kbps(r: &Perform3Report) -> Vec<f64> {
    r.points.iter().map(|p| p.throughput_kbps).collect()
}

#[test]
fn each_mix_lies_between_all_8_bit_and_all_16_bit_and_the_server_s_card_is_the_one_to_upgrade() {
    let server_only = perform3("upgrade-server-only.toml", &[]);
    let ws_only = perform3("upgrade-workstations-only.toml", &[]);
    // the shipped files are the mixes they are named for
    assert_eq!(server_only.points.len(), 3);
    let all8 = perform3(
        "upgrade-server-only.toml",
        &["adapters.server.bus_width=8", "adapters.workstation.bus_width=8"],
    );
    let all16 = perform3("upgrade-server-only.toml", &["adapters.workstation.bus_width=16"]);
    let (lo, hi) = (kbps(&all8), kbps(&all16));
    for (name, mix) in [("server only", &server_only), ("workstations only", &ws_only)] {
        for (i, k) in kbps(mix).into_iter().enumerate() {
            let block = mix.points[i].block_size;
            assert!(
                k >= lo[i] * 0.98 && k <= hi[i] * 1.02,
                "{name} at {block}: {k:.1} KB/s outside all-8-bit {:.1} .. all-16-bit {:.1}",
                lo[i],
                hi[i]
            );
        }
    }
    for (i, (p, &low)) in all8.points.iter().zip(&lo).enumerate() {
        let block = p.block_size;
        // all 8-bit: the server's CPU, copying through its 8-bit port, is the limit ...
        assert_eq!(p.explanation.bottleneck, Bottleneck::ServerCpu, "{block}");
        // ... so faster workstation cards change nothing ...
        let ws = kbps(&ws_only)[i];
        assert!((ws / low - 1.0).abs() < 0.02, "{block}: {ws:.1} against {low:.1}");
        // ... and the server's card buys at least a quarter more
        let srv = kbps(&server_only)[i];
        assert!(
            srv > 1.25 * low,
            "{block}: server only {srv:.1}, all 8-bit {low:.1}"
        );
    }
    // with large blocks, 8-bit workstation cards behind a 16-bit server overflow their
    // receive rings: the server sends again, and all-16-bit stays well ahead
    let big = &server_only.points[2];
    assert!(big.explanation.rx_ring_drops > 0 && big.explanation.packets_retransmitted > 0);
    assert!(hi[2] > 1.5 * big.throughput_kbps);
}

#[test]
fn cards_in_mixed_modes_within_the_workstations_run_and_are_reported_per_node() {
    // behind a 16-bit server: three of five workstations 8-bit, two 16-bit
    let mixed = perform3(
        "16bit-optimized.toml",
        &["adapters.workstation.bus_widths=[8,8,8,16,16]"],
    );
    let all8 = perform3("16bit-optimized.toml", &["adapters.workstation.bus_width=8"]);
    let all16 = perform3("16bit-optimized.toml", &[]);
    for (i, p) in mixed.points.iter().enumerate() {
        let s = &p.per_station_kbps;
        assert_eq!(s.len(), 5);
        let slow = s[..3].iter().cloned().fold(f64::INFINITY, f64::min);
        let fast = s[3..].iter().cloned().fold(f64::INFINITY, f64::min);
        let slowest_fast = s[..3].iter().cloned().fold(0.0, f64::max);
        assert!(
            fast > slowest_fast && fast > slow,
            "{}: per station {s:?}: the 16-bit workstations must read faster",
            p.block_size
        );
        let (lo, hi) = (all8.points[i].throughput_kbps, all16.points[i].throughput_kbps);
        assert!(
            p.throughput_kbps > lo && p.throughput_kbps < hi,
            "{}: {:.1} outside {lo:.1} .. {hi:.1}",
            p.block_size,
            p.throughput_kbps
        );
    }
}

fn refused(file: &str, sets: &[&str]) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/bulletin")
        .join(file);
    let o: Vec<Override> = sets.iter().map(|s| Override::parse(s).unwrap()).collect();
    match scenario::load(&path, &o) {
        Ok(_) => panic!("accepted: {sets:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn per_workstation_modes_are_refused_with_the_wrong_count_and_replace_one_mode_for_all() {
    let e = refused(
        "16bit-optimized.toml",
        &["adapters.workstation.bus_widths=[8,16]"],
    );
    assert!(
        e.contains("adapters.workstation.bus_widths") && e.contains("2 entries for 5"),
        "{e}"
    );
    // one mode per workstation replaces the workstations' card's one mode
    let s = perform3(
        "upgrade-server-only.toml",
        &["adapters.workstation.bus_widths=[16,16,16,16,16]"],
    );
    let all16 = perform3("16bit-optimized.toml", &[]);
    assert_eq!(kbps(&s), kbps(&all16));
    let e = refused(
        "16bit-optimized.toml",
        &["adapters.workstation.bus_widths=[8,8,12,16,16]"],
    );
    assert!(
        e.contains("adapters.workstation.bus_widths[2]") && e.contains("8, 16 or 32"),
        "{e}"
    );
}
