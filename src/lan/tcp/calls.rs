//! The socket side of a TCP host: ttcp's calls (user-mode loop, system-call entry, the
//! user-kernel copy), the protocol output they start, the CPU jobs' effects, and the
//! 4.2BSD clock tick that charges them. Units: ns on the engine's clock, CPU work as
//! [`Cost`]s.

use super::*;

impl<S: SocketApp> TcpLan<S> {
    /// Hands segments to the driver while it has room for all of a segment's frames;
    /// `by_process`: called from the process's system call (its output is its system
    /// time), else from an interrupt or timer.
    pub(super) fn pump(&mut self, n: usize, by_process: bool, engine: &mut Engine<LanEvent>) {
        let now = engine.now();
        while self.nodes[n].adapter.room() >= self.nodes[n].max_pieces {
            let Some(seg) = self.nodes[n].conn.next_segment(now) else {
                break;
            };
            let pieces = self.nodes[n].interface.pieces(&seg);
            for _ in &pieces {
                let reserved = self.nodes[n].adapter.reserve();
                assert!(reserved, "the driver refused a buffer it said it had");
            }
            self.next_tag += 1;
            let tag = self.next_tag;
            let node = &self.nodes[n];
            let mut cost = Cost {
                protocol: node.host.instructions(node.costs.segment_kinstr),
                ..Cost::default()
            };
            if pieces.len() > 1 {
                cost.protocol += node
                    .host
                    .instructions(pieces.len() as f64 * node.costs.fragment_kinstr);
            }
            if node.interface.unibus_buffers {
                for p in &pieces {
                    let u = self.uba_cost(n, p.output_copy());
                    cost.copy += u.copy;
                    cost.protocol += u.protocol;
                }
            }
            if self.tap.is_on() {
                // one record per segment, naming its first frame (all of its fragments' work)
                let frame = Frame {
                    src: self.base + n,
                    dst: self.base + 1 - n,
                    bytes: pieces[0].frame_bytes,
                    tag,
                    pad: 0,
                };
                let kind = HostWorkKind::Build;
                self.tap
                    .host(now, self.base + n, kind, &frame, cost.copy, cost.protocol);
            }
            self.in_flight.insert(
                tag,
                InFlight {
                    seg,
                    pieces,
                    arrived: 0,
                    done: 0,
                },
            );
            // ACKs leave from the receive path (interrupt level), data from the writer
            let prio = if seg.is_pure_ack() {
                Priority::Interrupt
            } else {
                Priority::Task
            };
            if by_process {
                self.nodes[n].call_output += 1;
            }
            self.start(n, prio, cost, TcpJob::Send { tag, by_process }, engine);
        }
        let node = &mut self.nodes[n];
        let stalled = node.adapter.held() == 0 && node.conn.window_shut();
        node.window_stall.observe(stalled, now);
        self.arm_timers(n, engine);
    }

    /// The application's user-mode work before `call` (a read or write): on the CPU, or
    /// on the attached processor beside it.
    pub(super) fn start_user(&mut self, n: usize, call: SockCall, engine: &mut Engine<LanEvent>) {
        let node = &mut self.nodes[n];
        node.call = Call::User { call };
        let t = node.host.instructions(node.costs.user_call_kinstr);
        if node.attached_processor {
            node.user_on_attached = true;
            engine.schedule_in(
                t,
                TcpEvent::UserDone {
                    node: (self.base + n) as u32,
                },
            );
        } else {
            let cost = Cost {
                work: t,
                ..Cost::default()
            };
            self.start(n, Priority::Task, cost, TcpJob::User, engine);
        }
    }

    /// The user-mode work is done: the call itself starts.
    pub(super) fn user_done(&mut self, n: usize, engine: &mut Engine<LanEvent>) {
        let node = &mut self.nodes[n];
        node.user_on_attached = false;
        let Call::User { call } = node.call else {
            unreachable!("user work done outside a user phase")
        };
        node.call = match call {
            SockCall::Write { bytes } => Call::Writing {
                bytes,
                left: bytes,
                busy: false,
            },
            SockCall::Read { max } => Call::Reading { max, busy: false },
            SockCall::Close => unreachable!("close has no user work"),
        };
        self.advance(n, engine);
    }

