//! A host, as written: the one shape of every host profile, whichever stack runs on it.
//! `[hosts.NAME]` of a scenario of nodes, `[hosts.server]` and `[hosts.workstation]` of
//! a file-service scenario and `[workload.hosts.NAME]` of a ttcp scenario are all a
//! [`RawHost`].
//!
//! Keys: `name` (for reports), `mips` and `memcpy_ns_per_byte` (the CPU), `isa` (how the
//! CPU reaches the ISA bus: `path` = `"at_bus"` (the board's chipset drives it; the
//! default), `"vl_chipset"` (a VL board's chipset) or `"pci_bridge"` (behind a PCI-ISA
//! bridge, with `bridge_ns`), the bus `clock_mhz`, and the chipset's I/O recovery
//! `io_recovery_clocks_8bit` / `_16bit`), `pci` (`clock_mhz`, `bytes_per_clock`),
//! `attached_processor` (a second CPU for user mode) and `clock_tick_ms` (CPU accounting
//! by whole ticks).
//!
//! Each stack's model uses the keys it models and refuses the others by name, so a key
//! never sits unread: the file service's hosts ([`super::lan`]) take the CPU and the AT
//! bus cycle of their card's data port (clock and recovery); the TCP/IP hosts
//! ([`super::ttcp`]) take the CPU, the ISA path and clock, PCI, an attached processor and
//! the clock tick. Keys of the older shapes (`isa_clock_mhz`, `io_recovery_clocks_*`
//! beside `mips`, a ttcp host's `cpu`) are refused naming the key that replaced them
//! ([`super::renamed`]).
//! Units: MIPS, ns per byte, MHz, bus clocks, ns, ms.

use serde::Deserialize;

use super::error::FieldError;

/// A host profile as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawHost {
    /// The host's CPU and board, for reports (the profile's name without it).
    pub name: Option<String>,
    pub mips: f64,
    pub memcpy_ns_per_byte: f64,
    pub isa: Option<RawIsa>,
    pub pci: Option<RawPci>,
    pub attached_processor: Option<bool>,
    pub clock_tick_ms: Option<f64>,
}

/// Keys of a host the file service's model does not read (refused by [`RawHost::check`]).
pub const UNUSED_BY_FILE_SERVICE: [&str; 4] = ["pci", "attached_processor", "clock_tick_ms", "isa.bridge_ns"];

/// Keys of a host a TCP/IP host's model does not read (refused by [`RawHost::check`]).
pub const UNUSED_BY_TCP: [&str; 2] = ["isa.io_recovery_clocks_8bit", "isa.io_recovery_clocks_16bit"];

/// `isa`: how the CPU reaches the ISA bus, and the bus's timing.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawIsa {
    /// `"at_bus"` when not given.
    pub path: Option<RawIsaPath>,
    pub clock_mhz: f64,
    /// What a PCI-ISA bridge adds to each access (`path = "pci_bridge"` only).
    pub bridge_ns: Option<f64>,
    /// Bus clocks the chipset inserts after each 8- or 16-bit I/O cycle.
    pub io_recovery_clocks_8bit: Option<i64>,
    pub io_recovery_clocks_16bit: Option<i64>,
}

/// How the CPU reaches the ISA bus.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawIsaPath {
    /// The board's chipset runs the AT bus itself (an ISA 386 or 486 board).
    AtBus,
    /// A VL-bus board's chipset drives the ISA bus.
    VlChipset,
    /// The ISA bus hangs behind a PCI-ISA bridge.
    PciBridge,
}

/// `pci`: the PCI bus, for bus-master cards.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPci {
    pub clock_mhz: f64,
    pub bytes_per_clock: f64,
}

/// The stack whose model reads a host, for the refusal of a key it does not use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostUse {
    /// A LANtastic node of the file service.
    FileService,
    /// A TCP/IP host.
    Tcp,
}

impl RawHost {
    /// The path of the host's ISA bus (`at_bus` when not given), if it has one.
    pub fn isa_path(&self) -> Option<RawIsaPath> {
        self.isa.map(|i| i.path.unwrap_or(RawIsaPath::AtBus))
    }

