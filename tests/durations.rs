//! Durations in scenario files: a key that takes a time accepts a number with its unit
//! (`duration_s = "500ms"`, `"2.5 s"`), as the command line does; a bare number keeps the
//! key's own unit; a unit that is not a time is refused at its key, file and line.

use std::path::Path;

use ethersim::scenario::{self, Override, ScenarioError, Workload};
use ethersim::time::SimDuration;

fn saturate(duration: &str) -> String {
    format!("name = \"d\"\n\n[workload]\nkind = \"saturate\"\nstations = 2\nduration_s = {duration}\n")
}

fn saturate_duration(text: &str) -> Result<SimDuration, ScenarioError> {
    let s = scenario::load_str("d.toml", text, &[])?;
    match s.workload {
        Workload::Saturate(w) => Ok(w.config.duration),
        other => panic!("not saturate: {}", other.kind()),
    }
}

#[test]
fn test_a_seconds_key_takes_any_time_unit() {
    let ms = SimDuration::from_millis;
    for (written, want) in [
        ("\"10s\"", ms(10_000)),
        ("\"500ms\"", ms(500)),
        ("\"2.5 s\"", ms(2_500)),
        ("\"250000us\"", ms(250)),
        ("\"250000µs\"", ms(250)),
        ("\"1e9ns\"", ms(1_000)),
        // a bare number, or a string without a unit, is in the key's own unit: seconds
        ("3", ms(3_000)),
        ("0.5", ms(500)),
        ("\"4\"", ms(4_000)),
    ] {
        assert_eq!(saturate_duration(&saturate(written)).unwrap(), want, "{written}");
    }
}

#[test]
fn test_a_unit_gives_the_same_run_as_the_bare_number() {
    let a = scenario::load_str("d.toml", &saturate("0.25"), &[]).unwrap();
    let b = scenario::load_str("d.toml", &saturate("\"250 ms\""), &[]).unwrap();
    assert_eq!(format!("{:?}", a.workload), format!("{:?}", b.workload));
}

#[test]
fn test_a_milliseconds_key_keeps_milliseconds_for_a_bare_number() {
    let base = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/bulletin/16bit-optimized.toml"),
    )
    .unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/bulletin");
    let load = |skew: &str| {
        let set = [Override::parse(&format!("apps[0].start_skew_ms={skew}")).unwrap()];
        let src = scenario::Source::from_bytes(&dir.join("x.toml"), base.clone().into_bytes()).unwrap();
        let s = scenario::load_source(&src, &set).unwrap();
        format!("{:?}", s.workload)
    };
    // 2 ms, written three ways
    assert_eq!(load("2"), load("2ms"));
    assert_eq!(load("2"), load("\"0.002 s\""));
    assert_eq!(load("2"), load("2000us"));
    assert_ne!(load("2"), load("2s"));
}

#[test]
fn test_an_integer_key_takes_a_whole_number_of_its_unit() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/lanperf");
    let text = std::fs::read_to_string(dir.join("lanperf-x.toml")).unwrap();
    assert!(
        text.contains("\noptions = \"x\"\n"),
        "lanperf-x.toml changed: update this test"
    );
    let load = |t: &str| {
        let text = text.replace("\noptions = \"x\"\n", &format!("\ntest_s = {t}\n"));
        let src = scenario::Source::from_bytes(&dir.join("x.toml"), text.into_bytes()).unwrap();
        scenario::load_source(&src, &[]).map(|s| format!("{:?}", s.workload))
    };
    assert_eq!(load("30").unwrap(), load("\"30s\"").unwrap());
    assert_eq!(load("20").unwrap(), load("\"20000ms\"").unwrap());
    assert_ne!(load("20").unwrap(), load("30").unwrap());
    let e = load("\"20500ms\"").unwrap_err().to_string();
    assert!(
        e.contains("apps[0].test_s") && e.contains("whole number of seconds"),
        "{e}"
    );
}

#[test]
fn test_a_unit_that_is_not_a_time_is_refused_at_its_line() {
    let e = scenario::load_str("d.toml", &saturate("\"10kg\""), &[]).unwrap_err();
    let m = e.to_string();
    for want in [
        "d.toml:6:",
        "workload.duration_s",
        "`kg` is not a unit of time",
        "\"500ms\"",
        "a bare number is in seconds",
    ] {
        assert!(m.contains(want), "{want:?} not in {m}");
    }
    let e = scenario::load_str("d.toml", &saturate("\"soon\""), &[]).unwrap_err();
    assert!(e.to_string().contains("`soon` is not a time"), "{e}");
}

#[test]
fn test_a_time_with_a_unit_is_still_checked_against_the_range() {
    // (0, 3600] seconds: an hour and a half is out, said in the key's own unit
    let e = scenario::load_str("d.toml", &saturate("\"90 min\""), &[]).unwrap_err();
    assert!(e.to_string().contains("`min` is not a unit of time"), "{e}");
    let e = scenario::load_str("d.toml", &saturate("\"5400s\""), &[]).unwrap_err();
    let m = e.to_string();
    assert!(m.contains("workload.duration_s") && m.contains("5400"), "{m}");
    let e = scenario::load_str("d.toml", &saturate("\"-1s\""), &[]).unwrap_err();
    assert!(e.to_string().contains("out of range"), "{e}");
}

#[test]
fn test_a_string_at_a_key_that_is_no_time_is_refused_as_before() {
    let text = saturate("1").replace("stations = 2", "stations = \"2s\"");
    let e = scenario::load_str("d.toml", &text, &[]).unwrap_err();
    let m = e.to_string();
    assert!(
        m.contains("workload.stations") && m.contains("expected an integer"),
        "{m}"
    );
}

#[test]
fn test_set_takes_a_duration_with_its_unit() {
    let set = [Override::parse("workload.duration_s=20ms").unwrap()];
    let s = scenario::load_str("d.toml", &saturate("1"), &set).unwrap();
    match s.workload {
        Workload::Saturate(w) => assert_eq!(w.config.duration, SimDuration::from_millis(20)),
        other => panic!("{}", other.kind()),
    }
    let set = [Override::parse("workload.duration_s=3kg").unwrap()];
    let e = scenario::load_str("d.toml", &saturate("1"), &set).unwrap_err();
    assert!(
        e.to_string().contains("from --set workload.duration_s=3kg"),
        "{e}"
    );
}
