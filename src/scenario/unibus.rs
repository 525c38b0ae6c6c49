//! The keys of a ttcp scenario that describe VAX-era hardware: a UNIBUS card
//! (`engine = "unibus_dma"`), a card's own link (`link`, the PCL-11's point-to-point
//! medium), and the interface framing and accounting keys that go with them.
//!
//! Card keys (besides `name`, `setup_ns`, `transmit_buffers`): `request_ns` (CPU per frame
//! for the card's requests, with `queue` per message, request or reply; 0 for none),
//! `tx_slots`, `rx_bytes`, optional
//! `dma = { word_ns, burst_words, burst_overhead_ns }` (absent: the card's DMA is its
//! transmission), optional `link = { bit_rate_mbps, overhead_bytes, mtu_bytes,
//! retry_if_busy }` (the card talks over a point-to-point link with no link header; both
//! hosts' cards must have one; `retry_if_busy`, default false: the receiver takes one
//! transfer per receive buffer its driver arms, and the sender retries meanwhile). The
//! ranges, with their sources, are declared in [`super::params::ttcp`].
//! Optional `command = { latency_ns }`: the card takes one command at a time
//! ([`crate::adapter::CommandHandshake`], the NI1010A); it needs a `dma` table.
//! Optional `queue = { take_up_ns, take_up, reply_ns }` (`take_up` "fixed", the
//! default, or "polled": uniform on [0, 2 x take_up_ns); `reply_ns`, CPU per reply
//! taken, default `request_ns`): the card's
//! request/reply message queues with one receive request hung at a time
//! ([`crate::adapter::MessageQueue`], the EXOS 204); it needs a `dma` table and excludes
//! `command`.

use serde::Deserialize;

use super::error::FieldError;
use super::ttcp_keys::{int as int_key, real};
use crate::adapter::{AdapterProfile, CommandHandshake, CopyEngine, DmaTiming, MessageQueue, TakeUp};
use crate::ether::LinkConfig;

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

/// `v` at `{card}.{sub}` within the range of `workload.cards.*.{sub}`.
fn int(card: &str, sub: &str, v: i64) -> Result<u32, FieldError> {
    int_key(format!("{card}.{sub}"), &format!("workload.cards.*.{sub}"), v)
}

/// `v` at `{card}.{sub}` within the range of `workload.cards.*.{sub}`.
fn num(card: &str, sub: &str, v: f64) -> Result<f64, FieldError> {
    real(format!("{card}.{sub}"), &format!("workload.cards.*.{sub}"), v)
}

/// A UNIBUS card's adapter profile.
#[allow(clippy::too_many_arguments)]
pub fn adapter(
    key: &str,
    name: &str,
    setup_ns: f64,
    driver_queue: i64,
    request_ns: f64,
    dma: Option<RawDma>,
    tx_slots: u32,
    rx_bytes: u32,
    command: Option<RawCommand>,
    queue: Option<RawQueue>,
) -> Result<AdapterProfile, FieldError> {
    let setup_ns = num(key, "setup_ns", setup_ns)?;
    let request_ns = num(key, "request_ns", request_ns)?;
    let driver_queue = int(key, "transmit_buffers", driver_queue)?;
    let tx_slots = int(key, "tx_slots", tx_slots as i64)?;
    let dma = match dma {
        None => None,
        Some(d) => Some(DmaTiming {
            word_ns: num(key, "dma.word_ns", d.word_ns)?,
            burst_words: int(key, "dma.burst_words", d.burst_words)?,
            burst_overhead_ns: num(key, "dma.burst_overhead_ns", d.burst_overhead_ns)?,
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
            latency_ns: num(key, "command.latency_ns", c.latency_ns)?,
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
            take_up_ns: num(key, "queue.take_up_ns", q.take_up_ns)?,
            take_up: match q.take_up {
                RawTakeUp::Fixed => TakeUp::Fixed,
                RawTakeUp::Polled => TakeUp::Polled,
            },
            reply_ns: q.reply_ns.map(|r| num(key, "queue.reply_ns", r)).transpose()?,
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
    let rate = num(key, "link.bit_rate_mbps", l.bit_rate_mbps)?;
    let bit_ns = (1000.0 / rate).round() as u64;
    let overhead = int(key, "link.overhead_bytes", l.overhead_bytes)?;
    let mtu = int(key, "link.mtu_bytes", l.mtu_bytes)?;
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
