//! The socket scenarios (`echo`, `connections`) on tokio::net, as a tokio server is
//! written: a `TcpListener` (made through `TcpSocket`, which takes the backlog), an
//! acceptor task that `tokio::spawn`s a task per connection, and a task per client;
//! `connections` signals over an `mpsc` channel ("connected") and a `watch` channel ("go").

use kit::sockets::{READ_BUFFER, backlog, byte_sum, echo_buffers, pattern_byte};
use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use crate::{join, join_sum};

/// One iteration of echo: `connections` clients, each `rounds` round trips of `bytes` bytes.
pub(crate) async fn echo(connections: u64, rounds: u64, bytes: u64) -> u64 {
    let (acceptor, addr) = serve(connections, serve_echo);
    let clients = (0..connections)
        .map(|c| tokio::spawn(echo_client(addr, c, rounds, bytes)))
        .collect();
    let sum = join_sum(clients).await;
    join_all(join(acceptor).await).await;
    sum
}

/// One iteration of connections: every pair opened and held, then one byte each way.
pub(crate) async fn connections(connections: u64) -> u64 {
    let (acceptor, addr) = serve(connections, serve_one_byte);
    let (connected_tx, mut connected) = mpsc::channel(connections.max(1) as usize);
    let (go_tx, go) = watch::channel(false);
    let clients = (0..connections)
        .map(|c| tokio::spawn(one_byte_client(addr, c, connected_tx.clone(), go.clone())))
        .collect();
    drop(connected_tx);
    for _ in 0..connections {
        connected
            .recv()
            .await
            .expect("every client says it is connected");
    }
    let servers = join(acceptor).await;
    go_tx.send_replace(true);
    let sum = join_sum(clients).await;
    join_all(servers).await;
    sum
}

/// Listens on 127.0.0.1 with a backlog of `connections` and spawns the acceptor, which
/// accepts that many connections, spawns `server` on each and returns their handles
/// (closing the listener). Returns the acceptor and the listener's address.
fn serve<S, F>(connections: u64, server: S) -> (JoinHandle<Vec<JoinHandle<()>>>, SocketAddr)
where
    S: Fn(TcpStream) -> F + Send + 'static,
    F: Future<Output = ()> + Send + 'static,
{
    let socket = TcpSocket::new_v4().expect("a TCP socket");
    socket
        .bind(kit::sockets::LOOPBACK)
        .expect("binding 127.0.0.1");
    let listener: TcpListener = socket.listen(backlog(connections)).expect("listening");
    let addr = listener.local_addr().expect("the listener's address");
    let acceptor = tokio::spawn(async move {
        let mut servers = Vec::with_capacity(connections as usize);
        for _ in 0..connections {
            let (stream, _) = listener.accept().await.expect("accepting a connection");
            servers.push(tokio::spawn(server(stream)));
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
    let mut buffer = vec![0; READ_BUFFER];
    loop {
        match stream.read(&mut buffer).await.expect("reading a request") {
            0 => return,
            n => stream
                .write_all(&buffer[..n])
                .await
                .expect("echoing a request"),
        }
    }
}

/// An echo client task: connects, then `rounds` round trips; returns the sum of the bytes
/// that came back.
async fn echo_client(addr: SocketAddr, client: u64, rounds: u64, bytes: u64) -> u64 {
    let mut stream = TcpStream::connect(addr).await.expect("connecting");
    stream.set_nodelay(true).expect("setting TCP_NODELAY");
    let (mut request, mut reply) = echo_buffers(bytes);
    let mut sum = 0;
    for round in 0..rounds {
        request.fill(pattern_byte(client, round));
        stream.write_all(&request).await.expect("sending a request");
        stream
            .read_exact(&mut reply)
            .await
            .expect("reading its echo");
        sum += byte_sum(&reply);
    }
    sum
}

/// A connections server task: waits for the one byte, echoes it, waits for end of stream.
async fn serve_one_byte(mut stream: TcpStream) {
    let mut byte = [0];
    stream
        .read_exact(&mut byte)
        .await
        .expect("reading the byte");
    stream.write_all(&byte).await.expect("echoing the byte");
    let end = stream.read(&mut byte).await.expect("reading end of stream");
    assert_eq!(end, 0, "a client sent more than one byte");
}

/// A connections client task: connects, says so, waits for "go", then one byte each way.
async fn one_byte_client(
    addr: SocketAddr,
    client: u64,
    connected: mpsc::Sender<()>,
    mut go: watch::Receiver<bool>,
) -> u64 {
    let mut stream = TcpStream::connect(addr).await.expect("connecting");
    connected.send(()).await.expect("the main task counts");
    drop(connected);
    go.wait_for(|&go| go).await.expect("the main task says go");
    stream
        .write_all(&[pattern_byte(client, 0)])
        .await
        .expect("sending the byte");
    let mut byte = [0];
    stream
        .read_exact(&mut byte)
        .await
        .expect("reading its echo");
    u64::from(byte[0])
}
