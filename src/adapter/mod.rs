//! Network adapters: how frames move between host memory and the wire.
//!
//! Owns the adapter profile (the copy engine, the bus width and timing, the on-card RAM)
//! and the state of one card: the driver's transmit queue (AEX TRANSMIT_BUFFERS), the
//! on-card transmit slots, and the receive ring.
//!
//! The NE2000-class card modelled here (DP8390 with "remote DMA") uses **programmed
//! I/O**: the host CPU moves every byte through the data port, one bus access per byte
//! (8-bit mode) or per 16-bit word, and is busy for the whole copy. The copy time is
//! `setup + accesses x access time`. The other engines of [`CopyEngine`]: the 3C509's
//! programmed I/O through on-card FIFOs (whose sizes bound the frames on the card), the
//! SMC Elite Ultra's shared memory (the CPU copies over ISA memory cycles) and the
//! PCnet/Lance bus-master DMA with descriptor rings (the CPU only sets up; the Linux
//! driver still copies each received frame from the ring). Access times come from the
//! host's buses ([`bus`]), so a card is timed by the machine it sits in.
//!
//! Transmit: the card's transmit half of RAM holds `tx_slots` frames of the largest size
//! the driver builds; the driver queues up to `transmit_buffers` frames in host memory in
//! all (queued + on card). While one frame is on the wire the CPU can copy the next into a
//! free slot: that is the overlap the transmit buffers buy. What the card sends of a frame
//! is the byte count its driver gives ([`TransmitLength`]): the frame's own, or a whole
//! large buffer, whose padding holds the wire and the receiver's ring but is copied by
//! neither host ([`Frame::pad`]). Receive: frames land in a ring of 256-byte pages; a
//! frame that finds too few free pages is dropped by the card.
//!
//! Units: bytes, nanoseconds.

use std::collections::VecDeque;

use crate::ether::{frame_bytes, Frame};
use crate::time::SimDuration;

pub mod bus;
mod card;

pub use card::CardSide;

/// The DP8390 writes a 4-byte receive header (status, next page, byte count) in front of
/// every frame it stores in the ring (National DP8390 datasheet, "Receive Buffer Ring").
pub const RX_HEADER_BYTES: u32 = 4;

/// The byte count an NE2000-class driver writes into the DP8390's transmit byte count
/// registers (TBCR0/1) before the transmit command: what the card sends, whatever the
/// host copied in.
///
/// The AEX driver divides its transmit RAM into "several small buffers and several large
/// buffers" (LANtastic 4.1 switch notes). That it sends a large one whole is issue 13's
/// hypothesis, not a documented fact: Table 1's 16-bit optimized curve is serrated as if
/// every data packet cost a full frame's wire time however little it carries. A frame
/// sent whole goes out as long as the largest frame the driver builds (PACKET_SIZE); the
/// sending host copies only the frame's own bytes into the card, and the receiving host
/// only those out of its ring (the receiving driver reads the length from the NetBIOS
/// header), while the whole buffer occupies the wire and the receiver's ring.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TransmitLength {
    /// Every frame at its own length (the MAC pads it to 64 bytes).
    #[default]
    Frame,
    /// Frames of file data (responses, write requests) sent whole.
    Data,
    /// Every frame of a session message (requests too) sent whole; only the
    /// acknowledgements, built in small buffers, at their own length.
    Message,
}

/// When a programmed-I/O driver copies a frame it was handed into the card's transmit
/// RAM, if the card has room (issue 13; not documented for the AEX driver, so each is a
/// hypothesis the calibration judges). A frame handed over while the card is full is
/// copied by the transmit-complete interrupt that frees a slot, whatever this says.
///
/// The AEX driver keeps TRANSMIT_BUFFERS packet buffers of its own in host memory (2-80,
/// LANtastic 4.1 switch notes): a send call can copy the caller's packet there and return,
/// and the copy into the card can come later.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SendCopy {
    /// Task-level work queued behind whatever NOS work already waits for the CPU (first
    /// come, first served).
    #[default]
    Queued,
    /// Straight after the packet is built, ahead of the NOS work already waiting (the send
    /// call copies into the card before it returns).
    AtOnce,
    /// When the host has no other task-level work waiting ([`crate::host::Priority::Background`]:
    /// the driver moves its buffered packets into the card from an idle-time hook).
    WhenIdle,
}

