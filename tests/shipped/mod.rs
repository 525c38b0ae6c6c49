//! Shipped scenarios written into a test's own folder, as `ethersim scenarios export`
//! writes them: the scenario, and beside it the profile catalogue and the hardware files
//! its profiles take their constants from (or, for a scenario of one workload, the
//! hardware file it includes). A file already in the folder is kept (a test's own
//! hardware file with other constants), and the scenario may be edited on the way.
#![allow(dead_code)] // each test binary uses what it needs

use std::path::{Path, PathBuf};

/// Writes the catalogue's scenario `name` into `dir` with the files it reads, its text
/// passed through `edit`; returns the scenario's path.
pub fn export_edited(dir: &Path, name: &str, edit: impl Fn(&mut toml_edit::DocumentMut)) -> PathBuf {
    let entry = ethersim::repro::catalogue::find(name).unwrap_or_else(|| panic!("no shipped {name}"));
    let files = entry.export();
    for (i, (file, text)) in files.iter().enumerate() {
        let path = dir.join(file);
        if i == 0 {
            let mut doc: toml_edit::DocumentMut = text.parse().unwrap();
            edit(&mut doc);
            std::fs::write(&path, doc.to_string()).unwrap();
        } else if !path.exists() {
            std::fs::write(&path, text).unwrap();
        }
    }
    dir.join(&files[0].0)
}

/// As [`export_edited`], the scenario as shipped.
pub fn export(dir: &Path, name: &str) -> PathBuf {
    export_edited(dir, name, |_| {})
}

/// A PERFORM3 scenario of nodes shortened: its block sizes and its window.
pub fn short_perform3(doc: &mut toml_edit::DocumentMut, blocks: &[u32], warmup_s: f64, measure_s: f64) {
    let mut a = toml_edit::Array::new();
    for b in blocks {
        a.push(*b as i64);
    }
    doc["apps"][0]["block_sizes"] = toml_edit::value(a);
    doc["run"]["warmup_s"] = toml_edit::value(warmup_s);
    doc["run"]["measure_s"] = toml_edit::value(measure_s);
}
