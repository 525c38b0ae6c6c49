//! Scenario files: TOML in, a validated [`Scenario`] out, or an error that says where.
//!
//! The pipeline, in order:
//! 1. [`Source::read`]: the file's text (at most 1 MiB, UTF-8); TOML syntax errors carry
//!    line and column.
//! 2. The include: a top-level `hardware = "file.toml"` (relative to the scenario file)
//!    names a shared hardware description whose tables are deep-merged *under* the
//!    scenario's own ([`merge::merge_under`]: the scenario wins key by key).
//! 3. `--set KEY=VALUE` overrides ([`Override`]), applied last; then durations written
//!    with a unit (`duration_s = "500ms"`) become numbers in their key's own unit
//!    ([`durations::resolve_durations`]).
//! 4. Tier one: the raw serde structs ([`RawScenario`] and one per section or workload
//!    kind), which mirror the file and reject unknown keys ([`de::from_value`] adds the key
//!    path to serde's errors).
//! 5. Tier two: `validate` on each raw struct gives the model, checking ranges and
//!    consistency ([`FieldError`]).
//!
//! Every key is declared once in the parameter registry ([`params`]): unit, range with the
//! source of each bound, default, label and meaning. The validators take their ranges
//! from it, and the key reference (`docs/scenarios.md`) and chart labels are generated
//! from it.
//!
//! Every [`FieldError`] is then located ([`Sources`]): the `--set` argument that wrote the
//! key, else its line in the scenario file, else in the hardware file.
//!
//! Extending: a new top-level section is one field of [`RawScenario`] (a raw struct in its
//! own file), validated in [`RawScenario::validate`] and made available to the workloads
//! through [`Sections`]; a new workload kind is one file and one arm in [`workload`].
//! Either way its keys are declared in [`params`] (a test refuses an undeclared key).

pub mod budget;
pub mod card;
pub mod de;
mod durations;
pub mod error;
pub mod host;
pub mod lan;
pub mod lanperf;
mod link;
pub mod medium;
pub mod merge;
pub mod nodes;
pub mod params;
pub mod perform3;
mod renamed;
pub mod saturate;
pub mod services;
pub mod shared;
pub mod source;
pub mod stack;
pub mod traffic;
pub mod ttcp;
mod ttcp_keys;
pub mod unibus;
pub mod units;
pub mod workload;

use std::path::{Path, PathBuf};

use serde::Deserialize;

pub use error::{FieldError, Location, Problem, ScenarioError};
pub use medium::Medium;
pub use merge::Override;
pub use source::Source;
pub use workload::Workload;

/// Longest scenario name accepted, characters.
pub const MAX_NAME_CHARS: usize = 128;

/// The top level of a scenario file, as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    pub name: Option<String>,
    pub seed: Option<i64>,
    /// Path of the shared hardware file (already merged in when this struct is built).
    pub hardware: Option<String>,
    #[serde(default)]
    pub medium: medium::RawMedium,
    /// `[hosts]`, `[adapter]`, `[nos]`: a LAN's computers, cards and NOS (see [`lan`]).
    pub hosts: Option<lan::RawHosts>,
    pub adapter: Option<lan::RawCard>,
    pub nos: Option<lan::RawNos>,
    /// Kept as a table: its `kind` picks the raw struct (see [`workload::validate`]).
    pub workload: toml::Table,
    /// The scenarios `workload.ttcp` names, read by the loader (not a key of the file).
    #[serde(skip)]
    pub linked: Vec<shared::Linked>,
    /// The file services `workload.file_services` names, likewise.
    #[serde(skip)]
    pub services: Vec<shared::LinkedService>,
}

/// The validated sections a workload builds on.
pub struct Sections<'a> {
    pub medium: &'a Medium,
    /// Present when the scenario describes hosts, adapters and a NOS.
    pub lan: Option<&'a lan::LanProfile>,
    /// The scenarios a workload links (`workload.ttcp`), read and validated, in order.
    pub linked: &'a [shared::Linked],
    /// The file services a workload links (`workload.file_services`), likewise.
    pub services: &'a [shared::LinkedService],
}

