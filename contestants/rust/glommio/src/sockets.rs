//! The socket scenarios (`echo`, `connections`) on glommio::net, whose reads and writes
//! are io_uring operations of the executor's reactor, written as a glommio server is: an
//! acceptor task that `spawn_local`s a task per connection, and a task per client;
//! `connections` counts with two glommio `Semaphore`s, one the clients signal when
//! connected and one the main task signals for "go". glommio's `bind` takes no backlog (it
//! listens with 1024), so the listener is `kit::sockets::listener`'s std one, adopted
//! through glommio's `FromRawFd`.
//!
//! What each connection does is kit's (`kit::sockets::serve_echo`, `echo_rounds`,
//! `serve_one_byte`, `one_byte`), over the futures-io `AsyncRead`/`AsyncWrite` that
//! glommio's `TcpStream` implements; this file is the runtime's own part around it.

use glommio::net::{TcpListener, TcpStream};
use glommio::sync::Semaphore;
use glommio::{Task, spawn_local};
use kit::sockets::{self, listener};
use std::net::SocketAddr;
use std::os::fd::{FromRawFd, IntoRawFd};
use std::rc::Rc;

/// One iteration of echo: `connections` clients, each `rounds` round trips of `bytes` bytes.
pub async fn echo(connections: u64, rounds: u64, bytes: u64) -> u64 {
    let (acceptor, addr) = serve(connections, serve_echo);
    let clients: Vec<_> = (0..connections)
        .map(|c| spawn_local(echo_client(addr, c, rounds, bytes)))
        .collect();
    let mut sum = 0;
    for client in clients {
        sum += client.await;
    }
    join_all(acceptor.await).await;
    sum
}

/// One iteration of connections: every pair opened and held, then one byte each way.
pub async fn connections(connections: u64) -> u64 {
    let (acceptor, addr) = serve(connections, serve_one_byte);
    let connected = Rc::new(Semaphore::new(0));
    let go = Rc::new(Semaphore::new(0));
    let clients: Vec<_> = (0..connections)
        .map(|c| spawn_local(one_byte_client(addr, c, connected.clone(), go.clone())))
        .collect();
    connected
        .acquire(connections)
        .await
        .expect("every client says it is connected");
    let servers = acceptor.await;
    go.signal(connections);
    let mut sum = 0;
    for client in clients {
        sum += client.await;
    }
    join_all(servers).await;
    sum
}

/// Listens on 127.0.0.1 with a backlog of `connections` and spawns the acceptor, which
/// accepts that many connections, spawns `server` on each and returns their tasks
/// (closing the listener). Returns the acceptor and the listener's address.
fn serve<F: Future<Output = ()> + 'static>(
    connections: u64,
    server: fn(TcpStream) -> F,
) -> (Task<Vec<Task<()>>>, SocketAddr) {
    let listener = listener(connections).expect("listening on 127.0.0.1");
    // SAFETY: the descriptor is a listening TCP socket, whose ownership moves to glommio.
    let listener = unsafe { TcpListener::from_raw_fd(listener.into_raw_fd()) };
    let addr = listener.local_addr().expect("the listener's address");
    let acceptor = spawn_local(async move {
        let mut servers = Vec::with_capacity(connections as usize);
        for _ in 0..connections {
            let stream = listener.accept().await.expect("accepting a connection");
            servers.push(spawn_local(server(stream)));
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
    connected: Rc<Semaphore>,
    go: Rc<Semaphore>,
) -> u64 {
    let mut stream = TcpStream::connect(addr).await.expect("connecting");
    connected.signal(1);
    go.acquire(1).await.expect("the main task says go");
    sockets::one_byte(&mut stream, client)
        .await
        .expect("one byte each way")
}
