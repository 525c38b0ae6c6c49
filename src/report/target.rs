//! The output rules of every command, in one place: what a path given for an output
//! (`--pcap`, `--events`, a file written in place) is, and which outputs a command may not
//! have.
//!
//! - `-` is standard output ([`Target::Stdout`]): a capture can be piped into
//!   `tshark -r -` or Wireshark's `-k -i -`.
//! - A device, FIFO or socket ([`Target::Stream`]) is written through as a stream, in
//!   place; it is never renamed over (so `/dev/null` stays a device, and a reader waiting
//!   on a FIFO gets the bytes).
//! - A regular file, or a name that does not exist yet ([`Target::File`]), is written to a
//!   temporary beside it and renamed into place when complete. A symbolic link is
//!   followed: the file it points to is replaced, and the link stays a link.
//! - A directory is refused.
//!
//! [`check_distinct`] refuses, before any work, an output that is the same file as one
//! of the command's inputs or as another of its outputs (compared as the file they
//! resolve to: device and inode where it exists, else the resolved directory and name).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::ReportError;

/// What an output path is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// `-`: standard output.
    Stdout,
    /// A device, FIFO or socket, written in place.
    Stream(PathBuf),
    /// A regular file (existing or not) at this resolved path (symbolic links followed).
    File(PathBuf),
}

fn err(path: &Path, kind: io::ErrorKind, why: &str) -> ReportError {
    ReportError::Io {
        path: path.to_path_buf(),
        err: io::Error::new(kind, why.to_string()),
    }
}

/// Most links followed before a path counts as a loop.
const MAX_LINKS: usize = 40;

/// `path` with every symbolic link of its last component followed (a dangling link
/// resolves to the path it names, which will be created).
pub fn resolve(path: &Path) -> Result<PathBuf, ReportError> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&p).map_err(|e| ReportError::Io {
                    path: p.clone(),
                    err: e,
                })?;
                p = match p.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(err(
        path,
        io::ErrorKind::InvalidInput,
        "too many levels of symbolic links",
    ))
}

/// Classifies an output path (see the module doc).
pub fn classify(path: &Path) -> Result<Target, ReportError> {
    if path.as_os_str() == "-" {
        return Ok(Target::Stdout);
    }
    let resolved = resolve(path)?;
    match fs::metadata(&resolved) {
        Ok(m) if m.is_dir() => Err(err(path, io::ErrorKind::IsADirectory, "is a directory")),
        Ok(m) if m.is_file() => Ok(Target::File(resolved)),
        Ok(_) => Ok(Target::Stream(resolved)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            if resolved.file_name().is_none() {
                return Err(err(path, io::ErrorKind::InvalidInput, "not a file name"));
            }
            Ok(Target::File(resolved))
        }
        Err(e) => Err(ReportError::Io {
            path: path.to_path_buf(),
            err: e,
        }),
    }
}

/// What identifies the file a path names: its device and inode where it exists, else
/// its resolved directory (canonical where that exists) and file name.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Identity {
    Stdout,
    Inode(u64, u64),
    Name(PathBuf),
}

