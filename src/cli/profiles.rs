//! `ethersim profiles`: the named host, adapter and stack profiles of a hardware catalogue
//! (`ethersim::scenario::nodes::profiles`), one line each.

use anyhow::Result;

use super::args::ProfilesArgs;
use super::io::print;
use ethersim::scenario::nodes::profiles;

/// Runs `ethersim profiles`. The shipped catalogue's path, where no such file exists (run
/// from another folder), lists the catalogue embedded in the binary, as `run` takes a
/// shipped scenario by name.
pub fn run(a: &ProfilesArgs) -> Result<()> {
    use ethersim::repro::catalogue;
    let listed = if !a.file.exists() && a.file == std::path::Path::new(catalogue::PROFILES.0) {
        let given = catalogue::given();
        let src = given
            .iter()
            .find(|s| s.path == a.file)
            .expect("the profile catalogue is embedded");
        profiles::list_source(src, given)?
    } else {
        profiles::list(&a.file)?
    };
    let mut out = String::new();
    for p in listed {
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\n",
            p.kind, p.name, p.about, p.defined_at
        ));
    }
    print(&out)
}
