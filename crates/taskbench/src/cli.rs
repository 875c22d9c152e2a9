//! The command line: `taskbench list`, `taskbench run …`, `taskbench presets`,
//! `taskbench report DIR`. Scenario parameters are generated from the catalogue and the
//! export flags from the export table (cli/exports.rs), so a new parameter or format needs
//! no edit here.

use crate::scheduler::{Commands, Export, Gate, Keep, ProcessLimits, SessionOptions, Show};
use clap::{Arg, ArgMatches, Args, FromArgMatches, Parser, Subcommand, ValueHint};
use presets::{ParamArgs, help};
use std::path::PathBuf;
use std::time::Duration;
use store::Location;
use units::{parse_duration, parse_percent, parse_size};

mod exports;

pub(crate) use exports::{FolderExports, RunExports};

/// Measures what concurrency costs — tasks, sleeps, timers, fan-out, channels — across
/// runtimes and languages, every run in a fresh process.
#[derive(Debug, Parser)]
#[command(name = "taskbench", version, max_term_width = 100)]
pub struct Cli {
    /// Folder searched for contestant manifests (default: $TASKBENCH_HOME/contestants, else
    /// contestants/ beside the binary, else the source tree's).
    #[arg(long, global = true, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub(crate) contestants: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List scenarios (parameters, defaults, what each measures) and contestants.
    List,
    /// Run scenarios on contestants and report.
    Run(Box<RunArgs>),
    /// List the presets `run --preset` takes: what each runs, its cases, its estimated time.
    Presets(PresetsArgs),
    /// Write DIR/report.html again from DIR/results.json, without running anything.
    Report(ReportArgs),
    /// Print the overview of a run written earlier (DIR/results.json): contestants × points,
    /// × best for time and for peak RSS, as `run` ends.
    Show(ReportArgs),
    /// Add a results folder written earlier (or elsewhere) to the store.
    Import(ImportArgs),
    /// The store's runs over time: per point and contestant, each session's figure.
    History(HistoryArgs),
    /// Build a static site from the store: the tournament of any session, a page per
    /// runtime, case and bisect, the machines and the seeds (HTML, CSS and scripts that
    /// work from file:// and any static host); a second build rewrites only what changed.
    Site(SiteArgs),
    /// Join result folders into one: the parts of a run (`run --shard K/N`), or runs of
    /// several machines side by side (--mixed-machines).
    Merge(MergeArgs),
    /// Two runs case by case (results folders, or the store's `last`, baselines and tags),
    /// or one run's variants against their contestants: time, peak RSS and CPU, NEW / BASE,
    /// with intervals and verdicts; a gate with --fail-if-slower / --fail-if-bigger.
    Compare(CompareArgs),
    /// Write a finished (or merged) run's results (DIR/results.json) in any format: to files,
    /// or one of them to stdout (`-`).
    Export(ExportArgs),
    /// Print a completion script for SHELL: `taskbench completions bash >
    /// ~/.local/share/bash-completion/completions/taskbench` (zsh: a file `_taskbench` in
    /// a folder of $fpath; fish: ~/.config/fish/completions/taskbench.fish).
    Completions(CompletionsArgs),
    /// How precise a run is (the share of cells within ±5 % and ±2 %) and, given two runs of
    /// the same cases, how well they agree: the cells' difference, B's medians inside A's
    /// intervals, order flips; each machine's condition beside it.
    Agree(AgreeArgs),
    /// Measure warm-up curves: fresh processes timing every iteration from a cold start,
    /// where each settles, and the warm-up a time process needs (`--write` keeps it in the
    /// contestant's warm-up.toml, which `run` reads).
    #[command(name = "warmup")]
    WarmUp(WarmUpArgs),
    /// Which release changed a case's figure: the releases the registry serves in a range
    /// (`-c go@1.22..1.26`), down to patch releases, searched by interleaved A/B runs of
    /// two releases — each line's ends and middle first, then halving — until adjacent
    /// releases.
    Bisect(BisectArgs),
}

