//! Keys of `[medium]`: the cable of the segment. Units: Mb/s, metres, fractions of c.
//!
//! The round-trip rule that ties `length_m`, `velocity_factor` and `bit_rate_mbps`
//! together (at most one slot time, 802.3 4.4.2) is checked by `scenario::medium`.

use super::{Param, Section};

pub const SECTION: Section = Section {
    title: "[medium]",
    about: "The cable of the segment. Every key has a default (a 185 m thin-coax 10 Mb/s \
            segment), so the section may be left out. The round trip over the whole segment \
            (2 x length_m / (velocity_factor x c)) must fit in one slot time, 512 bit times \
            (802.3 4.4.2).",
    params: PARAMS,
};

const PARAMS: &[Param] = &[
    Param::real(
        "medium.bit_rate_mbps",
        (1.0, "802.3 clause 12 (1BASE5, StarLAN), the slowest CSMA/CD LAN"),
        (1000.0, "802.3 clause 34 (1000 Mb/s), a bit time of 1 ns"),
    )
    .unit("Mb/s")
    .default("10")
    .label("Bit rate (Mb/s)")
    .means("Bit rate of the segment; 1000/bit_rate_mbps must be a whole number of ns (the bit time)."),
    Param::real(
        "medium.velocity_factor",
        (0.4, "engineering bound: about the slowest real cable (some twisted pair); REFERENCE.md: thin coax 0.65, thick 0.77"),
        (0.99, "engineering bound: air-dielectric line, about the fastest real cable"),
    )
    .default("0.65 (thin coax, 10BASE2)")
    .label("Velocity factor")
    .means("Signal speed in the cable as a fraction of the speed of light."),
    Param::real_above(
        "medium.length_m",
        (0.0, "a segment has a length"),
        (2500.0, "802.3 10 Mb/s collision domain (five segments, four repeaters)"),
    )
    .unit("m")
    .default("185 (one 10BASE2 segment)")
    .label("Cable length (m)")
    .means("Length of the segment; stations are spaced evenly over it unless positions_m is given."),
    Param::real(
        "medium.positions_m",
        (0.0, "one end of the segment"),
        (2500.0, "medium.length_m (the other end)"),
    )
    .unit("m")
    .list()
    .default("evenly spaced from 0 to length_m")
    .label("Station position (m)")
    .means("Explicit station positions, metres from one end, one per station of the workload."),
    Param::flag("medium.allow_oversize")
        .default("false")
        .label("Oversize frames allowed")
        .means("Allow frames longer than the 802.3 maximum of 1518 bytes, up to 4318 (the AEX driver's PACKET_SIZE of 4300)."),
    Param::real(
        "medium.corrupt_fraction",
        (0.0, "a fraction"),
        (1.0, "a fraction"),
    )
    .default("0")
    .label("Frames damaged on the wire (fraction)")
    .means("Fault injection: the fraction of otherwise intact frames damaged on the wire (dropped by the FCS check)."),
];
