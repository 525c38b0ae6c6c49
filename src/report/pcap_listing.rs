//! A Wireshark-style listing of a pcapng capture, one line per frame, read back with the
//! pcap-file crate: the product's own decoder of the layout it writes ([`crate::lan::instruments::bytes`]),
//! for machines without tshark.
//!
//! Each line: frame number (from 1), time (seconds from the capture's 0, nanosecond
//! resolution), source and destination MAC addresses, the type/length field, the frame's
//! original length in bytes (`captured/original` when cut short), an Info column in the
//! manner of Wireshark's (NetBIOS session header, IPv4 and TCP headers, saturate
//! payload, jam), then the per-packet error flags (`[CRC error]`, `[too short]`) and the
//! block's comment after `#`. TCP sequence and acknowledgement numbers are shown relative
//! to the documented initial sequence numbers ([`crate::lan::instruments::bytes::TCP_ISN`]), as Wireshark's
//! relative numbers are. Only blocks of the enhanced-packet kind are listed.

use std::io::{Read, Write};

use pcap_file::pcapng::blocks::enhanced_packet::EnhancedPacketOption;
use pcap_file::pcapng::{Block, PcapNgReader};

use crate::lan::instruments::bytes::{ETHERTYPE_IPV4, ETHERTYPE_NOS, ETHERTYPE_SATURATE, TCP_ISN};
use crate::lan::instruments::pcap::{EPB_FLAG_CRC_ERROR, EPB_FLAG_TOO_SHORT, JAM_BYTES};

