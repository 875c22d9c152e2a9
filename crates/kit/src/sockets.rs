//! The socket scenarios' shared pieces (docs/PROTOCOL.md §4, `echo` and `connections`), so
//! that each contestant writes only its runtime's listener, accept, connect and signals, and
//! its reads and writes only where its streams have io traits or methods of their own
//! (tokio, compio, monoio, floor): the address, the backlog, the byte pattern, the sums, and the
//! per-connection loops, here for the contestants whose tasks block (OS threads, stackful
//! coroutines) and, with kit's `futures-io` feature, the same loops awaited over
//! futures-io's `AsyncRead`/`AsyncWrite` (smol, async-std, glommio).

pub use catalogue::pattern_byte;
use std::ffi::c_int;
use std::io::{self, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
use std::os::fd::AsRawFd;

// The kit's own tests (below) cover the async loops whichever features the build turns on.
#[cfg(any(feature = "futures-io", test))]
mod futures_io;
#[cfg(any(feature = "futures-io", test))]
pub use futures_io::{echo_rounds, one_byte, serve_echo, serve_one_byte};

/// Where every listener binds: 127.0.0.1, an ephemeral port.
pub const LOOPBACK: SocketAddr = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0);

/// The most an echo server reads at once: 64 KiB.
pub const READ_BUFFER: usize = 64 * 1024;

/// The listen backlog for `connections`, for the APIs that take one (the kernel caps it
/// at `net.core.somaxconn`).
pub fn backlog(connections: u64) -> u32 {
    u32::try_from(connections).unwrap_or(u32::MAX)
}

