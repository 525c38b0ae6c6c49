//! Conservation audit of a LAN run: nothing lost, nothing made up, nothing over capacity.
//!
//! [`Lan::audit`] looks at the whole state of a run at one instant (between events: after
//! `run_until`) and checks that every frame, packet and byte is somewhere and counted once:
//!
//! - **Frames, per station.** Offered to the MAC = sent + dropped after 16 attempts + still
//!   queued (the head included); sent = delivered intact + corrupted on the wire + still on
//!   the wire (its last bit not yet at the destination, read from the medium's records).
//!   Received intact = taken into the receive ring + dropped by a full ring; taken into the
//!   ring = copied out by the driver + waiting for the receive interrupt (`RxIsr` jobs).
//! - **Driver and card.** Frames the driver holds (`<= transmit_buffers`) = packets being
//!   built (`NbSend` jobs) + queued in host memory + being copied + on the card + with the
//!   MAC or awaiting the transmit-complete interrupt; the used transmit slots and receive
//!   ring pages match the frames in them; the MAC never has more than one frame of a node.
//! - **Packets.** Over the LAN, data packets sent by NetBIOS (retransmissions included) =
//!   arrived at a NetBIOS receiver + lost (corrupted, dropped after 16 attempts, or dropped
//!   by a full ring) + in transit (in a CPU job, the driver, the card, the MAC, on the wire
//!   or in the ring); the same for acknowledgements. A data packet lost between two nodes
//!   means its sender has retransmitted (`packets_retransmitted > 0`) or still holds it
//!   unacknowledged.
//! - **Bytes, per workstation.** The read in progress: bytes not yet handed to the
//!   application = bytes not yet asked + bytes asked by outstanding requests; bytes the
//!   redirector handed over = the reads the application counts as complete + the part of
//!   the current one; file data the session accepted
//!   (`payload_received`) = handed over + waiting for the redirector + a partly received
//!   response (or a write's reply, which is not file data).
//! - **Writes, per workstation.** Bytes put into write requests = bytes the server
//!   answered + bytes in outstanding requests; bytes answered = the writes the application
//!   counts as complete + the part of the current one; and the server stored at least what
//!   it answered (nothing lost) and at most what was sent (nothing duplicated: a
//!   retransmitted request is stored once). Once the LAN is quiet the two are equal.
//! - **Server.** Busy network tasks (`<= network_tasks`) = requests being served + replies
//!   waiting for the disk or the task's latency + responses not yet acknowledged; every block written is, in its
//!   last version, dirty in the cache or on disk, never both (`nos::cache`); a request waits only when every task is busy.
//! - **Time and capacity.** Busy time `<=` elapsed on every CPU and on the wire; no station
//!   received two overlapping frames; the file data delivered since time zero is within the
//!   one-station ceiling of the largest data packet ([`Lan::payload_ceiling_bytes_per_s`]).
//!
//! The audit reads state only (it never changes the run) and costs one pass over the
//! nodes, their jobs and the medium's records.

use serde::Serialize;

use super::node::Role;
use super::{Application, Job, Lan};
use crate::ether::consts::{INTERFRAME_GAP_BITS, PREAMBLE_SFD_BITS};
use crate::ether::Frame;
use crate::nos::packet::{Packet, PacketKind};
use crate::nos::redirector::Redirector;
use crate::time::SimTime;

/// Packets lost or delivered to NetBIOS, counted by the LAN as it runs (for the audit).
#[derive(Clone, Debug, Default)]
pub(super) struct Ledger {
    /// The station of the part's node 0 (the ledger counts by node).
    base: usize,
    /// Data packets lost, by sending node.
    data_lost_from: Vec<u64>,
    /// Data packets lost, by destination node.
    data_lost_to: Vec<u64>,
    acks_lost: u64,
    data_arrived: u64,
    acks_arrived: u64,
}

fn is_ack(f: &Frame) -> bool {
    Packet::decode(f.tag).kind.is_ack()
}

impl Ledger {
    pub(super) fn new(nodes: usize, base: usize) -> Self {
        Ledger {
            base,
            data_lost_from: vec![0; nodes],
            data_lost_to: vec![0; nodes],
            ..Ledger::default()
        }
    }

    /// `frame` will never reach NetBIOS (corrupted, excessive collisions, full ring).
    pub(super) fn lost(&mut self, frame: &Frame) {
        if is_ack(frame) {
            self.acks_lost += 1;
        } else {
            self.data_lost_from[frame.src - self.base] += 1;
            self.data_lost_to[frame.dst - self.base] += 1;
        }
    }

