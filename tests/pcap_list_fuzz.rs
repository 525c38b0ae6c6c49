//! `pcap-list` on arbitrary bytes and on mutated valid captures: the listing never panics,
//! its output is bounded (lines and bytes per input byte, bytes per line) and holds no
//! control character other than the newline ending each line.

use std::borrow::Cow;
use std::time::Duration;

use ethersim::report::pcap_listing::list;
use pcap_file::pcapng::blocks::enhanced_packet::{EnhancedPacketBlock, EnhancedPacketOption};
use pcap_file::pcapng::blocks::interface_description::{
    InterfaceDescriptionBlock, InterfaceDescriptionOption,
};
use pcap_file::pcapng::PcapNgWriter;
use pcap_file::{DataLink, Endianness};
use proptest::prelude::*;

/// The longest line allowed: the fixed columns, a TCP Info column, the flags and a comment
/// of 200 characters each escaped to at most 10 bytes.
const MAX_LINE_BYTES: usize = 4096;

/// Lists `bytes` and checks the output's bounds; `Err` from the listing is fine.
fn check(bytes: &[u8], count: Option<usize>) -> Result<(), TestCaseError> {
    let mut out = Vec::new();
    let r = list(bytes, count, &mut out);
    let text = String::from_utf8(out).map_err(|e| TestCaseError::fail(format!("not UTF-8: {e}")))?;
    let lines = text.lines().count();
    prop_assert!(
        lines <= bytes.len() / 16 + 1,
        "{lines} lines of {} bytes",
        bytes.len()
    );
    if let Some(c) = count {
        prop_assert!(lines <= c, "{lines} lines, --count {c}");
    }
    if let Ok(n) = r {
        prop_assert_eq!(n, lines);
    }
    prop_assert!(text.is_empty() || text.ends_with('\n'));
    for l in text.lines() {
        prop_assert!(l.len() <= MAX_LINE_BYTES, "a line of {} bytes", l.len());
    }
    prop_assert!(
        text.len() <= (bytes.len() / 16 + 1) * MAX_LINE_BYTES,
        "{} bytes out of {} in",
        text.len(),
        bytes.len()
    );
    let bad = text.chars().find(|c| *c != '\n' && c.is_control());
    prop_assert!(bad.is_none(), "control character {:?} in {:?}", bad, text);
    Ok(())
}

/// A packet of a generated capture: interface id, raw timestamp, bytes, flags, comment.
type Pkt = (u32, u64, Vec<u8>, Option<u32>, Option<String>);

/// A valid pcapng capture, written with pcap-file in byte order `big` or little:
/// interfaces `(linktype, if_tsresol)`, then the packets (on defined interfaces or not).
fn capture(big: bool, ifaces: &[(u16, Option<u8>)], packets: &[Pkt]) -> Vec<u8> {
    let order = if big { Endianness::Big } else { Endianness::Little };
    let mut w = PcapNgWriter::with_endianness(Vec::new(), order).expect("a section header");
    for (lt, res) in ifaces {
        let options = res
            .map(InterfaceDescriptionOption::IfTsResol)
            .into_iter()
            .collect();
        w.write_pcapng_block(InterfaceDescriptionBlock {
            linktype: DataLink::from(u32::from(*lt)),
            snaplen: 0xFFFF,
            options,
        })
        .expect("an interface");
    }
    let mut out = w.into_inner();
    for (iface, ts, data, flags, comment) in packets {
        let mut options = Vec::new();
        if let Some(f) = flags {
            options.push(EnhancedPacketOption::Flags(*f));
        }
        if let Some(c) = comment {
            options.push(EnhancedPacketOption::Comment(Cow::Owned(c.clone())));
        }
        // pcap-file's writer refuses an interface id it has not seen: write the block
        // after enough interfaces of a scratch capture and keep only its bytes
        let mut scratch = PcapNgWriter::with_endianness(Vec::new(), order).expect("a section header");
        for _ in 0..=*iface {
            scratch
                .write_pcapng_block(InterfaceDescriptionBlock::new(DataLink::ETHERNET, 0xFFFF))
                .expect("an interface");
        }
        let from = scratch.get_ref().len();
        scratch
            .write_pcapng_block(EnhancedPacketBlock {
                interface_id: *iface,
                timestamp: Duration::from_nanos(*ts),
                original_len: data.len() as u32,
                data: Cow::Owned(data.clone()),
                options,
            })
            .expect("a packet");
        out.extend(&scratch.get_ref()[from..]);
    }
    out
}

