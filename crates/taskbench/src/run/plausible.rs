//! The times a contestant reports, checked against what the harness saw of its process and
//! against what the scenario cannot beat: the harness believes a reported time only when it
//! could be true. A run that fails a check is `implausible`, never ranked, with one line
//! saying which check and by how much (docs/PROTOCOL.md §3).

use std::time::Duration;

/// How far a reported time may pass a bound before it is implausible: the coarsest timer
/// clock among the runtimes (libuv's and the BEAM's millisecond clocks), so that no honest
/// rounding is taken for a lie.
pub const RESOLUTION: Duration = Duration::from_millis(1);

/// How far reported CPU time may pass the wall clock × cores: one scheduler tick at the
/// slowest kernel clock (HZ = 100), by which a thread's CPU time can lag or lead.
pub const CPU_TICK: Duration = Duration::from_millis(10);

/// What the harness knows of a process that printed its lines.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// The process's wall clock, from start to exit, on the harness's clock.
    pub wall: Duration,
    /// The least an iteration can take: the scenario's ideal time (0: none).
    pub ideal_ns: u64,
    /// Cores the process may run on (`--cpus N`, else the machine's).
    pub cores: u32,
}

/// Why the reported times cannot be true, if they cannot: every reported iteration
/// (`elapsed_ns`, warm-up lines included) and, where given, each one's CPU time (`cpu_ns`).
pub fn check(bounds: Bounds, elapsed_ns: &[u64], cpu_ns: &[u64]) -> Option<String> {
    below_ideal(bounds, elapsed_ns)
        .or_else(|| beyond_wall(bounds, elapsed_ns))
        .or_else(|| beyond_cores(bounds, cpu_ns))
}

/// An iteration of a scenario with an ideal time reported less than the ideal.
fn below_ideal(bounds: Bounds, elapsed_ns: &[u64]) -> Option<String> {
    let least = bounds.ideal_ns.checked_sub(nanos(RESOLUTION))?;
    let (index, &short) = elapsed_ns.iter().enumerate().min_by_key(|(_, e)| **e)?;
    (bounds.ideal_ns > 0 && short < least).then(|| {
        format!(
            "iteration {} reported {}, less than the scenario's ideal {}",
            index + 1,
            ms(short),
            ms(bounds.ideal_ns)
        )
    })
}

/// The reported iterations add up to more than the process's whole life.
fn beyond_wall(bounds: Bounds, elapsed_ns: &[u64]) -> Option<String> {
    let sum: u64 = elapsed_ns.iter().sum();
    let wall = nanos(bounds.wall);
    (sum > wall + nanos(RESOLUTION)).then(|| {
        let lines = match elapsed_ns.len() {
            1 => "the iteration it reported takes".to_string(),
            n => format!("the {n} iterations it reported add up to"),
        };
        format!(
            "{lines} {}, more than the process's wall time {}",
            ms(sum),
            ms(wall)
        )
    })
}

/// The reported CPU time is more than the process's cores could give in its wall time.
fn beyond_cores(bounds: Bounds, cpu_ns: &[u64]) -> Option<String> {
    let sum: u64 = cpu_ns.iter().sum();
    let most = nanos(bounds.wall) * u64::from(bounds.cores.max(1));
    (sum > most + nanos(CPU_TICK)).then(|| {
        format!(
            "it reported {} of CPU, more than {} wall × {} cores",
            ms(sum),
            ms(nanos(bounds.wall)),
            bounds.cores
        )
    })
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

fn ms(ns: u64) -> String {
    format!("{:.3} ms", ns as f64 / 1e6)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    fn bounds(wall_ms: u64, ideal_ms: u64) -> Bounds {
        Bounds {
            wall: Duration::from_millis(wall_ms),
            ideal_ns: ideal_ms * MS,
            cores: 2,
        }
    }

    #[test]
    fn honest_times_pass() {
        let times = [21 * MS, 20 * MS + MS / 2, 22 * MS];
        assert_eq!(check(bounds(100, 20), &times, &[MS, MS, MS]), None);
        // Within the resolution of a millisecond clock, a little under the ideal passes.
        assert_eq!(check(bounds(100, 20), &[20 * MS - MS / 2], &[]), None);
    }

    #[test]
    fn a_time_below_the_ideal_is_implausible() {
        let why = check(bounds(100, 20), &[21 * MS, 2 * MS], &[]).unwrap();
        assert_eq!(
            why,
            "iteration 2 reported 2.000 ms, less than the scenario's ideal 20.000 ms"
        );
        // A scenario without an ideal time has no such bound.
        assert_eq!(check(bounds(100, 0), &[1], &[]), None);
    }

    #[test]
    fn iterations_longer_than_the_process_are_implausible() {
        let why = check(bounds(50, 0), &[30 * MS, 30 * MS], &[]).unwrap();
        assert!(why.contains("add up to 60.000 ms"), "{why}");
        assert_eq!(check(bounds(60, 0), &[30 * MS, 30 * MS], &[]), None);
    }

    #[test]
    fn cpu_beyond_the_cores_is_implausible() {
        let why = check(bounds(10, 0), &[5 * MS], &[40 * MS]).unwrap();
        assert!(why.contains("40.000 ms of CPU"), "{why}");
        // Two cores for 10 ms, and a tick of accounting either way.
        assert_eq!(check(bounds(10, 0), &[5 * MS], &[29 * MS]), None);
    }
}