#[derive(Debug, Args)]
pub struct BisectArgs {
    /// A contestant and a range of its runtime's releases: go@1.22..1.26,
    /// go@1.24.0..1.24.3, node-async-await@node22..26.
    #[arg(short, long, value_name = "NAME@FROM..TO")]
    pub(crate) contestant: String,
    /// The scenario, at its default parameters.
    #[arg(short, long, value_name = "NAME")]
    pub(crate) scenario: String,
    /// A change smaller than this is none.
    #[arg(long, default_value = "10%", value_parser = parse_percent, value_name = "PCT")]
    pub(crate) threshold: f64,
    /// The figure followed: time (per iteration), rss (peak) or cpu (per iteration).
    #[arg(long, default_value = "time", value_parser = parse_figure, value_name = "FIGURE")]
    pub(crate) measure: crate::bisect::search::Figure,
    /// Time processes per release in each run of a pair (default: the scenario's stopping
    /// rule, 5–100 until ±2 % or 3 s).
    #[arg(short, long, value_name = "N")]
    pub(crate) runs: Option<u32>,
    /// Runs of one pair at most while its interval straddles the threshold, each pooled
    /// with the ones before.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=10), value_name = "N")]
    pub(crate) attempts: u32,
    /// Releases the coarse pass samples inside each line besides its ends, evenly spaced:
    /// a change and its undoing inside one line are seen when a probe falls between them.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(0..=20), value_name = "N")]
    pub(crate) probes: u16,
    /// The bisect's folder: bisect.json and each run's folder (default:
    /// results/<start time>-bisect).
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub(crate) out: Option<PathBuf>,
    /// Also add each run to this store: a SQLite file, or a PostgreSQL database.
    #[arg(long, value_name = "PATH|URL", value_hint = ValueHint::FilePath)]
    pub(crate) store: Option<Location>,
    /// List the releases in the range and the coarse pass's pairs; build and run nothing.
    #[arg(long)]
    pub(crate) dry_run: bool,
}

/// A whole number from 0 to 2^64 − 1 (a negative one is read as a value, to be refused
/// as one, not taken for a flag).
fn parse_seed(text: &str) -> Result<u64, String> {
    text.parse()
        .map_err(|_| format!("a seed is a whole number from 0 to {}", u64::MAX))
}

/// `time`, `rss` or `cpu`.
fn parse_figure(text: &str) -> Result<crate::bisect::search::Figure, String> {
    let names = crate::bisect::search::Figure::NAMES;
    (names.iter().find(|(name, _)| *name == text))
        .map(|(_, figure)| *figure)
        .ok_or_else(|| format!("'{text}' is no figure: time, rss or cpu"))
}

impl BisectArgs {
    /// Each of the bisect's runs as the library takes it, but its contestants and folder;
    /// `contestants_dir` is `--contestants`, when given.
    pub(crate) fn options(&self, contestants_dir: Option<&std::path::Path>) -> SessionOptions {
        SessionOptions {
            plan: presets::PlanOptions {
                scenarios: vec![self.scenario.clone()],
                runs: self.runs,
                ..presets::PlanOptions::default()
            },
            contestants_dir: contestants_dir.map(std::path::Path::to_path_buf),
            contestants: Vec::new(),
            commands: Commands::default(),
            cpus: Vec::new(),
            patches: Vec::new(),
            shard: None,
            instructions: false,
            limits: ProcessLimits::default(),
            out: None,
            exports: Vec::new(),
            keep: Keep {
                store: self.store.clone(),
                no_store: self.store.is_none(),
                ..Keep::default()
            },
            gate: Gate::default(),
            show: Show::default(),
        }
    }
}

#[derive(Debug, Args)]
pub struct AgreeArgs {
    /// A run: its results folder, or its results.json.
    #[arg(value_name = "A", value_hint = ValueHint::AnyPath)]
    pub(crate) a: PathBuf,
    /// A second run of the same cases.
    #[arg(value_name = "B", value_hint = ValueHint::AnyPath)]
    pub(crate) b: Option<PathBuf>,
    /// Print JSON.
    #[arg(long, conflicts_with = "markdown")]
    pub(crate) json: bool,
    /// Print Markdown tables.
    #[arg(long)]
    pub(crate) markdown: bool,
}

#[derive(Debug, Args)]
pub struct WarmUpArgs {
    /// Contestants or @groups (comma-separated or repeated).
    #[arg(
        short,
        long,
        value_delimiter = ',',
        required = true,
        value_name = "NAME"
    )]
    pub(crate) contestant: Vec<String>,
    /// Scenarios, at the quick preset's sizes (default: every scenario).
    #[arg(short, long, value_delimiter = ',', value_name = "NAME")]
    pub(crate) scenario: Vec<String>,
    /// Processes per contestant and scenario.
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub(crate) processes: u32,
    /// Iterations per process, at most.
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub(crate) iterations: u32,
    /// What one process's iterations may take, going by its first (fewer iterations where
    /// they are long, but at least 30).
    #[arg(long, default_value = "15s", value_parser = parse_duration, value_name = "TIME")]
    pub(crate) per_process: Duration,
    /// Kill a process after this long.
    #[arg(long, default_value = "120s", value_parser = parse_duration, value_name = "TIME")]
    pub(crate) timeout: Duration,
    /// Write each proposed warm-up into the contestant's warm-up.toml.
    #[arg(long)]
    pub(crate) write: bool,
    /// Also keep every curve (each process's series, its class and where it settled) in
    /// FILE as JSON.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(crate) save: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish (also elvish, powershell).
    #[arg(value_name = "SHELL")]
    pub(crate) shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// A results folder, as `taskbench run` or `taskbench merge` wrote it.
    #[arg(value_name = "DIR")]
    pub(crate) dir: PathBuf,
    /// `--json`, `--csv`, … `FILE`: one flag for each format of the export table.
    #[command(flatten)]
    pub(crate) formats: FolderExports,
}

