//! The AE2's data-port access times come from the AT bus cycle: on each host, (2 + wait
//! states + the chipset's recovery) bus clocks at that host's bus clock, plus the card's
//! ready time. Checked by hand against the shipped hardware file's own numbers, for both
//! widths and both hosts, and the rules that keep the two descriptions apart.

use ethersim::adapter::CopyEngine;
use ethersim::repro::bulletin::{HARDWARE, SCENARIOS};
use ethersim::scenario::{Override, Workload};

/// A number of the hardware file at `path` (dotted).
fn number(doc: &toml::Table, path: &str) -> f64 {
    let mut v = None;
    let mut t = doc;
    let parts: Vec<&str> = path.split('.').collect();
    for (i, p) in parts.iter().enumerate() {
        let item = t
            .get(*p)
            .unwrap_or_else(|| panic!("{path} not in the hardware file"));
        if i + 1 == parts.len() {
            v = item.as_float().or_else(|| item.as_integer().map(|x| x as f64));
        } else {
            t = item.as_table().unwrap();
        }
    }
    v.unwrap_or_else(|| panic!("{path} is not a number"))
}

/// The server's and the workstations' data-port access, ns, of scenario `i` with `set`.
fn access(i: usize, set: &[&str]) -> Result<(f64, f64, Vec<String>), String> {
    let overrides: Vec<Override> = set.iter().map(|s| Override::parse(s).unwrap()).collect();
    let (name, _) = SCENARIOS[i];
    let s = ethersim::repro::bulletin::load(name, None, &overrides).map_err(|e| e.to_string())?;
    let Workload::Perform3(w) = &s.workload else {
        panic!("a PERFORM3 scenario")
    };
    let port = |c: &CopyEngine| match c {
        CopyEngine::ProgrammedIo { access_ns, .. } => *access_ns,
        other => panic!("programmed I/O, not {other:?}"),
    };
    let p = &w.config.lan.profile;
    Ok((
        port(&p.server_adapter.copy),
        port(&p.workstation_adapter.copy),
        s.warnings.clone(),
    ))
}

#[test]
fn each_hosts_8_and_16_bit_accesses_follow_from_its_bus_clock_recovery_and_the_cards_ready_time() {
    let doc: toml::Table = HARDWARE.1.parse().unwrap();
    let ready = number(&doc, "adapter.ready_ns");
    // the AT's standard cycles: 2 clocks, plus 1 wait state (16-bit) or 4 (8-bit)
    assert_eq!(number(&doc, "adapter.wait_states_16bit"), 1.0);
    assert_eq!(number(&doc, "adapter.wait_states_8bit"), 4.0);
    let by_hand = |host: &str, width: u32| {
        let clock_ns = 1e3 / number(&doc, &format!("hosts.{host}.isa.clock_mhz"));
        let recovery = number(&doc, &format!("hosts.{host}.isa.io_recovery_clocks_{width}bit"));
        let wait = if width == 16 { 1.0 } else { 4.0 };
        (2.0 + wait + recovery) * clock_ns + ready
    };
    // SCENARIOS: 16-bit optimized, 8-bit optimized, 16-bit defaults, 8-bit defaults
    for (i, width) in [(0, 16), (1, 8), (2, 16), (3, 8)] {
        let (server, ws, _) = access(i, &[]).unwrap();
        let (hs, hw) = (by_hand("server", width), by_hand("workstation", width));
        assert!(
            (server - hs).abs() < 1e-9,
            "{}: server {server} by hand {hs}",
            SCENARIOS[i].0
        );
        assert!(
            (ws - hw).abs() < 1e-9,
            "{}: workstation {ws} by hand {hw}",
            SCENARIOS[i].0
        );
    }
    // one card, one host: 8-bit minus 16-bit is the difference in wait states and
    // recovery, in that host's clocks; the card's ready time cancels
    let (s16, w16, _) = access(0, &[]).unwrap();
    let (s8, w8, _) = access(1, &[]).unwrap();
    for (host, d) in [("server", s8 - s16), ("workstation", w8 - w16)] {
        let clock_ns = 1e3 / number(&doc, &format!("hosts.{host}.isa.clock_mhz"));
        let clocks = 3.0 + number(&doc, &format!("hosts.{host}.isa.io_recovery_clocks_8bit"))
            - number(&doc, &format!("hosts.{host}.isa.io_recovery_clocks_16bit"));
        assert!((d - clocks * clock_ns).abs() < 1e-9, "{host}: {d} ns");
    }
}

#[test]
fn a_slower_bus_clock_or_a_longer_ready_time_slows_every_access_by_the_cycles_arithmetic() {
    let (s16, w16, _) = access(0, &[]).unwrap();
    // the card's ready time is the same card on both hosts: +100 ns on each access
    let (s16r, w16r, _) = access(
        0,
        &[
            "adapters.server.ready_ns=200",
            "adapters.workstation.ready_ns=200",
        ],
    )
    .unwrap();
    let doc: toml::Table = HARDWARE.1.parse().unwrap();
    let ready = number(&doc, "adapter.ready_ns");
    assert!((s16r - s16 - (200.0 - ready)).abs() < 1e-9);
    assert!((w16r - w16 - (200.0 - ready)).abs() < 1e-9);
    // the server's bus clock is the server's alone: 6 MHz makes its 16-bit access
    // (2+1+recovery) x 166.7 ns + ready, and leaves the workstations' alone
    let (s6, w6, _) = access(0, &["hosts.server.isa.clock_mhz=6"]).unwrap();
    let clocks = 3.0 + number(&doc, "hosts.server.isa.io_recovery_clocks_16bit");
    assert!((s6 - (clocks * 1e3 / 6.0 + ready)).abs() < 1e-9, "{s6}");
    assert_eq!(w6, w16);
}

