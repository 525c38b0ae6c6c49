//! The TCP/IP composition: two hosts on one segment, each with a CPU, an adapter, a TCP
//! connection to the other (`crate::tcp`) and a socket application ([`SocketApp`]).
//!
//! Frames go through the shared frame path (`super::path`): this module only says what a
//! TCP host does around it: the types, the pair's construction, reports and audit, and
//! the event dispatch here; the socket calls and the CPU jobs' effects in `calls`; frames
//! coming in (card DMA, receive buffers, reassembly, TCP input) in `receive`. The work is CPU jobs (units: thousands of instructions via
//! the host's MIPS, bytes via its memcpy rate):
//! - a socket call (`Write`, `Read`): system-call entry plus the user-kernel copy; with a
//!   separate checksum (`checksum_in_copy = false`) the send side adds a checksum pass
//!   over the bytes written;
//! - `Send`: the protocol work to build one segment (IP, TCP, driver hand-over), then the
//!   driver takes the frame;
//! - the receive interrupt: interrupt service, per-segment protocol work and (separate
//!   checksum) the checksum pass over the payload.
//!
//! Segments ride in frames by tag: the segment waits in `in_flight` until its frames are
//! received (or one is lost). The host's [`Interface`] says how (Ethernet, 4.2BSD
//! trailers, or no link header; IP fragments to its MTU, all of one segment sharing its
//! tag) and, for a UNIBUS driver, which bytes the CPU copies or remaps on the way out
//! (in the `Send` job) and in (in the receive interrupt). A card with DMA
//! ([`crate::adapter::AdapterProfile::dma_time`]) moves each frame across the bus after
//! the driver's CPU work (out) or before the receive interrupt (in), one transfer at a
//! time per card, while the CPU is free. A card with message queues (the EXOS 204,
//! [`crate::adapter::MessageQueue`]) takes each request up a while after the driver
//! writes it, and has one receive request outstanding: a frame waits in the card until
//! the receive interrupt of the previous one has hung the next request and the card has
//! taken it up; IP and TCP input then follow the interrupt as their own job, as they do
//! for every UNIBUS driver (4.2BSD queues the datagram on `ipintrq` for the network
//! software interrupt). At the end of a receive interrupt the driver re-arms its receive
//! buffer ([`Wire::receiver_ready`]: a link with retry-if-busy, the PCL-11B, holds the
//! next transfer to it until then). A UNIBUS driver's input arrives as mbufs
//! ([`Piece::input_mbufs`]): the interrupt pays `rx_mbuf_kinstr` per mbuf it builds and
//! the reader `read_mbuf_kinstr` per mbuf its call walks. TCP input of a segment that
//! carries data pays `data_input_kinstr` on top of `segment_kinstr` (4.2BSD's
//! `tcp_reass`, `sbappend`, `sorwakeup`); a bare ACK does not.
//!
//! Observed (`super::observe`), each frame's jobs are recorded when submitted: the
//! segment's build (`Send`), the copy into the card and the receive interrupt.
//!
//! The medium is any [`Wire`]: the CSMA/CD segment or a point-to-point link.
//!
//! User-mode work (`user_call_kinstr` per read or write, ttcp's own loop) runs before
//! each call, on the CPU or, with an attached processor, beside it. With a clock tick
//! set, each tick is charged as 4.2BSD's accounting would ([`crate::host::account`]). Timers are the connection's (retransmit, delayed ACK), armed on
//! the engine as [`TcpEvent::Timer`] with the connection's generation.
//!
//! Invariants: a node runs at most one socket call at a time (a ttcp process is single
//! threaded); a call that cannot progress blocks until an ACK frees send buffer (writer)
//! or data or a FIN arrives (reader); a call step returns only after the output it
//! started is done (its segments built and, where the card was free, copied to it:
//! `call_output` counts those jobs), as the kernel's write and read run `tcp_output` and
//! the driver's start routine before they return.

mod calls;
mod receive;

use std::collections::{HashMap, VecDeque};

use rand::RngExt;

