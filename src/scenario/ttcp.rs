//! Workload kind `ttcp`: a ttcp transfer between two hosts over TCP/IP.
//!
//! Keys under `[workload]` (the hardware file usually gives the catalogue, the scenario
//! the choice): `stack` (a [`super::stack`] table), `costs` (the stack's CPU costs on a
//! host: `syscall_kinstr`, `segment_kinstr`, `interrupt_kinstr`,
//! `checksum_instr_per_byte`), `hosts.<name>` (a host of the one shape,
//! [`super::host`]: `name`, `mips`, `memcpy_ns_per_byte`, `isa` = { `path` =
//! `"at_bus"` | `"vl_chipset"` | `"pci_bridge"`, `bridge_ns`, `clock_mhz` }, optional
//! `pci` = { `clock_mhz`, `bytes_per_clock` }), `cards.<name>` (`name`,
//! `engine` = `"fifo_pio"` | `"shared_memory"` | `"bus_master"`, `setup_ns`, and per
//! engine `tx_fifo_bytes`/`rx_fifo_bytes`/`io_clocks`, `ram_bytes`/`tx_buffers`/
//! `mem_clocks`, `tx_ring`/`rx_ring`; `transmit_buffers`, the frames its driver queues). An ISA card's access
//! length in bus clocks (`io_clocks`, `mem_clocks`) is the card's: the wait states it
//! asks for (IOCHRDY, 0WS) decide it; the host gives the clock and the bridge, then the run: `card` = { host = card },
//! `transmitter` (a host name), ttcp's `buflen` (-l), `nbuf` (-n), `socket_buffer` (-b,
//! clamped by the stack) and `limit_s`. Exactly two hosts.
//!
//! VAX-era keys ([`super::unibus`]): a host may have no `isa` (a VAX), and
//! `attached_processor` (a second CPU for user mode) and `clock_tick_ms` (4.2BSD's
//! tick accounting); a card may be `engine = "unibus_dma"` and have a `link`
//! (point-to-point medium); `costs` may add `user_call_kinstr`, `fragment_kinstr`,
//! `page_remap_kinstr`, `rx_mbuf_kinstr`, `read_mbuf_kinstr`, `data_input_kinstr`;
//! `trailers` (4.2BSD trailer encapsulation on Ethernet).

use std::collections::BTreeMap;

use serde::Deserialize;

