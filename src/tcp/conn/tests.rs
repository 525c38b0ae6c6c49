//! Hand-worked cases of the connection, one per behaviour, and a lossy transfer.

use super::*;

fn linux_like() -> StackProfile {
    StackProfile {
        mss_bytes: 1000,
        ack_every_segments: 1,
        delayed_ack: SimDuration::ZERO,
        ack_clock: AckClock::OneShot,
        send_rule: SendRule::FullLastOrIdle,
        window: WindowRule::FreeSpace { sws_divisor: 4 },
        window_update: WindowUpdateRule::MoreThanMss,
        buffer_overhead_bytes: 0,
        congestion: Congestion::None,
        nagle: true,
        rto_initial: SimDuration::from_millis(1000),
        rto_min: SimDuration::from_millis(200),
        rto_max: SimDuration::from_secs(60),
        checksum_in_copy: false,
    }
}

fn delayed(p: StackProfile) -> StackProfile {
    StackProfile {
        ack_every_segments: 2,
        delayed_ack: SimDuration::from_millis(200),
        ..p
    }
}

fn t(ms: u64) -> SimTime {
    SimTime::ZERO + SimDuration::from_millis(ms)
}

fn pair(p: StackProfile, rcvbuf: u32) -> (Connection, Connection) {
    Connection::pair((p, 64_000, rcvbuf), (p, 64_000, rcvbuf))
}

#[test]
fn test_established_one_segment() {
    let (mut a, mut b) = pair(linux_like(), 8000);
    assert_eq!(a.to_string(), "ESTABLISHED");
    assert_eq!(a.write(100), 100);
    let s = a
        .next_segment(t(0))
        .expect("a short segment goes out when nothing is in flight");
    assert_eq!((s.seq, s.len, s.fin), (0, 100, false));
    assert_eq!(s.frame_bytes(), 158);
    assert!(a.next_segment(t(0)).is_none());
    let req = a.take_timer_requests();
    assert_eq!(req.len(), 1);
    assert_eq!(req[0].timer, Timer::Retransmit);
    assert_eq!(req[0].after, SimDuration::from_millis(1000));

    let out = b.on_segment(&s, t(1));
    assert_eq!(out.accepted, 100);
    let ack = b
        .next_segment(t(1))
        .expect("every segment is acknowledged at once");
    assert!(ack.is_pure_ack());
    assert_eq!(ack.ack, 100);
    assert_eq!(b.stats().pure_acks_sent, 1);
    assert!(b.next_segment(t(1)).is_none());

    let out = a.on_segment(&ack, t(2));
    assert_eq!(out.acked, 100);
    assert!(
        !a.on_timer(Timer::Retransmit, req[0].gen),
        "the timer was stopped by the ACK"
    );
    assert_eq!(b.read(1000), 100);
    a.check().unwrap();
    b.check().unwrap();
}

#[test]
fn test_nagle_holds_short_tail_while_data_in_flight() {
    let (mut a, _b) = pair(linux_like(), 8000);
    a.write(1500);
    assert_eq!(a.next_segment(t(0)).unwrap().len, 1000);
    assert!(a.next_segment(t(0)).is_none(), "500 bytes wait for the ACK");
    a.close();
    let s = a.next_segment(t(0)).unwrap();
    assert_eq!((s.len, s.fin), (500, true), "a close sends the tail with the FIN");
    assert_eq!(a.to_string(), "FIN-WAIT-1");
}

#[test]
fn test_established_window_limited_then_window_update() {
    // receive buffer 3000: the initial window is 3000, three segments fill it
    let (mut a, mut b) = pair(linux_like(), 3000);
    a.write(10_000);
    let segs: Vec<_> = std::iter::from_fn(|| a.next_segment(t(0))).collect();
    assert_eq!(segs.len(), 3);
    assert!(segs.iter().all(|s| s.len == 1000));
    for s in &segs {
        assert_eq!(b.on_segment(s, t(1)).accepted, 1000);
    }
    // one ACK owed (every segment; only the latest goes out) with a closed window
    let ack = b.next_segment(t(1)).unwrap();
    assert_eq!((ack.ack, ack.window), (3000, 0));
    a.on_segment(&ack, t(2));
    assert!(a.next_segment(t(2)).is_none(), "the window is closed");
    // the persist timer was armed
    assert!(a
        .take_timer_requests()
        .iter()
        .any(|r| r.timer == Timer::Retransmit));
    // the reader takes 2000: the edge moves by 2000 > MSS: a window update
    assert_eq!(b.read(2000), 2000);
    assert_eq!(b.stats().window_updates, 1);
    let upd = b.next_segment(t(3)).unwrap();
    assert_eq!((upd.ack, upd.window), (3000, 2000));
    a.on_segment(&upd, t(4));
    let more: Vec<_> = std::iter::from_fn(|| a.next_segment(t(4))).collect();
    assert_eq!(more.len(), 2);
    assert_eq!(more[0].seq, 3000);
}

