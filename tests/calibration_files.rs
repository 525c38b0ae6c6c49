//! The calibration files under `calibrations/`: one folder per reproduction, a `fit.toml`
//! and its `hypotheses/`, each hypothesis holding only its change and a `[verdict]`; the
//! verdicts' objectives are what `ethersim calibrate FILE --evaluate` prints; and the
//! `extends` merge refuses what it does not support, naming file and key.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use ethersim::calibrate::{self, trial, Calibration, Decision};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.toml` under `calibrations/`, sorted, relative to the crate root.
fn calibration_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "toml") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join("calibrations"), &mut out);
    out.sort();
    out.into_iter()
        .map(|p| p.strip_prefix(root()).unwrap().to_path_buf())
        .collect()
}

fn is_hypothesis(p: &Path) -> bool {
    p.parent().is_some_and(|d| d.ends_with("hypotheses"))
}

fn doc(p: &Path) -> toml::Table {
    toml::from_str(&std::fs::read_to_string(root().join(p)).unwrap()).unwrap()
}

#[test]
fn every_calibration_file_loads_with_a_unique_name_and_a_verdict() {
    let files = calibration_files();
    let rel: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    let mut want = vec![
        "calibrations/bulletin/fit.toml".to_string(),
        "calibrations/ttcp1985/fit.toml".into(),
        "calibrations/ttcp1985/hypotheses/assumptions-free.toml".into(),
        "calibrations/ttcp1995/fit.toml".into(),
    ];
    for stem in [
        "assumptions-free",
        "copy-at-once",
        "direct-reads",
        "from-the-middle",
        "full-buffers",
        "full-buffers-alone",
        "full-buffers-wire-bound",
        "full-messages",
        "network-buffer-share",
        "oldest-message",
        "one-message",
        "reply-before-send",
        "reply-before-send-at-once",
        "reply-before-send-oldest",
        "report-seeds",
        "run-burst",
        "scope",
        "small-request",
        "small-request-scope",
    ] {
        want.push(format!("calibrations/bulletin/hypotheses/{stem}.toml"));
    }
    want.sort();
    assert_eq!(rel, want, "the calibration files");

    let mut names = Vec::new();
    for p in &files {
        let cal = Calibration::load(&root().join(p)).unwrap_or_else(|e| panic!("{}: {e:#}", p.display()));
        assert!(!cal.parameters.is_empty(), "{}", p.display());
        let v = cal
            .verdict
            .as_ref()
            .unwrap_or_else(|| panic!("{}: no [verdict]", p.display()));
        let dir = p.parent().unwrap();
        if is_hypothesis(p) {
            // a hypothesis on its folder's fit, named after it and its own stem
            let fit = dir.parent().unwrap().join("fit.toml");
            let fit_name = Calibration::load(&root().join(&fit)).unwrap().name;
            assert_eq!(
                cal.extends.as_deref().map(|e| e.ends_with("fit.toml")),
                Some(true),
                "{}",
                p.display()
            );
            let stem = p.file_stem().unwrap().to_string_lossy();
            assert_eq!(cal.name, format!("{fit_name}-{stem}"), "{}", p.display());
        } else {
            assert!(cal.extends.is_none(), "{}: a fit extends nothing", p.display());
            assert_eq!(
                v.decision,
                Decision::Kept,
                "{}: a shipped fit is kept",
                p.display()
            );
            // the output directories stay output/calibrate-bulletin, -ttcp-1985, -ttcp-1995
            let folder = dir.file_name().unwrap().to_string_lossy().into_owned();
            let want = match folder.as_str() {
                "bulletin" => "bulletin",
                "ttcp1985" => "ttcp-1985",
                "ttcp1995" => "ttcp-1995",
                other => panic!("unknown reproduction {other}"),
            };
            assert_eq!(doc(p).get("name").and_then(|n| n.as_str()), Some(want));
        }
        assert!(!names.contains(&cal.name), "{} named twice", cal.name);
        names.push(cal.name);
    }
}

#[test]
fn each_hypothesis_holds_only_its_change_and_a_verdict() {
    for p in calibration_files().iter().filter(|p| is_hypothesis(p)) {
        let own = doc(p);
        let parent = doc(&p.parent().unwrap().parent().unwrap().join("fit.toml"));
        assert_eq!(
            own.get("extends").and_then(|e| e.as_str()),
            Some("../fit.toml"),
            "{}",
            p.display()
        );
        let verdict = own.get("verdict").and_then(|v| v.as_table());
        let verdict = verdict.unwrap_or_else(|| panic!("{}: no [verdict]", p.display()));
        for k in ["decision", "objective", "reason"] {
            assert!(verdict.contains_key(k), "{}: verdict.{k}", p.display());
        }
        for (k, v) in &own {
            if matches!(
                k.as_str(),
                "extends" | "verdict" | "remove" | "remove_parameters" | "parameter"
            ) {
                continue;
            }
            assert_ne!(parent.get(k), Some(v), "{}: `{k}` repeats the fit's", p.display());
        }
        let parent_params = parent["parameter"].as_array().unwrap();
        for q in own
            .get("parameter")
            .and_then(|a| a.as_array())
            .into_iter()
            .flatten()
        {
            assert!(
                !parent_params.contains(q),
                "{}: [[parameter]] {} repeats the fit's",
                p.display(),
                q["key"]
            );
        }
        assert!(
            own.len() > 2,
            "{}: a hypothesis changes something besides its verdict",
            p.display()
        );
    }
}

