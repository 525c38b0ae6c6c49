//! Gathering a study's run files for `ethersim merge DIR`: every run present, every run
//! of one study, no run twice, every file whole, or a refusal that names each run that
//! is not.
//!
//! The study is the fingerprint most of the files in `DIR/runs/` share (on a tie, that of
//! the first file by name). Files whose names start with a dot (the temporaries of a
//! write in progress or of a killed one) and files not ending in `.json` are not runs and
//! are passed over. Nothing is written here: the caller writes the study's files only
//! when [`collect`] succeeds.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use super::fingerprint::{Fingerprint, VERSION};
use super::runfile::{self, RunFile, Unusable, RUNS_DIR};
use super::StudyError;

/// The runs of one study, complete and in run order.
#[derive(Debug)]
pub struct Collected {
    pub fingerprint: Fingerprint,
    /// Run `i`'s result at `i`.
    pub results: Vec<serde_json::Value>,
}

/// `3, 5-7, 9`: sorted indices with runs of consecutive ones joined.
pub fn ranges(indices: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < indices.len() {
        let start = indices[i];
        let mut end = start;
        while i + 1 < indices.len() && indices[i + 1] == end + 1 {
            i += 1;
            end = indices[i];
        }
        parts.push(if end == start {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    parts.join(", ")
}

/// Reads `dir/runs/` and checks it holds every run of one study, once, each whole.
pub fn collect(dir: &Path) -> Result<Collected, StudyError> {
    let runs_dir = dir.join(RUNS_DIR);
    let entries = std::fs::read_dir(&runs_dir).map_err(|err| StudyError::Io {
        path: runs_dir.clone(),
        err,
    })?;
    let mut names: Vec<String> = Vec::new();
    for e in entries {
        let e = e.map_err(|err| StudyError::Io {
            path: runs_dir.clone(),
            err,
        })?;
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || !name.ends_with(".json") || e.path().is_dir() {
            continue;
        }
        names.push(name);
    }
    names.sort();
    if names.is_empty() {
        return Err(StudyError::Refused(format!(
            "{} holds no run files (run-NNNNN.json); run the study's runs with --run-index first",
            runs_dir.display()
        )));
    }
    let shown = |name: &str| format!("{RUNS_DIR}/{name}");

    let mut damaged: Vec<String> = Vec::new();
    let mut parsed: Vec<(String, RunFile)> = Vec::new();
    for name in &names {
        let path = runs_dir.join(name);
        match runfile::read(&path).map_err(|err| StudyError::Io { path, err })? {
            Ok(f) => parsed.push((name.clone(), f)),
            Err(Unusable::Damaged(why)) => damaged.push(format!("{} ({why})", shown(name))),
            Err(Unusable::Tampered) => damaged.push(format!(
                "{} (its fingerprint does not match its digest: edited by hand?)",
                shown(name)
            )),
        }
    }

    // the study: the fingerprint most files share, the first file's on a tie
    let mut count: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (pos, (_, f)) in parsed.iter().enumerate() {
        count.entry(f.study.as_str()).or_insert((0, pos)).0 += 1;
    }
    let Some((&study, _)) = count
        .iter()
        .max_by(|a, b| a.1 .0.cmp(&b.1 .0).then(b.1 .1.cmp(&a.1 .1)))
    else {
        return Err(StudyError::Refused(format!(
            "nothing is merged: no run file in {} reads whole:\n  truncated or unreadable: {}",
            runs_dir.display(),
            damaged.join("; ")
        )));
    };
    let reference = parsed
        .iter()
        .find(|(_, f)| f.study == study)
        .map(|(_, f)| f.fingerprint.clone())
        .expect("the study is some file's");

    let mut foreign: Vec<String> = Vec::new();
    let mut by_index: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
    let mut misplaced: Vec<String> = Vec::new();
    for (name, f) in &parsed {
        if f.study != study {
            foreign.push(format!(
                "{} (run {}; differs in {})",
                shown(name),
                f.index,
                reference.differences(&f.fingerprint).join(", ")
            ));
        } else if f.index >= reference.runs {
            misplaced.push(format!(
                "{} claims run {} of a study of {} runs",
                shown(name),
                f.index,
                reference.runs
            ));
        } else {
            by_index.entry(f.index).or_default().push(name);
        }
    }
    let mut duplicated: Vec<String> = Vec::new();
    for (index, files) in &by_index {
        if files.len() > 1 {
            let files: Vec<String> = files.iter().map(|n| shown(n)).collect();
            duplicated.push(format!("run {index} in {}", files.join(" and ")));
        } else if runfile::index_of_name(files[0]) != Some(*index) {
            misplaced.push(format!("{} holds run {index}", shown(files[0])));
        }
    }
    // a run whose file is there but damaged is named once, as damaged
    let damaged_at: Vec<usize> = names
        .iter()
        .filter(|n| !parsed.iter().any(|(p, _)| p == *n))
        .filter_map(|n| runfile::index_of_name(n))
        .collect();
    let missing: Vec<usize> = (0..reference.runs)
        .filter(|i| !by_index.contains_key(i) && !damaged_at.contains(i))
        .collect();

    let mut why = String::new();
    if !missing.is_empty() {
        let _ = write!(
            why,
            "\n  missing: run{} {} of 0..{} (no file; run {} with --run-index)",
            if missing.len() == 1 { "" } else { "s" },
            ranges(&missing),
            reference.runs - 1,
            if missing.len() == 1 { "it" } else { "them" }
        );
    }
    for f in &foreign {
        let _ = write!(why, "\n  from another study: {f}");
    }
    for d in &duplicated {
        let _ = write!(why, "\n  duplicated: {d}");
    }
    for m in &misplaced {
        let _ = write!(why, "\n  misnamed: {m}");
    }
    for d in &damaged {
        let _ = write!(why, "\n  truncated or unreadable: {d}");
    }
    if !why.is_empty() {
        return Err(StudyError::Refused(format!(
            "nothing is merged: the runs in {} are not one complete study of {} runs:{why}",
            runs_dir.display(),
            reference.runs
        )));
    }
    if reference.ethersim != VERSION {
        return Err(StudyError::Refused(format!(
            "nothing is merged: the runs in {} were made by ethersim {}, this is {VERSION}; merge them with the version that ran them",
            runs_dir.display(),
            reference.ethersim
        )));
    }
    let mut results = Vec::with_capacity(reference.runs);
    let mut files: BTreeMap<usize, serde_json::Value> =
        parsed.into_iter().map(|(_, f)| (f.index, f.result)).collect();
    for i in 0..reference.runs {
        results.push(files.remove(&i).expect("every run is present"));
    }
    Ok(Collected {
        fingerprint: reference,
        results,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_ranges_join_consecutive_indices() {
        assert_eq!(ranges(&[3]), "3");
        assert_eq!(ranges(&[0, 1, 2, 5, 7, 8]), "0-2, 5, 7-8");
        assert_eq!(ranges(&[]), "");
    }
}
