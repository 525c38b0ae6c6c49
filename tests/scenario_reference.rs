//! The parameter registry against what the program does: the committed key reference
//! (`docs/scenarios.md`) is the generated one; the keys the raw serde structs accept are
//! exactly the registered keys; every key of every shipped scenario file is registered;
//! the validators refuse a value just outside each registered range, naming the key and
//! the registry's bound; sweep labels are the ones charts always had.
//!
//! `ETHERSIM_BLESS=1 cargo test --test scenario_reference` rewrites docs/scenarios.md.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use ethersim::scenario::card;
use ethersim::scenario::host::{self, HostUse};
use ethersim::scenario::params::{self, Param, Range};
use ethersim::scenario::{
    self, de, lan, lanperf, medium, perform3, saturate, shared, stack, traffic, ttcp, unibus,
};
use ethersim::scenario::{Override, Problem, ScenarioError};
use serde::de::DeserializeOwned;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn docs_scenarios_md_is_the_generated_reference() {
    let path = root().join("docs").join("scenarios.md");
    let want = params::reference_markdown();
    if std::env::var_os("ETHERSIM_BLESS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &want).unwrap();
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/scenarios.md is not the reference generated from src/scenario/params/; \
         rewrite it with `ETHERSIM_BLESS=1 cargo test --test scenario_reference`"
    );
}

/// The field names serde accepts for `T`, from its "unknown field" error.
fn fields<T: DeserializeOwned + std::fmt::Debug>(extra: &[(&str, toml::Value)]) -> Vec<String> {
    let mut t = toml::Table::new();
    for (k, v) in extra {
        t.insert(k.to_string(), v.clone());
    }
    t.insert("zz_probe".into(), toml::Value::Integer(0));
    match de::from_value::<T>(toml::Value::Table(t), "") {
        Err(e) => match e.problem {
            Problem::UnknownKey { valid, .. } => valid,
            p => panic!("probe of {} gave {p:?}", std::any::type_name::<T>()),
        },
        Ok(v) => panic!("probe accepted: {v:?}"),
    }
}

/// The variant names serde accepts for the enum `T`.
fn variants<T: DeserializeOwned + std::fmt::Debug>() -> Vec<String> {
    match de::from_value::<T>(toml::Value::String("zz_probe".into()), "") {
        Err(e) => match e.problem {
            Problem::UnknownVariant { valid, .. } => valid,
            p => panic!("probe of {} gave {p:?}", std::any::type_name::<T>()),
        },
        Ok(v) => panic!("probe accepted: {v:?}"),
    }
}

fn s(v: &str) -> toml::Value {
    toml::Value::String(v.into())
}

