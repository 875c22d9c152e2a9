//! The overview matrix as HTML: under the best figure of each column (what 1.00 stands
//! for) and the references apart (floor, not ranked), a row per runtime (its marker and
//! name), a column per point (linked to the point's section), each cell its × best on a colour scale by
//! decades, 1× pale to 100× and beyond dark, with the figure and its interval in the cell's
//! title for hovering; the mean last. Plain HTML: it reads with scripts off.

use super::table::escape;
use analysis::overview::{Cell, Overview, Row};
use catalogue::Point;
use plot::{Palette, marker_svg};
use std::fmt::Write;
use words::overview::{
    BEST_LABEL, INLINE_NOTE, MODES_NOTE, REFERENCE_NOTE, best_figures, cell_text, figure,
    has_inline, has_modes, headings, mean_text, ratio, reference_label, timer_lines, title,
};
use words::table::{coverage_text, modes_text};

/// The colour scale, pale yellow to dark red (ColorBrewer YlOrRd), by decades of the ratio.
const SCALE: [(f64, [u8; 3]); 5] = [
    (0.0, [0xff, 0xff, 0xcc]),
    (0.25, [0xfe, 0xd9, 0x76]),
    (0.5, [0xfd, 0x8d, 0x3c]),
    (0.75, [0xe3, 0x1a, 0x1c]),
    (1.0, [0x80, 0x00, 0x26]),
];
/// The ratio at the dark end of the scale.
const DARKEST: f64 = 100.0;

