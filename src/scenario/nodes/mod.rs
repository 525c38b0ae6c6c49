//! Scenario files of nodes and applications: a LAN described as a cable, named nodes
//! (each with a host, an adapter and a stack, named from the profile catalogue) and the
//! applications placed on them.
//!
//! ```toml
//! include = ["../hardware/catalogue.toml"]
//! [segment]                       # the cable: the keys of [medium]
//! [nodes.server]                  # one node
//! host = "486dx50"
//! adapter = "ae2-16bit"
//! stack = "lantastic-server"
//! [nodes.ws]                      # a group of `count` alike nodes
//! count = 5
//! host = "386sx25"
//! adapter = "ae2-16bit"
//! stack = "lantastic-workstation"
//! [[apps]]
//! kind = "perform3"
//! server = "server"
//! clients = "ws"
//! block_sizes = [15360]
//! [run]                           # warmup_s, measure_s
//! ```
//!
//! Applications: `perform3` or `lanperf` (a LANtastic server node and a group of workstation
//! nodes), `ttcp` (two TCP/IP nodes, `transmitter` and `receiver`), and background groups
//! `traffic` and `saturate` (a group of bare nodes, `senders`: nodes that name no host,
//! adapter or stack); one file service application and one ttcp at most, and any number of
//! background groups. A LAN of PERFORM3 alone runs as the `perform3` workload, of LANPERF
//! as `lanperf`, of ttcp alone as `ttcp`, of one background group alone as `traffic` or
//! `saturate`, of any other mix (LANPERF excepted, which runs alone) as `shared` (one
//! cable, the file service's stations first): this module checks the placement,
//! resolves the profiles ([`profiles`]) and writes the LAN in those workloads' sections,
//! which validate it; every error is located in the file that wrote the key.
//!
//! Stations: the server, the workstations, the ttcp hosts, then each background group's
//! senders (and sink), along the cable.

pub mod migrate;
pub mod profiles;

use std::collections::BTreeMap;

use super::error::{FieldError, Location, Problem, ScenarioError};
use super::merge::Override;
use super::shared::Linked;
use super::source::Source;
use super::{de, durations, RawScenario, Scenario, Workload};
use profiles::{error_at, locate, Catalogue, Profile};

/// The top-level keys of a file of nodes and applications.
const TOP: &[&str] = &[
    "name", "seed", "include", "segment", "hosts", "adapters", "stacks", "nodes", "apps", "run",
];
/// The keys of a node.
const NODE_KEYS: &[&str] = &["host", "adapter", "stack", "count"];
/// The application kinds that can be placed on nodes.
pub const APP_KINDS: &[&str] = &["perform3", "lanperf", "ttcp", "traffic", "saturate"];
/// The keys of a `traffic` application: its group of bare stations and the `[workload]`
/// keys of the traffic workload (but `stations`, the group's count, and `duration_s`).
const TRAFFIC_KEYS: &[&str] = &[
    "kind",
    "senders",
    "destination",
    "arrivals",
    "offered_load",
    "sizes",
    "queue_frames",
];
/// The keys of a `saturate` application, likewise.
const SATURATE_KEYS: &[&str] = &["kind", "senders", "destination", "frame_bytes"];
/// The keys of `[run]`.
const RUN_KEYS: &[&str] = &["warmup_s", "measure_s", "duration_s"];
/// The keys of a `lanperf` application: its server and clients, and the `[workload]` keys
/// of the lanperf workload for one server on the LAN (the server's disk and LANCACHE
/// as `disk` and `cache` tables).
const LANPERF_KEYS: &[&str] = &[
    "kind",
    "server",
    "clients",
    "options",
    "test_s",
    "block",
    "file_blocks",
    "tests",
    "sharing",
    "block_kinstr",
    "poll_ms",
    "disk",
    "cache",
];
const PERFORM3_KEYS: &[&str] = &[
    "kind",
    "server",
    "clients",
    "block_sizes",
    "app_jitter",
    "start_skew_ms",
];
const TTCP_KEYS: &[&str] = &[
    "kind",
    "transmitter",
    "receiver",
    "buflen",
    "nbuf",
    "socket_buffer",
    "trailers",
    "limit_s",
];
/// Keys of a LANtastic stack profile that are not keys of `[nos]`.
const STACK_META: &[&str] = &["family", "role"];

