//! Property tests of the whole LAN (issue 5): random valid PERFORM3 scenarios, built through
//! the scenario loader from the embedded bulletin files plus `--set` overrides, run briefly
//! and audited at the end of every block size's window ([`ethersim::lan::Lan::audit`]: every
//! frame, packet and byte accounted for, busy time within elapsed time, the one-station
//! ceiling, no overlapping receptions, server tasks and driver buffers within their limits).
//!
//! A case starts from one of the four bulletin configurations and draws: 1..=63
//! workstations (2..=64 stations), a segment of 1..=500 m with random positions (half the
//! cases) or evenly spaced stations, an 8- or 16-bit bus, transmit buffers 2..=80 on each
//! side, packet sizes 574..=1500 (or up to 4300 with `allow_oversize`), the AI-LANBIOS
//! buffers, initial send size, run burst, size, ack timeout and send order of both sides, the
//! redirector's buffers and size, the server's network tasks and buffer, its per-request
//! latency and that latency's scope (each task's own, or a critical section), one or two block
//! sizes in 1..=65535, a fault-injection fraction of 0..=10 % (half the cases none) and a
//! seed. Each block size runs 0.05 s of warm-up and 0.2 s of measurement (a quarter of the
//! cases 1 s, long enough for the retry timer to recover a lost packet).

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use ethersim::repro::bulletin::SCENARIOS;
use ethersim::scenario::{Override, Workload};
use ethersim::workload::perform3::{block_seed, run_block_audited, Perform3Config, Perform3Point};

/// Cases of the invariant property: about 10 s in `cargo test --release` on 2 cores.
const CASES: u32 = 8192;
/// Cases of the determinism property (each runs twice).
const DETERMINISM_CASES: u32 = 256;

#[derive(Clone, Debug)]
struct Case {
    config: usize,
    sets: Vec<String>,
    block_sizes: Vec<u32>,
}

fn packet_size() -> impl Strategy<Value = (u32, bool)> {
    prop_oneof![
        3 => (574u32..=1500).prop_map(|p| (p, false)),
        1 => (574u32..=4300).prop_map(|p| (p, true)),
    ]
}

fn ailanbio(side: &'static str) -> impl Strategy<Value = Vec<String>> {
    (
        1u32..=255,
        1u32..=65535,
        1u32..=255,
        574u32..=4300,
        0u32..=2,
        prop_oneof![Just("oldest_message"), Just("round_robin"), Just("one_message")],
    )
        .prop_map(move |(buffers, initial, burst, size, ack, order)| {
            vec![
                format!("stacks.{side}.{side}.ailanbio.send_order={order}"),
                format!("stacks.{side}.{side}.ailanbio.buffers={buffers}"),
                format!("stacks.{side}.{side}.ailanbio.initial_send_size={initial}"),
                format!("stacks.{side}.{side}.ailanbio.run_burst={burst}"),
                format!("stacks.{side}.{side}.ailanbio.size={size}"),
                format!("stacks.{side}.{side}.ailanbio.ack_timeout={ack}"),
            ]
        })
}

fn case() -> impl Strategy<Value = Case> {
    let lan = (
        0usize..4,
        prop_oneof![3 => 1usize..=8, 1 => 1usize..=63],
        1.0f64..=500.0,
        any::<bool>(),
        prop_oneof![Just(8u32), Just(16u32)],
        (2u32..=80, 2u32..=80),
        (packet_size(), packet_size()),
    );
    let nos = (
        ailanbio("server"),
        ailanbio("workstation"),
        (1u32..=16, 512u32..=65535),
        (1u32..=64, 512u32..=65535),
        prop::collection::vec(1u32..=65535, 1..=2),
        prop_oneof![Just(0.0f64), 0.0f64..=0.1],
        0i64..=i64::MAX,
        prop_oneof![3 => Just(0.2f64), 1 => Just(1.0f64)],
        (
            prop_oneof![Just(0.0f64), 0.0f64..=3.0],
            any::<bool>(),
            0usize..3,
            any::<bool>(),
        ),
    );
    (lan, nos).prop_flat_map(|(lan, nos)| {
        let (config, ws, length, random_pos, width, (tx, ws_tx), ((pkt, big), (ws_pkt, ws_big))) = lan;
        let (
            server,
            workstation,
            (redir_buffers, redir_size),
            (tasks, net_buf),
            blocks,
            corrupt,
            seed,
            measure,
            (latency, serial, copy, whole),
        ) = nos;
        let scope = if serial { "server" } else { "task" };
        let send_copy = ["queued", "at_once", "when_idle"][copy];
        let reply_copy = if whole { "before_send" } else { "per_packet" };
        let positions = if random_pos {
            prop::collection::vec(0.0f64..=length, ws + 1)
                .prop_map(Some)
                .boxed()
        } else {
            Just(None).boxed()
        };
        positions.prop_map(move |positions| {
            let mut sets = vec![
                format!("nodes.workstations.count={ws}"),
                "run.warmup_s=0.05".to_string(),
                format!("run.measure_s={measure}"),
                format!("segment.length_m={length}"),
                format!("segment.allow_oversize={}", big || ws_big),
                format!("segment.corrupt_fraction={corrupt}"),
                format!("adapters.server.bus_width={width}"),
                format!("adapters.workstation.bus_width={width}"),
                format!("adapters.server.transmit_buffers={tx}"),
                format!("adapters.server.packet_size={pkt}"),
                format!("adapters.server.send_copy={send_copy}"),
                format!("adapters.workstation.send_copy={send_copy}"),
                format!("adapters.workstation.transmit_buffers={ws_tx}"),
                format!("adapters.workstation.packet_size={ws_pkt}"),
                format!("stacks.workstation.workstation.redir.buffers={redir_buffers}"),
                format!("stacks.workstation.workstation.redir.size={redir_size}"),
                format!("stacks.server.server.network_tasks={tasks}"),
                format!("stacks.server.server.network_buffer={net_buf}"),
                format!("stacks.server.server.reply_copy={reply_copy}"),
                format!("stacks.server.costs.server_request_latency_ms={latency}"),
                format!("stacks.server.costs.server_request_latency_scope={scope}"),
                format!("seed={seed}"),
            ];
            if let Some(p) = &positions {
                let list: Vec<String> = p.iter().map(|x| format!("{x:?}")).collect();
                sets.push(format!("segment.positions_m=[{}]", list.join(", ")));
            }
            sets.extend(server.iter().cloned());
            sets.extend(workstation.iter().cloned());
            Case {
                config,
                sets,
                block_sizes: blocks.clone(),
            }
        })
    })
}

