//! The receive side of a TCP host: frames from the wire into the card, the card's DMA
//! and receive buffer (one-command cards, message queues), IP reassembly and TCP input,
//! and the copy-wait clock of the transmit side. Units: ns on the engine's clock.

use super::*;

impl<S: SocketApp> TcpLan<S> {
    /// IP and TCP input of received `frame`: reassembly, then the connection takes the
    /// segment.
    pub(super) fn take_in(&mut self, n: usize, frame: Frame, engine: &mut Engine<LanEvent>) {
        let now = engine.now();
        // a fragment of a segment whose other fragment was lost is dropped
        let Some(f) = self.in_flight.get_mut(&frame.tag) else {
            return;
        };
        f.done += 1;
        if f.done < f.pieces.len() {
            return; // IP reassembly waits for the rest
        }
        let f = self.in_flight.remove(&frame.tag).expect("present");
        let seg = f.seg;
        let node = &mut self.nodes[n];
        let mbufs: u32 = if node.interface.unibus_buffers {
            f.pieces.iter().map(|p| p.input_mbufs()).sum()
        } else {
            0
        };
        if seg.len > 0 {
            node.backlog_sum += node.adapter.held() as u64;
            node.data_arrivals += 1;
        }
        let out = self.nodes[n].conn.on_segment(&seg, now);
        debug_assert_eq!(self.nodes[n].conn.check(), Ok(()));
        if out.accepted > 0 && seg.len > 0 {
            // the segment's mbufs wait in the receive buffer for the reader's soreceive
            self.nodes[n].rcv_mbufs += mbufs as f64 * out.accepted as f64 / seg.len as f64;
        }
        self.pump(n, false, engine);
        if out.accepted > 0 || out.fin || out.acked > 0 {
            self.advance(n, engine);
        }
    }

    pub(super) fn lost(&mut self, frame: &Frame) {
        self.frames_lost += 1;
        self.in_flight.remove(&frame.tag);
    }

    pub(crate) fn on_indication(&mut self, ind: Indication, engine: &mut Engine<LanEvent>) {
        match ind {
            Indication::Sent { frame } | Indication::Dropped { frame } => {
                if let Indication::Dropped { .. } = ind {
                    self.lost(&frame);
                }
                let node = &mut self.nodes[frame.src - self.base];
                let mut cost = Cost {
                    protocol: node.host.instructions(node.costs.interrupt_kinstr),
                    ..Cost::default()
                };
                if node.adapter.profile.message_queue().is_some() {
                    // excdint takes an EXOS's transmit reply off the reply queue and frees it
                    cost.protocol += node.adapter.profile.reply_time();
                }
                path::tx_interrupt(
                    &mut self.medium,
                    &mut node.cpu,
                    &mut node.adapter,
                    frame.src,
                    cost,
                    engine,
                );
            }
            Indication::Received { frame } => {
                let n = frame.dst - self.base;
                let Some(f) = self.in_flight.get_mut(&frame.tag) else {
                    self.frames_lost += 1; // a fragment of a segment already lost
                    return;
                };
                let piece = f.pieces[f.arrived];
                f.arrived += 1;
                let last = f.arrived == f.pieces.len();
                let fragments = f.pieces.len();
                let payload = f.seg.len;
                let node = &self.nodes[n];
                // IP and TCP input added to `kinstr`: the segment's work and its checksum
                // once the last fragment is in, the reassembly's work for a fragmented
                // datagram
                let with_input = |mut kinstr: f64| {
                    if last {
                        kinstr += node.costs.segment_kinstr;
                        if payload > 0 {
                            kinstr += node.costs.data_input_kinstr;
                        }
                        if !node.checksum_in_copy {
                            kinstr += payload as f64 * node.costs.checksum_instr_per_byte / 1e3;
                        }
                    }
                    if fragments > 1 {
                        kinstr += node.costs.fragment_kinstr;
                    }
                    kinstr
                };
                let copy = node.adapter.profile.rx_copy_time(frame.bytes);
                let mut rx = if node.adapter.profile.message_queue().is_some() {
                    // excdint -> exrecv takes the frame at interrupt level; IP and TCP
                    // input follow in the software interrupt, as their own job. The reply
                    // (exrecv) and the next receive request (exhangrcv): two messages,
                    // where a transmitted frame's request and reply are taken in its copy
                    // to the card and in its transmit interrupt
                    RxCost {
                        interrupt: Cost {
                            copy,
                            protocol: node.host.instructions(node.costs.interrupt_kinstr)
                                + node.adapter.profile.reply_time(),
                            ..Cost::default()
                        },
                        input: Some(Cost {
                            protocol: node.host.instructions(with_input(0.0)),
                            ..Cost::default()
                        }),
                    }
                } else if node.interface.unibus_buffers {
                    // a 4.2BSD UNIBUS driver's interrupt takes the frame (if_rubaget) and
                    // queues it on ipintrq; IP and TCP input follow in the software
                    // interrupt, as their own job
                    RxCost {
                        interrupt: Cost {
                            copy,
                            protocol: node.host.instructions(node.costs.interrupt_kinstr),
                            ..Cost::default()
                        },
                        input: Some(Cost {
                            protocol: node.host.instructions(with_input(0.0)),
                            ..Cost::default()
                        }),
                    }
                } else {
                    RxCost {
                        interrupt: Cost {
                            copy,
                            protocol: node.host.instructions(with_input(node.costs.interrupt_kinstr)),
                            ..Cost::default()
                        },
                        input: None,
                    }
                };
                if node.interface.unibus_buffers {
                    let u = self.uba_cost(n, piece.input_copy());
                    rx.interrupt.copy += u.copy;
                    rx.interrupt.protocol += u.protocol;
                    let mbufs = piece.input_mbufs() as f64;
                    rx.interrupt.protocol += node.host.instructions(mbufs * node.costs.rx_mbuf_kinstr);
                }
                let node = &mut self.nodes[n];
                if !node.adapter.arrive(&frame) {
                    self.lost(&frame);
                    return;
                }
                let profile = &node.adapter.profile;
                if profile.command().is_some() || profile.message_queue().is_some() {
                    // into the card's memory until a receive buffer is supplied
                    node.card.hold(frame, rx);
                    self.rx_dma(n, engine);
                    return;
                }
                match node.adapter.profile.dma_time(frame.bytes) {
                    Some(d) => self.dma_in(n, frame, rx, d, engine),
                    None => self.rx_start(n, frame, rx, engine),
                }
            }
            Indication::Corrupted { frame } => self.lost(&frame),
        }
    }
}

