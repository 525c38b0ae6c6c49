//! What makes two runs parts of one study: the [`Fingerprint`] every run file carries, and
//! the content hash of the scenario texts a study reads.
//!
//! A fingerprint holds the ethersim version, the kind of study and its definition (the
//! swept keys and values, replications and seed; the reproduction; the calibration's folds
//! and seeds), the `--set` overrides (sorted: their order does not change a run) and the
//! SHA-256 of every scenario text the runs read, includes too, each with its file name
//! (never its folder: the same study run from two mount points is one study). Its
//! [`digest`](Fingerprint::digest) is the SHA-256 of its canonical JSON, the study's id.
//!
//! Invariant: two runs with the same digest were produced by the same version from the
//! same inputs, so their results can be merged into what one process would have written.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The version of ethersim that writes run files.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// One swept key and its values, each as TOML text ([`crate::run::exact::toml_text`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweptKey {
    pub key: String,
    pub values: Vec<String>,
}

/// What a study is, beyond its overrides and scenario texts: what `merge` needs to write
/// its files without the command line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Definition {
    /// `ethersim sweep`: the cross product of `params` (the first varying slowest), each
    /// combination `replications` times.
    Sweep {
        /// The scenario's name (the chart's title).
        scenario: String,
        params: Vec<SweptKey>,
        replications: u32,
        /// `--seed`, if given.
        seed: Option<u64>,
        /// `--y`: further figures summarised and charted.
        #[serde(default)]
        figures: Vec<String>,
        /// `--x`: the chart's axis, if given.
        #[serde(default)]
        x: Option<String>,
    },
    /// `ethersim reproduce NAME`: the reproduction's own runs.
    Reproduce { name: String },
    /// `ethersim calibrate FILE --cross-validate`: one fold per scenario.
    CrossValidation {
        /// The calibration's name.
        name: String,
        /// The scenario each fold holds out, in fold order.
        held_out: Vec<String>,
        /// The fitted keys (the columns of `cross_validation.csv`).
        keys: Vec<String>,
        seeds: Vec<u64>,
        report_seeds: Vec<u64>,
        max_evaluations: u32,
        design_starts: u32,
        design_seed: u64,
    },
}

/// The identity of a study, carried by each of its run files.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// The ethersim version that ran it.
    pub ethersim: String,
    pub definition: Definition,
    /// The `--set` overrides as given (`KEY=VALUE`), sorted.
    pub overrides: Vec<String>,
    /// [`content_hash`] of the scenario texts.
    pub content_sha256: String,
    /// How many runs the study has.
    pub runs: usize,
}

impl Fingerprint {
    /// A fingerprint of this version of ethersim.
    pub fn new(
        definition: Definition,
        mut overrides: Vec<String>,
        content_sha256: String,
        runs: usize,
    ) -> Self {
        overrides.sort();
        Fingerprint {
            ethersim: VERSION.to_string(),
            definition,
            overrides,
            content_sha256,
            runs,
        }
    }

    /// The study's id: SHA-256 (hex) of the fingerprint's JSON.
    pub fn digest(&self) -> String {
        let json = serde_json::to_vec(self).expect("a fingerprint serialises");
        hex(&Sha256::digest(&json))
    }

    /// What differs between two fingerprints, in words (`the overrides (a=1 against
    /// a=2)`), for a message naming a run of another study.
    pub fn differences(&self, other: &Fingerprint) -> Vec<String> {
        let mut d = Vec::new();
        if self.ethersim != other.ethersim {
            d.push(format!(
                "the ethersim version ({} against {})",
                other.ethersim, self.ethersim
            ));
        }
        if self.definition != other.definition {
            d.push("the study's definition (keys, values, seeds or reproduction)".into());
        }
        if self.overrides != other.overrides {
            let show = |o: &[String]| {
                if o.is_empty() {
                    "none".to_string()
                } else {
                    o.join(" ")
                }
            };
            d.push(format!(
                "the overrides ({} against {})",
                show(&other.overrides),
                show(&self.overrides)
            ));
        }
        if self.content_sha256 != other.content_sha256 {
            d.push("the scenario files' contents".into());
        }
        if self.runs != other.runs {
            d.push(format!(
                "the number of runs ({} against {})",
                other.runs, self.runs
            ));
        }
        if d.is_empty() {
            d.push("its fingerprint".into());
        }
        d
    }
}

/// SHA-256 (hex) of named texts: each contributes its name, its length and its bytes, in
/// the order given.
pub fn content_hash<'a>(parts: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut h = Sha256::new();
    for (name, text) in parts {
        h.update(name.as_bytes());
        h.update([0u8]);
        h.update((text.len() as u64).to_le_bytes());
        h.update(text.as_bytes());
    }
    hex(&h.finalize())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sweep(values: &[&str]) -> Definition {
        Definition::Sweep {
            scenario: "saturate".into(),
            params: vec![SweptKey {
                key: "workload.stations".into(),
                values: values.iter().map(|v| v.to_string()).collect(),
            }],
            replications: 3,
            seed: None,
            figures: Vec::new(),
            x: None,
        }
    }

    #[test]
    fn test_digest_changes_with_every_part_and_not_with_override_order() {
        let base = Fingerprint::new(
            sweep(&["1", "2"]),
            vec!["a=1".into(), "b=2".into()],
            "h".into(),
            6,
        );
        let reordered = Fingerprint::new(
            sweep(&["1", "2"]),
            vec!["b=2".into(), "a=1".into()],
            "h".into(),
            6,
        );
        assert_eq!(base.digest(), reordered.digest());
        assert_eq!(base.digest().len(), 64);
        let others = [
            Fingerprint::new(
                sweep(&["1", "3"]),
                vec!["a=1".into(), "b=2".into()],
                "h".into(),
                6,
            ),
            Fingerprint::new(sweep(&["1", "2"]), vec!["a=1".into()], "h".into(), 6),
            Fingerprint::new(
                sweep(&["1", "2"]),
                vec!["a=1".into(), "b=2".into()],
                "g".into(),
                6,
            ),
        ];
        for o in others {
            assert_ne!(o.digest(), base.digest(), "{o:?}");
            assert!(!base.differences(&o).is_empty());
        }
        let mut old = base.clone();
        old.ethersim = "0.0.1".into();
        assert_ne!(old.digest(), base.digest());
        assert!(base.differences(&old)[0].contains("0.0.1"));
    }

    #[test]
    fn test_content_hash_depends_on_names_texts_and_their_boundaries() {
        let a = content_hash([("s.toml", "ab"), ("h.toml", "c")]);
        assert_eq!(a, content_hash([("s.toml", "ab"), ("h.toml", "c")]));
        assert_ne!(a, content_hash([("s.toml", "a"), ("h.toml", "bc")]));
        assert_ne!(a, content_hash([("t.toml", "ab"), ("h.toml", "c")]));
        // the known SHA-256 of nothing
        assert_eq!(
            hex(&Sha256::digest(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
