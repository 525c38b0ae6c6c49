//! The parameter registry: one declaration per scenario key, in the manner of an OMNeT++
//! NED parameter (`double delay @unit(s) = default(0.5us); // doc`).
//!
//! Each [`Param`] holds the key (dotted, as `--set` takes it; `*` stands for a name the
//! file chooses, as in `workload.hosts.*.mips`), its unit, its allowed [`Range`] with the
//! source of each bound, its default (or "required"), a label for charts and tables (with
//! the unit) and a one-line meaning. The declarations are static data, one file per
//! section ([`top`], [`medium`], [`lan`], [`nos`], [`workloads`], [`ttcp`], [`stack`]),
//! gathered in [`SECTIONS`].
//!
//! Readers: the validators of `src/scenario/*.rs` take every static bound from here
//! ([`int_range`], [`real_range`], [`Param::choices`]); a bound that depends on another
//! key (`nos.*.ailanbio.size` must exceed `nos.protocol.header_bytes`) is computed by the
//! validator and described in the bound's source. Chart and sweep labels
//! (`report::figures::param_label`) come from [`label`]; the key reference
//! (`docs/scenarios.md`) is [`reference_markdown`]; [`key_list`] is the plain list.
//!
//! Invariants (tests below and in `tests/scenario_reference.rs`): keys are unique within a
//! workload kind; every key the raw serde structs accept is registered and every
//! registered key is accepted; `min <= max`. Units are the key's own (the suffix of its
//! name where it has one: `_ms`, `_ns`, `_bytes`, `_kinstr`).

pub mod lan;
pub mod medium;
pub mod nos;
mod reference;
pub mod stack;
pub mod top;
pub mod ttcp;
pub mod workloads;

pub use reference::{key_list, reference_markdown};

/// One bound of a range and where it comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bound<T> {
    pub value: T,
    /// A short citation: the 802.3 clause, a datasheet, the seed document, or
    /// "engineering bound: ..." where the limit is ours.
    pub source: &'static str,
}

/// What values a key takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Range {
    /// An integer in `min..=max`.
    Int { min: Bound<i64>, max: Bound<i64> },
    /// A finite number in `[min, max]`, or `(min, max]` when `min_open`.
    Real {
        min: Bound<f64>,
        max: Bound<f64>,
        min_open: bool,
    },
    /// One of a fixed set of names.
    Choice {
        names: &'static [&'static str],
        source: &'static str,
    },
    /// One of a fixed set of integers.
    Ints {
        values: &'static [i64],
        source: &'static str,
    },
    /// `true` or `false`.
    Bool,
    /// Free text (a name), with its own limits described in `source`.
    Text { source: &'static str },
}

/// A key's default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    /// The key must be given (in the scenario or its hardware file).
    Required,
    /// The value (or the rule) used when the key is absent, as the reference prints it.
    Value(&'static str),
}

/// One scenario key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    /// Dotted key, as `--set` takes it; `*` for a name the file chooses.
    pub key: &'static str,
    /// The workload kind the key belongs to, for keys under `[workload]`.
    pub kind: Option<&'static str>,
    /// Unit of the value ("" for a pure number, a name or a switch).
    pub unit: &'static str,
    pub range: Range,
    /// The key holds an array of such values (`medium.positions_m`).
    pub list: bool,
    pub default: Presence,
    /// For a chart axis or a table heading, with the unit.
    pub label: &'static str,
    /// One line: what the key means.
    pub meaning: &'static str,
}

impl Param {
    const fn new(key: &'static str, range: Range) -> Param {
        Param {
            key,
            kind: None,
            unit: "",
            range,
            list: false,
            default: Presence::Required,
            label: "",
            meaning: "",
        }
    }

    /// An integer key in `min..=max`, each bound with its source.
    pub const fn int(key: &'static str, min: (i64, &'static str), max: (i64, &'static str)) -> Param {
        Param::new(
            key,
            Range::Int {
                min: Bound {
                    value: min.0,
                    source: min.1,
                },
                max: Bound {
                    value: max.0,
                    source: max.1,
                },
            },
        )
    }

