//! Property tests of `Manifest::load`: a `contestant.toml` of any text, or one built from
//! the manifest's own keys with right and wrong values, never panics the harness, is
//! refused in one line, and a valid manifest written out reads back the same.

use super::*;
use proptest::prelude::*;
use testkit::{config, one_line};
use toml::Value;

/// Loads `text` as a manifest from a file of its own.
fn load(text: &str) -> anyhow::Result<Manifest> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(MANIFEST_FILE);
    std::fs::write(&path, text).unwrap();
    Manifest::load(&path)
}

fn string(s: &str) -> String {
    Value::String(s.to_string()).to_string()
}

fn array(items: &[String]) -> String {
    Value::Array(items.iter().cloned().map(Value::String).collect()).to_string()
}

/// A TOML value for a manifest field: mostly strings and lists of them, sometimes of
/// the wrong type.
fn field_value() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        4 => prop::sample::select(vec!["tokio", "go", "cargo", "spawn", "timer", "nap", "", "a b", "a,b"])
            .prop_map(String::from),
        1 => "[ -~]{0,8}",
    ];
    let words = prop::collection::vec(word.clone(), 0..3);
    prop_oneof![
        4 => word.clone().prop_map(|w| string(&w)),
        4 => words.clone().prop_map(|w| array(&w)),
        1 => prop::sample::select(vec!["\"jvm\"", "\"v8\"", "\"v9\"", "\"JVM\""]).prop_map(String::from),
        2 => (prop::sample::select(vec!["crate", "crates", "command", "nap"]), word, words)
            .prop_map(|(k, w, ws)| match k {
                "crate" | "nap" => format!("{{ {k} = {} }}", string(&w)),
                _ => format!("{{ {k} = {} }}", array(&ws)),
            }),
        1 => prop::sample::select(vec!["1", "-1", "true", "1.5", "[1]", "{}", "[[]]"]).prop_map(String::from),
    ]
}

/// A document of the manifest's keys (and a stranger) in any order, with any values.
fn near_miss() -> impl Strategy<Value = String> {
    let keys = vec![
        "name",
        "language",
        "runtime",
        "notes",
        "detect",
        "install",
        "build",
        "build_flags",
        "reference",
        "run",
        "version",
        "unsupported",
        "warm_up",
        "toolchains",
        "flavour",
    ];
    let field = (prop::sample::select(keys), field_value()).prop_map(|(k, v)| format!("{k} = {v}"));
    (
        prop::collection::vec(field, 0..12),
        prop::option::weighted(0.1, any::<String>()),
    )
        .prop_map(|(fields, junk)| {
            let mut text = fields.join("\n");
            if let Some(junk) = junk {
                text.push('\n');
                text.push_str(&junk);
            }
            text
        })
}

/// A manifest that `check` accepts.
fn valid() -> impl Strategy<Value = Manifest> {
    let text = || any::<String>();
    let command = || prop::collection::vec(text(), 1..4);
    let version = prop_oneof![
        text().prop_map(VersionSource::Crate),
        prop::collection::vec(text(), 0..3).prop_map(VersionSource::Crates),
        command().prop_map(VersionSource::Command),
    ];
    let scenarios: Vec<String> = catalogue::SCENARIOS
        .iter()
        .map(|s| s.name.to_string())
        .collect();
    (
        (
            "[a-z][a-z0-9_.-]{0,12}",
            text(),
            text(),
            prop::option::of(text()),
        ),
        (command(), text(), prop::option::of(command()), command()),
        (
            version,
            prop::sample::subsequence(scenarios.clone(), 0..=scenarios.len()),
            prop::option::of(text()),
            any::<bool>(),
        ),
        prop::option::of(prop::sample::select(
            crate::warm_up::RUNTIMES
                .iter()
                .map(|w| w.runtime.to_string())
                .collect::<Vec<_>>(),
        )),
        prop::sample::subsequence(
            vec!["elixir".to_string(), "otp".into(), "node".into()],
            0..=3,
        ),
    )
        .prop_map(
            |(
                (name, language, runtime, notes),
                (detect, install, build, run),
                (version, unsupported, build_flags, reference),
                warm_up,
                toolchains,
            )| {
                Manifest {
                    name,
                    language,
                    runtime,
                    notes,
                    detect,
                    install,
                    build,
                    build_flags,
                    sockets: None,
                    reference,
                    run,
                    version,
                    unsupported,
                    inline: Vec::new(),
                    workers: Default::default(),
                    groups: Vec::new(),
                    warm_up,
                    toolchains,
                }
            },
        )
}

fn write(m: &Manifest) -> String {
    let mut out = vec![
        format!("name = {}", string(&m.name)),
        format!("language = {}", string(&m.language)),
        format!("runtime = {}", string(&m.runtime)),
        format!("detect = {}", array(&m.detect)),
        format!("install = {}", string(&m.install)),
        format!("run = {}", array(&m.run)),
        format!("unsupported = {}", array(&m.unsupported)),
        format!("toolchains = {}", array(&m.toolchains)),
    ];
    if let Some(notes) = &m.notes {
        out.push(format!("notes = {}", string(notes)));
    }
    if let Some(build) = &m.build {
        out.push(format!("build = {}", array(build)));
    }
    if let Some(flags) = &m.build_flags {
        out.push(format!("build_flags = {}", string(flags)));
    }
    out.push(format!("reference = {}", m.reference));
    if let Some(w) = &m.warm_up {
        out.push(format!("warm_up = {}", string(w)));
    }
    out.push(match &m.version {
        VersionSource::Crate(name) => format!("version = {{ crate = {} }}", string(name)),
        VersionSource::Crates(names) => format!("version = {{ crates = {} }}", array(names)),
        VersionSource::Command(command) => format!("version = {{ command = {} }}", array(command)),
    });
    out.join("\n")
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_text_is_refused_in_one_line(text in any::<String>()) {
        if let Err(e) = load(&text) {
            prop_assert!(one_line(&format!("{e:#}")), "{text:?}: {e:#}");
        }
    }

    #[test]
    fn near_misses_are_checked_or_refused_in_one_line(text in near_miss()) {
        match load(&text) {
            Ok(m) => {
                prop_assert!(!m.name.is_empty() && !m.name.contains([',', ' ']), "{text}");
                prop_assert!(!m.detect.is_empty() && !m.run.is_empty(), "{text}");
                prop_assert!(m.build.as_ref().is_none_or(|b| !b.is_empty()), "{text}");
                prop_assert!(m.unsupported.iter().all(|s| catalogue::spec(s).is_ok()), "{text}");
                prop_assert!(m.warm_up.as_deref().is_none_or(|w| crate::warm_up::lookup(w).is_ok()), "{text}");
                prop_assert!(m.toolchains.iter().all(|t| !t.is_empty() && !t.contains([',', ' '])), "{text}");
            }
            Err(e) => prop_assert!(one_line(&format!("{e:#}")), "{text}\n→ {e:#}"),
        }
    }

    #[test]
    fn a_valid_manifest_reads_back(manifest in valid()) {
        let text = write(&manifest);
        prop_assert_eq!(load(&text).map_err(|e| format!("{e:#}")), Ok(manifest), "{}", text);
    }
}
