//! The words of each warning: what was seen, in units, and what to do about it — in full
//! (results.md, report.html) and as the terminal's digest, one line per kind.

use analysis::{FIRST_RUN_FACTOR, Warning, imprecise_widest_first, slow_starts_worst_first};
use std::fmt;
use units::{duration, percent};

/// A warning in words: `Said(&warning).to_string()`.
pub struct Said<'a>(pub &'a Warning);

impl fmt::Display for Said<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Warning::FirstRunSlower { point, cases } => {
                let cases: Vec<String> = cases
                    .iter()
                    .map(|c| {
                        format!(
                            "{} ({} vs {})",
                            c.contestant,
                            duration(c.first_ns),
                            duration(c.rest_median_ns)
                        )
                    })
                    .collect();
                write!(
                    f,
                    "{point}: first measured process over {FIRST_RUN_FACTOR}× slower than the \
                     rest for {} (try -w 1).",
                    cases.join(", ")
                )
            }
            Warning::Imprecise {
                point,
                target,
                cases,
            } => {
                let cases: Vec<String> = cases
                    .iter()
                    .map(|c| format!("{} ±{}{}", c.contestant, percent(c.precision), why(c.stop)))
                    .collect();
                write!(
                    f,
                    "{point}: short of ±{}: {}.",
                    percent(*target),
                    cases.join(", ")
                )
            }
            Warning::BusyMachine {
                cores,
                load_start,
                load_max,
                others_share,
            } => {
                write!(
                    f,
                    "the machine was busy: load average {load_start:.2} before the first run, \
                     up to {load_max:.2} during it, on {cores} cores"
                )?;
                if let Some(share) = others_share {
                    write!(
                        f,
                        "; other processes used {} of all CPU time while taskbench ran",
                        percent(*share)
                    )?;
                }
                write!(
                    f,
                    ". Timings are slower and noisier than on a quiet machine."
                )
            }
            Warning::CpuSteal { share } => write!(
                f,
                "the hypervisor took {} of CPU time (steal) during the run: timings include \
                 waiting for other virtual machines.",
                percent(*share)
            ),
            Warning::ConditionChanged { shifts } => {
                let moved: Vec<String> = shifts.iter().map(super::condition::shift).collect();
                write!(
                    f,
                    "the machine's condition changed during the run, beyond the probe's own \
                     noise (first half → second half): {}; points measured early and late \
                     are not on the same footing.",
                    moved.join(", ")
                )
            }
        }
    }
}

/// How many cases a digest line names.
const WORST: usize = 3;

/// The warnings as the terminal shows them: one line per kind, naming the worst few cases
/// (every case is in results.md and report.html).
pub fn digest(warnings: &[Warning]) -> Vec<String> {
    let mut lines = Vec::new();
    let slow = slow_starts_worst_first(warnings);
    if !slow.is_empty() {
        let named: Vec<String> = slow
            .iter()
            .take(WORST)
            .map(|(p, c)| {
                format!(
                    "{} at {p} ({} vs {})",
                    c.contestant,
                    duration(c.first_ns),
                    duration(c.rest_median_ns)
                )
            })
            .collect();
        lines.push(format!(
            "first measured process over {FIRST_RUN_FACTOR}× slower than the rest in {} \
             (try -w 1); worst: {}",
            cases(slow.len()),
            named.join(", ")
        ));
    }
    let imprecise = imprecise_widest_first(warnings);
    if let Some((_, target, _)) = imprecise.first() {
        let named: Vec<String> = imprecise
            .iter()
            .take(WORST)
            .map(|(point, _, c)| {
                format!(
                    "{} at {point} ±{}{}",
                    c.contestant,
                    percent(c.precision),
                    why(c.stop)
                )
            })
            .collect();
        lines.push(format!(
            "short of ±{} in {}; widest: {}",
            percent(*target),
            cases(imprecise.len()),
            named.join(", ")
        ));
    }
    lines.extend(
        warnings
            .iter()
            .filter(|w| matches!(w, Warning::BusyMachine { .. } | Warning::CpuSteal { .. }))
            .map(|w| Said(w).to_string()),
    );
    lines
}

/// ` (time budget)`: why a case stopped short, where its record says; nothing where it does
/// not (a case the run's budget left no room for after its last process).
fn why(stop: Option<run::StopReason>) -> String {
    stop.map_or_else(String::new, |s| format!(" ({})", s.describe()))
}

