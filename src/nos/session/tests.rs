//! Unit tests of the NetBIOS session state machines: windows, acknowledgements,
//! negative acknowledgements and go-back-N, piggybacking, timers and the audit.

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
    assert_eq!((nak.kind, nak.value), (PacketKind::Nak, 1));
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
    let gen = a.retry.gen();
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
    let gen = a.retry.gen();
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

// Fixtures per state and packets from the peer.

/// A sender SENDING a 4-packet response with all 4 packets sent (window 8).
fn sending_all_sent() -> Session {
    let mut s = Session::new(1000, 8, 8, false);
    s.send(response(4000));
    while s.next_packet().is_some() {}
    assert_eq!(
        s.sender,
        Sender::Sending {
            msg: 0,
            next_seq: 4,
            acked: 0
        }
    );
    s
}

fn ack(msg: u16, count: u32) -> Packet {
    Control::Ack { msg, count }.packet()
}

fn nak(msg: u16, from: u16) -> Packet {
    Control::Nak { msg, from }.packet()
}

/// Packet `seq` of a response message `msg` of 1000-byte packets.
fn data(msg: u16, seq: u16, last: bool) -> Packet {
    Packet {
        kind: PacketKind::Response,
        msg,
        seq,
        last,
        value: 1000,
        acks: false,
    }
}

#[test]
fn test_sending_nak_received() {
    let mut a = sending_all_sent();
    // the peer has packet 0 and lost packet 1: go back to 1 at once
    let r = a.receive(nak(0, 1));
    assert_eq!(r, RxResult::default(), "nothing outstanding: no retry timer");
    assert_eq!(
        a.sender,
        Sender::Sending {
            msg: 0,
            next_seq: 1,
            acked: 1
        }
    );
    assert_eq!(a.stats.packets_retransmitted, 3);
    assert!(matches!(a.retry, Timer::Stopped { .. }));
    let (p, _, timer) = a.next_packet().unwrap();
    assert_eq!(p.seq, 1);
    assert!(matches!(timer, Some(TimerRequest::Retry { .. })));
}

#[test]
fn test_sending_nak_repeated_for_same_gap() {
    let mut a = sending_all_sent();
    a.receive(nak(0, 1));
    let _ = a.next_packet().unwrap();
    // a second NAK of the same gap (another discarded packet) is not acted on again
    a.receive(nak(0, 1));
    assert_eq!(a.outstanding(), 1);
    assert_eq!(a.stats.packets_retransmitted, 3);
}

#[test]
fn test_sending_ack_partial() {
    let mut a = sending_all_sent();
    let old = a.retry.gen();
    let r = a.receive(ack(0, 2));
    let Some(TimerRequest::Retry { gen }) = r.timer else {
        panic!("retry timer not restarted")
    };
    assert_ne!(gen, old);
    assert_eq!(a.outstanding(), 2);
    // the earlier generation is stale
    a.retry_expired(old);
    assert_eq!((a.outstanding(), a.stats.retry_timeouts), (2, 0));
}

#[test]
fn test_sending_ack_complete() {
    let mut a = sending_all_sent();
    a.send(response(1000));
    let r = a.receive(ack(0, 4));
    assert_eq!(r.send_complete, Some(PacketKind::Response));
    assert_eq!(
        a.sender,
        Sender::Sending {
            msg: 1,
            next_seq: 0,
            acked: 0
        }
    );
    assert!(matches!(a.retry, Timer::Stopped { .. }));
    // a repeated ack of message 0 is for an earlier message
    assert_eq!(a.receive(ack(0, 4)), RxResult::default());
    assert_eq!(a.stats.messages_sent, 1);
    let (p, _, _) = a.next_packet().unwrap();
    assert_eq!(p.msg, 1);
    assert_eq!(a.receive(ack(1, 1)).send_complete, Some(PacketKind::Response));
    assert_eq!(a.sender, Sender::Idle { next_msg: 2 });
}

#[test]
fn test_idle_ack_received() {
    let mut a = Session::new(1000, 8, 8, false);
    assert_eq!(a.receive(ack(0, 1)), RxResult::default());
    assert_eq!(a.receive(nak(0, 0)), RxResult::default());
    assert_eq!(a.sender, Sender::Idle { next_msg: 0 });
    assert_eq!(a.stats, SessionStats::default());
}

