//! A ttcp run as flat figures: the row `ethersim run` prints, the JSON detail and the
//! explanation of where each side's time went. Units: KB/s with ttcp's 1024-byte KB,
//! seconds, counts; shares are of the receiver's real time.

use serde::Serialize;

use super::{TtcpError, TtcpReport, TtcpSide};

/// The columns of a ttcp run's one point, in order.
pub const TTCP_COLUMNS: [&str; 27] = [
    "kbytes_per_s",
    "tx_kbytes_per_s",
    "bytes",
    "rx_real_s",
    "tx_real_s",
    "tx_user_s",
    "tx_sys_s",
    "rx_user_s",
    "rx_sys_s",
    "tx_sys_pct",
    "rx_sys_pct",
    "tx_cpu",
    "tx_copy",
    "rx_cpu",
    "rx_copy",
    "data_frames",
    "ack_frames",
    "collisions",
    "capture_mean_run",
    "wire_utilization",
    "tx_window_limited",
    "tx_copy_wait",
    "rx_ack_backlog",
    "frames_lost",
    "retransmit_timeouts",
    "rx_ring_drops",
    "events",
];

/// One ttcp run, flat. A run that did not finish has NaN figures and its `error`.
#[derive(Clone, Debug, Serialize)]
pub struct TtcpSummary {
    /// The receiver's KB/s (what `ttcp -r` prints).
    pub kbytes_per_s: f64,
    pub tx_kbytes_per_s: f64,
    pub bytes: f64,
    pub rx_real_s: f64,
    pub tx_real_s: f64,
    pub tx_user_s: f64,
    pub tx_sys_s: f64,
    pub rx_user_s: f64,
    pub rx_sys_s: f64,
    /// System time as a share of the side's own real time, percent: the seed's table
    /// (Sys over Real), what `ethersim reproduce ttcp-1985` compares.
    pub tx_sys_pct: f64,
    pub rx_sys_pct: f64,
    /// CPU busy share of the receiver's real time, and the copying part of it.
    pub tx_cpu: f64,
    pub tx_copy: f64,
    pub rx_cpu: f64,
    pub rx_copy: f64,
    pub data_frames: f64,
    pub ack_frames: f64,
    /// Every collision on a two-station wire is a data frame meeting an ACK.
    pub collisions: f64,
    pub capture_mean_run: f64,
    pub wire_utilization: f64,
    /// Share of the receiver's real time the transmitter had written data but nothing in
    /// its driver or on its card because the window was shut (waiting for an ACK).
    pub tx_window_limited: f64,
    /// Share of the receiver's real time the transmitter's card had nothing to send
    /// while its CPU copied the next frame into it (copy and wire taking turns).
    pub tx_copy_wait: f64,
    /// ACKs waiting in the receiver's driver or on its card when a data segment
    /// arrives, mean.
    pub rx_ack_backlog: f64,
    pub frames_lost: f64,
    pub retransmit_timeouts: f64,
    pub rx_ring_drops: f64,
    pub events: f64,
    pub error: Option<String>,
    /// The largest window the receiver offered, bytes, its socket receive buffer and the
    /// MSS (for the explanation; not a column).
    #[serde(skip)]
    pub window: Option<(u64, u32, u32)>,
}

fn share(ns: u64, real_s: f64) -> f64 {
    ns as f64 * 1e-9 / real_s
}

/// The summary of a run's outcome.
pub fn summarise(r: Result<TtcpReport, TtcpError>) -> TtcpSummary {
    let r = match r {
        Ok(r) => r,
        Err(e) => {
            let mut s = summarise_ok(None);
            s.error = Some(e.to_string());
            return s;
        }
    };
    summarise_ok(Some(&r))
}

fn summarise_ok(r: Option<&TtcpReport>) -> TtcpSummary {
    let nan = f64::NAN;
    let Some(r) = r else {
        return TtcpSummary {
            kbytes_per_s: nan,
            tx_kbytes_per_s: nan,
            bytes: nan,
            rx_real_s: nan,
            tx_real_s: nan,
            tx_user_s: nan,
            tx_sys_s: nan,
            rx_user_s: nan,
            rx_sys_s: nan,
            tx_sys_pct: nan,
            rx_sys_pct: nan,
            tx_cpu: nan,
            tx_copy: nan,
            rx_cpu: nan,
            rx_copy: nan,
            data_frames: nan,
            ack_frames: nan,
            collisions: nan,
            capture_mean_run: nan,
            wire_utilization: nan,
            tx_window_limited: nan,
            tx_copy_wait: nan,
            rx_ack_backlog: nan,
            frames_lost: nan,
            retransmit_timeouts: nan,
            rx_ring_drops: nan,
            events: nan,
            error: None,
            window: None,
        };
    };
    let (t, x): (&TtcpSide, &TtcpSide) = (&r.transmitter, &r.receiver);
    let real = x.real_s;
    TtcpSummary {
        kbytes_per_s: x.kbytes_per_s,
        tx_kbytes_per_s: t.kbytes_per_s,
        bytes: x.bytes as f64,
        rx_real_s: x.real_s,
        tx_real_s: t.real_s,
        tx_user_s: t.user_s,
        tx_sys_s: t.sys_s,
        rx_user_s: x.user_s,
        rx_sys_s: x.sys_s,
        tx_sys_pct: 100.0 * t.sys_s / t.real_s,
        rx_sys_pct: 100.0 * x.sys_s / x.real_s,
        tx_cpu: share(t.node.cpu.busy_ns, real),
        tx_copy: share(t.node.cpu.copy_ns, real),
        rx_cpu: share(x.node.cpu.busy_ns, real),
        rx_copy: share(x.node.cpu.copy_ns, real),
        data_frames: t.node.conn.data_segments_sent as f64,
        ack_frames: (x.node.conn.pure_acks_sent + t.node.conn.pure_acks_sent) as f64,
        collisions: r.ether.collisions as f64,
        capture_mean_run: r.ether.capture_mean_run,
        wire_utilization: r.ether.utilization,
        tx_window_limited: share(t.node.window_stall_ns, real),
        tx_copy_wait: share(t.node.copy_wait_ns, real),
        rx_ack_backlog: x.node.backlog_at_data,
        frames_lost: r.frames_lost as f64,
        retransmit_timeouts: t.node.conn.retransmit_timeouts as f64,
        rx_ring_drops: (t.node.rx_ring_drops + x.node.rx_ring_drops) as f64,
        events: r.events as f64,
        error: None,
        window: Some((r.max_window, r.rcvbuf, r.mss)),
    }
}

