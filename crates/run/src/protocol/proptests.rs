//! Property tests of the result-line parser: a contestant's stdout can hold anything, so
//! `parse` must never panic, must read back the lines contestants print, and must say
//! what was wrong in one line.

use super::*;
use proptest::prelude::*;
use testkit::config;

/// One line, whatever the stdout: the lines are split on `\n`, so none survives.
fn one_line(message: &str) -> bool {
    !message.is_empty() && !message.contains('\n')
}

/// A JSON value, right or wrong for a result line.
fn json_value() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        any::<u64>().prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|x| x.to_string()),
        Just("18446744073709551616".to_string()),
        Just("1e400".to_string()),
        Just("null".to_string()),
        Just("true".to_string()),
        "[a-z\"\\\\]{0,6}".prop_map(|s| format!("\"{s}\"")),
    ];
    leaf.prop_recursive(2, 8, 4, |inner| {
        prop::collection::vec((key(), inner), 0..4).prop_map(|fields| object(&fields))
    })
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec!["elapsed_ns", "checksum", "extra", "x", ""]).prop_map(String::from),
        1 => "[a-z_]{1,8}",
    ]
}

fn object(fields: &[(String, String)]) -> String {
    let body: Vec<String> = fields.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
    format!("{{{}}}", body.join(","))
}

/// A line that is nearly a result line: the right keys, any values, sometimes cut short.
fn json_line() -> impl Strategy<Value = String> {
    (
        prop::collection::vec((key(), json_value()), 0..5),
        any::<prop::sample::Index>(),
        0..4,
    )
        .prop_map(|(fields, cut, how)| {
            let line = object(&fields);
            match how {
                0 => line[..cut.index(line.len() + 1)].to_string(),
                1 => format!("  {line}\r"),
                _ => line,
            }
        })
}

/// A result line as a contestant's kit prints it, with values JSON reads back exactly.
fn result_line() -> impl Strategy<Value = ResultLine> {
    let figure = prop_oneof![
        (-1_000_000i64..1_000_000).prop_map(|n| n as f64 / 64.0),
        (0u64..1 << 53).prop_map(|n| n as f64),
    ];
    (
        any::<u64>(),
        proptest::option::of(any::<u64>()),
        any::<u64>(),
        prop::collection::btree_map("[a-z_]{1,12}", figure, 0..4),
    )
        .prop_map(|(elapsed_ns, cpu_ns, checksum, extra)| ResultLine {
            elapsed_ns,
            cpu_ns,
            checksum,
            extra,
        })
}

fn print(line: &ResultLine) -> String {
    let extra: Vec<String> = line
        .extra
        .iter()
        .map(|(k, v)| format!("\"{k}\":{v}"))
        .collect();
    let cpu = line
        .cpu_ns
        .map_or(String::new(), |c| format!("\"cpu_ns\":{c},"));
    format!(
        "{{\"elapsed_ns\":{},{cpu}\"checksum\":{},\"extra\":{{{}}}}}",
        line.elapsed_ns,
        line.checksum,
        extra.join(",")
    )
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn never_panics_and_refuses_in_one_line(stdout in any::<String>(), iterations in 0u32..4) {
        if let Err(e) = parse(&stdout, iterations) {
            prop_assert!(one_line(&e), "{stdout:?}: {e}");
        }
    }

    #[test]
    fn near_misses_never_panic_and_refuse_in_one_line(
        lines in prop::collection::vec(json_line(), 0..4),
        iterations in 0u32..4,
    ) {
        let stdout = lines.join("\n");
        match parse(&stdout, iterations) {
            Ok(parsed) => prop_assert_eq!(parsed.len(), iterations as usize),
            Err(e) => prop_assert!(one_line(&e), "{stdout:?}: {e}"),
        }
    }

    #[test]
    fn reads_back_what_contestants_print(
        lines in prop::collection::vec(result_line(), 1..6),
        crlf in any::<bool>(),
        blank in any::<bool>(),
    ) {
        let end = if crlf { "\r\n" } else { "\n" };
        let mut stdout = String::new();
        for line in &lines {
            if blank {
                stdout.push_str(end);
            }
            stdout.push_str(&print(line));
            stdout.push_str(end);
        }
        prop_assert_eq!(parse(&stdout, lines.len() as u32), Ok(lines.clone()));
        let err = parse(&stdout, lines.len() as u32 + 1).unwrap_err();
        prop_assert!(err.contains(&format!("printed {} line", lines.len())), "{}", err);
    }
}
