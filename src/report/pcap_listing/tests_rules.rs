//! Captures built by hand, byte by byte (little-endian sections, pcapng spec sections 4.1
//! to 4.3), for the rules of the listing: link types, `if_tsresol`, undefined interfaces,
//! escaped comments, legacy pcap and hostile lengths. They drive [`super::list`] only.

use super::list;

/// A pcapng block of type `ty` around `body` (padded to 32 bits).
fn block(ty: u32, body: &[u8]) -> Vec<u8> {
    let mut body = body.to_vec();
    while !body.len().is_multiple_of(4) {
        body.push(0);
    }
    let len = (body.len() + 12) as u32;
    let mut b = Vec::new();
    b.extend(ty.to_le_bytes());
    b.extend(len.to_le_bytes());
    b.extend(body);
    b.extend(len.to_le_bytes());
    b
}

/// Options `(code, value)` and the end-of-options marker.
fn options(opts: &[(u16, &[u8])]) -> Vec<u8> {
    let mut b = Vec::new();
    for (code, v) in opts {
        b.extend(code.to_le_bytes());
        b.extend((v.len() as u16).to_le_bytes());
        b.extend(*v);
        while !b.len().is_multiple_of(4) {
            b.push(0);
        }
    }
    if !opts.is_empty() {
        b.extend([0; 4]);
    }
    b
}

fn shb() -> Vec<u8> {
    let mut body = Vec::new();
    body.extend(0x1A2B_3C4Du32.to_le_bytes());
    body.extend(1u16.to_le_bytes());
    body.extend(0u16.to_le_bytes());
    body.extend((-1i64).to_le_bytes());
    block(0x0A0D_0D0A, &body)
}

/// An Interface Description Block of `linktype`, with `if_tsresol` if given.
fn idb(linktype: u16, tsresol: Option<u8>) -> Vec<u8> {
    let mut body = Vec::new();
    body.extend(linktype.to_le_bytes());
    body.extend(0u16.to_le_bytes());
    body.extend(0xFFFFu32.to_le_bytes());
    if let Some(r) = tsresol {
        body.extend(options(&[(9, &[r])]));
    }
    block(1, &body)
}

/// An Enhanced Packet Block on `iface` at raw timestamp `ts`, with a comment if given.
fn epb(iface: u32, ts: u64, data: &[u8], comment: Option<&str>) -> Vec<u8> {
    let mut body = Vec::new();
    body.extend(iface.to_le_bytes());
    body.extend(((ts >> 32) as u32).to_le_bytes());
    body.extend((ts as u32).to_le_bytes());
    body.extend((data.len() as u32).to_le_bytes());
    body.extend((data.len() as u32).to_le_bytes());
    body.extend(data);
    while !body.len().is_multiple_of(4) {
        body.push(0);
    }
    if let Some(c) = comment {
        body.extend(options(&[(1, c.as_bytes())]));
    }
    block(6, &body)
}

/// An Ethernet frame from 02:00:5e:10:00:01 to 02:00:5e:10:00:00, EtherType 0x0800.
fn ether_frame() -> Vec<u8> {
    let mut f = vec![
        0x02, 0x00, 0x5e, 0x10, 0x00, 0x00, 0x02, 0x00, 0x5e, 0x10, 0x00, 0x01, 0x08, 0x00,
    ];
    f.extend(ipv4_packet());
    f
}

/// The first bytes of an IPv4 datagram (version 4, header length 20).
fn ipv4_packet() -> Vec<u8> {
    let mut p = vec![
        0x45, 0x00, 0x00, 0x28, 0x1c, 0x46, 0x40, 0x00, 0x40, 0x06, 0xb1, 0xe6,
    ];
    p.extend([10, 0, 0, 1, 10, 0, 0, 2]);
    p.extend([0; 20]);
    p
}