pub use super::card::{RawCard, RawEngine, RawEngineKind, TCP_ENGINES};
use super::error::{real_within, FieldError};
use super::host::{HostUse, RawIsaPath};
pub use super::host::{RawHost, RawIsa, RawPci};
use super::params;
use super::stack::RawStack;
use super::ttcp_keys::{int, param, real};
use super::Sections;
use crate::adapter::bus::{HostBus, IsaBus, IsaPath, PciBus};
use crate::adapter::{AdapterProfile, CopyEngine};
use crate::host::HostProfile;
use crate::lan::tcp::{TcpCosts, TcpHost};
use crate::workload::ttcp::TtcpConfig;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTtcp {
    pub stack: RawStack,
    pub costs: RawCosts,
    pub hosts: BTreeMap<String, RawHost>,
    pub cards: BTreeMap<String, RawCard>,
    pub card: BTreeMap<String, String>,
    pub transmitter: String,
    pub buflen: i64,
    pub nbuf: i64,
    pub socket_buffer: Option<i64>,
    pub limit_s: Option<f64>,
    pub trailers: Option<bool>,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCosts {
    pub syscall_kinstr: f64,
    pub segment_kinstr: f64,
    pub interrupt_kinstr: f64,
    pub checksum_instr_per_byte: f64,
    pub user_call_kinstr: Option<f64>,
    pub fragment_kinstr: Option<f64>,
    pub page_remap_kinstr: Option<f64>,
    pub rx_mbuf_kinstr: Option<f64>,
    pub read_mbuf_kinstr: Option<f64>,
    pub data_input_kinstr: Option<f64>,
}

/// A validated ttcp run.
#[derive(Clone, Debug)]
pub struct TtcpWorkload {
    pub config: TtcpConfig,
    /// Host names in node order, and the card each has.
    pub hosts: [(String, String); 2],
}

fn bus(path: &str, h: &RawHost, isa: RawIsa) -> Result<HostBus, FieldError> {
    let p = match (h.isa_path(), isa.bridge_ns) {
        (Some(RawIsaPath::PciBridge), Some(bridge_ns)) => {
            let bridge_ns = real(
                format!("{path}.isa.bridge_ns"),
                "workload.hosts.*.isa.bridge_ns",
                bridge_ns,
            )?;
            IsaPath::PciBridge { bridge_ns }
        }
        // the chipset drives ISA itself (the bridge's delay and its path come together:
        // `RawHost::check`)
        _ => IsaPath::Chipset,
    };
    let isa = IsaBus {
        path: p,
        clock_mhz: real(
            format!("{path}.isa.clock_mhz"),
            "workload.hosts.*.isa.clock_mhz",
            isa.clock_mhz,
        )?,
    };
    let pci = match h.pci {
        None => None,
        Some(p) => Some(PciBus {
            clock_mhz: real(
                format!("{path}.pci.clock_mhz"),
                "workload.hosts.*.pci.clock_mhz",
                p.clock_mhz,
            )?,
            bytes_per_clock: real(
                format!("{path}.pci.bytes_per_clock"),
                "workload.hosts.*.pci.bytes_per_clock",
                p.bytes_per_clock,
            )?,
        }),
    };
    Ok(HostBus { isa, pci })
}

fn adapter(
    key: &str,
    c: &RawCard,
    engine: RawEngine,
    bus: &HostBus,
    memcpy_ns_per_byte: f64,
) -> Result<AdapterProfile, FieldError> {
    // an ISA or PCI card's set-up is bounded as a LAN card's (`adapter.setup_ns`)
    let (lo, _) = param("workload.cards.*.setup_ns").real_range();
    let (_, hi) = params::real_range("adapter.setup_ns");
    let setup_ns = real_within(format!("{key}.setup_ns"), c.setup_ns, lo, hi)?;
    let transmit_buffers = int(
        format!("{key}.transmit_buffers"),
        "workload.cards.*.transmit_buffers",
        c.transmit_buffers,
    )?;
    let (copy, ram, page) = match engine {
        RawEngine::FifoPio {
            tx_fifo_bytes,
            rx_fifo_bytes,
            io_clocks,
        } => (
            CopyEngine::FifoPio {
                access_ns: bus.isa_access_ns(real(
                    format!("{key}.io_clocks"),
                    "workload.cards.*.io_clocks",
                    io_clocks,
                )?),
                setup_ns,
                tx_fifo_bytes,
                rx_fifo_bytes,
            },
            tx_fifo_bytes + rx_fifo_bytes,
            256,
        ),
        RawEngine::SharedMemory {
            ram_bytes,
            tx_buffers,
            mem_clocks,
        } => (
            CopyEngine::SharedMemory {
                access_ns: bus.isa_access_ns(real(
                    format!("{key}.mem_clocks"),
                    "workload.cards.*.mem_clocks",
                    mem_clocks,
                )?),
                setup_ns,
                tx_buffers,
            },
            ram_bytes,
            256,
        ),
        RawEngine::BusMaster { tx_ring, rx_ring } => {
            if bus.pci.is_none() {
                return Err(FieldError::invalid(
                    key,
                    "a bus-master PCI card needs a host with `pci`",
                ));
            }
            let copy = CopyEngine::BusMaster {
                setup_ns,
                rx_copy_ns_per_byte: memcpy_ns_per_byte,
                tx_ring,
                rx_ring,
            };
            (copy, 0, 1544)
        }
        RawEngine::UnibusDma { .. } => unreachable!("built by super::unibus"),
    };
    let a = AdapterProfile {
        name: c
            .name
            .clone()
            .unwrap_or_else(|| key.rsplit('.').next().unwrap_or(key).to_string()),
        bus_width_bits: 16,
        copy,
        card_ram_bytes: ram,
        page_bytes: page,
        transmit_buffers,
        packet_size: 1500,
    };
    if a.rx_pages() < a.rx_pages_for(a.max_frame_bytes()) {
        return Err(FieldError::invalid(
            key,
            "the receive space cannot hold one full frame",
        ));
    }
    Ok(a)
}

impl RawTtcp {
    pub fn validate(self, s: &Sections<'_>) -> Result<TtcpWorkload, FieldError> {
        let stack = self.stack.validate().map_err(|mut e| {
            e.path = format!("workload.{}", e.path);
            e
        })?;
        if self.hosts.len() != 2 {
            return Err(FieldError::invalid(
                "workload.hosts",
                format!("needs exactly two hosts, has {}", self.hosts.len()),
            ));
        }
        if !self.hosts.contains_key(&self.transmitter) {
            return Err(FieldError::invalid(
                "workload.transmitter",
                format!("{:?} is not one of workload.hosts", self.transmitter),
            ));
        }
        let (lo, hi) = param("workload.buflen").int_range();
        if !(lo..=hi).contains(&self.buflen) {
            return Err(FieldError::range(
                "workload.buflen",
                self.buflen,
                format!("{lo}..={hi} bytes"),
            ));
        }
        let (lo, hi) = param("workload.nbuf").int_range();
        if !(lo..=hi).contains(&self.nbuf) || self.buflen * self.nbuf > 1 << 30 {
            return Err(FieldError::range(
                "workload.nbuf",
                self.nbuf,
                format!("{lo}..={hi}, at most 1 GiB in all"),
            ));
        }
        let b = self.socket_buffer.unwrap_or(stack.socket_buffer_bytes as i64);
        let (lo, hi) = param("workload.socket_buffer").int_range();
        if !(lo..=hi).contains(&b) {
            return Err(FieldError::range(
                "workload.socket_buffer",
                b,
                format!("{lo}..={hi} bytes"),
            ));
        }
        let b = stack.clamp_socket_buffer(b as u32);
        let c = self.costs;
        let cost = |k: &str, v: f64| {
            let key = format!("workload.costs.{k}");
            real(key.clone(), &key, v)
        };
        let costs = TcpCosts {
            syscall_kinstr: cost("syscall_kinstr", c.syscall_kinstr)?,
            segment_kinstr: cost("segment_kinstr", c.segment_kinstr)?,
            interrupt_kinstr: cost("interrupt_kinstr", c.interrupt_kinstr)?,
            checksum_instr_per_byte: cost("checksum_instr_per_byte", c.checksum_instr_per_byte)?,
            user_call_kinstr: cost("user_call_kinstr", c.user_call_kinstr.unwrap_or(0.0))?,
            fragment_kinstr: cost("fragment_kinstr", c.fragment_kinstr.unwrap_or(0.0))?,
            page_remap_kinstr: cost("page_remap_kinstr", c.page_remap_kinstr.unwrap_or(0.0))?,
            rx_mbuf_kinstr: cost("rx_mbuf_kinstr", c.rx_mbuf_kinstr.unwrap_or(0.0))?,
            read_mbuf_kinstr: cost("read_mbuf_kinstr", c.read_mbuf_kinstr.unwrap_or(0.0))?,
            data_input_kinstr: cost("data_input_kinstr", c.data_input_kinstr.unwrap_or(0.0))?,
        };
        // every card's keys, used by a host or not
        for (name, c) in &self.cards {
            c.engine(&format!("workload.cards.{name}"))?;
        }
        // every `card` entry names a defined host (one for another host would be ignored)
        if let Some(stray) = self.card.keys().find(|h| !self.hosts.contains_key(*h)) {
            let hosts: Vec<&str> = self.hosts.keys().map(String::as_str).collect();
            return Err(FieldError::invalid(
                format!("workload.card.{stray}"),
                format!(
                    "{:?} is not a host in workload.hosts ({})",
                    super::error::clip(stray, 40),
                    hosts.join(", ")
                ),
            ));
        }
        let mut links = Vec::new();
        let mut built = Vec::new();
        for (name, h) in &self.hosts {
            let key = format!("workload.hosts.{name}");
            h.check(&key, HostUse::Tcp)?;
            let mips = real(format!("{key}.mips"), "workload.hosts.*.mips", h.mips)?;
            let memcpy = real(
                format!("{key}.memcpy_ns_per_byte"),
                "workload.hosts.*.memcpy_ns_per_byte",
                h.memcpy_ns_per_byte,
            )?;
            let Some(card_name) = self.card.get(name) else {
                return Err(FieldError::invalid(
                    format!("workload.card.{name}"),
                    "missing: which card this host has",
                ));
            };
            let Some(card) = self.cards.get(card_name) else {
                let known: Vec<&str> = self.cards.keys().map(String::as_str).collect();
                return Err(FieldError::invalid(
                    format!("workload.card.{name}"),
                    format!("{card_name:?} is not in workload.cards ({})", known.join(", ")),
                ));
            };
            let ckey = format!("workload.cards.{card_name}");
            let engine = card.engine(&ckey)?;
            let adapter = match (engine, h.isa) {
                (
                    RawEngine::UnibusDma {
                        request_ns,
                        dma,
                        tx_slots,
                        rx_bytes,
                        command,
                        queue,
                    },
                    _,
                ) => super::unibus::adapter(
                    &ckey,
                    &card.name.clone().unwrap_or_else(|| card_name.clone()),
                    card.setup_ns,
                    card.transmit_buffers,
                    request_ns,
                    dma,
                    tx_slots,
                    rx_bytes,
                    command,
                    queue,
                )?,
                (_, Some(isa)) => adapter(&ckey, card, engine, &bus(&key, h, isa)?, memcpy)?,
                (_, None) => {
                    return Err(FieldError::invalid(
                        format!("{key}.isa"),
                        format!("missing: the card {card_name:?} sits on the ISA bus"),
                    ))
                }
            };
            let unibus = matches!(engine, RawEngine::UnibusDma { .. });
            let mut interface = crate::tcp::Interface::ethernet();
            interface.unibus_buffers = unibus;
            if let Some(l) = card.link {
                let (cfg, mtu) = super::unibus::link(&ckey, l)?;
                interface.framing = crate::tcp::Framing::Bare;
                interface.mtu_bytes = mtu;
                links.push(cfg);
            } else if self.trailers == Some(true) {
                interface.framing = crate::tcp::Framing::Ethernet { trailers: true };
            }
            let clock_tick = match h.clock_tick_ms {
                None => None,
                Some(ms) => Some(super::params::param_duration(
                    param("workload.hosts.*.clock_tick_ms"),
                    &format!("{key}.clock_tick_ms"),
                    ms,
                )?),
            };
            let host = TcpHost {
                host: HostProfile {
                    name: h.name.clone().unwrap_or_else(|| name.clone()),
                    mips,
                    memcpy_ns_per_byte: memcpy,
                },
                adapter,
                stack: stack.profile,
                costs,
                sndbuf: b,
                rcvbuf: b,
                interface,
                attached_processor: h.attached_processor.unwrap_or(false),
                clock_tick,
            };
            built.push(((name.clone(), card_name.clone()), host));
        }
        let transmitter = built
            .iter()
            .position(|((n, _), _)| *n == self.transmitter)
            .expect("checked above");
        let limit = super::params::param_duration(
            param("workload.limit_s"),
            "workload.limit_s",
            self.limit_s.unwrap_or(600.0),
        )?;
        let wire = match links.len() {
            0 => crate::ether::WireConfig::Csma(s.medium.segment(s.medium.even_positions(2))),
            2 if links[0] == links[1] => crate::ether::WireConfig::PointToPoint(links[0].clone()),
            _ => return Err(FieldError::invalid(
                "workload.card",
                "both hosts need cards on the same medium: two cards with the same `link`, or two without",
            )),
        };
        let ((n1, h1), (n0, h0)) = (built.pop().expect("two"), built.pop().expect("two"));
        Ok(TtcpWorkload {
            config: TtcpConfig {
                wire,
                hosts: [h0, h1],
                transmitter,
                buflen: self.buflen as u32,
                nbuf: self.nbuf as u32,
                limit,
            },
            hosts: [n0, n1],
        })
    }
}

impl TtcpWorkload {
    /// One line for `ethersim validate`.
    pub fn summary(&self) -> String {
        let c = &self.config;
        let tx = c.transmitter;
        format!(
            "ttcp -l {} -n {} from {} ({}) to {} ({})",
            c.buflen,
            c.nbuf,
            self.hosts[tx].0,
            self.hosts[tx].1,
            self.hosts[1 - tx].0,
            self.hosts[1 - tx].1
        )
    }
}
