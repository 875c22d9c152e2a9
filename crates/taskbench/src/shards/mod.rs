//! Shards and merging, whole: which cases one shard of a session runs (`--shard 2/4`,
//! [`cases`]), and the shards' folders merged into one session, or several machines' side by
//! side (`taskbench merge`, [`merge`]). A shard as a run records it (`run::Shard`) is part of
//! the run's model.

pub(crate) mod cases;
pub(crate) mod merge;
