//! The keys of a ttcp scenario that describe VAX-era hardware: a UNIBUS card
//! (`engine = "unibus_dma"`), a card's own link (`link`, the PCL-11's point-to-point
//! medium), and the interface framing and accounting keys that go with them.
//!
//! Card keys (besides `name`, `setup_ns`, `driver_queue`): `request_ns` (CPU per frame
//! for the card's requests, with `queue` per message, request or reply; 0 for none),
//! `tx_slots`, `rx_bytes`, optional
//! `dma = { word_ns, burst_words, burst_overhead_ns }` (absent: the card's DMA is its
//! transmission), optional `link = { bit_rate_mbps, overhead_bytes, mtu_bytes,
//! retry_if_busy }` (the card talks over a point-to-point link with no link header; both
//! hosts' cards must have one; `retry_if_busy`, default false: the receiver takes one
//! transfer per receive buffer its driver arms, and the sender retries meanwhile). Ranges: `word_ns` 750..=20000 (the UNIBUS moves at most one word per
//! 750 ns), `burst_words` 1..=16, `burst_overhead_ns` 0..=20000, `bit_rate_mbps`
//! 0.01..=10, `overhead_bytes` 0..=64, `mtu_bytes` 68..=65535 (RFC 791 minimum 68).
//! Optional `command = { latency_ns }` (0..=10^7): the card takes one command at a time
//! ([`crate::adapter::CommandHandshake`], the NI1010A); it needs a `dma` table.
//! Optional `queue = { take_up_ns, take_up, reply_ns }` (`take_up_ns` 0..=10^7; `take_up`
//! "fixed", the default, or "polled": uniform on [0, 2 x take_up_ns); `reply_ns`
//! 0..=10^7, CPU per reply taken, default `request_ns`): the card's
//! request/reply message queues with one receive request hung at a time
//! ([`crate::adapter::MessageQueue`], the EXOS 204); it needs a `dma` table and excludes
//! `command`.

use serde::Deserialize;

use super::error::{real_within as real, FieldError};
use crate::adapter::{AdapterProfile, CommandHandshake, CopyEngine, DmaTiming, MessageQueue, TakeUp};
use crate::ether::LinkConfig;

/// UNIBUS words move at most once per this many ns (DEC UNIBUS; REFERENCE-ttcp.md).
pub const UNIBUS_MIN_WORD_NS: f64 = 750.0;

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDma {
    pub word_ns: f64,
    pub burst_words: i64,
    pub burst_overhead_ns: f64,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCommand {
    pub latency_ns: f64,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawQueue {
    pub take_up_ns: f64,
    #[serde(default)]
    pub take_up: RawTakeUp,
    pub reply_ns: Option<f64>,
}

/// `take_up = "fixed"` (default) or `"polled"`.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawTakeUp {
    #[default]
    Fixed,
    Polled,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLink {
    pub bit_rate_mbps: f64,
    pub overhead_bytes: i64,
    pub mtu_bytes: i64,
    /// The receiver takes one transfer per arming and the transmitter retries while it
    /// has not re-armed (the PCL-11B's RIB); absent: false.
    #[serde(default)]
    pub retry_if_busy: bool,
}

fn int(path: String, v: i64, lo: i64, hi: i64) -> Result<u32, FieldError> {
    if (lo..=hi).contains(&v) {
        Ok(v as u32)
    } else {
        Err(FieldError::range(path, v, format!("{lo}..={hi}")))
    }
}

/// A UNIBUS card's adapter profile.
#[allow(clippy::too_many_arguments)]
pub fn adapter(
    key: &str,
    name: &str,
    setup_ns: f64,
    driver_queue: u32,
    request_ns: f64,
    dma: Option<RawDma>,
    tx_slots: u32,
    rx_bytes: u32,
    command: Option<RawCommand>,
    queue: Option<RawQueue>,
) -> Result<AdapterProfile, FieldError> {
    let setup_ns = real(format!("{key}.setup_ns"), setup_ns, 0.0, 1e7)?;
    let request_ns = real(format!("{key}.request_ns"), request_ns, 0.0, 1e7)?;
    let driver_queue = int(format!("{key}.driver_queue"), driver_queue as i64, 1, 256)?;
    let tx_slots = int(format!("{key}.tx_slots"), tx_slots as i64, 1, 64)?;
    let dma = match dma {
        None => None,
        Some(d) => Some(DmaTiming {
            word_ns: real(
                format!("{key}.dma.word_ns"),
                d.word_ns,
                UNIBUS_MIN_WORD_NS,
                20_000.0,
            )?,
            burst_words: int(format!("{key}.dma.burst_words"), d.burst_words, 1, 16)?,
            burst_overhead_ns: real(
                format!("{key}.dma.burst_overhead_ns"),
                d.burst_overhead_ns,
                0.0,
                20_000.0,
            )?,
        }),
    };
    let command = match command {
        None => None,
        Some(_) if dma.is_none() => {
            return Err(FieldError::invalid(
                format!("{key}.command"),
                "a command handshake needs the card's `dma` table (its DMA follows the command)",
            ))
        }
        Some(c) => Some(CommandHandshake {
            latency_ns: real(format!("{key}.command.latency_ns"), c.latency_ns, 0.0, 1e7)?,
        }),
    };
    let queue = match queue {
        None => None,
        Some(_) if dma.is_none() || command.is_some() => {
            return Err(FieldError::invalid(
                format!("{key}.queue"),
                "message queues need the card's `dma` table and no `command` handshake",
            ))
        }
        Some(q) => Some(MessageQueue {
            take_up_ns: real(format!("{key}.queue.take_up_ns"), q.take_up_ns, 0.0, 1e7)?,
            take_up: match q.take_up {
                RawTakeUp::Fixed => TakeUp::Fixed,
                RawTakeUp::Polled => TakeUp::Polled,
            },
            reply_ns: q
                .reply_ns
                .map(|r| real(format!("{key}.queue.reply_ns"), r, 0.0, 1e7))
                .transpose()?,
        }),
    };
    let a = AdapterProfile {
        name: name.to_string(),
        bus_width_bits: 16,
        copy: CopyEngine::UnibusDma {
            setup_ns,
            request_ns,
            dma,
            tx_slots,
            rx_bytes,
            command,
            queue,
        },
        card_ram_bytes: rx_bytes,
        page_bytes: 256,
        transmit_buffers: driver_queue,
        packet_size: 1500,
    };
    if a.rx_pages() < a.rx_pages_for(a.max_frame_bytes()) {
        return Err(FieldError::invalid(
            format!("{key}.rx_bytes"),
            "the receive space cannot hold one full frame",
        ));
    }
    Ok(a)
}

/// A card's point-to-point link: the medium and the interface's MTU.
pub fn link(key: &str, l: RawLink) -> Result<(LinkConfig, u32), FieldError> {
    let rate = real(format!("{key}.link.bit_rate_mbps"), l.bit_rate_mbps, 0.01, 10.0)?;
    let bit_ns = (1000.0 / rate).round() as u64;
    let overhead = int(format!("{key}.link.overhead_bytes"), l.overhead_bytes, 0, 64)?;
    let mtu = int(format!("{key}.link.mtu_bytes"), l.mtu_bytes, 68, 65_535)?;
    Ok((
        LinkConfig {
            stations: 2,
            bit_ns,
            overhead_bytes: overhead,
            retry_if_busy: l.retry_if_busy,
        },
        mtu,
    ))
}
