//! The scorer's page (`/tables/<table>/play`): the hand in play at a table as an official sees
//! it, and what may be recorded next as buttons, each carrying its act in the position
//! notation (`S:discard 5p`).
//!
//! The buttons are the referee's ([`PlayState::possible_moves`]): a seat's legal moves, and for
//! a seat whose tiles are only counted whatever its unseen tiles might allow; the engine rules
//! on the act once it is posted. Irregular play is posted as an act written out ("something
//! else happened"), and applied and flagged as the play's own rules say.

use ledger::Ledger;
use referee::adjudicate::Replay;
use referee::event::{describe, ClaimKind};
use referee::play::{Move, Pick};
use referee::position::Act;
use referee::{AnyTile, Seat, Tile};
use serde::Serialize;

use super::play::{PlayView, Shown, StoredPlay};
use super::seat_title;
use super::table::{heading, TableHeading};
use super::tiles::{bonus_glyph, tile_glyph, Glyph};
use crate::app::error::AppError;
use crate::app::table::TableContext;

/// One button: the act it records, in words and, where a tile is the point, as the tile.
#[derive(Clone, Debug, Serialize)]
pub struct MoveButton {
    /// The act in the position notation, posted as it is.
    pub act: String,
    pub label: String,
    pub tile: Option<Glyph>,
    /// The key that presses it on a desktop keyboard (`c`, `p`, `k`, `m` for the claims).
    pub key: Option<char>,
}

/// A move whose tile the scorer picks from the picker.
#[derive(Clone, Debug, Serialize)]
pub struct PickVerb {
    /// The act's verb and words before the tile (`discard`, `kong concealed`, `mahjongg self`).
    pub verb: &'static str,
    pub label: &'static str,
}

/// One seat's buttons.
#[derive(Clone, Debug, Serialize)]
pub struct SeatActions {
    pub seat: &'static str,
    pub letter: char,
    pub player: String,
    /// Discards of a known hand: one tap on the tile.
    pub discards: Vec<MoveButton>,
    pub buttons: Vec<MoveButton>,
    /// Moves needing a tile picked (a seat whose tiles are counted): the first is the default.
    pub picks: Vec<PickVerb>,
    /// The tiles its picker offers: the playing tiles for a discard, kong or Mah-Jongg, the
    /// bonus tiles for a declaration.
    pub pick_tiles: Vec<Glyph>,
}

/// An entry of the play, in words.
#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    pub n: usize,
    pub text: String,
}

/// The hand in play.
#[derive(Clone, Debug, Serialize)]
pub struct ScorerPlay {
    pub hand: String,
    pub v: PlayView,
    pub version: u64,
    pub seats: Vec<SeatActions>,
    /// Granting the live discard to the claim that takes precedence (§61), and a wash-out.
    pub table_buttons: Vec<MoveButton>,
    /// The last entries, the latest first; the first of them may be struck.
    pub recent: Vec<Entry>,
}

/// The scorer's page.
#[derive(Clone, Debug, Serialize)]
pub struct ScorerPage {
    pub t: TableHeading,
    pub play: Option<ScorerPlay>,
}

/// The hand's end being laid down: the act that ends it and each seat's hand as it lies, when
/// its tiles are known.
#[derive(Clone, Debug, Serialize)]
pub struct LayDown {
    pub table_number: u32,
    pub act: String,
    pub words: String,
    pub seats: Vec<LaidSeat>,
}

#[derive(Clone, Debug, Serialize)]
pub struct LaidSeat {
    pub seat: &'static str,
    pub field: &'static str,
    /// The form field of the player's own count.
    pub count_field: &'static str,
    pub player: String,
    /// The hand as it lies, in the hand notation (empty when its tiles are only counted).
    pub as_it_lies: String,
    /// Its tiles are counted: the scorer writes the hand laid down.
    pub counted: bool,
}

/// The form field of `seat`'s hand laid down.
pub fn laid_field(seat: Seat) -> &'static str {
    ["laid_east", "laid_south", "laid_west", "laid_north"][seat.index()]
}

fn tile_name(t: AnyTile) -> Glyph {
    match t {
        AnyTile::Playing(t) => tile_glyph(t),
        AnyTile::Bonus(b) => bonus_glyph(b),
    }
}

