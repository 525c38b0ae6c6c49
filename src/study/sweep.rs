//! A sweep as a study: run `k` is combination `k / replications` on the seed of its
//! replication `k % replications` ([`crate::run::sweep_run`], the run the one-process
//! sweep makes), its result the [`RunRecord`] that `sweep.csv` is written from; `finish`
//! writes `sweep.csv`, `sweep_summary.csv` and the chart through the same
//! [`SweepFiles`] as `ethersim sweep`.

use super::fingerprint::{content_hash, Definition, Fingerprint, SweptKey};
use super::{result_of, to_result, Merged, Study, StudyError};
use crate::report::atomic::Staged;
use crate::report::plot::{Mark, Series};
use crate::report::sweep::{value_text, SweepCharts, SweepFiles};
use crate::run::exact;
use crate::run::output::{RunRecord, SweepParam};
use crate::run::{self, Combination};

/// A planned sweep, as indexed runs.
pub struct SweepStudy {
    /// The combinations planned, by their index in the plan, in order: all of them to list
    /// the runs, or those a run needs (its own, and [`representatives`]).
    planned: Vec<(usize, Combination)>,
    params: Vec<SweepParam>,
    replications: u32,
    fingerprint: Fingerprint,
}

impl SweepStudy {
    /// The sweep of `params`, each combination replicated `replications` times, with the
    /// combinations of `planned` validated (by their index in the plan; at least
    /// [`representatives`]). `seed` is `--seed`, `overrides` the `--set` arguments
    /// (`KEY=VALUE`), `texts` the name and text of the scenario and of every file the
    /// representatives include.
    pub fn new(
        mut planned: Vec<(usize, Combination)>,
        params: Vec<SweepParam>,
        replications: u32,
        seed: Option<u64>,
        overrides: &[String],
        texts: &[(String, String)],
        charts: (&[String], Option<&str>),
    ) -> Self {
        planned.sort_by_key(|(i, _)| *i);
        planned.dedup_by_key(|(i, _)| *i);
        let replications = replications.max(1);
        let scenario = planned
            .first()
            .filter(|(i, _)| *i == 0)
            .map_or("scenario".into(), |(_, c)| c.scenario.name.clone());
        let definition = Definition::Sweep {
            scenario,
            params: params
                .iter()
                .map(|p| SweptKey {
                    key: p.key.clone(),
                    values: p.values.iter().map(exact::toml_text).collect(),
                })
                .collect(),
            replications,
            seed,
            figures: charts.0.to_vec(),
            x: charts.1.map(str::to_string),
        };
        let hash = content_hash(texts.iter().map(|(n, t)| (n.as_str(), t.as_str())));
        let runs = run::combination_count(&params).saturating_mul(replications as usize);
        SweepStudy {
            fingerprint: Fingerprint::new(definition, overrides.to_vec(), hash, runs),
            planned,
            params,
            replications,
        }
    }

    /// Combination `c`, if planned.
    fn combination(&self, c: usize) -> Option<&Combination> {
        self.planned
            .binary_search_by_key(&c, |(i, _)| *i)
            .ok()
            .map(|k| &self.planned[k].1)
    }
}

/// The combinations whose includes stand for every combination's: the first, and for a
/// swept `hardware` each of its values with the other keys at their first value (the
/// include is the one of the `hardware` key, the same in every combination unless it is
/// swept). In plan order, so the files come in the order the whole plan first uses them.
pub fn representatives(params: &[SweepParam]) -> Vec<usize> {
    let mut v = vec![0];
    let mut stride = 1usize;
    for p in params.iter().rev() {
        if p.key == "hardware" {
            v.extend((1..p.values.len()).map(|j| j * stride));
        }
        stride = stride.saturating_mul(p.values.len());
    }
    v.sort_unstable();
    v
}

/// The name a sweep's chart is titled with: its scenario's.
pub fn scenario_name(combos: &[Combination]) -> String {
    combos
        .first()
        .map_or("scenario".into(), |c| c.scenario.name.clone())
}

