//! Bounded reading of a capture: pcapng (draft-ietf-opsawg-pcapng) or legacy pcap
//! (draft-ietf-opsawg-pcap), one packet at a time.
//!
//! This module frames the blocks itself and hands each Interface Description and Enhanced
//! Packet Block to the pcap-file crate to decode; other block kinds are skipped unread.
//! (pcap-file's own reader keeps every interface of a section, whole, without a limit.)
//! Legacy pcap records are read here too: pcap-file's parser refuses a record whose
//! original length exceeds the snap length, which is what a capture with a short snap
//! length is made of. It owns the section's interface table (link type and timestamp
//! resolution per interface id) and the conversion of raw timestamps to nanoseconds;
//! `if_tsoffset` is not applied.
//!
//! Invariants, whatever the bytes:
//! - a block or record longer than [`MAX_BLOCK_BYTES`], or longer than what is left of the
//!   input when its size is known, is refused before any of it is read, so the one buffer
//!   holds at most [`MAX_BLOCK_BYTES`] (when the size is unknown, no more than twice the
//!   bytes actually read) and pcap-file's decoding of it about ten times that;
//! - the interface table holds at most [`MAX_INTERFACES`] entries of a few bytes each;
//! - nothing panics: every length is checked before it is used.
//!
//! Units: raw timestamps are in the interface's units (`if_tsresol`, default 10^-6 s);
//! [`Packet::t_ns`] is in nanoseconds since 1970 (ethersim's own captures: since the run's
//! start), truncated.

use std::borrow::Cow;
use std::io::Read;

use pcap_file::pcapng::blocks::enhanced_packet::EnhancedPacketOption;
use pcap_file::pcapng::blocks::interface_description::InterfaceDescriptionOption;
use pcap_file::pcapng::{Block, PcapNgParser};

use super::ListError;

/// The longest block (pcapng) or record (pcap) read, in bytes: 4 times libpcap's largest
/// snap length (262144 bytes), room for a whole packet and its options. Kept small because
/// pcap-file decodes a block's options into a list of about 40 bytes per 4-byte option:
/// a block of this size decodes into at most about 10 MiB.
pub const MAX_BLOCK_BYTES: u32 = 1 << 20;
/// The most interfaces one pcapng section may define.
pub const MAX_INTERFACES: usize = 1 << 16;
/// `if_tsresol` when an interface has none: 10^-6 s (pcapng section 4.2, option `if_tsresol`).
pub const DEFAULT_TSRESOL: u8 = 6;
/// The LINKTYPE_ETHERNET number (tcpdump.org link-layer header types).
pub const LINKTYPE_ETHERNET: u32 = 1;

/// pcapng block types (pcapng section 11.1).
const SECTION_HEADER: u32 = 0x0A0D_0D0A;
const INTERFACE_DESCRIPTION: u32 = 1;
const ENHANCED_PACKET: u32 = 6;
/// The Byte-Order Magic of a Section Header Block, as written by its writer.
const BYTE_ORDER_MAGIC: u32 = 0x1A2B_3C4D;
/// Legacy pcap magic numbers (as read big-endian): microsecond and nanosecond timestamps,
/// and the "modified" format of Alexey Kuznetzov's patches.
const PCAP_MICRO: u32 = 0xA1B2_C3D4;
const PCAP_NANO: u32 = 0xA1B2_3C4D;
const PCAP_MODIFIED: u32 = 0xA1B2_CD34;
/// Bytes of a legacy pcap file header and of a record header.
const PCAP_HEADER_BYTES: usize = 24;
const PCAP_RECORD_BYTES: usize = 16;