/// What a move's button says and shows.
fn button(seat: Seat, m: Move, names: &dyn Fn(Seat) -> String) -> Option<MoveButton> {
    let act = Act::of(&m.event(seat)?)?;
    let claim = |k: ClaimKind| match k {
        ClaimKind::Chow => ("Chow", 'c'),
        ClaimKind::Pung => ("Pung", 'p'),
        ClaimKind::Kong => ("Kong", 'k'),
        ClaimKind::MahJongg => ("Mah-Jongg", 'm'),
    };
    let (label, tile, key) = match m {
        Move::Draw(None) => ("Draw".to_owned(), None, Some('d')),
        Move::Draw(Some(t)) => (format!("Draw {t}"), Some(tile_name(t)), Some('d')),
        Move::DrawLoose(None) => ("Draw the loose tile".to_owned(), None, Some('l')),
        Move::DrawLoose(Some(t)) => (format!("Loose tile {t}"), Some(tile_name(t)), Some('l')),
        Move::DeclareBonus(b) => (format!("Declare {b}"), Some(bonus_glyph(b)), None),
        Move::Discard(t) => (format!("Discard {t}"), Some(tile_glyph(t)), None),
        Move::DiscardUnseen => return None,
        Move::ConcealedKong(t) => (format!("Concealed kong of {t}"), Some(tile_glyph(t)), None),
        Move::AddToPung(t) => (format!("Add {t} to the pung"), Some(tile_glyph(t)), None),
        Move::SelfDrawnMahJongg(t) => (
            format!("Mah-Jongg on the {t} drawn"),
            Some(tile_glyph(t)),
            Some('m'),
        ),
        Move::Claim(k, _) => {
            let (word, key) = claim(k);
            (word.to_owned(), None, Some(key))
        }
        Move::Pass => ("Pass".to_owned(), None, None),
        Move::Grant(to, k) => (
            format!(
                "Grant the discard to {} ({})",
                names(to),
                claim(k).0.to_lowercase()
            ),
            None,
            Some('g'),
        ),
        Move::Expose(ClaimKind::Chow, low) => {
            let run: Vec<String> = (0..3)
                .filter_map(|i| Tile::suited(low.suit()?, low.rank()? + i).map(|t| t.to_string()))
                .collect();
            (format!("Lay down the chow {}", run.join(" ")), None, None)
        }
        Move::Expose(k, t) => (
            format!("Lay down the {} of {t}", claim(k).0.to_lowercase()),
            None,
            Some('x'),
        ),
        Move::AnnexKong(t) => (format!("Lay down the kong of {t}"), None, Some('x')),
        Move::MahJonggOnDiscard(t) => (format!("Mah-Jongg with {t}"), None, Some('m')),
        Move::RobKong { from, tile } => (
            format!("Rob {}'s kong of {tile}", names(from)),
            Some(tile_glyph(tile)),
            None,
        ),
        Move::WashOut => ("Wash-out (the wall is exhausted)".to_owned(), None, None),
    };
    Some(MoveButton {
        act: act.to_string(),
        label,
        tile,
        key,
    })
}

fn pick_verb(p: Pick) -> PickVerb {
    match p {
        Pick::Discard => PickVerb {
            verb: "discard",
            label: "Discard",
        },
        Pick::ConcealedKong => PickVerb {
            verb: "kong concealed",
            label: "Concealed kong",
        },
        Pick::SelfDrawnMahJongg => PickVerb {
            verb: "mahjongg self",
            label: "Mah-Jongg on the tile drawn",
        },
        Pick::Bonus => PickVerb {
            verb: "bonus",
            label: "Declare a bonus tile",
        },
    }
}

/// The tiles a picker offers for `picks`.
fn pick_tiles(picks: &[Pick]) -> Vec<Glyph> {
    let mut out = Vec::new();
    if picks.iter().any(|&p| p != Pick::Bonus) {
        out.extend(Tile::ALL.into_iter().map(tile_glyph));
    }
    if picks.contains(&Pick::Bonus) {
        out.extend(referee::Bonus::ALL.into_iter().map(bonus_glyph));
    }
    out
}

