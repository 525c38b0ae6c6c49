//! 4.2BSD's rules worked by hand: 2048-byte socket buffers, MSS 1024, the 200 ms fast
//! timeout, the 35% window update, receiver silly-window avoidance and the quarter-window
//! send rule (REFERENCE-ttcp.md, "4.2BSD TCP/IP").

use super::*;

fn bsd42() -> StackProfile {
    StackProfile {
        mss_bytes: 1024,
        ack_every_segments: 1,
        delayed_ack: SimDuration::from_millis(200),
        ack_clock: AckClock::FastTimeout,
        send_rule: SendRule::FullAllOrQuarterWindow,
        window: WindowRule::FreeSpace { sws_divisor: 4 },
        window_update: WindowUpdateRule::PercentOfBuffer(35),
        buffer_overhead_bytes: 0,
        congestion: Congestion::None,
        nagle: false,
        rto_initial: SimDuration::from_millis(1000),
        rto_min: SimDuration::from_millis(1000),
        rto_max: SimDuration::from_secs(64),
        checksum_in_copy: false,
    }
}

fn bsd_pair() -> (Connection, Connection) {
    Connection::pair((bsd42(), 2048, 2048), (bsd42(), 2048, 2048))
}

#[test]
fn test_bsd42_send_buffer_holds_two_segments() {
    let (mut a, _b) = bsd_pair();
    assert_eq!(a.write(4096), 2048, "sb_hiwat 2048");
    let segs: Vec<_> = std::iter::from_fn(|| a.next_segment(t(0))).collect();
    assert_eq!(segs.len(), 2);
    assert!(segs.iter().all(|s| s.len == 1024 && s.window == 2048));
    assert_eq!(a.write(1), 0, "nothing is freed until an ACK");
}

#[test]
fn test_bsd42_delayed_ack_waits_for_the_fast_timeout_tick() {
    let (mut a, mut b) = bsd_pair();
    b.set_clock_phase(SimDuration::from_millis(50)); // ticks at 50, 250, 450 ... ms
    a.write(2048);
    let s1 = a.next_segment(t(0)).unwrap();
    let s2 = a.next_segment(t(0)).unwrap();
    b.on_segment(&s1, t(60));
    b.on_segment(&s2, t(61));
    assert!(
        b.next_segment(t(61)).is_none(),
        "no count rule: two segments do not force an ACK"
    );
    let req = b.take_timer_requests();
    assert_eq!(req.len(), 1);
    assert_eq!(req[0].timer, Timer::DelayedAck);
    assert_eq!(
        req[0].after,
        SimDuration::from_millis(190),
        "the next tick, at 250 ms"
    );
    assert!(b.on_timer(Timer::DelayedAck, req[0].gen));
    let ack = b.next_segment(t(250)).unwrap();
    assert!(ack.is_pure_ack());
    // the buffer is full: free 0 < hiwat/4 = 512, so the window offered is 0
    assert_eq!((ack.ack, ack.window), (2048, 0));
    assert_eq!(b.stats().delayed_acks, 1);
}

#[test]
fn test_bsd42_read_opens_window_by_35_percent_and_update_carries_the_ack() {
    let (mut a, mut b) = bsd_pair();
    a.write(2048);
    let s1 = a.next_segment(t(0)).unwrap();
    let s2 = a.next_segment(t(0)).unwrap();
    b.on_segment(&s1, t(1));
    b.on_segment(&s2, t(1));
    let delack = b.take_timer_requests();
    assert_eq!(delack.len(), 1);
    // 700 bytes read: the edge would move by 700 < 717 (35% of 2048): no update; and
    // the free space (700) is above hiwat/4 = 512
    assert_eq!(b.read(700), 700);
    assert_eq!(b.stats().window_updates, 0);
    assert!(b.next_segment(t(2)).is_none());
    // 324 more: the edge moves by 1024 >= 717: a window update, which is also the ACK
    assert_eq!(b.read(324), 324);
    assert_eq!(b.stats().window_updates, 1);
    let upd = b.next_segment(t(3)).unwrap();
    assert_eq!((upd.ack, upd.window), (2048, 1024));
    assert!(
        !b.on_timer(Timer::DelayedAck, delack[0].gen),
        "the update carried the ACK and stopped the delayed ACK"
    );
    assert_eq!(a.on_segment(&upd, t(4)).acked, 2048);
    assert_eq!(a.write(4096), 2048);
}

#[test]
fn test_bsd42_receiver_sws_offers_zero_below_a_quarter() {
    let (mut a, mut b) = bsd_pair();
    a.write(2048);
    let s1 = a.next_segment(t(0)).unwrap();
    b.on_segment(&s1, t(1));
    // 1024 free: offered
    b.read(0);
    let s2 = a.next_segment(t(0)).unwrap();
    b.on_segment(&s2, t(1));
    assert_eq!(b.read(400), 400);
    // 400 free < 512: the window stays closed (kept edge = rcv_nxt)
    b.close();
    let fin = b.next_segment(t(2)).unwrap();
    assert_eq!(fin.window, 0);
}

#[test]
fn test_bsd42_sender_quarter_window_rule() {
    // the peer offers 2048; 300 bytes queued behind an unacknowledged segment: 300*4 <
    // 2048 and not all queued data... but it *is* all queued data, so it goes (no Nagle)
    let (mut a, _b) = bsd_pair();
    a.write(1324);
    assert_eq!(a.next_segment(t(0)).unwrap().len, 1024);
    assert_eq!(
        a.next_segment(t(0)).unwrap().len,
        300,
        "all queued data goes at once: no Nagle in 4.2BSD"
    );
}

#[test]
fn test_bsd42_partial_segment_by_quarter_window_only() {
    // a window of 600 and 1024 queued: 600 is not a full segment nor all the data, but
    // 600 * 4 >= 600 lets it go; a 2048-byte window with 400 usable holds it back
    let (mut a, mut b) = bsd_pair();
    a.write(2048);
    let s1 = a.next_segment(t(0)).unwrap();
    let s2 = a.next_segment(t(0)).unwrap();
    b.on_segment(&s1, t(1));
    b.on_segment(&s2, t(1));
    b.read(2048);
    let upd = b.next_segment(t(2)).unwrap();
    assert_eq!(upd.window, 2048);
    // only 600 of the window is offered now: edit the segment by hand
    let small = Segment { window: 600, ..upd };
    a.on_segment(&small, t(3));
    a.write(1024);
    assert_eq!(a.next_segment(t(3)).unwrap().len, 600);
}
