//! The command line: parse the arguments ([`args`]), run the subcommand, one file per
//! subcommand, on top of the shared input and output helpers ([`io`]).
//!
//! Every subcommand takes the same three steps: validate every input, compute, then write.
//! The output directory is checked before anything runs, and no output file is replaced
//! until every scenario (every sweep combination) has been validated and every run has
//! finished: files are staged and renamed into place together, so an invalid scenario or a
//! failure leaves the output directory as it was.
//!
//! Dependencies run one way: this file uses the subcommands; a subcommand uses [`args`],
//! [`io`] and the library, never this file nor another subcommand's entry point (the
//! wire views of [`wire`] are shared by `run` and `trace`).

pub mod args;
pub mod calibrate;
pub mod catalogue;
pub mod io;
pub mod keys;
pub mod profiles;
pub mod reproduce;
pub mod run;
pub mod signals;
pub mod study;
pub mod sweep;
pub mod trace;
pub mod validate;
pub mod wire;

use anyhow::{Context, Result};
use clap::{CommandFactory, FromArgMatches};

use self::args::{Cli, Command};
use self::io::{jobs, note, QUIET};

/// Parses the command line and runs the subcommand.
pub fn run() -> Result<()> {
    let colour = if io::no_color_env() {
        clap::ColorChoice::Never
    } else {
        clap::ColorChoice::Auto
    };
    let matches = Cli::command()
        .color(colour)
        .try_get_matches()
        .unwrap_or_else(|e| usage_error(e));
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| usage_error(e));
    QUIET.store(cli.quiet, std::sync::atomic::Ordering::Relaxed);
    signals::install();
    let result = dispatch(cli, &matches);
    for n in ethersim::report::cleanup::take_notices() {
        note(&n);
    }
    if let Err(e) = &result {
        if let Some(u) = e.downcast_ref::<io::UsageError>() {
            note(&format!("error: {u}"));
            std::process::exit(2);
        }
    }
    result
}

/// Runs the subcommand.
fn dispatch(cli: Cli, matches: &clap::ArgMatches) -> Result<()> {
    match cli.command {
        Command::Run(a) => run::run(a),
        Command::Sweep(a) => {
            let m = matches.subcommand_matches("sweep").context("sweep arguments")?;
            if let Err(e) = args::check_sweep(&a, m) {
                io::usage(&e);
            }
            sweep::run(a, m)
        }
        Command::Validate(a) => validate::run(a),
        Command::Figure1(a) => reproduce::run("bulletin", &a.output, &[], &a.shard),
        Command::Ttcp1995(a) => reproduce::run("ttcp1995", &a, &[], &Default::default()),
        Command::Ttcp1985(a) => reproduce::run("ttcp1985", &a, &[], &Default::default()),
        Command::Reproduce(a) => match a.name {
            Some(r) if !a.list => reproduce::run(&r, &a.output, &a.set, &a.shard),
            _ => io::print(&reproduce::list()),
        },
        Command::Trace(a) => trace::run(&a),
        Command::PcapList(a) => wire::pcap_list(&a),
        Command::Keys(a) => keys::run(&a),
        Command::Profiles(a) => profiles::run(&a),
        Command::Migrate(a) => io::print(&ethersim::scenario::nodes::migrate::migrate(&a.file)?),
        Command::Scenarios(a) => catalogue::run(&a),
        Command::Completions(a) => {
            let mut cmd = Cli::command();
            let mut out = Vec::new();
            clap_complete::generate(a.shell, &mut cmd, "ethersim", &mut out);
            io::print(&String::from_utf8_lossy(&out))
        }
        Command::Man => {
            let cmd = Cli::command();
            let mut out = Vec::new();
            clap_mangen::Man::new(cmd.clone())
                .render(&mut out)
                .context("the manual page")?;
            // one section per subcommand after the main page
            for sub in cmd.get_subcommands().filter(|c| !c.is_hide_set()) {
                let name = format!("ethersim-{}", sub.get_name());
                let sub = sub.clone().display_name(name);
                out.push(b'\n');
                clap_mangen::Man::new(sub)
                    .render(&mut out)
                    .context("the manual page")?;
            }
            io::print(&String::from_utf8_lossy(&out))
        }
        Command::Merge(a) => study::merge(&a),
        Command::Calibrate(a) => {
            let j = jobs(a.jobs);
            calibrate::run(a, j)
        }
    }
}

/// A command line clap refuses: its message (which quotes the bad argument) goes through
/// [`io::error`] (escaped, its label coloured on a terminal); `--help` and `--version`
/// print to stdout as usual.
fn usage_error(e: clap::Error) -> ! {
    if !e.use_stderr() {
        e.exit();
    }
    let text = e.to_string();
    let text = text.trim_end();
    match text.strip_prefix("error: ") {
        Some(rest) => io::error(rest),
        None => note(text),
    }
    std::process::exit(e.exit_code());
}
