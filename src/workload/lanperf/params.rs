//! LANPERF 1.1's parameters, their ranges and defaults, and its option string.
//!
//! From the program's own help (PC Week, LANPERF.DOC, seed 002): `t#` test length in
//! seconds (10-65535), `b#` block size in bytes (1-65535), `f#` file size in blocks
//! (1-65535), `w` the sequential WRITE test, `r` the sequential READ test, `dM` the file
//! sharing mode (M = `r`, `w`, `rw`, `n`, `c`: deny read, deny write, deny read/write,
//! deny none, compatibility) and `x` the defaults `t60 b512 f64 r w dc`. An option not
//! given keeps its default; if neither `r` nor `w` is given both tests run.
//!
//! The ranges are checked in one place ([`LanperfParams::check`]) whether the values come
//! from the scenario's keys or from an option string, so both give the same errors.
//! Units: seconds, bytes, blocks.

use std::fmt;

/// Test length range, seconds (option `t`).
pub const TEST_S: (u32, u32) = (10, 65_535);
/// Block size range, bytes (option `b`).
pub const BLOCK_BYTES: (u32, u32) = (1, 65_535);
/// File size range, blocks (option `f`).
pub const FILE_BLOCKS: (u32, u32) = (1, 65_535);

/// One of LANPERF's two tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Test {
    #[serde(rename = "WRITE")]
    Write,
    #[serde(rename = "READ")]
    Read,
}

impl fmt::Display for Test {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Test::Write => "WRITE",
            Test::Read => "READ",
        })
    }
}

/// The DOS 3.1 sharing mode LANPERF opens its file with (INT 21h 3Dh, AL bits 6-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Sharing {
    Compatibility,
    DenyRead,
    DenyWrite,
    DenyReadWrite,
    DenyNone,
}

impl Sharing {
    /// All modes with the names the scenario accepts and LANPERF's letters.
    pub const ALL: [(Sharing, &'static str, &'static str); 5] = [
        (Sharing::Compatibility, "compatibility", "c"),
        (Sharing::DenyRead, "deny read", "r"),
        (Sharing::DenyWrite, "deny write", "w"),
        (Sharing::DenyReadWrite, "deny read/write", "rw"),
        (Sharing::DenyNone, "deny none", "n"),
    ];

    /// The scenario name (`"deny read/write"`, ...).
    pub fn name(self) -> &'static str {
        Self::ALL.iter().find(|m| m.0 == self).map(|m| m.1).unwrap_or("?")
    }

    /// From a scenario name or LANPERF letter (case-insensitive).
    pub fn parse(s: &str) -> Option<Sharing> {
        let l = s.trim().to_ascii_lowercase();
        Self::ALL
            .iter()
            .find(|m| m.1 == l || m.2 == l || (m.0 == Sharing::DenyReadWrite && l == "deny read-write"))
            .map(|m| m.0)
    }

    /// Does the open keep every other station from writing the file? (Compatibility mode
    /// gives the opener the file exclusively once another station tries to open it.)
    pub fn excludes_writers(self) -> bool {
        matches!(
            self,
            Sharing::Compatibility | Sharing::DenyWrite | Sharing::DenyReadWrite
        )
    }
}

impl fmt::Display for Sharing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // LANPERF's own heading words
        f.write_str(match self {
            Sharing::Compatibility => "Compatibility",
            Sharing::DenyRead => "Deny read",
            Sharing::DenyWrite => "Deny write",
            Sharing::DenyReadWrite => "Deny read/write",
            Sharing::DenyNone => "Deny none",
        })
    }
}

/// One LANPERF run's options.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct LanperfParams {
    /// Test length t, seconds.
    pub test_s: u32,
    /// Block size b, bytes.
    pub block: u32,
    /// File size f, blocks.
    pub file_blocks: u32,
    /// The tests to run, in LANPERF's order (WRITE, then READ).
    pub tests: Vec<Test>,
    pub sharing: Sharing,
}

impl Default for LanperfParams {
    /// The `x` defaults: t60 b512 f64 r w dc.
    fn default() -> Self {
        LanperfParams {
            test_s: 60,
            block: 512,
            file_blocks: 64,
            tests: vec![Test::Write, Test::Read],
            sharing: Sharing::Compatibility,
        }
    }
}

/// A LANPERF option or value that is not allowed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    #[error("{what} {value} is out of range {lo}..={hi} (LANPERF option {letter}#)")]
    Range {
        what: &'static str,
        letter: char,
        value: u64,
        lo: u32,
        hi: u32,
    },
    #[error("option `{token}`: {message}")]
    Bad { token: String, message: String },
    #[error("no test selected: give r, w or both")]
    NoTest,
}

