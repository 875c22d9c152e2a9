//! The modified z-score of Iglewicz & Hoaglin (*How to Detect and Handle Outliers*, 1993):
//! distance from the median in units of the median absolute deviation, robust to the very
//! outliers it looks for. Which scores count as outliers is decided in `analysis`.

use super::{mad, median};

/// 0.6745 = Φ⁻¹(0.75): makes MAD a consistent estimate of σ for normal data.
const MAD_SCALE: f64 = 0.6745;

/// 0.7979 = √(2/π): the same for the mean absolute deviation, used when MAD is 0.
const MEAN_AD_SCALE: f64 = 0.7979;

/// `0.6745 · (x − median) / MAD` for each value, in order. When more than half the values
/// are equal MAD is 0; the mean absolute deviation from the median stands in for it (as
/// IBM SPSS does: `(x − median) / (1.253314 · MeanAD)`). All zeros when every value is equal.
pub fn modified_z_scores(values: &[f64]) -> Vec<f64> {
    let Some(median) = median(values) else {
        return Vec::new();
    };
    let mad = mad(values, median);
    let (scale, spread) = if mad > 0.0 {
        (MAD_SCALE, mad)
    } else {
        let mean_ad = values.iter().map(|v| (v - median).abs()).sum::<f64>() / values.len() as f64;
        (MEAN_AD_SCALE, mean_ad)
    };
    values
        .iter()
        .map(|v| match spread {
            0.0 => 0.0,
            spread => scale * (v - median) / spread,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_planted_outlier_stands_out() {
        // median 10.2; |x − median| = .2 .1 0 .1 9.8 → MAD 0.1;
        // z(20) = 0.6745 · 9.8 / 0.1 = 66.101, z(10.0) = 0.6745 · −0.2 / 0.1 = −1.349.
        let z = modified_z_scores(&[10.0, 10.1, 10.2, 10.3, 20.0]);
        assert!((z[4] - 66.101).abs() < 1e-9, "{z:?}");
        assert!((z[0] + 1.349).abs() < 1e-9, "{z:?}");
        assert_eq!(z[2], 0.0);
    }

    #[test]
    fn zero_mad_falls_back_to_the_mean_absolute_deviation() {
        // median 5, MAD 0 (four of five equal); MeanAD = 5/5 = 1 → z(10) = 0.7979 · 5 / 1.
        let z = modified_z_scores(&[5.0, 5.0, 5.0, 5.0, 10.0]);
        assert!((z[4] - 3.9895).abs() < 1e-9, "{z:?}");
        assert_eq!(&z[..4], &[0.0; 4]);
        assert_eq!(modified_z_scores(&[3.0, 3.0, 3.0]), [0.0; 3]);
        assert!(modified_z_scores(&[]).is_empty());
    }
}