/// Loads the case through the scenario loader: the config, its overrides and its seed.
fn load(c: &Case) -> (Perform3Config, u64) {
    let mut sets = c.sets.clone();
    let blocks: Vec<String> = c.block_sizes.iter().map(u32::to_string).collect();
    sets.push(format!("apps[0].block_sizes=[{}]", blocks.join(", ")));
    let overrides: Vec<Override> = sets
        .iter()
        .map(|s| Override::parse(s).unwrap_or_else(|e| panic!("{s}: {e}")))
        .collect();
    let (name, _) = SCENARIOS[c.config];
    let s = ethersim::repro::bulletin::load(name, None, &overrides)
        .unwrap_or_else(|e| panic!("a generated scenario must be valid: {e}\n{sets:#?}"));
    match s.workload {
        Workload::Perform3(w) => (w.config, s.seed),
        other => panic!("perform3 expected, got {}", other.kind()),
    }
}

/// Checks of one point beyond the audit (which covers the run from time zero).
fn check_point(
    cfg: &Perform3Config,
    p: &Perform3Point,
    ceiling_bytes_per_s: f64,
) -> Result<(), TestCaseError> {
    let w = cfg.measure.as_secs_f64();
    let sum: f64 = p.per_station_kbps.iter().sum();
    prop_assert!((sum - p.throughput_kbps).abs() <= 1e-6 * sum.max(1.0));
    prop_assert!(p.per_station_kbps.iter().all(|&k| k >= 0.0 && k.is_finite()));
    // Within the window, data received can exceed what the wire carried in it only by what
    // was already in the workstations' receive rings (and one frame on the wire) at its start.
    let lan = &cfg.lan;
    let ring =
        lan.profile.workstation_adapter.rx_pages() as f64 * lan.profile.workstation_adapter.page_bytes as f64;
    let slack = lan.workstations as f64 * ring + lan.profile.server_adapter.max_frame_bytes() as f64;
    let bound = (ceiling_bytes_per_s * (w + 9.6e-6) + slack) / w / 1000.0;
    prop_assert!(
        p.throughput_kbps <= bound,
        "block {}: {} KB/s over the ceiling {bound}",
        p.block_size,
        p.throughput_kbps
    );
    let e = &p.explanation;
    let eps = 1e-9;
    for (what, share) in [
        ("wire success", e.wire_success),
        ("wire collision", e.wire_collision),
        ("wire idle", e.wire_idle),
        ("server cpu", e.server_cpu.busy),
        ("workstation cpu", e.workstation_cpu.busy),
    ] {
        prop_assert!(
            (0.0..=1.0 + eps).contains(&share),
            "block {}: {what} share {share}",
            p.block_size
        );
    }
    prop_assert!(e.wire_success + e.wire_collision <= 1.0 + eps);
    Ok(())
}

fn check_invariants(c: &Case) -> Result<(), TestCaseError> {
    let (cfg, seed) = load(c);
    // the ceiling depends only on the configuration; a throwaway LAN computes it
    let mut engine = ethersim::engine::Engine::new(0);
    let ceiling = ethersim::workload::perform3::build_lan(&cfg.lan, 1, &mut engine)
        .lan()
        .payload_ceiling_bytes_per_s();
    for &b in &cfg.block_sizes {
        let (p, audit) = run_block_audited(&cfg, b, block_seed(seed, b));
        let a = audit.map_err(|e| TestCaseError::fail(format!("block {b}: {e}\n{:#?}", c.sets)))?;
        prop_assert!(a.bytes_to_app <= a.bytes_received && a.bytes_received <= a.bytes_asked);
        prop_assert_eq!(a.rx_overlaps, 0);
        if std::env::var_os("LAN_PROPS_TRACE").is_some() {
            eprintln!(
                "ws {} block {b}: {:.1} KB/s, {} events, lost {} rtx {}",
                cfg.lan.workstations,
                p.throughput_kbps,
                p.events,
                a.data_packets_lost,
                a.packets_retransmitted
            );
        }
        check_point(&cfg, &p, ceiling)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: CASES, ..ProptestConfig::default() })]

    #[test]
    fn random_lans_keep_every_invariant(c in case()) {
        check_invariants(&c)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: DETERMINISM_CASES, ..ProptestConfig::default() })]

    #[test]
    fn same_scenario_and_seed_give_identical_reports(c in case()) {
        let (cfg, seed) = load(&c);
        let b = cfg.block_sizes[0];
        let once = run_block_audited(&cfg, b, block_seed(seed, b));
        let twice = run_block_audited(&cfg, b, block_seed(seed, b));
        let json = |r: &(Perform3Point, Result<ethersim::lan::AuditReport, ethersim::lan::AuditError>)| {
            serde_json::to_string(&(&r.0, r.1.as_ref().ok())).expect("serialisable")
        };
        prop_assert_eq!(json(&once), json(&twice));
    }
}
