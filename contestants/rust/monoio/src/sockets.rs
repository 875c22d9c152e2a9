//! The socket scenarios (`echo`, `connections`) on monoio::net over its io_uring driver
//! (accept, connect, recv and send are io_uring operations, on buffers the operation owns),
//! written as a monoio server is: a `TcpListener` bound with `ListenerOpts` (which take the
//! backlog), an acceptor task that `monoio::spawn`s a task per connection, and a task per
//! client; `connections` counts with two `local-sync` semaphores, one the clients add to
//! when connected and one the main task fills for "go".

use kit::sockets::{LOOPBACK, READ_BUFFER, backlog, byte_sum, pattern_byte};
use local_sync::semaphore::Semaphore;
use monoio::io::{AsyncReadRent, AsyncReadRentExt, AsyncWriteRentExt};
use monoio::net::{ListenerOpts, TcpListener, TcpStream};
use monoio::spawn;
use monoio::task::JoinHandle;
use std::net::SocketAddr;
use std::rc::Rc;

/// One iteration of echo: `connections` clients, each `rounds` round trips of `bytes` bytes.
pub async fn echo(connections: u64, rounds: u64, bytes: u64) -> u64 {
    let (acceptor, addr) = serve(connections, serve_echo);
    let clients: Vec<_> = (0..connections)
        .map(|c| spawn(echo_client(addr, c, rounds, bytes)))
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
        .map(|c| spawn(one_byte_client(addr, c, connected.clone(), go.clone())))
        .collect();
    let count = u32::try_from(connections).expect("the catalogue caps connections at 65,535");
    connected
        .acquire_many(count)
        .await
        .expect("every client says it is connected")
        .forget();
    let servers = acceptor.await;
    go.add_permits(connections as usize);
    let mut sum = 0;
    for client in clients {
        sum += client.await;
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
) -> (JoinHandle<Vec<JoinHandle<()>>>, SocketAddr) {
    let backlog = i32::try_from(backlog(connections)).unwrap_or(i32::MAX);
    let opts = ListenerOpts::new().backlog(backlog);
    let listener = TcpListener::bind_with_config(LOOPBACK, &opts).expect("listening");
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
        handle.await;
    }
}

/// An echo server task: reads what has arrived and writes it all back, until end of stream.
async fn serve_echo(mut stream: TcpStream) {
    stream.set_nodelay(true).expect("setting TCP_NODELAY");
    let mut buffer = Vec::with_capacity(READ_BUFFER);
    loop {
        let (read, filled) = stream.read(buffer).await;
        if read.expect("reading a request") == 0 {
            return;
        }
        let (written, mut written_back) = stream.write_all(filled).await;
        written.expect("echoing a request");
        written_back.clear();
        buffer = written_back;
    }
}

/// An echo client task: connects, then `rounds` round trips; returns the sum of the bytes
/// that came back. The buffers move into each operation and come back from it.
async fn echo_client(addr: SocketAddr, client: u64, rounds: u64, bytes: u64) -> u64 {
    let mut stream = TcpStream::connect_addr(addr).await.expect("connecting");
    stream.set_nodelay(true).expect("setting TCP_NODELAY");
    let (request, reply) = kit::sockets::echo_buffers(bytes);
    let (mut request, mut reply) = (request.into_boxed_slice(), reply.into_boxed_slice());
    let mut sum = 0;
    for round in 0..rounds {
        request.fill(pattern_byte(client, round));
        let (written, sent) = stream.write_all(request).await;
        written.expect("sending a request");
        let (read, echoed) = stream.read_exact(reply).await;
        read.expect("reading its echo");
        sum += byte_sum(&echoed);
        (request, reply) = (sent, echoed);
    }
    sum
}

/// A connections server task: waits for the one byte, echoes it, waits for end of stream.
async fn serve_one_byte(mut stream: TcpStream) {
    let (read, byte) = stream.read_exact(Box::new([0u8]) as Box<[u8]>).await;
    read.expect("reading the byte");
    let (written, byte) = stream.write_all(byte).await;
    written.expect("echoing the byte");
    let (end, _) = stream.read(byte).await;
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
    connected: Rc<Semaphore>,
    go: Rc<Semaphore>,
) -> u64 {
    let mut stream = TcpStream::connect_addr(addr).await.expect("connecting");
    connected.add_permits(1);
    go.acquire().await.expect("the main task says go").forget();
    let byte: Box<[u8]> = Box::new([pattern_byte(client, 0)]);
    let (written, byte) = stream.write_all(byte).await;
    written.expect("sending the byte");
    let (read, byte) = stream.read_exact(byte).await;
    read.expect("reading its echo");
    u64::from(byte[0])
}
