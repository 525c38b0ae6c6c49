//! Issue 15: the space-time diagram (`ethersim trace`). On two stations at the ends of
//! 185 m of thin coax, the collision is detected 949 ns after both start, at both
//! stations, in the stream the diagram is drawn from; the SVG puts the station lines and
//! the collision marks where the axes say they belong; the same scenario and seed give
//! byte-identical files; bad input (a window too long, outside the run, empty, a
//! point-to-point link, an unwritable directory) is a clear error that leaves no file.

use std::path::{Path, PathBuf};

use ethersim::lan::instruments::spacetime::{SpaceTime, SpaceTimeRecorder, Window};
use ethersim::lan::instruments::Tee;
use ethersim::lan::observe::Observer;
use ethersim::run;
use ethersim::scenario::{self, Override};
use ethersim::time::SimTime;

const SCENARIO: &str = "scenarios/two-stations-collision.toml";
/// The 185 m thin-coax setup of tests/wire_views.rs on the shipped two-station scenario.
const SETS_185M: [&str; 3] = [
    "segment.length_m=185.0",
    "segment.positions_m=[0.0,185.0]",
    "segment.velocity_factor=0.65",
];

fn scenario_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(SCENARIO)
}

fn ethersim() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("ethersim").expect("the binary")
}

/// `ethersim trace` of the 185 m setup over `from..to` into `out`.
fn trace(out: &Path, from: &str, to: &str) -> assert_cmd::assert::Assert {
    let mut c = ethersim();
    c.arg("trace").arg(scenario_path());
    for s in SETS_185M {
        c.args(["--set", s]);
    }
    c.args(["--from", from, "--to", to, "--out"]).arg(out).assert()
}

/// The diagram's data, from the same stream and window as the command.
fn recorded(from_ns: u64, to_ns: u64) -> SpaceTime {
    let overrides: Vec<Override> = SETS_185M
        .iter()
        .map(|s| Override::parse(s).expect("override"))
        .collect();
    let s = scenario::load(&scenario_path(), &overrides).expect("scenario");
    let seg = run::observed_segment(&s).expect("a CSMA/CD segment");
    let w = Window::new(SimTime::from_nanos(from_ns), SimTime::from_nanos(to_ns)).expect("window");
    let mut rec = SpaceTimeRecorder::new(seg, w);
    let mut last = Last::default();
    {
        let mut tee = Tee(vec![&mut rec, &mut last]);
        run::run_observed(&s, Some(&mut tee));
    }
    rec.finish(last.0).expect("diagram")
}

#[derive(Default)]
struct Last(SimTime);

impl Observer for Last {
    fn observe(&mut self, o: &ethersim::lan::observe::Observation) {
        if let ethersim::lan::observe::Observation::Wire { ev, .. } = o {
            self.0 = self.0.max(ev.at());
        }
    }
}

/// The value of attribute `name` in an SVG element's text.
fn attr<'a>(el: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let i = el.find(&key)? + key.len();
    Some(&el[i..i + el[i..].find('"')?])
}

fn num(el: &str, name: &str) -> f64 {
    attr(el, name)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no number {name} in {el}"))
}

/// Every element `<tag ...>` of the SVG, with the text it encloses (for `<text>`).
fn elements<'a>(svg: &'a str, tag: &str) -> Vec<(&'a str, &'a str)> {
    let open = format!("<{tag} ");
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find(&open) {
        let el_end = i + rest[i..].find('>').expect("element closes");
        let el = &rest[i..=el_end];
        let after = &rest[el_end + 1..];
        let body = after.split('<').next().unwrap_or("").trim();
        out.push((el, body));
        rest = after;
    }
    out
}

/// The linear map `px = a + b * value` through the numeric tick labels of one axis:
/// `anchor` "middle" for the position axis (x from each label's x), "end" for the time
/// axis (y from each label's y). Checks every label lies on the fitted line.
fn axis(svg: &str, anchor: &str) -> (f64, f64) {
    let ticks: Vec<(f64, f64)> = elements(svg, "text")
        .into_iter()
        .filter(|(el, _)| attr(el, "text-anchor") == Some(anchor))
        .filter_map(|(el, body)| {
            let v: f64 = body.parse().ok()?;
            let px = if anchor == "end" {
                num(el, "y")
            } else {
                num(el, "x")
            };
            Some((v, px))
        })
        .collect();
    assert!(ticks.len() >= 3, "axis ticks {ticks:?}");
    let (first, last) = (ticks[0], ticks[ticks.len() - 1]);
    let b = (last.1 - first.1) / (last.0 - first.0);
    let a = first.1 - b * first.0;
    for (v, px) in &ticks {
        assert!((a + b * v - px).abs() <= 1.0, "tick {v} at {px} is off the axis");
    }
    (a, b)
}