/// The scorer's buttons for the hand at `replay`.
fn actions(replay: &Replay, names: &dyn Fn(Seat) -> String) -> (Vec<SeatActions>, Vec<MoveButton>) {
    let state = replay.state();
    let mut table = Vec::new();
    let seats = Seat::ALL
        .iter()
        .map(|&seat| {
            let possible = state.possible_moves(seat);
            let mut discards = Vec::new();
            let mut buttons = Vec::new();
            for m in possible.moves {
                let Some(b) = button(seat, m, names) else {
                    continue;
                };
                match m {
                    Move::Discard(_) => discards.push(b),
                    // Granted by anyone: once, for the table.
                    Move::Grant(..) | Move::WashOut => {
                        if !table.iter().any(|t: &MoveButton| t.act == b.act) {
                            table.push(b);
                        }
                    }
                    _ => buttons.push(b),
                }
            }
            SeatActions {
                seat: seat_title(seat),
                letter: seat.letter(),
                player: names(seat),
                discards,
                buttons,
                pick_tiles: pick_tiles(&possible.picks),
                picks: possible.picks.into_iter().map(pick_verb).collect(),
            }
        })
        .collect();
    (seats, table)
}

/// The names of the players in each seat, from the table's heading.
fn namer(t: &TableHeading) -> impl Fn(Seat) -> String + '_ {
    move |seat: Seat| {
        t.seats
            .get(seat.index())
            .map(|s| s.name.clone())
            .unwrap_or_else(|| seat_title(seat).to_owned())
    }
}

/// The scorer's page of the table `ctx` holds (kept folded by the writes): its hand in play
/// replayed once.
pub fn page_in(ledger: &Ledger, ctx: &TableContext) -> Result<ScorerPage, AppError> {
    let t = heading(ledger, ctx)?;
    if ctx.state.in_play().is_none() {
        return Ok(ScorerPage { t, play: None });
    }
    let hand = ctx.next_hand_id();
    let stored = StoredPlay::load_in(ledger, &hand, ctx)?
        .ok_or_else(|| AppError::internal(format!("hand `{hand}` is in play but has no play")))?;
    let (at, replayed) = stored.replayed_at(None)?;
    let (seats, table_buttons) = actions(&replayed.replay, &namer(&t));
    let recent = stored
        .described()
        .into_iter()
        .enumerate()
        .skip(1)
        .rev()
        .take(8)
        .map(|(n, text)| Entry { n, text })
        .collect();
    let play = ScorerPlay {
        version: stored.version,
        v: stored.view_of(at, replayed, Shown::All),
        hand,
        seats,
        table_buttons,
        recent,
    };
    Ok(ScorerPage {
        t,
        play: Some(play),
    })
}

/// The hands to lay down when `act` ends the hand in play at `table`: each seat's hand as it
/// will lie once the act is applied (its tiles known), for the scorer to arrange or write.
pub fn lay_down(ledger: &Ledger, table: &str, act: &Act) -> Result<LayDown, AppError> {
    let ctx = TableContext::load(ledger, table)?;
    let t = heading(ledger, &ctx)?;
    let Some((_, replay)) = ctx.state.in_play() else {
        return Err(AppError::conflict(
            "no hand is in play at this table: it ended or was never started",
        ));
    };
    let event = act.event();
    let mut after = replay.clone();
    after
        .apply(&event)
        .map_err(|e| AppError::unprocessable(format!("`{act}`: {}", e.kind)))?;
    let state = after.state();
    let names = namer(&t);
    Ok(LayDown {
        table_number: t.number,
        act: act.to_string(),
        words: describe(&event),
        seats: Seat::ALL
            .iter()
            .map(|&seat| {
                let hand = state.hand_of(seat);
                LaidSeat {
                    seat: seat_title(seat),
                    field: laid_field(seat),
                    count_field: ["count_east", "count_south", "count_west", "count_north"]
                        [seat.index()],
                    player: names(seat),
                    counted: hand.is_none(),
                    as_it_lies: hand.map(|h| h.to_string()).unwrap_or_default(),
                }
            })
            .collect(),
    })
}

/// The act of a tile picked: `verb` (one of [`Pick`]'s) of `tile` by `seat`.
pub fn picked_act(seat: Seat, verb: &str, tile: &str) -> Result<Act, AppError> {
    let known = ["discard", "kong concealed", "mahjongg self", "bonus"];
    if !known.contains(&verb) {
        return Err(AppError::bad_request(format!(
            "`{verb}` is not a move with a tile to pick (discard, kong concealed, mahjongg self, bonus)"
        )));
    }
    let text = format!("{}:{verb} {}", seat.letter(), tile.trim());
    text.parse::<Act>()
        .map_err(|e| AppError::unprocessable(format!("`{text}`: {e}")))
}

/// Whether `e` ends the play, so that the hands are laid down with it.
pub fn ends_play(act: &Act) -> bool {
    act.event().ends_play()
}
