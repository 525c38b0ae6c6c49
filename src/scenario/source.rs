//! The text of scenario files: reading it safely and finding a key in it.
//!
//! Reading refuses files over [`MAX_FILE_BYTES`] and text that is not UTF-8, and turns TOML
//! syntax errors into a line and column. The locator answers "where was `a.b[2].c`
//! written?" by walking toml's spanned document: for a key that is present, the position
//! of its name (or of the array element); for one that is absent, the deepest enclosing
//! table that is present (its `[header]`).

use std::io::Read;
use std::path::{Path, PathBuf};

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::error::{Location, ScenarioError};

/// The path of a scenario read from standard input (`ethersim run -`), as messages show it.
pub const STDIN_PATH: &str = "<stdin>";

/// Largest scenario or hardware file accepted (1 MiB; real ones are a few kB).
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// One file's path and text.
#[derive(Clone, Debug)]
pub struct Source {
    pub path: PathBuf,
    pub text: String,
}

/// One step of a key path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// Splits `a.b[2].c` into steps. Keys holding dots or brackets cannot be expressed, which is
/// fine for locating: no key of the format has them.
pub fn parse_path(path: &str) -> Vec<Step> {
    let mut steps = Vec::new();
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let mut rest = part;
        if let Some(open) = rest.find('[') {
            if open > 0 {
                steps.push(Step::Key(rest[..open].to_string()));
            }
            rest = &rest[open..];
            while let Some(stripped) = rest.strip_prefix('[') {
                let Some(close) = stripped.find(']') else { break };
                if let Ok(i) = stripped[..close].parse() {
                    steps.push(Step::Index(i));
                }
                rest = &stripped[close + 1..];
            }
        } else {
            steps.push(Step::Key(rest.to_string()));
        }
    }
    steps
}

/// Line and column (from 1; column in characters) of byte `offset` in `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

