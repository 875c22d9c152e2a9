//! Property tests of the two parsers people and the harness feed: `parse_count` and
//! `Invocation::parse` never panic, read back what is written, and refuse in one line.

use super::*;
use proptest::prelude::*;

/// Cases per property: enough to hit the edges, few enough that the suite stays fast.
const CASES: u32 = 256;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: CASES,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Whether an error message is one line. A message may quote the text at fault, so the
/// inputs checked with it hold no line break of their own.
fn one_line(message: &str) -> bool {
    !message.is_empty() && !message.contains(['\n', '\r'])
}

/// Arbitrary text without line breaks.
fn line() -> impl Strategy<Value = String> {
    any::<String>().prop_map(|s| s.replace(['\n', '\r'], " "))
}

/// `n` as a person might type it: plainly, with `_` between thousands, or with `k`/`M`
/// when it divides, and with spaces around.
fn written(n: u64) -> impl Strategy<Value = String> {
    let mut forms = vec![n.to_string(), grouped(n)];
    if n.is_multiple_of(1_000) {
        forms.push(format!("{}k", n / 1_000));
    }
    if n.is_multiple_of(1_000_000) {
        forms.push(format!("{}M", n / 1_000_000));
    }
    (prop::sample::select(forms), " {0,2}", " {0,2}").prop_map(|(f, a, b)| format!("{a}{f}{b}"))
}

fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('_');
        }
        out.push(c);
    }
    out
}

/// Values that reach the edges: anything, small counts, powers of ten (skynet) and counts
/// that `k`/`M` can write.
fn value() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        0u64..100_000,
        (0u32..20).prop_map(|k| 10u64.pow(k)),
        (0u64..1_000_000).prop_map(|n| n * 1_000),
        (0u64..1_000_000).prop_map(|n| n * 1_000_000),
    ]
}

/// A valid invocation of any scenario.
fn invocation() -> impl Strategy<Value = Invocation> {
    let scenario = (0..SCENARIOS.len(), prop::collection::vec(value(), 3)).prop_filter_map(
        "outside the scenario's range",
        |(i, values)| {
            let spec = &SCENARIOS[i];
            let named: Vec<(&str, u64)> = spec.params.iter().map(|p| p.name).zip(values).collect();
            Scenario::new(spec.name, &named).ok()
        },
    );
    (scenario, any::<u32>(), 1..=u32::MAX).prop_map(|(scenario, inner_warm_up, iterations)| {
        Invocation {
            scenario,
            warm_up: scenario.seed_warm_up(),
            inner_warm_up,
            iterations,
        }
    })
}

/// One argument of a command line that is nearly right: names, flags and values the
/// parser knows, mixed with ones it does not.
fn token() -> impl Strategy<Value = String> {
    let mut words: Vec<String> = SCENARIOS.iter().map(|s| s.name.to_string()).collect();
    for spec in SCENARIOS {
        words.extend(spec.params.iter().map(|p| format!("--{}", p.name)));
    }
    words.extend(
        [
            "--inner-warmup",
            "--iterations",
            "--warmup-requests",
            "--warmup-nap",
            "--",
            "--nap",
            "-x",
            "",
            "nap",
            "0",
            "1",
            "-1",
            "10k",
            "1M",
            "1_000",
            "4294967296",
            "18446744073709551615",
            "18446744073709551616",
            "18446744073709552k",
        ]
        .map(String::from),
    );
    prop_oneof![
        4 => prop::sample::select(words),
        2 => value().prop_map(|n| n.to_string()),
        1 => line(),
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn parse_count_never_panics(text in any::<String>()) {
        let _ = parse_count("tasks", &text);
    }

    #[test]
    fn parse_count_refuses_in_one_line(text in line()) {
        if let Err(e) = parse_count("tasks", &text) {
            prop_assert!(one_line(&e.to_string()), "{text:?}: {e}");
        }
    }

    #[test]
    fn parse_count_accepts_only_digits_with_a_suffix(text in any::<String>()) {
        if let Ok(n) = parse_count("tasks", &text) {
            let digits = text.trim().replace('_', "");
            let bare = digits.trim_end_matches(['k', 'M']);
            prop_assert!(!bare.is_empty() && bare.bytes().all(|b| b.is_ascii_digit()), "{text:?}");
            prop_assert!(digits.len() - bare.len() <= 1, "{text:?}");
            prop_assert_eq!(bare.parse::<u64>().ok().map(|b| b <= n), Some(true));
        }
    }

    #[test]
    fn parse_count_reads_what_is_written(n in value().prop_flat_map(|n| (Just(n), written(n)))) {
        let (n, text) = n;
        prop_assert_eq!(parse_count("tasks", &text), Ok(n), "{:?}", text);
    }

    #[test]
    fn parse_count_scales_suffixes_or_says_too_large(n in any::<u64>(), mega in any::<bool>()) {
        let (suffix, scale) = if mega { ("M", 1_000_000) } else { ("k", 1_000) };
        let parsed = parse_count("tasks", &format!("{n}{suffix}"));
        match n.checked_mul(scale) {
            Some(expected) => prop_assert_eq!(parsed, Ok(expected)),
            None => prop_assert!(parsed.unwrap_err().to_string().contains("too large")),
        }
    }

    #[test]
    fn parse_count_refuses_negatives(n in 1u64..) {
        let err = parse_count("tasks", &format!("-{n}")).unwrap_err();
        prop_assert!(err.to_string().contains("negative"), "{}", err);
    }

    #[test]
    fn invocation_never_panics(args in prop::collection::vec(any::<String>(), 0..8)) {
        let _ = Invocation::parse(&args);
    }

    #[test]
    fn invocation_of_near_misses_refuses_in_one_line_or_round_trips(
        args in prop::collection::vec(token(), 0..9)
    ) {
        match Invocation::parse(&args) {
            Ok(invocation) => {
                prop_assert_eq!(Invocation::parse(invocation.to_args()), Ok(invocation));
            }
            Err(e) => prop_assert!(one_line(&e.to_string()), "{args:?}: {e}"),
        }
    }

    #[test]
    fn invocation_reads_back_its_arguments(invocation in invocation()) {
        prop_assert_eq!(Invocation::parse(invocation.to_args()), Ok(invocation));
    }

    #[test]
    fn invocation_reads_counts_as_people_write_them(
        (invocation, texts) in invocation().prop_flat_map(|inv| {
            let values: Vec<u64> = inv.scenario.params().iter().map(|(_, v)| *v).collect();
            (Just(inv), values.into_iter().map(written).collect::<Vec<_>>())
        })
    ) {
        let mut args = vec![invocation.scenario.name().to_string()];
        for ((name, _), text) in invocation.scenario.params().iter().zip(texts) {
            args.extend([format!("--{name}"), text]);
        }
        args.extend(invocation.to_args().split_off(args.len()));
        prop_assert_eq!(Invocation::parse(&args), Ok(invocation), "{:?}", args);
    }
}
