//! One file written as a run goes, that appears under its final name only when complete.
//!
//! [`StreamFile::create`] opens a hidden temporary file in the destination's directory
//! (`.NAME.ethersim-tmp-PID-N`); [`StreamFile::commit`] flushes it, syncs it to disk and
//! renames it over the final name (atomic within one directory on POSIX file systems).
//! Dropped without a commit (an error, a panic), the temporary file is removed: no
//! partial file is ever left under the final name, and an old file there is kept.

use std::fs::{self, File};
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::ReportError;

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A file being written under a temporary name.
pub struct StreamFile {
    tmp: PathBuf,
    dest: PathBuf,
    writer: Option<BufWriter<File>>,
}

fn io_err(path: &Path, err: io::Error) -> ReportError {
    ReportError::Io {
        path: path.to_path_buf(),
        err,
    }
}

impl StreamFile {
    /// Opens the temporary file beside `dest`; fails (naming the path) if the directory
    /// does not exist or cannot be written, or `dest` is a directory.
    pub fn create(dest: &Path) -> Result<Self, ReportError> {
        let name = dest.file_name().ok_or_else(|| {
            io_err(
                dest,
                io::Error::new(io::ErrorKind::InvalidInput, "not a file name"),
            )
        })?;
        if dest.is_dir() {
            return Err(io_err(
                dest,
                io::Error::new(io::ErrorKind::IsADirectory, "is a directory"),
            ));
        }
        let dir = match dest.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(
            ".{}.ethersim-tmp-{}-{n}",
            name.to_string_lossy(),
            std::process::id()
        ));
        let file = File::create(&tmp).map_err(|e| io_err(dest, e))?;
        Ok(StreamFile {
            tmp,
            dest: dest.to_path_buf(),
            writer: Some(BufWriter::new(file)),
        })
    }

    /// The final path.
    pub fn dest(&self) -> &Path {
        &self.dest
    }

    /// The writer (buffered).
    pub fn writer(&mut self) -> &mut BufWriter<File> {
        self.writer.as_mut().expect("not committed")
    }

    /// Takes the writer out, to hand to an encoder; give it back with [`StreamFile::commit_with`].
    pub fn take(&mut self) -> BufWriter<File> {
        self.writer.take().expect("not taken twice")
    }

    /// Flushes, syncs and renames `w` (the writer [`StreamFile::take`] gave) into place.
    pub fn commit_with(mut self, w: BufWriter<File>) -> Result<PathBuf, ReportError> {
        let file = w.into_inner().map_err(|e| io_err(&self.dest, e.into_error()))?;
        file.sync_all().map_err(|e| io_err(&self.dest, e))?;
        drop(file);
        fs::rename(&self.tmp, &self.dest).map_err(|e| io_err(&self.dest, e))?;
        self.tmp = PathBuf::new();
        Ok(self.dest.clone())
    }

    /// Flushes, syncs and renames the file into place.
    pub fn commit(mut self) -> Result<PathBuf, ReportError> {
        let w = self.take();
        self.commit_with(w)
    }
}

impl Drop for StreamFile {
    fn drop(&mut self) {
        if !self.tmp.as_os_str().is_empty() {
            self.writer = None;
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn test_dropped_stream_file_leaves_nothing() {
        let dir = tempfile::tempdir().expect("temp dir");
        let dest = dir.path().join("a.pcapng");
        {
            let mut f = StreamFile::create(&dest).expect("create");
            f.writer().write_all(b"partial").expect("write");
        }
        assert_eq!(fs::read_dir(dir.path()).expect("read").count(), 0);
        let mut f = StreamFile::create(&dest).expect("create");
        f.writer().write_all(b"whole").expect("write");
        f.commit().expect("commit");
        assert_eq!(fs::read(&dest).expect("read"), b"whole");
    }
}