/// Is `doc` a scenario of nodes and applications (rather than one of a workload)?
pub fn is_node_form(doc: &toml::Table) -> bool {
    doc.contains_key("nodes") || doc.contains_key("apps")
}

/// One node (or group) as written, its profiles resolved.
struct Node {
    name: String,
    count: i64,
    host: Profile,
    adapter: Profile,
    stack: Profile,
}

fn invalid(message: impl Into<String>) -> Problem {
    Problem::Invalid {
        message: message.into(),
    }
}

fn unknown_key(key: &str, valid: &[&str]) -> Problem {
    let valid: Vec<String> = valid.iter().map(|s| s.to_string()).collect();
    Problem::UnknownKey {
        suggestions: de::nearest(key, &valid),
        valid,
    }
}

fn str_of<'a>(t: &'a toml::Table, key: &str) -> Option<&'a str> {
    t.get(key).and_then(toml::Value::as_str)
}

/// The stack family of a resolved stack profile.
fn family(stack: &Profile) -> &str {
    str_of(&stack.table, "family").unwrap_or("")
}

fn role(stack: &Profile) -> &str {
    str_of(&stack.table, "role").unwrap_or("")
}

/// Where each key of the lowered documents came from, to locate their errors.
#[derive(Default)]
struct Map {
    /// (prefix in the lowered document, what wrote it)
    entries: Vec<(String, Wrote)>,
}

enum Wrote {
    /// A table of the scenario file (its path there).
    Scenario(String),
    /// A profile (its keys under the prefix).
    Profile(Profile),
}

impl Map {
    fn add_scenario(&mut self, prefix: &str, there: &str) {
        self.entries
            .push((prefix.to_string(), Wrote::Scenario(there.to_string())));
    }
    fn add_profile(&mut self, prefix: &str, p: &Profile) {
        self.entries.push((prefix.to_string(), Wrote::Profile(p.clone())));
    }

    /// The location of `path` of a lowered document (the longest prefix that wrote it),
    /// and the key as the user wrote it there.
    fn locate(&self, files: &[Source], path: &str) -> (Location, String) {
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
            return (at, path.to_string());
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
                (locate(&files[0], &key), key)
            }
            Wrote::Profile(p) => {
                let key = if rest.is_empty() {
                    format!("{}.{}", p.kind, p.name)
                } else {
                    format!("{}.{}.{rest}", p.kind, p.name)
                };
                (p.locate(files, rest), key)
            }
        }
    }
}

/// Loads a scenario of nodes and applications (`doc`: its document as written); an error
/// about a key a `--set` wrote names that argument.
pub fn load(source: &Source, doc: toml::Table, overrides: &[Override]) -> Result<Scenario, ScenarioError> {
    load_inner(source, doc, overrides).map_err(|e| match e {
        ScenarioError::Field { key, problem, .. } if overrides.iter().any(|o| o.covers(&key)) => {
            let o = overrides.iter().rev().find(|o| o.covers(&key)).expect("checked");
            ScenarioError::Field {
                at: Location::Set { arg: o.arg.clone() },
                key,
                problem,
            }
        }
        other => other,
    })
}

