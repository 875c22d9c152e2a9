//! Property tests of `parse`, the `--preset-file` reader: any text, or a document built
//! from the presets' own keys with right and wrong values, never panics and is refused in
//! one line; a valid preset written out reads back the same.

use super::*;
use proptest::prelude::*;
use run::Stopping;
use std::time::Duration;
use testkit::{config, one_line};

fn string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

fn pick(words: &[&'static str]) -> impl Strategy<Value = String> + Clone {
    prop::sample::select(words.to_vec()).prop_map(String::from)
}

/// A TOML value for a count, a run count or a name: right, wrong, or out of range.
fn scalar() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        pick(&[
            "0",
            "1",
            "3",
            "10",
            "1000",
            "-1",
            "4294967296",
            "9223372036854775807",
            "1.5",
            "true"
        ]),
        any::<i64>().prop_map(|n| n.to_string()),
        pick(&[
            "10k",
            "1M",
            "-1",
            "x",
            "",
            "18446744073709551615",
            "18446744073709552k"
        ])
        .prop_map(|s| string(&s)),
        pick(&[
            "2%", "0%", "100%", "5", "0.5 %", "x", "3s", "0", "-1s", "1e30", "500ms", "2m"
        ])
        .prop_map(|s| string(&s)),
        pick(&["sleep", "timer", "skynet", "spawn", "nap", "async-bench"]).prop_map(|s| string(&s)),
    ]
}

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => scalar(),
        1 => prop::collection::vec(scalar(), 0..4).prop_map(|v| format!("[{}]", v.join(", "))),
    ]
}

/// One preset table and its cases, with keys of the format and a few strangers.
fn table(name: String) -> impl Strategy<Value = String> {
    let option = (
        pick(&[
            "about",
            "runs",
            "min-runs",
            "max-runs",
            "precision",
            "max-time",
            "warmup",
            "rounds",
        ]),
        value(),
    );
    let field = (
        pick(&[
            "scenario", "scenario", "seed", "tasks", "delay-ms", "step-us", "total-ms", "size",
            "fanout", "x",
        ]),
        value(),
    );
    (
        prop::collection::vec(option, 0..4),
        prop::collection::vec(prop::collection::vec(field, 0..5), 0..3),
    )
        .prop_map(move |(options, cases)| {
            let mut text = format!("[{name}]\n");
            for (k, v) in options {
                text.push_str(&format!("{k} = {v}\n"));
            }
            for case in cases {
                text.push_str(&format!("[[{name}.case]]\n"));
                for (k, v) in case {
                    text.push_str(&format!("{k} = {v}\n"));
                }
            }
            text
        })
}

fn near_miss() -> impl Strategy<Value = String> {
    let name = pick(&["a", "sleepy", "b-2", "quick"]);
    (
        prop::collection::vec(name.prop_flat_map(table), 1..3),
        prop::option::weighted(0.1, any::<String>()),
    )
        .prop_map(|(tables, junk)| tables.concat() + &junk.unwrap_or_default())
}

/// A case as written: its scenario, its parameters' lists of values, its seed.
type WrittenCase = (&'static str, Vec<(&'static str, Vec<u64>)>, Option<String>);

/// A preset the format accepts, field by field, for `write` to put into TOML.
#[derive(Debug, Clone)]
struct Valid {
    name: String,
    about: String,
    runs: (Option<u32>, Option<u32>, Option<u32>),
    precision: Option<f64>,
    max_time: Option<u64>,
    warm_up: Option<u32>,
    cases: Vec<WrittenCase>,
}

/// Values a parameter takes, each valid with the others of its scenario.
fn param_values(scenario: &str, param: &'static str) -> BoxedStrategy<Vec<u64>> {
    let one = match (scenario, param) {
        ("skynet", _) => (0u32..7).prop_map(|k| 10u64.pow(k)).boxed(),
        ("timer", "step-us") => (1u64..=1_000).boxed(),
        // Within the catalogue's bounds, and a checksum within 64 bits at any rounds.
        ("echo", "bytes") => (1u64..=4_096).boxed(),
        (_, "connections") => (0u64..=10_000).boxed(),
        (_, "fanout" | "rounds" | "length" | "total-ms") => (1u64..1_000_000).boxed(),
        _ => prop_oneof![0u64..1_000_000, (0u64..1_000).prop_map(|n| n * 1_000)].boxed(),
    };
    prop::collection::vec(one, 1..3).boxed()
}

fn case() -> impl Strategy<Value = WrittenCase> {
    prop::sample::select(catalogue::SCENARIOS.to_vec()).prop_flat_map(|spec| {
        let params = prop::sample::subsequence(
            spec.params.iter().map(|p| p.name).collect::<Vec<_>>(),
            0..=spec.params.len(),
        );
        let with_values = params.prop_flat_map(move |names| {
            names
                .into_iter()
                .map(|n| param_values(spec.name, n).prop_map(move |v| (n, v)))
                .collect::<Vec<_>>()
        });
        (
            Just(spec.name),
            with_values,
            // A seed tag the format accepts: one that names seeds.
            prop::option::of(prop::sample::select(seeds::tags()).prop_map(String::from)),
        )
    })
}

