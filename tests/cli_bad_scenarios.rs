//! Bad input through the binary: each kind of mistake exits 1 with a message naming the
//! file, line and key, and nothing is written; every file of the hostile corpus in
//! `tests/bad_scenarios/` (and a 10 MB string made here) gives a clean error, never a
//! panic or a hang.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;

mod shipped;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad_scenarios")
}

fn ethersim() -> Command {
    let mut c = Command::cargo_bin("ethersim").unwrap();
    c.timeout(Duration::from_secs(20));
    c
}

/// Runs `args` on `file` with `--out` in a fresh directory; asserts a clean failure whose
/// message contains every `want`, and that nothing was written. Returns stderr.
fn fails(sub: &str, file: &Path, extra: &[&str], want: &[&str]) -> String {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("out");
    let mut cmd = ethersim();
    cmd.arg(sub).arg(file).args(extra);
    if sub != "validate" {
        cmd.arg("--out").arg(&out);
    }
    if sub == "sweep" {
        cmd.args(["--param", "seed", "--values", "1,2"]);
    }
    let a = cmd.assert().code(1);
    let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(err.starts_with("error: "), "{}: {err}", file.display());
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.lines().count() <= 3 && err.len() < 2000,
        "message too long: {err}"
    );
    for w in want {
        assert!(err.contains(w), "{}: expected {w:?} in {err}", file.display());
    }
    assert!(!out.exists(), "{} wrote output", file.display());
    assert!(a.get_output().stdout.is_empty());
    err
}

#[test]
fn syntax_error_gives_line_and_column() {
    fails(
        "run",
        &corpus().join("syntax_error.toml"),
        &[],
        &["syntax_error.toml:9:", "TOML syntax error"],
    );
}

#[test]
fn unknown_key_gives_line_key_and_suggestion() {
    for sub in ["run", "sweep", "validate"] {
        fails(
            sub,
            &corpus().join("unknown_key.toml"),
            &[],
            &[
                "unknown_key.toml:8:1",
                "`workload.frame_byte`",
                "did you mean `frame_bytes`",
            ],
        );
    }
    fails(
        "validate",
        &corpus().join("unknown_section.toml"),
        &[],
        &["unknown_section.toml:4:2", "`medum`", "`medium`"],
    );
}

#[test]
fn wrong_type_gives_line_and_key() {
    fails(
        "run",
        &corpus().join("wrong_type.toml"),
        &[],
        &[
            "wrong_type.toml:6:1",
            "`workload.stations`",
            "expected an integer",
        ],
    );
}

#[test]
fn out_of_range_gives_line_key_and_range() {
    fails(
        "run",
        &corpus().join("negative_values.toml"),
        &[],
        &[
            "negative_values.toml:6:1",
            "`workload.stations`",
            "-5",
            "1..=1024",
        ],
    );
    fails(
        "run",
        &corpus().join("huge_numbers.toml"),
        &[],
        &["huge_numbers.toml:7:1", "`workload.duration_s`", "(0, 3600]"],
    );
    fails(
        "run",
        &corpus().join("frame_too_small.toml"),
        &[],
        &["frame_too_small.toml:7:", "`workload.frame_bytes`", "64..=1518"],
    );
}

#[test]
fn ttcp_with_an_absurd_nbuf_is_refused_naming_the_key() {
    let s = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/ttcp1995/ttcp-1995-smc-ultra-smc-ultra-transmit.toml");
    for sub in ["run", "validate"] {
        fails(
            sub,
            &s,
            &["--set", "apps[0].nbuf=1000000000000"],
            &["apps[0].nbuf=1000000000000", "`apps[0].nbuf`", "1..=1048576"],
        );
    }
}

