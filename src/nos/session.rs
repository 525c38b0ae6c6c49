//! A reliable NetBIOS session (AI-LANBIOS) between this node and one peer.
//!
//! Messages are split into packets of at most `payload` bytes. The sender keeps at most
//! `window` packets of the current message unacknowledged; the receiver acknowledges
//! cumulatively (packets of the message received in order) at the end of every window and
//! of every message, and, if an ACK_TIMEOUT is set, when that timer runs out in between.
//! Lost packets (a full receive ring, a damaged frame, excessive collisions) are recovered
//! go-back-N. A receiver that sees a gap discards the out-of-order packet and sends one
//! negative acknowledgement (an ack flagged `seq = 1`, "resend from here") per gap; the
//! sender goes back to that packet at once. If that too is lost, the retry timer expires
//! and the sender resends from the first unacknowledged packet. Duplicates of a completed
//! message are re-acknowledged.
//!
//! Acknowledging a whole message can wait for a ride: with an ACK_TIMEOUT set, the
//! receiver of a complete message does not send an ack at once but arms the timer; if it
//! sends a message back to the peer first (a redirector's next request, a server's
//! response) that first packet carries the acknowledgement (piggybacked), else the ack
//! goes out when the timer expires. With ACK_TIMEOUT 0 a complete message is acknowledged
//! at once.
//!
//! The session is a pure state machine: it never touches the engine. The node asks it
//! for the next packet to send ([`Session::next_packet`]) when the driver has room, and
//! feeds it received packets and timer expiries; it answers with [`RxResult`].
//!
//! Invariant: `acked <= next_seq <= packets(front message)`.

use std::collections::VecDeque;

use super::packet::{Packet, PacketKind};

/// A message waiting to be sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutMsg {
    pub kind: PacketKind,
    /// Payload bytes (for a request: the request's own size on the wire).
    pub bytes: u32,
    /// For a request: bytes asked for. For a response: the payload again.
    pub value: u32,
}

/// Counters of one session.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SessionStats {
    pub messages_sent: u64,
    pub messages_received: u64,
    pub packets_sent: u64,
    pub packets_retransmitted: u64,
    pub acks_sent: u64,
    pub acks_piggybacked: u64,
    pub retry_timeouts: u64,
    pub out_of_order_discards: u64,
    pub duplicates: u64,
    /// Payload bytes of response messages accepted in order.
    pub payload_received: u64,
}

/// A whole message that arrived: `kind`, its `value` (the first packet's value for a
/// request, the total payload for a response) and its payload bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrived {
    pub kind: PacketKind,
    pub value: u32,
    pub bytes: u32,
}

/// What a received packet did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RxResult {
    /// A message completed.
    pub message: Option<Arrived>,
    /// The front outgoing message (of this kind) is now fully acknowledged.
    pub send_complete: Option<PacketKind>,
    /// A timer the node must arm.
    pub timer: Option<TimerRequest>,
}

/// Timer the node must (re)arm after a step, tagged with the session's generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimerRequest {
    Retry { gen: u32 },
    Ack { gen: u32 },
}

/// One direction-pair session with a peer.
#[derive(Debug)]
pub struct Session {
    payload: u32,
    window: u16,
    ack_every: u16,
    delayed_ack: bool,
    // sender
    out: VecDeque<OutMsg>,
    /// The node-wide order in which each queued message was handed over (FIFO service).
    orders: VecDeque<u64>,
    out_msg: u16,
    next_seq: u16,
    acked: u16,
    retry_gen: u32,
    retry_armed: bool,
    // receiver
    in_msg: u16,
    in_count: u16,
    in_value: u32,
    in_bytes: u32,
    unacked: u16,
    /// Ack to send: message, count, and whether it is a negative ack (a gap was seen).
    ack_to_send: Option<(u16, u32, bool)>,
    /// The gap a negative ack was last sent for (receiver) / acted on (sender).
    nak_sent: Option<(u16, u16)>,
    nak_seen: Option<(u16, u16)>,
    ack_gen: u32,
    ack_armed: bool,
    /// A completed message whose acknowledgement waits to be piggybacked.
    ack_owed: Option<(u16, u32)>,
    last_done: Option<(u16, u32)>,
    pub stats: SessionStats,
}

