//! The socket scenarios' per-connection loops over futures-io's `AsyncRead` and
//! `AsyncWrite`, the traits smol's, async-std's and glommio's streams all implement, so that
//! those contestants keep only their runtime's own part (listener, connect, spawn, signals,
//! join). Behind kit's `futures-io` feature: the other contestants link none of it. Each
//! loop is its blocking twin in `kit::sockets` awaited, call for call: one write a round,
//! reads until the round is back (futures-lite's `write_all` and `read_exact`, which poll
//! the stream exactly as async-std's own extension methods do).

use super::{READ_BUFFER, byte_sum, echo_buffers, pattern_byte};
use futures_lite::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use std::io;

/// An echo server over an async stream: reads up to [`READ_BUFFER`] bytes and writes them
/// all back until end of stream. The stream closes when the caller drops it.
pub async fn serve_echo(stream: &mut (impl AsyncRead + AsyncWrite + Unpin)) -> io::Result<()> {
    let mut buffer = vec![0; READ_BUFFER];
    loop {
        match stream.read(&mut buffer).await? {
            0 => return Ok(()),
            n => stream.write_all(&buffer[..n]).await?,
        }
    }
}

/// An echo client's rounds over an async, connected stream: round `r` writes `bytes` bytes
/// of `pattern_byte(client, r)` in one write, reads exactly `bytes` back and adds them up.
/// Returns the client's sum.
pub async fn echo_rounds(
    stream: &mut (impl AsyncRead + AsyncWrite + Unpin),
    client: u64,
    rounds: u64,
    bytes: u64,
) -> io::Result<u64> {
    let (mut request, mut reply) = echo_buffers(bytes);
    let mut sum = 0;
    for round in 0..rounds {
        request.fill(pattern_byte(client, round));
        stream.write_all(&request).await?;
        stream.read_exact(&mut reply).await?;
        sum += byte_sum(&reply);
    }
    Ok(sum)
}

/// The `connections` server over an async stream: waits in a read for the one byte, writes
/// it back, then waits for end of stream. The stream closes when the caller drops it.
pub async fn serve_one_byte(stream: &mut (impl AsyncRead + AsyncWrite + Unpin)) -> io::Result<()> {
    let mut byte = [0];
    stream.read_exact(&mut byte).await?;
    stream.write_all(&byte).await?;
    match stream.read(&mut byte).await? {
        0 => Ok(()),
        _ => Err(io::Error::other("a client sent more than one byte")),
    }
}

/// The `connections` client's exchange over an async stream, after "go": writes
/// `pattern_byte(client, 0)`, reads the byte echoed and returns it.
pub async fn one_byte(
    stream: &mut (impl AsyncRead + AsyncWrite + Unpin),
    client: u64,
) -> io::Result<u64> {
    stream.write_all(&[pattern_byte(client, 0)]).await?;
    let mut byte = [0];
    stream.read_exact(&mut byte).await?;
    Ok(u64::from(byte[0]))
}
