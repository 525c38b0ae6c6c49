//! Sweep results: the tidy table of every run, the per-combination summary with 95%
//! confidence intervals, and the chart of the headline figure.
//!
//! - `sweep.csv`: one row per run and workload point: the swept keys, `replication`,
//!   `seed`, `point`, the headline figure of the run (`headline_<name>`, repeated on each
//!   point of the run), then every point column.
//! - `sweep_summary.csv`: one row per combination: the swept keys, `runs`, the mean of the
//!   headline over the replications and the half-width of its 95% confidence interval
//!   (Student's t; empty with one replication).
//! - The chart: the headline against the first swept key, one line per combination of the
//!   other keys, with the confidence intervals as error bars.
//! - With [`SweepStream::with_figures`], the same for each further figure asked for (its
//!   mean over the run's points, per run): two more summary columns each
//!   (`<figure>_mean`, `<figure>_ci95`, after the headline's) and a chart each.
//!
//! [`SweepStream`] writes `sweep.csv` as the runs arrive and keeps only each combination's
//! summary, so a sweep's memory does not grow with its number of runs.

use super::csv::to_csv;
use super::figures;
use super::fmt_num;
use super::plot::{Chart, Series};
use super::units::align;
use super::units::Unit;
use super::ReportError;
use crate::run::output::{Headline, RunRecord, SweepParam, SweepRun};

/// A swept value as text: strings bare, a table as its `key=value` pairs (`kind` first),
/// everything else in TOML syntax.
pub fn value_text(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(f) => fmt_num(*f),
        toml::Value::Table(t) => {
            let mut pairs: Vec<(&String, &toml::Value)> = t.iter().collect();
            pairs.sort_by_key(|(k, _)| k.as_str() != "kind");
            pairs
                .iter()
                .map(|(k, v)| format!("{k}={}", value_text(v)))
                .collect::<Vec<_>>()
                .join(" ")
        }
        other => other.to_string(),
    }
}

/// Two-sided 95% quantile of Student's t with `df` degrees of freedom (rounded up to the
/// tabulated value of the next smaller df, so intervals err on the wide side).
pub fn t_975(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042,
    ];
    match df {
        0 => f64::NAN,
        1..=30 => T[df - 1],
        31..=40 => 2.042,
        41..=60 => 2.021,
        61..=120 => 2.000,
        121..=1000 => 1.980,
        _ => 1.960,
    }
}

/// Mean and 95% confidence half-width (`None` for fewer than two samples).
pub fn mean_ci95(xs: &[f64]) -> (f64, Option<f64>) {
    let n = xs.len();
    if n == 0 {
        return (f64::NAN, None);
    }
    let mean = xs.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return (mean, None);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    (mean, Some(t_975(n - 1) * (var / n as f64).sqrt()))
}

/// One combination's headline over its replications.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub values: Vec<toml::Value>,
    pub runs: usize,
    pub mean: f64,
    pub ci95: Option<f64>,
    /// The mean and 95% half-width of each further figure, in [`SweepSummary::figures`]
    /// order.
    pub extra: Vec<(f64, Option<f64>)>,
    /// With a point axis ([`SweepStream::with_point_axis`]): per point of the runs, its x
    /// (the axis column) and the headline's column, mean and 95% half-width over the
    /// replications.
    pub points: Vec<(f64, f64, Option<f64>)>,
}

/// A further figure of a sweep: its column, unit and axis title.
#[derive(Clone, Debug, PartialEq)]
pub struct Tracked {
    pub key: String,
    pub unit: Unit,
    pub label: String,
}