#[test]
fn calibration_comments_name_no_issue_numbers_or_dates() {
    const MONTHS: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may ",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    for p in calibration_files() {
        let text = std::fs::read_to_string(root().join(&p)).unwrap().to_lowercase();
        for (i, _) in text.match_indices("issue") {
            let after = text[i + 5..].trim_start_matches(['s', ' ', '#', '\n']);
            assert!(
                !after.starts_with(|c: char| c.is_ascii_digit()),
                "{}: names an issue number: {:?}",
                p.display(),
                &text[i..(i + 20).min(text.len())]
            );
        }
        for m in MONTHS {
            for (i, _) in text.match_indices(m) {
                let after = text[i + m.len()..].trim_start();
                assert!(
                    !after.starts_with("19") && !after.starts_with("20"),
                    "{}: names a date: {:?}",
                    p.display(),
                    &text[i..(i + 20).min(text.len())]
                );
            }
        }
    }
}

/// The objective `--evaluate` prints: the hardware file's values with the file's overrides,
/// mean over its fit seeds (one evaluation; the sensitivities `--evaluate` adds do not
/// change it).
fn evaluated(cal: &Calibration) -> f64 {
    let values: Vec<toml::Value> = cal.parameters.iter().map(|p| p.current.clone()).collect();
    let sims = trial::simulate(cal, &values, &cal.seeds).unwrap();
    trial::objective(cal, &trial::means(&sims))
}

#[test]
fn the_recorded_objective_is_what_evaluate_gives_for_the_fits_and_three_hypotheses() {
    for p in [
        "calibrations/bulletin/fit.toml",
        "calibrations/ttcp1985/fit.toml",
        "calibrations/ttcp1995/fit.toml",
        "calibrations/bulletin/hypotheses/copy-at-once.toml",
        "calibrations/bulletin/hypotheses/run-burst.toml",
        "calibrations/ttcp1985/hypotheses/assumptions-free.toml",
    ] {
        let cal = Calibration::load(&root().join(p)).unwrap();
        let recorded = cal.verdict.as_ref().unwrap().objective_text();
        assert_eq!(format!("{:.1}", evaluated(&cal)), recorded, "{p}");
    }
}

