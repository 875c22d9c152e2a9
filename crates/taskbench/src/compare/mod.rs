//! Compare and the gate, whole: what changed between two sides — each case's ratio and its
//! interval ([`ratio`]), a mode that moved ([`mode_shift`]), the cases' changes
//! ([`change`]) — judged against thresholds with the run-to-run spread and the machines'
//! condition ([`gate`]); in words ([`words`]), concluded into a table, files and an exit
//! status ([`conclude`]); the sides found by name, a folder or a stored session, and widened
//! by the store's other sessions ([`sides`]); the gate as `taskbench run`'s last step ([`step`]) and the
//! confirmation rerun of the cases it failed ([`confirm`]). Its parts sit at different places in the pipeline
//! (tests/integration/layers.rs names each), so this file declares them and re-exports
//! nothing.

pub(crate) mod change;
pub(crate) mod conclude;
pub(crate) mod confirm;
pub(crate) mod gate;
pub(crate) mod mode_shift;
pub(crate) mod ratio;
pub(crate) mod sides;
pub(crate) mod step;
pub(crate) mod words;
