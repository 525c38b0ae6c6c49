//! Sections `[hosts]`, `[adapter]` and `[nos]`: the computers, the network adapters and
//! the LANtastic settings of a LAN scenario (used by the `perform3` workload).
//!
//! Usually they come from a shared hardware file (`hardware = "..."`), and a scenario
//! overrides only the settings it changes. Units: MIPS, ns, bytes, kinstr (thousands of
//! instructions), ticks of the PC timer (1/18.2 s) for the AI-LANBIOS timers.

use serde::Deserialize;

pub use super::card::{RawCard, RawDriver, RawEngineKind, RawSendCopy, RawTransmitLength};
use super::error::{show, FieldError, Problem};
use super::host::HostUse;
pub use super::host::RawHost;
use super::medium::Medium;
use super::params;
use crate::adapter::bus::{io_access_ns, AtIoTiming, IoPort};
use crate::adapter::{AdapterProfile, CopyEngine, SendCopy, TransmitLength};
use crate::host::HostProfile;
pub use crate::lan::LanProfile;
use crate::nos::config::{
    LargeReads, LatencyScope, NosCosts, RedirConfig, ReplyCopy, SendOrder, ServerConfig, SessionConfig,
};
use crate::time::SimDuration;

/// `[hosts]`: the server and the workstations, each a host of the one shape
/// ([`RawHost`]); its `isa` clock and recovery give the AT bus cycle the card's data-port
/// accesses are derived from ([`crate::adapter::bus::io_access_ns`]).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawHosts {
    pub server: RawHost,
    pub workstation: RawHost,
}

/// `[nos]`: LANtastic.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawNos {
    pub protocol: RawProtocol,
    pub costs: RawCosts,
    pub server: RawNosServer,
    pub workstation: RawNosWorkstation,
}

/// `[nos.protocol]`: fixed properties of the LANtastic protocol.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawProtocol {
    pub header_bytes: i64,
    pub request_bytes: i64,
    pub retry_base_ms: f64,
}

/// `[nos.costs]`: CPU work of the NOS and the application, kinstr.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCosts {
    pub interrupt_kinstr: f64,
    pub packet_kinstr: f64,
    pub server_request_kinstr: f64,
    /// Optional: the server task's wait per request besides CPU work, ms (default 0).
    pub server_request_latency_ms: Option<f64>,
    /// Optional: `"task"` (default: each network task waits on its own) or `"server"` (one
    /// task at a time: a critical section).
    pub server_request_latency_scope: Option<RawLatencyScope>,
    /// Optional: the foreground's turn when SERVER yields after its run burst, ms
    /// (default 0).
    pub server_yield_ms: Option<f64>,
    pub redir_request_kinstr: f64,
    pub app_block_kinstr: f64,
}

/// `server_request_latency_scope` of `[nos.costs]`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawLatencyScope {
    Task,
    Server,
}

/// `[nos.server]`: SERVER startup parameters and the server's AI-LANBIOS switches.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawNosServer {
    pub network_tasks: i64,
    pub network_buffer: i64,
    /// Optional: SERVER's run burst, requests between yields to the foreground (default 1).
    pub run_burst: Option<i64>,
    /// Optional: `"per_packet"` (default) or `"before_send"` (see [`ReplyCopy`]).
    pub reply_copy: Option<RawReplyCopy>,
    pub ailanbio: RawAilanbio,
}

/// `reply_copy` of `[nos.server]`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawReplyCopy {
    PerPacket,
    BeforeSend,
}

/// `[nos.workstation]`: the workstations' AI-LANBIOS and REDIR switches.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawNosWorkstation {
    pub ailanbio: RawAilanbio,
    pub redir: RawRedir,
}

/// `[nos.*.ailanbio]`: AI-LANBIOS switches.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAilanbio {
    pub size: i64,
    pub buffers: i64,
    pub initial_send_size: i64,
    pub run_burst: i64,
    pub ack_timeout: i64,
    pub retry_period: i64,
    /// `"oldest_message"` (default), `"round_robin"` or `"one_message"` (see [`SendOrder`]).
    pub send_order: Option<RawSendOrder>,
}

/// `send_order` of `[nos.*.ailanbio]`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawSendOrder {
    OldestMessage,
    RoundRobin,
    OneMessage,
}

