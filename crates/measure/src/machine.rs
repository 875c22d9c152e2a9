//! The machine around a run: was anything else using it? The load average is read at the
//! start, once per case and at the end; the CPU counters of /proc/stat at the start and
//! the end, and over that span our own CPU (the harness and every process it reaped) is
//! taken out of the busy time, so what remains is other work and hypervisor steal. With
//! each load sample the watch probes the machine's condition (condition.rs), with
//! the steal share since the previous probe.

use super::condition::{Condition, Moment, probe};
use catalogue::Point;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// The least time between two probes of the condition but the last: a run whose points
/// change often (or whose cases are interleaved across points) spends at most a few per
/// cent of its time probing (a probe takes about 0.13 s).
const PROBE_EVERY: Duration = Duration::from_secs(5);

/// The machine a session ran on, as the store fingerprints it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Machine {
    pub cpu: String,
    pub cores: u32,
    pub memory_bytes: u64,
}

impl Machine {
    /// What tells machines apart: CPU model, cores and memory (in whole GiB, so that a
    /// kernel's reservations do not split identical runners).
    pub fn fingerprint(&self) -> String {
        let gib = self.memory_bytes as f64 / (1u64 << 30) as f64;
        format!("{} · {} cores · {gib:.0} GiB", self.cpu, self.cores)
    }
}

/// The load average at one moment of the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadSample {
    /// The point about to run (written `case`, as its label).
    #[serde(rename = "case")]
    pub(crate) point: Point,
    /// 1-minute load average.
    pub(crate) load: f64,
}

/// Where the CPU time of the whole machine went while taskbench ran, as shares of it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CpuShares {
    /// Taskbench, its launchers and the contestants.
    pub ours: f64,
    /// Every other process on the machine.
    pub others: f64,
    /// Taken by the hypervisor for other guests (`steal`).
    pub steal: f64,
    /// Idle, I/O wait included.
    pub idle: f64,
}

/// How busy the machine was before and while taskbench ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MachineLoad {
    /// CPUs taskbench may use.
    pub cores: usize,
    /// 1-minute load average before the first run.
    pub load_start: f64,
    /// Sampled as each case began.
    pub load_during: Vec<LoadSample>,
    /// After the last run.
    pub load_end: f64,
    /// Absent where /proc/stat cannot be read.
    pub cpu: Option<CpuShares>,
    /// What the host did to timings through the run (absent in older results).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
}

impl MachineLoad {
    /// The highest load average seen, start and end included.
    pub fn load_max(&self) -> f64 {
        self.load_during
            .iter()
            .map(|s| s.load)
            .fold(self.load_start.max(self.load_end), f64::max)
    }
}

/// Watches the machine from [`MachineWatch::start`] to [`MachineWatch::finish`].
#[derive(Debug)]
pub struct MachineWatch {
    load: MachineLoad,
    ticks: Option<CpuTicks>,
    ours_ns: u64,
    began: Instant,
    /// The CPU counters at the last probe, for the steal share since.
    probed: Option<CpuTicks>,
    /// When the last probe was made, and the least time until the next one.
    last_probe: Instant,
    probe_every: Duration,
    condition: Condition,
}

impl MachineWatch {
    /// Reads the load and the CPU counters, and probes the machine's condition.
    pub fn start() -> MachineWatch {
        MachineWatch::probing_every(PROBE_EVERY)
    }

    /// [`MachineWatch::start`], probing at most once every `probe_every` before the end.
    fn probing_every(probe_every: Duration) -> MachineWatch {
        let ticks = CpuTicks::read();
        let mut watch = MachineWatch {
            load: MachineLoad {
                cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
                load_start: load_average(),
                load_during: Vec::new(),
                load_end: 0.0,
                cpu: None,
                condition: None,
            },
            ticks,
            ours_ns: our_cpu_ns(),
            began: Instant::now(),
            probed: ticks,
            last_probe: Instant::now(),
            probe_every,
            condition: Condition::default(),
        };
        watch.probe(Moment::Start);
        watch
    }

    /// Records the load average as `point` begins, and probes the machine's condition when
    /// the last probe is [`PROBE_EVERY`] old.
    pub fn sample(&mut self, point: &Point) {
        self.load.load_during.push(LoadSample {
            point: point.clone(),
            load: load_average(),
        });
        if self.last_probe.elapsed() >= self.probe_every {
            self.probe(Moment::Before(point.clone()));
        }
    }

    /// Probes the machine's condition at `moment`, with the steal share since the last
    /// probe (none at the start: no time has passed).
    fn probe(&mut self, moment: Moment) {
        let now = CpuTicks::read();
        let steal = if self.condition.samples.is_empty() {
            None
        } else {
            (self.probed.zip(now)).and_then(|(then, now)| now.since(&then).steal_share())
        };
        self.probed = now;
        let at_ms = self.began.elapsed().as_millis() as u64;
        self.condition.samples.push(probe(at_ms, moment, steal));
        self.last_probe = Instant::now();
    }

    /// Probes a last time and reads what the machine did over the whole run.
    pub fn finish(mut self) -> MachineLoad {
        self.probe(Moment::End);
        self.load.condition = Some(std::mem::take(&mut self.condition));
        self.load.load_end = load_average();
        let ours_ns = our_cpu_ns().saturating_sub(self.ours_ns);
        self.load.cpu = self
            .ticks
            .zip(CpuTicks::read())
            .and_then(|(start, end)| end.since(&start).shares(ours_ns));
        self.load
    }
}

/// The 1-minute load average from /proc/loadavg; 0 where unreadable.
pub(crate) fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0)
}

