//! The words of each warning: what was seen, in units, and what to do about it.

use super::units::{duration, percent};
use crate::analysis::{CV_LIMIT, FIRST_RUN_FACTOR, Warning};
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
                    "{point}: the first measured run was over {FIRST_RUN_FACTOR}× slower than \
                     the median of the rest for {}. Caches or lazy start-up may be to blame: \
                     try more warm-up processes (-w).",
                    cases.join(", ")
                )
            }
            Warning::HighVariation { point, cases } => {
                let cases: Vec<String> = cases
                    .iter()
                    .map(|c| format!("{} {}", c.contestant, percent(c.cv)))
                    .collect();
                write!(
                    f,
                    "{point}: elapsed varied by more than {} between runs (coefficient of \
                     variation): {}. More runs (-r) narrow the intervals.",
                    percent(CV_LIMIT),
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
    use crate::analysis::{FirstRun, Variation};

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
            first.to_string().starts_with(
                "spawn tasks=10000: the first measured run was over 1.5× slower than the \
                 median of the rest for tokio (12.3 ms vs 4.10 ms)."
            ),
            "{first}"
        );
        let noisy = Warning::HighVariation {
            point: "yield tasks=200 yields=1000".into(),
            cases: vec![Variation {
                contestant: "smol".into(),
                cv: 0.223,
            }],
        };
        assert!(noisy.to_string().contains("more than 10 % "), "{noisy}");
        assert!(noisy.to_string().contains(": smol 22 %."), "{noisy}");
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
