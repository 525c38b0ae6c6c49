//! Whole transfers on hand-made hosts: the ceiling, loss recovery, conservation.

use super::*;
use crate::adapter::{AdapterProfile, CopyEngine, SendCopy, TransmitLength};
use crate::ether::SegmentConfig;
use crate::host::HostProfile;
use crate::lan::tcp::TcpCosts;
use crate::tcp::{AckClock, Congestion, SendRule, StackProfile, WindowRule, WindowUpdateRule};

pub(crate) fn linux_1_2() -> StackProfile {
    StackProfile {
        mss_bytes: 1436,
        ack_every_segments: 1,
        delayed_ack: SimDuration::ZERO,
        ack_clock: AckClock::OneShot,
        send_rule: SendRule::FullLastOrIdle,
        window: WindowRule::HalfFreeSpace {
            reserve_bytes: 2048,
            max_bytes: 16384,
            full_margin_bytes: 4096,
            sws_floor_bytes: 8192,
        },
        window_update: WindowUpdateRule::MoreThanMss,
        buffer_overhead_bytes: 214,
        congestion: Congestion::Linear { max_segments: 2048 },
        nagle: true,
        rto_initial: SimDuration::from_millis(3000),
        rto_min: SimDuration::from_millis(200),
        rto_max: SimDuration::from_secs(120),
        checksum_in_copy: false,
    }
}

/// A host and card that take no time for copies, protocol work and checksums. Only the
/// transmit-complete interrupt takes 20 us (20 kinstr at 1000 MIPS): an 8390-class card
/// starts its next frame from that interrupt, so a waiting ACK (ready after the 9.6 us
/// gap) goes first instead of colliding with the next data frame.
fn instant_host() -> TcpHost {
    TcpHost {
        host: HostProfile {
            name: "instant".into(),
            mips: 1000.0,
            memcpy_ns_per_byte: 0.0,
        },
        adapter: AdapterProfile {
            name: "instant".into(),
            bus_width_bits: 32,
            copy: CopyEngine::ProgrammedIo {
                access_ns: 0.0,
                setup_ns: 0.0,
                transmit_length: TransmitLength::Frame,
                send_copy: SendCopy::Queued,
            },
            card_ram_bytes: 65_536,
            page_bytes: 256,
            transmit_buffers: 16,
            packet_size: 1500,
        },
        stack: linux_1_2(),
        costs: TcpCosts {
            syscall_kinstr: 0.0,
            segment_kinstr: 0.0,
            interrupt_kinstr: 20.0,
            checksum_instr_per_byte: 0.0,
            user_call_kinstr: 0.0,
            fragment_kinstr: 0.0,
            page_remap_kinstr: 0.0,
            rx_mbuf_kinstr: 0.0,
            read_mbuf_kinstr: 0.0,
            data_input_kinstr: 0.0,
        },
        sndbuf: 32_767,
        rcvbuf: 32_767,
        interface: crate::tcp::Interface::ethernet(),
        attached_processor: false,
        clock_tick: None,
    }
}

fn slow_host() -> TcpHost {
    let mut h = instant_host();
    h.host = HostProfile {
        name: "486-ish".into(),
        mips: 30.0,
        memcpy_ns_per_byte: 40.0,
    };
    h.adapter.copy = CopyEngine::ProgrammedIo {
        access_ns: 500.0,
        setup_ns: 5_000.0,
        transmit_length: TransmitLength::Frame,
        send_copy: SendCopy::Queued,
    };
    h.costs = TcpCosts {
        syscall_kinstr: 1.0,
        segment_kinstr: 2.0,
        interrupt_kinstr: 0.5,
        checksum_instr_per_byte: 0.5,
        user_call_kinstr: 0.0,
        fragment_kinstr: 0.0,
        page_remap_kinstr: 0.0,
        rx_mbuf_kinstr: 0.0,
        read_mbuf_kinstr: 0.0,
        data_input_kinstr: 0.0,
    };
    h
}

