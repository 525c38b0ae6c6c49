//! A calibration's cross-validation as a study: run `k` is fold `k`, the fit to every
//! scenario but the `k`-th and its prediction of that one
//! ([`crate::calibrate::cross_validate_fold`], as `calibrate --cross-validate` runs it);
//! `finish` writes `cross_validation.csv` and `cross_validation.txt` (the table the
//! one-process command prints and puts in `calibration.txt`). The full fit is not a fold:
//! it is `ethersim calibrate FILE` on its own.

use std::sync::atomic::AtomicBool;

use super::fingerprint::{content_hash, Definition, Fingerprint};
use super::{result_of, to_result, Merged, Study, StudyError};
use crate::calibrate::report as out;
use crate::calibrate::{cross_validate_fold, Calibration, Fold};
use crate::report::atomic::Staged;

/// A calibration's folds, as indexed runs.
pub struct FoldsStudy {
    cal: Calibration,
    fingerprint: Fingerprint,
}

impl FoldsStudy {
    /// The folds of `cal` (refused with fewer than two scenarios).
    pub fn new(cal: Calibration) -> Result<Self, StudyError> {
        cal.check_cross_validation()?;
        let definition = Definition::CrossValidation {
            name: cal.name.clone(),
            held_out: cal.scenarios.iter().map(|s| s.name.clone()).collect(),
            keys: cal.parameters.iter().map(|p| p.key.clone()).collect(),
            seeds: cal.seeds.clone(),
            report_seeds: cal.report_seeds.clone(),
            max_evaluations: cal.max_evaluations,
            design_starts: cal.design_starts,
            design_seed: cal.design_seed,
        };
        let fingerprint = Fingerprint::new(
            definition,
            cal.overrides.iter().map(|o| o.arg.clone()).collect(),
            calibration_hash(&cal),
            cal.scenarios.len(),
        );
        Ok(FoldsStudy { cal, fingerprint })
    }
}

/// The hash of everything a calibration's folds read: the hardware file and every
/// scenario (by file name and text), the measured points, the constants and their
/// bounds, the objective and its bars, exactly (`Debug` prints floats exactly). No
/// path is in it.
fn calibration_hash(cal: &Calibration) -> String {
    let file = |p: &std::path::Path| {
        p.file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned())
    };
    let mut parts: Vec<(String, String)> = vec![(file(&cal.hardware.path), cal.hardware.text.clone())];
    parts.extend(
        cal.scenarios
            .iter()
            .map(|s| (file(&s.source.path), s.source.text.clone())),
    );
    parts.push(("measured".into(), format!("{:?}", cal.measured)));
    parts.push(("parameters".into(), format!("{:?}", cal.parameters)));
    parts.push((
        "objective".into(),
        format!(
            "{:?} {:?} {:?} {:?} {:?}",
            cal.objective, cal.point_bar, cal.line_bar, cal.figures, cal.key_column
        ),
    ));
    content_hash(parts.iter().map(|(n, t)| (n.as_str(), t.as_str())))
}

impl Study for FoldsStudy {
    fn fingerprint(&self) -> &Fingerprint {
        &self.fingerprint
    }

    fn describe(&self, index: usize) -> Vec<(String, String)> {
        vec![
            ("fold".into(), index.to_string()),
            ("held_out".into(), self.cal.scenarios[index].name.clone()),
        ]
    }

    fn run(&self, index: usize) -> Result<serde_json::Value, StudyError> {
        // a fold run is not stopped half-way: a signal ends the process, and no file is written
        let never = AtomicBool::new(false);
        let fold = cross_validate_fold(&self.cal, index, &never, &|_, _| {})?;
        to_result(index, &fold)
    }
}

/// Stages `cross_validation.csv` (columns of the fitted `keys`) and
/// `cross_validation.txt` from the folds, in fold order, and returns the table.
pub fn finish(
    keys: &[String],
    results: &[serde_json::Value],
    staged: &mut Staged,
) -> Result<Merged, StudyError> {
    let folds: Vec<Fold> = results
        .iter()
        .enumerate()
        .map(|(i, v)| result_of(i, v))
        .collect::<Result<_, _>>()?;
    let table = out::folds(&folds);
    staged.write("cross_validation.csv", out::folds_csv(&folds, keys)?.as_bytes())?;
    staged.write("cross_validation.txt", table.as_bytes())?;
    Ok(Merged {
        table,
        unfinished: None,
    })
}