/// Writes `sweep.csv` as a sweep's runs arrive, in plan order, and keeps only what the
/// summary and the chart need: the headline of each replication of the combination being
/// received, and one [`Summary`] per finished combination. Nothing of a run outlives its
/// [`push`](SweepStream::push), so memory does not grow with the number of replications.
pub struct SweepStream<'a, W: std::io::Write> {
    params: &'a [SweepParam],
    /// The values of the swept keys of each combination, in plan order.
    combos: &'a [Vec<toml::Value>],
    csv: ::csv::Writer<W>,
    /// The headline's name, known from the first run.
    headline: Option<String>,
    /// The headline's unit and axis title ([`figures::headline`]), from the first run.
    headline_figure: Option<(Unit, String)>,
    /// Headlines of combination `summaries.len()`, the one being received.
    current: Vec<f64>,
    /// The further figures ([`SweepStream::with_figures`]).
    figures: Vec<String>,
    /// Per further figure, the values of the combination being received.
    current_extra: Vec<Vec<f64>>,
    /// The column of the runs' points that is the x of the per-point chart, if any.
    point_axis: Option<String>,
    /// `--x` as asked ([`SweepCharts::x`]), resolved against the first run's columns;
    /// `None`: no per-point chart unless [`SweepStream::with_point_axis`] set one.
    x_request: Option<Option<String>>,
    /// Per point of the combination being received: its x and the headline column's
    /// value of each replication.
    current_points: Vec<(f64, Vec<f64>)>,
    summaries: Vec<Summary>,
}

/// What the rows of one run are written from, borrowed from a [`SweepRun`] or a
/// [`RunRecord`].
struct RunView<'r> {
    seed: u64,
    workload: &'r str,
    columns: &'r [String],
    points: &'r [Vec<f64>],
    headline: &'r Headline,
}

fn encode(e: ::csv::Error) -> ReportError {
    ReportError::Encode(e.to_string())
}

impl<'a, W: std::io::Write> SweepStream<'a, W> {
    /// A sweep over `combos` of `params` whose `sweep.csv` is written to `out`.
    pub fn new(params: &'a [SweepParam], combos: &'a [Vec<toml::Value>], out: W) -> Self {
        SweepStream {
            params,
            combos,
            csv: ::csv::Writer::from_writer(out),
            headline: None,
            headline_figure: None,
            current: Vec::new(),
            figures: Vec::new(),
            current_extra: Vec::new(),
            point_axis: None,
            x_request: None,
            current_points: Vec::new(),
            summaries: Vec::with_capacity(combos.len()),
        }
    }

    /// Also keeps, per combination, the headline's column at each point of the runs
    /// against the point column `axis` (a PERFORM3 run's `block_size`): the chart of
    /// [`SweepSummary::point_chart`], one line per combination.
    pub fn with_point_axis(mut self, axis: &str) -> Self {
        self.point_axis = Some(axis.to_string());
        self
    }

    /// Also summarises and charts each of `figures` (columns of the workload's points;
    /// a run's value is its mean over its points). A figure that is not a column of the
    /// runs summarises as NaN: check the names before the sweep
    /// ([`crate::run::point_columns`]).
    pub fn with_figures(mut self, figures: &[String]) -> Self {
        self.figures = figures.to_vec();
        self.current_extra = vec![Vec::new(); figures.len()];
        self
    }

    fn write_header(&mut self, headline: &str, columns: &[String]) -> Result<(), ReportError> {
        let mut header: Vec<String> = self.params.iter().map(|p| p.key.clone()).collect();
        header.extend(["replication", "seed", "point"].map(String::from));
        header.push(format!("headline_{headline}"));
        header.extend(columns.iter().cloned());
        self.headline = Some(headline.to_string());
        self.csv.write_record(&header).map_err(encode)
    }

    /// Closes combinations until `combination` is the one being received.
    fn close_until(&mut self, combination: usize) {
        while self.summaries.len() < combination.min(self.combos.len()) {
            let xs = std::mem::take(&mut self.current);
            let (mean, ci95) = mean_ci95(&xs);
            let extra = self
                .current_extra
                .iter_mut()
                .map(|v| mean_ci95(&std::mem::take(v)))
                .collect();
            let points = std::mem::take(&mut self.current_points)
                .into_iter()
                .map(|(x, ys)| {
                    let (m, ci) = mean_ci95(&ys);
                    (x, m, ci)
                })
                .collect();
            self.summaries.push(Summary {
                values: self.combos[self.summaries.len()].clone(),
                runs: xs.len(),
                mean,
                ci95,
                extra,
                points,
            });
        }
    }

