//! The Ethernet decoders of the listing: the Info column of a LINKTYPE_ETHERNET frame in
//! the layout [`crate::lan::instruments::bytes`] writes (NetBIOS session header, IPv4 and
//! TCP headers, saturate payload). Every field is printed from numbers, never from text in
//! the frame, so nothing here can reach the terminal unescaped. Bounds: each decoder reads
//! only the bytes its length checks allow.

use crate::lan::instruments::bytes::{ETHERTYPE_IPV4, ETHERTYPE_NOS, ETHERTYPE_SATURATE, TCP_ISN};

pub(super) fn mac(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect::<Vec<_>>().join(":")
}

fn be16(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([b[at], b[at + 1]])
}

fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// The Info column for EtherType (or 802.3 length) `ty` and the bytes after the header.
pub(super) fn info(ty: u16, d: &[u8]) -> String {
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
