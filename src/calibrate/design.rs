//! Where the searches of a fit start: the middle of the bounds, and a seeded Latin-hypercube
//! design of `design_starts` further points.
//!
//! The design is a pure function of (`design_seed`, the number of continuous constants, the
//! number of points): it never reads a measurement, a scenario or the hardware file's
//! current values, so a fold of cross-validation (the same constants, hence the same
//! dimensions) searches from exactly the starts the full fit does, and no start can carry
//! what the held-out curve says.
//!
//! Points are in search coordinates, `[0, 1)` in each dimension (a constant's bounds scaled
//! to the unit interval). In a Latin hypercube of `n` points each dimension is cut into `n`
//! equal strata and holds exactly one point in each: point `k` of dimension `j` lies in
//! stratum `perm_j(k)`, at a uniform position inside it. The permutations and positions are
//! drawn from Xoshiro256++ seeded with `design_seed` ([`crate::engine::SimRng`]), through
//! plain integer arithmetic on its 64-bit outputs, so the same seed gives the same design
//! on any machine and any version of `rand`.
//!
//! Discrete constants are not part of the design: every search starts them at their middle
//! choice, and every search tries each of their other choices in its rounds.

use rand::{Rng, SeedableRng};

use crate::engine::SimRng;

/// Most design starts a file may ask for (`design_starts`).
pub const MAX_DESIGN_STARTS: u32 = 64;
/// The `design_seed` of a file that gives none.
pub const DEFAULT_DESIGN_SEED: u64 = 1;

/// Where one search of a fit starts. The fit keeps the lowest objective its searches reach
/// (the earlier search on a tie); each search has the whole `max_evaluations`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SearchStart {
    /// The middle of every continuous constant's bounds, every discrete one's middle
    /// choice. Always the first search.
    Middle,
    /// Point `k` (1-based) of the seeded Latin-hypercube design, discrete constants at
    /// their middle choice.
    Design(u32),
}

impl SearchStart {
    /// "middle", "design 3".
    pub fn name(self) -> String {
        match self {
            SearchStart::Middle => "middle".into(),
            SearchStart::Design(k) => format!("design {k}"),
        }
    }

    /// The searches of a fit with `design_starts` design points: the middle, then each
    /// design point in order.
    pub fn all(design_starts: u32) -> Vec<SearchStart> {
        std::iter::once(SearchStart::Middle)
            .chain((1..=design_starts).map(SearchStart::Design))
            .collect()
    }
}

impl std::fmt::Display for SearchStart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

/// A uniform draw in `[0, 1)` from the top 53 bits of one output.
fn unit(rng: &mut SimRng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// A uniform index in `0..n` (n >= 1), by rejection so that no index is favoured.
fn index(rng: &mut SimRng, n: u64) -> u64 {
    let zone = u64::MAX - u64::MAX % n;
    loop {
        let x = rng.next_u64();
        if x < zone {
            return x % n;
        }
    }
}

/// The Latin-hypercube design of `points` points in `dims` dimensions drawn from `seed`:
/// `points` rows of `dims` coordinates, each in `[0, 1)`. Each dimension's permutation
/// (Fisher-Yates) is drawn, then each point's position inside its stratum, dimension by
/// dimension.
pub fn latin_hypercube(seed: u64, dims: usize, points: u32) -> Vec<Vec<f64>> {
    let n = points as usize;
    let mut rng = SimRng::seed_from_u64(seed);
    let mut design = vec![vec![0.0; dims]; n];
    for j in 0..dims {
        let mut perm: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            perm.swap(i, index(&mut rng, i as u64 + 1) as usize);
        }
        for (k, row) in design.iter_mut().enumerate() {
            // inside its stratum, and below 1 even where rounding would reach it
            let x = (perm[k] as f64 + unit(&mut rng)) / n as f64;
            row[j] = x.min(1.0 - f64::EPSILON);
        }
    }
    design
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_latin_hypercube_one_point_in_each_stratum() {
        for (dims, n) in [(1, 1), (2, 3), (9, 3), (4, 17), (3, 64)] {
            let d = latin_hypercube(7, dims, n);
            assert_eq!(d.len(), n as usize);
            for j in 0..dims {
                let mut strata: Vec<usize> = d
                    .iter()
                    .map(|row| {
                        assert!((0.0..1.0).contains(&row[j]), "{}", row[j]);
                        (row[j] * n as f64).floor() as usize
                    })
                    .collect();
                strata.sort_unstable();
                assert_eq!(
                    strata,
                    (0..n as usize).collect::<Vec<_>>(),
                    "dims {dims}, n {n}, dim {j}"
                );
            }
        }
    }

    #[test]
    fn test_latin_hypercube_is_a_function_of_its_seed() {
        assert_eq!(latin_hypercube(1, 5, 8), latin_hypercube(1, 5, 8));
        assert_ne!(latin_hypercube(1, 5, 8), latin_hypercube(2, 5, 8));
        assert!(latin_hypercube(1, 5, 0).is_empty());
        assert!(latin_hypercube(1, 0, 3).iter().all(|r| r.is_empty()));
    }

    #[test]
    fn test_latin_hypercube_values_are_portable() {
        // Golden values: Xoshiro256++ is specified and the arithmetic is integer, so the
        // shipped calibrations search from these starts on every machine. If they change,
        // every fit with design starts changes with them.
        let d = latin_hypercube(DEFAULT_DESIGN_SEED, 2, 3);
        let got: Vec<String> = d.iter().flatten().map(|x| format!("{x:.6}")).collect();
        assert_eq!(got, GOLDEN, "{d:?}");
    }
    const GOLDEN: [&str; 6] = [
        "0.033384", "0.174472", "0.582072", "0.365534", "0.728226", "0.711431",
    ];

    #[test]
    fn test_search_start_names() {
        assert_eq!(
            SearchStart::all(2).iter().map(|s| s.name()).collect::<Vec<_>>(),
            ["middle", "design 1", "design 2"]
        );
        assert_eq!(SearchStart::all(0), [SearchStart::Middle]);
    }
}
