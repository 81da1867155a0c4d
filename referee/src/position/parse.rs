//! Reading a position line into what it says ([`PositionSetup`]): syntax only. Every field is
//! read, and every field's errors reported, before giving up.

use std::ops::Range;
use std::str::FromStr;

use crate::by_seat::BySeat;
use crate::hand::HandSetup;
use crate::seat::Seat;
use crate::tile::{Tile, Wind};

use super::act::{self, Act};
use super::error::{Field, SyntaxError, SyntaxKind};
use super::{ShownDiscard, Stage, ToMove, WallCount};

/// A value and the column (in the whole line, from 1) it was read at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spanned<T> {
    pub value: T,
    pub column: usize,
}

/// A seat's field as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatSetup {
    /// The column the field starts at.
    pub column: usize,
    /// `?13`: the concealed tiles only counted.
    pub counted: Option<u32>,
    /// Its tiles and sets in the hand notation (the concealed tiles empty when counted); every
    /// column is the line's.
    pub hand: HandSetup,
    /// `OC`.
    pub original_call: bool,
}

/// A position as written: well-formed, not yet checked ([`super::Position::new`] does).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSetup {
    pub game: Spanned<u32>,
    pub hand: Spanned<u32>,
    pub dealer: Seat,
    pub prevailing: Wind,
    pub seats: BySeat<SeatSetup>,
    pub discards: Vec<Spanned<ShownDiscard>>,
    /// The column the discards field starts at.
    pub discards_column: usize,
    pub wall: WallCount,
    pub to_move: Spanned<ToMove>,
    pub acts: Vec<Act>,
}

/// The line as characters, so that every column counts characters from 1.
struct Line {
    chars: Vec<char>,
}

/// A word and the column it starts at.
type Word = (usize, String);

impl Line {
    /// The words of `range`, split at whitespace.
    fn words(&self, range: Range<usize>) -> Vec<Word> {
        let mut out: Vec<Word> = Vec::new();
        let mut current: Option<Word> = None;
        for i in range {
            let c = self.chars[i];
            if c.is_whitespace() {
                out.extend(current.take());
            } else {
                current
                    .get_or_insert_with(|| (i + 1, String::new()))
                    .1
                    .push(c);
            }
        }
        out.extend(current);
        out
    }

    /// The line with every character outside `range`, or in one of `blank`, made a space: text
    /// for another notation's parser that reports the line's columns.
    fn masked(&self, range: Range<usize>, blank: &[Range<usize>]) -> String {
        self.chars
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                if range.contains(&i) && !blank.iter().any(|b| b.contains(&i)) {
                    c
                } else {
                    ' '
                }
            })
            .collect()
    }
}

/// The range of characters a word covers.
fn span(w: &Word) -> Range<usize> {
    w.0 - 1..w.0 - 1 + w.1.chars().count()
}

/// Collects the errors of one field.
struct Errors<'a> {
    field: Field,
    out: &'a mut Vec<SyntaxError>,
}

impl Errors<'_> {
    fn push<T>(&mut self, column: usize, kind: SyntaxKind) -> Option<T> {
        self.out.push(SyntaxError {
            field: self.field,
            column,
            kind,
        });
        None
    }
}

fn number(w: &str, column: usize, e: &mut Errors<'_>) -> Option<u32> {
    match w.parse() {
        Ok(n) if w.chars().all(|c| c.is_ascii_digit()) => Some(n),
        _ => e.push(column, SyntaxKind::NotANumber(w.into())),
    }
}

fn seat(w: &str, column: usize, e: &mut Errors<'_>) -> Option<Seat> {
    w.parse()
        .ok()
        .or_else(|| e.push(column, SyntaxKind::NotASeat(w.into())))
}

fn tile(w: &str, column: usize, e: &mut Errors<'_>) -> Option<Tile> {
    match w.parse() {
        Ok(t) => Some(t),
        Err(err) => e.push(column, SyntaxKind::BadTile(w.into(), err)),
    }
}

