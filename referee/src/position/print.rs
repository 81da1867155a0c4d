//! Writing a position back as its canonical line: fields joined by ` | `, concealed tiles and
//! bonus tiles compressed in the tile notation's order, sets in the order written.

use std::fmt;

use crate::concealed::Concealed;
use crate::notation::{format_tiles, Style};

use super::{Position, SeatPosition, ShownDiscard, ToMove, WallCount};

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "g{} h{} dealer:{} prevailing:{}",
            self.game,
            self.hand,
            self.dealer.letter(),
            self.prevailing.letter()
        )?;
        for (seat, s) in self.seats.iter() {
            write!(f, " | {}:", seat.letter())?;
            write_seat(f, s)?;
        }
        f.write_str(" |")?;
        if self.discards.is_empty() {
            f.write_str(" -")?;
        }
        for d in &self.discards {
            write!(f, " {d}")?;
        }
        write!(f, " | {} | {}", self.wall, self.to_move)?;
        for (i, a) in self.acts.iter().enumerate() {
            f.write_str(if i == 0 { " | " } else { ", " })?;
            write!(f, "{a}")?;
        }
        Ok(())
    }
}

fn write_seat(f: &mut fmt::Formatter<'_>, s: &SeatPosition) -> fmt::Result {
    match &s.concealed {
        Concealed::Counted(n) => write!(f, " ?{n}")?,
        Concealed::Known(c) if c.is_empty() => {}
        Concealed::Known(c) => write!(f, " {}", c.format(Style::Compressed))?,
    }
    for m in &s.melds {
        write!(f, " {m}")?;
    }
    if !s.bonus.is_empty() {
        write!(
            f,
            " {}",
            format_tiles(s.bonus.iter().copied(), Style::Compressed)
        )?;
    }
    if s.original_call {
        f.write_str(" OC")?;
    }
    Ok(())
}

impl fmt::Display for ShownDiscard {
    /// `S:5p`, or `S:5p>W` when West claimed it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.seat.letter(), self.tile)?;
        if let Some(c) = self.claimed_by {
            write!(f, ">{}", c.letter())?;
        }
        Ok(())
    }
}

impl fmt::Display for WallCount {
    /// `live:70 box:16`, or `live:70`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "live:{}", self.live)?;
        if let Some(b) = self.kong_box {
            write!(f, " box:{b}")?;
        }
        Ok(())
    }
}

impl fmt::Display for ToMove {
    /// `S:drew 5p`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.seat.letter(), self.stage.word())?;
        if let Some(t) = self.stage.tile() {
            write!(f, " {t}")?;
        }
        Ok(())
    }
}
