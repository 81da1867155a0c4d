//! Reading an mj-server hand history (`hand-NN.mjs`) as a hand recorded play by play.
//!
//! J. C. Bradfield's `mj-server` (Debian `mah-jong`) referees the Code of Laws and writes every
//! hand that ends in Mah-Jong as a `.mjs` file: the players, the game options, the whole wall,
//! then every protocol message of the hand (`../shared/mj-server.md` in the workspace describes
//! it). This module turns that text into our vocabulary: a [`HandStarted`] with the wall, and
//! the [`HandEvent`]s of the play, each with the line it came from. Reading is pure: the caller
//! reads the file.
//!
//! Players are numbered 1–4 by the server in the order they joined, and player 1 is the first
//! East; they are mapped to the seats as drawn in that order (player 1 the East seat, 2 South,
//! 3 West, 4 North). Who is East in the hand is `NewHand`'s first number.
//!
//! What the server writes after Mah-Jong (how each player grouped its tiles, `HandScore`,
//! `Settlement`) is kept as it is written, for the comparison of scores.

mod log;

pub use log::read_log;

use std::collections::BTreeMap;
use std::fmt;

use crate::by_seat::BySeat;
use crate::event::{
    BonusTileDeclared, ClaimGranted, ClaimKind, ClaimMade, ClaimPassed, Deal, DealOrder, HandEvent,
    HandExposed, HandStarted, KongDeclared, KongKind, KongRobbed, LooseTileDrawn, MahJonggDeclared,
    NoChoicePleaded, OriginalCallAnnounced, SetExposed, TileDiscarded, TileDrawn, WashOut,
};
use crate::hand::ConcealedGroup;
use crate::ids::TableId;
use crate::seat::Seat;
use crate::shape::Set;
use crate::tile::{AnyTile, Bonus, Dragon, Suit, Tile, Wind};

/// A problem reading an `.mjs` file, with its line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {what}")]
pub struct MjsError {
    /// 1-based line of the file.
    pub line: usize,
    pub what: String,
}

/// One hand read from an `.mjs` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MjsHand {
    /// Player names by id (1–4).
    pub players: BTreeMap<u8, String>,
    /// `GameOption` values by name, as written.
    pub options: BTreeMap<String, String>,
    pub started: HandStarted,
    /// The play, each event with its line in the file.
    pub events: Vec<(usize, HandEvent)>,
    /// What each seat laid down after Mah-Jong, message by message (`PlayerFormsClosedPung 2 5D`).
    pub laid_down: Vec<(Seat, String)>,
    /// `HandScore` per seat: the score and the server's explanation.
    pub scores: Vec<(Seat, i64, String)>,
    /// `Settlement`: each wind's change (East first), and the explanation.
    pub settlement: Option<([i64; 4], String)>,
    /// The server's `DangerousDiscard` rulings (a cannon, Code §90–96).
    pub dangerous: Vec<ServerCannon>,
}

impl MjsHand {
    /// The seat player `id` sits in.
    pub fn seat_of(id: u8) -> Option<Seat> {
        (1..=4)
            .contains(&id)
            .then(|| Seat::from_index(usize::from(id - 1)))
    }
}

/// The tile an mj-server code names: `5D`, `EW`, `RD`, `2F`, `3S`.
pub fn tile_code(code: &str) -> Option<AnyTile> {
    let b = code.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let (x, y) = (b[0], b[1]);
    let wind = |c: u8| match c {
        b'E' => Some(Wind::East),
        b'S' => Some(Wind::South),
        b'W' => Some(Wind::West),
        b'N' => Some(Wind::North),
        _ => None,
    };
    let number = (b'1'..=b'9').contains(&x).then(|| x - b'0');
    Some(match (number, y) {
        (Some(n), b'C') => AnyTile::Playing(Tile::suited(Suit::Characters, n)?),
        (Some(n), b'D') => AnyTile::Playing(Tile::suited(Suit::Circles, n)?),
        (Some(n), b'B') => AnyTile::Playing(Tile::suited(Suit::Bamboo, n)?),
        (Some(n @ 1..=4), b'F') => AnyTile::Bonus(Bonus::Flower(Wind::ALL[usize::from(n - 1)])),
        (Some(n @ 1..=4), b'S') => AnyTile::Bonus(Bonus::Season(Wind::ALL[usize::from(n - 1)])),
        (None, b'W') => AnyTile::Playing(Tile::wind(wind(x)?)),
        (None, b'D') => AnyTile::Playing(Tile::dragon(match x {
            b'R' => Dragon::Red,
            b'G' => Dragon::Green,
            b'W' => Dragon::White,
            _ => return None,
        })),
        _ => return None,
    })
}

