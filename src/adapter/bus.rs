//! The host's expansion buses as an adapter sees them: how long one access takes.
//!
//! The same card is timed by the machine it sits in: ISA slots behind a 486 VL-bus
//! chipset, ISA slots behind a PCI-ISA bridge on a Pentium board, or a PCI slot. A
//! copy engine ([`super::CopyEngine`]) is built from a card's own description (how many
//! bus clocks one of its 16-bit accesses lasts: the wait states it asks for) and the
//! host's [`HostBus`] ([`HostBus::isa_access_ns`], [`HostBus::pci_ns_per_byte`]).
//! Units: MHz, bus clocks, nanoseconds.

/// How the ISA slots are reached.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum IsaPath {
    /// The chipset of a 486 VL-bus board drives ISA itself (no bridge latency).
    VlChipset,
    /// A PCI-ISA bridge (e.g. Intel 82378ZB SIO, which assumes an 8.33 MHz SYSCLK):
    /// each ISA access also pays the PCI transaction and the bridge, `bridge_ns`.
    PciBridge { bridge_ns: f64 },
}

/// The ISA bus of a host.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IsaBus {
    pub path: IsaPath,
    /// SYSCLK, MHz (8.33 nominal).
    pub clock_mhz: f64,
}

/// The PCI bus of a host.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PciBus {
    /// Clock, MHz (25..33).
    pub clock_mhz: f64,
    /// Bytes per clock a bus master moves in a burst (4 on a 32-bit bus).
    pub bytes_per_clock: f64,
}

/// The buses of one host.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HostBus {
    pub isa: IsaBus,
    pub pci: Option<PciBus>,
}

impl HostBus {
    /// One 16-bit access to an ISA card (I/O port or shared RAM) that lasts `clocks` bus
    /// clocks (the card's wait states and the CPU's string instruction included), plus
    /// the bridge's cost on a PCI board, ns.
    pub fn isa_access_ns(&self, clocks: f64) -> f64 {
        let bridge = match self.isa.path {
            IsaPath::VlChipset => 0.0,
            IsaPath::PciBridge { bridge_ns } => bridge_ns,
        };
        clocks * 1e3 / self.isa.clock_mhz + bridge
    }
    /// A bus master's burst rate, ns per byte (`None` without PCI).
    pub fn pci_ns_per_byte(&self) -> Option<f64> {
        self.pci.map(|p| 1e3 / p.clock_mhz / p.bytes_per_clock)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn isa(path: IsaPath) -> IsaBus {
        IsaBus { path, clock_mhz: 8.0 }
    }

    #[test]
    fn test_isa_access_from_clocks_and_bridge() {
        let vl = HostBus {
            isa: isa(IsaPath::VlChipset),
            pci: None,
        };
        assert_eq!(vl.isa_access_ns(4.0), 500.0); // 4 clocks of 125 ns
        assert_eq!(vl.isa_access_ns(3.0), 375.0);
        assert_eq!(vl.pci_ns_per_byte(), None);
        let p90 = HostBus {
            isa: isa(IsaPath::PciBridge { bridge_ns: 60.0 }),
            pci: Some(PciBus {
                clock_mhz: 25.0,
                bytes_per_clock: 4.0,
            }),
        };
        assert_eq!(
            p90.isa_access_ns(4.0),
            560.0,
            "the same card is slower behind the bridge"
        );
        assert_eq!(p90.pci_ns_per_byte(), Some(10.0));
    }
}
