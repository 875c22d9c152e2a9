//! The `tokio` contestant: the scenarios on tokio's multi-thread runtime, built as
//! `#[tokio::main]` builds it (one worker thread per core, every driver enabled).
//! `TASKBENCH_TOKIO_BODY=worker` runs each iteration's body on a worker instead of in
//! `block_on` (docs/FAIRNESS.md#tokio); it is read once, before the first iteration.

use contestant_tokio::Body;

fn main() {
    let body = Body::from_env().unwrap_or_else(|err| {
        eprintln!("contestant-tokio: {err}");
        std::process::exit(2);
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("building the tokio multi-thread runtime");
    kit::run(|scenario| Ok(contestant_tokio::run(&runtime, body, scenario)))
}
