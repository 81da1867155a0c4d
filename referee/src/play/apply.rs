//! Folding one event of play into the state: check, then change.
//!
//! Each handler first finds everything that makes the event inconsistent (and returns it
//! without touching the state), then applies it, collecting the rules it breaks.

use crate::by_seat::BySeat;
use crate::event::{
    BonusTileDeclared, ClaimGranted, ClaimKind, ClaimMade, ClaimPassed, ClaimRetracted,
    DiscardTakenBack, DiscardTakenIntoHand, HandEvent, HandExposed, KongDeclared, KongKind,
    KongRobbed, LooseTileDrawn, MahJonggDeclared, ScoreClaimed, SetExposed, TileDiscarded,
    TileDrawn, WashOut,
};
use crate::rules::{BonusReplacement, KongRobbing};
use crate::score::{Circumstances, WinFrom};
use crate::seat::Seat;
use crate::shape::Set;
use crate::tile::{AnyTile, Tile};

use super::error::{Applied, Breach, Inconsistent, Irregularity};
use super::rules::PlayRules;
use super::state::{
    Concealed, Discard, DrawnOver, Ending, Formed, LastDraw, PlayState, PlayedSet, Turn, Window,
};

type Outcome = Result<Vec<Irregularity>, Inconsistent>;

pub(crate) fn apply(
    rules: &PlayRules,
    state: &mut PlayState,
    event: &HandEvent,
) -> Result<Applied, Inconsistent> {
    if let Turn::Over(end) = state.turn {
        // The hands are laid down after the end, and a plea of No Choice for the winning
        // discard is made as they are shown (§95).
        let allowed = match event {
            HandEvent::HandExposed(_) => true,
            HandEvent::NoChoicePleaded(_) | HandEvent::ScoreClaimed(_) => {
                matches!(end, Ending::MahJongg { .. })
            }
            _ => false,
        };
        if !allowed {
            return Err(Inconsistent::HandOver(match end {
                Ending::MahJongg { seat, .. } => format!("{seat} went Mah-Jongg"),
                Ending::WashOut => "a wash-out".into(),
            }));
        }
    }
    // §64's chance to claim over a draw lasts until the drawer does anything else.
    let keeps_draw_open = matches!(
        event,
        HandEvent::TileDrawn(_) | HandEvent::ClaimMade(_) | HandEvent::ClaimPassed(_)
    );
    // A draw from the live wall that starts a turn (not a bonus tile's replacement).
    let turn_starts = match event {
        HandEvent::TileDrawn(d) => matches!(state.turn, Turn::Draw(s) if s == d.seat),
        HandEvent::TileDiscarded(_) | HandEvent::ClaimGranted(_) => true,
        _ => false,
    };
    let irregular = match event {
        HandEvent::HandStarted(_) => return Err(Inconsistent::StartedTwice),
        HandEvent::TileDrawn(e) => drawn(rules, state, e),
        HandEvent::LooseTileDrawn(e) => loose_drawn(rules, state, e),
        HandEvent::BonusTileDeclared(e) => bonus_declared(rules, state, e),
        HandEvent::TileDiscarded(e) => discarded(rules, state, e),
        HandEvent::ClaimMade(e) => claimed(state, e),
        HandEvent::ClaimPassed(e) => passed(state, e),
        HandEvent::ClaimGranted(e) => granted(state, e),
        HandEvent::SetExposed(e) => exposed(rules, state, e),
        HandEvent::DiscardTakenBack(e) => taken_back(state, e),
        HandEvent::DiscardTakenIntoHand(e) => taken_into_hand(state, e),
        HandEvent::ClaimRetracted(e) => retracted(state, e),
        HandEvent::KongDeclared(e) => kong(rules, state, e),
        HandEvent::OriginalCallAnnounced(e) => {
            let seat = e.seat;
            let latest = state.discards.len().checked_sub(1);
            let s = &mut state.seats[seat];
            let mut v = Vec::new();
            // §55(a): straight after the seat's first discard (its first tile drawn or
            // claimed), before anyone discards again. A call out of time binds to nothing and
            // earns nothing (§56).
            let first = s.discards.len() == 1 && s.discards.last().copied() == latest;
            if !first {
                v.push(Irregularity::by(
                    seat,
                    Breach::OriginalCallMistimed,
                    format!("{seat} announced an Original Call other than straight after its first discard"),
                ));
            }
            s.original_call |= first;
            Ok(v)
        }
        HandEvent::NoChoicePleaded(e) => {
            // §95(b): straight after the seat's discard was claimed, before it draws or claims
            // again — its discard is still the latest, and taken.
            let latest = state.discards.len().checked_sub(1);
            let ok = state.seats[e.seat].discards.last().copied() == latest
                && latest.is_some_and(|i| state.discards[i].claimed_by.is_some());
            Ok(if ok {
                Vec::new()
            } else {
                vec![Irregularity::by(
                    e.seat,
                    Breach::NoChoiceLate,
                    format!(
                        "{} pleaded No Choice other than straight after its discard was claimed",
                        e.seat
                    ),
                )]
            })
        }
        HandEvent::KongRobbed(e) => robbed(rules, state, e),
        HandEvent::MahJonggDeclared(e) => mahjongg(rules, state, e),
        HandEvent::HandExposed(e) => laid_down(state, e),
        HandEvent::WashOut(e) => wash_out(state, e),
        HandEvent::ScoreClaimed(e) => score_claimed(state, e),
        HandEvent::DisputeRaised(_) => Err(Inconsistent::NotPlay("a dispute")),
        HandEvent::RulingIssued(_) => Err(Inconsistent::NotPlay("a ruling")),
        HandEvent::RulingSuperseded(_) => Err(Inconsistent::NotPlay("an appeal")),
        HandEvent::CorrectionRecorded(_) => Err(Inconsistent::NotPlay("a correction")),
        HandEvent::SettlementRecorded(_) => Err(Inconsistent::NotPlay("a settlement")),
        HandEvent::HandScored(_) => Err(Inconsistent::NotPlay("a score")),
    }?;
    if !keeps_draw_open {
        state.drawn_over = None;
    }
    // The kongs of the turn, for Kong upon Kong (§122(f)): a discard ends a turn, a draw or a
    // claimed discard starts one.
    if turn_starts {
        state.kongs_in_turn = None;
    }
    if let HandEvent::KongDeclared(k) = event {
        state.kongs_in_turn = Some(match state.kongs_in_turn {
            Some((s, n)) if s == k.seat => (s, n + 1),
            _ => (k.seat, 1),
        });
    }
    Ok(if irregular.is_empty() {
        Applied::Legal
    } else {
        Applied::Irregular(irregular)
    })
}

