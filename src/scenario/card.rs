//! A card, as written: the one shape of every network card, whichever stack drives it.
//! `[adapters.NAME]` of a scenario of nodes, `[adapter]` of a file-service scenario and
//! `[workload.cards.NAME]` of a ttcp scenario are all a [`RawCard`].
//!
//! Keys every card has: `name` (for reports; the card's key without it), `engine` (how it
//! moves frames between host and card), `setup_ns` (per frame) and `transmit_buffers` (the
//! frames its driver queues for it); `ram_bytes` where the card has buffer memory. Then its
//! engine's own keys ([`engine_keys`]): `"programmed_io"` (an NE1000/NE2000-class card, the
//! host moving every byte through its data port: `bus_width`, the port's timing, the AEX
//! driver's `packet_size`, a `workstation` side), `"fifo_pio"`, `"shared_memory"`,
//! `"bus_master"` and `"unibus_dma"` (the TCP/IP hosts' cards). A key of another engine is
//! refused by name ([`RawCard::foreign_keys`]); each stack's model takes the engines it has
//! and refuses the others (the file service's nodes run `"programmed_io"` cards, a TCP/IP
//! host the other four). Units: ns, bytes, frames, bus clocks.

use serde::Deserialize;

use super::error::{FieldError, Problem};
use super::params;
use super::ttcp_keys::param;

/// `engine = "..."` of a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawEngineKind {
    ProgrammedIo,
    FifoPio,
    SharedMemory,
    BusMaster,
    UnibusDma,
}

/// A card as written: the keys every card has, its `engine`, and each engine's own keys,
/// all optional here (one flat table, so that a bad key or value is reported at its own
/// path, and from `--set` when it came from there); a stack's model takes the keys of the
/// card's engine and refuses the others.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCard {
    pub name: Option<String>,
    /// `"programmed_io"` when not given on a file-service card; a TCP/IP card names it.
    pub engine: Option<RawEngineKind>,
    pub setup_ns: f64,
    pub transmit_buffers: i64,
    /// Buffer memory on the card (programmed I/O and shared-memory cards).
    pub ram_bytes: Option<i64>,
    // programmed_io: the NE2000-class card and its AEX driver
    pub bus_width: Option<i64>,
    pub io_access_ns_8bit: Option<f64>,
    pub io_access_ns_16bit: Option<f64>,
    pub io_access_ns_32bit: Option<f64>,
    /// The card's side of the AT bus cycle, used where the host gives an `isa` clock.
    pub wait_states_8bit: Option<i64>,
    pub wait_states_16bit: Option<i64>,
    pub ready_ns: Option<f64>,
    /// `"frame"` (default), `"data"` or `"message"` (see [`crate::adapter::TransmitLength`]).
    pub transmit_length: Option<RawTransmitLength>,
    /// `"queued"` (default), `"at_once"` or `"when_idle"` (see [`crate::adapter::SendCopy`]).
    pub send_copy: Option<RawSendCopy>,
    pub page_bytes: Option<i64>,
    pub packet_size: Option<i64>,
    /// Driver settings that differ on the workstations.
    pub workstation: Option<RawDriver>,
    // fifo_pio
    pub tx_fifo_bytes: Option<u32>,
    pub rx_fifo_bytes: Option<u32>,
    pub io_clocks: Option<f64>,
    // shared_memory
    pub tx_buffers: Option<u32>,
    pub mem_clocks: Option<f64>,
    // bus_master
    pub tx_ring: Option<u32>,
    pub rx_ring: Option<u32>,
    // unibus_dma
    pub request_ns: Option<f64>,
    pub dma: Option<super::unibus::RawDma>,
    pub tx_slots: Option<u32>,
    pub rx_bytes: Option<u32>,
    pub command: Option<super::unibus::RawCommand>,
    pub queue: Option<super::unibus::RawQueue>,
    pub link: Option<super::unibus::RawLink>,
}

/// `[adapter.workstation]`: what differs on the workstations: the AEX driver settings, and
/// the data-port timing (another CPU, chipset and bus clock than the server's).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDriver {
    /// The workstations' cards in another mode (8 or 16 bits) than the server's.
    pub bus_width: Option<i64>,
    /// Each workstation's card mode, in node order (one entry per workstation).
    pub bus_widths: Option<Vec<i64>>,
    pub transmit_buffers: Option<i64>,
    pub packet_size: Option<i64>,
    pub io_access_ns_8bit: Option<f64>,
    pub io_access_ns_16bit: Option<f64>,
    pub io_access_ns_32bit: Option<f64>,
    pub setup_ns: Option<f64>,
}

/// `transmit_length` of `[adapter]`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawTransmitLength {
    Frame,
    Data,
    Message,
}