    /// Writes the rows of the next run in plan order (runs of one combination together,
    /// combinations in order; a run out of that order is a bug and panics).
    pub fn push(&mut self, run: &SweepRun) -> Result<(), ReportError> {
        let o = &run.output;
        self.push_view(
            run.combination,
            run.replication,
            RunView {
                seed: o.seed,
                workload: &o.workload,
                columns: &o.columns,
                points: &o.points,
                headline: &o.headline,
            },
        )
    }

    /// [`push`](Self::push) of a run kept as a [`RunRecord`] (a study's run file read back
    /// by `merge`): the same rows, byte for byte.
    pub fn push_record(
        &mut self,
        combination: usize,
        replication: u32,
        run: &RunRecord,
    ) -> Result<(), ReportError> {
        self.push_view(
            combination,
            replication,
            RunView {
                seed: run.seed,
                workload: &run.workload,
                columns: &run.columns,
                points: &run.points,
                headline: &run.headline,
            },
        )
    }

    fn push_view(&mut self, combination: usize, replication: u32, run: RunView) -> Result<(), ReportError> {
        assert!(
            combination >= self.summaries.len() && combination < self.combos.len(),
            "sweep run of combination {combination} out of plan order"
        );
        if self.headline.is_none() {
            if let Some(x) = self.x_request.take() {
                let has = |c: &str| run.columns.iter().any(|k| k == c);
                self.point_axis = match x {
                    Some(k) if has(&k) => Some(k),
                    Some(_) => None,
                    None if has("block_size") && run.points.len() > 1 => Some("block_size".into()),
                    None => None,
                };
            }
            self.write_header(&run.headline.name, run.columns)?;
            self.headline_figure = Some(figures::headline_of(
                run.workload,
                &run.headline.name,
                run.points.len(),
            ));
        }
        self.close_until(combination);
        let combo = &self.combos[combination];
        for (i, point) in run.points.iter().enumerate() {
            let mut row: Vec<String> = combo.iter().map(value_text).collect();
            row.push(replication.to_string());
            row.push(run.seed.to_string());
            row.push(i.to_string());
            row.push(fmt_num(run.headline.value));
            row.extend(point.iter().map(|v| fmt_num(*v)));
            self.csv.write_record(&row).map_err(encode)?;
        }
        self.current.push(run.headline.value);
        for (k, f) in self.figures.iter().enumerate() {
            let col = run.columns.iter().position(|c| c == f);
            let points = &run.points;
            let v = match col {
                Some(c) if !points.is_empty() => {
                    points.iter().map(|p| p[c]).sum::<f64>() / points.len() as f64
                }
                _ => f64::NAN,
            };
            self.current_extra[k].push(v);
        }
        if let Some(axis) = &self.point_axis {
            let col = |name: &str| run.columns.iter().position(|c| c == name);
            if let (Some(xc), Some(yc)) = (col(axis), col(&run.headline.name)) {
                for (i, p) in run.points.iter().enumerate() {
                    if self.current_points.len() <= i {
                        self.current_points.push((p[xc], Vec::new()));
                    }
                    self.current_points[i].1.push(p[yc]);
                }
            }
        }
        Ok(())
    }

