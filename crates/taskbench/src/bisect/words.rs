//! `taskbench bisect`'s lines: each comparison as it is made, each release skipped, and
//! the answer at the end — the steps found, the pairs left undecided or drifting, the
//! releases built and the wall time. The search (bisect/search.rs) decides; this words.

use crate::bisect::search::{Bisect, Comparison, Decision, Event, Figure};
use std::time::Duration;
use units::{percent, ratio};
use words::table::{Table, headers};

/// One line for an event of the search: `go@1.23.12 → go@1.24.0  1.42× [1.33–1.51]
/// changed · 1 run, 20 processes each`, or a release skipped and why.
pub(crate) fn event_line(event: &Event, threshold: f64) -> String {
    match event {
        Event::Compared {
            comparison: c,
            more,
        } => {
            let verdict = match (c.decision, more) {
                (_, true) => format!("straddles {}: more rounds", percent(threshold)),
                (Decision::Changed, _) => format!("changed beyond {}", percent(threshold)),
                (Decision::Same, _) => format!("same within {}", percent(threshold)),
                (Decision::Undecided, _) => "undecided".to_string(),
            };
            let runs = if c.runs == 1 { "run" } else { "runs" };
            format!(
                "{} → {}  {}  {verdict} · {} {runs}, {} processes each",
                c.base,
                c.new,
                ratio_and_interval(c),
                c.runs,
                c.processes
            )
        }
        Event::Skipped(u) => format!(
            "{}: skipped ({}); its neighbours are searched",
            u.release, u.reason
        ),
    }
}

/// `1.42× [1.33–1.51]`.
fn ratio_and_interval(c: &Comparison) -> String {
    match c.interval {
        Some(i) => format!("{}× [{}–{}]", ratio(c.ratio), ratio(i.low), ratio(i.high)),
        None => format!("{}× [no interval]", ratio(c.ratio)),
    }
}

/// The answer: one line per step found (`go@1.24.0: pingpong 1.42× [1.33–1.51] slower than
/// go@1.23.12 — 6 of 31 releases built, 4 min 10 s`), or that the range is flat; then the
/// pairs undecided or drifting and the releases skipped.
pub(crate) fn answer(
    bisect: &Bisect,
    point: &str,
    figure: Figure,
    threshold: f64,
    wall: Duration,
) -> Vec<String> {
    let cost = format!(
        "{} of {} releases built, {}",
        bisect.built().len(),
        bisect.releases.len(),
        wall_time(wall)
    );
    let mut lines: Vec<String> = (bisect.found.iter())
        .map(|c| {
            let (more, less) = words(figure);
            let word = if c.ratio >= 1.0 { more } else { less };
            format!(
                "{}: {point} {} {word} than {} — {cost}",
                c.new,
                ratio_and_interval(c),
                c.base
            )
        })
        .collect();
    if bisect.found.is_empty() {
        let (first, last) = (bisect.releases.first(), bisect.releases.last());
        let (first, last) = (
            first.map_or("", String::as_str),
            last.map_or("", String::as_str),
        );
        let flat = bisect.undecided.is_empty() && bisect.drifts.is_empty();
        let what = if flat {
            "no change"
        } else {
            "no release named"
        };
        lines.push(format!(
            "{what} beyond {} between {first} and {last}: {cost}",
            percent(threshold)
        ));
    }
    for c in &bisect.undecided {
        lines.push(format!(
            "undecided: {} → {} {} after {} runs straddles {}",
            c.base,
            c.new,
            ratio_and_interval(c),
            c.runs,
            percent(threshold)
        ));
    }
    for c in &bisect.drifts {
        lines.push(format!(
            "drift: {} → {} {} is beyond {}, yet neither half is: no one release",
            c.base,
            c.new,
            ratio_and_interval(c),
            percent(threshold)
        ));
    }
    for u in &bisect.skipped {
        lines.push(format!("skipped: {} ({})", u.release, u.reason));
    }
    if bisect.stopped {
        lines.push(
            "interrupted: the search stopped before it ended; the above is what it found".into(),
        );
    }
    lines
}

/// The bisect's path as a table — each comparison in the order made, with its ratio,
/// interval, verdict and runs — its notes the answer: what the bisect's report.html shows.
pub(crate) fn path_table(bisect: &Bisect, title: &str, answer: &[String]) -> Table {
    let verdict = |d: Decision| match d {
        Decision::Changed => "changed",
        Decision::Same => "same",
        Decision::Undecided => "undecided",
    };
    let rows = (bisect.steps.iter())
        .map(|c| {
            vec![
                c.base.clone(),
                c.new.clone(),
                ratio_and_interval(c),
                verdict(c.decision).to_string(),
                c.runs.to_string(),
                c.processes.to_string(),
            ]
        })
        .collect();
    Table {
        title: title.to_string(),
        headers: headers(&[
            "BASE",
            "NEW",
            "NEW / BASE",
            "verdict",
            "runs",
            "processes each",
        ]),
        rows,
        notes: answer.to_vec(),
    }
}

/// The words for a figure's NEW above and below BASE.
fn words(figure: Figure) -> (&'static str, &'static str) {
    match figure {
        Figure::Time => ("slower", "faster"),
        Figure::Rss => ("bigger", "smaller"),
        Figure::Cpu => ("more CPU", "less CPU"),
    }
}

