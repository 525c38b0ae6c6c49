//! Top-level keys of a scenario file: its name, its seed and the hardware file it includes.

use super::{Param, Section};

pub const SECTION: Section = Section {
    title: "Top level",
    about: "Keys before the first table.",
    params: PARAMS,
};

const PARAMS: &[Param] = &[
    Param::text(
        "name",
        "1..=128 printable characters (engineering bound: one line of a report header)",
    )
    .default("the file name without .toml")
    .label("Scenario")
    .means("Name printed in results."),
    Param::int(
        "seed",
        (0, "the seed is unsigned; --seed takes the full u64 range"),
        (i64::MAX, "TOML integers are 64-bit signed"),
    )
    .default("1")
    .label("Seed")
    .means("The one seed of the run; every random stream (backoff, jitter, fault injection) is derived from it."),
    Param::text(
        "hardware",
        "a file path relative to the scenario file; one level of include",
    )
    .default("none")
    .label("Hardware file")
    .means("A shared hardware description whose tables are merged under the scenario's own (the scenario wins key by key)."),
];