/// Is it `seat`'s turn to do `what`? If not, the irregularity (the event is still applied).
fn out_of_turn(
    state: &PlayState,
    seat: Seat,
    expected: Option<Seat>,
    breach: Breach,
    what: &str,
) -> Option<Irregularity> {
    match expected {
        Some(s) if s == seat => None,
        Some(s) => Some(Irregularity::by(
            seat,
            breach,
            format!("{seat} {what} out of turn: it was {s}'s turn"),
        )),
        None => Some(Irregularity::by(
            seat,
            breach,
            format!("{seat} {what} when no one was to ({})", state.turn),
        )),
    }
}

/// Takes the next tile (or, with a known wall, `tile`) off the live wall or the kong box.
fn draw_from(
    state: &mut PlayState,
    seat: Seat,
    tile: Option<AnyTile>,
    loose: bool,
) -> Result<(Option<AnyTile>, Option<Irregularity>), Inconsistent> {
    let wall = &mut state.wall;
    let (count, tiles, name) = if loose {
        (&mut wall.kong_box, &mut wall.loose_tiles, "kong box")
    } else {
        (&mut wall.live, &mut wall.live_tiles, "live wall")
    };
    if *count == 0 {
        return Err(Inconsistent::WallEmpty { seat, wall: name });
    }
    let Some(tiles) = tiles else {
        *count -= 1;
        return Ok((tile, None));
    };
    let taken = match tile {
        None => 0,
        Some(t) => tiles
            .iter()
            .position(|&x| x == t)
            .ok_or(Inconsistent::NotInWall { seat, tile: t })?,
    };
    let wrong = (taken != 0).then(|| {
        Irregularity::by(
            seat,
            Breach::WrongTileDrawn,
            format!(
                "{seat} drew `{}` from the {name}, not the next tile `{}`",
                tiles[taken], tiles[0]
            ),
        )
    });
    let t = tiles.remove(taken);
    *count -= 1;
    Ok((Some(t), wrong))
}

/// `seat` draws from the live wall or the kong box: the tile (checked against the tiles in
/// play unless the wall vouches for it) joins the hand, a bonus tile to wait for its
/// declaration. Returns the tile, and a wrong tile drawn from a known wall (§72).
fn take_draw(
    rules: &PlayRules,
    state: &mut PlayState,
    seat: Seat,
    tile: Option<AnyTile>,
    loose: bool,
) -> Result<(Option<AnyTile>, Option<Irregularity>), Inconsistent> {
    let wall_known = if loose {
        state.wall.loose_tiles.is_some()
    } else {
        state.wall.live_tiles.is_some()
    };
    if let (false, Some(t)) = (wall_known, tile) {
        state.can_see(rules, t)?;
    }
    let (tile, wrong) = draw_from(state, seat, tile, loose)?;
    if loose && rules.kong_box_replenished && state.wall.live > 0 {
        // Babcock: "the two last tiles in the wall are placed on top of the end of the wall
        // and used as new loose tiles": the box keeps its size, the live wall gives a tile.
        state.wall.live -= 1;
        state.wall.kong_box += 1;
        if let (Some(live), Some(loose)) = (&mut state.wall.live_tiles, &mut state.wall.loose_tiles)
        {
            if let Some(t) = live.pop() {
                loose.push(t);
            }
        }
    }
    match tile {
        Some(t) => state.take(rules, seat, t)?,
        // An unseen tile in a hand the recorder sees: the hand is counted from now on.
        None => {
            let n = state.seats[seat].concealed.len() + 1;
            state.seats[seat].concealed = Concealed::Counted(n);
        }
    }
    state.last_draw = Some(LastDraw {
        seat,
        tile: match tile {
            Some(AnyTile::Playing(t)) => Some(t),
            _ => None,
        },
        loose,
    });
    Ok((tile, wrong))
}

/// The drawer's turn goes on: back to what a replacement interrupted, or to its discard.
fn resume_after_draw(state: &mut PlayState, seat: Seat) {
    state.turn = match std::mem::replace(&mut state.turn, Turn::Discard(seat)) {
        Turn::Replace { then, seat: s, .. } if s == seat => *then,
        _ => Turn::Discard(seat),
    };
}

fn drawn(rules: &PlayRules, state: &mut PlayState, e: &TileDrawn) -> Outcome {
    let seat = e.seat;
    let mut v = Vec::new();
    // A bonus tile's replacement from the live wall (§31) is a draw too.
    let replacing =
        matches!(&state.turn, Turn::Replace { seat: s, loose: false, .. } if *s == seat);
    let expected = match &state.turn {
        Turn::Draw(s) => Some(*s),
        Turn::Replace {
            seat: s,
            loose: false,
            ..
        } => Some(*s),
        _ => None,
    };
    let (tile, wrong) = take_draw(rules, state, seat, e.tile, false)?;
    v.extend(out_of_turn(
        state,
        seat,
        expected,
        Breach::DrawOutOfTurn { turn_of: expected },
        "drew",
    ));
    v.extend(wrong);
    // The draw closes the claims on the discard before it (§64 lets a higher claim displace it
    // until the tile is in the hand; such a claim comes before this event in the record).
    if expected != Some(seat) {
        // §73: the errant seat keeps the tile (a long hand); play goes on in its order.
        return Ok(v);
    }
    if !replacing {
        state.drawn_over = state
            .window
            .take()
            .map(|window| DrawnOver { window, seat, tile });
    }
    resume_after_draw(state, seat);
    Ok(v)
}

