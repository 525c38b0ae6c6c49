//! A point-to-point link: the first medium other than the CSMA/CD segment, such as the
//! DEC PCL-11B parallel link between two VAXes (seed 001: "approximately 1M bit/sec",
//! no link header).
//!
//! Owns one shared transfer path between the stations: frames from either side are
//! carried one at a time, in the order they were handed over (first come, first
//! served; the PCL-11's time-division bus lets one unit transmit at a time). A frame
//! takes `(bytes + overhead_bytes) x 8` bit times, where `bytes` is what the client
//! handed over (for the PCL, the IP datagram: there is no link header) and
//! `overhead_bytes` is what the link adds per transfer (the PCL's CRC-16). There is no
//! carrier sense, collision, backoff, preamble, gap or minimum frame: a frame always
//! arrives intact at its destination when its last bit is sent.
//!
//! With `retry_if_busy` the receiving side takes one transfer per receive buffer it has
//! armed (the PCL-11B has a single receive DMA, re-armed by the driver's receive
//! interrupt, 4.2BSD `if_pcl.c` `pclrint`): a frame for a station that has not re-armed
//! waits, its transmitter retrying (the PCL's RIB bit), while frames to stations that are
//! ready go ahead. The client says when a station is ready again with
//! [`Link::receiver_ready`].
//!
//! Events: [`EtherEvent::LinkTxEnd`]. Invariants: at most one frame is being sent; every
//! frame handed over is delivered exactly once; frames from one station go in the order
//! handed over; with `retry_if_busy`, a station receives at most one frame per arming.
//! Units: ns, bytes.

use std::collections::VecDeque;

use super::frame::Frame;
use super::medium::MediumTime;
use super::report::{EtherReport, StationReport, WireTotals};
use super::segment::{EtherEvent, Indication};
use crate::engine::Engine;
use crate::stats::Histogram;
use crate::time::{SimDuration, SimTime};

/// Physical description of a point-to-point link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkConfig {
    /// Stations on the link (2 for a point-to-point pair).
    pub stations: usize,
    /// One bit time, ns (1000 at 1 Mb/s).
    pub bit_ns: u64,
    /// Bytes the link adds to every transfer (CRC, sync), not seen by the client.
    pub overhead_bytes: u32,
    /// A receiver takes one transfer per arming; transfers to a receiver that has not
    /// re-armed wait (the PCL-11B's retry-if-busy). `false`: every transfer is taken.
    pub retry_if_busy: bool,
}

#[derive(Clone, Debug, Default)]
struct LinkStation {
    frames_offered: u64,
    frames_delivered: u64,
    bytes_delivered: u64,
    frames_received: u64,
    access_delay: Histogram,
}

/// The link and its one transfer in progress.
pub struct Link {
    cfg: LinkConfig,
    queue: VecDeque<(Frame, SimTime)>,
    /// The frame being sent and when its last bit leaves.
    sending: Option<(Frame, SimTime)>,
    busy_ns: u64,
    stations: Vec<LinkStation>,
    /// Whether each station's receiver is armed (always, without `retry_if_busy`).
    armed: Vec<bool>,
    /// Since when the link has been free with every queued frame's receiver unarmed.
    waiting_since: Option<SimTime>,
    /// Time transfers spent waiting for a receiver to re-arm (transmitter retrying), ns.
    retry_wait_ns: u64,
    out: Vec<Indication>,
}

impl Link {
    pub fn new(cfg: &LinkConfig) -> Self {
        Link {
            stations: vec![LinkStation::default(); cfg.stations],
            armed: vec![true; cfg.stations],
            waiting_since: None,
            retry_wait_ns: 0,
            cfg: cfg.clone(),
            queue: VecDeque::new(),
            sending: None,
            busy_ns: 0,
            out: Vec::new(),
        }
    }

    /// Time the link takes to carry a frame of `bytes`.
    pub fn transfer_time(&self, bytes: u32) -> SimDuration {
        SimDuration::from_nanos((bytes as u64 + self.cfg.overhead_bytes as u64) * 8 * self.cfg.bit_ns)
    }

    /// The client of station `frame.src` hands over a frame.
    pub fn enqueue<E: From<EtherEvent>>(&mut self, frame: Frame, eng: &mut Engine<E>) {
        self.stations[frame.src].frames_offered += 1;
        self.queue.push_back((frame, eng.now()));
        if self.sending.is_none() {
            self.start_next(eng);
        }
    }

    /// Station `station`'s client has armed its receiver again (a no-op without
    /// `retry_if_busy`): a frame waiting for it may start.
    pub fn receiver_ready<E: From<EtherEvent>>(&mut self, station: usize, eng: &mut Engine<E>) {
        if !self.cfg.retry_if_busy || self.armed[station] {
            return;
        }
        self.armed[station] = true;
        if self.sending.is_none() {
            self.start_next(eng);
        }
    }