impl PositionSetup {
    /// Reads a line, reporting every field's syntax errors.
    pub fn parse(text: &str) -> Result<PositionSetup, Vec<SyntaxError>> {
        let line = Line {
            chars: text.chars().collect(),
        };
        let mut ranges = Vec::new();
        let mut start = 0;
        for (i, &c) in line.chars.iter().enumerate() {
            if c == '|' {
                ranges.push(start..i);
                start = i + 1;
            }
        }
        ranges.push(start..line.chars.len());
        if !(8..=9).contains(&ranges.len()) {
            return Err(vec![SyntaxError {
                field: Field::Context,
                column: 1,
                kind: SyntaxKind::FieldCount(ranges.len()),
            }]);
        }
        let mut out = Vec::new();
        let context = read_context(&line, ranges[0].clone(), &mut out);
        let seats = Seat::ALL.map(|s| read_seat(&line, ranges[1 + s.index()].clone(), s, &mut out));
        let discards = read_discards(&line, ranges[5].clone(), &mut out);
        let wall = read_wall(&line, ranges[6].clone(), &mut out);
        let to_move = read_turn(&line, ranges[7].clone(), &mut out);
        let acts = match ranges.get(8) {
            Some(r) => read_acts(&line, r.clone(), &mut out),
            None => Some(Vec::new()),
        };
        let (
            Some((game, hand, dealer, prevailing)),
            [Some(east), Some(south), Some(west), Some(north)],
            Some(discards),
            Some(wall),
            Some(to_move),
            Some(acts),
        ) = (context, seats, discards, wall, to_move, acts)
        else {
            return Err(out);
        };
        if !out.is_empty() {
            return Err(out);
        }
        Ok(PositionSetup {
            game,
            hand,
            dealer,
            prevailing,
            seats: BySeat::new(east, south, west, north),
            discards,
            discards_column: ranges[5].start + 1,
            wall,
            to_move,
            acts,
        })
    }
}

type Context = (Spanned<u32>, Spanned<u32>, Seat, Wind);

fn read_context(line: &Line, range: Range<usize>, out: &mut Vec<SyntaxError>) -> Option<Context> {
    let start = range.start + 1;
    let mut e = Errors {
        field: Field::Context,
        out,
    };
    let (mut game, mut hand, mut dealer, mut prevailing) = (None, None, None, None);
    let mut ok = true;
    for (column, w) in line.words(range) {
        let (key, value, at) = if let Some(v) = w.strip_prefix("dealer:") {
            ("dealer", v, column + 7)
        } else if let Some(v) = w.strip_prefix("prevailing:") {
            ("prevailing", v, column + 11)
        } else if let Some(v) = w.strip_prefix('g') {
            ("g", v, column + 1)
        } else if let Some(v) = w.strip_prefix('h') {
            ("h", v, column + 1)
        } else {
            ok = false;
            e.push::<()>(column, SyntaxKind::UnknownContext(w.clone()));
            continue;
        };
        let already = match key {
            "g" => game.is_some(),
            "h" => hand.is_some(),
            "dealer" => dealer.is_some(),
            _ => prevailing.is_some(),
        };
        if already {
            ok = false;
            e.push::<()>(column, SyntaxKind::RepeatedContext(key));
            continue;
        }
        let read = match key {
            "g" => number(value, at, &mut e).map(|n| game = Some(Spanned { value: n, column })),
            "h" => number(value, at, &mut e).map(|n| hand = Some(Spanned { value: n, column })),
            "dealer" => seat(value, at, &mut e).map(|s| dealer = Some(s)),
            _ => match value.parse::<Wind>() {
                Ok(w) => {
                    prevailing = Some(w);
                    Some(())
                }
                Err(_) => e.push(at, SyntaxKind::NotAWind(value.into())),
            },
        };
        ok &= read.is_some();
    }
    for (missing, key) in [
        (game.is_none(), "g1"),
        (hand.is_none(), "h1"),
        (dealer.is_none(), "dealer:"),
        (prevailing.is_none(), "prevailing:"),
    ] {
        if missing && ok {
            e.push::<()>(start, SyntaxKind::MissingContext(key));
        }
    }
    Some((game?, hand?, dealer?, prevailing?)).filter(|_| ok)
}