#[test]
fn test_trace_collision_times_and_drawn_positions() {
    // the stream: both start at 0 and detect the collision after 185 m / (0.65 c)
    let prop_ns = (185.0 / (0.65 * 299_792_458.0) * 1e9_f64).round() as u64;
    assert_eq!(prop_ns, 949);
    let st = recorded(0, 20_000);
    let first: Vec<(usize, u64)> = st
        .collisions()
        .into_iter()
        .take(2)
        .map(|(s, t)| (s, t.as_nanos()))
        .collect();
    assert_eq!(first, vec![(0, prop_ns), (1, prop_ns)]);
    assert_eq!(st.vulnerable(0).as_nanos(), prop_ns);

    // the picture
    let dir = tempfile::tempdir().expect("dir");
    let out = dir.path().join("trace");
    trace(&out, "0", "20us").success();
    let svg = std::fs::read_to_string(out.join("trace.svg")).expect("svg");
    assert!(out.join("trace.png").is_file());
    let (xa, xb) = axis(&svg, "middle");
    let (ya, yb) = axis(&svg, "end");
    assert!(yb > 0.0, "time runs down the page");

    // station lines: the long vertical grey lines
    let mut lines: Vec<f64> = elements(&svg, "polyline")
        .into_iter()
        .filter(|(el, _)| attr(el, "stroke") == Some("#8C8C8C"))
        .filter_map(|(el, _)| {
            let pts: Vec<(f64, f64)> = attr(el, "points")?
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').expect("x,y");
                    (x.parse().expect("x"), y.parse().expect("y"))
                })
                .collect();
            let vertical = pts.len() == 2 && pts[0].0 == pts[1].0;
            (vertical && (pts[1].1 - pts[0].1) > 0.9 * 20.0 * yb).then_some(pts[0].0)
        })
        .collect();
    lines.dedup();
    assert_eq!(lines.len(), 2, "station lines at {lines:?}");
    for (px, m) in lines.iter().zip([0.0, 185.0]) {
        assert!(
            (px - (xa + xb * m)).abs() <= 1.0,
            "station at {m} m drawn at x={px}"
        );
    }
    // positions in ratio: 185 m from station 0 is 1.85 times 100 m of the axis
    let ratio = (lines[1] - lines[0]) / (100.0 * xb);
    assert!((ratio - 1.85).abs() < 0.01, "ratio {ratio}");

    // collision marks: red rings inside the plot, where the time axis puts 949 ns
    let rings: Vec<(f64, f64)> = elements(&svg, "circle")
        .into_iter()
        .filter(|(el, _)| attr(el, "stroke") == Some("#DC0000"))
        .map(|(el, _)| (num(el, "cx"), num(el, "cy")))
        .filter(|&(cx, _)| cx <= lines[1] + 1.0)
        .collect();
    assert!(rings.len() >= 2, "rings {rings:?}");
    let y949 = ya + yb * (prop_ns as f64 / 1000.0);
    for (i, &(cx, cy)) in rings[..2].iter().enumerate() {
        assert!((cx - lines[i]).abs() <= 1.0, "ring {i} at x={cx}");
        assert!((cy - y949).abs() <= 1.0, "ring {i} at y={cy}, 949 ns is y={y949}");
    }
    assert!(y949 - ya > 50.0, "949 ns is well clear of the start on this axis");
}

#[test]
fn test_trace_is_deterministic() {
    let dir = tempfile::tempdir().expect("dir");
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    trace(&a, "100us", "400us").success();
    trace(&b, "100us", "400us").success();
    for f in ["trace.svg", "trace.png"] {
        let (x, y) = (
            std::fs::read(a.join(f)).expect("a"),
            std::fs::read(b.join(f)).expect("b"),
        );
        assert!(x == y, "{f} differs between two identical runs");
    }
}

#[test]
fn test_trace_bad_input_leaves_no_file() {
    let dir = tempfile::tempdir().expect("dir");
    let out = dir.path().join("trace");
    let cases: [(&str, &str, &str); 3] = [
        ("0", "6ms", "over the limit of 5000 µs"),
        ("20ms", "21ms", "after the end of the run"),
        ("3ms", "1ms", "must be after --from"),
    ];
    for (from, to, message) in cases {
        trace(&out, from, to)
            .failure()
            .stderr(predicates::str::contains(message));
    }
    // an unwritable directory: under a regular file
    let file = dir.path().join("plain");
    std::fs::write(&file, b"x").expect("file");
    trace(&file.join("sub"), "0", "20us")
        .failure()
        .stderr(predicates::str::contains("is not a directory"));
    // a point-to-point link has no cable to draw
    let pcl = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/ttcp1985/ttcp-1985-single-pcl0.toml");
    ethersim()
        .args(["trace"])
        .arg(pcl)
        .args(["--from", "0", "--to", "1ms", "--out"])
        .arg(&out)
        .assert()
        .failure()
        .stderr(predicates::str::contains("point-to-point"));
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .expect("dir")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(left, vec![std::ffi::OsString::from("plain")], "no file left");
}
