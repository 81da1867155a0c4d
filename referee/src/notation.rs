//! The tile notation shared by the CLI, the API, the fixtures and the tests.
//!
//! ```text
//! suited tiles   digits then the suit letter, runs compressed: 123m (characters), 55p (circles), 9s (bamboo)
//! winds          E S W N
//! dragons        R (red)  G (green)  P (white: "plain"; W is West)
//! bonus tiles    1f–4f flowers, 1y–4y seasons (number = the seat it belongs to, 1 = East)
//! ```
//!
//! The notation is case-sensitive (`S` is South, `s` is bamboo; `P` is the white dragon, `p`
//! circles) and spaces between tokens are allowed anywhere except inside a run of digits and its
//! suit letter. Canonical output orders tiles characters, circles, bamboo, winds E S W N, dragons
//! R G P, flowers, seasons — one token per tile (`1m 2m 3m`) or compressed (`123m`).
//!
//! Parsing here is syntax only ([`NotationError`]): whether a bonus tile may stand somewhere, or
//! whether there are five copies of a tile, is meaning, and is checked where the context is known
//! ([`crate::TilesError`]).

use std::fmt;
use std::str::FromStr;

use crate::tile::{AnyTile, Bonus, Suit, Tile, Wind};

/// Why a string is not well-formed tile notation. `column` counts characters from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("column {column}: unknown letter `{found}` (tiles are 1-9 with m, p or s; E S W N; R G P; 1-4 with f or y)")]
    UnknownLetter { column: usize, found: char },
    #[error("column {column}: the digits `{digits}` have no suit letter after them (write e.g. `{digits}m`)")]
    DigitWithoutSuit { column: usize, digits: String },
    #[error("column {column}: a suit letter `{letter}` with no digits before it")]
    SuitWithoutDigit { column: usize, letter: char },
    #[error("column {column}: there is no tile `{digit}{letter}` ({why})")]
    NoSuchTile {
        column: usize,
        digit: char,
        letter: char,
        why: &'static str,
    },
    #[error("the notation is empty: expected {expected}")]
    Empty { expected: &'static str },
    #[error("column {column}: expected exactly one tile, found more")]
    NotOneTile { column: usize },
}

impl NotationError {
    /// The 1-based character column the error points at, if any.
    pub fn column(&self) -> Option<usize> {
        match self {
            NotationError::UnknownLetter { column, .. }
            | NotationError::DigitWithoutSuit { column, .. }
            | NotationError::SuitWithoutDigit { column, .. }
            | NotationError::NoSuchTile { column, .. }
            | NotationError::NotOneTile { column } => Some(*column),
            NotationError::Empty { .. } => None,
        }
    }
}

/// One tile read from the notation, with the 1-based column of the character that names it
/// (the digit of a suited tile, the letter of a honour).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Located {
    pub tile: AnyTile,
    pub column: usize,
}

/// Reads every tile of `s`, playing or bonus, in written order.
///
/// `column_offset` is added to every reported column, so that a caller parsing a fragment of a
/// longer line (a bracketed set, say) reports columns of the whole line.
pub fn parse_any(s: &str, column_offset: usize) -> Result<Vec<Located>, NotationError> {
    let mut out = Vec::with_capacity(s.len());
    let mut pending: Vec<(char, usize)> = Vec::new();
    for (i, c) in s.chars().enumerate() {
        let column = column_offset + i + 1;
        match c {
            '0'..='9' => pending.push((c, column)),
            'm' | 'p' | 's' | 'f' | 'y' => {
                if pending.is_empty() {
                    return Err(NotationError::SuitWithoutDigit { column, letter: c });
                }
                for (digit, col) in pending.drain(..) {
                    out.push(Located {
                        tile: numbered(digit, c, col)?,
                        column: col,
                    });
                }
            }
            _ => {
                let honour = match c {
                    'E' => Some(Tile::wind(Wind::East)),
                    'S' => Some(Tile::wind(Wind::South)),
                    'W' => Some(Tile::wind(Wind::West)),
                    'N' => Some(Tile::wind(Wind::North)),
                    'R' => Some(Tile::dragon(crate::Dragon::Red)),
                    'G' => Some(Tile::dragon(crate::Dragon::Green)),
                    'P' => Some(Tile::dragon(crate::Dragon::White)),
                    _ => None,
                };
                if honour.is_none() && !c.is_whitespace() {
                    return Err(NotationError::UnknownLetter { column, found: c });
                }
                flush_digits(&pending)?;
                if let Some(t) = honour {
                    out.push(Located {
                        tile: AnyTile::Playing(t),
                        column,
                    });
                }
            }
        }
    }
    flush_digits(&pending)?;
    Ok(out)
}

