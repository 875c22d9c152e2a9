//! History and change points, whole: where a case's figure steps along its sessions or
//! its releases ([`change_points`], over the series [`series`] makes of what the store
//! holds, read by [`changes`]), the change gate that fails a step held by the newest
//! sessions ([`change_gate`]), in words ([`words`]) and concluded into an exit status
//! ([`conclude`]); the history table ([`table`]) and a case's trend page ([`trend`]). The
//! store's rows are its own (store/history.rs); the commands are `taskbench store history`
//! and `compare --change-gate`. Its parts sit at different places in the pipeline
//! (tests/integration/layers.rs names each), so this file declares them and re-exports
//! nothing.

pub(crate) mod change_gate;
pub(crate) mod change_points;
pub(crate) mod changes;
pub(crate) mod conclude;
pub(crate) mod series;
pub(crate) mod table;
pub(crate) mod trend;
pub(crate) mod words;