pub(crate) fn segment(corrupt_fraction: f64) -> SegmentConfig {
    SegmentConfig {
        positions_m: vec![0.0, 10.0],
        velocity_factor: 0.77,
        bit_ns: 100,
        corrupt_fraction,
    }
}

fn cfg(hosts: [TcpHost; 2], nbuf: u32, corrupt: f64) -> TtcpConfig {
    TtcpConfig {
        wire: crate::ether::WireConfig::Csma(segment(corrupt)),
        hosts,
        transmitter: 0,
        buflen: 8192,
        nbuf,
        limit: SimDuration::from_secs(3600),
    }
}

/// The TCP ceiling on 10 Mb/s for Linux 1.2 (MSS 1436, one ACK per segment), KiB/s.
pub(crate) fn ceiling() -> f64 {
    ceiling_kib_per_s(&linux_1_2(), 100)
}

#[test]
fn test_ceiling_is_1097() {
    // a 1494-byte data frame and a 64-byte ACK, each with 8 bytes of preamble and 12 of
    // gap, per 1436 bytes (REFERENCE-ttcp.md: 1097.0)
    let by_hand = 1436.0 / 1024.0 / ((((1494 + 20) + (64 + 20)) * 8) as f64 * 100e-9);
    assert!((ceiling() - by_hand).abs() < 1e-9, "{}", ceiling());
    assert!((ceiling() - 1097.0).abs() < 0.1, "{}", ceiling());
    // an ACK every other segment leaves more of the wire to data
    let mut every_other = linux_1_2();
    every_other.ack_every_segments = 2;
    assert!(ceiling_kib_per_s(&every_other, 100) > ceiling());
}

#[test]
fn test_instant_hosts_come_within_1pct_of_the_ceiling() {
    let r = run(&cfg([instant_host(), instant_host()], 2048, 0.0), 1).unwrap();
    let c = ceiling();
    let k = r.receiver.kbytes_per_s;
    assert_eq!(r.receiver.bytes, 16 * 1024 * 1024);
    assert!(k <= c, "{k} above the ceiling {c}");
    assert!(
        k >= 0.99 * c,
        "{k} more than 1% below the ceiling {c}; collisions {}",
        r.ether.collisions
    );
}

#[test]
fn test_slow_hosts_stay_below_the_ceiling_and_conserve_bytes() {
    let r = run(&cfg([slow_host(), slow_host()], 256, 0.0), 1).unwrap();
    assert_eq!(r.receiver.bytes, 256 * 8192);
    assert!(r.receiver.kbytes_per_s < ceiling());
    assert!(r.receiver.kbytes_per_s > 100.0, "{}", r.receiver.kbytes_per_s);
    assert!(r.transmitter.sys_s > 0.0);
}

#[test]
fn test_loss_is_recovered_and_slows_the_transfer() {
    let clean = run(&cfg([slow_host(), slow_host()], 128, 0.0), 3).unwrap();
    let one = run(&cfg([slow_host(), slow_host()], 128, 0.01), 3).unwrap();
    let ten = run(&cfg([slow_host(), slow_host()], 128, 0.10), 3).unwrap();
    for r in [&clean, &one, &ten] {
        assert_eq!(
            r.receiver.bytes,
            128 * 8192,
            "every byte delivered once, in order"
        );
    }
    assert!(one.frames_lost > 0 && ten.frames_lost > one.frames_lost);
    let k = |r: &TtcpReport| r.receiver.kbytes_per_s;
    assert!(
        k(&clean) > k(&one) && k(&one) > k(&ten),
        "{} {} {}",
        k(&clean),
        k(&one),
        k(&ten)
    );
}

