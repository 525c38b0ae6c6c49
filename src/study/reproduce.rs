//! A reproduction as a study: the runs of its [`Indexed`] form (the bulletin's Figure 1:
//! each configuration on each report seed; LANPERF's maximum: each station count on each
//! seed), `finish` the same files and table as `ethersim reproduce NAME`.

use super::fingerprint::{content_hash, Definition, Fingerprint};
use super::{Merged, Study, StudyError};
use crate::report::atomic::Staged;
use crate::repro::{find, Indexed, Reproduction};
use crate::scenario::Override;

/// A reproduction with its `--set` overrides, as indexed runs.
pub struct ReproduceStudy {
    indexed: &'static dyn Indexed,
    set: Vec<Override>,
    fingerprint: Fingerprint,
}

/// The reproduction called `name` (a name or an alias) as indexed runs.
fn indexed(name: &str) -> Result<(&'static dyn Reproduction, &'static dyn Indexed), StudyError> {
    let r = find(name).ok_or_else(|| StudyError::Refused(format!("no reproduction {name:?}")))?;
    let i = r
        .indexed()
        .ok_or_else(|| StudyError::NotIndexed(r.name().to_string()))?;
    Ok((r, i))
}

/// Parses the `--set` arguments (`KEY=VALUE`).
fn overrides(set: &[String]) -> Result<Vec<Override>, StudyError> {
    Ok(set.iter().map(|s| Override::parse(s)).collect::<Result<_, _>>()?)
}

impl ReproduceStudy {
    /// The reproduction `name` with the overrides `set` (`KEY=VALUE`, already checked
    /// by the caller as `reproduce` checks them).
    pub fn new(name: &str, set: &[String]) -> Result<Self, StudyError> {
        let (r, indexed) = indexed(name)?;
        let hash = content_hash(indexed.sources());
        let definition = Definition::Reproduce {
            name: r.name().to_string(),
        };
        Ok(ReproduceStudy {
            indexed,
            set: overrides(set)?,
            fingerprint: Fingerprint::new(definition, set.to_vec(), hash, indexed.runs()),
        })
    }
}

impl Study for ReproduceStudy {
    fn fingerprint(&self) -> &Fingerprint {
        &self.fingerprint
    }

    fn describe(&self, index: usize) -> Vec<(String, String)> {
        self.indexed.describe(index)
    }

    fn run(&self, index: usize) -> Result<serde_json::Value, StudyError> {
        Ok(self.indexed.run_one(&self.set, index)?)
    }
}

/// Stages reproduction `name`'s files from its runs' results and returns its table.
pub fn finish(
    name: &str,
    set: &[String],
    results: &[serde_json::Value],
    staged: &mut Staged,
) -> Result<Merged, StudyError> {
    let (r, indexed) = indexed(name)?;
    let prov = super::provenance::Provenance::of(r, set);
    prov.mark_outputs(staged);
    let table = indexed.finish(&overrides(set)?, results, staged)?;
    prov.write_beside_csvs(staged)?;
    Ok(Merged {
        table: prov.heading(&table),
        unfinished: None,
    })
}
