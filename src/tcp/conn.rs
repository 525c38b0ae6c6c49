//! One established TCP connection between this host and a peer, as a pure state machine.
//!
//! The application side writes into the send buffer ([`Connection::write`], accepting
//! what fits) and reads from the receive buffer ([`Connection::read`]); the network side
//! asks for the next segment to send when the driver has room
//! ([`Connection::next_segment`]) and feeds in received segments
//! ([`Connection::on_segment`]) and timer expiries ([`Connection::on_timer`]). Timers the
//! node must arm are drained with [`Connection::take_timer_requests`]; each carries a
//! generation, and an expiry of any other generation is stale and ignored.
//!
//! Send half: bytes `una..nxt` are sent and unacknowledged, `nxt..written` wait. A segment
//! goes out when it is a full MSS, or the last queued bytes (held by Nagle while anything
//! is unacknowledged, if the profile says so), within the peer's window and the
//! congestion window; a segment the peer's window cuts short is held while it is below
//! half the largest window the peer offered (sender silly-window avoidance, RFC 1122
//! 4.2.3.4). A retransmission timeout goes back to `una` (go-back-N) and halves
//! nothing but resets the congestion window to one segment. With nothing in flight and
//! data held (a closed window, or one too small to use) the same timer is the persist
//! timer ([`Persist`]): its expiry sends what the window allows (the SWS override) or,
//! against a zero window, a one-byte probe, re-sent at the backed-off RTO while the
//! window stays shut (RFC 1122 4.2.2.17).
//!
//! Receive half: only the next in-order segment is accepted, if it fits both the
//! advertised window and the buffer (payload plus the profile's per-segment overhead);
//! anything else is dropped and answered at once with a duplicate ACK. In-order data is
//! acknowledged at once after `ack_every_segments` segments, else when the delayed-ACK
//! timer runs out, or by any segment that leaves first. The advertised right edge never
//! moves back (RFC 793 / RFC 1122 4.2.2.16). A receive buffer too small for Linux's
//! window reserve (one that could never offer a window: [`Connection::reserve_fits`])
//! offers its free space by RFC 1122 4.2.3.3 instead.
//!
//! States (RFC 793 names): ESTABLISHED; FIN-WAIT-1 once our FIN is sent, FIN-WAIT-2 once
//! it is acknowledged; CLOSE-WAIT once the peer's FIN is received.
//!
//! Invariants ([`Connection::check`]): `una <= nxt <= sent_max <= written + 1`,
//! the receive buffer holds exactly `readable` bytes, and `rcv_nxt <= edge`.

use std::collections::VecDeque;
use std::fmt;

use super::profile::{AckClock, Congestion, SendRule, StackProfile, WindowRule, WindowUpdateRule};
use super::rto::RtoEstimator;
use super::segment::Segment;
use crate::time::{SimDuration, SimTime};

/// Largest window a TCP header can carry without window scaling (RFC 793).
pub const MAX_WINDOW_FIELD: u32 = 65_535;

/// The connection's two timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timer {
    /// Retransmission (or, with nothing in flight, persist) timer.
    Retransmit,
    DelayedAck,
}

/// A timer the node must arm: `timer` expires `after` from now with generation `gen`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimerRequest {
    pub timer: Timer,
    pub gen: u32,
    pub after: SimDuration,
}

/// Counters of one connection.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConnStats {
    pub segments_sent: u64,
    pub data_segments_sent: u64,
    pub pure_acks_sent: u64,
    /// Payload bytes sent for the first time.
    pub bytes_sent: u64,
    pub bytes_retransmitted: u64,
    pub retransmit_timeouts: u64,
    /// One-byte probes sent against a zero window (RFC 1122 4.2.2.17).
    pub window_probes: u64,
    /// Short segments sent by the persist timer overriding sender silly-window
    /// avoidance (RFC 1122 4.2.3.4).
    pub sws_overrides: u64,
    pub segments_received: u64,
    /// Payload bytes accepted in order.
    pub bytes_received: u64,
    pub bytes_read: u64,
    pub out_of_order_drops: u64,
    pub duplicate_drops: u64,
    /// Dropped: beyond the advertised window, or the receive buffer is full.
    pub window_drops: u64,
    pub buffer_drops: u64,
    pub delayed_acks: u64,
    pub window_updates: u64,
}

