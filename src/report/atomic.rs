//! All-or-nothing output: files are staged under temporary names in their final directory
//! and renamed into place by [`Staged::commit`].
//!
//! Invariants: until `commit`, no final file name is touched; if the staging is dropped
//! without a commit (an error, a panic), every temporary file is removed, and so is the
//! output directory if this staging created it and it is empty. A rename within one
//! directory is atomic on POSIX file systems, so a reader sees either the old file or the
//! complete new one.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::ReportError;

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A set of files being written to one directory.
pub struct Staged {
    dir: PathBuf,
    created_dir: bool,
    /// (temporary path, final path), in staging order.
    files: Vec<(PathBuf, PathBuf)>,
}

impl Staged {
    /// Stages files for `dir` (created on the first file, not before).
    pub fn new(dir: &Path) -> Self {
        Staged {
            dir: dir.to_path_buf(),
            created_dir: false,
            files: Vec::new(),
        }
    }

    fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ReportError + '_ {
        move |err| ReportError::Io {
            path: path.to_path_buf(),
            err,
        }
    }

    /// A fresh temporary path for the final file `name`, keeping its extension (image
    /// encoders choose the format by it). The caller writes it; `commit` renames it.
    pub fn path_for(&mut self, name: &str) -> Result<PathBuf, ReportError> {
        if !self.dir.is_dir() {
            std::fs::create_dir_all(&self.dir).map_err(Self::io(&self.dir))?;
            self.created_dir = true;
        }
        let target = self.dir.join(name);
        let (stem, ext) = match name.rsplit_once('.') {
            Some((s, e)) => (s, format!(".{e}")),
            None => (name, String::new()),
        };
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = self
            .dir
            .join(format!(".{stem}.tmp-{}-{n}{ext}", std::process::id()));
        self.files.push((tmp.clone(), target));
        Ok(tmp)
    }

    /// Stages `name` with `bytes` as its content.
    pub fn write(&mut self, name: &str, bytes: &[u8]) -> Result<(), ReportError> {
        let tmp = self.path_for(name)?;
        std::fs::write(&tmp, bytes).map_err(Self::io(&tmp))
    }

    /// Renames every staged file into place; returns the final paths.
    pub fn commit(mut self) -> Result<Vec<PathBuf>, ReportError> {
        for (tmp, target) in &self.files {
            if !tmp.is_file() {
                return Err(ReportError::Io {
                    path: target.clone(),
                    err: std::io::Error::new(std::io::ErrorKind::NotFound, "staged file was not written"),
                });
            }
        }
        let files = std::mem::take(&mut self.files);
        let mut done = Vec::with_capacity(files.len());
        for (i, (tmp, target)) in files.iter().enumerate() {
            if let Err(err) = std::fs::rename(tmp, target) {
                // put the rest back for Drop to clean up
                self.files = files[i..].to_vec();
                return Err(ReportError::Io {
                    path: target.clone(),
                    err,
                });
            }
            done.push(target.clone());
        }
        Ok(done)
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        for (tmp, _) in &self.files {
            let _ = std::fs::remove_file(tmp);
        }
        if self.created_dir {
            let _ = std::fs::remove_dir(&self.dir); // fails, as it should, unless empty
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_commit_renames_all_and_leaves_no_temporaries() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("out");
        let mut s = Staged::new(&out);
        s.write("a.csv", b"x\n").unwrap();
        s.write("b.json", b"{}").unwrap();
        let files = s.commit().unwrap();
        assert_eq!(files.len(), 2);
        let mut names: Vec<_> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(names, vec!["a.csv", "b.json"]);
    }

    #[test]
    fn test_drop_without_commit_removes_everything() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("out");
        {
            let mut s = Staged::new(&out);
            s.write("a.csv", b"x\n").unwrap();
            let _unwritten = s.path_for("b.png").unwrap();
        }
        assert!(!out.exists());
        // an existing directory is kept, its files untouched
        std::fs::create_dir(&out).unwrap();
        std::fs::write(out.join("a.csv"), b"old").unwrap();
        {
            let mut s = Staged::new(&out);
            s.write("a.csv", b"new").unwrap();
        }
        assert_eq!(std::fs::read(out.join("a.csv")).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1);
    }

    #[test]
    fn test_commit_fails_if_a_staged_file_was_never_written() {
        let d = tempfile::tempdir().unwrap();
        let mut s = Staged::new(d.path());
        s.write("a.csv", b"x").unwrap();
        s.path_for("b.png").unwrap();
        assert!(s.commit().is_err());
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 0);
    }
}
