//! The scenario catalogue: every scenario file the project ships (and the hardware files
//! their profiles come from), and the profile catalogue they include, embedded in the
//! binary, so that `ethersim scenarios` lists them, `run`, `sweep` and `validate` take a
//! catalogue name where no file of that name exists, and the reproductions never read a
//! file at run time ([`load`], [`given`]).
//!
//! An entry is a file under `scenarios/` by its path there (`bulletin/16bit-optimized.toml`)
//! and its text, byte for byte. A file the profile catalogue takes profiles `from` is a
//! hardware file; the others are scenarios. Names
//! are file stems, unique across the catalogue (checked by a test). Exporting writes a
//! scenario with the files it reads side by side, the paths that name them rewritten,
//! every other byte kept.

use std::path::{Path, PathBuf};

use std::sync::OnceLock;

use crate::scenario::{self, Override, Scenario, ScenarioError, Source};

/// The profile catalogue (`hardware/catalogue.toml`) the scenarios of nodes include, by its
/// path in the project; its profiles take their constants `from` the hardware files under
/// `scenarios/`.
pub const PROFILES: (&str, &str) = (
    "hardware/catalogue.toml",
    include_str!("../../hardware/catalogue.toml"),
);

/// Every shipped scenario under `scenarios/`, and the hardware files their profiles come
/// from, by its path there.
pub const FILES: &[(&str, &str)] = &[
    (
        "bulletin/16bit-defaults.toml",
        include_str!("../../scenarios/bulletin/16bit-defaults.toml"),
    ),
    (
        "bulletin/16bit-optimized.toml",
        include_str!("../../scenarios/bulletin/16bit-optimized.toml"),
    ),
    (
        "bulletin/8bit-defaults.toml",
        include_str!("../../scenarios/bulletin/8bit-defaults.toml"),
    ),
    (
        "bulletin/8bit-optimized.toml",
        include_str!("../../scenarios/bulletin/8bit-optimized.toml"),
    ),
    (
        "bulletin/artisoft-1992.toml",
        include_str!("../../scenarios/bulletin/artisoft-1992.toml"),
    ),
    (
        "bulletin/upgrade-server-only.toml",
        include_str!("../../scenarios/bulletin/upgrade-server-only.toml"),
    ),
    (
        "bulletin/upgrade-workstations-only.toml",
        include_str!("../../scenarios/bulletin/upgrade-workstations-only.toml"),
    ),
    (
        "lanperf/lanperf-2servers.toml",
        include_str!("../../scenarios/lanperf/lanperf-2servers.toml"),
    ),
    (
        "lanperf/lanperf-max.toml",
        include_str!("../../scenarios/lanperf/lanperf-max.toml"),
    ),
    (
        "lanperf/lanperf-x.toml",
        include_str!("../../scenarios/lanperf/lanperf-x.toml"),
    ),
    ("saturate.toml", include_str!("../../scenarios/saturate.toml")),
    (
        "background-load.toml",
        include_str!("../../scenarios/background-load.toml"),
    ),
    (
        "ttcp1985/ttcp-1985-dual-ex0-notrailers.toml",
        include_str!("../../scenarios/ttcp1985/ttcp-1985-dual-ex0-notrailers.toml"),
    ),
    (
        "ttcp1985/ttcp-1985-dual-ex0-trailers.toml",
        include_str!("../../scenarios/ttcp1985/ttcp-1985-dual-ex0-trailers.toml"),
    ),
    (
        "ttcp1985/ttcp-1985-dual-il0-notrailers.toml",
        include_str!("../../scenarios/ttcp1985/ttcp-1985-dual-il0-notrailers.toml"),
    ),
    (
        "ttcp1985/ttcp-1985-dual-il0-trailers.toml",
        include_str!("../../scenarios/ttcp1985/ttcp-1985-dual-il0-trailers.toml"),
    ),
    (
        "ttcp1985/ttcp-1985-dual-pcl0.toml",
        include_str!("../../scenarios/ttcp1985/ttcp-1985-dual-pcl0.toml"),
    ),
    (
        "ttcp1985/ttcp-1985-single-ex0-notrailers.toml",
        include_str!("../../scenarios/ttcp1985/ttcp-1985-single-ex0-notrailers.toml"),
    ),
    (
        "ttcp1985/ttcp-1985-single-ex0-trailers.toml",
        include_str!("../../scenarios/ttcp1985/ttcp-1985-single-ex0-trailers.toml"),
    ),
    (
        "ttcp1985/ttcp-1985-single-il0-trailers.toml",
        include_str!("../../scenarios/ttcp1985/ttcp-1985-single-il0-trailers.toml"),
    ),
    (
        "ttcp1985/ttcp-1985-single-pcl0.toml",
        include_str!("../../scenarios/ttcp1985/ttcp-1985-single-pcl0.toml"),
    ),
    (
        "ttcp1985/ttcp-1985.toml",
        include_str!("../../scenarios/ttcp1985/ttcp-1985.toml"),
    ),
    (
        "ttcp1995/ttcp-1995-3c509-3c509-receive.toml",
        include_str!("../../scenarios/ttcp1995/ttcp-1995-3c509-3c509-receive.toml"),
    ),
    (
        "ttcp1995/ttcp-1995-3c509-3c509-transmit.toml",
        include_str!("../../scenarios/ttcp1995/ttcp-1995-3c509-3c509-transmit.toml"),
    ),
    (
        "ttcp1995/ttcp-1995-smc-ultra-3c509-receive.toml",
        include_str!("../../scenarios/ttcp1995/ttcp-1995-smc-ultra-3c509-receive.toml"),
    ),
    (
        "ttcp1995/ttcp-1995-smc-ultra-3c509-transmit.toml",
        include_str!("../../scenarios/ttcp1995/ttcp-1995-smc-ultra-3c509-transmit.toml"),
    ),
    (
        "ttcp1995/ttcp-1995-smc-ultra-lance-receive.toml",
        include_str!("../../scenarios/ttcp1995/ttcp-1995-smc-ultra-lance-receive.toml"),
    ),
    (
        "ttcp1995/ttcp-1995-smc-ultra-lance-transmit.toml",
        include_str!("../../scenarios/ttcp1995/ttcp-1995-smc-ultra-lance-transmit.toml"),
    ),
    (
        "ttcp1995/ttcp-1995-smc-ultra-smc-ultra-receive.toml",
        include_str!("../../scenarios/ttcp1995/ttcp-1995-smc-ultra-smc-ultra-receive.toml"),
    ),
    (
        "ttcp1995/ttcp-1995-smc-ultra-smc-ultra-transmit.toml",
        include_str!("../../scenarios/ttcp1995/ttcp-1995-smc-ultra-smc-ultra-transmit.toml"),
    ),
    (
        "ttcp1995/ttcp-1995.toml",
        include_str!("../../scenarios/ttcp1995/ttcp-1995.toml"),
    ),
    (
        "two-stations-collision.toml",
        include_str!("../../scenarios/two-stations-collision.toml"),
    ),
    (
        "ttcp-beside-file-service.toml",
        include_str!("../../scenarios/ttcp-beside-file-service.toml"),
    ),
    (
        "file-service-ttcp-and-background.toml",
        include_str!("../../scenarios/file-service-ttcp-and-background.toml"),
    ),
    (
        "ttcp-under-background-load.toml",
        include_str!("../../scenarios/ttcp-under-background-load.toml"),
    ),
    (
        "two-ttcp-transfers.toml",
        include_str!("../../scenarios/two-ttcp-transfers.toml"),
    ),
    (
        "two-file-services.toml",
        include_str!("../../scenarios/two-file-services.toml"),
    ),
];

