//! NetBIOS session packets as carried in an Ethernet frame's tag.
//!
//! A packet is encoded into the 64-bit opaque tag of [`crate::ether::Frame`] (the medium
//! never looks at it): bits 0..32 value, 32..48 message id, 48..60 sequence number,
//! bit 60 last-packet flag, bits 61..63 kind (all four values are used), bit 63 piggybacked
//! acknowledgement. For data packets `value` is the payload size (bytes) or, for a read
//! request, the number of bytes asked for. For an ACK it is the count of packets of
//! message `msg` received in order; for a NAK the same count, which is also the packet to
//! resend from. ACKs and NAKs carry `seq` 0 and `last` set. A data packet with `acks` set
//! also acknowledges, in full, the message its receiver is sending to its sender.

/// Bit 31 of a request's `value` marks a write request: its message carries
/// `value & !WRITE_FLAG` bytes of file data after the request itself. Requests never ask
/// for more than 65535 bytes (DOS byte counts are 16-bit), so the bit is free.
pub const WRITE_FLAG: u32 = 1 << 31;

/// What a packet is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketKind {
    /// Part of a read or write request (redirector to server); `value` = bytes requested,
    /// or [`WRITE_FLAG`] | bytes of data carried.
    Request = 0,
    /// Part of a response (server to redirector): file data of a read, or the short reply
    /// to a write; `value` = payload bytes.
    Response = 1,
    /// Cumulative acknowledgement; `value` = packets of `msg` received in order.
    Ack = 2,
    /// Negative acknowledgement: packets of `msg` after the first `value` were lost or
    /// arrived out of order; resend from packet `value`. Also acknowledges `value` packets.
    Nak = 3,
}

impl PacketKind {
    /// An acknowledgement, positive or negative (a control packet: no data, no sequence).
    pub fn is_ack(self) -> bool {
        matches!(self, PacketKind::Ack | PacketKind::Nak)
    }
}

/// One NetBIOS session packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    pub kind: PacketKind,
    pub msg: u16,
    pub seq: u16,
    pub last: bool,
    pub value: u32,
    /// Carries an acknowledgement of the peer's current message (piggybacked).
    pub acks: bool,
}

const SEQ_MASK: u64 = 0xFFF;

impl Packet {
    /// Largest sequence number a message can use (4095 packets per message).
    pub const MAX_SEQ: u16 = SEQ_MASK as u16;

    /// Does the packet's payload come from a data buffer (a response, a write request),
    /// rather than being a request's or an acknowledgement's own fields? Such a payload is
    /// copied into the packet as it is built, and goes in a large transmit buffer.
    pub fn carries_data(&self) -> bool {
        match self.kind {
            PacketKind::Response => true,
            PacketKind::Request => self.value & WRITE_FLAG != 0,
            PacketKind::Ack | PacketKind::Nak => false,
        }
    }

    pub fn encode(&self) -> u64 {
        debug_assert!(self.seq <= Self::MAX_SEQ);
        self.value as u64
            | (self.msg as u64) << 32
            | (self.seq as u64 & SEQ_MASK) << 48
            | (self.last as u64) << 60
            | (self.kind as u64) << 61
            | (self.acks as u64) << 63
    }

    pub fn decode(tag: u64) -> Packet {
        let kind = match (tag >> 61) & 3 {
            0 => PacketKind::Request,
            1 => PacketKind::Response,
            2 => PacketKind::Ack,
            3 => PacketKind::Nak,
            _ => unreachable!("the kind is two bits"),
        };
        Packet {
            kind,
            msg: (tag >> 32) as u16,
            seq: ((tag >> 48) & SEQ_MASK) as u16,
            last: (tag >> 60) & 1 == 1,
            value: tag as u32,
            acks: tag >> 63 == 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_round_trip() {
        for p in [
            Packet {
                kind: PacketKind::Request,
                msg: 0,
                seq: 0,
                last: true,
                value: 32_768,
                acks: true,
            },
            Packet {
                kind: PacketKind::Response,
                msg: 65_535,
                seq: 4_095,
                last: false,
                value: 1_668,
                acks: true,
            },
            Packet {
                kind: PacketKind::Ack,
                msg: 7,
                seq: 0,
                last: false,
                value: u32::MAX,
                acks: false,
            },
            Packet {
                kind: PacketKind::Nak,
                msg: 65_535,
                seq: 0,
                last: true,
                value: 3,
                acks: false,
            },
        ] {
            assert_eq!(Packet::decode(p.encode()), p);
        }
    }

    #[test]
    fn test_decode_every_kind() {
        let kinds: Vec<PacketKind> = (0..4u64).map(|k| Packet::decode(k << 61).kind).collect();
        assert_eq!(
            kinds,
            [
                PacketKind::Request,
                PacketKind::Response,
                PacketKind::Ack,
                PacketKind::Nak
            ]
        );
        assert!(PacketKind::Ack.is_ack() && PacketKind::Nak.is_ack());
        assert!(!PacketKind::Request.is_ack() && !PacketKind::Response.is_ack());
    }

    #[test]
    fn test_responses_and_write_requests_carry_data() {
        let p = |kind, value| Packet {
            kind,
            msg: 1,
            seq: 0,
            last: true,
            value,
            acks: false,
        };
        assert!(p(PacketKind::Response, 1668).carries_data());
        assert!(p(PacketKind::Request, WRITE_FLAG | 4096).carries_data());
        assert!(!p(PacketKind::Request, 4096).carries_data(), "a read request");
        assert!(!p(PacketKind::Ack, 3).carries_data());
        assert!(!p(PacketKind::Nak, 3).carries_data());
    }
}
