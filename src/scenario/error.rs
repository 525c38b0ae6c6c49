//! Errors of scenario loading, each naming where the bad input is.
//!
//! A [`FieldError`] is what the tiers below the loader produce: a key path and what is wrong
//! with it. The loader turns it into a [`ScenarioError::Field`] by finding the key in the
//! sources ([`Location`]): a file, line and column, or the `--set` argument that gave it.

use std::fmt;
use std::path::PathBuf;

/// `s` cut to at most `max` characters (with an ellipsis), for quoting input in messages.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        format!("{}...", s.chars().take(max).collect::<String>())
    }
}

/// Characters that change what a terminal shows beyond themselves: C0 and C1 controls
/// (escape sequences set the title and colours; a carriage return overwrites the line) and
/// the bidirectional overrides and isolates (which reorder the text around them).
fn is_hazard(c: char) -> bool {
    c.is_control() || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `s` safe to print: every control or bidirectional-formatting character written as an
/// escape (`\t`, `\u{1b}`), everything else as it is. For user input quoted in a message:
/// file names, key names, `--set` and `--param` arguments, values.
pub fn escape(s: &str) -> String {
    escape_keeping(s, false)
}

/// As [`escape`], but line breaks are kept: for a whole message of several lines, as a last
/// guard before it reaches the terminal.
pub fn escape_message(s: &str) -> String {
    escape_keeping(s, true)
}

fn escape_keeping(s: &str, newlines: bool) -> String {
    if !s.chars().any(is_hazard) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c == '\n' && newlines {
            out.push(c);
        } else if is_hazard(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// A path for a message, escaped (see [`escape`]).
pub fn show_path(p: &std::path::Path) -> String {
    escape(&p.display().to_string())
}

/// A float for a message: plain for everyday magnitudes, scientific otherwise (so 1e300
/// is not printed as 301 digits).
pub fn show(v: f64) -> String {
    let a = v.abs();
    if v.is_finite() && a != 0.0 && !(1e-4..1e9).contains(&a) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// Where a key's value was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// A position in a file (line and column count from 1; the column in characters).
    File {
        path: PathBuf,
        line: usize,
        column: usize,
    },
    /// A file as a whole: the key is absent from it (a missing key with no enclosing table).
    FileOnly { path: PathBuf },
    /// A command-line argument (`--set KEY=VALUE`, or a sweep's `--param`).
    Set { arg: String },
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::File { path, line, column } => write!(f, "{}:{line}:{column}", show_path(path)),
            Location::FileOnly { path } => write!(f, "{}", show_path(path)),
            Location::Set { arg } => write!(f, "from {}", escape(arg)),
        }
    }
}

/// What is wrong with one key.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// The key is not part of the format here.
    UnknownKey {
        suggestions: Vec<String>,
        valid: Vec<String>,
    },
    /// The value is not one of a fixed set of names.
    UnknownVariant {
        value: String,
        suggestions: Vec<String>,
        valid: Vec<String>,
    },
    /// A required key is absent.
    Missing,
    /// The value has the wrong TOML type (the message comes from the deserializer).
    WrongType { message: String },
    /// The value is outside the allowed range.
    OutOfRange {
        value: String,
        allowed: String,
        note: Option<String>,
    },
    /// Any other inconsistency.
    Invalid { message: String },
}