impl Session {
    /// `payload`: data bytes per packet; `window`: packets the peer lets us have
    /// unacknowledged; `ack_every`: packets we receive before acknowledging;
    /// `delayed_ack`: whether an ACK_TIMEOUT timer acknowledges partial windows.
    pub fn new(payload: u32, window: u16, ack_every: u16, delayed_ack: bool) -> Self {
        assert!(payload > 0 && window > 0 && ack_every > 0);
        Session {
            payload,
            window,
            ack_every,
            delayed_ack,
            out: VecDeque::new(),
            orders: VecDeque::new(),
            out_msg: 0,
            next_seq: 0,
            acked: 0,
            retry_gen: 0,
            retry_armed: false,
            in_msg: 0,
            in_count: 0,
            in_value: 0,
            in_bytes: 0,
            unacked: 0,
            ack_to_send: None,
            nak_sent: None,
            nak_seen: None,
            ack_gen: 0,
            ack_armed: false,
            ack_owed: None,
            last_done: None,
            stats: SessionStats::default(),
        }
    }

    fn packets_of(&self, m: &OutMsg) -> u16 {
        (m.bytes.div_ceil(self.payload).max(1)).min(Packet::MAX_SEQ as u32 + 1) as u16
    }

    /// Queues a message for sending (`msg.bytes` >= 1).
    pub fn send(&mut self, msg: OutMsg) {
        self.send_ordered(msg, 0);
    }

    /// Queues a message, stamped with the node-wide `order` in which it was handed over.
    pub fn send_ordered(&mut self, msg: OutMsg, order: u64) {
        assert!(msg.bytes >= 1, "empty NetBIOS message");
        self.out.push_back(msg);
        self.orders.push_back(order);
    }

    /// Has an acknowledgement to send.
    pub fn has_ack(&self) -> bool {
        self.ack_to_send.is_some()
    }

    /// The order stamp of the front message, if the window lets a packet of it go now.
    pub fn sendable_order(&self) -> Option<u64> {
        if self.data_ready() {
            self.orders.front().copied()
        } else {
            None
        }
    }

    /// Messages queued or in progress.
    pub fn queued(&self) -> usize {
        self.out.len()
    }

    /// Packets sent and not yet acknowledged.
    pub fn outstanding(&self) -> u16 {
        self.next_seq - self.acked
    }

    /// Packets the peer lets this session have unacknowledged.
    pub fn window(&self) -> u16 {
        self.window
    }

    /// The messages queued or in progress, front first (for audits).
    pub fn queued_messages(&self) -> impl Iterator<Item = &OutMsg> {
        self.out.iter()
    }

    /// Payload bytes of the incoming message received in order so far, if one is partly
    /// received (for audits: they are not yet handed to the redirector).
    pub fn partial_in_bytes(&self) -> u32 {
        if self.in_count > 0 {
            self.in_bytes
        } else {
            0
        }
    }

    /// Checks the sender's sequence invariant, `acked <= next_seq <= packets(front)` (and
    /// both zero with nothing queued), and that no more than a window is unacknowledged.
    pub fn check(&self) -> Result<(), String> {
        let n = self.out.front().map_or(0, |m| self.packets_of(m));
        if !(self.acked <= self.next_seq && self.next_seq <= n) {
            return Err(format!(
                "acked {} <= next_seq {} <= packets of the front message {n} does not hold",
                self.acked, self.next_seq
            ));
        }
        if self.next_seq - self.acked > self.window {
            return Err(format!(
                "{} packets unacknowledged, window {}",
                self.next_seq - self.acked,
                self.window
            ));
        }
        if self.out.len() != self.orders.len() {
            return Err(format!(
                "{} messages queued but {} order stamps",
                self.out.len(),
                self.orders.len()
            ));
        }
        Ok(())
    }

    /// Is the sender stalled waiting for an acknowledgement (window full or message fully
    /// sent but not acknowledged)?
    pub fn waiting_for_ack(&self) -> bool {
        match self.out.front() {
            Some(m) => {
                self.next_seq > self.acked
                    && (self.next_seq - self.acked >= self.window || self.next_seq >= self.packets_of(m))
            }
            None => false,
        }
    }

    /// Has something to send now (an ack, or a data packet the window allows)?
    pub fn ready(&self) -> bool {
        self.ack_to_send.is_some() || self.data_ready()
    }

    fn data_ready(&self) -> bool {
        match self.out.front() {
            Some(m) => self.next_seq < self.packets_of(m) && self.next_seq - self.acked < self.window,
            None => false,
        }
    }

