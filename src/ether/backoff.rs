//! Truncated binary exponential backoff (802.3 4.2.3.2.5).
//!
//! After the n-th collision of a frame the station waits r slot times, r drawn uniformly
//! from the integers in [0, 2^k) with k = min(n, 10). Integer draws only: no floating
//! `pow` and no rounding of a continuous draw.

use rand::RngExt;

use super::consts::BACKOFF_LIMIT;
use crate::engine::SimRng;

/// The exponent k for the n-th collision of a frame (n >= 1).
#[inline]
pub fn backoff_exponent(collisions: u32) -> u32 {
    collisions.min(BACKOFF_LIMIT)
}

/// Draws the number of slot times to wait after the `collisions`-th collision.
#[inline]
pub fn draw_backoff_slots(rng: &mut SimRng, collisions: u32) -> u64 {
    let range = 1u64 << backoff_exponent(collisions);
    rng.random_range(0..range)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{RngStreams, StreamKind};

    #[test]
    fn test_exponent_truncates_at_ten() {
        assert_eq!(backoff_exponent(1), 1);
        assert_eq!(backoff_exponent(10), 10);
        assert_eq!(backoff_exponent(15), 10);
    }

    /// Chi-square goodness of fit of the draws to the uniform distribution on [0, 2^k).
    fn chi_square(k: u32, draws: usize, seed: u64) -> (f64, usize) {
        let mut rng = RngStreams::new(seed).stream(StreamKind::Backoff, 0);
        let bins = 1usize << k;
        let mut counts = vec![0u64; bins];
        for _ in 0..draws {
            let r = draw_backoff_slots(&mut rng, k) as usize;
            assert!(r < bins, "draw {r} outside [0, {bins})");
            counts[r] += 1;
        }
        let expected = draws as f64 / bins as f64;
        let chi2 = counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum();
        (chi2, bins - 1)
    }

    #[test]
    fn test_backoff_is_uniform_chi_square() {
        // Critical values of chi-square at p = 0.001 for the degrees of freedom used.
        for (k, crit) in [
            (1u32, 10.83),
            (2, 16.27),
            (3, 24.32),
            (5, 61.10),
            (8, 330.52),
            (10, 1173.0),
        ] {
            let draws = 200 * (1usize << k);
            let (chi2, dof) = chi_square(k, draws, 7 + k as u64);
            assert!(chi2 < crit, "k={k}: chi2={chi2:.1} over {dof} dof exceeds {crit}");
            // and not suspiciously perfect (a generator cycling through the range would give
            // ~0); the lower 0.001 quantile is above 0.4 x dof for dof >= 31
            if k >= 5 {
                assert!(
                    chi2 > dof as f64 * 0.4,
                    "k={k}: chi2={chi2:.2} is implausibly small"
                );
            }
        }
    }
}
