//! A pcapng capture of the wire (LINKTYPE_ETHERNET, nanosecond timestamps), written as
//! the run goes: an [`Observer`] of the run's observations.
//!
//! Every transmission attempt becomes one Enhanced Packet Block stamped with the start
//! of its preamble at its transmitter (simulated ns since the run's start; Wireshark
//! shows it as a time on 1970-01-01):
//! - a frame sent without a collision: its whole bytes ([`super::bytes`]), no flags, or
//!   if it arrived damaged, the CRC-error flag, an inverted FCS and a comment;
//! - a frame cut short by a collision: the bytes that left before the jam (original
//!   length: the whole frame), flags CRC error and, under 64 bytes, packet too short,
//!   and a comment naming the station and attempt; then the 32-bit jam as its own 4-byte
//!   block at the jam's start, flagged the same way.
//!
//! Blocks are written in timestamp order. A record is complete when its outcome is known
//! (the jam, or the reception at the destination); complete records wait in a buffer
//! only while an earlier transmission is still undecided, so the buffer holds at most the
//! attempts of a few frame times, whatever the length of the run.
//!
//! I/O errors are kept (the first one) and stop the writing; [`PcapWriter::finish`]
//! returns it.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::time::Duration;

use pcap_file::pcapng::blocks::enhanced_packet::{EnhancedPacketBlock, EnhancedPacketOption};
use pcap_file::pcapng::blocks::interface_description::{
    InterfaceDescriptionBlock, InterfaceDescriptionOption,
};
use pcap_file::pcapng::PcapNgWriter;
use pcap_file::DataLink;

use super::bytes::frame_bytes;
use crate::ether::consts::PREAMBLE_SFD_BITS;
use crate::ether::medium::TxId;
use crate::ether::{Frame, WireEvent};
use crate::lan::observe::{Content, Observation, Observer};
use crate::time::SimTime;

/// pcapng `epb_flags` link-layer error bits (pcapng spec, section "Enhanced Packet Block
/// Flags Word"): CRC error and packet too short.
pub const EPB_FLAG_CRC_ERROR: u32 = 1 << 24;
pub const EPB_FLAG_TOO_SHORT: u32 = 1 << 26;
/// The 4 bytes of a 32-bit jam (802.3 4.2.3.2.4 leaves the pattern open; alternating bits).
pub const JAM_BYTES: [u8; 4] = [0x55; 4];

/// Counts of what was written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PcapCounts {
    /// Frames sent without a collision and received intact.
    pub intact: u64,
    /// Frames sent without a collision but damaged on the wire.
    pub damaged: u64,
    /// Fragments of frames cut short by a collision.
    pub fragments: u64,
    /// Jams.
    pub jams: u64,
    /// Transmissions whose outcome the run's end cut off (written whole, with a comment).
    pub unresolved: u64,
}

struct Pending {
    start: SimTime,
    frame: Frame,
    content: Content,
    attempt: u32,
    injected: bool,
}

struct Record {
    data: Vec<u8>,
    original_len: u32,
    flags: u32,
    comment: Option<String>,
}

/// Writes the observed wire as pcapng into `W`, keeping the blocks in `[from, to)`.
pub struct PcapWriter<W: Write> {
    out: Option<PcapNgWriter<W>>,
    from: SimTime,
    to: SimTime,
    bit_ns: u64,
    pending: HashMap<TxId, Pending>,
    /// Complete records by (timestamp, arrival order).
    ready: BTreeMap<(SimTime, u64), Record>,
    seq: u64,
    /// The latest instant the stream has reached (a jam's start may lie ahead of it).
    now: SimTime,
    counts: PcapCounts,
    error: Option<pcap_file::PcapError>,
}

impl<W: Write> PcapWriter<W> {
    /// A capture of the wire with bit time `bit_ns`, of the blocks stamped in `[from, to)`.
    pub fn new(
        w: W,
        bit_ns: u64,
        from: SimTime,
        to: SimTime,
        comment: &str,
    ) -> Result<Self, pcap_file::PcapError> {
        let mut out = PcapNgWriter::new(w)?;
        out.write_pcapng_block(InterfaceDescriptionBlock {
            linktype: DataLink::ETHERNET,
            snaplen: 0xFFFF,
            options: vec![
                InterfaceDescriptionOption::IfName(Cow::Borrowed("ethersim0")),
                InterfaceDescriptionOption::IfDescription(Cow::Owned(comment.to_string())),
                InterfaceDescriptionOption::IfTsResol(9),
                InterfaceDescriptionOption::IfFcsLen(4),
            ],
        })?;
        Ok(PcapWriter {
            out: Some(out),
            from,
            to,
            bit_ns,
            pending: HashMap::new(),
            ready: BTreeMap::new(),
            seq: 0,
            now: SimTime::ZERO,
            counts: PcapCounts::default(),
            error: None,
        })
    }

    /// What was written so far.
    pub fn counts(&self) -> PcapCounts {
        self.counts
    }

    /// Records held in memory now (bounded: see the module doc).
    pub fn held(&self) -> usize {
        self.pending.len() + self.ready.len()
    }

    fn push(&mut self, at: SimTime, r: Record) {
        if at >= self.from && at < self.to {
            self.ready.insert((at, self.seq), r);
            self.seq += 1;
        }
    }