/// The records of the file: CRLF ends a record, a bare LF stays inside it (a `HandScore`'s
/// text), a line ending in `\` continues on the next. Each with its first line number.
fn records(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut start = 1;
    let mut line = 1;
    for piece in text.split("\r\n") {
        let continued = piece.ends_with('\\');
        current.push_str(piece.strip_suffix('\\').unwrap_or(piece));
        let lines_here = 1 + piece.matches('\n').count();
        if !continued {
            if !current.trim().is_empty() {
                out.push((start, std::mem::take(&mut current)));
            }
            current.clear();
            start = line + lines_here;
        }
        line += lines_here;
    }
    if !current.trim().is_empty() {
        out.push((start, current));
    }
    out
}

struct Reader {
    line: usize,
}

impl Reader {
    fn err(&self, what: impl fmt::Display) -> MjsError {
        MjsError {
            line: self.line,
            what: what.to_string(),
        }
    }

    fn seat(&self, word: Option<&str>) -> Result<Seat, MjsError> {
        let word = word.ok_or_else(|| self.err("a player id is missing"))?;
        word.parse::<u8>()
            .ok()
            .and_then(MjsHand::seat_of)
            .ok_or_else(|| self.err(format!("`{word}` is not a player id 1–4")))
    }

    fn any_tile(&self, word: Option<&str>) -> Result<AnyTile, MjsError> {
        let word = word.ok_or_else(|| self.err("a tile is missing"))?;
        tile_code(word).ok_or_else(|| self.err(format!("`{word}` is not a tile code")))
    }

    fn tile(&self, word: Option<&str>) -> Result<Tile, MjsError> {
        match self.any_tile(word)? {
            AnyTile::Playing(t) => Ok(t),
            AnyTile::Bonus(b) => {
                Err(self.err(format!("`{b}` is a bonus tile, not a playing tile")))
            }
        }
    }

    fn number(&self, word: Option<&str>) -> Result<u32, MjsError> {
        let word = word.ok_or_else(|| self.err("a number is missing"))?;
        word.parse()
            .map_err(|_| self.err(format!("`{word}` is not a number")))
    }
}

/// What a discard or kong serial number refers to.
#[derive(Clone, Copy)]
enum Serial {
    Discard { tile: Tile, event: usize },
    Kong { event: usize },
}

impl Serial {
    /// The event (the start is event 0) that made the discard or kong.
    fn event(self) -> usize {
        match self {
            Serial::Discard { event, .. } | Serial::Kong { event } => event,
        }
    }
}

/// The server's ruling that a discard (or a tile added to a kong) let off a cannon (Code
/// §90–96): `DangerousDiscard discarder serial nochoice`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerCannon {
    /// The line of the ruling.
    pub line: usize,
    pub discarder: Seat,
    /// The event that made the discard or kong its serial names (the start is event 0).
    pub event: usize,
    /// The server excused the discarder: No Choice (§95).
    pub no_choice: bool,
}

