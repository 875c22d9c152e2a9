//! The build step: the contestants built and probed (or the `--command`s made subjects),
//! the shard's subjects kept, the platform probed once and kept in run.json, and the
//! header the run opens with.

use super::{Commands, Prepared};
use crate::shards::cases::shard_cases;
use contestant::ContestantInfo;
use contestant::ProcessCost;
use lineup::{pinned, prepare};
use measure::Platform;
use run::interrupt::{self, errln, out, outln};
use run::{Shard, ShardCases, Subject};
use units::rough_duration;
use words::plan::{budget_buys, plural, shard_line, stopping_line};
use words::platform::{toolchains_line, unavailable_line};
use words::{PlatformHeader, terminal_width, wrap};

/// A run whose subjects are ready to measure.
pub(crate) struct Built<'a> {
    pub(super) prepared: Prepared<'a>,
    pub(super) subjects: Vec<Subject>,
    pub(super) infos: Vec<ContestantInfo>,
    pub(super) shard: Option<(Shard, ShardCases)>,
}

impl<'a> Prepared<'a> {
    /// Builds what the run measures and prints the run's header.
    pub(crate) fn build(mut self) -> anyhow::Result<Built<'a>> {
        let options = self.scheduler.options;
        let (subjects, infos) = match self.scheduler.surveyed.take() {
            Some(surveyed) => prepare(
                surveyed,
                self.scheduler.places,
                &options.cpus,
                &mut |step| {
                    if !options.show.quiet {
                        errln!("{}", step.line());
                    }
                },
            ),
            None => {
                let Commands {
                    commands,
                    names,
                    shell,
                } = &options.commands;
                let cwd = std::env::current_dir().unwrap_or_else(|_| ".".into());
                let subjects = run::shell::subjects(commands, names, shell, &cwd)?;
                (pinned(subjects, &options.cpus), Vec::new())
            }
        };
        let shard = self.shard_of(&subjects)?;
        let subjects: Vec<Subject> = match &shard {
            Some((_, chosen)) => subjects
                .into_iter()
                .filter(|s| chosen.has(&s.name))
                .collect(),
            None => subjects,
        };
        // Builds stopped by Ctrl-C leave no subject, and the (empty) results are still written.
        if subjects.is_empty() && !interrupt::requested() {
            return Err(lineup::none_can_run(&infos));
        }
        let platform = self.platform(&infos)?;
        let built = Built {
            prepared: self,
            subjects,
            infos,
            shard,
        };
        if !options.is_quiet() {
            built.print_header(&platform);
        }
        Ok(built)
    }

    /// The shard: the one chosen from the contestants, or for commands (which build
    /// nothing) chosen from the subjects themselves.
    fn shard_of(&mut self, subjects: &[Subject]) -> anyhow::Result<Option<(Shard, ShardCases)>> {
        Ok(
            match (self.scheduler.options.shard, self.scheduler.shard.take()) {
                (Some(shard), None) => {
                    let names: Vec<(String, ProcessCost)> = subjects
                        .iter()
                        .map(|s| (s.name.clone(), s.cost()))
                        .collect();
                    Some((shard, shard_cases(&self.scheduler.plan, &names, shard)?))
                }
                (_, chosen) => chosen,
            },
        )
    }

    /// The platform: a resumed run keeps the machine and the start it was first measured
    /// with; a new one probes it, and keeps it and the contestants in run.json.
    fn platform(&mut self, infos: &[ContestantInfo]) -> anyhow::Result<Platform> {
        if let Some(platform) = &self.session_file.platform {
            return Ok(platform.clone());
        }
        let mut platform = Platform::probe(env!("CARGO_PKG_VERSION"));
        platform.versions = infos
            .iter()
            .map(|i| (i.name.clone(), i.version.clone()))
            .collect();
        self.session_file.platform = Some(platform.clone());
        self.session_file.contestants = infos.to_vec();
        self.session_file.write(&self.out)?;
        Ok(platform)
    }
}

impl Built<'_> {
    /// The platform, the contestants that cannot run, and what the run will do.
    fn print_header(&self, platform: &Platform) {
        let width = terminal_width().into();
        // The machine and the Rust build; each contestant's version is in the files.
        for line in platform.header().into_iter().take(2) {
            out!("{}", wrap(&line, width));
        }
        out!("{}", wrap(&toolchains_line(&self.infos), width));
        for info in self.infos.iter().filter(|i| i.unavailable.is_some()) {
            outln!("{}", unavailable_line(info, width));
        }
        outln!();
        let plan = &self.prepared.scheduler.plan;
        let costs: Vec<ProcessCost> = self.subjects.iter().map(Subject::cost).collect();
        outln!(
            "{}: {} {} × {} {} · {} · {} warm-up per case · estimated {}",
            plan.preset
                .as_ref()
                .map_or_else(|| "run".to_string(), |p| format!("preset {p}")),
            plan.workloads.len(),
            plural(plan.workloads.len(), "point"),
            self.subjects.len(),
            plural(self.subjects.len(), "contestant"),
            stopping_line(plan),
            plan.warm_up,
            rough_duration(presets::estimate(plan, &costs).total)
        );
        if let Some(line) = budget_buys(plan, &costs) {
            out!("{}", wrap(&line, width));
        }
        outln!();
        if let Some((shard, chosen)) = &self.shard {
            outln!("{}\n", shard_line(*shard, chosen, self.subjects.len()));
        }
    }
}
