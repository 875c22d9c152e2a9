//! taskbench's integration tests: the real binary, real processes, purpose-made fixtures
//! and the real contestants. One test binary, its helpers in `util`. It is a launcher too:
//! tests that drive the library start contestants' commands as `current_exe() __launch …`
//! (measure/launcher.rs `launch_if_asked`, run before the test runner's `main`).

measure::launch_before_main!();

mod actionlint;
mod agree;
mod bad_input;
mod bisect;
mod browser;
mod cdp;
mod changes;
mod ci_trust;
mod ci_workflow;
mod contestants;
mod crate_graph;
mod dated_figures;
mod exit_codes;
mod exports;
mod failures;
mod fairness;
mod gate;
mod hostile;
mod instructions;
mod interrupts;
mod layers;
mod less_work;
mod measurement;
mod plausible;
mod postgres;
mod postgres_tls;
mod presets;
mod readme;
mod session;
mod shards;
mod site;
mod site_store;
mod sockets;
mod terminal;
mod unix;
mod usage;
mod util;
mod variants;
mod variants_libraries;
mod warm_up;