#[test]
fn test_sending_retry_expired() {
    let mut a = sending_all_sent();
    a.receive(ack(0, 1));
    let gen = a.retry.gen();
    a.retry_expired(gen);
    assert_eq!(
        a.sender,
        Sender::Sending {
            msg: 0,
            next_seq: 1,
            acked: 1
        }
    );
    assert_eq!((a.stats.retry_timeouts, a.stats.packets_retransmitted), (1, 3));
    assert!(matches!(a.retry, Timer::Stopped { .. }));
    // the next data packet re-arms the timer
    let (p, _, timer) = a.next_packet().unwrap();
    assert_eq!(p.seq, 1);
    assert_eq!(timer, Some(TimerRequest::Retry { gen: gen + 1 }));
    // a second expiry of the old generation is stale
    a.retry_expired(gen);
    assert_eq!(a.stats.retry_timeouts, 1);
}

#[test]
fn test_idle_retry_expired() {
    let mut a = Session::new(1000, 8, 8, false);
    a.send(response(1000));
    let (_, _, Some(TimerRequest::Retry { gen })) = a.next_packet().unwrap() else {
        panic!("no retry timer")
    };
    a.receive(ack(0, 1));
    assert_eq!(a.sender, Sender::Idle { next_msg: 1 });
    a.retry_expired(gen);
    assert_eq!(a.sender, Sender::Idle { next_msg: 1 });
    assert_eq!(a.stats.retry_timeouts, 0);
}

#[test]
fn test_sending_piggybacked_ack_before_all_sent() {
    // a data packet acknowledging our message in full counts only once all is sent
    let mut a = Session::new(1000, 2, 8, false);
    a.send(response(3000));
    while a.next_packet().is_some() {}
    let mut p = data(0, 0, true);
    p.acks = true;
    assert_eq!(a.receive(p).send_complete, None);
    assert_eq!(a.queued(), 1);
}

#[test]
fn test_idle_duplicate_after_completion() {
    let mut b = Session::new(1000, 8, 8, false);
    b.receive(data(0, 0, false));
    assert!(b.receive(data(0, 1, true)).message.is_some());
    assert_eq!(b.receiver, Receiver::Idle { msg: 1 });
    let (first, _, _) = b.next_packet().unwrap();
    assert_eq!((first.kind, first.value), (PacketKind::Ack, 2));
    // the ack was lost: the sender resends, and the whole message is re-acknowledged
    assert_eq!(b.receive(data(0, 1, true)), RxResult::default());
    assert_eq!(b.stats.duplicates, 1);
    assert_eq!(b.control, Some(Control::Ack { msg: 0, count: 2 }));
    assert_eq!(b.stats.messages_received, 1);
}

#[test]
fn test_receiving_duplicate() {
    let mut b = Session::new(1000, 8, 8, false);
    b.receive(data(0, 0, false));
    b.receive(data(0, 1, false));
    assert_eq!(b.receive(data(0, 0, false)), RxResult::default());
    assert_eq!(b.stats.duplicates, 1);
    assert_eq!(b.control, Some(Control::Ack { msg: 0, count: 2 }));
    assert_eq!(b.partial_in_bytes(), 2000);
}

#[test]
fn test_idle_out_of_order() {
    // the first packet of a message is lost
    let mut b = Session::new(1000, 8, 8, false);
    b.receive(data(0, 1, false));
    b.receive(data(0, 2, false));
    assert_eq!(b.receiver, Receiver::Idle { msg: 0 });
    assert_eq!(b.stats.out_of_order_discards, 2);
    let (p, bytes, timer) = b.next_packet().unwrap();
    assert_eq!((p, bytes, timer), (nak(0, 0), 0, None));
    assert!(b.next_packet().is_none(), "one NAK per gap");
}