/// A validated scenario, ready to run.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub name: String,
    /// The one seed of the run; every random stream is derived from it.
    pub seed: u64,
    /// The scenario file.
    pub path: PathBuf,
    /// The hardware file merged under it, if any.
    pub hardware: Option<PathBuf>,
    /// Every file read besides the scenario, in the order first read: its hardware file,
    /// or the profile files a scenario of nodes includes and takes `from`.
    pub files: Vec<PathBuf>,
    pub medium: Medium,
    pub workload: Workload,
    /// Things that are allowed but unusual (e.g. oversize frames), for the CLI to print.
    pub warnings: Vec<String>,
}

impl Scenario {
    /// One line: name, workload and seed.
    pub fn summary(&self) -> String {
        format!(
            "{:?}: {} workload, {}; seed {}",
            self.name,
            self.workload.kind(),
            self.workload.summary(),
            self.seed
        )
    }
}

impl RawScenario {
    /// Tier two: checks every section and builds the model. `default_name` is used when the
    /// file has no `name`.
    pub fn validate(self, default_name: &str, warnings: &mut Vec<String>) -> Result<Scenario, FieldError> {
        let valid = |n: &str| {
            !n.is_empty() && n.chars().count() <= MAX_NAME_CHARS && !n.chars().any(char::is_control)
        };
        if self.name.is_none() && !valid(default_name) {
            return Err(FieldError::invalid(
                "name",
                format!(
                    "missing, and the file name {:?} cannot stand in for it (a name is 1..={MAX_NAME_CHARS} \
                     printable characters); add name = \"...\" to the scenario",
                    error::clip(default_name, 40)
                ),
            ));
        }
        let name = self.name.unwrap_or_else(|| default_name.to_string());
        if !valid(&name) {
            return Err(FieldError::range(
                "name",
                format!("{:?}", error::clip(&name, 40)),
                format!("1..={MAX_NAME_CHARS} printable characters"),
            ));
        }
        let seed = match self.seed {
            None => 1,
            Some(s) if s >= params::int_range("seed").0 => s as u64,
            Some(s) => {
                let (lo, hi) = params::int_range("seed");
                return Err(FieldError::range("seed", s, format!("{lo}..={hi}"))
                    .with_note("the seed is an unsigned integer (use --seed for the full u64 range)"));
            }
        };
        let medium = self.medium.validate()?;
        let lan = match (self.hosts, self.adapter, self.nos) {
            (None, None, None) => None,
            (Some(h), Some(a), Some(n)) => Some(lan::validate(h, a, n, &medium, warnings)?),
            (h, a, _) => {
                let missing = if h.is_none() {
                    "hosts"
                } else if a.is_none() {
                    "adapter"
                } else {
                    "nos"
                };
                return Err(FieldError::invalid(
                    missing,
                    format!("missing section [{missing}]: a LAN needs all of [hosts], [adapter] and [nos]"),
                ));
            }
        };
        let sections = Sections {
            medium: &medium,
            lan: lan.as_ref(),
            linked: &self.linked,
            services: &self.services,
        };
        let workload = workload::validate(self.workload, &sections, warnings)?;
        Ok(Scenario {
            name,
            seed,
            path: PathBuf::new(),
            hardware: None,
            files: Vec::new(),
            medium,
            workload,
            warnings: Vec::new(),
        })
    }
}

/// Where the parts of a merged document came from, to locate errors.
pub struct Sources<'a> {
    pub scenario: &'a Source,
    pub hardware: Option<&'a Source>,
    pub overrides: &'a [Override],
}

impl Sources<'_> {
    /// Where the key at `path` was written.
    pub fn locate(&self, path: &str) -> Location {
        if let Some(o) = self.overrides.iter().rev().find(|o| o.covers(path)) {
            return Location::Set {
                arg: error::clip(&o.arg, 80),
            };
        }
        let steps = source::parse_path(path);
        let in_scenario = self.scenario.find(&steps).unwrap_or((0, 0));
        let in_hardware = self.hardware.and_then(|h| Some((h, h.find(&steps)?)));
        let full = steps.len();
        let (src, (depth, offset)) = match in_hardware {
            Some((h, found)) if in_scenario.0 < full && found.0 > in_scenario.0 => (h, found),
            _ => (self.scenario, in_scenario),
        };
        if depth == 0 {
            Location::FileOnly {
                path: src.path.clone(),
            }
        } else {
            src.location(offset)
        }
    }

    /// The located form of a field error.
    pub fn error(&self, e: FieldError) -> ScenarioError {
        ScenarioError::Field {
            at: self.locate(&e.path),
            key: e.path,
            problem: Box::new(e.problem),
        }
    }
}