fn loose_drawn(rules: &PlayRules, state: &mut PlayState, e: &LooseTileDrawn) -> Outcome {
    let seat = e.seat;
    let mut v = Vec::new();
    let expected = match &state.turn {
        Turn::Replace {
            seat: s,
            loose: true,
            ..
        } => Some(*s),
        Turn::Robbable { seat: s, .. } => Some(*s),
        _ => None,
    };
    let (_, wrong) = take_draw(rules, state, seat, e.tile, true)?;
    v.extend(out_of_turn(
        state,
        seat,
        expected,
        Breach::LooseTileOutOfTurn { turn_of: expected },
        "drew a loose tile",
    ));
    v.extend(wrong);
    if expected != Some(seat) {
        return Ok(v);
    }
    resume_after_draw(state, seat);
    Ok(v)
}

fn bonus_declared(rules: &PlayRules, state: &mut PlayState, e: &BonusTileDeclared) -> Outcome {
    let seat = e.seat;
    let s = &state.seats[seat];
    match (s.undeclared.iter().position(|&b| b == e.tile), &s.concealed) {
        (Some(i), _) => {
            state.seats[seat].undeclared.remove(i);
        }
        (None, Concealed::Known(_)) => {
            return Err(Inconsistent::NotHeld {
                seat,
                tile: AnyTile::Bonus(e.tile),
            })
        }
        // A counted hand: the bonus tile was one of its unseen tiles.
        (None, Concealed::Counted(0)) => return Err(Inconsistent::NothingHeld { seat }),
        (None, Concealed::Counted(n)) => {
            let n = *n - 1;
            state.see(rules, AnyTile::Bonus(e.tile))?;
            state.seats[seat].concealed = Concealed::Counted(n);
        }
    }
    state.seats[seat].bonus.push(e.tile);
    let mut v = Vec::new();
    // §31–32: declared in the turn it was drawn, or before play starts; another seat's turn
    // means it was kept back.
    let own_turn = match &state.turn {
        Turn::Discard(s) | Turn::Replace { seat: s, .. } => *s == seat,
        _ => false,
    };
    let before_play = state.discards.is_empty();
    if !own_turn && !before_play {
        v.push(Irregularity::by(
            seat,
            Breach::BonusDeclaredLate(e.tile),
            format!("{seat} declared `{}` after the turn it was drawn in: it scores nothing and is not replaced", e.tile),
        ));
        return Ok(v);
    }
    let loose = rules.bonus_replacement == BonusReplacement::LooseTile;
    let then = Box::new(std::mem::replace(&mut state.turn, Turn::Discard(seat)));
    state.turn = Turn::Replace { seat, loose, then };
    Ok(v)
}

fn discarded(rules: &PlayRules, state: &mut PlayState, e: &TileDiscarded) -> Outcome {
    let seat = e.seat;
    let s = &state.seats[seat];
    if !s.concealed.holds(e.placed, 1) {
        return Err(if s.concealed.is_empty() {
            Inconsistent::NothingHeld { seat }
        } else {
            Inconsistent::NotHeld {
                seat,
                tile: AnyTile::Playing(e.placed),
            }
        });
    }
    let mut v = Vec::new();
    let expected = match &state.turn {
        Turn::Discard(s) => Some(*s),
        _ => None,
    };
    // §75: a second tile from the seat whose discard is still the live one.
    let again = state
        .live_discard()
        .is_some_and(|d| d.seat == seat && expected != Some(seat));
    if again {
        v.push(Irregularity::by(
            seat,
            Breach::TwoDiscards,
            format!("{seat} discarded more than one tile"),
        ));
    } else {
        v.extend(out_of_turn(
            state,
            seat,
            expected,
            Breach::DiscardOutOfTurn { turn_of: expected },
            "discarded",
        ));
    }
    if let Some(&b) = state.seats[seat].undeclared.first() {
        v.push(Irregularity::by(
            seat,
            Breach::BonusNotDeclared(b),
            format!(
                "{seat} discarded without declaring `{b}`: it scores nothing and is not replaced"
            ),
        ));
    }
    if e.named != e.placed {
        v.push(Irregularity::by(
            seat,
            Breach::FalselyNamed {
                placed: e.placed,
                named: e.named,
            },
            format!(
                "{seat} placed `{}` and named it `{}`: the tile placed is the discard",
                e.placed, e.named
            ),
        ));
    }
    if let Concealed::Counted(_) = state.seats[seat].concealed {
        // A discard from an unseen hand shows one of its tiles.
        state.see(rules, AnyTile::Playing(e.placed))?;
    }
    match &mut state.seats[seat].concealed {
        Concealed::Known(c) => {
            *c = c.without(e.placed).unwrap_or(*c);
        }
        Concealed::Counted(n) => *n -= 1,
    }
    let index = state.discards.len();
    state.discards.push(Discard {
        seat,
        placed: e.placed,
        named: e.named,
        claimed_by: None,
        together: again,
    });
    state.seats[seat].discards.push(index);
    state.window = Some(Window {
        discard: index,
        claims: BySeat::from_fn(|_| None),
        passed: BySeat::from_fn(|_| false),
    });
    // §74: a discard out of turn lies on the table and may be claimed; the turn stays.
    if expected == Some(seat) {
        state.turn = Turn::Draw(seat.next());
    }
    Ok(v)
}

/// The claim that takes the live discard (§61): Mah-Jongg over pung and kong over chow; between
/// equals, the nearest in turn after the discarder.
pub(crate) fn precedence(
    discarder: Seat,
    claims: &BySeat<Option<ClaimKind>>,
) -> Option<(Seat, ClaimKind)> {
    let mut best: Option<(Seat, ClaimKind)> = None;
    let mut seat = discarder.next();
    for _ in 0..3 {
        if let Some(k) = claims[seat] {
            if best.is_none_or(|(_, b)| rank(k) > rank(b)) {
                best = Some((seat, k));
            }
        }
        seat = seat.next();
    }
    best
}