    /// A clock tick of node `n`: charged, and the next one scheduled while the process runs.
    pub(super) fn clock_tick(&mut self, n: usize, engine: &mut Engine<LanEvent>) {
        let node = &mut self.nodes[n];
        let Some(tick) = node.clock_tick else {
            unreachable!("a clock tick on a host without tick accounting")
        };
        if node.call == Call::Done {
            return;
        }
        let sample = Sample {
            primary: node.cpu.running().map(|(job, prio)| {
                let work = match job {
                    TcpJob::User => Work::User,
                    TcpJob::Send { by_process, .. } => {
                        // output from the process's call is its time; output started by
                        // an arriving ACK runs in the network software interrupt, over
                        // whatever the CPU was doing
                        if *by_process {
                            Work::Process
                        } else {
                            Work::Other
                        }
                    }
                    _ if prio == Priority::Task => Work::Process,
                    _ => Work::Other,
                };
                (prio, work)
            }),
            process_preempted: node.cpu.preempted(),
            user_on_attached: node.user_on_attached,
        };
        node.ticks.add(account::charge(sample));
        engine.schedule_in(
            tick,
            TcpEvent::ClockTick {
                node: (self.base + n) as u32,
            },
        );
    }

    /// Starts the application's next call, or resumes a blocked one.
    pub(super) fn advance(&mut self, n: usize, engine: &mut Engine<LanEvent>) {
        let now = engine.now();
        loop {
            let node = &mut self.nodes[n];
            match node.call {
                Call::Done => return,
                Call::Writing { busy: true, .. } | Call::Reading { busy: true, .. } | Call::User { .. } => {
                    return
                }
                Call::Idle => match node.app.next_call(now) {
                    None => {
                        node.call = Call::Done;
                        return;
                    }
                    Some(call) if node.costs.user_call_kinstr > 0.0 && call != SockCall::Close => {
                        self.start_user(n, call, engine);
                        return;
                    }
                    Some(SockCall::Write { bytes }) => {
                        node.call = Call::Writing {
                            bytes,
                            left: bytes,
                            busy: false,
                        }
                    }
                    Some(SockCall::Read { max }) => node.call = Call::Reading { max, busy: false },
                    Some(SockCall::Close) => {
                        node.conn.close();
                        node.app.returned(now, SockCall::Close, 0);
                        self.pump(n, true, engine);
                    }
                },
                Call::Writing {
                    bytes,
                    left,
                    busy: false,
                } => {
                    let k = left.min(node.conn.write_space());
                    if k == 0 {
                        return; // blocked until an ACK frees buffer space
                    }
                    node.call = Call::Writing {
                        bytes,
                        left,
                        busy: true,
                    };
                    let mut cost = Cost {
                        protocol: node.host.instructions(node.costs.syscall_kinstr),
                        copy: node.host.memcpy(k as u64),
                        ..Cost::default()
                    };
                    if !node.checksum_in_copy {
                        cost.protocol += self.checksum(n, k as u64).protocol;
                    }
                    self.start(n, Priority::Task, cost, TcpJob::Write { bytes: k }, engine);
                    return;
                }
                Call::Reading { max, busy: false } => {
                    let r = node.conn.readable().min(max as u64) as u32;
                    if r == 0 && !node.conn.eof() {
                        return; // blocked until data or a FIN arrives
                    }
                    node.call = Call::Reading { max, busy: true };
                    // soreceive walks the mbufs the read takes (in proportion to its bytes)
                    let readable = node.conn.readable();
                    let mbufs = if readable > 0 {
                        node.rcv_mbufs * r as f64 / readable as f64
                    } else {
                        0.0
                    };
                    node.rcv_mbufs -= mbufs;
                    let mut cost = Cost {
                        protocol: node
                            .host
                            .instructions(node.costs.syscall_kinstr + mbufs * node.costs.read_mbuf_kinstr),
                        copy: node.host.memcpy(r as u64),
                        ..Cost::default()
                    };
                    if node.checksum_in_copy {
                        cost.protocol += self.checksum(n, r as u64).protocol;
                    }
                    self.start(n, Priority::Task, cost, TcpJob::Read { bytes: r }, engine);
                    return;
                }
            }
        }
    }