    /// Takes the next packet to send, with its payload bytes, and a timer to arm.
    pub fn next_packet(&mut self) -> Option<(Packet, u32, Option<TimerRequest>)> {
        if let Some((msg, count, nak)) = self.ack_to_send.take() {
            self.stats.acks_sent += 1;
            self.ack_armed = false;
            self.ack_gen += 1;
            let p = Packet {
                kind: PacketKind::Ack,
                msg,
                seq: nak as u16,
                last: true,
                value: count,
                acks: false,
            };
            return Some((p, 0, None));
        }
        if !self.data_ready() {
            return None;
        }
        let m = *self.out.front().expect("data_ready checked");
        let n = self.packets_of(&m);
        let seq = self.next_seq;
        let offset = seq as u32 * self.payload;
        let bytes = (m.bytes - offset).min(self.payload);
        let value = match m.kind {
            PacketKind::Response => bytes,
            _ => m.value,
        };
        self.next_seq += 1;
        self.stats.packets_sent += 1;
        let acks = self.ack_owed.take().is_some();
        if acks {
            self.stats.acks_piggybacked += 1;
        }
        let p = Packet {
            kind: m.kind,
            msg: self.out_msg,
            seq,
            last: seq + 1 == n,
            value,
            acks,
        };
        let timer = if self.retry_armed {
            None
        } else {
            self.retry_armed = true;
            self.retry_gen += 1;
            Some(TimerRequest::Retry { gen: self.retry_gen })
        };
        Some((p, bytes, timer))
    }

    /// A packet from the peer arrived intact and in the NOS.
    pub fn receive(&mut self, p: Packet) -> RxResult {
        if p.kind == PacketKind::Ack {
            return self.on_ack(p);
        }
        let mut r = self.on_data(p);
        if p.acks {
            let done = self.complete_front();
            r.send_complete = r.send_complete.or(done);
        }
        r
    }

    /// A piggybacked acknowledgement: the front message is acknowledged in full if all of
    /// it has been sent.
    fn complete_front(&mut self) -> Option<PacketKind> {
        let m = *self.out.front()?;
        if self.next_seq < self.packets_of(&m) {
            return None;
        }
        Some(self.finish_front(m))
    }

    fn finish_front(&mut self, m: OutMsg) -> PacketKind {
        self.out.pop_front();
        self.orders.pop_front();
        self.out_msg = self.out_msg.wrapping_add(1);
        self.next_seq = 0;
        self.acked = 0;
        self.retry_armed = false;
        self.retry_gen += 1;
        self.stats.messages_sent += 1;
        m.kind
    }

    fn on_ack(&mut self, p: Packet) -> RxResult {
        let none = RxResult::default();
        let Some(m) = self.out.front().copied() else {
            return none;
        };
        if p.msg != self.out_msg {
            return none;
        }
        let n = self.packets_of(&m);
        let count = (p.value.min(n as u32)) as u16;
        let nak = p.seq == 1;
        if nak && self.next_seq > count && self.nak_seen != Some((p.msg, count)) {
            // the receiver lost packet `count`: go back to it now
            self.nak_seen = Some((p.msg, count));
            self.stats.packets_retransmitted += (self.next_seq - count) as u64;
            self.next_seq = count;
        }
        if count <= self.acked {
            return none;
        }
        self.acked = count;
        self.next_seq = self.next_seq.max(count);
        if self.acked == n {
            return RxResult {
                send_complete: Some(self.finish_front(m)),
                ..none
            };
        }
        // progress: restart the retry timer if packets are still outstanding
        self.retry_gen += 1;
        if self.next_seq > self.acked {
            self.retry_armed = true;
            RxResult {
                timer: Some(TimerRequest::Retry { gen: self.retry_gen }),
                ..none
            }
        } else {
            self.retry_armed = false;
            none
        }
    }

