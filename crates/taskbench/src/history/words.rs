//! Change points in words: `history --changes`, one line per step ("step +42 % at …
//! (p=0.002), 12 before / 8 after") and how many series had none; and the lines of
//! `compare --fail-on-change`. history/change_points.rs decides; this only says it.

use crate::history::change_gate::{ChangeGate, RECENT};
use crate::history::change_points::{Along, Figure, Place, SeriesSteps, Step};
use stats::CHANGE_SETTINGS;
use units::{bytes, duration};

/// One line per step of every series in `found`, then one counting the series without.
pub(crate) fn change_lines(found: &[SeriesSteps]) -> Vec<String> {
    let mut lines: Vec<String> = found
        .iter()
        .flat_map(|s| s.steps.iter().map(move |step| step_line(s, step)))
        .collect();
    let with = found.iter().filter(|s| !s.steps.is_empty()).count();
    let short = found
        .iter()
        .filter(|s| s.series.figures() < 2 * CHANGE_SETTINGS.min_segment)
        .count();
    lines.push(format!(
        "{} of {} series (a case's time or peak RSS, along its sessions or a sweep's \
         releases) had no change point, {short} of them with fewer than {} figures, too few \
         to show one (E-divisive means, α = {}, at least {} figures a side — sessions, or a \
         sweep's processes; docs/HISTORY.md)",
        found.len() - with,
        found.len(),
        2 * CHANGE_SETTINGS.min_segment,
        CHANGE_SETTINGS.alpha,
        CHANGE_SETTINGS.min_segment,
    ));
    lines
}

/// `3 steps smaller than 10 % left out (--min-change)`.
pub(crate) fn left_out_line(count: usize, share: f64) -> String {
    format!(
        "{count} step(s) smaller than {} left out (--min-change)",
        units::percent(share)
    )
}

/// `spawn tasks=1000 · tokio · time: step +42 % at 2026-12-03 10:41:07 · 01234567, after
/// 2026-12-02 09:12:54 · 89abcdef (p=0.002), 12 before / 8 after`; each side's version
/// where they differ.
pub(crate) fn step_line(found: &SeriesSteps, step: &Step) -> String {
    let series = &found.series;
    let (at, before) = (found.at(step), found.before(step));
    let versions = at.version != before.version;
    let (contestant, at, before) = match series.along {
        Along::Sessions => (
            series.contestant.clone(),
            session(at, versions),
            session(before, versions),
        ),
        Along::Releases => (
            format!("{} releases", series.contestant),
            release(at),
            release(before),
        ),
    };
    format!(
        "{} · {contestant} · {}: step {} at {at}, after {before} (p={:.3}), {} before / {} after",
        series.point,
        match series.figure {
            Figure::Time => "time",
            Figure::PeakRss => "peak RSS",
        },
        size(series.figure, step),
        step.p_value,
        step.before,
        step.after,
    )
}

/// `+42 %`; where a level is not above zero (an overhead can be below its ideal time) a
/// ratio means nothing, so the two levels: `-3.00 µs → 5.00 µs`.
fn size(figure: Figure, step: &Step) -> String {
    let (before, after) = step.levels;
    if before > 0.0 && after > 0.0 {
        return format!("{:+.0} %", (step.ratio - 1.0) * 100.0);
    }
    let unit = match figure {
        Figure::Time => duration,
        Figure::PeakRss => bytes,
    };
    format!("{} → {}", unit(before), unit(after))
}

/// `2026-12-03 10:41:07 · 01234567+ · tokio 1.38.0`: the start, the commit where known,
/// the version if asked.
fn session(place: &Place, version: bool) -> String {
    let mut parts = vec![
        place
            .started
            .replace('T', " ")
            .trim_end_matches('Z')
            .to_string(),
    ];
    if let Some(commit) = &place.commit {
        let short: String = commit.chars().take(8).collect();
        parts.push(short + if place.dirty == Some(true) { "+" } else { "" });
    }
    if version {
        parts.extend(place.version.clone());
    }
    parts.join(" · ")
}

fn release(place: &Place) -> String {
    place
        .release
        .clone()
        .unwrap_or_else(|| session(place, true))
}

/// What the change-point gate says, and the failure message when a case failed.
pub(crate) fn change_gate_lines(gate: &ChangeGate) -> (Vec<String>, Option<String>) {
    let mut lines = vec![format!(
        "gate (--fail-on-change): {} series judged by their change points, the store's \
         sessions on this machine then NEW (E-divisive means, α = 5 %/{} = {:.4} each); a \
         series fails when its newest step starts among its newest {RECENT} figures and is \
         up by more than the threshold",
        gate.judged,
        gate.judged.max(1),
        gate.settings.alpha,
    )];
    if gate.too_short > 0 {
        lines.push(format!(
            "{} of them have fewer than {} figures: too few to show a change point",
            gate.too_short,
            2 * gate.settings.min_segment
        ));
    }
    let failed: Vec<String> = (gate.failures.iter())
        .map(|(found, step)| step_line(found, step))
        .collect();
    let failure = (!failed.is_empty()).then(|| {
        format!(
            "{} change point(s) among the newest sessions past the threshold: {}",
            failed.len(),
            failed.join("; ")
        )
    });
    (lines, failure)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::change_points::Series;

    fn found(levels: (f64, f64), along: Along) -> SeriesSteps {
        let place = |day: u32, release: &str| Place {
            started: format!("2026-12-0{day}T10:00:00Z"),
            commit: Some(format!("{day}123456789")),
            dirty: Some(day == 2),
            version: Some(format!("tokio 1.{day}")),
            release: Some(release.into()).filter(|_| along == Along::Releases),
        };
        SeriesSteps {
            series: Series {
                point: "spawn tasks=10".parse().unwrap(),
                contestant: "tokio".into(),
                figure: Figure::Time,
                along,
                places: vec![place(1, "tokio@1.1.0"), place(2, "tokio@1.2.0")],
                values: vec![levels.0, levels.1],
                groups: Vec::new(),
            },
            steps: vec![Step {
                index: 1,
                ratio: levels.1 / levels.0,
                levels,
                p_value: 0.0015,
                before: 1,
                after: 1,
            }],
        }
    }

    #[test]
    fn a_step_line_names_both_sides_and_its_size() {
        let sessions = found((1e6, 1.42e6), Along::Sessions);
        assert_eq!(
            step_line(&sessions, &sessions.steps[0]),
            "spawn tasks=10 · tokio · time: step +42 % at 2026-12-02 10:00:00 · 21234567+ · \
             tokio 1.2, after 2026-12-01 10:00:00 · 11234567 · tokio 1.1 (p=0.002), 1 before / \
             1 after"
        );
        let releases = found((1e6, 0.5e6), Along::Releases);
        let line = step_line(&releases, &releases.steps[0]);
        assert!(
            line.contains("tokio releases · time: step -50 % at tokio@1.2.0, after tokio@1.1.0"),
            "{line}"
        );
        let overhead = found((-3e3, 5e3), Along::Sessions);
        let line = step_line(&overhead, &overhead.steps[0]);
        assert!(line.contains("step -3.00 µs → 5.00 µs at"), "{line}");
        let counted = change_lines(&[sessions, releases]);
        assert_eq!(counted.len(), 3);
        assert!(counted[2].starts_with("0 of 2 series"), "{}", counted[2]);
        assert!(
            counted[2].contains("2 of them with fewer than 6 figures"),
            "{}",
            counted[2]
        );
    }
}
