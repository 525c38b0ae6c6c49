//! `ethersim keys`: every scenario key from the parameter registry
//! (`ethersim::scenario::params`), as a tab-separated list or as the Markdown reference
//! that `docs/scenarios.md` holds.

use anyhow::Result;

use super::args::KeysArgs;
use super::io::print;
use ethersim::scenario::params;

/// Runs `ethersim keys`.
pub fn run(a: &KeysArgs) -> Result<()> {
    if a.markdown {
        print(&params::reference_markdown())
    } else {
        print(&params::key_list())
    }
}