/// Every (table prefix, workload kind, accepted field names) of the scenario format.
fn accepted_tables() -> Vec<(&'static str, Option<&'static str>, Vec<String>)> {
    let sat = Some("saturate");
    let tr = Some("traffic");
    let p3 = Some("perform3");
    let lp = Some("lanperf");
    let tc = Some("ttcp");
    let sh = Some("shared");
    vec![
        ("", None, fields::<scenario::RawScenario>(&[])),
        ("medium", None, fields::<medium::RawMedium>(&[])),
        ("hosts", None, fields::<lan::RawHosts>(&[])),
        ("hosts.server", None, host_keys(HostUse::FileService, "")),
        ("hosts.server.isa", None, host_keys(HostUse::FileService, "isa")),
        ("hosts.workstation", None, host_keys(HostUse::FileService, "")),
        (
            "hosts.workstation.isa",
            None,
            host_keys(HostUse::FileService, "isa"),
        ),
        ("adapter", None, card_keys(&[card::RawEngineKind::ProgrammedIo])),
        ("adapter.workstation", None, fields::<lan::RawDriver>(&[])),
        ("nos", None, fields::<lan::RawNos>(&[])),
        ("nos.protocol", None, fields::<lan::RawProtocol>(&[])),
        ("nos.costs", None, fields::<lan::RawCosts>(&[])),
        ("nos.server", None, fields::<lan::RawNosServer>(&[])),
        ("nos.server.ailanbio", None, fields::<lan::RawAilanbio>(&[])),
        ("nos.workstation", None, fields::<lan::RawNosWorkstation>(&[])),
        ("nos.workstation.ailanbio", None, fields::<lan::RawAilanbio>(&[])),
        ("nos.workstation.redir", None, fields::<lan::RawRedir>(&[])),
        ("workload", sat, fields::<saturate::RawSaturate>(&[])),
        ("workload", tr, fields::<traffic::RawTraffic>(&[])),
        ("workload.sizes", tr, {
            let mut f = vec!["kind".to_string()];
            for kind in ["fixed", "uniform", "bimodal", "table"] {
                f.extend(fields::<traffic::RawSizes>(&[("kind", s(kind))]));
            }
            f
        }),
        ("workload", p3, fields::<perform3::RawPerform3>(&[])),
        ("workload", lp, fields::<lanperf::RawLanperf>(&[])),
        ("workload.disk", lp, fields::<lanperf::RawDisk>(&[])),
        ("workload.cache", lp, fields::<lanperf::RawCache>(&[])),
        ("workload.local", lp, fields::<lanperf::RawLocal>(&[])),
        ("workload", tc, fields::<ttcp::RawTtcp>(&[])),
        ("workload", sh, fields::<shared::RawShared>(&[])),
        ("workload.costs", tc, fields::<ttcp::RawCosts>(&[])),
        ("workload.hosts.*", tc, host_keys(HostUse::Tcp, "")),
        ("workload.hosts.*.isa", tc, host_keys(HostUse::Tcp, "isa")),
        ("workload.hosts.*.pci", tc, fields::<host::RawPci>(&[])),
        (
            "workload.cards.*",
            tc,
            card_keys(&[
                card::RawEngineKind::FifoPio,
                card::RawEngineKind::SharedMemory,
                card::RawEngineKind::BusMaster,
                card::RawEngineKind::UnibusDma,
            ]),
        ),
        ("workload.cards.*.dma", tc, fields::<unibus::RawDma>(&[])),
        ("workload.cards.*.command", tc, fields::<unibus::RawCommand>(&[])),
        ("workload.cards.*.queue", tc, fields::<unibus::RawQueue>(&[])),
        ("workload.cards.*.link", tc, fields::<unibus::RawLink>(&[])),
        ("workload.stack", tc, fields::<stack::RawStack>(&[])),
        ("workload.stack.window", tc, {
            let mut f = vec!["rule".to_string()];
            f.extend(fields::<stack::RawWindow>(&[("rule", s("half_free_space"))]));
            f.extend(fields::<stack::RawWindow>(&[("rule", s("free_space"))]));
            f
        }),
        // untagged enums: a name, or a table with one key (serde cannot list these)
        (
            "workload.stack.window_update",
            tc,
            vec!["percent_of_buffer".into()],
        ),
        ("workload.stack.congestion", tc, vec!["max_segments".into()]),
    ]
}

/// The keys of a card that a model of the engines `kinds` reads: the keys every card has
/// and those of its engines (the one card shape's keys less the other engines' own).
fn card_keys(kinds: &[card::RawEngineKind]) -> Vec<String> {
    use card::RawEngineKind::*;
    let all_engines = [ProgrammedIo, FifoPio, SharedMemory, BusMaster, UnibusDma];
    let own: Vec<&str> = kinds
        .iter()
        .flat_map(|k| card::engine_keys(*k).1.iter().copied())
        .collect();
    let foreign: Vec<&str> = all_engines
        .iter()
        .flat_map(|k| card::engine_keys(*k).1.iter().copied())
        .filter(|k| !own.contains(k))
        .collect();
    fields::<card::RawCard>(&[])
        .into_iter()
        .filter(|k| !foreign.contains(&k.as_str()))
        .collect()
}

/// The keys of a host (`within` "") or of its `isa` table that the model of `used_by`
/// reads: the one host shape's keys less those the model refuses by name.
fn host_keys(used_by: HostUse, within: &str) -> Vec<String> {
    let unused: &[&str] = match used_by {
        HostUse::FileService => &host::UNUSED_BY_FILE_SERVICE,
        HostUse::Tcp => &host::UNUSED_BY_TCP,
    };
    let all = if within.is_empty() {
        fields::<host::RawHost>(&[])
    } else {
        fields::<host::RawIsa>(&[])
    };
    all.into_iter()
        .filter(|k| {
            let key = if within.is_empty() {
                k.clone()
            } else {
                format!("{within}.{k}")
            };
            !unused.contains(&key.as_str())
        })
        .collect()
}