fn rank(k: ClaimKind) -> u8 {
    match k {
        ClaimKind::MahJongg => 2,
        ClaimKind::Pung | ClaimKind::Kong => 1,
        ClaimKind::Chow => 0,
    }
}

/// §62 and §64: a claim made after the discard went elsewhere may still take it. Reopens the
/// claims on it and says so, or leaves the state as it was.
fn reopen(state: &mut PlayState, e: &ClaimMade) -> Result<bool, Inconsistent> {
    let matches_discard = |d: &Discard| e.tile == d.placed || e.tile == d.named;
    let reopened = |discard: usize, holder: Seat, k: ClaimKind| {
        let mut claims = BySeat::from_fn(|_| None);
        claims[holder] = Some(k);
        Window {
            discard,
            claims,
            passed: BySeat::from_fn(|_| false),
        }
    };
    // §62: a discard granted for chow or pung goes to a higher claim, even once the set is
    // laid down, until its taker has discarded.
    let granted = match state.turn {
        Turn::Expose { seat, claim } => Some((seat, claim, false)),
        Turn::Discard(seat) => match state.seats[seat].sets.last() {
            Some(p) if p.set.kind() != crate::shape::SetKind::Kong => {
                let laid = matches!(p.formed, Formed::Claimed { .. })
                    && claimed_tile(state, seat)
                        .is_some_and(|(i, _)| i + 1 == state.discards.len());
                let k = if p.set.kind() == crate::shape::SetKind::Chow {
                    ClaimKind::Chow
                } else {
                    ClaimKind::Pung
                };
                laid.then_some((seat, k, true))
            }
            _ => None,
        },
        _ => None,
    };
    if let Some((holder, k, laid)) = granted {
        if let Some((i, d)) = claimed_tile(state, holder) {
            let higher = rank(e.claim) > rank(k);
            if higher && e.seat != holder && e.seat != d.seat && matches_discard(&d) {
                if laid {
                    take_back_set(state, holder, d.placed)?;
                }
                state.discards[i].claimed_by = None;
                state.seats[holder].claimed = None;
                state.window = Some(reopened(i, holder, k));
                state.turn = Turn::Draw(d.seat.next());
                return Ok(true);
            }
        }
    }
    // §63: a discard claimed for kong goes to a Mah-Jongg claim even after the kong is laid
    // down and its loose tile drawn, while its taker has done nothing since (no second kong, no
    // bonus tile declared, no discard): the loose tile goes back, the three tiles to the hand.
    if e.claim == ClaimKind::MahJongg {
        if let Some(holder) = konged_discard(state) {
            if let Some((i, d)) = claimed_tile(state, holder) {
                if e.seat != holder && e.seat != d.seat && matches_discard(&d) {
                    surrender_kong(state, holder, d.placed)?;
                    state.discards[i].claimed_by = None;
                    state.window = Some(reopened(i, holder, ClaimKind::Kong));
                    state.turn = Turn::Draw(d.seat.next());
                    return Ok(true);
                }
            }
        }
    }
    // §64: the next player drew, and has done nothing since: the tile goes back to the wall.
    let Some(over) = state.drawn_over.clone() else {
        return Ok(false);
    };
    let d = state.discards[over.window.discard];
    if e.claim == ClaimKind::Chow || e.seat == over.seat || e.seat == d.seat || !matches_discard(&d)
    {
        return Ok(false);
    }
    let drawer = &mut state.seats[over.seat];
    match (over.tile, &mut drawer.concealed) {
        (Some(AnyTile::Playing(t)), Concealed::Known(c)) => {
            *c = c.without(t).ok_or(Inconsistent::NotHeld {
                seat: over.seat,
                tile: AnyTile::Playing(t),
            })?;
        }
        (Some(AnyTile::Bonus(b)), _) => {
            let i =
                drawer
                    .undeclared
                    .iter()
                    .position(|&x| x == b)
                    .ok_or(Inconsistent::NotHeld {
                        seat: over.seat,
                        tile: AnyTile::Bonus(b),
                    })?;
            drawer.undeclared.remove(i);
        }
        (_, Concealed::Counted(n)) if *n > 0 => *n -= 1,
        _ => return Err(Inconsistent::NothingHeld { seat: over.seat }),
    }
    // Back on the wall, no longer in play.
    match over.tile {
        Some(AnyTile::Playing(t)) => {
            state.seen[t.index()] = state.seen[t.index()].saturating_sub(1)
        }
        Some(AnyTile::Bonus(b)) => {
            if let Some(i) = crate::tile::Bonus::ALL.iter().position(|&x| x == b) {
                state.seen_bonus[i] = state.seen_bonus[i].saturating_sub(1);
            }
        }
        None => {}
    }
    state.wall.live += 1;
    if let (Some(tiles), Some(t)) = (&mut state.wall.live_tiles, over.tile) {
        tiles.insert(0, t);
    }
    state.window = Some(over.window);
    state.drawn_over = None;
    state.last_draw = None;
    state.turn = Turn::Draw(over.seat);
    Ok(true)
}

/// The tiles of `set` other than (one) `claimed`: those its holder supplied.
fn other_tiles(set: Set, claimed: Tile) -> Vec<Tile> {
    let mut rest: Vec<Tile> = set.tiles().collect();
    if let Some(i) = rest.iter().position(|&t| t == claimed) {
        rest.remove(i);
    }
    rest
}

/// `holder` takes its last set, laid down with the discard `claimed`, back into its hand: the
/// discard goes elsewhere (§62, §63), its own tiles return to its concealed hand.
fn take_back_set(state: &mut PlayState, holder: Seat, claimed: Tile) -> Result<(), Inconsistent> {
    let Some(laid) = state.seats[holder].sets.pop() else {
        return Ok(());
    };
    for t in other_tiles(laid.set, claimed) {
        state.seats[holder].concealed.add(t)?;
    }
    Ok(())
}

