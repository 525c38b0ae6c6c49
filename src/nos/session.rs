//! A reliable NetBIOS session (AI-LANBIOS) between this node and one peer.
//!
//! Messages are split into packets of at most `payload` bytes. The sender keeps at most
//! `window` packets of the current message unacknowledged; the receiver acknowledges
//! cumulatively (packets of the message received in order) at the end of every window and
//! of every message, and, if an ACK_TIMEOUT is set, when that timer runs out in between.
//! Lost packets (a full receive ring, a damaged frame, excessive collisions) are recovered
//! go-back-N. A receiver that sees a gap discards the out-of-order packet and sends one
//! negative acknowledgement ([`PacketKind::Nak`], "received `from` in order, resend from
//! there") per gap; the sender goes back to that packet at once. If that too is lost, the
//! retry timer expires and the sender resends from the first unacknowledged packet.
//! Duplicates of a completed message are re-acknowledged.
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
//! State: the sender half is IDLE (nothing queued) or SENDING the front message; the
//! receiver half is IDLE (awaiting the first packet of the next message) or RECEIVING one;
//! at most one control packet (ACK or NAK) waits to go out; the retry and delayed-ack
//! timers are each STOPPED or ARMED with a generation (an expiry of any other generation
//! is stale and ignored).
//!
//! Invariants ([`Session::check`]): the sender is SENDING exactly when a message is
//! queued, and then `acked <= next_seq <= packets(front message)` and
//! `next_seq - acked <= window`; a RECEIVING receiver has `1 <= count` and
//! `unacked <= count`.

use std::collections::VecDeque;
use std::fmt;

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
    /// Control packets sent: ACKs and NAKs.
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

/// A session invariant that does not hold (see [`Session::check`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    #[error("acked {acked} <= next_seq {next_seq} <= packets of the front message {packets} does not hold")]
    Sequence { acked: u16, next_seq: u16, packets: u16 },
    #[error("{outstanding} packets unacknowledged, window {window}")]
    Window { outstanding: u16, window: u16 },
    #[error("sender is IDLE but {queued} messages are queued")]
    IdleWithQueue { queued: usize },
    #[error("sender is SENDING message {msg} but no message is queued")]
    SendingNothing { msg: u16 },
    #[error("receiver is RECEIVING message {msg} with count {count}, unacked {unacked}: needs 1 <= count and unacked <= count")]
    Receiving { msg: u16, count: u16, unacked: u16 },
}

/// A message handed to the session, with the node-wide order in which it was handed over
/// (FIFO service across sessions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Queued {
    msg: OutMsg,
    order: u64,
}

/// The sender half of the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sender {
    /// Nothing queued; the next message handed over will be numbered `next_msg`.
    Idle { next_msg: u16 },
    /// Sending message `msg`, the front of the queue: packets `0..acked` are acknowledged,
    /// `acked..next_seq` sent and unacknowledged, `next_seq..` still to send.
    Sending { msg: u16, next_seq: u16, acked: u16 },
}

impl fmt::Display for Sender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sender::Idle { next_msg } => write!(f, "IDLE (next message {next_msg})"),
            Sender::Sending { msg, next_seq, acked } => {
                write!(f, "SENDING message {msg} (acked {acked}, next {next_seq})")
            }
        }
    }
}

/// The receiver half of the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Receiver {
    /// Awaiting the first packet of message `msg`.
    Idle { msg: u16 },
    /// Packets `0..count` of message `msg` arrived in order (`count >= 1`): `value` is the
    /// first packet's value, `bytes` the response payload so far, `unacked` the packets
    /// received since the last acknowledgement.
    Receiving {
        msg: u16,
        count: u16,
        value: u32,
        bytes: u32,
        unacked: u16,
    },
}

impl Receiver {
    /// The message expected and the packets of it received in order.
    fn expecting(self) -> (u16, u16) {
        match self {
            Receiver::Idle { msg } => (msg, 0),
            Receiver::Receiving { msg, count, .. } => (msg, count),
        }
    }
}