/// Where a connection's two halves are in sequence space (bytes from 0; a FIN takes one
/// number after the data).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeqState {
    /// Oldest unacknowledged, next to send, highest ever sent (send half).
    pub una: u64,
    pub nxt: u64,
    pub sent_max: u64,
    /// End of the data the application wrote.
    pub written: u64,
    /// Next expected (receive half), the FIN included once it arrived.
    pub rcv_nxt: u64,
    pub rcv_fin: bool,
}

/// A connection invariant that does not hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConnError {
    #[error("send sequence: una {una} <= nxt {nxt} <= sent_max {sent_max} <= written+1 {end} does not hold")]
    Sequence {
        una: u64,
        nxt: u64,
        sent_max: u64,
        end: u64,
    },
    #[error("receive buffer holds {held} bytes but {readable} are readable")]
    Buffer { held: u64, readable: u64 },
    #[error("rcv_nxt {nxt} is beyond the advertised edge {edge}")]
    Edge { nxt: u64, edge: u64 },
}

/// The sending half's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SendState {
    Open,
    /// The application closed: a FIN follows the last byte written.
    FinQueued,
    FinSent,
    FinAcked,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TimerState {
    Stopped,
    Armed { gen: u32 },
}

/// The send half's persist state (RFC 793 3.7 "Managing the Window", RFC 1122
/// 4.2.2.17 and 4.2.3.4). The persist timer is the retransmit timer's slot when nothing
/// is in flight: data waits and the window is shut or too small to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Persist {
    /// Not persisting: the send rules alone decide.
    Idle,
    /// The persist timer expired: the next output sends what the window allows (RFC 1122
    /// 4.2.3.4, the SWS override), or a one-byte probe beyond a zero window (4.2.2.17).
    Due,
    /// A one-byte probe beyond a zero window is outstanding; its retransmit timer is the
    /// next persist interval (the RTO, doubled at each unanswered probe).
    Probing,
}

/// What a received segment did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RxOutcome {
    /// Payload bytes accepted into the receive buffer.
    pub accepted: u32,
    /// Send-buffer bytes freed by the acknowledgement.
    pub acked: u64,
    /// The peer's FIN arrived (the reader will see end of file after the data).
    pub fin: bool,
}

#[derive(Clone, Debug)]
struct SendHalf {
    una: u64,
    nxt: u64,
    /// Highest sequence ever sent (end of the sent space).
    sent_max: u64,
    /// End of the data the application wrote.
    written: u64,
    /// The peer's right edge: its last ACK plus its window.
    wnd_edge: u64,
    cwnd_segments: u32,
    cwnd_acks: u32,
    /// The largest window the peer offered (RFC 1122 4.2.3.4 `Max(SND.WND)`).
    max_wnd: u64,
    /// The one segment being timed: (its end, when it was sent).
    timing: Option<(u64, SimTime)>,
    persist: Persist,
    state: SendState,
    rtx: TimerState,
    rto: RtoEstimator,
}

#[derive(Clone, Debug)]
struct RecvHalf {
    nxt: u64,
    /// Queued segments: (payload, bytes not yet read).
    queue: VecDeque<(u32, u32)>,
    readable: u64,
    /// Right edge last advertised.
    edge: u64,
    unacked_segments: u32,
    ack_owed: bool,
    fin: bool,
    delack: TimerState,
}

/// One established connection (see the module doc).
#[derive(Clone, Debug)]
pub struct Connection {
    profile: StackProfile,
    mss: u32,
    sndbuf: u32,
    rcvbuf: u32,
    snd: SendHalf,
    rcv: RecvHalf,
    next_gen: u32,
    requests: Vec<TimerRequest>,
    stats: ConnStats,
    /// Phase of the host's fast-timeout clock ([`AckClock::FastTimeout`]): it ticks at
    /// `phase + k * delayed_ack`.
    clock_phase: SimDuration,
}