    /// Time transfers have waited for their receiver to re-arm so far, ns (each waiting
    /// frame counted from when the link was free for it).
    pub fn retry_wait_ns(&self) -> u64 {
        self.retry_wait_ns
    }

    fn start_next<E: From<EtherEvent>>(&mut self, eng: &mut Engine<E>) {
        // the oldest frame whose receiver is armed; a station's own frames keep their order
        let mut blocked = vec![false; self.cfg.stations];
        let mut pick = None;
        for (i, (f, _)) in self.queue.iter().enumerate() {
            if blocked[f.src] {
                continue;
            }
            if self.armed[f.dst] {
                pick = Some(i);
                break;
            }
            blocked[f.src] = true;
        }
        let Some((frame, since)) = pick.and_then(|i| self.queue.remove(i)) else {
            if !self.queue.is_empty() && self.waiting_since.is_none() {
                self.waiting_since = Some(eng.now());
            }
            return;
        };
        let now = eng.now();
        if let Some(t) = self.waiting_since.take() {
            self.retry_wait_ns += (now - t).as_nanos();
        }
        if self.cfg.retry_if_busy {
            self.armed[frame.dst] = false;
        }
        self.stations[frame.src]
            .access_delay
            .record((now - since).as_nanos());
        let d = self.transfer_time(frame.bytes);
        self.busy_ns += d.as_nanos();
        let end = now + d;
        self.sending = Some((frame, end));
        eng.schedule(end, EtherEvent::LinkTxEnd { station: frame.src });
    }

    /// Handles the end of a transfer.
    pub fn handle<E: From<EtherEvent>>(&mut self, ev: EtherEvent, eng: &mut Engine<E>) {
        match (self.sending, ev) {
            (Some((frame, end)), EtherEvent::LinkTxEnd { station })
                if station == frame.src && end == eng.now() =>
            {
                self.sending = None;
                let s = &mut self.stations[frame.src];
                s.frames_delivered += 1;
                s.bytes_delivered += frame.bytes as u64;
                self.stations[frame.dst].frames_received += 1;
                self.out.push(Indication::Sent { frame });
                self.out.push(Indication::Received { frame });
                self.start_next(eng);
            }
            (sending, ev) => unreachable!("point-to-point link: event {ev:?} while sending {sending:?}"),
        }
    }

    /// Moves the pending indications into `buf` (appending).
    pub fn drain_indications(&mut self, buf: &mut Vec<Indication>) {
        buf.append(&mut self.out);
    }