/// Keys that are tables of names the file chooses, or tables checked as tables above.
fn is_table(tables: &[(&str, Option<&str>, Vec<String>)], key: &str) -> bool {
    ["workload.hosts", "workload.cards"].contains(&key) || tables.iter().any(|(p, _, _)| *p == key)
}

#[test]
fn the_registry_holds_exactly_the_keys_the_parser_accepts() {
    let tables = accepted_tables();
    let mut accepted: BTreeSet<(String, Option<&str>)> = BTreeSet::new();
    for (prefix, kind, names) in &tables {
        assert!(!names.is_empty(), "no fields found for {prefix}");
        for f in names {
            let key = if prefix.is_empty() {
                f.clone()
            } else {
                format!("{prefix}.{f}")
            };
            let key = if key == "workload.card" {
                "workload.card.*".to_string()
            } else {
                key
            };
            // a choice-or-table key is both a key and a table
            let both = ["workload.stack.window_update", "workload.stack.congestion"].contains(&key.as_str());
            if is_table(&tables, &key) && !both {
                continue;
            }
            let p = params::get(*kind, &key);
            accepted.insert((p.key.to_string(), p.kind));
        }
    }
    accepted.insert(("workload.kind".into(), None));
    let registered: BTreeSet<(String, Option<&str>)> =
        params::all().map(|p| (p.key.to_string(), p.kind)).collect();
    let only_registered: Vec<_> = registered.difference(&accepted).collect();
    assert!(
        only_registered.is_empty(),
        "registered but not accepted by the parser: {only_registered:?}"
    );
    assert_eq!(registered.len(), accepted.len());
}

#[test]
fn choice_keys_list_the_parser_s_names() {
    let check = |key: &str, kind: Option<&str>, names: Vec<String>| {
        let want: Vec<&str> = params::get(kind, key).choices().to_vec();
        assert_eq!(names, want, "{key}");
    };
    check(
        "adapter.transmit_length",
        None,
        variants::<lan::RawTransmitLength>(),
    );
    check("adapter.send_copy", None, variants::<lan::RawSendCopy>());
    check(
        "nos.costs.server_request_latency_scope",
        None,
        variants::<lan::RawLatencyScope>(),
    );
    check("nos.server.reply_copy", None, variants::<lan::RawReplyCopy>());
    check(
        "nos.server.ailanbio.send_order",
        None,
        variants::<lan::RawSendOrder>(),
    );
    check(
        "nos.workstation.ailanbio.send_order",
        None,
        variants::<lan::RawSendOrder>(),
    );
    check(
        "nos.workstation.redir.large_reads",
        None,
        variants::<lan::RawLargeReads>(),
    );
    check(
        "workload.destination",
        Some("saturate"),
        variants::<saturate::RawDestination>(),
    );
    check(
        "workload.destination",
        Some("traffic"),
        variants::<saturate::RawDestination>(),
    );
    check(
        "workload.arrivals",
        Some("traffic"),
        variants::<traffic::RawArrivals>(),
    );
    // an internally tagged table: the names come from its `kind`
    let mut probe = toml::Table::new();
    probe.insert("kind".into(), s("zz_probe"));
    match de::from_value::<traffic::RawSizes>(toml::Value::Table(probe), "") {
        Err(e) => match e.problem {
            Problem::UnknownVariant { valid, .. } => check("workload.sizes.kind", Some("traffic"), valid),
            p => panic!("probe of the sizes' kind gave {p:?}"),
        },
        Ok(v) => panic!("probe accepted: {v:?}"),
    }
    // one card shape, one list of engines: each stack's keys list those its model runs
    let engines = variants::<card::RawEngineKind>();
    let (fs, tcp): (Vec<String>, Vec<String>) = engines.into_iter().partition(|e| e == "programmed_io");
    check("workload.cards.*.engine", Some("ttcp"), tcp);
    check("adapter.engine", None, fs);
    check(
        "workload.cards.*.queue.take_up",
        Some("ttcp"),
        variants::<unibus::RawTakeUp>(),
    );
    check(
        "workload.stack.ack_clock",
        Some("ttcp"),
        variants::<stack::RawAckClock>(),
    );
    check(
        "workload.stack.send_rule",
        Some("ttcp"),
        variants::<stack::RawSendRule>(),
    );
    let sharing: Vec<String> = ethersim::workload::lanperf::Sharing::ALL
        .iter()
        .map(|m| m.1.to_string())
        .collect();
    check("workload.sharing", Some("lanperf"), sharing);
    let kinds: Vec<String> = scenario::workload::KINDS.iter().map(|k| k.to_string()).collect();
    check("workload.kind", None, kinds);
}