/// Reads one `.mjs` hand history as table `table`'s hand `hand` of game `game`.
pub fn read(text: &str, table: TableId, game: u32, hand: u32) -> Result<MjsHand, MjsError> {
    let mut r = Reader { line: 0 };
    let mut players = BTreeMap::new();
    let mut options = BTreeMap::new();
    let mut wall: Option<Vec<AnyTile>> = None;
    let mut wall_known = false;
    let mut prevailing = Wind::East;
    let mut started: Option<HandStarted> = None;
    // The deal: who takes each of the first 53 `PlayerDraws`, and the tile when the wall
    // gives it.
    let mut deal: Vec<(Seat, Option<AnyTile>)> = Vec::new();
    let mut dealt = 0usize;
    let records = records(text);
    // An event is large (a few hundred bytes): the vector is sized once, not grown by copying.
    let mut events: Vec<(usize, HandEvent)> = Vec::with_capacity(records.len());
    let mut serials: BTreeMap<u32, Serial> = BTreeMap::new();
    let mut last_added_kong: Option<Seat> = None;
    let mut laid_down = Vec::new();
    // Each seat's laid-down groups, with the line of its first laying-down message and the
    // group a winning discard was placed in.
    let mut groups: BySeat<Option<LaidGroups>> = BySeat::from_fn(|_| None);
    let mut scores = Vec::new();
    let mut settlement = None;
    let mut dangerous = Vec::new();
    let mut mahjong_seat: Option<Seat> = None;
    // Who claimed the last discard for Mah-Jong: two may (the server then grants the nearer).
    let mut claimed_mahjong: Vec<Seat> = Vec::new();
    let mut last_discard: Option<Tile> = None;
    for (line, record) in records {
        r.line = line;
        let mut words = record.split_ascii_whitespace();
        let Some(kind) = words.next() else { continue };
        // The event the next push makes (the start is event 0).
        let next_event = events.len() + 1;
        let mut push = |e: HandEvent| events.push((line, e));
        match kind {
            "Player" => {
                let id = r.number(words.next())? as u8;
                players.insert(id, words.collect::<Vec<_>>().join(" "));
            }
            "GameOption" => {
                let _ = words.next();
                let name = words
                    .next()
                    .ok_or_else(|| r.err("a game option without a name"))?;
                let _type = words.next();
                let _minprot = words.next();
                let _enabled = words.next();
                let value = words.next().unwrap_or_default();
                options.insert(name.to_owned(), value.to_owned());
            }
            "Wall" => {
                let tiles = words
                    .map(|w| r.any_tile(Some(w)))
                    .collect::<Result<Vec<_>, _>>()?;
                wall = Some(tiles);
            }
            "NewRound" => {
                let w = words.next().unwrap_or_default();
                prevailing = match w {
                    "E" | "EW" => Wind::East,
                    "S" | "SW" => Wind::South,
                    "W" | "WW" => Wind::West,
                    "N" | "NW" => Wind::North,
                    _ => return Err(r.err(format!("`{w}` is not a wind"))),
                };
            }
            "Game" => {
                // `Game id1 id2 id3 id4 Wind …`: the round's wind is the fifth word.
                if let Some(w) = words.nth(4) {
                    if let Some(AnyTile::Playing(t)) = tile_code(&format!("{w}W")) {
                        prevailing = Wind::ALL
                            .into_iter()
                            .find(|&x| Tile::wind(x) == t)
                            .unwrap_or(prevailing);
                    }
                }
            }
            "NewHand" => {
                let east = r.seat(words.next())?;
                // With the wall (an `.mjs`), the deal is checked against it; without (a
                // `server.log`), the first 53 draws are the deal.
                let deal_to =
                    DealOrder::FourFourFourOne
                        .takes()
                        .iter()
                        .flat_map(|&(from_east, n)| {
                            std::iter::repeat_n(Seat::from_index((east.index() + from_east) % 4), n)
                        });
                let (deal_known, known) = match wall.clone() {
                    Some(tiles) => {
                        let mut next = tiles.iter();
                        deal = deal_to
                            .filter_map(|seat| next.next().map(|&t| (seat, Some(t))))
                            .collect();
                        (
                            Deal::Wall {
                                tiles,
                                order: DealOrder::FourFourFourOne,
                            },
                            true,
                        )
                    }
                    None => {
                        deal = deal_to.map(|seat| (seat, None)).collect();
                        (
                            Deal::Hands {
                                hands: BySeat::default(),
                            },
                            false,
                        )
                    }
                };
                wall_known = known;
                started = Some(HandStarted {
                    table: table.clone(),
                    game,
                    hand,
                    east,
                    prevailing_wind: prevailing,
                    dice: Vec::new(),
                    deal: deal_known,
                });
            }
            _ if started.is_none() => {}
            "PlayerDraws" if dealt < deal.len() => {
                let seat = r.seat(words.next())?;
                let tile = r.any_tile(words.next())?;
                match deal[dealt] {
                    (s, Some(t)) if (s, t) != (seat, tile) => {
                        return Err(r.err(format!(
                            "dealt tile {} is `{tile}` to {seat}, but the wall deals `{t}` to {s}",
                            dealt + 1
                        )))
                    }
                    (s, None) if s != seat => {
                        return Err(r.err(format!(
                            "dealt tile {} goes to {seat}, but the deal gives it to {s}",
                            dealt + 1
                        )))
                    }
                    _ => {}
                }
                if !wall_known {
                    if let Some(HandStarted {
                        deal: Deal::Hands { hands },
                        ..
                    }) = &mut started
                    {
                        hands[seat].push(tile);
                    }
                }
                dealt += 1;
            }
            "PlayerDraws" | "PlayerDrawsLoose" => {
                let seat = r.seat(words.next())?;
                let tile = Some(r.any_tile(words.next())?);
                push(if kind == "PlayerDraws" {
                    HandEvent::TileDrawn(TileDrawn { seat, tile })
                } else {
                    HandEvent::LooseTileDrawn(LooseTileDrawn { seat, tile })
                });
            }
            "PlayerDeclaresSpecial" => {
                let seat = r.seat(words.next())?;
                match words.next() {
                    Some("--") | None => {}
                    w => match r.any_tile(w)? {
                        AnyTile::Bonus(tile) => {
                            push(HandEvent::BonusTileDeclared(BonusTileDeclared {
                                seat,
                                tile,
                            }))
                        }
                        AnyTile::Playing(t) => {
                            return Err(r.err(format!("`{t}` declared as a bonus tile")))
                        }
                    },
                }
            }
            "PlayerDiscards" => {
                let seat = r.seat(words.next())?;
                let tile = r.tile(words.next())?;
                let serial = r.number(words.next())?;
                let calling = words.next() == Some("1");
                claimed_mahjong.clear();
                serials.insert(
                    serial,
                    Serial::Discard {
                        tile,
                        event: next_event,
                    },
                );
                last_discard = Some(tile);
                push(HandEvent::TileDiscarded(TileDiscarded {
                    seat,
                    placed: tile,
                    named: tile,
                }));
                if calling {
                    push(HandEvent::OriginalCallAnnounced(OriginalCallAnnounced {
                        seat,
                    }));
                }
            }
            "PlayerClaimsChow"
            | "PlayerClaimsPung"
            | "PlayerClaimsKong"
            | "PlayerClaimsMahJong" => {
                let seat = r.seat(words.next())?;
                let serial = r.number(words.next())?;
                let claim = match kind {
                    "PlayerClaimsChow" => ClaimKind::Chow,
                    "PlayerClaimsPung" => ClaimKind::Pung,
                    "PlayerClaimsKong" => ClaimKind::Kong,
                    _ => ClaimKind::MahJongg,
                };
                match serials.get(&serial) {
                    Some(Serial::Discard { tile, .. }) => {
                        if claim == ClaimKind::MahJongg {
                            claimed_mahjong.push(seat);
                        }
                        push(HandEvent::ClaimMade(ClaimMade {
                            seat,
                            claim,
                            tile: *tile,
                        }))
                    }
                    // A claim of Mah-Jong on a kong is the robbing (`PlayerRobsKong` follows).
                    Some(Serial::Kong { .. }) => {}
                    None => {
                        return Err(r.err(format!(
                            "a claim on serial {serial}, which no discard or kong has"
                        )))
                    }
                }
            }
            "PlayerDoesntClaim" => {
                let seat = r.seat(words.next())?;
                push(HandEvent::ClaimPassed(ClaimPassed { seat }));
            }
            "PlayerChows" | "PlayerPungs" | "PlayerKongs" if mahjong_seat.is_none() => {
                let seat = r.seat(words.next())?;
                let tile = r.tile(words.next())?;
                let claim = match kind {
                    "PlayerChows" => ClaimKind::Chow,
                    "PlayerPungs" => ClaimKind::Pung,
                    _ => ClaimKind::Kong,
                };
                push(HandEvent::ClaimGranted(ClaimGranted { seat, claim }));
                match claim {
                    ClaimKind::Kong => push(HandEvent::KongDeclared(KongDeclared {
                        seat,
                        kind: KongKind::AnnexedDiscard,
                        tile,
                    })),
                    _ => {
                        let lowest = if claim == ClaimKind::Chow {
                            let steps = match words.next() {
                                Some("Lower") => 0,
                                Some("Middle") => 1,
                                Some("Upper") => 2,
                                w => return Err(r.err(format!("a chow at position {w:?}"))),
                            };
                            tile.suit()
                                .zip(tile.rank())
                                .and_then(|(suit, rank)| {
                                    Tile::suited(suit, rank.checked_sub(steps)?)
                                })
                                .ok_or_else(|| {
                                    r.err(format!("no chow has `{tile}` in that position"))
                                })?
                        } else {
                            tile
                        };
                        push(HandEvent::SetExposed(SetExposed {
                            seat,
                            claim,
                            lowest,
                        }))
                    }
                }
            }
            "PlayerDeclaresClosedKong" | "PlayerAddsToPung" => {
                let seat = r.seat(words.next())?;
                let tile = r.tile(words.next())?;
                let serial = r.number(words.next())?;
                serials.insert(serial, Serial::Kong { event: next_event });
                let kind = if kind == "PlayerAddsToPung" {
                    last_added_kong = Some(seat);
                    KongKind::AddedToExposedPung
                } else {
                    KongKind::Concealed
                };
                push(HandEvent::KongDeclared(KongDeclared { seat, kind, tile }));
            }
            "PlayerRobsKong" => {
                let robber = r.seat(words.next())?;
                let tile = r.tile(words.next())?;
                let from = last_added_kong
                    .ok_or_else(|| r.err("a kong robbed where no tile was added to a pung"))?;
                last_discard = Some(tile);
                claimed_mahjong.clear();
                mahjong_seat = Some(robber);
                push(HandEvent::KongRobbed(KongRobbed { robber, from, tile }));
                push(HandEvent::MahJonggDeclared(MahJonggDeclared {
                    seat: robber,
                    winning_tile: tile,
                    self_drawn: false,
                }));
            }
            "PlayerMahJongs" => {
                let seat = r.seat(words.next())?;
                if mahjong_seat == Some(seat) {
                    continue;
                }
                mahjong_seat = Some(seat);
                match words.next() {
                    Some("--") | None => {
                        let tile = last_discard
                            .ok_or_else(|| r.err("Mah-Jong on a discard before any discard"))?;
                        if claimed_mahjong.contains(&seat) {
                            push(HandEvent::ClaimGranted(ClaimGranted {
                                seat,
                                claim: ClaimKind::MahJongg,
                            }));
                        }
                        push(HandEvent::MahJonggDeclared(MahJonggDeclared {
                            seat,
                            winning_tile: tile,
                            self_drawn: false,
                        }));
                    }
                    w => {
                        let tile = r.tile(w)?;
                        push(HandEvent::MahJonggDeclared(MahJonggDeclared {
                            seat,
                            winning_tile: tile,
                            self_drawn: true,
                        }));
                    }
                }
            }
            "PlayerChows"
            | "PlayerPungs"
            | "PlayerKongs"
            | "PlayerPairs"
            | "PlayerSpecialSet"
            | "PlayerFormsClosedPung"
            | "PlayerFormsClosedChow"
            | "PlayerFormsClosedPair"
            | "PlayerFormsClosedSpecialSet"
            | "PlayerShowsTiles" => {
                let seat = r.seat(words.next())?;
                laid_down.push((seat, record.clone()));
                // §104: the concealed tiles grouped as the player scores them; the set or
                // pair a winning discard completes comes first, so it is the one the winning
                // tile is placed in.
                let tile = || r.tile(words.clone().next());
                let group = match kind {
                    "PlayerFormsClosedPung" | "PlayerPungs" => {
                        Some(ConcealedGroup::Set(Set::pung(tile()?)))
                    }
                    "PlayerFormsClosedPair" | "PlayerPairs" => Some(ConcealedGroup::Pair(tile()?)),
                    "PlayerFormsClosedChow" => Some(ConcealedGroup::Set(
                        Set::chow(tile()?).ok_or_else(|| r.err("no chow begins there"))?,
                    )),
                    "PlayerChows" => {
                        let t = tile()?;
                        let steps = match words.clone().nth(1) {
                            Some("Lower") => 0,
                            Some("Middle") => 1,
                            Some("Upper") => 2,
                            w => return Err(r.err(format!("a chow at position {w:?}"))),
                        };
                        let lowest = t
                            .suit()
                            .zip(t.rank())
                            .and_then(|(suit, rank)| Tile::suited(suit, rank.checked_sub(steps)?))
                            .ok_or_else(|| r.err(format!("no chow has `{t}` in that position")))?;
                        Some(ConcealedGroup::Set(
                            Set::chow(lowest).ok_or_else(|| r.err("no chow begins there"))?,
                        ))
                    }
                    _ => None,
                };
                let entry = groups[seat].get_or_insert_with(|| (line, Vec::new(), None));
                if let Some(g) = group {
                    if matches!(kind, "PlayerPungs" | "PlayerPairs" | "PlayerChows") {
                        entry.1.insert(0, g);
                        entry.2 = Some(0);
                    } else {
                        entry.1.push(g);
                    }
                }
            }
            "DangerousDiscard" => {
                let discarder = r.seat(words.next())?;
                let serial = r.number(words.next())?;
                let event = serials.get(&serial).map(|s| s.event()).ok_or_else(|| {
                    r.err(format!(
                        "a dangerous discard of serial {serial}, which no discard or kong has"
                    ))
                })?;
                let no_choice = words.next() == Some("1");
                dangerous.push(ServerCannon {
                    line,
                    discarder,
                    event,
                    no_choice,
                });
                // The server excuses a discarder by itself; at a table he shows his tiles
                // and pleads (§95(b)).
                if no_choice {
                    push(HandEvent::NoChoicePleaded(NoChoicePleaded {
                        seat: discarder,
                    }));
                }
            }
            "WashOut" => {
                let reason = words.collect::<Vec<_>>().join(" ");
                push(HandEvent::WashOut(WashOut { reason }));
            }
            "HandScore" => {
                let seat = r.seat(words.next())?;
                let score = words.next().and_then(|w| w.parse().ok()).unwrap_or(0);
                let text: String = words.collect::<Vec<_>>().join(" ");
                scores.push((seat, score, text));
            }
            "Settlement" => {
                let mut changes = [0i64; 4];
                for c in &mut changes {
                    *c = words
                        .next()
                        .and_then(|w| w.parse().ok())
                        .ok_or_else(|| r.err("a settlement without four changes"))?;
                }
                settlement = Some((changes, words.collect::<Vec<_>>().join(" ")));
            }
            _ => {}
        }
    }
    let started = started.ok_or(MjsError {
        line: r.line,
        what: "no `NewHand` line: not an mj-server hand history".into(),
    })?;
    if dealt < deal.len() {
        return Err(MjsError {
            line: r.line,
            what: format!(
                "the hand ends after {dealt} of the deal's {} tiles",
                deal.len()
            ),
        });
    }
    lay_down(&started, &mut events, &groups)?;
    Ok(MjsHand {
        players,
        options,
        started,
        events,
        laid_down,
        scores,
        settlement,
        dangerous,
    })
}