    /// Finishes `sweep.csv` (flushed, returned with the writer) and summarises the sweep.
    pub fn finish(mut self) -> Result<(SweepSummary<'a>, W), ReportError> {
        if self.headline.is_none() {
            self.write_header("headline", &[])?;
        }
        self.close_until(self.combos.len());
        let headline = self.headline.take().unwrap_or_default();
        let (headline_unit, headline_label) = self
            .headline_figure
            .take()
            .unwrap_or_else(|| (Unit::Ratio(""), headline.clone()));
        let out = self
            .csv
            .into_inner()
            .map_err(|e| ReportError::Encode(e.to_string()))?;
        let figures = self
            .figures
            .iter()
            .map(|f| Tracked {
                key: f.clone(),
                unit: figures::unit(f),
                label: figures::figure(f).map_or_else(|| f.clone(), figures::Figure::label),
            })
            .collect();
        Ok((
            SweepSummary {
                params: self.params,
                summaries: self.summaries,
                headline,
                headline_unit,
                headline_label,
                figures,
            },
            out,
        ))
    }
}

/// What a sweep charts besides the headline against the first swept key.
#[derive(Clone, Debug, Default)]
pub struct SweepCharts {
    /// Further figures (`--y`): a summary column pair and a chart each.
    pub figures: Vec<String>,
    /// The x axis asked for (`--x`): a column of the runs' points, or the first swept key
    /// (the mean view); `None`: `block_size` when the runs have several block sizes.
    pub x: Option<String>,
    /// Measured points drawn over a chart against block size (a reproduction's curve).
    pub overlay: Vec<Series>,
}

/// The files of a sweep, staged together: `sweep.csv` written as the runs arrive (in plan
/// order), then `sweep_summary.csv` and the charts (`sweep.svg`, `sweep.png`; against
/// block size also `sweep-mean`; one `sweep-FIGURE` per further figure). The one path
/// from runs to files, for a sweep run in one process and for one merged from its runs'
/// files, so both give the same bytes.
pub struct SweepFiles<'a> {
    stream: SweepStream<'a, std::fs::File>,
    overlay: Vec<Series>,
}

impl<'a> SweepFiles<'a> {
    /// Starts the files of a sweep over `combos` of `params` in `staged`.
    pub fn new(
        params: &'a [SweepParam],
        combos: &'a [Vec<toml::Value>],
        staged: &mut super::atomic::Staged,
        charts: SweepCharts,
    ) -> Result<Self, ReportError> {
        let path = staged.path_for("sweep.csv")?;
        let file = std::fs::File::create(&path).map_err(|err| ReportError::Io { path, err })?;
        let mut stream = SweepStream::new(params, combos, file).with_figures(&charts.figures);
        stream.x_request = Some(charts.x);
        Ok(SweepFiles {
            stream,
            overlay: charts.overlay,
        })
    }

    /// Writes the next run in plan order ([`SweepStream::push`]).
    pub fn push(&mut self, run: &SweepRun) -> Result<(), ReportError> {
        self.stream.push(run)
    }

    /// Writes the next run, kept as a record ([`SweepStream::push_record`]).
    pub fn push_record(
        &mut self,
        combination: usize,
        replication: u32,
        run: &RunRecord,
    ) -> Result<(), ReportError> {
        self.stream.push_record(combination, replication, run)
    }

    /// Finishes `sweep.csv`, stages the summary and the charts (titled with the scenario's
    /// `name`) and returns the summary to print.
    pub fn finish(
        self,
        name: &str,
        staged: &mut super::atomic::Staged,
    ) -> Result<SweepSummary<'a>, ReportError> {
        let axis = self.stream.point_axis.clone();
        let (rep, _file) = self.stream.finish()?;
        let first = figures::param_label(&rep.params[0].key);
        let title = format!("{name}: {} against {first}", rep.headline_label);
        staged.write("sweep_summary.csv", rep.summary_csv()?.as_bytes())?;
        match &axis {
            Some(axis) => {
                // Figure 1 for a what-if: the headline's figure at each point, one line per
                // setting, the measured curve over it; the mean over the points beside it
                let y = figures::figure(&rep.headline).map_or(rep.headline.clone(), |f| f.label());
                let x = figures::figure(axis).map_or(axis.clone(), |f| f.label());
                let what = format!("{name}: {y} against {x}, one line per setting");
                let overlay = if axis == "block_size" {
                    self.overlay
                } else {
                    Vec::new()
                };
                super::plot::write_chart(&rep.point_chart(&what, &x, &y, overlay), staged, "sweep")?;
                super::plot::write_chart(&rep.chart(&title), staged, "sweep-mean")?;
            }
            None => super::plot::write_chart(&rep.chart(&title), staged, "sweep")?,
        }
        for (k, f) in rep.figures.iter().enumerate() {
            let title = format!("{name}: {} against {first}", f.label);
            super::plot::write_chart(&rep.figure_chart(k, &title), staged, &format!("sweep-{}", f.key))?;
        }
        Ok(rep)
    }
}