    /// Refuses, at `at` (the host's key), a key of an older shape and a key the model of
    /// `used_by` does not use; checks that `isa.bridge_ns` and `path = "pci_bridge"` come
    /// together.
    pub fn check(&self, at: &str, used_by: HostUse) -> Result<(), FieldError> {
        let why = match used_by {
            HostUse::FileService => {
                "the file service's host model has its CPU and the ISA bus its card's data port \
                 runs on, driven by the board's chipset (isa: path \"at_bus\" or \"vl_chipset\", \
                 clock_mhz, io_recovery_clocks_8bit, io_recovery_clocks_16bit), no PCI bus, \
                 bridge, attached processor or clock tick"
            }
            HostUse::Tcp => {
                "a TCP/IP host's cards give their own I/O cycle (io_clocks), so the chipset's \
                 I/O recovery is not read there"
            }
        };
        let refuse = |k: &str| {
            FieldError::invalid(
                format!("{at}.{k}"),
                format!("not used by this host's model: {why}; remove it"),
            )
        };
        if used_by == HostUse::FileService && self.isa_path() == Some(RawIsaPath::PciBridge) {
            return Err(FieldError::invalid(
                format!("{at}.isa.path"),
                format!("\"pci_bridge\" is not in this host's model: {why}; give a host whose chipset drives its ISA bus"),
            ));
        }
        let given = |k: &str| match k {
            "pci" => self.pci.is_some(),
            "attached_processor" => self.attached_processor.is_some(),
            "clock_tick_ms" => self.clock_tick_ms.is_some(),
            "isa.bridge_ns" => self.isa.is_some_and(|i| i.bridge_ns.is_some()),
            "isa.io_recovery_clocks_8bit" => self.isa.is_some_and(|i| i.io_recovery_clocks_8bit.is_some()),
            "isa.io_recovery_clocks_16bit" => self.isa.is_some_and(|i| i.io_recovery_clocks_16bit.is_some()),
            _ => false,
        };
        let unused: &[&str] = match used_by {
            HostUse::FileService => &UNUSED_BY_FILE_SERVICE,
            HostUse::Tcp => &UNUSED_BY_TCP,
        };
        if let Some(k) = unused.iter().find(|k| given(k)) {
            return Err(refuse(k));
        }
        if let Some(isa) = &self.isa {
            let bridge = isa.path == Some(RawIsaPath::PciBridge);
            match (bridge, isa.bridge_ns) {
                (true, None) => {
                    return Err(FieldError::invalid(
                        format!("{at}.isa.bridge_ns"),
                        "missing: path = \"pci_bridge\" needs what the bridge adds to each access",
                    ))
                }
                (false, Some(_)) => {
                    return Err(FieldError::invalid(
                        format!("{at}.isa.bridge_ns"),
                        "means nothing without path = \"pci_bridge\": set the path, or remove it",
                    ))
                }
                _ => {}
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(text: &str) -> RawHost {
        toml::from_str(text).unwrap()
    }

    /// The error of `text` read as the host at `hosts.server`.
    fn refused(text: &str) -> FieldError {
        let doc: toml::Table = format!("[hosts.server]\n{text}").parse().unwrap();
        #[derive(Debug, Deserialize)]
        #[allow(dead_code)]
        struct Doc {
            hosts: std::collections::BTreeMap<String, RawHost>,
        }
        super::super::de::from_value::<Doc>(toml::Value::Table(doc), "").unwrap_err()
    }

    #[test]
    fn test_a_key_of_an_older_shape_is_refused_naming_its_new_key() {
        let e = refused("mips = 10.0\nmemcpy_ns_per_byte = 100.0\nisa_clock_mhz = 8.0\n");
        assert_eq!(e.path, "hosts.server.isa_clock_mhz");
        assert!(format!("{:?}", e.problem).contains("`isa.clock_mhz`"), "{e:?}");
        let e = refused("cpu = \"VAX\"\nmips = 1.0\nmemcpy_ns_per_byte = 100.0\n");
        assert!(format!("{:?}", e.problem).contains("`name`"), "{e:?}");
        // any other unknown key is an unknown key, with the nearest names
        let e = refused("mips = 1.0\nmemcpy_ns_per_byte = 1.0\nmip = 2\n");
        assert!(
            matches!(e.problem, super::super::error::Problem::UnknownKey { .. }),
            "{e:?}"
        );
    }

    #[test]
    fn test_each_model_refuses_the_keys_it_does_not_read() {
        let pci = host(
            "mips = 70.0\nmemcpy_ns_per_byte = 25.0\n\
             isa = { path = \"pci_bridge\", clock_mhz = 8.33, bridge_ns = 500.0 }\n\
             pci = { clock_mhz = 30.0, bytes_per_clock = 4.0 }\n",
        );
        assert!(pci.check("h", HostUse::Tcp).is_ok());
        let e = pci.check("h", HostUse::FileService).unwrap_err();
        assert_eq!(e.path, "h.isa.path");
        let mut on_isa = pci.clone();
        on_isa.isa = None;
        assert_eq!(on_isa.check("h", HostUse::FileService).unwrap_err().path, "h.pci");
        let at = host(
            "mips = 10.0\nmemcpy_ns_per_byte = 100.0\n\
             isa = { clock_mhz = 8.0, io_recovery_clocks_8bit = 3 }\n",
        );
        assert_eq!(at.isa_path(), Some(RawIsaPath::AtBus));
        assert!(at.check("h", HostUse::FileService).is_ok());
        let e = at.check("h", HostUse::Tcp).unwrap_err();
        assert_eq!(e.path, "h.isa.io_recovery_clocks_8bit");
    }

    #[test]
    fn test_a_bridge_delay_and_the_bridge_path_come_together() {
        let no_delay = host(
            "mips = 70.0\nmemcpy_ns_per_byte = 25.0\nisa = { path = \"pci_bridge\", clock_mhz = 8.33 }\n",
        );
        assert_eq!(
            no_delay.check("h", HostUse::Tcp).unwrap_err().path,
            "h.isa.bridge_ns"
        );
        let no_bridge = host(
            "mips = 70.0\nmemcpy_ns_per_byte = 25.0\nisa = { path = \"vl_chipset\", clock_mhz = 8.25, bridge_ns = 9.0 }\n",
        );
        assert_eq!(
            no_bridge.check("h", HostUse::Tcp).unwrap_err().path,
            "h.isa.bridge_ns"
        );
    }
}
