//! Combining TOML documents: the hardware include and `--set` overrides.
//!
//! - [`merge_under`] puts one document's tables underneath another's: a key present in
//!   both keeps the upper document's value, tables present in both are merged key by key,
//!   and arrays are replaced whole (never concatenated).
//! - [`Override`] is one `--set KEY=VALUE`: a dotted key path and a TOML value (a bare word
//!   that is not valid TOML is taken as a string), applied after the include.

use super::error::ScenarioError;

/// Deep-merges `under` beneath `top`: `top` wins on every key both define.
pub fn merge_under(top: &mut toml::Table, under: toml::Table) {
    for (key, low) in under {
        match top.get_mut(&key) {
            None => {
                top.insert(key, low);
            }
            Some(toml::Value::Table(high)) => {
                if let toml::Value::Table(low) = low {
                    merge_under(high, low);
                }
            }
            Some(_) => {}
        }
    }
}

/// One `--set KEY=VALUE`.
#[derive(Clone, Debug, PartialEq)]
pub struct Override {
    /// The argument as given, with its flag (`--set a.b=1`), for messages.
    pub arg: String,
    /// The key path, split at the dots.
    pub keys: Vec<String>,
    pub value: toml::Value,
    /// An integer beyond TOML's 64-bit signed range, as written: `value` holds it clamped
    /// to `i64::MIN..=i64::MAX`, so that the key's own range check reports it (with the
    /// written value), and the loader refuses it even where the clamped value would pass.
    pub overflow: Option<String>,
}