impl fmt::Display for Receiver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Receiver::Idle { msg } => write!(f, "IDLE (awaiting message {msg})"),
            Receiver::Receiving { msg, count, .. } => {
                write!(f, "RECEIVING message {msg} ({count} packets in order)")
            }
        }
    }
}

/// A control packet the receiver owes the peer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Control {
    /// Packets `0..count` of message `msg` arrived in order.
    Ack { msg: u16, count: u32 },
    /// Packets `0..from` of message `msg` arrived in order, then a gap: resend from `from`.
    Nak { msg: u16, from: u16 },
}

impl Control {
    fn packet(self) -> Packet {
        let (kind, msg, value) = match self {
            Control::Ack { msg, count } => (PacketKind::Ack, msg, count),
            Control::Nak { msg, from } => (PacketKind::Nak, msg, from as u32),
        };
        Packet {
            kind,
            msg,
            seq: 0,
            last: true,
            value,
            acks: false,
        }
    }
}

/// A gap in message `msg` starting at packet `from` (one NAK is sent, and acted on, per gap).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Gap {
    msg: u16,
    from: u16,
}

/// Message `msg`, received in full: `count` packets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Completed {
    msg: u16,
    count: u32,
}

impl Completed {
    fn ack(self) -> Control {
        Control::Ack {
            msg: self.msg,
            count: self.count,
        }
    }
}

/// A session timer. Every start, restart and stop moves to a new generation, so the node's
/// scheduled expiries of earlier generations are recognised as stale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Timer {
    /// Not running; `gen` is the last generation used.
    Stopped { gen: u32 },
    /// Running as generation `gen`.
    Armed { gen: u32 },
}

impl Timer {
    const NEW: Timer = Timer::Stopped { gen: 0 };

    fn gen(self) -> u32 {
        match self {
            Timer::Stopped { gen } | Timer::Armed { gen } => gen,
        }
    }

    /// Arms the timer unless it is running; returns the generation to schedule.
    fn start(&mut self) -> Option<u32> {
        match *self {
            Timer::Armed { .. } => None,
            Timer::Stopped { gen } => {
                *self = Timer::Armed { gen: gen + 1 };
                Some(gen + 1)
            }
        }
    }

    /// Arms the timer afresh (a running generation becomes stale); returns the generation.
    fn restart(&mut self) -> u32 {
        let gen = self.gen() + 1;
        *self = Timer::Armed { gen };
        gen
    }

    /// Stops the timer (a running generation becomes stale).
    fn stop(&mut self) {
        *self = Timer::Stopped { gen: self.gen() + 1 };
    }

    /// Generation `gen` expired: true if it is the running one (the timer then stops).
    fn expire(&mut self, gen: u32) -> bool {
        match *self {
            Timer::Armed { gen: g } if g == gen => {
                *self = Timer::Stopped { gen };
                true
            }
            _ => false,
        }
    }
}

