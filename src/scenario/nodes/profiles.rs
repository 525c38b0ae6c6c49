//! Named profiles of hosts, adapters and stacks: the catalogue a scenario of nodes and
//! applications draws its hardware from.
//!
//! A profile is a table under `[hosts.NAME]`, `[adapters.NAME]` or `[stacks.NAME]`, in
//! the scenario itself or in a file it includes (`include = ["..."]`, relative to the
//! including file; an included file may include others). Its keys are the keys of the
//! section it stands for (a host's, a card's, a stack's), and three more:
//! - `extends = "OTHER"`: start from another profile of the same kind;
//! - `from = "FILE#TABLE"`: start from a table of another file (relative to this one), such
//!   as a reproduction's hardware file, so a fitted constant lives in one place; any table
//!   inside a profile may have its own `from`;
//! - for a stack, `family` (`"lantastic"` or `"tcpip"`) and, for LANtastic, `role`
//!   (`"server"` or `"workstation"`): what nodes running it can do.
//!
//! The profile's own keys win over what it extends or takes `from`. A profile the scenario
//! defines under a name a catalogue file already gives changes that profile's keys (the
//! scenario's win); two included files giving one name is an error, as is a file that
//! includes itself or a profile that extends itself (directly or through others).
//!
//! Every profile remembers where its keys were written, so an error in a value is located
//! in the file and at the line that wrote it.

use super::super::lexical;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::super::de;
use super::super::error::{Location, Problem, ScenarioError};
use super::super::merge::merge_under;
use super::super::source::{parse_path, Source};

/// The kinds of profile, by their top-level table.
pub const KINDS: [&str; 3] = ["hosts", "adapters", "stacks"];

/// Most files one scenario may include, all levels together (engineering bound).
pub const MAX_FILES: usize = 64;

/// Where the keys of a profile (or of a table in it) were written: a file and the table's
/// path in it, the first place that has a key being the one that wrote it.
#[derive(Clone, Debug)]
pub struct Origin {
    pub file: usize,
    pub table: String,
    /// The part of the profile it wrote: "" for the whole, else a table in it ("costs").
    pub within: String,
}

impl Origin {
    /// The path in its file of key `rel` of the profile (a path inside the profile), if
    /// this origin wrote that part of it.
    pub fn path_of(&self, rel: &str) -> Option<String> {
        let inside = if self.within.is_empty() {
            rel
        } else {
            rel.strip_prefix(self.within.as_str())?.strip_prefix('.')?
        };
        Some(format!("{}.{inside}", self.table))
    }
}

/// A profile, resolved: its keys, and where they were written (most specific first).
#[derive(Clone, Debug)]
pub struct Profile {
    pub kind: &'static str,
    pub name: String,
    pub table: toml::Table,
    pub origins: Vec<Origin>,
}

/// The files read and the profiles they define.
pub struct Catalogue<'g> {
    /// Every file read: the scenario first, then includes and `from` files.
    pub files: Vec<Source>,
    /// Files standing for paths (the scenario catalogue embedded in the binary, or a
    /// calibration's trial hardware file): a file whose lexical path is one of theirs is
    /// taken from them, not read from disk.
    given: &'g [Source],
    /// (kind, name) -> (file, table as written).
    defined: BTreeMap<(&'static str, String), Vec<(usize, toml::Table)>>,
}

/// A located error about `key` (a path in `file`'s own text).
pub fn error_at(files: &[Source], file: usize, key: &str, problem: Problem) -> ScenarioError {
    ScenarioError::Field {
        at: locate(&files[file], key),
        key: key.to_string(),
        problem: Box::new(problem),
    }
}

/// Where `key` is written in `src` (its deepest written part).
pub fn locate(src: &Source, key: &str) -> Location {
    match src.find(&parse_path(key)) {
        Some((depth, offset)) if depth > 0 => src.location(offset),
        _ => Location::FileOnly {
            path: src.path.clone(),
        },
    }
}

fn invalid(message: impl Into<String>) -> Problem {
    Problem::Invalid {
        message: message.into(),
    }
}

fn dir_of(src: &Source) -> PathBuf {
    src.path.parent().map(Path::to_path_buf).unwrap_or_default()
}

