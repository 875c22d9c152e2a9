//! The median of processes' iterations pooled, each process weighing the same whatever
//! its count of iterations. Processes of one case usually run the same count, and then this
//! is the plain median of every iteration; after a pilot a case may run another count
//! (run/progress.rs), and a process of four times the iterations must not count four
//! times: the pooled values are then weighted 1 / (their process's count), and the median
//! is the weighted one.

use super::bootstrap::{SplitMix64, median_in_place};

/// The median of all values of `groups` together, each group weighing the same; `None`
/// when there is no value. Empty groups are ignored.
pub fn pooled_median(groups: &[Vec<f64>]) -> Option<f64> {
    let mut drawn = Drawn::default();
    for group in groups.iter().filter(|g| !g.is_empty()) {
        drawn.push(group, 1.0 / group.len() as f64, group.len());
    }
    drawn.median()
}

/// The values of a resample, each with its process's weight.
#[derive(Debug, Default)]
pub(super) struct Drawn {
    values: Vec<f64>,
    weights: Vec<f64>,
    /// The count of the first group pushed, and whether every group since had it.
    size: Option<usize>,
    unequal: bool,
}

impl Drawn {
    pub(super) fn clear(&mut self) {
        self.values.clear();
        self.weights.clear();
        self.size = None;
        self.unequal = false;
    }

    /// `values`, each of `weight`, from a group of `size` values.
    fn push(&mut self, values: &[f64], weight: f64, size: usize) {
        self.unequal |= *self.size.get_or_insert(size) != size;
        self.values.extend_from_slice(values);
        self.weights
            .extend(std::iter::repeat_n(weight, values.len()));
    }

    /// As many of `group`'s values as it has, drawn with replacement.
    pub(super) fn draw(&mut self, group: &[f64], rng: &mut SplitMix64) {
        let n = group.len();
        self.unequal |= *self.size.get_or_insert(n) != n;
        let weight = 1.0 / n as f64;
        for _ in 0..n {
            self.values.push(group[rng.below(n)]);
            self.weights.push(weight);
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The median of what was drawn: plain where every group had the same count, else
    /// weighted. Reorders the values. `None` when empty.
    pub(super) fn median(&mut self) -> Option<f64> {
        if self.values.is_empty() {
            return None;
        }
        if !self.unequal {
            return Some(median_in_place(&mut self.values));
        }
        let mut items: Vec<(f64, f64)> = self
            .values
            .iter()
            .copied()
            .zip(self.weights.iter().copied())
            .collect();
        Some(weighted_median(&mut items))
    }
}

/// The lower weighted median of (value, weight) `items` — the least value at which the
/// weight at or below it reaches half the total — by repeated selection (linear on
/// average). Reorders `items`; they must not be empty.
fn weighted_median(items: &mut [(f64, f64)]) -> f64 {
    let half = items.iter().map(|(_, w)| w).sum::<f64>() / 2.0;
    let (mut low, mut high, mut below) = (0, items.len(), 0.0);
    loop {
        let slice = &mut items[low..high];
        let mid = slice.len() / 2;
        slice.select_nth_unstable_by(mid, |a, b| a.0.total_cmp(&b.0));
        let left: f64 = slice[..mid].iter().map(|(_, w)| w).sum();
        let (value, weight) = slice[mid];
        if below + left >= half && mid > 0 {
            high = low + mid;
        } else if below + left + weight >= half || low + mid + 1 == high {
            // The last value on the right: the weight summed in another order may fall a
            // rounding short of half.
            return value;
        } else {
            below += left + weight;
            low += mid + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_groups_give_the_plain_median_of_every_value() {
        let groups = vec![vec![1.0, 2.0], vec![3.0, 4.0]];
        assert_eq!(pooled_median(&groups), Some(2.5));
        assert_eq!(pooled_median(&[vec![], vec![7.0]]), Some(7.0));
        assert_eq!(pooled_median(&[]), None);
    }

    #[test]
    fn a_longer_process_weighs_no_more_than_a_shorter_one() {
        // One process of 2 iterations at 1, one of 8 at 10: pooled plainly, the median is
        // 10; each process weighing the same, half the weight is at 1.
        let groups = vec![vec![1.0, 1.0], vec![10.0; 8]];
        assert_eq!(pooled_median(&groups), Some(1.0));
        // Three processes: 1 (2 values), 5 (8 values), 10 (4 values): the middle process.
        let groups = vec![vec![1.0; 2], vec![5.0; 8], vec![10.0; 4]];
        assert_eq!(pooled_median(&groups), Some(5.0));
    }

    #[test]
    fn the_weighted_median_is_the_least_value_reaching_half_the_weight() {
        for (items, median) in [
            (vec![(1.0, 1.0)], 1.0),
            (vec![(3.0, 1.0), (1.0, 1.0), (2.0, 1.0)], 2.0),
            (vec![(1.0, 3.0), (2.0, 1.0), (3.0, 1.0)], 1.0),
            (vec![(4.0, 0.1), (1.0, 0.1), (3.0, 0.1), (2.0, 5.0)], 2.0),
            (vec![(5.0, 1.0), (1.0, 1.0), (2.0, 1.0), (4.0, 1.0)], 2.0),
        ] {
            let mut items = items;
            assert_eq!(weighted_median(&mut items), median, "{items:?}");
        }
        // Against sorting, on a spread of sizes.
        let mut rng = SplitMix64::new(3);
        for n in 1..60 {
            let mut items: Vec<(f64, f64)> = (0..n)
                .map(|_| (rng.below(20) as f64, 1.0 + rng.below(4) as f64))
                .collect();
            let mut sorted = items.clone();
            sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
            let half = sorted.iter().map(|(_, w)| w).sum::<f64>() / 2.0;
            let mut acc = 0.0;
            let expected = sorted
                .iter()
                .find(|(_, w)| {
                    acc += w;
                    acc >= half
                })
                .unwrap()
                .0;
            assert_eq!(weighted_median(&mut items), expected, "n = {n}");
        }
    }
}
