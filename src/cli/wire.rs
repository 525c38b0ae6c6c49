//! The binary's side of the wire views of `ethersim run`: `--pcap`, `--pcap-window` and
//! `--events`. Opens the files under temporary names, runs the scenario with the views
//! as observers of its one observation stream, and renames the files into place only if
//! everything succeeded (an error leaves no partial file under a final name). Also
//! `ethersim pcap-list`, which reads a capture back as one line per frame.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use ethersim::lan::instruments::events::{EventLog, EventsHeader, EVENTS_VERSION};
use ethersim::lan::instruments::pcap::PcapWriter;
use ethersim::lan::instruments::Tee;
use ethersim::lan::observe::{Observation, Observer};
use ethersim::report::stream_file::StreamFile;
use ethersim::run;
use ethersim::run::output::RunOutput;
use ethersim::scenario::Scenario;
use ethersim::time::SimTime;

/// The time of the last observation seen.
#[derive(Default)]
pub struct LastSeen(pub SimTime);

impl Observer for LastSeen {
    fn observe(&mut self, o: &Observation) {
        let t = match o {
            Observation::Wire { ev, .. } => ev.at(),
            Observation::Host(h) => h.at,
        };
        self.0 = self.0.max(t);
    }
}

/// Fails if a window starting at `from` lies outside a run whose length is known in advance.
pub fn check_window_start(s: &Scenario, from: SimTime, what: &str) -> Result<()> {
    if let Some(span) = run::planned_span(s) {
        let end = SimTime::ZERO + span;
        if from >= end {
            bail!(
                "{what} starts at {:.6} s, after the end of the run at {:.6} s",
                from.as_secs_f64(),
                end.as_secs_f64()
            );
        }
    }
    Ok(())
}

/// The pcap library's error in one plain sentence: an I/O error is the error itself
/// (its own wording, "Error reading bytes", is wrong for a write and doubles the I/O
/// message, e.g. on a full disk).
fn plain(e: pcap_file::PcapError) -> anyhow::Error {
    match e {
        pcap_file::PcapError::IoError(io) => anyhow::Error::new(io),
        other => anyhow::Error::new(other),
    }
}

/// Runs `s`, writing the pcap (of the frames starting in `window`) and the event log
/// if asked; returns the results and the files written.
pub fn run_with_views(
    s: &Scenario,
    pcap: Option<&Path>,
    window: Option<(SimTime, SimTime)>,
    events: Option<&Path>,
) -> Result<(RunOutput, Vec<PathBuf>)> {
    let seg = run::observed_segment(s).context(
        "--pcap and --events need a CSMA/CD segment: this scenario's medium is a point-to-point link or no network",
    )?;
    let (from, to) = window.unwrap_or((SimTime::ZERO, SimTime::from_nanos(u64::MAX)));
    check_window_start(s, from, "the --pcap-window")?;
    let describe = format!("ethersim: scenario {}, seed {}", s.name, s.seed);

    let mut pcap_file = pcap.map(StreamFile::create).transpose()?;
    let mut pcap_writer = match pcap_file.as_mut() {
        Some(f) => {
            let w = PcapWriter::new(f.take(), seg.bit_ns, from, to, &describe)
                .map_err(plain)
                .with_context(|| format!("cannot write {}", f.dest().display()))?;
            Some(w)
        }
        None => None,
    };
    let mut events_file = events.map(StreamFile::create).transpose()?;
    let mut event_log = match events_file.as_mut() {
        Some(f) => {
            let header = EventsHeader {
                format: "ethersim-events",
                version: EVENTS_VERSION,
                scenario: &s.name,
                seed: s.seed,
                bit_ns: seg.bit_ns,
                stations_m: &seg.positions_m,
            };
            let log = EventLog::new(f.take(), &header)
                .with_context(|| format!("cannot write {}", f.dest().display()))?;
            Some(log)
        }
        None => None,
    };

    let mut last = LastSeen::default();
    let out = {
        let mut views: Vec<&mut dyn Observer> = vec![&mut last];
        if let Some(p) = pcap_writer.as_mut() {
            views.push(p);
        }
        if let Some(e) = event_log.as_mut() {
            views.push(e);
        }
        let mut tee = Tee(views);
        run::run_observed(s, Some(&mut tee))
    };
    if from > last.0 {
        bail!(
            "the --pcap-window starts at {:.6} s, after the run's last event at {:.6} s",
            from.as_secs_f64(),
            last.0.as_secs_f64()
        );
    }

    let mut written = Vec::new();
    if let (Some(f), Some(w)) = (pcap_file, pcap_writer) {
        let (inner, _) = w
            .finish()
            .map_err(plain)
            .with_context(|| format!("cannot write {}", f.dest().display()))?;
        written.push(f.commit_with(inner)?);
    }
    if let (Some(f), Some(log)) = (events_file, event_log) {
        let inner = log
            .finish()
            .with_context(|| format!("cannot write {}", f.dest().display()))?;
        written.push(f.commit_with(inner)?);
    }
    Ok((out, written))
}

/// `ethersim pcap-list FILE [--count N]`: the capture's frames, one line each, on stdout.
pub fn pcap_list(a: &super::args::PcapListArgs) -> Result<()> {
    use ethersim::report::pcap_listing::{list_path, ListError};
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let r = list_path(&a.file, a.count, &mut out).and_then(|n| {
        std::io::Write::flush(&mut out)?;
        Ok(n)
    });
    match r {
        Ok(_) => Ok(()),
        Err(ListError::Write(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(e).with_context(|| format!("listing {}", a.file.display())),
    }
}