/// What a frame handed to the driver carries, for [`TransmitLength`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Carries {
    /// An acknowledgement, or anything outside a NetBIOS session (TCP/IP, test traffic).
    Control,
    /// A request's own fields (a read request).
    Request,
    /// File data (a response, a write request).
    FileData,
}

/// How the host and the card exchange frame data.
#[derive(Clone, Debug, PartialEq)]
pub enum CopyEngine {
    /// The CPU copies through an I/O port (NE1000/NE2000 remote DMA, REP OUTS/INS).
    ProgrammedIo {
        /// Time of one data-port access of the bus width, ns (bus cycle + wait states +
        /// the string instruction's own cycles).
        access_ns: f64,
        /// Per-frame set-up: remote-DMA address/count registers and command, ns.
        setup_ns: f64,
        /// The byte count the driver gives the transmit command.
        transmit_length: TransmitLength,
        /// When the driver copies a frame it was handed into the card.
        send_copy: SendCopy,
    },
    /// 3C509-style: the CPU moves whole frames through transmit and receive FIFOs with
    /// 16-bit I/O string accesses; only as many frames as fit the FIFOs are on the card.
    FifoPio {
        /// One 16-bit I/O access ([`bus::HostBus::isa_access_ns`]), ns.
        access_ns: f64,
        /// Per-frame register work (length word, status), ns.
        setup_ns: f64,
        tx_fifo_bytes: u32,
        rx_fifo_bytes: u32,
    },
    /// SMC Elite Ultra-style: the card's RAM is mapped into memory; the CPU copies with
    /// 16-bit ISA memory cycles into `tx_buffers` transmit buffers (the rest of the RAM
    /// is the receive ring).
    SharedMemory {
        /// One 16-bit memory access ([`bus::HostBus::isa_access_ns`]), ns.
        access_ns: f64,
        /// Per-frame window enable and register work, ns.
        setup_ns: f64,
        tx_buffers: u32,
    },
    /// PCnet/Lance-style bus master: the CPU writes a descriptor (`setup_ns`) and the
    /// card fetches the frame itself; received frames land in ring buffers and the
    /// driver copies each into host memory at the host's memcpy rate.
    BusMaster {
        setup_ns: f64,
        /// Host memory copy, ns per byte (the receive copy from the ring).
        rx_copy_ns_per_byte: f64,
        tx_ring: u32,
        rx_ring: u32,
    },
    /// A UNIBUS card of a VAX (Excelan EXOS 204, Interlan NI1010A, DEC PCL-11B): the
    /// driver's CPU work per frame is `setup_ns` plus `request_ns` (on a card with
    /// [`MessageQueue`]s, per message: a frame's request `request_ns` and its reply
    /// [`MessageQueue::reply_ns`]), then the card moves the frame by DMA
    /// ([`DmaTiming`]) while the CPU is free; `dma = None` for a card whose DMA *is* the
    /// transmission (the PCL-11 reads host memory as it sends, at the link's rate).
    UnibusDma {
        setup_ns: f64,
        request_ns: f64,
        dma: Option<DmaTiming>,
        /// Frames the card holds for transmission (one outstanding on the EXOS driver).
        tx_slots: u32,
        /// Receive buffer space on the card, bytes.
        rx_bytes: u32,
        /// A card that takes one command at a time (the Interlan NI1010A under 4.2BSD's
        /// `if_il.c`): see [`CommandHandshake`]. `None`: the card queues requests itself
        /// (the EXOS's message queues) or has no commands (the PCL-11).
        command: Option<CommandHandshake>,
        /// A card driven through request and reply message queues with one receive
        /// request hung at a time (the EXOS 204 under `if_ex.c`): see [`MessageQueue`].
        queue: Option<MessageQueue>,
    },
}