/// The name of link type `n` for the listing: a few common ones by their LINKTYPE_ name,
/// any other as `linktype N`.
pub fn link_type_name(n: u32) -> Cow<'static, str> {
    let name = match n {
        0 => "NULL",
        1 => "ETHERNET",
        6 => "IEEE802_5",
        9 => "PPP",
        10 => "FDDI",
        101 => "RAW",
        105 => "IEEE802_11",
        108 => "LOOP",
        113 => "LINUX_SLL",
        127 => "IEEE802_11_RADIOTAP",
        228 => "IPV4",
        229 => "IPV6",
        276 => "LINUX_SLL2",
        _ => return Cow::Owned(format!("linktype {n}")),
    };
    Cow::Borrowed(name)
}

/// Nanoseconds (truncated) of `raw` units of an interface whose `if_tsresol` is `tsresol`:
/// units of 10^-k s, or of 2^-k s when the high bit is set (pcapng section 4.2).
pub fn ts_to_nanos(raw: u64, tsresol: u8) -> u128 {
    let raw = u128::from(raw);
    let k = u32::from(tsresol & 0x7f);
    if tsresol & 0x80 != 0 {
        // raw * 10^9 < 2^94 and k < 128: no overflow
        (raw * 1_000_000_000) >> k
    } else if k <= 9 {
        raw * 10u128.pow(9 - k)
    } else {
        // 10^38 is the largest power of ten in a u128; raw < 2^64 < 10^20
        10u128.checked_pow(k - 9).map_or(0, |d| raw / d)
    }
}

/// What a packet's bytes are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// On an interface of this link type.
    Type(u32),
    /// On an interface id the section never defined.
    UnknownInterface(u32),
}

/// One packet, borrowing the reader's buffer.
#[derive(Debug)]
pub struct Packet<'a> {
    pub link: Link,
    /// Nanoseconds since 1970 (see the module doc).
    pub t_ns: u128,
    pub data: Cow<'a, [u8]>,
    pub original_len: u32,
    /// `epb_flags` (0 when absent).
    pub flags: u32,
    /// The first `opt_comment`, unescaped.
    pub comment: Option<Cow<'a, str>>,
}

#[derive(Clone, Copy, Debug)]
struct Interface {
    linktype: u32,
    tsresol: u8,
}

enum Format {
    /// `parser` decodes blocks in the section's byte order (its own interface list is
    /// emptied after each interface: the table here is the one kept).
    Ng {
        big: bool,
        parser: PcapNgParser,
        interfaces: Vec<Interface>,
    },
    Legacy {
        big: bool,
        nanos: bool,
        linktype: u32,
    },
}

/// A capture being read, packet by packet.
pub struct Capture<R: Read> {
    input: R,
    /// Bytes read so far.
    offset: u64,
    /// The input's size in bytes, when known.
    size: Option<u64>,
    format: Format,
    buf: Vec<u8>,
    /// Blocks (or records) read so far; the next one's number is this plus one.
    blocks: usize,
}

fn u32_at(b: &[u8], at: usize, big: bool) -> u32 {
    let x = [b[at], b[at + 1], b[at + 2], b[at + 3]];
    if big {
        u32::from_be_bytes(x)
    } else {
        u32::from_le_bytes(x)
    }
}