/// Is `text` an integer literal (decimal with an optional sign and `_` separators, or
/// `0x`/`0o`/`0b`) too large for a TOML integer? Then the clamped value.
pub fn overflowing_integer(text: &str) -> Option<i64> {
    let t = text.trim();
    let (negative, body) = match t.as_bytes().first()? {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    let (radix, digits) = match body.get(..2) {
        Some("0x") if !negative => (16, &body[2..]),
        Some("0o") if !negative => (8, &body[2..]),
        Some("0b") if !negative => (2, &body[2..]),
        _ => (10, body),
    };
    let clean: String = digits.chars().filter(|&c| c != '_').collect();
    if clean.is_empty()
        || !clean.chars().all(|c| c.is_digit(radix))
        || digits.starts_with('_')
        || digits.ends_with('_')
    {
        return None;
    }
    let fits = if negative {
        i64::from_str_radix(&format!("-{clean}"), radix).is_ok()
    } else {
        i64::from_str_radix(&clean, radix).is_ok()
    };
    (!fits).then_some(if negative { i64::MIN } else { i64::MAX })
}

/// Longest key path accepted in `--set` (deeper than any table of the format).
const MAX_OVERRIDE_DEPTH: usize = 16;

fn is_bare_key(k: &str) -> bool {
    !k.is_empty()
        && k.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Parses `VALUE` of `KEY=VALUE` as a TOML value; anything that is not one is a string.
pub fn parse_value(text: &str) -> toml::Value {
    let doc = format!("v = {text}");
    match toml::from_str::<toml::Table>(&doc) {
        Ok(mut t) if t.len() == 1 => t.remove("v").unwrap_or_else(|| toml::Value::String(text.into())),
        _ => toml::Value::String(text.to_string()),
    }
}

/// A key segment `name[i]` as (`name`, `Some(i)`); any other as (`key`, `None`).
fn split_index(key: &str) -> (&str, Option<usize>) {
    if let Some(open) = key.strip_suffix(']').and_then(|k| k.rfind('[').map(|o| (o, k))) {
        let (o, k) = open;
        if let Ok(i) = k[o + 1..].parse::<usize>() {
            return (&k[..o], Some(i));
        }
    }
    (key, None)
}

impl Override {
    /// Parses `KEY=VALUE`, `KEY` being a dotted path of bare keys.
    pub fn parse(arg: &str) -> Result<Override, ScenarioError> {
        let bad = |message: String| ScenarioError::BadOverride {
            arg: format!("--set {arg}"),
            message,
        };
        let Some((key, value)) = arg.split_once('=') else {
            return Err(bad("expected KEY=VALUE, e.g. workload.stations=10".into()));
        };
        let mut o = Self::new(key.trim(), parse_value(value.trim())).map_err(|e| match e {
            ScenarioError::BadOverride { message, .. } => bad(message),
            other => other,
        })?;
        o.arg = format!("--set {arg}");
        Ok(o)
    }

    /// An override of the key path `key` (dotted) with `value`. A string that is an integer
    /// literal beyond 64 bits (what [`parse_value`] makes of one) is taken as that integer,
    /// clamped, and marked ([`Override::overflow`]); so a *string* value of 20 digits cannot
    /// be given on the command line (no key takes one).
    pub fn new(key: &str, value: toml::Value) -> Result<Override, ScenarioError> {
        let (value, overflow) = match value {
            toml::Value::String(t) => match overflowing_integer(&t) {
                Some(clamped) => (toml::Value::Integer(clamped), Some(t)),
                None => (toml::Value::String(t), None),
            },
            v => (v, None),
        };
        let arg = format!(
            "{key}={}",
            overflow
                .as_deref()
                .map_or_else(|| value.to_string(), str::to_string)
        );
        let keys: Vec<String> = key.split('.').map(str::to_string).collect();
        if let Some(k) = keys.iter().find(|k| !is_bare_key(split_index(k).0)) {
            return Err(ScenarioError::BadOverride {
                arg,
                message: format!(
                    "{k:?} is not a valid key name (use letters, digits, `_` and `-`, joined by \
                     dots; an entry of a list of tables as NAME[i], e.g. apps[0])"
                ),
            });
        }
        if keys.len() > MAX_OVERRIDE_DEPTH {
            return Err(ScenarioError::BadOverride {
                arg,
                message: format!("key path is deeper than {MAX_OVERRIDE_DEPTH} levels"),
            });
        }
        Ok(Override {
            arg,
            keys,
            value,
            overflow,
        })
    }

    /// The dotted key.
    pub fn key(&self) -> String {
        self.keys.join(".")
    }

    /// Sets the value in `doc`, creating missing tables on the way.
    pub fn apply(&self, doc: &mut toml::Table) -> Result<(), ScenarioError> {
        let (last, parents) = self.keys.split_last().expect("parsed keys are never empty");
        let mut table = doc;
        for (i, k) in parents.iter().enumerate() {
            let (name, index) = split_index(k);
            // the list's path, as the user writes it
            let list = || {
                let mut path: Vec<&str> = self.keys[..i].iter().map(String::as_str).collect();
                path.push(name);
                path.join(".")
            };
            let entry = table
                .entry(name.to_string())
                .or_insert_with(|| toml::Value::Table(Default::default()));
            // an entry of a list of tables: it must exist (a --set changes a key of an
            // entry, it does not add one)
            let entry = match (index, entry) {
                (None, e) => e,
                (Some(j), toml::Value::Array(a)) => {
                    let len = a.len();
                    a.get_mut(j).ok_or_else(|| ScenarioError::BadOverride {
                        arg: self.arg.clone(),
                        message: format!(
                            "`{}` has {len} entries, so {k} does not exist (indices 0..={})",
                            list(),
                            len.saturating_sub(1)
                        ),
                    })?
                }
                (Some(_), other) => {
                    return Err(ScenarioError::BadOverride {
                        arg: self.arg.clone(),
                        message: format!("`{}` is a {}, not a list of tables", list(), other.type_str()),
                    })
                }
            };
            table = match entry {
                toml::Value::Table(t) => t,
                other => {
                    return Err(ScenarioError::BadOverride {
                        arg: self.arg.clone(),
                        message: format!(
                            "`{}` is a {}, not a table",
                            self.keys[..=i].join("."),
                            other.type_str()
                        ),
                    })
                }
            };
        }
        table.insert(last.clone(), self.value.clone());
        Ok(())
    }

    /// Is the key at `path` (dotted, possibly with `[i]`) set by this override?
    pub fn covers(&self, path: &str) -> bool {
        let key = self.key();
        path == key
            || path
                .strip_prefix(&key)
                .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(s: &str) -> toml::Table {
        toml::from_str(s).unwrap()
    }

    #[test]
    fn test_an_entry_of_a_list_of_tables_is_reached_by_its_index() {
        assert_eq!(split_index("apps[12]"), ("apps", Some(12)));
        assert_eq!(split_index("apps"), ("apps", None));
        assert_eq!(split_index("apps[x]"), ("apps[x]", None));
        let mut doc = table("[[apps]]\nkind = \"a\"\n[[apps]]\nkind = \"b\"\n");
        Override::parse("apps[1].load=0.5")
            .unwrap()
            .apply(&mut doc)
            .unwrap();
        assert_eq!(
            doc,
            table("[[apps]]\nkind = \"a\"\n[[apps]]\nkind = \"b\"\nload = 0.5\n")
        );
        let e = Override::parse("apps[2].load=0.5")
            .unwrap()
            .apply(&mut doc)
            .unwrap_err();
        assert!(
            e.to_string()
                .contains("`apps` has 2 entries, so apps[2] does not exist (indices 0..=1)"),
            "{e}"
        );
        let e = Override::parse("apps[0].kind[0].x=1")
            .unwrap()
            .apply(&mut doc)
            .unwrap_err();
        assert!(
            e.to_string()
                .contains("`apps[0].kind` is a string, not a list of tables"),
            "{e}"
        );
        assert!(Override::parse("apps[].x=1").is_err());
    }

    #[test]
    fn test_merge_under_upper_wins_and_tables_merge() {
        let mut top = table("a = 1\n[t]\nx = 1\nlist = [1]\n");
        merge_under(
            &mut top,
            table("a = 2\nb = 3\n[t]\nx = 2\ny = 2\nlist = [2, 3]\n[u]\nz = 1\n"),
        );
        assert_eq!(
            top,
            table("a = 1\nb = 3\n[t]\nx = 1\ny = 2\nlist = [1]\n[u]\nz = 1\n")
        );
    }

    #[test]
    fn test_parse_value_types() {
        assert_eq!(parse_value("3"), toml::Value::Integer(3));
        assert_eq!(parse_value("0.5"), toml::Value::Float(0.5));
        assert_eq!(parse_value("true"), toml::Value::Boolean(true));
        assert_eq!(parse_value("sink"), toml::Value::String("sink".into()));
        assert_eq!(parse_value("\"sink\""), toml::Value::String("sink".into()));
        assert_eq!(
            parse_value("[3072,7168]"),
            toml::Value::Array(vec![toml::Value::Integer(3072), toml::Value::Integer(7168)])
        );
        // an attempt to smuggle a second key stays one string
        assert_eq!(parse_value("1\nb = 2"), toml::Value::String("1\nb = 2".into()));
    }

    #[test]
    fn test_override_apply_creates_tables_and_refuses_scalars() {
        let mut doc = table("name = \"x\"\n");
        Override::parse("adapter.transmit_buffers=4")
            .unwrap()
            .apply(&mut doc)
            .unwrap();
        assert_eq!(doc["adapter"]["transmit_buffers"].as_integer(), Some(4));
        let e = Override::parse("name.sub=1")
            .unwrap()
            .apply(&mut doc)
            .unwrap_err();
        assert!(e.to_string().contains("not a table"), "{e}");
        assert!(Override::parse("no_equals").is_err());
        assert!(Override::parse("a..b=1").is_err());
        assert!(Override::parse("a b=1").is_err());
    }

    #[test]
    fn test_override_covers() {
        let o = Override::parse("medium.positions_m=[1.0]").unwrap();
        assert!(o.covers("medium.positions_m"));
        assert!(o.covers("medium.positions_m[0]"));
        assert!(!o.covers("medium.positions_mx"));
        assert!(!o.covers("medium"));
    }
}