/// Why a capture could not be listed.
#[derive(Debug, thiserror::Error)]
pub enum ListError {
    #[error("not a pcapng capture: {0}")]
    Format(pcap_file::PcapError),
    #[error("block {block} of the capture is unreadable: {source}")]
    Block {
        block: usize,
        source: pcap_file::PcapError,
    },
    #[error("writing the listing: {0}")]
    Write(#[from] std::io::Error),
}

/// Writes one line per frame of the capture read from `input` to `out`, at most `count`
/// frames if given; returns the number of lines written.
pub fn list(input: impl Read, count: Option<usize>, out: &mut impl Write) -> Result<usize, ListError> {
    let mut reader = PcapNgReader::new(input).map_err(ListError::Format)?;
    let mut block = 0;
    let mut n = 0;
    while count.is_none_or(|c| n < c) {
        let Some(b) = reader.next_block() else { break };
        block += 1;
        let b = b.map_err(|source| ListError::Block { block, source })?;
        let Block::EnhancedPacket(p) = b else {
            continue;
        };
        n += 1;
        let mut flags = 0;
        let mut comment = None;
        for o in &p.options {
            match o {
                EnhancedPacketOption::Flags(f) => flags = *f,
                EnhancedPacketOption::Comment(c) => comment = Some(c.to_string()),
                _ => {}
            }
        }
        let line = line(
            n,
            p.timestamp.as_nanos(),
            &p.data,
            p.original_len,
            flags,
            comment.as_deref(),
        );
        writeln!(out, "{line}")?;
    }
    Ok(n)
}

/// The listing line of frame `n` (from 1) at `t_ns`, with its captured bytes `data`.
pub fn line(
    n: usize,
    t_ns: u128,
    data: &[u8],
    original_len: u32,
    flags: u32,
    comment: Option<&str>,
) -> String {
    let secs = t_ns / 1_000_000_000;
    let frac = t_ns % 1_000_000_000;
    let length = if data.len() as u32 == original_len {
        format!("{original_len}")
    } else {
        format!("{}/{original_len}", data.len())
    };
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
    let mut s = format!("{n:>5} {secs:>3}.{frac:09} {src:>17} → {dst:<17} {kind:>6} {length:>9}  {info}");
    if flags & EPB_FLAG_CRC_ERROR != 0 {
        s.push_str(" [CRC error]");
    }
    if flags & EPB_FLAG_TOO_SHORT != 0 {
        s.push_str(" [too short]");
    }
    if let Some(c) = comment {
        s.push_str(" # ");
        s.push_str(c);
    }
    s
}

fn mac(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect::<Vec<_>>().join(":")
}

fn be16(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([b[at], b[at + 1]])
}

fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// The Info column for EtherType (or 802.3 length) `ty` and the bytes after the header.
fn info(ty: u16, d: &[u8]) -> String {
    match ty {
        ETHERTYPE_NOS => nos(d),
        ETHERTYPE_IPV4 => ipv4(d),
        ETHERTYPE_SATURATE => format!("saturate payload, {} bytes with FCS", d.len()),
        0..=1500 => format!("802.3 length {ty}"),
        _ => format!("EtherType 0x{ty:04x}, not decoded"),
    }
}

/// The NetBIOS session header of README's "Frame layout".
fn nos(d: &[u8]) -> String {
    if d.len() < 10 {
        return "NetBIOS, header cut short".into();
    }
    let kind = match d[0] {
        0 => "request",
        1 => "response",
        2 => "ack",
        3 => "nak",
        _ => "unknown kind",
    };
    let mut s = format!(
        "NetBIOS {kind} msg={} seq={} value={}",
        be16(d, 2),
        be16(d, 4),
        be32(d, 6)
    );
    if d[1] & 1 != 0 {
        s.push_str(" last");
    }
    if d[1] & 2 != 0 {
        s.push_str(" +ack");
    }
    s
}

/// IPv4 (no options) and, in a first or only fragment, its TCP header.
fn ipv4(d: &[u8]) -> String {
    if d.len() < 20 {
        return "IPv4, header cut short".into();
    }
    let (src, dst) = (&d[12..16], &d[16..20]);
    let ip = |a: &[u8]| format!("{}.{}.{}.{}", a[0], a[1], a[2], a[3]);
    let total = be16(d, 2) as usize;
    let frag = be16(d, 6);
    let (more, offset) = (frag & 0x2000 != 0, (frag & 0x1fff) as usize * 8);
    let frag_note = match (more, offset) {
        (false, 0) => String::new(),
        _ => format!(
            " [fragment offset={offset}{}]",
            if more { ", more follow" } else { ", last" }
        ),
    };
    if d[9] != 6 || offset > 0 || d.len() < 40 {
        let proto = if d[9] == 6 { "TCP" } else { "protocol" };
        return format!(
            "IPv4 {} → {} {proto} {} bytes{frag_note}",
            ip(src),
            ip(dst),
            total.saturating_sub(20)
        );
    }
    let t = &d[20..];
    let (sport, dport) = (be16(t, 0), be16(t, 2));
    let (seq, ack, win) = (be32(t, 4), be32(t, 8), be16(t, 14));
    let fl = t[13];
    let names: Vec<&str> = [
        (0x01, "FIN"),
        (0x02, "SYN"),
        (0x04, "RST"),
        (0x08, "PSH"),
        (0x10, "ACK"),
    ]
    .iter()
    .filter(|(b, _)| fl & b != 0)
    .map(|(_, n)| *n)
    .collect();
    // the sender's and the receiver's documented initial sequence numbers, by address
    let node = |a: &[u8]| (a[3] as usize).checked_sub(1).filter(|n| *n < 2);
    let rel = |x: u32, a: &[u8]| match node(a) {
        Some(n) => x.wrapping_sub(TCP_ISN[n]),
        None => x,
    };
    // the TCP payload in this datagram (of a first fragment: in this fragment only)
    let len = total.saturating_sub(40);
    format!(
        "TCP {}:{sport} → {}:{dport} [{}] Seq={} Ack={} Win={win} Len={len}{frag_note}",
        ip(src),
        ip(dst),
        names.join(", "),
        rel(seq, src),
        rel(ack, dst),
    )
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