/// A finished sweep's per-combination summary, ready to export.
pub struct SweepSummary<'a> {
    pub params: &'a [SweepParam],
    /// One per combination, in plan order.
    pub summaries: Vec<Summary>,
    /// The name of the headline figure.
    pub headline: String,
    /// Its unit, which decides how the printed summary reads.
    pub headline_unit: Unit,
    /// Its axis title: name, unit and aggregation ([`figures::headline`]).
    pub headline_label: String,
    /// The further figures, in [`Summary::extra`] order.
    pub figures: Vec<Tracked>,
}

impl SweepSummary<'_> {
    /// The text of `sweep_summary.csv`.
    pub fn summary_csv(&self) -> Result<String, ReportError> {
        let mut header: Vec<String> = self.params.iter().map(|p| p.key.clone()).collect();
        let h = &self.headline;
        header.extend(["runs".to_string(), format!("{h}_mean"), format!("{h}_ci95")]);
        for f in &self.figures {
            header.extend([format!("{}_mean", f.key), format!("{}_ci95", f.key)]);
        }
        let rows: Vec<Vec<String>> = self
            .summaries
            .iter()
            .map(|s| {
                let mut row: Vec<String> = s.values.iter().map(value_text).collect();
                row.push(s.runs.to_string());
                row.push(fmt_num(s.mean));
                row.push(s.ci95.map_or(String::new(), fmt_num));
                for &(mean, ci95) in &s.extra {
                    row.push(fmt_num(mean));
                    row.push(ci95.map_or(String::new(), fmt_num));
                }
                row
            })
            .collect();
        to_csv(&header, &rows)
    }

    /// Per line of the chart (combination of the other keys), the highest headline and
    /// where the curve stops rising: the first value of the first key whose mean is
    /// within `within` (relative) of that highest (LANPERF's "maximum server throughput"
    /// and the station count that reaches it). Only when the first key is numeric.
    pub fn peaks(&self, within: f64) -> Vec<String> {
        let first = &self.params[0];
        if first.values.iter().any(|v| as_f64(v).is_none()) {
            return Vec::new();
        }
        let mut lines: Vec<(String, Vec<(f64, &toml::Value)>)> = Vec::new();
        for s in &self.summaries {
            let label = self.params[1..]
                .iter()
                .zip(&s.values[1..])
                .map(|(p, v)| format!("{}={}", p.key, value_text(v)))
                .collect::<Vec<_>>()
                .join(", ");
            match lines.iter_mut().find(|l| l.0 == label) {
                Some(l) => l.1.push((s.mean, &s.values[0])),
                None => lines.push((label, vec![(s.mean, &s.values[0])])),
            }
        }
        lines
            .iter()
            .filter_map(|(label, pts)| {
                let (max, at) = pts
                    .iter()
                    .copied()
                    .fold(None::<(f64, &toml::Value)>, |m, p| match m {
                        Some(m) if m.0 >= p.0 => Some(m),
                        _ => Some(p),
                    })?;
                let reached = pts.iter().find(|p| p.0 >= max * (1.0 - within))?.1;
                let of = if label.is_empty() {
                    String::new()
                } else {
                    format!(" ({label})")
                };
                let unit = self.headline_unit;
                Some(format!(
                    "highest {}{of}: {} {} at {} = {}; within {}% of it from {} = {}",
                    self.headline,
                    unit.number(max),
                    unit.symbol(max),
                    first.key,
                    value_text(at),
                    within * 100.0,
                    first.key,
                    value_text(reached)
                ))
            })
            .collect()
    }

    /// The printed summary: a line naming the figure, then one row per combination with
    /// the swept values, the runs, the mean and the half-width of its 95% confidence
    /// interval in the same format (`-` for one replication).
    pub fn summary_table(&self) -> String {
        let mut out = self.table_of(self.headline_unit, &self.headline_label, &|s| (s.mean, s.ci95));
        for (k, f) in self.figures.iter().enumerate() {
            out.push('\n');
            out.push_str(&self.table_of(f.unit, &f.label, &|s| s.extra[k]));
        }
        out
    }

    /// The printed summary of one figure, picked from each combination by `pick`.
    fn table_of(&self, unit: Unit, label: &str, pick: &dyn Fn(&Summary) -> (f64, Option<f64>)) -> String {
        let both: Vec<f64> = self
            .summaries
            .iter()
            .flat_map(|s| {
                let (mean, ci) = pick(s);
                [mean, ci.unwrap_or(f64::NAN)]
            })
            .collect();
        let (sym, cells) = unit.column(&both);
        let sym = if unit.is_percentage() { String::new() } else { sym };
        let with = |h: &str| {
            if sym.is_empty() {
                h.to_string()
            } else {
                format!("{h} {sym}")
            }
        };
        let mut rows = vec![self
            .params
            .iter()
            .map(|p| p.key.clone())
            .chain(["runs".into(), with("mean"), with("95% CI ±")])
            .collect::<Vec<String>>()];
        for (s, pair) in self.summaries.iter().zip(cells.chunks(2)) {
            let mut row: Vec<String> = s.values.iter().map(value_text).collect();
            row.extend([s.runs.to_string(), pair[0].clone(), pair[1].clone()]);
            rows.push(row);
        }
        let many = self.summaries.iter().any(|s| s.runs > 1);
        let mut out = format!(
            "{}{}\n",
            label,
            if many {
                "; mean over the replications and the half-width of its 95% confidence interval \
                 (Student's t)"
            } else {
                ""
            }
        );
        out = super::explain::wrap(&out);
        out.push_str(&align(&rows));
        out
    }

    /// The chart of the headline against the first swept key.
    pub fn chart(&self, title: &str) -> Chart {
        self.chart_of(title, &self.headline_label, &|s| (s.mean, s.ci95))
    }

    /// The chart of the headline's column at each point against the point axis, one line
    /// per combination of the swept keys (Figure 1 for a what-if), with `overlay` (a
    /// measured curve) drawn over it.
    pub fn point_chart(&self, title: &str, x_label: &str, y_label: &str, overlay: Vec<Series>) -> Chart {
        let mut series: Vec<Series> = Vec::new();
        for s in &self.summaries {
            let label = self
                .params
                .iter()
                .zip(&s.values)
                .map(|(p, v)| format!("{} = {}", figures::param_label(&p.key), value_text(v)))
                .collect::<Vec<_>>()
                .join(", ");
            let mut line = Series::line(&label, series.len());
            let mut pts: Vec<_> = s
                .points
                .iter()
                .map(|&(x, m, ci)| (x, m, ci.map(|h| (m - h, m + h))))
                .collect();
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            line.points = pts;
            series.push(line);
        }
        let n = series.len();
        for (k, mut o) in overlay.into_iter().enumerate() {
            o.colour = n + k;
            series.push(o);
        }
        Chart {
            title: title.to_string(),
            x_label: x_label.to_string(),
            y_label: y_label.to_string(),
            x_categories: None,
            series,
            ceiling: None,
            y_top: None,
            diagonal: None,
        }
    }

    /// The chart of further figure `k` ([`SweepSummary::figures`]) against the first swept
    /// key.
    pub fn figure_chart(&self, k: usize, title: &str) -> Chart {
        self.chart_of(title, &self.figures[k].label, &|s| s.extra[k])
    }

    /// The chart of the figure `pick` takes from each combination, labelled `y_label`.
    fn chart_of(&self, title: &str, y_label: &str, pick: &dyn Fn(&Summary) -> (f64, Option<f64>)) -> Chart {
        let first = &self.params[0];
        let numeric = first.values.iter().all(|v| as_f64(v).is_some());
        let x_of = |v: &toml::Value| -> f64 {
            if numeric {
                as_f64(v).unwrap_or(0.0)
            } else {
                first.values.iter().position(|w| w == v).unwrap_or(0) as f64
            }
        };
        let mut series: Vec<Series> = Vec::new();
        for s in &self.summaries {
            let label = self.params[1..]
                .iter()
                .zip(&s.values[1..])
                .map(|(p, v)| format!("{} = {}", figures::param_label(&p.key), value_text(v)))
                .collect::<Vec<_>>()
                .join(", ");
            let idx = match series.iter().position(|x| x.label == label) {
                Some(i) => i,
                None => {
                    // text settings are categories: points, not a line between them
                    let mut line = Series::line(&label, series.len());
                    if !numeric {
                        line.mark = super::plot::Mark::Markers;
                    }
                    series.push(line);
                    series.len() - 1
                }
            };
            let (mean, ci95) = pick(s);
            series[idx]
                .points
                .push((x_of(&s.values[0]), mean, ci95.map(|h| (mean - h, mean + h))));
        }
        if series.len() == 1 && series[0].label.is_empty() {
            series[0].label = y_label.to_string();
        }
        Chart {
            title: title.to_string(),
            x_label: figures::param_label(&first.key),
            y_label: y_label.to_string(),
            x_categories: (!numeric).then(|| first.values.iter().map(value_text).collect()),
            series,
            ceiling: None,
            y_top: None,
            diagonal: None,
        }
    }
}