impl ExportArgs {
    /// Each `--<flag> PATH` given, with its format.
    pub fn exports(&self) -> Vec<(&'static export::Format, &std::path::Path)> {
        self.formats.given()
    }
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// What to compare against: a results folder, or from the store `last` (`last~1` the
    /// session before), a baseline saved with `run --save-baseline NAME`, or a tag (its
    /// newest session).
    #[arg(value_name = "BASE")]
    pub(crate) base: String,
    /// What is compared, named the same ways; without it, each variant of BASE
    /// (`tokio@patch`) against its contestant (`tokio`), measured in the same run.
    #[arg(value_name = "NEW")]
    pub(crate) new: Option<String>,
    /// The store BASE and NEW are looked up in when they are not folders: a SQLite file, or
    /// a PostgreSQL database (`postgres://USER@HOST:PORT/DATABASE`).
    #[arg(long, value_name = "PATH|URL", value_hint = ValueHint::FilePath, env = "TASKBENCH_STORE", default_value = DEFAULT_STORE)]
    pub(crate) store: Location,
    #[command(flatten)]
    pub gate: GateArgs,
    /// When the gate fails, run the failing cases again with NEW's options (NEW must be a
    /// results folder) into NEW-confirm, and fail only on those that fail again.
    #[arg(long, requires = "new", conflicts_with_all = ["mixed_machines", "fail_on_change"])]
    pub(crate) confirm: bool,
    /// Judge --fail-if-slower / --fail-if-bigger by change points rather than by BASE
    /// against NEW: each case's medians over the store's sessions on NEW's machine before
    /// NEW, then NEW's, fail when a significant step (E-divisive means, 5 % shared among the
    /// cases) starts among the newest five and is up by more than the threshold.
    #[arg(long, requires = "new")]
    pub(crate) fail_on_change: bool,
    /// Also write the table as Markdown here (a pull-request comment).
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub export_markdown: Option<PathBuf>,
    /// Also write the table as an HTML page here.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(crate) export_html: Option<PathBuf>,
}

/// The regression gate of `compare`, and of `run --baseline`.
#[derive(Debug, Clone, Default, Args)]
pub struct GateArgs {
    /// Exit 1 when a case is significantly slower by more than this (5%, 5).
    #[arg(long, value_parser = parse_percent, value_name = "PCT")]
    pub(crate) fail_if_slower: Option<f64>,
    /// Exit 1 when a case's peak RSS is significantly bigger by more than this.
    #[arg(long, value_parser = parse_percent, value_name = "PCT")]
    pub(crate) fail_if_bigger: Option<f64>,
    /// Exit 1 when a case's instructions per iteration (`run --instructions`) grew by more
    /// than this: counts repeat, so no interval is needed.
    #[arg(long, value_parser = parse_percent, value_name = "PCT")]
    pub(crate) fail_if_more_instructions: Option<f64>,
    /// Compare runs of different machines (CPU model, cores, memory), which are refused
    /// otherwise: every row is marked, as its ratio holds the machines' difference too.
    #[arg(long)]
    pub(crate) mixed_machines: bool,
}

impl GateArgs {
    /// The gate's thresholds.
    pub(crate) fn thresholds(&self) -> crate::compare::gate::Thresholds {
        crate::compare::gate::Thresholds {
            slower: self.fail_if_slower,
            bigger: self.fail_if_bigger,
            more_instructions: self.fail_if_more_instructions,
        }
    }

    /// Whether any threshold is set.
    pub fn any(&self) -> bool {
        self.thresholds().any()
    }
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Result folders, as `taskbench run` wrote them.
    #[arg(value_name = "DIR", value_hint = ValueHint::DirPath, required = true)]
    pub(crate) dirs: Vec<PathBuf>,
    /// The merged folder: results.json, .csv, .md, report.html, runs.jsonl and run.json.
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub(crate) out: PathBuf,
    /// Merge runs of different machines (CPU model, cores, memory): each machine's rows
    /// side by side (`tokio · m2`), a machine column, an overview per machine.
    #[arg(long)]
    pub mixed_machines: bool,
    /// Print only the last line, not the overviews.
    #[arg(short, long)]
    pub(crate) quiet: bool,
}

