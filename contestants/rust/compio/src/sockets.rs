//! The socket scenarios (`echo`, `connections`) on compio::net over its io_uring driver
//! (accept, connect, recv and send are io_uring operations, on buffers the operation owns),
//! written as a compio server is: a `TcpListener` made through `TcpSocket` (which takes the
//! backlog), an acceptor task that `spawn`s a task per connection, and a task per client.
//! compio has no channel of its own: `connections` says "connected" over a futures-channel
//! `mpsc`, as its other scenarios do, and "go" with a futures-channel `oneshot` made
//! `Shared`, one promise every client awaits.

use crate::join;
use compio::buf::BufResult;
use compio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use compio::net::{TcpListener, TcpSocket, TcpStream};
use compio::runtime::{JoinHandle, spawn};
use futures_channel::{mpsc, oneshot};
use futures_util::future::{FutureExt, Shared};
use kit::sockets::{LOOPBACK, READ_BUFFER, backlog, byte_sum, pattern_byte};
use std::net::SocketAddr;

/// One iteration of echo: `connections` clients, each `rounds` round trips of `bytes` bytes.
pub async fn echo(connections: u64, rounds: u64, bytes: u64) -> u64 {
    let (acceptor, addr) = serve(connections, serve_echo).await;
    let clients: Vec<_> = (0..connections)
        .map(|c| spawn(echo_client(addr, c, rounds, bytes)))
        .collect();
    let mut sum = 0;
    for client in clients {
        sum += join(client).await;
    }
    join_all(join(acceptor).await).await;
    sum
}

/// One iteration of connections: every pair opened and held, then one byte each way.
pub async fn connections(connections: u64) -> u64 {
    let (acceptor, addr) = serve(connections, serve_one_byte).await;
    let (connected_tx, mut connected) = mpsc::unbounded();
    let (go_tx, go) = oneshot::channel();
    let go = go.shared();
    let clients: Vec<_> = (0..connections)
        .map(|c| spawn(one_byte_client(addr, c, connected_tx.clone(), go.clone())))
        .collect();
    for _ in 0..connections {
        connected
            .recv()
            .await
            .expect("every client says it is connected");
    }
    let servers = join(acceptor).await;
    go_tx.send(()).expect("the clients wait for go");
    let mut sum = 0;
    for client in clients {
        sum += join(client).await;
    }
    join_all(servers).await;
    sum
}

/// Listens on 127.0.0.1 with a backlog of `connections` and spawns the acceptor, which
/// accepts that many connections, spawns `server` on each and returns their handles
/// (closing the listener). Returns the acceptor and the listener's address.
async fn serve<F: Future<Output = ()> + 'static>(
    connections: u64,
    server: fn(TcpStream) -> F,
) -> (JoinHandle<Vec<JoinHandle<()>>>, SocketAddr) {
    let socket = TcpSocket::new_v4().await.expect("a TCP socket");
    socket.bind(LOOPBACK).await.expect("binding 127.0.0.1");
    let backlog = i32::try_from(backlog(connections)).unwrap_or(i32::MAX);
    let listener: TcpListener = socket.listen(backlog).await.expect("listening");
    let addr = listener.local_addr().expect("the listener's address");
    let acceptor = spawn(async move {
        let mut servers = Vec::with_capacity(connections as usize);
        for _ in 0..connections {
            let (stream, _) = listener.accept().await.expect("accepting a connection");
            servers.push(spawn(server(stream)));
        }
        servers
    });
    (acceptor, addr)
}

async fn join_all(handles: Vec<JoinHandle<()>>) {
    for handle in handles {
        join(handle).await;
    }
}

/// An echo server task: reads what has arrived and writes it all back, until end of stream.
async fn serve_echo(mut stream: TcpStream) {
    stream.set_nodelay(true).expect("setting TCP_NODELAY");
    let mut buffer = Vec::with_capacity(READ_BUFFER);
    loop {
        buffer.clear(); // a read only ever lengthens a Vec (compio's `advance_to`)
        let BufResult(read, filled) = stream.read(buffer).await;
        if read.expect("reading a request") == 0 {
            return;
        }
        let BufResult(written, written_back) = stream.write_all(filled).await;
        written.expect("echoing a request");
        buffer = written_back;
    }
}

/// An echo client task: connects, then `rounds` round trips; returns the sum of the bytes
/// that came back. The buffers move into each operation and come back from it.
async fn echo_client(addr: SocketAddr, client: u64, rounds: u64, bytes: u64) -> u64 {
    let mut stream = TcpStream::connect(addr).await.expect("connecting");
    stream.set_nodelay(true).expect("setting TCP_NODELAY");
    let (mut request, _) = kit::sockets::echo_buffers(bytes);
    let mut reply = Vec::with_capacity(request.len());
    let mut sum = 0;
    for round in 0..rounds {
        request.fill(pattern_byte(client, round));
        let BufResult(written, sent) = stream.write_all(request).await;
        written.expect("sending a request");
        reply.clear(); // a read only ever lengthens a Vec (compio's `advance_to`)
        let BufResult(read, echoed) = stream.read_exact(reply).await;
        read.expect("reading its echo");
        sum += byte_sum(&echoed);
        (request, reply) = (sent, echoed);
    }
    sum
}

/// A connections server task: waits for the one byte, echoes it, waits for end of stream.
async fn serve_one_byte(mut stream: TcpStream) {
    let BufResult(read, byte) = stream.read_exact(Vec::with_capacity(1)).await;
    read.expect("reading the byte");
    let BufResult(written, byte) = stream.write_all(byte).await;
    written.expect("echoing the byte");
    let BufResult(end, _) = stream.read(byte).await;
    assert_eq!(
        end.expect("reading end of stream"),
        0,
        "a client sent more than one byte"
    );
}

/// A connections client task: connects, says so, waits for "go", then one byte each way.
async fn one_byte_client(
    addr: SocketAddr,
    client: u64,
    connected: mpsc::UnboundedSender<()>,
    go: Shared<oneshot::Receiver<()>>,
) -> u64 {
    let mut stream = TcpStream::connect(addr).await.expect("connecting");
    connected.unbounded_send(()).expect("the main task counts");
    drop(connected);
    go.await.expect("the main task says go");
    let BufResult(written, byte) = stream.write_all(vec![pattern_byte(client, 0)]).await;
    written.expect("sending the byte");
    let BufResult(read, byte) = stream.read_exact(byte).await;
    read.expect("reading its echo");
    u64::from(byte[0])
}
