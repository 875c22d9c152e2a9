//! Reads a contestant's stdout: exactly one JSON line per measured iteration
//! (docs/PROTOCOL.md §2, version 2).

use serde::Deserialize;
use std::collections::BTreeMap;

/// The contestant's own report of one measured iteration.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultLine {
    pub(crate) elapsed_ns: u64,
    /// The process's CPU time (user + system, every thread) spent in the iteration; absent
    /// from lines of contestants older than it and of `--command` programs.
    #[serde(default)]
    pub(crate) cpu_ns: Option<u64>,
    pub(crate) checksum: u64,
    #[serde(default)]
    pub(crate) extra: BTreeMap<String, f64>,
}

/// Parses the stdout of a process asked for `iterations` measured iterations: exactly
/// that many result lines, in order. The error says what was wrong, briefly.
pub(crate) fn parse(stdout: &str, iterations: u32) -> Result<Vec<ResultLine>, String> {
    let lines: Vec<&str> = stdout.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        return Err("printed nothing on stdout".into());
    }
    if lines.len() != iterations as usize {
        return Err(format!(
            "printed {} lines on stdout for {iterations} iteration{} (first: {})",
            lines.len(),
            if iterations == 1 { "" } else { "s" },
            clip(lines[0])
        ));
    }
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            serde_json::from_str(line)
                .map_err(|e| format!("line {} is not a result line ({e}): {}", i + 1, clip(line)))
        })
        .collect()
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
        let lines = parse(
            "{\"elapsed_ns\": 5, \"checksum\": 45, \"extra\": {\"oversleep_p50_ns\": 1.5}}\n",
            1,
        )
        .unwrap();
        let line = &lines[0];
        assert_eq!(line.elapsed_ns, 5);
        assert_eq!(line.cpu_ns, None);
        assert_eq!(line.checksum, 45);
        assert_eq!(line.extra["oversleep_p50_ns"], 1.5);
        assert!(
            parse("{\"elapsed_ns\":1,\"checksum\":2}", 1).unwrap()[0]
                .extra
                .is_empty()
        );
    }

    #[test]
    fn reads_the_cpu_time_when_the_line_has_it() {
        let line = &parse("{\"elapsed_ns\":9,\"cpu_ns\":7,\"checksum\":2}", 1).unwrap()[0];
        assert_eq!((line.elapsed_ns, line.cpu_ns), (9, Some(7)));
        let err = parse("{\"elapsed_ns\":9,\"cpu_ns\":-7,\"checksum\":2}", 1).unwrap_err();
        assert!(err.contains("not a result line"), "{err}");
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
                "2 lines on stdout for 1 iteration",
            ),
            ("{\"elapsed_ns\":1,\"checksum\":\"2\"}", "not a result line"),
        ] {
            let err = parse(stdout, 1).unwrap_err();
            assert!(err.contains(expect), "{stdout:?}: {err}");
        }
    }

    #[test]
    fn reads_one_line_per_iteration_in_order() {
        let stdout =
            "{\"elapsed_ns\":3,\"checksum\":9}\n\n{\"elapsed_ns\":4,\"checksum\":9,\"extra\":{}}\n";
        let lines = parse(stdout, 2).unwrap();
        assert_eq!(
            lines.iter().map(|l| l.elapsed_ns).collect::<Vec<_>>(),
            [3, 4]
        );
        for (stdout, iterations, expect) in [
            (stdout, 3, "printed 2 lines on stdout for 3 iterations"),
            (stdout, 1, "printed 2 lines on stdout for 1 iteration"),
            (
                "{\"elapsed_ns\":3,\"checksum\":9}\n{\"elapsed_ns\":3}",
                2,
                "line 2 is not a result line",
            ),
        ] {
            let err = parse(stdout, iterations).unwrap_err();
            assert!(err.contains(expect), "{stdout:?} × {iterations}: {err}");
        }
    }
}

#[cfg(test)]
mod proptests;