impl TtcpSummary {
    /// What holds the transfer below the wire's TCP ceiling, when the figures say so: a
    /// window of fewer than four segments that the sender waits on (the receiver's
    /// socket buffer), the wire idle while the sender copies into a card that holds one
    /// frame, or the sender idle for want of ACKs. Shares above 3% (window) and 10%
    /// (copy) are named.
    fn limit(&self) -> String {
        let waits = self.tx_window_limited > 0.03;
        let small = self.window.filter(|&(w, _, mss)| w < 4 * mss as u64);
        if let (true, Some((w, rcvbuf, mss))) = (waits, small) {
            format!(
                "limit: the window: the receiver offers at most {w} bytes ({:.1} segments of \
                 {mss})\n  from its {rcvbuf}-byte socket buffer; the transmitter waits for \
                 ACKs {:.0}% of the time\n",
                w as f64 / mss as f64,
                self.tx_window_limited * 100.0
            )
        } else if self.tx_copy_wait > 0.10 {
            format!(
                "limit: the transmitter's copy into its card and the wire take turns\n  \
                 (the card holds one frame; {:.0}% of the time the wire waits for the copy)\n",
                self.tx_copy_wait * 100.0
            )
        } else if waits {
            format!(
                "limit: the window: the transmitter waits for ACKs {:.0}% of the time\n  \
                 ({:.1} ACKs queued at the receiver when data arrives)\n",
                self.tx_window_limited * 100.0,
                self.rx_ack_backlog
            )
        } else {
            String::new()
        }
    }

    /// The figures in [`TTCP_COLUMNS`] order.
    pub fn row(&self) -> Vec<f64> {
        vec![
            self.kbytes_per_s,
            self.tx_kbytes_per_s,
            self.bytes,
            self.rx_real_s,
            self.tx_real_s,
            self.tx_user_s,
            self.tx_sys_s,
            self.rx_user_s,
            self.rx_sys_s,
            self.tx_sys_pct,
            self.rx_sys_pct,
            self.tx_cpu,
            self.tx_copy,
            self.rx_cpu,
            self.rx_copy,
            self.data_frames,
            self.ack_frames,
            self.collisions,
            self.capture_mean_run,
            self.wire_utilization,
            self.tx_window_limited,
            self.tx_copy_wait,
            self.rx_ack_backlog,
            self.frames_lost,
            self.retransmit_timeouts,
            self.rx_ring_drops,
            self.events,
        ]
    }

    /// Where the time went, for `--explain`.
    pub fn explain(&self) -> String {
        if let Some(e) = &self.error {
            return format!("The transfer did not finish: {e}\n");
        }
        let pct = |x: f64| format!("{:.0}%", x * 100.0);
        let (bottleneck, share) = [
            ("transmitter CPU", self.tx_cpu),
            ("receiver CPU", self.rx_cpu),
            ("wire", self.wire_utilization),
        ]
        .into_iter()
        .fold(("", 0.0), |a, b| if b.1 > a.1 { b } else { a });
        format!(
            "Where the time went ({:.2} s at the receiver, {:.1} KB/s):\n\
             transmitter CPU {} (copying {}), receiver CPU {} (copying {}), wire carrying frames {}\n\
             {} data frames, {} ACK frames, {} collisions (data against ACK), {}\n\
             transmitter idle with data waiting for the window to open (an ACK): {}\n\
             transmitter's card idle while its CPU copies the next frame into it: {}\n\
             ACKs queued at the receiver when a data segment arrives: {:.1} (mean)\n\
             busiest: {bottleneck} at {}\n{}",
            self.rx_real_s,
            self.kbytes_per_s,
            pct(self.tx_cpu),
            pct(self.tx_copy),
            pct(self.rx_cpu),
            pct(self.rx_copy),
            pct(self.wire_utilization),
            self.data_frames,
            self.ack_frames,
            self.collisions,
            if self.capture_mean_run.is_nan() {
                // a point-to-point link: nobody contends for it
                "no capture runs (no contention for the medium)".to_string()
            } else {
                format!("mean capture run {:.1}", self.capture_mean_run)
            },
            pct(self.tx_window_limited),
            pct(self.tx_copy_wait),
            self.rx_ack_backlog,
            pct(share),
            self.limit(),
        )
    }
}