fn iface() -> impl Strategy<Value = (u16, Option<u8>)> {
    (
        prop_oneof![Just(1u16), Just(101), Just(105), Just(228), any::<u16>()],
        proptest::option::of(any::<u8>()),
    )
}

fn packet() -> impl Strategy<Value = Pkt> {
    (
        0u32..4,
        any::<u64>(),
        proptest::collection::vec(any::<u8>(), 0..120),
        proptest::option::of(any::<u32>()),
        // any characters, controls and bidirectional overrides among them
        proptest::option::of(prop_oneof![
            any::<String>(),
            Just("\x1b]0;pwned\x07\x1b[2J".to_string()),
            "[\\x00-\\x1f\\x7f-\\x9f\u{202e}a-z]{0,300}",
        ]),
    )
}

/// A change to a capture's bytes.
#[derive(Clone, Debug)]
enum Mutation {
    Flip {
        at: usize,
        xor: u8,
    },
    Truncate {
        at: usize,
    },
    /// A 32-bit word (block length, captured length, interface id...) set to `value`.
    Word {
        at: usize,
        value: u32,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1u8..=255).prop_map(|(at, xor)| Mutation::Flip { at, xor }),
        any::<usize>().prop_map(|at| Mutation::Truncate { at }),
        (
            any::<usize>(),
            prop_oneof![
                Just(0u32),
                Just(12),
                Just(0xFFFF_FFF0),
                Just(u32::MAX),
                any::<u32>()
            ]
        )
            .prop_map(|(at, value)| Mutation::Word { at, value }),
    ]
}

fn mutate(mut b: Vec<u8>, ms: &[Mutation]) -> Vec<u8> {
    for m in ms {
        if b.is_empty() {
            break;
        }
        match *m {
            Mutation::Flip { at, xor } => {
                let i = at % b.len();
                b[i] ^= xor;
            }
            Mutation::Truncate { at } => b.truncate(at % b.len()),
            Mutation::Word { at, value } => {
                let i = (at % b.len()) & !3;
                for (k, x) in value.to_le_bytes().into_iter().enumerate() {
                    if let Some(y) = b.get_mut(i + k) {
                        *y = x;
                    }
                }
            }
        }
    }
    b
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// Arbitrary bytes, alone or after the magic number of a pcapng section or of a legacy
    /// pcap file (either byte order, either resolution): a file that starts as a capture
    /// is read as one, so an error then names the block, not the format.
    #[test]
    fn test_pcap_list_arbitrary_bytes(
        head in prop_oneof![
            Just(vec![]),
            Just(vec![0x0a, 0x0d, 0x0d, 0x0a]),
            Just(vec![0x0a, 0x0d, 0x0d, 0x0a, 0x1c, 0, 0, 0, 0x4d, 0x3c, 0x2b, 0x1a]),
            Just(vec![0xd4, 0xc3, 0xb2, 0xa1]),
            Just(vec![0xa1, 0xb2, 0x3c, 0x4d]),
        ],
        tail in proptest::collection::vec(any::<u8>(), 0..2048),
    ) {
        let magic = !head.is_empty();
        let mut b = head;
        b.extend(tail);
        check(&b, None)?;
        if magic && b.len() >= 24 {
            let mut out = Vec::new();
            if let Err(e) = list(&b[..], None, &mut out) {
                let e = e.to_string();
                prop_assert!(!e.contains("not a pcapng capture"), "{}", e);
            }
        }
    }

    /// Valid captures of either byte order are listed whole: one line per packet.
    #[test]
    fn test_pcap_list_valid_captures(
        big in any::<bool>(),
        ifaces in proptest::collection::vec(iface(), 0..3),
        packets in proptest::collection::vec(packet(), 0..8),
        count in proptest::option::of(0usize..4),
    ) {
        let c = capture(big, &ifaces, &packets);
        check(&c, count)?;
        let mut out = Vec::new();
        let n = list(&c[..], count, &mut out).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(n, count.map_or(packets.len(), |c| c.min(packets.len())));
    }

    #[test]
    fn test_pcap_list_mutated_captures(
        big in any::<bool>(),
        ifaces in proptest::collection::vec(iface(), 1..3),
        packets in proptest::collection::vec(packet(), 1..6),
        ms in proptest::collection::vec(mutation(), 1..4),
    ) {
        check(&mutate(capture(big, &ifaces, &packets), &ms), None)?;
    }
}