#[test]
fn evaluate_prints_the_recorded_verdict_beside_the_objective_judged_now() {
    let out = tempfile::tempdir().unwrap();
    let o = Command::cargo_bin("ethersim")
        .unwrap()
        .current_dir(root())
        .args([
            "calibrate",
            "calibrations/ttcp1995/fit.toml",
            "--evaluate",
            "--jobs",
            "2",
            "--out",
        ])
        .arg(out.path().join("o"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        text.contains("Recorded verdict: kept at 45.9; evaluated now: 45.9.\n"),
        "{text}"
    );
    assert!(text.contains("mean over the fit seeds) 45.9."), "{text}");
}

// ---- the merge rule of `extends`, on hypotheses written beside a copy-free fit ----

/// The 1995 fit, absolute: a hypothesis in a temporary directory can extend it.
fn fit_1995() -> String {
    root()
        .join("calibrations/ttcp1995/fit.toml")
        .display()
        .to_string()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn refused(path: &Path) -> String {
    let e = Calibration::load(path).expect_err("refused");
    format!("{e:#}")
}

#[test]
fn a_hypothesis_replaces_top_level_keys_and_parameters_by_key() {
    let dir = tempfile::tempdir().unwrap();
    let fit = Calibration::load(Path::new(&fit_1995())).unwrap();
    let h = write(
        dir.path(),
        "h.toml",
        &format!(
            "extends = {:?}\nseeds = [5]\nremove_parameters = [\"workload.costs.interrupt_kinstr\"]\n\
             [[parameter]]\nkey = \"workload.costs.segment_kinstr\"\nmin = 1.0\nmax = 2.0\n\
             [verdict]\ndecision = \"rejected\"\nobjective = 1.0\nreason = \"a test\"\n",
            fit_1995()
        ),
    );
    let cal = Calibration::load(&h).unwrap();
    assert_eq!(cal.name, "ttcp-1995-h");
    assert_eq!(cal.seeds, vec![5]);
    assert_eq!(cal.report_seeds, fit.report_seeds, "inherited");
    assert_eq!(
        cal.scenarios.len(),
        fit.scenarios.len(),
        "paths rebased onto the hypothesis"
    );
    let keys: Vec<&str> = cal.parameters.iter().map(|p| p.key.as_str()).collect();
    let fit_keys: Vec<&str> = fit
        .parameters
        .iter()
        .map(|p| p.key.as_str())
        .filter(|k| *k != "workload.costs.interrupt_kinstr")
        .collect();
    assert_eq!(keys, fit_keys, "replaced in place, one removed");
    let seg = cal
        .parameters
        .iter()
        .find(|p| p.key == "workload.costs.segment_kinstr")
        .unwrap();
    assert_eq!(
        seg.domain,
        calibrate::Domain::Continuous {
            min: 1.0,
            max: 2.0,
            integer: false
        }
    );
    assert_eq!(cal.verdict.unwrap().decision, Decision::Rejected);
    assert!(fit.verdict.is_some() && cal.extends.is_some());
}

#[test]
fn extends_refuses_chains_cycles_itself_and_what_the_fit_does_not_have() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let h = write(d, "h.toml", &format!("extends = {:?}\nseeds = [5]\n", fit_1995()));
    let chain = write(d, "chain.toml", "extends = \"h.toml\"\nseeds = [6]\n");
    let e = refused(&chain);
    assert!(
        e.contains("h.toml") && e.contains("`extends`") && e.contains("only one level"),
        "{e}"
    );
    assert!(!e.contains("cycle"), "{e}");

    let a = write(d, "a.toml", "extends = \"b.toml\"\nseeds = [5]\n");
    write(d, "b.toml", "extends = \"a.toml\"\nseeds = [6]\n");
    let e = refused(&a);
    assert!(e.contains("b.toml") && e.contains("a cycle"), "{e}");

    let me = write(d, "me.toml", "extends = \"me.toml\"\n");
    assert!(refused(&me).contains("is this file itself"), "{}", refused(&me));

    let gone = write(
        d,
        "gone.toml",
        &format!("extends = {:?}\nremove = [\"line_bar\"]\n", fit_1995()),
    );
    let e = refused(&gone);
    assert!(
        e.contains("gone.toml:2") && e.contains("remove[0]") && e.contains("no `line_bar`"),
        "{e}"
    );

    let p = write(
        d,
        "p.toml",
        &format!(
            "extends = {:?}\nremove_parameters = [\"no.such.key\"]\n",
            fit_1995()
        ),
    );
    let e = refused(&p);
    assert!(
        e.contains("remove_parameters[0]") && e.contains("no `no.such.key`"),
        "{e}"
    );

    let same = write(
        d,
        "same.toml",
        &format!("extends = {:?}\nname = \"ttcp-1995\"\n", fit_1995()),
    );
    assert!(
        refused(&same).contains("give the hypothesis its own"),
        "{}",
        refused(&same)
    );

    let alone = write(d, "alone.toml", "remove = [\"seeds\"]\n");
    assert!(
        refused(&alone).contains("only a file with `extends`"),
        "{}",
        refused(&alone)
    );
    drop(h);
}

#[test]
fn an_error_in_an_inherited_key_is_located_in_the_fit_at_its_own_index() {
    // holding a fitted constant by an override is refused at that parameter's key: the
    // parameter comes from the fit, so the error names the fit's file and its index there
    let dir = tempfile::tempdir().unwrap();
    let h = write(
        dir.path(),
        "h.toml",
        &format!(
            "extends = {:?}\n[[parameter]]\nkey = \"workload.costs.segment_kinstr\"\nmin = 1.0\nmax = 2.0\n\
             [[parameter]]\nkey = \"nos.no_such_key\"\nmin = 1.0\nmax = 2.0\n",
            fit_1995()
        ),
    );
    let e = refused(&h);
    assert!(e.contains("h.toml:7") && e.contains("parameter[1].key"), "{e}");

    let h2 = write(
        dir.path(),
        "h2.toml",
        &format!(
            "extends = {:?}\noverrides = [\"stacks.linux-1-2.costs.interrupt_kinstr=1\"]\n",
            fit_1995()
        ),
    );
    let e = refused(&h2);
    let fit = std::fs::read_to_string(fit_1995()).unwrap();
    let params_before = fit
        .lines()
        .take_while(|l| !l.starts_with("key = \"workload.costs.interrupt_kinstr\""))
        .filter(|l| l.starts_with("[[parameter]]"))
        .count();
    let key = format!("parameter[{}].key", params_before - 1);
    assert!(e.contains("ttcp1995/fit.toml:") && e.contains(&key), "{e}");
}

#[test]
fn every_calibration_file_reports_over_at_least_five_distinct_seeds_and_bounds_an_integer() {
    for p in calibration_files() {
        let cal = Calibration::load(&root().join(&p)).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let mut seeds = cal.report_seeds.clone();
        seeds.sort_unstable();
        seeds.dedup();
        assert!(
            seeds.len() >= calibrate::calibration::MIN_REPORT_SEEDS,
            "{}: {} distinct report seeds",
            p.display(),
            seeds.len()
        );
        for q in &cal.parameters {
            if let calibrate::Domain::Continuous {
                min,
                max,
                integer: true,
            } = q.domain
            {
                assert!(
                    min.ceil() <= max.floor(),
                    "{}: {} [{min}, {max}]",
                    p.display(),
                    q.key
                );
            }
        }
    }
}