impl fmt::Display for Connection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match (self.snd.state, self.rcv.fin) {
            (SendState::FinSent, false) => "FIN-WAIT-1",
            (SendState::FinAcked, false) => "FIN-WAIT-2",
            (SendState::FinSent, true) => "CLOSING",
            (SendState::FinAcked, true) => "TIME-WAIT",
            (_, true) => "CLOSE-WAIT",
            _ => "ESTABLISHED",
        };
        f.write_str(s)
    }
}

impl Connection {
    /// Both ends of a connection whose handshake is done: each offered its initial
    /// window and the MSS is the smaller of the two stacks'. Buffers are (send, receive)
    /// bytes per end.
    pub fn pair(a: (StackProfile, u32, u32), b: (StackProfile, u32, u32)) -> (Connection, Connection) {
        let mss = a.0.mss_bytes.min(b.0.mss_bytes);
        let mut ca = Connection::new(a.0, mss, a.1, a.2);
        let mut cb = Connection::new(b.0, mss, b.1, b.2);
        ca.snd.wnd_edge = cb.rcv.edge;
        cb.snd.wnd_edge = ca.rcv.edge;
        ca.snd.max_wnd = cb.rcv.edge;
        cb.snd.max_wnd = ca.rcv.edge;
        (ca, cb)
    }

    fn new(profile: StackProfile, mss: u32, sndbuf: u32, rcvbuf: u32) -> Connection {
        let cwnd = match profile.congestion {
            Congestion::None => u32::MAX,
            Congestion::Linear { .. } => 1,
        };
        let mut c = Connection {
            profile,
            mss,
            sndbuf,
            rcvbuf,
            snd: SendHalf {
                una: 0,
                nxt: 0,
                sent_max: 0,
                written: 0,
                wnd_edge: 0,
                cwnd_segments: cwnd,
                cwnd_acks: 0,
                max_wnd: 0,
                timing: None,
                persist: Persist::Idle,
                state: SendState::Open,
                rtx: TimerState::Stopped,
                rto: RtoEstimator::new(profile.rto_initial, profile.rto_min, profile.rto_max),
            },
            rcv: RecvHalf {
                nxt: 0,
                queue: VecDeque::new(),
                readable: 0,
                edge: 0,
                unacked_segments: 0,
                ack_owed: false,
                fin: false,
                delack: TimerState::Stopped,
            },
            next_gen: 0,
            requests: Vec::new(),
            stats: ConnStats::default(),
            clock_phase: SimDuration::ZERO,
        };
        c.rcv.edge = c.rcv.nxt + c.offer() as u64;
        c
    }

    pub fn stats(&self) -> &ConnStats {
        &self.stats
    }

    /// Sets the phase of the host's fast-timeout clock (used with
    /// [`AckClock::FastTimeout`]; reduced modulo its period).
    pub fn set_clock_phase(&mut self, phase: SimDuration) {
        let period = self.profile.delayed_ack.as_nanos().max(1);
        self.clock_phase = SimDuration::from_nanos(phase.as_nanos() % period);
    }

    /// Time from `now` to the next tick of the fast-timeout clock (a whole period if a
    /// tick is now: the tick being processed has passed).
    fn to_next_tick(&self, now: SimTime) -> SimDuration {
        let period = self.profile.delayed_ack.as_nanos();
        let since = (now.as_nanos() + period - self.clock_phase.as_nanos()) % period;
        SimDuration::from_nanos(period - since)
    }
    pub fn mss(&self) -> u32 {
        self.mss
    }
    pub fn profile(&self) -> &StackProfile {
        &self.profile
    }

    // ----- application side -----

    /// Bytes a segment's worth of payload costs in a socket buffer.
    fn truesize(&self, payload: u64) -> u64 {
        payload + self.profile.buffer_overhead_bytes as u64 * payload.div_ceil(self.mss as u64)
    }

    /// Bytes the application can write now without blocking.
    pub fn write_space(&self) -> u32 {
        if self.snd.state != SendState::Open {
            return 0;
        }
        let per = (self.mss + self.profile.buffer_overhead_bytes) as u64;
        let full = self.sndbuf as u64 / per;
        let rest = (self.sndbuf as u64 % per).saturating_sub(self.profile.buffer_overhead_bytes as u64);
        let capacity = full * self.mss as u64 + rest;
        let queued = self.snd.written - self.snd.una.min(self.snd.written);
        debug_assert!(self.truesize(queued) <= self.sndbuf as u64 || queued == 0);
        capacity.saturating_sub(queued).min(u32::MAX as u64) as u32
    }

