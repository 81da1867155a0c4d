//! The tiles drawn as small SVG images, generated here and served by the program itself
//! (`/static/tiles/<version>/<tile>.svg`), so no page needs a Mahjong font: a device without
//! one showed empty boxes where the Unicode tiles stood.
//!
//! Every mark is a shape (circles, rounded bars, stroked paths): numerals and wind letters are
//! drawn as strokes, never as text, so no font of any kind is needed. Each image is a 30 × 40
//! tile face; pages scale it. Each tile has a name for people ([`tile_alt`], [`bonus_alt`]),
//! the `alt` of every image and the `<title>` inside it.
//!
//! The art is built once, on first use. [`VERSION`] is part of the address, so the images can
//! be cached for a year: change it whenever a drawing changes.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use referee::{Bonus, Dragon, Suit, Tile, TileKind, Wind};

/// Part of every tile's address: bump it when the drawings change, so caches take the new ones.
pub const VERSION: &str = "1";

/// The address of the back of a tile (a concealed tile), as [`src`]`("back")` gives it.
pub const BACK_SRC: &str = "/static/tiles/1/back.svg";

/// The red dragon beside the program's name in every page's header.
pub const BRAND_SRC: &str = "/static/tiles/1/R.svg";

/// The address of a tile's image, by its notation (`5p`, `E`, `1f`) or `back`.
pub fn src(name: &str) -> String {
    format!("/static/tiles/{VERSION}/{name}.svg")
}

const INK: &str = "#16325c";
const RED: &str = "#b3261e";
const GREEN: &str = "#17693a";
const BLUE: &str = "#1f4e9c";

/// A tile's name for people: "5 circles", "1 character", "East wind", "Red dragon".
pub fn tile_alt(t: Tile) -> String {
    match t.kind() {
        TileKind::Suited { suit, rank } => {
            let suit = match (suit, rank) {
                (Suit::Characters, 1) => "character",
                (Suit::Circles, 1) => "circle",
                _ => suit.name(),
            };
            format!("{rank} {suit}")
        }
        TileKind::Wind(w) => format!("{} wind", title(w.name())),
        TileKind::Dragon(d) => match d {
            Dragon::Red => "Red dragon",
            Dragon::Green => "Green dragon",
            Dragon::White => "White dragon",
        }
        .to_owned(),
    }
}

/// A bonus tile's name for people: "Flower 1 (East)", "Season 3 (West)".
pub fn bonus_alt(b: Bonus) -> String {
    let kind = if b.is_flower() { "Flower" } else { "Season" };
    format!("{kind} {} ({})", b.number(), title(b.seat().name()))
}

fn title(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// Every image by its file name (`5p`, `E`, `1f`, `back`): the 42 tiles and the back of a tile.
fn art() -> &'static HashMap<String, String> {
    static ART: OnceLock<HashMap<String, String>> = OnceLock::new();
    ART.get_or_init(|| {
        let mut all = HashMap::new();
        for t in Tile::ALL {
            all.insert(t.to_string(), face(&tile_alt(t), &tile_marks(t)));
        }
        for b in Bonus::ALL {
            all.insert(b.to_string(), face(&bonus_alt(b), &bonus_marks(b)));
        }
        all.insert("back".to_owned(), back());
        all
    })
}

/// The SVG of a tile, by its file name; `None` for a name that is no tile.
pub fn svg(name: &str) -> Option<&'static str> {
    art().get(name).map(String::as_str)
}

/// Every file name with an image, for tests and the picker.
pub fn names() -> impl Iterator<Item = &'static str> {
    art().keys().map(String::as_str)
}

fn face(alt: &str, marks: &str) -> String {
    format!(
        concat!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 40" role="img" aria-label="{alt}">"#,
            "<title>{alt}</title>",
            r##"<rect x=".75" y=".75" width="28.5" height="38.5" rx="4" fill="#fffdf4" stroke="#7a6f55" stroke-width="1.5"/>"##,
            "{marks}</svg>"
        ),
        alt = alt,
        marks = marks
    )
}

