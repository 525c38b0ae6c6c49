//! The bytes of a frame as it went on the wire: Ethernet header, the upper layers'
//! headers, a payload pattern and the FCS. Lengths are the model's, exactly.
//!
//! Owns the on-the-wire layout of everything the simulator sends (documented in README,
//! "Frame layout"):
//! - **Addresses.** Station `s` has the locally administered MAC address
//!   `02:00:5e:10:HH:LL` (`HHLL` = `s`, big-endian); IPv4 address `10.0.HH.LL+1`.
//! - **Saturate frames** ([`Content::Opaque`]): EtherType 0x88B6 (IEEE local experimental
//!   2), then the payload pattern.
//! - **NetBIOS packets** ([`Content::Nos`]): EtherType 0x88B5 (IEEE local experimental
//!   1), then the session header: kind (0 request, 1 response, 2 ack, 3 nak), flags (bit
//!   0 last packet, bit 1 piggybacked ack), message id (u16), sequence (u16), value
//!   (u32), all big-endian, zero-filled to the model's header size; then the payload.
//! - **TCP segments** ([`Content::Tcp`]): EtherType 0x0800, IPv4 (RFC 791, no options,
//!   TTL 64, identification from the segment's sequence, fragments with MF and their
//!   offset) and TCP (RFC 793, no options, ACK always set, PSH on data, FIN), with the
//!   real sequence, acknowledgement and window (clamped to 65535) and correct checksums.
//!   Node 0 uses port 1025 and node 1 port 5001 (ttcp's). Sequence numbers start at
//!   0x10000000 (node 0) and 0x20000000 (node 1).
//! - **Payload pattern:** byte `i` of the payload is `i mod 256` (TCP: the sequence
//!   number's low byte, so a retransmission repeats its bytes).
//! - **Padding and FCS:** frames under 64 bytes are padded with zeros; the last 4 bytes
//!   are the CRC-32 FCS (802.3 3.2.9), inverted for a frame damaged on the wire.

use crate::ether::Frame;
use crate::lan::observe::Content;
use crate::nos::packet::PacketKind;
use crate::tcp::segment::{IP_HEADER_BYTES, TCP_HEADER_BYTES};

/// EtherType of NetBIOS session packets (IEEE 802 local experimental EtherType 1).
pub const ETHERTYPE_NOS: u16 = 0x88B5;
/// EtherType of saturate frames (IEEE 802 local experimental EtherType 2).
pub const ETHERTYPE_SATURATE: u16 = 0x88B6;
/// EtherType of IPv4 (RFC 894).
pub const ETHERTYPE_IPV4: u16 = 0x0800;
/// TCP ports of node 0 and node 1.
pub const TCP_PORTS: [u16; 2] = [1025, 5001];
/// Initial sequence numbers of node 0 and node 1.
pub const TCP_ISN: [u32; 2] = [0x1000_0000, 0x2000_0000];

const ETH_HEADER_BYTES: usize = 14;
const FCS_BYTES: usize = 4;

/// The MAC address of station `s`.
pub fn mac_address(s: usize) -> [u8; 6] {
    [0x02, 0x00, 0x5e, 0x10, (s >> 8) as u8, s as u8]
}

/// The IPv4 address of station `s`.
pub fn ipv4_address(s: usize) -> [u8; 4] {
    [10, 0, (s >> 8) as u8, (s as u8).wrapping_add(1)]
}

