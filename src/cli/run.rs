//! `ethersim run SCENARIO`: one run, printed in the chosen format, optionally written to
//! `--out` and watched by the wire views (`--pcap`, `--events`). A run that did not do
//! its work (a ttcp transfer that did not finish) is still printed and written, then
//! fails the command with the reason ([`run::output::RunOutput::unfinished`]).

use anyhow::{bail, Result};

use super::args::{FormatArg, RunArgs};
use std::path::{Path, PathBuf};

use super::io::{check_out_dir, load, note, print, warning, wrote};
use ethersim::report::atomic::Staged;
use ethersim::report::target;
use ethersim::report::{self, Format};
use ethersim::run;

/// Runs `ethersim run`.
pub fn run(a: RunArgs) -> Result<()> {
    if a.wide && a.format != FormatArg::Table {
        let f = format!("{:?}", a.format).to_lowercase();
        super::io::usage(&format!(
            "--wide applies to the table format only, not to --format {f} (which holds every \
             figure already); drop --wide, or use --format table"
        ));
    }
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
    // every output a different file, none of them an input, before anything runs
    let run_file = a
        .out
        .as_ref()
        .map(|d| d.join(format!("run.{}", report::exporter(format).extension())));
    let mut outputs: Vec<(&str, &Path)> = Vec::new();
    if let Some(p) = &a.pcap {
        outputs.push(("--pcap", p));
    }
    if let Some(e) = &a.events {
        outputs.push(("--events", e));
    }
    if let Some(f) = &run_file {
        outputs.push(("--out", f));
    }
    let mut inputs: Vec<&Path> = vec![&s.path];
    inputs.extend(s.files.iter().map(PathBuf::as_path));
    target::check_distinct(&outputs, &inputs)?;
    let stdout_taken = outputs.iter().any(|(_, p)| p.as_os_str() == "-");
    let out = if a.pcap.is_some() || a.events.is_some() {
        let (out, files) =
            super::wire::run_with_views(&s, a.pcap.as_deref(), a.pcap_window, a.events.as_deref())?;
        wrote(&files);
        out
    } else {
        run::run(&s)
    };
    if let Some(c) = out.caveat() {
        warning(&c);
    }
    let exporter = report::exporter(format);
    let text = exporter.render(&out)?;
    if let Some(dir) = &a.out {
        let mut staged = Staged::new(dir);
        staged.write(&format!("run.{}", exporter.extension()), text.as_bytes())?;
        wrote(&staged.commit()?);
    }
    // a capture or log on standard output keeps it to itself: the text goes to stderr
    let show = |t: &str| {
        if stdout_taken {
            note(t.trim_end());
            Ok(())
        } else {
            print(t)
        }
    };
    show(&text)?;
    if a.explain {
        show("\n")?;
        // the default view already holds the PERFORM3 table: add only the narrative
        if format == Format::Table {
            show(&report::explain::narrative(&out))?;
        } else {
            show(&report::explain::run(&out))?;
        }
    }
    if let Some(why) = out.unfinished() {
        bail!("{why}");
    }
    Ok(())
}
