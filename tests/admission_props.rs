//! The admission rule (issue 9, class 1): the loader's estimate of a run's events
//! ([`ethersim::scenario::budget`]) against the events the engine dispatches.
//!
//! - Over a spread of saturate and PERFORM3 shapes small enough to run in seconds, the
//!   estimate is within a factor of 2 of the measured event count.
//! - A property test draws scenarios over the full accepted ranges of every key that drives
//!   events (small cases: few stations, short windows): each is either refused by the loader
//!   or runs within twice its estimate.
//! - ttcp: the estimate is within a factor of 2 for writes of at least an MSS (the 1995
//!   table's eight cases among them, with and without loss) and an upper bound, within 10
//!   times, for shorter writes, which Nagle's rule coalesces; an absurd `nbuf` is refused
//!   naming the key; the shipped scenarios are admitted.

use ethersim::repro::bulletin::SCENARIOS;
use ethersim::repro::ttcp1995;
use ethersim::scenario::{budget, load_str, Override, Scenario, ScenarioError, Workload};
use ethersim::workload::{perform3, saturate, ttcp};

const SATURATE: &str = include_str!("fixtures/workload-form/saturate.toml");

fn sets(list: &[String]) -> Vec<Override> {
    list.iter()
        .map(|s| Override::parse(s).expect("valid override"))
        .collect()
}

fn saturate_with(list: &[String]) -> Result<Scenario, ScenarioError> {
    load_str("saturate.toml", SATURATE, &sets(list))
}

fn perform3_with(config: usize, list: &[String]) -> Result<Scenario, ScenarioError> {
    let (name, _) = SCENARIOS[config];
    ethersim::repro::bulletin::load(name, None, &sets(list))
}