#[test]
fn a_given_access_time_overrides_the_bus_cycle_with_a_warning_naming_both() {
    let (s, ws, warnings) = access(0, &["adapters.server.io_access_ns_16bit=500"]).unwrap();
    assert_eq!(s, 500.0);
    let (_, w16, _) = access(0, &[]).unwrap();
    assert_eq!(ws, w16, "the workstations keep their own bus");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("adapters.server.io_access_ns_16bit")
                && w.contains("hosts.server.isa.clock_mhz")),
        "{warnings:?}"
    );
}

#[test]
fn bus_cycle_keys_without_a_bus_clock_are_refused_as_meaningless() {
    // a LAN described with given access times, and a stray ready time or recovery
    // the hardware file without its hosts' ISA buses (each `[hosts.X.isa]` table)
    let mut in_isa = false;
    let hw = HARDWARE
        .1
        .lines()
        .filter(|l| {
            if l.starts_with('[') {
                in_isa = l.ends_with(".isa]");
            }
            !in_isa
        })
        .collect::<Vec<_>>()
        .join("\n");
    let (name, _) = SCENARIOS[0];
    let err = ethersim::repro::bulletin::load(name, Some(&hw), &[])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("adapters.server.wait_states_8bit") || err.contains("adapters.server.ready_ns"),
        "{err}"
    );
    assert!(err.contains("isa.clock_mhz"), "{err}");
    let hw2 = format!("{hw}\n");
    let hw2 = hw2
        .replace("wait_states_8bit = 4\n", "")
        .replace("wait_states_16bit = 1\n", "");
    let hw2 = hw2
        .lines()
        .filter(|l| !l.starts_with("ready_ns"))
        .collect::<Vec<_>>()
        .join("\n");
    let hw2 = hw2.replace("[adapter]\n", "[adapter]\nio_access_ns_16bit = 700.0\n");
    let ok = ethersim::repro::bulletin::load(name, Some(&hw2), &[]);
    assert!(ok.is_ok(), "given access times without a bus: {:?}", ok.err());
    // a recovery with no clock: a bus without its clock
    let hw3 = format!("{hw2}\n[hosts.server.isa]\nio_recovery_clocks_8bit = 3\n");
    let err = ethersim::repro::bulletin::load(name, Some(&hw3), &[])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("hosts.server.isa") && err.contains("clock_mhz"),
        "{err}"
    );
    // the older shape's keys are refused naming the new ones
    let hw4 = hw2.replace("[hosts.server]\n", "[hosts.server]\nisa_clock_mhz = 8.0\n");
    let err = ethersim::repro::bulletin::load(name, Some(&hw4), &[])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("hosts.server.isa_clock_mhz") && err.contains("`isa.clock_mhz`"),
        "{err}"
    );
}

#[test]
fn the_workstations_cards_may_run_in_another_mode_than_the_servers() {
    // 16-bit server, 8-bit workstations: each port at its own width on its own bus
    let doc: toml::Table = HARDWARE.1.parse().unwrap();
    let ready = number(&doc, "adapter.ready_ns");
    let (server, ws, _) = access(0, &["adapters.workstation.bus_width=8"]).unwrap();
    let (s16, _, _) = access(0, &[]).unwrap();
    let (_, w8, _) = access(1, &[]).unwrap();
    assert_eq!(server, s16, "the server keeps its 16-bit port");
    assert_eq!(ws, w8, "the workstations take their 8-bit port");
    let clock_ns = 1e3 / number(&doc, "hosts.workstation.isa.clock_mhz");
    let r8 = number(&doc, "hosts.workstation.isa.io_recovery_clocks_8bit");
    assert!((ws - ((2.0 + 4.0 + r8) * clock_ns + ready)).abs() < 1e-9);
    // an unknown width is refused naming the key
    let err = access(0, &["adapters.workstation.bus_width=12"]).unwrap_err();
    assert!(err.contains("adapters.workstation.bus_width"), "{err}");
}

#[test]
fn upgrading_only_the_servers_card_to_16_bit_gains_what_the_servers_port_cost() {
    // the 1992 administrator's question on 8-bit optimized: which card to upgrade first
    let mean = |set: &[&str]| {
        let overrides: Vec<Override> = set.iter().map(|s| Override::parse(s).unwrap()).collect();
        let (name, _) = SCENARIOS[1];
        let mut s = ethersim::repro::bulletin::load(name, None, &overrides).unwrap();
        if let Workload::Perform3(w) = &mut s.workload {
            w.config.block_sizes = vec![15360, 31744];
            w.config.measure = ethersim::time::SimDuration::from_secs(3);
        }
        let out = ethersim::run::run(&s);
        out.points.iter().map(|p| p[1]).sum::<f64>() / out.points.len() as f64
    };
    let all8 = mean(&[]);
    let server16 = mean(&[
        "adapters.server.bus_width=16",
        "adapters.workstation.bus_width=16",
        "adapters.workstation.bus_width=8",
    ]);
    let ws16 = mean(&["adapters.workstation.bus_width=16"]);
    let all16 = mean(&[
        "adapters.server.bus_width=16",
        "adapters.workstation.bus_width=16",
        "adapters.workstation.bus_width=16",
    ]);
    // 8-bit optimized is bound by the server's CPU, most of it the copies through its port:
    // a 16-bit server card gains much, 16-bit workstation cards next to nothing
    assert!(server16 > all8 * 1.25, "{all8} -> {server16}");
    assert!((ws16 / all8 - 1.0).abs() < 0.03, "{all8} -> {ws16}");
    assert!(all16 > server16, "{server16} -> {all16}");
}
