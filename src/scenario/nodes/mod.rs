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
//! adapter or stack); any number of file services, PERFORM3 or LANPERF (each on a server and
//! clients of its own), any number of ttcp transfers (each on two nodes of its
//! own) and any number of background groups. A LAN of LANPERF (with or without ttcp
//! transfers and background groups) runs as the `lanperf` workload, of one PERFORM3
//! service alone as `perform3`, of one ttcp transfer alone as `ttcp`, of one background
//! group alone as `traffic` or `saturate`, and of any other mix as `shared`, on one cable
//! with the file services' stations first (the first LANPERF service's, if there is one).
//! With several file services each but the LAN's own is written as a perform3 (or lanperf)
//! scenario of its own, validated, and linked (`workload.file_services`), as each ttcp
//! transfer is (`workload.ttcp`). The nodes are read and their profiles
//! resolved (`parse`, [`profiles`]), the applications placed on them (`place`), and this
//! module writes the LAN in those workloads' sections, which validate it (`locate`:
//! every error is located in the file that wrote the key).
//!
//! Stations: each file service's server and workstations, each transfer's two ttcp hosts
//! (in the order of the applications), then each background group's senders (and sink),
//! along the cable.

mod locate;
pub mod migrate;
mod parse;
mod place;
pub mod profiles;

use super::error::{Location, Problem, ScenarioError};
use super::merge::Override;
use super::services::ServiceWorkload;
use super::shared::{Linked, LinkedService};
use super::source::Source;
use super::{de, Scenario, Workload};
use locate::{validate, Map, Wrote};
use parse::{read_nodes, Nodes};
use place::{place, read_apps, Placement};
use profiles::{error_at, Catalogue, Profile};

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
/// The keys of a `lanperf` application: its server (or group of servers) and clients, and
/// the `[workload]` keys of the lanperf workload (the servers' disk and LANCACHE as `disk`
/// and `cache` tables; `local`, a baseline on one client's own disk, the server unused).
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
    "local",
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