    /// A number key in `[min, max]`.
    pub const fn real(key: &'static str, min: (f64, &'static str), max: (f64, &'static str)) -> Param {
        Param::new(
            key,
            Range::Real {
                min: Bound {
                    value: min.0,
                    source: min.1,
                },
                max: Bound {
                    value: max.0,
                    source: max.1,
                },
                min_open: false,
            },
        )
    }

    /// A number key in `(min, max]`.
    pub const fn real_above(key: &'static str, min: (f64, &'static str), max: (f64, &'static str)) -> Param {
        let mut p = Param::real(key, min, max);
        if let Range::Real { min, max, .. } = p.range {
            p.range = Range::Real {
                min,
                max,
                min_open: true,
            };
        }
        p
    }

    /// A key naming one of `names`.
    pub const fn choice(key: &'static str, names: &'static [&'static str], source: &'static str) -> Param {
        Param::new(key, Range::Choice { names, source })
    }

    /// An integer key taking one of `values`.
    pub const fn ints(key: &'static str, values: &'static [i64], source: &'static str) -> Param {
        Param::new(key, Range::Ints { values, source })
    }

    /// A `true`/`false` key.
    pub const fn flag(key: &'static str) -> Param {
        Param::new(key, Range::Bool)
    }

    /// A free-text key.
    pub const fn text(key: &'static str, source: &'static str) -> Param {
        Param::new(key, Range::Text { source })
    }

    pub const fn unit(mut self, unit: &'static str) -> Param {
        self.unit = unit;
        self
    }

    /// The value used when the key is absent.
    pub const fn default(mut self, value: &'static str) -> Param {
        self.default = Presence::Value(value);
        self
    }

    pub const fn list(mut self) -> Param {
        self.list = true;
        self
    }

    pub const fn kind(mut self, kind: &'static str) -> Param {
        self.kind = Some(kind);
        self
    }

    pub const fn label(mut self, label: &'static str) -> Param {
        self.label = label;
        self
    }

    pub const fn means(mut self, meaning: &'static str) -> Param {
        self.meaning = meaning;
        self
    }

    /// Does this entry describe the key at `path` (`[i]` indices and the file's own names
    /// at `*` allowed)?
    pub fn matches(&self, path: &str) -> bool {
        let path = strip_indices(path);
        let mut want = self.key.split('.');
        let mut have = path.split('.');
        loop {
            match (want.next(), have.next()) {
                (None, None) => return true,
                (Some("*"), Some(_)) => {}
                (Some(w), Some(h)) if w == h => {}
                _ => return false,
            }
        }
    }

    /// The integer range `(min, max)`; panics if the key is not an integer key (a
    /// programming error that the registry's tests catch).
    pub fn int_range(&self) -> (i64, i64) {
        match self.range {
            Range::Int { min, max } => (min.value, max.value),
            r => panic!("parameter {} is not an integer: {r:?}", self.key),
        }
    }

    /// The number range `(min, max)`; panics if the key is not a number key.
    pub fn real_range(&self) -> (f64, f64) {
        match self.range {
            Range::Real { min, max, .. } => (min.value, max.value),
            r => panic!("parameter {} is not a number: {r:?}", self.key),
        }
    }

    /// Is the lower bound excluded (`(min, max]`)?
    pub fn min_open(&self) -> bool {
        matches!(self.range, Range::Real { min_open: true, .. })
    }

    /// The integers a key of fixed values takes; panics for any other key.
    pub fn int_values(&self) -> &'static [i64] {
        match self.range {
            Range::Ints { values, .. } => values,
            r => panic!("parameter {} is not a set of integers: {r:?}", self.key),
        }
    }

    /// The names a choice key takes; panics if the key is not a choice.
    pub fn choices(&self) -> &'static [&'static str] {
        match self.range {
            Range::Choice { names, .. } => names,
            r => panic!("parameter {} is not a choice: {r:?}", self.key),
        }
    }
}

/// `path` without array indices: `medium.positions_m[3]` -> `medium.positions_m`.
fn strip_indices(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut depth = 0;
    for c in path.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// A group of keys as the reference shows it: a title, a paragraph, the keys.
#[derive(Clone, Copy, Debug)]
pub struct Section {
    pub title: &'static str,
    pub about: &'static str,
    pub params: &'static [Param],
}

/// Every section, in the order of the reference.
pub const SECTIONS: &[Section] = &[
    top::SECTION,
    medium::SECTION,
    lan::HOSTS,
    lan::ADAPTER,
    nos::SECTION,
    workloads::WORKLOAD,
    workloads::SATURATE,
    workloads::TRAFFIC,
    workloads::PERFORM3,
    workloads::LANPERF,
    workloads::SHARED,
    ttcp::SECTION,
    stack::SECTION,
];

/// Every registered parameter, section by section.
pub fn all() -> impl Iterator<Item = &'static Param> {
    SECTIONS.iter().flat_map(|s| s.params.iter())
}