/// A decoder of blocks in the byte order `big`: pcap-file's parser of a minimal section
/// header (pcap-file does not export its byte-order types, only this way in).
fn parser(big: bool) -> PcapNgParser {
    let words: [u32; 3] = [SECTION_HEADER, 28, BYTE_ORDER_MAGIC];
    let mut b = Vec::with_capacity(28);
    let to = |x: u32| if big { x.to_be_bytes() } else { x.to_le_bytes() };
    for w in words {
        b.extend(to(w));
    }
    b.extend(if big { [0, 1, 0, 0] } else { [1, 0, 0, 0] }); // version 1.0
    b.extend([0xff; 8]); // section length unknown
    b.extend(to(28));
    match PcapNgParser::new(&b) {
        Ok((_, p)) => p,
        Err(e) => unreachable!("a well-formed section header: {e}"),
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect::<Vec<_>>().join(" ")
}

impl<R: Read> Capture<R> {
    /// Reads the start of `input` (`size` bytes long, if known) and says which format it is.
    pub fn open(input: R, size: Option<u64>) -> Result<Self, ListError> {
        let mut c = Capture {
            input,
            offset: 0,
            size,
            format: Format::Ng {
                big: false,
                parser: parser(false),
                interfaces: Vec::new(),
            },
            buf: Vec::new(),
            blocks: 0,
        };
        c.fill(4)?;
        if c.buf.len() < 4 {
            return Err(ListError::NotCapture(format!(
                "it has {} bytes ({})",
                c.buf.len(),
                hex(&c.buf)
            )));
        }
        let magic = u32_at(&c.buf, 0, true);
        let legacy = |big, nanos| Format::Legacy {
            big,
            nanos,
            linktype: 0,
        };
        c.format = match magic {
            SECTION_HEADER => return Ok(c),
            PCAP_MICRO => legacy(true, false),
            PCAP_NANO => legacy(true, true),
            m if m.swap_bytes() == PCAP_MICRO => legacy(false, false),
            m if m.swap_bytes() == PCAP_NANO => legacy(false, true),
            m if m == PCAP_MODIFIED || m.swap_bytes() == PCAP_MODIFIED => {
                return Err(ListError::Unsupported(
                    "a modified (Kuznetzov) pcap capture".into(),
                ))
            }
            _ => return Err(ListError::NotCapture(format!("it starts with {}", hex(&c.buf)))),
        };
        c.fill(PCAP_HEADER_BYTES)?;
        if c.buf.len() < PCAP_HEADER_BYTES {
            return Err(ListError::NotCapture(format!(
                "a legacy pcap header cut short at {} bytes",
                c.buf.len()
            )));
        }
        if let Format::Legacy { big, linktype, .. } = &mut c.format {
            // the low 16 bits; the high ones may carry the FCS length (pcap section 4)
            *linktype = u32_at(&c.buf, 20, *big) & 0xffff;
        }
        c.buf.clear();
        Ok(c)
    }

    /// Reads from the input until the buffer holds `upto` bytes or the input ends.
    fn fill(&mut self, upto: usize) -> Result<(), ListError> {
        let need = upto.saturating_sub(self.buf.len()) as u64;
        let got = (&mut self.input)
            .take(need)
            .read_to_end(&mut self.buf)
            .map_err(ListError::Read)?;
        self.offset += got as u64;
        Ok(())
    }

    fn bad(&self, reason: impl Into<String>) -> ListError {
        ListError::Block {
            block: self.blocks,
            reason: reason.into(),
        }
    }

    /// Refuses a block or record of `len` bytes in all, of which `have` are read.
    fn check_len(&self, what: &str, len: u64, have: usize) -> Result<(), ListError> {
        if len > u64::from(MAX_BLOCK_BYTES) {
            return Err(self.bad(format!(
                "{what} claims {len} bytes, more than the {MAX_BLOCK_BYTES} read at most"
            )));
        }
        if let Some(size) = self.size {
            let left = size.saturating_sub(self.offset) + have as u64;
            if len > left {
                return Err(self.bad(format!(
                    "{what} claims {len} bytes but only {left} are left in the file"
                )));
            }
        }
        Ok(())
    }

    /// The next packet, or `None` at the end of the capture.
    pub fn next_packet(&mut self) -> Result<Option<Packet<'_>>, ListError> {
        match self.format {
            Format::Ng { .. } => self.next_ng(),
            Format::Legacy { .. } => self.next_legacy(),
        }
    }

    fn next_legacy(&mut self) -> Result<Option<Packet<'_>>, ListError> {
        let Format::Legacy { big, nanos, linktype } = self.format else {
            unreachable!("called on a legacy capture only")
        };
        self.buf.clear();
        self.fill(PCAP_RECORD_BYTES)?;
        if self.buf.is_empty() {
            return Ok(None);
        }
        self.blocks += 1;
        if self.buf.len() < PCAP_RECORD_BYTES {
            return Err(self.bad(format!("a record header cut short at {} bytes", self.buf.len())));
        }
        let (secs, frac) = (u32_at(&self.buf, 0, big), u32_at(&self.buf, 4, big));
        let (incl, orig) = (u32_at(&self.buf, 8, big), u32_at(&self.buf, 12, big));
        let len = PCAP_RECORD_BYTES as u64 + u64::from(incl);
        self.check_len("the record", len, PCAP_RECORD_BYTES)?;
        self.fill(len as usize)?;
        if (self.buf.len() as u64) < len {
            return Err(self.bad(format!(
                "the record claims {len} bytes but the file ends after {}",
                self.buf.len()
            )));
        }
        let frac_ns = u128::from(frac) * if nanos { 1 } else { 1000 };
        Ok(Some(Packet {
            link: Link::Type(linktype),
            t_ns: u128::from(secs) * 1_000_000_000 + frac_ns,
            data: Cow::Borrowed(&self.buf[PCAP_RECORD_BYTES..]),
            original_len: orig,
            flags: 0,
            comment: None,
        }))
    }

    /// Reads whole blocks until an Enhanced Packet Block (or the end).
    fn next_ng(&mut self) -> Result<Option<Packet<'_>>, ListError> {
        loop {
            // the first block's type was read by `open`
            if self.blocks > 0 {
                self.buf.clear();
            }
            self.fill(12)?;
            if self.buf.is_empty() {
                return Ok(None);
            }
            self.blocks += 1;
            if self.buf.len() < 12 {
                return Err(self.bad(format!(
                    "{} bytes after the last block, too few for a block",
                    self.buf.len()
                )));
            }
            let Format::Ng { big, .. } = self.format else {
                unreachable!("called on a pcapng capture only")
            };
            let ty = u32_at(&self.buf, 0, big);
            let big = if ty == SECTION_HEADER {
                // the section's byte order is that of its Byte-Order Magic
                match u32_at(&self.buf, 8, true) {
                    BYTE_ORDER_MAGIC => true,
                    m if m.swap_bytes() == BYTE_ORDER_MAGIC => false,
                    m => return Err(self.bad(format!("a section header with byte-order magic 0x{m:08x}"))),
                }
            } else {
                big
            };
            let len = u32_at(&self.buf, 4, big);
            let least = if ty == SECTION_HEADER { 28 } else { 12 };
            if !len.is_multiple_of(4) || len < least {
                return Err(self.bad(format!(
                    "block type 0x{ty:08x} has length {len} (a multiple of 4 of at least {least} expected)"
                )));
            }
            self.check_len(&format!("block type 0x{ty:08x}"), u64::from(len), 12)?;
            self.fill(len as usize)?;
            if self.buf.len() < len as usize {
                return Err(self.bad(format!(
                    "block type 0x{ty:08x} claims {len} bytes but the file ends after {}",
                    self.buf.len()
                )));
            }
            if u32_at(&self.buf, len as usize - 4, big) != len {
                return Err(self.bad("the block's trailing length differs from its length"));
            }
            match ty {
                SECTION_HEADER => {
                    self.format = Format::Ng {
                        big,
                        parser: parser(big),
                        interfaces: Vec::new(),
                    };
                }
                INTERFACE_DESCRIPTION => {
                    let i = self.interface()?;
                    let Format::Ng {
                        interfaces,
                        parser: p,
                        ..
                    } = &mut self.format
                    else {
                        unreachable!("a pcapng capture")
                    };
                    if interfaces.len() >= MAX_INTERFACES {
                        let n = interfaces.len();
                        return Err(self.bad(format!(
                            "more than {n} interfaces in one section (the most listed)"
                        )));
                    }
                    interfaces.push(i);
                    // pcap-file's parser keeps each interface it decodes: forget them
                    *p = parser(big);
                }
                ENHANCED_PACKET => return self.packet().map(Some),
                _ => {}
            }
        }
    }

    /// The block in the buffer, decoded by pcap-file.
    fn decode(&mut self) -> Result<Block<'_>, ListError> {
        let Format::Ng { parser, .. } = &mut self.format else {
            unreachable!("a pcapng capture")
        };
        match parser.next_block(&self.buf) {
            Ok((_, b)) => Ok(b),
            Err(e) => Err(ListError::Block {
                block: self.blocks,
                reason: e.to_string(),
            }),
        }
    }

    fn interface(&mut self) -> Result<Interface, ListError> {
        let block = self.blocks;
        let Block::InterfaceDescription(idb) = self.decode()? else {
            return Err(ListError::Block {
                block,
                reason: "not decoded as an interface description".into(),
            });
        };
        let tsresol = idb
            .options
            .iter()
            .find_map(|o| match o {
                InterfaceDescriptionOption::IfTsResol(r) => Some(*r),
                _ => None,
            })
            .unwrap_or(DEFAULT_TSRESOL);
        Ok(Interface {
            linktype: u32::from(idb.linktype),
            tsresol,
        })
    }

    fn packet(&mut self) -> Result<Packet<'_>, ListError> {
        let block = self.blocks;
        let Format::Ng {
            parser, interfaces, ..
        } = &mut self.format
        else {
            unreachable!("a pcapng capture")
        };
        let p = match parser.next_block(&self.buf) {
            Ok((_, Block::EnhancedPacket(p))) => p,
            Ok(_) => {
                return Err(ListError::Block {
                    block,
                    reason: "not decoded as an enhanced packet".into(),
                })
            }
            Err(e) => {
                return Err(ListError::Block {
                    block,
                    reason: e.to_string(),
                })
            }
        };
        // pcap-file keeps the raw 64-bit timestamp as if it were nanoseconds
        let raw = u64::try_from(p.timestamp.as_nanos()).unwrap_or(u64::MAX);
        let (link, t_ns) = match interfaces.get(p.interface_id as usize) {
            Some(i) => (Link::Type(i.linktype), ts_to_nanos(raw, i.tsresol)),
            None => (
                Link::UnknownInterface(p.interface_id),
                ts_to_nanos(raw, DEFAULT_TSRESOL),
            ),
        };
        let mut flags = 0;
        let mut comment = None;
        for o in &p.options {
            match o {
                EnhancedPacketOption::Flags(f) => flags = *f,
                EnhancedPacketOption::Comment(c) if comment.is_none() => comment = Some(c.clone()),
                _ => {}
            }
        }
        Ok(Packet {
            link,
            t_ns,
            data: p.data,
            original_len: p.original_len,
            flags,
            comment,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_ts_to_nanos_resolutions() {
        assert_eq!(ts_to_nanos(7, 9), 7);
        assert_eq!(ts_to_nanos(7, 6), 7_000);
        assert_eq!(ts_to_nanos(1500, 3), 1_500_000_000);
        assert_eq!(ts_to_nanos(1536, 0x80 | 10), 1_500_000_000);
        assert_eq!(ts_to_nanos(12_345, 12), 12);
        assert_eq!(ts_to_nanos(u64::MAX, 127), 0);
        assert_eq!(ts_to_nanos(u64::MAX, 0xff), 0);
        assert_eq!(ts_to_nanos(u64::MAX, 0), u128::from(u64::MAX) * 1_000_000_000);
    }

    #[test]
    fn test_decoded_options_small() {
        // the bound of MAX_BLOCK_BYTES's doc: a 4-byte option decodes into this many bytes
        use std::mem::size_of;
        assert!(size_of::<EnhancedPacketOption>() <= 48);
        assert!(size_of::<InterfaceDescriptionOption>() <= 48);
    }

    #[test]
    fn test_link_type_names() {
        assert_eq!(link_type_name(101), "RAW");
        assert_eq!(link_type_name(127), "IEEE802_11_RADIOTAP");
        assert_eq!(link_type_name(4242), "linktype 4242");
    }
}
