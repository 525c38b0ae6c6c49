//! Error messages never echo raw control characters (issue 9, class 9): whatever a file
//! name, key name, `--set` or `--param` argument, sweep value or `hardware` path holds,
//! stderr carries it escaped (`\u{1b}`, `\t`), so input cannot set the terminal's title or
//! colours or overwrite a line. Also: a scenario with no `name` whose file name cannot be
//! one, and integers beyond 64 bits, get messages that say what is wrong.

use assert_cmd::Command;
use std::path::Path;

/// A scenario of one workload (the saturate scenario in that form): these keys are its.
const SATURATE: &str = "tests/fixtures/workload-form/saturate.toml";

/// Hostile fragments: escape sequences (title, colour, clear), a bell, carriage return,
/// backspace, tab, DEL, a C1 control and the bidirectional override.
const HOSTILE: &[&str] = &[
    "\u{1b}]0;pwned\u{7}",
    "\u{1b}[31mred\u{1b}[0m",
    "\u{1b}[2J",
    "a\rb",
    "x\u{8}y",
    "t\tab",
    "del\u{7f}",
    "c1\u{9b}31m",
    "rtl\u{202e}txt",
];

fn hazard(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn assert_clean(args: &[&str], dir: Option<&Path>) -> String {
    let mut cmd = Command::cargo_bin("ethersim").unwrap();
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let out = cmd.args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(!err.is_empty(), "{args:?}: no message");
    assert!(
        !err.chars().any(hazard),
        "{args:?}: raw control character in {err:?}"
    );
    err
}

/// A TOML basic-string escape of `s` (control characters as `\uXXXX`).
fn toml_str(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_control() || hazard(c) {
                format!("\\u{:04x}", c as u32)
            } else {
                c.to_string()
            }
        })
        .collect()
}

#[test]
fn hostile_command_line_arguments_are_escaped() {
    for h in HOSTILE {
        assert_clean(&["run", SATURATE, "--set", &format!("workload.{h}=1")], None);
        assert_clean(&["run", SATURATE, "--set", h], None);
        assert_clean(
            &[
                "run",
                SATURATE,
                "--set",
                &format!("workload.stations=\"{}\"", toml_str(h)),
            ],
            None,
        );
        assert_clean(
            &["run", SATURATE, "--set", &format!("workload.destination={h}")],
            None,
        );
        assert_clean(&["run", &format!("no-such-{h}.toml")], None);
        assert_clean(&["validate", &format!("no-such-{h}.toml")], None);
        assert_clean(
            &["run", SATURATE, "--set", &format!("hardware=\"{}\"", toml_str(h))],
            None,
        );
        assert_clean(&["run", SATURATE, &format!("--{h}")], None);
        assert_clean(&[h], None);
        let out = format!("{}/sweep-out", env!("CARGO_TARGET_TMPDIR"));
        assert_clean(
            &[
                "sweep",
                SATURATE,
                "--param",
                &format!("workload.{h}"),
                "--values",
                "1",
                "--out",
                &out,
            ],
            None,
        );
        assert_clean(
            &[
                "sweep",
                SATURATE,
                "--param",
                "workload.stations",
                "--values",
                h,
                "--out",
                &out,
            ],
            None,
        );
        assert_clean(
            &[
                "sweep",
                SATURATE,
                "--param",
                "workload.stations",
                "--range",
                h,
                "--out",
                &out,
            ],
            None,
        );
    }
}

