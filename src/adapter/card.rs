//! The card's own side of a card that moves frames itself: bus-master and UNIBUS DMA, a
//! one-command handshake (the Interlan NI1010A), message queues (the Excelan EXOS 204).
//!
//! Owns: the card's DMA channel (one transfer at a time, in order), the frames held in the
//! card's memory until the driver has supplied a receive buffer, the state of a
//! one-command interface (a transmit command outstanding, a receive buffer the receive
//! interrupt could not supply because of it) and the random stream of the card's own
//! processor (the delay before it takes up a request from its queue).
//!
//! `W` is the host's work that follows each frame the card brings in (the composition's
//! receive cost); the card only keeps it with its frame, in order.
//!
//! Invariants: transfers end in the order they were queued; a held frame moves to the
//! host only into a supplied buffer, which it then fills (one buffer, one frame).
//! Units: nanoseconds.

use std::collections::VecDeque;

use crate::engine::SimRng;
use crate::ether::Frame;
use crate::time::{SimDuration, SimTime};

/// The card's side of one DMA-capable card.
#[derive(Debug)]
pub struct CardSide<W> {
    /// When the DMA channel is next free.
    dma_free: SimTime,
    /// The frame of each transfer on the channel, in the order they end (one at a time,
    /// so the order they were queued).
    transfers: VecDeque<Frame>,
    /// The host work waiting behind each inbound transfer, in order.
    inbound: VecDeque<W>,
    /// Frames in the card's memory waiting for a receive buffer, with their host work.
    held: VecDeque<(Frame, W)>,
    /// The driver has supplied a receive buffer the card has taken and not yet filled.
    rx_buffer: bool,
    /// A transmit command is outstanding (from its CSR write to its command-done
    /// interrupt).
    xmit_active: bool,
    /// The receive interrupt found a transmit command outstanding: the command-done
    /// interrupt supplies the buffer.
    rx_supply_deferred: bool,
    /// The card's own processor's random stream.
    rng: SimRng,
}

impl<W> CardSide<W> {
    /// A card at rest with one receive buffer supplied.
    pub fn new(rng: SimRng) -> Self {
        CardSide {
            dma_free: SimTime::ZERO,
            transfers: VecDeque::new(),
            inbound: VecDeque::new(),
            held: VecDeque::new(),
            rx_buffer: true,
            xmit_active: false,
            rx_supply_deferred: false,
            rng,
        }
    }

    /// Queues a transfer `d` long that may start at `start`, after the card's previous
    /// one; returns when it ends.
    pub fn dma(&mut self, start: SimTime, d: SimDuration, frame: Frame) -> SimTime {
        self.transfers.push_back(frame);
        self.dma_free = self.dma_free.max(start) + d;
        self.dma_free
    }

    /// The oldest transfer on the channel is done: its frame.
    pub fn transfer_done(&mut self) -> Option<Frame> {
        self.transfers.pop_front()
    }

    /// Queues the inbound transfer of a frame whose host work is `work`, `d` long, from
    /// `now`; returns when it ends.
    pub fn dma_in(&mut self, now: SimTime, d: SimDuration, frame: Frame, work: W) -> SimTime {
        self.inbound.push_back(work);
        self.dma(now, d, frame)
    }

    /// The oldest inbound transfer is done: its host work.
    pub fn inbound_done(&mut self) -> Option<W> {
        self.inbound.pop_front()
    }

    /// A frame stays in the card's memory until a receive buffer is supplied.
    pub fn hold(&mut self, frame: Frame, work: W) {
        self.held.push_back((frame, work));
    }

    /// The oldest held frame, if a receive buffer is supplied (the frame fills it).
    pub fn fill_buffer(&mut self) -> Option<(Frame, W)> {
        if !self.rx_buffer {
            return None;
        }
        let x = self.held.pop_front()?;
        self.rx_buffer = false;
        Some(x)
    }

    /// The card has taken the receive buffer the driver supplied.
    pub fn buffer_supplied(&mut self) {
        self.rx_buffer = true;
    }

    /// The driver wrote a transmit command.
    pub fn command_issued(&mut self) {
        self.xmit_active = true;
    }

    /// The transmit command is done; true if a receive buffer waits to be supplied.
    pub fn command_done(&mut self) -> bool {
        self.xmit_active = false;
        std::mem::take(&mut self.rx_supply_deferred)
    }

    /// The receive interrupt would supply the next buffer: true if it may now, false (and
    /// the supply deferred to the command-done interrupt) while a transmit command is
    /// outstanding (one command at a time).
    pub fn may_supply_buffer(&mut self) -> bool {
        if self.xmit_active {
            self.rx_supply_deferred = true;
            false
        } else {
            true
        }
    }

    /// The card processor's random stream.
    pub fn rng(&mut self) -> &mut SimRng {
        &mut self.rng
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{RngStreams, StreamKind};

    fn card() -> CardSide<u32> {
        CardSide::new(RngStreams::new(1).stream(StreamKind::Adapter, 0))
    }

    fn frame(tag: u64) -> Frame {
        Frame {
            src: 0,
            dst: 1,
            bytes: 64,
            tag,
            pad: 0,
        }
    }

    #[test]
    fn transfers_take_turns_on_the_channel() {
        let mut c = card();
        let t = |ns| SimTime::from_nanos(ns);
        let d = SimDuration::from_nanos(100);
        assert_eq!(c.dma(t(0), d, frame(1)), t(100));
        // queued behind the first though it could start at 50
        assert_eq!(c.dma_in(t(50), d, frame(2), 7), t(200));
        // the channel idle again: starts when asked
        assert_eq!(c.dma(t(1000), d, frame(3)), t(1100));
        assert_eq!(c.inbound_done(), Some(7));
        assert_eq!(c.inbound_done(), None);
        // the transfers end in the order they were queued
        let tags: Vec<u64> = std::iter::from_fn(|| c.transfer_done()).map(|f| f.tag).collect();
        assert_eq!(tags, [1, 2, 3]);
    }

    #[test]
    fn a_held_frame_moves_only_into_a_supplied_buffer() {
        let mut c = card();
        c.hold(frame(1), 1);
        c.hold(frame(2), 2);
        assert_eq!(c.fill_buffer().map(|x| x.1), Some(1));
        // the one buffer is filled: the next frame waits
        assert!(c.fill_buffer().is_none());
        c.buffer_supplied();
        assert_eq!(c.fill_buffer().map(|x| x.0.tag), Some(2));
        // a buffer with nothing held stays supplied
        c.buffer_supplied();
        assert!(c.fill_buffer().is_none());
        c.hold(frame(3), 3);
        assert_eq!(c.fill_buffer().map(|x| x.1), Some(3));
    }

    #[test]
    fn one_command_at_a_time_defers_the_receive_buffer() {
        let mut c = card();
        assert!(c.may_supply_buffer());
        c.command_issued();
        assert!(!c.may_supply_buffer());
        assert!(c.command_done(), "the deferred supply is owed");
        assert!(!c.command_done(), "and owed once");
    }
}
