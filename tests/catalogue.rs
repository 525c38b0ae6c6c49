//! The scenario catalogue embedded in the binary: listed, shown, exported with its include,
//! and taken by name where no file of that name exists, from any directory.

use assert_cmd::Command;

fn ethersim(dir: &std::path::Path) -> Command {
    let mut c = Command::cargo_bin("ethersim").unwrap();
    c.current_dir(dir);
    c
}

/// A short 16-bit optimized run: one block size, one second.
const SHORT: [&str; 4] = ["-s", "apps[0].block_sizes=[15360]", "-s", "run.measure_s=1"];

#[test]
fn from_an_empty_directory_the_catalogue_lists_runs_and_exports() {
    let dir = tempfile::tempdir().unwrap();
    let list = ethersim(dir.path()).arg("scenarios").output().unwrap();
    assert!(list.status.success());
    let list = String::from_utf8(list.stdout).unwrap();
    for name in [
        "16bit-optimized",
        "saturate",
        "lanperf-max",
        "ttcp-1985-dual-pcl0",
        "background-load",
    ] {
        assert!(list.contains(name), "{name} not listed:\n{list}");
    }
    // hardware files are listed apart, as includes
    let (scenarios, hardware) = list.split_once("Hardware files").unwrap();
    assert!(hardware.contains("artisoft-1992") && !scenarios.contains("artisoft-1992"));

    // the profile catalogue too
    let profiles = ethersim(dir.path()).arg("profiles").output().unwrap();
    assert!(
        profiles.status.success(),
        "{}",
        String::from_utf8_lossy(&profiles.stderr)
    );
    let profiles = String::from_utf8(profiles.stdout).unwrap();
    for name in [
        "486dx50",
        "ae2-16bit-optimized-server",
        "excelan-exos-204",
        "linux-1-2",
    ] {
        assert!(profiles.contains(name), "{name} not listed:\n{profiles}");
    }

    // by name, from a directory with no scenario in it
    let by_name = ethersim(dir.path())
        .args(["run", "16bit-optimized", "-f", "csv"])
        .args(SHORT)
        .output()
        .unwrap();
    assert!(
        by_name.status.success(),
        "{}",
        String::from_utf8_lossy(&by_name.stderr)
    );
    assert!(String::from_utf8_lossy(&by_name.stderr).contains("using the catalogue's"));

    // exported, then run from the files: the same bytes
    let export = ethersim(dir.path())
        .args(["scenarios", "export", "16bit-optimized", "d"])
        .output()
        .unwrap();
    assert!(
        export.status.success(),
        "{}",
        String::from_utf8_lossy(&export.stderr)
    );
    let from_files = ethersim(dir.path())
        .args(["run", "d/16bit-optimized.toml", "-f", "csv"])
        .args(SHORT)
        .output()
        .unwrap();
    assert!(from_files.status.success());
    assert_eq!(by_name.stdout, from_files.stdout);
    let shown = ethersim(dir.path())
        .args(["scenarios", "show", "16bit-optimized"])
        .output()
        .unwrap();
    let file = std::fs::read_to_string(dir.path().join("d/16bit-optimized.toml")).unwrap();
    // the export is the file shown, its include beside it
    assert_eq!(
        String::from_utf8(shown.stdout)
            .unwrap()
            .replace("\"../../hardware/catalogue.toml\"", "\"catalogue.toml\""),
        file
    );
    for beside in ["catalogue.toml", "artisoft-1992.toml"] {
        assert!(dir.path().join("d").join(beside).is_file(), "{beside}");
    }

    // an include from another folder is written beside the scenario and found there
    let e = ethersim(dir.path())
        .args(["scenarios", "export", "lanperf-max", "e"])
        .output()
        .unwrap();
    assert!(e.status.success());
    let v = ethersim(dir.path())
        .args(["validate", "e/lanperf-max.toml"])
        .output()
        .unwrap();
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stderr));
    // exporting over existing files is refused, and leaves them as they were
    let again = ethersim(dir.path())
        .args(["scenarios", "export", "16bit-optimized", "d"])
        .output()
        .unwrap();
    assert!(!again.status.success());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("d/16bit-optimized.toml")).unwrap(),
        file
    );

    // a sweep by name
    let sweep = ethersim(dir.path())
        .args([
            "sweep",
            "saturate",
            "--param",
            "nodes.stations.count",
            "--values",
            "1,2",
        ])
        .args(["-s", "run.duration_s=0.05", "-o", "sw"])
        .output()
        .unwrap();
    assert!(
        sweep.status.success(),
        "{}",
        String::from_utf8_lossy(&sweep.stderr)
    );
    assert!(dir.path().join("sw/sweep.csv").is_file());
}

#[test]
fn a_scenario_copied_without_its_include_says_where_includes_resolve() {
    let dir = tempfile::tempdir().unwrap();
    let text = ethersim(dir.path())
        .args(["scenarios", "show", "16bit-optimized"])
        .output()
        .unwrap()
        .stdout;
    std::fs::create_dir(dir.path().join("elsewhere")).unwrap();
    std::fs::write(dir.path().join("elsewhere/mine.toml"), text).unwrap();
    let o = ethersim(dir.path())
        .args(["run", "elsewhere/mine.toml"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("elsewhere/../../hardware/catalogue.toml")
            && err.contains("relative to the folder of the file that names it")
            && err.contains("ethersim scenarios export"),
        "{err}"
    );
    // an unknown name is an unknown file
    let o = ethersim(dir.path())
        .args(["scenarios", "show", "nosuch"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("ethersim scenarios"));
}
