//! `ethersim sweep SCENARIO --param KEY --values ...`: the cross product of the swept
//! keys, each combination replicated, run on `--jobs` threads; `sweep.csv` is written as
//! the runs finish (into its staged file), then the summary and the chart. Runs that did
//! not do their work (a ttcp transfer that did not finish) are named with their values
//! and seed after the files are written, and fail the command. With `--list-runs` or
//! `--run-index` the sweep is a study of indexed runs ([`ethersim::study::sweep`]).

use std::io::IsTerminal;

use anyhow::{bail, Result};
use clap::ArgMatches;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::args::SweepArgs;
use super::io::{check_out_dir, jobs, overrides, print, warning, wrote, UsageError};
use super::study::list_or_run;
use ethersim::report::atomic::Staged;
use ethersim::report::sweep::{SweepCharts, SweepFiles};
use ethersim::run;
use ethersim::run::output::SweepParam;
use ethersim::scenario::{self, Override};
use ethersim::study::sweep::{
    representatives, scenario_name, unfinished_line, unfinished_message, SweepStudy,
};
use ethersim::study::StudyError;

/// Pairs each `--param` with the `--values` or `--range` that follows it on the command line.
fn sweep_params(a: &SweepArgs, m: &ArgMatches) -> Result<Vec<SweepParam>> {
    let idx = |id: &str| {
        m.indices_of(id)
            .map_or_else(Vec::new, |i| i.collect::<Vec<usize>>())
    };
    let (pi, vi, ri) = (idx("param"), idx("values"), idx("range"));
    let mut params = Vec::new();
    for (n, key) in a.param.iter().enumerate() {
        let start = pi[n];
        let end = pi.get(n + 1).copied().unwrap_or(usize::MAX);
        let within = |ix: &[usize]| {
            ix.iter()
                .enumerate()
                .filter(|(_, &i)| i > start && i < end)
                .map(|(k, _)| k)
                .collect::<Vec<_>>()
        };
        let (v, r) = (within(&vi), within(&ri));
        let values = match (v.as_slice(), r.as_slice()) {
            ([k], []) => run::parse_values(&a.values[*k]),
            ([], [k]) => run::parse_range(&a.range[*k]).map_err(|e| anyhow::anyhow!("--range {e}"))?,
            ([], []) => bail!("--param {key} needs --values V1,V2,... or --range START..END[:STEP] after it"),
            _ => bail!("--param {key} has more than one --values/--range; give exactly one"),
        };
        if values
            .iter()
            .any(|v| matches!(v, toml::Value::String(s) if s.is_empty()))
        {
            bail!("--param {key}: empty value in the list");
        }
        if let Err(scenario::ScenarioError::BadOverride { message, .. }) =
            Override::new(key, toml::Value::Boolean(false))
        {
            bail!("--param {key}: {message}");
        }
        params.push(SweepParam {
            key: key.clone(),
            values,
        });
    }
    if vi.iter().chain(&ri).any(|&i| pi.first().is_none_or(|&p| i < p)) {
        bail!("--values and --range must follow the --param they belong to");
    }
    Ok(params)
}

/// `--list-runs` (every combination validated) or `--run-index I` (its combination and
/// the [`representatives`] validated): the sweep as a study of indexed runs. Each run was
/// admitted alone; the batch system decides how many run at once, so the whole sweep's
/// CPU limit does not apply.
fn study(
    a: &SweepArgs,
    params: Vec<SweepParam>,
    base: &[Override],
    source: &scenario::Source,
    includes: &[scenario::Source],
) -> Result<()> {
    let plan = |i: usize| {
        run::plan_combination(
            source,
            includes,
            base,
            &params,
            a.scenario.seed,
            a.replications,
            i,
        )
    };
    let planned: Vec<(usize, run::Combination)> = match a.shard.run_index {
        None => run::plan_sweep_with(source, includes, base, &params, a.scenario.seed, a.replications)?
            .into_iter()
            .enumerate()
            .collect(),
        Some(index) => {
            let first = plan(0)?; // refuses contradicting settings and an oversized sweep
            let reps = a.replications.max(1) as usize;
            let runs = run::combination_count(&params).saturating_mul(reps);
            if index >= runs {
                return Err(UsageError(StudyError::OutOfRange { index, runs }.to_string()).into());
            }
            let mut planned = vec![(0, first)];
            for c in representatives(&params).into_iter().chain([index / reps]) {
                if planned.iter().all(|(i, _)| *i != c) {
                    planned.push((c, plan(c)?));
                }
            }
            planned
        }
    };
    check_chart_args(a, &params, planned.first().map(|(_, c)| c));
    warn_once(planned.iter().map(|(_, c)| c));
    let reps_of: Vec<&scenario::Scenario> = representatives(&params)
        .iter()
        .filter_map(|r| planned.iter().find(|(i, _)| i == r).map(|(_, c)| &c.scenario))
        .collect();
    let texts = super::io::scenario_texts(source, includes, &reps_of)?;
    let study = SweepStudy::new(
        planned,
        params,
        a.replications,
        a.scenario.seed,
        &a.scenario.set,
        &texts,
        (&a.y, a.x.as_deref()),
    );
    list_or_run(&study, &a.shard, &a.out)
}

