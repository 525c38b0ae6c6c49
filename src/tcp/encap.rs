//! How a host's network interface carries a TCP segment: the link framing (Ethernet,
//! with or without 4.2BSD trailers, or none at all), IP fragmentation to the
//! interface's MTU, and which bytes the 4.2BSD UNIBUS driver (`if_uba.c`) copies or
//! remaps on the way out and swaps or copies on the way in.
//!
//! Facts (REFERENCE-ttcp.md, "Trailers"; 4.2BSD `vax/if/if_uba.c`, `netinet/ip_output.c`):
//! - trailers: when the data after the IP and TCP headers is a non-zero multiple of 512
//!   bytes, the sender puts the data first, then a 4-byte type/length word and the
//!   headers (Ethernet type 0x1000 + data/512);
//! - output (`if_wubaput`): a 1 KB cluster that lands page-aligned in the UNIBUS buffer
//!   is *remapped* (its page frames entered in the UNIBUS map); anything else is copied.
//!   With trailers the data follows the link header, which the buffer places so the
//!   byte after it is page-aligned; without trailers the 40 header bytes push the
//!   cluster off alignment and all of it is copied;
//! - input (`if_rubaget`): page-aligned runs of whole clusters (1024 B) are swapped
//!   into mbufs, the rest copied: without trailers the first 1024 bytes (IP header
//!   first) are one such run, with trailers the 1024 data bytes; either way about 40
//!   bytes are copied;
//! - fragmentation (`ip_output`): a datagram larger than the MTU leaves in fragments
//!   whose data is a multiple of 8 bytes, each with its own 20-byte IP header.
//!
//! Units: bytes. The per-page cost of a remap and the copy rate are the host's.

use super::segment::{Segment, IP_HEADER_BYTES};
use crate::ether::consts::HEADER_BYTES;
use crate::ether::frame_bytes;

/// VAX page size, bytes (4.2BSD `NBPG`); trailers are used for multiples of it.
pub const PAGE_BYTES: u32 = 512;
/// Mbuf cluster size, bytes (4.2BSD `CLBYTES`): what `if_rubaget` swaps whole.
pub const CLUSTER_BYTES: u32 = 1024;
/// The trailer's type and length word, bytes.
pub const TRAILER_WORD_BYTES: u32 = 4;
/// Data bytes in one small mbuf (4.2BSD `MLEN` = `MSIZE` 128 - `MMINOFF` 12 - `MTAIL` 4).
pub const MLEN_BYTES: u32 = 112;

/// The link framing of an interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// Ethernet header and FCS around the datagram; `trailers`: 4.2BSD trailer
    /// encapsulation when the data is a non-zero multiple of [`PAGE_BYTES`].
    Ethernet { trailers: bool },
    /// No link header: the datagram alone (the PCL-11).
    Bare,
}

/// A host's network interface as the IP layer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interface {
    pub framing: Framing,
    /// Largest IP datagram the interface carries (1500 on Ethernet, 1006 on the PCL).
    pub mtu_bytes: u32,
    /// The driver moves frames through UNIBUS buffers with 4.2BSD's `if_uba` rules
    /// ([`Piece::output_copy`], [`Piece::input_copy`]); otherwise the copy engine alone
    /// moves them.
    pub unibus_buffers: bool,
}

/// Where a piece's copying goes in a UNIBUS driver: bytes copied by the CPU and pages
/// remapped or swapped instead.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UbaWork {
    pub copy_bytes: u32,
    pub pages: u32,
}

/// One frame of a segment as the interface sends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Bytes handed to the medium (Ethernet: header to FCS; bare: the datagram).
    pub frame_bytes: u32,
    /// The IP datagram (or fragment) inside, headers included.
    pub ip_bytes: u32,
    /// Bytes of the link header in front (Ethernet 14 or 0).
    pub link_header_bytes: u32,
    /// TCP payload bytes in this piece.
    pub data_bytes: u32,
    /// Sent with trailer encapsulation.
    pub trailer: bool,
}

impl Interface {
    /// An Ethernet interface without trailers or UNIBUS buffers (the 1995 PCs).
    pub fn ethernet() -> Self {
        Interface {
            framing: Framing::Ethernet { trailers: false },
            mtu_bytes: 1500,
            unibus_buffers: false,
        }
    }