fn back() -> String {
    concat!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 40" role="img" aria-label="a concealed tile">"#,
        "<title>a concealed tile</title>",
        r##"<rect x=".75" y=".75" width="28.5" height="38.5" rx="4" fill="#2f7d5b" stroke="#1d4d38" stroke-width="1.5"/>"##,
        r##"<rect x="5" y="5" width="20" height="30" rx="2" fill="none" stroke="#cfe8da" stroke-width="1"/>"##,
        "</svg>"
    )
    .to_owned()
}

/// A numeral 1–9 as strokes in a 12 × 19 box.
fn digit_path(n: u8) -> &'static str {
    match n {
        1 => "M3 5L7 1V18",
        2 => "M1.5 5C1.5-.5 11-.5 11 5C11 9.5 1 13 1 18H11.5",
        3 => "M1.5 1.5H11L5.5 8C12.5 8 12.5 18 6 18C3.5 18 1.8 17 1 15.5",
        4 => "M8.5 18V1L1 12.5H11.5",
        5 => "M11 1H2.5L1.5 8C4.5 6 11 6.5 11 12C11 18.5 3 19 1 16",
        6 => "M10 1.5C4.5 2 1 7 1 12.5C1 16.5 3 18 6 18C9 18 11 16 11 13C11 9.5 8.5 8 6 8C3.5 8 1.5 9.5 1 11.5",
        7 => "M1 1.5H11.5L4.5 18",
        8 => "M6 9C1.5 9 1.5 1 6 1C10.5 1 10.5 9 6 9C.5 9 .5 18 6 18C11.5 18 11.5 9 6 9Z",
        _ => "M2 17.5C7.5 17 11 12 11 6.5C11 2.5 9 1 6 1C3 1 1 3 1 6C1 9.5 3.5 11 6 11C8.5 11 10.5 9.5 11 7.5",
    }
}

/// A wind's letter as strokes in a 16 × 20 box.
fn wind_path(w: Wind) -> &'static str {
    match w {
        Wind::East => "M13 1H3V19H13M3 10H11",
        Wind::South => "M13 4.5C11.5 .5 3 0 3 5.5C3 10.5 13 9 13 14.5C13 20 4 20.5 2 15.5",
        Wind::West => "M1 1L4.5 19L8 6.5L11.5 19L15 1",
        Wind::North => "M2.5 19V1L13.5 19V1",
    }
}

fn stroke(path: &str, colour: &str, width: f32, at: (f32, f32), scale: f32) -> String {
    format!(
        r#"<path d="{path}" transform="translate({} {}) scale({scale})" fill="none" stroke="{colour}" stroke-width="{width}" stroke-linecap="round" stroke-linejoin="round"/>"#,
        at.0, at.1
    )
}

fn tile_marks(t: Tile) -> String {
    match t.kind() {
        TileKind::Suited {
            suit: Suit::Circles,
            rank,
        } => circles(rank),
        TileKind::Suited {
            suit: Suit::Bamboo,
            rank,
        } => bamboo(rank),
        TileKind::Suited {
            suit: Suit::Characters,
            rank,
        } => {
            // The numeral over 万 (wan, ten thousand), the characters' sign.
            let mut s = stroke(digit_path(rank), INK, 2.4, (9.0, 3.5), 1.0);
            s.push_str(&stroke(
                "M2 2H16M8.5 2L4 17M7.5 8.5H15V15.5L12.5 17",
                RED,
                2.2,
                (6.0, 21.0),
                1.0,
            ));
            s
        }
        TileKind::Wind(w) => stroke(wind_path(w), INK, 2.8, (7.0, 10.0), 1.0),
        TileKind::Dragon(Dragon::Red) => format!(
            // 中: a box pierced by a stroke.
            r#"<path d="M7 14H23V25H7ZM15 6V34" fill="none" stroke="{RED}" stroke-width="3" stroke-linejoin="round" stroke-linecap="round"/>"#
        ),
        TileKind::Dragon(Dragon::Green) => stroke(
            "M13 4.5C11.5 1 3 .5 3 10C3 19.5 13 19.5 13 12.5H8",
            GREEN,
            3.0,
            (7.0, 10.0),
            1.0,
        ),
        TileKind::Dragon(Dragon::White) => format!(
            r#"<rect x="6.5" y="7.5" width="17" height="25" rx="1.5" fill="none" stroke="{BLUE}" stroke-width="2.2"/><rect x="10" y="11" width="10" height="18" fill="none" stroke="{BLUE}" stroke-width="1"/>"#
        ),
    }
}