/// The request/reply message queues of a board with its own processor (the EXOS 204 in
/// link mode under `if_ex.c`, Excelan 84/10/11): the driver fills a request in host
/// memory and writes the board's port B; the board's processor takes the request up
/// `take_up_ns` later and only then moves the frame by DMA. The driver has one receive
/// buffer (`ifu_r`) and so one receive request outstanding: the reply interrupt
/// (`excdint`) takes the frame (`exrecv`) and then hangs the next request
/// (`exhangrcv`), so a frame that arrives meanwhile waits in the board's memory until
/// that request is taken up. Transmit and receive requests queue independently (the
/// request queue holds four), unlike a one-command card ([`CommandHandshake`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MessageQueue {
    /// From the port B write to the board's processor acting on the request, ns: the
    /// delay itself ([`TakeUp::Fixed`]) or its mean ([`TakeUp::Polled`]).
    pub take_up_ns: f64,
    pub take_up: TakeUp,
    /// CPU to take one reply off the reply queue and free it (`excdint`), ns; `None`:
    /// the card's `request_ns`, the same as filling a request.
    pub reply_ns: Option<f64>,
}

/// How long the board's processor takes to act on a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TakeUp {
    /// Always `take_up_ns`.
    #[default]
    Fixed,
    /// The firmware finds the request when its loop next looks at the queue, every
    /// `2 * take_up_ns`: the delay is uniform on `[0, 2 * take_up_ns)`, independent from
    /// one request to the next (mean `take_up_ns`).
    Polled,
}

impl MessageQueue {
    /// The take-up delay of one request, ns, given `u`, a uniform draw on `[0, 1)` that
    /// the caller takes from its random stream (used only when [`TakeUp::Polled`]).
    pub fn delay_ns(&self, u: impl FnOnce() -> f64) -> f64 {
        match self.take_up {
            TakeUp::Fixed => self.take_up_ns,
            TakeUp::Polled => 2.0 * self.take_up_ns * u(),
        }
    }
}

/// The command/DMA handshake of a one-command-at-a-time UNIBUS card (NI1010A, `if_il.c`
/// in 4.2BSD): the driver writes BAR, BCR and CSR and the card's processor takes the
/// command before its DMA starts; a transmit command ("load transmit data and send")
/// completes only when the frame has gone on the wire (command-done interrupt). Received
/// frames wait in the card's FIFO until the driver supplies a receive buffer, one at a
/// time: after the previous frame's receive interrupt, and not while a transmit command
/// is outstanding (then the command-done interrupt supplies it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CommandHandshake {
    /// From the command register write to the start of its DMA, ns.
    pub latency_ns: f64,
}

/// A UNIBUS DMA transfer's timing (DEC UNIBUS: at most one 16-bit word per 750 ns;
/// through the DW780 adapter each burst also pays arbitration and the SBI transfer).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DmaTiming {
    /// One 16-bit word on the UNIBUS, ns (>= 750).
    pub word_ns: f64,
    /// Words per bus grant (the EXOS 204's jumper: 2, 4, 8 or 16; 1 for a card that
    /// arbitrates for every word).
    pub burst_words: u32,
    /// Bus request, grant and the adapter's SBI turnaround paid once per burst, ns.
    pub burst_overhead_ns: f64,
}

impl DmaTiming {
    /// Time to move `bytes` between host memory and the card: whole words, whole bursts.
    pub fn time(&self, bytes: u32) -> SimDuration {
        let words = bytes.div_ceil(2) as u64;
        let bursts = words.div_ceil(self.burst_words.max(1) as u64);
        SimDuration::from_nanos_f64(words as f64 * self.word_ns + bursts as f64 * self.burst_overhead_ns)
    }
}

/// The static description of one adapter as configured.
#[derive(Clone, Debug, PartialEq)]
pub struct AdapterProfile {
    pub name: String,
    /// Data path width on the host bus: 8 or 16 (32 for later EISA/PCI profiles).
    pub bus_width_bits: u32,
    pub copy: CopyEngine,
    /// On-card buffer RAM.
    pub card_ram_bytes: u32,
    /// Ring/buffer page size of the controller (256 on the DP8390).
    pub page_bytes: u32,
    /// AEX TRANSMIT_BUFFERS: frames the driver holds for transmission (queued + on card).
    pub transmit_buffers: u32,
    /// AEX PACKET_SIZE: largest Ethernet data field the driver builds (574..4300).
    pub packet_size: u32,
}

impl AdapterProfile {
    /// Largest frame the driver builds, header to FCS.
    pub fn max_frame_bytes(&self) -> u32 {
        frame_bytes(self.packet_size)
    }

    fn pages(&self, bytes: u32) -> u32 {
        bytes.div_ceil(self.page_bytes)
    }