    /// Copies up to `bytes` into the send buffer; returns how many fitted.
    pub fn write(&mut self, bytes: u32) -> u32 {
        let n = bytes.min(self.write_space());
        self.snd.written += n as u64;
        n
    }

    /// The application is done writing: a FIN follows the data.
    pub fn close(&mut self) {
        if self.snd.state == SendState::Open {
            self.snd.state = SendState::FinQueued;
        }
    }

    /// Everything written, and the FIN, is acknowledged.
    pub fn send_done(&self) -> bool {
        self.snd.state == SendState::FinAcked
    }

    /// The sequence numbers of both halves, for audits across a pair.
    pub fn seq_state(&self) -> SeqState {
        SeqState {
            una: self.snd.una,
            nxt: self.snd.nxt,
            sent_max: self.snd.sent_max,
            written: self.snd.written,
            rcv_nxt: self.rcv.nxt,
            rcv_fin: self.rcv.fin,
        }
    }

    /// The window the peer offered last, counted from the oldest unacknowledged byte.
    pub fn peer_window(&self) -> u64 {
        self.snd.wnd_edge.saturating_sub(self.snd.una)
    }

    /// The largest window the peer has offered (RFC 1122 4.2.3.4 `Max(SND.WND)`).
    pub fn max_peer_window(&self) -> u64 {
        self.snd.max_wnd
    }

    /// The socket receive buffer, bytes.
    pub fn rcvbuf(&self) -> u32 {
        self.rcvbuf
    }

    /// Bytes the application can read now.
    pub fn readable(&self) -> u64 {
        self.rcv.readable
    }

    /// The peer closed and every byte before its FIN was read.
    pub fn eof(&self) -> bool {
        self.rcv.fin && self.rcv.readable == 0
    }

    /// Takes up to `max` bytes from the receive buffer; may owe the peer a window update.
    pub fn read(&mut self, max: u64) -> u64 {
        let mut left = max.min(self.rcv.readable);
        let n = left;
        while left > 0 {
            let front = self.rcv.queue.front_mut().expect("readable bytes are queued");
            let take = (front.1 as u64).min(left) as u32;
            front.1 -= take;
            left -= take as u64;
            if front.1 == 0 {
                self.rcv.queue.pop_front();
            }
        }
        self.rcv.readable -= n;
        self.stats.bytes_read += n;
        if n > 0 && !self.rcv.fin {
            let new_edge = self.rcv.nxt + self.offer() as u64;
            let threshold = match self.profile.window_update {
                // RFC 1122 4.2.3.3: an update once the edge can move by the SWS step.
                // Linux 1.2's `tcp_read` asks for more than one MSS; a read of one
                // segment moves the edge by exactly one MSS on a buffer whose window is
                // about a segment (under 16 KB), and that update would never leave: the
                // sender, holding its short tail by SWS avoidance, would wait on the
                // persist timer for every segment. The model sends it at the step.
                WindowUpdateRule::MoreThanMss => self.rfc1122_step(),
                _ if !self.reserve_fits() => self.rfc1122_step(),
                WindowUpdateRule::PercentOfBuffer(p) => (self.rcvbuf as u64 * p as u64).div_ceil(100),
            };
            if new_edge >= self.rcv.edge + threshold && !self.rcv.ack_owed {
                self.rcv.ack_owed = true;
                self.stats.window_updates += 1;
            }
        }
        n
    }

    // ----- receive-side window -----

    /// Receive-buffer bytes in use: payloads still (partly) unread plus the overhead.
    fn rmem(&self) -> u64 {
        self.rcv
            .queue
            .iter()
            .map(|&(len, _)| len as u64 + self.profile.buffer_overhead_bytes as u64)
            .sum()
    }