#[test]
fn bad_override_says_it_came_from_set() {
    let s = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/saturate.toml");
    fails(
        "run",
        &s,
        &["--set", "nodes.stations.count=0"],
        &["from --set nodes.stations.count=0", "1..=1024"],
    );
    fails(
        "run",
        &s,
        &["--set", "nodes.stations.cont=3"],
        &["from --set", "did you mean `count`"],
    );
    fails(
        "run",
        &s,
        &["--set", "segment.length_m=long"],
        &["`segment.length_m`", "expected a number"],
    );
    // not KEY=VALUE at all: a usage error (exit status 2), refused before the file is read
    ethersim()
        .arg("run")
        .arg(&s)
        .args(["--set", "nonsense"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("'nonsense'").and(predicates::str::contains("KEY=VALUE")));
    fails("run", &s, &["--set", "name.x=1"], &["not a table"]);
    fails(
        "run",
        &s,
        &[
            "--set",
            "nodes.stations.count=10000",
            "--set",
            "run.duration_s=3600",
        ],
        &["0..=1024"],
    );
    fails(
        "run",
        &s,
        &[
            "--set",
            "nodes.stations.count=1024",
            "--set",
            "run.duration_s=3600",
        ],
        &["refused", "minutes of CPU"],
    );
}

/// A card of a ttcp scenario is one flat table: a bad key or value inside it (or inside
/// its `dma`, `queue` tables) is reported at its own key, and from `--set` when it came
/// from there; a key of another engine and a missing key of the card's engine are named.
#[test]
fn bad_card_keys_are_reported_at_their_own_path() {
    let s =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/ttcp1985/ttcp-1985-single-ex0-trailers.toml");
    for (set, want) in [
        (
            "adapters.excelan-exos-204.queue.take_up=\"sometimes\"",
            &[
                "from --set",
                "`adapters.excelan-exos-204.queue.take_up`",
                "`fixed`, `polled`",
            ][..],
        ),
        (
            "adapters.excelan-exos-204.queue.bogus=1",
            &[
                "from --set",
                "`adapters.excelan-exos-204.queue.bogus`",
                "unknown key",
            ][..],
        ),
        (
            "adapters.excelan-exos-204.dma.word_ns=\"x\"",
            &[
                "from --set",
                "`adapters.excelan-exos-204.dma.word_ns`",
                "`x` is not a time",
                "a bare number is in nanoseconds",
            ][..],
        ),
        (
            "adapters.excelan-exos-204.io_clocks=3",
            &[
                "`adapters.excelan-exos-204.io_clocks`",
                "not a key of engine \"unibus_dma\"",
            ][..],
        ),
        (
            "adapters.excelan-exos-204.engine=\"fifo_pio\"",
            &["`adapters.ex0.", "not a key of engine \"fifo_pio\""][..],
        ),
    ] {
        fails("run", &s, &["--set", set], want);
    }
    // in a file: the line of the bad key itself, not of its card's table
    let d = tempfile::tempdir().unwrap();
    let hw = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/ttcp1985/ttcp-1985.toml"),
    )
    .unwrap();
    let hw = hw.replacen("tx_slots = 1", "tx_slots = \"one\"", 1);
    let line = hw.lines().position(|l| l.contains("tx_slots = \"one\"")).unwrap() + 1;
    std::fs::write(d.path().join("ttcp-1985.toml"), hw).unwrap();
    let sc = shipped::export(d.path(), "ttcp-1985-single-ex0-trailers");
    let err = fails("run", &sc, &[], &["expected a non-negative integer"]);
    assert!(
        err.contains(&format!("ttcp-1985.toml:{line}:")),
        "line {line}: {err}"
    );
    assert!(err.contains(".tx_slots`"), "{err}");
}

/// Every file of the corpus fails cleanly for every subcommand that loads a scenario.
#[test]
fn whole_corpus_gives_clean_errors() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 15, "corpus has {} files", files.len());
    for f in &files {
        for sub in ["validate", "run"] {
            fails(sub, f, &[], &[]);
        }
    }
}

#[test]
fn ten_megabyte_string_is_refused_cleanly() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("big.toml");
    let big = "x".repeat(10 * 1024 * 1024);
    std::fs::write(
        &f,
        format!("name = \"{big}\"\n[workload]\nkind = \"saturate\"\nstations = 2\n"),
    )
    .unwrap();
    fails("run", &f, &[], &["too large"]);
    // a long string under the size limit is refused by validation, quoted briefly
    let long = "y".repeat(500_000);
    std::fs::write(
        &f,
        format!("name = \"{long}\"\n[workload]\nkind = \"saturate\"\nstations = 2\n"),
    )
    .unwrap();
    fails("validate", &f, &[], &["big.toml:1:1", "`name`", "1..=128"]);
    std::fs::write(&f, format!("[workload]\nkind = \"{long}\"\nstations = 2\n")).unwrap();
    fails("validate", &f, &[], &["`workload.kind`", "..."]);
}