/// The frame's bytes, header to FCS, padded: `frame.wire_bytes()` long. `damaged`
/// inverts the FCS.
pub fn frame_bytes(frame: &Frame, content: &Content, damaged: bool) -> Vec<u8> {
    let len = frame.wire_bytes() as usize;
    let mut b = Vec::with_capacity(len);
    b.extend_from_slice(&mac_address(frame.dst));
    b.extend_from_slice(&mac_address(frame.src));
    let data_len = (frame.bytes as usize).saturating_sub(ETH_HEADER_BYTES + FCS_BYTES);
    match content {
        Content::Opaque => {
            b.extend_from_slice(&ETHERTYPE_SATURATE.to_be_bytes());
            b.extend((0..data_len).map(|i| i as u8));
        }
        Content::Nos { packet, header_bytes } => {
            b.extend_from_slice(&ETHERTYPE_NOS.to_be_bytes());
            let mut h = Vec::with_capacity(*header_bytes as usize);
            h.push(match packet.kind {
                PacketKind::Request => 0,
                PacketKind::Response => 1,
                PacketKind::Ack => 2,
                PacketKind::Nak => 3,
            });
            h.push(packet.last as u8 | (packet.acks as u8) << 1);
            h.extend_from_slice(&packet.msg.to_be_bytes());
            h.extend_from_slice(&packet.seq.to_be_bytes());
            h.extend_from_slice(&packet.value.to_be_bytes());
            h.resize(*header_bytes as usize, 0);
            let h = &h[..(*header_bytes as usize).min(data_len)];
            b.extend_from_slice(h);
            b.extend((0..data_len - h.len()).map(|i| i as u8));
        }
        Content::Tcp {
            seg,
            piece,
            offset,
            last,
        } => {
            b.extend_from_slice(&ETHERTYPE_IPV4.to_be_bytes());
            let ip = ip_datagram(frame.src, frame.dst, seg, piece.ip_bytes, *offset, *last);
            b.extend_from_slice(&ip[..ip.len().min(data_len)]);
            b.resize(ETH_HEADER_BYTES + data_len, 0);
        }
    }
    b.resize(len - FCS_BYTES, 0);
    let mut fcs = crc32(&b);
    if damaged {
        fcs = !fcs;
    }
    b.extend_from_slice(&fcs.to_le_bytes());
    debug_assert_eq!(b.len(), len);
    b
}

/// The IPv4 datagram (or fragment of `ip_bytes` bytes at `offset` bytes into the TCP
/// segment) carrying `seg` from node `src` to node `dst`.
fn ip_datagram(
    src: usize,
    dst: usize,
    seg: &crate::tcp::Segment,
    ip_bytes: u32,
    offset: u32,
    last: bool,
) -> Vec<u8> {
    let tcp = tcp_segment(src, dst, seg);
    let part_len = (ip_bytes - IP_HEADER_BYTES) as usize;
    let off = offset as usize;
    let part = &tcp[off.min(tcp.len())..(off + part_len).min(tcp.len())];
    let mut h = [0u8; IP_HEADER_BYTES as usize];
    h[0] = 0x45;
    h[2..4].copy_from_slice(&(ip_bytes as u16).to_be_bytes());
    h[4..6].copy_from_slice(&(seg.seq as u16).to_be_bytes());
    let frag = (offset / 8) as u16 | if last { 0 } else { 0x2000 };
    h[6..8].copy_from_slice(&frag.to_be_bytes());
    h[8] = 64;
    h[9] = 6;
    h[12..16].copy_from_slice(&ipv4_address(src));
    h[16..20].copy_from_slice(&ipv4_address(dst));
    let c = !fold(sum16(&h, 0));
    h[10..12].copy_from_slice(&c.to_be_bytes());
    let mut out = h.to_vec();
    out.extend_from_slice(part);
    out
}

/// The whole TCP segment (header and payload) with its checksum.
fn tcp_segment(src: usize, dst: usize, seg: &crate::tcp::Segment) -> Vec<u8> {
    let (s, d) = (src.min(1), dst.min(1));
    let mut t = vec![0u8; TCP_HEADER_BYTES as usize];
    t[0..2].copy_from_slice(&TCP_PORTS[s].to_be_bytes());
    t[2..4].copy_from_slice(&TCP_PORTS[d].to_be_bytes());
    let seq = TCP_ISN[s].wrapping_add(seg.seq as u32);
    let ack = TCP_ISN[d].wrapping_add(seg.ack as u32);
    t[4..8].copy_from_slice(&seq.to_be_bytes());
    t[8..12].copy_from_slice(&ack.to_be_bytes());
    t[12] = 5 << 4;
    t[13] = 0x10 | if seg.len > 0 { 0x08 } else { 0 } | seg.fin as u8;
    t[14..16].copy_from_slice(&(seg.window.min(65_535) as u16).to_be_bytes());
    t.extend((0..seg.len as u64).map(|i| (seg.seq + i) as u8));
    let mut pseudo = Vec::with_capacity(12);
    pseudo.extend_from_slice(&ipv4_address(src));
    pseudo.extend_from_slice(&ipv4_address(dst));
    pseudo.extend_from_slice(&[0, 6]);
    pseudo.extend_from_slice(&(t.len() as u16).to_be_bytes());
    let c = !fold(sum16(&t, sum16(&pseudo, 0)));
    t[16..18].copy_from_slice(&c.to_be_bytes());
    t
}