    /// On-card transmit slots: for the NE2000 half the RAM in slots of the largest
    /// frame; the frames that fit the transmit FIFO; the shared-memory transmit buffers;
    /// the bus master's transmit descriptors.
    pub fn tx_slots(&self) -> u32 {
        match self.copy {
            CopyEngine::ProgrammedIo { .. } => {
                let tx_pages = self.card_ram_bytes / 2 / self.page_bytes;
                (tx_pages / self.pages(self.max_frame_bytes())).max(1)
            }
            CopyEngine::FifoPio { tx_fifo_bytes, .. } => (tx_fifo_bytes / self.max_frame_bytes()).max(1),
            CopyEngine::SharedMemory { tx_buffers, .. } => tx_buffers.max(1),
            CopyEngine::BusMaster { tx_ring, .. } => tx_ring.max(1),
            CopyEngine::UnibusDma { tx_slots, .. } => tx_slots.max(1),
        }
    }

    /// Receive space in pages: the other half of the NE2000's RAM; the receive FIFO;
    /// the shared RAM left after the transmit buffers; the bus master's ring buffers.
    pub fn rx_pages(&self) -> u32 {
        match self.copy {
            CopyEngine::ProgrammedIo { .. } => self.card_ram_bytes / 2 / self.page_bytes,
            CopyEngine::FifoPio { rx_fifo_bytes, .. } => rx_fifo_bytes / self.page_bytes,
            CopyEngine::SharedMemory { tx_buffers, .. } => {
                let tx = tx_buffers * self.pages(self.max_frame_bytes());
                (self.card_ram_bytes / self.page_bytes).saturating_sub(tx)
            }
            CopyEngine::BusMaster { rx_ring, .. } => {
                rx_ring * self.pages(self.max_frame_bytes() + RX_HEADER_BYTES)
            }
            CopyEngine::UnibusDma { rx_bytes, .. } => rx_bytes / self.page_bytes,
        }
    }

    /// Bytes the card sends for a frame of `bytes` that carries `what`: its own length,
    /// or the largest frame's when [`TransmitLength`] sends its buffer whole. Never less
    /// than `bytes`.
    pub fn transmitted_bytes(&self, bytes: u32, what: Carries) -> u32 {
        let CopyEngine::ProgrammedIo { transmit_length, .. } = self.copy else {
            return bytes;
        };
        let whole = match transmit_length {
            TransmitLength::Frame => false,
            TransmitLength::Data => what == Carries::FileData,
            TransmitLength::Message => what != Carries::Control,
        };
        if whole {
            bytes.max(self.max_frame_bytes())
        } else {
            bytes
        }
    }

    /// When the driver copies a frame it was handed into the card ([`SendCopy`]; the
    /// other copy engines' drivers queue the copy like any task work).
    pub fn send_copy(&self) -> SendCopy {
        match self.copy {
            CopyEngine::ProgrammedIo { send_copy, .. } => send_copy,
            _ => SendCopy::Queued,
        }
    }

    /// Ring pages a received frame occupies (the DP8390 prepends its receive header).
    pub fn rx_pages_for(&self, wire_bytes: u32) -> u32 {
        self.pages(wire_bytes + RX_HEADER_BYTES)
    }

    /// Does the card start its next ready frame by itself when the MAC is done with one
    /// (a bus master walking its descriptor ring), rather than from the driver's
    /// transmit-complete interrupt (the 8390's transmit command, the 3C509's FIFO refill)?
    pub fn chains_transmits(&self) -> bool {
        matches!(self.copy, CopyEngine::BusMaster { .. })
    }

    /// CPU time to move a frame of `bytes` between host memory and the card (either
    /// way; see [`AdapterProfile::tx_copy_time`] and [`AdapterProfile::rx_copy_time`]).
    pub fn copy_time(&self, bytes: u32) -> SimDuration {
        self.tx_copy_time(bytes)
    }

