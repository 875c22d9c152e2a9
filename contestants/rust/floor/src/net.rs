//! floor's TCP: std's sockets in nonblocking mode, each registered with the reactor, and the
//! few system calls std leaves blocking made with libc: `accept4` and `socket` with
//! `SOCK_NONBLOCK` (no extra `fcntl`), and a nonblocking `connect` that waits for the
//! socket to become writable.

use crate::reactor::{Interest, Source, check};
use std::future::poll_fn;
use std::io::{self, Read, Write};
use std::net::{SocketAddr, SocketAddrV4};
use std::os::fd::{AsRawFd, FromRawFd};
use std::task::Context;

/// A listening socket on 127.0.0.1 with a backlog of `connections`.
pub struct TcpListener {
    socket: std::net::TcpListener,
    source: Box<Source>,
}

/// A connected socket.
pub struct TcpStream {
    socket: std::net::TcpStream,
    source: Box<Source>,
}

impl TcpListener {
    pub fn bind(connections: u64) -> io::Result<TcpListener> {
        let socket = kit::sockets::listener(connections)?;
        socket.set_nonblocking(true)?;
        let source = Source::register(socket.as_raw_fd())?;
        Ok(TcpListener { socket, source })
    }

    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.socket.local_addr()
    }

    pub async fn accept(&self) -> io::Result<TcpStream> {
        let fd = self.socket.as_raw_fd();
        let flags = libc::SOCK_NONBLOCK | libc::SOCK_CLOEXEC;
        // SAFETY: null address pointers ask for no peer address.
        let accept = || check(unsafe { libc::accept4(fd, NULL, NULL_LEN, flags) });
        let fd = poll_fn(|cx| self.source.poll(cx, Interest::Read, accept)).await?;
        // SAFETY: `accept4` returned a new socket that nothing else owns.
        TcpStream::new(unsafe { std::net::TcpStream::from_raw_fd(fd) })
    }
}

const NULL: *mut libc::sockaddr = std::ptr::null_mut();
const NULL_LEN: *mut libc::socklen_t = std::ptr::null_mut();

impl TcpStream {
    fn new(socket: std::net::TcpStream) -> io::Result<TcpStream> {
        let source = Source::register(socket.as_raw_fd())?;
        Ok(TcpStream { socket, source })
    }

    /// Connects to `addr` (IPv4) without blocking the thread: a nonblocking `connect`,
    /// then, if it is in progress, one wait for the socket to become writable (the
    /// handshake is over) and `SO_ERROR` to say how it ended.
    pub async fn connect(addr: SocketAddrV4) -> io::Result<TcpStream> {
        let kind = libc::SOCK_STREAM | libc::SOCK_NONBLOCK | libc::SOCK_CLOEXEC;
        // SAFETY: no pointers; the result is checked.
        let fd = check(unsafe { libc::socket(libc::AF_INET, kind, 0) })?;
        // SAFETY: a new socket that nothing else owns.
        let socket = unsafe { std::net::TcpStream::from_raw_fd(fd) };
        let sockaddr = libc::sockaddr_in {
            sin_family: libc::AF_INET as libc::sa_family_t,
            sin_port: addr.port().to_be(),
            sin_addr: libc::in_addr {
                s_addr: u32::from(*addr.ip()).to_be(),
            },
            sin_zero: [0; 8],
        };
        let len = size_of::<libc::sockaddr_in>() as libc::socklen_t;
        // SAFETY: `sockaddr` is a valid sockaddr_in of `len` bytes.
        let started = check(unsafe { libc::connect(fd, (&raw const sockaddr).cast(), len) });
        let in_progress = match started {
            Err(err) if err.raw_os_error() == Some(libc::EINPROGRESS) => true,
            other => other.map(|_| false)?,
        };
        let stream = TcpStream::new(socket)?;
        if in_progress {
            // Not writable until the handshake is over: the first poll waits for the edge.
            stream.source.clear(Interest::Write);
            let connected = || stream.socket.take_error()?.map_or(Ok(()), Err);
            poll_fn(|cx| stream.source.poll(cx, Interest::Write, connected)).await?;
        }
        Ok(stream)
    }

    pub fn set_nodelay(&self, nodelay: bool) -> io::Result<()> {
        self.socket.set_nodelay(nodelay)
    }

    /// Reads what has arrived, up to `buf.len()` bytes; 0 at end of stream. A read that
    /// comes back short has emptied the socket: the next one waits for an edge.
    pub async fn read(&self, buf: &mut [u8]) -> io::Result<usize> {
        let (mut socket, len) = (&self.socket, buf.len());
        let n = poll_fn(|cx| self.source.poll(cx, Interest::Read, || socket.read(buf))).await?;
        if n > 0 && n < len {
            self.source.clear(Interest::Read);
        }
        Ok(n)
    }

    pub async fn read_exact(&self, mut buf: &mut [u8]) -> io::Result<()> {
        while !buf.is_empty() {
            match self.read(buf).await? {
                0 => return Err(io::ErrorKind::UnexpectedEof.into()),
                n => buf = &mut buf[n..],
            }
        }
        Ok(())
    }

    pub async fn write_all(&self, mut buf: &[u8]) -> io::Result<()> {
        let mut socket = &self.socket;
        while !buf.is_empty() {
            let write =
                |cx: &mut Context<'_>| self.source.poll(cx, Interest::Write, || socket.write(buf));
            let n = poll_fn(write).await?;
            if n < buf.len() {
                // A short write filled the send buffer: the next one waits for an edge.
                self.source.clear(Interest::Write);
            }
            buf = &buf[n..];
        }
        Ok(())
    }
}