    /// `frame` was copied out of the ring and handed to NetBIOS.
    pub(super) fn arrived(&mut self, frame: &Frame) {
        if is_ack(frame) {
            self.acks_arrived += 1;
        } else {
            self.data_arrived += 1;
        }
    }
}

/// The invariants an audit found violated, at one instant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("audit at {at_ns} ns failed:\n  {}", violations.join("\n  "))]
pub struct AuditError {
    pub at_ns: u64,
    /// One line per violated invariant, naming it and the two sides that differ.
    pub violations: Vec<String>,
}

/// The totals an audit found consistent (all counts since time zero).
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct AuditReport {
    pub at_ns: u64,
    pub frames_offered: u64,
    pub frames_delivered: u64,
    pub frames_corrupted: u64,
    pub frames_dropped_excessive: u64,
    pub frames_queued: u64,
    pub frames_on_wire: u64,
    pub frames_into_ring: u64,
    pub frames_ring_drops: u64,
    pub frames_in_ring: u64,
    pub data_packets_sent: u64,
    pub data_packets_arrived: u64,
    pub data_packets_lost: u64,
    pub data_packets_in_transit: u64,
    pub packets_retransmitted: u64,
    pub acks_sent: u64,
    pub acks_arrived: u64,
    pub acks_lost: u64,
    pub acks_in_transit: u64,
    /// Bytes of the reads the applications started.
    pub bytes_asked: u64,
    pub bytes_to_app: u64,
    /// File data accepted in order by the workstations' sessions.
    pub bytes_received: u64,
    /// Asked but not yet handed to an application.
    pub bytes_outstanding: u64,
    /// File data put into write requests by the redirectors.
    pub bytes_written_sent: u64,
    /// File data of write requests the server answered.
    pub bytes_written_acked: u64,
    /// File data the server stored.
    pub bytes_stored: u64,
    pub wire_busy_ns: u64,
    pub max_cpu_busy_ns: u64,
    pub rx_overlaps: u64,
}

/// Collects violations instead of stopping at the first.
struct Checks(Vec<String>);

impl Checks {
    fn eq(&mut self, what: impl FnOnce() -> String, a: u64, b: u64) {
        if a != b {
            self.0.push(format!("{}: {a} != {b}", what()));
        }
    }
    fn le(&mut self, what: impl FnOnce() -> String, a: u64, b: u64) {
        if a > b {
            self.0.push(format!("{}: {a} > {b}", what()));
        }
    }
    fn ok<E: std::fmt::Display>(&mut self, what: impl FnOnce() -> String, r: Result<(), E>) {
        if let Err(e) = r {
            self.0.push(format!("{}: {e}", what()));
        }
    }
}

/// Where a node's frames and packets sit in its CPU's jobs.
#[derive(Default)]
struct JobCounts {
    nb_send: u64,
    tx_copy: u64,
    tx_isr: u64,
    rx_isr: u64,
    rx_pages: u64,
    server_read: u64,
    redir_bytes: u64,
    data_in_transit: u64,
    acks_in_transit: u64,
}

impl<A: Application> Lan<A> {
    /// File data rate of one station sending its largest data packets back to back (the
    /// server's responses, the only data that counts as throughput), bytes/s: payload per
    /// (preamble + frame + interframe gap) on the wire.
    pub fn payload_ceiling_bytes_per_s(&self) -> f64 {
        let s = &self.cfg.profile.server_session;
        let payload = s.payload(self.cfg.profile.server_adapter.packet_size) as u64;
        let frame = Frame {
            src: 0,
            dst: 0,
            bytes: crate::ether::frame_bytes(s.header_bytes + payload as u32),
            tag: 0,
            pad: 0,
        };
        let bits = PREAMBLE_SFD_BITS + 8 * frame.wire_bytes() as u64 + INTERFRAME_GAP_BITS;
        payload as f64 / (bits * self.cfg.segment.bit_ns) as f64 * 1e9
    }

    /// Transmission records the medium holds (bounded: see `ether::medium`).
    pub fn records_held(&self) -> usize {
        self.segment.get().medium().records_held()
    }