/// The hands as each seat laid them down after the hand (Code §104–105), appended to `events`
/// as `HandExposed`: the play is replayed to learn each seat's tiles, which are then grouped as
/// the seat grouped them. A play that cannot be replayed gets none (its replay will say why).
/// A seat's laid-down groups: the line of its first laying-down message, the groups, and the
/// one a winning discard was placed in.
type LaidGroups = (usize, Vec<ConcealedGroup>, Option<usize>);

fn lay_down(
    started: &HandStarted,
    events: &mut Vec<(usize, HandEvent)>,
    groups: &BySeat<Option<LaidGroups>>,
) -> Result<(), MjsError> {
    let Ok(replayed) = super::Play::replay(
        super::PlayRules::default(),
        started,
        events.iter().map(|(_, e)| e),
    ) else {
        return Ok(());
    };
    if replayed.refused.is_some() {
        return Ok(());
    }
    let state = replayed.play.state();
    for seat in Seat::ALL {
        let Some((line, grouped, winning_in)) = &groups[seat] else {
            continue;
        };
        let hand = state
            .hand_grouped(seat, grouped, *winning_in)
            .ok_or_else(|| MjsError {
                line: *line,
                what: format!(
                    "the groups {seat} laid down ({}) are not among its tiles",
                    grouped
                        .iter()
                        .map(|g| g
                            .tiles()
                            .iter()
                            .map(ToString::to_string)
                            .collect::<String>())
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
            })?;
        events.push((*line, HandEvent::HandExposed(HandExposed { seat, hand })));
    }
    Ok(())
}

/// What replaying an mj-server hand found, set beside the server's own results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrossCheck {
    /// Events replayed.
    pub events: usize,
    /// Where ours and the server's differ: an irregular event, a seat's score, a cannon, the
    /// settlement. Empty when they agree.
    pub differences: Vec<String>,
    /// Where they differ because the server departs from the Code (`../shared/mj-server.md`),
    /// each naming the section ours follows. The settlement is then not compared.
    pub departures: Vec<String>,
    /// The server ruled a dangerous discard (a cannon, Code §90–96).
    pub cannon: bool,
}