    /// CPU time to put a frame of `bytes` on the card.
    pub fn tx_copy_time(&self, bytes: u32) -> SimDuration {
        match self.copy {
            CopyEngine::ProgrammedIo {
                access_ns, setup_ns, ..
            } => {
                let width = (self.bus_width_bits / 8).max(1);
                let accesses = bytes.div_ceil(width);
                SimDuration::from_nanos_f64(setup_ns + accesses as f64 * access_ns)
            }
            CopyEngine::FifoPio {
                access_ns, setup_ns, ..
            }
            | CopyEngine::SharedMemory {
                access_ns, setup_ns, ..
            } => SimDuration::from_nanos_f64(setup_ns + bytes.div_ceil(2) as f64 * access_ns),
            CopyEngine::BusMaster { setup_ns, .. } => SimDuration::from_nanos_f64(setup_ns),
            CopyEngine::UnibusDma {
                setup_ns, request_ns, ..
            } => SimDuration::from_nanos_f64(setup_ns + request_ns),
        }
    }

    /// Time the card's DMA takes to move a frame of `bytes` across the bus, during which
    /// the CPU is free; `None` when the CPU's copy (or the transmission) is the transfer.
    pub fn dma_time(&self, bytes: u32) -> Option<SimDuration> {
        match self.copy {
            CopyEngine::UnibusDma { dma: Some(d), .. } => Some(d.time(bytes)),
            _ => None,
        }
    }

    /// The card's one-command-at-a-time handshake, if it has one.
    pub fn command(&self) -> Option<CommandHandshake> {
        match self.copy {
            CopyEngine::UnibusDma { command, .. } => command,
            _ => None,
        }
    }

    /// CPU time the driver spends on one reply of a message-queue card (`excdint`
    /// taking it off the reply queue and freeing it): the queue's `reply_ns`, else
    /// `request_ns` (a request it fills is paid in [`Self::tx_copy_time`]); zero for
    /// other cards.
    pub fn reply_time(&self) -> SimDuration {
        match self.copy {
            CopyEngine::UnibusDma {
                request_ns, queue, ..
            } => SimDuration::from_nanos_f64(queue.and_then(|q| q.reply_ns).unwrap_or(request_ns)),
            _ => SimDuration::ZERO,
        }
    }

    /// The card's request/reply message queues, if it has them.
    pub fn message_queue(&self) -> Option<MessageQueue> {
        match self.copy {
            CopyEngine::UnibusDma { queue, .. } => queue,
            _ => None,
        }
    }

    /// CPU time to take a received frame of `bytes` off the card into host memory.
    pub fn rx_copy_time(&self, bytes: u32) -> SimDuration {
        match self.copy {
            CopyEngine::BusMaster {
                setup_ns,
                rx_copy_ns_per_byte,
                ..
            } => SimDuration::from_nanos_f64(setup_ns + bytes as f64 * rx_copy_ns_per_byte),
            _ => self.tx_copy_time(bytes),
        }
    }
}

/// Counters of one adapter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AdapterStats {
    pub frames_copied_out: u64,
    pub frames_copied_in: u64,
    pub bytes_copied: u64,
    /// Frames lost because the receive ring was full.
    pub rx_ring_drops: u64,
    /// Times the NOS found the driver's transmit queue full.
    pub tx_queue_full: u64,
    /// Most frames held by the driver at once.
    pub tx_high_water: u32,
}

/// What the host must do after a transmit-side step of the driver, in this order: hand a
/// frame to the MAC, then start a copy. Every transmit-side step returns one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TxStep {
    /// The transmitter was idle: hand this frame (now on the card) to the MAC.
    pub to_mac: Option<Frame>,
    /// Copy this frame into a free card slot (a CPU job); call
    /// [`Adapter::copied_to_card`] when done.
    pub copy: Option<Frame>,
}

/// One card and its driver.
pub struct Adapter {
    pub profile: AdapterProfile,
    tx_slots_free: u32,
    /// Frames accepted by the driver and not yet sent: in host memory, being copied, on card.
    held: u32,
    /// With the bytes the card will send for each ([`AdapterProfile::transmitted_bytes`]).
    driver_queue: VecDeque<(Frame, u32)>,
    /// While a copy into the card is in progress (copies are done one at a time, in
    /// order): the bytes the card will send for the frame being copied.
    copying: Option<u32>,
    card_ready: VecDeque<Frame>,
    /// A frame is with the MAC.
    transmitting: bool,
    /// Frames the MAC is done with whose interrupt is not yet serviced (a card that
    /// chains its transmits only).
    unserviced: u32,
    rx_free_pages: u32,
    pub stats: AdapterStats,
}