    /// Checks every conservation invariant (see the module documentation) at `now`, which
    /// must be the engine's time between events. Returns the totals, or every violation.
    pub fn audit(&self, now: SimTime) -> Result<AuditReport, AuditError> {
        let mut c = Checks(Vec::new());
        let mut r = AuditReport {
            at_ns: now.as_nanos(),
            ..AuditReport::default()
        };
        let segment = self.segment.get();
        let medium = segment.medium();
        let ether = segment.report(now);
        r.rx_overlaps = ether.rx_overlaps;
        c.eq(
            || "intact receptions that overlapped at a station".into(),
            ether.rx_overlaps,
            0,
        );

        // frames of this part's nodes whose last bit has left the sender but not yet
        // reached the destination (other parts of the LAN audit their own)
        let mut on_wire = vec![0u64; self.nodes.len()];
        let mut wire_data = 0u64;
        let mut wire_acks = 0u64;
        let mine = self.base..self.base + self.nodes.len();
        for x in medium.records().filter(|x| mine.contains(&x.src)) {
            let arrives = x.end + medium.prop(x.src, x.frame.dst);
            if !x.collided && x.end <= now && arrives > now {
                on_wire[x.src - self.base] += 1;
                if is_ack(&x.frame) {
                    wire_acks += 1;
                } else {
                    wire_data += 1;
                }
            }
        }
        let mut in_mac_data = 0u64;
        let mut in_mac_acks = 0u64;
        for (i, node) in self.nodes.iter().enumerate() {
            let mac = segment.mac(self.base + i);
            let st = &mac.stats;
            let queued = mac.queue.len() as u64;
            for f in &mac.queue {
                if is_ack(f) {
                    in_mac_acks += 1;
                } else {
                    in_mac_data += 1;
                }
            }
            c.eq(
                || format!("node {i}: frames offered = sent + dropped + queued"),
                st.frames_offered,
                st.frames_sent + st.dropped_excessive + queued,
            );
            c.eq(
                || format!("node {i}: frames sent = delivered + corrupted + on the wire"),
                st.frames_sent,
                st.frames_delivered + st.frames_corrupted + on_wire[i],
            );
            r.frames_offered += st.frames_offered;
            r.frames_delivered += st.frames_delivered;
            r.frames_corrupted += st.frames_corrupted;
            r.frames_dropped_excessive += st.dropped_excessive;
            r.frames_queued += queued;
            r.frames_on_wire += on_wire[i];

            let j = self.job_counts(i);
            let a = &node.adapter;
            let p = &a.profile;
            let into_ring = a.stats.frames_copied_out + j.rx_isr;
            c.eq(
                || format!("node {i}: frames received = into the ring + ring drops"),
                st.frames_received,
                into_ring + a.stats.rx_ring_drops,
            );
            r.frames_into_ring += into_ring;
            r.frames_ring_drops += a.stats.rx_ring_drops;
            r.frames_in_ring += j.rx_isr;
            c.le(
                || format!("node {i}: free ring pages <= ring size"),
                a.rx_free_pages() as u64,
                p.rx_pages() as u64,
            );
            c.eq(
                || format!("node {i}: ring pages in use = pages of the frames in the ring"),
                p.rx_pages().saturating_sub(a.rx_free_pages()) as u64,
                j.rx_pages,
            );
            let transmitting = a.is_transmitting() as u64;
            let copying = a.is_copying() as u64;
            let driver = a.driver_queue().count() as u64;
            let card = a.card_ready().count() as u64;
            c.le(
                || format!("node {i}: frames held <= transmit_buffers"),
                a.held() as u64,
                p.transmit_buffers as u64,
            );
            c.eq(
                || {
                    format!(
                        "node {i}: frames held = building + driver queue + copying + on card + transmitting"
                    )
                },
                a.held() as u64,
                j.nb_send + driver + copying + card + transmitting,
            );
            c.eq(
                || format!("node {i}: copy jobs = copy in progress"),
                j.tx_copy,
                copying,
            );
            c.eq(
                || format!("node {i}: frames with the MAC + transmit interrupts = transmitting"),
                queued + j.tx_isr,
                transmitting,
            );
            c.eq(
                || format!("node {i}: frames copied to the card = offered to the MAC + on card"),
                a.stats.frames_copied_in,
                st.frames_offered + card,
            );
            c.le(
                || format!("node {i}: free transmit slots <= slots"),
                a.tx_slots_free() as u64,
                p.tx_slots() as u64,
            );
            c.eq(
                || format!("node {i}: used transmit slots = copying + on card + transmitting"),
                p.tx_slots().saturating_sub(a.tx_slots_free()) as u64,
                copying + card + transmitting,
            );
            let busy = node.cpu.busy_until(now);
            c.le(
                || format!("node {i}: CPU busy ns <= elapsed"),
                busy,
                now.as_nanos(),
            );
            r.max_cpu_busy_ns = r.max_cpu_busy_ns.max(busy);

            let driver_data = a
                .driver_queue()
                .chain(a.card_ready())
                .filter(|f| !is_ack(f))
                .count() as u64;
            r.data_packets_in_transit += j.data_in_transit + driver_data;
            r.acks_in_transit += j.acks_in_transit + driver + card - driver_data;
            for s in node.sessions() {
                c.ok(|| format!("node {i}: session"), s.check());
                r.data_packets_sent += s.stats.packets_sent;
                r.acks_sent += s.stats.acks_sent;
                r.packets_retransmitted += s.stats.packets_retransmitted;
            }
            match &node.role {
                Role::Server(sv) => {
                    let responses: u64 = node
                        .sessions()
                        .iter()
                        .map(|s| {
                            s.queued_messages()
                                .filter(|m| m.kind == PacketKind::Response)
                                .count() as u64
                        })
                        .sum();
                    c.le(
                        || "server: busy tasks <= network_tasks".into(),
                        sv.busy() as u64,
                        sv.tasks() as u64,
                    );
                    c.eq(
                        || "server: busy tasks = requests being served + waiting (disk or latency) + responses not yet acked".into(),
                        sv.busy() as u64,
                        j.server_read + node.replies_waiting + responses,
                    );
                    if let Some(st) = &node.storage {
                        c.ok(|| "server cache".into(), st.cache.check());
                    }
                    if sv.waiting() > 0 {
                        c.eq(
                            || "server: a request waits while a task is free".into(),
                            sv.busy() as u64,
                            sv.tasks() as u64,
                        );
                    }
                }
                Role::Workstation { redir, app } => self.audit_workstation(i, redir, app, &j, &mut c, &mut r),
            }
        }
        r.data_packets_in_transit += in_mac_data + wire_data;
        r.acks_in_transit += in_mac_acks + wire_acks;
        r.data_packets_arrived = self.ledger.data_arrived;
        r.acks_arrived = self.ledger.acks_arrived;
        r.data_packets_lost = self.ledger.data_lost_from.iter().sum();
        r.acks_lost = self.ledger.acks_lost;
        c.eq(
            || "data packets sent = arrived + lost + in transit".into(),
            r.data_packets_sent,
            r.data_packets_arrived + r.data_packets_lost + r.data_packets_in_transit,
        );
        c.eq(
            || "acks sent = arrived + lost + in transit".into(),
            r.acks_sent,
            r.acks_arrived + r.acks_lost + r.acks_in_transit,
        );
        c.eq(
            || "frames lost = corrupted + dropped after 16 attempts + ring drops".into(),
            r.data_packets_lost + r.acks_lost,
            r.frames_corrupted + r.frames_dropped_excessive + r.frames_ring_drops,
        );
        self.audit_recovery(&mut c);

        let split = medium.time_split(now);
        r.wire_busy_ns = split.success_ns + split.collision_ns + split.corrupted_ns;
        c.le(
            || "wire busy ns <= elapsed".into(),
            r.wire_busy_ns,
            now.as_nanos(),
        );
        // N data frames need N x (frame + IFG) - IFG of wire time, so the data received by
        // now is at most ceiling x (now + IFG).
        let ifg_s = (INTERFRAME_GAP_BITS * self.cfg.segment.bit_ns) as f64 * 1e-9;
        let bound = self.payload_ceiling_bytes_per_s() * (now.as_secs_f64() + ifg_s);
        if r.bytes_received as f64 > bound {
            c.0.push(format!(
                "file data received {} bytes > one-station ceiling {bound:.0} bytes in {} s",
                r.bytes_received,
                now.as_secs_f64()
            ));
        }
        if c.0.is_empty() {
            Ok(r)
        } else {
            Err(AuditError {
                at_ns: now.as_nanos(),
                violations: c.0,
            })
        }
    }