/// A blocking std listener on [`LOOPBACK`] with a backlog of `connections`, for the
/// runtimes whose own `bind` takes no backlog but which adopt a std listener (std itself,
/// async-io's `Async::new`, async-std's `From`, `FromRawFd`): std's `bind` listens with a
/// backlog of 128, and a second `listen` on the listening socket sets the backlog in place
/// (Linux's `inet_listen`).
pub fn listener(connections: u64) -> io::Result<TcpListener> {
    let listener = TcpListener::bind(LOOPBACK)?;
    let backlog = c_int::try_from(connections).unwrap_or(c_int::MAX);
    // SAFETY: the descriptor is the listener's, open for the length of the call.
    if unsafe { libc::listen(listener.as_raw_fd(), backlog) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(listener)
}

/// The sum of `bytes`, each as a number: what a client adds up of what came back.
pub fn byte_sum(bytes: &[u8]) -> u64 {
    bytes.iter().map(|&byte| u64::from(byte)).sum()
}

/// An echo client's buffers: the request of one round and its echo, made once a client.
pub fn echo_buffers(bytes: u64) -> (Vec<u8>, Vec<u8>) {
    let len = usize::try_from(bytes).expect("echo's bytes fit in memory");
    (vec![0; len], vec![0; len])
}

/// An echo server over a blocking stream: reads up to [`READ_BUFFER`] bytes and writes them
/// all back until end of stream. The stream closes when the caller drops it.
pub fn serve_echo_blocking(stream: &mut (impl Read + Write)) -> io::Result<()> {
    let mut buffer = vec![0; READ_BUFFER];
    loop {
        match stream.read(&mut buffer)? {
            0 => return Ok(()),
            n => stream.write_all(&buffer[..n])?,
        }
    }
}

/// An echo client's rounds over a blocking, connected stream: round `r` writes `bytes`
/// bytes of `pattern_byte(client, r)` in one write, reads exactly `bytes` back and adds
/// them up. Returns the client's sum.
pub fn echo_rounds_blocking(
    stream: &mut (impl Read + Write),
    client: u64,
    rounds: u64,
    bytes: u64,
) -> io::Result<u64> {
    let (mut request, mut reply) = echo_buffers(bytes);
    let mut sum = 0;
    for round in 0..rounds {
        request.fill(pattern_byte(client, round));
        stream.write_all(&request)?;
        stream.read_exact(&mut reply)?;
        sum += byte_sum(&reply);
    }
    Ok(sum)
}

/// The `connections` server over a blocking stream: waits in a read for the one byte,
/// writes it back, then waits for end of stream. The stream closes when the caller drops
/// it.
pub fn serve_one_byte_blocking(stream: &mut (impl Read + Write)) -> io::Result<()> {
    let mut byte = [0];
    stream.read_exact(&mut byte)?;
    stream.write_all(&byte)?;
    match stream.read(&mut byte)? {
        0 => Ok(()),
        _ => Err(io::Error::other("a client sent more than one byte")),
    }
}

/// The `connections` client's exchange over a blocking stream, after "go": writes
/// `pattern_byte(client, 0)`, reads the byte echoed and returns it.
pub fn one_byte_blocking(stream: &mut (impl Read + Write), client: u64) -> io::Result<u64> {
    stream.write_all(&[pattern_byte(client, 0)])?;
    let mut byte = [0];
    stream.read_exact(&mut byte)?;
    Ok(u64::from(byte[0]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_lite::future::block_on;
    use futures_lite::io::AssertAsync;
    use std::net::TcpStream;
    use std::thread;

    /// Runs `server` on a thread of its own on the one connection a listener accepts, and
    /// `client` on the stream that connected; then closes the client's end, which ends the
    /// server's loop, joins the server and returns what the client returned.
    fn over_loopback<T>(
        server: impl FnOnce(TcpStream) -> io::Result<()> + Send + 'static,
        client: impl FnOnce(&mut TcpStream) -> io::Result<T>,
    ) -> T {
        let listener = listener(1).unwrap();
        let addr = listener.local_addr().unwrap();
        let server = thread::spawn(move || server(listener.accept().unwrap().0));
        let mut stream = TcpStream::connect(addr).unwrap();
        let returned = client(&mut stream).unwrap();
        drop(stream);
        server.join().unwrap().unwrap();
        returned
    }

    // Every loop faces both its blocking and its async counterpart, over loopback TCP. The
    // async loops run on the same blocking std stream made async by futures-lite's
    // `AssertAsync`, driven by `block_on`.

    #[test]
    fn every_echo_pair_sums_the_pattern() {
        // Client 3, rounds 0…3: ten bytes each of 4, 5, 6 and 7.
        let sum = 10 * (4 + 5 + 6 + 7);
        let blocking_server = |mut stream: TcpStream| serve_echo_blocking(&mut stream);
        let async_server = |stream| block_on(serve_echo(&mut AssertAsync::new(stream)));
        let blocking = |stream: &mut TcpStream| echo_rounds_blocking(stream, 3, 4, 10);
        let awaited =
            |stream: &mut TcpStream| block_on(echo_rounds(&mut AssertAsync::new(stream), 3, 4, 10));
        assert_eq!(over_loopback(blocking_server, blocking), sum);
        assert_eq!(over_loopback(blocking_server, awaited), sum);
        assert_eq!(over_loopback(async_server, blocking), sum);
        assert_eq!(over_loopback(async_server, awaited), sum);
    }

    #[test]
    fn every_one_byte_pair_returns_the_clients_byte() {
        // Client 256's byte: 256 mod 255 + 1.
        let blocking_server = |mut stream: TcpStream| serve_one_byte_blocking(&mut stream);
        let async_server = |stream| block_on(serve_one_byte(&mut AssertAsync::new(stream)));
        let blocking = |stream: &mut TcpStream| one_byte_blocking(stream, 256);
        let awaited =
            |stream: &mut TcpStream| block_on(one_byte(&mut AssertAsync::new(stream), 256));
        assert_eq!(over_loopback(blocking_server, blocking), 2);
        assert_eq!(over_loopback(blocking_server, awaited), 2);
        assert_eq!(over_loopback(async_server, blocking), 2);
        assert_eq!(over_loopback(async_server, awaited), 2);
    }
}
