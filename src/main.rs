//! The `ethersim` binary: parse the command line, run the subcommand ([`cli`]), print any
//! error chain.
//!
//! Nothing here or in `cli` panics on an unwritable stdout or stderr (`2>/dev/full`):
//! diagnostics go through [`cli::io::note`], which drops what cannot be written, so the
//! exit status is always the intended one (0; 1 for an error; 2 for a usage error, which
//! `cli` ends with itself; 130 or 143 for a signal).

mod cli;

fn main() {
    if let Err(e) = cli::run() {
        cli::io::error(&format!("{e:#}"));
        std::process::exit(1);
    }
}