impl Adapter {
    pub fn new(profile: AdapterProfile) -> Self {
        Adapter {
            tx_slots_free: profile.tx_slots(),
            rx_free_pages: profile.rx_pages(),
            held: 0,
            driver_queue: VecDeque::new(),
            copying: None,
            card_ready: VecDeque::new(),
            transmitting: false,
            unserviced: 0,
            stats: AdapterStats::default(),
            profile,
        }
    }

    /// Can the driver take another frame (TRANSMIT_BUFFERS not exhausted)?
    pub fn can_accept(&self) -> bool {
        self.held < self.profile.transmit_buffers
    }

    /// Driver buffers still free (TRANSMIT_BUFFERS minus those held).
    pub fn room(&self) -> u32 {
        self.profile.transmit_buffers.saturating_sub(self.held)
    }

    /// Frames the driver holds (queued, being copied, or on the card).
    pub fn held(&self) -> u32 {
        self.held
    }

    /// The NOS reserves a driver buffer for a frame it is about to build.
    pub fn reserve(&mut self) -> bool {
        if !self.can_accept() {
            self.stats.tx_queue_full += 1;
            return false;
        }
        self.held += 1;
        self.stats.tx_high_water = self.stats.tx_high_water.max(self.held);
        true
    }

    /// The driver is handed a built frame (its buffer reserved). Frames are copied into
    /// the card one at a time and in the order handed over, so they leave in that order:
    /// the copy starts now if no other copy is running and a card slot is free.
    pub fn submit(&mut self, frame: Frame) -> TxStep {
        self.submit_carrying(frame, Carries::Control)
    }

    /// [`Adapter::submit`] for a frame of a NetBIOS session that carries `what`: with a
    /// [`TransmitLength`] that sends such frames whole, it leaves a large buffer long.
    pub fn submit_carrying(&mut self, frame: Frame, what: Carries) -> TxStep {
        let sent = self.profile.transmitted_bytes(frame.bytes, what);
        self.driver_queue.push_back((frame, sent));
        TxStep {
            to_mac: None,
            copy: self.next_copy(),
        }
    }

    fn next_copy(&mut self) -> Option<Frame> {
        if self.copying.is_some() || self.tx_slots_free == 0 {
            return None;
        }
        let (f, sent) = self.driver_queue.pop_front()?;
        self.copying = Some(sent);
        self.tx_slots_free -= 1;
        Some(f)
    }

    /// A copy into the card finished: the frame goes to the MAC if the transmitter is
    /// idle, and the next copy starts.
    pub fn copied_to_card(&mut self, frame: Frame) -> TxStep {
        let sent = self.copying.take();
        debug_assert!(sent.is_some(), "a copy was running");
        self.stats.frames_copied_in += 1;
        self.stats.bytes_copied += frame.bytes as u64;
        let frame = Frame {
            pad: sent.map_or(0, |b| b - frame.bytes),
            ..frame
        };
        self.card_ready.push_back(frame);
        self.step()
    }

    fn step(&mut self) -> TxStep {
        let to_mac = self.next_for_mac();
        TxStep {
            to_mac,
            copy: self.next_copy(),
        }
    }

    fn next_for_mac(&mut self) -> Option<Frame> {
        if self.transmitting {
            return None;
        }
        let f = self.card_ready.pop_front()?;
        self.transmitting = true;
        Some(f)
    }

    /// The MAC is done with the frame (sent or given up). A card that chains its
    /// transmits ([`AdapterProfile::chains_transmits`]) hands its next ready frame to the
    /// MAC now; any other card waits for the interrupt ([`Adapter::transmit_complete`]).
    pub fn mac_done(&mut self) -> TxStep {
        if !self.profile.chains_transmits() {
            return TxStep::default();
        }
        debug_assert!(self.transmitting);
        self.transmitting = false;
        self.unserviced += 1;
        TxStep {
            to_mac: self.next_for_mac(),
            copy: None,
        }
    }

    /// The transmit-complete interrupt was serviced (frame sent or given up): the slot is
    /// free: the next frame on the card goes to the MAC, and the next copy starts.
    pub fn transmit_complete(&mut self) -> TxStep {
        if self.profile.chains_transmits() {
            debug_assert!(self.unserviced > 0 && self.held > 0);
            self.unserviced -= 1;
        } else {
            debug_assert!(self.transmitting && self.held > 0);
            self.transmitting = false;
        }
        self.held -= 1;
        self.tx_slots_free += 1;
        self.step()
    }