/// One catalogue file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its path under `scenarios/`.
    pub path: &'static str,
    pub text: &'static str,
}

impl Entry {
    /// The name it is known by: its file stem.
    pub fn name(&self) -> &'static str {
        let file = self.path.rsplit('/').next().unwrap_or(self.path);
        file.strip_suffix(".toml").unwrap_or(file)
    }

    /// Whether it is a scenario of nodes and applications (it includes the profile
    /// catalogue).
    pub fn is_node_form(&self) -> bool {
        self.text
            .parse::<toml::Table>()
            .is_ok_and(|d| scenario::nodes::is_node_form(&d))
    }

    /// How the profile catalogue names it in a `from` (the opening quote, its path from
    /// `hardware/`, and the `#` before the table).
    fn profile_source(&self) -> String {
        format!("\"../scenarios/{}#", self.path)
    }

    /// Its first comment paragraph as one line: what it is.
    pub fn summary(&self) -> String {
        let mut words = Vec::new();
        for line in self.text.lines() {
            match line.strip_prefix('#') {
                Some(t) if !t.trim().is_empty() => words.push(t.trim().to_string()),
                _ => break,
            }
        }
        words.join(" ")
    }

    /// Whether it is a hardware file, not a scenario: the profile catalogue takes profiles
    /// `from` it.
    pub fn is_included(&self) -> bool {
        PROFILES.1.contains(&self.profile_source())
    }

    /// As a source, named by its catalogue path (`scenarios/...`), for messages.
    pub fn source(&self) -> Result<Source, ScenarioError> {
        Source::from_bytes(
            &Path::new("scenarios").join(self.path),
            self.text.as_bytes().to_vec(),
        )
    }

    /// The files an export writes.
    /// A scenario of nodes goes with the profile catalogue and every hardware file its
    /// profiles take `from`, all side by side (the paths that name them rewritten).
    pub fn export(&self) -> Vec<(String, String)> {
        let file = |e: &Entry| e.path.rsplit('/').next().unwrap_or(e.path).to_string();
        if self.is_node_form() {
            let (cat_path, cat_text) = PROFILES;
            let cat_file = cat_path.rsplit('/').next().unwrap_or(cat_path);
            let dir = Path::new("scenarios").join(Path::new(self.path).parent().unwrap_or(Path::new("")));
            let mut rel = PathBuf::new();
            for _ in dir.components() {
                rel.push("..");
            }
            let written = rel.join(cat_path).to_string_lossy().replace('\\', "/");
            let text = self
                .text
                .replace(&format!("\"{written}\""), &format!("\"{cat_file}\""));
            let hardware: Vec<Entry> = entries()
                .filter(|e| cat_text.contains(&e.profile_source()))
                .collect();
            let mut catalogue = cat_text.to_string();
            for h in &hardware {
                catalogue = catalogue.replace(&h.profile_source(), &format!("\"{}#", file(h)));
            }
            let mut out = vec![(file(self), text), (cat_file.to_string(), catalogue)];
            out.extend(hardware.iter().map(|h| (file(h), h.text.to_string())));
            return out;
        }
        // a hardware file: alone
        vec![(file(self), self.text.to_string())]
    }
}

