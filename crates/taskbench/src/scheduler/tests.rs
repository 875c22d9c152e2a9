//! A run driven from `SessionOptions` alone — no command line — through every step, its
//! processes answered by the runner's fake executor; and the options kept for `--resume`.

use super::*;
use presets::PlanOptions;
use run::fake::Fake;
// `::measure`, the crate, not the scheduler's step (measure.rs) that `super::*` brings.
use ::measure::Exit;

/// Two `--command`s, two exact runs each, quiet and kept out of any store, into `out`.
fn options(out: &Path) -> SessionOptions {
    SessionOptions {
        plan: PlanOptions {
            runs: Some(2),
            warm_up: Some(1),
            seed: Some(7),
            ..PlanOptions::default()
        },
        contestants_dir: None,
        contestants: Vec::new(),
        commands: Commands {
            commands: vec!["true".into(), "sleep 0".into()],
            names: vec!["yes".into(), "nap".into()],
            shell: "none".into(),
        },
        cpus: Vec::new(),
        patches: Vec::new(),
        shard: None,
        instructions: false,
        limits: ProcessLimits {
            memory_limit: Some(1 << 30),
            ..ProcessLimits::default()
        },
        out: Some(out.to_path_buf()),
        exports: Vec::new(),
        keep: Keep {
            no_store: true,
            ..Keep::default()
        },
        gate: Gate::default(),
        show: Show {
            quiet: true,
            ..Show::default()
        },
    }
}

fn platform() -> Platform {
    Platform {
        taskbench: env!("CARGO_PKG_VERSION").into(),
        started: "2026-12-05T00:00:00Z".into(),
        cpu: "a test's".into(),
        cores: 2,
        memory_bytes: 1 << 30,
        kernel: String::new(),
        rustc: String::new(),
        rust_profile: "release".into(),
        load_average: 0.0,
        versions: Vec::new(),
    }
}

fn places(root: &Path) -> Places {
    Places {
        root: root.to_path_buf(),
        target: root.join("target"),
        cache: root.join("cache"),
    }
}

#[test]
fn a_run_goes_from_options_alone_to_its_results() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let options = options(&out);
    let places = places(dir.path());
    let mut fake = Fake {
        ran: Vec::new(),
        answer: |_| (Exit::Code(0), String::new()),
    };
    let scheduler = Scheduler::plan(&options, dir.path(), &places).unwrap();
    assert!(scheduler.dry_run().contains("sleep 0"));
    let mut prepared = scheduler.prepare(Vec::new(), None).unwrap();
    // A machine of its own, so that nothing is probed (the runner's budget tests beside
    // this one count the harness's own time).
    prepared.session_file.platform = Some(platform());
    let finished = prepared
        .build()
        .unwrap()
        .measure_with(&mut fake)
        .unwrap()
        .finish()
        .unwrap();
    let measured = |name: &str| {
        (finished.results.runs.iter())
            .filter(|r| r.contestant == name && r.phase == run::Phase::Measured)
            .count()
    };
    assert_eq!((measured("yes"), measured("nap")), (2, 2));
    assert!(
        fake.ran
            .contains(&vec!["sleep".to_string(), "0".to_string()])
    );
    for file in ["run.json", "options.json", "runs.jsonl", "results.json"] {
        assert!(out.join(file).is_file(), "{file}");
    }
    crate::compare::step::gate(finished).unwrap();
}

#[test]
fn a_resume_reads_the_options_kept_not_a_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let kept = options(&out);
    std::fs::create_dir_all(&out).unwrap();
    SessionFile::new(vec!["taskbench".into(), "run".into()], None)
        .write(&out)
        .unwrap();
    kept.write(&out).unwrap();
    let mut current = options(&dir.path().join("elsewhere"));
    current.show.quiet = false;
    let (session_file, stored) = Resume::stored(&out, &current).unwrap();
    let stored = match stored {
        super::Stored::Options(options) => *options,
        super::Stored::CommandLine(_) => panic!("no command line is read"),
    };
    let resumed = Resume::open(&out, &current, session_file, stored);
    assert_eq!(resumed.options.out.as_deref(), Some(out.as_path()));
    assert!(
        !resumed.options.show.quiet,
        "the resuming invocation's --quiet"
    );
    let json = |o: &SessionOptions| serde_json::to_value(&o.commands).unwrap();
    assert_eq!(json(&resumed.options), json(&kept));
    assert_eq!(resumed.options.plan.runs, Some(2));
}