/// The seat that claimed the last discard for kong, laid it down and drew its loose tile, and
/// has done nothing since (§63's window), if there is one.
fn konged_discard(state: &PlayState) -> Option<Seat> {
    let Turn::Discard(holder) = state.turn else {
        return None;
    };
    let annexed = state.seats[holder]
        .sets
        .last()
        .is_some_and(|p| matches!(p.formed, Formed::AnnexedKong { .. }));
    let last_discard =
        claimed_tile(state, holder).is_some_and(|(i, _)| i + 1 == state.discards.len());
    // The loose tile was the last thing drawn, and it is a playing tile still in the hand (a
    // bonus tile would have been declared and replaced: §63 then forfeits the claim).
    let loose = state
        .last_draw
        .is_some_and(|d| d.seat == holder && d.loose && d.tile.is_some());
    let one_kong = state.kongs_in_turn == Some((holder, 1));
    (annexed && last_discard && loose && one_kong).then_some(holder)
}

/// §63: `holder` gives up the kong of `tile` it annexed with a discard: the loose tile goes back
/// to the kong box and the three tiles it held return to its hand.
fn surrender_kong(state: &mut PlayState, holder: Seat, tile: Tile) -> Result<(), Inconsistent> {
    let loose = state.last_draw.and_then(|d| d.tile);
    if let Some(t) = loose {
        let s = &mut state.seats[holder];
        match &mut s.concealed {
            Concealed::Known(c) => {
                *c = c.without(t).ok_or(Inconsistent::NotHeld {
                    seat: holder,
                    tile: AnyTile::Playing(t),
                })?
            }
            Concealed::Counted(n) => *n = n.saturating_sub(1),
        }
        state.seen[t.index()] = state.seen[t.index()].saturating_sub(1);
        state.wall.kong_box += 1;
        if let Some(tiles) = &mut state.wall.loose_tiles {
            tiles.insert(0, AnyTile::Playing(t));
        }
    }
    take_back_set(state, holder, tile)?;
    state.seats[holder].claimed = None;
    state.last_draw = None;
    state.kongs_in_turn = None;
    Ok(())
}

fn claimed(state: &mut PlayState, e: &ClaimMade) -> Outcome {
    let seat = e.seat;
    if state.window.is_none() && !reopen(state, e)? {
        return Err(Inconsistent::NoLiveDiscard { what: "claim" });
    }
    let Some(window) = &state.window else {
        return Err(Inconsistent::NoLiveDiscard { what: "claim" });
    };
    let d = state.discards[window.discard];
    if e.tile != d.placed && e.tile != d.named {
        return Err(Inconsistent::NotTheDiscard {
            seat,
            tile: e.tile,
            placed: d.placed,
        });
    }
    let mut v = Vec::new();
    if seat == d.seat {
        v.push(Irregularity::by(
            seat,
            Breach::OwnDiscardClaimed,
            format!("{seat} claimed its own discard"),
        ));
    }
    if e.claim == ClaimKind::Chow && seat != d.seat.next() {
        v.push(Irregularity::by(
            seat,
            Breach::ChowNotFromLeft { discarder: d.seat },
            format!(
                "{seat} claimed for chow a discard of {}, who is not on its left",
                d.seat
            ),
        ));
    }
    if e.tile != d.placed {
        v.push(Irregularity::by(
            seat,
            Breach::NamedTileClaimed {
                discarder: d.seat,
                claim: e.claim,
                placed: d.placed,
                named: d.named,
            },
            format!(
                "{seat} claimed the tile named, `{}`, but `{}` was placed",
                d.named, d.placed
            ),
        ));
    }
    if let Some(w) = &mut state.window {
        w.claims[seat] = Some(e.claim);
        w.passed[seat] = false;
    }
    Ok(v)
}

/// §70, §74, §75: the discarder takes its live discard back.
fn taken_back(state: &mut PlayState, e: &DiscardTakenBack) -> Outcome {
    let seat = e.seat;
    let Some(w) = &state.window else {
        return Err(Inconsistent::NoLiveDiscard { what: "take back" });
    };
    let index = w.discard;
    let d = state.discards[index];
    if d.seat != seat || d.placed != e.tile || index + 1 != state.discards.len() {
        return Err(Inconsistent::NotTheDiscard {
            seat,
            tile: e.tile,
            placed: d.placed,
        });
    }
    let mut v = Vec::new();
    if w.claims.values().any(Option::is_some) {
        v.push(Irregularity::by(
            seat,
            Breach::DiscardTakenBackAfterClaim,
            format!(
                "{seat} took back its discard `{}` after it was claimed",
                e.tile
            ),
        ));
    }
    state.seats[seat].concealed.add(e.tile)?;
    state.discards.pop();
    state.seats[seat].discards.pop();
    if d.together {
        // §75: the tile discarded with it is the discard.
        state.window = Some(Window {
            discard: state.discards.len() - 1,
            claims: BySeat::from_fn(|_| None),
            passed: BySeat::from_fn(|_| false),
        });
    } else {
        state.window = None;
        if state.turn == Turn::Draw(seat.next()) {
            // §70: it discards again.
            state.turn = Turn::Discard(seat);
        }
    }
    Ok(v)
}

/// §81: a discard taken into a concealed hand, which the others may demand back.
fn taken_into_hand(state: &mut PlayState, e: &DiscardTakenIntoHand) -> Outcome {
    let seat = e.seat;
    let Some(w) = &state.window else {
        return Err(Inconsistent::NoLiveDiscard {
            what: "take into a hand",
        });
    };
    let index = w.discard;
    let d = state.discards[index];
    if d.placed != e.tile {
        return Err(Inconsistent::NotTheDiscard {
            seat,
            tile: e.tile,
            placed: d.placed,
        });
    }
    state.seats[seat].concealed.add(e.tile)?;
    state.discards[index].claimed_by = Some(seat);
    state.window = None;
    if state.turn == Turn::Draw(seat) {
        state.turn = Turn::Discard(seat);
    }
    Ok(vec![Irregularity::by(
        seat,
        Breach::DiscardIntoHand,
        format!(
            "{seat} took the discard `{}` into its concealed hand",
            e.tile
        ),
    )])
}