/// The store `import`, `history` and `compare` read when neither --store nor
/// TASKBENCH_STORE says another: the one `taskbench run` writes beside `results/<time>`.
pub(crate) const DEFAULT_STORE: &str = "results/taskbench.sqlite";

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// A results folder, as `taskbench run` wrote it.
    #[arg(value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub(crate) dir: PathBuf,
    /// The store: a SQLite file, or a PostgreSQL database (`postgres://…`).
    #[arg(long, value_name = "PATH|URL", value_hint = ValueHint::FilePath, env = "TASKBENCH_STORE", default_value = DEFAULT_STORE)]
    pub(crate) store: Location,
    /// Tags for the imported run.
    #[arg(long = "tag", value_name = "TAG", value_parser = store::parse_tag)]
    pub(crate) tags: Vec<String>,
}

#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// The store: a SQLite file, or a PostgreSQL database (`postgres://…`).
    #[arg(long, value_name = "PATH|URL", value_hint = ValueHint::FilePath, env = "TASKBENCH_STORE", default_value = DEFAULT_STORE)]
    pub(crate) store: Location,
    /// Only these contestants, comma-separated.
    #[arg(short, long, value_delimiter = ',', value_name = "NAME")]
    pub(crate) contestant: Vec<String>,
    /// Only these scenarios, comma-separated.
    #[arg(short, long, value_delimiter = ',', value_name = "NAME")]
    pub(crate) scenario: Vec<String>,
    /// Only runs with this tag (repeat for all of several).
    #[arg(long = "tag", value_name = "TAG", value_parser = store::parse_tag)]
    pub(crate) tags: Vec<String>,
    /// Only runs started at or after this (2026-12-01, or RFC 3339).
    #[arg(long, value_name = "WHEN")]
    pub(crate) since: Option<String>,
    /// Also print each case's change points (E-divisive means over its sessions, and over a
    /// release sweep's releases): the step, where it starts, its p-value (docs/HISTORY.md).
    #[arg(long)]
    pub(crate) changes: bool,
    /// With --changes and --export-html: leave out steps smaller than this (`10%`, as
    /// bisect's threshold); every step by default.
    #[arg(long, value_parser = parse_percent, value_name = "PCT")]
    pub(crate) min_change: Option<f64>,
    /// Also write an HTML page with a trend chart per point (median and interval per
    /// session, a ring where the contestant's version changed, a stroke at a change point).
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(crate) export_html: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct SiteArgs {
    /// The store: a SQLite file, or a PostgreSQL database (`postgres://…`).
    #[arg(long, value_name = "PATH|URL", value_hint = ValueHint::FilePath, env = "TASKBENCH_STORE", default_value = DEFAULT_STORE)]
    pub(crate) store: Location,
    /// The site's folder, made if missing; a build into a folder built before rewrites only
    /// the files whose figures changed, and removes those no page makes any more.
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath, default_value = "site")]
    pub(crate) out: PathBuf,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// A results folder, as `taskbench run` wrote it.
    #[arg(value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub(crate) dir: PathBuf,
}