    /// The frames that carry `seg`, in order.
    pub fn pieces(&self, seg: &Segment) -> Vec<Piece> {
        let ip = seg.ip_bytes();
        let headers = ip - seg.len;
        if ip <= self.mtu_bytes {
            return vec![self.frame(ip, seg.len)];
        }
        // ip_output: every fragment but the last carries a multiple of 8 data bytes
        let per = (self.mtu_bytes - IP_HEADER_BYTES) / 8 * 8;
        let mut rest = ip - IP_HEADER_BYTES; // TCP header and payload
        let mut tcp_header_left = headers - IP_HEADER_BYTES;
        let mut out = Vec::new();
        while rest > 0 {
            let part = rest.min(per);
            let hdr = tcp_header_left.min(part);
            tcp_header_left -= hdr;
            out.push(self.frame(IP_HEADER_BYTES + part, part - hdr));
            rest -= part;
        }
        out
    }

    /// Most frames a segment of `mss` payload bytes takes.
    pub fn max_pieces(&self, mss: u32) -> u32 {
        let s = Segment {
            seq: 0,
            len: mss,
            ack: 0,
            window: 0,
            fin: false,
        };
        self.pieces(&s).len() as u32
    }

    fn frame(&self, ip_bytes: u32, data_bytes: u32) -> Piece {
        match self.framing {
            Framing::Ethernet { trailers } => {
                let trailer = trailers && data_bytes > 0 && data_bytes.is_multiple_of(PAGE_BYTES);
                let extra = if trailer { TRAILER_WORD_BYTES } else { 0 };
                Piece {
                    frame_bytes: frame_bytes(ip_bytes + extra),
                    ip_bytes,
                    link_header_bytes: HEADER_BYTES,
                    data_bytes,
                    trailer,
                }
            }
            Framing::Bare => Piece {
                frame_bytes: ip_bytes,
                ip_bytes,
                link_header_bytes: 0,
                data_bytes,
                trailer: false,
            },
        }
    }
}

impl Piece {
    /// `if_wubaput`: a trailer frame remaps its page-aligned data and copies the rest
    /// (link header, type/length word, IP and TCP headers); any other frame is copied
    /// whole (the data cluster lies off page alignment behind the headers).
    pub fn output_copy(&self) -> UbaWork {
        let whole =
            self.link_header_bytes + self.ip_bytes + if self.trailer { TRAILER_WORD_BYTES } else { 0 };
        if self.trailer {
            let pages = self.data_bytes / PAGE_BYTES;
            UbaWork {
                copy_bytes: whole - self.data_bytes,
                pages,
            }
        } else {
            UbaWork {
                copy_bytes: whole,
                pages: 0,
            }
        }
    }

    /// The mbufs `if_rubaget` builds for this frame: one per swapped cluster, and the
    /// copied rest in small mbufs of [`MLEN_BYTES`] each (a PCL fragment of 1004 bytes,
    /// shorter than a cluster, becomes 9 small mbufs; an Ethernet frame a cluster and one).
    pub fn input_mbufs(&self) -> u32 {
        let w = self.input_copy();
        w.pages * PAGE_BYTES / CLUSTER_BYTES + w.copy_bytes.div_ceil(MLEN_BYTES)
    }

