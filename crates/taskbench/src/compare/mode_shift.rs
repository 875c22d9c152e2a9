//! A comparison of a case whose processes fall into modes on either side. When tokio's
//! skynet runs 3.6 ms in nine processes of twelve and 10 ms in three, a second run with six
//! and six has a pooled median half again as high without either group changing speed: a
//! shift of the modes' shares, which the ratio of overall medians would call a regression.
//! So each mode is compared with its counterpart, and a case changes only when a mode's own
//! median moved; the shares on each side are said beside (docs/STATISTICS.md#modes).

use super::ratio::{Change, change};
use stats::{Mode, modes, pooled_median, split};

/// The modes on each side of a comparison, where either side has them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ModeShift {
    /// BASE's modes, lower first (`None`: one group).
    pub(crate) base: Option<[Mode; 2]>,
    /// NEW's modes, lower first.
    pub(crate) new: Option<[Mode; 2]>,
    /// NEW / BASE of the pooled medians of all processes, which a shift of shares moves.
    pub(crate) overall: Change,
}

/// NEW / BASE of a case's time (`base` and `new` one group of elapsed iterations per
/// process; modes are found on the row's figure, the overhead above `ideal`). Without
/// modes, the ratio of pooled medians ([`change`]). With modes on either side, each group
/// of NEW against its counterpart in BASE — lower with lower and upper with upper when both
/// have two; a side of one group against the other's mode nearest its median — and the
/// pair whose interval lies furthest from 1 stands for the case: a shift of shares alone is
/// no change.
pub(crate) fn time_change(
    base: &[Vec<f64>],
    new: &[Vec<f64>],
    ideal: f64,
) -> (Option<Change>, Option<ModeShift>) {
    let Some(overall) = change(base, new) else {
        return (None, None);
    };
    let (base_figure, new_figure) = (less(base, ideal), less(new, ideal));
    let (base_parts, new_parts) = (split(&base_figure), split(&new_figure));
    if base_parts.is_none() && new_parts.is_none() {
        return (Some(overall), None);
    }
    let (base_parts, new_parts) = (parts(base, base_parts), parts(new, new_parts));
    let moved = pairs(&base_parts, &new_parts)
        .into_iter()
        .filter_map(|(b, n)| change(&b, &n))
        .max_by(|a, b| distance_from_one(a).total_cmp(&distance_from_one(b)));
    let shift = ModeShift {
        base: modes(&base_figure),
        new: modes(&new_figure),
        overall,
    };
    (moved, Some(shift))
}

/// How far an interval lies from 1 on the log scale: positive when it excludes 1, by that
/// much; negative, by how far it reaches past 1, when it holds it.
fn distance_from_one(change: &Change) -> f64 {
    change
        .interval
        .map_or(f64::NEG_INFINITY, |i| i.low.ln().max(-i.high.ln()))
}

/// `groups` less `ideal`: the overhead, where modes are found.
fn less(groups: &[Vec<f64>], ideal: f64) -> Vec<Vec<f64>> {
    groups
        .iter()
        .map(|g| g.iter().map(|v| v - ideal).collect())
        .collect()
}

/// Some of a side's processes, each a group of its iterations.
type Processes = Vec<Vec<f64>>;

/// The processes of each mode, or all of them as one group.
fn parts(groups: &[Vec<f64>], split: Option<[Vec<usize>; 2]>) -> Vec<Processes> {
    let pick = |members: &[usize]| members.iter().map(|&i| groups[i].clone()).collect();
    match split {
        Some([lower, upper]) => vec![pick(&lower), pick(&upper)],
        None => vec![groups.to_vec()],
    }
}

/// Each BASE group with its NEW counterpart: in order when both sides have two; else the
/// single group with the other side's group nearest it (log of their pooled medians).
fn pairs(base: &[Processes], new: &[Processes]) -> Vec<(Processes, Processes)> {
    if base.len() == new.len() {
        return base.iter().cloned().zip(new.iter().cloned()).collect();
    }
    let (single, modes, single_is_base) = match base.len() {
        1 => (&base[0], new, true),
        _ => (&new[0], base, false),
    };
    let centre = |groups: &Processes| pooled_median(groups).unwrap_or(f64::NAN);
    let nearest = modes
        .iter()
        .min_by(|a, b| {
            let gap = |g: &Processes| (centre(g) / centre(single)).ln().abs();
            gap(a).total_cmp(&gap(b))
        })
        .cloned()
        .unwrap_or_default();
    if single_is_base {
        vec![(single.clone(), nearest)]
    } else {
        vec![(nearest, single.clone())]
    }
}

#[cfg(test)]
mod tests {
    use super::super::ratio::Verdict;
    use super::*;

    fn processes(medians: &[f64]) -> Vec<Vec<f64>> {
        stats::tight_processes(medians, 1.0)
    }

    /// `fast` processes at 3.6–3.9 ms and `slow` at 9.8–10.1 ms, in ms.
    fn skynet(fast: usize, slow: usize, scale: f64) -> Vec<Vec<f64>> {
        let mut medians: Vec<f64> = (0..fast)
            .map(|i| 3.6 + 0.3 * (i % 4) as f64 / 3.0)
            .collect();
        medians.extend((0..slow).map(|i| 9.8 + 0.3 * (i % 4) as f64 / 3.0));
        processes(&medians.iter().map(|m| m * scale).collect::<Vec<_>>())
    }

    #[test]
    fn a_shift_of_shares_alone_is_no_change() {
        let (base, new) = (skynet(9, 3, 1.0), skynet(6, 6, 1.0));
        let (time, shift) = time_change(&base, &new, 0.0);
        let shift = shift.expect("modes on both sides");
        assert!(
            shift.overall.ratio > 1.2,
            "all together: {}",
            shift.overall.ratio
        );
        let time = time.unwrap();
        assert_eq!(time.verdict, Verdict::NoChange, "{time:?}");
        let [b, n] = [shift.base.unwrap(), shift.new.unwrap()];
        assert_eq!((b[0].processes, b[1].processes), (9, 3));
        assert_eq!((n[0].processes, n[1].processes), (6, 6));
    }

    #[test]
    fn a_mode_that_moved_is_a_change() {
        // The slow mode 20 % slower, the fast one the same, shares the same.
        let base = skynet(9, 3, 1.0);
        let mut new = skynet(9, 0, 1.0);
        new.extend(skynet(0, 3, 1.2));
        let (time, _) = time_change(&base, &new, 0.0);
        let time = time.unwrap();
        assert_eq!(time.verdict, Verdict::Higher, "{time:?}");
        assert!(
            (time.ratio - 1.2).abs() < 0.01,
            "the slow mode's ratio: {}",
            time.ratio
        );
    }

    #[test]
    fn one_group_against_two_meets_the_nearest_mode() {
        // BASE all fast; NEW a quarter slow: the fast processes did not change.
        let (base, new) = (skynet(12, 0, 1.0), skynet(9, 3, 1.0));
        let (time, shift) = time_change(&base, &new, 0.0);
        assert_eq!(time.unwrap().verdict, Verdict::NoChange);
        let shift = shift.unwrap();
        assert_eq!((shift.base.is_none(), shift.new.is_some()), (true, true));
    }

    #[test]
    fn without_modes_it_is_the_plain_ratio() {
        let (base, new) = (skynet(12, 0, 1.0), skynet(12, 0, 1.1));
        let (time, shift) = time_change(&base, &new, 0.0);
        assert_eq!(shift, None);
        assert_eq!(time, change(&base, &new));
        assert_eq!(time.unwrap().verdict, Verdict::Higher);
    }
}
