//! Samples a running child's resident memory and thread count from /proc/PID/stat.
//!
//! /proc/PID/stat is read rather than /proc/PID/status because it holds both figures
//! (`rss`, `num_threads`) and the kernel formats it far more cheaply. The sampler's own
//! CPU time is measured on every run (`Measurement::sampler_cpu_ns`), so its cost is a
//! figure in the results, not a claim.

use serde::{Deserialize, Serialize};
use std::os::unix::fs::FileExt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// One reading of the child.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sample {
    /// Microseconds since the child was spawned.
    pub at_us: u64,
    /// Resident set size, bytes.
    pub rss_bytes: u64,
    /// Threads of the process.
    pub threads: u32,
}

/// A running sampler; [`Sampler::finish`] stops it and returns what it saw.
pub(crate) struct Sampler {
    stop: Arc<AtomicBool>,
    over: Arc<AtomicBool>,
    thread: JoinHandle<(Vec<Sample>, u64)>,
}

impl Sampler {
    /// Starts sampling `pid` every `every`, with times relative to `start`. When the RSS
    /// passes `memory_limit` the sampler kills the process group and records that it did.
    pub(crate) fn start(
        pid: u32,
        start: Instant,
        every: Duration,
        memory_limit: Option<u64>,
    ) -> Sampler {
        let stop = Arc::new(AtomicBool::new(false));
        let over = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let killed = Arc::clone(&over);
        let thread = std::thread::spawn(move || {
            let page = page_size();
            let mut samples = Vec::new();
            // The file stays open and is re-read from offset 0: the kernel regenerates it
            // on every read, and the path lookup of an open per sample is saved.
            let Ok(stat) = std::fs::File::open(format!("/proc/{pid}/stat")) else {
                return (samples, super::clock_ns(libc::CLOCK_THREAD_CPUTIME_ID));
            };
            let mut buf = [0u8; 1024];
            // The first sample before the first look at the flag: a process that is still
            // there is seen at least once, however late this thread was first scheduled.
            while let Ok(len) = stat.read_at(&mut buf, 0) {
                let text = std::str::from_utf8(&buf[..len]).unwrap_or_default();
                match parse_stat(text) {
                    // The child has exited (a zombie keeps its /proc entry, with no memory).
                    None => break,
                    Some((rss_pages, threads)) => samples.push(Sample {
                        at_us: start.elapsed().as_micros() as u64,
                        rss_bytes: rss_pages * page,
                        threads,
                    }),
                }
                if memory_limit.is_some_and(|limit| rss_pages_over(&samples, limit)) {
                    killed.store(true, Ordering::Relaxed);
                    // SAFETY: kill has no memory preconditions.
                    unsafe { libc::kill(-(pid as libc::pid_t), libc::SIGKILL) };
                    break;
                }
                std::thread::park_timeout(every);
                if flag.load(Ordering::Relaxed) {
                    break;
                }
            }
            (samples, super::clock_ns(libc::CLOCK_THREAD_CPUTIME_ID))
        });
        Sampler { stop, over, thread }
    }

    /// Stops the sampler; returns the samples, the CPU time the sampler used, and whether
    /// it killed the process for passing the memory limit.
    pub(crate) fn finish(self) -> (Vec<Sample>, u64, bool) {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.thread().unpark();
        let (samples, cpu) = self.thread.join().unwrap_or_default();
        (samples, cpu, self.over.load(Ordering::Relaxed))
    }
}

fn rss_pages_over(samples: &[Sample], limit: u64) -> bool {
    samples.last().is_some_and(|s| s.rss_bytes > limit)
}

/// `(rss pages, threads)` from the text of /proc/PID/stat, or `None` once the process has
/// exited (state `Z` or `X`). The command name (field 2) may hold spaces and parentheses,
/// so fields are counted from the last ')'.
fn parse_stat(stat: &str) -> Option<(u64, u32)> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the name: field 3 (state) is fields[0]; num_threads is field 20, rss field 24.
    if matches!(*fields.first()?, "Z" | "X") {
        return None;
    }
    let threads = fields.get(17)?.parse().ok()?;
    let rss = fields.get(21)?.parse().ok()?;
    Some((rss, threads))
}

fn page_size() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    u64::try_from(size).unwrap_or(4096)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rss_and_threads_past_a_tricky_name() {
        let stat = "4242 (a) b (c)) S 1 4242 4242 0 -1 4194560 1 0 0 0 3 4 0 0 20 0 7 0 99 \
                    123456 789 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";
        assert_eq!(parse_stat(stat), Some((789, 7)));
        assert_eq!(parse_stat("garbage"), None);
        assert_eq!(
            parse_stat(&stat.replace(") S ", ") Z ")),
            None,
            "a zombie has ended"
        );
    }

    #[test]
    fn samples_this_process() {
        let sampler = Sampler::start(
            std::process::id(),
            Instant::now(),
            Duration::from_millis(1),
            None,
        );
        // Stopped at once, before its thread may have run: it still takes its first sample
        // (a loaded machine can leave a thread unscheduled for longer than any fixed sleep).
        let (samples, _cpu, over) = sampler.finish();
        assert!(!over);
        assert!(!samples.is_empty());
        assert!(samples.iter().all(|s| s.rss_bytes > 0 && s.threads >= 2));
        assert!(samples.windows(2).all(|w| w[0].at_us <= w[1].at_us));
    }
}