    /// Linux 1.2's window rule can open a window on this receive buffer: empty, it
    /// offers at least its own floor (`min(mss, sws_floor)`). Below that (`rcvbuf <
    /// 2 * (reserve + min(mss, sws_floor))`, 6968 bytes for MSS 1436), `sock_rspace`
    /// and `tcp_select_window` would offer a zero window forever. Other rules always fit.
    pub fn reserve_fits(&self) -> bool {
        match self.profile.window {
            WindowRule::HalfFreeSpace {
                reserve_bytes,
                max_bytes,
                full_margin_bytes,
                sws_floor_bytes,
            } => {
                let rcvbuf = self.rcvbuf as u64;
                let empty = (rcvbuf / 2)
                    .saturating_sub(reserve_bytes as u64)
                    .min(max_bytes as u64);
                rcvbuf > full_margin_bytes as u64 && empty >= self.mss.min(sws_floor_bytes) as u64
            }
            WindowRule::FreeSpace { .. } => true,
        }
    }

    /// RFC 1122 4.2.3.3 (receiver SWS avoidance): the right edge moves, and a window
    /// update is due, only when it can move by `min(Fr * RCV.BUFF, Eff.snd.MSS)` with
    /// `Fr = 1/2`; never more than an empty buffer could offer (a 256-byte buffer holds
    /// one 42-byte payload beside Linux's 214 bytes of skb).
    fn rfc1122_step(&self) -> u64 {
        let most = self.payload_room(self.rcvbuf as u64);
        (self.mss as u64).min(self.rcvbuf as u64 / 2).min(most).max(1)
    }

    /// Payload bytes that fit in `space` bytes of socket buffer as full segments, each
    /// costing the profile's overhead besides its payload.
    fn payload_room(&self, space: u64) -> u64 {
        let over = self.profile.buffer_overhead_bytes as u64;
        let per = self.mss as u64 + over;
        (space / per) * self.mss as u64 + (space % per).saturating_sub(over)
    }

    /// The window to offer now (never moving the advertised edge back).
    fn offer(&self) -> u32 {
        let rcvbuf = self.rcvbuf as u64;
        let rmem = self.rmem();
        let free = rcvbuf.saturating_sub(rmem);
        if !self.reserve_fits() {
            // RFC 1122 4.2.3.3: offer the free space (as payload that fits with the
            // per-segment overhead), moving the edge only by at least the SWS step
            let kept = self.rcv.edge.saturating_sub(self.rcv.nxt);
            let room = self.payload_room(free);
            let w = if self.rcv.nxt + room >= self.rcv.edge + self.rfc1122_step() {
                room
            } else {
                kept
            };
            return w.min(MAX_WINDOW_FIELD as u64) as u32;
        }
        let (fresh, floor) = match self.profile.window {
            WindowRule::HalfFreeSpace {
                reserve_bytes,
                max_bytes,
                full_margin_bytes,
                sws_floor_bytes,
            } => {
                let w = if rmem + full_margin_bytes as u64 >= rcvbuf {
                    0
                } else {
                    (free / 2)
                        .saturating_sub(reserve_bytes as u64)
                        .min(max_bytes as u64)
                };
                (w, self.mss.min(sws_floor_bytes) as u64)
            }
            WindowRule::FreeSpace { sws_divisor } => {
                let floor = rcvbuf / sws_divisor as u64;
                (if free < floor { 0 } else { free }, floor)
            }
        };
        let kept = self.rcv.edge.saturating_sub(self.rcv.nxt);
        let w = if fresh < floor || fresh < kept {
            kept
        } else {
            fresh
        };
        w.min(MAX_WINDOW_FIELD as u64) as u32
    }

    // ----- timers -----

    fn arm(&mut self, timer: Timer, after: SimDuration) {
        self.next_gen = self.next_gen.wrapping_add(1);
        let gen = self.next_gen;
        let state = TimerState::Armed { gen };
        match timer {
            Timer::Retransmit => self.snd.rtx = state,
            Timer::DelayedAck => self.rcv.delack = state,
        }
        self.requests.retain(|r| r.timer != timer);
        self.requests.push(TimerRequest { timer, gen, after });
    }