/// The entry for the key at `path` (the first registered, if workload kinds share it).
pub fn find(path: &str) -> Option<&'static Param> {
    all().find(|p| p.matches(path))
}

/// The entry for the key at `path` of workload kind `kind` (or of no kind).
pub fn find_for(kind: Option<&str>, path: &str) -> Option<&'static Param> {
    all().find(|p| (p.kind.is_none() || p.kind == kind) && p.matches(path))
}

/// The entry of registered key `key` of workload `kind`; panics if there is none (the
/// validators name only registered keys, which the tests check).
pub fn get(kind: Option<&str>, key: &str) -> &'static Param {
    all()
        .find(|p| p.key == key && (p.kind.is_none() || p.kind == kind))
        .unwrap_or_else(|| panic!("scenario key {key} (kind {kind:?}) is not in the parameter registry"))
}

/// `(min, max)` of integer key `key` (a key of no workload kind, or unique).
pub fn int_range(key: &str) -> (i64, i64) {
    get(None, key).int_range()
}

/// `(min, max)` of number key `key`.
pub fn real_range(key: &str) -> (f64, f64) {
    get(None, key).real_range()
}

/// The label of the key at `path` for a chart axis, a legend or a table heading; the
/// path itself when the key is not registered.
pub fn label(path: &str) -> String {
    let of = |path: &str| {
        find(path)
            // a table with a `kind` (workload.sizes): the label of its kind
            .or_else(|| find(&format!("{path}.kind")))
            .map(|p| p.label.to_string())
    };
    of(path)
        .or_else(|| workload_keys(path).iter().find_map(|k| of(k)))
        .unwrap_or_else(|| path.to_string())
}

/// The keys of a scenario of one workload that a key of a scenario of nodes and
/// applications may stand for, likeliest first: `segment.X` is `medium.X`; `run.X` and
/// `apps[N].X` are `workload.X`; a group's `nodes.G.count` is `workload.G` or
/// `workload.stations`; a profile's key is the section's (`adapters.P.X` the
/// `adapter.P.X` of a workstation's side, else `adapter.X` or a ttcp card's
/// `workload.cards.P.X`; `hosts.P.X` or `workload.hosts.P.X`; `stacks.P.X` in `nos`,
/// or a ttcp stack's `workload.stack.X` and `workload.X`).
fn workload_keys(path: &str) -> Vec<String> {
    let parts: Vec<&str> = path.splitn(3, '.').collect();
    let rest = |from: usize| path.splitn(from + 1, '.').nth(from).unwrap_or("").to_string();
    match parts.as_slice() {
        ["segment", ..] => vec![format!("medium.{}", rest(1))],
        ["run", ..] => vec![format!("workload.{}", rest(1))],
        [app, ..] if app.starts_with("apps[") => vec![format!("workload.{}", rest(1))],
        ["adapters", name, x] => vec![
            format!("adapter.{name}.{x}"),
            format!("adapter.{x}"),
            format!("workload.cards.{name}.{x}"),
        ],
        ["hosts", name, x] => vec![format!("hosts.{name}.{x}"), format!("workload.hosts.{name}.{x}")],
        // a group's count: its stations (the workstations of a file service)
        ["nodes", group, "count"] => vec![format!("workload.{group}"), "workload.stations".into()],
        ["stacks", _, x] => vec![
            format!("nos.{x}"),
            format!("workload.stack.{x}"),
            format!("workload.{x}"),
        ],
        _ => Vec::new(),
    }
}

