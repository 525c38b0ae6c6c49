//! Provenance of a reproduction's outputs, and the marks of a what-if.
//!
//! Beside every CSV a reproduction writes goes `<stem>.meta.json`: the reproduction, the
//! SHA-256 of its shipped scenario and hardware texts (the catalogue's `scenarios/<name>/`
//! files), the `--set` overrides, the report seeds, the ethersim version and the commit it
//! was built from. With overrides the outputs are a what-if: every chart carries a red
//! line naming them ([`Staged::mark`]), the printed table starts with the same line, and
//! the default output folder is named after them ([`what_if_dir`]), so a what-if can never
//! pass for the published figure or table.

use serde::Serialize;

use super::fingerprint::content_hash;
use crate::report::atomic::Staged;
use crate::report::ReportError;
use crate::repro::{catalogue, Reproduction};

/// The record written beside each CSV.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Provenance {
    /// The reproduction (`ethersim reproduce NAME`).
    pub reproduction: String,
    /// Whether `--set` changed anything: then the outputs are a what-if, not the
    /// published figure or table.
    pub what_if: bool,
    /// The `--set` overrides as given, sorted.
    pub overrides: Vec<String>,
    /// Every figure is the mean over these seeds.
    pub seeds: Vec<u64>,
    /// SHA-256 of the shipped scenario and hardware files of the reproduction (name,
    /// length and text of each, in catalogue order).
    pub scenarios_sha256: String,
    /// The files that hash covers.
    pub scenario_files: Vec<String>,
    pub ethersim: String,
    /// The commit the binary was built from (empty outside a git checkout).
    pub commit: String,
}

impl Provenance {
    /// The provenance of reproduction `r` run with the overrides `set` (`KEY=VALUE`).
    pub fn of(r: &dyn Reproduction, set: &[String]) -> Self {
        let prefix = format!("{}/", r.name());
        let mut files: Vec<(&str, &str)> = catalogue::FILES
            .iter()
            .filter(|(path, _)| path.starts_with(&prefix))
            .copied()
            .collect();
        // scenarios of nodes read their profiles from the profile catalogue
        if files
            .iter()
            .any(|&(path, text)| catalogue::Entry { path, text }.is_node_form())
        {
            files.push(catalogue::PROFILES);
        }
        let mut overrides = set.to_vec();
        overrides.sort();
        Provenance {
            reproduction: r.name().to_string(),
            what_if: !set.is_empty(),
            overrides,
            seeds: r.report_seeds(),
            scenarios_sha256: content_hash(files.iter().copied()),
            scenario_files: files
                .iter()
                .map(|&(p, _)| {
                    if p == catalogue::PROFILES.0 {
                        p.to_string()
                    } else {
                        format!("scenarios/{p}")
                    }
                })
                .collect(),
            ethersim: env!("CARGO_PKG_VERSION").to_string(),
            commit: option_env!("ETHERSIM_GIT_HASH").unwrap_or("").to_string(),
        }
    }

    /// The what-if line: the overrides and the seeds; `None` without overrides.
    pub fn mark(&self) -> Option<String> {
        self.what_if.then(|| {
            format!(
                "WHAT-IF, not the published {}: {} (mean of seeds {})",
                self.reproduction,
                self.overrides.join(", "),
                self.seeds
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    }

    /// Marks `staged` as a what-if (its charts carry [`Provenance::mark`]).
    pub fn mark_outputs(&self, staged: &mut Staged) {
        if let Some(line) = self.mark() {
            staged.mark(&line);
        }
    }

    /// The table to print: with overrides, the what-if line first.
    pub fn heading(&self, table: &str) -> String {
        match self.mark() {
            Some(line) => format!("{line}\n\n{table}"),
            None => table.to_string(),
        }
    }

    /// Stages `<stem>.meta.json` beside every CSV staged so far.
    pub fn write_beside_csvs(&self, staged: &mut Staged) -> Result<(), ReportError> {
        let json = serde_json::to_string_pretty(self).map_err(|e| ReportError::Encode(e.to_string()))? + "\n";
        let csvs: Vec<String> = staged
            .names()
            .iter()
            .filter_map(|n| n.strip_suffix(".csv").map(str::to_string))
            .collect();
        for stem in csvs {
            staged.write(&format!("{stem}.meta.json"), json.as_bytes())?;
        }
        Ok(())
    }
}

/// The default output folder of a what-if of reproduction `name`: `output/what-if/`, then
/// the reproduction and its overrides (`bulletin_adapter.transmit_buffers=4`), characters
/// other than letters, digits and `._=,-` replaced by `-`, at most 120 characters.
pub fn what_if_dir(name: &str, set: &[String]) -> std::path::PathBuf {
    let mut sorted = set.to_vec();
    sorted.sort();
    let raw = format!("{name}_{}", sorted.join(","));
    let clean: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._=,-".contains(c) {
                c
            } else {
                '-'
            }
        })
        .take(120)
        .collect();
    std::path::Path::new("output").join("what-if").join(clean)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_a_what_if_folder_names_its_overrides_and_nothing_a_shell_or_path_would_read() {
        let d = what_if_dir(
            "bulletin",
            &[
                "adapter.transmit_buffers=4".into(),
                "nos.server.run_burst=\"a/b c\"".into(),
            ],
        );
        assert_eq!(
            d,
            std::path::Path::new(
                "output/what-if/bulletin_adapter.transmit_buffers=4,nos.server.run_burst=-a-b-c-"
            )
        );
    }
}