impl<'g> Catalogue<'g> {
    /// Reads the scenario's includes (recursively) and registers every profile; `doc` is
    /// the scenario's own document (with overrides applied).
    /// `given` stand for files ([`Catalogue::given`]).
    pub fn read(
        scenario: &Source,
        doc: &toml::Table,
        given: &'g [Source],
    ) -> Result<Catalogue<'g>, ScenarioError> {
        let mut cat = Catalogue {
            files: vec![scenario.clone()],
            given,
            defined: BTreeMap::new(),
        };
        let mut chain = vec![lexical(&scenario.path)];
        cat.read_includes(0, doc, &mut chain)?;
        cat.register(0, doc)?;
        Ok(cat)
    }

    /// The file at `path`: a given one if its lexical path is theirs, else the file on
    /// disk, else `None`.
    fn open(&self, path: &Path) -> Result<Option<Source>, ScenarioError> {
        let want = lexical(path);
        if let Some(g) = self.given.iter().find(|g| lexical(&g.path) == want) {
            return Ok(Some(g.clone()));
        }
        if !path.is_file() {
            return Ok(None);
        }
        // read as the system resolves it (a `..` after a symlinked folder climbs from
        // where the link points), named by the shorter lexical path when that is the file
        let same = |a: &Path, b: &Path| matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y);
        if same(&want, path) {
            Source::read(&want).map(Some)
        } else {
            Source::read(path).map(Some)
        }
    }

    fn read_includes(
        &mut self,
        file: usize,
        doc: &toml::Table,
        chain: &mut Vec<PathBuf>,
    ) -> Result<(), ScenarioError> {
        let Some(list) = doc.get("include") else {
            return Ok(());
        };
        let Some(list) = list.as_array() else {
            return Err(error_at(
                &self.files,
                file,
                "include",
                Problem::WrongType {
                    message: format!("invalid type: {}, expected a list of file paths", list.type_str()),
                },
            ));
        };
        for (i, v) in list.iter().enumerate() {
            let key = format!("include[{i}]");
            let Some(rel) = v.as_str() else {
                return Err(error_at(
                    &self.files,
                    file,
                    &key,
                    Problem::WrongType {
                        message: format!("invalid type: {}, expected a file path", v.type_str()),
                    },
                ));
            };
            let path = dir_of(&self.files[file]).join(rel);
            let want = lexical(&path);
            if let Some(k) = chain.iter().position(|p| *p == want) {
                let cycle: Vec<String> = chain[k..]
                    .iter()
                    .chain(std::iter::once(&want))
                    .map(|p| p.display().to_string())
                    .collect();
                return Err(error_at(
                    &self.files,
                    file,
                    &key,
                    invalid(format!("a profile file includes itself: {}", cycle.join(" -> "))),
                ));
            }
            if self.files.len() >= MAX_FILES {
                return Err(error_at(
                    &self.files,
                    file,
                    &key,
                    invalid(format!("more than {MAX_FILES} files included in all")),
                ));
            }
            let Some(src) = self.open(&path)? else {
                let rule = super::super::include_rule(
                    &self.files[file],
                    "copy the profile files beside the scenario, or export the scenario with them",
                );
                return Err(error_at(
                    &self.files,
                    file,
                    &key,
                    invalid(format!("{} is not a readable file ({rule})", path.display())),
                ));
            };
            let sub = src.parse()?;
            for k in sub.keys() {
                if k != "include" && !KINDS.contains(&k.as_str()) {
                    let valid: Vec<String> = std::iter::once("include".to_string())
                        .chain(KINDS.iter().map(|s| s.to_string()))
                        .collect();
                    let src_files = [src.clone()];
                    return Err(error_at(
                        &src_files,
                        0,
                        k,
                        Problem::UnknownKey {
                            suggestions: de::nearest(k, &valid),
                            valid,
                        },
                    ));
                }
            }
            self.files.push(src);
            let me = self.files.len() - 1;
            chain.push(want);
            self.read_includes(me, &sub, chain)?;
            chain.pop();
            self.register(me, &sub)?;
        }
        Ok(())
    }

    /// Registers the profiles of file `file` (document `doc`).
    fn register(&mut self, file: usize, doc: &toml::Table) -> Result<(), ScenarioError> {
        for kind in KINDS {
            let Some(v) = doc.get(kind) else { continue };
            let Some(t) = v.as_table() else {
                return Err(error_at(
                    &self.files,
                    file,
                    kind,
                    Problem::WrongType {
                        message: format!(
                            "invalid type: {}, expected a table of named profiles",
                            v.type_str()
                        ),
                    },
                ));
            };
            for (name, p) in t {
                if name.is_empty() || name.contains(['.', '[', ']', '"']) {
                    return Err(error_at(
                        &self.files,
                        file,
                        kind,
                        invalid(format!(
                            "profile name {name:?}: a name is letters, digits, `-` and `_` (no \
                             dots: write linux-1-2, not linux-1.2)"
                        )),
                    ));
                }
                let Some(p) = p.as_table() else {
                    return Err(error_at(
                        &self.files,
                        file,
                        &format!("{kind}.{name}"),
                        Problem::WrongType {
                            message: format!("invalid type: {}, expected a profile (a table)", p.type_str()),
                        },
                    ));
                };
                let entry = self.defined.entry((kind, name.clone())).or_default();
                if let Some((other, _)) = entry.first() {
                    // the scenario (file 0, registered last) may change a catalogue profile
                    if file != 0 {
                        let there = locate(&self.files[*other], &format!("{kind}.{name}"));
                        return Err(error_at(
                            &self.files,
                            file,
                            &format!("{kind}.{name}"),
                            invalid(format!("profile {name:?} is also defined at {there}")),
                        ));
                    }
                }
                entry.push((file, p.clone()));
            }
        }
        Ok(())
    }

    /// The names of the profiles of `kind`.
    pub fn names(&self, kind: &str) -> Vec<String> {
        self.defined
            .keys()
            .filter(|(k, _)| *k == kind)
            .map(|(_, n)| n.clone())
            .collect()
    }

    /// Resolves profile `name` of `kind`; an unknown name is an error at `key` of file
    /// `file` (the key that named it), with the nearest names.
    pub fn resolve(
        &mut self,
        kind: &'static str,
        name: &str,
        file: usize,
        key: &str,
    ) -> Result<Profile, ScenarioError> {
        let mut seen = Vec::new();
        self.resolve_inner(kind, name, file, key, &mut seen)
    }

    fn resolve_inner(
        &mut self,
        kind: &'static str,
        name: &str,
        file: usize,
        key: &str,
        seen: &mut Vec<String>,
    ) -> Result<Profile, ScenarioError> {
        let Some(defs) = self.defined.get(&(kind, name.to_string())).cloned() else {
            let valid = self.names(kind);
            return Err(error_at(
                &self.files,
                file,
                key,
                Problem::UnknownVariant {
                    value: name.to_string(),
                    suggestions: de::nearest(name, &valid),
                    valid,
                },
            ));
        };
        if seen.iter().any(|s| s == name) {
            let (f, _) = defs[0];
            let mut cycle = seen.clone();
            cycle.push(name.to_string());
            return Err(error_at(
                &self.files,
                f,
                &format!("{kind}.{name}.extends"),
                invalid(format!("profile {name:?} extends itself: {}", cycle.join(" -> "))),
            ));
        }
        seen.push(name.to_string());
        // the catalogue's definition first, the scenario's changes over it
        let mut table = toml::Table::new();
        let mut origins = Vec::new();
        for (f, own) in defs.iter().rev() {
            origins.push(Origin {
                file: *f,
                table: format!("{kind}.{name}"),
                within: String::new(),
            });
            let mut own = own.clone();
            let here = format!("{kind}.{name}");
            self.take_from(&mut own, *f, &here, "", &mut origins)?;
            merge_under(&mut table, own);
        }
        if let Some(base) = table.remove("extends") {
            let Some(base) = base.as_str().map(str::to_owned) else {
                let (f, _) = defs[defs.len() - 1];
                return Err(error_at(
                    &self.files,
                    f,
                    &format!("{kind}.{name}.extends"),
                    Problem::WrongType {
                        message: "expected the name of a profile".into(),
                    },
                ));
            };
            let (f, _) = defs[defs.len() - 1];
            let parent = self.resolve_inner(kind, &base, f, &format!("{kind}.{name}.extends"), seen)?;
            merge_under(&mut table, parent.table);
            origins.extend(parent.origins);
        }
        seen.pop();
        Ok(Profile {
            kind,
            name: name.to_string(),
            table,
            origins,
        })
    }

    /// Replaces a `from = "FILE#TABLE"` in `t` (a table at `here` of file `file`) and in
    /// every table inside it by the table it names, `t`'s own keys winning.
    fn take_from(
        &mut self,
        t: &mut toml::Table,
        file: usize,
        here: &str,
        within: &str,
        origins: &mut Vec<Origin>,
    ) -> Result<(), ScenarioError> {
        let subs: Vec<String> = t
            .iter()
            .filter(|(_, v)| v.is_table())
            .map(|(k, _)| k.clone())
            .collect();
        for k in subs {
            if let Some(toml::Value::Table(sub)) = t.get_mut(&k) {
                let mut sub = std::mem::take(sub);
                let inner = if within.is_empty() {
                    k.clone()
                } else {
                    format!("{within}.{k}")
                };
                self.take_from(&mut sub, file, &format!("{here}.{k}"), &inner, origins)?;
                t.insert(k, toml::Value::Table(sub));
            }
        }
        let Some(from) = t.remove("from") else {
            return Ok(());
        };
        let key = format!("{here}.from");
        let Some(spec) = from.as_str() else {
            return Err(error_at(
                &self.files,
                file,
                &key,
                Problem::WrongType {
                    message: "expected \"FILE#TABLE\"".into(),
                },
            ));
        };
        let Some((rel, table)) = spec.split_once('#') else {
            return Err(error_at(
                &self.files,
                file,
                &key,
                invalid(format!(
                    "{spec:?} names no table: write \"FILE#TABLE\", e.g. \"hw.toml#hosts.server\""
                )),
            ));
        };
        let path = dir_of(&self.files[file]).join(rel);
        let want = lexical(&path);
        let known = self.files.iter().position(|s| lexical(&s.path) == want);
        let src_index = match known {
            Some(i) => i,
            None => {
                let Some(src) = self.open(&path)? else {
                    return Err(error_at(
                        &self.files,
                        file,
                        &key,
                        invalid(format!(
                            "{} is not a readable file (a `from` file is resolved relative to \
                             the folder of the file that names it)",
                            path.display()
                        )),
                    ));
                };
                if self.files.len() >= MAX_FILES {
                    return Err(error_at(
                        &self.files,
                        file,
                        &key,
                        invalid(format!("more than {MAX_FILES} files read in all")),
                    ));
                }
                self.files.push(src);
                self.files.len() - 1
            }
        };
        let doc = self.files[src_index].parse()?;
        let mut node: Option<&toml::Value> = None;
        let mut cur = &doc;
        for part in table.split('.') {
            node = cur.get(part);
            match node {
                Some(toml::Value::Table(t)) => cur = t,
                _ => break,
            }
        }
        let Some(toml::Value::Table(base)) = node else {
            return Err(error_at(
                &self.files,
                file,
                &key,
                invalid(format!("{} has no table [{table}]", path.display())),
            ));
        };
        // a `from` table's own includes are not followed: it is read as written
        let mut base = base.clone();
        base.remove("hardware");
        origins.push(Origin {
            file: src_index,
            table: table.to_string(),
            within: within.to_string(),
        });
        merge_under(t, base);
        Ok(())
    }
}