#[test]
fn test_delayed_ack_timer_sends_the_ack() {
    let (mut a, mut b) = pair(delayed(linux_like()), 8000);
    a.write(1000);
    let s = a.next_segment(t(0)).unwrap();
    b.on_segment(&s, t(1));
    assert!(
        b.next_segment(t(1)).is_none(),
        "one segment waits for a second or the timer"
    );
    let req = b.take_timer_requests();
    assert_eq!(
        req,
        vec![TimerRequest {
            timer: Timer::DelayedAck,
            gen: req[0].gen,
            after: SimDuration::from_millis(200)
        }]
    );
    assert!(
        !b.on_timer(Timer::DelayedAck, req[0].gen + 7),
        "another generation is stale"
    );
    assert!(b.on_timer(Timer::DelayedAck, req[0].gen));
    let ack = b.next_segment(t(201)).unwrap();
    assert_eq!(ack.ack, 1000);
    assert_eq!(b.stats().delayed_acks, 1);
}

#[test]
fn test_delayed_ack_every_other_segment_is_immediate() {
    let (mut a, mut b) = pair(delayed(linux_like()), 8000);
    a.write(2000);
    let s1 = a.next_segment(t(0)).unwrap();
    let s2 = a.next_segment(t(0)).unwrap();
    b.on_segment(&s1, t(1));
    let gen = b.take_timer_requests()[0].gen;
    b.on_segment(&s2, t(1));
    let ack = b.next_segment(t(1)).unwrap();
    assert_eq!(ack.ack, 2000);
    assert!(
        !b.on_timer(Timer::DelayedAck, gen),
        "the ACK that left stopped the timer"
    );
}

#[test]
fn test_established_lost_segment_recovered_by_timeout() {
    let (mut a, mut b) = pair(linux_like(), 8000);
    a.write(3000);
    let segs: Vec<_> = std::iter::from_fn(|| a.next_segment(t(0))).collect();
    assert_eq!(segs.len(), 3);
    let rto = a.take_timer_requests()[0];
    b.on_segment(&segs[0], t(1));
    // segs[1] is lost; segs[2] arrives out of order and is dropped with a duplicate ACK
    b.on_segment(&segs[2], t(1));
    assert_eq!(b.stats().out_of_order_drops, 1);
    let ack = b.next_segment(t(1)).unwrap();
    assert_eq!(ack.ack, 1000);
    a.on_segment(&ack, t(2));
    let rto = a.take_timer_requests().pop().unwrap_or(rto);
    assert!(a.on_timer(Timer::Retransmit, rto.gen));
    let again: Vec<_> = std::iter::from_fn(|| a.next_segment(t(1002))).collect();
    assert_eq!(again.iter().map(|s| s.seq).collect::<Vec<_>>(), vec![1000, 2000]);
    assert_eq!(a.stats().bytes_retransmitted, 2000);
    assert_eq!(a.stats().retransmit_timeouts, 1);
    for s in &again {
        b.on_segment(s, t(1003));
    }
    assert_eq!(b.read(10_000), 3000);
    let ack = b.next_segment(t(1003)).unwrap();
    a.on_segment(&ack, t(1004));
    assert_eq!(a.stats().bytes_sent, 3000);
    a.check().unwrap();
}

