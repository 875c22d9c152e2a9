//! The platform header: the lines above the tables saying what machine, kernel and
//! toolchains a result was measured on. measure/platform.rs reads the facts; this writes them.

use contestant::ContestantInfo;
use measure::Platform;
use units::bytes;

/// The header of a [`Platform`], as `run`, `show` and the Markdown export print it.
pub trait PlatformHeader {
    /// The header lines printed above the tables.
    fn header(&self) -> Vec<String>;
}

impl PlatformHeader for Platform {
    fn header(&self) -> Vec<String> {
        let mut lines = vec![
            format!(
                "taskbench {} · {} · {} cores · {} · Linux {} · load {:.2}",
                self.taskbench,
                self.cpu,
                self.cores,
                bytes(self.memory_bytes as f64),
                self.kernel,
                self.load_average
            ),
            format!(
                "{} · Rust contestants: {} · started {}",
                self.rustc, self.rust_profile, self.started
            ),
        ];
        if !self.versions.is_empty() {
            let versions: Vec<String> = self
                .versions
                .iter()
                .map(|(n, v)| format!("{n}: {v}"))
                .collect();
            lines.push(format!("versions: {}", versions.join(" · ")));
        }
        lines
    }
}

/// The run's toolchains in one line: each language of the contestants that run, with how
/// many, and where their versions are.
pub fn toolchains_line(infos: &[ContestantInfo]) -> String {
    let mut languages: Vec<(&str, usize)> = Vec::new();
    for info in infos.iter().filter(|i| i.unavailable.is_none()) {
        match languages.iter_mut().find(|(l, _)| *l == info.language) {
            Some((_, n)) => *n += 1,
            None => languages.push((&info.language, 1)),
        }
    }
    let listed: Vec<String> = languages
        .iter()
        .map(|&(language, n)| match n {
            1 => language.to_string(),
            n => format!("{language} ×{n}"),
        })
        .collect();
    format!(
        "toolchains: {} · versions in results.json and report.html",
        listed.join(", ")
    )
}

/// One line for a contestant that cannot run: its name, then the reason (the install
/// command first), cut to `width` characters.
pub fn unavailable_line(info: &ContestantInfo, width: usize) -> String {
    let line = format!(
        "unavailable: {} — {}",
        info.name,
        info.unavailable.as_deref().unwrap_or_default()
    );
    if line.chars().count() <= width {
        return line;
    }
    let kept: String = line.chars().take(width.saturating_sub(1)).collect();
    format!("{kept}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(name: &str, language: &str, unavailable: Option<&str>) -> ContestantInfo {
        ContestantInfo {
            name: name.into(),
            language: language.into(),
            runtime: "r".into(),
            version: "1".into(),
            unavailable: unavailable.map(str::to_string),
            cpus: None,
            ..Default::default()
        }
    }

    #[test]
    fn the_toolchains_fit_one_line_and_each_unavailable_contestant_one() {
        let infos = [
            info("tokio", "Rust", None),
            info("go", "Go", None),
            info("floor", "Rust", None),
            info(
                "cpp-asio",
                "C++",
                Some("install: apt-get install libboost-dev (no Boost)"),
            ),
        ];
        assert_eq!(
            toolchains_line(&infos),
            "toolchains: Rust ×2, Go · versions in results.json and report.html"
        );
        assert_eq!(
            unavailable_line(&infos[3], 100),
            "unavailable: cpp-asio — install: apt-get install libboost-dev (no Boost)"
        );
        let cut = unavailable_line(&infos[3], 40);
        assert_eq!(cut.chars().count(), 40, "{cut}");
        assert!(cut.ends_with('…'), "{cut}");
    }
}