#[test]
fn missing_and_special_files_are_clean_errors() {
    fails(
        "run",
        &corpus().join("does_not_exist.toml"),
        &[],
        &["cannot read"],
    );
    fails("run", &corpus(), &[], &["not a regular file"]);
    if Path::new("/dev/zero").exists() {
        fails("validate", Path::new("/dev/zero"), &[], &["not a regular file"]);
    }
}

/// A cable whose round trip exceeds the slot time would run and report nonsense (1000 Mb/s
/// on 185 m used to report 877 Mb/s without a word): it is refused, naming the keys, the
/// round trip and the slot time.
#[test]
fn round_trip_beyond_a_slot_is_refused() {
    let f = corpus().join("round_trip_over_slot.toml");
    for sub in ["validate", "run"] {
        fails(
            sub,
            &f,
            &[],
            &[
                "round_trip_over_slot.toml:",
                "`medium.length_m`",
                "round-trip propagation of 1898 ns",
                "slot time of 512 ns",
                "medium.bit_rate_mbps = 1000",
                "medium.velocity_factor = 0.65",
                "at most 49.8 m",
            ],
        );
    }
    let saturate = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/saturate.toml");
    fails(
        "run",
        &saturate,
        &[
            "--set",
            "segment.bit_rate_mbps=100",
            "--set",
            "segment.length_m=2000",
        ],
        &["`segment.length_m`", "slot time of 5120 ns", "from --set"],
    );
}

#[test]
fn a_server_latency_beyond_a_second_is_refused_naming_the_key() {
    let scenario = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/bulletin/16bit-optimized.toml");
    for bad in ["2000", "-1"] {
        let set = format!("stacks.server.costs.server_request_latency_ms={bad}");
        fails(
            "run",
            &scenario,
            &["--set", &set],
            &["`stacks.server.costs.server_request_latency_ms`", "1000"],
        );
    }
}

#[test]
fn an_unknown_latency_scope_read_mode_transmit_length_send_copy_or_reply_copy_is_refused() {
    let scenario = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/bulletin/16bit-optimized.toml");
    fails(
        "run",
        &scenario,
        &["--set", "stacks.server.costs.server_request_latency_scope=global"],
        &[
            "`stacks.server.costs.server_request_latency_scope`",
            "`task`, `server`",
        ],
    );
    fails(
        "run",
        &scenario,
        &[
            "--set",
            "stacks.workstation.workstation.redir.large_reads=sideways",
        ],
        &[
            "`stacks.workstation.workstation.redir.large_reads`",
            "`buffered`, `direct`",
        ],
    );
    fails(
        "run",
        &scenario,
        &[
            "--set",
            "adapters.server.transmit_length=packet",
            "--set",
            "adapters.workstation.transmit_length=packet",
        ],
        &["`adapters.server.transmit_length`", "`frame`, `data`, `message`"],
    );
    fails(
        "run",
        &scenario,
        &[
            "--set",
            "adapters.server.send_copy=sometimes",
            "--set",
            "adapters.workstation.send_copy=sometimes",
        ],
        &["`adapters.server.send_copy`", "`queued`, `at_once`, `when_idle`"],
    );
    fails(
        "run",
        &scenario,
        &["--set", "stacks.server.server.reply_copy=later"],
        &["`stacks.server.server.reply_copy`", "`per_packet`, `before_send`"],
    );
}

#[test]
fn a_run_burst_or_foreground_turn_out_of_range_is_refused_with_its_range() {
    let scenario = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/bulletin/8bit-defaults.toml");
    for bad in ["0", "256"] {
        fails(
            "run",
            &scenario,
            &["--set", &format!("stacks.server.server.run_burst={bad}")],
            &["`stacks.server.server.run_burst`", "1..=255"],
        );
    }
    // at most one tick of the 18.2 Hz timer, when SERVER takes the CPU back
    for bad in ["-1", "55"] {
        fails(
            "run",
            &scenario,
            &["--set", &format!("stacks.server.costs.server_yield_ms={bad}")],
            &["`stacks.server.costs.server_yield_ms`", "[0, 54.9"],
        );
    }
}