/// The measured curve of the reproduction a scenario named `name` belongs to, drawn over a
/// sweep's chart against block size: Table 1 of the bulletin for its four configurations
/// (nothing for any other scenario).
pub fn measured_overlay(name: &str) -> Vec<Series> {
    use crate::repro::bulletin;
    if !bulletin::CONFIGS.contains(&name) {
        return Vec::new();
    }
    let mut s = Series {
        mark: Mark::Markers,
        ..Series::line(
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

/// How the one-process sweep names a run that did not do its work.
pub fn unfinished_line(params: &[SweepParam], values: &[toml::Value], seed: u64, why: &str) -> String {
    let at: Vec<String> = params
        .iter()
        .zip(values)
        .map(|(p, v)| format!("{}={v}", p.key))
        .collect();
    format!("{} seed {seed}: {why}", at.join(" "))
}

/// The failure of a sweep with `unfinished` runs out of `total`.
pub fn unfinished_message(unfinished: &[String], total: usize) -> Option<String> {
    (!unfinished.is_empty()).then(|| {
        format!(
            "{} of {total} runs did not finish (their figures are NaN):\n  {}",
            unfinished.len(),
            unfinished.join("\n  ")
        )
    })
}

impl Study for SweepStudy {
    fn fingerprint(&self) -> &Fingerprint {
        &self.fingerprint
    }

    fn describe(&self, index: usize) -> Vec<(String, String)> {
        let reps = self.replications as usize;
        let Some(c) = self.combination(index / reps) else {
            return Vec::new();
        };
        let rep = (index % reps) as u32;
        let mut v: Vec<(String, String)> = self
            .params
            .iter()
            .zip(&c.values)
            .map(|(p, x)| (p.key.clone(), value_text(x)))
            .collect();
        v.push(("replication".into(), rep.to_string()));
        v.push((
            "seed".into(),
            run::replication_seed(c.scenario.seed, rep).to_string(),
        ));
        v
    }

    fn run(&self, index: usize) -> Result<serde_json::Value, StudyError> {
        let reps = self.replications as usize;
        let c = self
            .combination(index / reps)
            .ok_or_else(|| StudyError::BadResult {
                index,
                message: "its combination was not planned".into(),
            })?;
        let out = run::sweep_run(std::slice::from_ref(c), self.replications, index % reps);
        to_result(index, &out.record())
    }
}

/// Stages the sweep's files from its runs' records, in run order.
pub fn finish(
    fp: &Fingerprint,
    results: &[serde_json::Value],
    staged: &mut Staged,
) -> Result<Merged, StudyError> {
    let Definition::Sweep {
        scenario,
        params,
        replications,
        figures,
        x,
        ..
    } = &fp.definition
    else {
        unreachable!("sweep::finish is called with a sweep's fingerprint");
    };
    let params: Vec<SweepParam> = params
        .iter()
        .map(|k| {
            let values = k
                .values
                .iter()
                .map(|t| exact::parse_toml(t))
                .collect::<Result<_, _>>()
                .map_err(|message| StudyError::BadResult { index: 0, message })?;
            Ok(SweepParam {
                key: k.key.clone(),
                values,
            })
        })
        .collect::<Result<_, StudyError>>()?;
    let reps = (*replications).max(1) as usize;
    let combos = run::combination_count(&params);
    if combos.checked_mul(reps) != Some(results.len()) {
        return Err(StudyError::Refused(format!(
            "the study's definition makes {} runs, its fingerprint says {}",
            combos.saturating_mul(reps),
            results.len()
        )));
    }
    let values: Vec<Vec<toml::Value>> = (0..combos).map(|i| run::combination_values(&params, i)).collect();
    let charts = SweepCharts {
        figures: figures.clone(),
        x: x.clone(),
        overlay: measured_overlay(scenario),
    };
    let mut files = SweepFiles::new(&params, &values, staged, charts)?;
    let mut unfinished = Vec::new();
    let mut lanperf = false;
    for (k, v) in results.iter().enumerate() {
        let record: RunRecord = result_of(k, v)?;
        if let Some(why) = &record.unfinished {
            unfinished.push(unfinished_line(&params, &values[k / reps], record.seed, why));
        }
        // as `ethersim sweep`: the peaks of a sweep whose first run is LANPERF's
        lanperf |= k == 0 && record.workload == "lanperf";
        files.push_record(k / reps, (k % reps) as u32, &record)?;
    }
    let rep = files.finish(scenario, staged)?;
    let mut table = rep.summary_table();
    if lanperf {
        for line in rep.peaks(0.02) {
            table += &format!("{line}\n");
        }
    }
    Ok(Merged {
        table,
        unfinished: unfinished_message(&unfinished, results.len()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(key: &str, n: i64) -> SweepParam {
        SweepParam {
            key: key.into(),
            values: (0..n).map(toml::Value::Integer).collect(),
        }
    }

    #[test]
    fn test_representatives_are_the_first_and_each_swept_include() {
        assert_eq!(representatives(&[p("workload.stations", 4)]), vec![0]);
        // hardware in the middle: stride 2 (the last key's 2 values)
        let params = [p("a", 3), p("hardware", 3), p("b", 2)];
        let reps = representatives(&params);
        assert_eq!(reps, vec![0, 2, 4]);
        for (j, &i) in reps.iter().enumerate() {
            let v = run::combination_values(&params, i);
            assert_eq!(
                v,
                vec![
                    toml::Value::Integer(0),
                    toml::Value::Integer(j as i64),
                    toml::Value::Integer(0)
                ]
            );
        }
    }
}
