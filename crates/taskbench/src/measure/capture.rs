//! Reads a child's stdout and stderr on their own threads, so that a chatty child never
//! blocks on a full pipe, keeping all of stdout (bounded) and the tail of stderr.

use std::io::Read;
use std::thread::JoinHandle;

/// At most this much stdout is kept; a protocol line is far shorter, so a child that prints
/// more is reported as bad output rather than filling the harness's memory.
pub const STDOUT_CAP: usize = 1 << 20;
/// Bytes of stderr kept for a failed run's status.
const STDERR_TAIL: usize = 2048;

/// Reads everything, keeping the first `STDOUT_CAP` bytes.
pub fn head(mut source: impl Read + Send + 'static) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 8192];
        while let Ok(n @ 1..) = source.read(&mut buf) {
            let room = STDOUT_CAP.saturating_sub(kept.len());
            kept.extend_from_slice(&buf[..n.min(room)]);
        }
        String::from_utf8_lossy(&kept).into_owned()
    })
}

/// Reads everything, keeping the last `STDERR_TAIL` bytes from a line start.
pub fn tail(mut source: impl Read + Send + 'static) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut kept: Vec<u8> = Vec::new();
        let mut buf = [0u8; 8192];
        while let Ok(n @ 1..) = source.read(&mut buf) {
            kept.extend_from_slice(&buf[..n]);
            if kept.len() > 2 * STDERR_TAIL {
                kept.drain(..kept.len() - STDERR_TAIL);
            }
        }
        let mut start = kept.len().saturating_sub(STDERR_TAIL);
        if start > 0 {
            start = kept[start..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(start, |p| start + p + 1);
        }
        String::from_utf8_lossy(&kept[start..])
            .trim_end()
            .to_string()
    })
}