fn load_inner(
    source: &Source,
    mut doc: toml::Table,
    overrides: &[Override],
) -> Result<Scenario, ScenarioError> {
    for o in overrides {
        o.apply(&mut doc)?;
    }
    let at_set = |key: &str| overrides.iter().rev().find(|o| o.covers(key));
    let files0 = [source.clone()];
    for k in doc.keys() {
        if !TOP.contains(&k.as_str()) {
            let mut p = unknown_key(k, TOP);
            if ["workload", "hardware", "medium", "adapter", "nos"].contains(&k.as_str()) {
                p = invalid(format!(
                    "`{k}` belongs to a scenario of one workload; a scenario of nodes and \
                     applications gives the cable as [segment], hardware as named profiles \
                     ([hosts.NAME], [adapters.NAME], [stacks.NAME], or include = [...]), \
                     nodes as [nodes.NAME] and applications as [[apps]]"
                ));
            }
            return Err(error_at(&files0, 0, k, p));
        }
    }
    let mut cat = Catalogue::read(source, &doc)?;

    // the nodes
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
            Some(toml::Value::Integer(n)) if (1..=1023).contains(n) => *n,
            Some(v) => {
                return Err(error_at(
                    &cat.files,
                    0,
                    &format!("{here}.count"),
                    Problem::OutOfRange {
                        value: v.to_string(),
                        allowed: "1..=1023".into(),
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
    let node_names: Vec<String> = nodes.keys().chain(bare.keys()).cloned().collect();

    // the applications
    let apps: Vec<toml::Table> = match doc.get("apps") {
        None => Vec::new(),
        Some(toml::Value::Array(a)) => a.iter().filter_map(|v| v.as_table().cloned()).collect(),
        Some(_) => {
            return Err(error_at(
                &cat.files,
                0,
                "apps",
                invalid("expected [[apps]] tables"),
            ))
        }
    };
    if apps.is_empty() {
        return Err(error_at(
            &cat.files,
            0,
            "nodes",
            invalid("no application runs on the nodes: add [[apps]]"),
        ));
    }
    // the file service's application (perform3 or lanperf): its index, server and clients
    let mut perform3: Option<(usize, &Node, &Node)> = None;
    let mut ttcp: Option<(usize, &Node, &Node)> = None;
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
                    &cat.files,
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
                return Err(error_at(
                    &cat.files,
                    0,
                    &format!("{here}.{k}"),
                    unknown_key(k, keys),
                ));
            }
        }
        // a node named by key `key` of this application
        let node = |key: &str, missing: &str| -> Result<&Node, ScenarioError> {
            let Some(n) = str_of(app, key) else {
                return Err(error_at(&cat.files, 0, &here, invalid(missing.to_string())));
            };
            if bare.contains_key(n) {
                return Err(error_at(
                    &cat.files,
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
                    &cat.files,
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
                return Ok(());
            }
            Err(error_at(
                &cat.files,
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
                    &cat.files,
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
                        &cat.files,
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
                    return Err(error_at(&cat.files, 0, &format!("{here}.senders"), problem));
                };
                if let Some(j) = used.insert(g.to_string(), i) {
                    return Err(error_at(
                        &cat.files,
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
                if let Some((j, _, _)) = perform3 {
                    return Err(error_at(
                        &cat.files,
                        0,
                        &format!("{here}.kind"),
                        invalid(format!(
                            "one file service application per LAN (perform3 or lanperf): \
                             apps[{j}] is one"
                        )),
                    ));
                }
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
                if server.count != 1 {
                    return Err(error_at(
                        &cat.files,
                        0,
                        &format!("{here}.server"),
                        invalid(format!(
                            "the server is one node; {:?} is a group of {}",
                            server.name, server.count
                        )),
                    ));
                }
                claim(server, "server")?;
                claim(clients, "clients")?;
                perform3 = Some((i, server, clients));
            }
            _ => {
                if ttcp.is_some() {
                    return Err(error_at(
                        &cat.files,
                        0,
                        &format!("{here}.kind"),
                        invalid("one ttcp application per LAN"),
                    ));
                }
                let tx = node(
                    "transmitter",
                    "ttcp needs `transmitter`, the node that runs ttcp -t",
                )?;
                let rx = node("receiver", "ttcp needs `receiver`, the node that runs ttcp -r")?;
                for (n, key) in [(tx, "transmitter"), (rx, "receiver")] {
                    needs(n, key, "tcpip", None, "a TCP/IP stack")?;
                    if n.count != 1 {
                        return Err(error_at(
                            &cat.files,
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
                        &cat.files,
                        0,
                        &format!("{here}.receiver"),
                        invalid(format!(
                            "the two ttcp hosts run stacks {:?} and {:?}; a ttcp pair runs one stack",
                            tx.stack.name, rx.stack.name
                        )),
                    ));
                }
                ttcp = Some((i, tx, rx));
            }
        }
    }
    for n in &node_names {
        if !used.contains_key(n) {
            return Err(error_at(
                &cat.files,
                0,
                &format!("nodes.{n}"),
                invalid(format!(
                    "node {n:?} runs no application; place one on it or remove it"
                )),
            ));
        }
    }

    // the documents of the workloads
    let name = doc.get("name").cloned().unwrap_or_else(|| {
        toml::Value::String(
            source
                .path
                .file_stem()
                .map_or("scenario".into(), |s| s.to_string_lossy().into_owned()),
        )
    });
    let seed = doc.get("seed").cloned();
    let segment = doc
        .get("segment")
        .cloned()
        .unwrap_or_else(|| toml::Value::Table(Default::default()));
    let run = doc
        .get("run")
        .and_then(toml::Value::as_table)
        .cloned()
        .unwrap_or_default();
    for k in run.keys() {
        if !RUN_KEYS.contains(&k.as_str()) {
            return Err(error_at(
                &cat.files,
                0,
                &format!("run.{k}"),
                unknown_key(k, RUN_KEYS),
            ));
        }
    }
    // one background group alone on the cable runs as its own workload, for a duration
    let alone = perform3.is_none() && ttcp.is_none() && background.len() == 1;
    for k in run.keys() {
        // a LAN of one background group alone runs for duration_s; any other for a
        // warm-up and a window
        let fits = (k == "duration_s") == alone;
        if !fits {
            let why = if alone {
                "a LAN of one background group alone runs for [run] duration_s, with no warm-up"
            } else {
                "a LAN of several applications runs for [run] warmup_s and measure_s"
            };
            return Err(error_at(&cat.files, 0, &format!("run.{k}"), invalid(why)));
        }
    }
    let base = |map: &mut Map| {
        let mut d = toml::Table::new();
        d.insert("name".into(), name.clone());
        if let Some(s) = &seed {
            d.insert("seed".into(), s.clone());
        }
        d.insert("medium".into(), segment.clone());
        map.add_scenario("medium", "segment");
        map.add_scenario("name", "name");
        map.add_scenario("seed", "seed");
        d
    };
    let strip = |t: &toml::Table, meta: &[&str]| -> toml::Table {
        t.iter()
            .filter(|(k, _)| !meta.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    };

    // a background group's [workload] keys: its app's, its group's count as `stations`
    let group_table = |i: usize, count: i64, map: &mut Map, at: &str| -> toml::Table {
        let mut w = strip(&apps[i], &["senders"]);
        w.insert("stations".into(), count.into());
        map.add_scenario(at, &format!("apps[{i}]"));
        let g = str_of(&apps[i], "senders").unwrap_or_default();
        map.add_scenario(&format!("{at}.stations"), &format!("nodes.{g}.count"));
        w
    };
    if alone {
        let Some((i, _, count)) = background.first() else {
            return Err(error_at(
                &cat.files,
                0,
                "apps",
                invalid("no application runs on the nodes"),
            ));
        };
        let mut map = Map::default();
        let mut d = base(&mut map);
        let mut w = group_table(*i, *count, &mut map, "workload");
        if let Some(v) = run.get("duration_s") {
            w.insert("duration_s".into(), v.clone());
            map.add_scenario("workload.duration_s", "run.duration_s");
        }
        d.insert("workload".into(), toml::Value::Table(w));
        return validate(d, None, &cat.files, &map, source, at_set);
    }
    let mut linked = None;
    let mut tmap = Map::default();
    if let Some((i, tx, rx)) = ttcp {
        let app = &apps[i];
        let mut d = base(&mut tmap);
        let mut w = toml::Table::new();
        w.insert("kind".into(), "ttcp".into());
        tmap.add_scenario("workload", &format!("apps[{i}]"));
        for k in ["buflen", "nbuf", "socket_buffer", "trailers", "limit_s"] {
            if let Some(v) = app.get(k) {
                w.insert(k.into(), v.clone());
            }
        }
        if !w.contains_key("buflen") {
            w.insert("buflen".into(), 8192.into());
        }
        if !w.contains_key("nbuf") {
            w.insert("nbuf".into(), 2048.into());
        }
        let mut hosts = toml::Table::new();
        let mut cards = toml::Table::new();
        let mut card = toml::Table::new();
        for n in [tx, rx] {
            hosts.insert(n.name.clone(), toml::Value::Table(strip(&n.host.table, &[])));
            tmap.add_profile(&format!("workload.hosts.{}", n.name), &n.host);
            cards.insert(
                n.adapter.name.clone(),
                toml::Value::Table(strip(&n.adapter.table, &[])),
            );
            tmap.add_profile(&format!("workload.cards.{}", n.adapter.name), &n.adapter);
            card.insert(n.name.clone(), n.adapter.name.clone().into());
            tmap.add_scenario(
                &format!("workload.card.{}", n.name),
                &format!("nodes.{}.adapter", n.name),
            );
        }
        let mut stack = strip(&tx.stack.table, STACK_META);
        let costs = stack
            .remove("costs")
            .unwrap_or_else(|| toml::Value::Table(Default::default()));
        w.insert("hosts".into(), toml::Value::Table(hosts));
        w.insert("cards".into(), toml::Value::Table(cards));
        w.insert("card".into(), toml::Value::Table(card));
        w.insert("transmitter".into(), tx.name.clone().into());
        tmap.add_scenario("workload.transmitter", &format!("apps[{i}].transmitter"));
        w.insert("stack".into(), toml::Value::Table(stack));
        tmap.add_profile("workload.stack", &tx.stack);
        w.insert("costs".into(), costs);
        let mut costs_profile = tx.stack.clone();
        costs_profile
            .origins
            .retain(|o| o.within == "costs" || o.within.is_empty());
        tmap.entries
            .push(("workload.costs".into(), Wrote::Profile(costs_profile)));
        d.insert("workload".into(), toml::Value::Table(w));
        if perform3.is_none() && background.is_empty() {
            return validate(d, None, &cat.files, &tmap, source, at_set);
        }
        let t = validate(d, None, &cat.files, &tmap, source, at_set)?;
        let ttcp = match t.workload {
            Workload::Ttcp(w) => *w,
            other => {
                return Err(error_at(
                    &cat.files,
                    0,
                    &format!("apps[{i}]"),
                    invalid(format!(
                        "the ttcp pair's LAN validated as a {} workload",
                        other.kind()
                    )),
                ))
            }
        };
        linked = Some(Linked {
            written: format!("nodes {} and {}", tx.name, rx.name),
            ttcp,
        });
    }

    // (a LAN of ttcp alone returned above)
    let Some((i, server, clients)) = perform3 else {
        // a ttcp transfer beside background groups, or several groups: no file service
        let mut map = Map::default();
        let mut d = base(&mut map);
        let mut w = toml::Table::new();
        w.insert("kind".into(), "shared".into());
        if let Some(l) = &linked {
            w.insert("ttcp".into(), l.written.clone().into());
        }
        for (k, v) in &run {
            w.insert(k.clone(), v.clone());
            map.add_scenario(&format!("workload.{k}"), &format!("run.{k}"));
        }
        let groups: Vec<toml::Value> = background
            .iter()
            .enumerate()
            .map(|(k, (j, _, count))| {
                toml::Value::Table(group_table(
                    *j,
                    *count,
                    &mut map,
                    &format!("workload.background[{k}]"),
                ))
            })
            .collect();
        w.insert("background".into(), toml::Value::Array(groups));
        d.insert("workload".into(), toml::Value::Table(w));
        return validate(d, linked, &cat.files, &map, source, at_set);
    };
    let app = &apps[i];
    let mut map = Map::default();
    let mut d = base(&mut map);
    let mut hosts = toml::Table::new();
    hosts.insert("server".into(), toml::Value::Table(server.host.table.clone()));
    map.add_profile("hosts.server", &server.host);
    hosts.insert(
        "workstation".into(),
        toml::Value::Table(clients.host.table.clone()),
    );
    map.add_profile("hosts.workstation", &clients.host);
    d.insert("hosts".into(), toml::Value::Table(hosts));
    // one card model on the file service, each side in its own mode
    let side_keys = ["bus_width", "transmit_buffers", "packet_size"];
    let mut adapter = strip(&server.adapter.table, &["workstation"]);
    map.add_profile("adapter", &server.adapter);
    let ws_card = strip(&clients.adapter.table, &["workstation"]);
    let mut ws_side = toml::Table::new();
    for (k, v) in &ws_card {
        if side_keys.contains(&k.as_str()) {
            ws_side.insert(k.clone(), v.clone());
        } else if adapter.get(k) != Some(v) {
            return Err(error_at(
                &cat.files,
                0,
                &format!("nodes.{}.adapter", clients.name),
                invalid(format!(
                    "the workstations' card {:?} differs from the server's {:?} in `{k}`: the file \
                     service runs one card model, each side in its own mode ({})",
                    clients.adapter.name,
                    server.adapter.name,
                    side_keys.join(", ")
                )),
            ));
        }
    }
    for k in adapter.keys() {
        if !ws_card.contains_key(k) && !side_keys.contains(&k.as_str()) {
            return Err(error_at(
                &cat.files,
                0,
                &format!("nodes.{}.adapter", clients.name),
                invalid(format!(
                    "the workstations' card {:?} has no `{k}`, the server's {:?} has: the file \
                     service runs one card model",
                    clients.adapter.name, server.adapter.name
                )),
            ));
        }
    }
    adapter.insert("workstation".into(), toml::Value::Table(ws_side));
    map.add_profile("adapter.workstation", &clients.adapter);
    d.insert("adapter".into(), toml::Value::Table(adapter));
    let sstack = strip(&server.stack.table, STACK_META);
    let wstack = strip(&clients.stack.table, STACK_META);
    let mut nos = toml::Table::new();
    for k in ["protocol", "costs", "server"] {
        if let Some(v) = sstack.get(k) {
            nos.insert(k.into(), v.clone());
            map.add_profile(&format!("nos.{k}"), &server.stack);
        }
    }
    if let Some(v) = wstack.get("workstation") {
        nos.insert("workstation".into(), v.clone());
        map.add_profile("nos.workstation", &clients.stack);
    }
    d.insert("nos".into(), toml::Value::Table(nos));
    let mut w = toml::Table::new();
    map.add_scenario("workload", &format!("apps[{i}]"));
    if str_of(app, "kind") == Some("lanperf") {
        if let Some((j, _, _)) = background.first() {
            return Err(error_at(
                &cat.files,
                0,
                &format!("apps[{j}]"),
                invalid("background groups run beside perform3, not lanperf (which times its own tests)"),
            ));
        }
        if let Some(l) = &linked {
            return Err(error_at(
                &cat.files,
                0,
                &format!("apps[{i}].kind"),
                invalid(format!(
                    "beside a ttcp transfer ({}), the file service runs perform3",
                    l.written
                )),
            ));
        }
        if let Some(k) = run.keys().next() {
            return Err(error_at(
                &cat.files,
                0,
                &format!("run.{k}"),
                invalid("LANPERF times its own tests: give their length as the app's test_s (or options)"),
            ));
        }
        w.insert("kind".into(), "lanperf".into());
        w.insert("stations".into(), clients.count.into());
        map.add_scenario("workload.stations", &format!("nodes.{}.count", clients.name));
        for (k, v) in app {
            if !["kind", "server", "clients"].contains(&k.as_str()) {
                w.insert(k.clone(), v.clone());
            }
        }
        d.insert("workload".into(), toml::Value::Table(w));
        return validate(d, None, &cat.files, &map, source, at_set);
    }
    map.add_scenario("workload.workstations", &format!("nodes.{}.count", clients.name));
    w.insert("workstations".into(), clients.count.into());
    for (k, v) in &run {
        w.insert(k.clone(), v.clone());
        map.add_scenario(&format!("workload.{k}"), &format!("run.{k}"));
    }
    let blocks = app.get("block_sizes").cloned();
    if linked.is_none() && background.is_empty() {
        w.insert("kind".into(), "perform3".into());
        for k in ["block_sizes", "app_jitter", "start_skew_ms"] {
            if let Some(v) = app.get(k) {
                w.insert(k.into(), v.clone());
            }
        }
    } else {
        w.insert("kind".into(), "shared".into());
        let beside = match &linked {
            Some(_) => "beside a ttcp transfer",
            None => "beside background groups",
        };
        let one = match blocks.as_ref().and_then(toml::Value::as_array).map(Vec::as_slice) {
            Some([b]) => b.clone(),
            _ => {
                return Err(error_at(
                    &cat.files,
                    0,
                    &format!("apps[{i}].block_sizes"),
                    invalid(format!(
                        "{beside}, perform3 reads one block size: block_sizes = [B]"
                    )),
                ))
            }
        };
        for k in ["app_jitter", "start_skew_ms"] {
            if app.contains_key(k) {
                return Err(error_at(
                    &cat.files,
                    0,
                    &format!("apps[{i}].{k}"),
                    invalid(format!("{beside}, perform3 runs with its defaults for {k}")),
                ));
            }
        }
        w.insert("block_size".into(), one);
        map.add_scenario("workload.block_size", &format!("apps[{i}].block_sizes"));
        if let Some(l) = &linked {
            w.insert("ttcp".into(), l.written.clone().into());
        }
        let groups: Vec<toml::Value> = background
            .iter()
            .enumerate()
            .map(|(k, (j, _, count))| {
                toml::Value::Table(group_table(
                    *j,
                    *count,
                    &mut map,
                    &format!("workload.background[{k}]"),
                ))
            })
            .collect();
        if !groups.is_empty() {
            w.insert("background".into(), toml::Value::Array(groups));
        }
    }
    d.insert("workload".into(), toml::Value::Table(w));
    validate(d, linked, &cat.files, &map, source, at_set)
}

/// Validates a lowered document, locating its errors where the keys were written.
fn validate<'o>(
    mut d: toml::Table,
    linked: Option<Linked>,
    files: &[Source],
    map: &Map,
    source: &Source,
    at_set: impl Fn(&str) -> Option<&'o Override>,
) -> Result<Scenario, ScenarioError> {
    let locate = |e: FieldError| -> ScenarioError {
        // the user's key (in the scenario or a profile); a --set that wrote it wins
        let (at, key) = map.locate(files, &e.path);
        let at = match at_set(&key).or_else(|| at_set(&e.path)) {
            Some(o) => Location::Set { arg: o.arg.clone() },
            None => at,
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
    let mut s = raw.validate(&default_name, &mut warnings).map_err(locate)?;
    s.path = source.path.clone();
    s.warnings = warnings;
    Ok(s)
}
