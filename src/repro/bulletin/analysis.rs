//! The analysis of a throughput-against-block-size curve: Figure 1's data (each point
//! simulated beside Table 1's measurement), how a server packs a block into packets, and
//! the two line fits that explain a curve's shape: the time per block as a straight line
//! in the bytes ([`CostLine`]: a per block, b per byte) and as a line in packets and
//! bytes ([`PacketLine`]).
//!
//! Units: block sizes in bytes, throughput in KB/s with 1 KB = 1000 bytes, times in ms,
//! per-byte costs in ns per byte.

use serde::Serialize;

/// One point of a Figure 1 curve: a block size, Table 1's value and the simulated one,
/// KB/s (1 KB = 1000 bytes).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Figure1Point {
    pub block_size: u32,
    pub measured_kbps: f64,
    pub simulated_kbps: f64,
}

/// A point of a throughput curve: block size in bytes, KB/s (1 KB = 1000 bytes).
type SizeKbps = (u32, f64);

/// One configuration's curve.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Figure1Curve {
    /// The configuration's name (e.g. `16bit-optimized`).
    pub config: String,
    /// Legend text, e.g. "16-bit, optimized".
    pub label: String,
    pub points: Vec<Figure1Point>,
    /// How the configuration's server packs a read's file data (`None`: not known, as
    /// for curves built without a scenario).
    pub packets: Option<Packetization>,
}

/// How a server's replies carry a block of file data: replies of at most `reply_bytes`
/// (the server's network buffer), each in NetBIOS packets of at most `payload` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Packetization {
    pub payload: u32,
    pub reply_bytes: u32,
}

impl Packetization {
    /// Packets that carry a block of `block` bytes: every reply but the last is full.
    pub fn packets(&self, block: u32) -> u32 {
        let (payload, reply) = (self.payload.max(1), self.reply_bytes.max(1));
        let full = block / reply;
        full * reply.div_ceil(payload) + (block % reply).div_ceil(payload)
    }
}

/// The time per block of a throughput curve fitted as t = a + c P(B) + d B, with P(B)
/// the packets the block takes ([`Packetization::packets`]): `a` per block, `c` per
/// packet whatever it carries, `d` per byte; and the residual's root mean square. Where
/// a packet costs the same however full it is, `c` takes what the straight line
/// [`CostLine`] spreads over the bytes, and the fit follows the curve's serration.
/// Units: ms, ms, ns per byte, ms.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PacketLine {
    pub per_block_ms: f64,
    pub per_packet_ms: f64,
    pub per_byte_ns: f64,
    pub rms_ms: f64,
}

impl PacketLine {
    /// Least squares over (block size, KB/s) points; `None` for fewer than four points,
    /// a non-positive throughput, or packets that grow exactly with the bytes (the fit
    /// then has no single answer).
    pub fn fit(points: &[(u32, f64)], packets: Packetization) -> Option<PacketLine> {
        if points.len() < 4 || points.iter().any(|p| !p.1.is_finite() || p.1 <= 0.0) {
            return None;
        }
        let rows: Vec<[f64; 3]> = points
            .iter()
            .map(|&(b, _)| [1.0, packets.packets(b) as f64, b as f64])
            .collect();
        // KB/s with 1 KB = 1000 bytes is bytes per ms
        let t: Vec<f64> = points.iter().map(|&(b, k)| b as f64 / k).collect();
        let mut m = [[0.0f64; 4]; 3];
        for (r, y) in rows.iter().zip(&t) {
            for i in 0..3 {
                for j in 0..3 {
                    m[i][j] += r[i] * r[j];
                }
                m[i][3] += r[i] * y;
            }
        }
        // Gauss-Jordan with partial pivoting on the normal equations
        for col in 0..3 {
            let pivot = (col..3).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
            m.swap(col, pivot);
            let scale = m.iter().map(|r| r[col].abs()).fold(0.0, f64::max);
            if m[col][col].abs() <= 1e-9 * scale.max(1.0) {
                return None;
            }
            let pivot_row = m[col];
            for (r, row) in m.iter_mut().enumerate() {
                if r != col {
                    let f = row[col] / pivot_row[col];
                    for (x, p) in row.iter_mut().zip(pivot_row) {
                        *x -= f * p;
                    }
                }
            }
        }
        let x: Vec<f64> = (0..3).map(|i| m[i][3] / m[i][i]).collect();
        let sq: f64 = rows
            .iter()
            .zip(&t)
            .map(|(r, y)| (y - (x[0] * r[0] + x[1] * r[1] + x[2] * r[2])).powi(2))
            .sum();
        Some(PacketLine {
            per_block_ms: x[0],
            per_packet_ms: x[1],
            per_byte_ns: x[2] * 1e6,
            rms_ms: (sq / t.len() as f64).sqrt(),
        })
    }
}

