//! Sweeps, whole, as a session shows them: the per-task cost across the sizes of a scenario
//! as a table after a sweep's last point ([`words`]). What it shows is decided below the
//! features: the fits by least squares are the analysis's (`analysis::fits`), a runtime's
//! releases in release order (`-c go@1.20,go@1.26`) the contestants' (`contestant::releases`,
//! beside contestant/variant, which builds them), and results.json carries both.

pub(crate) mod words;
