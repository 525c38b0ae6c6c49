//! `ethersim run SCENARIO`: one run, printed in the chosen format, optionally written to
//! `--out` and watched by the wire views (`--pcap`, `--events`). A run that did not do
//! its work (a ttcp transfer that did not finish) is still printed and written, then
//! fails the command with the reason ([`run::output::RunOutput::unfinished`]).

use anyhow::{bail, Result};

use super::args::{FormatArg, RunArgs};
use super::io::{check_out_dir, load, print, wrote};
use ethersim::report::atomic::Staged;
use ethersim::report::{self, Format};
use ethersim::run;

/// Runs `ethersim run`.
pub fn run(a: RunArgs) -> Result<()> {
    let s = load(&a.scenario)?;
    if let Some(dir) = &a.out {
        check_out_dir(dir)?;
    }
    let format = match a.format {
        FormatArg::Table if a.wide => Format::WideTable,
        FormatArg::Table => Format::Table,
        FormatArg::Csv => Format::Csv,
        FormatArg::Json => Format::Json,
    };
    let out = if a.pcap.is_some() || a.events.is_some() {
        let (out, files) =
            super::wire::run_with_views(&s, a.pcap.as_deref(), a.pcap_window, a.events.as_deref())?;
        wrote(&files);
        out
    } else {
        run::run(&s)
    };
    let exporter = report::exporter(format);
    let text = exporter.render(&out)?;
    if let Some(dir) = &a.out {
        let mut staged = Staged::new(dir);
        staged.write(&format!("run.{}", exporter.extension()), text.as_bytes())?;
        wrote(&staged.commit()?);
    }
    print(&text)?;
    if a.explain {
        print("\n")?;
        // the default view already holds the PERFORM3 table: add only the narrative
        if format == Format::Table {
            print(&report::explain::narrative(&out))?;
        } else {
            print(&report::explain::run(&out))?;
        }
    }
    if let Some(why) = out.unfinished() {
        bail!("{why}");
    }
    Ok(())
}