use super::audit::AuditError;
use super::observe::HostWorkKind;
use super::path::{self, FrameJob};
use super::{LanEvent, TcpEvent};
use crate::adapter::{Adapter, AdapterProfile, CardSide, TxStep};
use crate::engine::{Engine, StreamKind};
use crate::ether::{AnyWire, EtherReport, Frame, Indication, Wire};
use crate::host::account::{self, Sample, TickCounts, Work};
use crate::host::{Cost, Cpu, CpuStats, HostProfile, Priority};
use crate::stats::TimeIn;
use crate::tcp::{AckClock, ConnStats, Connection, Interface, Piece, Segment, StackProfile, UbaWork};
use crate::time::{SimDuration, SimTime};

/// A call a socket application makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SockCall {
    /// Write `bytes`; returns when all are in the send buffer.
    Write { bytes: u32 },
    /// Read at most `max` bytes; returns what was there (0 at end of file).
    Read { max: u32 },
    /// No more writes: the FIN follows the data.
    Close,
}

/// An application on a socket: it makes one call at a time.
pub trait SocketApp {
    /// The next call, or `None` when the application is done.
    fn next_call(&mut self, now: SimTime) -> Option<SockCall>;
    /// The last call returned at `now`, having moved `bytes`.
    fn returned(&mut self, now: SimTime, call: SockCall, bytes: u64);
}

/// CPU costs of the stack on a host, thousands of instructions unless stated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TcpCosts {
    /// Entering and leaving one socket system call.
    pub syscall_kinstr: f64,
    /// IP and TCP work for one segment, sent or received (besides the checksum).
    pub segment_kinstr: f64,
    /// Interrupt entry and the driver's interrupt service.
    pub interrupt_kinstr: f64,
    /// The Internet checksum's pass over data, instructions per byte.
    pub checksum_instr_per_byte: f64,
    /// The application's own user-mode work per read or write call (0: none).
    pub user_call_kinstr: f64,
    /// IP fragmentation (send) or reassembly (receive) work per fragment, when a segment
    /// leaves in more than one.
    pub fragment_kinstr: f64,
    /// Entering one page in the UNIBUS map (output) or swapping one page frame (input).
    pub page_remap_kinstr: f64,
    /// Per mbuf a UNIBUS driver's `if_rubaget` builds: `MGET` and the copy call, at
    /// interrupt level (0: not modelled).
    pub rx_mbuf_kinstr: f64,
    /// Per received mbuf the reader's `soreceive` walks: `uiomove`, `sbfree`, `MFREE`.
    pub read_mbuf_kinstr: f64,
    /// TCP input of a segment that carries data, on top of `segment_kinstr`: 4.2BSD's
    /// `tcp_reass` queues and dequeues it and `sbappend` links it to the socket (0: not
    /// modelled).
    pub data_input_kinstr: f64,
}

/// One host of the pair as configured.
#[derive(Clone, Debug, PartialEq)]
pub struct TcpHost {
    pub host: HostProfile,
    pub adapter: AdapterProfile,
    pub stack: StackProfile,
    pub costs: TcpCosts,
    /// Socket send and receive buffers, bytes.
    pub sndbuf: u32,
    pub rcvbuf: u32,
    /// The network interface: framing, MTU, UNIBUS buffers.
    pub interface: Interface,
    /// A second CPU runs the process's user-mode work (VAX-11/782 style); all kernel
    /// work stays on the primary.
    pub attached_processor: bool,
    /// Clock tick of the process accounting (4.2BSD: 10 ms); `None` reports busy time
    /// as measured.
    pub clock_tick: Option<SimDuration>,
}

/// Where a node's application is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Call {
    Idle,
    /// The application's user-mode work before `call`.
    User {
        call: SockCall,
    },
    /// In a call; `busy` while its CPU job runs, else blocked; `left` bytes still to write.
    Writing {
        bytes: u32,
        left: u32,
        busy: bool,
    },
    Reading {
        max: u32,
        busy: bool,
    },
    Done,
}

/// Work a TCP host's CPU does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TcpJob {
    /// Build the segment of frame `tag`; then the driver takes the frame. `by_process`:
    /// inside the process's system call (a write, or the window update of a read).
    Send {
        tag: u64,
        by_process: bool,
    },
    TxCopy {
        frame: Frame,
        prio: Priority,
    },
    TxIsr,
    RxIsr {
        frame: Frame,
    },
    /// A message-queue card's received frame after its reply interrupt: IP and TCP
    /// input (`ipintr`, the network software interrupt that `exrecv` schedules).
    RxInput {
        frame: Frame,
    },
    /// Copy `bytes` from the application into the send buffer.
    Write {
        bytes: u32,
    },
    /// Copy `bytes` from the receive buffer to the application (0: end of file).
    Read {
        bytes: u32,
    },
    /// The application's user-mode work (single processor).
    User,
    /// A one-command card's driver spins at interrupt level on the command register
    /// until the card takes its "supply receive buffer" command (`if_il.c`: `ILC_RCV`,
    /// then `while ((addr->il_csr & IL_CDONE) == 0)`); then the card may fill the buffer.
    RcvCommand,
}

