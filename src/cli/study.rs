//! `--list-runs`, `--run-index I` (of `sweep`, `reproduce`, `figure1` and `calibrate
//! --cross-validate`) and `ethersim merge DIR`: the command line of [`ethersim::study`],
//! which owns the run list, the run files and the merge; this file prints and commits.

use std::path::Path;

use anyhow::{bail, Result};

use super::args::{MergeArgs, ShardArgs};
use super::io::{check_out_dir, note, print, wrote, UsageError};
use ethersim::report::atomic::Staged;
use ethersim::study::{self, merge, Done, Study, StudyError};

/// Lists the study's runs, or runs `--run-index` into `out`.
pub(crate) fn list_or_run(study: &dyn Study, shard: &ShardArgs, out: &Path) -> Result<()> {
    if shard.list_runs {
        return print(&study::list(study));
    }
    let Some(i) = shard.run_index else {
        return Ok(());
    };
    if let Err(e @ StudyError::OutOfRange { .. }) = study::check_index(study, i) {
        return Err(UsageError(e.to_string()).into());
    }
    check_out_dir(out)?;
    match study::run_index(study, out, i)? {
        Done::Ran { path, replaced } => {
            if let Some(why) = replaced {
                note(&format!("replaced {}: {why}", path.display()));
            }
            wrote(&[path]);
        }
        Done::AlreadyComplete(path) => note(&format!(
            "run {i} is already complete in {}: nothing to do",
            path.display()
        )),
    }
    Ok(())
}

/// Runs `ethersim merge DIR`.
pub fn merge(a: &MergeArgs) -> Result<()> {
    check_out_dir(&a.dir)?;
    let collected = merge::collect(&a.dir)?;
    let mut staged = Staged::new(&a.dir);
    let merged = study::finish(&collected, &mut staged)?;
    let files = staged.commit()?;
    print(&merged.table)?;
    wrote(&files);
    if let Some(why) = merged.unfinished {
        bail!(why);
    }
    Ok(())
}