/// Every catalogue file and the profile catalogue, as sources named by their paths in the
/// project (`scenarios/...`, `hardware/catalogue.toml`): what an embedded scenario's
/// includes and `from` files are taken from ([`scenario::load_source_with`]).
pub fn given() -> &'static [Source] {
    static GIVEN: OnceLock<Vec<Source>> = OnceLock::new();
    GIVEN.get_or_init(|| {
        entries()
            .map(|e| e.source().expect("shipped files are UTF-8"))
            .chain(std::iter::once(
                Source::from_bytes(Path::new(PROFILES.0), PROFILES.1.as_bytes().to_vec())
                    .expect("shipped files are UTF-8"),
            ))
            .collect()
    })
}

/// Loads the embedded scenario at `path` under `scenarios/` (`bulletin/16bit-optimized.toml`)
/// with `overrides`, its includes and profiles taken from the binary, not from disk.
pub fn load(path: &str, overrides: &[Override]) -> Result<Scenario, ScenarioError> {
    load_with(path, &[], overrides)
}

/// As [`load`], with some of the embedded files replaced: each `(path under scenarios/,
/// text)` stands for that file (a hardware file with other constants: a calibration's
/// trial, a what-if on a constant).
pub fn load_with(
    path: &str,
    replaced: &[(&str, &str)],
    overrides: &[Override],
) -> Result<Scenario, ScenarioError> {
    let entry = entries()
        .find(|e| e.path == path)
        .unwrap_or_else(|| panic!("no embedded scenario {path}"));
    if replaced.is_empty() {
        return scenario::load_source_with(&entry.source()?, given(), overrides);
    }
    let mut files = Vec::with_capacity(given().len() + replaced.len());
    for (p, text) in replaced {
        files.push(Source::from_bytes(
            &Path::new("scenarios").join(p),
            text.as_bytes().to_vec(),
        )?);
    }
    files.extend(given().iter().cloned());
    scenario::load_source_with(&entry.source()?, &files, overrides)
}