fn read_seat(
    line: &Line,
    range: Range<usize>,
    expected: Seat,
    out: &mut Vec<SyntaxError>,
) -> Option<SeatSetup> {
    let mut e = Errors {
        field: Field::Seat(expected),
        out,
    };
    let words = line.words(range.clone());
    let Some(first) = words.first() else {
        return e.push(range.start + 1, SyntaxKind::MissingLabel);
    };
    let Some(colon) = first.1.find(':') else {
        return e.push(first.0, SyntaxKind::MissingLabel);
    };
    let label = &first.1[..colon];
    match label.parse::<Seat>() {
        Ok(s) if s == expected => {}
        Ok(_) => {
            return e.push(
                first.0,
                SyntaxKind::WrongLabel {
                    expected,
                    found: label.into(),
                },
            )
        }
        Err(_) => return e.push(first.0, SyntaxKind::NotASeat(label.into())),
    }
    let label_end = first.0 - 1 + label.chars().count() + 1;
    // The label, and below the words that are not hand notation, are blanked.
    let mut blank: Vec<Range<usize>> = Vec::new();
    blank.push(range.start..label_end);
    let mut counted = None;
    let mut original_call = false;
    let mut ok = true;
    for w in &words {
        let body = if w.0 == first.0 {
            &w.1[colon + 1..]
        } else {
            w.1.as_str()
        };
        let at = if w.0 == first.0 { label_end + 1 } else { w.0 };
        if let Some(n) = body.strip_prefix('?') {
            blank.push(span(w));
            if counted.is_some() {
                ok = false;
                e.push::<()>(at, SyntaxKind::CountedTwice);
            }
            match number(n, at + 1, &mut e) {
                Some(n) => counted = Some(n),
                None => ok = false,
            }
        } else if body == "OC" {
            blank.push(span(w));
            original_call = true;
        }
    }
    let hand = match line.masked(range.clone(), &blank).parse::<HandSetup>() {
        Ok(h) => h,
        Err(err) => {
            let column = err_column(&err).unwrap_or(range.start + 1);
            return e.push(column, SyntaxKind::Hand(err));
        }
    };
    if let (Some(n), false) = (counted, hand.concealed.is_empty()) {
        return e.push(range.start + 1, SyntaxKind::CountedAndKnown(n));
    }
    ok.then_some(SeatSetup {
        column: range.start + 1,
        counted,
        hand,
        original_call,
    })
}

fn err_column(e: &crate::hand::HandSyntaxError) -> Option<usize> {
    use crate::hand::HandSyntaxError as H;
    Some(match e {
        H::Notation(n) => return n.column(),
        H::Unclosed { column, .. }
        | H::UnopenedClose { column, .. }
        | H::Nested { column }
        | H::MismatchedClose { column, .. }
        | H::MisplacedPlus { column }
        | H::PlusNeedsOneTile { column }
        | H::WinningNeedsOneTile { column }
        | H::WinningNotLast { column }
        | H::BonusInSet { column, .. } => *column,
    })
}

fn read_discards(
    line: &Line,
    range: Range<usize>,
    out: &mut Vec<SyntaxError>,
) -> Option<Vec<Spanned<ShownDiscard>>> {
    let mut e = Errors {
        field: Field::Discards,
        out,
    };
    let words = line.words(range.clone());
    match words.as_slice() {
        [] => return e.push(range.start + 1, SyntaxKind::Empty),
        [(_, dash)] if dash == "-" => return Some(Vec::new()),
        _ => {}
    }
    let mut discards = Vec::new();
    let mut ok = true;
    for (column, w) in words {
        let Some((who, rest)) = w.split_once(':') else {
            ok = false;
            e.push::<()>(column, SyntaxKind::NotADiscard(w.clone()));
            continue;
        };
        let (written, claimer) = match rest.split_once('>') {
            Some((t, c)) => (t, Some(c)),
            None => (rest, None),
        };
        let tile_at = column + who.chars().count() + 1;
        let claimer_at = tile_at + written.chars().count() + 1;
        let s = seat(who, column, &mut e);
        let t = tile(written, tile_at, &mut e);
        let claimed_by = match claimer {
            None => Some(None),
            Some(c) => seat(c, claimer_at, &mut e).map(Some),
        };
        match (s, t, claimed_by) {
            (Some(seat), Some(tile), Some(claimed_by)) => discards.push(Spanned {
                value: ShownDiscard {
                    seat,
                    tile,
                    claimed_by,
                },
                column,
            }),
            _ => ok = false,
        }
    }
    ok.then_some(discards)
}

fn read_wall(line: &Line, range: Range<usize>, out: &mut Vec<SyntaxError>) -> Option<WallCount> {
    let mut e = Errors {
        field: Field::Wall,
        out,
    };
    let (mut live, mut kong_box) = (None, None);
    let mut ok = true;
    for (column, w) in line.words(range.clone()) {
        let (slot, n, at) = match (w.strip_prefix("live:"), w.strip_prefix("box:")) {
            (Some(n), _) if live.is_none() => (&mut live, n, column + 5),
            (_, Some(n)) if kong_box.is_none() => (&mut kong_box, n, column + 4),
            _ => {
                ok = false;
                e.push::<()>(column, SyntaxKind::NotAWallCount(w.clone()));
                continue;
            }
        };
        match number(n, at, &mut e) {
            Some(n) => *slot = Some(n),
            None => ok = false,
        }
    }
    if live.is_none() && ok {
        return e.push(range.start + 1, SyntaxKind::MissingLive);
    }
    Some(WallCount {
        live: live?,
        kong_box,
    })
    .filter(|_| ok)
}

