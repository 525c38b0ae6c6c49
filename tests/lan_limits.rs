//! Limits of LAN scenarios (issue 5): a PERFORM3 run that would take unreasonable time is
//! refused by the loader before anything runs, and the state of a LAN run does not grow
//! with simulated duration.
//!
//! A LAN (a bulletin configuration, and a larger lossy one) is stepped through 20 s of
//! simulated time; the engine's pending events (stale timers included) and the medium's
//! transmission records are sampled every 10 ms. Their maxima stay under a bound set by
//! the configuration, and those over 11..20 s within those over 2..11 s plus a margin. The heap bytes the run holds are measured
//! by a counting allocator at 2 s, 10 s and 20 s, and the audit holds at each.

use ethersim::engine::{run_until, Engine};
use ethersim::repro::bulletin::CONFIGS;
use ethersim::repro::bulletin::{self, SCENARIOS};

use ethersim::scenario::budget::{cpu_s, MAX_CPU_S, PERFORM3_COST};
use ethersim::scenario::{Override, ScenarioError, Workload};
use ethersim::time::{SimDuration, SimTime};
use ethersim::workload::perform3::{self, Perform3Config};

mod common;
use common::{live_bytes, max_state};

#[global_allocator]
static ALLOC: common::Counting = common::Counting;

fn sets(list: &[&str]) -> Vec<Override> {
    list.iter()
        .map(|s| Override::parse(s).expect("valid override"))
        .collect()
}

fn load(config: usize, list: &[&str]) -> Result<Perform3Config, ScenarioError> {
    let (name, _) = SCENARIOS[config];
    let s = ethersim::repro::bulletin::load(name, None, &sets(list))?;
    match s.workload {
        Workload::Perform3(w) => Ok(w.config.clone()),
        other => panic!("perform3 expected, got {}", other.kind()),
    }
}

#[test]
fn an_unreasonably_long_lan_run_is_refused_up_front() {
    // Loading only validates: it has no engine and cannot run a simulation, so these
    // refusals are up front by construction.
    // 1023 workstations x 1 h x 16 block sizes on a 100 Mb/s wire with fast hosts: some
    // 1e10 events
    let e = load(
        0,
        &[
            "nodes.workstations.count=1023",
            "segment.bit_rate_mbps=100",
            "hosts.server.mips=200",
            "hosts.workstation.mips=200",
            "hosts.server.memcpy_ns_per_byte=0",
            "adapters.server.io_access_ns_16bit=10",
            "adapters.workstation.io_access_ns_16bit=10",
            "run.warmup_s=3600",
            "run.measure_s=3600",
        ],
    )
    .map(|c| c.block_sizes.len())
    .expect_err("must be refused");
    let msg = e.to_string();
    eprintln!("{msg}");
    assert!(msg.contains("run.measure_s"), "names the key: {msg}");
    assert!(msg.contains("too long a run"), "says why: {msg}");
    assert!(msg.contains("--set run.measure_s=3600"), "says where: {msg}");
    // 10,000 stations: beyond the segment's station limit
    let e = load(0, &["nodes.workstations.count=10000"]).expect_err("must be refused");
    assert!(e.to_string().contains("nodes.workstations.count"), "{e}");
    // the estimate decides: a window just under the limit is admitted, twice it is not
    let base = [
        "nodes.workstations.count=100",
        "run.warmup_s=0",
        "apps[0].block_sizes=[3072]",
    ];
    let one_s = {
        let mut l = base.to_vec();
        l.push("run.measure_s=1");
        let s = ethersim::repro::bulletin::load(SCENARIOS[0].0, None, &sets(&l)).unwrap();
        match s.workload {
            Workload::Perform3(w) => ethersim::scenario::budget::perform3_events(
                &s.medium,
                &w.config.lan.profile,
                100,
                &w.config.block_sizes,
                1.0,
            ),
            _ => unreachable!(),
        }
    };
    let limit_s = MAX_CPU_S / cpu_s(PERFORM3_COST, one_s, 101);
    eprintln!(
        "100 workstations, 3072-byte blocks: {one_s:.0} events per simulated second, limit {limit_s:.0} s"
    );
    let window = |s: f64| {
        let mut l: Vec<String> = base.iter().map(|x| x.to_string()).collect();
        l.push(format!("run.measure_s={s}"));
        l
    };
    let refs = |l: &[String]| l.to_vec();
    let run = |l: Vec<String>| load(0, &l.iter().map(String::as_str).collect::<Vec<_>>());
    if limit_s * 2.0 <= 3600.0 {
        assert!(run(refs(&window(limit_s * 2.0))).is_err());
    }
    assert!(run(refs(&window((limit_s * 0.9).min(3600.0)))).is_ok());
}