/// The matrix as a `<table>` with id `id`.
pub(crate) fn matrix(overview: &Overview, id: &str, palette: &Palette) -> String {
    // The title above the frame, not a caption: a caption is only as wide as its table.
    let mut out = format!(
        r#"<h3 class="matrix-title">{}</h3><div class="matrix-frame"><table class="overview" id="{id}" aria-label="{0}"><thead><tr><th scope="col">contestant</th>"#,
        escape(title(overview.quantity))
    );
    for (column, heading) in overview.columns.iter().zip(headings(overview)) {
        let _ = write!(
            out,
            r##"<th scope="col" title="{}"><a href="#point-{}">{}</a>{}</th>"##,
            escape(&format!("{} · {}", column.point, column.measure)),
            column.index + 1,
            escape(&heading.scenario),
            match heading.detail.as_str() {
                "" => String::new(),
                detail => format!("<small>{}</small>", escape(detail)),
            }
        );
    }
    out.push_str(r#"<th scope="col">geo mean</th></tr></thead><tbody>"#);
    best_row(&mut out, overview);
    for row in &overview.references {
        ranked_or_reference(&mut out, overview, row, palette, true);
    }
    for row in &overview.rows {
        ranked_or_reference(&mut out, overview, row, palette, false);
    }
    out.push_str("</tbody></table></div>");
    if !overview.references.is_empty() {
        let _ = write!(out, r#"<p class="scale">{}</p>"#, escape(REFERENCE_NOTE));
    }
    if has_modes(overview) {
        let _ = write!(out, r#"<p class="scale">{}</p>"#, escape(MODES_NOTE));
    }
    if has_inline(overview) {
        let _ = write!(out, r#"<p class="scale">{}</p>"#, escape(INLINE_NOTE));
    }
    for line in timer_lines(overview) {
        let _ = write!(out, r#"<p class="scale">{}</p>"#, escape(&line));
    }
    out
}

/// The first row: each column's best figure in units, what its 1.00 stands for.
fn best_row(out: &mut String, overview: &Overview) {
    let _ = write!(out, r#"<tr class="best"><th scope="row">{BEST_LABEL}</th>"#);
    for best in best_figures(overview) {
        let _ = write!(out, "<td>{}</td>", escape(&best));
    }
    out.push_str("<td></td></tr>");
}

/// A contestant's row: its marker and name, its cells on the colour scale, its mean. A
/// reference's row is labelled so, and its cells stand on no colour: it is not ranked; nor
/// is an inline cell.
fn ranked_or_reference(
    out: &mut String,
    overview: &Overview,
    row: &Row,
    palette: &Palette,
    reference: bool,
) {
    let (class, label) = if reference {
        (r#" class="reference""#, reference_label(&row.contestant))
    } else {
        ("", row.contestant.clone())
    };
    let _ = write!(
        out,
        r#"<tr{class}><th scope="row" data-contestant="{}">{}{}</th>"#,
        escape(&row.contestant),
        marker_svg(palette.identity(&row.contestant), 11),
        escape(&label)
    );
    for (column, cell) in overview.columns.iter().zip(&row.cells) {
        let hover = hover(
            overview,
            &row.contestant,
            &column.point,
            column.measure,
            cell,
        );
        let _ = match cell {
            Cell::Figure { inline, .. } if reference || *inline => write!(
                out,
                r#"<td title="{}">{}</td>"#,
                escape(&hover),
                cell_text(cell)
            ),
            Cell::Figure { ratio, differs, .. } => {
                let (background, ink) = shade(*ratio);
                let class = match differs {
                    Some(false) => r#" class="ns""#,
                    _ => "",
                };
                write!(
                    out,
                    r#"<td{class} style="background:{background};color:{ink}" title="{}">{}</td>"#,
                    escape(&hover),
                    cell_text(cell)
                )
            }
            _ => write!(
                out,
                r#"<td class="status" title="{}">{}</td>"#,
                escape(&hover),
                escape(&cell_text(cell))
            ),
        };
    }
    let _ = write!(
        out,
        r#"<td class="mean">{}</td></tr>"#,
        escape(&mean_text(overview, row))
    );
}

/// What hovering a cell says: the figure with its interval, the ratio with its interval.
fn hover(
    overview: &Overview,
    contestant: &str,
    point: &Point,
    measure: &str,
    cell: &Cell,
) -> String {
    match cell {
        Cell::Figure {
            ratio: r,
            value,
            interval,
            ratio_interval,
            differs,
            modes,
            unsteady,
            inline,
            timer,
        } => {
            let human = |v: f64| figure(overview.quantity, v);
            let mut text = format!("{contestant} · {point} · {measure} {}", human(*value));
            if let Some(ci) = interval {
                let level = ci.coverage.map_or("95 %".to_string(), coverage_text);
                let _ = write!(text, " ({level} CI {}–{})", human(ci.low), human(ci.high));
            }
            if let Some((main, other)) = modes.map(modes_text) {
                let _ = write!(text, " · two modes: {main} · {other}");
            }
            let _ = write!(text, " · {}× the best", ratio(*r));
            if let Some(ci) = ratio_interval {
                let level = ci.coverage.map_or("95 %".to_string(), coverage_text);
                let (low, high) = (ratio(ci.low.max(0.0)), ratio(ci.high));
                let _ = write!(text, " ({level} CI {low}–{high})");
            }
            if *differs == Some(false) {
                text.push_str(" · not significantly slower than the best");
            }
            if *unsteady {
                text.push_str(" · most processes had not reached a steady state");
            }
            if *inline {
                text.push_str(" · inline: its tasks ran inside their caller, ranked apart");
            }
            if let Some(timer) = timer.as_deref().filter(|t| t.marked()) {
                let _ = write!(
                    text,
                    " · its timer oversleeps {} per {} op, {} waits in turn ≈ {}",
                    human(timer.oversleep_ns),
                    human(timer.op_ns),
                    timer.waits,
                    human(timer.ns())
                );
            }
            text
        }
        Cell::Status(status) => format!("{contestant} · {point} · {status}"),
        Cell::Absent => format!("{contestant} · {point} · not run"),
    }
}

/// The background of a ratio on the scale, and the ink that reads on it.
pub(crate) fn shade(ratio: f64) -> (String, &'static str) {
    let t = (ratio.max(1.0).log10() / DARKEST.log10()).clamp(0.0, 1.0);
    let upper = SCALE
        .iter()
        .position(|(at, _)| *at >= t)
        .unwrap_or(SCALE.len() - 1);
    let lower = upper.saturating_sub(1);
    let (a, ca) = SCALE[lower];
    let (b, cb) = SCALE[upper];
    let f = if b > a { (t - a) / (b - a) } else { 0.0 };
    let mix = |i: usize| (ca[i] as f64 + (cb[i] as f64 - ca[i] as f64) * f).round() as u8;
    let ink = if t > 0.6 { "#fff" } else { "#222" };
    (format!("#{:02x}{:02x}{:02x}", mix(0), mix(1), mix(2)), ink)
}

/// The scale as a legend strip: 1×, 3×, 10×, 30×, 100×.
pub(crate) fn scale_legend() -> String {
    let mut out = String::from(r#"<p class="scale">× best: "#);
    for ratio in [1.0, 3.0, 10.0, 30.0, 100.0] {
        let (background, ink) = shade(ratio);
        let _ = write!(
            out,
            r#"<span style="background:{background};color:{ink}">{}{}</span>"#,
            ratio,
            if ratio >= 100.0 { "+" } else { "" }
        );
    }
    out.push_str(
        r#" · dotted: not significantly slower than the best · hover a cell for the figure and its 95 % interval</p>"#,
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_runs_by_decades_from_pale_to_dark() {
        assert_eq!(shade(1.0), ("#ffffcc".to_string(), "#222"));
        assert_eq!(shade(0.5).0, "#ffffcc", "below 1 is the best's colour");
        assert_eq!(shade(100.0), ("#800026".to_string(), "#fff"));
        assert_eq!(shade(1e6).0, "#800026");
        // 10× is halfway: the middle stop.
        assert_eq!(shade(10.0).0, "#fd8d3c");
    }

    #[test]
    fn hovering_says_the_modes_and_what_an_interval_can_claim() {
        use analysis::overview::Column;
        use stats::{Interval, Mode};
        let mode = |processes: usize, median: f64| Mode {
            share: processes as f64 / 12.0,
            processes,
            median,
            median_ci: None,
        };
        let cell = Cell::Figure {
            ratio: 1.5,
            value: 4.1e6,
            interval: Some(Interval {
                coverage: Some(0.75),
                ..Interval::new(3.6e6, 10e6)
            }),
            ratio_interval: None,
            differs: None,
            modes: Some([mode(9, 3.9e6), mode(3, 10e6)]),
            unsteady: false,
            inline: false,
            timer: None,
        };
        let overview = Overview {
            quantity: analysis::overview::Quantity::Time,
            columns: vec![Column {
                index: 0,
                point: "skynet size=10000".parse().unwrap(),
                measure: "elapsed",
                best: Some(3.6e6),
            }],
            rows: vec![Row {
                contestant: "tokio".into(),
                cells: vec![cell.clone()],
                mean_ratio: Some(1.5),
                figures: 1,
            }],
            references: Vec::new(),
        };
        let text = hover(
            &overview,
            "tokio",
            &overview.columns[0].point,
            "elapsed",
            &cell,
        );
        assert!(text.contains("(75 % CI 3.60 ms–10.0 ms)"), "{text}");
        assert!(
            text.contains("two modes: 3.90 ms · 10.0 ms in 3 of 12 processes"),
            "{text}"
        );
        let page = matrix(&overview, "overview", &Palette::default());
        assert!(page.contains("1.50~") && page.contains("two clearly separated"));
        assert!(
            page.contains(r#"<tr class="best"><th scope="row">best (= 1.00)</th><td>3.60 ms</td>"#),
            "the best row gives what 1.00 stands for: {page}"
        );
    }
}