    pub(super) fn job_done(&mut self, n: usize, job: TcpJob, engine: &mut Engine<LanEvent>) {
        let now = engine.now();
        let call_copy = match job {
            TcpJob::TxCopy { frame, .. } => {
                let tags = &mut self.nodes[n].call_copy_tags;
                let at = tags.iter().position(|&t| t == frame.tag);
                at.map(|i| tags.remove(i)).is_some()
            }
            _ => false,
        };
        self.job_effects(n, job, now, engine);
        if call_copy {
            self.call_output_done(n, engine);
        }
    }

    /// One output job of the process's call is done: the call returns when it was the
    /// last and the call's own work is over.
    pub(super) fn call_output_done(&mut self, n: usize, engine: &mut Engine<LanEvent>) {
        let node = &mut self.nodes[n];
        debug_assert!(node.call_output > 0, "call output counted");
        node.call_output -= 1;
        self.finish_call(n, engine);
    }

    /// Ends the process's call step whose work is done, once its output is.
    pub(super) fn finish_call(&mut self, n: usize, engine: &mut Engine<LanEvent>) {
        let now = engine.now();
        let node = &mut self.nodes[n];
        if !node.returning || node.call_output > 0 {
            return;
        }
        node.returning = false;
        node.call = match node.call {
            Call::Writing { bytes, left: 0, .. } => {
                node.app.returned(now, SockCall::Write { bytes }, bytes as u64);
                Call::Idle
            }
            Call::Writing { bytes, left, .. } => Call::Writing {
                bytes,
                left,
                busy: false,
            },
            Call::Reading { max, .. } => {
                node.app.returned(now, SockCall::Read { max }, node.read_got);
                Call::Idle
            }
            other => unreachable!("a call step returning from {other:?}"),
        };
        self.advance(n, engine);
    }

