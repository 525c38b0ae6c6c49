//! Hosts and cards have one shape whichever stack runs on them: a key of an older shape is
//! refused naming the key that replaced it; a host key or a card engine a node's stack
//! has no model for is refused by name, at the file and line that wrote it, and nothing
//! is written; the catalogue's hosts and cards run on the nodes whose stacks model them.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// `ethersim validate FILE --set ...` refused: its stderr.
fn refused(file: &str, sets: &[&str]) -> String {
    let mut cmd = Command::cargo_bin("ethersim").unwrap();
    cmd.timeout(Duration::from_secs(120));
    cmd.arg("validate").arg(root().join("scenarios").join(file));
    for s in sets {
        cmd.args(["--set", s]);
    }
    let out = cmd.output().unwrap();
    assert!(out.stdout.is_empty(), "nothing is written on a refusal");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(1), "{file} {sets:?}: {err}");
    assert!(err.starts_with("error: ") && !err.contains("panicked"), "{err}");
    err
}

#[test]
fn a_key_of_an_older_shape_is_refused_naming_the_key_that_replaced_it() {
    for (file, set, old, new) in [
        (
            "bulletin/16bit-defaults.toml",
            "hosts.server.isa_clock_mhz=7",
            "hosts.server.isa_clock_mhz",
            "`isa.clock_mhz`",
        ),
        (
            "bulletin/16bit-defaults.toml",
            "hosts.workstation.io_recovery_clocks_8bit=3",
            "hosts.workstation.io_recovery_clocks_8bit",
            "`isa.io_recovery_clocks_8bit`",
        ),
        (
            "two-ttcp-transfers.toml",
            "hosts.p90-pci.cpu=\"Pentium\"",
            "hosts.p90-pci.cpu",
            "`name`",
        ),
        (
            "two-ttcp-transfers.toml",
            "adapters.3c509.driver_queue=3",
            "adapters.3c509.driver_queue",
            "`transmit_buffers`",
        ),
    ] {
        let err = refused(file, &[set]);
        assert!(err.contains(&format!("key `{old}`")), "{set}: {err}");
        assert!(err.contains(&format!("renamed: write {new}")), "{set}: {err}");
        assert!(err.contains(&format!("from --set {set}")), "{set}: {err}");
    }
}

#[test]
fn a_card_whose_engine_the_stack_has_no_model_for_is_refused_at_the_node() {
    // a 3C509 on the LANtastic server; an AE-2 on a TCP/IP host
    let err = refused("bulletin/16bit-defaults.toml", &["nodes.server.adapter=3c509"]);
    assert!(err.contains("key `nodes.server.adapter`"), "{err}");
    assert!(
        err.contains("\"fifo_pio\"") && err.contains("\"programmed_io\""),
        "{err}"
    );
    let err = refused("two-ttcp-transfers.toml", &["nodes.vl-a.adapter=ae2-8bit"]);
    assert!(err.contains("key `nodes.vl-a.adapter`"), "{err}");
    assert!(
        err.contains("\"programmed_io\"") && err.contains("\"bus_master\""),
        "{err}"
    );
}

#[test]
fn a_host_key_the_stack_does_not_model_is_refused_where_it_was_written() {
    // the P90's PCI-ISA bridge on a LANtastic server: the key is the ttcp hardware file's
    let err = refused("bulletin/16bit-defaults.toml", &["nodes.server.host=p90-pci"]);
    assert!(err.contains("ttcp1995/ttcp-1995.toml:"), "{err}");
    assert!(err.contains("key `hosts.p90-pci.isa.path`"), "{err}");
    assert!(
        err.contains("\"pci_bridge\" is not in this host's model"),
        "{err}"
    );
    // the 486/50's chipset recovery on a TCP/IP host: its cards give their own I/O cycle
    let err = refused("two-ttcp-transfers.toml", &["nodes.vl-a.host=486dx50"]);
    assert!(err.contains("bulletin/artisoft-1992.toml:"), "{err}");
    assert!(
        err.contains("key `hosts.486dx50.isa.io_recovery_clocks_8bit`"),
        "{err}"
    );
    assert!(err.contains("io_clocks"), "{err}");
}

#[test]
fn a_host_of_one_stack_runs_under_the_other_where_its_keys_are_modelled() {
    // the 486DX2-66 VL (its chipset drives ISA, no recovery given) as the LANtastic server
    let mut cmd = Command::cargo_bin("ethersim").unwrap();
    cmd.timeout(Duration::from_secs(120));
    cmd.arg("validate")
        .arg(root().join("scenarios/bulletin/16bit-defaults.toml"))
        .args(["--set", "nodes.server.host=486dx2-66-vl"]);
    cmd.assert().success();
}
