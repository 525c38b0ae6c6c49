//! `ethersim scenarios`: the catalogue of shipped scenarios embedded in the binary (list,
//! show, export). The fallback that lets `run`, `sweep` and `validate` take a catalogue
//! name is [`super::io::scenario_source`].

use anyhow::{bail, Result};

use super::args::{ScenariosAction, ScenariosArgs};
use super::io::{check_out_dir, print, wrote};
use ethersim::report::atomic::Staged;
use ethersim::repro::catalogue::{self, Entry};

/// The catalogue's entry `name`; an unknown name is a usage error (as an unknown
/// reproduction is), which says where the names are listed.
fn entry(name: &str) -> Entry {
    catalogue::find(name).unwrap_or_else(|| {
        super::io::usage(&format!(
            "no scenario {:?} in the catalogue; `ethersim scenarios` lists them",
            ethersim::scenario::error::clip(name, 60)
        ))
    })
}

/// Runs `ethersim scenarios`.
pub fn run(a: &ScenariosArgs) -> Result<()> {
    match &a.action {
        None => {
            let mut out = String::from("Scenarios shipped in the binary (ethersim run NAME):\n");
            let mut hardware =
                String::from("\nHardware files (the profile catalogue takes its profiles from them):\n");
            for e in catalogue::entries() {
                let line = format!("  {:<38} scenarios/{}\n", e.name(), e.path);
                if e.is_included() {
                    hardware.push_str(&line);
                } else {
                    out.push_str(&line);
                    let summary = e.summary();
                    if !summary.is_empty() {
                        out.push_str(&format!(
                            "      {}\n",
                            ethersim::scenario::error::clip(&summary, 90)
                        ));
                    }
                }
            }
            out.push_str(&hardware);
            print(&out)
        }
        Some(ScenariosAction::Show { name }) => print(entry(name).text),
        Some(ScenariosAction::Export { name, dir }) => {
            let e = entry(name);
            check_out_dir(dir)?;
            let mut staged = Staged::new(dir);
            for (file, text) in e.export() {
                if dir.join(&file).exists() {
                    bail!(
                        "{} exists; export into an empty folder, or remove it",
                        dir.join(&file).display()
                    );
                }
                staged.write(&file, text.as_bytes())?;
            }
            let files = staged.commit()?;
            wrote(&files);
            Ok(())
        }
    }
}