#[derive(Debug, Args)]
pub struct PresetsArgs {
    /// Also list the presets of this TOML file.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(crate) preset_file: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Scenarios to run, comma-separated, at their defaults (default: the quick preset).
    #[arg(short, long, value_delimiter = ',', value_name = "NAME")]
    pub(crate) scenario: Vec<String>,
    // The help of the settings a preset gives is made from the presets (presets/help.rs).
    #[arg(long, value_name = "NAME", help = help::preset(), conflicts_with_all = ["scenario", "command"])]
    pub(crate) preset: Option<String>,
    /// A TOML file of presets of your own.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath, conflicts_with = "command")]
    pub(crate) preset_file: Option<PathBuf>,
    /// Print the cases and an estimate of the time they take; run nothing.
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// Contestants and @groups to run, comma-separated: `-c @headline,node-q` (`taskbench
    /// list` shows the groups; default: the preset's lineup, @headline for most).
    #[arg(short, long, value_delimiter = ',', value_name = "NAME|@GROUP")]
    pub(crate) contestant: Vec<String>,
    /// Time a whole command as a process instead (repeatable), like hyperfine.
    #[arg(long, value_name = "CMD", value_hint = ValueHint::CommandString, conflicts_with_all = ["scenario", "contestant"])]
    pub(crate) command: Vec<String>,
    /// Names of the --command's, in order (default: the command itself).
    #[arg(short = 'n', long, value_name = "NAME", requires = "command")]
    pub(crate) command_name: Vec<String>,
    /// The shell that runs a --command with shell syntax (its start-up is measured and
    /// subtracted), or `none`: split the command into words and run it directly. A
    /// command without shell syntax always runs directly.
    #[arg(
        short = 'S',
        long,
        value_name = "SHELL", value_hint = ValueHint::CommandName,
        default_value = "sh",
        requires = "command"
    )]
    pub(crate) shell: String,
    /// Short for --shell none.
    #[arg(short = 'N', requires = "command")]
    pub(crate) no_shell: bool,
    #[command(flatten)]
    pub(crate) params: ParamFlags,
    /// Exactly N time processes per case, whatever the precision (sets --min-runs and
    /// --max-runs both).
    #[arg(short, long, value_parser = clap::value_parser!(u32).range(1..), value_name = "N",
          conflicts_with_all = ["min_runs", "max_runs"])]
    pub(crate) runs: Option<u32>,
    #[arg(short = 'm', long, help = help::min_runs(), value_parser = clap::value_parser!(u32).range(1..), value_name = "N")]
    pub(crate) min_runs: Option<u32>,
    #[arg(short = 'M', long, help = help::max_runs(), value_parser = clap::value_parser!(u32).range(1..), value_name = "N")]
    pub(crate) max_runs: Option<u32>,
    #[arg(long, help = help::precision(), value_parser = parse_percent, value_name = "PCT")]
    pub(crate) precision: Option<f64>,
    #[arg(long, help = help::max_time(), value_parser = parse_duration, value_name = "TIME")]
    pub(crate) max_time: Option<Duration>,
    #[arg(long, help = help::budget(), value_parser = parse_duration, value_name = "TIME")]
    pub(crate) budget: Option<Duration>,
    #[arg(short, long = "warmup", help = help::warm_up(), value_name = "N")]
    pub(crate) warm_up: Option<u32>,
    /// Idle-footprint processes per scenario and contestant: the scenario at its idle size,
    /// which per-task figures are measured above (default: the preset's, 3 for
    /// `--scenario`; 0 leaves the per-task memory figures out).
    #[arg(long, value_name = "N")]
    pub(crate) idle_runs: Option<u32>,
    /// Seed of the measured rounds' random order (results.json's `seed`): the same seed
    /// repeats a run's order. Default: from the clock.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = parse_seed)]
    pub(crate) seed: Option<u64>,
    /// Iterations each contestant runs in-process before the measured one (default: the
    /// scenario's own).
    #[arg(long = "inner-warmup", value_name = "K")]
    pub(crate) inner_warm_up: Option<u32>,
    /// Warm up doxbee and parallel in-process with whole iterations, not with the seed's
    /// 350 requests (bluebird's harness).
    #[arg(long = "full-warmup")]
    pub(crate) full_warm_up: bool,
    /// Also count each case's instructions: after its measured runs, a process of one
    /// measured iteration and one of two under `perf stat` (where the kernel allows it) or
    /// valgrind (cachegrind, no cache simulation); their difference is one iteration.
    #[arg(long)]
    pub(crate) instructions: bool,
    /// Kill a run's process group after this long (e.g. 30, 90s, 2m); counted runs get
    /// five times as long.
    #[arg(long, default_value = "120s", value_parser = parse_duration, value_name = "TIME")]
    pub(crate) timeout: Duration,
    /// Interval of the RSS/thread sampler, in milliseconds.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..), value_name = "MS")]
    pub(crate) sample_ms: u64,
    /// Kill a run whose resident memory passes this (e.g. 8GiB, 500MiB, 100MB: IEC and SI
    /// units; default: half of the machine's memory).
    #[arg(long, value_parser = parse_size, value_name = "SIZE")]
    pub(crate) memory_limit: Option<u64>,
    /// Output folder for runs.jsonl and the results (default: results/<start time>).
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub out: Option<PathBuf>,
    /// `--export-json`, `--export-csv`, … `FILE`: one flag for each format of the export
    /// table.
    #[command(flatten)]
    pub(crate) export_flags: RunExports,
    /// The store the run is added to: a SQLite file (default: taskbench.sqlite beside the
    /// run's folder), or a PostgreSQL database (`postgres://USER@HOST:PORT/DATABASE`).
    #[arg(long, value_name = "PATH|URL", value_hint = ValueHint::FilePath, env = "TASKBENCH_STORE")]
    pub(crate) store: Option<Location>,
    /// Do not add the run to the store (whatever --store or TASKBENCH_STORE say).
    #[arg(long)]
    pub(crate) no_store: bool,
    /// A tag for the run in the store (repeatable: `--tag before --tag pr-123`).
    #[arg(long = "tag", value_name = "TAG", value_parser = store::parse_tag)]
    pub(crate) tags: Vec<String>,
    /// Save this run in the store as the baseline NAME (an older one of that name is
    /// replaced), for `--baseline NAME` and `taskbench compare NAME …` later.
    #[arg(long, value_name = "NAME", conflicts_with = "no_store")]
    pub(crate) save_baseline: Option<String>,
    /// When the run ends, compare it with the baseline NAME from the store (or `last`, a
    /// tag, a results folder, as `taskbench compare` takes them); with --fail-if-slower /
    /// --fail-if-bigger, a gate.
    #[arg(long, value_name = "NAME")]
    pub(crate) baseline: Option<String>,
    #[command(flatten)]
    pub(crate) gate: GateArgs,
    /// Pin each contestant to N cores, its runtime told N workers where it has a knob;
    /// comma-separated, a sweep: `--cpus 1,2` runs `tokio cpus=1` and `tokio cpus=2`.
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..), value_name = "N")]
    pub(crate) cpus: Vec<u32>,
    /// Build the NAME@patch contestants with CRATE replaced by the checkout at PATH
    /// (repeatable), recorded with that checkout's commit.
    #[arg(long, value_parser = contestant::variant::parse_patch, value_name = "CRATE=PATH")]
    pub(crate) patch: Vec<contestant::variant::Patch>,
    /// Finish an interrupted run: the cases of DIR/run.json that have not finished, with
    /// the same settings, into DIR (no other flag that chooses cases or runs goes with it).
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath, conflicts_with_all = [
        "scenario", "preset", "preset_file", "dry_run", "contestant", "command", "runs",
        "min_runs", "max_runs", "precision", "max_time", "budget", "warm_up", "idle_runs", "inner_warm_up",
        "full_warm_up", "out",
        "shard",
    ])]
    pub(crate) resume: Option<PathBuf>,
    /// Run only part K of N of the cases (`--shard 2/3`), for N runners each running one
    /// part; `taskbench merge` joins their folders. Every runner splits the cases the same
    /// way (by estimated time, whatever the order of the contestants).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<run::Shard>,
    /// No progress bar and no tables; only errors (the files are still written).
    #[arg(short, long)]
    pub(crate) quiet: bool,
    /// Also print each point's table on the terminal (they are always in results.md and
    /// report.html); by default the terminal shows the overview and the warnings' digest.
    #[arg(long)]
    pub(crate) tables: bool,
    /// Rank the terminal's overview by cold start (a fresh process's first iteration)
    /// instead of the steady state; results.md and report.html have both.
    #[arg(long)]
    pub(crate) cold: bool,
}

