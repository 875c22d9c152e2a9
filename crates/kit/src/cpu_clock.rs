//! The process CPU clock, read around each measured iteration so the result line carries
//! what the runtime charged for the work beside the wall time it took.

/// CPU time (user + system, every thread) the process has used, in nanoseconds, from
/// `CLOCK_PROCESS_CPUTIME_ID`; 0 if the clock cannot be read.
pub fn process_cpu_ns() -> u64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable timespec for the duration of the call.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &raw mut now) };
    if status != 0 {
        return 0;
    }
    let seconds = u64::try_from(now.tv_sec).unwrap_or(0);
    let nanos = u64::try_from(now.tv_nsec).unwrap_or(0);
    seconds * 1_000_000_000 + nanos
}

#[cfg(test)]
mod tests {
    use super::process_cpu_ns;

    #[test]
    fn the_clock_advances_with_work() {
        let before = process_cpu_ns();
        let mut x = 0_u64;
        while process_cpu_ns() == before {
            x = std::hint::black_box(x.wrapping_add(1));
        }
        assert!(process_cpu_ns() > before);
    }
}
