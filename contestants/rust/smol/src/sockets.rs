//! The socket scenarios (`echo`, `connections`) on smol::net (async-net over async-io's
//! reactor), as a smol server is written: an acceptor task that spawns a task per
//! connection on the executor, and a task per client; `connections` signals over
//! async-channel: one message a client for "connected", and one channel closed by the main
//! task for "go", which wakes every client waiting on it. smol's `bind` takes no backlog,
//! so the listener is `kit::sockets::listener`'s std one, adopted by smol as async-io's
//! docs show (`Async::new`, here through `TryFrom`).
//!
//! What each connection does is kit's (`kit::sockets::serve_echo`, `echo_rounds`,
//! `serve_one_byte`, `one_byte`), over the futures-io `AsyncRead`/`AsyncWrite` that
//! smol's `TcpStream` implements; this file is the runtime's own part around it.

use crate::{Ex, join_sum};
use kit::sockets::{self, listener};
use smol::Task;
use smol::channel::{self, Receiver, Sender};
use smol::net::{SocketAddr, TcpListener, TcpStream};

/// One iteration of echo: `connections` clients, each `rounds` round trips of `bytes` bytes.
pub(crate) async fn echo(ex: Ex, connections: u64, rounds: u64, bytes: u64) -> u64 {
    let (acceptor, addr) = serve(ex, connections, serve_echo);
    let clients = (0..connections)
        .map(|c| ex.spawn(echo_client(addr, c, rounds, bytes)))
        .collect();
    let sum = join_sum(clients).await;
    join_all(acceptor.await).await;
    sum
}

/// One iteration of connections: every pair opened and held, then one byte each way.
pub(crate) async fn connections(ex: Ex, connections: u64) -> u64 {
    let (acceptor, addr) = serve(ex, connections, serve_one_byte);
    let (connected_tx, connected) = channel::unbounded();
    let (go_tx, go) = channel::bounded(1);
    let clients = (0..connections)
        .map(|c| ex.spawn(one_byte_client(addr, c, connected_tx.clone(), go.clone())))
        .collect();
    for _ in 0..connections {
        connected
            .recv()
            .await
            .expect("every client says it is connected");
    }
    let servers = acceptor.await;
    drop(go_tx); // "go": closing the channel wakes every client waiting on it
    let sum = join_sum(clients).await;
    join_all(servers).await;
    sum
}

/// Listens on 127.0.0.1 with a backlog of `connections` and spawns the acceptor, which
/// accepts that many connections, spawns `server` on each and returns their tasks
/// (closing the listener). Returns the acceptor and the listener's address.
fn serve<S, F>(ex: Ex, connections: u64, server: S) -> (Task<Vec<Task<()>>>, SocketAddr)
where
    S: Fn(TcpStream) -> F + Send + 'static,
    F: Future<Output = ()> + Send + 'static,
{
    let listener = listener(connections).expect("listening on 127.0.0.1");
    let listener = TcpListener::try_from(listener).expect("registering the listener");
    let addr = listener.local_addr().expect("the listener's address");
    let acceptor = ex.spawn(async move {
        let mut servers = Vec::with_capacity(connections as usize);
        for _ in 0..connections {
            let (stream, _) = listener.accept().await.expect("accepting a connection");
            servers.push(ex.spawn(server(stream)));
        }
        servers
    });
    (acceptor, addr)
}

async fn join_all(tasks: Vec<Task<()>>) {
    for task in tasks {
        task.await;
    }
}

/// An echo server task: reads what has arrived and writes it all back, until end of stream.
async fn serve_echo(mut stream: TcpStream) {
    stream.set_nodelay(true).expect("setting TCP_NODELAY");
    sockets::serve_echo(&mut stream).await.expect("echoing");
}

/// An echo client task: connects, then `rounds` round trips; returns the sum of the bytes
/// that came back.
async fn echo_client(addr: SocketAddr, client: u64, rounds: u64, bytes: u64) -> u64 {
    let mut stream = TcpStream::connect(addr).await.expect("connecting");
    stream.set_nodelay(true).expect("setting TCP_NODELAY");
    sockets::echo_rounds(&mut stream, client, rounds, bytes)
        .await
        .expect("a round trip")
}

/// A connections server task: waits for the one byte, echoes it, waits for end of stream.
async fn serve_one_byte(mut stream: TcpStream) {
    sockets::serve_one_byte(&mut stream)
        .await
        .expect("echoing the byte");
}

/// A connections client task: connects, says so, waits for "go", then one byte each way.
async fn one_byte_client(
    addr: SocketAddr,
    client: u64,
    connected: Sender<()>,
    go: Receiver<()>,
) -> u64 {
    let mut stream = TcpStream::connect(addr).await.expect("connecting");
    connected.send(()).await.expect("the main task counts");
    drop(connected);
    // The main task never sends: the channel closing is the "go".
    go.recv()
        .await
        .expect_err("the main task says go by closing");
    sockets::one_byte(&mut stream, client)
        .await
        .expect("one byte each way")
}
