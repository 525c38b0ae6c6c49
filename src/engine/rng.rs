//! Seeded random streams.
//!
//! One scenario seed; every component draws from its own stream, derived from the seed,
//! the component kind and its index ([`super::seed::stream`]). Streams are independent of the
//! order in which components are built and of the thread that runs the scenario, so the
//! same seed gives byte-identical results anywhere. The generator is Xoshiro256++, whose
//! output is specified and portable (unlike `rand::rngs::StdRng`).

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The generator every model uses.
pub type SimRng = Xoshiro256PlusPlus;

/// Which component a stream belongs to; part of the stream's derivation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamKind {
    /// Backoff draws of a station's MAC.
    Backoff = 1,
    /// Fault injection on the medium (corrupted frames).
    Faults = 2,
    /// Workload choices (destinations, start jitter).
    Workload = 3,
    /// Host-level jitter (timer ticks, interrupt latency).
    Host = 4,
    /// An adapter's own processor (a polled firmware's take-up of a request).
    Adapter = 5,
    /// An open-loop traffic source's arrival times and frame sizes (one per station), kept
    /// apart from the MAC's backoff streams so adding a source changes no backoff draw.
    Traffic = 6,
}

/// Derives per-component random streams from one seed.
#[derive(Clone, Debug)]
pub struct RngStreams {
    seed: u64,
}

impl RngStreams {
    pub fn new(seed: u64) -> Self {
        RngStreams { seed }
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The stream of component `index` of kind `kind`.
    pub fn stream(&self, kind: StreamKind, index: u64) -> SimRng {
        SimRng::seed_from_u64(super::seed::stream(self.seed, kind as u64, index))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn test_streams_are_reproducible_and_distinct() {
        let s = RngStreams::new(42);
        let a: Vec<u64> = (0..4)
            .map(|_| 0)
            .scan(s.stream(StreamKind::Backoff, 3), |r, _| Some(r.next_u64()))
            .collect();
        let b: Vec<u64> = (0..4)
            .map(|_| 0)
            .scan(s.stream(StreamKind::Backoff, 3), |r, _| Some(r.next_u64()))
            .collect();
        assert_eq!(a, b);
        let mut c = s.stream(StreamKind::Backoff, 4);
        let mut d = RngStreams::new(43).stream(StreamKind::Backoff, 3);
        assert_ne!(a[0], c.next_u64());
        assert_ne!(a[0], d.next_u64());
    }

    #[test]
    fn test_stream_values_are_portable() {
        // Golden values: Xoshiro256++ and SplitMix64 are specified, so these hold on every
        // platform. If they change, every golden result of the simulator changes with them.
        let mut r = RngStreams::new(1).stream(StreamKind::Backoff, 0);
        assert_eq!([r.next_u64(), r.next_u64()], GOLDEN);
    }
    const GOLDEN: [u64; 2] = [3_166_362_772_013_039_974, 12_261_617_542_038_536_580];
}
