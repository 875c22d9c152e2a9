//! What the property tests of the statistics share: how many cases each property runs (as
//! taskbench's own property tests).

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