fn flush_digits(pending: &[(char, usize)]) -> Result<(), NotationError> {
    match pending.first() {
        None => Ok(()),
        Some(&(_, column)) => Err(NotationError::DigitWithoutSuit {
            column,
            digits: pending.iter().map(|&(d, _)| d).collect(),
        }),
    }
}

fn numbered(digit: char, letter: char, column: usize) -> Result<AnyTile, NotationError> {
    let n = digit as u8 - b'0';
    let no_such = |why| NotationError::NoSuchTile {
        column,
        digit,
        letter,
        why,
    };
    if let Some(suit) = Suit::from_letter(letter) {
        return Tile::suited(suit, n)
            .map(AnyTile::Playing)
            .ok_or_else(|| no_such("suits are numbered 1 to 9"));
    }
    if !(1..=4).contains(&n) {
        return Err(no_such("flowers and seasons are numbered 1 to 4"));
    }
    let seat = Wind::from_index(usize::from(n - 1));
    Ok(AnyTile::Bonus(if letter == 'f' {
        Bonus::Flower(seat)
    } else {
        Bonus::Season(seat)
    }))
}

fn parse_one(s: &str, expected: &'static str) -> Result<AnyTile, NotationError> {
    let tiles = parse_any(s, 0)?;
    match tiles.as_slice() {
        [] => Err(NotationError::Empty { expected }),
        [one] => Ok(one.tile),
        [_, second, ..] => Err(NotationError::NotOneTile {
            column: second.column,
        }),
    }
}

/// Why a single-tile string does not name the kind of tile wanted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseTileError {
    #[error(transparent)]
    Notation(#[from] NotationError),
    #[error("`{0}` is a bonus tile, where a playing tile belongs")]
    BonusNotPlaying(Bonus),
    #[error("`{0}` is a playing tile, where a bonus tile (1f-4f, 1y-4y) belongs")]
    PlayingNotBonus(Tile),
}

impl FromStr for AnyTile {
    type Err = ParseTileError;
    fn from_str(s: &str) -> Result<AnyTile, ParseTileError> {
        Ok(parse_one(s, "one tile")?)
    }
}

impl FromStr for Tile {
    type Err = ParseTileError;
    fn from_str(s: &str) -> Result<Tile, ParseTileError> {
        match parse_one(s, "one playing tile")? {
            AnyTile::Playing(t) => Ok(t),
            AnyTile::Bonus(b) => Err(ParseTileError::BonusNotPlaying(b)),
        }
    }
}

impl FromStr for Bonus {
    type Err = ParseTileError;
    fn from_str(s: &str) -> Result<Bonus, ParseTileError> {
        match parse_one(s, "one bonus tile")? {
            AnyTile::Bonus(b) => Ok(b),
            AnyTile::Playing(t) => Err(ParseTileError::PlayingNotBonus(t)),
        }
    }
}

/// How [`format_tiles`] writes a list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Style {
    /// One token per tile: `1m 2m 3m E E`.
    #[default]
    PerTile,
    /// Runs compressed: `123m EE`.
    Compressed,
}

