//! The 1995 ttcp table's shape: each case (a card pairing and a direction) with its
//! measured throughput, the simulated runs of it and the idle-wire ceiling.
//!
//! Units: KB/s with 1 KB = 1024 bytes, as ttcp prints them.

use serde::Serialize;

use crate::stats::Spread;
use crate::workload::ttcp::TtcpSummary;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TtcpDirection {
    /// The first host runs `ttcp -r`.
    Receive,
    /// The first host runs `ttcp -t`.
    Transmit,
}

impl TtcpDirection {
    /// `receive` or `transmit`, as in the measured table.
    pub fn name(self) -> &'static str {
        match self {
            TtcpDirection::Receive => "receive",
            TtcpDirection::Transmit => "transmit",
        }
    }
}

/// A network card as a reproduction names it: in full (`SMC Elite Ultra`) and short
/// (`SMC`, for chart labels).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CardName {
    pub name: &'static str,
    pub short: &'static str,
}

/// One case of the 1995 ttcp table: the cards of the two hosts, the direction, the
/// measured KB/s and the simulated runs, one per seed. KB/s are ttcp's (1 KB = 1024 B).
#[derive(Clone, Debug, Serialize)]
pub struct TtcpCase {
    pub scenario: String,
    /// The first host's (midkemia's) card and the second's (kelewan's).
    pub first: CardName,
    pub second: CardName,
    pub direction: TtcpDirection,
    pub measured_kbps: f64,
    /// The seeds of the runs, the scenario's own first.
    pub seeds: Vec<u64>,
    /// The receiver's KB/s over the seeds.
    pub simulated: Spread,
    /// Each run, in `seeds` order.
    pub runs: Vec<TtcpSummary>,
}

impl TtcpCase {
    /// The mean over the seeds against the measured value, percent.
    pub fn error_pct(&self) -> f64 {
        (self.simulated.mean / self.measured_kbps - 1.0) * 100.0
    }
    /// The (sender's card, receiver's card) of the transfer.
    pub fn sender_receiver(&self) -> (CardName, CardName) {
        match self.direction {
            TtcpDirection::Transmit => (self.first, self.second),
            TtcpDirection::Receive => (self.second, self.first),
        }
    }
}

/// What an idle wire allows a bulk TCP transfer of the table's stack, KB/s
/// (`workload::ttcp::ceiling_kib_per_s`), with what it depends on.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TtcpCeiling {
    pub kbps: f64,
    pub mss_bytes: u32,
    pub ack_every_segments: u32,
    pub bit_rate_mbps: f64,
}

/// The 1995 ttcp table reproduced: the cases in the measured table's order.
#[derive(Clone, Debug, Serialize)]
pub struct TtcpTable {
    pub cases: Vec<TtcpCase>,
    pub ceiling: TtcpCeiling,
}

impl TtcpTable {
    /// Mean absolute error of the cases' means, percent (NaN for no cases).
    pub fn mean_abs_error_pct(&self) -> f64 {
        self.cases.iter().map(|c| c.error_pct().abs()).sum::<f64>() / self.cases.len() as f64
    }
}