/// The steps of a curve's time per block that add the same number of packets.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PacketStep {
    /// Packets the larger block takes beyond the smaller one's.
    pub added: u32,
    /// The mean step in the time per block, ms.
    pub mean_ms: f64,
    /// How many steps added that many packets.
    pub steps: usize,
}

/// The steps of a curve's time per block from one block size to the next, grouped by the
/// packets the larger block adds ([`Packetization::packets`]), fewest packets first. Where the packet a block
/// adds costs the same whatever it carries, steps that add more packets are longer
/// than the bytes alone explain: the curve is serrated by its packets.
pub fn packet_steps(points: &[(u32, f64)], packets: Packetization) -> Vec<PacketStep> {
    let mut groups: Vec<PacketStep> = Vec::new();
    for w in points.windows(2) {
        let ((b0, k0), (b1, k1)) = (w[0], w[1]);
        if k0 <= 0.0 || k1 <= 0.0 || !k0.is_finite() || !k1.is_finite() {
            continue;
        }
        // KB/s with 1 KB = 1000 bytes is bytes per ms
        let step = b1 as f64 / k1 - b0 as f64 / k0;
        let added = packets.packets(b1).saturating_sub(packets.packets(b0));
        match groups.iter_mut().find(|g| g.added == added) {
            Some(g) => {
                g.mean_ms += step;
                g.steps += 1;
            }
            None => groups.push(PacketStep {
                added,
                mean_ms: step,
                steps: 1,
            }),
        }
    }
    for g in &mut groups {
        g.mean_ms /= g.steps as f64;
    }
    groups.sort_by_key(|g| g.added);
    groups
}

/// Everything Figure 1 shows, curves in the bulletin's order.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Figure1Data {
    pub curves: Vec<Figure1Curve>,
    /// The seeds each simulated value is the mean over (empty: not simulated).
    pub seeds: Vec<u64>,
}

impl Figure1Data {
    /// "mean of N seeds", or "" for one seed or none.
    pub fn seeds_note(&self) -> String {
        if self.seeds.len() > 1 {
            format!("mean of {} seeds", self.seeds.len())
        } else {
            String::new()
        }
    }
}

impl Figure1Point {
    /// Signed error, percent of the measured value.
    pub fn error_pct(&self) -> f64 {
        (self.simulated_kbps - self.measured_kbps) / self.measured_kbps * 100.0
    }
}

impl Figure1Curve {
    /// Mean absolute percentage error of the curve (NaN when it has no points).
    pub fn mape(&self) -> f64 {
        if self.points.is_empty() {
            return f64::NAN;
        }
        self.points.iter().map(|p| p.error_pct().abs()).sum::<f64>() / self.points.len() as f64
    }

    /// The measured curve's time per block as a straight line in the block size.
    pub fn measured_cost_line(&self) -> Option<CostLine> {
        CostLine::fit(self.points.iter().map(|p| (p.block_size, p.measured_kbps)))
    }

    /// The simulated curve's time per block as a straight line in the block size.
    pub fn simulated_cost_line(&self) -> Option<CostLine> {
        CostLine::fit(self.points.iter().map(|p| (p.block_size, p.simulated_kbps)))
    }

