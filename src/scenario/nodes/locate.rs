//! Where the keys of a lowered document came from ([`Map`]), and the validation of a
//! lowered document that reports each error where its key was written: the scenario's
//! table, the profile that gave it, or the `--set` that overrode it.

use super::super::error::{FieldError, Location, ScenarioError};
use super::super::merge::Override;
use super::super::shared::{Linked, LinkedService};
use super::super::source::Source;
use super::super::{de, durations, RawScenario, Scenario};
use super::profiles::{locate, Profile};

/// Where each key of the lowered documents came from, to locate their errors.
#[derive(Default)]
pub(super) struct Map {
    /// (prefix in the lowered document, what wrote it)
    pub(super) entries: Vec<(String, Wrote)>,
}

pub(super) enum Wrote {
    /// A table of the scenario file (its path there).
    Scenario(String),
    /// A table of a profile (its keys under the prefix): the whole profile, or the table
    /// at the path given inside it (`costs` of a stack).
    Profile(Profile, String),
}

impl Map {
    pub(super) fn add_scenario(&mut self, prefix: &str, there: &str) {
        self.entries
            .push((prefix.to_string(), Wrote::Scenario(there.to_string())));
    }
    pub(super) fn add_profile(&mut self, prefix: &str, p: &Profile) {
        self.add_profile_table(prefix, p, "");
    }
    /// As [`Map::add_profile`], for the table at `within` inside the profile.
    pub(super) fn add_profile_table(&mut self, prefix: &str, p: &Profile, within: &str) {
        self.entries
            .push((prefix.to_string(), Wrote::Profile(p.clone(), within.to_string())));
    }

    /// The location of `path` of a lowered document (the longest prefix that wrote it),
    /// the key as the user wrote it there, and the other keys of the scenario file that
    /// may have written it (the same key of a profile the one named extends, which a
    /// `--set` may have changed).
    fn locate(&self, files: &[Source], path: &str) -> (Location, String, Vec<String>) {
        let best = self
            .entries
            .iter()
            .filter(|(p, _)| {
                path == p || path.starts_with(&format!("{p}.")) || path.starts_with(&format!("{p}["))
            })
            .max_by_key(|(p, _)| p.len());
        let Some((prefix, wrote)) = best else {
            let at = Location::FileOnly {
                path: files[0].path.clone(),
            };
            return (at, path.to_string(), Vec::new());
        };
        let rest = path[prefix.len()..].trim_start_matches('.');
        match wrote {
            Wrote::Scenario(there) => {
                let key = match (there.is_empty(), rest.is_empty()) {
                    (_, true) => there.clone(),
                    (true, false) => rest.to_string(),
                    (false, false) if rest.starts_with('[') => format!("{there}{rest}"),
                    (false, false) => format!("{there}.{rest}"),
                };
                (locate(&files[0], &key), key, Vec::new())
            }
            Wrote::Profile(p, within) => {
                let rel = match (within.is_empty(), rest.is_empty()) {
                    (true, _) => rest.to_string(),
                    (false, true) => within.clone(),
                    (false, false) => format!("{within}.{rest}"),
                };
                let key = if rel.is_empty() {
                    format!("{}.{}", p.kind, p.name)
                } else {
                    format!("{}.{}.{rel}", p.kind, p.name)
                };
                let others = p
                    .origins
                    .iter()
                    .filter(|o| o.file == 0)
                    .filter_map(|o| o.path_of(&rel))
                    .collect();
                (p.locate(files, &rel), key, others)
            }
        }
    }
}

/// Validates a lowered document, locating its errors where the keys were written.
pub(super) fn validate<'o>(
    mut d: toml::Table,
    linked: Vec<Linked>,
    services: Vec<LinkedService>,
    files: &[Source],
    map: &Map,
    source: &Source,
    at_set: impl Fn(&str) -> Option<&'o Override>,
) -> Result<Scenario, ScenarioError> {
    let locate = |e: FieldError| -> ScenarioError {
        // the user's key (in the scenario or a profile); a --set that wrote it wins
        let (at, key, others) = map.locate(files, &e.path);
        let set_other = others.iter().find_map(|k| Some((at_set(k)?, k.clone())));
        let (at, key) = match (at_set(&key).or_else(|| at_set(&e.path)), set_other) {
            (Some(o), _) => (Location::Set { arg: o.arg.clone() }, key),
            (None, Some((o, other))) => (Location::Set { arg: o.arg.clone() }, other),
            (None, None) => (at, key),
        };
        ScenarioError::Field {
            at,
            key,
            problem: Box::new(e.problem),
        }
    };
    durations::resolve_durations(&mut d).map_err(locate)?;
    let default_name = source
        .path
        .file_stem()
        .map_or("scenario".into(), |s| s.to_string_lossy());
    let mut warnings = Vec::new();
    let raw = de::from_value::<RawScenario>(toml::Value::Table(d), "").map_err(locate)?;
    let mut raw = raw;
    raw.linked = linked;
    raw.services = services;
    let mut s = raw.validate(&default_name, &mut warnings).map_err(locate)?;
    // a warning names the keys as the user wrote them
    let warnings = warnings
        .into_iter()
        .map(|w| user_keys(&w, |k| map.locate(files, k).1))
        .collect();
    s.path = source.path.clone();
    s.files = files.iter().skip(1).map(|f| f.path.clone()).collect();
    s.warnings = warnings;
    Ok(s)
}

/// `text` with each key of a lowered document in it (`workload.frame_bytes`,
/// `medium.allow_oversize`) replaced by the key the user wrote (`user`).
fn user_keys(text: &str, user: impl Fn(&str) -> String) -> String {
    const SECTIONS: [&str; 5] = ["workload.", "medium.", "adapter.", "nos.", "hosts."];
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some((at, _)) = SECTIONS
        .iter()
        .filter_map(|s| rest.find(s).map(|i| (i, *s)))
        .filter(|(i, _)| {
            *i == 0
                || !rest.as_bytes()[*i - 1].is_ascii_alphanumeric()
                    && rest.as_bytes()[*i - 1] != b'.'
                    && rest.as_bytes()[*i - 1] != b'_'
        })
        .min()
    {
        let end = rest[at..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || "._[]".contains(c)))
            .map_or(rest.len(), |e| at + e);
        let key = rest[at..end].trim_end_matches('.');
        out.push_str(&rest[..at]);
        out.push_str(&user(key));
        rest = &rest[at + key.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::user_keys;

    #[test]
    fn test_a_warning_names_the_keys_the_user_wrote() {
        let user = |k: &str| k.replace("workload.", "apps[0].").replace("medium.", "segment.");
        assert_eq!(
            user_keys(
                "workload.frame_bytes = 1600 exceeds 1518 (allowed by medium.allow_oversize).",
                user
            ),
            "apps[0].frame_bytes = 1600 exceeds 1518 (allowed by segment.allow_oversize)."
        );
        // a word that merely ends like a section is left alone
        assert_eq!(user_keys("subworkload.x and nos", user), "subworkload.x and nos");
    }
}
