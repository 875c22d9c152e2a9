//! taskbench
