//! Reads a child's stdout or stderr to its end on a thread of its own, so that a chatty
//! child never blocks on a full pipe, keeping a bounded part (the head or the tail) and
//! counting the rest: a flood costs the harness time, never memory. Used by every child the
//! harness starts (contestants through the launcher, and their own commands).

use std::io::Read;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// At most this much stdout is kept of a measured run; a protocol line is far shorter, so
/// a run that prints more is bad output (`Measurement::stdout_bytes` past what was kept).
pub(crate) const STDOUT_CAP: usize = 1 << 20;

/// Which part of a stream is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// The first `n` bytes.
    Head(usize),
    /// The last `n` bytes, from a line start.
    Tail(usize),
}

/// What was read of a stream.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Captured {
    /// The part kept (lossy UTF-8).
    pub(crate) text: String,
    /// Every byte read, kept or not.
    pub(crate) total_bytes: u64,
    /// Whether the stream ended; false when something (a process that left the group)
    /// still held it open when the grace passed.
    pub(crate) ended: bool,
}

/// A stream being read on its own thread.
pub(crate) struct Drain {
    state: Arc<Mutex<State>>,
    thread: JoinHandle<()>,
}

#[derive(Default)]
struct State {
    kept: Vec<u8>,
    total: u64,
}

impl Drain {
    /// Starts reading `source` to its end.
    pub(crate) fn start(mut source: impl Read + Send + 'static, keep: Keep) -> Drain {
        let state = Arc::new(Mutex::new(State::default()));
        let shared = Arc::clone(&state);
        let thread = std::thread::spawn(move || {
            let mut buf = vec![0u8; 64 * 1024];
            while let Ok(n @ 1..) = source.read(&mut buf) {
                let mut state = shared.lock().unwrap_or_else(|e| e.into_inner());
                state.total += n as u64;
                match keep {
                    Keep::Head(cap) => {
                        let room = cap.saturating_sub(state.kept.len());
                        state.kept.extend_from_slice(&buf[..n.min(room)]);
                    }
                    Keep::Tail(cap) => {
                        state.kept.extend_from_slice(&buf[..n]);
                        if state.kept.len() > 2 * cap {
                            let cut = state.kept.len() - cap;
                            state.kept.drain(..cut);
                        }
                    }
                }
            }
        });
        Drain { state, thread }
    }

    /// What was read once the stream ended or `grace` passed; the thread is then left to
    /// finish by itself (its pipe's writer is beyond the harness's reach).
    pub(crate) fn finish(self, keep: Keep, grace: Duration) -> Captured {
        let deadline = Instant::now() + grace;
        let mut pause = Duration::from_millis(1);
        while !self.thread.is_finished() && Instant::now() < deadline {
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(20));
        }
        let ended = self.thread.is_finished();
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let kept = match keep {
            Keep::Head(_) => &state.kept[..],
            Keep::Tail(cap) => {
                let mut start = state.kept.len().saturating_sub(cap);
                // Cut here or while reading: the first line kept may be partial.
                if start > 0 || state.total > state.kept.len() as u64 {
                    start = state.kept[start..]
                        .iter()
                        .position(|&b| b == b'\n')
                        .map_or(start, |p| start + p + 1);
                }
                &state.kept[start..]
            }
        };
        Captured {
            text: String::from_utf8_lossy(kept).into_owned(),
            total_bytes: state.total,
            ended,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capture(bytes: &'static [u8], keep: Keep) -> Captured {
        Drain::start(bytes, keep).finish(keep, Duration::from_secs(10))
    }

    #[test]
    fn keeps_the_head_or_the_tail_and_counts_everything() {
        let head = capture(b"one\ntwo\nthree\n", Keep::Head(5));
        assert_eq!((head.text.as_str(), head.total_bytes), ("one\nt", 14));
        assert!(head.ended);
        // The last 4 bytes start inside a line, and a partial line is not kept.
        assert_eq!(capture(b"one\ntwo\nthree\n", Keep::Tail(4)).text, "");
        let tail = capture(b"one\ntwo\nthree\n", Keep::Tail(7));
        assert_eq!(tail.text, "three\n");
        let whole = capture(b"all of it", Keep::Head(100));
        assert_eq!((whole.text.as_str(), whole.total_bytes), ("all of it", 9));
    }

    #[test]
    fn a_stream_held_open_is_given_up_after_the_grace() {
        let (read, _write) = std::io::pipe().unwrap();
        let keep = Keep::Head(10);
        let started = Instant::now();
        let captured = Drain::start(read, keep).finish(keep, Duration::from_millis(100));
        assert!(!captured.ended);
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}
