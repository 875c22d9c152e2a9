//! Lineups as named groups (`-c @headline`, `@rust`, `@bluebird`): the language families,
//! derived from each manifest's `language` through contestant/language.rs's table (which a
//! test checks against every manifest) so that a new contestant cannot be left out of its
//! family, and the curated groups a manifest names in `groups`, which are judgements (which
//! runtime its users reach for, which libraries a seed compared) and so live with the
//! contestant.

use super::Manifest;
use super::language::{FAMILIES, family_of};

/// The group every contestant is in.
pub const ALL: &str = "all";

/// The group `run` measures when neither `-c` nor the preset names a lineup.
pub const HEADLINE: &str = "headline";

/// The curated groups a manifest may name in `groups`, and what each holds.
const CURATED: &[(&str, &str)] = &[
    (
        HEADLINE,
        "each runtime family once, as its users reach for it, and floor as the reference: \
         the default of `run`",
    ),
    (
        "bluebird",
        "the Node libraries bluebird's doxbee and madeup-parallel compare (docs/SEEDS.md)",
    ),
];

/// Every group name with what it holds: the curated groups, the families, then `all`.
pub fn known() -> Vec<(&'static str, &'static str)> {
    CURATED
        .iter()
        .copied()
        .chain(FAMILIES.iter().map(|family| (family.group, family.about)))
        .chain([(ALL, "every contestant")])
        .collect()
}

/// Whether `name` (without its `@`) is a group.
pub fn is_known(name: &str) -> bool {
    known().iter().any(|(group, _)| *group == name)
}

/// The one line that refuses `@name` as a group, naming the known ones.
pub fn unknown(name: &str) -> String {
    let known: Vec<String> = known()
        .iter()
        .map(|(group, _)| format!("@{group}"))
        .collect();
    format!("unknown group '@{name}' (known: {})", known.join(", "))
}

/// A lineup as written in a preset (`"@rust,node-q"`): its names and `@group`s, each
/// group known, none twice.
pub fn parse_lineup(text: &str) -> Result<Vec<String>, String> {
    let items: Vec<String> = text.split(',').map(|i| i.trim().to_string()).collect();
    for (index, item) in items.iter().enumerate() {
        if item.is_empty() || item.contains(char::is_whitespace) {
            return Err(format!(
                "'{text}' is not a lineup (names and @groups, comma-separated: \"@rust,node-q\")"
            ));
        }
        if let Some(group) = item.strip_prefix('@').filter(|g| !is_known(g)) {
            return Err(unknown(group));
        }
        if items[..index].contains(item) {
            return Err(format!("'{item}' is named twice"));
        }
    }
    Ok(items)
}

/// Whether a manifest may name `group` in its `groups`: a curated group (a family follows
/// from the language and `all` holds everyone, so neither is written).
pub(crate) fn is_curated(group: &str) -> bool {
    CURATED.iter().any(|(name, _)| *name == group)
}

/// The curated group names, for an error message.
pub(crate) fn curated_names() -> Vec<&'static str> {
    CURATED.iter().map(|(name, _)| *name).collect()
}

impl Manifest {
    /// The groups this contestant is in: its curated groups, its family, and `all`.
    pub fn groups(&self) -> Vec<&str> {
        let family = family_of(&self.language).map(|family| family.group);
        self.groups
            .iter()
            .map(String::as_str)
            .chain(family)
            .chain([ALL])
            .collect()
    }

    /// Whether this contestant is in `group`.
    pub fn in_group(&self, group: &str) -> bool {
        self.groups().contains(&group)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_group_name_is_known_once() {
        let names: Vec<&str> = known().into_iter().map(|(name, _)| name).collect();
        for name in &names {
            assert_eq!(names.iter().filter(|n| *n == name).count(), 1, "{name}");
        }
        assert!(is_known("headline") && is_known("jvm") && is_known("all"));
        assert!(!is_known("nope") && !is_known("@rust"));
        assert!(is_curated("bluebird") && !is_curated("rust") && !is_curated(ALL));
    }

    #[test]
    fn a_written_lineup_is_checked() {
        assert_eq!(
            parse_lineup("@rust, node-q").unwrap(),
            ["@rust".to_string(), "node-q".to_string()]
        );
        let unknown = parse_lineup("@rust,@nope").unwrap_err();
        assert!(
            unknown.starts_with("unknown group '@nope' (known: @headline, @bluebird, @rust"),
            "{unknown}"
        );
        assert!(unknown.ends_with("@all)"), "{unknown}");
        assert!(parse_lineup("").is_err());
        assert!(parse_lineup("tokio,,go").is_err());
        assert_eq!(parse_lineup("go,go").unwrap_err(), "'go' is named twice");
    }
}
