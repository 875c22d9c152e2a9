//! `--cpus N`: the cores a contestant is pinned to — the first N of those the harness may
//! run on — as the CPU set the launcher is given before it execs.

/// The cores the harness may run on, in order.
pub fn allowed() -> Vec<usize> {
    // SAFETY: `set` is a valid, writable cpu_set_t of the size passed.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&cpu| libc::CPU_ISSET(cpu, &set))
            .collect()
    }
}

/// The set of the first `n` allowed cores; when fewer are allowed, why, in words.
pub(crate) fn first_cores(n: u32) -> Result<libc::cpu_set_t, String> {
    let allowed = allowed();
    if n == 0 || allowed.len() < n as usize {
        return Err(format!(
            "--cpus {n}: this machine lets taskbench use {} cores",
            allowed.len()
        ));
    }
    // SAFETY: CPU_ZERO and CPU_SET write within the set.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_ZERO(&mut set);
        for &cpu in &allowed[..n as usize] {
            libc::CPU_SET(cpu, &mut set);
        }
        Ok(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_cores_are_taken_and_too_many_refused() {
        let allowed = allowed();
        assert!(!allowed.is_empty());
        let set = first_cores(1).unwrap();
        // SAFETY: reading a set made above.
        assert!(unsafe { libc::CPU_ISSET(allowed[0], &set) });
        assert_eq!(unsafe { libc::CPU_COUNT(&set) }, 1);
        assert!(first_cores(allowed.len() as u32 + 1).is_err());
        assert!(first_cores(0).is_err());
    }
}