/// Where the dots or sticks of a suit tile stand, in the 30 × 40 face.
fn layout(rank: u8) -> &'static [(f32, f32)] {
    match rank {
        1 => &[(15.0, 20.0)],
        2 => &[(15.0, 11.0), (15.0, 29.0)],
        3 => &[(8.5, 9.5), (15.0, 20.0), (21.5, 30.5)],
        4 => &[(9.0, 11.0), (21.0, 11.0), (9.0, 29.0), (21.0, 29.0)],
        5 => &[
            (9.0, 10.0),
            (21.0, 10.0),
            (15.0, 20.0),
            (9.0, 30.0),
            (21.0, 30.0),
        ],
        6 => &[
            (9.5, 9.0),
            (20.5, 9.0),
            (9.5, 20.0),
            (20.5, 20.0),
            (9.5, 31.0),
            (20.5, 31.0),
        ],
        7 => &[
            (7.5, 7.5),
            (15.0, 10.5),
            (22.5, 13.5),
            (9.5, 23.0),
            (20.5, 23.0),
            (9.5, 32.0),
            (20.5, 32.0),
        ],
        8 => &[
            (9.5, 7.0),
            (20.5, 7.0),
            (9.5, 15.5),
            (20.5, 15.5),
            (9.5, 24.5),
            (20.5, 24.5),
            (9.5, 33.0),
            (20.5, 33.0),
        ],
        _ => &[
            (7.5, 9.0),
            (15.0, 9.0),
            (22.5, 9.0),
            (7.5, 20.0),
            (15.0, 20.0),
            (22.5, 20.0),
            (7.5, 31.0),
            (15.0, 31.0),
            (22.5, 31.0),
        ],
    }
}

fn circles(rank: u8) -> String {
    let r = match rank {
        1 => 9.0,
        2 => 6.5,
        3..=6 => 4.6,
        _ => 3.5,
    };
    let mut s = String::new();
    for (i, &(x, y)) in layout(rank).iter().enumerate() {
        // Blue, green and red dots, as the sets colour them.
        let colour = match (rank, i % 3) {
            (1, _) => RED,
            (_, 0) => BLUE,
            (_, 1) => GREEN,
            _ => RED,
        };
        let _ = write!(
            s,
            r##"<circle cx="{x}" cy="{y}" r="{r}" fill="{colour}"/><circle cx="{x}" cy="{y}" r="{}" fill="#fffdf4"/>"##,
            r * 0.45
        );
    }
    s
}

fn bamboo(rank: u8) -> String {
    if rank == 1 {
        // One tall stick with a red knot: the one of bamboo (sets print a bird there).
        return format!(
            r##"<rect x="12" y="5" width="6" height="30" rx="3" fill="{GREEN}"/><circle cx="15" cy="12" r="3.5" fill="{RED}"/><path d="M12 20H18M12 28H18" stroke="#fffdf4" stroke-width="1"/>"##
        );
    }
    let h = if rank <= 6 { 11.0 } else { 8.0 };
    let mut s = String::new();
    for (i, &(x, y)) in layout(rank).iter().enumerate() {
        let colour = if rank >= 5 && i == layout(rank).len() / 2 && rank % 2 == 1 {
            RED
        } else {
            GREEN
        };
        let _ = write!(
            s,
            r#"<rect x="{}" y="{}" width="3.6" height="{h}" rx="1.6" fill="{colour}"/>"#,
            x - 1.8,
            y - h / 2.0
        );
    }
    s
}

