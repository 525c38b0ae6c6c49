//! The event log: one JSON object per line (JSON Lines) for every MAC event and every
//! host's work on a frame, written as the run goes. An [`Observer`].
//!
//! Layout version [`EVENTS_VERSION`]. The first line is a header
//! `{"format":"ethersim-events","version":1,"scenario":…,"seed":…,"bit_ns":…,"stations":[…]}`
//! with each station's position in metres; every other line has `t_ns` (simulated time,
//! integer ns), `event` and `station`, then the fields of its event (absent when they do
//! not apply). The columns are listed in README ("Event log"). Fields may be added;
//! anything else changes only with `version`.

use std::io::Write;

use serde::Serialize;

use crate::ether::WireEvent;
use crate::lan::observe::{Observation, Observer};

/// Version of the event log's layout.
pub const EVENTS_VERSION: u32 = 1;

/// The header line.
#[derive(Serialize)]
pub struct EventsHeader<'a> {
    pub format: &'static str,
    pub version: u32,
    pub scenario: &'a str,
    pub seed: u64,
    pub bit_ns: u64,
    /// Position of each station along the segment, metres (empty on a point-to-point link).
    pub stations_m: &'a [f64],
}

#[derive(Serialize, Default)]
struct Line {
    t_ns: u64,
    event: &'static str,
    station: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    tx: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    src: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dst: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bytes: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    attempt: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    slots: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    until_ns: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    damaged: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    intact: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    copy_ns: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cpu_ns: Option<u64>,
}

/// Writes the event log into `W`.
pub struct EventLog<W: Write> {
    out: W,
    lines: u64,
    error: Option<std::io::Error>,
}

impl<W: Write> EventLog<W> {
    /// Starts the log with its header line.
    pub fn new(mut out: W, header: &EventsHeader) -> std::io::Result<Self> {
        serde_json::to_writer(&mut out, header)?;
        out.write_all(b"\n")?;
        Ok(EventLog {
            out,
            lines: 0,
            error: None,
        })
    }

    /// Event lines written (the header not counted).
    pub fn lines(&self) -> u64 {
        self.lines
    }

    /// Returns the writer, or the first error met.
    pub fn finish(self) -> std::io::Result<W> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.out),
        }
    }

    fn line(o: &Observation) -> Line {
        match *o {
            Observation::Host(h) => Line {
                t_ns: h.at.as_nanos(),
                event: h.kind.name(),
                station: h.node,
                src: Some(h.src),
                dst: Some(h.dst),
                bytes: Some(h.bytes),
                copy_ns: Some(h.copy.as_nanos()),
                cpu_ns: Some(h.cpu.as_nanos()),
                ..Line::default()
            },
            Observation::Wire { ev, .. } => {
                let mut l = Line {
                    t_ns: ev.at().as_nanos(),
                    event: ev.name(),
                    station: ev.station(),
                    ..Line::default()
                };
                match ev {
                    WireEvent::Defer { until, .. } => l.until_ns = Some(until.as_nanos()),
                    WireEvent::TxStart {
                        tx,
                        frame,
                        attempt,
                        damaged,
                        ..
                    } => {
                        (l.tx, l.src, l.dst, l.bytes) =
                            (Some(tx), Some(frame.src), Some(frame.dst), Some(frame.bytes));
                        (l.attempt, l.damaged) = (Some(attempt), Some(damaged));
                    }
                    WireEvent::Collision { tx, .. } => l.tx = Some(tx),
                    WireEvent::Jam { tx, until, .. } => {
                        (l.tx, l.until_ns) = (Some(tx), Some(until.as_nanos()))
                    }
                    WireEvent::Backoff {
                        attempt,
                        slots,
                        until,
                        ..
                    } => {
                        (l.attempt, l.slots, l.until_ns) =
                            (Some(attempt), Some(slots), Some(until.as_nanos()))
                    }
                    WireEvent::Success { tx, frame, .. } => {
                        (l.tx, l.src, l.dst, l.bytes) =
                            (Some(tx), Some(frame.src), Some(frame.dst), Some(frame.bytes))
                    }
                    WireEvent::Drop { frame, attempts, .. } => {
                        (l.src, l.dst, l.bytes, l.attempt) = (
                            Some(frame.src),
                            Some(frame.dst),
                            Some(frame.bytes),
                            Some(attempts),
                        )
                    }
                    WireEvent::Rx {
                        tx, frame, intact, ..
                    } => {
                        (l.tx, l.src, l.dst, l.bytes) =
                            (Some(tx), Some(frame.src), Some(frame.dst), Some(frame.bytes));
                        l.intact = Some(intact);
                    }
                }
                l
            }
        }
    }
}

impl<W: Write> Observer for EventLog<W> {
    fn observe(&mut self, o: &Observation) {
        if self.error.is_some() {
            return;
        }
        let r = serde_json::to_writer(&mut self.out, &Self::line(o))
            .map_err(std::io::Error::from)
            .and_then(|_| self.out.write_all(b"\n"));
        match r {
            Ok(()) => self.lines += 1,
            Err(e) => self.error = Some(e),
        }
    }
}
