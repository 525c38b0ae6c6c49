//! Every seed the simulator derives, in one place.
//!
//! One scenario seed drives a run. From it are derived: the seed of each replication of a
//! sweep ([`replication`]), the seed of each point of a multi-point workload such as
//! PERFORM3's block sizes ([`point`]), and the seed of each component's random stream
//! ([`stream`], used by [`super::RngStreams`]). A reproduction of a published figure
//! reports the mean over the seeds of [`report_seeds`]. All are pure functions of integers, built
//! on SplitMix64 ([`mix64`]), so they are the same on every machine and independent of the
//! order or the thread in which runs and components are built.
//!
//! The formulas are part of every golden result: changing one changes them all.

/// The SplitMix64 step (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014): adds the golden-ratio increment, then mixes.
pub const fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(GOLDEN_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// 2^64 / golden ratio, odd: SplitMix64's increment.
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The seed of replication `r` of a run seeded `seed`: `seed` itself for `r = 0` (so a
/// one-replication sweep matches `ethersim run`), else the `r`-th output of a SplitMix64
/// sequence started at `seed`.
pub const fn replication(seed: u64, r: u32) -> u64 {
    if r == 0 {
        return seed;
    }
    mix64(seed.wrapping_add((r as u64 - 1).wrapping_mul(GOLDEN_GAMMA)))
}

/// The seed of point `key` (e.g. a block size) of a run seeded `seed`, so every point has
/// its own engine and the points can run on any thread.
pub const fn point(seed: u64, key: u64) -> u64 {
    seed ^ key.wrapping_mul(GOLDEN_GAMMA)
}

/// How many seeds a reproduction of a published figure averages over (every reproduction
/// reports the mean over at least this many).
pub const REPORT_SEED_COUNT: usize = 5;

/// The seeds a reproduction averages over: the scenario's own seed first (so the first run
/// is `ethersim run`'s), then the smallest positive integers other than it (`[1992, 1, 2,
/// 3, 4]` for Figure 1, `[1995, 1, 2, 3, 4]` for the ttcp table). Always
/// [`REPORT_SEED_COUNT`] distinct seeds.
pub const fn report_seeds(scenario_seed: u64) -> [u64; REPORT_SEED_COUNT] {
    let mut out = [scenario_seed; REPORT_SEED_COUNT];
    let (mut i, mut next) = (1, 1);
    while i < REPORT_SEED_COUNT {
        if next != scenario_seed {
            out[i] = next;
            i += 1;
        }
        next += 1;
    }
    out
}

/// The seed of the stream of component `index` of kind `kind` (a small integer naming the
/// component kind) in a run seeded `seed`.
pub const fn stream(seed: u64, kind: u64, index: u64) -> u64 {
    let k = mix64(seed ^ mix64(kind));
    mix64(k ^ mix64(index.wrapping_add(0x5851_F42D)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_replication_zero_is_the_seed_and_others_are_distinct() {
        assert_eq!(replication(7, 0), 7);
        let mut s: Vec<u64> = (0..1000).map(|r| replication(7, r)).collect();
        s.sort_unstable();
        s.dedup();
        assert_eq!(s.len(), 1000, "1000 replications, 1000 different seeds");
    }

    #[test]
    fn test_report_seeds_start_with_the_scenario_seed_and_are_distinct() {
        assert_eq!(report_seeds(1992), [1992, 1, 2, 3, 4]);
        assert_eq!(report_seeds(1995), [1995, 1, 2, 3, 4]);
        assert_eq!(report_seeds(0), [0, 1, 2, 3, 4]);
        assert_eq!(report_seeds(2), [2, 1, 3, 4, 5]);
    }

    #[test]
    fn test_seeds_are_portable() {
        // Golden values: SplitMix64 is specified, so these hold on every platform. The
        // first is the reference SplitMix64 output for state 0 (Vigna's splitmix64.c).
        assert_eq!(mix64(0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(replication(0, 1), 0xE220_A839_7B1D_CDAF);
        assert_eq!(point(1, 3072), 1 ^ 3072u64.wrapping_mul(GOLDEN_GAMMA));
        assert_ne!(point(1, 3072), point(1, 7168));
        assert_ne!(stream(1, 1, 0), stream(1, 1, 1));
        assert_ne!(stream(1, 1, 0), stream(1, 2, 0));
    }
}
