//! The words of each warning: what was seen, in units, and what to do about it.

use super::units::{duration, percent};
use crate::analysis::{FIRST_RUN_FACTOR, Warning};
use std::fmt;

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
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
                    .map(|c| {
                        let why = c.stop.map_or("", |s| s.describe());
                        format!("{} ±{} ({why})", c.contestant, percent(c.precision))
                    })
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{FirstRun, Imprecision};
    use crate::run::StopReason;

    #[test]
    fn warnings_say_what_was_seen_in_units() {
        let first = Warning::FirstRunSlower {
            point: "spawn tasks=10000".into(),
            cases: vec![FirstRun {
                contestant: "tokio".into(),
                first_ns: 12_300_000.0,
                rest_median_ns: 4_100_000.0,
            }],
        };
        assert!(
            first.to_string()
                == "spawn tasks=10000: first measured process over 1.5× slower than the \
                    rest for tokio (12.3 ms vs 4.10 ms) (try -w 1).",
            "{first}"
        );
        let noisy = Warning::Imprecise {
            point: "yield tasks=200 yields=1000".into(),
            target: 0.02,
            cases: vec![Imprecision {
                contestant: "smol".into(),
                precision: 0.071,
                stop: Some(StopReason::TimeBudget),
            }],
        };
        assert_eq!(
            noisy.to_string(),
            "yield tasks=200 yields=1000: short of ±2.0 %: smol ±7.1 % (time budget)."
        );
        let busy = Warning::BusyMachine {
            cores: 2,
            load_start: 6.6,
            load_max: 8.13,
            others_share: Some(0.38),
        };
        assert!(
            busy.to_string().starts_with(
                "the machine was busy: load average 6.60 before the first run, up to 8.13 \
                 during it, on 2 cores; other processes used 38 % of all CPU time"
            ),
            "{busy}"
        );
        assert_eq!(
            Warning::CpuSteal { share: 0.042 }.to_string(),
            "the hypervisor took 4.2 % of CPU time (steal) during the run: timings include \
             waiting for other virtual machines."
        );
    }
}
