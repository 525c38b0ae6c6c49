//! Scenarios of nodes and applications: a LAN written as named nodes (host, card and stack
//! from the hardware catalogue) with applications placed on them runs the same LAN as the
//! workload scenario it describes, number for number; and what cannot run is refused,
//! naming the file, line and key, before anything is written.

use std::path::{Path, PathBuf};
use std::process::Command;

use ethersim::run;
use ethersim::scenario::{self, Override};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The CSV rows of a run of `path` with `sets`, without the scenario's name.
/// The run's points, each value's bits (a column a run has no part for is NaN, which
/// compares unequal to itself).
fn points(path: &Path, sets: &[&str]) -> Vec<Vec<u64>> {
    let o: Vec<Override> = sets.iter().map(|s| Override::parse(s).unwrap()).collect();
    let s = scenario::load(path, &o).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    run::run(&s)
        .points
        .iter()
        .map(|p| p.iter().map(|v| v.to_bits()).collect())
        .collect()
}

/// A scenario of nodes written in a temporary folder, including the shipped catalogue.
struct Nodes {
    dir: tempfile::TempDir,
}

impl Nodes {
    fn new() -> Self {
        Nodes {
            dir: tempfile::tempdir().unwrap(),
        }
    }
    fn write(&self, name: &str, text: &str) -> PathBuf {
        let catalogue = root().join("hardware/catalogue.toml");
        let text = text.replace("CATALOGUE", &catalogue.display().to_string());
        let path = self.dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    }
    fn refused(&self, text: &str) -> String {
        let path = self.write("lan.toml", text);
        match scenario::load(&path, &[]) {
            Ok(_) => panic!("accepted:\n{text}"),
            Err(e) => e.to_string(),
        }
    }
}

const SEGMENT: &str = r#"
[segment]
velocity_factor = 0.65
length_m = 30.0
bit_rate_mbps = 10
allow_oversize = true
"#;

fn file_service(server_card: &str, ws_card: &str, ws_stack: &str) -> String {
    format!(
        r#"name = "lan"
seed = 1992
include = ["CATALOGUE"]
{SEGMENT}
[nodes.server]
host = "486dx50"
adapter = "{server_card}"
stack = "lantastic-optimized-server"

[nodes.ws]
count = 5
host = "386sx25"
adapter = "{ws_card}"
stack = "{ws_stack}"

[[apps]]
kind = "perform3"
server = "server"
clients = "ws"
block_sizes = [3072, 15360, 64512]

# the bulletin's window (artisoft-1992.toml)
[run]
warmup_s = 1.0
measure_s = 8.0
"#
    )
}

const BLOCKS: &str = "workload.block_sizes=[3072,15360,64512]";

#[test]
fn the_bulletin_s_lan_as_nodes_runs_as_the_bulletin_s_scenario() {
    let n = Nodes::new();
    let lan = n.write(
        "lan.toml",
        &file_service(
            "ae2-16bit-optimized-server",
            "ae2-16bit-optimized-workstation",
            "lantastic-optimized-workstation",
        ),
    );
    let shipped = old_form("bulletin/16bit-optimized.toml");
    let a = points(&lan, &[]);
    assert_eq!(a.len(), 3);
    assert_eq!(a, points(&shipped, &[BLOCKS]));
}

#[test]
fn upgrading_only_the_server_s_card_as_nodes_runs_as_the_shipped_mix() {
    let n = Nodes::new();
    let lan = n.write(
        "lan.toml",
        &file_service(
            "ae2-16bit-optimized-server",
            "ae2-8bit-optimized-workstation",
            "lantastic-optimized-workstation",
        ),
    );
    let shipped = old_form("bulletin/upgrade-server-only.toml");
    assert_eq!(points(&lan, &[]), points(&shipped, &[BLOCKS]));
}