    pub(super) fn job_effects(&mut self, n: usize, job: TcpJob, now: SimTime, engine: &mut Engine<LanEvent>) {
        match job {
            TcpJob::Send { tag, by_process } => {
                let sizes: Vec<u32> = self.in_flight[&tag]
                    .pieces
                    .iter()
                    .map(|p| p.frame_bytes)
                    .collect();
                for bytes in sizes {
                    let frame = Frame {
                        src: self.base + n,
                        dst: self.base + 1 - n,
                        bytes,
                        tag,
                        pad: 0,
                    };
                    let step = self.nodes[n].adapter.submit(frame);
                    if by_process && step.copy.is_some_and(|f| f.tag == tag) {
                        // the driver's start routine copies it now, still in the call
                        let node = &mut self.nodes[n];
                        node.call_output += 1;
                        node.call_copy_tags.push(tag);
                    }
                    self.apply_tx(n, step, Priority::Task, engine);
                }
                if by_process {
                    self.call_output_done(n, engine);
                }
            }
            TcpJob::TxCopy { frame, .. } if self.nodes[n].adapter.profile.dma_time(frame.bytes).is_some() => {
                let node = &mut self.nodes[n];
                let d = node.adapter.profile.dma_time(frame.bytes).expect("checked");
                // a one-command card takes the command before its DMA starts
                // (an EXOS takes the transmit request from its queue first)
                let start = match (
                    node.adapter.profile.command(),
                    node.adapter.profile.message_queue(),
                ) {
                    (Some(c), _) => {
                        node.card.command_issued();
                        now + SimDuration::from_nanos_f64(c.latency_ns)
                    }
                    (None, Some(q)) => {
                        let rng = node.card.rng();
                        now + SimDuration::from_nanos_f64(q.delay_ns(|| rng.random::<f64>()))
                    }
                    (None, None) => now,
                };
                let end = node.card.dma(start, d, frame);
                engine.schedule(
                    end,
                    TcpEvent::DmaDone {
                        node: (self.base + n) as u32,
                        inbound: false,
                    },
                );
            }
            TcpJob::TxCopy { frame, prio } => {
                let step = self.nodes[n].adapter.copied_to_card(frame);
                self.apply_tx(n, step, prio, engine);
            }
            TcpJob::TxIsr => {
                // ilcint: the transmit command is done; a receive buffer the receive
                // interrupt could not supply goes to the card first
                let node = &mut self.nodes[n];
                if node.adapter.profile.command().is_some() && node.card.command_done() {
                    self.supply_rx_buffer(n, engine);
                }
                let step = self.nodes[n].adapter.transmit_complete();
                self.apply_tx(n, step, Priority::Interrupt, engine);
                self.pump(n, false, engine);
            }
            TcpJob::User => self.user_done(n, engine),
            TcpJob::RcvCommand => {
                // CDONE: the card has the buffer
                self.nodes[n].card.buffer_supplied();
                self.rx_dma(n, engine);
            }
            TcpJob::RxIsr { frame } => {
                self.nodes[n].adapter.copied_from_card(&frame);
                // ilrint: supply the next receive buffer, unless a transmit command is
                // outstanding (one command at a time)
                let node = &mut self.nodes[n];
                if node.adapter.profile.command().is_some() && node.card.may_supply_buffer() {
                    self.supply_rx_buffer(n, engine);
                }
                let node = &mut self.nodes[n];
                if let Some(q) = node.adapter.profile.message_queue() {
                    // excdint: exrecv took the frame, exhangrcv hangs the next receive
                    // request, which the board takes up after its latency
                    let rng = node.card.rng();
                    engine.schedule_in(
                        SimDuration::from_nanos_f64(q.delay_ns(|| rng.random::<f64>())),
                        TcpEvent::RxRequestTaken {
                            node: (self.base + n) as u32,
                        },
                    );
                }
                // the end of the receive interrupt re-arms a link's receive DMA (pclrint)
                self.medium.receiver_ready(self.base + n, engine);
                // a 4.2BSD driver queues the datagram on ipintrq: IP and TCP input run
                // after its interrupt, in the network software interrupt
                if let Some(input) = self.nodes[n].rx_input.pop_front() {
                    self.start(n, Priority::Interrupt, input, TcpJob::RxInput { frame }, engine);
                    return;
                }
                self.take_in(n, frame, engine);
            }
            TcpJob::RxInput { frame } => self.take_in(n, frame, engine),
            TcpJob::Write { bytes } => {
                let node = &mut self.nodes[n];
                let took = node.conn.write(bytes);
                assert_eq!(took, bytes, "the send buffer shrank under a running write");
                node.bytes_written += bytes as u64;
                let Call::Writing {
                    bytes: total, left, ..
                } = node.call
                else {
                    unreachable!("write job outside a write")
                };
                // sosend copied; PRU_SEND's output runs before the call goes on
                node.call = Call::Writing {
                    bytes: total,
                    left: left - bytes,
                    busy: true,
                };
                node.returning = true;
                self.pump(n, true, engine);
                self.finish_call(n, engine);
            }
            TcpJob::Read { bytes } => {
                let node = &mut self.nodes[n];
                let got = node.conn.read(bytes as u64);
                debug_assert_eq!(got, bytes as u64);
                node.bytes_read += got;
                debug_assert!(
                    matches!(node.call, Call::Reading { .. }),
                    "read job outside a read"
                );
                // PRU_RCVD's window update goes out before the call returns
                node.read_got = got;
                node.returning = true;
                self.pump(n, true, engine);
                self.finish_call(n, engine);
            }
        }
    }
}
