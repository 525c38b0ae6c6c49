//! `ethersim calibrate`: load and check the calibration file, fit (and cross-validate) on
//! a pool of `--jobs` threads with a progress bar, then print and write the results. Ctrl-C
//! stops the search; the best values found so far are then written, complete. With
//! `--evaluate` only the hardware file's current values are judged (no search, the
//! hardware file never written). With `--cross-validate` and `--list-runs` or
//! `--run-index`, the folds are a study of indexed runs ([`ethersim::study::folds`]).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::args::CalibrateArgs;
use super::io::{check_out_dir, note, print, wrote, UsageError};
use super::study::list_or_run;
use ethersim::calibrate::report as out;
use ethersim::calibrate::{self, trial, Calibration};
use ethersim::report::atomic::Staged;
use ethersim::study::folds::FoldsStudy;

/// Set by the first SIGINT or SIGTERM ([`super::signals::graceful`]).
static STOP: AtomicBool = AtomicBool::new(false);

fn bar(len: u64) -> ProgressBar {
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let b = ProgressBar::with_draw_target(Some(len), target);
    b.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} evaluations  best {msg}  {elapsed_precise}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    b
}

pub fn run(a: CalibrateArgs, jobs: usize) -> Result<()> {
    let cal = Calibration::load(&a.file)?;
    if a.cross_validate {
        // before the search: a fold of one scenario would fit to none
        cal.check_cross_validation()?;
    }
    if a.in_place && !cal.overrides.is_empty() {
        bail!(
            "{}: --in-place would write constants fitted under its `overrides` ({}) into {}, \
             whose scenarios do not hold them; fit without --in-place and compare the objective",
            a.file.display(),
            held(&cal),
            cal.hardware.path.display()
        );
    }
    if a.shard.any() {
        return folds(a, cal, jobs);
    }
    // the whole cost, before any run: every search at its budget, every fold
    calibrate::budget::admit(&cal, a.cross_validate && !a.evaluate, a.max_cpu_hours)?;
    ethersim::report::target::plain_name("the calibration's name", &cal.name)
        .map_err(|e| anyhow::anyhow!("{}: {e}", a.file.display()))?;
    let dir = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("output").join(format!("calibrate-{}", cal.name)));
    check_out_dir(&dir)?;
    // --in-place writes where a symbolic link points, and is checked before the search
    let in_place = if a.in_place {
        let hw = ethersim::report::target::resolve(&cal.hardware.path)?;
        let hw_dir = match hw.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        check_out_dir(&hw_dir).with_context(|| {
            format!(
                "--in-place cannot write the hardware file {}",
                cal.hardware.path.display()
            )
        })?;
        Some((hw, hw_dir))
    } else {
        None
    };
    // the first SIGINT or SIGTERM stops the search; the best values so far are written to
    // the output directory, marked interrupted, never in place
    super::signals::graceful(&STOP);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .context("thread pool")?;

    if a.evaluate {
        // the current values only: no search, and the hardware file is not written
        let fit = pool.install(|| calibrate::evaluate(&cal))?;
        let report = with_overrides(out::summary(&cal.name, &cal.objective_label(), &fit), &cal);
        let mut staged = Staged::new(&dir);
        out::write_evaluation(&mut staged, &fit, &cal.name, &cal.key_column, &cal.figures)?;
        staged.write("calibration.txt", report.as_bytes())?;
        let files = staged.commit()?;
        print(&report)?;
        wrote(&files);
        return Ok(());
    }
    let b = bar(cal.max_evaluations as u64);
    let fit = pool.install(|| {
        calibrate::fit(&cal, &STOP, &|p| {
            b.set_position(p.evaluations as u64);
            b.set_message(format!("{:.1}", p.best));
        })
    })?;
    b.finish_and_clear();
    let hw_name = cal
        .hardware
        .path
        .file_name()
        .map_or("hardware.toml".into(), |n| n.to_string_lossy().into_owned());
    // a fit's file name alone says little: `fit.toml` is named with its folder
    // (`bulletin/fit.toml`), any other file by its name
    let file_name = {
        let name = a
            .file
            .file_name()
            .map_or("calibration".into(), |n| n.to_string_lossy().into_owned());
        match a.file.parent().and_then(|p| p.file_name()) {
            Some(dir) if name == "fit.toml" => format!("{}/{name}", dir.to_string_lossy()),
            _ => name,
        }
    };
    let marker = format!("calibrated by {file_name}");
    let text = trial::hardware_text(&cal, &fit.values, Some(&marker))?;

    let mut report = with_overrides(out::summary(&cal.name, &cal.objective_label(), &fit), &cal);
    let mut staged = Staged::new(&dir);
    out::write_outputs(
        &mut staged,
        &hw_name,
        &text,
        &fit,
        &cal.name,
        &cal.key_column,
        &cal.figures,
    )?;

    if a.cross_validate && !fit.interrupted {
        let b = bar(cal.max_evaluations as u64);
        let folds = pool.install(|| {
            calibrate::cross_validate(&cal, &STOP, &|fold, p| {
                b.set_position(p.evaluations as u64);
                b.set_message(format!("{:.1} (fold {})", p.best, fold + 1));
            })
        })?;
        b.finish_and_clear();
        report.push('\n');
        report.push_str(&out::folds(&folds));
        let keys: Vec<String> = cal.parameters.iter().map(|p| p.key.clone()).collect();
        staged.write("cross_validation.csv", out::folds_csv(&folds, &keys)?.as_bytes())?;
    }
    staged.write("calibration.txt", report.as_bytes())?;
    let mut files = staged.commit()?;
    let stopped = super::signals::interrupted();
    match (&in_place, stopped) {
        (Some((hw, hw_dir)), None) if !fit.interrupted => {
            let name = hw
                .file_name()
                .map_or(hw_name.clone(), |n| n.to_string_lossy().into_owned());
            let mut staged = Staged::new(hw_dir);
            staged.write(&name, text.as_bytes())?;
            files.extend(
                staged
                    .commit()
                    .with_context(|| format!("cannot write the hardware file {}", hw.display()))?,
            );
        }
        (Some((hw, _)), _) => note(&format!(
            "the search did not finish: {} is unchanged; the best values so far are in {}",
            hw.display(),
            dir.display()
        )),
        (None, _) => {}
    }
    print(&report)?;
    wrote(&files);
    if let Some(sig) = stopped {
        std::process::exit(super::signals::exit_code(sig));
    }
    Ok(())
}