/// Checks `v` against a range, naming the option.
pub fn in_range(what: &'static str, letter: char, v: u64, (lo, hi): (u32, u32)) -> Result<u32, OptionError> {
    if (lo as u64..=hi as u64).contains(&v) {
        Ok(v as u32)
    } else {
        Err(OptionError::Range {
            what,
            letter,
            value: v,
            lo,
            hi,
        })
    }
}

impl LanperfParams {
    /// Checks every range and that a test is selected.
    pub fn check(&self) -> Result<(), OptionError> {
        in_range("test length (s)", 't', self.test_s as u64, TEST_S)?;
        in_range("block size (bytes)", 'b', self.block as u64, BLOCK_BYTES)?;
        in_range("file size (blocks)", 'f', self.file_blocks as u64, FILE_BLOCKS)?;
        if self.tests.is_empty() {
            return Err(OptionError::NoTest);
        }
        Ok(())
    }

    /// File size, bytes.
    pub fn file_bytes(&self) -> u64 {
        self.block as u64 * self.file_blocks as u64
    }

    /// Parses LANPERF's command line (`"t30 b64 f10 r w drw"`), starting from the defaults.
    pub fn parse_options(s: &str) -> Result<LanperfParams, OptionError> {
        let mut p = LanperfParams::default();
        let mut tests = Vec::new();
        let bad = |token: &str, message: &str| OptionError::Bad {
            token: token.chars().take(40).collect(),
            message: message.into(),
        };
        for token in s.split_whitespace() {
            let lower = token.to_ascii_lowercase();
            let (letter, rest) = lower.split_at(lower.chars().next().map_or(0, char::len_utf8));
            let number = |what: &'static str, c: char, range| {
                if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(bad(token, &format!("{what} needs a number after `{c}`")));
                }
                // saturate absurd lengths so the range error shows a number
                let v = rest.parse::<u64>().unwrap_or(u64::MAX);
                in_range(what, c, v, range)
            };
            match letter {
                "t" => p.test_s = number("test length (s)", 't', TEST_S)?,
                "b" => p.block = number("block size (bytes)", 'b', BLOCK_BYTES)?,
                "f" => p.file_blocks = number("file size (blocks)", 'f', FILE_BLOCKS)?,
                "r" | "w" if !rest.is_empty() => {
                    return Err(bad(token, "`r` and `w` take no value"));
                }
                "r" => tests.push(Test::Read),
                "w" => tests.push(Test::Write),
                "x" if rest.is_empty() => {}
                "d" => {
                    p.sharing = Sharing::parse(rest)
                        .ok_or_else(|| bad(token, "the sharing mode is one of dr, dw, drw, dn, dc"))?
                }
                _ => return Err(bad(token, "unknown option; LANPERF takes t# b# f# r w dM x")),
            }
        }
        if !tests.is_empty() {
            p.tests = [Test::Write, Test::Read]
                .into_iter()
                .filter(|t| tests.contains(t))
                .collect();
        }
        p.check()?;
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_options_the_seeds_batch_line() {
        let p = LanperfParams::parse_options("t30 b64 f10 r w drw").unwrap();
        assert_eq!((p.test_s, p.block, p.file_blocks), (30, 64, 10));
        assert_eq!(p.tests, vec![Test::Write, Test::Read]);
        assert_eq!(p.sharing, Sharing::DenyReadWrite);
        assert_eq!(
            LanperfParams::parse_options("x").unwrap(),
            LanperfParams::default()
        );
        assert_eq!(
            LanperfParams::parse_options("").unwrap(),
            LanperfParams::default()
        );
        let r = LanperfParams::parse_options("R dn").unwrap();
        assert_eq!((r.tests, r.sharing), (vec![Test::Read], Sharing::DenyNone));
    }

    #[test]
    fn test_options_every_range_edge() {
        for (ok, bad) in [
            ("t10", "t9"),
            ("t65535", "t65536"),
            ("b1", "b0"),
            ("b65535", "b65536"),
            ("f1", "f0"),
            ("f65535", "f65536"),
        ] {
            assert!(LanperfParams::parse_options(ok).is_ok(), "{ok}");
            let e = LanperfParams::parse_options(bad).unwrap_err().to_string();
            assert!(
                e.contains("out of range") && e.contains("LANPERF option"),
                "{bad}: {e}"
            );
        }
        let e = LanperfParams::parse_options("t99999999999999999999999").unwrap_err();
        assert!(matches!(e, OptionError::Range { letter: 't', .. }), "{e}");
    }

    #[test]
    fn test_options_bad_tokens_name_the_token() {
        for s in ["q", "t", "tx", "b-1", "dq", "rw", "x5", "é"] {
            let e = LanperfParams::parse_options(s).unwrap_err().to_string();
            assert!(!e.is_empty(), "{s}");
        }
        let e = LanperfParams::parse_options("t30 zap").unwrap_err().to_string();
        assert!(e.contains("`zap`"), "{e}");
    }
}
