//! Keys that were renamed when hosts and cards took one shape for every stack: an older
//! key in a host's or a card's table is refused naming the key that replaced it, instead
//! of as an unknown key. A table is told by keys only its kind has (a host's `mips`, a
//! card's `engine` and `transmit_buffers`), since the same
//! profile may sit under several paths (`[hosts.NAME]`, `[hosts.server]`,
//! `[workload.hosts.NAME]`).

use super::error::FieldError;

/// A kind of table, the keys that tell it, its renamed keys (old, new) and what is one.
struct Renames {
    tells: &'static [&'static str],
    keys: &'static [(&'static str, &'static str)],
    shape: &'static str,
}

const RENAMES: [Renames; 2] = [
    Renames {
        tells: &["mips", "memcpy_ns_per_byte", "isa"],
        keys: &[
            ("isa_clock_mhz", "isa.clock_mhz"),
            ("io_recovery_clocks_8bit", "isa.io_recovery_clocks_8bit"),
            ("io_recovery_clocks_16bit", "isa.io_recovery_clocks_16bit"),
            ("cpu", "name"),
        ],
        shape: "a host's keys have one shape for every stack (an ISA bus is `isa = { path = \
                \"at_bus\", clock_mhz = ..., io_recovery_clocks_8bit = ... }`)",
    },
    Renames {
        tells: &["engine", "setup_ns", "transmit_buffers"],
        keys: &[
            ("copy", "engine"),
            ("card_ram_bytes", "ram_bytes"),
            ("driver_queue", "transmit_buffers"),
        ],
        shape: "a card has one shape for every stack (`engine` picks how it moves frames, \
                `ram_bytes` is its buffer memory, `transmit_buffers` the frames its driver \
                queues)",
    },
];

/// The error for `key`, unknown at `path` in a table whose keys are `valid`, when the
/// table is a host's or a card's and `key` is one of its renamed keys.
pub fn renamed(path: &str, key: &str, valid: &[String]) -> Option<FieldError> {
    let has = |k: &str| valid.iter().any(|v| v == k);
    let r = RENAMES.iter().find(|r| r.tells.iter().all(|k| has(k)))?;
    let (_, new) = r.keys.iter().find(|(old, _)| *old == key)?;
    Some(FieldError::invalid(
        path.to_string(),
        format!(
            "renamed: write `{new}` in its place (in the same table); {}",
            r.shape
        ),
    ))
}