/// `--list-runs` or `--run-index I` of `--cross-validate`: the folds as a study, one fold
/// per run ([`ethersim::study::folds`]), into the output directory's `runs/`.
fn folds(a: CalibrateArgs, cal: Calibration, jobs: usize) -> Result<()> {
    if !a.cross_validate || a.in_place || a.evaluate {
        return Err(UsageError(
            "--list-runs and --run-index split the folds of --cross-validate: give \
             --cross-validate, without --in-place or --evaluate"
                .into(),
        )
        .into());
    }
    ethersim::report::target::plain_name("the calibration's name", &cal.name)
        .map_err(|e| anyhow::anyhow!("{}: {e}", a.file.display()))?;
    if a.shard.run_index.is_some() {
        // one fold costs at most what the full fit does
        calibrate::budget::admit(&cal, false, a.max_cpu_hours)?;
    }
    let dir = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("output").join(format!("calibrate-{}", cal.name)));
    let study = FoldsStudy::new(cal)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .context("thread pool")?;
    pool.install(|| list_or_run(&study, &a.shard, &dir))
}

/// The settings a calibration holds in every scenario, as `KEY=VALUE, ...`.
fn held(cal: &Calibration) -> String {
    cal.overrides
        .iter()
        .map(|o| format!("{}={}", o.keys.join("."), o.value))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The report, saying first what the calibration held in every scenario, if anything.
fn with_overrides(report: String, cal: &Calibration) -> String {
    if cal.overrides.is_empty() {
        return report;
    }
    format!("Held in every scenario (overrides): {}\n{report}", held(cal))
}