    fn stop(&mut self, timer: Timer) {
        match timer {
            Timer::Retransmit => self.snd.rtx = TimerState::Stopped,
            Timer::DelayedAck => self.rcv.delack = TimerState::Stopped,
        }
        self.requests.retain(|r| r.timer != timer);
    }

    /// Timers armed since the last call (at most one per timer: the latest).
    pub fn take_timer_requests(&mut self) -> Vec<TimerRequest> {
        std::mem::take(&mut self.requests)
    }

    /// A timer expired; returns false if it was stale (stopped or re-armed since).
    pub fn on_timer(&mut self, timer: Timer, gen: u32) -> bool {
        let state = match timer {
            Timer::Retransmit => self.snd.rtx,
            Timer::DelayedAck => self.rcv.delack,
        };
        if state != (TimerState::Armed { gen }) {
            return false;
        }
        match timer {
            Timer::Retransmit => {
                self.snd.rtx = TimerState::Stopped;
                if self.snd.nxt == self.snd.una && self.snd.state != SendState::FinSent {
                    // the persist timer (RFC 1122 4.2.2.17, 4.2.3.4): nothing in flight,
                    // data held by a shut or unusably small window
                    self.snd.persist = Persist::Due;
                } else if self.snd.persist == Persist::Probing {
                    // RFC 1122 4.2.2.17: the probe went unanswered by an open window:
                    // probe again after a doubled interval. Not a retransmission timeout:
                    // the congestion window stays.
                    self.snd.rto.back_off();
                    self.go_back();
                    self.snd.persist = Persist::Due;
                } else {
                    self.stats.retransmit_timeouts += 1;
                    self.snd.rto.back_off();
                    self.go_back();
                    if let Congestion::Linear { .. } = self.profile.congestion {
                        self.snd.cwnd_segments = 1;
                        self.snd.cwnd_acks = 0;
                    }
                }
            }
            Timer::DelayedAck => {
                self.rcv.delack = TimerState::Stopped;
                if self.rcv.unacked_segments > 0 {
                    self.rcv.ack_owed = true;
                    self.stats.delayed_acks += 1;
                }
            }
        }
        true
    }

    /// Sends again from `una` (a timeout): what was in flight is sent anew, and the
    /// segment being timed no longer gives a sample (Karn).
    fn go_back(&mut self) {
        self.snd.timing = None;
        self.snd.nxt = self.snd.una;
        if self.snd.state == SendState::FinSent {
            self.snd.state = SendState::FinQueued;
        }
    }

    /// Sender silly-window avoidance (RFC 1122 4.2.3.4, after RFC 813): a segment the
    /// peer's window cuts below a full MSS (and below what is queued) is worth sending
    /// only if it is at least `Fr = 1/2` of the largest window the peer has offered
    /// (Linux 1.2 `tcp_write`: `copy < (sk->max_window >> 1)` waits). Otherwise it waits
    /// for a larger window or the override (the persist timer, [`Persist::Due`]).
    fn sws_allows(&self, len: u64) -> bool {
        len * 2 >= self.snd.max_wnd
    }

    // ----- network side -----

    /// The next segment to send, if any: data (carrying the ACK and window) when the
    /// windows and the send rules allow, else an owed ACK or window update.
    /// Written data waits that the window (the peer's or the congestion window) does
    /// not let out: less than a segment's worth (or less than all of it) is usable.
    pub fn window_shut(&self) -> bool {
        let s = &self.snd;
        let unsent = s.written.saturating_sub(s.nxt);
        let cwnd_edge = s.una.saturating_add(s.cwnd_segments as u64 * self.mss as u64);
        let usable = s.wnd_edge.min(cwnd_edge).saturating_sub(s.nxt);
        unsent > 0 && usable < unsent.min(self.mss as u64)
    }