#[test]
fn a_ttcp_pair_as_nodes_runs_as_the_1995_scenario() {
    let n = Nodes::new();
    let lan = n.write(
        "pair.toml",
        r#"name = "pair"
seed = 1995
include = ["CATALOGUE"]

[segment]
velocity_factor = 0.65
length_m = 10.0
bit_rate_mbps = 10

[nodes.midkemia]
host = "486dx2-66-vl"
adapter = "smc-ultra"
stack = "linux-1-2"

[nodes.kelewan]
host = "p90-pci"
adapter = "smc-ultra"
stack = "linux-1-2"

[[apps]]
kind = "ttcp"
transmitter = "midkemia"
receiver = "kelewan"
buflen = 8192
nbuf = 2048
socket_buffer = 32767
"#,
    );
    let shipped = root().join("scenarios/ttcp1995/ttcp-1995-smc-ultra-smc-ultra-transmit.toml");
    assert_eq!(points(&lan, &[]), points(&shipped, &[]));
}

#[test]
fn the_shipped_lan_of_nodes_runs_as_ttcp_beside_file_service() {
    let nodes = root().join("scenarios/ttcp-beside-file-service.toml");
    let workload = old_form("ttcp-beside-file-service.toml");
    assert_eq!(points(&nodes, &[]), points(&workload, &[]));
    // a group's size is a key like any other: --set and sweeps reach it; an empty group
    // leaves the transfer alone on the cable
    for n in [0, 2] {
        assert_eq!(
            points(&nodes, &[&format!("nodes.workstations.count={n}")]),
            points(&workload, &[&format!("workload.workstations={n}")])
        );
    }
}

#[test]
fn a_profile_of_one_s_own_extends_the_catalogue_s() {
    let n = Nodes::new();
    let base = file_service(
        "ae2-16bit-optimized-server",
        "ae2-16bit-optimized-workstation",
        "lantastic-optimized-workstation",
    );
    // a faster server CPU copies faster: the server-bound 8-bit... here the 16-bit LAN
    // at 3072 bytes is held by the server's CPU, so a faster one must carry more
    let fast = base.replace("host = \"486dx50\"", "host = \"fast-486\"")
        + "\n[hosts.fast-486]\nextends = \"486dx50\"\nmemcpy_ns_per_byte = 200.0\n";
    let slow_path = n.write("slow.toml", &base);
    let fast_path = n.write("fast.toml", &fast);
    let (slow, fast) = (points(&slow_path, &[]), points(&fast_path, &[]));
    let (slow, fast) = (f64::from_bits(slow[0][1]), f64::from_bits(fast[0][1]));
    assert!(fast > slow * 1.05, "fast {fast} against {slow}");
}

#[test]
fn an_application_on_a_node_without_its_stack_is_refused() {
    let n = Nodes::new();
    let e = n.refused(&file_service(
        "ae2-16bit-optimized-server",
        "ae2-16bit-optimized-workstation",
        "lantastic-optimized-server",
    ));
    assert!(e.contains("lan.toml:"), "{e}");
    assert!(e.contains("key `apps[0].clients`"), "{e}");
    assert!(e.contains("LANtastic workstation stack"), "{e}");
    let mut text = std::fs::read_to_string(root().join("scenarios/ttcp-beside-file-service.toml")).unwrap();
    text = text
        .replace("\"../hardware/catalogue.toml\"", "\"CATALOGUE\"")
        .replace("transmitter = \"midkemia\"", "transmitter = \"server\"");
    let e = n.refused(&text);
    assert!(e.contains("key `apps[1].transmitter`"), "{e}");
    assert!(e.contains("needs a TCP/IP stack"), "{e}");
}

#[test]
fn an_unknown_profile_is_refused_with_the_nearest_names() {
    let n = Nodes::new();
    let text = file_service(
        "ae2-16bit-optimized-server",
        "ae2-16bit-optimized-workstation",
        "lantastic-optimized-workstation",
    )
    .replace("host = \"486dx50\"", "host = \"486dx5\"");
    let e = n.refused(&text);
    // the line of the key that names it
    let line = text.lines().position(|l| l.contains("486dx5\"")).unwrap() + 1;
    assert!(e.contains(&format!("lan.toml:{line}:")), "{e}");
    assert!(e.contains("key `nodes.server.host`"), "{e}");
    assert!(e.contains("did you mean `486dx50`"), "{e}");
    assert!(e.contains("valid:"), "{e}");
}

