//! Reads a contestant's stdout: exactly one JSON line (docs/PROTOCOL.md §2).

use serde::Deserialize;
use std::collections::BTreeMap;

/// The contestant's own report of its measured iteration.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultLine {
    pub elapsed_ns: u64,
    pub checksum: u64,
    #[serde(default)]
    pub extra: BTreeMap<String, f64>,
}

/// Parses stdout; the error says what was wrong with it, briefly.
pub fn parse(stdout: &str) -> Result<ResultLine, String> {
    let lines: Vec<&str> = stdout.lines().filter(|l| !l.trim().is_empty()).collect();
    match lines.as_slice() {
        [line] => serde_json::from_str(line)
            .map_err(|e| format!("not a result line ({e}): {}", clip(line))),
        [] => Err("printed nothing on stdout".into()),
        [first, ..] => Err(format!(
            "printed {} lines on stdout, expected one (first: {})",
            lines.len(),
            clip(first)
        )),
    }
}

fn clip(text: &str) -> String {
    const MAX: usize = 80;
    match text.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_well_formed_line() {
        let line = parse(
            "{\"elapsed_ns\": 5, \"checksum\": 45, \"extra\": {\"oversleep_p50_ns\": 1.5}}\n",
        )
        .unwrap();
        assert_eq!(line.elapsed_ns, 5);
        assert_eq!(line.checksum, 45);
        assert_eq!(line.extra["oversleep_p50_ns"], 1.5);
        assert!(
            parse("{\"elapsed_ns\":1,\"checksum\":2}")
                .unwrap()
                .extra
                .is_empty()
        );
    }

    #[test]
    fn refuses_malformed_output() {
        for (stdout, expect) in [
            ("", "printed nothing"),
            ("hello", "not a result line"),
            ("{\"elapsed_ns\":1}", "missing field `checksum`"),
            ("{\"elapsed_ns\":-1,\"checksum\":2}", "not a result line"),
            (
                "{\"elapsed_ns\":1,\"checksum\":2,\"extra\":{},\"x\":1}",
                "unknown field",
            ),
            (
                "{\"elapsed_ns\":1,\"checksum\":2}\n{\"elapsed_ns\":1,\"checksum\":2}",
                "2 lines",
            ),
            ("{\"elapsed_ns\":1,\"checksum\":\"2\"}", "not a result line"),
        ] {
            let err = parse(stdout).unwrap_err();
            assert!(err.contains(expect), "{stdout:?}: {err}");
        }
    }
}
