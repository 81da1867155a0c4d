//! A hand recorded play by play, at one moment, as the play API answers it: the referee's own
//! view of the table (`referee::play::SeatView`, as the onlooker may see it) in data, not words
//! — tiles in the notation, seats and winds by name, the turn and each set's forming as
//! keywords, irregularities with their breach's kind and rule — so that a program (a table
//! tablet) reads it without parsing sentences.

use ledger::Event;
use referee::event::{ClaimKind, HandEvent};
use referee::play::{Applied, Ending, Formed, Irregularity, Onlooker, PlayState, SeenSeat, Turn};
use referee::{Bonus, Seat, Tile, Wind};
use serde::Serialize;

/// Whose move it is, and what it is.
#[derive(Clone, Debug, Serialize)]
pub struct TurnJson {
    /// `draw`, `discard`, `replace` (a loose tile or a bonus tile's replacement owed),
    /// `expose` (a granted discard's set to lay down), `robbable` (an added kong that may be
    /// robbed), `mah-jongg` or `wash-out` (the hand is over).
    pub stage: &'static str,
    /// The seat to move (the winner, once over on Mah-Jongg).
    pub seat: Option<Seat>,
    /// For `expose`: the claim the discard was granted for.
    pub claim: Option<ClaimKind>,
    /// For `robbable`: the tile added to the pung.
    pub tile: Option<Tile>,
}

impl TurnJson {
    fn of(turn: &Turn) -> TurnJson {
        let (stage, seat, claim, tile) = match turn {
            Turn::Draw(s) => ("draw", Some(*s), None, None),
            Turn::Discard(s) => ("discard", Some(*s), None, None),
            Turn::Replace { seat, .. } => ("replace", Some(*seat), None, None),
            Turn::Expose { seat, claim } => ("expose", Some(*seat), Some(*claim), None),
            Turn::Robbable { seat, tile } => ("robbable", Some(*seat), None, Some(*tile)),
            Turn::Over(Ending::MahJongg { seat, .. }) => ("mah-jongg", Some(*seat), None, None),
            Turn::Over(Ending::WashOut) => ("wash-out", None, None, None),
        };
        TurnJson {
            stage,
            seat,
            claim,
            tile,
        }
    }
}

/// The live discard.
#[derive(Clone, Debug, Serialize)]
pub struct LiveDiscardJson {
    pub seat: Seat,
    pub placed: Tile,
    /// The tile named with it (a different tile is a false naming, Code §84).
    pub named: Tile,
}

/// A seat's claim on the live discard, or its pass.
#[derive(Clone, Debug, Serialize)]
pub struct ClaimJson {
    pub seat: Seat,
    pub claim: Option<ClaimKind>,
    pub passed: bool,
}

/// A set on the table.
#[derive(Clone, Debug, Serialize)]
pub struct SetJson {
    pub tiles: Vec<Tile>,
    /// `claimed`, `annexed-kong`, `added-kong` or `concealed-kong`.
    pub formed: &'static str,
    /// The seat whose discard made it, if one did.
    pub from: Option<Seat>,
}

/// A discard, and whether it was claimed.
#[derive(Clone, Debug, Serialize)]
pub struct DiscardJson {
    pub tile: Tile,
    pub claimed: bool,
}

/// One seat, as the onlooker sees it.
#[derive(Clone, Debug, Serialize)]
pub struct PlaySeatJson {
    pub seat: Seat,
    /// The wind it holds this hand.
    pub wind: Wind,
    /// Its concealed tiles, when the onlooker sees them and the record knows them.
    pub concealed: Option<Vec<Tile>>,
    /// How many tiles are in the hand (concealed, and bonus tiles not yet declared).
    pub in_hand: u32,
    pub sets: Vec<SetJson>,
    pub bonus: Vec<Bonus>,
    pub discards: Vec<DiscardJson>,
    pub original_call: bool,
    /// It is this seat's move.
    pub to_move: bool,
}

/// A rule an event broke.
#[derive(Clone, Debug, Serialize)]
pub struct IrregularJson {
    /// The event (the hand's start is event 0).
    pub event: usize,
    /// The breach's kind, as `adjudicate --json` names it (`draw-out-of-turn` …).
    pub kind: &'static str,
    /// Where the rule is: `Code §73`.
    pub rule: &'static str,
    /// The seat whose act broke it.
    pub seat: Option<Seat>,
    /// What happened, in the referee's sentence.
    pub what: String,
}

impl IrregularJson {
    pub fn new(event: usize, i: &Irregularity) -> IrregularJson {
        IrregularJson {
            event,
            kind: i.breach.kind(),
            rule: i.rule,
            seat: i.seat,
            what: i.what.clone(),
        }
    }
}