#[test]
fn test_the_audit_holds_through_a_lossy_transfer_and_finds_a_byte_made_up() {
    let c = cfg([slow_host(), slow_host()], 16, 0.05);
    let mut engine: Engine<LanEvent> = Engine::new(9);
    let apps = [
        Ttcp::new(Role::Transmit {
            buflen: c.buflen,
            nbuf: c.nbuf,
        }),
        Ttcp::new(Role::Receive { buflen: c.buflen }),
    ];
    let mut net = crate::lan::TcpNet::tcp_only(&c.wire, c.hosts.clone(), apps, &mut engine);
    let mut checked = 0;
    while !net.hosts().finished() {
        let ev = engine
            .pop_until(SimTime::from_nanos(60_000_000_000))
            .expect("finishes");
        crate::engine::Model::handle(&mut net, ev, &mut engine);
        net.hosts()
            .audit(engine.now())
            .expect("bytes conserved at every event");
        checked += 1;
    }
    let lan = net.hosts_mut();
    assert!(
        checked > 1000 && lan.frames_lost > 0,
        "{checked} events, {} lost",
        lan.frames_lost
    );
    lan.tamper_bytes_read(1, 1);
    let e = lan
        .audit(engine.now())
        .expect_err("a byte read that never arrived");
    assert!(e.violations.iter().any(|v| v.starts_with("node 1: took")), "{e}");
}

/// A host whose only CPU cost worth counting is its UNIBUS card's: `request_ns` per
/// message, one word per µs of DMA, with the given command handshake or message queue.
fn unibus_host(
    request_ns: f64,
    command: Option<crate::adapter::CommandHandshake>,
    queue: Option<crate::adapter::MessageQueue>,
) -> TcpHost {
    let mut h = instant_host();
    h.adapter.copy = CopyEngine::UnibusDma {
        setup_ns: 0.0,
        request_ns,
        dma: Some(crate::adapter::DmaTiming {
            word_ns: 1000.0,
            burst_words: 1,
            burst_overhead_ns: 0.0,
        }),
        tx_slots: 1,
        rx_bytes: 16_384,
        command,
        queue,
    };
    h.costs.interrupt_kinstr = 0.0;
    h
}

/// A host with a one-command UNIBUS card (the NI1010A's handshake) and no other CPU
/// cost worth counting: `latency_ns` per command.
fn one_command_host(latency_ns: f64) -> TcpHost {
    unibus_host(0.0, Some(crate::adapter::CommandHandshake { latency_ns }), None)
}

#[test]
fn test_one_command_card_spins_one_latency_per_received_frame() {
    // each frame a host receives costs its CPU exactly one receive-buffer command's
    // spin (if_il.c: ILC_RCV, then wait for CDONE at interrupt level), whether ilrint
    // gives the buffer at once or ilcint after the outstanding transmit: with every
    // other cost zero, a host's CPU busy time is frames received x latency
    let l = 300_000.0;
    let r = run(&cfg([one_command_host(l), one_command_host(l)], 16, 0.0), 1).unwrap();
    assert_eq!(r.receiver.bytes, 16 * 8192);
    let frames = |side: &crate::workload::ttcp::TtcpSide| side.node.conn.segments_received;
    for side in [&r.transmitter, &r.receiver] {
        assert_eq!(side.node.cpu.busy_ns, frames(side) * l as u64);
    }
    // the spins and the commands' take-up lengthen the transfer over a card without them
    let quick = run(&cfg([one_command_host(0.0), one_command_host(0.0)], 16, 0.0), 1).unwrap();
    assert!(r.receiver.real_s > quick.receiver.real_s);
}

/// A host with a message-queue UNIBUS card (the EXOS 204 under `if_ex.c`) and no other
/// CPU cost worth counting: `message_ns` per request or reply, the board taking each
/// request up `take_up_ns` after it is written.
fn message_queue_host(message_ns: f64, take_up_ns: f64) -> TcpHost {
    unibus_host(
        message_ns,
        None,
        Some(crate::adapter::MessageQueue {
            take_up_ns,
            take_up: crate::adapter::TakeUp::Fixed,
            reply_ns: None,
        }),
    )
}