/// The cannon ours finds beside the server's ruling: the penalty to settle with (none when
/// nobody is liable), or `None` when the settlement cannot be compared. The server writes its
/// ruling when the dangerous discard is claimed; it counts only when the claimant goes on to
/// win.
fn compare_cannon(
    hand: &MjsHand,
    rules: &crate::Ruleset,
    play: &super::Play,
    differences: &mut Vec<String>,
    departures: &mut Vec<String>,
) -> Result<Option<Vec<crate::settle::Penalty<Seat>>>, String> {
    use crate::adjudicate::{cannon_reading, Cannon, CannonReading, NoChoice};
    let winner = match play.state().turn {
        super::Turn::Over(super::Ending::MahJongg { seat, .. }) => Some(seat),
        _ => None,
    };
    // Under the server's readings the hand is replayed again, only where ours differs.
    let find = |reading| {
        let events: Vec<HandEvent> = hand.events.iter().map(|(_, e)| e.clone()).collect();
        cannon_reading(super::PlayRules::of(rules), &hand.started, &events, reading)
            .map_err(|e| e.to_string())
    };
    // Who took the discard (or robbed the kong) event `n` made.
    let taken_by = |n: usize| {
        hand.events.iter().skip(n).find_map(|(_, e)| match e {
            HandEvent::ClaimGranted(g) => Some(Some(g.seat)),
            HandEvent::KongRobbed(r) => Some(Some(r.robber)),
            HandEvent::TileDrawn(_) | HandEvent::TileDiscarded(_) => Some(None),
            _ => None,
        })?
    };
    let server = hand
        .dangerous
        .iter()
        .rev()
        .find(|s| winner.is_some() && taken_by(s.event) == winner);
    let same = |c: &Option<Cannon>| match (c, server) {
        (None, None) => true,
        (Some(c), Some(s)) => c.event == s.event && c.discarder == s.discarder,
        _ => false,
    };
    let ours = play.cannon();
    if !same(&ours) {
        // The server's readings of §90–92, one at a time.
        let departs = [
            (
                CannonReading {
                    exposed_sets_show: false,
                    ..CannonReading::CODE
                },
                "it counts a tile as showing only among the discards (Code §90(g))",
            ),
            (
                CannonReading {
                    declared_kongs_count: false,
                    ..CannonReading::CODE
                },
                "it counts the exposed sets only, not a declared concealed kong (Code §90)",
            ),
            (
                CannonReading {
                    specified_hand: false,
                    ..CannonReading::CODE
                },
                "it charges any Mah-Jongg, not only the hand the sets signalled (Code §92)",
            ),
        ];
        for (reading, why) in departs {
            if same(&find(reading)?) {
                departures.push(format!("the server's cannon ruling differs: {why}"));
                return Ok(None);
            }
        }
        differences.push(match (&ours, server) {
            (_, Some(s)) => format!(
                "line {}: the server charged {} with a cannon on event {}; ours: {}",
                s.line,
                s.discarder,
                s.event,
                ours.as_ref().map_or("none".to_owned(), |c| c.to_string())
            ),
            (Some(c), None) => format!("a cannon the server did not charge: {c}"),
            (None, None) => "no cannon on either side".to_owned(),
        });
        return Ok(None);
    }
    let (Some(c), Some(s)) = (ours, server) else {
        return Ok(Some(Vec::new()));
    };
    // The robots plead No Choice whenever the server allows it (the reader records the plea).
    match (c.excused(), c.no_choice) {
        (true, _) => Ok(Some(Vec::new())),
        (false, _) if !s.no_choice => Ok(Some(c.penalty().into_iter().collect())),
        (false, NoChoice::HeldSafe(t)) => {
            departures.push(format!(
                "the server excused a discarder who held {t}, which was not dangerous (Code §95(a))"
            ));
            Ok(None)
        }
        (false, NoChoice::BarredAfterClaim(k)) => {
            departures.push(format!(
                "the server excused a discarder after a claim for {k:?} (Code §95(a))"
            ));
            Ok(None)
        }
        (false, other) => {
            differences.push(format!(
                "line {}: the server excused {}, who pleaded; ours: {other:?}",
                s.line, c.discarder
            ));
            Ok(None)
        }
    }
}