fn cases(n: usize) -> String {
    format!("{n} {}", if n == 1 { "case" } else { "cases" })
}

#[cfg(test)]
mod tests {
    use super::*;
    use analysis::{FirstRun, Imprecision};
    use run::StopReason;

    fn imprecise(point: &str, cases: &[(&str, f64)]) -> Warning {
        Warning::Imprecise {
            point: point.parse().unwrap(),
            target: 0.05,
            cases: cases
                .iter()
                .map(|&(contestant, precision)| Imprecision {
                    contestant: contestant.into(),
                    precision,
                    stop: Some(StopReason::MaxTime),
                })
                .collect(),
        }
    }

    #[test]
    fn the_digest_is_one_line_per_kind_naming_the_worst_few() {
        let warnings = [
            imprecise("spawn tasks=10000", &[("tokio", 0.06), ("go", 0.11)]),
            Warning::FirstRunSlower {
                point: "chain length=10000".parse().unwrap(),
                cases: vec![FirstRun {
                    contestant: "deno".into(),
                    first_ns: 9_000_000.0,
                    rest_median_ns: 3_000_000.0,
                }],
            },
            imprecise("doxbee requests=2000", &[("node-kew", 0.38), ("bun", 0.07)]),
            Warning::CpuSteal { share: 0.077 },
        ];
        let lines = digest(&warnings);
        assert_eq!(lines.len(), 3, "{lines:#?}");
        assert_eq!(
            lines[0],
            "first measured process over 1.5× slower than the rest in 1 case (try -w 1); \
             worst: deno at chain length=10000 (9.00 ms vs 3.00 ms)"
        );
        assert_eq!(
            lines[1],
            "short of ±5.0 % in 4 cases; widest: node-kew at doxbee requests=2000 ±38 % \
             (time budget), go at spawn tasks=10000 ±11 % (time budget), bun at doxbee \
             requests=2000 ±7.0 % (time budget)"
        );
        assert!(
            lines[2].starts_with("the hypervisor took 7.7 %"),
            "{}",
            lines[2]
        );
        assert!(digest(&[]).is_empty());
    }

    #[test]
    fn warnings_say_what_was_seen_in_units() {
        let first = Warning::FirstRunSlower {
            point: "spawn tasks=10000".parse().unwrap(),
            cases: vec![FirstRun {
                contestant: "tokio".into(),
                first_ns: 12_300_000.0,
                rest_median_ns: 4_100_000.0,
            }],
        };
        assert!(
            Said(&first).to_string()
                == "spawn tasks=10000: first measured process over 1.5× slower than the \
                    rest for tokio (12.3 ms vs 4.10 ms) (try -w 1).",
            "{}",
            Said(&first)
        );
        let noisy = Warning::Imprecise {
            point: "yield tasks=200 yields=1000".parse().unwrap(),
            target: 0.02,
            cases: vec![Imprecision {
                contestant: "smol".into(),
                precision: 0.071,
                stop: Some(StopReason::MaxTime),
            }],
        };
        assert_eq!(
            Said(&noisy).to_string(),
            "yield tasks=200 yields=1000: short of ±2.0 %: smol ±7.1 % (time budget)."
        );
        let busy = Warning::BusyMachine {
            cores: 2,
            load_start: 6.6,
            load_max: 8.13,
            others_share: Some(0.38),
        };
        assert!(
            Said(&busy).to_string().starts_with(
                "the machine was busy: load average 6.60 before the first run, up to 8.13 \
                 during it, on 2 cores; other processes used 38 % of all CPU time"
            ),
            "{}",
            Said(&busy)
        );
        assert_eq!(
            Said(&Warning::CpuSteal { share: 0.042 }).to_string(),
            "the hypervisor took 4.2 % of CPU time (steal) during the run: timings include \
             waiting for other virtual machines."
        );
        let changed = Warning::ConditionChanged {
            shifts: vec![analysis::condition::GaugeShift {
                gauge: analysis::condition::Gauge::Timer1ms,
                before: Some(62_000.0),
                after: Some(410_000.0),
                differs: true,
            }],
        };
        assert_eq!(
            Said(&changed).to_string(),
            "the machine's condition changed during the run, beyond the probe's own noise \
             (first half → second half): timer 1 ms +62.0 µs → +410 µs; points measured early \
             and late are not on the same footing."
        );
    }
}
