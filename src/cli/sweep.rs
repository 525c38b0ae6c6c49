//! `ethersim sweep SCENARIO --param KEY --values ...`: the cross product of the swept
//! keys, each combination replicated, run on `--jobs` threads; `sweep.csv` is written as
//! the runs finish (into its staged file), then the summary and the chart. Runs that did
//! not do their work (a ttcp transfer that did not finish) are named with their values
//! and seed after the files are written, and fail the command.

use std::io::IsTerminal;

use anyhow::{bail, Result};
use clap::ArgMatches;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::args::SweepArgs;
use super::io::{check_out_dir, jobs, overrides, print, warning, wrote};
use ethersim::report::atomic::Staged;
use ethersim::report::sweep::SweepStream;
use ethersim::report::{figures, plot, ReportError};
use ethersim::run;
use ethersim::run::output::SweepParam;
use ethersim::scenario::{self, Override};

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

/// The column of the runs' points the chart puts on x ([`SweepArgs::x`]), or `None` for
/// the mean over the points against the first swept key.
fn point_axis(a: &SweepArgs, params: &[SweepParam], combos: &[run::Combination]) -> Result<Option<String>> {
    let Some(first) = combos.first() else {
        return Ok(None);
    };
    let columns = run::point_columns(&first.scenario);
    let several = combos
        .iter()
        .any(|c| run::point_keys(&c.scenario, "block_size").is_ok_and(|k| k.len() > 1));
    match &a.x {
        None if several && columns.contains(&"block_size") => Ok(Some("block_size".into())),
        None => Ok(None),
        Some(k) if *k == params[0].key => Ok(None),
        Some(k) if columns.contains(&k.as_str()) => Ok(Some(k.clone())),
        Some(k) => super::io::usage(&format!(
            "--x {k}: give the first swept key ({}) or a column of the {} workload's points ({})",
            params[0].key,
            first.scenario.workload.kind(),
            columns.join(", ")
        )),
    }
}

/// The measured curve of the reproduction a scenario belongs to, for a chart against
/// block size: Table 1 of the bulletin for its four configurations.
fn measured_overlay(name: &str, axis: &str, workload: &str) -> Vec<plot::Series> {
    use ethersim::repro::bulletin;
    if axis != "block_size" || workload != "perform3" || !bulletin::CONFIGS.contains(&name) {
        return Vec::new();
    }
    let mut s = plot::Series {
        mark: plot::Mark::Markers,
        ..plot::Series::line(
            &format!("measured: {} (bulletin, Table 1)", bulletin::config_label(name)),
            0,
        )
    };
    for (config, block, kbps) in bulletin::table1() {
        if config == name {
            s.points.push((block as f64, kbps, None));
        }
    }
    vec![s]
}

/// Runs `ethersim sweep`.
pub fn run(a: SweepArgs, m: &ArgMatches) -> Result<()> {
    let params = sweep_params(&a, m)?;
    check_out_dir(&a.out)?;
    let base = overrides(&a.scenario.set)?;
    let (source, includes) = super::io::scenario_source(&a.scenario.scenario)?;
    let combos = run::plan_sweep_with(
        &source,
        &includes,
        &base,
        &params,
        a.scenario.seed,
        a.replications,
    )?;
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
    if let Some(c) = combos.first() {
        let columns = run::point_columns(&c.scenario);
        for f in &a.y {
            if !columns.contains(&f.as_str()) {
                super::io::usage(&format!(
                    "--y {f}: not a figure of a {} run; its figures are {}",
                    c.scenario.workload.kind(),
                    columns.join(", ")
                ));
            }
        }
    }
    let point_axis = point_axis(&a, &params, &combos)?;
    let mut warned = std::collections::BTreeSet::new();
    for c in &combos {
        for w in &c.scenario.warnings {
            if warned.insert(w.clone()) {
                warning(w);
            }
        }
    }

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
    let csv_path = staged.path_for("sweep.csv")?;
    let csv_file = std::fs::File::create(&csv_path).map_err(|err| ReportError::Io {
        path: csv_path.clone(),
        err,
    })?;
    let mut stream = SweepStream::new(&params, &values, csv_file).with_figures(&a.y);
    if let Some(axis) = &point_axis {
        stream = stream.with_point_axis(axis);
    }
    let mut unfinished: Vec<String> = Vec::new();
    run::run_sweep::<anyhow::Error>(&combos, a.replications, jobs(a.jobs), &|| bar.inc(1), &mut |r| {
        if let Some(why) = r.output.unfinished() {
            let at: Vec<String> = params
                .iter()
                .zip(&values[r.combination])
                .map(|(p, v)| format!("{}={v}", p.key))
                .collect();
            unfinished.push(format!("{} seed {}: {why}", at.join(" "), r.output.seed));
        }
        Ok(stream.push(&r)?)
    })?;
    bar.finish_and_clear();
    let (rep, _csv_file) = stream.finish()?;

    let name = combos
        .first()
        .map_or("scenario".into(), |c| c.scenario.name.clone());
    let title = format!(
        "{name}: {} against {}",
        rep.headline_label,
        figures::param_label(&params[0].key)
    );
    staged.write("sweep_summary.csv", rep.summary_csv()?.as_bytes())?;
    match &point_axis {
        Some(axis) => {
            // Figure 1 for a what-if: the headline's figure at each point, one line per
            // setting, the measured curve over it; the mean over the points beside it
            let column = combos
                .first()
                .map_or(String::new(), |c| c.scenario.workload.kind().to_string());
            let y = figures::figure(&rep.headline).map_or(rep.headline.clone(), |f| f.label());
            let x = figures::figure(axis).map_or(axis.clone(), |f| f.label());
            let what = format!("{name}: {y} against {x}, one line per setting");
            let overlay = measured_overlay(&name, axis, &column);
            plot::write_chart(&rep.point_chart(&what, &x, &y, overlay), &mut staged, "sweep")?;
            plot::write_chart(&rep.chart(&title), &mut staged, "sweep-mean")?;
        }
        None => plot::write_chart(&rep.chart(&title), &mut staged, "sweep")?,
    }
    for (k, f) in rep.figures.iter().enumerate() {
        let title = format!(
            "{name}: {} against {}",
            f.label,
            figures::param_label(&params[0].key)
        );
        plot::write_chart(
            &rep.figure_chart(k, &title),
            &mut staged,
            &format!("sweep-{}", f.key),
        )?;
    }
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
    if !unfinished.is_empty() {
        bail!(
            "{} of {total} runs did not finish (their figures are NaN):\n  {}",
            unfinished.len(),
            unfinished.join("\n  ")
        );
    }
    Ok(())
}