    pub fn next_segment(&mut self, now: SimTime) -> Option<Segment> {
        let s = &self.snd;
        let unsent = s.written.saturating_sub(s.nxt);
        let fin_due = s.state == SendState::FinQueued;
        let cwnd_edge = s.una.saturating_add(s.cwnd_segments as u64 * self.mss as u64);
        let edge = s.wnd_edge.min(cwnd_edge);
        let usable = edge.saturating_sub(s.nxt);
        let idle = s.nxt == s.una;
        let want = unsent.min(self.mss as u64);
        let mut len = want.min(usable);
        let send_data = len > 0
            && match self.profile.send_rule {
                SendRule::FullLastOrIdle => {
                    len == self.mss as u64
                        || (len == unsent && (fin_due || !self.profile.nagle || idle))
                        || (idle && self.sws_allows(len))
                }
                SendRule::FullAllOrQuarterWindow => {
                    let snd_wnd = s.wnd_edge.saturating_sub(s.una);
                    len == self.mss as u64 || len == unsent || len * 4 >= snd_wnd
                }
            };
        // the persist timer expired with data held and nothing in flight: send what the
        // window allows (RFC 1122 4.2.3.4 override), or one byte beyond a zero window
        // (RFC 793 3.7, RFC 1122 4.2.2.17)
        let forced = !send_data && s.persist == Persist::Due && unsent > 0 && idle;
        let probe = forced && len == 0;
        if probe {
            len = 1;
        }
        let fin = fin_due && s.nxt + len == s.written && (send_data || forced || unsent == 0);
        if send_data || forced || fin {
            let len = if send_data || forced { len as u32 } else { 0 };
            if probe {
                self.stats.window_probes += 1;
            } else if forced {
                self.stats.sws_overrides += 1;
            }
            let seg = self.emit(now, len, fin);
            if probe {
                self.snd.persist = Persist::Probing;
            }
            return Some(seg);
        }
        if unsent > 0 && idle && self.snd.rtx == TimerState::Stopped && self.snd.persist == Persist::Idle {
            // held with nothing in flight: a shut window, or one SWS avoidance will not use
            let rto = self.snd.rto.rto();
            self.arm(Timer::Retransmit, rto);
        }
        if self.rcv.ack_owed {
            self.stats.pure_acks_sent += 1;
            return Some(self.emit(now, 0, false));
        }
        None
    }

    fn emit(&mut self, now: SimTime, len: u32, fin: bool) -> Segment {
        let seq = self.snd.nxt;
        let window = self.offer();
        self.rcv.edge = self.rcv.edge.max(self.rcv.nxt + window as u64);
        let seg = Segment {
            seq,
            len,
            ack: self.rcv.nxt,
            window,
            fin,
        };
        self.rcv.ack_owed = false;
        self.rcv.unacked_segments = 0;
        if self.rcv.delack != TimerState::Stopped {
            self.stop(Timer::DelayedAck);
        }
        self.stats.segments_sent += 1;
        if seg.seq_len() > 0 {
            self.snd.persist = Persist::Idle;
            if len > 0 {
                self.stats.data_segments_sent += 1;
            }
            let end = seg.end();
            let fresh = (seq + len as u64).saturating_sub(self.snd.sent_max.max(seq));
            self.stats.bytes_sent += fresh;
            self.stats.bytes_retransmitted += len as u64 - fresh;
            if end > self.snd.sent_max && self.snd.timing.is_none() && seq >= self.snd.sent_max {
                self.snd.timing = Some((end, now));
            }
            self.snd.nxt = end;
            self.snd.sent_max = self.snd.sent_max.max(end);
            if fin {
                self.snd.state = SendState::FinSent;
            }
            if self.snd.rtx == TimerState::Stopped {
                let rto = self.snd.rto.rto();
                self.arm(Timer::Retransmit, rto);
            }
        }
        seg
    }

