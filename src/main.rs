//! The `ethersim` binary: parse the command line, run the subcommand, print any error chain.

mod calibrate_cmd;
mod cli;
mod commands;

fn main() {
    if let Err(e) = commands::run() {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}
