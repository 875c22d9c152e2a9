//! Who is who in every chart: a contestant's colour is its language family's hue (Rust
//! orange, Go cyan, JavaScript gold, …: contestant/language.rs) in one of five shades, and
//! it has one of six marker shapes, so that forty contestants stay apart and a family reads
//! as one. The shade and marker come from a hash of the name — the same in every chart and
//! every run — and two contestants of one report whose hashes meet are moved apart: no two
//! share both, and the first five of a family wear five shades.

use contestant::language::{self, Hue};
use plotters::style::RGBColor;

/// Shades per family: lightness steps of the family's hue.
const SHADES: usize = 5;
/// 5 shades × 6 markers: slot `i` is shade `i % 5` and marker `i % 6`, 30 distinct pairs.
const SLOTS: usize = SHADES * Marker::ALL.len();

/// A marker shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Marker {
    Circle,
    Square,
    Triangle,
    Diamond,
    TriangleDown,
    Plus,
}

impl Marker {
    pub(crate) const ALL: [Marker; 6] = [
        Marker::Circle,
        Marker::Square,
        Marker::Triangle,
        Marker::Diamond,
        Marker::TriangleDown,
        Marker::Plus,
    ];

    /// Its name, for the page's data attributes.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Marker::Circle => "circle",
            Marker::Square => "square",
            Marker::Triangle => "triangle",
            Marker::Diamond => "diamond",
            Marker::TriangleDown => "triangle-down",
            Marker::Plus => "plus",
        }
    }

    /// The outline as a polygon around (0, 0) of radius `r` px (y down), so that SVG and
    /// plotters draw the same shape.
    pub(crate) fn outline(self, r: f64) -> Vec<(f64, f64)> {
        let t = r * 0.38;
        match self {
            Marker::Circle => (0..16)
                .map(|k| {
                    let a = k as f64 * std::f64::consts::TAU / 16.0;
                    (r * a.cos(), r * a.sin())
                })
                .collect(),
            Marker::Square => {
                let s = r * 0.85;
                vec![(-s, -s), (s, -s), (s, s), (-s, s)]
            }
            Marker::Triangle => vec![(0.0, -r), (r, r * 0.8), (-r, r * 0.8)],
            Marker::TriangleDown => vec![(0.0, r), (r, -r * 0.8), (-r, -r * 0.8)],
            Marker::Diamond => vec![(0.0, -r), (r, 0.0), (0.0, r), (-r, 0.0)],
            Marker::Plus => vec![
                (-t, -r),
                (t, -r),
                (t, -t),
                (r, -t),
                (r, t),
                (t, t),
                (t, r),
                (-t, r),
                (-t, t),
                (-r, t),
                (-r, -t),
                (-t, -t),
            ],
        }
    }
}

/// Shade `k` of a family's hue, darkest first.
fn shade(hue: Hue, k: usize) -> RGBColor {
    const LIGHTNESS: [f64; SHADES] = [0.28, 0.37, 0.46, 0.55, 0.64];
    hsl(hue.degrees, hue.saturation, LIGHTNESS[k % SHADES])
}

/// A contestant's look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identity {
    pub(crate) colour: RGBColor,
    pub(crate) marker: Marker,
}

/// Every contestant of a report with its identity.
#[derive(Debug, Clone, Default)]
pub struct Palette {
    /// Sorted by name.
    entries: Vec<(String, Identity)>,
}

impl Palette {
    /// A palette over `(name, language)` pairs (duplicates and order do not matter).
    pub fn new(contestants: impl IntoIterator<Item = (String, String)>) -> Palette {
        let mut named: Vec<(String, String)> = contestants.into_iter().collect();
        // By name; a name given with a language and without keeps the language.
        named.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.cmp(&a.1)));
        named.dedup_by(|a, b| a.0 == b.0);
        // Slots taken per family (its hue: the grey ones share theirs, so that two grey
        // contestants stay apart); a name whose slot is taken takes the next free one, and
        // while the family has a shade nobody wears, one with an unworn shade.
        let mut taken: Vec<(Hue, usize)> = Vec::new();
        let entries = named
            .into_iter()
            .map(|(name, language)| {
                let family = language::hue(&language);
                let worn = |slot: usize, taken: &[(Hue, usize)]| {
                    taken
                        .iter()
                        .any(|&(f, s)| f == family && s % SHADES == slot % SHADES)
                };
                let kin = taken.iter().filter(|(f, _)| *f == family).count();
                let mut slot = fnv(&name) % SLOTS;
                for _ in 0..SLOTS {
                    let free = !taken.contains(&(family, slot));
                    if free && (kin >= SHADES || !worn(slot, &taken)) {
                        break;
                    }
                    slot = (slot + 1) % SLOTS;
                }
                taken.push((family, slot));
                let identity = Identity {
                    colour: shade(family, slot % SHADES),
                    marker: Marker::ALL[slot % Marker::ALL.len()],
                };
                (name, identity)
            })
            .collect();
        Palette { entries }
    }

    /// A palette of names whose language is not known (the store's history): one family.
    pub fn unlabelled(names: impl IntoIterator<Item = String>) -> Palette {
        Palette::new(names.into_iter().map(|n| (n, String::new())))
    }

    /// The identity of `name`; a name the palette was not built with is grey circles.
    pub fn identity(&self, name: &str) -> Identity {
        match self.entries.binary_search_by(|(n, _)| n.as_str().cmp(name)) {
            Ok(index) => self.entries[index].1,
            Err(_) => Identity {
                colour: RGBColor(0x88, 0x88, 0x88),
                marker: Marker::Circle,
            },
        }
    }

    /// The colour of `name`.
    pub(crate) fn colour(&self, name: &str) -> RGBColor {
        self.identity(name).colour
    }

    /// The colour of `name` as CSS (`#4e79a7`): for tests, this crate's and (feature
    /// `test-support`) the report's.
    #[cfg(any(test, feature = "test-support"))]
    pub fn css(&self, name: &str) -> String {
        let RGBColor(r, g, b) = self.colour(name);
        format!("#{r:02x}{g:02x}{b:02x}")
    }

    /// Whether the palette knows `name`.
    pub fn knows(&self, name: &str) -> bool {
        self.entries
            .binary_search_by(|(n, _)| n.as_str().cmp(name))
            .is_ok()
    }
}

