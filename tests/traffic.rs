//! The open-loop traffic workload as a user runs it, from scenario text to the figures:
//! exact single-station physics at light load, carried against offered load below and
//! above capacity, the size mixes, determinism, admission and refusals of bad input.

use ethersim::report::{exporter, Format};
use ethersim::run;
use ethersim::run::output::{RunDetail, RunOutput};
use ethersim::scenario::{self, Override, ScenarioError};
use ethersim::workload::traffic::TrafficReport;

/// A traffic scenario on the default 10 Mb/s, 185 m thin-coax segment.
fn scenario_text(workload: &str) -> String {
    format!(
        "name = \"t\"\nseed = 1\n[medium]\nlength_m = 185.0\n[workload]\nkind = \"traffic\"\n{workload}\n"
    )
}

fn load(workload: &str, sets: &[&str]) -> Result<scenario::Scenario, ScenarioError> {
    let o: Vec<Override> = sets.iter().map(|s| Override::parse(s).unwrap()).collect();
    scenario::load_str("t.toml", &scenario_text(workload), &o)
}

fn run_out(workload: &str, sets: &[&str]) -> RunOutput {
    run::run(&load(workload, sets).expect("valid scenario"))
}

fn report(out: &RunOutput) -> &TrafficReport {
    match &out.detail {
        RunDetail::Traffic(r) => r.as_ref(),
        _ => panic!("not a traffic run"),
    }
}

/// Every frame generated is sent, dropped at the queue, dropped after 16 attempts, or
/// still queued at the end.
fn assert_conserved(r: &TrafficReport) {
    assert_eq!(
        r.frames_arrived,
        r.frames_sent + r.queue_drops + r.excessive_collision_drops + r.ether.frames_queued,
        "{r:?}"
    );
}

/// One 1518-byte frame on an idle 10 Mb/s wire: preamble and SFD (64 bits) and 1518 bytes,
/// 12,208 bit times of 100 ns.
const FRAME_1518_US: f64 = 1220.8;

#[test]
fn one_station_at_light_load_carries_what_it_offers_without_contention() {
    let out = run_out(
        "stations = 1\narrivals = \"constant\"\noffered_load = 0.1\n\
         sizes = { kind = \"fixed\", bytes = 1518 }\nduration_s = 10.0",
        &[],
    );
    let r = report(&out);
    assert!(
        (r.carried_load / 0.1 - 1.0).abs() < 0.01,
        "carried {} for 0.1 offered",
        r.carried_load
    );
    assert_eq!(r.ether.collisions, 0);
    assert_eq!(r.ether.deferrals, 0);
    assert_eq!(r.queue_drops + r.excessive_collision_drops, 0);
    // every frame finds the wire idle: its access delay is its own transmission, exactly
    assert!(
        (r.queue_access_delay_mean_us - FRAME_1518_US).abs() < 1e-6,
        "{}",
        r.queue_access_delay_mean_us
    );
    assert!((r.queue_access_delay_p95_us - FRAME_1518_US).abs() < 1e-6);
    // constant arrivals every 12.144 ms: 823 or 824 in 10 s, whatever the phase
    assert!((823..=824).contains(&r.frames_arrived), "{}", r.frames_arrived);
    assert_conserved(r);
}

#[test]
fn poisson_load_below_capacity_is_carried_with_some_queueing() {
    let out = run_out(
        "stations = 10\narrivals = \"poisson\"\noffered_load = 0.3\n\
         sizes = { kind = \"fixed\", bytes = 1518 }\nduration_s = 60.0",
        &[],
    );
    let r = report(&out);
    assert!(
        (r.carried_load / 0.3 - 1.0).abs() < 0.03,
        "carried {} for 0.3 offered",
        r.carried_load
    );
    assert!(
        (r.carried_load / r.offered_load_measured - 1.0).abs() < 0.005,
        "carried {} of {} generated",
        r.carried_load,
        r.offered_load_measured
    );
    // frames arriving at random find the wire or their own queue busy now and then
    assert!(
        r.queue_access_delay_mean_us > FRAME_1518_US * 1.02,
        "mean access delay {} µs",
        r.queue_access_delay_mean_us
    );
    assert!(r.queue_access_delay_p95_us > r.queue_access_delay_mean_us);
    assert!(r.ether.collisions > 0);
    assert_eq!(r.queue_drops, 0);
    assert_conserved(r);
}

