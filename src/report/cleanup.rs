//! What an interrupted command must not leave behind: the temporary files, staging
//! directories and locks this process made for its outputs, tracked while they exist.
//!
//! - [`track`] records a temporary path; the [`Tracked`] guard it returns forgets it again
//!   (when the path was renamed into place or removed by its owner).
//! - [`clean_up`] removes every path still tracked. The command line calls it from its
//!   signal handler before it exits (130 for SIGINT, 143 for SIGTERM), so an interrupted
//!   command leaves each output complete or untouched, and no temporaries.
//! - [`commit_guard`] is held by a commit while it renames files into place; [`clean_up`]
//!   takes it first, so a signal during a commit waits for the commit to finish (a few
//!   renames) rather than leaving a half-moved set of files.
//! - [`remove_stale`] removes what a process that no longer exists left in a directory
//!   (its staging directories and temporary files); [`take_notices`] hands the command
//!   line the sentences that say what was removed.
//!
//! Invariant: a path is tracked from just before it is created until it is renamed into
//! place or removed, so at any instant the tracked set holds every temporary this process
//! owns. Only this process's own paths are ever tracked; a stale path is recognised by the
//! process id in its name ([`owner_pid`]) and removed only when that process is gone.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Kinds of tracked paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    File,
    /// A directory removed with everything in it (a staging directory).
    Dir,
    /// A directory removed only if empty (an output directory this process created).
    EmptyDir,
}

static NEXT: AtomicU64 = AtomicU64::new(0);
static TRACKED: Mutex<Vec<(u64, PathBuf, Kind)>> = Mutex::new(Vec::new());
static COMMIT: Mutex<()> = Mutex::new(());
static NOTICES: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// A tracked temporary path; dropping the guard forgets it (it does not remove it).
#[derive(Debug)]
pub struct Tracked(u64);

impl Drop for Tracked {
    fn drop(&mut self) {
        lock(&TRACKED).retain(|(id, _, _)| *id != self.0);
    }
}

/// Tracks `path` until the guard is dropped.
pub fn track(path: &Path, kind: Kind) -> Tracked {
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    lock(&TRACKED).push((id, path.to_path_buf(), kind));
    Tracked(id)
}

/// Held while a commit renames files into place.
pub fn commit_guard() -> MutexGuard<'static, ()> {
    lock(&COMMIT)
}

/// Removes every tracked path (files first, then directories, deepest first); returns
/// how many were removed. Waits for a commit in progress.
pub fn clean_up() -> usize {
    let _commit = commit_guard();
    let mut paths = std::mem::take(&mut *lock(&TRACKED));
    paths.sort_by_key(|(_, p, k)| (*k != Kind::File, std::cmp::Reverse(p.components().count())));
    paths
        .iter()
        .filter(|(_, p, k)| match k {
            Kind::File => fs::remove_file(p).is_ok(),
            Kind::Dir => fs::remove_dir_all(p).is_ok(),
            Kind::EmptyDir => fs::remove_dir(p).is_ok(),
        })
        .count()
}

/// The process id in the name of one of our temporaries: `.ethersim-staging-PID-N` or
/// `.NAME.ethersim-tmp-PID-N`.
pub fn owner_pid(name: &str) -> Option<u32> {
    let rest = name
        .strip_prefix(".ethersim-staging-")
        .or_else(|| name.rsplit_once(".ethersim-tmp-").map(|(_, r)| r))?;
    let (pid, n) = rest.split_once('-')?;
    n.parse::<u64>().ok()?;
    pid.parse().ok()
}

/// True if `pid` is known not to exist (Linux `/proc`); false where that cannot be told.
pub fn process_is_gone(pid: u32) -> bool {
    pid != std::process::id()
        && Path::new("/proc/self").exists()
        && !Path::new(&format!("/proc/{pid}")).exists()
}

/// Removes, in `dir`, every staging directory and temporary file of a process that no
/// longer exists; records a notice for each and returns the paths removed.
pub fn remove_stale(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = owner_pid(&name) else {
            continue;
        };
        if !process_is_gone(pid) {
            continue;
        }
        let path = e.path();
        let gone = match e.file_type() {
            Ok(t) if t.is_dir() => fs::remove_dir_all(&path).is_ok(),
            Ok(_) => fs::remove_file(&path).is_ok(),
            Err(_) => false,
        };
        if gone {
            notice(format!(
                "removed {} left by process {pid}, which no longer runs",
                path.display()
            ));
            removed.push(path);
        }
    }
    removed
}

/// Records a sentence for the command line to print.
pub fn notice(text: String) {
    lock(&NOTICES).push(text);
}

/// The notices recorded so far, oldest first; they are not returned again.
pub fn take_notices() -> Vec<String> {
    std::mem::take(&mut *lock(&NOTICES))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_owner_pid_reads_both_kinds_of_names() {
        assert_eq!(owner_pid(".ethersim-staging-123-4"), Some(123));
        assert_eq!(owner_pid(".run.pcapng.ethersim-tmp-77-0"), Some(77));
        assert_eq!(owner_pid(".ethersim.lock"), None);
        assert_eq!(owner_pid("figure1.csv"), None);
        assert_eq!(owner_pid(".ethersim-staging-x-1"), None);
    }

    #[test]
    fn test_clean_up_removes_what_is_tracked_and_nothing_else() {
        let d = tempfile::tempdir().unwrap();
        let (a, b, keep) = (d.path().join("a"), d.path().join("b"), d.path().join("keep"));
        fs::write(&a, b"x").unwrap();
        fs::create_dir(&b).unwrap();
        fs::write(b.join("inner"), b"y").unwrap();
        fs::write(&keep, b"z").unwrap();
        let forgotten = d.path().join("forgotten");
        fs::write(&forgotten, b"w").unwrap();
        let _ga = track(&a, Kind::File);
        let _gb = track(&b, Kind::Dir);
        drop(track(&forgotten, Kind::File));
        assert!(clean_up() >= 2);
        assert!(!a.exists() && !b.exists());
        assert!(keep.exists() && forgotten.exists());
    }

    #[test]
    fn test_stale_paths_of_a_dead_process_are_removed_with_a_notice() {
        if !Path::new("/proc/self").exists() {
            eprintln!("skipped: no /proc to tell a dead process");
            return;
        }
        let d = tempfile::tempdir().unwrap();
        // pid 4194304 is above Linux's largest (2^22): no such process
        let dead = d.path().join(".ethersim-staging-4194304-0");
        fs::create_dir(&dead).unwrap();
        fs::write(dead.join("sweep.csv"), b"partial").unwrap();
        let tmp = d.path().join(".a.pcapng.ethersim-tmp-4194304-3");
        fs::write(&tmp, b"partial").unwrap();
        let mine = d
            .path()
            .join(format!(".ethersim-staging-{}-0", std::process::id()));
        fs::create_dir(&mine).unwrap();
        let removed = remove_stale(d.path());
        assert_eq!(removed.len(), 2, "{removed:?}");
        assert!(!dead.exists() && !tmp.exists() && mine.exists());
        let n = take_notices();
        assert!(n.iter().any(|s| s.contains("4194304")), "{n:?}");
    }
}