    /// Writes the complete records older than every undecided transmission and not later
    /// than the present (a later transmission may still start before a jam to come).
    fn release(&mut self, all: bool) {
        let pending = self.pending.values().map(|p| p.start).min();
        while let Some(entry) = self.ready.first_entry() {
            let at = entry.key().0;
            if !all && (pending.is_some_and(|h| at >= h) || at > self.now) {
                break;
            }
            let ((at, _), r) = entry.remove_entry();
            self.write(at, r);
        }
    }

    fn write(&mut self, at: SimTime, r: Record) {
        let Some(out) = self.out.as_mut() else { return };
        let mut options = Vec::new();
        if r.flags != 0 {
            options.push(EnhancedPacketOption::Flags(r.flags));
        }
        if let Some(c) = r.comment {
            options.push(EnhancedPacketOption::Comment(Cow::Owned(c)));
        }
        let block = EnhancedPacketBlock {
            interface_id: 0,
            timestamp: Duration::from_nanos(at.as_nanos()),
            original_len: r.original_len,
            data: Cow::Owned(r.data),
            options,
        };
        if let Err(e) = out.write_pcapng_block(block) {
            self.error = Some(e);
            self.out = None;
        }
    }

    fn whole(&mut self, p: Pending, damaged: bool, comment: Option<String>) {
        let data = frame_bytes(&p.frame, &p.content, damaged);
        let flags = if damaged { EPB_FLAG_CRC_ERROR } else { 0 };
        let original_len = data.len() as u32;
        let r = Record {
            data,
            original_len,
            flags,
            comment,
        };
        self.push(p.start, r);
    }

    fn on_wire(&mut self, ev: &WireEvent, content: &Content) {
        if !matches!(ev, WireEvent::Jam { .. }) {
            self.now = self.now.max(ev.at());
        }
        match *ev {
            WireEvent::TxStart {
                at,
                tx,
                frame,
                attempt,
                damaged,
                ..
            } => {
                let p = Pending {
                    start: at,
                    frame,
                    content: *content,
                    attempt,
                    injected: damaged,
                };
                self.pending.insert(tx, p);
            }
            WireEvent::Jam {
                at,
                station,
                tx,
                until,
            } => {
                let Some(p) = self.pending.remove(&tx) else { return };
                let all = frame_bytes(&p.frame, &p.content, false);
                let sent_bits = (at - p.start).as_nanos() / self.bit_ns - PREAMBLE_SFD_BITS;
                let sent = ((sent_bits / 8) as usize).min(all.len());
                let mut flags = EPB_FLAG_CRC_ERROR;
                if sent < 64 {
                    flags |= EPB_FLAG_TOO_SHORT;
                }
                let comment = format!(
                    "collision: station {station}, attempt {}; {sent} of {} bytes sent before the jam",
                    p.attempt,
                    all.len()
                );
                let frag = Record {
                    original_len: all.len() as u32,
                    data: all[..sent].to_vec(),
                    flags,
                    comment: Some(comment),
                };
                self.push(p.start, frag);
                let jam = Record {
                    data: JAM_BYTES.to_vec(),
                    original_len: JAM_BYTES.len() as u32,
                    flags: EPB_FLAG_CRC_ERROR | EPB_FLAG_TOO_SHORT,
                    comment: Some(format!(
                        "jam: station {station}, 32 bits until {:.1} us",
                        until.as_nanos() as f64 / 1e3
                    )),
                };
                self.push(at, jam);
                if p.start >= self.from && p.start < self.to {
                    self.counts.fragments += 1;
                }
                if at >= self.from && at < self.to {
                    self.counts.jams += 1;
                }
            }
            WireEvent::Rx { tx, intact, .. } => {
                let Some(p) = self.pending.remove(&tx) else { return };
                let inside = p.start >= self.from && p.start < self.to;
                if intact {
                    self.counts.intact += inside as u64;
                    self.whole(p, false, None);
                } else {
                    self.counts.damaged += inside as u64;
                    let why = if p.injected {
                        "damaged on the wire (fault injection): FCS error"
                    } else {
                        "damaged: overlapped by another signal at the receiver: FCS error"
                    };
                    self.whole(p, true, Some(why.to_string()));
                }
            }
            _ => return,
        }
        self.release(false);
    }

    /// Writes what is left (transmissions the run's end cut off are written whole, with
    /// a comment) and returns the writer, or the first error met.
    pub fn finish(mut self) -> Result<(W, PcapCounts), pcap_file::PcapError> {
        let mut left: Vec<(TxId, Pending)> = self.pending.drain().collect();
        left.sort_by_key(|(id, _)| *id);
        for (_, p) in left {
            if p.start >= self.from && p.start < self.to {
                self.counts.unresolved += 1;
            }
            let c = Some("the run ended before this transmission's outcome".to_string());
            self.whole(p, false, c);
        }
        self.release(true);
        if let Some(e) = self.error {
            return Err(e);
        }
        let out = self.out.take().expect("no error: the writer is there");
        Ok((out.into_inner(), self.counts))
    }
}

impl<W: Write> Observer for PcapWriter<W> {
    fn observe(&mut self, o: &Observation) {
        if let Observation::Wire { ev, content } = o {
            self.on_wire(ev, content);
        }
    }
}