/// For a game's hands in order: East's wins in succession before each (Code §122(r)). A
/// wash-out keeps East and does not break his run (mj-server writes no `.mjs` for one; its
/// `server.log` has them).
pub fn east_wins_before(hands: &[MjsHand]) -> Vec<u32> {
    let mut out = Vec::with_capacity(hands.len());
    let mut previous: Option<(Seat, u32, bool)> = None;
    for h in hands {
        let east = h.started.east;
        let wins = match previous {
            // The deal stayed after a wash-out: the run stands.
            Some((e, n, true)) if e == east => n,
            // The deal stayed after a win: East won the hand before.
            Some((e, n, false)) if e == east => n + 1,
            _ => 0,
        };
        out.push(wins);
        let washed_out = h
            .events
            .iter()
            .any(|(_, e)| matches!(e, HandEvent::WashOut(_)));
        previous = Some((east, wins, washed_out));
    }
    out
}

/// Replays `hand` under `rules` and compares every seat's score and the settlement with the
/// server's; `east_wins` is East's wins in succession before this hand. An event that cannot
/// be applied is an error (with its line).
pub fn cross_check(
    hand: &MjsHand,
    rules: &crate::Ruleset,
    east_wins: u32,
) -> Result<CrossCheck, String> {
    use super::{Applied, Play, PlayRules};
    let mut play = Play::start(PlayRules::of(rules), &hand.started).map_err(|e| e.to_string())?;
    let mut differences = Vec::new();
    for (line, e) in &hand.events {
        match play.apply(e) {
            Ok(Applied::Legal) => {}
            Ok(Applied::Irregular(v)) => {
                for i in v {
                    differences.push(format!("line {line}: irregular: {i}"));
                }
            }
            Err(err) => return Err(format!("line {line}: {err}")),
        }
    }
    let mut departures = Vec::new();
    let penalties = compare_cannon(hand, rules, &play, &mut differences, &mut departures)?;
    let mut report = play
        .state()
        .report()
        .ok_or_else(|| "the replay did not reach the end of the hand".to_owned())?;
    report.penalties = penalties.clone().unwrap_or_default();
    let (report, settled) = play
        .state()
        .settle_report(report, rules, east_wins)
        .map_err(|v| v.to_string())?;
    for (seat, server, text) in &hand.scores {
        let ours = settled.sheets[*seat].total;
        if i64::try_from(ours).ok() != Some(*server) {
            differences.push(format!(
                "{seat}: ours {ours}, the server's {server} ({}; the server: {text})",
                report.hands[*seat].as_deref().unwrap_or("")
            ));
        }
    }
    let cannon = !hand.dangerous.is_empty();
    if let (Some((changes, text)), Some(_)) = (&hand.settlement, &penalties) {
        let ours = settled.nets.to_winds(hand.started.east).into_array();
        if ours != *changes {
            differences.push(format!(
                "settlement East to North: ours {ours:?}, the server's {changes:?} ({text})"
            ));
        }
    }
    Ok(CrossCheck {
        events: hand.events.len(),
        differences,
        departures,
        cannon,
    })
}