/// Loads, merges, overrides and validates the scenario at `path`.
pub fn load(path: &Path, overrides: &[Override]) -> Result<Scenario, ScenarioError> {
    let source = Source::read(path)?;
    load_source(&source, overrides)
}

/// As [`load`], from a source already read; a `hardware` include is read relative to the
/// directory of `source.path`.
pub fn load_source(source: &Source, overrides: &[Override]) -> Result<Scenario, ScenarioError> {
    load_source_with(source, &[], overrides)
}

/// How an include named in `from` is found, for the message about one that is not there:
/// relative to `from`'s folder (to the current directory for standard input); `remedy`
/// says what to do (the export command is named after it).
pub(crate) fn include_rule(from: &Source, remedy: &str) -> String {
    if from.is_stdin() {
        return "a scenario read from standard input resolves its include relative to the \
                current directory; run from the scenario's folder, or give the include's path \
                from here"
            .to_string();
    }
    let dir = from.path.parent().unwrap_or(Path::new(""));
    let folder = if dir.as_os_str().is_empty() {
        ".".to_string()
    } else {
        dir.display().to_string()
    };
    format!(
        "an include is resolved relative to the folder of the file that names it, {folder}; \
         {remedy} (`ethersim scenarios export`)"
    )
}

/// `path` with `.` and `..` resolved lexically.
pub(crate) fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// As [`load_source`], with `includes` standing for files: a `hardware` include whose path
/// (relative to the scenario's folder) is one of theirs is taken from them, not read
/// (a scenario embedded in the binary, with its hardware file). A scenario read from
/// standard input ([`Source::is_stdin`]) resolves its include relative to the current
/// directory.
pub fn load_source_with(
    source: &Source,
    includes: &[Source],
    overrides: &[Override],
) -> Result<Scenario, ScenarioError> {
    let doc = source.parse().map_err(|e| match e {
        // in a file of nodes, the likeliest cause: a node or a profile named twice
        ScenarioError::Syntax {
            path,
            line,
            column,
            message,
        } if message.contains("duplicate key") && source.text.contains("[nodes.") => ScenarioError::Syntax {
            path,
            line,
            column,
            message: format!("{message} (a node, a profile or a key is named twice; each name once)"),
        },
        other => other,
    })?;
    // a LAN of named nodes and the applications placed on them
    if nodes::is_node_form(&doc) {
        return nodes::load(source, doc, includes, overrides);
    }
    let no_hw = Sources {
        scenario: source,
        hardware: None,
        overrides,
    };

    // The include: an override of `hardware` itself replaces the file's value.
    let hw_value = overrides
        .iter()
        .rev()
        .find(|o| o.keys.len() == 1 && o.keys[0] == "hardware")
        .map(|o| o.value.clone())
        .or_else(|| doc.get("hardware").cloned());
    let hardware = match hw_value {
        None => None,
        Some(toml::Value::String(rel)) => {
            let dir = source.path.parent().unwrap_or(Path::new(""));
            let hw_path = dir.join(&rel);
            let want = lexical(&hw_path);
            if let Some(embedded) = includes.iter().find(|s| lexical(&s.path) == want) {
                Some(embedded.clone())
            } else if !hw_path.is_file() {
                let rule = include_rule(
                    source,
                    "copy the hardware file beside the scenario, or export both",
                );
                return Err(ScenarioError::Include {
                    at: no_hw.locate("hardware"),
                    message: format!("{} is not a readable file ({rule})", hw_path.display()),
                });
            } else {
                Some(Source::read(&hw_path)?)
            }
        }
        Some(other) => {
            return Err(no_hw.error(FieldError::new(
                "hardware",
                Problem::WrongType {
                    message: format!("invalid type: {}, expected a file path string", other.type_str()),
                },
            )))
        }
    };
    load_with(source, hardware, overrides)
}