#[test]
fn overload_is_carried_at_the_measured_capacity_and_the_rest_dropped() {
    let out = run_out(
        "stations = 24\narrivals = \"poisson\"\noffered_load = 1.5\n\
         sizes = { kind = \"fixed\", bytes = 1518 }\nduration_s = 5.0",
        &[],
    );
    let r = report(&out);
    assert!(
        r.carried_load > 0.8 && r.carried_load < 1.0,
        "carried {} at 1.5 offered",
        r.carried_load
    );
    // a third of what is offered cannot be carried: most of it is dropped at the full
    // queues, some after 16 attempts, the rest is still queued at the end
    let excess = r.frames_arrived as f64 * (1.0 - r.carried_load / r.offered_load_measured);
    assert!(
        r.queue_drops as f64 > 0.5 * excess,
        "{} queue drops for about {excess:.0} frames too many",
        r.queue_drops
    );
    assert!(r.excessive_collision_drops > 0, "{r:?}");
    assert_eq!(r.ether.frames_dropped, r.excessive_collision_drops);
    assert_conserved(r);
}

#[test]
fn the_bimodal_mix_has_the_asked_share_of_small_frames() {
    let out = run_out(
        "stations = 4\noffered_load = 0.5\n\
         sizes = { kind = \"bimodal\", small = 64, large = 1518, small_fraction = 0.3 }\n\
         duration_s = 20.0",
        &[],
    );
    let r = report(&out);
    let want = 0.3 * 64.0 + 0.7 * 1518.0;
    assert!(
        (r.mean_frame_bytes / want - 1.0).abs() < 0.02,
        "mean {} bytes, want {want}",
        r.mean_frame_bytes
    );
    let small_share = (1518.0 - r.mean_frame_bytes) / (1518.0 - 64.0);
    assert!((small_share - 0.3).abs() < 0.02, "small share {small_share}");
    assert!(r.frames_arrived > 10_000, "{}", r.frames_arrived);
    assert_conserved(r);
}

#[test]
fn a_table_of_sizes_draws_its_weighted_mean() {
    let out = run_out(
        "stations = 2\noffered_load = 0.4\n\
         sizes = { kind = \"table\", bytes = [64, 576, 1518], weights = [6, 0, 2] }\n\
         duration_s = 10.0",
        &[],
    );
    let r = report(&out);
    let want = (6.0 * 64.0 + 2.0 * 1518.0) / 8.0;
    assert!(
        (r.mean_frame_bytes / want - 1.0).abs() < 0.02,
        "{}",
        r.mean_frame_bytes
    );
    assert!((r.offered_load_measured / 0.4 - 1.0).abs() < 0.03);
}

fn json(seed: &str) -> String {
    let out = run_out(
        "stations = 8\noffered_load = 0.7\n\
         sizes = { kind = \"uniform\", min = 64, max = 1518 }\nduration_s = 1.0",
        &[seed],
    );
    exporter(Format::Json).render(&out).unwrap()
}

#[test]
fn the_same_seed_gives_the_same_output_and_another_seed_another() {
    let a = json("seed=7");
    assert_eq!(a, json("seed=7"));
    assert_ne!(a, json("seed=8"));
}

fn refused_key(workload: &str, sets: &[&str]) -> (String, String) {
    match load(workload, sets) {
        Ok(_) => panic!("accepted: {workload} {sets:?}"),
        Err(e) => (e.key().unwrap_or("").to_string(), e.to_string()),
    }
}