/// Every catalogue file.
pub fn entries() -> impl Iterator<Item = Entry> {
    FILES.iter().map(|&(path, text)| Entry { path, text })
}

/// The scenario (or hardware file) named `name`: its stem, or its stem with `.toml`, or
/// its path under `scenarios/`.
pub fn find(name: &str) -> Option<Entry> {
    let stem = name.strip_suffix(".toml").unwrap_or(name);
    let path = name.strip_prefix("scenarios/").unwrap_or(name);
    entries().find(|e| e.name() == stem || e.path == path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_the_profiles_files_are_embedded() {
        let mut names: Vec<&str> = entries().map(|e| e.name()).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n, "two catalogue files share a stem");
        // every file the profile catalogue takes profiles from is embedded
        for spec in PROFILES.1.split("from = \"../scenarios/").skip(1) {
            let path = spec.split('#').next().unwrap();
            assert!(entries().any(|e| e.path == path), "{path} is not embedded");
        }
        // a hardware file the profile catalogue takes profiles from is no scenario
        let hw = find("artisoft-1992").unwrap();
        assert!(hw.is_included() && !hw.is_node_form());
        let lanperf = find("lanperf-max").unwrap();
        assert!(lanperf.is_node_form() && !lanperf.is_included());
    }

    /// Every file under `scenarios/` is embedded, and every one that is not a hardware file
    /// is a scenario of nodes and applications: none is forgotten, none left in the older
    /// form.
    #[test]
    fn every_shipped_scenario_is_embedded_and_written_as_nodes() {
        fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
            for e in std::fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    walk(&p, root, out);
                } else if p.extension().is_some_and(|x| x == "toml") {
                    let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
                    out.push(rel);
                }
            }
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
        let mut files = Vec::new();
        walk(&root, &root, &mut files);
        let mut scenarios = 0;
        for f in files {
            let e = entries()
                .find(|e| e.path == f)
                .unwrap_or_else(|| panic!("{f} is not embedded"));
            assert_eq!(e.text, std::fs::read_to_string(root.join(&f)).unwrap(), "{f}");
            if !e.is_included() {
                assert!(e.is_node_form(), "{f} is not written as nodes and applications");
                scenarios += 1;
            }
        }
        assert!(scenarios >= 34, "only {scenarios} scenarios");
    }

    #[test]
    fn an_export_of_a_scenario_of_nodes_puts_its_profiles_and_their_files_beside_it() {
        let e = find("16bit-optimized").unwrap();
        let files = e.export();
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names[..2], ["16bit-optimized.toml", "catalogue.toml"]);
        for hw in ["artisoft-1992.toml", "ttcp-1995.toml", "ttcp-1985.toml"] {
            assert!(names.contains(&hw), "{names:?}");
        }
        // the scenario: only the include's path changed
        assert_eq!(
            files[0].1,
            e.text
                .replace("\"../../hardware/catalogue.toml\"", "\"catalogue.toml\"")
        );
        assert_ne!(files[0].1, e.text);
        // the catalogue takes its profiles from the files beside it
        assert!(files[1].1.contains("from = \"artisoft-1992.toml#hosts.server\""));
        assert!(!files[1].1.contains("../scenarios/"));
    }
}