/// `[nos.workstation.redir]`: REDIR switches.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRedir {
    pub buffers: i64,
    pub size: i64,
    /// Optional: `"buffered"` (default) or `"direct"` (see [`LargeReads`]).
    pub large_reads: Option<RawLargeReads>,
}

/// `large_reads` of `[nos.workstation.redir]`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawLargeReads {
    Buffered,
    Direct,
}

/// The PC timer's tick: 65536 / 1193182 Hz = 54.925 ms.
pub fn ticks(n: u32) -> SimDuration {
    SimDuration::from_nanos_f64(n as f64 * 65_536.0 / 1_193_182.0 * 1e9)
}

/// `v` at registered integer key `path` (see [`params`]), with `note` on a range error.
fn int_key(path: &str, v: i64, note: &str) -> Result<u32, FieldError> {
    let (lo, hi) = params::int_range(path);
    int_in(path, v, lo, hi, note)
}

/// `v` at registered number key `path`.
fn real_key(path: &str, v: f64) -> Result<f64, FieldError> {
    let p = params::get(None, path);
    let (lo, hi) = p.real_range();
    real_in(path, v, lo, hi, p.min_open())
}

/// A duration at registered key `path`.
fn millis_key(path: &str, v: f64) -> Result<SimDuration, FieldError> {
    params::param_duration(params::get(None, path), path, v)
}

fn int_in(path: &str, v: i64, lo: i64, hi: i64, note: &str) -> Result<u32, FieldError> {
    if (lo..=hi).contains(&v) {
        Ok(v as u32)
    } else {
        let e = FieldError::range(path, v, format!("{lo}..={hi}"));
        Err(if note.is_empty() { e } else { e.with_note(note) })
    }
}

fn real_in(path: &str, v: f64, lo: f64, hi: f64, lo_open: bool) -> Result<f64, FieldError> {
    let ok = v.is_finite() && (if lo_open { v > lo } else { v >= lo }) && v <= hi;
    if ok {
        Ok(v)
    } else {
        let open = if lo_open { "(" } else { "[" };
        Err(FieldError::range(
            path,
            show(v),
            format!("{open}{}, {}]", show(lo), show(hi)),
        ))
    }
}

/// A file-service host's CPU, named `default_name` unless it gives a name; a key its model
/// does not read is refused ([`RawHost::check`]).
fn host_profile(h: &RawHost, at: &str, default_name: &str) -> Result<HostProfile, FieldError> {
    h.check(at, HostUse::FileService)?;
    Ok(HostProfile {
        name: h.name.clone().unwrap_or_else(|| default_name.to_string()),
        mips: real_key(&format!("{at}.mips"), h.mips)?,
        memcpy_ns_per_byte: real_key(&format!("{at}.memcpy_ns_per_byte"), h.memcpy_ns_per_byte)?,
    })
}

/// A file-service host's AT bus timing, if it has an ISA bus (recovery 0 unless given).
fn at_bus(h: &RawHost, at: &str) -> Result<Option<AtIoTiming>, FieldError> {
    let Some(isa) = &h.isa else {
        return Ok(None);
    };
    let rec = |w: u32, v: Option<i64>| -> Result<u32, FieldError> {
        v.map_or(Ok(0), |v| {
            int_key(&format!("{at}.isa.io_recovery_clocks_{w}bit"), v, "")
        })
    };
    Ok(Some(AtIoTiming {
        clock_mhz: real_key(&format!("{at}.isa.clock_mhz"), isa.clock_mhz)?,
        recovery_8bit: rec(8, isa.io_recovery_clocks_8bit)?,
        recovery_16bit: rec(16, isa.io_recovery_clocks_16bit)?,
    }))
}

/// The card's side of the AT bus cycle (`[adapter]` wait states and ready time; the AT's
/// standard wait states and no ready time where not given).
fn io_port(adapter: &RawCard) -> Result<IoPort, FieldError> {
    let ws = |w: u32, v: Option<i64>, d: u32| -> Result<u32, FieldError> {
        v.map_or(Ok(d), |v| int_key(&format!("adapter.wait_states_{w}bit"), v, ""))
    };
    Ok(IoPort {
        wait_states_8bit: ws(8, adapter.wait_states_8bit, IoPort::STANDARD.wait_states_8bit)?,
        wait_states_16bit: ws(16, adapter.wait_states_16bit, IoPort::STANDARD.wait_states_16bit)?,
        ready_ns: adapter
            .ready_ns
            .map_or(Ok(0.0), |v| real_key("adapter.ready_ns", v))?,
    })
}

