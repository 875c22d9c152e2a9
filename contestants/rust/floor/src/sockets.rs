//! The socket scenarios (`echo`, `connections`) on floor's own TCP (`crate::net`, over the
//! epoll reactor of `crate::reactor`): an acceptor task that spawns a task per connection,
//! and a task per client; `connections` says "connected" over floor's `mpsc` channel and
//! "go" with floor's `Latch`.

use crate::executor::{JoinHandle, spawn};
use crate::latch::Latch;
use crate::mpsc;
use crate::net::{TcpListener, TcpStream};
use kit::sockets::{READ_BUFFER, byte_sum, echo_buffers, pattern_byte};
use std::net::{SocketAddr, SocketAddrV4};

/// One iteration of echo: `connections` clients, each `rounds` round trips of `bytes` bytes.
pub async fn echo(connections: u64, rounds: u64, bytes: u64) -> u64 {
    let (acceptor, addr) = serve(connections, serve_echo);
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
    let (acceptor, addr) = serve(connections, serve_one_byte);
    let (connected_tx, mut connected) = mpsc::channel();
    let go = Latch::default();
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
    go.open();
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
fn serve<F: Future<Output = ()> + 'static>(
    connections: u64,
    server: fn(TcpStream) -> F,
) -> (JoinHandle<Vec<JoinHandle<()>>>, SocketAddrV4) {
    let listener = TcpListener::bind(connections).expect("listening on 127.0.0.1");
    let SocketAddr::V4(addr) = listener.local_addr().expect("the listener's address") else {
        unreachable!("the listener is on 127.0.0.1");
    };
    let acceptor = spawn(async move {
        let mut servers = Vec::with_capacity(connections as usize);
        for _ in 0..connections {
            let stream = listener.accept().await.expect("accepting a connection");
            servers.push(spawn(server(stream)));
        }
        servers
    });
    (acceptor, addr)
}

async fn join<T>(handle: JoinHandle<T>) -> T {
    handle.await.expect("a joined task runs to its end")
}

async fn join_all(handles: Vec<JoinHandle<()>>) {
    for handle in handles {
        join(handle).await;
    }
}

/// An echo server task: reads what has arrived and writes it all back, until end of stream.
async fn serve_echo(stream: TcpStream) {
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
async fn echo_client(addr: SocketAddrV4, client: u64, rounds: u64, bytes: u64) -> u64 {
    let stream = TcpStream::connect(addr).await.expect("connecting");
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
async fn serve_one_byte(stream: TcpStream) {
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
    addr: SocketAddrV4,
    client: u64,
    connected: mpsc::Sender<()>,
    go: Latch,
) -> u64 {
    let stream = TcpStream::connect(addr).await.expect("connecting");
    connected.send(());
    drop(connected);
    go.wait().await;
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
