//! The times a contestant reports, checked against what the harness saw of its process and
//! against what the scenario cannot beat: the harness believes a reported time only when it
//! could be true. A run that fails a check is `implausible`, never ranked, with one line
//! saying which check and by how much (docs/PROTOCOL.md §3).

use std::time::Duration;

/// How far a reported time may pass a bound before it is implausible: the coarsest timer
/// clock among the runtimes (libuv's and the BEAM's millisecond clocks), so that no honest
/// rounding is taken for a lie.
pub(crate) const RESOLUTION: Duration = Duration::from_millis(1);

/// How far reported CPU time may pass the wall clock × cores: one scheduler tick at the
/// slowest kernel clock (HZ = 100), by which a thread's CPU time can lag or lead.
pub(crate) const CPU_TICK: Duration = Duration::from_millis(10);

/// What the harness knows of a process that printed its lines.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bounds {
    /// The process's wall clock, from start to exit, on the harness's clock.
    pub(crate) wall: Duration,
    /// The least an iteration can take: the scenario's ideal time (0: none).
    pub(crate) ideal_ns: u64,
    /// Cores the process may run on (`--cpus N`, else the machine's).
    pub(crate) cores: u32,
}

/// Why the reported times cannot be true, if they cannot: every reported iteration
/// (`elapsed_ns`, warm-up lines included) and, where given, each one's CPU time (`cpu_ns`).
pub(crate) fn check(bounds: Bounds, elapsed_ns: &[u64], cpu_ns: &[u64]) -> Option<String> {
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
    let sum = wide_sum(elapsed_ns);
    let wall = nanos(bounds.wall);
    (sum > u128::from(wall) + u128::from(nanos(RESOLUTION))).then(|| {
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
    let sum = wide_sum(cpu_ns);
    let most = u128::from(nanos(bounds.wall)) * u128::from(bounds.cores.max(1));
    (sum > most + u128::from(nanos(CPU_TICK))).then(|| {
        format!(
            "it reported {} of CPU, more than {} wall × {} cores",
            ms(sum),
            ms(nanos(bounds.wall)),
            bounds.cores
        )
    })
}

/// A sum of reported figures that cannot wrap: a contestant may print any u64, and 2^64
/// iterations of u64::MAX still fit in a u128.
fn wide_sum(figures: &[u64]) -> u128 {
    figures.iter().map(|&f| u128::from(f)).sum()
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

fn ms(ns: impl Into<u128>) -> String {
    format!("{:.3} ms", ns.into() as f64 / 1e6)
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

    #[test]
    fn figures_that_would_wrap_a_sum_are_implausible() {
        // Issue 46: one honest iteration and a thousand of 2^63 wrapped to a small sum.
        let mut times = vec![MS];
        times.extend(std::iter::repeat_n(1u64 << 63, 1000));
        let why = check(bounds(200, 0), &times, &[]).unwrap();
        assert!(why.contains("1001 iterations"), "{why}");
        let why = check(bounds(200, 0), &[MS], &[u64::MAX, u64::MAX, 2]).unwrap();
        assert!(why.contains("of CPU"), "{why}");
        let forever = Bounds {
            wall: Duration::MAX,
            ideal_ns: 0,
            cores: u32::MAX,
        };
        assert_eq!(check(forever, &[u64::MAX], &[u64::MAX; 4]), None);
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;
        use testkit::config;

        /// Any u64 a contestant can print, the edges often.
        fn figure() -> impl Strategy<Value = u64> {
            prop_oneof![
                prop::sample::select(vec![0, 1, u64::MAX, 1 << 63, (1 << 63) - 1, 1000]),
                any::<u64>(),
                0..100 * MS,
            ]
        }

        fn bounds() -> impl Strategy<Value = Bounds> {
            (
                figure(),
                figure(),
                prop_oneof![Just(0u32), Just(1), Just(2), any::<u32>()],
            )
                .prop_map(|(wall, ideal_ns, cores)| Bounds {
                    wall: Duration::from_nanos(wall),
                    ideal_ns,
                    cores,
                })
        }

        proptest! {
            #![proptest_config(config())]

            /// Accepted times are possible in exact arithmetic, and refused ones impossible:
            /// the check agrees with sums that cannot wrap, over any count of lines.
            #[test]
            fn the_check_is_exact_arithmetic(
                bounds in bounds(),
                elapsed in prop::collection::vec(figure(), 0..1200),
                cpu in prop::collection::vec(figure(), 0..1200),
            ) {
                let why = check(bounds, &elapsed, &cpu);
                let wide = |v: &[u64]| v.iter().map(|&x| u128::from(x)).sum::<u128>();
                let wall = bounds.wall.as_nanos();
                let tolerance = |d: Duration| d.as_nanos();
                let least = elapsed.iter().min().copied();
                let below = bounds.ideal_ns > 0
                    && least.is_some_and(|l| u128::from(l) + tolerance(RESOLUTION) < u128::from(bounds.ideal_ns));
                let beyond_wall = wide(&elapsed) > wall + tolerance(RESOLUTION);
                let beyond_cores =
                    wide(&cpu) > wall * u128::from(bounds.cores.max(1)) + tolerance(CPU_TICK);
                prop_assert_eq!(why.is_some(), below || beyond_wall || beyond_cores, "{:?}", why);
                if let Some(why) = why {
                    prop_assert!(!why.contains('\n'));
                }
            }
        }
    }
}