fn passed(state: &mut PlayState, e: &ClaimPassed) -> Outcome {
    let Some(w) = &mut state.window else {
        // Letting a kong just declared go unrobbed (§57–58): an added kong, or a concealed one
        // (robbable only for the Thirteen Unique Wonders) before its loose tile.
        if matches!(
            state.turn,
            Turn::Robbable { .. } | Turn::Replace { loose: true, .. }
        ) {
            return Ok(Vec::new());
        }
        return Err(Inconsistent::NoLiveDiscard { what: "pass on" });
    };
    w.passed[e.seat] = true;
    w.claims[e.seat] = None;
    Ok(Vec::new())
}

fn granted(state: &mut PlayState, e: &ClaimGranted) -> Outcome {
    let seat = e.seat;
    let Some(w) = &state.window else {
        return Err(Inconsistent::NoLiveDiscard { what: "grant" });
    };
    if w.claims[seat] != Some(e.claim) {
        return Err(Inconsistent::NoSuchClaim {
            seat,
            claim: Some(e.claim),
            what: "grant",
        });
    }
    let index = w.discard;
    let d = state.discards[index];
    let mut v = Vec::new();
    if let Some((first, k)) = precedence(d.seat, &w.claims) {
        if first != seat {
            v.push(Irregularity::by(
                seat,
                Breach::Precedence {
                    claim: e.claim,
                    over: first,
                    their: k,
                },
                format!("the discard went to {seat}'s {:?} claim over {first}'s {k:?} claim, which takes precedence", e.claim),
            ));
        }
    }
    state.discards[index].claimed_by = Some(seat);
    state.seats[seat].claimed = Some(d.placed);
    state.window = None;
    state.turn = Turn::Expose {
        seat,
        claim: e.claim,
    };
    Ok(v)
}

/// The claimed discard (granted to `seat`) and the tiles of `set` besides it.
pub(crate) fn claimed_tile(state: &PlayState, seat: Seat) -> Option<(usize, Discard)> {
    state
        .discards
        .iter()
        .enumerate()
        .rev()
        .find(|(_, d)| d.claimed_by == Some(seat))
        .map(|(i, d)| (i, *d))
}

/// Takes `tiles` out of `seat`'s concealed hand, or refuses if it does not hold them.
fn lay_down(state: &mut PlayState, seat: Seat, tiles: &[Tile]) -> Result<(), Inconsistent> {
    let s = &state.seats[seat];
    match &s.concealed {
        Concealed::Known(c) => {
            let mut c = *c;
            for &t in tiles {
                c = c.without(t).ok_or(Inconsistent::NotHeld {
                    seat,
                    tile: AnyTile::Playing(t),
                })?;
            }
            state.seats[seat].concealed = Concealed::Known(c);
        }
        Concealed::Counted(n) => {
            if (*n as usize) < tiles.len() {
                return Err(Inconsistent::NothingHeld { seat });
            }
            let n = *n;
            // Tiles shown from an unseen hand come into view.
            state.see_all(tiles)?;
            state.seats[seat].concealed = Concealed::Counted(n - tiles.len() as u32);
        }
    }
    Ok(())
}

fn exposed(rules: &PlayRules, state: &mut PlayState, e: &SetExposed) -> Outcome {
    let seat = e.seat;
    let Some((_, d)) = claimed_tile(state, seat) else {
        return Err(Inconsistent::NoSuchClaim {
            seat,
            claim: Some(e.claim),
            what: "expose",
        });
    };
    let set = match e.claim {
        ClaimKind::Chow => Set::chow(e.lowest).ok_or(Inconsistent::NoSuchChow(e.lowest))?,
        _ => Set::pung(e.lowest),
    };
    if !set.contains(d.placed) {
        return Err(Inconsistent::SetWithoutDiscard {
            seat,
            tile: d.placed,
        });
    }
    lay_down(state, seat, &other_tiles(set, d.placed))?;
    let mut v = Vec::new();
    let expected = state.turn.exposing();
    v.extend(out_of_turn(
        state,
        seat,
        expected,
        Breach::ExposedOutOfTurn,
        "exposed a set",
    ));
    let chows = state.seats[seat]
        .sets
        .iter()
        .filter(|s| s.set.kind() == crate::shape::SetKind::Chow)
        .count();
    if e.claim == ClaimKind::Chow && chows >= usize::from(rules.max_chows) {
        v.push(Irregularity::by(
            seat,
            Breach::ChowBeyondLimit {
                max: rules.max_chows,
            },
            format!(
                "{seat} exposed a chow beyond the {} the ruleset allows",
                rules.max_chows
            ),
        ));
    }
    state.seats[seat].claimed = None;
    state.seats[seat].sets.push(PlayedSet {
        set,
        formed: Formed::Claimed { from: d.seat },
    });
    state.turn = Turn::Discard(seat);
    Ok(v)
}

fn retracted(state: &mut PlayState, e: &ClaimRetracted) -> Outcome {
    let seat = e.seat;
    if let Some(w) = &mut state.window {
        if w.claims[seat].is_some() {
            w.claims[seat] = None;
            return Ok(Vec::new());
        }
    }
    // Granted and not yet exposed: the discard goes back to the table, dead "unless the
    // declarant should claim the discard for another purpose, or another player claim it for
    // any purpose" (§71): its claims open again, and close as any discard's do.
    if let Turn::Expose { seat: s, .. } = state.turn {
        if s == seat {
            if let Some((i, d)) = claimed_tile(state, seat) {
                state.discards[i].claimed_by = None;
                state.seats[seat].claimed = None;
                state.turn = Turn::Draw(d.seat.next());
                state.window = Some(Window {
                    discard: i,
                    claims: BySeat::from_fn(|_| None),
                    passed: BySeat::from_fn(|_| false),
                });
                return Ok(Vec::new());
            }
        }
    }
    Err(Inconsistent::NoSuchClaim {
        seat,
        claim: Some(e.claim),
        what: "retract",
    })
}

