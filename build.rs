//! Names the commit the binary was built from, for `ethersim --version`: sets
//! `ETHERSIM_GIT_HASH` to the short hash of HEAD, with `-dirty` when tracked files have
//! changes, when git and a `.git` are at hand, and to nothing otherwise (a build from a
//! tarball or a registry still compiles, and its version names no commit); and
//! `ETHERSIM_VERSION` to the package version followed by ` (HASH)` when there is one.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Watches `path` if it exists (a missing one would rerun this script on every build).
fn watch(path: &str) {
    if Path::new(path).exists() {
        println!("cargo:rerun-if-changed={path}");
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // a changed source is a rebuild anyway; rerunning then keeps `-dirty` current
    println!("cargo:rerun-if-changed=src");
    let hash = if Path::new(".git").exists() {
        // `.git` is a directory in a clone, a file (`gitdir: ...`) in a worktree: ask git
        // where HEAD and its ref live, so a commit or a checkout rebuilds the version
        let mut watched = vec!["HEAD".to_string(), "index".into(), "packed-refs".into()];
        watched.extend(git(&["symbolic-ref", "-q", "HEAD"]));
        for w in watched {
            if let Some(p) = git(&["rev-parse", "--git-path", &w]) {
                watch(&p);
            }
        }
        git(&["rev-parse", "--short", "HEAD"])
            .filter(|h| !h.is_empty())
            .map(|h| {
                let dirty =
                    git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
                if dirty {
                    format!("{h}-dirty")
                } else {
                    h
                }
            })
    } else {
        None
    };
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let version = match &hash {
        Some(h) => format!("{version} ({h})"),
        None => version,
    };
    println!("cargo:rustc-env=ETHERSIM_GIT_HASH={}", hash.unwrap_or_default());
    println!("cargo:rustc-env=ETHERSIM_VERSION={version}");
}
