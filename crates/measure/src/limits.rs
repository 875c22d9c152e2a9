//! What this machine lets one process hold at once, for the socket scenarios: open files
//! (both ends of every loopback connection live in the contestant's process) and client
//! ports (every connection takes one from the kernel's ephemeral range). A point past
//! either is refused before anything runs, naming the limit; one within them runs with its
//! open-file limit raised to what it needs ([`crate::Job::open_files`]).

use catalogue::Scenario;

/// The kernel's range of client ports, read once per check.
const PORT_RANGE: &str = "/proc/sys/net/ipv4/ip_local_port_range";
/// The kernel's cap on a listener's queue of connections not yet accepted.
const SOMAXCONN: &str = "/proc/sys/net/core/somaxconn";

/// The limits a socket point is held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SocketLimits {
    /// The hard `RLIMIT_NOFILE` the harness (and so every contestant) inherits: a process
    /// may raise its soft limit to it, and no further without privilege.
    pub open_files: u64,
    /// Client ports one loopback destination can take (`ip_local_port_range`).
    pub client_ports: u64,
    /// The longest listen queue (`net.core.somaxconn`), whatever backlog a listener asks.
    pub listen_queue: u64,
}

impl SocketLimits {
    /// This machine's limits: the harness's hard open-file limit and the port range.
    pub fn here() -> SocketLimits {
        SocketLimits {
            open_files: hard_open_files(),
            client_ports: std::fs::read_to_string(PORT_RANGE)
                .ok()
                .and_then(|text| port_count(&text))
                .unwrap_or(28_232),
            listen_queue: std::fs::read_to_string(SOMAXCONN)
                .ok()
                .and_then(|text| text.trim().parse().ok())
                .unwrap_or(4_096),
        }
    }

    /// What a point that runs here pays for the machine's listen queue, in one line: its
    /// clients connect at once, and past `somaxconn` the kernel drops their SYNs, which
    /// come again after 1 s (then 3 s) — in every row alike, in the time and not in memory.
    pub fn queue_warning(&self, scenario: &Scenario) -> Option<String> {
        let connections = scenario.connections()?;
        (connections > self.listen_queue).then(|| {
            format!(
                "{} · {}: {connections} clients connect at once to a listen queue of {} \
                 (net.core.somaxconn); those past it wait the kernel's SYN retry (1 s, then \
                 3 s), which its time includes, in every row",
                scenario.name(),
                scenario.label(),
                self.listen_queue
            )
        })
    }

    /// Why `scenario` cannot run here, in one line; `None` when it can (every scenario
    /// without sockets can).
    pub fn refuse(&self, scenario: &Scenario) -> Option<String> {
        let files = scenario.open_files()?;
        let connections = scenario.connections()?;
        if files > self.open_files {
            return Some(format!(
                "{} · {} holds {files} open files at once (both ends of {connections} \
                 connections and {} more), past this machine's hard limit of {} (`ulimit -Hn`; \
                 raise it, or ask for at most {} connections)",
                scenario.name(),
                scenario.label(),
                catalogue::FD_HEADROOM,
                self.open_files,
                self.open_files.saturating_sub(catalogue::FD_HEADROOM) / 2
            ));
        }
        (connections > self.client_ports).then(|| {
            format!(
                "{} · {} opens {connections} connections to one listener, past the {} client \
                 ports of this machine's net.ipv4.ip_local_port_range",
                scenario.name(),
                scenario.label(),
                self.client_ports
            )
        })
    }
}

/// The hard open-file limit of this process (unlimited reads as u64::MAX).
fn hard_open_files() -> u64 {
    open_files_limit().map_or(u64::MAX, |limit| limit.rlim_max)
}

/// This process's `RLIMIT_NOFILE`, soft and hard. Async-signal-safe.
fn open_files_limit() -> std::io::Result<libc::rlimit> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given and nothing else.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(limit)
}

/// Ports in `ip_local_port_range`'s "low high".
fn port_count(text: &str) -> Option<u64> {
    let mut bounds = text.split_whitespace().map(str::parse::<u64>);
    let (low, high) = (bounds.next()?.ok()?, bounds.next()?.ok()?);
    (high >= low).then(|| high - low + 1)
}

/// Raises this process's soft open-file limit to `needed` where it is lower (never above
/// the hard limit, never lowering it). Async-signal-safe: called between fork and exec.
pub(crate) fn raise_open_files(needed: u64) -> std::io::Result<()> {
    let mut limit = open_files_limit()?;
    if limit.rlim_cur >= needed {
        return Ok(());
    }
    limit.rlim_cur = needed.min(limit.rlim_max);
    // SAFETY: setrlimit reads the struct it is given and nothing else.
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &limit) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(name: &str, connections: u64) -> Scenario {
        Scenario::new(name, &[("connections", connections)]).unwrap()
    }

    #[test]
    fn a_point_past_the_open_file_limit_is_refused_naming_it() {
        let limits = SocketLimits {
            open_files: 20_000,
            client_ports: 28_232,
            listen_queue: 4_096,
        };
        assert_eq!(limits.refuse(&point("connections", 9_872)), None);
        let line = limits.refuse(&point("connections", 9_873)).unwrap();
        assert!(line.contains("20002 open files"), "{line}");
        assert!(line.contains("hard limit of 20000"), "{line}");
        assert!(line.contains("at most 9872 connections"), "{line}");
        assert!(!line.contains('\n'));
        assert!(limits.refuse(&point("echo", 10_000)).is_some());
        assert_eq!(limits.refuse(&Scenario::new("spawn", &[]).unwrap()), None);
    }

    #[test]
    fn a_point_past_the_client_ports_is_refused() {
        let limits = SocketLimits {
            open_files: u64::MAX,
            client_ports: 1_000,
            listen_queue: 4_096,
        };
        assert_eq!(limits.refuse(&point("echo", 1_000)), None);
        let line = limits.refuse(&point("echo", 1_001)).unwrap();
        assert!(line.contains("1000 client ports"), "{line}");
    }

    #[test]
    fn a_point_past_the_listen_queue_is_warned_of() {
        let limits = SocketLimits {
            open_files: u64::MAX,
            client_ports: 28_232,
            listen_queue: 4_096,
        };
        assert_eq!(limits.queue_warning(&point("connections", 4_096)), None);
        let line = limits.queue_warning(&point("connections", 4_097)).unwrap();
        assert!(line.contains("listen queue of 4096"), "{line}");
        assert_eq!(
            limits.queue_warning(&Scenario::new("spawn", &[]).unwrap()),
            None
        );
    }

    #[test]
    fn the_port_range_is_read_as_the_kernel_writes_it() {
        assert_eq!(port_count("32768\t60999\n"), Some(28_232));
        assert_eq!(port_count("1024 1024"), Some(1));
        assert_eq!(port_count("60999 32768"), None);
        assert_eq!(port_count("nonsense"), None);
    }

    #[test]
    fn raising_the_limit_never_lowers_it() {
        // The test's own process: asking for less than it has changes nothing.
        let before = hard_open_files();
        raise_open_files(1).unwrap();
        assert_eq!(hard_open_files(), before);
    }
}