impl<S> TcpLan<S> {
    /// The driver of a one-command card gives it the next receive buffer: the command
    /// register write and the spin until the card's processor takes it, at interrupt
    /// level (`ilrint`, or `ilcint` when a transmit command was outstanding).
    pub(super) fn supply_rx_buffer(&mut self, n: usize, engine: &mut Engine<LanEvent>) {
        let node = &self.nodes[n];
        let c = node
            .adapter
            .profile
            .command()
            .expect("only a one-command card is given receive buffers");
        let cost = Cost {
            protocol: SimDuration::from_nanos_f64(c.latency_ns),
            ..Cost::default()
        };
        path::start_job(
            &mut self.nodes[n].cpu,
            self.base + n,
            Priority::Interrupt,
            cost,
            TcpJob::RcvCommand,
            engine,
        );
    }

    /// A one-command or message-queue card moves the oldest frame of its memory into the
    /// supplied receive buffer, when it has both (one DMA at a time on the card).
    pub(super) fn rx_dma(&mut self, n: usize, engine: &mut Engine<LanEvent>) {
        let node = &mut self.nodes[n];
        let Some((frame, cost)) = node.card.fill_buffer() else {
            return;
        };
        let d = node
            .adapter
            .profile
            .dma_time(frame.bytes)
            .expect("a command handshake or message queue comes with a dma table");
        self.dma_in(n, frame, cost, d, engine);
    }

    /// Queues the card's DMA of received `frame` into host memory, `d` long, after the
    /// card's previous transfer (one at a time); `cost` is the receive work that follows.
    pub(super) fn dma_in(
        &mut self,
        n: usize,
        frame: Frame,
        cost: RxCost,
        d: SimDuration,
        engine: &mut Engine<LanEvent>,
    ) {
        let end = self.nodes[n].card.dma_in(engine.now(), d, frame, cost);
        engine.schedule(
            end,
            TcpEvent::DmaDone {
                node: (self.base + n) as u32,
                inbound: true,
            },
        );
    }

    /// Brings the copy-wait clocks up to `now`: called after every event, the only
    /// times an adapter's state changes.
    pub(crate) fn track_copy_wait(&mut self, now: SimTime) {
        for node in &mut self.nodes {
            let a = &node.adapter;
            let starved = a.is_copying() && !a.is_transmitting() && a.card_ready().next().is_none();
            node.copy_wait.observe(starved, now);
        }
    }
}