/// The rest of the pipeline once the hardware file (if any) has been read.
fn load_with(
    source: &Source,
    hardware: Option<Source>,
    overrides: &[Override],
) -> Result<Scenario, ScenarioError> {
    let mut doc = source.parse()?;
    if let Some(hw) = &hardware {
        let hw_doc = hw.parse()?;
        if hw_doc.contains_key("hardware") {
            let no_hw = Sources {
                scenario: source,
                hardware: None,
                overrides,
            };
            return Err(ScenarioError::Include {
                at: no_hw.locate("hardware"),
                message: format!(
                    "{} includes another file; only one level of include",
                    hw.path.display()
                ),
            });
        }
        let mut hw_doc = hw_doc;
        // a hardware file's workload of another kind is no default for this one
        let kind = |d: &toml::Table| d.get("workload")?.get("kind")?.as_str().map(str::to_owned);
        if let (Some(mine), Some(theirs)) = (kind(&doc), kind(&hw_doc)) {
            if mine != theirs {
                hw_doc.remove("workload");
            }
        }
        merge::merge_under(&mut doc, hw_doc);
    }
    let sources = Sources {
        scenario: source,
        hardware: hardware.as_ref(),
        overrides,
    };

    for o in overrides {
        o.apply(&mut doc)?;
    }
    // durations written with their unit ("500ms"), in the key's own unit from here on
    durations::resolve_durations(&mut doc).map_err(|e| sources.error(e))?;
    let default_name = source
        .path
        .file_stem()
        .map_or("scenario".into(), |s| s.to_string_lossy());
    let mut warnings = Vec::new();
    let linked = link::read_linked(&doc, source, &sources)?;
    let services = link::read_services(&doc, source, &sources)?;
    let validated = de::from_value::<RawScenario>(toml::Value::Table(doc), "").and_then(|mut raw| {
        raw.linked = linked;
        raw.services = services;
        raw.validate(&default_name, &mut warnings)
    });
    let mut scenario = match (validated, overrides.iter().find(|o| o.overflow.is_some())) {
        (Ok(s), None) => s,
        (Err(e), None) => return Err(sources.error(e)),
        // the key's own range check saw the clamped value: report it with the value written
        (
            Err(FieldError {
                path,
                problem: Problem::OutOfRange { allowed, note, .. },
            }),
            Some(o),
        ) if o.covers(&path) => {
            return Err(sources.error(FieldError::new(
                path,
                Problem::OutOfRange {
                    value: error::clip(o.overflow.as_deref().unwrap_or_default(), 40),
                    allowed,
                    note,
                },
            )))
        }
        (_, Some(o)) => {
            return Err(sources.error(
                FieldError::range(
                    o.key(),
                    error::clip(o.overflow.as_deref().unwrap_or_default(), 40),
                    format!("{}..={}", i64::MIN, i64::MAX),
                )
                .with_note("integers are 64-bit signed"),
            ))
        }
    };
    scenario.path = source.path.clone();
    scenario.files = hardware.iter().map(|h| h.path.clone()).collect();
    scenario.hardware = hardware.map(|h| h.path);
    scenario.warnings = warnings;
    Ok(scenario)
}

/// Validates scenario text with no file behind it (embedded in the program, or a
/// calibration's trial), with an optional hardware file `(name, text)` standing for its
/// `hardware` include, or, in a scenario of nodes, for the file of that path its profiles
/// take `from` (the other files its profiles need are read from disk).
pub fn load_embedded(
    name: &str,
    text: &str,
    hardware: Option<(&str, &str)>,
    overrides: &[Override],
) -> Result<Scenario, ScenarioError> {
    let source = Source::from_bytes(Path::new(name), text.as_bytes().to_vec())?;
    let hw = match hardware {
        Some((n, t)) => Some(Source::from_bytes(Path::new(n), t.as_bytes().to_vec())?),
        None => None,
    };
    let doc = source.parse()?;
    if nodes::is_node_form(&doc) {
        return nodes::load(&source, doc, hw.as_slice(), overrides);
    }
    load_with(&source, hw, overrides)
}

/// Validates scenario text that has no file behind it (tests and fuzzing): `name` is used
/// in messages and as the base of a relative `hardware` path.
pub fn load_str(name: &str, text: &str, overrides: &[Override]) -> Result<Scenario, ScenarioError> {
    let source = Source::from_bytes(Path::new(name), text.as_bytes().to_vec())?;
    load_source(&source, overrides)
}