impl RunArgs {
    /// The run these arguments ask for, as the library takes it; `contestants_dir` is
    /// `--contestants`, when given.
    pub(crate) fn options(&self, contestants_dir: Option<&std::path::Path>) -> SessionOptions {
        SessionOptions {
            plan: self.plan_options(),
            contestants_dir: contestants_dir.map(std::path::Path::to_path_buf),
            contestants: self.contestant.clone(),
            commands: Commands {
                commands: self.command.clone(),
                names: self.command_name.clone(),
                shell: if self.no_shell { "none" } else { &self.shell }.to_string(),
            },
            cpus: self.cpus.clone(),
            patches: self.patch.clone(),
            shard: self.shard,
            instructions: self.instructions,
            limits: ProcessLimits {
                timeout: self.timeout,
                sample_ms: self.sample_ms,
                memory_limit: self.memory_limit,
                full_warm_up: self.full_warm_up,
            },
            out: self.out.clone(),
            exports: self.exports(),
            keep: Keep {
                store: self.store.clone(),
                no_store: self.no_store,
                tags: self.tags.clone(),
                save_baseline: self.save_baseline.clone(),
            },
            gate: Gate {
                baseline: self.baseline.clone(),
                thresholds: self.gate.thresholds(),
                mixed_machines: self.gate.mixed_machines,
            },
            show: Show {
                quiet: self.quiet,
                tables: self.tables,
                cold: self.cold,
            },
        }
    }

    /// Each `--export-<flag> PATH` given, with its format.
    fn exports(&self) -> Vec<Export> {
        (self.export_flags.given().into_iter())
            .map(|(format, path)| Export {
                format,
                path: path.to_path_buf(),
            })
            .collect()
    }

    /// The options that choose the cases and how much each is measured.
    fn plan_options(&self) -> presets::PlanOptions {
        presets::PlanOptions {
            preset: self.preset.clone(),
            preset_file: self.preset_file.clone(),
            scenarios: self.scenario.clone(),
            params: self.params.0.clone(),
            inner_warm_up: self.inner_warm_up,
            runs: self.runs,
            min_runs: self.min_runs,
            max_runs: self.max_runs,
            precision: self.precision,
            max_time: self.max_time,
            budget: self.budget,
            warm_up: self.warm_up,
            idle_runs: self.idle_runs,
            seed: self.seed,
            points: Vec::new(),
        }
    }
}

/// The options of a `taskbench run` command line (`argv[0]` first), as a results folder
/// written before the options were kept holds it in run.json: how `--resume` reads such a
/// folder.
pub(crate) fn run_options_of(argv: &[String]) -> anyhow::Result<SessionOptions> {
    let cli = Cli::try_parse_from(argv).map_err(|e| {
        let rendered = e.render().to_string();
        anyhow::anyhow!(
            "its command line does not parse any more: {}",
            rendered.lines().next().unwrap_or_default()
        )
    })?;
    match cli.command {
        Command::Run(args) => Ok(args.options(cli.contestants.as_deref())),
        _ => anyhow::bail!("not the command line of a run"),
    }
}

