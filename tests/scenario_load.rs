//! The scenario loader as a library: the hardware include and its deep merge, override
//! precedence, error locations across files, and the mapping onto the model's configs.

use std::path::Path;

use ethersim::scenario::{self, Location, Override, Problem, ScenarioError, Workload};
use ethersim::workload::saturate::Destination;

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const HARDWARE: &str = "\
# shared hardware
[medium]
velocity_factor = 0.77
length_m = 500.0
positions_m = [0.0, 100.0]

[workload]
frame_bytes = 512
";

const SCENARIO: &str = "\
name = \"merged\"
seed = 9
hardware = \"hw/hardware.toml\"

[medium]
length_m = 200.0

[workload]
kind = \"saturate\"
stations = 2
duration_s = 0.5
";

fn setup() -> (tempfile::TempDir, std::path::PathBuf) {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir(d.path().join("hw")).unwrap();
    write(&d.path().join("hw"), "hardware.toml", HARDWARE);
    let s = write(d.path(), "s.toml", SCENARIO);
    (d, s)
}

fn saturate(w: &Workload) -> &ethersim::scenario::saturate::SaturateWorkload {
    match w {
        Workload::Saturate(s) => s,
        #[allow(unreachable_patterns)]
        _ => panic!("not saturate"),
    }
}

#[test]
fn hardware_tables_merge_under_the_scenario() {
    let (_d, s) = setup();
    let sc = scenario::load(&s, &[]).unwrap();
    assert_eq!(sc.name, "merged");
    assert_eq!(sc.seed, 9);
    assert!(sc.hardware.as_ref().unwrap().ends_with("hw/hardware.toml"));
    // from the hardware file
    assert_eq!(sc.medium.velocity_factor, 0.77);
    assert_eq!(sc.medium.positions_m, Some(vec![0.0, 100.0]));
    // the scenario wins where both define a key
    assert_eq!(sc.medium.length_m, 200.0);
    let w = saturate(&sc.workload);
    assert_eq!(w.config.frame_bytes, 512);
    assert_eq!(w.config.senders, 2);
    assert_eq!(w.config.destination, Destination::Sink);
    assert_eq!(w.config.duration.as_nanos(), 500_000_000);
    // senders where the hardware put them, the sink at the far end
    assert_eq!(w.segment.positions_m, vec![0.0, 100.0, 200.0]);
    assert_eq!(w.segment.bit_ns, 100);
}

#[test]
fn overrides_win_over_both_files() {
    let (_d, s) = setup();
    let o = [
        Override::parse("medium.velocity_factor=0.5").unwrap(),
        Override::parse("medium.length_m=300").unwrap(),
        Override::parse("workload.frame_bytes=64").unwrap(),
        Override::parse("medium.positions_m=[1.0, 2.0]").unwrap(),
    ];
    let sc = scenario::load(&s, &o).unwrap();
    assert_eq!(sc.medium.velocity_factor, 0.5);
    assert_eq!(sc.medium.length_m, 300.0);
    let w = saturate(&sc.workload);
    assert_eq!(w.config.frame_bytes, 64);
    assert_eq!(w.segment.positions_m, vec![1.0, 2.0, 300.0]);
}

#[test]
fn set_hardware_switches_the_include() {
    let (d, s) = setup();
    write(d.path(), "other.toml", "[medium]\nvelocity_factor = 0.6\n");
    let sc = scenario::load(&s, &[Override::parse("hardware=other.toml").unwrap()]).unwrap();
    assert_eq!(sc.medium.velocity_factor, 0.6);
    assert_eq!(sc.medium.positions_m, None);
}

fn located(e: ScenarioError) -> (Location, String, Problem) {
    match e {
        ScenarioError::Field { at, key, problem } => (at, key, *problem),
        other => panic!("not a field error: {other}"),
    }
}

#[test]
fn errors_are_located_in_the_file_that_wrote_the_key() {
    let (d, s) = setup();
    // a bad key in the hardware file is reported there
    write(
        &d.path().join("hw"),
        "hardware.toml",
        &HARDWARE.replace("frame_bytes = 512", "frame_bytes = 5"),
    );
    let (at, key, problem) = located(scenario::load(&s, &[]).unwrap_err());
    assert_eq!(key, "workload.frame_bytes");
    assert!(matches!(problem, Problem::OutOfRange { .. }));
    match at {
        Location::File { path, line, column } => {
            assert!(path.ends_with("hw/hardware.toml"), "{path:?}");
            assert_eq!((line, column), (8, 1));
        }
        other => panic!("{other:?}"),
    }
    write(&d.path().join("hw"), "hardware.toml", HARDWARE);
    // an overridden key is reported at its --set
    let (at, key, _) =
        located(scenario::load(&s, &[Override::parse("medium.positions_m=[0.0]").unwrap()]).unwrap_err());
    assert_eq!(key, "medium.positions_m");
    assert_eq!(
        at,
        Location::Set {
            arg: "--set medium.positions_m=[0.0]".into()
        }
    );
    std::fs::write(&s, SCENARIO.replace("length_m = 200.0", "length_m = 90.0")).unwrap();
    let (at, key, _) = located(scenario::load(&s, &[]).unwrap_err());
    assert_eq!(key, "medium.positions_m[1]");
    assert!(
        matches!(at, Location::File { ref path, line: 5, .. } if path.ends_with("hardware.toml")),
        "{at:?}"
    );
    // an unknown key in the hardware file
    write(
        &d.path().join("hw"),
        "hardware.toml",
        "[medium]\nvelocity = 0.7\n",
    );
    let e = scenario::load(&s, &[]).unwrap_err();
    assert!(
        e.to_string().contains("hardware.toml:2:1: key `medium.velocity`"),
        "{e}"
    );
    assert!(e.to_string().contains("did you mean `velocity_factor`"), "{e}");
}

