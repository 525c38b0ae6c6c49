//! The `ethersim` binary: parse the command line, run the subcommand, print any error chain.

//!
//! Nothing here or in `commands` panics on an unwritable stdout or stderr (`2>/dev/full`):
//! diagnostics go through [`commands::note`], which drops what cannot be written, so the
//! exit status is always the intended one (0, or 1 for an error).

mod calibrate_cmd;
mod cli;
mod commands;
mod reproduce_cmd;
mod trace_cmd;
mod wire_cmd;

fn main() {
    if let Err(e) = commands::run() {
        commands::note(&format!("error: {e:#}"));
        std::process::exit(1);
    }
}
