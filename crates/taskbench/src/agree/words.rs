//! A run's precision and two runs' agreement in words — the lines `taskbench agree`
//! prints, word for word as the shared precision script prints them, so that a figure
//! quoted from either is the same — and as Markdown for a document.

use crate::agree::decide::{Agreement, Precision};

/// A share as a whole percentage, as Python's `{:.0%}` writes it (`44%`).
fn share(value: f64) -> String {
    format!("{:.0}%", value * 100.0)
}

/// `135 cells: 44% within ±5 %, 18% within ±2 %, median ±4.5 %, worst ±77 %`.
pub(crate) fn precision_line(p: &Precision) -> String {
    format!(
        "{} cells: {} within ±5 %, {} within ±2 %, median ±{:.1} %, worst ±{:.0} %",
        p.cells,
        share(p.within_5),
        share(p.within_2),
        p.median_half_width,
        p.worst_half_width
    )
}

/// `117 of 135 cells with a 95 % interval; 31% of all cells within ±5 % at 95 %`.
pub(crate) fn level_line(p: &Precision) -> String {
    format!(
        "{} of {} cells with a 95 % interval; {} of all cells within ±5 % at 95 %",
        p.at_level,
        p.cells,
        share(p.within_5_at_level)
    )
}

/// `combined-interval check: |B - A| within sqrt(hw_A^2 + hw_B^2) for 93% of cells (honest
/// 95 % intervals: about 95 %)`.
pub(crate) fn combined_line(a: &Agreement) -> String {
    format!(
        "combined-interval check: |B - A| within sqrt(hw_A^2 + hw_B^2) for {} of cells \
         (honest 95 % intervals: about 95 %)",
        share(a.combined)
    )
}

/// `135 cells in both: run-to-run difference median 3.2 %, p90 20.0 %, 77% within 5 %; B's
/// median inside A's interval 62%; 20 of 884 separated pairs flip (2.3%)`.
pub(crate) fn agreement_line(a: &Agreement) -> String {
    let flipped = a.flips as f64 / a.separated_pairs.max(1) as f64 * 100.0;
    format!(
        "{} cells in both: run-to-run difference median {:.1} %, p90 {:.1} %, {} within 5 %; \
         B's median inside A's interval {}; {} of {} separated pairs flip ({flipped:.1}%)",
        a.cells,
        a.difference_median,
        a.difference_p90,
        share(a.within_5),
        share(a.inside),
        a.flips,
        a.separated_pairs
    )
}

/// The same as a Markdown table: one column per run, the agreement below.
pub(crate) fn markdown(
    precisions: &[(String, Option<Precision>)],
    agreement: Option<&Agreement>,
) -> String {
    let mut out =
        String::from("| run | cells | within ±5 % | within ±2 % | median ± | worst ± |\n");
    out.push_str("|---|---:|---:|---:|---:|---:|\n");
    for (name, p) in precisions {
        let name = words::markdown::text(name);
        match p {
            Some(p) => out.push_str(&format!(
                "| {name} | {} | {} | {} | ±{:.1} % | ±{:.0} % |\n",
                p.cells,
                share(p.within_5),
                share(p.within_2),
                p.median_half_width,
                p.worst_half_width
            )),
            None => out.push_str(&format!("| {name} | 0 | – | – | – | – |\n")),
        }
    }
    if let Some(a) = agreement {
        out.push_str(&format!(
            "\n| cells in both | difference, median | p90 | within 5 % | B inside A | flips |\n\
             |---:|---:|---:|---:|---:|---:|\n| {} | {:.1} % | {:.1} % | {} | {} | {} of {} |\n",
            a.cells,
            a.difference_median,
            a.difference_p90,
            share(a.within_5),
            share(a.inside),
            a.flips,
            a.separated_pairs
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lines_are_the_shared_script_s_word_for_word() {
        let p = Precision {
            cells: 135,
            within_5: 0.444,
            within_2: 0.1852,
            median_half_width: 4.46,
            worst_half_width: 77.2,
            at_level: 117,
            within_5_at_level: 0.311,
        };
        assert_eq!(
            precision_line(&p),
            "135 cells: 44% within ±5 %, 19% within ±2 %, median ±4.5 %, worst ±77 %"
        );
        assert_eq!(
            level_line(&p),
            "117 of 135 cells with a 95 % interval; 31% of all cells within ±5 % at 95 %"
        );
        let a = Agreement {
            cells: 135,
            difference_median: 3.2,
            difference_p90: 20.04,
            within_5: 0.77,
            inside: 0.62,
            separated_pairs: 884,
            flips: 20,
            combined: 0.934,
        };
        assert_eq!(
            agreement_line(&a),
            "135 cells in both: run-to-run difference median 3.2 %, p90 20.0 %, 77% within 5 %; \
             B's median inside A's interval 62%; 20 of 884 separated pairs flip (2.3%)"
        );
        assert_eq!(
            combined_line(&a),
            "combined-interval check: |B - A| within sqrt(hw_A^2 + hw_B^2) for 93% of cells \
             (honest 95 % intervals: about 95 %)"
        );
    }
}
