//! The one JSON line a contestant prints, written without a JSON library so that the
//! measured binary holds nothing but its runtime.

use crate::Outcome;
use std::fmt;

/// `{"elapsed_ns":…,"cpu_ns":…,"checksum":…,"extra":{…}}`
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ResultLine {
    pub(crate) elapsed_ns: u64,
    /// The process's CPU time (user + system, every thread) spent in the iteration.
    pub(crate) cpu_ns: u64,
    pub(crate) outcome: Outcome,
}

impl fmt::Display for ResultLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            r#"{{"elapsed_ns":{},"cpu_ns":{},"checksum":{},"extra":{{"#,
            self.elapsed_ns, self.cpu_ns, self.outcome.checksum
        )?;
        // Non-finite numbers are not JSON; a figure that is not a number is left out, before
        // the commas are counted so that the first one written has none.
        let written = self.outcome.extra.iter().filter(|(_, v)| v.is_finite());
        for (i, (name, value)) in written.enumerate() {
            let comma = if i == 0 { "" } else { "," };
            write!(f, r#"{comma}"{name}":{value}"#)?;
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
            cpu_ns: 10,
            outcome: Outcome {
                checksum: 3,
                extra: vec![("a", 1.5), ("b", 2.0)],
            },
        };
        assert_eq!(
            line.to_string(),
            r#"{"elapsed_ns":12,"cpu_ns":10,"checksum":3,"extra":{"a":1.5,"b":2}}"#
        );
        let bare = ResultLine {
            elapsed_ns: 1,
            cpu_ns: 0,
            outcome: 7.into(),
        };
        assert_eq!(
            bare.to_string(),
            r#"{"elapsed_ns":1,"cpu_ns":0,"checksum":7,"extra":{}}"#
        );
    }

    #[test]
    fn a_first_figure_left_out_leaves_no_comma() {
        let line = ResultLine {
            elapsed_ns: 5,
            cpu_ns: 4,
            outcome: Outcome {
                checksum: 1,
                extra: vec![
                    ("a", f64::NAN),
                    ("b", 2.0),
                    ("c", f64::INFINITY),
                    ("d", 4.0),
                ],
            },
        };
        assert_eq!(
            line.to_string(),
            r#"{"elapsed_ns":5,"cpu_ns":4,"checksum":1,"extra":{"b":2,"d":4}}"#
        );
    }
}
