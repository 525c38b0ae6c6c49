//! `ethersim migrate`: a scenario of one workload rewritten as nodes and applications.
//!
//! A `perform3` or `lanperf` scenario becomes a server node and a group of workstations
//! running the application; a `ttcp` scenario two nodes running ttcp; a `saturate` or
//! `traffic` scenario a group of bare stations (no host, card or stack) running that
//! background application. The hardware (its include merged
//! in) becomes profiles written in the new file: the server's and the workstations' hosts,
//! cards and LANtastic stacks, or the ttcp hosts, their cards and their stack. The new
//! file describes the same LAN: validated, it gives the same model, key for key (a test
//! checks every shipped scenario of those kinds).
//!
//! The old file's comments (the sources of its constants) are not carried: the new file's
//! header names the file it came from. Kinds with no node form yet (shared: its form is
//! the applications placed on the nodes themselves), cards in several modes within the workstations
//! (`adapter.workstation.bus_widths`) and several PERFORM3 servers are refused, saying so.

use std::path::Path;

use super::super::error::{Problem, ScenarioError};
use super::super::merge::merge_under;
use super::super::source::Source;
use super::super::{load, Override};
use super::is_node_form;
use super::profiles::error_at;

fn refuse(src: &Source, key: &str, message: String) -> ScenarioError {
    error_at(std::slice::from_ref(src), 0, key, Problem::Invalid { message })
}

fn table(v: Option<&toml::Value>) -> toml::Table {
    v.and_then(toml::Value::as_table).cloned().unwrap_or_default()
}

/// One `[section]` (or `[[section]]` list) of the new file, in order.
fn section(out: &mut String, key: &str, value: toml::Value) {
    let mut t = toml::Table::new();
    t.insert(key.to_string(), value);
    let text = toml::to_string(&t).expect("a TOML table serialises");
    out.push('\n');
    out.push_str(&text);
}

