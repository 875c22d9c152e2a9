//! One colour per contestant, the same in every chart and in the HTML legend: a
//! contestant's position in the sorted list of all contestants of the results picks its
//! colour from a fixed palette, so tokio is one colour throughout a report.

use plotters::style::RGBColor;

/// Twenty colours that stay apart on white: Tableau 10, then darker companions.
const COLOURS: [RGBColor; 20] = [
    RGBColor(0x4e, 0x79, 0xa7),
    RGBColor(0xf2, 0x8e, 0x2b),
    RGBColor(0xe1, 0x57, 0x59),
    RGBColor(0x76, 0xb7, 0xb2),
    RGBColor(0x59, 0xa1, 0x4f),
    RGBColor(0xed, 0xc9, 0x48),
    RGBColor(0xb0, 0x7a, 0xa1),
    RGBColor(0xff, 0x9d, 0xa7),
    RGBColor(0x9c, 0x75, 0x5f),
    RGBColor(0x79, 0x70, 0x6e),
    RGBColor(0x1b, 0x3f, 0x6e),
    RGBColor(0xa6, 0x4b, 0x00),
    RGBColor(0x8c, 0x1c, 0x2c),
    RGBColor(0x2a, 0x7f, 0x7a),
    RGBColor(0x2e, 0x5e, 0x26),
    RGBColor(0x9a, 0x7d, 0x00),
    RGBColor(0x6a, 0x3d, 0x9a),
    RGBColor(0xd3, 0x3f, 0x9a),
    RGBColor(0x5c, 0x3d, 0x2e),
    RGBColor(0x17, 0xbe, 0xcf),
];

/// Contestant names in sorted order; a name's index picks its colour.
#[derive(Debug, Clone, Default)]
pub struct Palette {
    names: Vec<String>,
}

impl Palette {
    /// A palette over every name given (duplicates and order do not matter).
    pub fn new(names: impl IntoIterator<Item = String>) -> Palette {
        let mut names: Vec<String> = names.into_iter().collect();
        names.sort();
        names.dedup();
        Palette { names }
    }

    /// The colour of `name`; a name the palette was not built with gets the last grey.
    pub fn colour(&self, name: &str) -> RGBColor {
        match self.names.binary_search_by(|n| n.as_str().cmp(name)) {
            Ok(index) => COLOURS[index % COLOURS.len()],
            Err(_) => RGBColor(0x88, 0x88, 0x88),
        }
    }

    /// The colour of `name` as CSS (`#4e79a7`).
    pub fn css(&self, name: &str) -> String {
        let RGBColor(r, g, b) = self.colour(name);
        format!("#{r:02x}{g:02x}{b:02x}")
    }

    /// Every name, sorted.
    pub fn names(&self) -> &[String] {
        &self.names
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_contestant_keeps_its_colour_whatever_the_order() {
        let names = ["tokio", "go", "threads"].map(String::from);
        let palette = Palette::new(names.clone());
        let reversed = Palette::new(names.into_iter().rev());
        // Sorted: go, threads, tokio → the first three colours.
        assert_eq!(palette.css("go"), "#4e79a7");
        assert_eq!(palette.css("threads"), "#f28e2b");
        assert_eq!(palette.css("tokio"), "#e15759");
        assert_eq!(reversed.css("tokio"), palette.css("tokio"));
        assert_eq!(palette.css("unknown"), "#888888");
    }

    #[test]
    fn the_palette_cycles_past_twenty() {
        let palette = Palette::new((0..21).map(|i| format!("c{i:02}")));
        assert_eq!(palette.colour("c20"), palette.colour("c00"));
        assert_ne!(palette.colour("c19"), palette.colour("c00"));
    }
}
