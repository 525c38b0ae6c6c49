//! One run's result on disk: `OUT/runs/run-NNNNN.json`, written whole or not at all.
//!
//! A run file is one JSON object: the format tag [`FORMAT`], the study's [`Fingerprint`]
//! and its digest (the study id), the run's index and its result (floats as exact text).
//! It is written through [`StreamFile`]: a hidden temporary file in `OUT/runs/`, synced
//! and renamed into place, so a process killed at any moment leaves either no file or a
//! complete one; the temporary a killed process leaves (`.run-NNNNN.json.ethersim-tmp-*`)
//! is removed by the next run that writes there and is never read as a run.
//!
//! A file is *complete* for a study when it parses whole, its format is [`FORMAT`], its
//! digest is its fingerprint's and the study's, and its index is the one its name says.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::fingerprint::Fingerprint;
use super::StudyError;
use crate::report::stream_file::StreamFile;

/// The format tag of a run file.
pub const FORMAT: &str = "ethersim-run-1";

/// The folder under the study's `--out` that holds its run files.
pub const RUNS_DIR: &str = "runs";

/// A run file's content.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunFile {
    pub format: String,
    /// [`Fingerprint::digest`] of `fingerprint`.
    pub study: String,
    pub fingerprint: Fingerprint,
    pub index: usize,
    /// The run's result, as the study's kind writes it.
    pub result: serde_json::Value,
}

/// The run file of run `index` of a study written to `out`.
pub fn path(out: &Path, index: usize) -> PathBuf {
    out.join(RUNS_DIR).join(file_name(index))
}

/// `run-00007.json`: five digits at least, so names sort in run order.
pub fn file_name(index: usize) -> String {
    format!("run-{index:05}.json")
}

/// The index a run file's name gives (`run-00007.json` -> 7).
pub fn index_of_name(name: &str) -> Option<usize> {
    let digits = name.strip_prefix("run-")?.strip_suffix(".json")?;
    if digits.len() < 5 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Why a run file cannot be used.
#[derive(Debug, Clone, PartialEq)]
pub enum Unusable {
    /// It does not parse whole (cut short, or not a run file).
    Damaged(String),
    /// It parses, but its digest is not its fingerprint's.
    Tampered,
}

/// Reads and checks the run file at `path`: parsed whole, of [`FORMAT`], its digest its
/// fingerprint's.
pub fn read(path: &Path) -> Result<Result<RunFile, Unusable>, std::io::Error> {
    let bytes = std::fs::read(path)?;
    let f: RunFile = match serde_json::from_slice(&bytes) {
        Ok(f) => f,
        Err(e) => return Ok(Err(Unusable::Damaged(e.to_string()))),
    };
    if f.format != FORMAT {
        return Ok(Err(Unusable::Damaged(format!(
            "format {:?}, not {FORMAT:?}",
            f.format
        ))));
    }
    if f.study != f.fingerprint.digest() {
        return Ok(Err(Unusable::Tampered));
    }
    Ok(Ok(f))
}

/// Writes run `index`'s `result` for the study `fingerprint` under `out`, atomically;
/// returns its path.
pub fn write(
    out: &Path,
    fingerprint: &Fingerprint,
    index: usize,
    result: serde_json::Value,
) -> Result<PathBuf, StudyError> {
    let dest = path(out, index);
    let dir = out.join(RUNS_DIR);
    std::fs::create_dir_all(&dir).map_err(|err| StudyError::Io { path: dir, err })?;
    let file = RunFile {
        format: FORMAT.to_string(),
        study: fingerprint.digest(),
        fingerprint: fingerprint.clone(),
        index,
        result,
    };
    let mut bytes = serde_json::to_vec_pretty(&file).map_err(|e| StudyError::Encode(e.to_string()))?;
    bytes.push(b'\n');
    let mut f = StreamFile::create(&dest)?;
    std::io::Write::write_all(f.writer(), &bytes).map_err(|err| StudyError::Io {
        path: dest.clone(),
        err,
    })?;
    Ok(f.commit()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::fingerprint::Definition;

    fn study() -> Fingerprint {
        Fingerprint::new(
            Definition::Reproduce {
                name: "bulletin".into(),
            },
            vec![],
            "00".into(),
            3,
        )
    }

    #[test]
    fn test_names_carry_the_index_in_order() {
        assert_eq!(file_name(7), "run-00007.json");
        assert_eq!(file_name(123_456), "run-123456.json");
        assert_eq!(index_of_name("run-00007.json"), Some(7));
        assert_eq!(index_of_name("run-123456.json"), Some(123_456));
        for bad in [
            "run-7.json",
            "run-0000x.json",
            ".run-00007.json.ethersim-tmp-1-0",
            "run-00007.json.bak",
        ] {
            assert_eq!(index_of_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn test_written_file_reads_back_and_a_cut_one_is_damaged() {
        let d = tempfile::tempdir().unwrap();
        let p = write(d.path(), &study(), 2, serde_json::json!({"x": "0.1"})).unwrap();
        assert_eq!(p, path(d.path(), 2));
        let f = read(&p).unwrap().unwrap();
        assert_eq!((f.index, f.fingerprint), (2, study()));
        // nothing but the file in runs/: no temporary left
        assert_eq!(std::fs::read_dir(d.path().join(RUNS_DIR)).unwrap().count(), 1);
        let bytes = std::fs::read(&p).unwrap();
        std::fs::write(&p, &bytes[..bytes.len() / 2]).unwrap();
        assert!(matches!(read(&p).unwrap(), Err(Unusable::Damaged(_))));
        // a fingerprint edited by hand no longer matches its digest
        let edited = String::from_utf8(bytes).unwrap().replace("bulletin", "ttcp1995");
        std::fs::write(&p, edited).unwrap();
        assert_eq!(read(&p).unwrap(), Err(Unusable::Tampered));
    }
}
