//! The key reference, generated from the registry: Markdown for `docs/scenarios.md`
//! ([`reference_markdown`]) and a plain list, one key a line ([`key_list`]).

use super::{Param, Presence, Range, SECTIONS};
use crate::scenario::error::show;

/// The range of `p` in words: `2..=80`, `(0, 2500]`, `"a", "b"`, with its unit.
pub fn range_text(p: &Param) -> String {
    let unit = if p.unit.is_empty() {
        String::new()
    } else {
        format!(" {}", p.unit)
    };
    match p.range {
        Range::Int { min, max } => format!("{}..={}{unit}", min.value, max.value),
        Range::Real { min, max, min_open } => {
            let open = if min_open { "(" } else { "[" };
            format!("{open}{}, {}]{unit}", show(min.value), show(max.value))
        }
        Range::Choice { names, .. } => names
            .iter()
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(", "),
        Range::Ints { values, .. } => {
            let v: Vec<String> = values.iter().map(i64::to_string).collect();
            format!("{}{unit}", v.join(", "))
        }
        Range::Bool => "true, false".to_string(),
        Range::Text { .. } => "text".to_string(),
    }
}

/// Where the bounds come from, in words.
fn sources_text(p: &Param) -> String {
    match p.range {
        Range::Int { min, max } if min.source == max.source => min.source.to_string(),
        Range::Int { min, max } => format!("min: {}; max: {}", min.source, max.source),
        Range::Real { min, max, .. } if min.source == max.source => min.source.to_string(),
        Range::Real { min, max, .. } => format!("min: {}; max: {}", min.source, max.source),
        Range::Choice { source, .. } | Range::Ints { source, .. } | Range::Text { source } => {
            source.to_string()
        }
        Range::Bool => String::new(),
    }
}

fn default_text(p: &Param) -> String {
    match p.default {
        Presence::Required => "required".to_string(),
        Presence::Value(v) => v.to_string(),
    }
}

/// `|` would end a table cell.
fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}

/// The whole key reference as Markdown: one table per section, a row per key with its
/// range (and the source of each bound), default, unit and meaning.
pub fn reference_markdown() -> String {
    let mut s = String::from(
        "# Scenario keys\n\n\
         Generated from the parameter registry (`src/scenario/params/`) by\n\
         `ethersim::scenario::params::reference_markdown()`; do not edit by hand. After a\n\
         change to the registry, rewrite it with\n\
         `ETHERSIM_BLESS=1 cargo test --test scenario_reference`.\n\n\
         Keys are written as `--set` takes them. `*` stands for a name the file chooses;\n\
         a key marked \"list\" holds an array of such values. A range `[a, b]` includes both\n\
         ends, `(a, b]` excludes `a`; `a..=b` is a range of integers.\n\n\
         A key whose unit is a time (`s`, `ms`, `ns`) takes a number in that unit, or a string\n\
         with its own unit, as the command line's times do: `duration_s = \"500ms\"`,\n\
         `\"2.5 s\"`, `\"250us\"` (or `µs`), `\"100ns\"`. It is converted to the key's unit and\n\
         checked against the range below; a key of whole numbers must come out whole.\n\n\
         The sections below are those of a scenario of one workload and of the reproductions'\n\
         hardware files. A scenario of nodes and applications (the form of every shipped\n\
         scenario; [the guide](guide.md#scenarios-of-nodes-and-applications)) holds the same\n\
         keys elsewhere: `[segment]` those of `[medium]`; a host profile `[hosts.NAME]` those\n\
         of `[hosts.server]` (a file service's host) or `[workload.hosts.*]` (a TCP/IP host); a\n\
         card `[adapters.NAME]` those of `[adapter]` or `[workload.cards.*]`; a stack\n\
         `[stacks.NAME]` those of `[nos]` or `[workload.stack]` (its CPU costs in a `costs`\n\
         table); an application `[[apps]]` the `[workload]` keys of its kind. A group's size\n\
         is `nodes.NAME.count`, and the run's window or duration is under `[run]`.\n",
    );
    for sec in SECTIONS {
        s.push_str(&format!("\n## {}\n\n{}\n\n", sec.title, sec.about));
        s.push_str("| key | range | default | meaning | bounds from |\n");
        s.push_str("|---|---|---|---|---|\n");
        for p in sec.params {
            let list = if p.list { " (list)" } else { "" };
            s.push_str(&format!(
                "| `{}`{list} | {} | {} | {} | {} |\n",
                p.key,
                cell(&range_text(p)),
                cell(&default_text(p)),
                cell(p.meaning),
                cell(&sources_text(p)),
            ));
        }
    }
    s
}

/// Every registered key, one a line: key, workload kind (or `-`), range, default, label,
/// separated by tabs.
pub fn key_list() -> String {
    let mut s = String::new();
    for p in super::all() {
        s.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\n",
            p.key,
            p.kind.unwrap_or("-"),
            range_text(p),
            default_text(p),
            p.label
        ));
    }
    s
}
