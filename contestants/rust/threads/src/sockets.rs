//! The socket scenarios (`echo`, `connections`) on std::net with blocking reads and writes,
//! as a server without an async runtime is written: an acceptor thread that spawns a thread
//! per connection, and a thread per client; `connections` signals over `std::sync::mpsc`
//! ("connected") and a `std::sync::Barrier` ("go"). std's `bind` takes no backlog, so the
//! listener comes from `kit::sockets::listener`, std's own with the backlog set.

use crate::spawn::spawn;
use kit::sockets::{echo_rounds_blocking, one_byte_blocking, serve_echo_blocking};
use kit::sockets::{listener, serve_one_byte_blocking};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Barrier, mpsc};
use std::thread::JoinHandle;

use crate::scenarios::join;

/// One iteration of echo: `connections` clients, each `rounds` round trips of `bytes` bytes.
pub fn echo(connections: u64, rounds: u64, bytes: u64) -> u64 {
    let (acceptor, addr) = serve(connections, |mut stream| {
        stream.set_nodelay(true).expect("setting TCP_NODELAY");
        serve_echo_blocking(&mut stream).expect("echoing");
    });
    let clients: Vec<_> = (0..connections)
        .map(|c| {
            spawn(move || {
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
            spawn(move || {
                let mut stream = TcpStream::connect(addr).expect("connecting");
                connected.send(()).expect("the main thread counts");
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

/// Listens on 127.0.0.1 with a backlog of `connections` and spawns the acceptor thread,
/// which accepts that many connections, spawns a thread running `server` on each and
/// returns their handles (closing the listener). Returns it and the listener's address.
fn serve(connections: u64, server: fn(TcpStream)) -> (JoinHandle<Vec<JoinHandle<()>>>, SocketAddr) {
    let listener = listener(connections).expect("listening on 127.0.0.1");
    let addr = listener.local_addr().expect("the listener's address");
    let acceptor = spawn(move || {
        (0..connections)
            .map(|_| {
                let (stream, _) = listener.accept().expect("accepting a connection");
                spawn(move || server(stream))
            })
            .collect()
    });
    (acceptor, addr)
}