/// One's-complement sum of 16-bit big-endian words (RFC 1071), unfolded.
fn sum16(data: &[u8], mut acc: u64) -> u64 {
    let mut chunks = data.chunks_exact(2);
    for c in &mut chunks {
        acc += u16::from_be_bytes([c[0], c[1]]) as u64;
    }
    if let [x] = chunks.remainder() {
        acc += (*x as u64) << 8;
    }
    acc
}

fn fold(mut acc: u64) -> u16 {
    while acc > 0xFFFF {
        acc = (acc & 0xFFFF) + (acc >> 16);
    }
    acc as u16
}

/// Verifies an Internet checksum (RFC 1071): the sum over the data, the checksum field
/// included, is all ones.
pub fn checksum_ok(data: &[u8], pseudo_sum: u64) -> bool {
    fold(sum16(data, pseudo_sum)) == 0xFFFF
}

/// CRC-32 of 802.3 (reflected polynomial 0xEDB88320), as transmitted little-endian.
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &byte in data {
        crc ^= byte as u32;
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
        }
    }
    !crc
}

/// Sum of the TCP pseudo-header of a datagram from `src` to `dst` of `tcp_len` bytes.
pub fn pseudo_header_sum(src: [u8; 4], dst: [u8; 4], tcp_len: u16) -> u64 {
    let mut p = Vec::with_capacity(12);
    p.extend_from_slice(&src);
    p.extend_from_slice(&dst);
    p.extend_from_slice(&[0, 6]);
    p.extend_from_slice(&tcp_len.to_be_bytes());
    sum16(&p, 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::{Interface, Segment};

    #[test]
    fn test_crc32_check_value() {
        // the standard check value of CRC-32 over "123456789"
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn test_tcp_frame_checksums_verify() {
        let seg = Segment {
            seq: 1436,
            len: 1436,
            ack: 1,
            window: 8192,
            fin: false,
        };
        let piece = Interface::ethernet().pieces(&seg)[0];
        let f = Frame {
            src: 0,
            dst: 1,
            bytes: piece.frame_bytes,
            tag: 7,
            pad: 0,
        };
        let content = Content::Tcp {
            seg,
            piece,
            offset: 0,
            last: true,
        };
        let b = frame_bytes(&f, &content, false);
        assert_eq!(b.len(), 1494);
        assert_eq!(&b[12..14], &[0x08, 0x00]);
        let ip = &b[14..14 + 20];
        assert!(checksum_ok(ip, 0), "IPv4 header checksum");
        let tcp = &b[34..b.len() - 4];
        let ps = pseudo_header_sum(ipv4_address(0), ipv4_address(1), tcp.len() as u16);
        assert!(checksum_ok(tcp, ps), "TCP checksum");
        assert_eq!(crc32(&b[..b.len() - 4]).to_le_bytes(), b[b.len() - 4..]);
    }

    #[test]
    fn test_short_frame_is_padded_to_64() {
        let f = Frame {
            src: 2,
            dst: 3,
            bytes: 58,
            tag: 0,
            pad: 0,
        };
        let b = frame_bytes(&f, &Content::Opaque, true);
        assert_eq!(b.len(), 64);
        assert_ne!(crc32(&b[..60]).to_le_bytes(), b[60..], "damaged: FCS inverted");
    }
}
