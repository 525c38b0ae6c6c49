//! Workload `saturate`: every sending station always has a frame queued.
//!
//! Measures the MAC and the medium alone (no adapter, host or NOS). Stations
//! `0..senders` send frames of `frame_bytes`; each keeps exactly one frame queued, a new
//! one being handed over as soon as the previous one is sent or dropped. Frames go either
//! to a sink (an extra, silent station at the far end of the segment) or round robin to
//! the other senders. The stations are one group of backlogged frame sources
//! ([`crate::lan::source`]) on a LAN of their own.

use std::cell::Ref;

use serde::Serialize;

use crate::engine::{Engine, Model};
use crate::ether::SharedSegment;
use crate::ether::{EtherReport, Segment, SegmentConfig};
use crate::lan::observe::{drive, reborrow, Observed, Observer};
use crate::lan::source::{Offer, SourceConfig};
use crate::lan::{LanEvent, SourceNet};
use crate::time::{SimDuration, SimTime};

pub use crate::lan::source::Destination;

/// A validated saturate workload.
#[derive(Clone, Debug)]
pub struct SaturateConfig {
    pub senders: usize,
    /// Frame size, header to FCS (padded to 64 if shorter).
    pub frame_bytes: u32,
    pub destination: Destination,
    pub duration: SimDuration,
}

impl SaturateConfig {
    /// The senders as a group of backlogged frame sources.
    pub fn sources(&self) -> SourceConfig {
        SourceConfig {
            senders: self.senders,
            destination: self.destination,
            offer: Offer::Backlogged {
                frame_bytes: self.frame_bytes,
            },
        }
    }
}

/// The model: a LAN of one group of backlogged frame sources (stations
/// `0..senders`, the sink after them).
pub struct SaturateModel {
    net: SourceNet,
    segment: SharedSegment,
    cfg: SaturateConfig,
}

impl SaturateModel {
    /// `seg` must hold `senders` stations, plus one more (the sink) for [`Destination::Sink`].
    pub fn new(cfg: SaturateConfig, seg: &SegmentConfig, engine: &Engine<LanEvent>) -> Self {
        let (net, segment) = SourceNet::segment_only(seg, engine);
        SaturateModel { net, segment, cfg }
    }

    /// Gives every sender its first frame now.
    pub fn start(&mut self, engine: &mut Engine<LanEvent>) {
        self.net.add_sources(self.cfg.sources(), 0, engine);
    }

    pub fn segment(&self) -> Ref<'_, Segment> {
        self.segment.get()
    }
}

impl Observed for SaturateModel {
    fn start_observing(&mut self) {
        self.net.start_observing();
    }

    fn flush_observations(&mut self, obs: &mut dyn Observer) {
        self.net.flush_observations(obs);
    }
}

impl Model for SaturateModel {
    type Event = LanEvent;
    fn handle(&mut self, ev: LanEvent, engine: &mut Engine<LanEvent>) {
        self.net.handle(ev, engine);
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
    if cfg!(debug_assertions) {
        let violations = model.net.audit_sources();
        assert!(violations.is_empty(), "{violations:?}");
    }
    let ether = model.segment().report(end);
    SaturateReport {
        senders: cfg.senders,
        frame_bytes: cfg.frame_bytes,
        destination: cfg.destination,
        events: engine.events_dispatched(),
        ether,
    }
}