/// Every parameter name in the catalogue, with the scenarios that take it.
fn catalogue_params() -> Vec<(&'static str, &'static str, Vec<&'static str>)> {
    let mut params: Vec<(&'static str, &'static str, Vec<&'static str>)> = Vec::new();
    for spec in catalogue::SCENARIOS {
        for p in spec.params {
            match params.iter_mut().find(|(name, _, _)| *name == p.name) {
                Some((_, _, scenarios)) => scenarios.push(spec.name),
                None => params.push((p.name, p.doc, vec![spec.name])),
            }
        }
    }
    params
}

/// The scenario parameters' flags (`--tasks 1000,10k`), one for each parameter the
/// catalogue has, read into the presets' own [`ParamArgs`] (which know no command line).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ParamFlags(pub(crate) ParamArgs);

impl Args for ParamFlags {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        catalogue_params()
            .into_iter()
            .fold(cmd, |cmd, (name, doc, scenarios)| {
                cmd.arg(
                    Arg::new(name)
                        .long(name)
                        .value_name("N[,N…]")
                        .allow_negative_numbers(true)
                        .value_delimiter(',')
                        .value_parser(move |s: &str| {
                            catalogue::parse_count(name, s).map_err(|e| e.to_string())
                        })
                        .help(format!("{doc} ({})", scenarios.join(", ")))
                        .help_heading("Scenario parameters (a list makes a sweep)"),
                )
            })
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for ParamFlags {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let given = catalogue_params()
            .into_iter()
            .filter_map(|(name, _, _)| {
                matches
                    .get_many::<u64>(name)
                    .map(|values| (name, values.copied().collect()))
            })
            .collect();
        Ok(ParamFlags(ParamArgs(given)))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scheduler::{Resume, Stored};

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("taskbench").chain(args.iter().copied()))
    }

    fn run_args(args: &[&str]) -> RunArgs {
        match parse(args).unwrap().command {
            Command::Run(run) => *run,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn parameter_lists_make_sweeps() {
        let run = run_args(&[
            "run",
            "--scenario",
            "sleep",
            "--tasks",
            "1000,10k",
            "--delay-ms",
            "5",
        ]);
        assert_eq!(run.scenario, ["sleep"]);
        assert_eq!(
            run.params.0.0,
            vec![("tasks", vec![1_000, 10_000]), ("delay-ms", vec![5])]
        );
        assert_eq!(
            (run.runs, run.warm_up, run.timeout),
            (None, None, Duration::from_secs(120))
        );
    }

    #[test]
    fn bad_numbers_are_refused_naming_the_flag() {
        for args in [
            &["run", "--tasks", "10q"][..],
            &["run", "--delay-ms", "-5"],
            &["run", "--runs", "0"],
            &["run", "--timeout", "0"],
            &["run", "--timeout", "soon"],
        ] {
            let err = parse(args).unwrap_err().to_string();
            assert!(err.contains(args[1]), "{args:?}: {err}");
        }
    }

    #[test]
    fn stopping_flags_read_like_hyperfines() {
        let run = run_args(&[
            "run",
            "-m",
            "4",
            "-M",
            "40",
            "--precision",
            "5%",
            "--max-time",
            "3s",
            "--budget",
            "5m",
        ]);
        assert_eq!(run.budget, Some(Duration::from_secs(300)));
        assert_eq!((run.min_runs, run.max_runs), (Some(4), Some(40)));
        assert_eq!(run.precision, Some(0.05));
        assert_eq!(run.max_time, Some(Duration::from_secs(3)));
        assert_eq!(parse_percent("2"), Ok(0.02));
        assert_eq!(parse_percent(" 0.5 % "), Ok(0.005));
        for bad in ["0", "-1", "100", "two", "%"] {
            assert!(parse_percent(bad).is_err(), "{bad}");
        }
        assert!(
            parse(&["run", "-r", "3", "-m", "2"]).is_err(),
            "-r is exact"
        );
    }

    #[test]
    fn every_flag_of_a_plan_reaches_the_plans_options() {
        let argv = "run --preset-file p.toml --preset sleepy --tasks 5 --inner-warmup 0 -r 2 -w 3 \
                    --idle-runs 1 --seed 7 --max-time 9s --budget 30m";
        let run = run_args(&argv.split_whitespace().collect::<Vec<_>>());
        let expected = presets::PlanOptions {
            preset: Some("sleepy".into()),
            preset_file: Some("p.toml".into()),
            params: presets::ParamArgs(vec![("tasks", vec![5])]),
            inner_warm_up: Some(0),
            runs: Some(2),
            warm_up: Some(3),
            idle_runs: Some(1),
            seed: Some(7),
            max_time: Some(Duration::from_secs(9)),
            budget: Some(Duration::from_secs(30 * 60)),
            ..presets::PlanOptions::default()
        };
        assert_eq!(run.options(None).plan, expected);
        let bounds = run_args(&[
            "run",
            "-s",
            "spawn,yield",
            "-m",
            "4",
            "-M",
            "9",
            "--precision",
            "5%",
        ]);
        let expected = presets::PlanOptions {
            scenarios: vec!["spawn".into(), "yield".into()],
            min_runs: Some(4),
            max_runs: Some(9),
            precision: Some(0.05),
            ..presets::PlanOptions::default()
        };
        assert_eq!(bounds.options(None).plan, expected);
    }

    #[test]
    fn a_preset_excludes_scenarios_and_commands() {
        assert!(parse(&["run", "--preset", "seeds", "--scenario", "spawn"]).is_err());
        assert!(parse(&["run", "--preset", "seeds", "--command", "true"]).is_err());
        let run = run_args(&["run", "--preset", "million", "-r", "2", "--dry-run"]);
        assert_eq!(
            (run.preset.as_deref(), run.runs, run.warm_up, run.dry_run),
            (Some("million"), Some(2), None, true)
        );
    }

    #[test]
    fn report_takes_a_results_folder() {
        match parse(&["report", "results/x"]).unwrap().command {
            Command::Report(args) => assert_eq!(args.dir, PathBuf::from("results/x")),
            other => panic!("{other:?}"),
        }
        assert!(parse(&["report"]).is_err());
    }

    #[test]
    fn commands_take_names_and_a_shell() {
        let run = run_args(&["run", "--command", "sleep 1", "-n", "nap", "-N"]);
        assert_eq!(
            (run.command_name, run.no_shell),
            (vec!["nap".to_string()], true)
        );
        assert_eq!(run_args(&["run", "--command", "x"]).shell, "sh");
        assert!(parse(&["run", "-N"]).is_err(), "-N needs a --command");
    }

    #[test]
    fn resume_takes_a_folder_and_no_cases() {
        let run = run_args(&["run", "--resume", "results/x", "-q"]);
        assert_eq!(run.resume, Some(PathBuf::from("results/x")));
        let err = parse(&["run", "--resume", "results/x", "-s", "spawn"]).unwrap_err();
        assert!(err.to_string().contains("cannot be used with"), "{err}");
    }

    /// A folder of a taskbench that kept only its command line in run.json resumes with the
    /// options this front end makes of that command line.
    #[test]
    fn an_old_folder_resumes_from_its_command_line() {
        let dir = tempfile::tempdir().unwrap();
        let argv = [
            "taskbench",
            "--contestants",
            "cs",
            "run",
            "-s",
            "spawn",
            "-r",
            "3",
        ];
        let command = argv.iter().map(|a| a.to_string()).collect();
        export::SessionFile::new(command, None)
            .write(dir.path())
            .unwrap();
        let current = run_args(&["run", "--resume", "x", "-q"]).options(None);
        let (session_file, stored) = Resume::stored(dir.path(), &current).unwrap();
        let stored = match stored {
            Stored::CommandLine(argv) => run_options_of(&argv).unwrap(),
            Stored::Options(_) => panic!("no options were kept"),
        };
        let resume = Resume::open(dir.path(), &current, session_file, stored);
        let options = resume.options;
        assert_eq!(
            (options.plan.scenarios, options.plan.runs),
            (vec!["spawn".into()], Some(3))
        );
        assert_eq!(options.contestants_dir, Some(PathBuf::from("cs")));
        assert_eq!(options.out.as_deref(), Some(dir.path()));
        assert!(options.show.quiet);
        let list = ["taskbench", "list"].map(String::from);
        let err = run_options_of(&list).unwrap_err().to_string();
        assert!(err.contains("not the command line of a run"), "{err}");
    }

    #[test]
    fn the_options_read_back_as_written() {
        let args = run_args(&[
            "run",
            "-s",
            "sleep",
            "--tasks",
            "1000,10k",
            "--export-bmf",
            "b.json",
        ]);
        let options = args.options(None);
        let json = serde_json::to_string(&options).unwrap();
        let back: SessionOptions = serde_json::from_str(&json).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
        assert_eq!(back.plan.params, args.params.0);
        assert_eq!(back.exports()[0].0.flag(), "bmf");
    }

    #[test]
    fn a_command_excludes_scenarios() {
        assert!(parse(&["run", "--command", "true", "--scenario", "spawn"]).is_err());
        assert_eq!(
            run_args(&["run", "--command", "sleep 1", "--command", "true"]).command,
            ["sleep 1", "true"]
        );
    }
}
