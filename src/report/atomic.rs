//! All-or-nothing output: the files of one command are staged in a private directory
//! inside the output directory and moved into place together by [`Staged::commit`].
//!
//! The protocol, for an output directory `out`:
//!
//! 1. **Lock.** The first file staged takes `out/.ethersim.lock` (created with
//!    `create_new`, holding the process id), so two commands cannot write the same
//!    directory at once; the second gets an error naming the lock and its holder. A lock
//!    left by a process that no longer exists (checked in `/proc`, so on Linux only) is
//!    taken over. The lock is removed when the [`Staged`] is dropped.
//! 2. **Stage.** Files are written into a fresh directory `out/.ethersim-staging-*`
//!    under their final names (image encoders choose the format by the extension).
//! 3. **Commit.** Each staged file is fsynced, then the staging directory. Then, file by
//!    file, an existing file of the same name is first renamed into the staging directory
//!    as a backup and the new file renamed into place. If any rename fails, the files
//!    already moved are put back: each backup is renamed over the new file (or the new
//!    file removed where there was none), so every old file is restored byte for byte.
//!    Only when every rename succeeded is `out` fsynced and are the backups deleted.
//!
//! Invariants: until `commit`, no final file name is touched; if the staging is dropped
//! without a commit (an error, a panic), the staging directory and the lock are removed,
//! and so is `out` if this staging created it and it is empty. A rename within one
//! directory is atomic on POSIX file systems, so a reader sees either the old file or the
//! complete new one, never a partial file.
//!
//! Not guaranteed: a set of files is not replaced by one atomic operation, so a reader
//! looking during a commit may see some new files next to some old ones, and a process
//! killed outright (or a power cut) between two renames leaves the directory mixed, with
//! the old versions of the files already replaced still in the staging directory.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::cleanup;
use super::ReportError;

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Name of the lock file in an output directory.
pub const LOCK_FILE: &str = ".ethersim.lock";

/// A set of files being written to one directory.
pub struct Staged {
    dir: PathBuf,
    created_dir: bool,
    /// Taken with the first staged file.
    lock: Option<DirLock>,
    /// The private staging directory, made with the first staged file.
    staging: Option<PathBuf>,
    /// Keeps the staging directory on the signal clean-up's list while it exists.
    staging_tracked: Option<cleanup::Tracked>,
    /// Keeps the output directory this staging created on that list until the commit.
    dir_tracked: Option<cleanup::Tracked>,
    /// Set if a rollback failed: the staging directory then holds old files and is kept.
    keep_staging: bool,
    /// Final file names, in staging order.
    names: Vec<String>,
    /// A line every chart staged here carries under its title ([`Staged::mark`]).
    mark: Option<String>,
    /// Test hook: fail the commit just before the n-th (0-based) rename into place.
    #[cfg(test)]
    fail_before_rename: Option<usize>,
}

/// An exclusive lock on an output directory, released on drop (and removed by a signal's
/// clean-up while held).
struct DirLock {
    path: PathBuf,
    _tracked: cleanup::Tracked,
}

