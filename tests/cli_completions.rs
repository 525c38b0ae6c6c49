//! `ethersim completions SHELL` and `ethersim man`: generated from the same command-line
//! definition the program parses, so every subcommand and flag is in them.

use assert_cmd::Command;

fn stdout(args: &[&str]) -> String {
    let o = Command::cargo_bin("ethersim")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

const SUBCOMMANDS: [&str; 10] = [
    "run",
    "sweep",
    "validate",
    "reproduce",
    "trace",
    "pcap-list",
    "calibrate",
    "keys",
    "man",
    "merge",
];

#[test]
fn completion_scripts_know_every_subcommand_and_flag() {
    let bash = stdout(&["completions", "bash"]);
    for s in SUBCOMMANDS {
        assert!(bash.contains(s), "bash completion lacks {s}");
    }
    for flag in [
        "--max-cpu-hours",
        "--cross-validate",
        "--pcap-window",
        "--replications",
        "--run-index",
        "--list-runs",
    ] {
        assert!(bash.contains(flag), "bash completion lacks {flag}");
    }
    // the script is valid bash, where bash is installed
    match std::process::Command::new("bash")
        .arg("-n")
        .arg("-c")
        .arg(&bash)
        .status()
    {
        Ok(s) => assert!(s.success(), "bash -n rejects the script"),
        Err(_) => eprintln!("skipped the syntax check: no bash here"),
    }
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let text = stdout(&["completions", shell]);
        assert!(text.contains("calibrate"), "{shell}");
    }
    let o = Command::cargo_bin("ethersim")
        .unwrap()
        .args(["completions", "tcsh"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("tcsh") && err.contains("bash"), "{err}");
}

#[test]
fn the_manual_has_a_page_for_ethersim_and_each_subcommand() {
    let man = stdout(&["man"]);
    let titles: Vec<&str> = man.lines().filter(|l| l.starts_with(".TH ")).collect();
    assert!(titles[0].starts_with(".TH ethersim 1"), "{titles:?}");
    for s in SUBCOMMANDS {
        let want = format!(".TH ethersim-{s} 1");
        assert!(
            titles.iter().any(|t| t.starts_with(&want)),
            "no page {want}: {titles:?}"
        );
    }
    assert!(
        man.contains("max\\-cpu\\-hours"),
        "the calibrate and sweep budgets are documented"
    );
    // `man -l` renders it, where man is installed
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("ethersim.1");
    std::fs::write(&page, &man).unwrap();
    match std::process::Command::new("man")
        .arg("-l")
        .arg(&page)
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "80")
        .output()
    {
        Ok(o) if o.status.success() => {
            let text = String::from_utf8_lossy(&o.stdout);
            assert!(text.contains("ethersim"), "{text}");
        }
        Ok(o) => panic!("man -l fails: {}", String::from_utf8_lossy(&o.stderr)),
        Err(_) => eprintln!("skipped the rendering check: no man here"),
    }
}