/// The scenario at `path` as nodes and applications (TOML text).
pub fn migrate(path: &Path) -> Result<String, ScenarioError> {
    let src = Source::read(path)?;
    let mut doc = src.parse()?;
    if is_node_form(&doc) {
        return Err(refuse(
            &src,
            "nodes",
            "already a scenario of nodes and applications".into(),
        ));
    }
    // it must be valid as it is: a migration does not carry a mistake into the new form
    let valid = load(path, &[] as &[Override])?;
    let mut hardware_name = None;
    if let Some(hw) = doc
        .get("hardware")
        .and_then(toml::Value::as_str)
        .map(str::to_owned)
    {
        let hw_path = path.parent().unwrap_or(Path::new("")).join(&hw);
        let mut hw_doc = Source::read(&hw_path)?.parse()?;
        let kind = |d: &toml::Table| d.get("workload")?.get("kind")?.as_str().map(str::to_owned);
        if let (Some(mine), Some(theirs)) = (kind(&doc), kind(&hw_doc)) {
            if mine != theirs {
                hw_doc.remove("workload");
            }
        }
        merge_under(&mut doc, hw_doc);
        doc.remove("hardware");
        hardware_name = Some(hw);
    }
    let kind = valid.workload.kind();
    let w = table(doc.get("workload"));
    let mut out = format!(
        "# {} as nodes and applications, written by `ethersim migrate` from {}{}.\n\
         # The sources of its constants are in the comments of {}.\n",
        valid.name,
        path.display(),
        hardware_name
            .as_ref()
            .map(|h| format!(" and its hardware file {h}"))
            .unwrap_or_default(),
        if hardware_name.is_some() {
            "those files"
        } else {
            "that file"
        }
    );
    let mut top = toml::Table::new();
    top.insert("name".into(), valid.name.clone().into());
    if let Some(seed) = doc.get("seed") {
        top.insert("seed".into(), seed.clone());
    }
    out.push_str(&toml::to_string(&top).expect("serialises"));
    section(
        &mut out,
        "segment",
        doc.get("medium")
            .cloned()
            .unwrap_or_else(|| toml::Value::Table(Default::default())),
    );
    let mut profiles = toml::Table::new();
    let mut nodes = toml::Table::new();
    let mut app = toml::Table::new();
    let mut run = toml::Table::new();
    match kind {
        "perform3" | "lanperf" => {
            if kind == "perform3" && w.get("servers").and_then(toml::Value::as_integer).unwrap_or(1) > 1 {
                return Err(refuse(
                    &src,
                    "workload.servers",
                    "PERFORM3 reads from one server".into(),
                ));
            }
            let hosts = table(doc.get("hosts"));
            let mut adapter = table(doc.get("adapter"));
            let ws_side = table(adapter.remove("workstation").as_ref());
            if ws_side.contains_key("bus_widths") {
                return Err(refuse(
                    &src,
                    "adapter.workstation.bus_widths",
                    "cards in several modes within the workstations have no node form yet (one \
                     group of clients, one card mode)"
                        .into(),
                ));
            }
            let mut ws_card = adapter.clone();
            for (k, v) in ws_side {
                ws_card.insert(k, v);
            }
            let nos = table(doc.get("nos"));
            let mut server_stack = nos.clone();
            server_stack.remove("workstation");
            server_stack.insert("family".into(), "lantastic".into());
            server_stack.insert("role".into(), "server".into());
            let mut ws_stack = toml::Table::new();
            ws_stack.insert("family".into(), "lantastic".into());
            ws_stack.insert("role".into(), "workstation".into());
            if let Some(v) = nos.get("workstation") {
                ws_stack.insert("workstation".into(), v.clone());
            }
            let mut h = toml::Table::new();
            h.insert(
                "server-host".into(),
                toml::Value::Table(table(hosts.get("server"))),
            );
            h.insert(
                "workstation-host".into(),
                toml::Value::Table(table(hosts.get("workstation"))),
            );
            let mut a = toml::Table::new();
            a.insert("server-card".into(), toml::Value::Table(adapter));
            a.insert("workstation-card".into(), toml::Value::Table(ws_card));
            let mut s = toml::Table::new();
            s.insert("server-stack".into(), toml::Value::Table(server_stack));
            s.insert("workstation-stack".into(), toml::Value::Table(ws_stack));
            profiles.insert("hosts".into(), toml::Value::Table(h));
            profiles.insert("adapters".into(), toml::Value::Table(a));
            profiles.insert("stacks".into(), toml::Value::Table(s));
            let node = |host: &str, card: &str, stack: &str| {
                let mut n = toml::Table::new();
                n.insert("host".into(), host.into());
                n.insert("adapter".into(), card.into());
                n.insert("stack".into(), stack.into());
                n
            };
            let mut server = node("server-host", "server-card", "server-stack");
            if let Some(n) = w.get("servers").filter(|n| n.as_integer() != Some(1)) {
                // a group of servers, the stations assigned to them in turn
                server.insert("count".into(), n.clone());
            }
            nodes.insert("server".into(), toml::Value::Table(server));
            let count_key = if kind == "lanperf" {
                "stations"
            } else {
                "workstations"
            };
            let mut ws = node("workstation-host", "workstation-card", "workstation-stack");
            ws.insert("count".into(), w.get(count_key).cloned().unwrap_or(5.into()));
            nodes.insert("workstations".into(), toml::Value::Table(ws));
            app.insert("kind".into(), kind.into());
            app.insert("server".into(), "server".into());
            app.insert("clients".into(), "workstations".into());
            if kind == "lanperf" {
                for (k, v) in &w {
                    if !["kind", "stations", "servers"].contains(&k.as_str()) {
                        app.insert(k.clone(), v.clone());
                    }
                }
            } else {
                for k in ["block_sizes", "app_jitter", "start_skew_ms"] {
                    if let Some(v) = w.get(k) {
                        app.insert(k.into(), v.clone());
                    }
                }
                for k in ["warmup_s", "measure_s"] {
                    if let Some(v) = w.get(k) {
                        run.insert(k.into(), v.clone());
                    }
                }
            }
        }
        "ttcp" => {
            let hosts = table(w.get("hosts"));
            let cards = table(w.get("cards"));
            let card_of = table(w.get("card"));
            let mut stack = table(w.get("stack"));
            stack.insert("family".into(), "tcpip".into());
            stack.insert("costs".into(), toml::Value::Table(table(w.get("costs"))));
            let mut used_cards = toml::Table::new();
            for (host, card) in &card_of {
                let card = card.as_str().unwrap_or_default();
                used_cards.insert(card.to_string(), toml::Value::Table(table(cards.get(card))));
                let mut n = toml::Table::new();
                n.insert("host".into(), host.clone().into());
                n.insert("adapter".into(), card.into());
                n.insert("stack".into(), "stack".into());
                nodes.insert(host.clone(), toml::Value::Table(n));
            }
            let mut s = toml::Table::new();
            s.insert("stack".into(), toml::Value::Table(stack));
            profiles.insert("hosts".into(), toml::Value::Table(hosts));
            profiles.insert("adapters".into(), toml::Value::Table(used_cards));
            profiles.insert("stacks".into(), toml::Value::Table(s));
            let tx = w
                .get("transmitter")
                .and_then(toml::Value::as_str)
                .unwrap_or_default()
                .to_string();
            let rx = card_of.keys().find(|h| **h != tx).cloned().unwrap_or_default();
            app.insert("kind".into(), "ttcp".into());
            app.insert("transmitter".into(), tx.into());
            app.insert("receiver".into(), rx.into());
            for k in ["buflen", "nbuf", "socket_buffer", "trailers", "limit_s"] {
                if let Some(v) = w.get(k) {
                    app.insert(k.into(), v.clone());
                }
            }
        }
        "saturate" | "traffic" => {
            // a group of bare stations (no host, card or stack), the sink implied by
            // destination = "sink" as in the workload
            let mut n = toml::Table::new();
            n.insert("count".into(), w.get("stations").cloned().unwrap_or(1.into()));
            nodes.insert("stations".into(), toml::Value::Table(n));
            app.insert("kind".into(), kind.into());
            app.insert("senders".into(), "stations".into());
            for (k, v) in &w {
                if !["kind", "stations", "duration_s"].contains(&k.as_str()) {
                    app.insert(k.clone(), v.clone());
                }
            }
            if let Some(v) = w.get("duration_s") {
                run.insert("duration_s".into(), v.clone());
            }
        }
        other => {
            return Err(refuse(
                &src,
                "workload.kind",
                format!(
                    "a {other} scenario has no form of nodes and applications yet (perform3, \
                     lanperf, ttcp, saturate and traffic have); it runs as it is"
                ),
            ))
        }
    }
    for (k, v) in profiles {
        section(&mut out, &k, v);
    }
    section(&mut out, "nodes", toml::Value::Table(nodes));
    section(
        &mut out,
        "apps",
        toml::Value::Array(vec![toml::Value::Table(app)]),
    );
    if !run.is_empty() {
        section(&mut out, "run", toml::Value::Table(run));
    }
    Ok(out)
}
