//! Every language a contestant is written in, in one table, with what follows from it: its
//! family (the `@group` and the hue its contestants wear in every chart) and the start-up
//! of one of its processes. A manifest names its `language` in free text; a test checks
//! that every manifest under contestants/ names a language of this table and that every
//! entry is used, so a new language is one entry here and a typo is a failing test, not a
//! contestant silently without its family.

use std::time::Duration;

/// A language family: the group of its contestants and the hue they wear.
#[derive(Debug, PartialEq)]
pub(crate) struct Family {
    /// Its group, written `@name` in a lineup.
    pub(crate) group: &'static str,
    /// What the group holds, for `list --groups` and the unknown-group message.
    pub(crate) about: &'static str,
    /// Its colour's hue in every chart (plot/palette.rs shades it per contestant).
    pub(crate) hue: Hue,
}

/// A hue in degrees (0–360) and its saturation (0–1); saturation 0 is grey.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hue {
    pub degrees: f64,
    pub saturation: f64,
}

impl Hue {
    /// No hue: the families not given one yet, and names whose language is not known.
    pub(crate) const GREY: Hue = Hue::new(0.0, 0.0);

    const fn new(degrees: f64, saturation: f64) -> Hue {
        Hue {
            degrees,
            saturation,
        }
    }
}

/// A language a manifest may name.
#[derive(Debug)]
pub(crate) struct Language {
    /// As a manifest writes it in `language` (`Rust`, `JavaScript`, `C++`).
    pub(crate) name: &'static str,
    /// Its family.
    pub(crate) family: &'static Family,
    /// Start-up and exit of one of its processes, in ms, as seen here: a rough figure for
    /// this project's 2-core machine, checked against real runs (docs/MEASUREMENT.md).
    startup_ms: u64,
}

const RUST: Family = family("rust", "the Rust runtimes", Hue::new(22.0, 0.85));
const GO: Family = family("go", "Go's goroutines", Hue::new(188.0, 0.75));
const CPP: Family = family("cpp", "the C++ runtimes", Hue::new(125.0, 0.5));
const HASKELL: Family = family(
    "haskell",
    "GHC's threads and libraries over them",
    Hue::new(276.0, 0.55),
);
const JS: Family = family("js", "Node.js, Bun and Deno", Hue::new(46.0, 0.9));
const JVM: Family = family("jvm", "Java, Kotlin and Scala", Hue::new(356.0, 0.7));
const BEAM: Family = family("beam", "Erlang and Elixir", Hue::new(328.0, 0.65));
const PYTHON: Family = family("python", "the Python event loops", Hue::new(218.0, 0.7));
// Crystal and Nim have one contestant each and no hue of their own yet: grey, as before
// the table.
const CRYSTAL: Family = family("crystal", "Crystal's fibers", Hue::GREY);
const NIM: Family = family("nim", "Nim's async procs", Hue::GREY);

const fn family(group: &'static str, about: &'static str, hue: Hue) -> Family {
    Family { group, about, hue }
}

/// Every family, in the order `list --groups` shows them.
pub(crate) const FAMILIES: &[&Family] = &[
    &RUST, &GO, &CPP, &HASKELL, &JS, &JVM, &BEAM, &PYTHON, &CRYSTAL, &NIM,
];

/// Every language a manifest under contestants/ names: one entry per language.
pub(crate) const LANGUAGES: &[Language] = &[
    language("Rust", &RUST, 2),
    language("C++", &CPP, 2),
    language("Go", &GO, 5),
    language("Haskell", &HASKELL, 5),
    language("Crystal", &CRYSTAL, 5),
    language("Nim", &NIM, 5),
    language("Python", &PYTHON, 40),
    language("JavaScript", &JS, 45),
    language("Java", &JVM, 120),
    language("Kotlin", &JVM, 120),
    // An IOApp or a ZIOAppDefault loads its library's classes first (1.5–2 s under load
    // here, twice to three times kotlin-coroutines' start in the same minute).
    language("Scala", &JVM, 600),
    language("Elixir", &BEAM, 450),
    language("Erlang", &BEAM, 450),
];

const fn language(name: &'static str, family: &'static Family, startup_ms: u64) -> Language {
    Language {
        name,
        family,
        startup_ms,
    }
}

/// The start-up of a process whose language is not in the table (a `--command`'s).
const UNKNOWN_STARTUP_MS: u64 = 100;

/// The table's entry for a manifest's `language`, if it has one.
pub(crate) fn find(name: &str) -> Option<&'static Language> {
    LANGUAGES.iter().find(|language| language.name == name)
}

/// The family of a manifest's `language`, if the table knows it.
pub(crate) fn family_of(name: &str) -> Option<&'static Family> {
    find(name).map(|language| language.family)
}

/// The group of `language`'s family (`rust`, `js`); `None` for a language the table does
/// not know.
pub fn family_group(name: &str) -> Option<&'static str> {
    family_of(name).map(|family| family.group)
}

/// The hue of `language`'s family; grey for a language the table does not know.
pub fn hue(name: &str) -> Hue {
    family_of(name).map_or(Hue::GREY, |family| family.hue)
}

/// Start-up and exit of one process of a contestant in `language`, from the table; a
/// language the table does not know gets a middling guess.
pub fn startup(name: &str) -> Duration {
    Duration::from_millis(find(name).map_or(UNKNOWN_STARTUP_MS, |l| l.startup_ms))
}

#[cfg(test)]
mod tests;
