//! The batch-system recipes of `docs/cluster/` work as written: the GNU parallel script
//! (or its `xargs -P` fallback) runs a study and merges it into the one-process files;
//! the Slurm array script, run as each array task would run it, does the same; the
//! Kubernetes manifest is an Indexed Job whose container passes `JOB_COMPLETION_INDEX`
//! to `--run-index`; the HTCondor submit file passes `$(Process)`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_ethersim"))
}

fn recipe(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/cluster")
        .join(name)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn has(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A study of 6 short runs.
fn study() -> Vec<String> {
    let s = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/saturate.toml");
    [
        "sweep",
        s.to_str().unwrap(),
        "-q",
        "--set",
        "run.duration_s=0.05",
        "--param",
        "nodes.stations.count",
        "--values",
        "2,3,5",
        "--replications",
        "2",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// The study run in one process into `out`.
fn one_process(out: &Path) {
    let o = Command::new(bin())
        .args(study())
        .args(["--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
}

fn same_sweep_files(a: &Path, b: &Path) {
    for n in ["sweep.csv", "sweep_summary.csv", "sweep.svg", "sweep.png"] {
        assert!(
            fs::read(a.join(n)).unwrap() == fs::read(b.join(n)).unwrap(),
            "{n} differs"
        );
    }
}

#[test]
fn the_gnu_parallel_recipe_runs_and_merges_a_study() {
    if !has("bash") || !(has("parallel") || has("xargs")) {
        eprintln!("skipped: neither GNU parallel nor xargs (or no bash) here");
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let (one, sharded) = (d.path().join("one"), d.path().join("sharded"));
    one_process(&one);
    let o: Output = Command::new("bash")
        .arg(recipe("gnu-parallel.sh"))
        .arg(&sharded)
        .args(study())
        .env("ETHERSIM", bin())
        .env("JOBS", "3")
        .output()
        .unwrap();
    let err = text(&o.stderr);
    assert!(o.status.success(), "{err}");
    let tool = if has("parallel") { "GNU parallel" } else { "xargs" };
    eprintln!("the recipe ran with {tool}");
    assert!(err.contains(&format!("running 6 runs with {tool}")), "{err}");
    assert_eq!(
        fs::read_dir(sharded.join("runs")).unwrap().count(),
        6,
        "one file per run"
    );
    same_sweep_files(&one, &sharded);
}

#[test]
fn the_slurm_recipe_is_valid_bash_and_each_array_task_runs_its_run() {
    let script = recipe("slurm-array.sh");
    let body = fs::read_to_string(&script).unwrap();
    assert!(body.contains("#SBATCH"), "no #SBATCH directive");
    assert!(body.contains("--run-index \"$SLURM_ARRAY_TASK_ID\""));
    assert!(body.contains("ethersim merge"), "the merge step is shown");
    if !has("bash") {
        eprintln!("skipped: no bash here");
        return;
    }
    let o = Command::new("bash").arg("-n").arg(&script).output().unwrap();
    assert!(o.status.success(), "bash -n: {}", text(&o.stderr));

    let d = tempfile::tempdir().unwrap();
    let (one, sharded) = (d.path().join("one"), d.path().join("sharded"));
    one_process(&one);
    let task = |id: Option<usize>| {
        let mut c = Command::new("bash");
        c.arg(&script)
            .env("ETHERSIM", bin())
            .env("OUT", &sharded)
            .env("STUDY", study().join(" "))
            .env_remove("SLURM_ARRAY_TASK_ID");
        if let Some(i) = id {
            c.env("SLURM_ARRAY_TASK_ID", i.to_string());
        }
        c.output().unwrap()
    };
    // outside an array task it refuses, saying how to submit it
    let o = task(None);
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("sbatch --array"), "{}", text(&o.stderr));
    for i in [5, 1, 3, 0, 4, 2] {
        let o = task(Some(i));
        assert!(o.status.success(), "task {i}: {}", text(&o.stderr));
    }
    let o = Command::new(bin()).arg("merge").arg(&sharded).output().unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    same_sweep_files(&one, &sharded);
}

#[test]
fn the_kubernetes_recipe_is_an_indexed_job_passing_its_index() {
    let yaml = fs::read_to_string(recipe("k8s-indexed-job.yaml")).unwrap();
    let doc: serde_norway::Value = serde_norway::from_str(&yaml).expect("the manifest is YAML");
    assert_eq!(doc["apiVersion"].as_str(), Some("batch/v1"));
    assert_eq!(doc["kind"].as_str(), Some("Job"));
    let spec = &doc["spec"];
    assert_eq!(spec["completionMode"].as_str(), Some("Indexed"));
    let completions = spec["completions"].as_u64().expect("spec.completions is a count");
    assert!(completions > 0);
    assert!(spec["parallelism"].as_u64().is_some_and(|p| p > 0));
    assert_eq!(spec["template"]["spec"]["restartPolicy"].as_str(), Some("Never"));
    let containers = spec["template"]["spec"]["containers"]
        .as_sequence()
        .expect("a container list");
    assert_eq!(containers.len(), 1);
    let c = &containers[0];
    let words: Vec<&str> = c["command"]
        .as_sequence()
        .into_iter()
        .flatten()
        .chain(c["args"].as_sequence().into_iter().flatten())
        .filter_map(|v| v.as_str())
        .collect();
    let line = words.join(" ");
    assert!(
        line.contains("--run-index \"$JOB_COMPLETION_INDEX\""),
        "the container passes its index: {line}"
    );
    // the shell line parses, and names as many runs as the study it shows lists
    let script = words.last().unwrap();
    if has("sh") {
        let o = Command::new("sh").args(["-n", "-c", script]).output().unwrap();
        assert!(o.status.success(), "sh -n: {}", text(&o.stderr));
    }
    let args: Vec<&str> = script.split_whitespace().collect();
    let study: Vec<&str> = args[2..args.iter().position(|a| *a == "--out").unwrap()].to_vec();
    let scenario = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/saturate.toml");
    let o = Command::new(bin())
        .args(study.iter().map(|a| {
            if *a == "/study/saturate.toml" {
                scenario.to_str().unwrap()
            } else {
                a
            }
        }))
        .arg("--list-runs")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let n: u64 = text(&o.stdout).lines().next().unwrap().parse().unwrap();
    assert_eq!(n, completions, "spec.completions is the study's number of runs");
}

#[test]
fn the_htcondor_recipe_passes_its_process_number_and_queues_every_run() {
    let sub = fs::read_to_string(recipe("htcondor.sub")).unwrap();
    let value = |key: &str| {
        sub.lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .find_map(|l| {
                let (k, v) = l.split_once('=')?;
                (k.trim() == key).then(|| v.trim().to_string())
            })
            .unwrap_or_else(|| panic!("no {key} in htcondor.sub"))
    };
    let arguments = value("arguments");
    assert!(arguments.contains("--run-index $(Process)"), "{arguments}");
    assert!(value("executable").ends_with("ethersim"));
    let queue: u64 = sub
        .lines()
        .find_map(|l| l.strip_prefix("queue "))
        .expect("a queue line")
        .trim()
        .parse()
        .unwrap();
    // the study of its arguments has that many runs
    let args: Vec<String> = arguments
        .trim_matches('"')
        .split_whitespace()
        .take_while(|a| *a != "--out")
        .map(|a| {
            if a == "scenarios/saturate.toml" {
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join(a)
                    .display()
                    .to_string()
            } else {
                a.to_string()
            }
        })
        .collect();
    let o = Command::new(bin())
        .args(&args)
        .arg("--list-runs")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let n: u64 = text(&o.stdout).lines().next().unwrap().parse().unwrap();
    assert_eq!(n, queue, "queue is the study's number of runs");
    assert!(sub.contains("ethersim merge"), "the merge step is shown");
}
