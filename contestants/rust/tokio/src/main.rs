//! The `tokio` contestant: the scenarios on tokio's multi-thread runtime, built as
//! `#[tokio::main]` builds it (one worker thread per core, every driver enabled).

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("building the tokio multi-thread runtime");
    kit::run(|scenario| Ok(contestant_tokio::run(&runtime, scenario)))
}
