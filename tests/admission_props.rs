//! The admission rule (issue 9, class 1): the loader's estimate of a run's events
//! ([`ethersim::scenario::budget`]) against the events the engine dispatches.
//!
//! - Over a spread of saturate and PERFORM3 shapes small enough to run in seconds, the
//!   estimate is within a factor of 2 of the measured event count.
//! - A property test draws scenarios over the full accepted ranges of every key that drives
//!   events (small cases: few stations, short windows): each is either refused by the loader
//!   or runs within twice its estimate.

use ethersim::bulletin::{HARDWARE, SCENARIOS};
use ethersim::scenario::{budget, load_embedded, load_str, Override, Scenario, ScenarioError, Workload};
use ethersim::workload::{perform3, saturate};

const SATURATE: &str = include_str!("../scenarios/saturate.toml");

fn sets(list: &[String]) -> Vec<Override> {
    list.iter()
        .map(|s| Override::parse(s).expect("valid override"))
        .collect()
}

fn saturate_with(list: &[String]) -> Result<Scenario, ScenarioError> {
    load_str("saturate.toml", SATURATE, &sets(list))
}

fn perform3_with(config: usize, list: &[String]) -> Result<Scenario, ScenarioError> {
    let (name, text) = SCENARIOS[config];
    load_embedded(name, text, Some(HARDWARE), &sets(list))
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
        Workload::Ttcp(_) => unreachable!("admission properties cover saturate and perform3"),
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
                "workload.block_sizes=[64512, 3072]",
                "workload.measure_s=1",
                "workload.warmup_s=0.5",
            ][..],
        ),
        (
            1,
            &[
                "workload.block_sizes=[64512, 3072]",
                "workload.measure_s=1",
                "workload.warmup_s=0.5",
            ],
        ),
        (
            2,
            &[
                "workload.block_sizes=[32768]",
                "workload.measure_s=1",
                "workload.warmup_s=0.5",
            ],
        ),
        (
            3,
            &[
                "workload.block_sizes=[1024]",
                "workload.measure_s=1",
                "workload.warmup_s=0.5",
            ],
        ),
        (
            0,
            &[
                "workload.workstations=1",
                "workload.block_sizes=[8192]",
                "workload.measure_s=2",
            ],
        ),
        (
            0,
            &[
                "workload.workstations=40",
                "workload.block_sizes=[16384]",
                "workload.measure_s=1",
            ],
        ),
        (
            0,
            &[
                "workload.workstations=1023",
                "workload.block_sizes=[3072]",
                "workload.measure_s=2",
                "workload.warmup_s=0.1",
            ],
        ),
        (
            2,
            &[
                "workload.workstations=300",
                "workload.block_sizes=[3072]",
                "workload.measure_s=0.5",
                "workload.warmup_s=0.1",
            ],
        ),
        (
            1,
            &[
                "workload.workstations=20",
                "hosts.server.mips=200",
                "hosts.workstation.mips=200",
                "workload.block_sizes=[4096]",
                "workload.measure_s=1",
            ],
        ),
        (
            0,
            &[
                "hosts.server.mips=0.5",
                "workload.block_sizes=[4096]",
                "workload.measure_s=2",
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
