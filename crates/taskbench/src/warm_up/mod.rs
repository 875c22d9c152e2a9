//! Warm-up, whole: each runtime's rule for how long a process warms up before it is
//! measured ([`rules`], read by the contestants' manifests, under everything), what the
//! processes' iterations show of it ([`curves`]: where each settles), and those curves in
//! words ([`words`], `taskbench warmup`'s table). Its parts sit at different places in the
//! pipeline (tests/integration/layers.rs names each), so this file declares them and
//! re-exports nothing.

pub(crate) mod curves;
pub(crate) mod words;