/// Checks `--y` and `--x` against the scenario's figures before anything runs: a figure
/// or axis the workload does not have is a usage error.
fn check_chart_args(a: &SweepArgs, params: &[SweepParam], first: Option<&run::Combination>) {
    let Some(first) = first else {
        return;
    };
    let columns = run::point_columns(&first.scenario);
    let kind = first.scenario.workload.kind();
    for f in &a.y {
        if !columns.contains(&f.as_str()) {
            super::io::usage(&format!(
                "--y {f}: not a figure of a {kind} run; its figures are {}",
                columns.join(", ")
            ));
        }
    }
    if let Some(k) = &a.x {
        if *k != params[0].key && !columns.contains(&k.as_str()) {
            super::io::usage(&format!(
                "--x {k}: give the first swept key ({}) or a column of the {kind} workload's \
                 points ({})",
                params[0].key,
                columns.join(", ")
            ));
        }
    }
}

/// The sweep's charts: `--y`, `--x`, and the measured curve of the reproduction the
/// scenario belongs to.
fn charts(a: &SweepArgs, combos: &[run::Combination]) -> SweepCharts {
    SweepCharts {
        figures: a.y.clone(),
        x: a.x.clone(),
        overlay: ethersim::study::sweep::measured_overlay(&scenario_name(combos)),
    }
}

/// Each warning of the combinations' scenarios, once.
fn warn_once<'c>(combos: impl IntoIterator<Item = &'c run::Combination>) {
    let mut warned = std::collections::BTreeSet::new();
    for c in combos {
        for w in &c.scenario.warnings {
            if warned.insert(w.clone()) {
                warning(w);
            }
        }
    }
}

/// Runs `ethersim sweep`.
pub fn run(a: SweepArgs, m: &ArgMatches) -> Result<()> {
    let params = sweep_params(&a, m)?;
    check_out_dir(&a.out)?;
    let base = overrides(&a.scenario.set)?;
    let (source, includes) = super::io::scenario_source(&a.scenario.scenario)?;
    if a.shard.any() {
        return study(&a, params, &base, &source, &includes);
    }
    let combos = run::plan_sweep_with(
        &source,
        &includes,
        &base,
        &params,
        a.scenario.seed,
        a.replications,
    )?;
    check_chart_args(&a, &params, combos.first());
    // the whole sweep's budget: every run was admitted alone; their sum must be too
    let runs = combos.len() * a.replications as usize;
    let total_s: f64 = combos
        .iter()
        .map(|c| c.scenario.workload.estimated_cpu_s(&c.scenario.medium))
        .sum::<f64>()
        * a.replications as f64;
    if total_s.is_nan() || total_s > a.max_cpu_hours * 3600.0 {
        bail!(
            "the sweep is refused as too long: {runs} runs estimated at {:.1} hours of CPU in \
             all (limit {} hours); raise the limit with --max-cpu-hours H, or sweep fewer \
             values, replications or stations",
            total_s / 3600.0,
            a.max_cpu_hours
        );
    }
    warn_once(&combos);

    // sweep.csv is written as the runs finish, straight into its staged file
    let mut staged = Staged::new(&a.out);
    let total = (combos.len() * a.replications as usize) as u64;
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(total), target);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} runs  {elapsed_precise} (eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let values: Vec<Vec<toml::Value>> = combos.iter().map(|c| c.values.clone()).collect();
    let mut files = SweepFiles::new(&params, &values, &mut staged, charts(&a, &combos))?;
    let mut unfinished: Vec<String> = Vec::new();
    run::run_sweep::<anyhow::Error>(&combos, a.replications, jobs(a.jobs), &|| bar.inc(1), &mut |r| {
        if let Some(why) = r.output.unfinished() {
            unfinished.push(unfinished_line(
                &params,
                &values[r.combination],
                r.output.seed,
                &why,
            ));
        }
        Ok(files.push(&r)?)
    })?;
    bar.finish_and_clear();
    let rep = files.finish(&scenario_name(&combos), &mut staged)?;
    let files = staged.commit()?;
    print(&rep.summary_table())?;
    // LANPERF's maximum-throughput experiments: name the maximum and where it is reached
    if combos
        .first()
        .is_some_and(|c| c.scenario.workload.kind() == "lanperf")
    {
        for line in rep.peaks(0.02) {
            print(&format!("{line}\n"))?;
        }
    }
    wrote(&files);
    if let Some(why) = unfinished_message(&unfinished, total as usize) {
        bail!(why);
    }
    Ok(())
}
