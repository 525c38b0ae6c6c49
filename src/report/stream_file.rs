//! One output written as a run goes: a file that appears under its final name only when
//! complete, or a stream (standard output, a device, a FIFO) written through in place.
//!
//! [`StreamFile::create`] applies the output rules of [`super::target`]: for a regular
//! file (a symbolic link is followed to the file it names) it opens a hidden temporary
//! file in the destination's directory (`.NAME.ethersim-tmp-PID-N`, tracked by
//! [`super::cleanup`] so that a signal removes it), and [`StreamFile::commit`] flushes it,
//! syncs it to disk and renames it over the final name (atomic within one directory on
//! POSIX file systems). Dropped without a commit (an error, a panic), the temporary file
//! is removed: no partial file is ever left under the final name, and an old file there
//! is kept. For `-`, a device or a FIFO the bytes go straight to it and nothing is renamed.
//! Creating also removes the temporaries a dead process left in that directory.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::cleanup;
use super::target::{self, Target};
use super::ReportError;

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Where the bytes of a [`StreamFile`] go.
pub enum Sink {
    File(File),
    Stdout(io::Stdout),
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::File(f) => f.write(buf),
            Sink::Stdout(s) => s.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::File(f) => f.flush(),
            Sink::Stdout(s) => s.flush(),
        }
    }
}

/// An output being written: a temporary file to rename, or a stream written in place.
pub struct StreamFile {
    /// The temporary file (empty for a stream, or once committed).
    tmp: PathBuf,
    /// The path as given (for messages and "wrote").
    shown: PathBuf,
    /// Where the temporary is renamed to (the resolved regular file).
    rename_to: PathBuf,
    writer: Option<BufWriter<Sink>>,
    _tracked: Option<cleanup::Tracked>,
}

fn io_err(path: &Path, err: io::Error) -> ReportError {
    ReportError::Io {
        path: path.to_path_buf(),
        err,
    }
}

impl StreamFile {
    /// Opens the output `dest` by the rules of [`super::target`]; fails (naming the path)
    /// if it is a directory or its directory does not exist or cannot be written.
    pub fn create(dest: &Path) -> Result<Self, ReportError> {
        match target::classify(dest)? {
            Target::Stdout => Ok(StreamFile {
                tmp: PathBuf::new(),
                shown: dest.to_path_buf(),
                rename_to: dest.to_path_buf(),
                writer: Some(BufWriter::new(Sink::Stdout(io::stdout()))),
                _tracked: None,
            }),
            Target::Stream(path) => {
                let f = OpenOptions::new()
                    .write(true)
                    .open(&path)
                    .map_err(|e| io_err(dest, e))?;
                Ok(StreamFile {
                    tmp: PathBuf::new(),
                    shown: dest.to_path_buf(),
                    rename_to: path,
                    writer: Some(BufWriter::new(Sink::File(f))),
                    _tracked: None,
                })
            }
            Target::File(path) => {
                let name = path.file_name().ok_or_else(|| {
                    io_err(
                        dest,
                        io::Error::new(io::ErrorKind::InvalidInput, "not a file name"),
                    )
                })?;
                let dir = match path.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                    _ => PathBuf::from("."),
                };
                cleanup::remove_stale(&dir);
                let n = COUNTER.fetch_add(1, Ordering::Relaxed);
                let tmp = dir.join(format!(
                    ".{}.ethersim-tmp-{}-{n}",
                    name.to_string_lossy(),
                    std::process::id()
                ));
                let tracked = cleanup::track(&tmp, cleanup::Kind::File);
                let file = OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(&tmp)
                    .map_err(|e| io_err(dest, e))?;
                Ok(StreamFile {
                    tmp,
                    shown: dest.to_path_buf(),
                    rename_to: path,
                    writer: Some(BufWriter::new(Sink::File(file))),
                    _tracked: Some(tracked),
                })
            }
        }
    }

    /// The path as given.
    pub fn dest(&self) -> &Path {
        &self.shown
    }

    /// The writer (buffered).
    pub fn writer(&mut self) -> &mut BufWriter<Sink> {
        self.writer.as_mut().expect("not committed")
    }

    /// Takes the writer out, to hand to an encoder; give it back with [`StreamFile::commit_with`].
    pub fn take(&mut self) -> BufWriter<Sink> {
        self.writer.take().expect("not taken twice")
    }

    /// Flushes `w` (the writer [`StreamFile::take`] gave); a file is synced and renamed
    /// into place. Returns the path as given.
    pub fn commit_with(mut self, w: BufWriter<Sink>) -> Result<PathBuf, ReportError> {
        let sink = w.into_inner().map_err(|e| io_err(&self.shown, e.into_error()))?;
        match sink {
            Sink::Stdout(mut s) => s.flush().map_err(|e| io_err(&self.shown, e))?,
            Sink::File(f) if self.tmp.as_os_str().is_empty() => {
                // a device or FIFO: flushed by the BufWriter; nothing to sync or rename
                drop(f);
            }
            Sink::File(f) => {
                f.sync_all().map_err(|e| io_err(&self.shown, e))?;
                drop(f);
                let _commit = cleanup::commit_guard();
                fs::rename(&self.tmp, &self.rename_to).map_err(|e| io_err(&self.shown, e))?;
                self.tmp = PathBuf::new();
            }
        }
        Ok(self.shown.clone())
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

    #[test]
    fn test_a_device_stays_a_device_and_a_link_stays_a_link() {
        let mut f = StreamFile::create(Path::new("/dev/null")).expect("create");
        f.writer().write_all(b"bytes").expect("write");
        f.commit().expect("commit");
        let m = fs::symlink_metadata("/dev/null").unwrap();
        assert!(!m.is_file(), "/dev/null became a regular file");

        let dir = tempfile::tempdir().expect("temp dir");
        let real = dir.path().join("real.pcapng");
        fs::write(&real, b"old").unwrap();
        let link = dir.path().join("link.pcapng");
        std::os::unix::fs::symlink("real.pcapng", &link).unwrap();
        let mut f = StreamFile::create(&link).expect("create");
        f.writer().write_all(b"new").expect("write");
        assert_eq!(f.commit().expect("commit"), link);
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(fs::read(&real).unwrap(), b"new");
    }

    #[test]
    fn test_a_fifo_with_a_reader_gets_the_bytes_in_place() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("skipped: mkfifo is not available");
            return;
        }
        let path = fifo.clone();
        let reader = std::thread::spawn(move || fs::read(&path).unwrap());
        let mut f = StreamFile::create(&fifo).expect("create");
        f.writer().write_all(b"through the fifo").expect("write");
        f.commit().expect("commit");
        assert_eq!(reader.join().unwrap(), b"through the fifo");
        assert!(!fs::symlink_metadata(&fifo).unwrap().is_file());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no temporaries");
    }
}