impl DirLock {
    fn acquire(dir: &Path) -> Result<DirLock, ReportError> {
        let path = dir.join(LOCK_FILE);
        let mut took_over = false;
        loop {
            let tracked = cleanup::track(&path, cleanup::Kind::File);
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(mut f) => {
                    f.write_all(format!("{}\n", std::process::id()).as_bytes())
                        .map_err(Staged::io(&path))?;
                    // what a dead process left here besides its lock: its staging
                    cleanup::remove_stale(dir);
                    return Ok(DirLock {
                        path,
                        _tracked: tracked,
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    drop(tracked); // not ours
                    let holder = fs::read_to_string(&path).ok();
                    let pid = holder.as_deref().and_then(|s| s.trim().parse::<u32>().ok());
                    if !took_over && pid.is_some_and(cleanup::process_is_gone) {
                        // a stale lock: its process no longer exists
                        took_over = true;
                        match fs::remove_file(&path) {
                            Ok(()) => {
                                cleanup::notice(format!(
                                    "removed the lock {} of process {}, which no longer runs",
                                    path.display(),
                                    pid.unwrap_or(0)
                                ));
                                continue;
                            }
                            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                            Err(e) => return Err(Staged::io(&path)(e)),
                        }
                    }
                    let who = pid.map_or("another ethersim".to_string(), |p| {
                        format!("another ethersim (process {p})")
                    });
                    return Err(ReportError::Io {
                        path: dir.to_path_buf(),
                        err: io::Error::new(
                            io::ErrorKind::AlreadyExists,
                            format!(
                                "{who} is writing to this directory (lock file {}); wait for it to finish, or remove the lock file if no ethersim is running",
                                path.display()
                            ),
                        ),
                    });
                }
                Err(e) => return Err(Staged::io(&path)(e)),
            }
        }
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// Renames done by a commit so far, for rollback: (final path, backup of the old file).
type Moved = Vec<(PathBuf, Option<PathBuf>)>;

impl Staged {
    /// Stages files for `dir` (created, and locked, on the first file, not before).
    pub fn new(dir: &Path) -> Self {
        Staged {
            dir: dir.to_path_buf(),
            created_dir: false,
            lock: None,
            staging: None,
            staging_tracked: None,
            dir_tracked: None,
            keep_staging: false,
            names: Vec::new(),
            mark: None,
            #[cfg(test)]
            fail_before_rename: None,
        }
    }

    /// Marks every chart staged from now on with `line` under its title (a what-if names
    /// its overrides, so that it cannot pass for the published figure).
    pub fn mark(&mut self, line: &str) {
        self.mark = Some(line.to_string());
    }

    /// The mark of [`Staged::mark`], if any.
    pub fn marked(&self) -> Option<&str> {
        self.mark.as_deref()
    }

    /// The names of the files staged so far, in staging order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    fn io(path: &Path) -> impl FnOnce(io::Error) -> ReportError + '_ {
        move |err| ReportError::Io {
            path: path.to_path_buf(),
            err,
        }
    }

    /// Creates the output directory if needed, takes its lock and makes the staging
    /// directory; returns the staging directory.
    fn staging_dir(&mut self) -> Result<PathBuf, ReportError> {
        if let Some(s) = &self.staging {
            return Ok(s.clone());
        }
        if !self.dir.is_dir() {
            self.dir_tracked = Some(cleanup::track(&self.dir, cleanup::Kind::EmptyDir));
            fs::create_dir_all(&self.dir).map_err(Self::io(&self.dir))?;
            self.created_dir = true;
        }
        self.lock = Some(DirLock::acquire(&self.dir)?);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let staging = self
            .dir
            .join(format!(".ethersim-staging-{}-{n}", std::process::id()));
        self.staging_tracked = Some(cleanup::track(&staging, cleanup::Kind::Dir));
        fs::create_dir(&staging).map_err(Self::io(&staging))?;
        self.staging = Some(staging.clone());
        Ok(staging)
    }

    /// The path at which to write the final file `name` (a plain file name, keeping its
    /// extension: image encoders choose the format by it). The caller writes it;
    /// `commit` moves it into place.
    pub fn path_for(&mut self, name: &str) -> Result<PathBuf, ReportError> {
        let plain = !name.is_empty()
            && Path::new(name).file_name().is_some_and(|f| f == name)
            && !name.starts_with(".ethersim");
        if !plain || self.names.iter().any(|n| n == name) {
            return Err(Self::io(&self.dir.join(name))(io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a plain file name, or staged twice",
            )));
        }
        let staging = self.staging_dir()?;
        self.names.push(name.to_string());
        Ok(staging.join(name))
    }

    /// Stages `name` with `bytes` as its content.
    pub fn write(&mut self, name: &str, bytes: &[u8]) -> Result<(), ReportError> {
        let tmp = self.path_for(name)?;
        fs::write(&tmp, bytes).map_err(Self::io(&tmp))
    }

    /// Moves every staged file into place, or none (see the module doc); returns the
    /// final paths.
    pub fn commit(mut self) -> Result<Vec<PathBuf>, ReportError> {
        let Some(staging) = self.staging.clone() else {
            return Ok(Vec::new());
        };
        for name in &self.names {
            let tmp = staging.join(name);
            if !tmp.is_file() {
                return Err(ReportError::Io {
                    path: self.dir.join(name),
                    err: io::Error::new(io::ErrorKind::NotFound, "staged file was not written"),
                });
            }
            sync(&tmp)?;
        }
        sync(&staging)?;

        // a signal arriving now waits until every file is in place (or every old one back)
        let _commit = cleanup::commit_guard();
        let mut moved: Moved = Vec::with_capacity(self.names.len());
        if let Err(e) = self.move_into_place(&staging, &mut moved) {
            if let Err(undo) = rollback(&moved) {
                self.keep_staging = true;
                self.staging_tracked = None; // it holds old files now: never clean it up
                return Err(ReportError::Io {
                    path: self.dir.clone(),
                    err: io::Error::new(
                        undo.kind(),
                        format!(
                            "{e}; then restoring the old files failed ({undo}): the old versions of the files already replaced are in {}",
                            staging.display()
                        ),
                    ),
                });
            }
            return Err(e);
        }
        self.dir_tracked = None; // it holds the outputs now
        drop(_commit);
        sync(&self.dir)?;
        self.created_dir = false;
        Ok(moved.into_iter().map(|(target, _)| target).collect())
        // Drop removes the staging directory with the backups, then the lock
    }

    /// Backs up each existing final file into `staging` and renames the new one into
    /// place, recording each step in `moved`.
    fn move_into_place(&self, staging: &Path, moved: &mut Moved) -> Result<(), ReportError> {
        for (i, name) in self.names.iter().enumerate() {
            let target = self.dir.join(name);
            let backup = match fs::symlink_metadata(&target) {
                // a directory in the way is not moved aside: the rename below fails
                Ok(md) if !md.is_dir() => {
                    let b = staging.join(format!(".old-{i}"));
                    fs::rename(&target, &b).map_err(Self::io(&target))?;
                    Some(b)
                }
                Ok(_) => None,
                Err(e) if e.kind() == io::ErrorKind::NotFound => None,
                Err(e) => return Err(Self::io(&target)(e)),
            };
            #[cfg(test)]
            if self.fail_before_rename == Some(i) {
                moved.push((target.clone(), backup));
                return Err(Self::io(&target)(io::Error::other("injected failure")));
            }
            let renamed = fs::rename(staging.join(name), &target);
            if let Err(e) = renamed {
                // this file's old version goes back with the others
                if let Some(b) = backup {
                    fs::rename(&b, &target).map_err(|undo| {
                        Self::io(&target)(io::Error::new(
                            undo.kind(),
                            format!(
                                "{e}; restoring its old version from {} failed: {undo}",
                                b.display()
                            ),
                        ))
                    })?;
                }
                return Err(Self::io(&target)(e));
            }
            moved.push((target, backup));
        }
        Ok(())
    }
}

/// Undoes `moved` in reverse: each old file renamed back over the new one, each new file
/// that replaced nothing removed. Stops at the first failure.
fn rollback(moved: &Moved) -> io::Result<()> {
    for (target, backup) in moved.iter().rev() {
        match backup {
            Some(b) => fs::rename(b, target)?,
            None => match fs::remove_file(target) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                _ => {}
            },
        }
    }
    Ok(())
}