#[test]
fn a_client_group_with_no_server_is_refused() {
    let n = Nodes::new();
    let text = file_service(
        "ae2-16bit-optimized-server",
        "ae2-16bit-optimized-workstation",
        "lantastic-optimized-workstation",
    )
    .replace("server = \"server\"\n", "");
    let e = n.refused(&text);
    assert!(e.contains("key `apps[0]`"), "{e}");
    assert!(e.contains("a client group with no server"), "{e}");
}

#[test]
fn a_node_name_used_twice_is_refused() {
    let n = Nodes::new();
    let text = file_service(
        "ae2-16bit-optimized-server",
        "ae2-16bit-optimized-workstation",
        "lantastic-optimized-workstation",
    ) + "\n[nodes.ws]\ncount = 2\n";
    let e = n.refused(&text);
    let lines: Vec<&str> = text.lines().collect();
    let line = lines.iter().rposition(|l| *l == "[nodes.ws]").unwrap() + 1;
    assert!(e.contains(&format!("lan.toml:{line}:")), "{e}");
    assert!(e.contains("named twice"), "{e}");
}

#[test]
fn a_profile_that_extends_or_includes_itself_is_refused() {
    let n = Nodes::new();
    let base = file_service(
        "ae2-16bit-optimized-server",
        "ae2-16bit-optimized-workstation",
        "lantastic-optimized-workstation",
    );
    let text = base.replace("host = \"486dx50\"", "host = \"loop\"")
        + "\n[hosts.loop]\nextends = \"loop2\"\n\n[hosts.loop2]\nextends = \"loop\"\n";
    let e = n.refused(&text);
    assert!(e.contains("extends itself: loop -> loop2 -> loop"), "{e}");
    assert!(e.contains("key `hosts.loop"), "{e}");
    // a file of profiles that includes the file that included it
    n.write("mine.toml", "include = [\"lan.toml\"]\n");
    let text = base.replace(
        "include = [\"CATALOGUE\"]",
        "include = [\"CATALOGUE\", \"mine.toml\"]",
    );
    let e = n.refused(&text);
    assert!(e.contains("includes itself"), "{e}");
    assert!(e.contains("mine.toml:1:"), "{e}");
}

#[test]
fn a_bad_value_in_one_s_own_profile_is_located_where_it_is_written() {
    let n = Nodes::new();
    let text = file_service(
        "ae2-16bit-optimized-server",
        "ae2-16bit-optimized-workstation",
        "lantastic-optimized-workstation",
    )
    .replace("host = \"486dx50\"", "host = \"broken\"")
        + "\n[hosts.broken]\nextends = \"486dx50\"\nmips = -1.0\n";
    let e = n.refused(&text);
    let line = text.lines().position(|l| l == "mips = -1.0").unwrap() + 1;
    assert!(e.contains(&format!("lan.toml:{line}:")), "{e}");
    assert!(e.contains("key `hosts.broken.mips`"), "{e}");
    assert!(e.contains("out of range"), "{e}");
}

