//! A Wireshark-style listing of a capture, one line per packet: the product's own decoder
//! of the layout it writes ([`crate::lan::instruments::bytes`]), for machines without
//! tshark, and a safe reader of captures from other tools or of arbitrary bytes.
//!
//! It owns the line format; [`read`] owns the bounded reading (pcapng, whose blocks
//! pcap-file decodes, and legacy pcap), [`ethernet`] the Info column of Ethernet frames.
//!
//! Each line: packet number (from 1), time (seconds with nanosecond resolution, from the
//! interface's `if_tsresol`, pcapng's default 10^-6 s when absent; ethersim's own captures
//! count from the run's start), then
//! - on a LINKTYPE_ETHERNET interface: source and destination MAC addresses, the
//!   type/length field, the frame's original length in bytes (`captured/original` when
//!   cut short), an Info column in the manner of Wireshark's (NetBIOS session header,
//!   IPv4 and TCP headers, saturate payload, jam);
//! - on any other link type, `[NAME]` ([`link_type_name`]), or on an interface id the
//!   section never defined, `[unknown interface N]`: the length and the first
//!   [`RAW_BYTES_SHOWN`] bytes in hex, never decoded as Ethernet;
//!
//! then the per-packet error flags (`[CRC error]`, `[too short]`) and the block's comment
//! after `#`. TCP sequence and acknowledgement numbers are shown relative to the
//! documented initial sequence numbers ([`crate::lan::instruments::bytes::TCP_ISN`]), as
//! Wireshark's relative numbers are. Only Enhanced Packet Blocks (pcapng) and records
//! (pcap) are listed.
//!
//! Invariants, whatever the input: no panic; every text taken from the file is cut to
//! [`MAX_TEXT_CHARS`] characters and escaped ([`crate::scenario::error::escape`]), so a
//! line holds no control character and at most a few KiB; at most one line per 16 bytes
//! of input; memory is bounded by a small multiple of [`read::MAX_BLOCK_BYTES`] (and
//! [`read::MAX_INTERFACES`]); [`list_path`] refuses what
//! is not a regular file of at most [`MAX_CAPTURE_BYTES`] before reading it.

mod ethernet;
pub mod read;

use std::io::{Read, Write};
use std::path::Path;

use self::ethernet::{info, mac};
pub use self::read::{link_type_name, ts_to_nanos, Link, MAX_BLOCK_BYTES, MAX_INTERFACES};
use crate::lan::instruments::pcap::{EPB_FLAG_CRC_ERROR, EPB_FLAG_TOO_SHORT, JAM_BYTES};
use crate::scenario::error::escape;

/// The largest capture file listed, in bytes (1 GiB).
pub const MAX_CAPTURE_BYTES: u64 = 1 << 30;
/// Characters of a comment shown before it is cut (with `…`).
pub const MAX_TEXT_CHARS: usize = 200;
/// Bytes shown in hex of a packet that is not decoded.
pub const RAW_BYTES_SHOWN: usize = 16;