/// Flushes a file or directory to stable storage.
fn sync(path: &Path) -> Result<(), ReportError> {
    File::open(path)
        .and_then(|f| f.sync_all())
        .map_err(Staged::io(path))
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some(s) = &self.staging {
            if !self.keep_staging {
                let _ = fs::remove_dir_all(s);
            }
        }
        self.staging_tracked = None;
        self.lock = None; // removes the lock file
        if self.created_dir {
            let _ = fs::remove_dir(&self.dir); // fails, as it should, unless empty
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn test_commit_renames_all_and_leaves_no_temporaries() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("out");
        let mut s = Staged::new(&out);
        s.write("a.csv", b"x\n").unwrap();
        s.write("b.json", b"{}").unwrap();
        let files = s.commit().unwrap();
        assert_eq!(files, vec![out.join("a.csv"), out.join("b.json")]);
        assert_eq!(listing(&out), vec!["a.csv", "b.json"]);
    }

    #[test]
    fn test_commit_replaces_old_files_and_keeps_others() {
        let d = tempfile::tempdir().unwrap();
        fs::write(d.path().join("a.csv"), b"old").unwrap();
        fs::write(d.path().join("notes.txt"), b"mine").unwrap();
        let mut s = Staged::new(d.path());
        s.write("a.csv", b"new").unwrap();
        s.commit().unwrap();
        assert_eq!(fs::read(d.path().join("a.csv")).unwrap(), b"new");
        assert_eq!(fs::read(d.path().join("notes.txt")).unwrap(), b"mine");
        assert_eq!(listing(d.path()), vec!["a.csv", "notes.txt"]);
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
        fs::create_dir(&out).unwrap();
        fs::write(out.join("a.csv"), b"old").unwrap();
        {
            let mut s = Staged::new(&out);
            s.write("a.csv", b"new").unwrap();
        }
        assert_eq!(fs::read(out.join("a.csv")).unwrap(), b"old");
        assert_eq!(listing(&out), vec!["a.csv"]);
    }

    #[test]
    fn test_commit_fails_if_a_staged_file_was_never_written() {
        let d = tempfile::tempdir().unwrap();
        let mut s = Staged::new(d.path());
        s.write("a.csv", b"x").unwrap();
        s.path_for("b.png").unwrap();
        assert!(s.commit().is_err());
        assert_eq!(fs::read_dir(d.path()).unwrap().count(), 0);
    }

    #[test]
    fn test_directory_in_the_way_restores_every_old_file() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path();
        fs::write(out.join("a.csv"), b"old a").unwrap();
        fs::create_dir(out.join("c.png")).unwrap();
        fs::write(out.join("c.png/inside"), b"kept").unwrap();
        let mut s = Staged::new(out);
        s.write("a.csv", b"new a").unwrap();
        s.write("b.svg", b"new b").unwrap(); // no old file
        s.write("c.png", b"new c").unwrap();
        let e = s.commit().unwrap_err();
        assert!(e.to_string().contains("c.png"), "{e}");
        assert_eq!(fs::read(out.join("a.csv")).unwrap(), b"old a");
        assert!(!out.join("b.svg").exists());
        assert_eq!(fs::read(out.join("c.png/inside")).unwrap(), b"kept");
        assert_eq!(listing(out), vec!["a.csv", "c.png"]);
    }

    #[test]
    fn test_failure_before_a_rename_rolls_back_the_earlier_ones() {
        for fail_at in 0..3 {
            let d = tempfile::tempdir().unwrap();
            let out = d.path();
            fs::write(out.join("a.csv"), b"old a").unwrap();
            fs::write(out.join("c.png"), b"old c").unwrap();
            let mut s = Staged::new(out);
            s.fail_before_rename = Some(fail_at);
            s.write("a.csv", b"new a").unwrap();
            s.write("b.svg", b"new b").unwrap();
            s.write("c.png", b"new c").unwrap();
            assert!(s.commit().is_err());
            assert_eq!(
                fs::read(out.join("a.csv")).unwrap(),
                b"old a",
                "fail at {fail_at}"
            );
            assert_eq!(
                fs::read(out.join("c.png")).unwrap(),
                b"old c",
                "fail at {fail_at}"
            );
            assert_eq!(listing(out), vec!["a.csv", "c.png"], "fail at {fail_at}");
        }
    }

    #[test]
    fn test_a_held_lock_is_a_clear_error_and_is_released_on_drop() {
        let d = tempfile::tempdir().unwrap();
        let mut first = Staged::new(d.path());
        first.write("a.csv", b"1").unwrap();
        let mut second = Staged::new(d.path());
        let e = second.write("a.csv", b"2").unwrap_err().to_string();
        let me = std::process::id();
        assert!(
            e.contains(&format!("another ethersim (process {me}) is writing")),
            "{e}"
        );
        assert!(e.contains(LOCK_FILE), "{e}");
        drop(second);
        first.commit().unwrap();
        assert_eq!(listing(d.path()), vec!["a.csv"]);
        let mut third = Staged::new(d.path());
        third.write("a.csv", b"3").unwrap();
        third.commit().unwrap();
        assert_eq!(fs::read(d.path().join("a.csv")).unwrap(), b"3");
    }

    #[test]
    fn test_a_stale_lock_is_taken_over() {
        if !Path::new("/proc/self").exists() {
            return; // staleness is only detected where /proc exists
        }
        let d = tempfile::tempdir().unwrap();
        // a process id above the largest Linux allows (2^22) cannot exist
        fs::write(d.path().join(LOCK_FILE), "4194305\n").unwrap();
        let mut s = Staged::new(d.path());
        s.write("a.csv", b"x").unwrap();
        s.commit().unwrap();
        assert_eq!(listing(d.path()), vec!["a.csv"]);
    }

    #[test]
    fn test_names_must_be_plain_and_distinct() {
        let d = tempfile::tempdir().unwrap();
        let mut s = Staged::new(d.path());
        for bad in ["", "../x", "a/b", ".ethersim.lock"] {
            assert!(s.path_for(bad).is_err(), "{bad:?}");
        }
        s.write("a.csv", b"x").unwrap();
        assert!(s.write("a.csv", b"y").is_err());
    }
}
