//! Workload `saturate`: every sending station always has a frame queued.
//!
//! Measures the MAC and the medium alone (no adapter, host or NOS). Stations
//! `0..senders` send frames of `frame_bytes`; each keeps exactly one frame queued, a new
//! one being handed over as soon as the previous one is sent or dropped. Frames go either
//! to a sink (an extra, silent station at the far end of the segment) or round robin to
//! the other senders.

use serde::Serialize;

use crate::engine::{Engine, Model};
use crate::ether::{EtherEvent, EtherReport, Frame, Indication, Segment, SegmentConfig, StationId};
use crate::lan::observe::{drive, reborrow, Content, Observed, Observer, Tap};
use crate::time::{SimDuration, SimTime};

/// Where the saturating stations send.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Destination {
    /// One extra station that only receives.
    Sink,
    /// Each station cycles through the other senders.
    RoundRobin,
}

/// A validated saturate workload.
#[derive(Clone, Debug)]
pub struct SaturateConfig {
    pub senders: usize,
    /// Frame size, header to FCS (padded to 64 if shorter).
    pub frame_bytes: u32,
    pub destination: Destination,
    pub duration: SimDuration,
}

/// The model: a segment plus the always-backlogged clients.
pub struct SaturateModel {
    segment: Segment,
    cfg: SaturateConfig,
    next_dst: Vec<StationId>,
    buf: Vec<Indication>,
    tap: Tap,
}

impl SaturateModel {
    /// `seg` must hold `senders` stations, plus one more (the sink) for [`Destination::Sink`].
    pub fn new(cfg: SaturateConfig, seg: &SegmentConfig, engine: &Engine<EtherEvent>) -> Self {
        let segment = Segment::new(seg, engine.rng_streams());
        let next_dst = (0..cfg.senders).map(|s| (s + 1) % cfg.senders.max(1)).collect();
        SaturateModel {
            segment,
            cfg,
            next_dst,
            buf: Vec::with_capacity(8),
            tap: Tap::default(),
        }
    }

    fn destination(&mut self, s: StationId) -> StationId {
        match self.cfg.destination {
            Destination::Sink => self.cfg.senders,
            Destination::RoundRobin => {
                let n = self.cfg.senders;
                let d = self.next_dst[s];
                let mut next = (d + 1) % n;
                if next == s {
                    next = (next + 1) % n;
                }
                self.next_dst[s] = next;
                d
            }
        }
    }

    fn offer(&mut self, s: StationId, engine: &mut Engine<EtherEvent>) {
        let dst = self.destination(s);
        let frame = Frame {
            src: s,
            dst,
            bytes: self.cfg.frame_bytes,
            tag: 0,
            pad: 0,
        };
        self.segment.enqueue(frame, engine);
    }

    /// Gives every sender its first frame at time zero.
    pub fn start(&mut self, engine: &mut Engine<EtherEvent>) {
        for s in 0..self.cfg.senders {
            self.offer(s, engine);
        }
        self.settle(engine);
    }

    /// Hands a new frame to every station whose previous one was sent or dropped.
    fn settle(&mut self, engine: &mut Engine<EtherEvent>) {
        loop {
            self.segment.drain_indications(&mut self.buf);
            if self.buf.is_empty() {
                return;
            }
            let mut batch = std::mem::take(&mut self.buf);
            for ind in &batch {
                match *ind {
                    Indication::Sent { frame } | Indication::Dropped { frame } => {
                        self.offer(frame.src, engine)
                    }
                    Indication::Received { .. } | Indication::Corrupted { .. } => {}
                }
            }
            batch.clear();
            self.buf = batch;
        }
    }

    pub fn segment(&self) -> &Segment {
        &self.segment
    }
}

impl Observed for SaturateModel {
    fn start_observing(&mut self) {
        self.tap.enable();
        self.segment.observe();
    }

    fn flush_observations(&mut self, obs: &mut dyn Observer) {
        let segment = &mut self.segment;
        self.tap
            .flush(|buf| segment.drain_observed(buf), |_| Content::Opaque, obs);
    }
}

impl Model for SaturateModel {
    type Event = EtherEvent;
    fn handle(&mut self, ev: EtherEvent, engine: &mut Engine<EtherEvent>) {
        self.segment.handle(ev, engine);
        self.settle(engine);
    }
}

/// Result of a saturate run.
#[derive(Clone, Debug, Serialize)]
pub struct SaturateReport {
    pub senders: usize,
    pub frame_bytes: u32,
    pub destination: Destination,
    pub events: u64,
    #[serde(flatten)]
    pub ether: EtherReport,
}

/// Runs a saturate workload for its duration.
pub fn run(cfg: &SaturateConfig, seg: &SegmentConfig, seed: u64) -> SaturateReport {
    run_observed(cfg, seg, seed, None)
}

/// As [`run`], handing every observation of the wire to `obs` if given.
pub fn run_observed(
    cfg: &SaturateConfig,
    seg: &SegmentConfig,
    seed: u64,
    mut obs: Option<&mut dyn Observer>,
) -> SaturateReport {
    let mut engine = Engine::new(seed);
    let mut model = SaturateModel::new(cfg.clone(), seg, &engine);
    if obs.is_some() {
        model.start_observing();
    }
    model.start(&mut engine);
    let end = SimTime::ZERO + cfg.duration;
    drive(&mut model, &mut engine, end, reborrow(&mut obs));
    SaturateReport {
        senders: cfg.senders,
        frame_bytes: cfg.frame_bytes,
        destination: cfg.destination,
        events: engine.events_dispatched(),
        ether: model.segment.report(end),
    }
}
