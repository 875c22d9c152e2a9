//! Quantiles of the normal and Student's t distributions at any level, for intervals that
//! must hold for many cases at once (a gate over hundreds of cases judges each at 1 − α/m).
//! t's CDF is the regularized incomplete beta function by its continued fraction
//! (Numerical Recipes, 3rd ed., §6.4); a quantile is found by bisection.

/// ln Γ(x) for x > 0 (Lanczos, g = 7, nine terms: 15 digits).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    let x = x - 1.0;
    let mut sum = C[0];
    for (i, c) in C.iter().enumerate().skip(1) {
        sum += c / (x + i as f64);
    }
    let t = x + 7.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// The continued fraction of the incomplete beta function (modified Lentz).
fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    d = if d.abs() < TINY { TINY } else { d };
    d = 1.0 / d;
    let mut h = d;
    for m in 1..400 {
        let m = m as f64;
        let m2 = 2.0 * m;
        for aa in [
            m * (b - m) * x / ((qam + m2) * (a + m2)),
            -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)),
        ] {
            d = 1.0 + aa * d;
            d = if d.abs() < TINY { TINY } else { d };
            c = 1.0 + aa / c;
            c = if c.abs() < TINY { TINY } else { c };
            d = 1.0 / d;
            h *= d * c;
        }
        if (d * c - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// I_x(a, b), the regularized incomplete beta function.
fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front =
        (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_fraction(b, a, 1.0 - x) / b
    }
}

/// P(T > t) for t ≥ 0, T of Student's t with `df` degrees of freedom.
fn t_upper_tail(t: f64, df: f64) -> f64 {
    0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
}

/// The quantile of Student's t with `df` degrees of freedom at `p` (0.5 < p < 1).
pub fn t_quantile(p: f64, df: f64) -> f64 {
    upper_quantile(1.0 - p, |t| t_upper_tail(t, df))
}

/// The quantile of the standard normal distribution at `p` (0.5 < p < 1).
pub fn normal_quantile(p: f64) -> f64 {
    // P(Z > z) = I_{1/(1 + z²/ν)}(ν/2, 1/2) / 2 as ν → ∞: erfc(z/√2)/2 instead.
    upper_quantile(1.0 - p, |z| 0.5 * erfc(z / std::f64::consts::SQRT_2))
}

/// The t ≥ 0 where the decreasing `tail(t)` equals `tail_p`, by bisection.
fn upper_quantile(tail_p: f64, tail: impl Fn(f64) -> f64) -> f64 {
    assert!(tail_p > 0.0 && tail_p < 0.5, "a quantile above the median");
    let (mut low, mut high) = (0.0, 1.0);
    while tail(high) > tail_p {
        high *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if tail(mid) > tail_p {
            low = mid;
        } else {
            high = mid;
        }
        if high - low < 1e-12 * high {
            break;
        }
    }
    0.5 * (low + high)
}

/// The complementary error function (Numerical Recipes' erfcc: relative error < 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: f64, want: f64, tolerance: f64) {
        assert!(
            (got - want).abs() <= tolerance * want,
            "{got} is not {want}"
        );
    }

    #[test]
    fn quantiles_match_the_tables() {
        // Student's t: the printed tables (and t(1) = tan(π(p − ½)), t(2) = (2p−1)/√(2p(1−p))).
        close(t_quantile(0.975, 1.0), 12.706_2, 1e-4);
        close(t_quantile(0.975, 2.0), 4.302_7, 1e-4);
        close(t_quantile(0.975, 10.0), 2.228_1, 1e-4);
        close(t_quantile(0.999, 5.0), 5.893_4, 1e-4);
        let p: f64 = 1.0 - 0.05 / 800.0;
        close(
            t_quantile(p, 2.0),
            (2.0 * p - 1.0) / (2.0 * p * (1.0 - p)).sqrt(),
            1e-6,
        );
        close(
            t_quantile(p, 1.0),
            (std::f64::consts::PI * (p - 0.5)).tan(),
            1e-6,
        );
        // The normal: 1.959 96, 2.575 83, and 3.890 59 at 1 − 0.05/1000.
        close(normal_quantile(0.975), 1.959_964, 1e-6);
        close(normal_quantile(0.995), 2.575_829, 1e-6);
        close(normal_quantile(1.0 - 0.000_05), 3.890_592, 1e-5);
    }
}
