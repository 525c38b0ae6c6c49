//! SIGINT and SIGTERM: every command ends with its own exit code (130, 143) and leaves each
//! output complete or untouched, with no temporaries.
//!
//! [`install`] starts a thread that waits for either signal. By default it removes every
//! temporary the process tracks (`ethersim::report::cleanup`: staging directories, locks,
//! half-written captures; a commit in progress finishes first), says so on stderr and
//! exits with 128 + the signal's number. A command that can stop early with a useful
//! result (a calibration's search) calls [`graceful`] first: the first signal then only
//! sets its stop flag and is remembered ([`interrupted`]); the command finishes what it
//! can, must not write anything in place, and exits with [`exit_code`]. A second signal
//! ends it at once, as by default.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use super::io::note;

/// The signal received, or 0.
static RECEIVED: AtomicI32 = AtomicI32::new(0);
/// The stop flag of a command that stops gracefully, if one asked.
static GRACEFUL: std::sync::OnceLock<&'static AtomicBool> = std::sync::OnceLock::new();
/// Set while a graceful command wants the first signal for itself.
static GRACEFUL_ON: AtomicBool = AtomicBool::new(false);

/// Starts the signal thread (once per process; later calls do nothing).
pub fn install() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let Ok(mut signals) = Signals::new([SIGINT, SIGTERM]) else {
            return; // the default action (ending the process) stays in force
        };
        std::thread::spawn(move || {
            for sig in signals.forever() {
                let first = RECEIVED.swap(sig, Ordering::SeqCst) == 0;
                if first && GRACEFUL_ON.load(Ordering::SeqCst) {
                    if let Some(stop) = GRACEFUL.get() {
                        stop.store(true, Ordering::SeqCst);
                        note(&format!(
                            "{}: stopping after the current evaluation (again to stop at once)",
                            name(sig)
                        ));
                        continue;
                    }
                }
                let removed = ethersim::report::cleanup::clean_up();
                let what = if removed == 0 {
                    String::new()
                } else {
                    format!("; removed {removed} temporary file(s) and folder(s)")
                };
                note(&format!(
                    "{}: stopped, no output written or replaced{what}",
                    name(sig)
                ));
                std::process::exit(128 + sig);
            }
        });
    });
}

fn name(sig: i32) -> &'static str {
    if sig == SIGTERM {
        "SIGTERM"
    } else {
        "interrupted (SIGINT)"
    }
}

/// From now on the first signal sets `stop` instead of ending the process.
pub fn graceful(stop: &'static AtomicBool) {
    let _ = GRACEFUL.set(stop);
    GRACEFUL_ON.store(true, Ordering::SeqCst);
}

/// The signal received so far, if any.
pub fn interrupted() -> Option<i32> {
    match RECEIVED.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// The exit code for a command ended by `sig`.
pub fn exit_code(sig: i32) -> i32 {
    128 + sig
}