#[test]
fn test_fin_wait_2_and_eof() {
    let (mut a, mut b) = pair(linux_like(), 8000);
    a.write(10);
    a.close();
    let s = a.next_segment(t(0)).unwrap();
    assert!(s.fin);
    assert!(b.on_segment(&s, t(1)).fin);
    assert_eq!(b.to_string(), "CLOSE-WAIT");
    assert!(!b.eof());
    b.read(10);
    assert!(b.eof());
    let ack = b.next_segment(t(1)).unwrap();
    assert_eq!(ack.ack, 11);
    a.on_segment(&ack, t(2));
    assert!(a.send_done());
    assert_eq!(a.to_string(), "FIN-WAIT-2");
}

#[test]
fn test_linux_half_free_space_window() {
    // Linux 1.2 with -b 32767: (32767/2) - 2048 = 14335 bytes offered at first
    let p = StackProfile {
        mss_bytes: 1436,
        window: WindowRule::HalfFreeSpace {
            reserve_bytes: 2048,
            max_bytes: 16384,
            full_margin_bytes: 4096,
            sws_floor_bytes: 8192,
        },
        ..linux_like()
    };
    let (mut a, _b) = pair(p, 32_767);
    a.write(100_000);
    let segs: Vec<_> = std::iter::from_fn(|| a.next_segment(t(0))).collect();
    assert_eq!(segs[0].window, 14_335, "a's own offer, carried on its segments");
    // nine full segments fit the peer's 14335; the 1411 left would be a short segment
    // while data is in flight (sender silly-window avoidance)
    assert_eq!(segs.len(), 9);
    assert!(segs.iter().all(|s| s.len == 1436));
}

/// Linux 1.2 as the 1995 scenarios have it (MSS 1436, the half-free-space window with
/// its 2048-byte reserve, 214 bytes of skb overhead per segment).
fn linux12() -> StackProfile {
    StackProfile {
        mss_bytes: 1436,
        window: WindowRule::HalfFreeSpace {
            reserve_bytes: 2048,
            max_bytes: 16384,
            full_margin_bytes: 4096,
            sws_floor_bytes: 8192,
        },
        buffer_overhead_bytes: 214,
        ..linux_like()
    }
}

/// The one retransmit/persist timer request `c` made since the last call.
fn rtx_request(c: &mut Connection) -> TimerRequest {
    let r: Vec<_> = c
        .take_timer_requests()
        .into_iter()
        .filter(|r| r.timer == Timer::Retransmit)
        .collect();
    assert_eq!(r.len(), 1, "{r:?}");
    r[0]
}

#[test]
fn test_established_persist_probe_after_timeout_against_zero_window() {
    // RFC 1122 4.2.2.17: receive buffer 3000 (free-space rule), three segments shut it
    let (mut a, mut b) = pair(linux_like(), 3000);
    a.write(10_000);
    let segs: Vec<_> = std::iter::from_fn(|| a.next_segment(t(0))).collect();
    assert_eq!(segs.len(), 3);
    for s in &segs {
        b.on_segment(s, t(1));
    }
    let ack = b.next_segment(t(1)).unwrap();
    assert_eq!((ack.ack, ack.window), (3000, 0));
    a.on_segment(&ack, t(2));
    assert!(a.next_segment(t(2)).is_none(), "the window is shut");
    // the persist timer: the RTO (a 2 ms sample, clamped to the 200 ms minimum)
    let persist = rtx_request(&mut a);
    assert_eq!(persist.after, SimDuration::from_millis(200));
    assert!(a.on_timer(Timer::Retransmit, persist.gen));
    let probe = a.next_segment(t(202)).expect("a probe after the persist timeout");
    assert_eq!((probe.seq, probe.len), (3000, 1));
    assert_eq!(a.stats().window_probes, 1);
    // the receiver, not having read, refuses the byte and answers with its zero window
    b.on_segment(&probe, t(203));
    assert_eq!(b.stats().window_drops, 1);
    let answer = b.next_segment(t(203)).unwrap();
    assert_eq!((answer.ack, answer.window), (3000, 0));
    a.on_segment(&answer, t(204));
    assert!(a.next_segment(t(204)).is_none());
    // the probe's timer is the next persist interval; at its expiry the next probe's
    // interval is doubled, and none of this is a retransmission timeout
    let next = rtx_request(&mut a);
    assert_eq!(next.after, SimDuration::from_millis(200));
    assert!(a.on_timer(Timer::Retransmit, next.gen));
    let probe2 = a.next_segment(t(402)).unwrap();
    assert_eq!((probe2.seq, probe2.len), (3000, 1));
    assert_eq!(rtx_request(&mut a).after, SimDuration::from_millis(400));
    assert_eq!(a.stats().window_probes, 2);
    assert_eq!(a.stats().retransmit_timeouts, 0);
    // the reader drains the buffer: its window update reopens the window, and the
    // refused probe's byte leads the next segment
    b.on_segment(&probe2, t(403));
    assert_eq!(b.read(3000), 3000);
    let open = b.next_segment(t(403)).unwrap();
    assert_eq!((open.ack, open.window), (3000, 3000));
    a.on_segment(&open, t(404));
    let more = a.next_segment(t(404)).expect("data flows again");
    assert_eq!((more.seq, more.len), (3000, 1000));
    assert_eq!(a.stats().window_probes, 2);
    a.check().unwrap();
    b.check().unwrap();
}