    /// Statistics so far, in the segment's report form (no collisions or deferrals).
    pub fn report(&self, now: SimTime) -> EtherReport {
        let secs = now.as_secs_f64();
        let per_s = |x: f64| if secs > 0.0 { x / secs } else { 0.0 };
        let mut all = Histogram::new();
        let stations: Vec<StationReport> = self
            .stations
            .iter()
            .enumerate()
            .map(|(i, s)| {
                all.merge(&s.access_delay);
                StationReport {
                    station: i,
                    frames_offered: s.frames_offered,
                    frames_sent: s.frames_delivered,
                    frames_delivered: s.frames_delivered,
                    bytes_delivered: s.bytes_delivered,
                    frames_received: s.frames_received,
                    frames_corrupted: 0,
                    collisions: 0,
                    deferrals: 0,
                    dropped_excessive: 0,
                    queued: self.queue.iter().filter(|(f, _)| f.src == i).count() as u64,
                    throughput_bps: per_s(s.bytes_delivered as f64 * 8.0),
                    access_delay: s.access_delay.summary_us(),
                }
            })
            .collect();
        let busy = self.busy_ns.min(now.as_nanos());
        EtherReport::from_stations(
            now,
            stations,
            WireTotals {
                time: MediumTime {
                    success_ns: busy,
                    corrupted_ns: 0,
                    collision_ns: 0,
                },
                idle_ns: now.as_nanos() - busy,
                frames_queued: self.queue.len() as u64 + self.sending.is_some() as u64,
                access_delay: all.summary_us(),
                collisions_by_attempt: Vec::new(),
                capture_mean_run: f64::NAN,
                capture_longest_run: None,
                rx_overlaps: 0,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;

    fn frame(src: usize, bytes: u32, tag: u64) -> Frame {
        Frame {
            src,
            dst: 1 - src,
            bytes,
            tag,
            pad: 0,
        }
    }

    /// Runs the link until quiet; returns (time, indication) in order.
    fn run(link: &mut Link, eng: &mut Engine<EtherEvent>) -> Vec<(u64, Indication)> {
        let mut got = Vec::new();
        while let Some(ev) = eng.pop_until(SimTime::ZERO + SimDuration::from_secs(1)) {
            link.handle(ev, eng);
            let mut buf = Vec::new();
            link.drain_indications(&mut buf);
            got.extend(buf.into_iter().map(|i| (eng.now().as_nanos(), i)));
        }
        got
    }

    #[test]
    fn test_pcl_fragments_take_their_bits_at_1_mbps() {
        // a 1004-byte and an 80-byte IP fragment, 2 bytes of CRC each, at 1 Mb/s:
        // (1004 + 2) x 8 us = 8.048 ms, then (80 + 2) x 8 us = 0.656 ms
        let cfg = LinkConfig {
            stations: 2,
            bit_ns: 1000,
            overhead_bytes: 2,
            retry_if_busy: false,
        };
        let mut link = Link::new(&cfg);
        let mut eng: Engine<EtherEvent> = Engine::new(1);
        link.enqueue(frame(0, 1004, 1), &mut eng);
        link.enqueue(frame(0, 80, 2), &mut eng);
        let got = run(&mut link, &mut eng);
        let received: Vec<(u64, u64)> = got
            .iter()
            .filter_map(|(t, i)| match i {
                Indication::Received { frame } => Some((*t, frame.tag)),
                _ => None,
            })
            .collect();
        assert_eq!(received, vec![(8_048_000, 1), (8_704_000, 2)]);
        let r = link.report(eng.now());
        assert_eq!((r.frames_delivered, r.collisions), (2, 0));
        assert!((r.utilization - 1.0).abs() < 1e-12, "busy the whole time");
    }

    #[test]
    fn test_both_directions_share_the_link_in_order() {
        // an ACK handed over while a data frame is on the link waits for it (no
        // collision, no backoff): 40 bytes after 1064
        let cfg = LinkConfig {
            stations: 2,
            bit_ns: 1000,
            overhead_bytes: 0,
            retry_if_busy: false,
        };
        let mut link = Link::new(&cfg);
        let mut eng: Engine<EtherEvent> = Engine::new(1);
        link.enqueue(frame(0, 1064, 1), &mut eng);
        link.enqueue(frame(1, 40, 2), &mut eng);
        let got = run(&mut link, &mut eng);
        let sent: Vec<(u64, usize)> = got
            .iter()
            .filter_map(|(t, i)| match i {
                Indication::Sent { frame } => Some((*t, frame.src)),
                _ => None,
            })
            .collect();
        assert_eq!(sent, vec![(8_512_000, 0), (8_832_000, 1)]);
    }

    /// The link's events and the test's own: a receiver's driver re-arming.
    #[derive(Debug)]
    enum Ev {
        Ether(EtherEvent),
        Rearm(usize),
    }

    impl From<EtherEvent> for Ev {
        fn from(e: EtherEvent) -> Self {
            Ev::Ether(e)
        }
    }

    #[test]
    fn test_retry_if_busy_holds_a_transfer_until_the_receiver_rearms() {
        // 0 sends two 1000-byte fragments to 1 at 1 Mb/s (8 ms each). With retry-if-busy
        // the second waits for 1's driver to re-arm, 3 ms after the first arrived; 1's
        // 40-byte frame to 0, handed over as the first arrives, goes in the gap (0's
        // receiver is armed)
        let cfg = LinkConfig {
            stations: 2,
            bit_ns: 1000,
            overhead_bytes: 0,
            retry_if_busy: true,
        };
        let mut link = Link::new(&cfg);
        let mut eng: Engine<Ev> = Engine::new(1);
        link.enqueue(frame(0, 1000, 1), &mut eng);
        link.enqueue(frame(0, 1000, 2), &mut eng);
        let mut got = Vec::new();
        while let Some(ev) = eng.pop_until(SimTime::ZERO + SimDuration::from_secs(1)) {
            let now = eng.now();
            match ev {
                Ev::Rearm(station) => link.receiver_ready(station, &mut eng),
                Ev::Ether(e) => link.handle(e, &mut eng),
            }
            let mut buf = Vec::new();
            link.drain_indications(&mut buf);
            for i in buf {
                if let Indication::Received { frame: f } = i {
                    got.push((now.as_nanos(), f.tag));
                    if f.tag == 1 {
                        link.enqueue(frame(1, 40, 3), &mut eng);
                        eng.schedule(now + SimDuration::from_millis(3), Ev::Rearm(1));
                    }
                }
            }
        }
        // 1 at 8 ms; the 40-byte frame 8.00..8.32 ms; 2 starts at the re-arm (11 ms)
        assert_eq!(got, vec![(8_000_000, 1), (8_320_000, 3), (19_000_000, 2)]);
        // the link stood idle 8.32..11 ms with frame 2 waiting
        assert_eq!(link.retry_wait_ns(), 2_680_000);
        // without retry-if-busy the second follows the first at once
        let mut link = Link::new(&LinkConfig {
            retry_if_busy: false,
            ..cfg
        });
        let mut eng: Engine<EtherEvent> = Engine::new(1);
        link.enqueue(frame(0, 1000, 1), &mut eng);
        link.enqueue(frame(0, 1000, 2), &mut eng);
        let got: Vec<u64> = run(&mut link, &mut eng)
            .into_iter()
            .filter_map(|(t, i)| matches!(i, Indication::Received { .. }).then_some(t))
            .collect();
        assert_eq!(got, vec![8_000_000, 16_000_000]);
    }
}
