//! The rows that stand apart from a point's ranking: a reference (`floor`, a hand-written
//! bound, never a runtime to choose) and an inline cell (a row whose tasks, in that
//! scenario, run inside their caller and never pass its scheduler: futures-joinall's
//! `join_all`). Both are shown with their ratio to the best runtime, never ranked and never
//! the best (docs/FAIRNESS.md, "A task is a task").

use contestant::ContestantInfo;

/// Who stands apart, as the run's contestants say.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Apart {
    /// The references, by name.
    pub references: Vec<String>,
    /// (contestant, scenario): the cells whose tasks run inline.
    pub inline: Vec<(String, String)>,
}

impl Apart {
    /// No row apart.
    pub fn none() -> Apart {
        Apart::default()
    }

    /// The references and inline cells of `contestants`.
    pub fn of(contestants: &[ContestantInfo]) -> Apart {
        Apart {
            references: contestant::references(contestants),
            inline: contestants
                .iter()
                .flat_map(|c| c.inline.iter().map(|s| (c.name.clone(), s.clone())))
                .collect(),
        }
    }

    /// Only these references.
    #[cfg(test)]
    pub(crate) fn references<S: ToString>(names: impl IntoIterator<Item = S>) -> Apart {
        Apart {
            references: names.into_iter().map(|n| n.to_string()).collect(),
            inline: Vec::new(),
        }
    }

    pub(crate) fn is_reference(&self, contestant: &str) -> bool {
        self.references.iter().any(|r| r == contestant)
    }

    pub(crate) fn is_inline(&self, contestant: &str, scenario: &str) -> bool {
        self.inline
            .iter()
            .any(|(c, s)| c == contestant && s == scenario)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_contestants_inline_scenarios_stand_apart_and_no_others() {
        let joinall = ContestantInfo {
            name: "futures-joinall".into(),
            inline: vec!["spawn".into(), "skynet".into()],
            ..Default::default()
        };
        let floor = ContestantInfo {
            name: "floor".into(),
            reference: true,
            ..Default::default()
        };
        let apart = Apart::of(&[joinall, floor]);
        assert!(apart.is_inline("futures-joinall", "spawn"));
        assert!(apart.is_inline("futures-joinall", "skynet"));
        assert!(!apart.is_inline("futures-joinall", "sleep"));
        assert!(!apart.is_inline("floor", "spawn"));
        assert!(apart.is_reference("floor") && !apart.is_reference("futures-joinall"));
    }
}