fn listing(bytes: &[u8]) -> (Result<usize, String>, String) {
    let mut out = Vec::new();
    let r = list(bytes, None, &mut out).map_err(|e| e.to_string());
    (r, String::from_utf8(out).expect("utf-8"))
}

fn capture(blocks: &[Vec<u8>]) -> Vec<u8> {
    let mut b = shb();
    for x in blocks {
        b.extend(x);
    }
    b
}

#[test]
fn test_list_raw_ip_interface_not_decoded_as_ethernet() {
    let c = capture(&[idb(101, Some(9)), epb(0, 0, &ipv4_packet(), None)]);
    let (r, out) = listing(&c);
    assert_eq!(r, Ok(1), "{out}");
    assert!(out.contains("[RAW]"), "{out}");
    assert!(out.contains("45 00 00 28 1c 46"), "the first bytes in hex: {out}");
    assert!(!out.contains('→'), "not decoded as Ethernet: {out}");
}

#[test]
fn test_list_unnamed_link_type_by_number() {
    let c = capture(&[idb(147, Some(9)), epb(0, 0, &[1, 2, 3], None)]);
    let (r, out) = listing(&c);
    assert_eq!(r, Ok(1), "{out}");
    assert!(out.contains("[linktype 147]"), "{out}");
    assert!(out.contains("01 02 03"), "{out}");
}

#[test]
fn test_list_raw_bytes_bounded() {
    let data = vec![0xab; 1500];
    let c = capture(&[idb(105, Some(9)), epb(0, 0, &data, None)]);
    let (r, out) = listing(&c);
    assert_eq!(r, Ok(1), "{out}");
    assert!(out.contains("[IEEE802_11]"), "{out}");
    assert!(out.len() < 200, "{} bytes: {out}", out.len());
    assert!(out.contains("1500"), "the length: {out}");
}

#[test]
fn test_list_tsresol_milliseconds() {
    let c = capture(&[idb(1, Some(3)), epb(0, 1500, &ether_frame(), None)]);
    let (r, out) = listing(&c);
    assert_eq!(r, Ok(1), "{out}");
    assert!(out.contains("  1.500000000 "), "{out}");
}

#[test]
fn test_list_tsresol_power_of_two() {
    // 0x80 | 10: units of 2^-10 s; 1536 units = 1.5 s
    let c = capture(&[idb(1, Some(0x80 | 10)), epb(0, 1536, &ether_frame(), None)]);
    let (r, out) = listing(&c);
    assert_eq!(r, Ok(1), "{out}");
    assert!(out.contains("  1.500000000 "), "{out}");
}

#[test]
fn test_list_tsresol_absent_is_microseconds() {
    let c = capture(&[idb(1, None), epb(0, 2_500_001, &ether_frame(), None)]);
    let (r, out) = listing(&c);
    assert_eq!(r, Ok(1), "{out}");
    assert!(out.contains("  2.500001000 "), "{out}");
    assert!(out.contains("02:00:5e:10:00:01 → 02:00:5e:10:00:00"), "{out}");
}

#[test]
fn test_list_tsresol_per_interface() {
    let c = capture(&[
        idb(1, Some(9)),
        idb(1, Some(6)),
        epb(0, 7, &ether_frame(), None),
        epb(1, 7, &ether_frame(), None),
    ]);
    let (r, out) = listing(&c);
    assert_eq!(r, Ok(2), "{out}");
    let l: Vec<&str> = out.lines().collect();
    assert!(l[0].contains("  0.000000007 "), "{out}");
    assert!(l[1].contains("  0.000007000 "), "{out}");
}

#[test]
fn test_list_undefined_interface_not_decoded() {
    let c = capture(&[idb(1, Some(9)), epb(5, 0, &ether_frame(), None)]);
    let (r, out) = listing(&c);
    assert_eq!(r, Ok(1), "{out}");
    assert!(out.contains("[unknown interface 5]"), "{out}");
    assert!(!out.contains('→'), "not decoded as Ethernet: {out}");
}