    /// [`PacketLine`] of the measured curve and of the simulated one, with the
    /// configuration's packetization; `None` without one or where either fit has none.
    pub fn packet_lines(&self) -> Option<(PacketLine, PacketLine)> {
        let p = self.packets?;
        let (measured, simulated) = self.series();
        Some((PacketLine::fit(&measured, p)?, PacketLine::fit(&simulated, p)?))
    }

    /// [`packet_steps`] of the measured curve and of the simulated one, with the
    /// configuration's packetization; `None` without one.
    pub fn packet_steps(&self) -> Option<(Vec<PacketStep>, Vec<PacketStep>)> {
        let p = self.packets?;
        let (measured, simulated) = self.series();
        Some((packet_steps(&measured, p), packet_steps(&simulated, p)))
    }

    /// The curve as (block size, KB/s) points: measured, then simulated.
    fn series(&self) -> (Vec<SizeKbps>, Vec<SizeKbps>) {
        self.points
            .iter()
            .map(|x| ((x.block_size, x.measured_kbps), (x.block_size, x.simulated_kbps)))
            .unzip()
    }
}

/// The time per block of a throughput curve fitted as a straight line in the block size
/// B, t = a + b B (least squares over the curve's points): `a` is what every block costs
/// whatever its size (a request, the application's own work, any wait not hidden behind
/// other stations), `b` what each byte costs (the copies and the wire). Units: a in ms,
/// b in ns per byte, from throughputs in KB/s with 1 KB = 1000 bytes.
///
/// With three points or more the fit also gives the standard errors of a and b (ordinary
/// least squares, the residual variance over n - 2 degrees of freedom): how far the
/// curve's own scatter lets a and b move. Table 1's 8-bit optimized a of 0.28 ms has a
/// standard error of 0.26 ms, its 8-bit defaults a of 3.63 ms one of 0.06 ms.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CostLine {
    pub per_block_ms: f64,
    pub per_byte_ns: f64,
    /// Standard error of `per_block_ms` (ms); `None` with two points (no residual left).
    pub per_block_se_ms: Option<f64>,
    /// Standard error of `per_byte_ns` (ns per byte); `None` with two points.
    pub per_byte_se_ns: Option<f64>,
}

impl CostLine {
    /// The least-squares line through (block size in bytes, throughput in KB/s) points;
    /// `None` for fewer than two distinct block sizes or a non-positive throughput.
    pub fn fit(points: impl IntoIterator<Item = (u32, f64)>) -> Option<CostLine> {
        let mut pts = Vec::new();
        for (bytes, kbps) in points {
            if !kbps.is_finite() || kbps <= 0.0 {
                return None;
            }
            // KB/s with 1 KB = 1000 bytes is bytes per ms: ms per block = bytes / (KB/s)
            pts.push((bytes as f64, bytes as f64 / kbps));
        }
        let n = pts.len() as f64;
        let (sx, sy) = pts.iter().fold((0.0, 0.0), |(x, y), p| (x + p.0, y + p.1));
        let sxx: f64 = pts.iter().map(|p| p.0 * p.0).sum();
        let sxy: f64 = pts.iter().map(|p| p.0 * p.1).sum();
        let det = n * sxx - sx * sx;
        if pts.len() < 2 || det <= 0.0 {
            return None;
        }
        let b = (n * sxy - sx * sy) / det;
        let a = (sy - b * sx) / n;
        // residual variance over n - 2 degrees of freedom; var(b) = n s2 / det and
        // var(a) = sxx s2 / det (det = n sxx - sx^2)
        let (se_a, se_b) = if pts.len() > 2 {
            let ss: f64 = pts.iter().map(|p| (p.1 - a - b * p.0).powi(2)).sum();
            let s2 = ss / (n - 2.0);
            (Some((sxx * s2 / det).sqrt()), Some((n * s2 / det).sqrt() * 1e6))
        } else {
            (None, None)
        };
        Some(CostLine {
            per_block_ms: a,
            per_byte_ns: b * 1e6,
            per_block_se_ms: se_a,
            per_byte_se_ns: se_b,
        })
    }