/// A duration at key `path` by the registry entry `p`: its unit (`s` or `ms`) and range;
/// 0 is allowed when the range starts at 0 and includes it.
pub fn param_duration(
    p: &Param,
    path: &str,
    v: f64,
) -> Result<crate::time::SimDuration, crate::scenario::error::FieldError> {
    let range = p.real_range();
    let allow_zero = range.0 == 0.0 && !p.min_open();
    match p.unit {
        "s" => crate::scenario::units::seconds(path, v, range, allow_zero),
        "ms" => crate::scenario::units::millis(path, v, range, allow_zero),
        u => panic!("parameter {} is not a duration (unit {u:?})", p.key),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_keys_are_unique_per_kind() {
        let v: Vec<&Param> = all().collect();
        for (i, p) in v.iter().enumerate() {
            for q in &v[i + 1..] {
                assert!(
                    !(p.key == q.key && (p.kind == q.kind || p.kind.is_none() || q.kind.is_none())),
                    "{} twice",
                    p.key
                );
            }
        }
    }

    #[test]
    fn test_every_entry_is_complete_and_ordered() {
        for p in all() {
            assert!(!p.label.is_empty(), "{} has no label", p.key);
            assert!(!p.meaning.is_empty(), "{} has no meaning", p.key);
            assert!(!p.meaning.contains('\n') && !p.label.contains('\n'), "{}", p.key);
            match p.range {
                Range::Int { min, max } => {
                    assert!(min.value <= max.value, "{}", p.key);
                    assert!(!min.source.is_empty() && !max.source.is_empty(), "{}", p.key);
                }
                Range::Real { min, max, .. } => {
                    assert!(min.value <= max.value, "{}", p.key);
                    assert!(!min.source.is_empty() && !max.source.is_empty(), "{}", p.key);
                }
                Range::Choice { names, source } => {
                    assert!(!names.is_empty() && !source.is_empty(), "{}", p.key)
                }
                Range::Ints { values, source } => {
                    assert!(!values.is_empty() && !source.is_empty(), "{}", p.key)
                }
                Range::Bool | Range::Text { .. } => {}
            }
        }
    }

    #[test]
    fn test_limits_kept_beside_their_validators_are_the_ones_declared() {
        let Range::Text { source } = get(None, "name").range else {
            panic!("name is text")
        };
        assert!(source.starts_with(&format!("1..={} ", crate::scenario::MAX_NAME_CHARS)));
        let sizes = get(Some("perform3"), "workload.block_sizes").meaning;
        let most = crate::scenario::perform3::MAX_BLOCK_SIZES;
        assert!(sizes.contains(&format!("1 to {most} of them")), "{sizes}");
        let table = get(Some("traffic"), "workload.sizes.bytes").meaning;
        let most = crate::scenario::traffic::MAX_TABLE_ENTRIES;
        assert!(table.contains(&format!("1 to {most} of them")), "{table}");
    }

    #[test]
    fn test_matching_keys_with_names_and_indices() {
        assert_eq!(find("medium.positions_m[2]").unwrap().key, "medium.positions_m");
        assert_eq!(
            find("workload.hosts.pc486.isa.clock_mhz").unwrap().key,
            "workload.hosts.*.isa.clock_mhz"
        );
        assert!(find("workload.hosts.pc486").is_none());
        assert_eq!(
            find_for(Some("lanperf"), "workload.stations")
                .unwrap()
                .int_range(),
            (1, 1023)
        );
        assert_eq!(
            find_for(Some("saturate"), "workload.stations")
                .unwrap()
                .int_range(),
            (1, 1024)
        );
        assert_eq!(label("adapter.transmit_buffers"), "AEX TRANSMIT_BUFFERS (frames)");
        // the keys of a scenario of nodes and applications take their section's label
        assert_eq!(
            label("adapters.server.transmit_buffers"),
            "AEX TRANSMIT_BUFFERS (frames)"
        );
        assert_eq!(
            label("adapters.workstation.transmit_buffers"),
            "Workstation AEX TRANSMIT_BUFFERS (frames)"
        );
        assert_eq!(label("segment.length_m"), label("medium.length_m"));
        assert_eq!(label("apps[0].block_sizes"), label("workload.block_sizes"));
        assert_eq!(
            label("stacks.server.server.run_burst"),
            label("nos.server.run_burst")
        );
        assert_eq!(label("nodes.ws.count"), label("workload.stations"));
        assert_eq!(label("nodes.workstations.count"), label("workload.workstations"));
        assert_eq!(label("nos.costs.x"), "nos.costs.x");
    }
}