/// FNV-1a: a hash that is the same in every build and on every machine.
fn fnv(text: &str) -> usize {
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    (hash % (1 << 31)) as usize
}

/// An HSL colour (hue in degrees, saturation and lightness 0–1) as RGB.
fn hsl(hue: f64, saturation: f64, lightness: f64) -> RGBColor {
    let c = (1.0 - (2.0 * lightness - 1.0).abs()) * saturation;
    let h = hue.rem_euclid(360.0) / 60.0;
    let x = c * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = lightness - c / 2.0;
    let byte = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    RGBColor(byte(r), byte(g), byte(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(n, l)| (n.to_string(), l.to_string()))
            .collect()
    }

    #[test]
    fn a_contestant_keeps_its_look_whatever_the_order_and_company() {
        let all = pairs(&[("tokio", "Rust"), ("go", "Go"), ("node-q", "JavaScript")]);
        let palette = Palette::new(all.clone());
        let reversed = Palette::new(all.into_iter().rev());
        assert_eq!(palette.identity("tokio"), reversed.identity("tokio"));
        // In another run, with other contestants, tokio looks the same (no collision).
        let other = Palette::new(pairs(&[("tokio", "Rust"), ("python-trio", "Python")]));
        assert_eq!(palette.identity("tokio"), other.identity("tokio"));
        assert_eq!(palette.css("unknown"), "#888888");
        assert!(palette.knows("go") && !palette.knows("unknown"));
    }

    #[test]
    fn a_family_shares_a_hue_and_families_differ() {
        let palette = Palette::new(pairs(&[("a", "Rust"), ("b", "Rust"), ("c", "Go")]));
        let hue = |name: &str| {
            let RGBColor(r, g, b) = palette.colour(name);
            // The largest channel names the hue's side: red for Rust, blue-green for Go.
            (r > b, g > r)
        };
        assert_eq!(hue("a"), (true, false));
        assert_eq!(hue("b"), (true, false));
        assert_eq!(hue("c"), (false, true));
    }

    #[test]
    fn thirty_contestants_of_one_family_never_share_colour_and_marker() {
        let palette = Palette::new((0..30).map(|i| (format!("node-lib{i}"), "JavaScript".into())));
        let mut looks: Vec<(RGBColor, Marker)> = (0..30)
            .map(|i| {
                let id = palette.identity(&format!("node-lib{i}"));
                (id.colour, id.marker)
            })
            .collect();
        looks.sort_by_key(|(RGBColor(r, g, b), m)| (*r, *g, *b, m.name()));
        looks.dedup();
        assert_eq!(looks.len(), 30);
    }

    #[test]
    fn five_of_a_family_wear_five_shades() {
        let names = ["tokio", "smol", "threads", "floor", "async-std"];
        let palette = Palette::new(names.map(|n| (n.to_string(), "Rust".into())));
        let mut colours: Vec<String> = names.iter().map(|n| palette.css(n)).collect();
        colours.sort();
        colours.dedup();
        assert_eq!(colours.len(), 5);
    }

    #[test]
    fn hsl_gives_the_colours_people_know() {
        assert_eq!(hsl(0.0, 1.0, 0.5), RGBColor(255, 0, 0));
        assert_eq!(hsl(120.0, 1.0, 0.5), RGBColor(0, 255, 0));
        assert_eq!(hsl(240.0, 1.0, 0.25), RGBColor(0, 0, 128));
        assert_eq!(hsl(0.0, 0.0, 0.5), RGBColor(128, 128, 128));
    }
}