    /// How many of this line's standard errors of a separate another line's a from it
    /// (`None` without a standard error, or with one under a picosecond: an exact line).
    pub fn per_block_in_standard_errors(&self, other_ms: f64) -> Option<f64> {
        self.per_block_se_ms
            .filter(|se| *se > 1e-9)
            .map(|se| (other_ms - self.per_block_ms) / se)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_packets_fill_each_reply_then_start_the_next() {
        // 1668-byte packets, replies of at most 57,344 bytes (35 packets each, the last
        // 624 bytes): by hand
        let p = Packetization {
            payload: 1668,
            reply_bytes: 57_344,
        };
        assert_eq!(p.packets(3072), 2);
        assert_eq!(p.packets(31_744), 20);
        assert_eq!(p.packets(57_344), 35);
        // 60,416 = 57,344 + 3,072: 35 + 2; 64,512 = 57,344 + 7,168: 35 + 5
        assert_eq!(p.packets(60_416), 37);
        assert_eq!(p.packets(64_512), 40);
        assert_eq!(p.packets(0), 0);
    }

    /// (block size, KB/s) points of a curve whose time per block is a ms + c ms per
    /// packet + d ns per byte.
    fn serrated(
        p: Packetization,
        (a, c, d): (f64, f64, f64),
        sizes: impl IntoIterator<Item = u32>,
    ) -> Vec<(u32, f64)> {
        sizes
            .into_iter()
            .map(|b| {
                let t = a + c * p.packets(b) as f64 + d * 1e-6 * b as f64;
                (b, b as f64 / t)
            })
            .collect()
    }

    #[test]
    fn test_packet_steps_group_a_serrated_curve_by_the_packets_each_step_adds() {
        // t = 1 ms per block + 1.4 ms per packet + 100 ns/B, 1000-byte packets, one reply:
        // from 1500 to 2500 bytes adds 1 packet (2 -> 3), 2500 to 4500 adds 2 (3 -> 5),
        // 4500 to 5000 adds 0 (5 -> 5)
        let p = Packetization {
            payload: 1000,
            reply_bytes: 65_535,
        };
        let pts = serrated(p, (1.0, 1.4, 100.0), [1500, 2500, 4500, 5000]);
        let steps = packet_steps(&pts, p);
        let want = [(0, 0.05, 1), (1, 1.5, 1), (2, 3.0, 1)];
        assert_eq!(steps.len(), 3, "{steps:?}");
        for (got, want) in steps.iter().zip(want) {
            assert_eq!((got.added, got.steps), (want.0, want.2), "{steps:?}");
            assert!((got.mean_ms - want.1).abs() < 1e-9, "{steps:?}");
        }
        // a point without a throughput makes no step, never a NaN
        let steps = packet_steps(&[(1500, 100.0), (2500, f64::NAN), (4500, 100.0)], p);
        assert!(steps.is_empty(), "{steps:?}");
    }

    #[test]
    fn test_packet_line_recovers_an_exact_serrated_curve_and_refuses_a_collinear_one() {
        // t = 1.63 ms + 1.37 ms per 1668-byte packet + 77 ns/B, replies of 57,344 bytes
        let p = Packetization {
            payload: 1668,
            reply_bytes: 57_344,
        };
        let pts = serrated(p, (1.63, 1.37, 77.0), (0..16).map(|i| 3072 + 4096 * i));
        let l = PacketLine::fit(&pts, p).expect("a serrated curve");
        assert!((l.per_block_ms - 1.63).abs() < 1e-6, "{l:?}");
        assert!((l.per_packet_ms - 1.37).abs() < 1e-6, "{l:?}");
        assert!((l.per_byte_ns - 77.0).abs() < 1e-3, "{l:?}");
        assert!(l.rms_ms < 1e-9, "{l:?}");
        // 1024-byte packets and blocks of whole KB: the packets are the bytes / 1024,
        // so per packet and per byte cannot be told apart
        let kb = Packetization {
            payload: 1024,
            reply_bytes: 4096,
        };
        let pts: Vec<(u32, f64)> = (1..8).map(|k| (1024 * k, 300.0)).collect();
        assert_eq!(PacketLine::fit(&pts, kb), None);
        assert_eq!(PacketLine::fit(&pts[..3], p), None, "too few points");
    }

    #[test]
    fn test_cost_line_recovers_an_exact_line() {
        // t = 2.17 ms + 904 ns/B: throughput B / t in KB/s (bytes per ms)
        let pts = [3072u32, 7168, 31744, 64512].map(|b| (b, b as f64 / (2.17 + 904e-6 * b as f64)));
        let l = CostLine::fit(pts).expect("four sizes");
        assert!((l.per_block_ms - 2.17).abs() < 1e-9, "{l:?}");
        assert!((l.per_byte_ns - 904.0).abs() < 1e-6, "{l:?}");
    }

    #[test]
    fn test_cost_line_of_a_flat_curve_has_no_per_block_cost() {
        // the same throughput at every size: time grows in proportion, a = 0
        let l = CostLine::fit([(3072, 420.0), (64512, 420.0)]).expect("two sizes");
        assert!(l.per_block_ms.abs() < 1e-9, "{l:?}");
        assert!((l.per_byte_ns - 1e6 / 420.0).abs() < 1e-6, "{l:?}");
    }

    #[test]
    fn test_cost_line_standard_errors_by_hand() {
        // times per block 1, 3, 2 ms at 1000, 2000, 3000 bytes: the line t = 1 + 0.0005 B
        // (a 1 ms, b 500 ns/B), residuals -0.5, +1, -0.5 ms, s2 = 1.5 / 1 = 1.5 ms^2;
        // det = 3 * 14e6 - 36e6 = 6e6, var(a) = 14e6 * 1.5 / 6e6 = 3.5, var(b) = 3 * 1.5 /
        // 6e6 = 7.5e-7 (ms/B)^2: se(a) = 1.8708 ms, se(b) = 866.03 ns/B
        let pts = [(1000u32, 1000.0), (2000, 2000.0 / 3.0), (3000, 1500.0)];
        let l = CostLine::fit(pts).expect("three sizes");
        assert!((l.per_block_ms - 1.0).abs() < 1e-9, "{l:?}");
        assert!((l.per_byte_ns - 500.0).abs() < 1e-6, "{l:?}");
        assert!((l.per_block_se_ms.unwrap() - 3.5f64.sqrt()).abs() < 1e-9, "{l:?}");
        assert!(
            (l.per_byte_se_ns.unwrap() - 7.5e-7f64.sqrt() * 1e6).abs() < 1e-6,
            "{l:?}"
        );
        let z = l.per_block_in_standard_errors(1.0 + 2.0 * 3.5f64.sqrt()).unwrap();
        assert!((z - 2.0).abs() < 1e-9, "{z}");
        // an exact line leaves no scatter: zero standard errors, no distance in them
        let exact = [3072u32, 7168, 64512].map(|b| (b, b as f64 / (2.0 + 1e-3 * b as f64)));
        let e = CostLine::fit(exact).expect("three sizes");
        assert!(e.per_block_se_ms.unwrap() < 1e-9, "{e:?}");
        assert_eq!(e.per_block_in_standard_errors(3.0), None);
        // two points: a line, but no standard errors
        let two = CostLine::fit([(3072, 420.0), (64512, 420.0)]).expect("two sizes");
        assert_eq!((two.per_block_se_ms, two.per_byte_se_ns), (None, None));
    }

    #[test]
    fn test_cost_line_needs_two_sizes_and_positive_throughput() {
        assert_eq!(CostLine::fit([(3072, 400.0)]), None);
        assert_eq!(CostLine::fit([(3072, 400.0), (3072, 410.0)]), None);
        assert_eq!(CostLine::fit([(3072, 400.0), (7168, 0.0)]), None);
        assert_eq!(CostLine::fit([(3072, f64::NAN), (7168, 400.0)]), None);
    }
}
