//! The `tokio-current` contestant: the scenarios of `contestant-tokio` on tokio's
//! current-thread runtime (every task on the main thread, every driver enabled), as
//! `#[tokio::main(flavor = "current_thread")]` builds it.

use contestant_tokio::Body;

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("building the tokio current-thread runtime");
    // One thread: the body of `block_on` is already where every task runs.
    kit::run(|scenario| Ok(contestant_tokio::run(&runtime, Body::BlockOn, scenario)))
}