    /// A frame arrives from the wire: stored if the ring has room (then the caller runs the
    /// receive interrupt and calls [`Adapter::copied_from_card`]), dropped otherwise.
    pub fn arrive(&mut self, frame: &Frame) -> bool {
        let pages = self.profile.rx_pages_for(frame.wire_bytes());
        if pages > self.rx_free_pages {
            self.stats.rx_ring_drops += 1;
            return false;
        }
        self.rx_free_pages -= pages;
        true
    }

    /// The receive interrupt copied `frame` out of the ring: its pages are free again.
    pub fn copied_from_card(&mut self, frame: &Frame) {
        self.rx_free_pages += self.profile.rx_pages_for(frame.wire_bytes());
        self.stats.frames_copied_out += 1;
        self.stats.bytes_copied += frame.bytes as u64;
    }

    /// Free receive-ring pages (for tests and audits).
    pub fn rx_free_pages(&self) -> u32 {
        self.rx_free_pages
    }

    /// Free on-card transmit slots (for audits).
    pub fn tx_slots_free(&self) -> u32 {
        self.tx_slots_free
    }

    /// Frames built and waiting in host memory for their copy to the card (for audits).
    pub fn driver_queue(&self) -> impl Iterator<Item = &Frame> {
        self.driver_queue.iter().map(|(f, _)| f)
    }

    /// Frames on the card waiting for the transmitter (for audits).
    pub fn card_ready(&self) -> impl Iterator<Item = &Frame> {
        self.card_ready.iter()
    }

    /// A copy into the card is in progress (for audits).
    pub fn is_copying(&self) -> bool {
        self.copying.is_some()
    }

    /// A frame is with the MAC, or its transmit-complete interrupt is pending (for audits).
    pub fn is_transmitting(&self) -> bool {
        self.transmitting
    }
}

#[cfg(test)]
mod engine_tests;

#[cfg(test)]
mod tests {
    use super::*;

    fn ne2000(width: u32, access_ns: f64, packet_size: u32, buffers: u32) -> AdapterProfile {
        AdapterProfile {
            name: "test".into(),
            bus_width_bits: width,
            copy: CopyEngine::ProgrammedIo {
                access_ns,
                setup_ns: 10_000.0,
                transmit_length: TransmitLength::default(),
                send_copy: SendCopy::default(),
            },
            card_ram_bytes: 16 * 1024,
            page_bytes: 256,
            transmit_buffers: buffers,
            packet_size,
        }
    }

    fn frame(bytes: u32) -> Frame {
        Frame {
            src: 0,
            dst: 1,
            bytes,
            tag: 0,
            pad: 0,
        }
    }

    fn step(to_mac: Option<u32>, copy: Option<u32>) -> TxStep {
        TxStep {
            to_mac: to_mac.map(frame),
            copy: copy.map(frame),
        }
    }

    #[test]
    fn test_copy_time_by_bus_width() {
        // 1518 bytes: 759 word accesses in 16-bit mode, 1518 byte accesses in 8-bit mode
        let w16 = ne2000(16, 1_000.0, 1500, 20);
        let w8 = ne2000(8, 2_000.0, 1500, 20);
        assert_eq!(w16.copy_time(1518), SimDuration::from_nanos(10_000 + 759_000));
        assert_eq!(w8.copy_time(1518), SimDuration::from_nanos(10_000 + 3_036_000));
        // odd byte counts round up to whole words
        assert_eq!(w16.copy_time(3), SimDuration::from_nanos(12_000));
    }

    #[test]
    fn test_slots_follow_card_ram_and_packet_size() {
        // 8 KB of transmit RAM = 32 pages; 1518-byte frames take 6 pages, 1718 take 7
        assert_eq!(ne2000(16, 1.0, 1500, 20).tx_slots(), 5);
        assert_eq!(ne2000(16, 1.0, 1700, 20).tx_slots(), 4);
        assert_eq!(ne2000(16, 1.0, 4300, 20).tx_slots(), 1);
        assert_eq!(ne2000(16, 1.0, 1500, 20).rx_pages(), 32);
    }