    fn on_data(&mut self, p: Packet) -> RxResult {
        let none = RxResult::default();
        if p.msg != self.in_msg {
            if let Some((msg, count)) = self.last_done {
                if p.msg == msg {
                    self.stats.duplicates += 1;
                    self.ack_to_send = Some((msg, count, false));
                }
            }
            return none;
        }
        if p.seq != self.in_count {
            if p.seq < self.in_count {
                self.stats.duplicates += 1;
                self.ack_to_send = Some((self.in_msg, self.in_count as u32, false));
            } else {
                self.stats.out_of_order_discards += 1;
                let gap = (self.in_msg, self.in_count);
                if self.nak_sent != Some(gap) {
                    self.nak_sent = Some(gap);
                    self.ack_to_send = Some((self.in_msg, self.in_count as u32, true));
                }
            }
            return none;
        }
        self.in_count += 1;
        self.unacked += 1;
        if p.seq == 0 {
            self.in_value = p.value;
            self.in_bytes = 0;
        }
        if p.kind == PacketKind::Response {
            self.in_bytes += p.value;
            self.stats.payload_received += p.value as u64;
        }
        if p.last {
            let done = (self.in_msg, self.in_count as u32);
            self.last_done = Some(done);
            self.in_msg = self.in_msg.wrapping_add(1);
            self.in_count = 0;
            self.unacked = 0;
            self.stats.messages_received += 1;
            let value = if p.kind == PacketKind::Response {
                self.in_bytes
            } else {
                self.in_value
            };
            let message = Some(Arrived {
                kind: p.kind,
                value,
                bytes: self.in_bytes,
            });
            if !self.delayed_ack {
                self.ack_to_send = Some((done.0, done.1, false));
                return RxResult { message, ..none };
            }
            // wait for a ride on our next message, or for the timer
            self.ack_owed = Some(done);
            let timer = self.arm_ack_timer();
            return RxResult {
                message,
                timer,
                ..none
            };
        }
        if self.unacked >= self.ack_every {
            self.unacked = 0;
            self.ack_to_send = Some((self.in_msg, self.in_count as u32, false));
            return none;
        }
        if self.delayed_ack {
            return RxResult {
                timer: self.arm_ack_timer(),
                ..none
            };
        }
        none
    }

    fn arm_ack_timer(&mut self) -> Option<TimerRequest> {
        if self.ack_armed {
            return None;
        }
        self.ack_armed = true;
        self.ack_gen += 1;
        Some(TimerRequest::Ack { gen: self.ack_gen })
    }

    /// The retry timer `gen` expired: go back to the first unacknowledged packet.
    /// Returns the timer to re-arm if something is outstanding.
    pub fn retry_expired(&mut self, gen: u32) -> Option<TimerRequest> {
        if gen != self.retry_gen || !self.retry_armed {
            return None;
        }
        if self.next_seq > self.acked {
            self.stats.retry_timeouts += 1;
            self.stats.packets_retransmitted += (self.next_seq - self.acked) as u64;
            self.next_seq = self.acked;
        }
        self.retry_armed = false;
        None
    }