#[test]
fn error_messages_name_file_line_key_and_range() {
    let e = scenario::load_str(
        "x.toml",
        "[workload]\nkind = \"saturate\"\nstations = 2000\n",
        &[],
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "x.toml:3:1: key `workload.stations`: 2000 is out of range (allowed: 1..=1024)"
    );
    assert_eq!(e.key(), Some("workload.stations"));
}

#[test]
fn defaults_give_a_thin_coax_segment() {
    let sc = scenario::load_str("d.toml", "[workload]\nkind = \"saturate\"\nstations = 3\n", &[]).unwrap();
    assert_eq!(sc.name, "d");
    assert_eq!(sc.seed, 1);
    let w = saturate(&sc.workload);
    assert_eq!(
        w.segment.positions_m,
        vec![0.0, 185.0 / 3.0, 2.0 * 185.0 / 3.0, 185.0]
    );
    assert_eq!(w.segment.velocity_factor, 0.65);
    assert_eq!(w.config.frame_bytes, 1518);
    assert_eq!(w.config.duration.as_nanos(), 10_000_000_000);
}

#[test]
fn shipped_saturate_scenario_is_valid_and_documented() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/saturate.toml");
    let sc = scenario::load(&p, &[]).unwrap();
    assert_eq!(sc.name, "saturate");
    assert!(sc.warnings.is_empty());
    let text = std::fs::read_to_string(&p).unwrap();
    for key in [
        "bit_rate_mbps",
        "velocity_factor",
        "length_m",
        "positions_m",
        "allow_oversize",
        "corrupt_fraction",
        "count",
        "frame_bytes",
        "destination",
        "duration_s",
    ] {
        let line = text
            .lines()
            .position(|l| l.trim_start_matches("# ").starts_with(key))
            .unwrap();
        assert!(
            text.lines().nth(line - 1).unwrap().starts_with('#'),
            "{key} has no comment above it"
        );
    }
}

#[test]
fn workstations_may_have_their_own_data_port_timing() {
    use ethersim::adapter::CopyEngine;
    use ethersim::repro::bulletin::{HARDWARE, SCENARIOS};
    use ethersim::scenario::{Override, Workload};
    let (name, _) = SCENARIOS[2]; // 16-bit defaults
                                  // the bulletin hardware without the workstations' own bus
    let mut doc: toml_edit::DocumentMut = HARDWARE.1.parse().unwrap();
    doc["hosts"]["workstation"].as_table_mut().unwrap().remove("isa");
    let shared = doc.to_string();
    let load = |hw: &str, sets: &[&str]| {
        let o: Vec<Override> = sets.iter().map(|s| Override::parse(s).unwrap()).collect();
        ethersim::repro::bulletin::load(name, Some(hw), &o)
    };
    let access = |s: &ethersim::scenario::Scenario| match &s.workload {
        Workload::Perform3(w) => {
            let p = &w.config.lan.profile;
            let ns = |c: &CopyEngine| match c {
                CopyEngine::ProgrammedIo { access_ns, .. } => *access_ns,
                other => panic!("the bulletin's AE2 is programmed I/O, not {other:?}"),
            };
            (ns(&p.server_adapter.copy), ns(&p.workstation_adapter.copy))
        }
        _ => panic!("perform3"),
    };
    let (server, ws) = access(&load(&shared, &[]).unwrap());
    assert_eq!(
        server, ws,
        "without their own, the workstations use the server's timing"
    );
    let own = load(&shared, &["adapters.workstation.io_access_ns_16bit=700"]).unwrap();
    assert_eq!(access(&own), (server, 700.0));
    // the shipped hardware file derives each from its own host's bus
    let (s2, w2) = access(&load(HARDWARE.1, &[]).unwrap());
    assert!(w2 != s2, "the workstations' access {w2} ns, the server's {s2} ns");
    let e = load(&shared, &["adapters.workstation.io_access_ns_16bit=1"])
        .unwrap_err()
        .to_string();
    assert!(e.contains("adapters.workstation.io_access_ns_16bit"), "{e}");
}