impl FrameJob for TcpJob {
    fn tx_copy(frame: Frame, prio: Priority) -> Self {
        TcpJob::TxCopy { frame, prio }
    }
    fn tx_isr() -> Self {
        TcpJob::TxIsr
    }
    fn rx_isr(frame: Frame) -> Self {
        TcpJob::RxIsr { frame }
    }
}

struct TcpNode<S> {
    cpu: Cpu<TcpJob>,
    adapter: Adapter,
    host: HostProfile,
    costs: TcpCosts,
    checksum_in_copy: bool,
    interface: Interface,
    /// Driver buffers a full segment needs (its fragments).
    max_pieces: u32,
    attached_processor: bool,
    /// User-mode work is running on the attached processor.
    user_on_attached: bool,
    clock_tick: Option<SimDuration>,
    ticks: TickCounts,
    /// The card's own side (its DMA channel, the frames in its memory, its command
    /// handshake and its processor's random stream), each received frame with the
    /// receive work that follows it.
    card: CardSide<RxCost>,
    /// Message-queue card: the IP/TCP input work of frames whose reply interrupt is
    /// queued or running, in order.
    rx_input: VecDeque<Cost>,
    /// CPU jobs of the output the process's current call started and has not finished:
    /// its segments' builds and, where the card was free, the copies to the card they
    /// started (4.2BSD and Linux both run the driver's start routine inside the call).
    call_output: u32,
    /// Frames (by tag) whose copy to the card a call started and still waits for.
    call_copy_tags: Vec<u64>,
    /// The call's own work is done; it returns when `call_output` reaches 0.
    returning: bool,
    /// What the read now returning got, bytes.
    read_got: u64,
    /// Mbufs of received data in the socket's receive buffer (a UNIBUS driver's input).
    rcv_mbufs: f64,
    conn: Connection,
    app: S,
    call: Call,
    bytes_written: u64,
    bytes_read: u64,
    /// Time the driver held no frame while written data waited for the window to open.
    window_stall: TimeIn,
    /// Time the card had nothing to send while the CPU copied a frame into it.
    copy_wait: TimeIn,
    /// Frames held by the driver or the card, summed at each arrival of a data segment,
    /// and the number of such arrivals.
    backlog_sum: u64,
    data_arrivals: u64,
}

/// The CPU work a received frame costs: the interrupt that takes it, and for a
/// message-queue card the protocol input that follows as its own job.
#[derive(Clone, Copy, Debug, Default)]
struct RxCost {
    interrupt: Cost,
    input: Option<Cost>,
}

/// Counters of one host, for the workload's report.
#[derive(Clone, Debug, PartialEq)]
pub struct TcpNodeReport {
    pub cpu: CpuStats,
    pub conn: ConnStats,
    pub bytes_written: u64,
    pub bytes_read: u64,
    pub rx_ring_drops: u64,
    /// Time the host had written data to send and nothing in its driver or on its card
    /// because the window was shut (waiting for an ACK), ns.
    pub window_stall_ns: u64,
    /// Time the card had nothing to send while the CPU was copying a frame into it (the
    /// copy and the wire taking turns), ns.
    pub copy_wait_ns: u64,
    /// Mean number of frames (on a receiver: ACKs) the driver and the card held when a
    /// data segment arrived.
    pub backlog_at_data: f64,
    /// Clock ticks charged (all zero without a clock tick) and the tick.
    pub ticks: TickCounts,
    pub clock_tick: Option<SimDuration>,
}

/// A segment on its way: its frames, how many arrived and how many were taken in.
#[derive(Clone, Debug)]
struct InFlight {
    seg: Segment,
    pieces: Vec<Piece>,
    arrived: usize,
    done: usize,
}