#[test]
fn test_receiving_ack_every_packets() {
    let mut b = Session::new(1000, 8, 2, false);
    b.receive(data(0, 0, false));
    assert!(!b.has_ack());
    b.receive(data(0, 1, false));
    assert_eq!(b.control, Some(Control::Ack { msg: 0, count: 2 }));
    assert!(matches!(
        b.receiver,
        Receiver::Receiving {
            count: 2,
            unacked: 0,
            ..
        }
    ));
}

#[test]
fn test_receiving_ack_timer_expired_nothing_owed() {
    // the window ack already covers what arrived: the expiry adds nothing
    let mut b = Session::new(1000, 8, 2, true);
    let Some(TimerRequest::Ack { gen }) = b.receive(data(0, 0, false)).timer else {
        panic!("no ack timer")
    };
    b.receive(data(0, 1, false));
    b.ack_expired(gen);
    let (p, _, _) = b.next_packet().unwrap();
    assert_eq!(p, ack(0, 2));
    assert!(b.next_packet().is_none());
    assert_eq!(b.stats.acks_sent, 1);
}

#[test]
fn test_idle_ack_timer_expired_after_piggyback() {
    // the owed ack rode on our reply: the timer finds nothing to send
    let mut b = Session::new(1000, 8, 8, true);
    let Some(TimerRequest::Ack { gen }) = b.receive(data(0, 0, true)).timer else {
        panic!("no ack timer")
    };
    b.send(response(500));
    let (p, _, _) = b.next_packet().unwrap();
    assert!(p.acks);
    b.ack_expired(gen);
    assert!(!b.has_ack());
    assert!(matches!(b.ack_timer, Timer::Stopped { .. }));
}

#[test]
fn test_ack_timer_expired_stale() {
    // an ack sent for another reason stops the timer: its expiry is stale
    let mut b = Session::new(1000, 8, 8, true);
    let Some(TimerRequest::Ack { gen }) = b.receive(data(0, 0, false)).timer else {
        panic!("no ack timer")
    };
    b.receive(data(0, 0, false)); // duplicate: re-ack at once
    let _ = b.next_packet().unwrap();
    b.ack_expired(gen);
    assert!(!b.has_ack());
    assert_eq!(b.stats.acks_sent, 1);
}

#[test]
fn test_timer_generations() {
    let mut t = Timer::NEW;
    assert_eq!(t.start(), Some(1));
    assert_eq!(t.start(), None, "already armed");
    assert!(!t.expire(0));
    assert_eq!(t.restart(), 2);
    assert!(!t.expire(1), "restart makes generation 1 stale");
    assert!(t.expire(2));
    assert_eq!(t, Timer::Stopped { gen: 2 });
    assert!(!t.expire(2), "a stopped timer does not expire");
    t.stop();
    assert_eq!(t.start(), Some(4));
}

#[test]
fn test_check_reports_each_invariant() {
    let mut s = sending_all_sent();
    assert_eq!(s.check(), Ok(()));
    s.sender = Sender::Sending {
        msg: 0,
        next_seq: 5,
        acked: 0,
    };
    assert!(matches!(
        s.check(),
        Err(SessionError::Sequence {
            next_seq: 5,
            packets: 4,
            ..
        })
    ));
    let mut s = Session::new(1000, 2, 8, false);
    s.send(response(4000));
    s.sender = Sender::Sending {
        msg: 0,
        next_seq: 3,
        acked: 0,
    };
    let e = s.check().unwrap_err();
    assert_eq!(e.to_string(), "3 packets unacknowledged, window 2");
    s.sender = Sender::Idle { next_msg: 0 };
    assert_eq!(s.check(), Err(SessionError::IdleWithQueue { queued: 1 }));
    let mut s = Session::new(1000, 2, 8, false);
    s.sender = Sender::Sending {
        msg: 7,
        next_seq: 0,
        acked: 0,
    };
    assert_eq!(s.check(), Err(SessionError::SendingNothing { msg: 7 }));
    let mut s = Session::new(1000, 2, 8, false);
    s.receiver = Receiver::Receiving {
        msg: 0,
        count: 0,
        value: 0,
        bytes: 0,
        unacked: 0,
    };
    assert!(matches!(s.check(), Err(SessionError::Receiving { count: 0, .. })));
}