#[test]
fn test_list_new_section_forgets_interfaces() {
    let mut c = capture(&[idb(1, Some(9)), epb(0, 0, &ether_frame(), None)]);
    c.extend(shb());
    c.extend(epb(0, 0, &ether_frame(), None));
    let (r, out) = listing(&c);
    assert_eq!(r, Ok(2), "{out}");
    assert!(
        out.lines()
            .nth(1)
            .is_some_and(|l| l.contains("[unknown interface 0]")),
        "{out}"
    );
}

#[test]
fn test_list_comment_escaped() {
    let evil = "\x1b]0;pwned\x07\x1b[2J";
    let c = capture(&[idb(1, Some(9)), epb(0, 0, &ether_frame(), Some(evil))]);
    let (r, out) = listing(&c);
    assert_eq!(r, Ok(1), "{out}");
    assert!(
        out.chars().all(|c| c == '\n' || !c.is_control()),
        "no control characters: {out:?}"
    );
    assert!(out.contains(r"# \u{1b}]0;pwned\u{7}\u{1b}[2J"), "{out}");
}

#[test]
fn test_list_comment_bounded() {
    let long = "x".repeat(5000);
    let c = capture(&[idb(1, Some(9)), epb(0, 0, &ether_frame(), Some(&long))]);
    let (r, out) = listing(&c);
    assert_eq!(r, Ok(1), "{out}");
    assert!(
        out.trim_end().ends_with(&format!("# {}…", "x".repeat(200))),
        "{out}"
    );
}

#[test]
fn test_list_legacy_pcap() {
    // microsecond magic, version 2.4, snaplen 65535, LINKTYPE_ETHERNET
    let mut c = Vec::new();
    c.extend(0xa1b2_c3d4u32.to_le_bytes());
    c.extend(2u16.to_le_bytes());
    c.extend(4u16.to_le_bytes());
    c.extend([0; 8]);
    c.extend(65535u32.to_le_bytes());
    c.extend(1u32.to_le_bytes());
    let f = ether_frame();
    c.extend(3u32.to_le_bytes());
    c.extend(250_000u32.to_le_bytes());
    c.extend((f.len() as u32).to_le_bytes());
    c.extend(1514u32.to_le_bytes());
    c.extend(&f);
    let (r, out) = listing(&c);
    assert_eq!(r, Ok(1), "{out}");
    assert!(out.contains("  3.250000000 "), "{out}");
    assert!(out.contains("02:00:5e:10:00:01 → 02:00:5e:10:00:00"), "{out}");
    assert!(out.contains(&format!("{}/1514", f.len())), "{out}");
}

#[test]
fn test_list_not_a_capture_named() {
    let (r, _) = listing(b"[scenario]\nname = 1\n");
    let e = r.expect_err("not a capture");
    assert!(e.contains("not a pcapng capture"), "{e}");
    assert!(e.contains("5b 73 63 65"), "the first bytes: {e}");
}

#[test]
fn test_list_hostile_block_length_refused() {
    // an EPB claiming 4 GiB less 16 bytes, in a capture of a few dozen bytes
    let mut c = capture(&[idb(1, Some(9))]);
    c.extend(6u32.to_le_bytes());
    c.extend(0xFFFF_FFF0u32.to_le_bytes());
    c.extend([0; 24]);
    let (r, _) = listing(&c);
    let e = r.expect_err("refused");
    assert!(e.contains("4294967280 bytes"), "{e}");
    assert!(e.contains("block 3"), "{e}");
}

#[test]
fn test_list_too_many_interfaces_refused() {
    let one = idb(1, None);
    let mut c = shb();
    for _ in 0..=super::MAX_INTERFACES {
        c.extend(&one);
    }
    let (r, _) = listing(&c);
    let e = r.expect_err("refused");
    assert!(e.contains("interfaces"), "{e}");
}