fn valid() -> impl Strategy<Value = Valid> {
    let runs = prop_oneof![
        (1..=u32::MAX).prop_map(|r| (Some(r), None::<u32>, None::<u32>)),
        (prop::option::of(1u32..50), prop::option::of(50u32..200)).prop_map(|(lo, hi)| (
            None::<u32>,
            lo,
            hi
        )),
    ];
    (
        ("[a-z][a-z0-9-]{0,8}", any::<String>(), runs),
        (
            prop::option::of(1e-6f64..99.9),
            prop::option::of(1u64..100_000),
            prop::option::of(any::<u32>()),
        ),
        prop::collection::vec(case(), 1..4),
    )
        .prop_map(
            |((name, about, runs), (precision, max_time, warm_up), cases)| Valid {
                name,
                about,
                runs,
                precision,
                max_time,
                warm_up,
                cases,
            },
        )
}

fn write(p: &Valid) -> String {
    let mut text = format!("[{}]\nabout = {}\n", p.name, string(&p.about));
    let (runs, min_runs, max_runs) = p.runs;
    for (key, value) in [
        ("runs", runs),
        ("min-runs", min_runs),
        ("max-runs", max_runs),
        ("warmup", p.warm_up),
    ] {
        if let Some(v) = value {
            text.push_str(&format!("{key} = {v}\n"));
        }
    }
    if let Some(pct) = p.precision {
        text.push_str(&format!("precision = \"{pct}%\"\n"));
    }
    if let Some(s) = p.max_time {
        text.push_str(&format!("max-time = \"{s}s\"\n"));
    }
    for (scenario, params, seed) in &p.cases {
        text.push_str(&format!("[[{}.case]]\nscenario = \"{scenario}\"\n", p.name));
        for (name, values) in params {
            let written: Vec<String> = values
                .iter()
                .map(|v| {
                    if v.is_multiple_of(1_000) {
                        format!("\"{}k\"", v / 1_000)
                    } else {
                        v.to_string()
                    }
                })
                .collect();
            text.push_str(&format!("{name} = [{}]\n", written.join(", ")));
        }
        if let Some(seed) = seed {
            text.push_str(&format!("seed = {}\n", string(seed)));
        }
    }
    text
}

fn expected_stopping(p: &Valid) -> Stopping {
    let (runs, min_runs, max_runs) = p.runs;
    let options = PlanOptions {
        runs,
        min_runs,
        max_runs,
        precision: p.precision.map(|pct| pct / 100.0),
        max_time: p.max_time.map(Duration::from_secs),
        ..PlanOptions::default()
    };
    options.stopping(DEFAULT_STOPPING).unwrap()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_text_is_refused_in_one_line(text in any::<String>()) {
        if let Err(e) = parse(&text) {
            prop_assert!(one_line(&format!("{e:#}")), "{text:?}: {e:#}");
        }
    }

    #[test]
    fn near_misses_are_checked_or_refused_in_one_line(text in near_miss()) {
        match parse(&text) {
            Ok(presets) => {
                for preset in presets {
                    prop_assert!(!preset.cases.is_empty(), "{text}");
                    prop_assert!(preset.stopping.min_runs >= 1, "{text}");
                    prop_assert!(preset.stopping.min_runs <= preset.stopping.max_runs, "{text}");
                    prop_assert!(super::super::expand(&preset.cases, &Default::default(), None).is_ok());
                }
            }
            Err(e) => prop_assert!(one_line(&format!("{e:#}")), "{text}\n→ {e:#}"),
        }
    }

    #[test]
    fn a_valid_preset_reads_back(written in valid()) {
        let text = write(&written);
        let presets = parse(&text).map_err(|e| format!("{e:#}\n{text}"));
        prop_assert!(presets.is_ok(), "{}", presets.unwrap_err());
        let presets = presets.unwrap();
        prop_assert_eq!(presets.len(), 1);
        let preset = &presets[0];
        prop_assert_eq!(&preset.name, &written.name);
        prop_assert_eq!(&preset.about, &written.about);
        prop_assert_eq!(preset.stopping, expected_stopping(&written));
        prop_assert_eq!(preset.warm_up, written.warm_up.unwrap_or(DEFAULT_WARM_UP));
        let cases: Vec<_> = preset
            .cases
            .iter()
            .map(|c| (c.scenario.name, c.params.clone(), c.seed.clone()))
            .collect();
        prop_assert_eq!(cases, written.cases.clone(), "{}", text);
    }
}