/// Loads a scenario of nodes and applications (`doc`: its document as written); an error
/// about a key a `--set` wrote names that argument.
/// `given` stand for files (embedded ones, or a trial hardware file): see
/// [`profiles::Catalogue`].
pub fn load(
    source: &Source,
    doc: toml::Table,
    given: &[Source],
    overrides: &[Override],
) -> Result<Scenario, ScenarioError> {
    load_inner(source, doc, given, overrides).map_err(|e| match e {
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
    given: &[Source],
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
    let mut cat = Catalogue::read(source, &doc, given)?;

    let Nodes { full: nodes, bare } = read_nodes(&doc, &mut cat)?;

    let apps = read_apps(&doc, &cat.files)?;
    let Placement {
        perform3,
        ttcp,
        background,
    } = place(&apps, &nodes, &bare, &cat.files)?;

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
    let alone = perform3.is_empty() && ttcp.is_empty() && background.len() == 1;
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

    // a background group's [workload] keys: its app's, its group's count as `stations`
    let group_table = |i: usize, count: i64, map: &mut Map, at: &str| -> toml::Table {
        let mut w = strip(&apps[i], &["senders"]);
        w.insert("stations".into(), count.into());
        map.add_scenario(at, &format!("apps[{i}]"));
        let g = str_of(&apps[i], "senders").unwrap_or_default();
        map.add_scenario(&format!("{at}.stations"), &format!("nodes.{g}.count"));
        w
    };
    // every background group under `background` of the workload `w`, if there is one
    let insert_groups = |w: &mut toml::Table, map: &mut Map| {
        let groups: Vec<toml::Value> = background
            .iter()
            .enumerate()
            .map(|(k, (j, _, count))| {
                toml::Value::Table(group_table(*j, *count, map, &format!("workload.background[{k}]")))
            })
            .collect();
        if !groups.is_empty() {
            w.insert("background".into(), toml::Value::Array(groups));
        }
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
        return validate(d, Vec::new(), Vec::new(), &cat.files, &map, source, at_set);
    }
    let mut linked = Vec::new();
    // ttcp alone on the cable runs as the ttcp workload
    let ttcp_alone = perform3.is_empty() && background.is_empty() && ttcp.len() == 1;
    for &(i, tx, rx) in &ttcp {
        let app = &apps[i];
        let mut tmap = Map::default();
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
        tmap.entries.push((
            "workload.costs".into(),
            Wrote::Profile(costs_profile, "costs".into()),
        ));
        d.insert("workload".into(), toml::Value::Table(w));
        if ttcp_alone {
            return validate(d, Vec::new(), Vec::new(), &cat.files, &tmap, source, at_set);
        }
        let t = validate(d, Vec::new(), Vec::new(), &cat.files, &tmap, source, at_set)?;
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
        linked.push(Linked {
            written: format!("nodes {} and {}", tx.name, rx.name),
            key: format!("apps[{i}]"),
            ttcp,
        });
    }
    // `workload.ttcp` of the lowered document: one transfer's name, or a list of them
    let ttcp_value = |map: &mut Map| -> Option<toml::Value> {
        match linked.as_slice() {
            [] => None,
            [l] => Some(l.written.clone().into()),
            many => {
                for (k, &(i, _, _)) in ttcp.iter().enumerate() {
                    map.add_scenario(&format!("workload.ttcp[{k}]"), &format!("apps[{i}]"));
                }
                Some(toml::Value::Array(
                    many.iter().map(|l| l.written.clone().into()).collect(),
                ))
            }
        }
    };

    // (a LAN of ttcp alone returned above)
    // file services beside others: each lowered to a perform3 (or lanperf) scenario of
    // its own, validated, and linked (`workload.file_services`)
    let lower_services = |list: &[(usize, &Node, &Node)]| -> Result<Vec<LinkedService>, ScenarioError> {
        let mut services = Vec::new();
        for &(i, server, clients) in list {
            let app = &apps[i];
            let mut smap = Map::default();
            let mut d = base(&mut smap);
            file_service_sections(&mut d, &mut smap, server, clients, &cat.files)?;
            let mut w = toml::Table::new();
            smap.add_scenario("workload", &format!("apps[{i}]"));
            if str_of(app, "kind") == Some("lanperf") {
                lanperf_keys(&mut w, &mut smap, app, server, clients);
            } else {
                let one = one_block(app, i, "beside other file services", &cat.files)?;
                w.insert("kind".into(), "perform3".into());
                w.insert("workstations".into(), clients.count.into());
                smap.add_scenario("workload.workstations", &format!("nodes.{}.count", clients.name));
                w.insert("block_sizes".into(), toml::Value::Array(vec![one]));
                smap.add_scenario("workload.block_sizes", &format!("apps[{i}].block_sizes"));
            }
            d.insert("workload".into(), toml::Value::Table(w));
            let sc = validate(d, Vec::new(), Vec::new(), &cat.files, &smap, source, at_set)?;
            let workload = match sc.workload {
                Workload::Perform3(p) => ServiceWorkload::Perform3(Box::new(p.config)),
                Workload::Lanperf(p) => ServiceWorkload::Lanperf(Box::new(p.config)),
                other => {
                    return Err(error_at(
                        &cat.files,
                        0,
                        &format!("apps[{i}]"),
                        invalid(format!(
                            "the file service's LAN validated as a {} workload",
                            other.kind()
                        )),
                    ))
                }
            };
            services.push(LinkedService {
                written: format!("nodes {} and {}", server.name, clients.name),
                key: format!("apps[{i}]"),
                name: server.name.clone(),
                workload,
            });
        }
        Ok(services)
    };
    // `workload.file_services` of the lowered document: the services' names
    let services_value = |services: &[LinkedService], list: &[(usize, &Node, &Node)], map: &mut Map| {
        for (k, &(i, _, _)) in list.iter().enumerate() {
            map.add_scenario(&format!("workload.file_services[{k}]"), &format!("apps[{i}]"));
        }
        toml::Value::Array(services.iter().map(|l| l.written.clone().into()).collect())
    };
    // LANPERF's service is the LAN's own; PERFORM3 services beside it are linked
    let lanperf_at = perform3
        .iter()
        .position(|&(j, _, _)| str_of(&apps[j], "kind") == Some("lanperf"));
    // the LAN's own file service: LANPERF's, or a PERFORM3 service alone
    let own = match lanperf_at {
        Some(k) => perform3.get(k),
        None if perform3.len() == 1 => perform3.first(),
        None => None,
    };
    let Some(&(i, server, clients)) = own else {
        // no service of its own: several PERFORM3 services (each linked), or none beside
        // ttcp transfers and background groups
        let services = lower_services(&perform3)?;
        let mut map = Map::default();
        let mut d = base(&mut map);
        let mut w = toml::Table::new();
        w.insert("kind".into(), "shared".into());
        if !services.is_empty() {
            let v = services_value(&services, &perform3, &mut map);
            w.insert("file_services".into(), v);
        }
        if let Some(v) = ttcp_value(&mut map) {
            w.insert("ttcp".into(), v);
        }
        for (k, v) in &run {
            w.insert(k.clone(), v.clone());
            map.add_scenario(&format!("workload.{k}"), &format!("run.{k}"));
        }
        insert_groups(&mut w, &mut map);
        d.insert("workload".into(), toml::Value::Table(w));
        return validate(d, linked, services, &cat.files, &map, source, at_set);
    };
    let app = &apps[i];
    let mut map = Map::default();
    let mut d = base(&mut map);
    file_service_sections(&mut d, &mut map, server, clients, &cat.files)?;
    let mut w = toml::Table::new();
    map.add_scenario("workload", &format!("apps[{i}]"));
    if str_of(app, "kind") == Some("lanperf") {
        if let Some(k) = run.keys().next() {
            return Err(error_at(
                &cat.files,
                0,
                &format!("run.{k}"),
                invalid("LANPERF times its own tests: give their length as the app's test_s (or options)"),
            ));
        }
        lanperf_keys(&mut w, &mut map, app, server, clients);
        insert_groups(&mut w, &mut map);
        if let Some(v) = ttcp_value(&mut map) {
            w.insert("ttcp".into(), v);
        }
        // further file services beside LANPERF's
        let others: Vec<(usize, &Node, &Node)> =
            perform3.iter().copied().filter(|&(j, _, _)| j != i).collect();
        let services = lower_services(&others)?;
        if !services.is_empty() {
            let v = services_value(&services, &others, &mut map);
            w.insert("file_services".into(), v);
        }
        d.insert("workload".into(), toml::Value::Table(w));
        return validate(d, linked, services, &cat.files, &map, source, at_set);
    }
    map.add_scenario("workload.workstations", &format!("nodes.{}.count", clients.name));
    w.insert("workstations".into(), clients.count.into());
    for (k, v) in &run {
        w.insert(k.clone(), v.clone());
        map.add_scenario(&format!("workload.{k}"), &format!("run.{k}"));
    }
    if linked.is_empty() && background.is_empty() {
        w.insert("kind".into(), "perform3".into());
        for k in ["block_sizes", "app_jitter", "start_skew_ms"] {
            if let Some(v) = app.get(k) {
                w.insert(k.into(), v.clone());
            }
        }
    } else {
        w.insert("kind".into(), "shared".into());
        let beside = match linked.len() {
            0 => "beside background groups",
            1 => "beside a ttcp transfer",
            _ => "beside ttcp transfers",
        };
        let one = one_block(app, i, beside, &cat.files)?;
        w.insert("block_size".into(), one);
        map.add_scenario("workload.block_size", &format!("apps[{i}].block_sizes"));
        if let Some(v) = ttcp_value(&mut map) {
            w.insert("ttcp".into(), v);
        }
        insert_groups(&mut w, &mut map);
    }
    d.insert("workload".into(), toml::Value::Table(w));
    let mut scenario = validate(d, linked, Vec::new(), &cat.files, &map, source, at_set)?;
    // beside other applications the service is reported by its server's node name
    if let Workload::Shared(w) = &mut scenario.workload {
        if let Some(f) = w.config.file_services.first_mut() {
            f.name = server.name.clone();
        }
    }
    Ok(scenario)
}

/// Writes the sections of the file service of `server` and `clients` into `d` (the
/// lowered document): `[hosts]`, `[adapter]` (one card model, each side in its own mode)
/// and `[nos]`, each key mapped in `map` to where it was written.
fn file_service_sections(
    d: &mut toml::Table,
    map: &mut Map,
    server: &Node,
    clients: &Node,
    files: &[Source],
) -> Result<(), ScenarioError> {
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
    let side_keys = ["bus_width", "bus_widths", "transmit_buffers", "packet_size"];
    // the workstations' own data-port timing, written on their side when it differs
    let timing_keys = [
        "io_access_ns_8bit",
        "io_access_ns_16bit",
        "io_access_ns_32bit",
        "setup_ns",
    ];
    let mut adapter = strip(&server.adapter.table, &["workstation"]);
    map.add_profile("adapter", &server.adapter);
    let ws_card = strip(&clients.adapter.table, &["workstation"]);
    let mut ws_side = toml::Table::new();
    for (k, v) in &ws_card {
        if side_keys.contains(&k.as_str()) {
            ws_side.insert(k.clone(), v.clone());
        } else if timing_keys.contains(&k.as_str()) {
            if adapter.get(k) != Some(v) {
                ws_side.insert(k.clone(), v.clone());
            }
        } else if adapter.get(k) != Some(v) {
            return Err(error_at(
                files,
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
        if !ws_card.contains_key(k) && !side_keys.contains(&k.as_str()) && !timing_keys.contains(&k.as_str())
        {
            return Err(error_at(
                files,
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
    // one mode per workstation replaces the card's one mode
    if ws_side.contains_key("bus_widths") {
        ws_side.remove("bus_width");
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
            map.add_profile_table(&format!("nos.{k}"), &server.stack, k);
        }
    }
    if let Some(v) = wstack.get("workstation") {
        nos.insert("workstation".into(), v.clone());
        map.add_profile_table("nos.workstation", &clients.stack, "workstation");
    }
    d.insert("nos".into(), toml::Value::Table(nos));
    Ok(())
}

/// Writes the `[workload]` keys of the lanperf workload for LANPERF app `app` on `server`
/// (one node, or a group of servers the stations are spread over) and `clients` into `w`.
fn lanperf_keys(w: &mut toml::Table, map: &mut Map, app: &toml::Table, server: &Node, clients: &Node) {
    w.insert("kind".into(), "lanperf".into());
    w.insert("stations".into(), clients.count.into());
    map.add_scenario("workload.stations", &format!("nodes.{}.count", clients.name));
    if server.count != 1 {
        // the stations are assigned to the servers in turn
        w.insert("servers".into(), server.count.into());
        map.add_scenario("workload.servers", &format!("nodes.{}.count", server.name));
    }
    for (k, v) in app {
        if !["kind", "server", "clients"].contains(&k.as_str()) {
            w.insert(k.clone(), v.clone());
        }
    }
}

/// The one block size of perform3 app `i` (`app`), which runs `beside` other
/// applications (so with its defaults for its start-up jitter and skew).
fn one_block(
    app: &toml::Table,
    i: usize,
    beside: &str,
    files: &[Source],
) -> Result<toml::Value, ScenarioError> {
    let one = match app
        .get("block_sizes")
        .and_then(toml::Value::as_array)
        .map(Vec::as_slice)
    {
        Some([b]) => b.clone(),
        _ => {
            return Err(error_at(
                files,
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
                files,
                0,
                &format!("apps[{i}].{k}"),
                invalid(format!("{beside}, perform3 runs with its defaults for {k}")),
            ));
        }
    }
    Ok(one)
}

/// `t` without the keys `meta`.
fn strip(t: &toml::Table, meta: &[&str]) -> toml::Table {
    t.iter()
        .filter(|(k, _)| !meta.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}
