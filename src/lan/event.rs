//! The events of a LAN run: one enum, [`LanEvent`], whose variants say which part of the
//! LAN handles them. The medium's own events go to the shared wire, a CPU's completion to
//! the node that owns the CPU, and each stack's timers and steps to the part of the LAN
//! that runs that stack: [`NosEvent`] to the NetBIOS file service (`super::Lan`),
//! [`TcpEvent`] to the TCP/IP hosts (`super::tcp::TcpLan`). Each part matches only its
//! own sub-enum, so no part has arms for another's events; a group of frame sources
//! (`super::source`) has [`super::SourceEvent`].
//!
//! Node numbers (and peers) are stations on the segment: each part knows the stations
//! it was built on, so an event reaches the part that owns its node.

use crate::ether::EtherEvent;
use crate::nos::session::OutMsg;

/// Every event of a LAN run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LanEvent {
    /// The medium's own event (carrier, collision, backoff, a frame's end).
    Ether(EtherEvent),
    /// The running job on `node`'s CPU is done (stale unless `gen` is the CPU's current one).
    CpuDone { node: u32, gen: u32 },
    /// An event of the NetBIOS file service.
    Nos(NosEvent),
    /// An event of a TCP/IP host.
    Tcp(TcpEvent),
    /// An event of a group of frame sources.
    Source(super::SourceEvent),
}

/// Events of the NetBIOS file service (sessions, server storage, applications).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NosEvent {
    /// A session's retransmission timer.
    Retry { node: u32, peer: u32, gen: u32 },
    /// A session's delayed-acknowledgement timer.
    AckTimer { node: u32, peer: u32, gen: u32 },
    /// A workstation's application starts.
    Start { node: u32 },
    /// The server's disk has done what a request waited for: send its reply.
    DiskDone { node: u32, peer: u32, reply: OutMsg },
    /// The server writes its cache's dirty blocks (delayed write).
    Flush { node: u32 },
}

/// Events of a TCP/IP host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TcpEvent {
    /// The host's socket application starts.
    Start { node: u32 },
    /// A TCP connection's timer.
    Timer {
        node: u32,
        timer: crate::tcp::Timer,
        gen: u32,
    },
    /// The oldest DMA transfer of a card across the host's bus is done (`inbound`: card
    /// to host memory); its frame waits on the card's channel (DMA cards only).
    DmaDone { node: u32, inbound: bool },
    /// A message-queue card's processor has taken up the receive request the driver
    /// hung ([`crate::adapter::MessageQueue`] cards only).
    RxRequestTaken { node: u32 },
    /// The process's user-mode work on the attached processor is done.
    UserDone { node: u32 },
    /// A host's clock tick, sampled for CPU accounting.
    ClockTick { node: u32 },
}

impl NosEvent {
    /// The station of the node the event belongs to.
    pub fn node(&self) -> u32 {
        match *self {
            NosEvent::Retry { node, .. }
            | NosEvent::AckTimer { node, .. }
            | NosEvent::Start { node }
            | NosEvent::DiskDone { node, .. }
            | NosEvent::Flush { node } => node,
        }
    }
}

impl TcpEvent {
    /// The station of the host the event belongs to.
    pub fn node(&self) -> u32 {
        match *self {
            TcpEvent::Start { node }
            | TcpEvent::Timer { node, .. }
            | TcpEvent::DmaDone { node, .. }
            | TcpEvent::RxRequestTaken { node }
            | TcpEvent::UserDone { node }
            | TcpEvent::ClockTick { node } => node,
        }
    }
}

impl From<EtherEvent> for LanEvent {
    fn from(e: EtherEvent) -> Self {
        LanEvent::Ether(e)
    }
}

impl From<NosEvent> for LanEvent {
    fn from(e: NosEvent) -> Self {
        LanEvent::Nos(e)
    }
}

impl From<TcpEvent> for LanEvent {
    fn from(e: TcpEvent) -> Self {
        LanEvent::Tcp(e)
    }
}
#[cfg(test)]
mod tests {
    /// The engine's heap moves events on every push and pop: a LAN's event is no larger
    /// than the medium's own (a frame travels in the state that holds it, not in an event).
    #[test]
    fn test_a_lan_event_is_as_small_as_the_medium_s() {
        assert!(std::mem::size_of::<super::LanEvent>() <= std::mem::size_of::<crate::ether::EtherEvent>());
    }
}