fn kong(rules: &PlayRules, state: &mut PlayState, e: &KongDeclared) -> Outcome {
    let seat = e.seat;
    let t = e.tile;
    let mut v = Vec::new();
    match e.kind {
        KongKind::Concealed => {
            lay_down(state, seat, &[t; 4])?;
            // §33: a dealt kong may be declared by any seat before play starts.
            let expected = if state.discards.is_empty() {
                Some(seat)
            } else {
                state.turn.discarding()
            };
            v.extend(out_of_turn(
                state,
                seat,
                expected,
                Breach::KongOutOfTurn(KongKind::Concealed),
                "declared a concealed kong",
            ));
            state.seats[seat].sets.push(PlayedSet {
                set: Set::kong(t),
                formed: Formed::ConcealedKong,
            });
            state.turn = if rules.kong_robbing == KongRobbing::AddedOrWonders {
                // §58: open to robbing for the Thirteen Unique Wonders until the loose tile.
                Turn::Robbable { seat, tile: t }
            } else {
                Turn::Replace {
                    seat,
                    loose: true,
                    then: Box::new(Turn::Discard(seat)),
                }
            };
        }
        KongKind::AddedToExposedPung => {
            let Some(i) = state.seats[seat]
                .sets
                .iter()
                .position(|s| s.set == Set::pung(t) && matches!(s.formed, Formed::Claimed { .. }))
            else {
                return Err(Inconsistent::NoExposedPung { seat, tile: t });
            };
            lay_down(state, seat, &[t])?;
            let expected = state.turn.discarding();
            v.extend(out_of_turn(
                state,
                seat,
                expected,
                Breach::KongOutOfTurn(KongKind::AddedToExposedPung),
                "added a tile to an exposed pung",
            ));
            let Formed::Claimed { from } = state.seats[seat].sets[i].formed else {
                return Err(Inconsistent::NoExposedPung { seat, tile: t });
            };
            state.seats[seat].sets[i] = PlayedSet {
                set: Set::kong(t),
                formed: Formed::AddedKong { from },
            };
            // §57–59: open to robbing in this turn, until the loose tile is drawn.
            state.turn = Turn::Robbable { seat, tile: t };
        }
        KongKind::AnnexedDiscard => {
            let Some((_, d)) = claimed_tile(state, seat).filter(|(_, d)| d.placed == t) else {
                return Err(Inconsistent::NoSuchClaim {
                    seat,
                    claim: Some(ClaimKind::Kong),
                    what: "annex a discard with",
                });
            };
            lay_down(state, seat, &[t; 3])?;
            let expected = state.turn.exposing();
            v.extend(out_of_turn(
                state,
                seat,
                expected,
                Breach::KongOutOfTurn(KongKind::AnnexedDiscard),
                "annexed a discard to a pung",
            ));
            state.seats[seat].claimed = None;
            state.seats[seat].sets.push(PlayedSet {
                set: Set::kong(t),
                formed: Formed::AnnexedKong { from: d.seat },
            });
            let then = Box::new(Turn::Discard(seat));
            state.turn = Turn::Replace {
                seat,
                loose: true,
                then,
            };
        }
    }
    Ok(v)
}

fn robbed(rules: &PlayRules, state: &mut PlayState, e: &KongRobbed) -> Outcome {
    let Turn::Robbable { seat, tile } = state.turn else {
        return Err(Inconsistent::NoKongToRob {
            from: e.from,
            tile: e.tile,
        });
    };
    if seat != e.from || tile != e.tile {
        return Err(Inconsistent::NoKongToRob {
            from: e.from,
            tile: e.tile,
        });
    }
    let mut v = Vec::new();
    let Some(k) = state.seats[seat]
        .sets
        .iter()
        .position(|s| s.set == Set::kong(tile))
    else {
        return Err(Inconsistent::NoKongToRob {
            from: e.from,
            tile: e.tile,
        });
    };
    match state.seats[seat].sets[k].formed {
        // §57: the kong goes back to a pung; the fourth tile is the robber's, as a discard is.
        Formed::AddedKong { from } => {
            state.seats[seat].sets[k] = PlayedSet {
                set: Set::pung(tile),
                formed: Formed::Claimed { from },
            };
            if rules.kong_robbing == KongRobbing::None {
                v.push(Irregularity::by(
                    e.robber,
                    Breach::KongRobbedUnderRuleset { from: seat },
                    format!(
                        "{} robbed {seat}'s kong of {tile}: this book has no robbing of a kong",
                        e.robber
                    ),
                ));
            }
        }
        // §58: a concealed kong goes back into the hand as three tiles, the fourth the robber's.
        _ => {
            state.seats[seat].sets.remove(k);
            for _ in 0..3 {
                state.seats[seat].concealed.add(tile)?;
            }
            let wonders = match &state.seats[e.robber].concealed {
                Concealed::Known(c) => c.with(tile).map(|all| {
                    crate::shape::SpecialShape::ThirteenUniqueWonders.is_complete(&all, tile)
                }),
                Concealed::Counted(_) => None,
            };
            if rules.kong_robbing != KongRobbing::AddedOrWonders || wonders == Some(false) {
                v.push(Irregularity::by(
                    e.robber,
                    Breach::ConcealedKongRobbed { from: seat },
                    format!(
                        "{} robbed {seat}'s concealed kong of {tile}: a concealed kong may be robbed only to complete the Thirteen Unique Wonders",
                        e.robber
                    ),
                ));
            }
        }
    }
    state.robbed_from = Some(seat);
    let index = state.discards.len();
    state.discards.push(Discard {
        seat,
        placed: tile,
        named: tile,
        claimed_by: Some(e.robber),
        together: false,
    });
    state.seats[seat].discards.push(index);
    state.seats[e.robber].claimed = Some(tile);
    state.turn = Turn::Expose {
        seat: e.robber,
        claim: ClaimKind::MahJongg,
    };
    Ok(v)
}