#[test]
fn a_refused_lan_writes_nothing() {
    let n = Nodes::new();
    let path = n.write(
        "lan.toml",
        &file_service(
            "ae2-16bit-optimized-server",
            "ae2-16bit-optimized-workstation",
            "lantastic-optimized-workstation",
        )
        .replace("server = \"server\"\n", ""),
    );
    let out = n.dir.path().join("out");
    let st = Command::new(env!("CARGO_BIN_EXE_ethersim"))
        .args(["run", path.to_str().unwrap(), "--format", "csv", "--pcap"])
        .arg(out.join("lan.pcapng"))
        .output()
        .unwrap();
    assert_eq!(
        st.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    assert!(String::from_utf8_lossy(&st.stderr).contains("a client group with no server"));
    assert!(st.stdout.is_empty());
    assert!(!out.exists(), "the run wrote {}", out.display());
}

#[test]
fn a_1985_vax_pair_as_nodes_runs_as_the_1985_scenario() {
    let n = Nodes::new();
    let lan = n.write(
        "vax.toml",
        r#"name = "vax"
seed = 1985
include = ["CATALOGUE"]

[segment]
velocity_factor = 0.77
length_m = 50.0
bit_rate_mbps = 10

[nodes.vgr]
host = "vax-11-780"
adapter = "excelan-exos-204"
stack = "bsd-4-2"

[nodes.tgr]
host = "vax-11-780"
adapter = "excelan-exos-204"
stack = "bsd-4-2"

[[apps]]
kind = "ttcp"
transmitter = "vgr"
receiver = "tgr"
buflen = 1024
nbuf = 1024
trailers = true
"#,
    );
    let shipped = root().join("scenarios/ttcp1985/ttcp-1985-single-ex0-trailers.toml");
    assert_eq!(points(&lan, &[]), points(&shipped, &[]));
}

#[test]
fn the_catalogue_names_every_host_and_card_of_the_four_reproductions() {
    let list = ethersim::scenario::nodes::profiles::list(&root().join("hardware/catalogue.toml")).unwrap();
    let names: Vec<String> = list.iter().map(|p| format!("{}.{}", p.kind, p.name)).collect();
    for want in [
        "hosts.486dx50",
        "hosts.386sx25",
        "hosts.486dx2-66-vl",
        "hosts.p90-pci",
        "hosts.vax-11-780",
        "adapters.ae2-8bit",
        "adapters.ae2-16bit",
        "adapters.3c509",
        "adapters.smc-ultra",
        "adapters.pcnet-lance",
        "adapters.excelan-exos-204",
        "adapters.interlan-ni1010a",
        "adapters.pcl-11b",
        "stacks.lantastic-server",
        "stacks.lantastic-workstation",
        "stacks.linux-1-2",
        "stacks.bsd-4-2",
    ] {
        assert!(names.contains(&want.to_string()), "{want} missing from {names:?}");
    }
    // each resolves to real keys, and says where it is defined
    for p in &list {
        assert!(!p.about.is_empty(), "{p:?}");
        assert!(
            p.defined_at
                .starts_with(&root().join("hardware/catalogue.toml").display().to_string()),
            "{p:?}"
        );
    }
}

#[test]
fn a_bad_value_from_the_command_line_names_the_argument() {
    let nodes = root().join("scenarios/ttcp-beside-file-service.toml");
    for (set, key) in [
        ("nodes.workstations.count=2000", "nodes.workstations.count"),
        ("hosts.486dx50.mips=-5", "hosts.486dx50.mips"),
    ] {
        let o = [Override::parse(set).unwrap()];
        let e = scenario::load(&nodes, &o).map(|_| ()).unwrap_err().to_string();
        assert!(e.contains(&format!("from --set {set}")), "{e}");
        assert!(e.contains(&format!("key `{key}`")), "{e}");
        assert!(e.contains("out of range"), "{e}");
    }
}

/// Every scenario file under `dir`, recursively.
/// A shipped scenario in the form of one workload it had before it was written as nodes
/// and applications (its hardware file the shipped one).
fn old_form(rel: &str) -> PathBuf {
    root().join("tests/fixtures/workload-form").join(rel)
}

/// Each shipped scenario rewritten as nodes and applications is the same model as the
/// file of one workload it replaced, key for key.
#[test]
fn every_rewritten_shipped_scenario_is_the_model_of_its_old_form() {
    let base = root().join("tests/fixtures/workload-form");
    let mut files = Vec::new();
    toml_files(&base, &mut files);
    files.sort();
    let mut compared = 0;
    for old in files {
        let rel = old.strip_prefix(&base).unwrap();
        let shipped = root().join("scenarios").join(rel);
        let doc: toml::Table = toml::from_str(&std::fs::read_to_string(&shipped).unwrap()).unwrap();
        assert!(
            ethersim::scenario::nodes::is_node_form(&doc),
            "{} is not written as nodes",
            shipped.display()
        );
        let a = scenario::load(&old, &[]).unwrap_or_else(|e| panic!("{}: {e}", old.display()));
        let b = scenario::load(&shipped, &[]).unwrap_or_else(|e| panic!("{}: {e}", shipped.display()));
        assert_eq!((&a.name, a.seed), (&b.name, b.seed), "{}", rel.display());
        assert_eq!(
            format!("{:?}", a.medium),
            format!("{:?}", b.medium),
            "{}",
            rel.display()
        );
        // (a shared LAN notes where its transfer was written: a linked file, or two nodes)
        let model = |s: &scenario::Scenario| {
            let m = format!("{:?}", s.workload);
            match (m.find("ttcp_files: [\""), m.find("\"], estimated_events")) {
                (Some(a), Some(b)) if a < b => format!("{}{}", &m[..a], &m[b..]),
                _ => m,
            }
        };
        assert_eq!(
            model(&a),
            model(&b),
            "{} is another model than its old form",
            rel.display()
        );
        compared += 1;
    }
    assert!(compared >= 6, "only {compared} compared");
}

fn toml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            toml_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}