/// `42 s`, `4 min 10 s`, `1 h 02 min`.
fn wall_time(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        s if s < 60 => format!("{s} s"),
        s if s < 3600 => format!("{} min {} s", s / 60, s % 60),
        s => format!("{} h {:02} min", s / 3600, (s % 3600) / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bisect::search::Unavailable;
    use stats::Interval;

    fn comparison(base: &str, new: &str, r: f64, decision: Decision) -> Comparison {
        Comparison {
            base: base.into(),
            new: new.into(),
            ratio: r,
            interval: Some(Interval::new(r * 0.95, r * 1.05)),
            decision,
            runs: 1,
            processes: 20,
        }
    }

    #[test]
    fn the_answer_names_each_step_with_its_cost() {
        let bisect = Bisect {
            releases: (0..31).map(|i| format!("go@1.24.{i}")).collect(),
            steps: [
                "go@1.24.0",
                "go@1.24.30",
                "go@1.24.1",
                "go@1.24.2",
                "go@1.24.5",
                "go@1.24.6",
            ]
            .windows(2)
            .map(|w| comparison(w[0], w[1], 1.0, Decision::Same))
            .collect(),
            found: vec![comparison(
                "go@1.24.5",
                "go@1.24.6",
                1.42,
                Decision::Changed,
            )],
            ..Bisect::default()
        };
        let lines = answer(
            &bisect,
            "pingpong",
            Figure::Time,
            0.1,
            Duration::from_secs(250),
        );
        assert_eq!(
            lines,
            [
                "go@1.24.6: pingpong 1.42× [1.35–1.49] slower than go@1.24.5 — 6 of 31 releases built, 4 min 10 s"
            ]
        );
    }

    #[test]
    fn the_report_shows_each_comparison_in_order_and_the_answer() {
        let bisect = Bisect {
            steps: vec![
                comparison("go@1.23.12", "go@1.24.0", 1.58, Decision::Changed),
                comparison("go@1.24.0", "go@1.24.13", 1.0, Decision::Undecided),
            ],
            ..Bisect::default()
        };
        let answer = ["go@1.24.0: pingpong 1.58× slower".to_string()];
        let table = path_table(&bisect, "bisect go@1.22..1.26", &answer);
        assert_eq!(table.rows.len(), 2);
        assert_eq!(
            table.rows[0],
            [
                "go@1.23.12",
                "go@1.24.0",
                "1.58× [1.50–1.66]",
                "changed",
                "1",
                "20"
            ]
        );
        assert_eq!(table.rows[1][3], "undecided");
        assert_eq!(table.notes, answer);
    }

    #[test]
    fn a_flat_range_names_no_release() {
        let bisect = Bisect {
            releases: vec!["go@1.22.0".into(), "go@1.22.12".into()],
            steps: vec![comparison("go@1.22.0", "go@1.22.12", 1.01, Decision::Same)],
            skipped: vec![Unavailable {
                release: "go@1.22.3".into(),
                reason: "404".into(),
            }],
            ..Bisect::default()
        };
        let lines = answer(
            &bisect,
            "pingpong",
            Figure::Time,
            0.1,
            Duration::from_secs(65),
        );
        assert_eq!(
            lines,
            [
                "no change beyond 10 % between go@1.22.0 and go@1.22.12: 2 of 2 releases built, 1 min 5 s",
                "skipped: go@1.22.3 (404)"
            ]
        );
    }

    #[test]
    fn a_range_left_undecided_is_not_called_flat() {
        let c = comparison("go@1.25.14", "go@1.26.0", 1.09, Decision::Undecided);
        let bisect = Bisect {
            releases: vec![c.base.clone(), c.new.clone()],
            steps: vec![c.clone()],
            undecided: vec![c],
            ..Bisect::default()
        };
        let lines = answer(
            &bisect,
            "pingpong",
            Figure::Time,
            0.1,
            Duration::from_secs(5),
        );
        assert!(
            lines[0].starts_with("no release named beyond 10 %"),
            "{lines:?}"
        );
        assert!(
            lines[1].starts_with("undecided: go@1.25.14 → go@1.26.0 1.09×"),
            "{lines:?}"
        );
    }

    #[test]
    fn a_step_line_says_the_pair_the_ratio_the_verdict_and_the_rounds() {
        let c = comparison("go@1.22.12", "go@1.23.0", 1.08, Decision::Undecided);
        let more = event_line(
            &Event::Compared {
                comparison: &c,
                more: true,
            },
            0.1,
        );
        assert_eq!(
            more,
            "go@1.22.12 → go@1.23.0  1.08× [1.03–1.13]  straddles 10 %: more rounds · 1 run, 20 processes each"
        );
        let faster = comparison("go@1", "go@2", 0.6, Decision::Changed);
        let lines = answer(
            &Bisect {
                found: vec![faster],
                ..Bisect::default()
            },
            "pingpong",
            Figure::Rss,
            0.1,
            Duration::from_secs(5),
        );
        assert!(
            lines[0].contains("0.60× [0.57–0.63] smaller than go@1"),
            "{lines:?}"
        );
    }
}
