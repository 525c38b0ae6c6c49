//! `ethersim validate SCENARIO`: load and check a scenario (with its overrides), print
//! what it describes, run nothing.

use anyhow::Result;

use super::args::ValidateArgs;
use super::io::{load, print};

/// Runs `ethersim validate`.
pub fn run(a: ValidateArgs) -> Result<()> {
    let s = load(&a.scenario)?;
    let include = match (&s.hardware, s.files.len()) {
        (Some(h), _) => format!(" (hardware from {})", h.display()),
        (None, 0) => String::new(),
        (None, _) => {
            let files: Vec<String> = s.files.iter().map(|f| f.display().to_string()).collect();
            format!(" (profiles from {})", files.join(", "))
        }
    };
    print(&format!("ok: {}{include}: {}\n", s.path.display(), s.summary()))
}