impl Profile {
    /// Where key `rel` of this profile (a path inside it, "mips" or "costs.segment_kinstr")
    /// was written: the first origin whose file has it, else where the profile is defined.
    pub fn locate(&self, files: &[Source], rel: &str) -> Location {
        for o in &self.origins {
            let Some(full) = o.path_of(rel) else { continue };
            let steps = parse_path(&full);
            if let Some((depth, offset)) = files[o.file].find(&steps) {
                if depth == steps.len() {
                    return files[o.file].location(offset);
                }
            }
        }
        match self.origins.first() {
            Some(o) => locate(&files[o.file], &o.table),
            None => Location::FileOnly {
                path: files[0].path.clone(),
            },
        }
    }
}

/// One line of a catalogue's listing.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub kind: &'static str,
    pub name: String,
    /// What it is, from its keys: a host's CPU and MIPS, a card's name and bus width, a
    /// stack's family, role and name.
    pub about: String,
    /// Where it is defined (file and line).
    pub defined_at: String,
}

/// The profiles of the catalogue (or scenario) at `path` and of the files it includes,
/// resolved, by kind and name.
pub fn list(path: &Path) -> Result<Vec<Summary>, ScenarioError> {
    list_source(&Source::read(path)?, &[])
}

/// As [`list`], from a source already read, with `given` standing for the files it
/// includes and takes profiles `from` ([`Catalogue::read`]).
pub fn list_source(src: &Source, given: &[Source]) -> Result<Vec<Summary>, ScenarioError> {
    let src = src.clone();
    let doc = src.parse()?;
    let mut cat = Catalogue::read(&src, &doc, given)?;
    let mut out = Vec::new();
    for kind in KINDS {
        for name in cat.names(kind) {
            let p = cat.resolve(kind, &name, 0, kind)?;
            let t = &p.table;
            let text = |k: &str| t.get(k).and_then(toml::Value::as_str).map(str::to_owned);
            let num = |k: &str| {
                t.get(k)
                    .and_then(|v| v.as_float().or_else(|| v.as_integer().map(|i| i as f64)))
            };
            let about = match kind {
                "hosts" => {
                    let what = text("name").unwrap_or_default();
                    match num("mips") {
                        Some(m) => format!("{what}, {m} MIPS"),
                        None => what,
                    }
                }
                "adapters" => {
                    let what = text("name").unwrap_or_default();
                    match num("bus_width") {
                        Some(w) => format!("{what}, {w}-bit mode"),
                        None => what,
                    }
                }
                _ => {
                    let family = text("family").unwrap_or_default();
                    let role = text("role").map(|r| format!(" {r}")).unwrap_or_default();
                    let name = text("name").map(|n| format!(": {n}")).unwrap_or_default();
                    format!("{family}{role}{name}")
                }
            };
            let defined_at = locate(&cat.files[p.origins[0].file], &p.origins[0].table).to_string();
            out.push(Summary {
                kind,
                name,
                about,
                defined_at,
            });
        }
    }
    Ok(out)
}