/// One direction-pair session with a peer.
#[derive(Debug)]
pub struct Session {
    payload: u32,
    window: u16,
    ack_every: u16,
    delayed_ack: bool,
    // sender
    queue: VecDeque<Queued>,
    sender: Sender,
    retry: Timer,
    /// The last NAK acted on.
    nak_seen: Option<Gap>,
    // receiver
    receiver: Receiver,
    /// The last message received in full (re-acknowledged if a duplicate of it arrives).
    last_done: Option<Completed>,
    /// The last gap a NAK was sent for.
    nak_sent: Option<Gap>,
    /// A completed message whose acknowledgement waits to be piggybacked.
    ack_owed: Option<Completed>,
    /// The control packet to send next.
    control: Option<Control>,
    ack_timer: Timer,
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
            queue: VecDeque::new(),
            sender: Sender::Idle { next_msg: 0 },
            retry: Timer::NEW,
            nak_seen: None,
            receiver: Receiver::Idle { msg: 0 },
            last_done: None,
            nak_sent: None,
            ack_owed: None,
            control: None,
            ack_timer: Timer::NEW,
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
        self.queue.push_back(Queued { msg, order });
        if let Sender::Idle { next_msg } = self.sender {
            self.sender = Sender::Sending {
                msg: next_msg,
                next_seq: 0,
                acked: 0,
            };
        }
    }

    /// Has an acknowledgement (ACK or NAK) to send.
    pub fn has_ack(&self) -> bool {
        self.control.is_some()
    }

    /// The order stamp of the front message, if the window lets a packet of it go now.
    pub fn sendable_order(&self) -> Option<u64> {
        if self.data_ready() {
            self.queue.front().map(|q| q.order)
        } else {
            None
        }
    }

    /// The order stamp of the front message if it has started (some packet of it sent)
    /// and is not yet acknowledged in full.
    pub fn in_flight_order(&self) -> Option<u64> {
        match self.sender {
            Sender::Sending { next_seq, .. } if next_seq > 0 => self.queue.front().map(|q| q.order),
            _ => None,
        }
    }

    /// Messages queued or in progress.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    /// Packets sent and not yet acknowledged.
    pub fn outstanding(&self) -> u16 {
        match self.sender {
            Sender::Idle { .. } => 0,
            Sender::Sending { next_seq, acked, .. } => next_seq - acked,
        }
    }

    /// Packets the peer lets this session have unacknowledged.
    pub fn window(&self) -> u16 {
        self.window
    }

    /// The messages queued or in progress, front first (for audits).
    pub fn queued_messages(&self) -> impl Iterator<Item = &OutMsg> {
        self.queue.iter().map(|q| &q.msg)
    }

    /// Payload bytes of the incoming message received in order so far, if one is partly
    /// received (for audits: they are not yet handed to the redirector).
    pub fn partial_in_bytes(&self) -> u32 {
        match self.receiver {
            Receiver::Idle { .. } => 0,
            Receiver::Receiving { bytes, .. } => bytes,
        }
    }

    /// Checks the invariants of the module doc: the sender is SENDING exactly when a
    /// message is queued, `acked <= next_seq <= packets(front)`, no more than a window
    /// unacknowledged, and a RECEIVING receiver's counts.
    pub fn check(&self) -> Result<(), SessionError> {
        match (self.sender, self.queue.front()) {
            (Sender::Idle { .. }, None) => {}
            (Sender::Idle { .. }, Some(_)) => {
                return Err(SessionError::IdleWithQueue {
                    queued: self.queue.len(),
                })
            }
            (Sender::Sending { msg, .. }, None) => return Err(SessionError::SendingNothing { msg }),
            (Sender::Sending { next_seq, acked, .. }, Some(front)) => {
                let packets = self.packets_of(&front.msg);
                if !(acked <= next_seq && next_seq <= packets) {
                    return Err(SessionError::Sequence {
                        acked,
                        next_seq,
                        packets,
                    });
                }
                if next_seq - acked > self.window {
                    return Err(SessionError::Window {
                        outstanding: next_seq - acked,
                        window: self.window,
                    });
                }
            }
        }
        if let Receiver::Receiving {
            msg, count, unacked, ..
        } = self.receiver
        {
            if count == 0 || unacked > count {
                return Err(SessionError::Receiving { msg, count, unacked });
            }
        }
        Ok(())
    }

    /// Is the sender stalled waiting for an acknowledgement (window full or message fully
    /// sent but not acknowledged)?
    pub fn waiting_for_ack(&self) -> bool {
        match (self.sender, self.queue.front()) {
            (Sender::Sending { next_seq, acked, .. }, Some(q)) => {
                next_seq > acked && (next_seq - acked >= self.window || next_seq >= self.packets_of(&q.msg))
            }
            _ => false,
        }
    }

    /// Has something to send now (an ack, or a data packet the window allows)?
    pub fn ready(&self) -> bool {
        self.control.is_some() || self.data_ready()
    }

    fn data_ready(&self) -> bool {
        match (self.sender, self.queue.front()) {
            (Sender::Sending { next_seq, acked, .. }, Some(q)) => {
                next_seq < self.packets_of(&q.msg) && next_seq - acked < self.window
            }
            _ => false,
        }
    }

    /// Takes the next packet to send, with its payload bytes, and a timer to arm: the
    /// control packet owed if any, else the next data packet the window allows.
    pub fn next_packet(&mut self) -> Option<(Packet, u32, Option<TimerRequest>)> {
        if let Some(c) = self.control.take() {
            self.stats.acks_sent += 1;
            self.ack_timer.stop();
            return Some((c.packet(), 0, None));
        }
        if !self.data_ready() {
            return None;
        }
        let Sender::Sending { msg, next_seq, acked } = self.sender else {
            unreachable!("data_ready checked")
        };
        let m = self.queue.front().expect("data_ready checked").msg;
        let n = self.packets_of(&m);
        let seq = next_seq;
        let offset = seq as u32 * self.payload;
        let bytes = (m.bytes - offset).min(self.payload);
        let value = match m.kind {
            PacketKind::Response => bytes,
            _ => m.value,
        };
        self.sender = Sender::Sending {
            msg,
            next_seq: seq + 1,
            acked,
        };
        self.stats.packets_sent += 1;
        let acks = self.ack_owed.take().is_some();
        if acks {
            self.stats.acks_piggybacked += 1;
        }
        let p = Packet {
            kind: m.kind,
            msg,
            seq,
            last: seq + 1 == n,
            value,
            acks,
        };
        let timer = self.retry.start().map(|gen| TimerRequest::Retry { gen });
        Some((p, bytes, timer))
    }

    /// A packet from the peer arrived intact and in the NOS.
    pub fn receive(&mut self, p: Packet) -> RxResult {
        match p.kind {
            PacketKind::Ack | PacketKind::Nak => self.on_control(p),
            PacketKind::Request | PacketKind::Response => {
                let mut r = self.on_data(p);
                if p.acks {
                    let done = self.complete_front();
                    r.send_complete = r.send_complete.or(done);
                }
                r
            }
        }
    }

    /// A piggybacked acknowledgement: the front message is acknowledged in full if all of
    /// it has been sent.
    fn complete_front(&mut self) -> Option<PacketKind> {
        let Sender::Sending { next_seq, .. } = self.sender else {
            return None;
        };
        let m = self.queue.front()?.msg;
        if next_seq < self.packets_of(&m) {
            return None;
        }
        Some(self.finish_front())
    }

    /// The front message is acknowledged in full: on to the next one, if any.
    fn finish_front(&mut self) -> PacketKind {
        let Sender::Sending { msg, .. } = self.sender else {
            unreachable!("finishing a message while IDLE")
        };
        let front = self.queue.pop_front().expect("SENDING with a message queued");
        let next = msg.wrapping_add(1);
        self.sender = if self.queue.is_empty() {
            Sender::Idle { next_msg: next }
        } else {
            Sender::Sending {
                msg: next,
                next_seq: 0,
                acked: 0,
            }
        };
        self.retry.stop();
        self.stats.messages_sent += 1;
        front.msg.kind
    }

    /// An ACK or a NAK from the peer's receiver.
    fn on_control(&mut self, p: Packet) -> RxResult {
        let none = RxResult::default();
        let (msg, mut next_seq, acked) = match self.sender {
            // nothing in flight: a late or repeated acknowledgement
            Sender::Idle { .. } => return none,
            // an acknowledgement of an earlier message
            Sender::Sending { msg, .. } if msg != p.msg => return none,
            Sender::Sending { msg, next_seq, acked } => (msg, next_seq, acked),
        };
        let m = self.queue.front().expect("SENDING with a message queued").msg;
        let n = self.packets_of(&m);
        let count = (p.value.min(n as u32)) as u16;
        if p.kind == PacketKind::Nak {
            let gap = Gap { msg, from: count };
            if next_seq > count && self.nak_seen != Some(gap) {
                // the receiver lost packet `count`: go back to it now
                self.nak_seen = Some(gap);
                self.stats.packets_retransmitted += (next_seq - count) as u64;
                next_seq = count;
            }
        }
        if count <= acked {
            self.sender = Sender::Sending { msg, next_seq, acked };
            return none;
        }
        let acked = count;
        let next_seq = next_seq.max(count);
        self.sender = Sender::Sending { msg, next_seq, acked };
        if acked == n {
            return RxResult {
                send_complete: Some(self.finish_front()),
                ..none
            };
        }
        // progress: restart the retry timer if packets are still outstanding
        if next_seq > acked {
            RxResult {
                timer: Some(TimerRequest::Retry {
                    gen: self.retry.restart(),
                }),
                ..none
            }
        } else {
            self.retry.stop();
            none
        }
    }

    /// A data packet (part of a request or a response).
    fn on_data(&mut self, p: Packet) -> RxResult {
        let none = RxResult::default();
        let (msg, count) = self.receiver.expecting();
        if p.msg != msg {
            match self.last_done {
                // a duplicate of the message completed last: its ack was lost
                Some(done) if done.msg == p.msg => {
                    self.stats.duplicates += 1;
                    self.control = Some(done.ack());
                }
                _ => {}
            }
            return none;
        }
        if p.seq < count {
            self.stats.duplicates += 1;
            self.control = Some(Control::Ack {
                msg,
                count: count as u32,
            });
            return none;
        }
        if p.seq > count {
            self.stats.out_of_order_discards += 1;
            let gap = Gap { msg, from: count };
            if self.nak_sent != Some(gap) {
                self.nak_sent = Some(gap);
                self.control = Some(Control::Nak { msg, from: count });
            }
            return none;
        }
        // in order
        let (value, mut bytes, unacked) = match self.receiver {
            Receiver::Idle { .. } => (p.value, 0, 0),
            Receiver::Receiving {
                value,
                bytes,
                unacked,
                ..
            } => (value, bytes, unacked),
        };
        let count = count + 1;
        let unacked = unacked + 1;
        if p.kind == PacketKind::Response {
            bytes += p.value;
            self.stats.payload_received += p.value as u64;
        }
        if p.last {
            let done = Completed {
                msg,
                count: count as u32,
            };
            self.last_done = Some(done);
            self.receiver = Receiver::Idle {
                msg: msg.wrapping_add(1),
            };
            self.stats.messages_received += 1;
            let value = if p.kind == PacketKind::Response {
                bytes
            } else {
                value
            };
            let message = Some(Arrived {
                kind: p.kind,
                value,
                bytes,
            });
            if !self.delayed_ack {
                self.control = Some(done.ack());
                return RxResult { message, ..none };
            }
            // wait for a ride on our next message, or for the timer
            self.ack_owed = Some(done);
            let timer = self.ack_timer.start().map(|gen| TimerRequest::Ack { gen });
            return RxResult {
                message,
                timer,
                ..none
            };
        }
        let window_full = unacked >= self.ack_every;
        self.receiver = Receiver::Receiving {
            msg,
            count,
            value,
            bytes,
            unacked: if window_full { 0 } else { unacked },
        };
        if window_full {
            self.control = Some(Control::Ack {
                msg,
                count: count as u32,
            });
            return none;
        }
        if self.delayed_ack {
            return RxResult {
                timer: self.ack_timer.start().map(|gen| TimerRequest::Ack { gen }),
                ..none
            };
        }
        none
    }

    /// The retry timer `gen` expired: go back to the first unacknowledged packet. The
    /// next data packet sent re-arms the timer ([`Session::next_packet`]).
    pub fn retry_expired(&mut self, gen: u32) {
        if !self.retry.expire(gen) {
            return;
        }
        if let Sender::Sending { msg, next_seq, acked } = self.sender {
            if next_seq > acked {
                self.stats.retry_timeouts += 1;
                self.stats.packets_retransmitted += (next_seq - acked) as u64;
                self.sender = Sender::Sending {
                    msg,
                    next_seq: acked,
                    acked,
                };
            }
        }
    }

    /// The delayed-ack timer `gen` expired: acknowledge what has arrived.
    pub fn ack_expired(&mut self, gen: u32) {
        if !self.ack_timer.expire(gen) {
            return;
        }
        if let Some(done) = self.ack_owed.take() {
            self.control = Some(done.ack());
        } else if let Receiver::Receiving {
            msg,
            count,
            ref mut unacked,
            ..
        } = self.receiver
        {
            if *unacked > 0 {
                *unacked = 0;
                self.control = Some(Control::Ack {
                    msg,
                    count: count as u32,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests;
