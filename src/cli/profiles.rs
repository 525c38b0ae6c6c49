//! `ethersim profiles`: the named host, adapter and stack profiles of a hardware catalogue
//! (`ethersim::scenario::nodes::profiles`), one line each.

use anyhow::Result;

use super::args::ProfilesArgs;
use super::io::print;
use ethersim::scenario::nodes::profiles;

/// Runs `ethersim profiles`.
pub fn run(a: &ProfilesArgs) -> Result<()> {
    let mut out = String::new();
    for p in profiles::list(&a.file)? {
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\n",
            p.kind, p.name, p.about, p.defined_at
        ));
    }
    print(&out)
}