fn mahjongg(_rules: &PlayRules, state: &mut PlayState, e: &MahJonggDeclared) -> Outcome {
    let seat = e.seat;
    let mut v = Vec::new();
    let (from, discarder) = if e.self_drawn {
        if !state.seats[seat].concealed.holds(e.winning_tile, 1) {
            return Err(Inconsistent::NotHeld {
                seat,
                tile: AnyTile::Playing(e.winning_tile),
            });
        }
        let expected = state.turn.discarding();
        v.extend(out_of_turn(
            state,
            seat,
            expected,
            Breach::MahJonggOutOfTurn,
            "went Mah-Jongg on its own draw",
        ));
        let from = if state.last_draw.is_some_and(|d| d.seat == seat && d.loose) {
            WinFrom::LooseTile
        } else {
            WinFrom::Wall
        };
        (from, None)
    } else {
        let Some((_, d)) = claimed_tile(state, seat).filter(|(_, d)| d.placed == e.winning_tile)
        else {
            return Err(Inconsistent::NoSuchClaim {
                seat,
                claim: Some(ClaimKind::MahJongg),
                what: "go Mah-Jongg with",
            });
        };
        // The discard completes the hand: it joins the tiles laid down.
        state.seats[seat].concealed.add(d.placed)?;
        state.seats[seat].claimed = None;
        if !matches!(state.turn, Turn::Expose { seat: s, claim: ClaimKind::MahJongg } if s == seat)
        {
            v.push(Irregularity::by(
                seat,
                Breach::MahJonggOnUnclaimedDiscard,
                format!("{seat} went Mah-Jongg on a discard it had not claimed for Mah-Jongg"),
            ));
        }
        let from = if state.robbed_from.take() == Some(d.seat) {
            WinFrom::RobbedKong
        } else {
            WinFrom::Discard
        };
        (from, Some(d.seat))
    };
    let east = state.east;
    let circumstances = Circumstances {
        last_tile: state.wall.live == 0,
        // §122(f): two kongs in this turn, and the win on the second one's loose tile.
        kong_upon_kong: from == WinFrom::LooseTile
            && state
                .kongs_in_turn
                .is_some_and(|(s, n)| s == seat && n >= 2),
        original_call: state.seats[seat].original_call,
        // §122(a): East's dealt hand (with its replacements) complete, before any discard.
        heavens_blessing: e.self_drawn && seat == east && state.discards.is_empty(),
        // §122(b): another seat out on East's first discard, the first of the hand.
        earths_blessing: from == WinFrom::Discard
            && seat != east
            && discarder == Some(east)
            && state.discards.len() == 1,
    };
    state.turn = Turn::Over(Ending::MahJongg {
        seat,
        tile: e.winning_tile,
        from,
        discarder,
        circumstances,
    });
    state.window = None;
    Ok(v)
}

/// A seat lays its hand down after the hand (§104): the same tiles, sets and bonus tiles it
/// holds, grouped as it scores them (§105).
fn laid_down(state: &mut PlayState, e: &HandExposed) -> Outcome {
    let seat = e.seat;
    if !matches!(state.turn, Turn::Over(_)) {
        return Err(Inconsistent::LaidDownEarly { seat });
    }
    let Some(held) = state.hand_of(seat) else {
        // Its tiles were never seen: the hand laid down shows them, if it holds as many.
        let s = &state.seats[seat];
        let shown = e.hand.concealed().len() as u32 + u32::from(e.hand.winning().is_some());
        if shown != s.concealed.len() || e.hand.melds().len() != s.sets.len() {
            return Err(Inconsistent::LaidDownMismatch {
                seat,
                why: format!(
                    "it holds {} concealed tiles and {} sets, the hand laid down {shown} and {}",
                    s.concealed.len(),
                    s.sets.len(),
                    e.hand.melds().len()
                ),
            });
        }
        state.laid_down[seat] = Some(e.hand.clone());
        return Ok(Vec::new());
    };
    // The same tiles, sets and bonus tiles, in whatever order they are written.
    fn same_items<T: PartialEq + Copy>(a: &[T], b: &[T]) -> bool {
        let mut left: Vec<T> = b.to_vec();
        a.len() == b.len()
            && a.iter().all(|x| match left.iter().position(|y| y == x) {
                Some(i) => {
                    left.swap_remove(i);
                    true
                }
                None => false,
            })
    }
    let same = |a: &crate::hand::Hand, b: &crate::hand::Hand| {
        a.concealed() == b.concealed()
            && a.winning() == b.winning()
            && same_items(a.melds(), b.melds())
            && same_items(a.bonus(), b.bonus())
    };
    if !same(&e.hand, &held) {
        return Err(Inconsistent::LaidDownMismatch {
            seat,
            why: format!("it holds {held}, not {}", e.hand.ungrouped()),
        });
    }
    state.laid_down[seat] = Some(e.hand.clone());
    Ok(Vec::new())
}

/// A player states his own count of his hand after the Mah-Jongg (§107, §110), of the hand he
/// laid down, arranged as he scores it (§104–105), or of the hand as it lies.
/// Whether it is right is the adjudication's ([`crate::adjudicate::own_count`]).
fn score_claimed(state: &mut PlayState, e: &ScoreClaimed) -> Outcome {
    if !matches!(state.turn, Turn::Over(_)) {
        return Err(Inconsistent::ScoreClaim {
            seat: e.seat,
            why: "before the hand was over (Code §107: the hands are scored after the Mah-Jongg)",
        });
    }
    if e.points < 0 {
        return Err(Inconsistent::ScoreClaim {
            seat: e.seat,
            why: "below nothing: a hand scores 0 or more",
        });
    }
    if state.laid_down[e.seat].is_none() && state.hand_of(e.seat).is_none() {
        return Err(Inconsistent::ScoreClaim {
            seat: e.seat,
            why: "for a hand not laid down (Code §104: the hand is laid down, arranged as it is scored, then counted; a long hand claims no score, §89(c))",
        });
    }
    Ok(Vec::new())
}

fn wash_out(state: &mut PlayState, e: &WashOut) -> Outcome {
    let mut v = Vec::new();
    if state.wall.live > 0 {
        v.push(Irregularity::new(
            Breach::EarlyWashOut {
                left: state.wall.live,
            },
            None,
            format!(
                "the hand was abandoned ({}) with {} tiles left in the live wall",
                e.reason, state.wall.live
            ),
        ));
    }
    state.turn = Turn::Over(Ending::WashOut);
    state.window = None;
    Ok(v)
}