/// Two TCP hosts on one medium, as stations `base` and `base + 1` of it.
pub struct TcpLan<S> {
    /// The medium, shared with the other parts of the LAN if there are any.
    medium: AnyWire,
    /// The station number of host 0 (host 1 is the next); the hosts are numbered 0 and 1
    /// within this part, and by station in frames and events.
    base: usize,
    nodes: Vec<TcpNode<S>>,
    in_flight: HashMap<u64, InFlight>,
    next_tag: u64,
    /// Frames lost on the wire or in a receive ring.
    pub frames_lost: u64,
    /// Observations (off unless observed).
    tap: super::observe::Tap,
}

impl<S: SocketApp> TcpLan<S> {
    /// Builds the pair (stations `base` and `base + 1` of `medium`) and starts both
    /// applications at time 0.
    pub(crate) fn new(
        medium: AnyWire,
        base: usize,
        hosts: [TcpHost; 2],
        apps: [S; 2],
        engine: &mut Engine<LanEvent>,
    ) -> Self {
        let [h0, h1] = hosts;
        let (c0, c1) = Connection::pair((h0.stack, h0.sndbuf, h0.rcvbuf), (h1.stack, h1.sndbuf, h1.rcvbuf));
        let nodes = [(h0, c0), (h1, c1)]
            .into_iter()
            .zip(apps)
            .enumerate()
            .map(|(n, ((h, conn), app))| TcpNode {
                card: CardSide::new(
                    engine
                        .rng_streams()
                        .stream(StreamKind::Adapter, (base + n) as u64),
                ),
                cpu: Cpu::new(),
                adapter: Adapter::new(h.adapter),
                host: h.host,
                costs: h.costs,
                checksum_in_copy: h.stack.checksum_in_copy,
                interface: h.interface,
                max_pieces: h.interface.max_pieces(h.stack.mss_bytes),
                attached_processor: h.attached_processor,
                user_on_attached: false,
                clock_tick: h.clock_tick,
                ticks: TickCounts::default(),
                rx_input: VecDeque::new(),
                call_output: 0,
                call_copy_tags: Vec::new(),
                returning: false,
                read_got: 0,
                rcv_mbufs: 0.0,
                conn,
                app,
                call: Call::Idle,
                bytes_written: 0,
                bytes_read: 0,
                window_stall: TimeIn::default(),
                copy_wait: TimeIn::default(),
                backlog_sum: 0,
                data_arrivals: 0,
            })
            .collect::<Vec<TcpNode<S>>>();
        let mut nodes = nodes;
        for (n, node) in nodes.iter_mut().enumerate() {
            let mut rng = engine.rng_streams().stream(StreamKind::Host, (base + n) as u64);
            let profile = *node.conn.profile();
            if profile.ack_clock == AckClock::FastTimeout {
                let period = profile.delayed_ack.as_nanos();
                node.conn
                    .set_clock_phase(SimDuration::from_nanos(rng.random_range(0..period)));
            }
            if let Some(tick) = node.clock_tick {
                let phase = rng.random_range(0..tick.as_nanos());
                engine.schedule_in(
                    SimDuration::from_nanos(phase),
                    TcpEvent::ClockTick {
                        node: (base + n) as u32,
                    },
                );
            }
        }
        for n in 0..2 {
            let node = (base + n) as u32;
            engine.schedule_in(SimDuration::ZERO, TcpEvent::Start { node });
        }
        TcpLan {
            medium,
            base,
            nodes,
            in_flight: HashMap::new(),
            next_tag: 0,
            tap: Default::default(),
            frames_lost: 0,
        }
    }

    /// The station of host 0 (host 1 is the next).
    pub fn base(&self) -> usize {
        self.base
    }

    pub fn app(&self, n: usize) -> &S {
        &self.nodes[n].app
    }
    pub fn conn(&self, n: usize) -> &Connection {
        &self.nodes[n].conn
    }
    /// Both applications are done.
    pub fn finished(&self) -> bool {
        self.nodes.iter().all(|n| n.call == Call::Done)
    }
    pub fn ether(&self, now: SimTime) -> EtherReport {
        self.medium.report(now)
    }
    pub fn node_report(&self, n: usize) -> TcpNodeReport {
        let node = &self.nodes[n];
        TcpNodeReport {
            cpu: node.cpu.stats().clone(),
            conn: node.conn.stats().clone(),
            bytes_written: node.bytes_written,
            bytes_read: node.bytes_read,
            rx_ring_drops: node.adapter.stats.rx_ring_drops,
            window_stall_ns: node.window_stall.total_ns(),
            copy_wait_ns: node.copy_wait.total_ns(),
            backlog_at_data: node.backlog_sum as f64 / node.data_arrivals.max(1) as f64,
            ticks: node.ticks,
            clock_tick: node.clock_tick,
        }
    }