fn as_f64(v: &toml::Value) -> Option<f64> {
    match v {
        toml::Value::Integer(i) => Some(*i as f64),
        toml::Value::Float(f) if f.is_finite() => Some(*f),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_peaks_name_the_maximum_and_where_the_curve_stops_rising() {
        let params = vec![SweepParam {
            key: "workload.stations".into(),
            values: (1..=5).map(toml::Value::Integer).collect(),
        }];
        let means = [266.0, 528.0, 698.0, 799.0, 815.0];
        let summaries = means
            .iter()
            .enumerate()
            .map(|(i, &mean)| Summary {
                values: vec![toml::Value::Integer(i as i64 + 1)],
                runs: 1,
                mean,
                ci95: None,
                extra: Vec::new(),
                points: Vec::new(),
            })
            .collect();
        let s = SweepSummary {
            params: &params,
            summaries,
            headline: "throughput_kbps".into(),
            headline_unit: Unit::KiloBytesPerSecond,
            headline_label: "Throughput".into(),
            figures: Vec::new(),
        };
        assert_eq!(
            s.peaks(0.02),
            vec!["highest throughput_kbps: 815.0 KB/s at workload.stations = 5; within 2% of it from workload.stations = 4".to_string()]
        );
    }

    #[test]
    fn test_mean_ci95_known_values() {
        let (m, ci) = mean_ci95(&[1.0, 2.0, 3.0]);
        assert_eq!(m, 2.0);
        // s = 1, n = 3: t(2) * 1/sqrt(3)
        assert!((ci.unwrap() - 4.303 / 3f64.sqrt()).abs() < 1e-12);
        assert_eq!(mean_ci95(&[5.0]), (5.0, None));
    }

    #[test]
    fn test_t_quantiles_decrease_to_normal() {
        let mut last = f64::INFINITY;
        for df in 1..2000 {
            let t = t_975(df);
            assert!(t <= last && t >= 1.96);
            last = t;
        }
    }
}
