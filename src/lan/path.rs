//! The frame path shared by every composition on this layer: a node's CPU jobs for the
//! copy into the card, the transmit-complete interrupt and the receive interrupt, the
//! driver's [`TxStep`]s, and the CPU's completion events. The NetBIOS LAN ([`super::Lan`])
//! and the TCP/IP pair (`super::tcp`) both drive their frames through these
//! functions, so the path is written once.
//!
//! A composition's job type implements [`FrameJob`] to name the three frame-path jobs;
//! what a protocol does with a received frame stays with the composition.

use crate::adapter::{Adapter, SendCopy, TxStep};
use crate::engine::Engine;
use crate::ether::{EtherEvent, Frame, Indication, Wire};
use crate::host::{Completion, Cost, Cpu, HostProfile, Priority};

use super::LanEvent;

/// The frame-path jobs of a composition's job type.
pub(super) trait FrameJob: Sized {
    /// Copy of a frame into a card transmit slot, at the priority of the code that started it
    /// (or the background level: [`SendCopy::WhenIdle`]).
    fn tx_copy(frame: Frame, prio: Priority) -> Self;
    /// Transmit-complete interrupt.
    fn tx_isr() -> Self;
    /// Receive interrupt: the frame is copied out of the card.
    fn rx_isr(frame: Frame) -> Self;
}

/// The medium (a CSMA/CD segment or a point-to-point link: any [`Wire`]) handles `e`; returns the indications it raised, in order, in the buffer
/// `spare` (the caller clears it and puts it back in its field after use, so no event
/// allocates; the field must be empty between events, which the CPU handlers check).
pub(super) fn ether_step<W: Wire>(
    segment: &mut W,
    spare: &mut Vec<Indication>,
    e: EtherEvent,
    engine: &mut Engine<LanEvent>,
) -> Vec<Indication> {
    segment.handle(e, engine);
    let mut inds = std::mem::take(spare);
    inds.clear();
    segment.drain_indications(&mut inds);
    inds
}

/// Submits `job` to node `n`'s CPU and schedules its completion if it runs at once.
pub(super) fn start_job<J>(
    cpu: &mut Cpu<J>,
    n: usize,
    prio: Priority,
    cost: Cost,
    job: J,
    engine: &mut Engine<LanEvent>,
) {
    let done = cpu.submit(engine.now(), prio, cost, job);
    schedule_done(n, done, engine);
}

/// Schedules the completion of the job node `n`'s CPU started, if it started one.
fn schedule_done(n: usize, done: Option<Completion>, engine: &mut Engine<LanEvent>) {
    if let Some(c) = done {
        engine.schedule(
            c.at,
            LanEvent::CpuDone {
                node: n as u32,
                gen: c.gen,
            },
        );
    }
}

/// The running job of node `node` finished (if `gen` is current): the job, with the next
/// one's completion scheduled. `None` for a stale completion (the job was preempted).
pub(super) fn cpu_done<J>(cpu: &mut Cpu<J>, node: u32, gen: u32, engine: &mut Engine<LanEvent>) -> Option<J> {
    if !cpu.is_current(gen) {
        return None;
    }
    let (job, next) = cpu.finish(engine.now());
    if let Some(c) = next {
        engine.schedule(c.at, LanEvent::CpuDone { node, gen: c.gen });
    }
    Some(job)
}

/// Does what a transmit-side step of node `n`'s driver asks, in order: the frame for the
/// MAC goes to the segment, then the next copy into the card starts as a CPU job at
/// `prio` (the priority of the code that took the step). A copy the task level starts
/// goes where the driver's [`SendCopy`] puts it: queued like any task work, first in the
/// task queue, or at the background level.
pub(super) fn apply_tx<J: FrameJob, W: Wire>(
    segment: &mut W,
    cpu: &mut Cpu<J>,
    adapter: &Adapter,
    n: usize,
    step: TxStep,
    prio: Priority,
    engine: &mut Engine<LanEvent>,
) {
    if let Some(f) = step.to_mac {
        segment.enqueue(f, engine);
    }
    if let Some(frame) = step.copy {
        let cost = Cost {
            copy: adapter.profile.tx_copy_time(frame.bytes),
            ..Cost::default()
        };
        let send_copy = adapter.profile.send_copy();
        let prio = match (prio, send_copy) {
            (Priority::Task, SendCopy::WhenIdle) => Priority::Background,
            _ => prio,
        };
        let job = J::tx_copy(frame, prio);
        let done = if prio == Priority::Task && send_copy == SendCopy::AtOnce {
            cpu.submit_first(engine.now(), prio, cost, job)
        } else {
            cpu.submit(engine.now(), prio, cost, job)
        };
        schedule_done(n, done, engine);
    }
}

/// The MAC is done with a frame of node `n` (sent or dropped): a card that chains its
/// transmits starts the next one at once; then the transmit-complete interrupt, costing
/// `cost` (interrupt service, and a message-queue card's transmit reply).
pub(super) fn tx_interrupt<J: FrameJob, W: Wire>(
    segment: &mut W,
    cpu: &mut Cpu<J>,
    adapter: &mut Adapter,
    n: usize,
    cost: Cost,
    engine: &mut Engine<LanEvent>,
) {
    if let Some(f) = adapter.mac_done().to_mac {
        segment.enqueue(f, engine);
    }
    start_job(cpu, n, Priority::Interrupt, cost, J::tx_isr(), engine);
}

/// A frame arrived for node `n`: into the receive ring and a receive interrupt (the copy
/// out of the card plus `protocol_kinstr` thousand instructions), or false if the ring
/// had no room (the card dropped it).
pub(super) fn rx_interrupt<J: FrameJob>(
    cpu: &mut Cpu<J>,
    adapter: &mut Adapter,
    host: &HostProfile,
    n: usize,
    frame: Frame,
    protocol_kinstr: f64,
    engine: &mut Engine<LanEvent>,
) -> bool {
    if !adapter.arrive(&frame) {
        return false;
    }
    let cost = Cost {
        copy: adapter.profile.rx_copy_time(frame.bytes),
        protocol: host.instructions(protocol_kinstr),
        ..Cost::default()
    };
    start_job(cpu, n, Priority::Interrupt, cost, J::rx_isr(frame), engine);
    true
}

/// Starts node `n`'s receive interrupt for `frame`, already on the card (or moved into
/// host memory by the card's DMA), at `cost` (the caller's copy and protocol work).
pub(super) fn rx_start<J: FrameJob>(
    cpu: &mut Cpu<J>,
    n: usize,
    frame: Frame,
    cost: Cost,
    engine: &mut Engine<LanEvent>,
) {
    start_job(cpu, n, Priority::Interrupt, cost, J::rx_isr(frame), engine);
}