#[test]
fn every_shipped_scenario_of_one_workload_migrates_to_the_same_model() {
    let mut files = Vec::new();
    toml_files(&root().join("scenarios"), &mut files);
    toml_files(&root().join("tests/fixtures/workload-form"), &mut files);
    files.sort();
    let n = Nodes::new();
    let mut migrated = 0;
    for f in files {
        let Ok(old) = scenario::load(&f, &[]) else {
            continue; // a hardware file that is no scenario by itself
        };
        let doc: toml::Table = toml::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        if ethersim::scenario::nodes::is_node_form(&doc) {
            continue;
        }
        let kind = old.workload.kind();
        let text = ethersim::scenario::nodes::migrate::migrate(&f);
        if !["perform3", "lanperf", "ttcp", "saturate", "traffic"].contains(&kind) {
            let e = text.map(|_| ()).unwrap_err().to_string();
            assert!(
                e.contains("no form of nodes and applications yet"),
                "{}: {e}",
                f.display()
            );
            continue;
        }
        let text = text.unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert!(text.contains("[nodes."), "{text}");
        let path = n.write("migrated.toml", &text);
        let new = scenario::load(&path, &[]).unwrap_or_else(|e| panic!("{}: {e}\n{text}", f.display()));
        assert_eq!(new.name, old.name);
        assert_eq!(new.seed, old.seed);
        assert_eq!(
            format!("{:?}", new.workload),
            format!("{:?}", old.workload),
            "{} migrates to another model",
            f.display()
        );
        migrated += 1;
    }
    // the bulletin's, the 1995 and 1985 ttcp scenarios, LANPERF's with one server, the
    // saturated and background-load cables
    assert!(migrated >= 25, "only {migrated} migrated");
}

#[test]
fn migrate_refuses_a_file_of_nodes_and_an_invalid_file() {
    let e =
        ethersim::scenario::nodes::migrate::migrate(&root().join("scenarios/ttcp-beside-file-service.toml"))
            .unwrap_err()
            .to_string();
    assert!(e.contains("already a scenario of nodes"), "{e}");
    let n = Nodes::new();
    let bad = n.write(
        "bad.toml",
        "name = \"x\"\n[workload]\nkind = \"saturate\"\nstations = 0\n",
    );
    let e = ethersim::scenario::nodes::migrate::migrate(&bad)
        .unwrap_err()
        .to_string();
    assert!(e.contains("workload.stations"), "{e}");
}

#[test]
fn lanperf_on_nodes_runs_as_the_lanperf_scenario() {
    let n = Nodes::new();
    let shipped = old_form("lanperf/lanperf-x.toml");
    let text = ethersim::scenario::nodes::migrate::migrate(&shipped).unwrap();
    assert!(text.contains("kind = \"lanperf\""), "{text}");
    assert!(text.contains("[nodes.workstations]"), "{text}");
    // ten-second tests, in both forms
    let short = text.replace("options = \"x\"", "options = \"t10 b512 f16\"");
    let path = n.write("lanperf.toml", &short);
    assert_eq!(
        points(&path, &[]),
        points(&shipped, &["workload.options=t10 b512 f16"])
    );
}