/// The data-port access time of one node at `width`: a value given at `explicit_key`
/// (which then overrides the bus cycle, with a warning naming both), else derived from the
/// host's AT bus and the card's port where the host gives a bus clock, else none.
fn port_access(
    bus: Option<(&str, AtIoTiming)>,
    port: &IoPort,
    width: i64,
    explicit_key: &str,
    explicit: Option<f64>,
    warnings: &mut Vec<String>,
) -> Result<Option<f64>, FieldError> {
    // a 32-bit port is not an AT cycle: its time is always given
    let bus = bus.filter(|_| width != 32);
    match (bus, explicit) {
        (Some((at, _)), Some(v)) => {
            warnings.push(format!(
                "{explicit_key} = {} overrides the access time derived from {at}.isa.clock_mhz \
                 (bus clock, wait states, recovery, the card's ready time)",
                show(v)
            ));
            real_key(explicit_key, v).map(Some)
        }
        (Some((_, t)), None) => Ok(io_access_ns(&t, port, width as u32)),
        (None, Some(v)) => real_key(explicit_key, v).map(Some),
        (None, None) => Ok(None),
    }
}

impl RawAilanbio {
    fn validate(
        self,
        at: &str,
        header_bytes: u32,
        retry_base: SimDuration,
    ) -> Result<SessionConfig, FieldError> {
        let p = |k: &str| format!("{at}.{k}");
        // the floor is the header's size plus one, the registry's entry says so
        let (_, hi) = params::int_range(&p("size"));
        let size = int_in(
            &p("size"),
            self.size,
            header_bytes as i64 + 1,
            hi,
            "must exceed nos.protocol.header_bytes",
        )?;
        Ok(SessionConfig {
            header_bytes,
            buffer_size: size,
            buffers: int_key(&p("buffers"), self.buffers, "")?,
            initial_send_size: int_key(&p("initial_send_size"), self.initial_send_size, "")?,
            run_burst: int_key(&p("run_burst"), self.run_burst, "")?,
            send_order: match self.send_order {
                None | Some(RawSendOrder::OldestMessage) => SendOrder::OldestMessage,
                Some(RawSendOrder::RoundRobin) => SendOrder::RoundRobin,
                Some(RawSendOrder::OneMessage) => SendOrder::OneMessage,
            },
            ack_timeout: ticks(int_key(&p("ack_timeout"), self.ack_timeout, "ticks of 1/18.2 s")?),
            retry_period: retry_base
                + ticks(int_key(
                    &p("retry_period"),
                    self.retry_period,
                    "ticks of 1/18.2 s",
                )?),
        })
    }
}

/// Checks that `adapter.workstation.bus_widths`, if given, has one entry per workstation.
pub fn check_workstation_cards(profile: &LanProfile, workstations: usize) -> Result<(), FieldError> {
    match &profile.workstation_adapters {
        Some(v) if v.len() != workstations => Err(FieldError::invalid(
            "adapter.workstation.bus_widths",
            format!(
                "has {} entries for {workstations} workstations (workload.workstations): give \
                 one width per workstation, in node order",
                v.len()
            ),
        )),
        _ => Ok(()),
    }
}

