//! The `[nodes.NAME]` tables of a scenario of nodes: each a node (or a group of `count`
//! alike nodes) naming its host, adapter and stack profiles, resolved from the catalogue,
//! or a group of bare stations naming none (a background group's).

use std::collections::BTreeMap;

use super::super::error::{Problem, ScenarioError};
use super::profiles::{error_at, Catalogue, Profile};
use super::{family, invalid, str_of, unknown_key, Node, NODE_KEYS};

/// The nodes of a scenario.
pub(super) struct Nodes {
    /// Nodes with a host, an adapter and a stack, by name.
    pub full: BTreeMap<String, Node>,
    /// Groups of bare stations, by name, and their count.
    pub bare: BTreeMap<String, i64>,
}

/// Reads the `[nodes]` tables of `doc`, resolving their profiles in `cat`.
pub(super) fn read_nodes(doc: &toml::Table, cat: &mut Catalogue<'_>) -> Result<Nodes, ScenarioError> {
    let Some(nodes_v) = doc.get("nodes").and_then(toml::Value::as_table) else {
        return Err(error_at(
            &cat.files,
            0,
            "nodes",
            invalid("a LAN needs [nodes.NAME] tables: its nodes"),
        ));
    };
    let mut nodes: BTreeMap<String, Node> = BTreeMap::new();
    // bare stations (no host, card or stack: a background group's), and their count
    let mut bare: BTreeMap<String, i64> = BTreeMap::new();
    for (name, v) in nodes_v {
        let here = format!("nodes.{name}");
        let Some(t) = v.as_table() else {
            return Err(error_at(
                &cat.files,
                0,
                &here,
                invalid("expected a node (a table)"),
            ));
        };
        for k in t.keys() {
            if !NODE_KEYS.contains(&k.as_str()) {
                return Err(error_at(
                    &cat.files,
                    0,
                    &format!("{here}.{k}"),
                    unknown_key(k, NODE_KEYS),
                ));
            }
        }
        let count = match t.get("count") {
            None => 1,
            // an empty group is allowed (a file service with no workstations beside a ttcp
            // transfer: the transfer alone); each application checks the stations it needs
            Some(toml::Value::Integer(n)) if (0..=1024).contains(n) => *n,
            Some(v) => {
                return Err(error_at(
                    &cat.files,
                    0,
                    &format!("{here}.count"),
                    Problem::OutOfRange {
                        value: v.to_string(),
                        allowed: "0..=1024".into(),
                        note: Some("802.3 8.1.2: 1024 stations in a collision domain".into()),
                    },
                ))
            }
        };
        let mut profile = |kind: &'static str, key: &str| -> Result<Profile, ScenarioError> {
            let k = format!("{here}.{key}");
            match str_of(t, key) {
                Some(n) => cat.resolve(kind, n, 0, &k),
                None => Err(error_at(
                    &cat.files,
                    0,
                    &here,
                    invalid(format!(
                        "node {name:?} needs `{key}` (a profile name): a node names its host, \
                         adapter and stack, or none of them (a bare station of a background group)"
                    )),
                )),
            }
        };
        if !["host", "adapter", "stack"].iter().any(|k| t.contains_key(*k)) {
            bare.insert(name.clone(), count);
            continue;
        }
        let host = profile("hosts", "host")?;
        let adapter = profile("adapters", "adapter")?;
        let stack = profile("stacks", "stack")?;
        if !["lantastic", "tcpip"].contains(&family(&stack)) {
            return Err(error_at(
                &cat.files,
                0,
                &format!("{here}.stack"),
                invalid(format!(
                    "stack profile {:?} has no family (\"lantastic\" or \"tcpip\")",
                    stack.name
                )),
            ));
        }
        nodes.insert(
            name.clone(),
            Node {
                name: name.clone(),
                count,
                host,
                adapter,
                stack,
            },
        );
    }
    Ok(Nodes { full: nodes, bare })
}