#[test]
fn test_established_window_update_when_buffer_drains_by_the_rfc1122_step() {
    // a 4096-byte buffer is below Linux 1.2's reserve: (4096/2 - 2048) = 0 < 1436, so
    // sock_rspace would offer a zero window forever; RFC 1122 4.2.3.3 offers the free
    // space as payload of full segments, 2 * 1436 + (796 - 214) = 3454 bytes
    let (mut a, mut b) = Connection::pair((linux12(), 4096, 4096), (linux12(), 4096, 4096));
    assert!(!b.reserve_fits());
    assert!(Connection::pair((linux12(), 6968, 6968), (linux12(), 6968, 6968))
        .0
        .reserve_fits());
    assert!(
        !Connection::pair((linux12(), 6967, 6967), (linux12(), 6967, 6967))
            .0
            .reserve_fits()
    );
    assert_eq!(a.write(8192), 3454, "the send buffer holds the same 3454");
    let s1 = a.next_segment(t(0)).unwrap();
    let s2 = a.next_segment(t(0)).unwrap();
    assert_eq!((s1.len, s2.len, s1.window), (1436, 1436, 3454));
    assert!(a.next_segment(t(0)).is_none(), "Nagle holds the 582-byte tail");
    b.on_segment(&s1, t(1));
    b.on_segment(&s2, t(1));
    // 3300 bytes of buffer used: 582 payload bytes fit; the edge stays at 3454
    let ack = b.next_segment(t(1)).unwrap();
    assert_eq!((ack.ack, ack.window), (2872, 582));
    // reading part of a segment frees no buffer: no update
    assert_eq!(b.read(1000), 1000);
    assert_eq!(b.stats().window_updates, 0);
    assert!(b.next_segment(t(2)).is_none());
    // the rest of it frees 1650 bytes: the edge can move by 1436 = min(MSS, 4096/2),
    // the RFC 1122 step (Linux's own "more than one MSS" would wait for 1437 forever)
    assert_eq!(b.read(436), 436);
    assert_eq!(b.stats().window_updates, 1);
    let upd = b.next_segment(t(2)).unwrap();
    assert!(upd.is_pure_ack());
    assert_eq!((upd.ack, upd.window), (2872, 2018));
    a.on_segment(&ack, t(3));
    a.on_segment(&upd, t(3));
    a.check().unwrap();
    b.check().unwrap();
}

#[test]
fn test_established_sender_sws_holds_short_segment_until_override() {
    // the peer offered 8000 bytes; now, with nothing in flight, it offers 600: below a
    // segment and below half its largest window (RFC 1122 4.2.3.4), so it waits
    let (mut a, _b) = pair(linux_like(), 8000);
    a.write(20_000);
    let segs: Vec<_> = std::iter::from_fn(|| a.next_segment(t(0))).collect();
    assert_eq!(segs.len(), 8);
    let _ = a.take_timer_requests();
    let small = Segment {
        seq: 0,
        len: 0,
        ack: 8000,
        window: 600,
        fin: false,
    };
    a.on_segment(&small, t(2));
    assert!(a.next_segment(t(2)).is_none(), "600 < 1000 and 600 < 8000 / 2");
    assert!(a.window_shut());
    // the persist timer doubles as the override timer: its expiry sends the 600
    let over = rtx_request(&mut a);
    assert_eq!(over.after, SimDuration::from_millis(200));
    assert!(a.on_timer(Timer::Retransmit, over.gen));
    let s = a.next_segment(t(202)).expect("the override sends what fits");
    assert_eq!((s.seq, s.len), (8000, 600));
    assert_eq!((a.stats().sws_overrides, a.stats().window_probes), (1, 0));
    // a usable window of half the largest goes at once
    let half = Segment {
        ack: 8600,
        window: 4000,
        ..small
    };
    a.on_segment(&half, t(203));
    let s = a.next_segment(t(203)).unwrap();
    assert_eq!((s.seq, s.len), (8600, 1000));
}

