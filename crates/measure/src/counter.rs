//! Instructions, counted where time cannot be trusted: a run of the contestant under a
//! counter — `perf stat` where the kernel gives it hardware counters (cheap), else
//! valgrind's cachegrind with its cache simulation off (the instruction count alone, exact
//! and the same on a busy machine as on an idle one). The counter wraps the run's command
//! and leaves its count in a folder the harness reads after the process ends.

use std::path::Path;
use std::process::{Command, Stdio};

/// Counts the instructions of a command and everything it starts.
pub trait InstructionCounter {
    /// What counted, as results record it (`valgrind-cachegrind 3.19.0`).
    fn name(&self) -> &str;
    /// `argv` run under the counter, which writes what it counts into `out`.
    fn wrap(&self, argv: &[String], out: &Path) -> Vec<String>;
    /// The instructions counted into `out`: the sum over every process of the run.
    fn read(&self, out: &Path) -> Result<u64, String>;
}

/// `perf stat -e instructions:u`: user-space instructions of the process and its children.
#[derive(Debug, Clone)]
struct Perf {
    name: String,
}

/// valgrind's cachegrind without its cache simulation: every instruction of every process
/// of the run (`--trace-children=yes`), each process's total in a log of its own.
#[derive(Debug, Clone)]
struct Cachegrind {
    name: String,
}

/// The counter this machine offers: `perf stat` when it counts instructions here, else
/// valgrind; `Err` names what is missing.
pub fn detect() -> Result<Box<dyn InstructionCounter>, String> {
    let perf = Command::new("perf")
        .args(["stat", "-x", ",", "-e", "instructions:u", "--", "true"])
        .stdout(Stdio::null())
        .output();
    if let Ok(out) = perf {
        let text = String::from_utf8_lossy(&out.stderr);
        let counted = text
            .lines()
            .any(|l| l.contains("instructions") && l.split(',').next().is_some_and(is_count));
        if out.status.success() && counted {
            return Ok(Box::new(Perf {
                name: format!("perf stat instructions:u ({})", version("perf")),
            }));
        }
    }
    match Command::new("valgrind").arg("--version").output() {
        Ok(out) if out.status.success() => Ok(Box::new(Cachegrind {
            name: format!(
                "{} cachegrind --cache-sim=no",
                String::from_utf8_lossy(&out.stdout).trim()
            ),
        })),
        _ => Err(
            "--instructions needs `perf stat` with hardware counters or valgrind \
                  (apt-get install valgrind); neither is here"
                .into(),
        ),
    }
}

fn version(tool: &str) -> String {
    Command::new(tool)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

fn is_count(field: &str) -> bool {
    !field.is_empty() && field.chars().all(|c| c.is_ascii_digit())
}

impl InstructionCounter for Perf {
    fn name(&self) -> &str {
        &self.name
    }

    fn wrap(&self, argv: &[String], out: &Path) -> Vec<String> {
        let file = out.join("perf.csv").display().to_string();
        let mut wrapped: Vec<String> = ["perf", "stat", "-x", ",", "-e", "instructions:u", "-o"]
            .map(String::from)
            .to_vec();
        wrapped.extend([file, "--".into()]);
        wrapped.extend_from_slice(argv);
        wrapped
    }

    fn read(&self, out: &Path) -> Result<u64, String> {
        let text = std::fs::read_to_string(out.join("perf.csv"))
            .map_err(|e| format!("perf wrote no count: {e}"))?;
        parse_perf(&text)
    }
}

impl InstructionCounter for Cachegrind {
    fn name(&self) -> &str {
        &self.name
    }

    fn wrap(&self, argv: &[String], out: &Path) -> Vec<String> {
        let mut wrapped: Vec<String> = [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--trace-children=yes",
            // A JIT (V8, HotSpot, the BEAM's) writes code it then runs: valgrind must see it.
            "--smc-check=all-non-file",
            // A thread per task (OS threads, Java's platform threads) passes the default 500.
            "--max-threads=20000",
            "--cachegrind-out-file=/dev/null",
        ]
        .map(String::from)
        .to_vec();
        wrapped.push(format!("--log-file={}/%p.log", out.display()));
        wrapped.extend_from_slice(argv);
        wrapped
    }

    fn read(&self, out: &Path) -> Result<u64, String> {
        let entries = std::fs::read_dir(out).map_err(|e| format!("valgrind wrote no log: {e}"))?;
        let mut total = None;
        for entry in entries.flatten() {
            let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
            if let Some(count) = parse_cachegrind(&text) {
                total = Some(total.unwrap_or(0) + count);
            }
        }
        total.ok_or_else(|| "valgrind's logs hold no instruction count".to_string())
    }
}

/// The count of `perf stat -x ,` output: `12345,,instructions:u,…`.
fn parse_perf(text: &str) -> Result<u64, String> {
    let line = text
        .lines()
        .find(|l| l.contains("instructions"))
        .ok_or("perf printed no instructions line")?;
    let value = line.split(',').next().unwrap_or_default();
    value
        .parse()
        .map_err(|_| format!("perf did not count instructions: {line}"))
}

/// The `I refs:` total of one cachegrind log (`==12== I   refs:      12,417,641`).
fn parse_cachegrind(text: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (_, count) = line.split_once("I   refs:")?;
        count.trim().replace(',', "").parse().ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_read_as_each_tool_prints_them() {
        assert_eq!(
            parse_perf("# started on …\n\n12417641,,instructions:u,1002,100.00,,\n"),
            Ok(12_417_641)
        );
        assert!(parse_perf("<not supported>,,instructions:u,0,100.00,,\n").is_err());
        let log = "==7== Cachegrind, a high-precision tracing profiler\n==7== \n\
                   ==7== I   refs:      12,417,641\n";
        assert_eq!(parse_cachegrind(log), Some(12_417_641));
        assert_eq!(parse_cachegrind("==7== error\n"), None);
    }

    #[test]
    fn a_counter_wraps_the_whole_command() {
        let argv = ["node".to_string(), "main.js".into()];
        let out = Path::new("/tmp/x");
        let grind = Cachegrind { name: "v".into() };
        let wrapped = grind.wrap(&argv, out);
        assert_eq!(wrapped[0], "valgrind");
        assert!(wrapped.contains(&"--log-file=/tmp/x/%p.log".to_string()));
        assert_eq!(&wrapped[wrapped.len() - 2..], &argv);
        let perf = Perf { name: "p".into() }.wrap(&argv, out);
        assert_eq!(&perf[..2], ["perf", "stat"]);
        assert_eq!(&perf[perf.len() - 3..], ["--", "node", "main.js"]);
    }
}