    /// Byte conservation across the pair at this instant, each way: the sender's
    /// connection holds what its application wrote; the receiver has taken in order no
    /// byte the sender has not sent, and the sender has no acknowledgement for a byte the
    /// receiver has not taken; what the receiver took is exactly what its application read
    /// plus what waits to be read (nothing lost, duplicated or made up between them).
    pub fn audit(&self, now: SimTime) -> Result<(), AuditError> {
        let mut violations = Vec::new();
        for i in 0..2 {
            let (tx, rx) = (&self.nodes[i], &self.nodes[1 - i]);
            let (s, r) = (tx.conn.seq_state(), rx.conn.seq_state());
            let received = r.rcv_nxt - r.rcv_fin as u64;
            if tx.bytes_written != s.written {
                violations.push(format!(
                    "node {i}: application wrote {} bytes, its connection holds {}",
                    tx.bytes_written, s.written
                ));
            }
            if received > s.sent_max.min(s.written) {
                violations.push(format!(
                    "node {}: took {received} bytes in order, node {i} sent only {}",
                    1 - i,
                    s.sent_max.min(s.written)
                ));
            }
            if s.una > r.rcv_nxt {
                violations.push(format!(
                    "node {i}: acknowledged up to {}, node {} has taken {}",
                    s.una,
                    1 - i,
                    r.rcv_nxt
                ));
            }
            let (read, readable) = (rx.conn.stats().bytes_read, rx.conn.readable());
            if read + readable != received || rx.bytes_read != read {
                violations.push(format!(
                    "node {}: took {received} bytes in order, but its application read {} \
                     (connection: {read}) and {readable} wait",
                    1 - i,
                    rx.bytes_read
                ));
            }
        }
        if violations.is_empty() {
            Ok(())
        } else {
            Err(AuditError {
                at_ns: now.as_nanos(),
                violations,
            })
        }
    }

    /// Test seam: pretend node `n`'s application read `extra` bytes more than it did, so
    /// the audit has something to find.
    #[cfg(test)]
    pub(crate) fn tamper_bytes_read(&mut self, n: usize, extra: u64) {
        self.nodes[n].bytes_read += extra;
    }

    /// Frames whose segments are still owed to a receiver: 0 once the wire is quiet.
    pub fn segments_in_flight(&self) -> usize {
        self.in_flight.len()
    }

    fn checksum(&self, n: usize, bytes: u64) -> Cost {
        let node = &self.nodes[n];
        Cost {
            protocol: node
                .host
                .instructions(bytes as f64 * node.costs.checksum_instr_per_byte / 1e3),
            ..Cost::default()
        }
    }

    fn start(&mut self, n: usize, prio: Priority, cost: Cost, job: TcpJob, engine: &mut Engine<LanEvent>) {
        path::start_job(&mut self.nodes[n].cpu, self.base + n, prio, cost, job, engine);
    }

    /// Does what a transmit-side step of node `n`'s driver asks (`path::apply_tx`),
    /// recording the copy into the card it starts, if observing.
    fn apply_tx(&mut self, n: usize, step: TxStep, prio: Priority, engine: &mut Engine<LanEvent>) {
        let node = &mut self.nodes[n];
        if let (true, Some(f)) = (self.tap.is_on(), step.copy) {
            let copy = node.adapter.profile.tx_copy_time(f.bytes);
            let kind = HostWorkKind::TxCopy;
            self.tap
                .host(engine.now(), self.base + n, kind, &f, copy, SimDuration::ZERO);
        }
        path::apply_tx(
            &mut self.medium,
            &mut node.cpu,
            &node.adapter,
            self.base + n,
            step,
            prio,
            engine,
        );
    }

