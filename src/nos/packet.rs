//! NetBIOS session packets as carried in an Ethernet frame's tag.
//!
//! A packet is encoded into the 64-bit opaque tag of [`crate::ether::Frame`] (the medium
//! never looks at it): bits 0..32 value, 32..48 message id, 48..60 sequence number,
//! bit 60 last-packet flag, bits 61..63 kind, bit 63 piggybacked acknowledgement. For data
//! packets `value` is the payload size (bytes) or, for a read request, the number of bytes
//! asked for; for acks it is the count of packets of message `msg` received in order. A
//! data packet with `acks` set also acknowledges, in full, the message its receiver is
//! sending to its sender.

/// What a packet is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketKind {
    /// Part of a read request (redirector to server); `value` = bytes requested.
    Request = 0,
    /// Part of a response carrying file data (server to redirector); `value` = payload bytes.
    Response = 1,
    /// Cumulative acknowledgement; `value` = packets of `msg` received in order.
    Ack = 2,
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
            _ => PacketKind::Ack,
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
        ] {
            assert_eq!(Packet::decode(p.encode()), p);
        }
    }
}
