//! The `[[apps]]` of a scenario of nodes, placed on its nodes: each application's keys,
//! the nodes it names, and the stack each needs there (a LANtastic server and
//! workstations for a file service, TCP/IP for ttcp, bare stations for a background
//! group); each node runs one application.

use std::collections::BTreeMap;

use super::super::de;
use super::super::error::{Problem, ScenarioError};
use super::super::source::Source;
use super::profiles::error_at;
use super::{
    family, invalid, role, str_of, unknown_key, Node, APP_KINDS, LANPERF_KEYS, PERFORM3_KEYS, SATURATE_KEYS,
    TRAFFIC_KEYS, TTCP_KEYS,
};

/// The `[[apps]]` tables of `doc`, in order.
pub(super) fn read_apps(doc: &toml::Table, files: &[Source]) -> Result<Vec<toml::Table>, ScenarioError> {
    let apps: Vec<toml::Table> = match doc.get("apps") {
        None => Vec::new(),
        Some(toml::Value::Array(a)) => a.iter().filter_map(|v| v.as_table().cloned()).collect(),
        Some(_) => return Err(error_at(files, 0, "apps", invalid("expected [[apps]] tables"))),
    };
    if apps.is_empty() {
        return Err(error_at(
            files,
            0,
            "nodes",
            invalid("no application runs on the nodes: add [[apps]]"),
        ));
    }
    Ok(apps)
}

/// Where the applications run.
pub(super) struct Placement<'n> {
    /// Each file service's application (perform3, any number; or one lanperf): its index,
    /// server and clients.
    pub perform3: Vec<(usize, &'n Node, &'n Node)>,
    /// Each ttcp transfer: its index, transmitter and receiver.
    pub ttcp: Vec<(usize, &'n Node, &'n Node)>,
    /// Background groups: each one's index, group name and count.
    pub background: Vec<(usize, String, i64)>,
}

