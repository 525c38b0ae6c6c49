//! Fuzzing the scenario loader with proptest, for a bounded number of cases: arbitrary
//! bytes, TOML-like token soup, mutations of the shipped scenario and random overrides.
//! The loader must return (Ok or a clean error) for every input, never panic.

use ethersim::scenario::{self, Override, Source};
use proptest::prelude::*;

const SHIPPED: &str = include_str!("fixtures/workload-form/saturate.toml");

/// A lexeme of TOML, to build text that gets past the tokenizer often.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("\n".to_string()),
        Just(" = ".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just("[[".to_string()),
        Just("{".to_string()),
        Just("}".to_string()),
        Just(",".to_string()),
        Just(".".to_string()),
        Just("\"".to_string()),
        Just("'''".to_string()),
        Just("#".to_string()),
        prop_oneof![
            Just("workload"),
            Just("medium"),
            Just("kind"),
            Just("saturate"),
            Just("stations"),
            Just("frame_bytes"),
            Just("duration_s"),
            Just("destination"),
            Just("sink"),
            Just("round_robin"),
            Just("positions_m"),
            Just("length_m"),
            Just("velocity_factor"),
            Just("bit_rate_mbps"),
            Just("allow_oversize"),
            Just("corrupt_fraction"),
            Just("seed"),
            Just("name"),
            Just("hardware"),
        ]
        .prop_map(String::from),
        any::<i64>().prop_map(|i| i.to_string()),
        any::<f64>().prop_map(|f| format!("{f:?}")),
        Just("nan".to_string()),
        Just("-inf".to_string()),
        Just("true".to_string()),
        "[a-z_]{1,8}",
    ]
}

fn mutate(text: &str, edits: &[(usize, u8, u8)]) -> Vec<u8> {
    let mut b = text.as_bytes().to_vec();
    for &(pos, op, byte) in edits {
        if b.is_empty() {
            break;
        }
        let i = pos % b.len();
        match op % 3 {
            0 => {
                b.remove(i);
            }
            1 => b.insert(i, byte),
            _ => b[i] = byte,
        }
    }
    b
}

fn load_bytes(bytes: Vec<u8>, overrides: &[Override]) {
    // `hardware` paths resolve next to this made-up file name: nothing there exists
    if let Ok(src) = Source::from_bytes(std::path::Path::new("/nonexistent-ethersim-fuzz/f.toml"), bytes) {
        let _ = scenario::load_source(&src, overrides);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        load_bytes(bytes, &[]);
    }

    #[test]
    fn token_soup_never_panics(tokens in proptest::collection::vec(token(), 0..60)) {
        load_bytes(tokens.concat().into_bytes(), &[]);
    }

    #[test]
    fn mutated_scenario_never_panics(edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..8)) {
        load_bytes(mutate(SHIPPED, &edits), &[]);
    }

    #[test]
    fn random_overrides_never_panic(
        key in prop_oneof![
            Just("workload.stations"), Just("workload.frame_bytes"), Just("workload.duration_s"),
            Just("workload.destination"), Just("workload.kind"), Just("medium.length_m"),
            Just("medium.positions_m"), Just("medium.bit_rate_mbps"), Just("seed"), Just("name"),
            Just("medium"), Just("workload"), Just("hardware"), Just("x.y.z"),
        ],
        value in prop_oneof![
            token(),
            proptest::collection::vec(any::<f64>(), 0..5).prop_map(|v| format!("{v:?}")),
            (0i64..2000).prop_map(|i| i.to_string()),
        ],
    ) {
        if let Ok(o) = Override::parse(&format!("{key}={value}")) {
            load_bytes(SHIPPED.as_bytes().to_vec(), &[o]);
        }
    }
}

/// Valid random saturate scenarios load, and their model matches what was written.
#[test]
fn valid_random_scenarios_round_trip() {
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 300,
        ..Default::default()
    });
    runner
        .run(&(1i64..=1024, 64i64..=1518, 1u32..=100_000, 0u64..(i64::MAX as u64), 1u32..=2000), |(n, f, ms, seed, len)| {
            let text = format!(
                "seed = {seed}\n[medium]\nlength_m = {len}.0\n[workload]\nkind = \"saturate\"\nstations = {n}\nframe_bytes = {f}\nduration_s = {}\n",
                ms as f64 / 1e6
            );
            let s = scenario::load_str("r.toml", &text, &[]);
            match s {
                Ok(s) => {
                    prop_assert_eq!(s.seed, seed);
                    match &s.workload {
                        scenario::Workload::Saturate(w) => {
                            prop_assert_eq!(w.config.senders as i64, n);
                            prop_assert_eq!(w.config.frame_bytes as i64, f);
                            prop_assert_eq!(w.segment.positions_m.len() as i64, n + 1);
                            prop_assert_eq!(*w.segment.positions_m.last().unwrap(), len as f64);
                        }
                        #[allow(unreachable_patterns)]
                        _ => prop_assert!(false),
                    }
                }
                // only the work limit may refuse a valid-looking scenario
                Err(e) => prop_assert!(e.to_string().contains("minutes of CPU"), "{}", e),
            }
            Ok(())
        })
        .unwrap();
}
