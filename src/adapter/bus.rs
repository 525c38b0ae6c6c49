//! The host's expansion buses as an adapter sees them: how long one access takes.
//!
//! The same card is timed by the machine it sits in: ISA slots behind a 486 VL-bus
//! chipset, ISA slots behind a PCI-ISA bridge on a Pentium board, or a PCI slot. A
//! copy engine ([`super::CopyEngine`]) is built from a card's own description (how many
//! bus clocks one of its 16-bit accesses lasts: the wait states it asks for) and the
//! host's [`HostBus`] ([`HostBus::isa_access_ns`], [`HostBus::pci_ns_per_byte`]).
//!
//! **The AT bus's I/O cycle** ([`io_access_ns`]), for a programmed-I/O data port such as
//! the DP8390's remote-DMA port: one access lasts the cycle's own [`CYCLE_CLOCKS`] bus
//! clocks, plus the wait states of its width (by default 1 for a 16-bit cycle and 4 for an
//! 8-bit one: the AT's standard cycles), plus the I/O recovery the host's chipset inserts
//! between back-to-back cycles of that width (programmable, in bus clocks), all at the
//! host's bus clock, plus the time the card holds IOCHRDY (its ready time, the same for
//! both widths and on every host). So a card's 8- and 16-bit modes on one host share the
//! bus clock and the card's ready time and differ only in wait states, recovery and bytes
//! per access; the same card on another host keeps its ready time and takes that host's
//! clock and recovery.
//!
//! Units: MHz, bus clocks, nanoseconds.

/// How the ISA slots are reached.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum IsaPath {
    /// The board's chipset drives ISA itself, as on an AT-bus 386/486 board or a 486
    /// VL-bus board (no bridge latency).
    Chipset,
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
            IsaPath::Chipset => 0.0,
            IsaPath::PciBridge { bridge_ns } => bridge_ns,
        };
        clocks * 1e3 / self.isa.clock_mhz + bridge
    }
    /// A bus master's burst rate, ns per byte (`None` without PCI).
    pub fn pci_ns_per_byte(&self) -> Option<f64> {
        self.pci.map(|p| 1e3 / p.clock_mhz / p.bytes_per_clock)
    }
}

/// Bus clocks of an AT I/O cycle before any wait state: address/command, then data.
pub const CYCLE_CLOCKS: u32 = 2;

/// A host's side of an AT I/O cycle: its bus clock and its chipset's I/O recovery.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AtIoTiming {
    /// BCLK, MHz (6-8.33 on 386/486 boards).
    pub clock_mhz: f64,
    /// Recovery the chipset inserts after each 8-bit I/O cycle, bus clocks.
    pub recovery_8bit: u32,
    /// Recovery after each 16-bit I/O cycle, bus clocks.
    pub recovery_16bit: u32,
}

/// A card's side of an AT I/O cycle at its data port.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IoPort {
    /// Wait states of an 8-bit cycle (4 in the AT's standard cycle).
    pub wait_states_8bit: u32,
    /// Wait states of a 16-bit cycle (1 in the AT's standard cycle).
    pub wait_states_16bit: u32,
    /// Time the card holds IOCHRDY low per access, beyond the wait states, ns.
    pub ready_ns: f64,
}

impl IoPort {
    /// The AT's standard wait states (4 for 8-bit, 1 for 16-bit) and no ready time.
    pub const STANDARD: IoPort = IoPort {
        wait_states_8bit: 4,
        wait_states_16bit: 1,
        ready_ns: 0.0,
    };
}

/// One `width_bits`-wide (8 or 16) I/O access of `card` on a host with `host`'s bus: (2 +
/// wait states + recovery) bus clocks plus the card's ready time, ns. `None` for another
/// width (a 32-bit port is not an AT cycle).
pub fn io_access_ns(host: &AtIoTiming, card: &IoPort, width_bits: u32) -> Option<f64> {
    let (wait, recovery) = match width_bits {
        8 => (card.wait_states_8bit, host.recovery_8bit),
        16 => (card.wait_states_16bit, host.recovery_16bit),
        _ => return None,
    };
    let clocks = (CYCLE_CLOCKS + wait + recovery) as f64;
    Some(clocks * 1e3 / host.clock_mhz + card.ready_ns)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_at_io_cycles_by_hand() {
        // 8 MHz: 125 ns a clock. Standard cycles, no recovery, no ready time: 3 and 6
        // clocks, the 375 ns per word and 750 ns per byte of the AT at 8 MHz
        let at8 = AtIoTiming {
            clock_mhz: 8.0,
            recovery_8bit: 0,
            recovery_16bit: 0,
        };
        assert_eq!(io_access_ns(&at8, &IoPort::STANDARD, 16), Some(375.0));
        assert_eq!(io_access_ns(&at8, &IoPort::STANDARD, 8), Some(750.0));
        assert_eq!(io_access_ns(&at8, &IoPort::STANDARD, 32), None);
        // recovery and the card's ready time add; the ready time is the same per access
        // in both widths
        let card = IoPort {
            ready_ns: 100.0,
            ..IoPort::STANDARD
        };
        let chipset = AtIoTiming {
            clock_mhz: 6.25,
            recovery_8bit: 3,
            recovery_16bit: 1,
        };
        // 160 ns a clock: 16-bit (2+1+1) x 160 + 100 = 740; 8-bit (2+4+3) x 160 + 100 = 1540
        assert_eq!(io_access_ns(&chipset, &card, 16), Some(740.0));
        assert_eq!(io_access_ns(&chipset, &card, 8), Some(1540.0));
    }

    fn isa(path: IsaPath) -> IsaBus {
        IsaBus { path, clock_mhz: 8.0 }
    }

    #[test]
    fn test_isa_access_from_clocks_and_bridge() {
        let vl = HostBus {
            isa: isa(IsaPath::Chipset),
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