fn did_you_mean(f: &mut fmt::Formatter<'_>, suggestions: &[String], valid: &[String]) -> fmt::Result {
    let quote = |v: &[String]| {
        v.iter()
            .map(|s| format!("`{}`", escape(s)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !suggestions.is_empty() {
        write!(f, "; did you mean {}?", quote(suggestions))?;
    }
    if valid.is_empty() {
        write!(f, " (nothing is allowed here)")
    } else {
        write!(f, " (valid: {})", quote(valid))
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::UnknownKey { suggestions, valid } => {
                write!(f, "unknown key")?;
                did_you_mean(f, suggestions, valid)
            }
            Problem::UnknownVariant {
                value,
                suggestions,
                valid,
            } => {
                write!(f, "unknown value {value:?}")?;
                did_you_mean(f, suggestions, valid)
            }
            Problem::Missing => write!(f, "missing required key"),
            Problem::WrongType { message } => write!(f, "{}", escape(message)),
            Problem::OutOfRange { value, allowed, note } => {
                write!(f, "{} is out of range (allowed: {allowed})", escape(value))?;
                if let Some(note) = note {
                    write!(f, "; {}", escape(note))?;
                }
                Ok(())
            }
            Problem::Invalid { message } => write!(f, "{}", escape(message)),
        }
    }
}

/// A problem with the key at `path` (dotted, with `[i]` for array elements), not yet located.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    pub path: String,
    pub problem: Problem,
}

impl FieldError {
    pub fn new(path: impl Into<String>, problem: Problem) -> Self {
        FieldError {
            path: path.into(),
            problem,
        }
    }

    /// `value` at `path` is outside `allowed`.
    pub fn range(path: impl Into<String>, value: impl fmt::Display, allowed: impl Into<String>) -> Self {
        Self::new(
            path,
            Problem::OutOfRange {
                value: value.to_string(),
                allowed: allowed.into(),
                note: None,
            },
        )
    }

    /// Adds an explanation to an out-of-range error.
    pub fn with_note(mut self, text: impl Into<String>) -> Self {
        if let Problem::OutOfRange { note, .. } = &mut self.problem {
            *note = Some(text.into());
        }
        self
    }

    pub fn invalid(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(
            path,
            Problem::Invalid {
                message: message.into(),
            },
        )
    }
}

/// Everything that can go wrong between a scenario path and a validated [`super::Scenario`].
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    #[error("cannot read {}: {err}", show_path(path))]
    Read { path: PathBuf, err: std::io::Error },
    #[error(
        "{}: file is too large ({size} bytes; a scenario file may have at most {limit} bytes)",
        show_path(path)
    )]
    TooLarge { path: PathBuf, size: u64, limit: u64 },
    #[error("{}:{line}:{column}: the file is not UTF-8 text", show_path(path))]
    NotUtf8 {
        path: PathBuf,
        line: usize,
        column: usize,
    },
    #[error(
        "{}:{line}:{column}: TOML syntax error: {}",
        show_path(path),
        escape_message(message)
    )]
    Syntax {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{at}: key `hardware`: {}", escape(message))]
    Include { at: Location, message: String },
    #[error("{at}: key `{key}`: {}", escape(message))]
    Linked {
        at: Location,
        key: String,
        message: String,
    },
    #[error("{at}: key `{key}`: the linked scenario is invalid: {inner}")]
    InLinked {
        at: Location,
        key: String,
        inner: Box<ScenarioError>,
    },
    #[error("{}: {}", escape(arg), escape(message))]
    BadOverride { arg: String, message: String },
    #[error("no bulletin configuration named {name:?} (allowed: {allowed})")]
    UnknownConfiguration { name: String, allowed: String },
    #[error("{at}: key `{}`: {problem}", escape(key))]
    Field {
        at: Location,
        key: String,
        /// Boxed to keep the error small on the happy path.
        problem: Box<Problem>,
    },
}

impl ScenarioError {
    /// The key path the error is about, if it is about one key.
    pub fn key(&self) -> Option<&str> {
        match self {
            ScenarioError::Field { key, .. } => Some(key),
            ScenarioError::Include { .. } => Some("hardware"),
            _ => None,
        }
    }
}

/// `v` if it is a finite number within `lo..=hi` (shown as `[lo, hi]`), else the range
/// error at `path`.
pub fn real_within(path: impl Into<String>, v: f64, lo: f64, hi: f64) -> Result<f64, FieldError> {
    if v.is_finite() && v >= lo && v <= hi {
        Ok(v)
    } else {
        Err(FieldError::range(
            path,
            show(v),
            format!("[{}, {}]", show(lo), show(hi)),
        ))
    }
}
