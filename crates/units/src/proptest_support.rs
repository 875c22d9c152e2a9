//! What the property tests of the units share: how many cases each property runs and what
//! "an error in one line" means (as taskbench's own property tests).

use proptest::prelude::*;

/// Cases per property: enough to hit the edges, few enough that the suite stays fast.
pub(crate) const CASES: u32 = 256;

/// [`CASES`] cases, and no regression files written into the tree.
pub(crate) fn config() -> ProptestConfig {
    ProptestConfig {
        cases: CASES,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Whether an error message is one line. A message may quote the text at fault, so the
/// inputs checked with it hold no line break of their own.
pub(crate) fn one_line(message: &str) -> bool {
    !message.is_empty() && !message.contains(['\n', '\r'])
}