/// The hand at one moment.
#[derive(Clone, Debug, Serialize)]
pub struct PlayJson {
    pub hand: String,
    /// The events folded in (the start is event 0): this is the state after event `at`.
    pub at: usize,
    /// The last event of the play in the record.
    pub last: usize,
    /// The hand stream's version (what a recorder sends back with its next event).
    pub version: u64,
    /// Event `at`, as the ledger writes it (`{"type": …, "data": …}`).
    pub event: Event,
    pub turn: TurnJson,
    pub over: bool,
    pub live_wall: u32,
    pub kong_box: u32,
    pub live_discard: Option<LiveDiscardJson>,
    pub claims: Vec<ClaimJson>,
    pub seats: Vec<PlaySeatJson>,
    /// Irregularities up to this moment.
    pub irregular: Vec<IrregularJson>,
    /// The event the replay could not apply, when the record holds one.
    pub refused: Option<String>,
}

/// What a hand at one moment is made of, for [`PlayJson::new`].
pub struct Moment<'a> {
    pub hand: &'a str,
    pub state: &'a PlayState,
    pub at: usize,
    pub last: usize,
    pub version: u64,
    pub event: HandEvent,
    pub irregular: Vec<IrregularJson>,
    pub refused: Option<String>,
}

fn set_json(p: &referee::play::PlayedSet) -> SetJson {
    let (formed, from) = match p.formed {
        Formed::Claimed { from } => ("claimed", Some(from)),
        Formed::AnnexedKong { from } => ("annexed-kong", Some(from)),
        Formed::AddedKong { from } => ("added-kong", Some(from)),
        Formed::ConcealedKong => ("concealed-kong", None),
    };
    SetJson {
        tiles: p.set.tiles().collect(),
        formed,
        from,
    }
}

fn seat_json(state: &PlayState, seat: Seat, seen: &SeenSeat) -> PlaySeatJson {
    let to_move = match &state.turn {
        Turn::Draw(s) | Turn::Discard(s) => *s == seat,
        Turn::Replace { seat: s, .. } | Turn::Expose { seat: s, .. } => *s == seat,
        Turn::Robbable { .. } | Turn::Over(_) => false,
    };
    PlaySeatJson {
        seat,
        wind: state.wind_of(seat),
        concealed: seen.concealed.map(|c| c.tiles().collect()),
        in_hand: seen.in_hand,
        sets: seen.sets.iter().map(set_json).collect(),
        bonus: seen.bonus.clone(),
        discards: seen
            .discards
            .iter()
            .map(|&(tile, claimed)| DiscardJson { tile, claimed })
            .collect(),
        original_call: state.seats[seat].original_call,
        to_move,
    }
}

impl PlayJson {
    /// The moment as `onlooker` may see it.
    pub fn new(m: Moment<'_>, onlooker: Onlooker) -> PlayJson {
        let state = m.state;
        let view = state.view_as(onlooker);
        let claims = match &state.window {
            None => Vec::new(),
            Some(w) => Seat::ALL
                .into_iter()
                .filter(|&s| w.claims[s].is_some() || w.passed[s])
                .map(|s| ClaimJson {
                    seat: s,
                    claim: w.claims[s],
                    passed: w.passed[s],
                })
                .collect(),
        };
        // A tile drawn is named only to whoever may see the drawer's tiles (Code §27).
        let unseen = |seat: Seat| view.seats[seat].concealed.is_none();
        let event = match m.event {
            HandEvent::TileDrawn(mut d) if unseen(d.seat) => {
                d.tile = None;
                HandEvent::TileDrawn(d)
            }
            HandEvent::LooseTileDrawn(mut d) if unseen(d.seat) => {
                d.tile = None;
                HandEvent::LooseTileDrawn(d)
            }
            e => e,
        };
        PlayJson {
            hand: m.hand.to_owned(),
            at: m.at,
            last: m.last,
            version: m.version,
            event: Event::from(event),
            turn: TurnJson::of(&state.turn),
            over: matches!(state.turn, Turn::Over(_)),
            live_wall: state.wall.live,
            kong_box: state.wall.kong_box,
            live_discard: state.live_discard().map(|d| LiveDiscardJson {
                seat: d.seat,
                placed: d.placed,
                named: d.named,
            }),
            claims,
            seats: Seat::ALL
                .into_iter()
                .map(|s| seat_json(state, s, &view.seats[s]))
                .collect(),
            irregular: m.irregular,
            refused: m.refused,
        }
    }
}

/// The irregularities `applied` found at event `at`.
pub fn irregular_at(at: usize, applied: &Applied) -> Vec<IrregularJson> {
    match applied {
        Applied::Legal => Vec::new(),
        Applied::Irregular(found) => found.iter().map(|i| IrregularJson::new(at, i)).collect(),
    }
}