    #[test]
    fn test_copy_overlaps_transmission_until_slots_run_out() {
        let mut a = Adapter::new(ne2000(16, 1.0, 4300, 3)); // one slot, three buffers
        assert!(a.reserve() && a.reserve() && a.reserve());
        assert!(!a.reserve(), "TRANSMIT_BUFFERS exhausted");
        assert_eq!(a.submit(frame(100)), step(None, Some(100)));
        assert_eq!(a.submit(frame(200)), step(None, None)); // waits for the slot
        assert_eq!(a.copied_to_card(frame(100)), step(Some(100), None));
        assert_eq!(a.transmit_complete(), step(None, Some(200)));
        assert!(a.can_accept());
    }

    #[test]
    fn test_copies_run_one_at_a_time_in_order() {
        let mut a = Adapter::new(ne2000(16, 1.0, 1500, 20)); // five slots
        for b in [100, 200, 300] {
            assert!(a.reserve());
            let act = a.submit(frame(b));
            assert_eq!(act.copy.is_none(), b != 100, "only the first copy starts");
        }
        assert_eq!(a.copied_to_card(frame(100)), step(Some(100), Some(200)));
        // the transmit-complete interrupt must not start a copy while one runs
        assert_eq!(a.transmit_complete(), step(None, None));
        assert_eq!(a.copied_to_card(frame(200)), step(Some(200), Some(300)));
    }

    #[test]
    fn test_whole_buffers_pad_the_wire_not_the_copies() {
        let mut p = ne2000(16, 1_000.0, 1700, 20);
        let with = |p: &mut AdapterProfile, transmit_length| {
            p.copy = CopyEngine::ProgrammedIo {
                access_ns: 1_000.0,
                setup_ns: 10_000.0,
                transmit_length,
                send_copy: SendCopy::Queued,
            };
        };
        // "frame": every frame at its own length
        assert_eq!(p.transmitted_bytes(250, Carries::FileData), 250);
        // "data": file data as long as the largest frame (1700 + 18), the rest their own
        with(&mut p, TransmitLength::Data);
        assert_eq!(p.transmitted_bytes(250, Carries::FileData), 1718);
        assert_eq!(p.transmitted_bytes(1718, Carries::FileData), 1718);
        assert_eq!(p.transmitted_bytes(114, Carries::Request), 114);
        // "message": requests too; acknowledgements never
        with(&mut p, TransmitLength::Message);
        assert_eq!(p.transmitted_bytes(114, Carries::Request), 1718);
        assert_eq!(p.transmitted_bytes(64, Carries::Control), 64);

        with(&mut p, TransmitLength::Data);
        let mut a = Adapter::new(p);
        assert!(a.reserve() && a.reserve());
        // the host copies the 250 bytes it has (125 words), the card sends 1718
        assert_eq!(
            a.submit_carrying(frame(250), Carries::FileData),
            step(None, Some(250))
        );
        assert_eq!(
            a.profile.tx_copy_time(250),
            SimDuration::from_nanos(10_000 + 125_000)
        );
        assert_eq!(a.submit(frame(114)), step(None, None));
        let sent = a.copied_to_card(frame(250)).to_mac.unwrap();
        assert_eq!((sent.bytes, sent.pad, sent.wire_bytes()), (250, 1468, 1718));
        assert_eq!(a.stats.bytes_copied, 250);
        assert_eq!(a.transmit_complete(), step(None, None));
        assert_eq!(a.copied_to_card(frame(114)), step(Some(114), None));
        // the receiver's ring holds the whole 1718 bytes (7 pages with its header); its
        // copy is of the frame's own 250
        let mut b = Adapter::new(a.profile.clone());
        assert!(b.arrive(&sent));
        assert_eq!(b.rx_free_pages(), 32 - 7);
        assert_eq!(b.profile.rx_copy_time(sent.bytes), b.profile.tx_copy_time(250));
    }

    #[test]
    fn test_full_receive_ring_drops() {
        let mut a = Adapter::new(ne2000(16, 1.0, 1500, 20));
        // 1518 + 4 bytes = 6 pages; 32 pages hold 5 such frames
        for _ in 0..5 {
            assert!(a.arrive(&frame(1518)));
        }
        assert!(!a.arrive(&frame(1518)));
        assert_eq!(a.stats.rx_ring_drops, 1);
        a.copied_from_card(&frame(1518));
        assert!(a.arrive(&frame(1518)));
        assert_eq!(a.rx_free_pages(), 2);
    }
}
