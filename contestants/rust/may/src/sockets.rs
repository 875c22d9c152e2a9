//! The socket scenarios (`echo`, `connections`) on may::net, whose blocking-style reads and
//! writes suspend only the coroutine (may's epoll reactor resumes it), written as a Go
//! server is: an acceptor coroutine that `go!`s a coroutine per connection, and a coroutine
//! per client; `connections` signals over `may::sync::mpsc` ("connected") and a
//! `may::sync::Barrier` ("go"). may's `bind` takes no backlog (it listens with 1024), so
//! the listener is `kit::sockets::listener`'s std one, adopted through may's `FromRawFd`.

use kit::sockets::{echo_rounds_blocking, one_byte_blocking, serve_echo_blocking};
use kit::sockets::{listener, serve_one_byte_blocking};
use may::coroutine::JoinHandle;
use may::go;
use may::net::{TcpListener, TcpStream};
use may::sync::{Barrier, mpsc};
use std::net::SocketAddr;
use std::os::fd::{FromRawFd, IntoRawFd};
use std::sync::Arc;

/// One iteration of echo: `connections` clients, each `rounds` round trips of `bytes` bytes.
pub fn echo(connections: u64, rounds: u64, bytes: u64) -> u64 {
    let (acceptor, addr) = serve(connections, |mut stream| {
        stream.set_nodelay(true).expect("setting TCP_NODELAY");
        serve_echo_blocking(&mut stream).expect("echoing");
    });
    let clients: Vec<_> = (0..connections)
        .map(|c| {
            go!(move || {
                let mut stream = TcpStream::connect(addr).expect("connecting");
                stream.set_nodelay(true).expect("setting TCP_NODELAY");
                echo_rounds_blocking(&mut stream, c, rounds, bytes).expect("a round trip")
            })
        })
        .collect();
    let sum = clients.into_iter().map(join).sum();
    join(acceptor).into_iter().for_each(join);
    sum
}

/// One iteration of connections: every pair opened and held, then one byte each way.
pub fn connections(connections: u64) -> u64 {
    let (acceptor, addr) = serve(connections, |mut stream| {
        serve_one_byte_blocking(&mut stream).expect("echoing the byte");
    });
    let (connected_tx, connected) = mpsc::channel();
    let go = Arc::new(Barrier::new(connections as usize + 1));
    let clients: Vec<_> = (0..connections)
        .map(|c| {
            let (connected, go) = (connected_tx.clone(), go.clone());
            go!(move || {
                let mut stream = TcpStream::connect(addr).expect("connecting");
                connected.send(()).expect("the main coroutine counts");
                go.wait();
                one_byte_blocking(&mut stream, c).expect("one byte each way")
            })
        })
        .collect();
    for _ in 0..connections {
        connected.recv().expect("every client says it is connected");
    }
    let servers = join(acceptor);
    go.wait();
    let sum = clients.into_iter().map(join).sum();
    servers.into_iter().for_each(join);
    sum
}

/// Listens on 127.0.0.1 with a backlog of `connections` and starts the acceptor coroutine,
/// which accepts that many connections, starts a coroutine running `server` on each and
/// returns their handles (closing the listener). Returns it and the listener's address.
fn serve(connections: u64, server: fn(TcpStream)) -> (JoinHandle<Vec<JoinHandle<()>>>, SocketAddr) {
    let listener = listener(connections).expect("listening on 127.0.0.1");
    // SAFETY: the descriptor is a listening TCP socket whose ownership moves to may's type.
    let listener = unsafe { TcpListener::from_raw_fd(listener.into_raw_fd()) };
    let addr = listener.local_addr().expect("the listener's address");
    let acceptor = go!(move || {
        (0..connections)
            .map(|_| {
                let (stream, _) = listener.accept().expect("accepting a connection");
                go!(move || server(stream))
            })
            .collect()
    });
    (acceptor, addr)
}

/// Waits for a coroutine and takes its result.
fn join<T>(handle: JoinHandle<T>) -> T {
    handle.join().expect("a coroutine panicked")
}