fn identity(path: &Path) -> Identity {
    use std::os::unix::fs::MetadataExt;
    if path.as_os_str() == "-" {
        return Identity::Stdout;
    }
    if let Ok(m) = fs::metadata(path) {
        return Identity::Inode(m.dev(), m.ino());
    }
    let resolved = resolve(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = match resolved.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let dir = fs::canonicalize(&dir).unwrap_or(dir);
    Identity::Name(dir.join(resolved.file_name().unwrap_or_default()))
}

/// Refuses outputs (`(what, path)`, e.g. `("--pcap", path)`) that name the same file as
/// an input or as each other; the message names both.
pub fn check_distinct(outputs: &[(&str, &Path)], inputs: &[&Path]) -> Result<(), ReportError> {
    for (i, (what, out)) in outputs.iter().enumerate() {
        let id = identity(out);
        if let Some(input) = inputs.iter().find(|p| identity(p) == id) {
            return Err(err(
                out,
                io::ErrorKind::InvalidInput,
                &format!(
                    "{what} would overwrite the input {}; name another file",
                    input.display()
                ),
            ));
        }
        if let Some((other, _)) = outputs[..i].iter().find(|(_, p)| identity(p) == id) {
            return Err(err(
                out,
                io::ErrorKind::InvalidInput,
                &format!("{what} and {other} name the same file; give each its own"),
            ));
        }
    }
    Ok(())
}

/// A file name taken from an input (a calibration's name, say) checked to be usable as
/// one component of an output path: not empty, no `/`, not `.` or `..`, no control
/// characters, at most 100 characters.
pub fn plain_name(what: &str, name: &str) -> Result<(), String> {
    let bad = |why: &str| {
        Err(format!(
            "{what} {}: {why}",
            crate::scenario::error::escape(&crate::scenario::error::clip(name, 60))
        ))
    };
    if name.is_empty() || name == "." || name == ".." {
        return bad("is not a name");
    }
    if name.contains(['/', '\\']) {
        return bad("names a path, not one file name (no `/`)");
    }
    if name.chars().any(char::is_control) {
        return bad("holds control characters");
    }
    if name.chars().count() > 100 {
        return bad("is longer than 100 characters");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_classify_each_kind() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("a.pcapng");
        assert_eq!(classify(&f).unwrap(), Target::File(f.clone()));
        fs::write(&f, b"x").unwrap();
        assert_eq!(classify(&f).unwrap(), Target::File(f.clone()));
        assert_eq!(classify(Path::new("-")).unwrap(), Target::Stdout);
        assert!(classify(d.path()).is_err());
        assert_eq!(
            classify(Path::new("/dev/null")).unwrap(),
            Target::Stream(PathBuf::from("/dev/null"))
        );
        let link = d.path().join("link");
        std::os::unix::fs::symlink("a.pcapng", &link).unwrap();
        assert_eq!(classify(&link).unwrap(), Target::File(d.path().join("a.pcapng")));
        let dangling = d.path().join("dangling");
        std::os::unix::fs::symlink("new.pcapng", &dangling).unwrap();
        assert_eq!(
            classify(&dangling).unwrap(),
            Target::File(d.path().join("new.pcapng"))
        );
        let a = d.path().join("loop-a");
        let b = d.path().join("loop-b");
        std::os::unix::fs::symlink(&b, &a).unwrap();
        std::os::unix::fs::symlink(&a, &b).unwrap();
        assert!(classify(&a).is_err());
    }

    #[test]
    fn test_same_file_twice_or_an_input_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let input = d.path().join("s.toml");
        fs::write(&input, b"x").unwrap();
        let out = d.path().join("o");
        let e = check_distinct(&[("--pcap", &input)], &[&input]).unwrap_err();
        assert!(e.to_string().contains("input"), "{e}");
        let e = check_distinct(&[("--pcap", &out), ("--events", &out)], &[]).unwrap_err();
        assert!(e.to_string().contains("--pcap"), "{e}");
        // the same file by another spelling, and through a link
        let other = d.path().join(".").join("o");
        assert!(check_distinct(&[("--pcap", &out), ("--events", &other)], &[]).is_err());
        let link = d.path().join("l");
        std::os::unix::fs::symlink("s.toml", &link).unwrap();
        assert!(check_distinct(&[("--pcap", &link)], &[&input]).is_err());
        assert!(check_distinct(&[("--pcap", &out), ("--events", &d.path().join("p"))], &[&input]).is_ok());
        let dash = Path::new("-");
        assert!(check_distinct(&[("--pcap", dash), ("--events", dash)], &[]).is_err());
    }

    #[test]
    fn test_plain_names() {
        assert!(plain_name("name", "bulletin").is_ok());
        for bad in ["", ".", "..", "../../../escaped", "a/b", "a\u{1b}]0;x\u{7}"] {
            assert!(plain_name("name", bad).is_err(), "{bad:?}");
        }
        let long = "x".repeat(101);
        assert!(plain_name("name", &long).is_err());
        // the message never echoes a control character
        let e = plain_name("name", "a\u{1b}[2J").unwrap_err();
        assert!(!e.chars().any(|c| c.is_control()), "{e:?}");
    }
}