#[test]
fn hostile_files_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    for (i, h) in HOSTILE.iter().enumerate() {
        let t = toml_str(h);
        let files = [
            format!("hardware = \"{t}.toml\"\n[workload]\nkind = \"saturate\"\n"),
            format!("\"{t}\" = 1\n[workload]\nkind = \"saturate\"\n"),
            format!("[workload]\nkind = \"saturate\"\n\"{t}\" = 1\n"),
            format!("[workload]\nkind = \"{t}\"\n"),
            format!("[workload]\nkind = \"saturate\"\ndestination = \"{t}\"\n"),
            format!("name = \"{t}\"\n[workload]\nkind = \"saturate\"\n"),
            format!("[workload]\nkind = \"saturate\"\nstations = \"{t}\"\n"),
            format!("[medium]\n\"{t}\" = {{ a = 1 }}\n[workload]\nkind = \"saturate\"\n"),
            format!("x = \"{h}\"\n"), // raw control characters: a syntax error that quotes the line
        ];
        for (j, text) in files.iter().enumerate() {
            let p = dir.path().join(format!("f{i}-{j}.toml"));
            std::fs::write(&p, text).unwrap();
            assert_clean(&["run", p.to_str().unwrap()], None);
        }
        // a hostile file name, with no `name` key in the file
        let p = dir.path().join(format!("n{i}{}.toml", h.replace('/', "")));
        std::fs::write(&p, "[workload]\nkind = \"saturate\"\n").unwrap();
        let err = assert_clean(&["run", p.to_str().unwrap()], None);
        if h.chars().any(char::is_control) {
            assert!(err.contains("missing, and the file name"), "{err}");
        }
    }
}

#[test]
fn a_file_name_with_a_tab_needs_a_name_key() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("a\tb.toml");
    std::fs::write(&p, "[workload]\nkind = \"saturate\"\nstations = 2\nframe_bytes = 64\ndestination = \"sink\"\nduration_s = 0.01\n").unwrap();
    let err = assert_clean(&["run", p.to_str().unwrap()], None);
    assert!(err.contains("a\\tb.toml: key `name`: missing"), "{err}");
    assert!(!err.contains("out of range"), "{err}");
    // with a name the same file runs
    let body =
        "kind = \"saturate\"\nstations = 2\nframe_bytes = 64\ndestination = \"sink\"\nduration_s = 0.01\n";
    std::fs::write(&p, format!("name = \"ok\"\n[workload]\n{body}")).unwrap();
    Command::cargo_bin("ethersim")
        .unwrap()
        .args(["run", p.to_str().unwrap()])
        .assert()
        .success();
}

#[test]
fn integers_beyond_64_bits_are_out_of_range() {
    for (set, allowed) in [
        ("workload.stations=18446744073709551615", "allowed: 1..=1024"),
        ("workload.stations=-18446744073709551615", "allowed: 1..=1024"),
        ("workload.frame_bytes=99999999999999999999999", "allowed:"),
        ("workload.duration_s=1_000_000_000_000_000_000_000", "allowed:"),
        ("seed=18446744073709551616", "allowed:"),
        ("workload.stations=0xFFFFFFFFFFFFFFFFF", "allowed: 1..=1024"),
    ] {
        let err = assert_clean(&["run", SATURATE, "--set", set], None);
        assert!(err.contains("is out of range"), "{set}: {err}");
        assert!(err.contains(allowed), "{set}: {err}");
        assert!(!err.contains("invalid type"), "{set}: {err}");
        let written = set.split_once('=').unwrap().1;
        assert!(err.contains(written), "{set}: the value as written: {err}");
    }
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("big.toml");
    std::fs::write(
        &p,
        "[workload]\nkind = \"saturate\"\nstations = 18446744073709551615\n",
    )
    .unwrap();
    let err = assert_clean(&["run", p.to_str().unwrap()], None);
    assert!(
        err.contains("big.toml:3:12: TOML syntax error: integer out of range"),
        "{err}"
    );
    let out = format!("{}/sweep-big", env!("CARGO_TARGET_TMPDIR"));
    let err = assert_clean(
        &[
            "sweep",
            SATURATE,
            "--param",
            "workload.stations",
            "--values",
            "2,18446744073709551615",
            "--out",
            &out,
        ],
        None,
    );
    assert!(
        err.contains("18446744073709551615 is out of range (allowed: 1..=1024)"),
        "{err}"
    );
}