/// Every leaf key of `t` under `prefix`, with array indices dropped.
fn leaves(prefix: &str, t: &toml::Table, out: &mut Vec<String>) {
    for (k, v) in t {
        let key = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            toml::Value::Table(inner) => leaves(&key, inner, out),
            _ => out.push(key),
        }
    }
}

fn shipped_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            shipped_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}

#[test]
fn every_key_of_every_shipped_scenario_is_registered() {
    let mut files = Vec::new();
    shipped_files(&root().join("scenarios"), &mut files);
    assert!(files.len() > 10, "{files:?}");
    let mut seen = 0;
    for f in files {
        let doc: toml::Table = toml::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        // a file of nodes and applications: its own keys are the node loader's (tests/nodes.rs),
        // its profiles' keys those of the sections they stand for, checked when it loads
        if ethersim::scenario::nodes::is_node_form(&doc) {
            ethersim::scenario::load(&f, &[]).unwrap_or_else(|e| panic!("{e}"));
            continue;
        }
        let kind = doc
            .get("workload")
            .and_then(|w| w.get("kind"))
            .and_then(|k| k.as_str())
            .map(str::to_owned);
        let mut keys = Vec::new();
        leaves("", &doc, &mut keys);
        for k in keys {
            let found = match &kind {
                Some(kind) => params::find_for(Some(kind), &k),
                None => params::find(&k),
            };
            assert!(
                found.is_some(),
                "{}: key {k} is not in the parameter registry",
                f.display()
            );
            seen += 1;
        }
    }
    assert!(seen > 200, "only {seen} keys seen");
}

/// A value just outside `p`'s range on the side `above`, as `--set` writes it.
fn outside(p: &Param, above: bool) -> Option<String> {
    match p.range {
        Range::Int { max, .. } if above => max.value.checked_add(1).map(|v| v.to_string()),
        Range::Int { min, .. } => min.value.checked_sub(1).map(|v| v.to_string()),
        Range::Real { max, .. } if above => Some(format!("{:?}", max.value * 1.001 + 1e-3)),
        Range::Real { min, min_open, .. } if min_open => Some(format!("{:?}", min.value)),
        Range::Real { min, .. } => Some(format!("{:?}", min.value * 0.999 - 1e-3)),
        _ => None,
    }
}

/// The bounds of `p` that are themselves allowed, as `--set` writes them.
fn inside(p: &Param) -> Vec<String> {
    match p.range {
        Range::Int { min, max } => vec![min.value.to_string(), max.value.to_string()],
        Range::Real { min, max, min_open } => {
            let mut v = vec![format!("{:?}", max.value)];
            if !min_open {
                v.push(format!("{:?}", min.value));
            }
            v
        }
        _ => vec![],
    }
}

/// A shipped scenario in the form of one workload, whose keys the reference lists: the
/// file itself, or (for one rewritten as nodes and applications) its old form.
fn workload_form(rel: &str) -> PathBuf {
    let old = root().join("tests/fixtures/workload-form").join(rel);
    if old.is_file() {
        old
    } else {
        root().join("scenarios").join(rel)
    }
}