/// Validates the three LAN sections together (they refer to one another).
pub fn validate(
    hosts: RawHosts,
    adapter: RawCard,
    nos: RawNos,
    medium: &Medium,
    warnings: &mut Vec<String>,
) -> Result<LanProfile, FieldError> {
    let server_host = host_profile(&hosts.server, "hosts.server", "server")?;
    let workstation_host = host_profile(&hosts.workstation, "hosts.workstation", "workstation")?;
    let server_bus = at_bus(&hosts.server, "hosts.server")?;
    let ws_bus = at_bus(&hosts.workstation, "hosts.workstation")?;
    // the file service's model moves frames through an NE2000-class card's data port
    match adapter.engine {
        None | Some(RawEngineKind::ProgrammedIo) => {}
        Some(other) => {
            let (name, _) = super::card::engine_keys(other);
            return Err(FieldError::invalid(
                "adapter.engine",
                format!(
                    "{name:?} is a TCP/IP host's card engine; the file service's model moves \
                     frames through an NE2000-class card's data port: \"programmed_io\""
                ),
            ));
        }
    }
    adapter.foreign_keys("adapter", RawEngineKind::ProgrammedIo)?;
    let need =
        |k: &str, v: Option<i64>| v.ok_or_else(|| FieldError::new(format!("adapter.{k}"), Problem::Missing));
    let port = io_port(&adapter)?;
    if server_bus.is_none() && ws_bus.is_none() {
        for (k, given) in [
            ("wait_states_8bit", adapter.wait_states_8bit.is_some()),
            ("wait_states_16bit", adapter.wait_states_16bit.is_some()),
            ("ready_ns", adapter.ready_ns.is_some()),
        ] {
            if given {
                return Err(FieldError::invalid(
                    format!("adapter.{k}"),
                    "means nothing without a host's isa.clock_mhz (the bus cycle it belongs to): \
                     give hosts.server.isa.clock_mhz, or remove it",
                ));
            }
        }
    }

    let widths = params::get(None, "adapter.bus_width").int_values();
    let check_width = |key: &str, width: i64| -> Result<i64, FieldError> {
        if widths.contains(&width) {
            return Ok(width);
        }
        let (last, rest) = widths.split_last().expect("registered widths");
        let rest: Vec<String> = rest.iter().map(i64::to_string).collect();
        Err(FieldError::range(
            key,
            width,
            format!("{} or {last}", rest.join(", ")),
        ))
    };
    let width = check_width("adapter.bus_width", need("bus_width", adapter.bus_width)?)?;
    let ws = adapter.workstation.clone().unwrap_or_default();
    let ws_width = match ws.bus_width {
        Some(w) => check_width("adapter.workstation.bus_width", w)?,
        None => width,
    };
    let explicit_at = |w: i64| match w {
        8 => adapter.io_access_ns_8bit,
        16 => adapter.io_access_ns_16bit,
        _ => adapter.io_access_ns_32bit,
    };
    let key = format!("adapter.io_access_ns_{width}bit");
    let explicit = explicit_at(width);
    let access_ns = port_access(
        server_bus.map(|b| ("hosts.server", b)),
        &port,
        width,
        &key,
        explicit,
        warnings,
    )?
    .ok_or_else(|| {
        FieldError::invalid(
            &key,
            format!(
                "missing: needed for adapter.bus_width = {width} (or, for 8 and 16, \
                     hosts.server.isa.clock_mhz to derive it from the bus cycle)"
            ),
        )
    })?;
    let setup_ns = real_key("adapter.setup_ns", adapter.setup_ns)?;
    // the workstations' port timing at their own width: from their own bus, or their own
    // value, else the server's at that width
    let ws_access_at = |ws_width: i64, warnings: &mut Vec<String>| -> Result<f64, FieldError> {
        let ws_key = format!("adapter.workstation.io_access_ns_{ws_width}bit");
        let ws_explicit = match ws_width {
            8 => ws.io_access_ns_8bit,
            16 => ws.io_access_ns_16bit,
            _ => ws.io_access_ns_32bit,
        };
        Ok(
            match port_access(
                ws_bus.map(|b| ("hosts.workstation", b)),
                &port,
                ws_width,
                &ws_key,
                ws_explicit,
                warnings,
            )? {
                Some(a) => a,
                None if ws_width == width => access_ns,
                None => {
                    let key = format!("adapter.io_access_ns_{ws_width}bit");
                    port_access(
                        server_bus.map(|b| ("hosts.server", b)),
                        &port,
                        ws_width,
                        &key,
                        explicit_at(ws_width),
                        &mut Vec::new(),
                    )?
                    .ok_or_else(|| {
                        FieldError::invalid(
                            &ws_key,
                            format!(
                                "missing: needed for a {ws_width}-bit workstation card (or \
                                 hosts.workstation.isa.clock_mhz to derive it from the bus cycle)"
                            ),
                        )
                    })?
                }
            },
        )
    };
    let ws_access_ns = ws_access_at(ws_width, warnings)?;
    // per-workstation modes: each width checked, and its port timing found, once
    let ws_widths = match &ws.bus_widths {
        None => None,
        Some(list) => {
            if ws.bus_width.is_some() {
                return Err(FieldError::invalid(
                    "adapter.workstation.bus_widths",
                    "give either adapter.workstation.bus_width (every workstation) or \
                     adapter.workstation.bus_widths (one per workstation), not both",
                ));
            }
            if list.is_empty() {
                return Err(FieldError::invalid(
                    "adapter.workstation.bus_widths",
                    "is empty: give one width per workstation",
                ));
            }
            let mut out = Vec::with_capacity(list.len());
            for (i, &w) in list.iter().enumerate() {
                out.push(check_width(&format!("adapter.workstation.bus_widths[{i}]"), w)?);
            }
            Some(out)
        }
    };
    let mut ws_access_by_width: Vec<(i64, f64)> = vec![(ws_width, ws_access_ns)];
    for &w in ws_widths.iter().flatten() {
        if !ws_access_by_width.iter().any(|(x, _)| *x == w) {
            ws_access_by_width.push((w, ws_access_at(w, warnings)?));
        }
    }
    let ws_setup_ns = match ws.setup_ns {
        Some(v) => real_key("adapter.workstation.setup_ns", v)?,
        None => setup_ns,
    };
    let transmit_length = match adapter.transmit_length {
        None | Some(RawTransmitLength::Frame) => TransmitLength::Frame,
        Some(RawTransmitLength::Data) => TransmitLength::Data,
        Some(RawTransmitLength::Message) => TransmitLength::Message,
    };
    let send_copy = match adapter.send_copy {
        None | Some(RawSendCopy::Queued) => SendCopy::Queued,
        Some(RawSendCopy::AtOnce) => SendCopy::AtOnce,
        Some(RawSendCopy::WhenIdle) => SendCopy::WhenIdle,
    };
    let (copy, ws_copy) = (
        CopyEngine::ProgrammedIo {
            access_ns,
            setup_ns,
            transmit_length,
            send_copy,
        },
        move |access_ns: f64| CopyEngine::ProgrammedIo {
            access_ns,
            setup_ns: ws_setup_ns,
            transmit_length,
            send_copy,
        },
    );
    let card_ram_bytes = int_key("adapter.ram_bytes", need("ram_bytes", adapter.ram_bytes)?, "")?;
    let page_bytes = int_key("adapter.page_bytes", adapter.page_bytes.unwrap_or(256), "")?;
    let driver = |at: &str, tx: i64, pkt: i64| -> Result<(u32, u32), FieldError> {
        let tx = int_key(
            &format!("{at}.transmit_buffers"),
            tx,
            "the AEX TRANSMIT_BUFFERS range",
        )?;
        let pkt_key = format!("{at}.packet_size");
        let pkt = int_key(&pkt_key, pkt, "the AEX PACKET_SIZE range")?;
        let frame = crate::ether::frame_bytes(pkt);
        if frame > medium.max_frame_bytes() {
            let (lo, _) = params::int_range(&pkt_key);
            let hi = medium.max_frame_bytes() - (frame - pkt);
            return Err(FieldError::range(pkt_key, pkt, format!("{lo}..={hi}"))
                .with_note("larger packets make frames over 1518 bytes: set medium.allow_oversize = true"));
        }
        Ok((tx, pkt))
    };
    let (tx, pkt) = driver(
        "adapter",
        adapter.transmit_buffers,
        need("packet_size", adapter.packet_size)?,
    )?;
    let (ws_tx, ws_pkt) = driver(
        "adapter.workstation",
        ws.transmit_buffers.unwrap_or(tx as i64),
        ws.packet_size.unwrap_or(pkt as i64),
    )?;
    // A PACKET_SIZE over 1500 makes frames longer than 802.3 allows; `driver` refuses it
    // unless the scenario sets medium.allow_oversize, and a scenario that sets it has said
    // so on purpose (Appendix A's 1700 among Artisoft adapters): no warning on every run.
    let profile = |width: i64, tx: u32, pkt: u32, copy: &CopyEngine| -> Result<AdapterProfile, FieldError> {
        let p = AdapterProfile {
            name: adapter.name.clone().unwrap_or_else(|| "adapter".into()),
            bus_width_bits: width as u32,
            copy: copy.clone(),
            card_ram_bytes,
            page_bytes,
            transmit_buffers: tx,
            packet_size: pkt,
        };
        if p.card_ram_bytes / 2 < p.max_frame_bytes() + crate::adapter::RX_HEADER_BYTES {
            return Err(FieldError::invalid(
                "adapter.ram_bytes",
                format!(
                    "{} bytes cannot hold a {}-byte frame in each half (transmit, receive)",
                    p.card_ram_bytes,
                    p.max_frame_bytes()
                ),
            ));
        }
        Ok(p)
    };

    let proto = &nos.protocol;
    let header_bytes = int_key("nos.protocol.header_bytes", proto.header_bytes, "")?;
    let request_bytes = int_key("nos.protocol.request_bytes", proto.request_bytes, "")?;
    let retry_base = millis_key("nos.protocol.retry_base_ms", proto.retry_base_ms)?;
    let c = &nos.costs;
    let cost = |k: &str, v: f64| real_key(&format!("nos.costs.{k}"), v);
    let costs = NosCosts {
        interrupt_kinstr: cost("interrupt_kinstr", c.interrupt_kinstr)?,
        packet_kinstr: cost("packet_kinstr", c.packet_kinstr)?,
        server_request_kinstr: cost("server_request_kinstr", c.server_request_kinstr)?,
        server_request_latency: millis_key(
            "nos.costs.server_request_latency_ms",
            c.server_request_latency_ms.unwrap_or(0.0),
        )?,
        server_request_latency_scope: match c.server_request_latency_scope {
            None | Some(RawLatencyScope::Task) => LatencyScope::Task,
            Some(RawLatencyScope::Server) => LatencyScope::Server,
        },
        server_yield: millis_key("nos.costs.server_yield_ms", c.server_yield_ms.unwrap_or(0.0))?,
        redir_request_kinstr: cost("redir_request_kinstr", c.redir_request_kinstr)?,
        app_block_kinstr: cost("app_block_kinstr", c.app_block_kinstr)?,
        request_bytes,
        app_jitter: 0.0,
        start_skew: SimDuration::ZERO,
    };
    let server_session = nos
        .server
        .ailanbio
        .validate("nos.server.ailanbio", header_bytes, retry_base)?;
    let workstation_session =
        nos.workstation
            .ailanbio
            .validate("nos.workstation.ailanbio", header_bytes, retry_base)?;
    let r = &nos.workstation.redir;
    let redir = RedirConfig {
        buffers: int_key("nos.workstation.redir.buffers", r.buffers, "")?,
        size: int_key("nos.workstation.redir.size", r.size, "")?,
        large_reads: match r.large_reads {
            None | Some(RawLargeReads::Buffered) => LargeReads::Buffered,
            Some(RawLargeReads::Direct) => LargeReads::Direct,
        },
    };
    let server = ServerConfig {
        network_tasks: int_key("nos.server.network_tasks", nos.server.network_tasks, "")?,
        network_buffer: int_key("nos.server.network_buffer", nos.server.network_buffer, "")?,
        run_burst: int_key("nos.server.run_burst", nos.server.run_burst.unwrap_or(1), "")?,
        reply_copy: match nos.server.reply_copy {
            None | Some(RawReplyCopy::PerPacket) => ReplyCopy::PerPacket,
            Some(RawReplyCopy::BeforeSend) => ReplyCopy::BeforeSend,
        },
    };
    Ok(LanProfile {
        server_host,
        workstation_host,
        server_adapter: profile(width, tx, pkt, &copy)?,
        workstation_adapter: profile(ws_width, ws_tx, ws_pkt, &ws_copy(ws_access_ns))?,
        workstation_adapters: match ws_widths {
            None => None,
            Some(list) => {
                let mut v = Vec::with_capacity(list.len());
                for w in list {
                    let (_, a) = ws_access_by_width
                        .iter()
                        .find(|(x, _)| *x == w)
                        .expect("every listed width's timing was found");
                    v.push(profile(w, ws_tx, ws_pkt, &ws_copy(*a))?);
                }
                Some(v)
            }
        },
        server_session,
        workstation_session,
        redir,
        server,
        costs,
    })
}
