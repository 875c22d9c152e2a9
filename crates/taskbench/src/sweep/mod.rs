//! Sweeps, whole: the per-task cost across the sizes of a scenario, fitted by least squares
//! ([`fits`]), and shown as a table after a sweep's last point ([`words`]); a runtime across
//! its releases (`-c go@1.20,go@1.26`), found from the names and put in release order
//! ([`releases`]; the releases are built by contestant/variant). Its parts sit at different
//! places in the pipeline (tests/integration/layers.rs names each), so this file declares
//! them and re-exports nothing.

pub(crate) mod fits;
pub(crate) mod releases;
pub(crate) mod words;