fn refused(file: &str, key: &str, value: &str) -> Result<String, String> {
    let o = Override::parse(&format!("{key}={value}")).unwrap();
    match scenario::load(&workload_form(file), &[o]) {
        Ok(_) => Err(format!("{key}={value} was accepted")),
        Err(e @ ScenarioError::Field { .. }) => {
            let text = e.to_string();
            if e.key() == Some(key) {
                Ok(text)
            } else {
                Err(format!("{key}={value} refused for another key: {text}"))
            }
        }
        Err(e) => Err(format!("{key}={value}: {e}")),
    }
}

#[test]
fn validators_refuse_just_outside_each_registered_range() {
    // keys whose range another key narrows, or which this scenario does not read
    let skip = [
        "adapter.io_access_ns_8bit",
        "adapter.io_access_ns_32bit",
        "adapter.workstation.io_access_ns_8bit",
        "adapter.workstation.io_access_ns_32bit",
        "adapter.packet_size",
        "adapter.workstation.packet_size",
        "adapter.ram_bytes",
        "medium.positions_m",
        "medium.length_m",
        "medium.bit_rate_mbps",
        "nos.server.ailanbio.size",
        "nos.workstation.ailanbio.size",
        "nos.protocol.header_bytes",
        "seed",
    ];
    let mut checked = 0;
    for p in params::all().filter(|p| p.kind.is_none() || p.kind == Some("perform3")) {
        if skip.contains(&p.key) || p.list {
            continue;
        }
        for above in [false, true] {
            let Some(v) = outside(p, above) else { continue };
            match refused("bulletin/16bit-defaults.toml", p.key, &v) {
                Ok(text) => {
                    assert!(text.contains("out of range"), "{text}");
                    checked += 1;
                }
                Err(why) => panic!("{why}"),
            }
        }
        // the bounds themselves are not refused as out of range (another rule, such as
        // the event budget, may still refuse them)
        for bound in inside(p) {
            let o = Override::parse(&format!("{}={bound}", p.key)).unwrap();
            if let Err(e) = scenario::load(&workload_form("bulletin/16bit-defaults.toml"), &[o]) {
                let text = e.to_string();
                assert!(
                    !(e.key() == Some(p.key) && text.contains("out of range")),
                    "{}={bound} is inside the registered range but refused: {text}",
                    p.key
                );
            }
        }
    }
    assert!(checked > 60, "only {checked} bounds checked");
}

#[test]
fn sweep_labels_are_the_ones_charts_always_had() {
    for (key, label) in [
        ("adapter.transmit_buffers", "AEX TRANSMIT_BUFFERS (frames)"),
        ("adapter.packet_size", "AEX PACKET_SIZE (bytes)"),
        (
            "adapter.transmit_length",
            "Frames sent a large buffer long (frame: none; data; message)",
        ),
        (
            "adapter.send_copy",
            "When the driver copies a frame into the card (queued; at_once; when_idle)",
        ),
        (
            "adapter.workstation.transmit_buffers",
            "Workstation AEX TRANSMIT_BUFFERS (frames)",
        ),
        (
            "adapter.workstation.packet_size",
            "Workstation AEX PACKET_SIZE (bytes)",
        ),
        (
            "nos.server.run_burst",
            "SERVER run burst (requests between yields)",
        ),
        (
            "nos.server.reply_copy",
            "When SERVER moves a reply out of its cache (per_packet; before_send)",
        ),
        (
            "nos.costs.server_yield_ms",
            "Foreground's turn when SERVER yields (ms of CPU)",
        ),
        ("workload.stations", "Stations"),
        ("workload.frame_bytes", "Frame size (bytes, header to FCS)"),
        ("workload.duration_s", "Simulated duration (s)"),
        ("medium.length_m", "Cable length (m)"),
        ("medium.velocity_factor", "Velocity factor"),
        ("medium.bit_rate_mbps", "Bit rate (Mb/s)"),
        ("medium.corrupt_fraction", "Frames damaged on the wire (fraction)"),
        ("seed", "Seed"),
    ] {
        assert_eq!(ethersim::report::figures::param_label(key), label, "{key}");
    }
    assert_eq!(
        ethersim::report::figures::param_label("no.such.key"),
        "no.such.key"
    );
}