    /// A segment from the peer arrived.
    pub fn on_segment(&mut self, seg: &Segment, now: SimTime) -> RxOutcome {
        self.stats.segments_received += 1;
        let mut out = RxOutcome::default();
        // acknowledgement and window
        let s = &mut self.snd;
        if seg.ack > s.una && seg.ack <= s.sent_max {
            let data_end = s.written;
            let freed = seg.ack.min(data_end) - s.una.min(data_end);
            out.acked = freed;
            s.una = seg.ack;
            if s.persist == Persist::Probing {
                s.persist = Persist::Idle; // the probe's byte was taken
            }
            s.nxt = s.nxt.max(s.una);
            if s.state == SendState::FinSent && seg.ack == data_end + 1 {
                s.state = SendState::FinAcked;
            }
            if let Some((end, sent)) = s.timing {
                if seg.ack >= end {
                    s.rto.sample(now - sent);
                    s.timing = None;
                }
            }
            if let Congestion::Linear { max_segments } = self.profile.congestion {
                s.cwnd_acks += 1;
                if s.cwnd_acks >= s.cwnd_segments {
                    s.cwnd_acks = 0;
                    s.cwnd_segments = (s.cwnd_segments + 1).min(max_segments);
                }
            }
            if self.snd.una == self.snd.sent_max {
                self.stop(Timer::Retransmit);
            } else {
                let rto = self.snd.rto.rto();
                self.arm(Timer::Retransmit, rto);
            }
        }
        if seg.ack >= self.snd.una {
            self.snd.wnd_edge = seg.ack + seg.window as u64;
            self.snd.max_wnd = self.snd.max_wnd.max(seg.window as u64);
            if self.snd.persist == Persist::Probing && seg.ack == self.snd.una && seg.window > 0 {
                // the window opened with the probe's byte not taken: it leads the next
                // segment, and the persist timer is done
                self.snd.persist = Persist::Idle;
                self.snd.timing = None;
                self.snd.nxt = self.snd.una;
                if self.snd.state == SendState::FinSent {
                    self.snd.state = SendState::FinQueued;
                }
                self.stop(Timer::Retransmit);
            }
        }
        // data
        if seg.seq_len() == 0 {
            return out;
        }
        let fits_window = seg.seq + seg.len as u64 <= self.rcv.edge;
        let fits_buffer =
            self.rmem() + seg.len as u64 + self.profile.buffer_overhead_bytes as u64 <= self.rcvbuf as u64;
        if seg.seq != self.rcv.nxt || self.rcv.fin || !fits_window || !fits_buffer {
            if seg.seq > self.rcv.nxt {
                self.stats.out_of_order_drops += 1;
            } else if seg.seq < self.rcv.nxt || self.rcv.fin {
                self.stats.duplicate_drops += 1;
            } else if !fits_window {
                self.stats.window_drops += 1;
            } else {
                self.stats.buffer_drops += 1;
            }
            self.rcv.ack_owed = true;
            return out;
        }
        if seg.len > 0 {
            self.rcv.queue.push_back((seg.len, seg.len));
            self.rcv.readable += seg.len as u64;
            self.stats.bytes_received += seg.len as u64;
        }
        self.rcv.nxt = seg.seq + seg.len as u64;
        out.accepted = seg.len;
        self.rcv.unacked_segments += 1;
        if seg.fin {
            self.rcv.nxt += 1;
            self.rcv.edge = self.rcv.edge.max(self.rcv.nxt);
            self.rcv.fin = true;
            self.rcv.ack_owed = true;
            out.fin = true;
        } else {
            match self.profile.ack_clock {
                AckClock::OneShot => {
                    if self.rcv.unacked_segments >= self.profile.ack_every_segments {
                        self.rcv.ack_owed = true;
                    } else if self.rcv.delack == TimerState::Stopped {
                        self.arm(Timer::DelayedAck, self.profile.delayed_ack);
                    }
                }
                AckClock::FastTimeout => {
                    if self.rcv.delack == TimerState::Stopped {
                        let after = self.to_next_tick(now);
                        self.arm(Timer::DelayedAck, after);
                    }
                }
            }
        }
        out
    }

    /// Checks the invariants of the module doc.
    pub fn check(&self) -> Result<(), ConnError> {
        let s = &self.snd;
        let end = s.written + 1;
        if !(s.una <= s.nxt && s.nxt <= s.sent_max && s.sent_max <= end) {
            return Err(ConnError::Sequence {
                una: s.una,
                nxt: s.nxt,
                sent_max: s.sent_max,
                end,
            });
        }
        let held: u64 = self.rcv.queue.iter().map(|&(_, left)| left as u64).sum();
        if held != self.rcv.readable {
            return Err(ConnError::Buffer {
                held,
                readable: self.rcv.readable,
            });
        }
        if self.rcv.nxt > self.rcv.edge {
            return Err(ConnError::Edge {
                nxt: self.rcv.nxt,
                edge: self.rcv.edge,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