    /// `if_rubaget`: the page-aligned run after the link header (the IP datagram, or with
    /// trailers the data) is swapped in whole clusters; what is left is copied.
    pub fn input_copy(&self) -> UbaWork {
        let run = if self.trailer {
            self.data_bytes
        } else {
            self.ip_bytes
        };
        let swapped = run / CLUSTER_BYTES * CLUSTER_BYTES;
        let total = self.ip_bytes + if self.trailer { TRAILER_WORD_BYTES } else { 0 };
        UbaWork {
            copy_bytes: total - swapped,
            pages: swapped / PAGE_BYTES,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(len: u32) -> Segment {
        Segment {
            seq: 0,
            len,
            ack: 0,
            window: 2048,
            fin: false,
        }
    }

    fn ether(trailers: bool) -> Interface {
        Interface {
            framing: Framing::Ethernet { trailers },
            mtu_bytes: 1500,
            unibus_buffers: true,
        }
    }

    #[test]
    fn test_trailers_only_for_multiples_of_512() {
        let p = ether(true).pieces(&seg(1024));
        assert_eq!(p.len(), 1);
        assert!(p[0].trailer);
        assert_eq!(p[0].frame_bytes, 1086, "1082 + the 4-byte trailer word");
        assert!(!ether(true).pieces(&seg(1000))[0].trailer);
        assert!(!ether(true).pieces(&seg(0))[0].trailer, "an ACK has no data");
        assert_eq!(ether(false).pieces(&seg(1024))[0].frame_bytes, 1082);
    }

    #[test]
    fn test_trailers_save_the_output_copy_not_the_input_copy() {
        // without trailers the sender copies the whole 1078-byte frame (14 + 40 + 1024);
        // with trailers it remaps 2 pages and copies 14 + 4 + 40 = 58 bytes
        let plain = ether(false).pieces(&seg(1024))[0];
        let trail = ether(true).pieces(&seg(1024))[0];
        assert_eq!(
            plain.output_copy(),
            UbaWork {
                copy_bytes: 1078,
                pages: 0
            }
        );
        assert_eq!(
            trail.output_copy(),
            UbaWork {
                copy_bytes: 58,
                pages: 2
            }
        );
        // on input both swap one cluster (2 pages) and copy about 40 bytes
        assert_eq!(
            plain.input_copy(),
            UbaWork {
                copy_bytes: 40,
                pages: 2
            }
        );
        assert_eq!(
            trail.input_copy(),
            UbaWork {
                copy_bytes: 44,
                pages: 2
            }
        );
        // an ACK is copied whole
        let ack = ether(true).pieces(&seg(0))[0];
        assert_eq!(
            ack.output_copy(),
            UbaWork {
                copy_bytes: 54,
                pages: 0
            }
        );
        assert_eq!(
            ack.input_copy(),
            UbaWork {
                copy_bytes: 40,
                pages: 0
            }
        );
    }

    #[test]
    fn test_pcl_mtu_1006_fragments_a_1064_byte_datagram_in_two() {
        let pcl = Interface {
            framing: Framing::Bare,
            mtu_bytes: 1006,
            unibus_buffers: true,
        };
        let p = pcl.pieces(&seg(1024));
        // REFERENCE-ttcp.md: 1004 B + 80 B; the first carries the TCP header and 964
        // data bytes (984 = 123 x 8), the second 60 data bytes
        let sizes: Vec<(u32, u32)> = p.iter().map(|x| (x.frame_bytes, x.data_bytes)).collect();
        assert_eq!(sizes, vec![(1004, 964), (80, 60)]);
        assert_eq!(pcl.max_pieces(1024), 2);
        // neither is a whole cluster: both copied whole each way
        assert_eq!(
            p[0].input_copy(),
            UbaWork {
                copy_bytes: 1004,
                pages: 0
            }
        );
        assert_eq!(
            p[0].output_copy(),
            UbaWork {
                copy_bytes: 1004,
                pages: 0
            }
        );
        assert_eq!(pcl.pieces(&seg(0)).len(), 1);
    }

    #[test]
    fn test_if_rubaget_builds_a_cluster_and_one_mbuf_from_ethernet_and_nine_from_a_pcl_fragment() {
        // Ethernet, 1024 data bytes: without trailers the 1064-byte datagram gives a
        // swapped cluster and its last 40 bytes in one small mbuf; with trailers the data
        // is the cluster and the 40 header bytes + 4 trailer bytes one small mbuf
        for trailers in [false, true] {
            let p = ether(trailers).pieces(&seg(1024));
            assert_eq!(p[0].input_mbufs(), 2, "trailers {trailers}");
        }
        // the PCL's 1004-byte first fragment is shorter than a cluster: copied into
        // ceil(1004 / 112) = 9 small mbufs; the 80-byte second one into 1
        let pcl = Interface {
            framing: Framing::Bare,
            mtu_bytes: 1006,
            unibus_buffers: true,
        };
        let m: Vec<u32> = pcl.pieces(&seg(1024)).iter().map(|p| p.input_mbufs()).collect();
        assert_eq!(m, [9, 1]);
        // a pure ACK (40 bytes) is one small mbuf
        assert_eq!(ether(false).pieces(&seg(0))[0].input_mbufs(), 1);
    }
}