#[test]
fn test_message_queue_card_pays_two_messages_per_frame_and_takes_one_receive_at_a_time() {
    // by hand: a sent frame costs its request (exstart, in the copy to the card) and its
    // reply (excdint, in the transmit interrupt); a received frame its reply (exrecv)
    // and the next receive request (exhangrcv), both in the receive interrupt. With
    // every other cost zero a host's CPU busy time is a message per frame sent, one per
    // frame that has left (the peer took it in; the run ends with the receiver's last
    // ACK on its way) and two per frame received, on either side.
    let (m, t) = (100_000.0, 2_000_000.0);
    let r = run(
        &cfg([message_queue_host(m, t), message_queue_host(m, t)], 16, 0.0),
        1,
    )
    .unwrap();
    assert_eq!(r.receiver.bytes, 16 * 8192);
    for (side, peer) in [(&r.transmitter, &r.receiver), (&r.receiver, &r.transmitter)] {
        let (c, p) = (&side.node.conn, &peer.node.conn);
        let messages = c.segments_sent + p.segments_received + 2 * c.segments_received;
        assert_eq!(side.node.cpu.busy_ns, messages * m as u64);
    }
    // one receive request hung at a time: each data frame after the first waits for the
    // take-up (2 ms) of the request hung after the previous one, then its own DMA (a
    // 1436-byte segment is a frame of more than 1,476 bytes: at least 738 words of 1 us)
    let data = r.receiver.node.conn.segments_received;
    assert!(data >= 92, "{data} segments for 128 KiB at MSS 1436");
    let floor_s = (data - 1) as f64 * (t + 738_000.0) / 1e9;
    assert!(
        r.receiver.real_s >= floor_s,
        "{} s, at least {floor_s} s",
        r.receiver.real_s
    );
    let quick = run(
        &cfg([message_queue_host(m, 0.0), message_queue_host(m, 0.0)], 16, 0.0),
        1,
    )
    .unwrap();
    assert!(quick.receiver.real_s < floor_s, "{} s", quick.receiver.real_s);
}

#[test]
fn test_a_reply_costs_reply_ns_and_a_request_request_ns() {
    // by hand, as above but with a reply dearer than a request: a sent frame costs a
    // request (exstart) and, once it has left, a reply (excdint); a received frame a
    // reply (exrecv) and a request (exhangrcv)
    let (req, rep) = (100_000.0, 300_000.0);
    let host = || {
        unibus_host(
            req,
            None,
            Some(crate::adapter::MessageQueue {
                take_up_ns: 1_000_000.0,
                take_up: crate::adapter::TakeUp::Fixed,
                reply_ns: Some(rep),
            }),
        )
    };
    let r = run(&cfg([host(), host()], 16, 0.0), 1).unwrap();
    assert_eq!(r.receiver.bytes, 16 * 8192);
    for (side, peer) in [(&r.transmitter, &r.receiver), (&r.receiver, &r.transmitter)] {
        let (c, p) = (&side.node.conn, &peer.node.conn);
        let requests = c.segments_sent + c.segments_received;
        let replies = p.segments_received + c.segments_received;
        assert_eq!(
            side.node.cpu.busy_ns,
            requests * req as u64 + replies * rep as u64
        );
    }
}

