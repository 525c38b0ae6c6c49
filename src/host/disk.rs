//! A server's hard disk and its controller: how long an access takes, one at a time.
//!
//! An access of `bytes` at `offset` of a file costs the controller's overhead, then, unless
//! it continues the previous access (same file, next byte), an average seek and half a
//! rotation; a continuing access that had to wait for the next request (the disk was idle
//! in between) also loses half a rotation on average. Then the transfer at the media rate,
//! plus a track-to-track step for each track boundary crossed. Each file lies contiguous
//! on the disk, away from the others.
//!
//! Accesses are served first come, first served: [`Disk::access`] queues one behind any
//! in progress and returns when it completes. Invariants: busy time counted by `now` <=
//! `now`; the disk is busy without a break from `now` to `free_at` when `free_at > now`.
//! Units: bytes, nanoseconds.

use crate::time::{SimDuration, SimTime};

/// What kind of disk and controller a server has.
#[derive(Clone, Debug, PartialEq)]
pub struct DiskProfile {
    /// Average seek, ns.
    pub avg_seek: SimDuration,
    /// Track-to-track seek, ns.
    pub track_to_track: SimDuration,
    /// Revolutions per minute.
    pub rpm: u32,
    /// Media transfer rate, bytes per second.
    pub media_bytes_per_s: f64,
    /// Controller (and BIOS/DOS driver) overhead per access, ns.
    pub controller: SimDuration,
    /// Formatted capacity, bytes.
    pub capacity_bytes: u64,
}

impl DiskProfile {
    /// One revolution.
    pub fn rotation(&self) -> SimDuration {
        SimDuration::from_nanos(60_000_000_000 / self.rpm.max(1) as u64)
    }

    /// Bytes that pass under the head in one revolution (one track).
    pub fn track_bytes(&self) -> u64 {
        (self.media_bytes_per_s * self.rotation().as_secs_f64())
            .round()
            .max(1.0) as u64
    }

    /// Time of an access: `continues` if it starts where the previous one ended, `waited`
    /// if the disk was idle since then.
    pub fn service(&self, offset: u64, bytes: u64, continues: bool, waited: bool) -> SimDuration {
        let half_turn = SimDuration::from_nanos(self.rotation().as_nanos() / 2);
        let position = match (continues, waited) {
            (true, false) => SimDuration::ZERO,
            (true, true) => half_turn,
            (false, _) => self.avg_seek + half_turn,
        };
        let track = self.track_bytes();
        let crossings = if bytes == 0 {
            0
        } else {
            (offset + bytes - 1) / track - offset / track
        };
        let transfer = SimDuration::from_nanos_f64(bytes as f64 / self.media_bytes_per_s * 1e9);
        let steps = SimDuration::from_nanos(self.track_to_track.as_nanos() * crossings);
        self.controller + position + transfer + steps
    }
}

/// Counters of a disk.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DiskStats {
    pub reads: u64,
    pub writes: u64,
    pub bytes_read: u64,
    pub bytes_written: u64,
    /// Accesses that did not continue the previous one (a seek).
    pub seeks: u64,
}

/// One disk with its queue of accesses.
#[derive(Clone, Debug)]
pub struct Disk {
    pub profile: DiskProfile,
    /// When the last queued access completes.
    free_at: SimTime,
    /// Service time of every access queued so far, ns.
    service_ns: u64,
    /// Where the previous access ended: (file, offset).
    head: Option<(u32, u64)>,
    pub stats: DiskStats,
}

impl Disk {
    pub fn new(profile: DiskProfile) -> Self {
        Disk {
            profile,
            free_at: SimTime::ZERO,
            service_ns: 0,
            head: None,
            stats: DiskStats::default(),
        }
    }

    /// Queues an access at `now`; returns when it completes.
    pub fn access(&mut self, now: SimTime, file: u32, offset: u64, bytes: u64, write: bool) -> SimTime {
        let continues = self.head == Some((file, offset));
        let waited = self.free_at < now;
        let t = self.profile.service(offset, bytes, continues, waited);
        if !continues {
            self.stats.seeks += 1;
        }
        if write {
            self.stats.writes += 1;
            self.stats.bytes_written += bytes;
        } else {
            self.stats.reads += 1;
            self.stats.bytes_read += bytes;
        }
        self.head = Some((file, offset + bytes));
        self.free_at = self.free_at.max(now) + t;
        self.service_ns += t.as_nanos();
        self.free_at
    }

    /// Time the disk has been busy by `now`, ns (queued work not yet done excluded).
    pub fn busy_until(&self, now: SimTime) -> u64 {
        let ahead = self.free_at.as_nanos().saturating_sub(now.as_nanos());
        self.service_ns - ahead.min(self.service_ns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Seagate ST-251-1 (REFERENCE-lanperf.md): 28 ms, 3600 rpm, 17 x 512 B per track.
    fn st251() -> DiskProfile {
        DiskProfile {
            avg_seek: SimDuration::from_millis(28),
            track_to_track: SimDuration::from_millis(8),
            rpm: 3600,
            media_bytes_per_s: 522_240.0,
            controller: SimDuration::from_millis(1),
            capacity_bytes: 42_800_000,
        }
    }

    #[test]
    fn test_random_512_bytes_costs_seek_latency_and_transfer() {
        let d = st251();
        assert_eq!(d.track_bytes(), 8704);
        let t = d.service(100_000, 512, false, true).as_secs_f64() * 1e3;
        // 1 + 28 + 8.33 + 0.98 ms: the reference's "~37 ms"
        assert!((t - 38.3).abs() < 0.1, "{t}");
    }

    #[test]
    fn test_queued_sequential_accesses_stream_and_count_busy_time() {
        let mut d = Disk::new(st251());
        let now = SimTime::ZERO;
        let a = d.access(now, 1, 0, 8704, false);
        let b = d.access(now, 1, 8704, 8704, false);
        // the second continues the first with no seek or latency: controller + one track
        // + one track-to-track step
        let second = (b - a).as_secs_f64() * 1e3;
        assert!((second - (1.0 + 16.667 + 0.0)).abs() < 0.01, "{second}");
        assert_eq!(d.stats.seeks, 1);
        assert_eq!(d.busy_until(a), (a - now).as_nanos());
        assert_eq!(d.busy_until(b + SimDuration::from_secs(1)), (b - now).as_nanos());
        // another file: a seek
        let c = d.access(b, 2, 0, 512, true);
        assert!((c - b).as_secs_f64() > 0.028);
        assert_eq!((d.stats.seeks, d.stats.writes), (2, 1));
    }
}
