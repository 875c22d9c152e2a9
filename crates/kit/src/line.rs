//! The one JSON line a contestant prints, written without a JSON library so that the
//! measured binary holds nothing but its runtime.

use crate::Outcome;
use std::fmt;

/// `{"elapsed_ns":…,"checksum":…,"extra":{…}}`
#[derive(Debug, Clone, PartialEq)]
pub struct ResultLine {
    pub elapsed_ns: u64,
    pub outcome: Outcome,
}

impl fmt::Display for ResultLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            r#"{{"elapsed_ns":{},"checksum":{},"extra":{{"#,
            self.elapsed_ns, self.outcome.checksum
        )?;
        for (i, (name, value)) in self.outcome.extra.iter().enumerate() {
            let comma = if i == 0 { "" } else { "," };
            // Non-finite numbers are not JSON; a figure that is not a number is left out.
            if value.is_finite() {
                write!(f, r#"{comma}"{name}":{value}"#)?;
            }
        }
        write!(f, "}}}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_one_json_object() {
        let line = ResultLine {
            elapsed_ns: 12,
            outcome: Outcome {
                checksum: 3,
                extra: vec![("a", 1.5), ("b", 2.0)],
            },
        };
        assert_eq!(
            line.to_string(),
            r#"{"elapsed_ns":12,"checksum":3,"extra":{"a":1.5,"b":2}}"#
        );
        let bare = ResultLine {
            elapsed_ns: 1,
            outcome: 7.into(),
        };
        assert_eq!(
            bare.to_string(),
            r#"{"elapsed_ns":1,"checksum":7,"extra":{}}"#
        );
    }
}