fn bonus_marks(b: Bonus) -> String {
    let mut s = String::new();
    if b.is_flower() {
        // A flower of five petals.
        for k in 0..5u8 {
            let a = f32::from(k) * std::f32::consts::TAU / 5.0 - std::f32::consts::FRAC_PI_2;
            let _ = write!(
                s,
                r##"<circle cx="{:.1}" cy="{:.1}" r="4.2" fill="#c2185b"/>"##,
                15.0 + 5.5 * a.cos(),
                24.0 + 5.5 * a.sin()
            );
        }
        s.push_str(r##"<circle cx="15" cy="24" r="3" fill="#f2b705"/>"##);
    } else {
        // A sun with eight rays.
        let mut rays = String::new();
        for k in 0..8u8 {
            let a = f32::from(k) * std::f32::consts::TAU / 8.0;
            let _ = write!(
                rays,
                "M{:.1} {:.1}L{:.1} {:.1}",
                15.0 + 7.0 * a.cos(),
                24.0 + 7.0 * a.sin(),
                15.0 + 10.0 * a.cos(),
                24.0 + 10.0 * a.sin()
            );
        }
        let _ = write!(
            s,
            r##"<path d="{rays}" stroke="#d35400" stroke-width="2" stroke-linecap="round"/><circle cx="15" cy="24" r="5" fill="#e67e22"/>"##
        );
    }
    // The number in the corner: the seat it belongs to.
    s.push_str(&stroke(digit_path(b.number()), INK, 3.0, (3.5, 3.0), 0.55));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tile_and_the_back_has_an_image_named_by_its_notation() {
        for t in Tile::ALL {
            let svg = svg(&t.to_string()).unwrap_or_else(|| panic!("no image for {t}"));
            assert!(
                svg.contains(&format!("<title>{}</title>", tile_alt(t))),
                "{svg}"
            );
        }
        for b in Bonus::ALL {
            assert!(svg(&b.to_string()).is_some(), "no image for {b}");
        }
        assert!(svg("back").is_some());
        assert_eq!(BACK_SRC, src("back"));
        assert_eq!(BRAND_SRC, src("R"));
        assert_eq!(names().count(), 43);
        assert_eq!(svg("0p"), None);
        assert_eq!(svg("../style.css"), None);
    }

    #[test]
    fn no_two_tiles_look_alike_and_none_needs_a_font() {
        let mut all: Vec<&str> = names().filter_map(svg).collect();
        assert!(
            all.iter().all(|s| !s.contains("<text")),
            "drawn, never typeset"
        );
        // The drawing, without its name: no two tiles share one.
        let mut drawings: Vec<&str> = all
            .iter_mut()
            .map(|s| &s[s.find("</title>").unwrap()..])
            .collect();
        drawings.sort_unstable();
        let n = drawings.len();
        drawings.dedup();
        assert_eq!(drawings.len(), n);
    }

    #[test]
    fn each_image_is_small_and_well_formed() {
        for name in names() {
            let s = svg(name).unwrap();
            assert!(s.starts_with("<svg ") && s.ends_with("</svg>"), "{name}");
            assert!(s.len() < 1400, "{name}: {} bytes", s.len());
            assert_eq!(s.matches('<').count(), s.matches('>').count(), "{name}");
        }
    }

    #[test]
    fn names_for_people() {
        let alt = |s: &str| tile_alt(s.parse().unwrap());
        assert_eq!(alt("1m"), "1 character");
        assert_eq!(alt("5p"), "5 circles");
        assert_eq!(alt("9s"), "9 bamboo");
        assert_eq!(alt("E"), "East wind");
        assert_eq!(alt("P"), "White dragon");
        assert_eq!(bonus_alt(Bonus::Season(Wind::West)), "Season 3 (West)");
    }
}