    fn job_counts(&self, i: usize) -> JobCounts {
        let mut j = JobCounts::default();
        let profile = &self.nodes[i].adapter.profile;
        fn in_transit(j: &mut JobCounts, ack: bool) {
            if ack {
                j.acks_in_transit += 1;
            } else {
                j.data_in_transit += 1;
            }
        }
        for job in self.nodes[i].cpu.jobs() {
            match job {
                Job::NbSend { packet, .. } => {
                    j.nb_send += 1;
                    in_transit(&mut j, packet.kind.is_ack());
                }
                Job::TxCopy { frame, .. } => {
                    j.tx_copy += 1;
                    in_transit(&mut j, is_ack(frame));
                }
                Job::TxIsr => j.tx_isr += 1,
                Job::RxIsr { frame } => {
                    j.rx_isr += 1;
                    j.rx_pages += profile.rx_pages_for(frame.wire_bytes()) as u64;
                    in_transit(&mut j, is_ack(frame));
                }
                Job::ServerRead { .. } | Job::ServerWrite { .. } => j.server_read += 1,
                Job::RedirDone { bytes } => j.redir_bytes += *bytes as u64,
                Job::App => {}
            }
        }
        j
    }

    fn audit_workstation(
        &self,
        i: usize,
        redir: &Redirector,
        app: &A,
        j: &JobCounts,
        c: &mut Checks,
        r: &mut AuditReport,
    ) {
        let read = redir.read_size() as u64;
        let remaining = redir.remaining() as u64;
        let asked: u64 = redir.in_flight().map(u64::from).sum();
        let requests = redir.in_flight().count() as u64;
        c.le(
            || format!("workstation {i}: outstanding requests <= redir buffers"),
            requests,
            self.cfg.profile.redir.buffers as u64,
        );
        c.eq(
            || format!("workstation {i}: bytes left of the read = not yet asked + asked"),
            remaining,
            redir.to_request() as u64 + asked,
        );
        let write = redir.is_write();
        let in_op = if remaining > 0 { read - remaining } else { 0 };
        let in_read = if write { 0 } else { in_op };
        c.eq(
            || format!("workstation {i}: bytes to the application = reads it completed + part of this one"),
            redir.bytes_to_app,
            app.bytes_read() + in_read,
        );
        let session = &self.nodes[i].sessions()[0];
        let partial = session.partial_in_bytes() as u64;
        c.eq(
            || {
                format!(
                    "workstation {i}: file data accepted = to the application + waiting for the redirector + partial response"
                )
            },
            session.stats.payload_received,
            redir.bytes_to_app + redir.write_reply_bytes + j.redir_bytes + partial,
        );
        let asked_writes = if write { asked } else { 0 };
        c.eq(
            || format!("workstation {i}: bytes in write requests = answered + outstanding"),
            redir.bytes_written_sent,
            redir.bytes_written_acked + asked_writes,
        );
        c.eq(
            || {
                format!(
                    "workstation {i}: bytes answered = writes the application completed + part of this one"
                )
            },
            redir.bytes_written_acked,
            app.bytes_written() + if write { in_op } else { 0 },
        );
        let stored = match &self.nodes[self.nodes[i].server].role {
            Role::Server(sv) => sv.stored(i),
            Role::Workstation { .. } => 0,
        };
        c.le(
            || format!("workstation {i}: bytes answered <= stored by the server (nothing lost)"),
            redir.bytes_written_acked,
            stored,
        );
        c.le(
            || format!("workstation {i}: bytes stored by the server <= sent (nothing duplicated)"),
            stored,
            redir.bytes_written_sent,
        );
        r.bytes_written_sent += redir.bytes_written_sent;
        r.bytes_written_acked += redir.bytes_written_acked;
        r.bytes_stored += stored;
        c.le(
            || format!("workstation {i}: data received but not handed over <= asked"),
            j.redir_bytes + partial,
            asked,
        );
        r.bytes_asked += app.bytes_read() + if remaining > 0 && !write { read } else { 0 };
        r.bytes_to_app += redir.bytes_to_app;
        r.bytes_received += session.stats.payload_received;
        r.bytes_outstanding += if write { 0 } else { remaining };
    }

    /// A data packet lost between two nodes: its sender has retransmitted, or still has
    /// packets unacknowledged (its retry timer or a negative ack will resend it).
    fn audit_recovery(&self, c: &mut Checks) {
        for w in 1..=self.cfg.workstations {
            let sv = self.nodes[w].server;
            let pairs = [
                (w, self.ledger.data_lost_from[w], &self.nodes[w].sessions()[0]),
                (sv, self.ledger.data_lost_to[w], &self.nodes[sv].sessions()[w - 1]),
            ];
            for (from, lost, s) in pairs {
                let to = if from == sv { w } else { sv };
                if lost > 0 && s.stats.packets_retransmitted == 0 && s.outstanding() == 0 {
                    c.0.push(format!(
                        "{lost} data packets {from} -> {to} lost, but none retransmitted and none outstanding"
                    ));
                }
            }
        }
    }
}
