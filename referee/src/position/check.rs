//! Checking what a line says ([`PositionSetup`]) into a position that can exist: every problem
//! of meaning, each with its field and column.

use std::str::FromStr;

use crate::by_seat::BySeat;
use crate::concealed::Concealed;
use crate::counts::TileCounts;
use crate::hand::{check_meld, Meld, MeldForm, MAX_BONUS_COPIES};
use crate::seat::Seat;
use crate::shape::SetKind;
use crate::tile::{Bonus, Tile};

use super::error::{Field, PositionError, Problem, ProblemKind};
use super::parse::{PositionSetup, SeatSetup};
use super::{Position, SeatPosition, ShownDiscard, Stage};

impl Position {
    /// Checks a setup, listing every problem found.
    pub fn new(setup: &PositionSetup) -> Result<Position, Vec<Problem>> {
        let mut problems = Vec::new();
        for n in [setup.game, setup.hand] {
            if n.value == 0 {
                problems.push(Problem {
                    field: Field::Context,
                    column: n.column,
                    kind: ProblemKind::CountedFromOne(0),
                });
            }
        }
        let seats = BySeat::from_fn(|s| seat(setup, s, &mut problems));
        copies(setup, &mut problems);
        claims(setup, &seats, &mut problems);
        turn(setup, &seats, &mut problems);
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(Position {
            game: setup.game.value,
            hand: setup.hand.value,
            dealer: setup.dealer,
            prevailing: setup.prevailing,
            seats,
            discards: setup.discards.iter().map(|d| d.value).collect(),
            wall: setup.wall,
            to_move: setup.to_move.value,
            acts: setup.acts.clone(),
        })
    }
}

/// The most tiles a seat may be found holding, each set counted as three: a long hand a few
/// tiles over fourteen is a table's mishap, more is a mistake in the line.
const MAX_HELD: u32 = 18;

/// One seat: its sets real, no winning tile or groups, and no more tiles than a table holds.
fn seat(setup: &PositionSetup, s: Seat, problems: &mut Vec<Problem>) -> SeatPosition {
    let SeatSetup {
        column,
        counted,
        hand,
        original_call,
    } = &setup.seats[s];
    let field = Field::Seat(s);
    let mut problem = |column, kind| {
        problems.push(Problem {
            field,
            column,
            kind,
        })
    };
    if hand.winning.is_some() {
        problem(*column, ProblemKind::WinningTile);
    }
    if let Some(g) = hand.groups.first() {
        problem(g.column, ProblemKind::Grouped);
    }
    let melds: Vec<Meld> = hand
        .melds
        .iter()
        .filter_map(|raw| match check_meld(raw) {
            Ok(m) => Some(m),
            Err(p) => {
                problem(raw.column, ProblemKind::Set(p));
                None
            }
        })
        .collect();
    let concealed = match counted {
        Some(n) => Concealed::Counted(*n),
        // A fifth copy is reported across the whole position (`copies`).
        None => {
            Concealed::Known(TileCounts::from_tiles(&hand.concealed).unwrap_or(TileCounts::EMPTY))
        }
    };
    // A seat holding the wrong number of tiles (§89(a)) is what a referee may find at the
    // table: the position takes it as it is, and the adjudication rules it long or short —
    // within reason.
    let in_hand = counted.unwrap_or(hand.concealed.len() as u32);
    let held = in_hand.saturating_add(3 * hand.melds.len() as u32);
    if held > MAX_HELD {
        problem(
            *column,
            ProblemKind::TooManyTiles {
                seat: s,
                held,
                max: MAX_HELD,
            },
        );
    }
    // Bonus tiles are written, and held, in the notation's order.
    let mut bonus = hand.bonus.clone();
    bonus.sort_unstable();
    SeatPosition {
        concealed,
        melds,
        bonus,
        original_call: *original_call,
    }
}

/// No fifth copy of a playing tile across the position, nor a third of a bonus tile: each
/// reported where the copy one too many is written.
fn copies(setup: &PositionSetup, problems: &mut Vec<Problem>) {
    let mut seen = [0u8; Tile::COUNT];
    let mut bonus = [0usize; Bonus::ALL.len()];
    let mut see = |t: Tile, field: Field, column: usize, problems: &mut Vec<Problem>| {
        seen[t.index()] += 1;
        if seen[t.index()] == 5 {
            problems.push(Problem {
                field,
                column,
                kind: ProblemKind::FifthCopy(t),
            });
        }
    };
    for s in Seat::ALL {
        let st = &setup.seats[s];
        let field = Field::Seat(s);
        for &t in &st.hand.concealed {
            see(t, field, st.column, problems);
        }
        for m in &st.hand.melds {
            for &t in m.tiles.iter().chain(&m.added) {
                see(t, field, m.column, problems);
            }
        }
        for &b in &st.hand.bonus {
            bonus[b.index()] += 1;
            if bonus[b.index()] == MAX_BONUS_COPIES + 1 {
                problems.push(Problem {
                    field,
                    column: st.column,
                    kind: ProblemKind::TooManyBonus(b),
                });
            }
        }
    }
    // A claimed discard is in its claimer's set, counted there.
    for d in setup
        .discards
        .iter()
        .filter(|d| d.value.claimed_by.is_none())
    {
        see(d.value.tile, Field::Discards, d.column, problems);
    }
}

