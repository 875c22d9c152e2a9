//! Property tests of the flag values people type: `parse_duration`, `parse_size` and
//! `parse_percent` never panic, read what they document exactly, and refuse in one line.

use super::*;
use proptest::prelude::*;
use testkit::{config, one_line};

/// Arbitrary text without line breaks.
fn line() -> impl Strategy<Value = String> {
    any::<String>().prop_map(|s| s.replace(['\n', '\r'], " "))
}

/// Text near the formats: a number of any kind, a unit of any kind, spaces.
fn near_miss() -> impl Strategy<Value = String> {
    let number = prop_oneof![
        any::<u64>().prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|x| x.to_string()),
        any::<f64>().prop_map(|x| format!("{x:e}")),
        (-400i32..400).prop_map(|e| format!("1e{e}")),
        Just("99999999999999999999999".to_string()),
        Just("18446744073709551616".to_string()),
        Just(String::new()),
    ];
    let unit = prop::sample::select(vec![
        "", "", "", "", "%", "%%", "s", "ms", "us", "ns", "m", "min", "h", "d", "w", "y", "b", "k",
        "kib", "KiB", "M", "MiB", "g", "GiB", "TiB", "x", " ",
    ]);
    (" ?", number, " ?", unit).prop_map(|(a, n, b, u)| format!("{a}{n}{b}{u}"))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn durations_never_panic(text in prop_oneof![any::<String>(), near_miss()]) {
        let _ = parse_duration(&text);
    }

    #[test]
    fn durations_are_positive_or_refused_in_one_line(text in prop_oneof![line(), near_miss()]) {
        match parse_duration(&text) {
            Ok(d) => prop_assert!(!d.is_zero()),
            Err(e) => prop_assert!(one_line(&e), "{text:?}: {e}"),
        }
    }

    #[test]
    fn durations_read_their_units(n in 1u64..1 << 32, unit in 0usize..4) {
        let (text, expected) = match unit {
            0 => (n.to_string(), Duration::from_secs(n)),
            1 => (format!("{n}s"), Duration::from_secs(n)),
            2 => (format!("{n}ms"), Duration::from_millis(n)),
            _ => (format!("{n}m"), Duration::from_secs(60 * n)),
        };
        prop_assert_eq!(parse_duration(&text), Ok(expected), "{}", text);
    }

    #[test]
    fn durations_read_fractional_seconds(seconds in 1e-6f64..1e9) {
        let text = seconds.to_string();
        prop_assert_eq!(parse_duration(&text), Ok(Duration::from_secs_f64(seconds)), "{}", text);
    }

    #[test]
    fn durations_refuse_what_is_not_positive(seconds in -1e12f64..=0.0) {
        prop_assert!(parse_duration(&seconds.to_string()).is_err());
        let with_unit = format!("{seconds}s");
        prop_assert!(parse_duration(&with_unit).is_err(), "{}", with_unit);
    }

    #[test]
    fn sizes_never_panic(text in prop_oneof![any::<String>(), near_miss()]) {
        let _ = parse_size(&text);
    }

    #[test]
    fn sizes_are_positive_or_refused_in_one_line(text in prop_oneof![line(), near_miss()]) {
        match parse_size(&text) {
            Ok(bytes) => prop_assert!(bytes > 0),
            Err(e) => prop_assert!(one_line(&e), "{text:?}: {e}"),
        }
    }

    #[test]
    fn sizes_scale_by_their_unit(
        n in prop_oneof![1u64..1 << 20, any::<u64>()],
        (unit, scale) in prop::sample::select(vec![
            ("", 1), ("b", 1), ("B", 1), ("k", 1 << 10), ("KiB", 1 << 10), ("kib", 1 << 10),
            ("m", 1 << 20), ("MiB", 1 << 20), ("M", 1 << 20), ("g", 1 << 30), ("GiB", 1 << 30),
            ("G", 1 << 30), ("TiB", 1 << 40), ("kB", 1_000), ("KB", 1_000), ("MB", 1_000_000),
            ("mb", 1_000_000), ("GB", 1_000_000_000), ("TB", 1_000_000_000_000u64),
        ]),
        space in " ?",
    ) {
        let text = format!("{n}{space}{unit}");
        match n.checked_mul(scale) {
            Some(0) | None => prop_assert!(parse_size(&text).is_err(), "{}", text),
            Some(expected) => prop_assert_eq!(parse_size(&text), Ok(expected), "{}", text),
        }
    }

    #[test]
    fn percents_never_panic(text in prop_oneof![any::<String>(), near_miss()]) {
        let _ = parse_percent(&text);
    }

    #[test]
    fn percents_are_fractions_or_refused_in_one_line(text in prop_oneof![line(), near_miss()]) {
        match parse_percent(&text) {
            Ok(share) => {
                prop_assert!(share > 0.0 && share < 1.0, "{text:?}: {share}");
                prop_assert!(text.matches('%').count() <= 1, "{text:?} accepted");
            }
            Err(e) => prop_assert!(one_line(&e), "{text:?}: {e}"),
        }
    }

    #[test]
    fn percents_are_a_hundredth(pct in 1e-9f64..99.999, sign in prop::sample::select(vec!["", "%", " %"])) {
        let text = format!("{pct}{sign}");
        prop_assert_eq!(parse_percent(&text), Ok(pct / 100.0), "{}", text);
    }

    #[test]
    fn percents_take_one_sign(pct in 1e-9f64..99.999, signs in "%{2,4}") {
        let text = format!("{pct}{signs}");
        prop_assert!(parse_percent(&text).is_err(), "{} accepted", text);
    }

    #[test]
    fn percents_outside_the_range_are_refused(
        pct in prop_oneof![-1e9f64..=0.0, 100.0f64..1e9, 0.0f64..1e-322]
    ) {
        let text = format!("{pct}%");
        prop_assert!(parse_percent(&text).is_err(), "{}", text);
    }
}
