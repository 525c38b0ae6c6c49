//! `ethersim validate SCENARIO`: load and check a scenario (with its overrides), print
//! what it describes, run nothing.

use anyhow::Result;

use super::args::ValidateArgs;
use super::io::{load, print};

/// Runs `ethersim validate`.
pub fn run(a: ValidateArgs) -> Result<()> {
    let s = load(&a.scenario)?;
    let include = s
        .hardware
        .as_ref()
        .map_or(String::new(), |h| format!(" (hardware from {})", h.display()));
    print(&format!("ok: {}{include}: {}\n", s.path.display(), s.summary()))
}