/// Why a capture could not be listed.
#[derive(Debug, thiserror::Error)]
pub enum ListError {
    #[error("not a pcapng capture (nor a legacy pcap one): {0}")]
    NotCapture(String),
    #[error("{0}: not supported (only pcapng and legacy pcap are)")]
    Unsupported(String),
    #[error("block {block} of the capture is unreadable: {reason}")]
    Block { block: usize, reason: String },
    #[error("not a regular file (a FIFO, device or directory is not read)")]
    NotRegular,
    #[error("{bytes} bytes, more than the {MAX_CAPTURE_BYTES} listed at most")]
    TooLarge { bytes: u64 },
    #[error("opening the capture: {0}")]
    Open(std::io::Error),
    #[error("reading the capture: {0}")]
    Read(std::io::Error),
    #[error("writing the listing: {0}")]
    Write(#[from] std::io::Error),
}

/// Lists the capture at `path` (see [`list`]) if it is a regular file of at most
/// [`MAX_CAPTURE_BYTES`]; anything else is refused before a byte of it is read (a FIFO
/// is not even opened: opening one waits for a writer).
pub fn list_path(path: &Path, count: Option<usize>, out: &mut impl Write) -> Result<usize, ListError> {
    let check = |m: std::fs::Metadata| {
        if !m.is_file() {
            Err(ListError::NotRegular)
        } else if m.len() > MAX_CAPTURE_BYTES {
            Err(ListError::TooLarge { bytes: m.len() })
        } else {
            Ok(m.len())
        }
    };
    check(std::fs::metadata(path).map_err(ListError::Open)?)?;
    let f = std::fs::File::open(path).map_err(ListError::Open)?;
    // the file itself, in case the path changed in between
    let size = check(f.metadata().map_err(ListError::Open)?)?;
    let input = std::io::BufReader::new(f.take(size));
    list_sized(input, Some(size), count, out)
}

/// Writes one line per packet of the capture read from `input` to `out`, at most `count`
/// lines if given; returns the number of lines written.
pub fn list(input: impl Read, count: Option<usize>, out: &mut impl Write) -> Result<usize, ListError> {
    list_sized(input, None, count, out)
}

/// As [`list`], of an input of `size` bytes if known (block lengths are checked against it).
fn list_sized(
    input: impl Read,
    size: Option<u64>,
    count: Option<usize>,
    out: &mut impl Write,
) -> Result<usize, ListError> {
    let mut capture = read::Capture::open(input, size)?;
    let mut n = 0;
    while count.is_none_or(|c| n < c) {
        let Some(p) = capture.next_packet()? else {
            break;
        };
        n += 1;
        let (data, comment) = (&p.data[..], p.comment.as_deref());
        let line = match p.link {
            Link::Type(read::LINKTYPE_ETHERNET) => line(n, p.t_ns, data, p.original_len, p.flags, comment),
            Link::Type(t) => raw_line(
                n,
                p.t_ns,
                &link_type_name(t),
                data,
                p.original_len,
                p.flags,
                comment,
            ),
            Link::UnknownInterface(i) => raw_line(
                n,
                p.t_ns,
                &format!("unknown interface {i}"),
                data,
                p.original_len,
                p.flags,
                comment,
            ),
        };
        writeln!(out, "{line}")?;
    }
    Ok(n)
}

/// `s`, from the file, safe to print: cut to [`MAX_TEXT_CHARS`] characters (then `…`)
/// and escaped.
pub fn show_text(s: &str) -> String {
    let mut chars = s.char_indices();
    match chars.nth(MAX_TEXT_CHARS) {
        Some((at, _)) => format!("{}…", escape(&s[..at])),
        None => escape(s),
    }
}

/// The columns after the Info column: flags, then the comment.
fn push_tail(s: &mut String, flags: u32, comment: Option<&str>) {
    if flags & EPB_FLAG_CRC_ERROR != 0 {
        s.push_str(" [CRC error]");
    }
    if flags & EPB_FLAG_TOO_SHORT != 0 {
        s.push_str(" [too short]");
    }
    if let Some(c) = comment {
        s.push_str(" # ");
        s.push_str(&show_text(c));
    }
}

/// The time column: seconds with nine decimals.
fn time(t_ns: u128) -> String {
    format!("{:>3}.{:09}", t_ns / 1_000_000_000, t_ns % 1_000_000_000)
}

/// The length column: `original`, or `captured/original` when cut short.
fn length(captured: usize, original_len: u32) -> String {
    if captured == original_len as usize {
        format!("{original_len}")
    } else {
        format!("{captured}/{original_len}")
    }
}

/// The listing line of packet `n` (from 1) at `t_ns`, not decoded: `label` in brackets
/// in place of the addresses and type, then the first [`RAW_BYTES_SHOWN`] bytes in hex.
pub fn raw_line(
    n: usize,
    t_ns: u128,
    label: &str,
    data: &[u8],
    original_len: u32,
    flags: u32,
    comment: Option<&str>,
) -> String {
    let shown = &data[..data.len().min(RAW_BYTES_SHOWN)];
    let mut bytes = shown
        .iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ");
    if data.is_empty() {
        bytes.push_str("no bytes captured");
    } else if data.len() > shown.len() {
        bytes.push_str(" …");
    }
    let label = format!("[{}]", show_text(label));
    let mut s = format!(
        "{n:>5} {} {label:<44} {:>9}  {bytes}",
        time(t_ns),
        length(data.len(), original_len)
    );
    push_tail(&mut s, flags, comment);
    s
}

/// The listing line of Ethernet frame `n` (from 1) at `t_ns`, with its captured bytes `data`.
pub fn line(
    n: usize,
    t_ns: u128,
    data: &[u8],
    original_len: u32,
    flags: u32,
    comment: Option<&str>,
) -> String {
    let (src, dst, kind, info) = if data.len() >= 14 {
        let ty = u16::from_be_bytes([data[12], data[13]]);
        (
            mac(&data[6..12]),
            mac(&data[0..6]),
            format!("0x{ty:04x}"),
            info(ty, &data[14..]),
        )
    } else {
        let what = if data == JAM_BYTES {
            "jam (32 bits)".to_string()
        } else if data.is_empty() {
            "no bytes captured (cut before its header)".to_string()
        } else {
            format!("{} bytes, Ethernet header cut short", data.len())
        };
        ("-".into(), "-".into(), "-".into(), what)
    };
    let mut s = format!(
        "{n:>5} {} {src:>17} → {dst:<17} {kind:>6} {:>9}  {info}",
        time(t_ns),
        length(data.len(), original_len)
    );
    push_tail(&mut s, flags, comment);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ether::Frame;
    use crate::lan::instruments::bytes::frame_bytes;
    use crate::lan::observe::Content;
    use crate::nos::packet::{Packet, PacketKind};

    #[test]
    fn test_line_nos_request() {
        let frame = Frame {
            src: 1,
            dst: 0,
            bytes: 364,
            tag: 0,
            pad: 0,
        };
        let packet = Packet {
            kind: PacketKind::Request,
            msg: 1,
            seq: 0,
            last: false,
            value: 31744,
            acks: false,
        };
        let b = frame_bytes(
            &frame,
            &Content::Nos {
                packet,
                header_bytes: 32,
            },
            false,
        );
        let l = line(1, 8_631_412, &b, b.len() as u32, 0, None);
        assert!(l.contains("02:00:5e:10:00:01 → 02:00:5e:10:00:00"), "{l}");
        assert!(l.contains("0x88b5"), "{l}");
        assert!(l.contains("NetBIOS request msg=1 seq=0 value=31744"), "{l}");
        assert!(l.contains("  0.008631412 "), "{l}");
    }

    #[test]
    fn test_line_jam_flags_and_comment() {
        let flags = EPB_FLAG_CRC_ERROR | EPB_FLAG_TOO_SHORT;
        let l = line(3, 0, &JAM_BYTES, 4, flags, Some("jam of station 2"));
        assert!(
            l.ends_with("jam (32 bits) [CRC error] [too short] # jam of station 2"),
            "{l}"
        );
    }
}

#[cfg(test)]
mod tests_rules;