/// Was `m` made with a claimed discard?
fn made_with_discard(m: &Meld) -> bool {
    m.form != MeldForm::ConcealedKong
}

/// Each claimed discard is in a set of its claimer's made with a discard, and no seat has
/// claimed more discards than it has such sets.
fn claims(setup: &PositionSetup, seats: &BySeat<SeatPosition>, problems: &mut Vec<Problem>) {
    let mut claimed = BySeat::from_fn(|_| 0usize);
    for d in &setup.discards {
        let ShownDiscard {
            seat,
            tile,
            claimed_by: Some(claimer),
        } = d.value
        else {
            continue;
        };
        let mut problem = |kind| {
            problems.push(Problem {
                field: Field::Discards,
                column: d.column,
                kind,
            })
        };
        if claimer == seat {
            problem(ProblemKind::OwnDiscard { seat });
            continue;
        }
        claimed[claimer] += 1;
        let holding: Vec<&Meld> = seats[claimer]
            .melds
            .iter()
            .filter(|m| made_with_discard(m) && m.set.contains(tile))
            .collect();
        if holding.is_empty() {
            problem(ProblemKind::ClaimedNotInSet {
                seat,
                claimer,
                tile,
            });
        } else if holding.iter().all(|m| m.set.kind() == SetKind::Chow) && seat.next() != claimer {
            problem(ProblemKind::ChowNotFromLeft {
                seat,
                claimer,
                tile,
            });
        }
    }
    for claimer in Seat::ALL {
        let sets = seats[claimer]
            .melds
            .iter()
            .filter(|m| made_with_discard(m))
            .count();
        if claimed[claimer] > sets {
            problems.push(Problem {
                field: Field::Discards,
                column: setup.discards_column,
                kind: ProblemKind::MoreClaimsThanSets {
                    claimer,
                    claims: claimed[claimer],
                    sets,
                },
            });
        }
    }
}

/// The turn agrees with the discards: the seat after the last discarder draws, the claimer of
/// the last discard lays its set down, the dealer alone starts with fourteen.
fn turn(setup: &PositionSetup, seats: &BySeat<SeatPosition>, problems: &mut Vec<Problem>) {
    let to_move = setup.to_move.value;
    let (x, stage) = (to_move.seat, to_move.stage);
    let last = setup.discards.last().map(|d| d.value);
    let mut why = Vec::new();
    match stage {
        Stage::Dealt => {
            if x != setup.dealer {
                why.push(format!(
                    "only the dealer ({}) starts with fourteen tiles",
                    setup.dealer
                ));
            }
            if last.is_some() {
                why.push("discards have been made".to_owned());
            }
        }
        Stage::Draw | Stage::Drew(_) | Stage::Loose(_) => match last {
            None if stage == Stage::Draw || matches!(stage, Stage::Drew(_)) => why.push(format!(
                "no one has discarded yet: the dealer ({}) discards first",
                setup.dealer
            )),
            None if x != setup.dealer => why.push(format!(
                "no one has discarded yet: the dealer ({}) discards first",
                setup.dealer
            )),
            None => {}
            Some(d) => {
                if let Some(c) = d.claimed_by {
                    why.push(format!(
                        "the last discard, {}'s `{}`, was claimed by {c}, who has not discarded since",
                        d.seat, d.tile
                    ));
                } else if d.seat.next() != x {
                    why.push(format!(
                        "the last discard was {}'s: the turn after it is {}'s",
                        d.seat,
                        d.seat.next()
                    ));
                }
            }
        },
        Stage::Chowed | Stage::Punged | Stage::Konged => {
            let claimed = last.filter(|d| d.claimed_by == Some(x));
            match claimed {
                None => why.push(format!(
                    "the last discard is not marked claimed by {x} (write it `>{}`)",
                    x.letter()
                )),
                Some(d) => {
                    let fits = |m: &&Meld| match stage {
                        Stage::Chowed => {
                            m.form == MeldForm::Claimed
                                && m.set.kind() == SetKind::Chow
                                && m.set.contains(d.tile)
                        }
                        Stage::Punged => {
                            m.form == MeldForm::Claimed && m.set == crate::Set::pung(d.tile)
                        }
                        _ => m.form == MeldForm::AnnexedKong && m.set == crate::Set::kong(d.tile),
                    };
                    if !seats[x].melds.iter().any(|m| fits(&m)) {
                        why.push(format!(
                            "{x} has no {} made with the last discard, `{}`",
                            match stage {
                                Stage::Chowed => "exposed chow",
                                Stage::Punged => "exposed pung",
                                _ => "annexed kong",
                            },
                            d.tile
                        ));
                    }
                }
            }
        }
    }
    if let (Some(t), Concealed::Known(held)) = (stage.tile(), &seats[x].concealed) {
        if held.get(t) == 0 {
            why.push(format!("it does not hold the `{t}` it drew"));
        }
    }
    for why in why {
        problems.push(Problem {
            field: Field::Turn,
            column: setup.to_move.column,
            kind: ProblemKind::Turn {
                seat: x,
                stage: stage.word(),
                why,
            },
        });
    }
}

impl FromStr for Position {
    type Err = PositionError;

    /// Reads a line: its syntax errors if any, else its problems of meaning.
    fn from_str(s: &str) -> Result<Position, PositionError> {
        let setup: PositionSetup = s.parse()?;
        Position::new(&setup).map_err(PositionError::Invalid)
    }
}