/// The aggregate `cpu` line of /proc/stat, in clock ticks (proc(5)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct CpuTicks {
    /// user + nice + system + irq + softirq (guest time is inside user and nice).
    busy: u64,
    /// idle + iowait.
    idle: u64,
    steal: u64,
}

impl CpuTicks {
    fn read() -> Option<CpuTicks> {
        CpuTicks::parse(&std::fs::read_to_string("/proc/stat").ok()?)
    }

    fn parse(stat: &str) -> Option<CpuTicks> {
        let line = stat.lines().find(|l| l.starts_with("cpu "))?;
        let v: Vec<u64> = line
            .split_whitespace()
            .skip(1)
            .map(|f| f.parse().ok())
            .collect::<Option<_>>()?;
        let field = |i: usize| v.get(i).copied().unwrap_or(0);
        Some(CpuTicks {
            busy: field(0) + field(1) + field(2) + field(5) + field(6),
            idle: field(3) + field(4),
            steal: field(7),
        })
    }

    fn since(&self, earlier: &CpuTicks) -> CpuTicks {
        CpuTicks {
            busy: self.busy.saturating_sub(earlier.busy),
            idle: self.idle.saturating_sub(earlier.idle),
            steal: self.steal.saturating_sub(earlier.steal),
        }
    }

    /// The share of the elapsed ticks the hypervisor stole; `None` when no tick passed.
    fn steal_share(&self) -> Option<f64> {
        let total = self.busy + self.idle + self.steal;
        (total > 0).then(|| self.steal as f64 / total as f64)
    }

    /// Shares of the elapsed ticks, `ours_ns` of the busy time being ours; `None` when no
    /// tick passed.
    fn shares(&self, ours_ns: u64) -> Option<CpuShares> {
        let total = (self.busy + self.idle + self.steal) as f64;
        if total == 0.0 {
            return None;
        }
        let ns_per_tick = 1e9 / clock_ticks_per_second();
        let ours = (ours_ns as f64 / ns_per_tick).min(self.busy as f64);
        Some(CpuShares {
            ours: ours / total,
            others: (self.busy as f64 - ours) / total,
            steal: self.steal as f64 / total,
            idle: self.idle as f64 / total,
        })
    }
}

fn clock_ticks_per_second() -> f64 {
    // SAFETY: sysconf has no preconditions.
    match unsafe { libc::sysconf(libc::_SC_CLK_TCK) } {
        hz if hz > 0 => hz as f64,
        _ => 100.0,
    }
}

/// CPU used so far by this process and every child it has reaped (with theirs), ns.
fn our_cpu_ns() -> u64 {
    let usage = |who| {
        // SAFETY: getrusage writes one rusage into the zeroed struct we own.
        let mut r: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(who, &mut r) } != 0 {
            return 0;
        }
        let ns = |t: libc::timeval| t.tv_sec as u64 * 1_000_000_000 + t.tv_usec as u64 * 1_000;
        ns(r.ru_utime) + ns(r.ru_stime)
    };
    usage(libc::RUSAGE_SELF) + usage(libc::RUSAGE_CHILDREN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_line_is_split_into_busy_idle_and_steal() {
        let stat = "cpu  100 5 40 800 20 3 2 30 0 0\ncpu0 50 2 20 400 10 1 1 15 0 0\n";
        let ticks = CpuTicks::parse(stat).unwrap();
        assert_eq!(
            ticks,
            CpuTicks {
                busy: 100 + 5 + 40 + 3 + 2,
                idle: 820,
                steal: 30
            }
        );
        assert_eq!(CpuTicks::parse("intr 1 2 3\n"), None);
    }

    #[test]
    fn our_cpu_is_taken_out_of_the_busy_share() {
        let delta = CpuTicks {
            busy: 150,
            idle: 800,
            steal: 50,
        };
        let ns_per_tick = 1e9 / clock_ticks_per_second();
        let shares = delta.shares((100.0 * ns_per_tick) as u64).unwrap();
        assert!((shares.ours - 0.10).abs() < 1e-9, "{shares:?}");
        assert!((shares.others - 0.05).abs() < 1e-9, "{shares:?}");
        assert!((shares.steal - 0.05).abs() < 1e-9, "{shares:?}");
        assert!((shares.idle - 0.80).abs() < 1e-9, "{shares:?}");
        let all_ours = delta.shares(u64::MAX / 4).unwrap();
        assert_eq!(all_ours.others, 0.0, "never negative");
    }

    #[test]
    fn a_load_written_before_the_condition_probe_still_reads() {
        let old = r#"{"cores": 2, "load_start": 0.5, "load_during": [], "load_end": 0.7,
                      "cpu": null}"#;
        let load: MachineLoad = serde_json::from_str(old).unwrap();
        assert_eq!((load.cores, load.condition), (2, None));
    }

    #[test]
    fn a_watch_reads_this_machine() {
        let mut watch = MachineWatch::probing_every(Duration::ZERO);
        let spawn: Point = "spawn tasks=1".parse().unwrap();
        watch.sample(&spawn);
        let load = watch.finish();
        assert!(load.cores >= 1 && load.load_start >= 0.0);
        assert_eq!(load.load_during.len(), 1);
        assert!(load.load_max() >= load.load_during[0].load);
        // A probe at the start, one per sample and one at the end, in order.
        let condition = load.condition.unwrap();
        let moments: Vec<&Moment> = condition.samples.iter().map(|s| &s.moment).collect();
        assert_eq!(
            moments,
            [&Moment::Start, &Moment::Before(spawn), &Moment::End]
        );
        assert!(
            condition
                .samples
                .windows(2)
                .all(|w| w[0].at_ms < w[1].at_ms)
        );
        assert_eq!(
            condition.samples[0].steal, None,
            "no time passed before the first"
        );
    }
}