#[test]
fn test_a_polled_take_up_draws_each_delay_between_zero_and_twice_its_mean() {
    // by hand: a polled board takes a request up uniformly on [0, 2t); a fixed one after t
    // and draws nothing
    let polled = crate::adapter::MessageQueue {
        take_up_ns: 1000.0,
        take_up: crate::adapter::TakeUp::Polled,
        reply_ns: None,
    };
    assert_eq!(polled.delay_ns(|| 0.0), 0.0);
    assert_eq!(polled.delay_ns(|| 0.25), 500.0);
    assert_eq!(polled.delay_ns(|| 0.5), 1000.0);
    let fixed = crate::adapter::MessageQueue {
        take_up: crate::adapter::TakeUp::Fixed,
        ..polled
    };
    assert_eq!(
        fixed.delay_ns(|| unreachable!("a fixed take-up draws nothing")),
        1000.0
    );
    // over a transfer whose time is the take-ups (one receive request at a time): the
    // same seed gives the same run, another seed another; each run lies between the
    // board that takes nothing and one that always takes 2t, and the mean over 5 seeds
    // is within 10% of the fixed board's time (about 92 frames a run, 5% noise a seed)
    let (m, t) = (1_000.0, 2_000_000.0);
    let host = |take_up| {
        unibus_host(
            m,
            None,
            Some(crate::adapter::MessageQueue {
                take_up_ns: t,
                take_up,
                reply_ns: None,
            }),
        )
    };
    let real = |h: TcpHost, seed| run(&cfg([h.clone(), h], 16, 0.0), seed).unwrap().receiver.real_s;
    let fixed_s = real(host(crate::adapter::TakeUp::Fixed), 1);
    let none_s = real(message_queue_host(m, 0.0), 1);
    let twice_s = real(message_queue_host(m, 2.0 * t), 1);
    let polled: Vec<f64> = (1..=5)
        .map(|seed| real(host(crate::adapter::TakeUp::Polled), seed))
        .collect();
    assert_eq!(polled[0], real(host(crate::adapter::TakeUp::Polled), 1));
    assert_ne!(polled[0], polled[1]);
    for s in &polled {
        assert!(none_s < *s && *s < twice_s, "{none_s} < {s} < {twice_s}");
    }
    let mean = polled.iter().sum::<f64>() / 5.0;
    assert!(
        (mean / fixed_s - 1.0).abs() < 0.10,
        "{mean} s against {fixed_s} s"
    );
}

#[test]
fn test_the_receiver_pays_per_mbuf_in_its_interrupt_and_in_the_readers_call() {
    // by hand: a UNIBUS host whose only costs are 1 us per mbuf if_rubaget builds and
    // 2 us per mbuf soreceive walks. A full 1436-byte segment is a 1476-byte datagram:
    // a swapped 1024-byte cluster and 452 bytes in ceil(452 / 112) = 5 small mbufs, 6 in
    // all; a pure ACK, 40 bytes, one. So the receiver's CPU is busy 6 x (1 + 2) us per
    // data segment and 1 us per other segment it receives.
    let host = || {
        let mut h = unibus_host(0.0, None, None);
        h.interface.unibus_buffers = true;
        h.costs.rx_mbuf_kinstr = 1.0;
        h.costs.read_mbuf_kinstr = 2.0;
        h
    };
    let mut c = cfg([host(), host()], 20, 0.0);
    c.buflen = 1436;
    let r = run(&c, 1).unwrap();
    assert_eq!(r.receiver.bytes, 20 * 1436);
    let conn = &r.receiver.node.conn;
    let data = 20;
    let others = conn.segments_received - data;
    let expected = data * 6 * 3_000 + others * 1_000;
    assert_eq!(r.receiver.node.cpu.busy_ns, expected, "{others} other segments");
}

#[test]
fn test_data_input_is_paid_once_per_data_segment_received_and_never_for_a_bare_ack() {
    // by hand: hosts whose only cost is 5 us of TCP input for a segment that carries
    // data (tcp_reass, sbappend, sorwakeup). 20 writes of 1436 bytes arrive as 20 data
    // segments: the receiver's CPU is busy 20 x 5 us; the transmitter receives only
    // ACKs and window updates, so it pays nothing.
    let host = || {
        let mut h = unibus_host(0.0, None, None);
        h.costs.data_input_kinstr = 5.0;
        h
    };
    let mut c = cfg([host(), host()], 20, 0.0);
    c.buflen = 1436;
    let r = run(&c, 1).unwrap();
    assert_eq!(r.receiver.bytes, 20 * 1436);
    assert_eq!(r.receiver.node.conn.segments_received, 20);
    assert_eq!(r.receiver.node.cpu.busy_ns, 20 * 5_000);
    assert!(
        r.transmitter.node.conn.segments_received > 0,
        "ACKs reached the transmitter"
    );
    assert_eq!(r.transmitter.node.cpu.busy_ns, 0);
}
