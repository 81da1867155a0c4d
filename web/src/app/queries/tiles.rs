//! Tiles drawn as tiles: pages show the program's own images ([`super::tile_art`]), each with
//! its name for people; the API also gives the tile of the Unicode Mahjong Tiles block
//! (U+1F000–U+1F02B), for programs that have the font.
//!
//! The block orders winds E S W N (1F000–1F003), dragons red, green, white (1F004–1F006),
//! characters 1–9 (1F007–1F00F), bamboo 1–9 (1F010–1F018), circles 1–9 (1F019–1F021), flowers
//! 1–4 (1F022–1F025) and seasons 1–4 (1F026–1F029).

use referee::{Bonus, Dragon, Hand, MeldForm, Suit, Tile, TileKind};
use serde::Serialize;

use super::tile_art;

/// One tile as a page shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Glyph {
    /// The Unicode tile.
    pub glyph: char,
    /// The notation (`5p`): the image's file name.
    pub name: String,
    /// The tile's name for people (`5 circles`): the image's `alt`.
    pub alt: String,
    /// The image's address.
    pub src: String,
}

/// A group of tiles: concealed, a set (exposed or declared), bonus tiles, the winning tile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TileGroup {
    /// `concealed`, `exposed`, `concealed-kong`, `bonus` or `winning`.
    pub kind: &'static str,
    pub tiles: Vec<Glyph>,
}

fn code_point(base: u32) -> char {
    char::from_u32(base).unwrap_or('\u{1F02B}')
}

/// The Unicode tile of a playing tile.
pub fn tile_glyph(t: Tile) -> Glyph {
    let cp = match t.kind() {
        TileKind::Wind(w) => 0x1F000 + w.index() as u32,
        TileKind::Dragon(Dragon::Red) => 0x1F004,
        TileKind::Dragon(Dragon::Green) => 0x1F005,
        TileKind::Dragon(Dragon::White) => 0x1F006,
        TileKind::Suited { suit, rank } => {
            let base = match suit {
                Suit::Characters => 0x1F007,
                Suit::Bamboo => 0x1F010,
                Suit::Circles => 0x1F019,
            };
            base + u32::from(rank) - 1
        }
    };
    let name = t.to_string();
    Glyph {
        glyph: code_point(cp),
        src: tile_art::src(&name),
        alt: tile_art::tile_alt(t),
        name,
    }
}

/// The Unicode tile of a flower or season.
pub fn bonus_glyph(b: Bonus) -> Glyph {
    let base = if b.is_flower() { 0x1F022 } else { 0x1F026 };
    let name = b.to_string();
    Glyph {
        glyph: code_point(base + u32::from(b.number()) - 1),
        src: tile_art::src(&name),
        alt: tile_art::bonus_alt(b),
        name,
    }
}

/// Every tile a hand may hold, in the notation's order (characters, circles, bamboo, winds,
/// dragons, flowers, seasons): the tile picker's buttons.
pub fn picker_tiles() -> Vec<Glyph> {
    let mut all: Vec<Glyph> = Tile::ALL.into_iter().map(tile_glyph).collect();
    all.extend(Bonus::ALL.into_iter().map(bonus_glyph));
    all
}

/// A hand as groups of tiles, in the order the notation writes them.
pub fn hand_groups(hand: &Hand) -> Vec<TileGroup> {
    let mut out = Vec::new();
    if !hand.concealed().is_empty() {
        out.push(TileGroup {
            kind: "concealed",
            tiles: hand.concealed().tiles().map(tile_glyph).collect(),
        });
    }
    for m in hand.melds() {
        out.push(TileGroup {
            kind: if m.form == MeldForm::ConcealedKong {
                "concealed-kong"
            } else {
                "exposed"
            },
            tiles: m.set.tiles().map(tile_glyph).collect(),
        });
    }
    if !hand.bonus().is_empty() {
        out.push(TileGroup {
            kind: "bonus",
            tiles: hand.bonus().iter().map(|&b| bonus_glyph(b)).collect(),
        });
    }
    if let Some(w) = hand.winning() {
        out.push(TileGroup {
            kind: "winning",
            tiles: vec![tile_glyph(w)],
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tile_has_its_own_code_point_in_the_block() {
        let mut seen: Vec<char> = Tile::ALL.iter().map(|&t| tile_glyph(t).glyph).collect();
        seen.extend(Bonus::ALL.iter().map(|&b| bonus_glyph(b).glyph));
        assert!(seen
            .iter()
            .all(|&c| ('\u{1F000}'..='\u{1F02B}').contains(&c)));
        let n = seen.len();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), n);
        assert_eq!(tile_glyph("1m".parse().unwrap()).glyph, '\u{1F007}');
        assert_eq!(tile_glyph("9p".parse().unwrap()).glyph, '\u{1F021}');
        assert_eq!(tile_glyph("P".parse().unwrap()).glyph, '\u{1F006}');
    }

    #[test]
    fn a_hand_is_drawn_in_groups() {
        let h: Hand = "234m 5p 789s [RRR] {EEEE} 1f 3y =5p".parse().unwrap();
        let kinds: Vec<_> = hand_groups(&h).iter().map(|g| g.kind).collect();
        assert_eq!(
            kinds,
            ["concealed", "exposed", "concealed-kong", "bonus", "winning"]
        );
    }
}