/// Places `apps` on `nodes` (with a host, an adapter and a stack) and `bare` (groups of
/// bare stations, and their counts), checking each application's keys and nodes.
pub(super) fn place<'n>(
    apps: &[toml::Table],
    nodes: &'n BTreeMap<String, Node>,
    bare: &BTreeMap<String, i64>,
    files: &[Source],
) -> Result<Placement<'n>, ScenarioError> {
    let node_names: Vec<String> = nodes.keys().chain(bare.keys()).cloned().collect();
    let mut perform3: Vec<(usize, &Node, &Node)> = Vec::new();
    let mut ttcp: Vec<(usize, &Node, &Node)> = Vec::new();
    let mut used: BTreeMap<String, usize> = BTreeMap::new();
    // background groups: (app index, group name, its count)
    let mut background: Vec<(usize, String, i64)> = Vec::new();
    for (i, app) in apps.iter().enumerate() {
        let here = format!("apps[{i}]");
        let kind = str_of(app, "kind").unwrap_or("");
        let keys = match kind {
            "perform3" => PERFORM3_KEYS,
            "lanperf" => LANPERF_KEYS,
            "ttcp" => TTCP_KEYS,
            "traffic" => TRAFFIC_KEYS,
            "saturate" => SATURATE_KEYS,
            _ => {
                let valid: Vec<String> = APP_KINDS.iter().map(|s| s.to_string()).collect();
                return Err(error_at(
                    files,
                    0,
                    &format!("{here}.kind"),
                    Problem::UnknownVariant {
                        value: kind.to_string(),
                        suggestions: de::nearest(kind, &valid),
                        valid,
                    },
                ));
            }
        };
        for k in app.keys() {
            if !keys.contains(&k.as_str()) {
                return Err(error_at(files, 0, &format!("{here}.{k}"), unknown_key(k, keys)));
            }
        }
        // a node named by key `key` of this application
        let node = |key: &str, missing: &str| -> Result<&Node, ScenarioError> {
            let Some(n) = str_of(app, key) else {
                return Err(error_at(files, 0, &here, invalid(missing.to_string())));
            };
            if bare.contains_key(n) {
                return Err(error_at(
                    files,
                    0,
                    &format!("{here}.{key}"),
                    invalid(format!(
                        "{kind} needs a node with a host, an adapter and a stack; {n:?} is a bare \
                         station (it names none), which only a background group (traffic, \
                         saturate) runs on"
                    )),
                ));
            }
            nodes.get(n).ok_or_else(|| {
                error_at(
                    files,
                    0,
                    &format!("{here}.{key}"),
                    Problem::UnknownVariant {
                        value: n.to_string(),
                        suggestions: de::nearest(n, &node_names),
                        valid: node_names.clone(),
                    },
                )
            })
        };
        // a node's stack must be `want` (and `want_role` for LANtastic)
        let needs = |n: &Node,
                     key: &str,
                     want: &str,
                     want_role: Option<&str>,
                     what: &str|
         -> Result<(), ScenarioError> {
            let ok = family(&n.stack) == want && want_role.is_none_or(|r| role(&n.stack) == r);
            if ok {
                // the stack's model moves frames through the card's engines it has
                let engine = str_of(&n.adapter.table, "engine").unwrap_or("programmed_io");
                let (fits, engines) = if want == "lantastic" {
                    (
                        engine == "programmed_io",
                        "\"programmed_io\" (an NE2000-class card)".to_string(),
                    )
                } else {
                    (
                        super::super::ttcp::TCP_ENGINES.contains(&engine),
                        super::super::ttcp::TCP_ENGINES
                            .map(|e| format!("{e:?}"))
                            .join(", "),
                    )
                };
                if fits {
                    return Ok(());
                }
                return Err(error_at(
                    files,
                    0,
                    &format!("nodes.{}.adapter", n.name),
                    invalid(format!(
                        "the card {:?} moves frames by engine {engine:?}; {kind} on {what} runs on a \
                         card whose engine is {engines}",
                        n.adapter.name
                    )),
                ));
            }
            Err(error_at(
                files,
                0,
                &format!("{here}.{key}"),
                invalid(format!(
                    "{kind} needs {what} on node {:?}, whose stack {:?} is {} {}; place it on a \
                     node whose stack is {what}",
                    n.name,
                    n.stack.name,
                    family(&n.stack),
                    role(&n.stack)
                )),
            ))
        };
        let mut claim = |n: &Node, key: &str| -> Result<(), ScenarioError> {
            if let Some(j) = used.insert(n.name.clone(), i) {
                return Err(error_at(
                    files,
                    0,
                    &format!("{here}.{key}"),
                    invalid(format!(
                        "node {:?} already runs apps[{j}]: each node runs one application",
                        n.name
                    )),
                ));
            }
            Ok(())
        };
        match kind {
            "traffic" | "saturate" => {
                let Some(g) = str_of(app, "senders") else {
                    return Err(error_at(
                        files,
                        0,
                        &here,
                        invalid(format!(
                            "{kind} needs `senders`, the group of bare stations that send"
                        )),
                    ));
                };
                let Some(&count) = bare.get(g) else {
                    let problem = if nodes.contains_key(g) {
                        invalid(format!(
                            "{kind} runs on bare stations (their MAC alone: no host, card or \
                             stack); node {g:?} names a host, an adapter and a stack: give the \
                             group none of them"
                        ))
                    } else {
                        Problem::UnknownVariant {
                            value: g.to_string(),
                            suggestions: de::nearest(g, &node_names),
                            valid: node_names.clone(),
                        }
                    };
                    return Err(error_at(files, 0, &format!("{here}.senders"), problem));
                };
                if let Some(j) = used.insert(g.to_string(), i) {
                    return Err(error_at(
                        files,
                        0,
                        &format!("{here}.senders"),
                        invalid(format!(
                            "node {g:?} already runs apps[{j}]: each node runs one application"
                        )),
                    ));
                }
                background.push((i, g.to_string(), count));
                continue;
            }
            "perform3" | "lanperf" => {
                let server = node(
                    "server",
                    &format!("a client group with no server: {kind} needs `server`, the node its clients read from"),
                )?;
                let clients = node(
                    "clients",
                    &format!("{kind} needs `clients`, the group of workstation nodes that read"),
                )?;
                needs(
                    server,
                    "server",
                    "lantastic",
                    Some("server"),
                    "a LANtastic server stack",
                )?;
                needs(
                    clients,
                    "clients",
                    "lantastic",
                    Some("workstation"),
                    "a LANtastic workstation stack",
                )?;
                // LANPERF spreads its stations over several servers; PERFORM3 reads one
                if server.count != 1 && kind != "lanperf" {
                    return Err(error_at(
                        files,
                        0,
                        &format!("{here}.server"),
                        invalid(format!(
                            "the server is one node; {:?} is a group of {} (only lanperf \
                             spreads its stations over a group of servers)",
                            server.name, server.count
                        )),
                    ));
                }
                claim(server, "server")?;
                claim(clients, "clients")?;
                perform3.push((i, server, clients));
            }
            _ => {
                let tx = node(
                    "transmitter",
                    "ttcp needs `transmitter`, the node that runs ttcp -t",
                )?;
                let rx = node("receiver", "ttcp needs `receiver`, the node that runs ttcp -r")?;
                for (n, key) in [(tx, "transmitter"), (rx, "receiver")] {
                    needs(n, key, "tcpip", None, "a TCP/IP stack")?;
                    if n.count != 1 {
                        return Err(error_at(
                            files,
                            0,
                            &format!("{here}.{key}"),
                            invalid(format!(
                                "ttcp runs on one node; {:?} is a group of {}",
                                n.name, n.count
                            )),
                        ));
                    }
                }
                claim(tx, "transmitter")?;
                claim(rx, "receiver")?;
                if tx.stack.name != rx.stack.name {
                    return Err(error_at(
                        files,
                        0,
                        &format!("{here}.receiver"),
                        invalid(format!(
                            "the two ttcp hosts run stacks {:?} and {:?}; a ttcp pair runs one stack",
                            tx.stack.name, rx.stack.name
                        )),
                    ));
                }
                ttcp.push((i, tx, rx));
            }
        }
    }
    for n in &node_names {
        if !used.contains_key(n) {
            return Err(error_at(
                files,
                0,
                &format!("nodes.{n}"),
                invalid(format!(
                    "node {n:?} runs no application; place one on it or remove it"
                )),
            ));
        }
    }

    Ok(Placement {
        perform3,
        ttcp,
        background,
    })
}