impl Source {
    /// Reads a file, refusing large or non-UTF-8 files.
    pub fn read(path: &Path) -> Result<Source, ScenarioError> {
        let read_err = |err| ScenarioError::Read {
            path: path.to_path_buf(),
            err,
        };
        let meta = std::fs::metadata(path).map_err(read_err)?;
        if !meta.is_file() {
            let err = std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file");
            return Err(read_err(err));
        }
        let file = std::fs::File::open(path).map_err(read_err)?;
        let mut bytes = Vec::new();
        // Read one byte past the limit, so a huge file (or /dev/zero) costs no more than that.
        file.take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(read_err)?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(ScenarioError::TooLarge {
                path: path.to_path_buf(),
                size: meta.len().max(bytes.len() as u64),
                limit: MAX_FILE_BYTES,
            });
        }
        Self::from_bytes(path, bytes)
    }

    /// Reads a scenario from `input` (the command line's standard input), refusing what
    /// [`Source::read`] refuses. Its path is [`STDIN_PATH`]: messages say `<stdin>`, and
    /// an include is resolved relative to the current directory.
    pub fn read_stdin(input: impl Read) -> Result<Source, ScenarioError> {
        let path = Path::new(STDIN_PATH);
        let mut bytes = Vec::new();
        input
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|err| ScenarioError::Read {
                path: path.to_path_buf(),
                err,
            })?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(ScenarioError::TooLarge {
                path: path.to_path_buf(),
                size: bytes.len() as u64,
                limit: MAX_FILE_BYTES,
            });
        }
        Self::from_bytes(path, bytes)
    }

    /// Was this source read from standard input?
    pub fn is_stdin(&self) -> bool {
        self.path == Path::new(STDIN_PATH)
    }

    /// A source from bytes already read (`path` is only used in messages).
    pub fn from_bytes(path: &Path, bytes: Vec<u8>) -> Result<Source, ScenarioError> {
        match String::from_utf8(bytes) {
            Ok(text) => Ok(Source {
                path: path.to_path_buf(),
                text,
            }),
            Err(e) => {
                let good = e.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(&e.as_bytes()[..good]);
                let (line, column) = line_col(&text, good);
                Err(ScenarioError::NotUtf8 {
                    path: path.to_path_buf(),
                    line,
                    column,
                })
            }
        }
    }

    /// Parses the text as a TOML document.
    pub fn parse(&self) -> Result<toml::Table, ScenarioError> {
        toml::from_str::<toml::Table>(&self.text).map_err(|e| {
            let (line, column) = e.span().map_or((1, 1), |s| line_col(&self.text, s.start));
            ScenarioError::Syntax {
                path: self.path.clone(),
                line,
                column,
                message: match e.message().trim() {
                    m if m.contains("value was too large") || m.contains("value was too small") => format!(
                        "integer out of range (allowed: {}..={}; TOML integers are 64-bit signed)",
                        i64::MIN,
                        i64::MAX
                    ),
                    m => m.to_string(),
                },
            }
        })
    }

    /// How many leading steps of `steps` are present in this file, and the byte offset of
    /// the deepest one. `None` if the text does not parse (then nothing is located in it).
    pub fn find(&self, steps: &[Step]) -> Option<(usize, usize)> {
        let doc = DeTable::parse(&self.text).ok()?;
        let mut found = (0, 0);
        let mut table: Option<&DeTable<'_>> = Some(doc.get_ref());
        let mut value: Option<&Spanned<DeValue<'_>>> = None;
        for (depth, step) in steps.iter().enumerate() {
            let next = match (step, table, value) {
                (Step::Key(k), Some(t), _) => {
                    t.get_key_value(k.as_str()).map(|(key, v)| (key.span().start, v))
                }
                (Step::Index(i), _, Some(v)) => match v.get_ref() {
                    DeValue::Array(a) => a.get(*i).map(|v| (v.span().start, v)),
                    _ => None,
                },
                _ => None,
            };
            let Some((offset, v)) = next else { break };
            found = (depth + 1, offset);
            value = Some(v);
            table = match v.get_ref() {
                DeValue::Table(t) => Some(t),
                _ => None,
            };
        }
        Some(found)
    }

    /// The position of `offset` as a location in this file.
    pub fn location(&self, offset: usize) -> Location {
        let (line, column) = line_col(&self.text, offset);
        Location::File {
            path: self.path.clone(),
            line,
            column,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(text: &str) -> Source {
        Source {
            path: "t.toml".into(),
            text: text.to_string(),
        }
    }

    #[test]
    fn test_parse_path_keys_and_indices() {
        assert_eq!(
            parse_path("medium.positions_m[2]"),
            vec![
                Step::Key("medium".into()),
                Step::Key("positions_m".into()),
                Step::Index(2)
            ]
        );
        assert_eq!(parse_path(""), vec![]);
    }

    #[test]
    fn test_find_header_key_and_dotted_key() {
        let s = src("name = \"x\"\n\n[workload]\nkind = \"saturate\"\n  stations = 3\n");
        let (depth, off) = s.find(&parse_path("workload.stations")).unwrap();
        assert_eq!(depth, 2);
        assert_eq!(line_col(&s.text, off), (5, 3));
        let (depth, off) = s.find(&parse_path("workload.missing")).unwrap();
        assert_eq!(depth, 1);
        assert_eq!(line_col(&s.text, off), (3, 2));
        let s = src("medium.positions_m = [1.0,\n  2.0]\n");
        let (depth, off) = s.find(&parse_path("medium.positions_m[1]")).unwrap();
        assert_eq!(depth, 3);
        assert_eq!(line_col(&s.text, off), (2, 3));
    }

    #[test]
    fn test_line_col_counts_characters() {
        assert_eq!(line_col("é = 1", 3), (1, 3));
        assert_eq!(line_col("a\nb", 2), (2, 1));
        assert_eq!(line_col("a", 99), (1, 2));
    }

    #[test]
    fn test_not_utf8_is_located() {
        let e = Source::from_bytes(Path::new("b.toml"), b"a = 1\nb = \"\xff\"".to_vec()).unwrap_err();
        assert!(
            matches!(
                e,
                ScenarioError::NotUtf8 {
                    line: 2,
                    column: 6,
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn test_stdin_is_read_and_limited() {
        let s = Source::read_stdin(&b"name = \"x\"\n"[..]).unwrap();
        assert!(s.is_stdin() && s.text == "name = \"x\"\n");
        let big = vec![b' '; MAX_FILE_BYTES as usize + 1];
        assert!(matches!(
            Source::read_stdin(&big[..]),
            Err(ScenarioError::TooLarge { .. })
        ));
    }
}