fn read_turn(
    line: &Line,
    range: Range<usize>,
    out: &mut Vec<SyntaxError>,
) -> Option<Spanned<ToMove>> {
    let mut e = Errors {
        field: Field::Turn,
        out,
    };
    let words = line.words(range.clone());
    let Some((column, first)) = words.first() else {
        return e.push(range.start + 1, SyntaxKind::Empty);
    };
    let column = *column;
    let not_a_turn = || {
        SyntaxKind::NotATurn(
            words
                .iter()
                .map(|w| w.1.as_str())
                .collect::<Vec<_>>()
                .join(" "),
        )
    };
    let Some((who, stage)) = first.split_once(':') else {
        return e.push(column, not_a_turn());
    };
    let seat = seat(who, column, &mut e)?;
    let named = match words.get(1..) {
        Some([]) | None => None,
        Some([(c, w)]) => Some(tile(w, *c, &mut e)?),
        Some([_, (c, _), ..]) => return e.push(*c, not_a_turn()),
    };
    let stage = match (stage, named) {
        ("draw", None) => Stage::Draw,
        ("dealt", None) => Stage::Dealt,
        ("drew", t) => Stage::Drew(t),
        ("loose", t) => Stage::Loose(t),
        ("chow", None) => Stage::Chowed,
        ("pung", None) => Stage::Punged,
        ("kong", None) => Stage::Konged,
        _ => return e.push(column, not_a_turn()),
    };
    Some(Spanned {
        value: ToMove { seat, stage },
        column,
    })
}

fn read_acts(line: &Line, range: Range<usize>, out: &mut Vec<SyntaxError>) -> Option<Vec<Act>> {
    let mut e = Errors {
        field: Field::Acts,
        out,
    };
    let mut pieces = Vec::new();
    let mut start = range.start;
    for i in range.clone() {
        if line.chars[i] == ',' {
            pieces.push(start..i);
            start = i + 1;
        }
    }
    pieces.push(start..range.end);
    let mut acts = Vec::new();
    let mut ok = true;
    for piece in pieces {
        let words = line.words(piece.clone());
        if words.is_empty() {
            ok = false;
            e.push::<()>(piece.start + 1, SyntaxKind::Empty);
            continue;
        }
        let borrowed: Vec<act::Word<'_>> = words.iter().map(|(c, w)| (*c, w.as_str())).collect();
        let rest = || {
            let from = words.get(1).map_or(piece.end, |w| w.0 - 1);
            line.masked(from..piece.end, &[])
        };
        match act::read(&borrowed, rest) {
            Ok(a) => acts.push(a),
            Err((column, kind)) => {
                ok = false;
                e.push::<()>(column, kind);
            }
        }
    }
    ok.then_some(acts)
}

impl FromStr for PositionSetup {
    type Err = super::PositionError;

    fn from_str(s: &str) -> Result<PositionSetup, super::PositionError> {
        PositionSetup::parse(s).map_err(super::PositionError::Syntax)
    }
}

/// One act alone, as a scorer's page or a script sends it (`S:discard 5p`): where it does not
/// read, the column (from 1) and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {kind}")]
pub struct ActSyntaxError {
    pub column: usize,
    pub kind: SyntaxKind,
}

impl FromStr for Act {
    type Err = ActSyntaxError;

    fn from_str(s: &str) -> Result<Act, ActSyntaxError> {
        let line = Line {
            chars: s.chars().collect(),
        };
        let whole = 0..line.chars.len();
        let words = line.words(whole.clone());
        if words.is_empty() {
            return Err(ActSyntaxError {
                column: 1,
                kind: SyntaxKind::Empty,
            });
        }
        let borrowed: Vec<act::Word<'_>> = words.iter().map(|(c, w)| (*c, w.as_str())).collect();
        let rest = || {
            let from = words.get(1).map_or(whole.end, |w| w.0 - 1);
            line.masked(from..whole.end, &[])
        };
        act::read(&borrowed, rest).map_err(|(column, kind)| ActSyntaxError { column, kind })
    }
}

#[cfg(test)]
mod act_tests {
    use super::*;

    #[test]
    fn one_act_reads_alone_and_prints_back() {
        for text in [
            "S:discard 5p",
            "W:claim pung 5p",
            "E:draw",
            "N:kong concealed 5p unmarked",
            "W:show 1155s [222s] [444s] [777s] =5s",
            "washout",
        ] {
            let act: Act = text.parse().unwrap();
            assert_eq!(act.to_string(), text);
            // The event it records names it again.
            assert_eq!(Act::of(&act.event()), Some(act));
        }
        let e = "S:discard 5x".parse::<Act>().unwrap_err();
        assert_eq!(e.column, 11, "{e}");
        let e = "  ".parse::<Act>().unwrap_err();
        assert_eq!(e.kind, SyntaxKind::Empty);
        assert!("X:draw".parse::<Act>().is_err());
    }
}