/// A transfer over a lossy link: every byte arrives once and in order.
fn lossy_transfer(total: u64, loss_per_mille: u64) -> (u64, SimTime, ConnStats) {
    let p = StackProfile {
        congestion: Congestion::Linear { max_segments: 2048 },
        ..delayed(linux_like())
    };
    let (mut a, mut b) = Connection::pair((p, 16_000, 16_000), (p, 16_000, 16_000));
    let mut lcg: u64 = 12345;
    let mut drop = move || {
        lcg = lcg
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (lcg >> 33) % 1000 < loss_per_mille
    };
    // events: (time ns, kind, gen/segment)
    let mut now = SimTime::ZERO;
    let mut in_flight: Vec<(SimTime, bool, Segment)> = Vec::new(); // (arrival, to_b, seg)
    let mut timers: Vec<(SimTime, bool, TimerRequest)> = Vec::new(); // (expiry, at_a, req)
    let mut written = 0u64;
    let mut read = 0u64;
    let link = SimDuration::from_millis(1);
    for _ in 0..10_000_000 {
        if written < total {
            written += a.write((total - written).min(8192) as u32) as u64;
            if written == total {
                a.close();
            }
        }
        read += b.read(u64::MAX);
        for (c, to_b) in [(&mut a, true), (&mut b, false)] {
            while let Some(s) = c.next_segment(now) {
                if !drop() {
                    in_flight.push((now + link, to_b, s));
                }
            }
            for r in c.take_timer_requests() {
                timers.push((now + r.after, to_b, r));
            }
            c.check().unwrap();
        }
        if a.send_done() && b.eof() {
            return (read, now, a.stats().clone());
        }
        // next event: earliest arrival or timer
        let next_seg = in_flight
            .iter()
            .enumerate()
            .min_by_key(|(_, e)| e.0)
            .map(|(i, e)| (e.0, i));
        let next_tmr = timers
            .iter()
            .enumerate()
            .min_by_key(|(_, e)| e.0)
            .map(|(i, e)| (e.0, i));
        match (next_seg, next_tmr) {
            (Some((ts, i)), tm) if tm.is_none_or(|(tt, _)| ts <= tt) => {
                let (at, to_b, s) = in_flight.remove(i);
                now = at;
                if to_b {
                    b.on_segment(&s, now)
                } else {
                    a.on_segment(&s, now)
                };
            }
            (_, Some((tt, i))) => {
                let (_, at_a, r) = timers.remove(i);
                now = tt;
                if at_a {
                    a.on_timer(r.timer, r.gen)
                } else {
                    b.on_timer(r.timer, r.gen)
                };
            }
            _ => panic!("deadlock: nothing in flight and no timer at {now}"),
        }
    }
    panic!("transfer did not finish");
}

#[test]
fn test_lossy_transfer_delivers_every_byte_once() {
    let (read0, t0, s0) = lossy_transfer(200_000, 0);
    assert_eq!(read0, 200_000);
    assert_eq!(s0.bytes_retransmitted, 0);
    let (read1, t1, s1) = lossy_transfer(200_000, 10);
    let (read10, t10, s10) = lossy_transfer(200_000, 100);
    assert_eq!((read1, read10), (200_000, 200_000));
    assert_eq!(s1.bytes_sent, 200_000);
    assert_eq!(s10.bytes_sent, 200_000);
    assert!(s10.retransmit_timeouts > s1.retransmit_timeouts);
    assert!(t0 < t1 && t1 < t10, "time grows with loss: {t0} {t1} {t10}");
}

#[path = "bsd42_tests.rs"]
mod bsd42_tests;
