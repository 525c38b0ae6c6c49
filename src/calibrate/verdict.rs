//! The `[verdict]` of a calibration file: what was decided about it (a fit kept, a
//! hypothesis rejected), the objective that decided it, and why.
//!
//! The recorded objective is the one `ethersim calibrate FILE --evaluate` prints: the
//! hardware file's current values judged with the file's own overrides, bars and seeds
//! (mean over the fit seeds), so anyone can re-derive it in seconds. A search's own
//! historical result is history and belongs in the reason, labelled as such.
//!
//! Invariants: the decision is one of [`Decision::NAMES`]; the objective is finite and not
//! negative (objective units, compared at the printed precision of one decimal); the
//! reason is non-empty and at most [`MAX_REASON_CHARS`] characters. A verdict is never
//! inherited through `extends`: each file records its own.

use serde::Deserialize;

use crate::scenario::error::{FieldError, Problem};

/// Longest reason a verdict may give.
pub const MAX_REASON_CHARS: usize = 2000;

/// The `[verdict]` table as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawVerdict {
    decision: String,
    objective: f64,
    reason: String,
}

/// What was decided about a calibration file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The fit is shipped, or the hypothesis is held by the shipped model.
    Kept,
    /// The hypothesis fits worse, or breaks a bar, and is not held.
    Rejected,
}

impl Decision {
    pub const NAMES: [&'static str; 2] = ["kept", "rejected"];

    pub fn name(self) -> &'static str {
        match self {
            Decision::Kept => Self::NAMES[0],
            Decision::Rejected => Self::NAMES[1],
        }
    }
}

/// A validated `[verdict]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub decision: Decision,
    /// The objective `--evaluate` gives for the file (mean over its fit seeds).
    pub objective: f64,
    pub reason: String,
}

impl Verdict {
    /// The recorded objective as the report prints it (one decimal).
    pub fn objective_text(&self) -> String {
        format!("{:.1}", self.objective)
    }
}

impl RawVerdict {
    pub(super) fn validate(&self) -> Result<Verdict, FieldError> {
        let decision = match self.decision.as_str() {
            "kept" => Decision::Kept,
            "rejected" => Decision::Rejected,
            other => {
                return Err(FieldError::new(
                    "verdict.decision",
                    Problem::UnknownVariant {
                        value: other.to_string(),
                        suggestions: vec![],
                        valid: Decision::NAMES.iter().map(|s| s.to_string()).collect(),
                    },
                ))
            }
        };
        if !(self.objective.is_finite() && self.objective >= 0.0) {
            return Err(FieldError::range(
                "verdict.objective",
                self.objective,
                "a finite objective, 0 or more",
            ));
        }
        let chars = self.reason.trim().chars().count();
        if chars == 0 || chars > MAX_REASON_CHARS {
            return Err(FieldError::invalid(
                "verdict.reason",
                format!("needs 1..={MAX_REASON_CHARS} characters, has {chars}"),
            ));
        }
        Ok(Verdict {
            decision,
            objective: self.objective,
            reason: self.reason.trim().to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(decision: &str, objective: f64, reason: &str) -> RawVerdict {
        RawVerdict {
            decision: decision.into(),
            objective,
            reason: reason.into(),
        }
    }

    #[test]
    fn test_verdict_kept_and_rejected_validate() {
        let v = raw("rejected", 277.04, " fits worse ").validate().unwrap();
        assert_eq!(v.decision, Decision::Rejected);
        assert_eq!(v.objective_text(), "277.0");
        assert_eq!(v.reason, "fits worse");
        assert_eq!(raw("kept", 0.0, "x").validate().unwrap().decision, Decision::Kept);
    }

    #[test]
    fn test_verdict_bad_fields_are_named() {
        assert_eq!(
            raw("maybe", 1.0, "x").validate().unwrap_err().path,
            "verdict.decision"
        );
        assert_eq!(
            raw("kept", -1.0, "x").validate().unwrap_err().path,
            "verdict.objective"
        );
        assert_eq!(
            raw("kept", f64::NAN, "x").validate().unwrap_err().path,
            "verdict.objective"
        );
        assert_eq!(
            raw("kept", 1.0, "  ").validate().unwrap_err().path,
            "verdict.reason"
        );
    }
}