    /// The delayed-ack timer `gen` expired: acknowledge what has arrived.
    pub fn ack_expired(&mut self, gen: u32) {
        if gen != self.ack_gen || !self.ack_armed {
            return;
        }
        self.ack_armed = false;
        if let Some((msg, count)) = self.ack_owed.take() {
            self.ack_to_send = Some((msg, count, false));
        } else if self.unacked > 0 {
            self.unacked = 0;
            self.ack_to_send = Some((self.in_msg, self.in_count as u32, false));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(bytes: u32) -> OutMsg {
        OutMsg {
            kind: PacketKind::Response,
            bytes,
            value: bytes,
        }
    }

    /// Moves every packet `a` can send to `b` (dropping those whose index is in `lose`).
    fn deliver(a: &mut Session, b: &mut Session, lose: &[usize]) -> Vec<RxResult> {
        let mut out = vec![];
        let mut i = 0;
        while let Some((p, _, _)) = a.next_packet() {
            if !lose.contains(&i) {
                out.push(b.receive(p));
            }
            i += 1;
        }
        out
    }

    fn arrived(bytes: u32) -> Option<Arrived> {
        Some(Arrived {
            kind: PacketKind::Response,
            value: bytes,
            bytes,
        })
    }

    #[test]
    fn test_message_split_into_packets() {
        let mut s = Session::new(1000, 10, 10, false);
        s.send(response(2500));
        let sizes: Vec<(u16, u32, bool)> = std::iter::from_fn(|| s.next_packet())
            .map(|(p, b, _)| (p.seq, b, p.last))
            .collect();
        assert_eq!(sizes, vec![(0, 1000, false), (1, 1000, false), (2, 500, true)]);
    }

    #[test]
    fn test_window_stops_sender_until_ack() {
        let mut a = Session::new(1000, 2, 2, false);
        let mut b = Session::new(1000, 2, 2, false);
        a.send(response(5000));
        assert_eq!(deliver(&mut a, &mut b, &[]).len(), 2);
        assert!(a.waiting_for_ack());
        let (ack, _, _) = b.next_packet().unwrap();
        assert_eq!((ack.kind, ack.value), (PacketKind::Ack, 2));
        a.receive(ack);
        assert!(a.ready());
    }

    #[test]
    fn test_lost_packet_recovered_by_nak() {
        let mut a = Session::new(1000, 8, 8, false);
        let mut b = Session::new(1000, 8, 8, false);
        a.send(response(4000));
        // packet 1 is lost: b discards 2 and 3 as out of order
        let got = deliver(&mut a, &mut b, &[1]);
        assert!(got.iter().all(|r| r.message.is_none()));
        assert_eq!(b.stats.out_of_order_discards, 2);
        // one negative ack for the gap, not one per discarded packet
        let (nak, _, _) = b.next_packet().unwrap();
        assert_eq!((nak.value, nak.seq), (1, 1));
        assert!(b.next_packet().is_none());
        a.receive(nak);
        assert_eq!(a.stats.packets_retransmitted, 3);
        let got = deliver(&mut a, &mut b, &[]);
        assert_eq!(got.last().unwrap().message, arrived(4000));
        assert_eq!(b.stats.payload_received, 4000);
        let (ack, _, _) = b.next_packet().unwrap();
        assert_eq!(a.receive(ack).send_complete, Some(PacketKind::Response));
    }

    #[test]
    fn test_lost_nak_recovered_by_retry_timer() {
        let mut a = Session::new(1000, 8, 8, false);
        let mut b = Session::new(1000, 8, 8, false);
        a.send(response(3000));
        deliver(&mut a, &mut b, &[0]);
        let _lost_nak = b.next_packet().unwrap();
        let gen = a.retry_gen;
        a.retry_expired(gen);
        assert_eq!(a.stats.retry_timeouts, 1);
        let got = deliver(&mut a, &mut b, &[]);
        assert_eq!(got.last().unwrap().message, arrived(3000));
    }

    #[test]
    fn test_lost_ack_gives_duplicate_and_reack() {
        let mut a = Session::new(1000, 8, 8, false);
        let mut b = Session::new(1000, 8, 8, false);
        a.send(response(1000));
        deliver(&mut a, &mut b, &[]);
        let _lost_ack = b.next_packet().unwrap();
        let gen = a.retry_gen;
        a.retry_expired(gen);
        deliver(&mut a, &mut b, &[]);
        assert_eq!(b.stats.duplicates, 1);
        assert_eq!(b.stats.payload_received, 1000, "duplicate not counted twice");
        let (ack, _, _) = b.next_packet().unwrap();
        assert_eq!(a.receive(ack).send_complete, Some(PacketKind::Response));
    }

    #[test]
    fn test_delayed_ack_timer_acks_partial_window() {
        let mut a = Session::new(1000, 8, 8, false);
        let mut b = Session::new(1000, 8, 8, true);
        a.send(response(3000));
        let (p, _, _) = a.next_packet().unwrap();
        let Some(TimerRequest::Ack { gen }) = b.receive(p).timer else {
            panic!("no ack timer")
        };
        assert!(!b.ready());
        b.ack_expired(gen);
        let (ack, _, _) = b.next_packet().unwrap();
        assert_eq!(ack.value, 1);
    }

    #[test]
    fn test_complete_message_ack_rides_on_the_reply() {
        // b delays its acks: a request to b is acknowledged by b's response
        let mut a = Session::new(1000, 8, 8, false);
        let mut b = Session::new(1000, 8, 8, true);
        a.send(OutMsg {
            kind: PacketKind::Request,
            bytes: 64,
            value: 2000,
        });
        let r = deliver(&mut a, &mut b, &[]);
        assert_eq!(r[0].message.map(|m| m.value), Some(2000));
        assert!(matches!(r[0].timer, Some(TimerRequest::Ack { .. })));
        assert!(!b.ready(), "no separate ack yet");
        b.send(response(2000));
        let (first, _, _) = b.next_packet().unwrap();
        assert!(first.acks);
        assert_eq!(b.stats.acks_piggybacked, 1);
        assert_eq!(a.receive(first).send_complete, Some(PacketKind::Request));
        // with nothing to ride on, the timer sends a plain ack
        let mut c = Session::new(1000, 8, 8, true);
        let mut d = Session::new(1000, 8, 8, false);
        d.send(response(500));
        let (p, _, _) = d.next_packet().unwrap();
        let Some(TimerRequest::Ack { gen }) = c.receive(p).timer else {
            panic!("no ack timer")
        };
        c.ack_expired(gen);
        let (ack, _, _) = c.next_packet().unwrap();
        assert_eq!((ack.kind, ack.value), (PacketKind::Ack, 1));
        assert_eq!(d.receive(ack).send_complete, Some(PacketKind::Response));
    }
}