/// (estimated, measured) events of a validated scenario.
fn estimate_and_run(s: &Scenario) -> (f64, u64) {
    match &s.workload {
        Workload::Saturate(w) => {
            let c = &w.config;
            let senders = c.senders;
            let est = budget::saturate_events(&s.medium, senders, c.frame_bytes, c.duration.as_secs_f64());
            (est, saturate::run(c, &w.segment, s.seed).events)
        }
        Workload::Traffic(w) => {
            let c = &w.config;
            let est = budget::traffic_events(
                &s.medium,
                c.senders,
                c.sizes.mean_bytes(),
                c.offered_load,
                c.duration.as_secs_f64(),
            );
            (
                est,
                ethersim::workload::traffic::run(c, &w.segment, s.seed).events,
            )
        }
        Workload::Ttcp(w) => {
            let events = ttcp::run(&w.config, s.seed).map_or(0, |r| r.events);
            (budget::ttcp_events(&w.config), events)
        }
        Workload::Perform3(w) => {
            let c = &w.config;
            let window = (c.warmup + c.measure).as_secs_f64();
            let est = budget::perform3_events(
                &s.medium,
                &c.lan.profile,
                c.lan.workstations,
                &c.block_sizes,
                window,
            );
            let events = c
                .block_sizes
                .iter()
                .map(|&b| perform3::run_block(c, b, perform3::block_seed(s.seed, b)).events)
                .sum();
            (est, events)
        }
        Workload::Shared(w) => (
            w.estimated_events,
            ethersim::workload::shared::run(&w.config, s.seed).events,
        ),
        Workload::Lanperf(_) => unreachable!("these properties cover saturate, perform3 and ttcp"),
    }
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn estimate_is_within_a_factor_of_2_of_the_events_dispatched() {
    let sat: Vec<Vec<String>> = [
        &["workload.stations=1", "workload.duration_s=0.5"][..],
        &[
            "workload.stations=2",
            "workload.frame_bytes=64",
            "workload.duration_s=0.2",
        ],
        &["workload.stations=24", "workload.duration_s=0.5"],
        &[
            "workload.stations=24",
            "workload.frame_bytes=64",
            "workload.duration_s=0.1",
        ],
        &[
            "workload.stations=100",
            "workload.frame_bytes=512",
            "workload.duration_s=0.1",
        ],
        &[
            "workload.stations=300",
            "workload.duration_s=0.05",
            "workload.destination=\"round_robin\"",
        ],
        &[
            "workload.stations=8",
            "medium.length_m=2500",
            "medium.velocity_factor=0.4",
            "workload.duration_s=0.05",
        ],
        &[
            "workload.stations=8",
            "medium.bit_rate_mbps=1",
            "workload.duration_s=2",
        ],
    ]
    .iter()
    .map(|l| strings(l))
    .collect();
    let p3: Vec<(usize, Vec<String>)> = [
        (
            0,
            &[
                "apps[0].block_sizes=[64512, 3072]",
                "run.measure_s=1",
                "run.warmup_s=0.5",
            ][..],
        ),
        (
            1,
            &[
                "apps[0].block_sizes=[64512, 3072]",
                "run.measure_s=1",
                "run.warmup_s=0.5",
            ],
        ),
        (
            2,
            &[
                "apps[0].block_sizes=[32768]",
                "run.measure_s=1",
                "run.warmup_s=0.5",
            ],
        ),
        (
            3,
            &[
                "apps[0].block_sizes=[1024]",
                "run.measure_s=1",
                "run.warmup_s=0.5",
            ],
        ),
        (
            0,
            &[
                "nodes.workstations.count=1",
                "apps[0].block_sizes=[8192]",
                "run.measure_s=2",
            ],
        ),
        (
            0,
            &[
                "nodes.workstations.count=40",
                "apps[0].block_sizes=[16384]",
                "run.measure_s=1",
            ],
        ),
        (
            0,
            &[
                "nodes.workstations.count=1023",
                "apps[0].block_sizes=[3072]",
                "run.measure_s=2",
                "run.warmup_s=0.1",
            ],
        ),
        (
            2,
            &[
                "nodes.workstations.count=300",
                "apps[0].block_sizes=[3072]",
                "run.measure_s=0.5",
                "run.warmup_s=0.1",
            ],
        ),
        (
            1,
            &[
                "nodes.workstations.count=20",
                "hosts.server.mips=200",
                "hosts.workstation.mips=200",
                "apps[0].block_sizes=[4096]",
                "run.measure_s=1",
            ],
        ),
        (
            0,
            &[
                "hosts.server.mips=0.5",
                "apps[0].block_sizes=[4096]",
                "run.measure_s=2",
            ],
        ),
        // SERVER yielding 2 ms of CPU to the foreground before every request
        (
            2,
            &[
                "stacks.server.costs.server_yield_ms=2",
                "apps[0].block_sizes=[32768]",
                "run.measure_s=1",
                "run.warmup_s=0.5",
            ],
        ),
    ]
    .iter()
    .map(|(c, l)| (*c, strings(l)))
    .collect();
    let mut worst: f64 = 1.0;
    let mut check = |label: String, s: Scenario| {
        let (est, got) = estimate_and_run(&s);
        let ratio = est / got.max(1) as f64;
        eprintln!("{label}: estimate {est:.0}, dispatched {got}, ratio {ratio:.2}");
        worst = worst.max(ratio).max(1.0 / ratio);
    };
    for l in sat {
        check(format!("saturate {l:?}"), saturate_with(&l).unwrap());
    }
    for (c, l) in p3 {
        check(format!("{} {l:?}", SCENARIOS[c].0), perform3_with(c, &l).unwrap());
    }
    eprintln!("worst ratio {worst:.2}");
    assert!(
        worst <= 2.0,
        "an estimate is off by more than a factor of 2 ({worst:.2})"
    );
}

fn ttcp_with(case: &str, list: &[&str]) -> Result<Scenario, String> {
    ttcp1995::scenario(case, &sets(&strings(list))).map_err(|e| e.to_string())
}

#[test]
fn ttcp_estimate_is_within_a_factor_of_2_for_full_segments_and_above_for_short_writes() {
    let full: Vec<(&str, Vec<&str>)> = ttcp1995::CASES
        .iter()
        .map(|c| (c.scenario, vec![]))
        .chain([
            (
                "ttcp-1995-smc-ultra-smc-ultra-transmit",
                vec!["apps[0].buflen=1436", "apps[0].nbuf=1024"],
            ),
            (
                "ttcp-1995-smc-ultra-lance-receive",
                vec!["apps[0].buflen=65536", "apps[0].nbuf=64"],
            ),
            (
                "ttcp-1995-smc-ultra-smc-ultra-transmit",
                vec!["apps[0].nbuf=512", "segment.corrupt_fraction=0.01"],
            ),
            (
                "ttcp-1995-3c509-3c509-receive",
                vec![
                    "apps[0].nbuf=256",
                    "segment.corrupt_fraction=0.1",
                    "apps[0].limit_s=3600",
                ],
            ),
        ])
        .collect();
    let mut worst: f64 = 1.0;
    for (case, list) in &full {
        let s = ttcp_with(case, list).unwrap();
        let (est, got) = estimate_and_run(&s);
        let ratio = est / got.max(1) as f64;
        eprintln!("{case} {list:?}: estimate {est:.0}, dispatched {got}, ratio {ratio:.2}");
        worst = worst.max(ratio).max(1.0 / ratio);
    }
    assert!(
        worst <= 2.0,
        "a ttcp estimate is off by more than a factor of 2 ({worst:.2})"
    );
    // writes shorter than an MSS: Nagle's rule coalesces them, the estimate does not
    for list in [
        ["apps[0].buflen=64", "apps[0].nbuf=4096"],
        ["apps[0].buflen=1", "apps[0].nbuf=20000"],
    ] {
        let s = ttcp_with("ttcp-1995-smc-ultra-smc-ultra-transmit", &list).unwrap();
        let (est, got) = estimate_and_run(&s);
        eprintln!("short writes {list:?}: estimate {est:.0}, dispatched {got}");
        assert!(
            est >= got as f64 && est <= 10.0 * got as f64,
            "{list:?}: {est} for {got}"
        );
    }
}

#[test]
fn ttcp_with_an_absurd_nbuf_is_refused_naming_the_key() {
    let case = "ttcp-1995-smc-ultra-smc-ultra-transmit";
    // the loader's range stops it first ...
    let e = ttcp_with(case, &["apps[0].nbuf=1000000000000"]).unwrap_err();
    assert!(
        e.contains("key `apps[0].nbuf`") && e.contains("1..=1048576"),
        "{e}"
    );
    // ... and the admission rule would refuse what the range let through
    let s = ttcp_with(case, &[]).unwrap();
    let mut cfg = ttcp1995::config(&s).unwrap().clone();
    cfg.buflen = 1 << 20;
    cfg.nbuf = u32::MAX;
    let e = budget::admit_ttcp(&cfg).unwrap_err();
    assert_eq!(e.path, "workload.nbuf");
    let e = e.problem.to_string();
    assert!(
        e.contains("refused") && e.contains("minutes of CPU") && e.contains("ttcp -l 1048576 -n 4294967295"),
        "{e}"
    );
}

#[test]
fn ttcp_shipped_scenarios_and_the_largest_accepted_transfer_are_admitted() {
    for c in &ttcp1995::CASES {
        let s = ttcp_with(c.scenario, &[]).unwrap();
        budget::admit_ttcp(ttcp1995::config(&s).unwrap()).unwrap();
    }
    // 1 GiB in 1 MiB writes with every frame damaged: the most the ranges allow
    let s = ttcp_with(
        "ttcp-1995-3c509-3c509-receive",
        &[
            "apps[0].buflen=1048576",
            "apps[0].nbuf=1024",
            "segment.corrupt_fraction=1",
        ],
    )
    .unwrap();
    let events = budget::ttcp_events(ttcp1995::config(&s).unwrap());
    let cpu = budget::cpu_s(budget::TTCP_COST, events, 2);
    eprintln!("largest accepted ttcp: {events:.3e} events, {cpu:.0} s of CPU");
    assert!(cpu < budget::MAX_CPU_S);
}

mod full_ranges {
    //! Scenarios drawn over the full accepted range of every key that drives events (and a
    //! little beyond each end): each is refused by the loader with an error, or it runs
    //! without a panic (this file runs in CI's debug build, with overflow checks and the
    //! model's debug assertions) and dispatches at most twice its estimated events. Only
    //! the drawn cases whose estimate is small are run, so durations and sizes are drawn on
    //! a log scale to make many of them small.

    use super::*;
    use proptest::prelude::*;
    use std::panic::{catch_unwind, AssertUnwindSafe};

    /// Log-uniform in [lo, hi].
    fn log(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
        (lo.ln()..hi.ln()).prop_map(f64::exp)
    }

    const RUN_BELOW_EVENTS: f64 = 60_000.0;
    const RUN_FLOOR_EVENTS: f64 = 50_000.0;

    /// Refused, or run within twice the estimate without a panic.
    fn check(s: Result<Scenario, ScenarioError>, label: &str) -> Result<(), TestCaseError> {
        let Ok(s) = s else {
            if std::env::var_os("ADMISSION_TRACE").is_some() {
                eprintln!("refused {label}");
            }
            return Ok(()); // refused up front: fine
        };
        let estimate = match &s.workload {
            Workload::Saturate(w) => {
                let c = &w.config;
                budget::saturate_events(&s.medium, c.senders, c.frame_bytes, c.duration.as_secs_f64())
            }
            Workload::Perform3(w) => {
                let c = &w.config;
                budget::perform3_events(
                    &s.medium,
                    &c.lan.profile,
                    c.lan.workstations,
                    &c.block_sizes,
                    (c.warmup + c.measure).as_secs_f64(),
                )
            }
            Workload::Ttcp(w) => budget::ttcp_events(&w.config),
            Workload::Shared(w) => w.estimated_events,
            // not drawn here (tests/traffic.rs checks its estimate)
            Workload::Lanperf(_) | Workload::Traffic(_) => return Ok(()),
        };
        prop_assert!(
            estimate.is_finite() && estimate >= 0.0,
            "{label}: estimate {estimate}"
        );
        if std::env::var_os("ADMISSION_TRACE").is_some() {
            eprintln!("admitted ({estimate:.0} events) {label}");
        }
        if estimate > RUN_BELOW_EVENTS {
            return Ok(());
        }
        let ran = catch_unwind(AssertUnwindSafe(|| estimate_and_run(&s)));
        let Ok((_, events)) = ran else {
            return Err(TestCaseError::fail(format!("{label}: admitted, then panicked")));
        };
        // below RUN_FLOOR_EVENTS a run takes milliseconds: no admission decision (10
        // minutes of CPU) can be wrong there, so the factor of 2 is held above it (the
        // start-up collisions of a saturated segment are the least regular part)
        prop_assert!(
            events as f64 <= 2.0 * estimate + RUN_FLOOR_EVENTS,
            "{label}: {events} events dispatched, estimate {estimate:.0}"
        );
        Ok(())
    }

    proptest! {
        // a fixed seed: CI draws the same cases every time (other seeds were tried locally)
        #![proptest_config(ProptestConfig {
            cases: 40,
            failure_persistence: None,
            rng_seed: proptest::test_runner::RngSeed::Fixed(2026),
            ..ProptestConfig::default()
        })]

        #[test]
        fn saturate_is_refused_or_runs_within_its_budget(
            stations in log(0.5, 2000.0),
            frame in 40u32..5000,
            oversize in any::<bool>(),
            rate in prop::sample::select(vec![0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 100.0, 1000.0, 3.0]),
            velocity in 0.3f64..1.05,
            length in log(0.05, 3000.0),
            duration in log(1e-7, 5000.0),
            corrupt in 0.0f64..1.1,
            round_robin in any::<bool>(),
        ) {
            let list = vec![
                format!("workload.stations={}", stations.round() as i64),
                format!("workload.frame_bytes={frame}"),
                format!("medium.allow_oversize={oversize}"),
                format!("medium.bit_rate_mbps={rate}"),
                format!("medium.velocity_factor={velocity}"),
                format!("medium.length_m={length}"),
                format!("workload.duration_s={duration}"),
                format!("medium.corrupt_fraction={corrupt}"),
                format!("workload.destination=\"{}\"", if round_robin { "round_robin" } else { "sink" }),
            ];
            check(saturate_with(&list), &format!("{list:?}"))?;
        }

        #[test]
        fn perform3_is_refused_or_runs_within_its_budget(
            config in 0usize..4,
            workstations in log(0.5, 1500.0),
            block in log(0.5, 70_000.0),
            warmup in log(1e-9, 4000.0),
            measure in log(1e-9, 4000.0),
            mips in log(0.05, 300.0),
            memcpy in log(1e-3, 20_000.0),
            access in log(5.0, 200_000.0),
            retry_ms in log(10.0, 100_000.0),
            kinstr in log(1e-3, 20_000.0),
        ) {
            let list = vec![
                format!("nodes.workstations.count={}", workstations.round() as i64),
                format!("apps[0].block_sizes=[{}]", block.round() as i64),
                format!("run.warmup_s={warmup}"),
                format!("run.measure_s={measure}"),
                format!("hosts.server.mips={mips}"),
                format!("hosts.workstation.mips={mips}"),
                format!("hosts.server.memcpy_ns_per_byte={memcpy}"),
                format!("adapters.server.io_access_ns_16bit={access}"),
                format!("adapters.workstation.io_access_ns_16bit={access}"),
                format!("adapters.server.io_access_ns_8bit={access}"),
                format!("adapters.workstation.io_access_ns_8bit={access}"),
                format!("stacks.server.protocol.retry_base_ms={retry_ms}"),
                format!("stacks.server.costs.app_block_kinstr={kinstr}"),
            ];
            check(perform3_with(config, &list), &format!("{} {list:?}", SCENARIOS[config].0))?;
        }

        #[test]
        fn ttcp_is_refused_or_runs_within_its_budget(
            case in 0usize..8,
            buflen in log(0.5, 3_000_000.0),
            nbuf in log(0.5, 3_000_000.0),
            corrupt in 0.0f64..1.1,
            limit in log(1e-4, 5000.0),
        ) {
            let list = vec![
                format!("apps[0].buflen={}", buflen.round() as i64),
                format!("apps[0].nbuf={}", nbuf.round() as i64),
                format!("segment.corrupt_fraction={corrupt}"),
                format!("apps[0].limit_s={limit}"),
            ];
            let c = &ttcp1995::CASES[case];
            let s = ttcp1995::scenario(c.scenario, &sets(&list)).map_err(|e| match e {
                ttcp1995::Ttcp1995Error::Scenario(e) => e,
                other => panic!("{other}"),
            });
            check(s, &format!("{} {list:?}", c.scenario))?;
        }
    }
}