#[test]
fn bad_input_is_refused_naming_the_key() {
    let base = "stations = 4\noffered_load = 0.5\nsizes = { kind = \"bimodal\" }";
    for (sets, key) in [
        (
            &["workload.sizes.small_fraction=1.5"][..],
            "workload.sizes.small_fraction",
        ),
        (&["workload.offered_load=0"][..], "workload.offered_load"),
        (&["workload.offered_load=100.5"][..], "workload.offered_load"),
        (&["workload.sizes.large=1519"][..], "workload.sizes.large"),
        (&["workload.queue_frames=0"][..], "workload.queue_frames"),
    ] {
        let (k, text) = refused_key(base, sets);
        assert_eq!(k, key, "{sets:?}: {text}");
        assert!(text.contains(key), "{text}");
    }
    let (k, text) = refused_key(
        "stations = 4\noffered_load = 0.5\n\
         sizes = { kind = \"table\", bytes = [64, 1518], weights = [0, 0] }",
        &[],
    );
    assert_eq!(k, "workload.sizes.weights", "{text}");
    assert!(
        text.contains("workload.sizes.weights") && text.contains("zero"),
        "{text}"
    );
    let (k, text) = refused_key(
        "stations = 4\noffered_load = 0.5\nsizes = { kind = \"uniform\", min = 64 }",
        &[],
    );
    assert!(k.starts_with("workload.sizes"), "{k}: {text}");
}

#[test]
fn oversize_frames_need_allow_oversize() {
    let w = "stations = 2\noffered_load = 0.5\nsizes = { kind = \"fixed\", bytes = 4000 }";
    let (k, _) = refused_key(w, &[]);
    assert_eq!(k, "workload.sizes.bytes");
    let s = load(w, &["medium.allow_oversize=true"]).expect("allowed");
    assert_eq!(s.warnings.len(), 1, "{:?}", s.warnings);
}

#[test]
fn a_huge_run_is_refused_before_it_starts() {
    let (k, text) = refused_key(
        "stations = 1024\noffered_load = 2.0\nsizes = { kind = \"fixed\", bytes = 64 }\n\
         duration_s = 3600.0",
        &[],
    );
    assert_eq!(k, "workload.duration_s", "{text}");
    assert!(text.contains("too long a run"), "{text}");
}

#[test]
fn the_shipped_boggs_scenario_runs() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/background-load.toml");
    let s = scenario::load(&path, &[Override::parse("run.duration_s=2").unwrap()]).unwrap();
    let out = run::run(&s);
    let r = report(&out);
    assert_eq!(r.senders, 24);
    assert!(
        r.carried_load > 0.5 && r.carried_load <= r.offered_load_measured,
        "{r:?}"
    );
    assert_conserved(r);
}

#[test]
fn the_admission_estimate_is_within_a_factor_of_two_of_the_events_dispatched() {
    use ethersim::scenario::budget;
    use ethersim::scenario::Workload;
    for (stations, offered, sizes) in [
        (1, 0.1, "{ kind = \"fixed\", bytes = 1518 }"),
        (10, 0.3, "{ kind = \"fixed\", bytes = 1518 }"),
        (24, 0.9, "{ kind = \"bimodal\" }"),
        (24, 2.0, "{ kind = \"fixed\", bytes = 64 }"),
        (300, 2.0, "{ kind = \"fixed\", bytes = 64 }"),
        (100, 1.2, "{ kind = \"uniform\", min = 64, max = 1518 }"),
    ] {
        let s = load(
            &format!("stations = {stations}\noffered_load = {offered}\nsizes = {sizes}\nduration_s = 2.0"),
            &[],
        )
        .unwrap();
        let Workload::Traffic(w) = &s.workload else {
            panic!("not traffic")
        };
        let c = &w.config;
        let est = budget::traffic_events(&s.medium, stations, c.sizes.mean_bytes(), offered, 2.0);
        let got = report(&run::run(&s)).events as f64;
        assert!(
            est > got / 2.0 && est < got * 2.0,
            "{stations} stations at {offered} of {sizes}: estimated {est:.0} events, dispatched {got:.0}"
        );
    }
}