/// `send_copy` of `[adapter]`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawSendCopy {
    Queued,
    AtOnce,
    WhenIdle,
}

/// A card's copy engine and its own keys, built from a [`RawCard`] by
/// [`RawCard::engine`].
#[derive(Clone, Copy, Debug)]
pub enum RawEngine {
    FifoPio {
        tx_fifo_bytes: u32,
        rx_fifo_bytes: u32,
        io_clocks: f64,
    },
    SharedMemory {
        ram_bytes: u32,
        tx_buffers: u32,
        mem_clocks: f64,
    },
    BusMaster {
        tx_ring: u32,
        rx_ring: u32,
    },
    UnibusDma {
        request_ns: f64,
        dma: Option<super::unibus::RawDma>,
        tx_slots: u32,
        rx_bytes: u32,
        command: Option<super::unibus::RawCommand>,
        queue: Option<super::unibus::RawQueue>,
    },
}

/// The card engines of a TCP/IP host, as written.
pub const TCP_ENGINES: [&str; 4] = ["fifo_pio", "shared_memory", "bus_master", "unibus_dma"];

/// The keys of engine `kind` beyond those every card has.
pub fn engine_keys(kind: RawEngineKind) -> (&'static str, &'static [&'static str]) {
    match kind {
        RawEngineKind::ProgrammedIo => (
            "programmed_io",
            &[
                "bus_width",
                "io_access_ns_8bit",
                "io_access_ns_16bit",
                "io_access_ns_32bit",
                "wait_states_8bit",
                "wait_states_16bit",
                "ready_ns",
                "transmit_length",
                "send_copy",
                "ram_bytes",
                "page_bytes",
                "packet_size",
                "workstation",
            ],
        ),
        RawEngineKind::FifoPio => ("fifo_pio", &["tx_fifo_bytes", "rx_fifo_bytes", "io_clocks"]),
        RawEngineKind::SharedMemory => ("shared_memory", &["ram_bytes", "tx_buffers", "mem_clocks"]),
        RawEngineKind::BusMaster => ("bus_master", &["tx_ring", "rx_ring"]),
        RawEngineKind::UnibusDma => (
            "unibus_dma",
            &[
                "request_ns",
                "dma",
                "tx_slots",
                "rx_bytes",
                "command",
                "queue",
                "link",
            ],
        ),
    }
}

impl RawCard {
    /// Refuses, at `key` (the card's), a key given that is not one of engine `kind`'s.
    pub fn foreign_keys(&self, key: &str, kind: RawEngineKind) -> Result<(), FieldError> {
        let given: [(&str, bool); 27] = [
            ("tx_fifo_bytes", self.tx_fifo_bytes.is_some()),
            ("rx_fifo_bytes", self.rx_fifo_bytes.is_some()),
            ("io_clocks", self.io_clocks.is_some()),
            ("ram_bytes", self.ram_bytes.is_some()),
            ("tx_buffers", self.tx_buffers.is_some()),
            ("mem_clocks", self.mem_clocks.is_some()),
            ("tx_ring", self.tx_ring.is_some()),
            ("rx_ring", self.rx_ring.is_some()),
            ("request_ns", self.request_ns.is_some()),
            ("dma", self.dma.is_some()),
            ("tx_slots", self.tx_slots.is_some()),
            ("rx_bytes", self.rx_bytes.is_some()),
            ("command", self.command.is_some()),
            ("queue", self.queue.is_some()),
            ("link", self.link.is_some()),
            ("bus_width", self.bus_width.is_some()),
            ("io_access_ns_8bit", self.io_access_ns_8bit.is_some()),
            ("io_access_ns_16bit", self.io_access_ns_16bit.is_some()),
            ("io_access_ns_32bit", self.io_access_ns_32bit.is_some()),
            ("wait_states_8bit", self.wait_states_8bit.is_some()),
            ("wait_states_16bit", self.wait_states_16bit.is_some()),
            ("ready_ns", self.ready_ns.is_some()),
            ("transmit_length", self.transmit_length.is_some()),
            ("send_copy", self.send_copy.is_some()),
            ("page_bytes", self.page_bytes.is_some()),
            ("packet_size", self.packet_size.is_some()),
            ("workstation", self.workstation.is_some()),
        ];
        let (name, own) = engine_keys(kind);
        if let Some((k, _)) = given.iter().find(|(k, set)| *set && !own.contains(k)) {
            return Err(FieldError::invalid(
                format!("{key}.{k}"),
                format!("not a key of engine {name:?} (its keys: {})", own.join(", ")),
            ));
        }
        Ok(())
    }

    /// A TCP/IP host's card's engine with its keys (the card at key path `key`): each key
    /// its engine needs must be there, and no key of another engine.
    pub fn engine(&self, key: &str) -> Result<RawEngine, FieldError> {
        let engines = TCP_ENGINES.map(|e| format!("{e:?}")).join(", ");
        let Some(kind) = self.engine else {
            return Err(FieldError::invalid(
                format!("{key}.engine"),
                format!("missing: a TCP/IP host's card engines are {engines}"),
            ));
        };
        if kind != RawEngineKind::ProgrammedIo {
            self.foreign_keys(key, kind)?;
        }
        // present, and within the registry's range (a zero buffer count or size is refused)
        let need = |k: &str, v: Option<i64>| -> Result<u32, FieldError> {
            let v = v.ok_or_else(|| FieldError::new(format!("{key}.{k}"), Problem::Missing))?;
            let p = param(&format!("workload.cards.*.{k}"));
            match p.range {
                params::Range::Int { min, max } if !(min.value..=max.value).contains(&v) => {
                    let source = if v < min.value { min.source } else { max.source };
                    Err(
                        FieldError::range(format!("{key}.{k}"), v, format!("{}..={}", min.value, max.value))
                            .with_note(source),
                    )
                }
                _ => {
                    u32::try_from(v).map_err(|_| FieldError::range(format!("{key}.{k}"), v, "0..=4294967295"))
                }
            }
        };
        let n = |v: Option<u32>| v.map(i64::from);
        let need_f = |k: &str, v: Option<f64>| {
            v.ok_or_else(|| FieldError::new(format!("{key}.{k}"), Problem::Missing))
        };
        Ok(match kind {
            RawEngineKind::ProgrammedIo => {
                return Err(FieldError::invalid(
                    format!("{key}.engine"),
                    format!(
                        "\"programmed_io\" (an NE2000-class card) runs on the file service's nodes; \
                         a TCP/IP host's card engines are {engines}"
                    ),
                ))
            }
            RawEngineKind::FifoPio => RawEngine::FifoPio {
                tx_fifo_bytes: need("tx_fifo_bytes", n(self.tx_fifo_bytes))?,
                rx_fifo_bytes: need("rx_fifo_bytes", n(self.rx_fifo_bytes))?,
                io_clocks: need_f("io_clocks", self.io_clocks)?,
            },
            RawEngineKind::SharedMemory => RawEngine::SharedMemory {
                ram_bytes: need("ram_bytes", self.ram_bytes)?,
                tx_buffers: need("tx_buffers", n(self.tx_buffers))?,
                mem_clocks: need_f("mem_clocks", self.mem_clocks)?,
            },
            RawEngineKind::BusMaster => RawEngine::BusMaster {
                tx_ring: need("tx_ring", n(self.tx_ring))?,
                rx_ring: need("rx_ring", n(self.rx_ring))?,
            },
            RawEngineKind::UnibusDma => RawEngine::UnibusDma {
                request_ns: need_f("request_ns", self.request_ns)?,
                dma: self.dma,
                tx_slots: need("tx_slots", n(self.tx_slots))?,
                rx_bytes: need("rx_bytes", n(self.rx_bytes))?,
                command: self.command,
                queue: self.queue,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(text: &str) -> RawCard {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn test_a_key_of_another_engine_is_refused_by_name() {
        // a 3C509 given the AE-2's bus width; an AE-2 given a FIFO
        let c = card(
            "engine = \"fifo_pio\"\nsetup_ns = 1.0\ntransmit_buffers = 4\ntx_fifo_bytes = 2048\n\
             rx_fifo_bytes = 2048\nio_clocks = 4.0\nbus_width = 16\n",
        );
        let e = c.engine("workload.cards.x").unwrap_err();
        assert_eq!(e.path, "workload.cards.x.bus_width");
        let ae2 = card("setup_ns = 1.0\ntransmit_buffers = 4\nbus_width = 16\ntx_fifo_bytes = 2048\n");
        let e = ae2
            .foreign_keys("adapter", RawEngineKind::ProgrammedIo)
            .unwrap_err();
        assert_eq!(e.path, "adapter.tx_fifo_bytes");
    }

    #[test]
    fn test_a_tcp_ip_host_refuses_the_file_service_s_engine_and_needs_one() {
        let c = card("engine = \"programmed_io\"\nsetup_ns = 1.0\ntransmit_buffers = 4\n");
        let e = c.engine("workload.cards.x").unwrap_err();
        assert_eq!(e.path, "workload.cards.x.engine");
        assert!(format!("{:?}", e.problem).contains("file service"), "{e:?}");
        let c = card("setup_ns = 1.0\ntransmit_buffers = 4\n");
        assert_eq!(c.engine("k").unwrap_err().path, "k.engine");
    }
}