fn check_lan_state_is_bounded(cfg: Perform3Config, block: u32, seed: u64) {
    let mut engine = Engine::new(seed);
    let mut lan = perform3::build_lan(&cfg.lan, block, &mut engine);
    let s = SimDuration::from_secs;
    let records = |l: &perform3::Perform3Net| l.lan().records_held();
    let start = max_state(&mut lan, &mut engine, s(0), s(2), records);
    let early = max_state(&mut lan, &mut engine, s(2), s(11), records);
    let late = max_state(&mut lan, &mut engine, s(11), s(20), records);
    let audit = lan.lan().audit(engine.now()).unwrap_or_else(|e| panic!("{e}"));
    eprintln!(
        "{} workstations, block {block}: max (records, pending) over 0..2 s {start:?}, 2..11 s {early:?}, \
         11..20 s {late:?}; {} events, {} bytes to the applications",
        cfg.lan.workstations,
        engine.events_dispatched(),
        audit.bytes_to_app
    );
    assert!(audit.bytes_to_app > 0);
    // A bound set by the configuration alone. Records: the medium keeps every
    // transmission that ended less than the longest frame (plus three propagation delays
    // and a gap) ago; at most as many frames fit in that span as the shortest frame
    // (64 bytes, preamble and gap: 672 bit times) allows, plus a collision fragment from
    // every node. Pending events: per node a CPU
    // completion (and stale ones of preempted jobs), MAC timers and receptions; per
    // session a retry and an ack timer, and the stale ones re-armed within a retry period.
    let nodes = cfg.lan.workstations + 1;
    let sessions = 2 * cfg.lan.workstations;
    let seg = &cfg.lan.segment;
    let bit = seg.bit_ns as f64;
    let longest = (cfg.lan.profile.server_adapter.max_frame_bytes())
        .max(cfg.lan.profile.workstation_adapter.max_frame_bytes()) as f64;
    let span_m = seg.positions_m.iter().cloned().fold(0.0, f64::max)
        - seg.positions_m.iter().cloned().fold(f64::INFINITY, f64::min);
    let prop_ns = span_m / (seg.velocity_factor * 0.299_792_458);
    let keep_ns = ((longest + 8.0) * 8.0 + 96.0) * bit + 3.0 * prop_ns;
    let records_bound = (keep_ns / (672.0 * bit)).ceil() as usize + 1 + nodes;
    let pending_bound = 8 * (nodes + sessions) + 16;
    for (span, (records, pending)) in [("0..2 s", start), ("2..11 s", early), ("11..20 s", late)] {
        assert!(
            records <= records_bound,
            "{span}: {records} records held, bound {records_bound}"
        );
        assert!(
            pending <= pending_bound,
            "{span}: {pending} events pending, bound {pending_bound}"
        );
    }
    // and the second half of the run needs no more than the first (with the margin that
    // the maxima of a random process sampled 900 times leave)
    assert!(
        late.0 <= 2 * early.0 + 8,
        "records held grew: {early:?} -> {late:?}"
    );
    assert!(
        late.1 <= 2 * early.1 + 16,
        "pending events grew: {early:?} -> {late:?}"
    );
}

#[test]
fn lan_records_and_pending_events_stay_bounded_bulletin() {
    let cfg = load(0, &[]).expect("bulletin scenario");
    check_lan_state_is_bounded(cfg, 31_744, 5);
}

#[test]
fn lan_records_and_pending_events_stay_bounded_lossy_and_crowded() {
    // 40 workstations with the defaults' small windows, 2% of frames damaged: retry and
    // delayed-ack timers, ring drops and collisions all in play.
    let cfg = load(
        2,
        &["nodes.workstations.count=40", "segment.corrupt_fraction=0.02"],
    )
    .expect("valid scenario");
    check_lan_state_is_bounded(cfg, 7_168, 9);
}

#[test]
fn lan_heap_does_not_grow_with_duration() {
    let s =
        bulletin::scenario(CONFIGS[1], &sets(&["segment.corrupt_fraction=0.01"])).expect("bulletin scenario");
    let Workload::Perform3(w) = &s.workload else {
        panic!("perform3 expected")
    };
    let cfg = w.config.clone();
    let nodes = cfg.lan.workstations + 1;
    let base = live_bytes();
    let mut engine = Engine::new(3);
    let mut lan = perform3::build_lan(&cfg.lan, 15_360, &mut engine);
    let mut at = |secs: u64| {
        run_until(
            &mut lan,
            &mut engine,
            SimTime::ZERO + SimDuration::from_secs(secs),
        );
        lan.lan().audit(engine.now()).unwrap_or_else(|e| panic!("{e}"));
        live_bytes() - base
    };
    let (b2, b10, b20) = (at(2), at(10), at(20));
    eprintln!("live heap bytes of a {nodes}-node LAN at 2 s: {b2}, 10 s: {b10}, 20 s: {b20}");
    // The histograms (a MAC's access delay and a workstation's block time per node) may
    // still add buckets as longer delays appear; each is capped at 64 x 32 buckets of
    // 8 bytes (stats::Histogram), and queues may reach a new high-water mark once.
    let histogram_cap = (2 * nodes * 64 * 32 * 8) as isize;
    let slack = 64 * 1024;
    assert!(
        b10 <= b2 + histogram_cap + slack,
        "heap grew from {b2} to {b10} bytes"
    );
    assert!(
        b20 <= b10 + histogram_cap + slack,
        "heap grew from {b10} to {b20} bytes"
    );
    assert!(b20 < 4 << 20, "{b20} bytes for {nodes} nodes");
}