#[test]
fn the_key_list_has_a_line_per_key() {
    let list = params::key_list();
    assert_eq!(list.lines().count(), params::all().count());
    assert!(list
        .lines()
        .any(|l| l.starts_with("adapter.transmit_buffers\t-\t2..=80 frames\t")));
}

/// The value a registered default stands for, as `--set` writes it: its first word when
/// that is a number, a switch or one of the key's choices (defaults given as a rule, such
/// as "adapter.transmit_buffers", are not values).
fn default_value(p: &Param) -> Option<String> {
    let params::Presence::Value(text) = p.default else {
        return None;
    };
    let word = text.split_whitespace().next()?;
    let ok = match p.range {
        Range::Int { .. } => word.parse::<i64>().is_ok(),
        Range::Real { .. } => word.parse::<f64>().is_ok(),
        Range::Bool => word == "true" || word == "false",
        Range::Choice { names, .. } => names.contains(&text),
        _ => false,
    };
    match p.range {
        Range::Choice { .. } if ok => Some(format!("\"{text}\"")),
        _ if ok => Some(word.to_string()),
        _ => None,
    }
}

/// A shipped scenario with its hardware file merged in, as one table with no include.
fn merged(rel: &str) -> toml::Table {
    let path = workload_form(rel);
    let mut doc: toml::Table = toml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    if let Some(hw) = doc.remove("hardware") {
        let hw_path = path.parent().unwrap().join(hw.as_str().unwrap());
        let hw: toml::Table = toml::from_str(&std::fs::read_to_string(hw_path).unwrap()).unwrap();
        scenario::merge::merge_under(&mut doc, hw);
    }
    doc
}

fn remove_key(doc: &mut toml::Table, key: &str) {
    let steps: Vec<&str> = key.split('.').collect();
    let (last, head) = steps.split_last().unwrap();
    let mut t = doc;
    for s in head {
        match t.get_mut(*s).and_then(toml::Value::as_table_mut) {
            Some(inner) => t = inner,
            None => return,
        }
    }
    t.remove(*last);
}

#[test]
fn registered_defaults_are_what_the_validators_use() {
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for (kind, base) in [
        ("saturate", "saturate.toml"),
        ("traffic", "background-load.toml"),
        ("perform3", "bulletin/artisoft-1992.toml"),
        ("lanperf", "lanperf/lanperf-x.toml"),
        ("ttcp", "ttcp1995/ttcp-1995-3c509-3c509-transmit.toml"),
    ] {
        for p in params::all().filter(|p| p.kind.is_none() || p.kind == Some(kind)) {
            let Some(value) = default_value(p) else { continue };
            if p.key.contains('*') {
                continue;
            }
            let mut doc = merged(base);
            remove_key(&mut doc, p.key);
            let file = dir.path().join(format!("{kind}.toml"));
            std::fs::write(&file, toml::to_string(&doc).unwrap()).unwrap();
            let Ok(absent) = scenario::load(&file, &[]) else {
                continue;
            };
            let o = Override::parse(&format!("{}={value}", p.key)).unwrap();
            let Ok(given) = scenario::load(&file, &[o]) else {
                continue;
            };
            assert_eq!(
                format!("{:?}", (&absent.medium, &absent.workload, absent.seed)),
                format!("{:?}", (&given.medium, &given.workload, given.seed)),
                "{kind}: {} absent is not {} = {value}, its registered default",
                p.key,
                p.key
            );
            checked += 1;
        }
    }
    eprintln!("{checked} registered defaults checked");
    assert!(checked > 40, "only {checked} defaults checked");
}

#[test]
fn ethersim_keys_prints_the_registry() {
    let run = |args: &[&str]| {
        let o = assert_cmd::Command::cargo_bin("ethersim")
            .unwrap()
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let md = run(&["keys", "--markdown"]);
    let doc =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/scenarios.md"))
            .unwrap();
    assert_eq!(md, doc, "`ethersim keys --markdown` and docs/scenarios.md differ");
    let list = run(&["keys"]);
    assert!(
        list.lines().any(|l| l.starts_with("adapter.transmit_buffers\t")),
        "{list}"
    );
    assert_eq!(list.lines().count(), ethersim::scenario::params::all().count());
}