    /// Starts node `n`'s receive interrupt for `frame` at `cost` (`path::rx_start`),
    /// recording its copy and protocol work, if observing.
    /// A message-queue card's input work waits in `rx_input` for the interrupt's end;
    /// the record holds both.
    fn rx_start(&mut self, n: usize, frame: Frame, cost: RxCost, engine: &mut Engine<LanEvent>) {
        let kind = HostWorkKind::RxInterrupt;
        let (mut copy, mut protocol) = (cost.interrupt.copy, cost.interrupt.protocol);
        if let Some(input) = cost.input {
            copy += input.copy;
            protocol += input.protocol;
            self.nodes[n].rx_input.push_back(input);
        }
        self.tap
            .host(engine.now(), self.base + n, kind, &frame, copy, protocol);
        path::rx_start(
            &mut self.nodes[n].cpu,
            self.base + n,
            frame,
            cost.interrupt,
            engine,
        );
    }

    fn arm_timers(&mut self, n: usize, engine: &mut Engine<LanEvent>) {
        for r in self.nodes[n].conn.take_timer_requests() {
            engine.schedule_in(
                r.after,
                TcpEvent::Timer {
                    node: (self.base + n) as u32,
                    timer: r.timer,
                    gen: r.gen,
                },
            );
        }
    }

    /// CPU work of a UNIBUS driver's copies and remaps for `w`.
    fn uba_cost(&self, n: usize, w: UbaWork) -> Cost {
        let node = &self.nodes[n];
        Cost {
            copy: node.host.memcpy(w.copy_bytes as u64),
            protocol: node
                .host
                .instructions(w.pages as f64 * node.costs.page_remap_kinstr),
            ..Cost::default()
        }
    }
}

impl<S: SocketApp> TcpLan<S> {
    /// Observation of this part's host work starts.
    pub(crate) fn start_observing(&mut self) {
        self.tap.enable();
    }

    /// The part's observation buffer.
    pub(crate) fn tap(&mut self) -> &mut super::observe::Tap {
        &mut self.tap
    }

    /// What frame `f` of this part carries: its segment in flight; piece `index` is the
    /// first piece of the frame's size (the pieces of a fragmented segment differ in
    /// size but for equal fragments, whose headers then show the first one's offset).
    pub(crate) fn content(&self, f: &Frame) -> super::observe::Content {
        use super::observe::Content;
        match self.in_flight.get(&f.tag) {
            Some(x) => {
                let index = x
                    .pieces
                    .iter()
                    .position(|p| p.frame_bytes == f.bytes)
                    .unwrap_or(0);
                let offset = x.pieces[..index]
                    .iter()
                    .map(|p| p.ip_bytes - crate::tcp::segment::IP_HEADER_BYTES)
                    .sum();
                Content::Tcp {
                    seg: x.seg,
                    piece: x.pieces[index],
                    offset,
                    last: index + 1 == x.pieces.len(),
                }
            }
            None => Content::Opaque,
        }
    }

    /// The running job on station `node`'s CPU is done (if `gen` is current).
    pub(crate) fn cpu_done(&mut self, node: u32, gen: u32, engine: &mut Engine<LanEvent>) {
        let n = node as usize - self.base;
        let Some(job) = path::cpu_done(&mut self.nodes[n].cpu, node, gen, engine) else {
            return;
        };
        self.job_done(n, job, engine);
    }

    /// An event of one of the hosts (numbered by station).
    pub(crate) fn handle(&mut self, ev: TcpEvent, engine: &mut Engine<LanEvent>) {
        match ev {
            TcpEvent::Timer { node, timer, gen } => {
                let n = node as usize - self.base;
                if self.nodes[n].conn.on_timer(timer, gen) {
                    self.pump(n, false, engine);
                }
            }
            TcpEvent::Start { node } => self.advance(node as usize - self.base, engine),
            TcpEvent::DmaDone { node, inbound } => {
                let n = node as usize - self.base;
                let frame = self.nodes[n]
                    .card
                    .transfer_done()
                    .expect("a DMA's completion has its transfer");
                if inbound {
                    let cost = self.nodes[n]
                        .card
                        .inbound_done()
                        .expect("an inbound DMA has its interrupt");
                    self.rx_start(n, frame, cost, engine);
                } else {
                    let step = self.nodes[n].adapter.copied_to_card(frame);
                    self.apply_tx(n, step, Priority::Interrupt, engine);
                }
            }
            TcpEvent::RxRequestTaken { node } => {
                let n = node as usize - self.base;
                self.nodes[n].card.buffer_supplied();
                self.rx_dma(n, engine);
            }
            TcpEvent::UserDone { node } => self.user_done(node as usize - self.base, engine),
            TcpEvent::ClockTick { node } => self.clock_tick(node as usize - self.base, engine),
        }
    }
}
