//! The output rules and interruptions, end to end through the binary: devices, FIFOs and
//! links are written where they are and never renamed over; `-` is standard output; an
//! output that is an input or another output is refused before the run; SIGINT and
//! SIGTERM end a command with 130 and 143 and leave its outputs complete or untouched,
//! with no temporaries; the next command into a directory removes what a dead process
//! left there. A property test draws targets and interruptions and checks all of it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use proptest::prelude::*;

fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_ethersim"))
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn saturate() -> PathBuf {
    root().join("scenarios/saturate.toml")
}

/// A run of a few hundred ms, or one long enough to interrupt.
fn run_args(long: bool) -> Vec<String> {
    let d = if long { "3000" } else { "0.05" };
    vec![
        "run".into(),
        saturate().display().to_string(),
        "-q".into(),
        "--set".into(),
        format!("run.duration_s={d}"),
        "--set".into(),
        "nodes.stations.count=2".into(),
    ]
}

/// Names in `dir` that are ethersim's temporaries, staging or lock.
fn leftovers(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.contains("ethersim"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn signal(child: &Child, sig: &str) {
    let ok = Command::new("kill")
        .args([sig, &child.id().to_string()])
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "kill {sig} failed");
}

/// Waits until `cond` holds (at most 60 s).
fn wait_for(what: &str, cond: impl Fn() -> bool) {
    let t = Instant::now();
    while !cond() {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_device_stays_a_device() {
    let out = Command::new(bin())
        .args(run_args(false))
        .args(["--pcap", "/dev/null", "--events", "/dev/full"])
        .output()
        .unwrap();
    // /dev/full refuses the bytes: an error, and /dev/full is still a device
    assert!(!out.status.success());
    for d in ["/dev/null", "/dev/full"] {
        assert!(!fs::symlink_metadata(d).unwrap().is_file(), "{d} became a file");
    }
    let ok = Command::new(bin())
        .args(run_args(false))
        .args(["--pcap", "/dev/null"])
        .output()
        .unwrap();
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    assert!(!fs::symlink_metadata("/dev/null").unwrap().is_file());
}

#[test]
fn a_link_is_written_where_it_points() {
    let d = tempfile::tempdir().unwrap();
    let real = d.path().join("real.pcapng");
    fs::write(&real, b"old").unwrap();
    let link = d.path().join("link.pcapng");
    std::os::unix::fs::symlink("real.pcapng", &link).unwrap();
    let out = Command::new(bin())
        .args(run_args(false))
        .arg("--pcap")
        .arg(&link)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(&fs::read(&real).unwrap()[..4], &[0x0a, 0x0d, 0x0d, 0x0a]);
    assert_eq!(leftovers(d.path()), Vec::<String>::new());
}

#[test]
fn an_input_or_the_same_file_twice_is_refused_before_the_run() {
    let d = tempfile::tempdir().unwrap();
    let scenario = d.path().join("s.toml");
    fs::copy(saturate(), &scenario).unwrap();
    let before = fs::read(&scenario).unwrap();
    let out = Command::new(bin())
        .args(["run", scenario.to_str().unwrap(), "-q", "--pcap"])
        .arg(&scenario)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("input"), "{err}");
    assert_eq!(
        fs::read(&scenario).unwrap(),
        before,
        "the scenario was overwritten"
    );

    let same = d.path().join("same.out");
    let out = Command::new(bin())
        .args(run_args(false))
        .arg("--pcap")
        .arg(&same)
        .arg("--events")
        .arg(&same)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--events") && err.contains("--pcap"), "{err}");
    assert!(!same.exists(), "written although refused");
}

#[test]
fn pcap_to_stdout_is_a_capture_and_the_table_goes_to_stderr() {
    let out = Command::new(bin())
        .args(run_args(false))
        .args(["--pcap", "-"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        &out.stdout[..4],
        &[0x0a, 0x0d, 0x0d, 0x0a],
        "not a pcapng section"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("throughput"));
}

#[test]
fn pcap_to_stdout_reads_in_tshark_as_the_file_does() {
    if Command::new("tshark").arg("-v").output().is_err() {
        eprintln!("skipped: tshark is not installed");
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("a.pcapng");
    let run = |pcap: &str| {
        Command::new(bin())
            .args(run_args(false))
            .args(["--pcap", pcap])
            .output()
            .unwrap()
    };
    assert!(run(file.to_str().unwrap()).status.success());
    let piped = run("-");
    let tshark = |input: &[u8]| {
        let mut c = Command::new("tshark")
            .args(["-r", "-", "-T", "fields", "-e", "frame.len"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        use std::io::Write;
        c.stdin.take().unwrap().write_all(input).unwrap();
        c.wait_with_output().unwrap().stdout
    };
    let from_file = tshark(&fs::read(&file).unwrap());
    let from_pipe = tshark(&piped.stdout);
    assert!(!from_file.is_empty());
    assert_eq!(from_file, from_pipe);
}

#[test]
fn sigint_and_sigterm_during_a_sweep_leave_the_directory_untouched() {
    for (sig, code) in [("-INT", 130), ("-TERM", 143)] {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("sweep");
        fs::create_dir(&out).unwrap();
        fs::write(out.join("sweep.csv"), b"old results\n").unwrap();
        let child = Command::new(bin())
            .args(["sweep", saturate().to_str().unwrap(), "-q", "--jobs", "1"])
            .args(["--param", "nodes.stations.count", "--range", "1..1000"])
            .args(["--set", "run.duration_s=20", "--out"])
            .arg(&out)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        wait_for("the staging directory", || {
            leftovers(&out).iter().any(|n| n.starts_with(".ethersim-staging"))
        });
        signal(&child, sig);
        let o = child.wait_with_output().unwrap();
        assert_eq!(
            o.status.code(),
            Some(code),
            "{sig}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(leftovers(&out), Vec::<String>::new(), "{sig}");
        assert_eq!(fs::read(out.join("sweep.csv")).unwrap(), b"old results\n");
        assert_eq!(fs::read_dir(&out).unwrap().count(), 1, "{sig}");
    }
}

#[test]
fn sigint_during_a_capture_leaves_no_temporaries() {
    let d = tempfile::tempdir().unwrap();
    let pcap = d.path().join("a.pcapng");
    let events = d.path().join("a.jsonl");
    let child = Command::new(bin())
        .args(run_args(true))
        .arg("--pcap")
        .arg(&pcap)
        .arg("--events")
        .arg(&events)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for("the temporaries", || leftovers(d.path()).len() == 2);
    std::thread::sleep(Duration::from_millis(200));
    signal(&child, "-INT");
    let o = child.wait_with_output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        fs::read_dir(d.path()).unwrap().count(),
        0,
        "{:?}",
        leftovers(d.path())
    );
}

#[test]
fn what_a_dead_process_left_is_removed_and_named() {
    if !Path::new("/proc/self").exists() {
        eprintln!("skipped: no /proc to tell a dead process");
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("out");
    fs::create_dir(&out).unwrap();
    // pid 4194304 is above Linux's largest (2^22): a process that cannot be running
    fs::write(out.join(".ethersim.lock"), b"4194304\n").unwrap();
    let staging = out.join(".ethersim-staging-4194304-0");
    fs::create_dir(&staging).unwrap();
    fs::write(staging.join("sweep.csv"), b"partial").unwrap();
    let o = Command::new(bin())
        .args(run_args(false))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("4194304") && err.contains("no longer runs"), "{err}");
    assert_eq!(leftovers(&out), Vec::<String>::new());
    assert!(out.join("run.txt").is_file());
}

/// What a drawn output target is.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Regular,
    Absent,
    Directory,
    Device,
    Fifo,
    Link,
    TheInput,
    ReadOnlyDir,
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        Just(Kind::Regular),
        Just(Kind::Absent),
        Just(Kind::Directory),
        Just(Kind::Device),
        Just(Kind::Fifo),
        Just(Kind::Link),
        Just(Kind::TheInput),
        Just(Kind::ReadOnlyDir),
    ]
}

/// Makes a target of `kind` in `dir` (named `name`); returns its path, or None where the
/// kind cannot be made here (no mkfifo, running as root for a read-only directory).
fn make(kind: Kind, dir: &Path, name: &str, input: &Path) -> Option<PathBuf> {
    let p = dir.join(name);
    match kind {
        Kind::Regular => fs::write(&p, b"old").ok().map(|_| p),
        Kind::Absent => Some(p),
        Kind::Directory => fs::create_dir(&p).ok().map(|_| p),
        Kind::Device => Some(PathBuf::from("/dev/null")),
        Kind::Fifo => Command::new("mkfifo")
            .arg(&p)
            .status()
            .ok()
            .filter(|s| s.success())
            .map(|_| p),
        Kind::Link => {
            fs::write(dir.join(format!("{name}.real")), b"old").ok()?;
            std::os::unix::fs::symlink(format!("{name}.real"), &p).ok()?;
            Some(p)
        }
        Kind::TheInput => Some(input.to_path_buf()),
        Kind::ReadOnlyDir => {
            use std::os::unix::fs::PermissionsExt;
            let ro = dir.join(format!("{name}.ro"));
            fs::create_dir(&ro).ok()?;
            fs::set_permissions(&ro, fs::Permissions::from_mode(0o555)).ok()?;
            // root writes anyway: the case does not exist for root
            if fs::write(ro.join("probe"), b"").is_ok() {
                return None;
            }
            Some(ro.join("x"))
        }
    }
}

/// Everything in `dir` (recursively), with contents, for "untouched" checks.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Option<Vec<u8>>)> {
    let mut v = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            let m = fs::symlink_metadata(&p).unwrap();
            if m.is_dir() {
                stack.push(p.clone());
                v.push((p, None));
            } else if m.is_file() {
                v.push((p.clone(), fs::read(&p).ok()));
            } else {
                v.push((p, None));
            }
        }
    }
    v.sort();
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Two drawn targets for `--pcap` and `--events`, and perhaps a SIGINT: afterwards
    /// each output is complete or everything is untouched, no temporaries remain, the
    /// input is unchanged, and devices, FIFOs and links keep their kind.
    #[test]
    fn outputs_are_complete_or_untouched(a in kind(), b in kind(), same in any::<bool>(), interrupt in any::<bool>()) {
        let d = tempfile::tempdir().unwrap();
        let input = d.path().join("s.toml");
        fs::copy(saturate(), &input).unwrap();
        let input_bytes = fs::read(&input).unwrap();
        let Some(pa) = make(a, d.path(), "a", &input) else { return Ok(()) };
        let pb = if same { pa.clone() } else {
            let Some(pb) = make(b, d.path(), "b", &input) else { return Ok(()) };
            pb
        };
        // a FIFO needs a reader, or opening it for writing waits forever: each FIFO gets
        // one that opens without waiting (O_NONBLOCK) and drains it until the run is over
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let readers: Vec<_> = [&pa, &pb].iter().filter(|p| {
            fs::symlink_metadata(p).is_ok_and(|m| {
                use std::os::unix::fs::FileTypeExt;
                m.file_type().is_fifo()
            })
        }).map(|p| {
            use std::io::Read;
            use std::os::unix::fs::OpenOptionsExt;
            const O_NONBLOCK: i32 = 0o4000; // Linux
            let f = fs::OpenOptions::new().read(true).custom_flags(O_NONBLOCK).open(p);
            let done = done.clone();
            std::thread::spawn(move || {
                let Ok(mut f) = f else { return };
                let mut buf = [0u8; 65536];
                while !done.load(std::sync::atomic::Ordering::SeqCst) {
                    match f.read(&mut buf) {
                        Ok(n) if n > 0 => continue,
                        _ => std::thread::sleep(Duration::from_millis(5)),
                    }
                }
            })
        }).collect();
        let before = snapshot(d.path());
        let mut cmd = Command::new(bin());
        cmd.args(["run", input.to_str().unwrap(), "-q", "--set"])
            .arg(if interrupt { "run.duration_s=3000" } else { "run.duration_s=0.05" })
            .args(["--set", "nodes.stations.count=2", "--pcap"]).arg(&pa).arg("--events").arg(&pb)
            .stdout(Stdio::null()).stderr(Stdio::piped());
        let child = cmd.spawn().unwrap();
        if interrupt {
            std::thread::sleep(Duration::from_millis(300));
            signal(&child, "-INT");
        }
        let o = child.wait_with_output().unwrap();
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        for r in readers { let _ = r.join(); }
        prop_assert_eq!(fs::read(&input).unwrap(), input_bytes, "the input changed");
        prop_assert!(leftovers(d.path()).is_empty(), "temporaries: {:?}", leftovers(d.path()));
        if pa.starts_with("/dev") || pb.starts_with("/dev") {
            prop_assert!(!fs::symlink_metadata("/dev/null").unwrap().is_file());
        }
        if o.status.success() {
            // complete: each regular target (or a link's file) holds a whole output
            for p in [&pa, &pb] {
                let real = fs::canonicalize(p).unwrap();
                if fs::metadata(&real).unwrap().is_file() {
                    prop_assert!(fs::metadata(&real).unwrap().len() > 100);
                }
            }
        } else {
            // untouched: everything in the directory as it was
            prop_assert_eq!(snapshot(d.path()), before, "{}", String::from_utf8_lossy(&o.stderr));
            if interrupt {
                prop_assert!(matches!(o.status.code(), Some(130) | Some(1)), "{:?}", o.status);
            }
        }
    }
}

#[test]
fn a_full_device_is_one_plain_sentence() {
    let out = Command::new(bin())
        .args(run_args(false))
        .args(["--pcap", "/dev/full"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("/dev/full") && err.contains("No space left on device"),
        "{err}"
    );
    assert!(!err.contains("Error reading bytes"), "{err}");
}