/// Writes tiles in canonical order in the given style.
pub fn format_tiles<I>(tiles: I, style: Style) -> String
where
    I: IntoIterator,
    I::Item: Into<AnyTile>,
{
    let mut sorted: Vec<AnyTile> = tiles.into_iter().map(Into::into).collect();
    sorted.sort_unstable();
    let mut out = String::with_capacity(sorted.len() * 3);
    match style {
        Style::PerTile => {
            for t in &sorted {
                if !out.is_empty() {
                    out.push(' ');
                }
                use fmt::Write;
                let _ = write!(out, "{t}");
            }
        }
        Style::Compressed => {
            let mut i = 0;
            while i < sorted.len() {
                let group = group_key(sorted[i]);
                if !out.is_empty() {
                    out.push(' ');
                }
                let mut j = i;
                while j < sorted.len() && group_key(sorted[j]) == group {
                    let s = sorted[j].to_string();
                    match group {
                        Group::Letter(_) => out.push_str(&s[..1]),
                        Group::Honour(_) => out.push_str(&s),
                    }
                    j += 1;
                }
                if let Group::Letter(letter) = group {
                    out.push(letter);
                }
                i = j;
            }
        }
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Group {
    /// Numbered tiles sharing a trailing letter.
    Letter(char),
    /// One honour kind: `EEE`.
    Honour(Tile),
}

fn group_key(t: AnyTile) -> Group {
    match t {
        AnyTile::Playing(p) => match p.suit() {
            Some(s) => Group::Letter(s.letter()),
            None => Group::Honour(p),
        },
        AnyTile::Bonus(b) if b.is_flower() => Group::Letter('f'),
        AnyTile::Bonus(_) => Group::Letter('y'),
    }
}

impl From<Tile> for AnyTile {
    fn from(t: Tile) -> AnyTile {
        AnyTile::Playing(t)
    }
}

impl From<Bonus> for AnyTile {
    fn from(b: Bonus) -> AnyTile {
        AnyTile::Bonus(b)
    }
}

impl From<&Tile> for AnyTile {
    fn from(t: &Tile) -> AnyTile {
        AnyTile::Playing(*t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiles(s: &str) -> Vec<String> {
        parse_any(s, 0)
            .unwrap()
            .iter()
            .map(|l| l.tile.to_string())
            .collect()
    }

    #[test]
    fn reads_runs_honours_and_bonus_tiles() {
        assert_eq!(tiles("123m 55p9s"), ["1m", "2m", "3m", "5p", "5p", "9s"]);
        assert_eq!(tiles("ESWN RGP"), ["E", "S", "W", "N", "R", "G", "P"]);
        assert_eq!(tiles("12f 4y"), ["1f", "2f", "4y"]);
        assert_eq!(tiles("  "), Vec::<String>::new());
    }

    #[test]
    fn case_matters() {
        assert_eq!(tiles("5s S 5p P"), ["5s", "S", "5p", "P"]);
        assert_eq!(
            parse_any("5M", 0),
            Err(NotationError::UnknownLetter {
                column: 2,
                found: 'M'
            })
        );
    }

    #[test]
    fn errors_point_at_the_character_and_say_why() {
        assert_eq!(
            parse_any("123m 45x", 0),
            Err(NotationError::UnknownLetter {
                column: 8,
                found: 'x'
            })
        );
        assert_eq!(
            parse_any("123m 45", 0),
            Err(NotationError::DigitWithoutSuit {
                column: 6,
                digits: "45".into()
            })
        );
        assert_eq!(
            parse_any("12 3m", 0),
            Err(NotationError::DigitWithoutSuit {
                column: 1,
                digits: "12".into()
            })
        );
        assert_eq!(
            parse_any("45E", 0),
            Err(NotationError::DigitWithoutSuit {
                column: 1,
                digits: "45".into()
            })
        );
        assert_eq!(
            parse_any("E m", 0),
            Err(NotationError::SuitWithoutDigit {
                column: 3,
                letter: 'm'
            })
        );
        let e = parse_any("105p", 0).unwrap_err();
        assert_eq!(e.column(), Some(2));
        assert!(e.to_string().contains("no tile `0p`"), "{e}");
        let e = parse_any("5f", 3).unwrap_err();
        assert_eq!(e.column(), Some(4));
        assert!(e.to_string().contains("1 to 4"), "{e}");
    }

    #[test]
    fn single_tiles() {
        assert_eq!("7s".parse::<Tile>().unwrap().to_string(), "7s");
        assert_eq!(
            "1f".parse::<Tile>(),
            Err(ParseTileError::BonusNotPlaying(Bonus::Flower(Wind::East)))
        );
        assert!(matches!(
            "E".parse::<Bonus>(),
            Err(ParseTileError::PlayingNotBonus(_))
        ));
        assert!(matches!(
            "".parse::<Tile>(),
            Err(ParseTileError::Notation(NotationError::Empty { .. }))
        ));
        assert!(matches!(
            "12m".parse::<Tile>(),
            Err(ParseTileError::Notation(NotationError::NotOneTile {
                column: 2
            }))
        ));
    }

    #[test]
    fn canonical_output_in_both_styles() {
        let parsed: Vec<AnyTile> = parse_any("2y R E 9s 1m 1f 3m 2m EE", 0)
            .unwrap()
            .iter()
            .map(|l| l.tile)
            .collect();
        assert_eq!(
            format_tiles(parsed.clone(), Style::PerTile),
            "1m 2m 3m 9s E E E R 1f 2y"
        );
        assert_eq!(
            format_tiles(parsed, Style::Compressed),
            "123m 9s EEE R 1f 2y"
        );
        assert_eq!(format_tiles(Vec::<Tile>::new(), Style::Compressed), "");
    }
}
