//! The acts in dispute: each a [`HandEvent`], written `<seat>:<verb> <arguments>`.

use std::fmt;

use crate::event::{
    BonusTileDeclared, ClaimGranted, ClaimKind, ClaimMade, ClaimPassed, ClaimRetracted,
    DiscardReturned, DiscardTakenBack, DiscardTakenIntoHand, HandEvent, HandExposed, KongDeclared,
    KongKind, KongRobbed, LooseTileDrawn, MahJonggDeclared, NoChoicePleaded, OriginalCallAnnounced,
    SetExposed, TileDiscarded, TileDrawn, WashOut,
};
use crate::hand::Hand;
use crate::seat::Seat;
use crate::tile::{AnyTile, Bonus, Tile};

use super::error::SyntaxKind;

/// One act at the table, as the position notation writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Act {
    /// `S:draw`, `S:draw 5p`.
    Draw { seat: Seat, tile: Option<AnyTile> },
    /// `S:loose`, `S:loose 5p`.
    Loose { seat: Seat, tile: Option<AnyTile> },
    /// `S:bonus 2f`.
    Bonus { seat: Seat, tile: Bonus },
    /// `S:discard 5p`; `S:discard 5p as 6p` when the tile named is not the tile placed (§84).
    Discard {
        seat: Seat,
        placed: Tile,
        named: Tile,
    },
    /// `W:claim pung 5p`.
    Claim {
        seat: Seat,
        claim: ClaimKind,
        tile: Tile,
    },
    /// `W:pass`.
    Pass { seat: Seat },
    /// `W:grant pung`: the live discard goes to West's pung claim.
    Grant { seat: Seat, claim: ClaimKind },
    /// `W:expose pung 5p`: the set laid down, from its lowest tile.
    Expose {
        seat: Seat,
        claim: ClaimKind,
        lowest: Tile,
    },
    /// `W:retract pung`.
    Retract { seat: Seat, claim: ClaimKind },
    /// `W:kong concealed 5p`, `annexed`, `added`; `W:kong concealed 5p unmarked` for a
    /// concealed kong left unmarked (§52).
    Kong {
        seat: Seat,
        kind: KongKind,
        tile: Tile,
        unmarked: bool,
    },
    /// `W:rob S 5p`: West robs South's kong of 5p.
    Rob { seat: Seat, from: Seat, tile: Tile },
    /// `W:mahjongg 5p` with the discard; `W:mahjongg self 5p` on its own draw.
    MahJongg {
        seat: Seat,
        tile: Tile,
        self_drawn: bool,
    },
    /// `S:nochoice`.
    NoChoice { seat: Seat },
    /// `S:takeback 5p`.
    TakeBack { seat: Seat, tile: Tile },
    /// `S:intohand 5p`.
    IntoHand { seat: Seat, tile: Tile },
    /// `S:return 5p`: the discard South took into its hand goes back to the table (§81).
    Return { seat: Seat, tile: Tile },
    /// `S:call`: an Original Call.
    OriginalCall { seat: Seat },
    /// `W:show <hand>`: the hand laid down (§104).
    Show { seat: Seat, hand: Hand },
    /// `washout`.
    WashOut,
}

/// The reason a wash-out or a retraction written in a position carries.
const FROM_POSITION: &str = "as written in the position";

impl Act {
    /// The event that records it.
    pub fn event(&self) -> HandEvent {
        match self.clone() {
            Act::Draw { seat, tile } => HandEvent::TileDrawn(TileDrawn { seat, tile }),
            Act::Loose { seat, tile } => HandEvent::LooseTileDrawn(LooseTileDrawn { seat, tile }),
            Act::Bonus { seat, tile } => {
                HandEvent::BonusTileDeclared(BonusTileDeclared { seat, tile })
            }
            Act::Discard {
                seat,
                placed,
                named,
            } => HandEvent::TileDiscarded(TileDiscarded {
                seat,
                placed,
                named,
            }),
            Act::Claim { seat, claim, tile } => {
                HandEvent::ClaimMade(ClaimMade { seat, claim, tile })
            }
            Act::Pass { seat } => HandEvent::ClaimPassed(ClaimPassed { seat }),
            Act::Grant { seat, claim } => HandEvent::ClaimGranted(ClaimGranted { seat, claim }),
            Act::Expose {
                seat,
                claim,
                lowest,
            } => HandEvent::SetExposed(SetExposed {
                seat,
                claim,
                lowest,
            }),
            Act::Retract { seat, claim } => HandEvent::ClaimRetracted(ClaimRetracted {
                seat,
                claim,
                reason: FROM_POSITION.into(),
            }),
            Act::Kong {
                seat,
                kind,
                tile,
                unmarked,
            } => HandEvent::KongDeclared(KongDeclared {
                seat,
                kind,
                tile,
                unmarked,
            }),
            Act::Rob { seat, from, tile } => HandEvent::KongRobbed(KongRobbed {
                robber: seat,
                from,
                tile,
            }),
            Act::MahJongg {
                seat,
                tile,
                self_drawn,
            } => HandEvent::MahJonggDeclared(MahJonggDeclared {
                seat,
                winning_tile: tile,
                self_drawn,
            }),
            Act::NoChoice { seat } => HandEvent::NoChoicePleaded(NoChoicePleaded { seat }),
            Act::TakeBack { seat, tile } => {
                HandEvent::DiscardTakenBack(DiscardTakenBack { seat, tile })
            }
            Act::IntoHand { seat, tile } => {
                HandEvent::DiscardTakenIntoHand(DiscardTakenIntoHand { seat, tile })
            }
            Act::Return { seat, tile } => {
                HandEvent::DiscardReturned(DiscardReturned { seat, tile })
            }
            Act::OriginalCall { seat } => {
                HandEvent::OriginalCallAnnounced(OriginalCallAnnounced { seat })
            }
            Act::Show { seat, hand } => HandEvent::HandExposed(HandExposed { seat, hand }),
            Act::WashOut => HandEvent::WashOut(WashOut {
                reason: FROM_POSITION.into(),
            }),
        }
    }

    /// The act `e` records, when it is an act of the play (a retraction's or a wash-out's
    /// reason is not part of the act; the hand's start, result and rulings are no acts).
    pub fn of(e: &HandEvent) -> Option<Act> {
        Some(match e.clone() {
            HandEvent::TileDrawn(TileDrawn { seat, tile }) => Act::Draw { seat, tile },
            HandEvent::LooseTileDrawn(LooseTileDrawn { seat, tile }) => Act::Loose { seat, tile },
            HandEvent::BonusTileDeclared(BonusTileDeclared { seat, tile }) => {
                Act::Bonus { seat, tile }
            }
            HandEvent::TileDiscarded(TileDiscarded {
                seat,
                placed,
                named,
            }) => Act::Discard {
                seat,
                placed,
                named,
            },
            HandEvent::ClaimMade(ClaimMade { seat, claim, tile }) => {
                Act::Claim { seat, claim, tile }
            }
            HandEvent::ClaimPassed(ClaimPassed { seat }) => Act::Pass { seat },
            HandEvent::ClaimGranted(ClaimGranted { seat, claim }) => Act::Grant { seat, claim },
            HandEvent::SetExposed(SetExposed {
                seat,
                claim,
                lowest,
            }) => Act::Expose {
                seat,
                claim,
                lowest,
            },
            HandEvent::ClaimRetracted(ClaimRetracted { seat, claim, .. }) => {
                Act::Retract { seat, claim }
            }
            HandEvent::KongDeclared(KongDeclared {
                seat,
                kind,
                tile,
                unmarked,
            }) => Act::Kong {
                seat,
                kind,
                tile,
                unmarked,
            },
            HandEvent::KongRobbed(KongRobbed { robber, from, tile }) => Act::Rob {
                seat: robber,
                from,
                tile,
            },
            HandEvent::MahJonggDeclared(MahJonggDeclared {
                seat,
                winning_tile,
                self_drawn,
            }) => Act::MahJongg {
                seat,
                tile: winning_tile,
                self_drawn,
            },
            HandEvent::NoChoicePleaded(NoChoicePleaded { seat }) => Act::NoChoice { seat },
            HandEvent::DiscardTakenBack(DiscardTakenBack { seat, tile }) => {
                Act::TakeBack { seat, tile }
            }
            HandEvent::DiscardTakenIntoHand(DiscardTakenIntoHand { seat, tile }) => {
                Act::IntoHand { seat, tile }
            }
            HandEvent::DiscardReturned(DiscardReturned { seat, tile }) => {
                Act::Return { seat, tile }
            }
            HandEvent::OriginalCallAnnounced(OriginalCallAnnounced { seat }) => {
                Act::OriginalCall { seat }
            }
            HandEvent::HandExposed(HandExposed { seat, hand }) => Act::Show { seat, hand },
            HandEvent::WashOut(_) => Act::WashOut,
            _ => return None,
        })
    }

    /// The seat that acts (none for a wash-out).
    pub fn seat(&self) -> Option<Seat> {
        match *self {
            Act::Draw { seat, .. }
            | Act::Loose { seat, .. }
            | Act::Bonus { seat, .. }
            | Act::Discard { seat, .. }
            | Act::Claim { seat, .. }
            | Act::Pass { seat }
            | Act::Grant { seat, .. }
            | Act::Expose { seat, .. }
            | Act::Retract { seat, .. }
            | Act::Kong { seat, .. }
            | Act::Rob { seat, .. }
            | Act::MahJongg { seat, .. }
            | Act::NoChoice { seat }
            | Act::TakeBack { seat, .. }
            | Act::IntoHand { seat, .. }
            | Act::Return { seat, .. }
            | Act::OriginalCall { seat }
            | Act::Show { seat, .. } => Some(seat),
            Act::WashOut => None,
        }
    }
}

fn claim_word(k: ClaimKind) -> &'static str {
    match k {
        ClaimKind::Chow => "chow",
        ClaimKind::Pung => "pung",
        ClaimKind::Kong => "kong",
        ClaimKind::MahJongg => "mahjongg",
    }
}

fn kong_word(k: KongKind) -> &'static str {
    match k {
        KongKind::Concealed => "concealed",
        KongKind::AnnexedDiscard => "annexed",
        KongKind::AddedToExposedPung => "added",
    }
}

impl fmt::Display for Act {
    /// The canonical form: `S:discard 5p`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(seat) = self.seat() else {
            return f.write_str("washout");
        };
        write!(f, "{}:", seat.letter())?;
        let tile = |t: &Option<AnyTile>| t.map(|t| format!(" {t}")).unwrap_or_default();
        match self {
            Act::Draw { tile: t, .. } => write!(f, "draw{}", tile(t)),
            Act::Loose { tile: t, .. } => write!(f, "loose{}", tile(t)),
            Act::Bonus { tile, .. } => write!(f, "bonus {tile}"),
            Act::Discard { placed, named, .. } if placed == named => {
                write!(f, "discard {placed}")
            }
            Act::Discard { placed, named, .. } => write!(f, "discard {placed} as {named}"),
            Act::Claim { claim, tile, .. } => write!(f, "claim {} {tile}", claim_word(*claim)),
            Act::Pass { .. } => f.write_str("pass"),
            Act::Grant { claim, .. } => write!(f, "grant {}", claim_word(*claim)),
            Act::Expose { claim, lowest, .. } => {
                write!(f, "expose {} {lowest}", claim_word(*claim))
            }
            Act::Retract { claim, .. } => write!(f, "retract {}", claim_word(*claim)),
            Act::Kong {
                kind,
                tile,
                unmarked,
                ..
            } => {
                write!(f, "kong {} {tile}", kong_word(*kind))?;
                if *unmarked {
                    write!(f, " unmarked")?;
                }
                Ok(())
            }
            Act::Rob { from, tile, .. } => write!(f, "rob {} {tile}", from.letter()),
            Act::MahJongg {
                tile,
                self_drawn: true,
                ..
            } => write!(f, "mahjongg self {tile}"),
            Act::MahJongg { tile, .. } => write!(f, "mahjongg {tile}"),
            Act::NoChoice { .. } => f.write_str("nochoice"),
            Act::TakeBack { tile, .. } => write!(f, "takeback {tile}"),
            Act::IntoHand { tile, .. } => write!(f, "intohand {tile}"),
            Act::Return { tile, .. } => write!(f, "return {tile}"),
            Act::OriginalCall { .. } => f.write_str("call"),
            Act::Show { hand, .. } => write!(f, "show {hand}"),
            Act::WashOut => f.write_str("washout"),
        }
    }
}

/// A word of an act, with the column (in the whole line) it starts at.
pub(crate) type Word<'a> = (usize, &'a str);

/// Why an act did not read, and the column to point at.
pub(crate) type ActError = (usize, SyntaxKind);

/// Reads one act from its words (`words[0]` is `<seat>:<verb>`); `show` takes the hand from
/// `rest`, the line with everything but the hand blanked (so its columns are the line's).
pub(crate) fn read(words: &[Word<'_>], rest: impl FnOnce() -> String) -> Result<Act, ActError> {
    let (column, first) = words[0];
    let whole = || words.iter().map(|(_, w)| *w).collect::<Vec<_>>().join(" ");
    let not = |why: &'static str| (column, SyntaxKind::NotAnAct(whole(), why));
    if first == "washout" {
        return match words.len() {
            1 => Ok(Act::WashOut),
            _ => Err(not("a wash-out takes nothing after it")),
        };
    }
    let Some((who, verb)) = first.split_once(':') else {
        return Err(not(
            "an act begins with the seat and `:`, as `S:discard 5p`",
        ));
    };
    let seat: Seat = who
        .parse()
        .map_err(|_| (column, SyntaxKind::NotASeat(who.into())))?;
    let args = &words[1..];
    let arity = |n: usize, usage: &'static str| {
        if args.len() == n {
            Ok(())
        } else {
            Err(not(usage))
        }
    };
    let tile_at = |i: usize| -> Result<Tile, ActError> {
        let (c, w) = args[i];
        w.parse::<Tile>()
            .map_err(|e| (c, SyntaxKind::BadTile(w.into(), e)))
    };
    let any_tile = |usage| -> Result<Option<AnyTile>, ActError> {
        match args {
            [] => Ok(None),
            [(c, w)] => w
                .parse::<AnyTile>()
                .map(Some)
                .map_err(|e| (*c, SyntaxKind::BadTile((*w).into(), e))),
            _ => Err(not(usage)),
        }
    };
    let claim_at = |i: usize, allowed: &[ClaimKind]| -> Result<ClaimKind, ActError> {
        let (c, w) = args[i];
        let k = match w {
            "chow" => ClaimKind::Chow,
            "pung" => ClaimKind::Pung,
            "kong" => ClaimKind::Kong,
            "mahjongg" => ClaimKind::MahJongg,
            _ => {
                return Err((
                    c,
                    SyntaxKind::NotAnAct(whole(), "claims are chow, pung, kong or mahjongg"),
                ))
            }
        };
        if allowed.contains(&k) {
            Ok(k)
        } else {
            Err((
                c,
                SyntaxKind::NotAnAct(
                    whole(),
                    "a set laid down is a chow or a pung (a kong is `kong annexed`)",
                ),
            ))
        }
    };
    const ALL: [ClaimKind; 4] = [
        ClaimKind::Chow,
        ClaimKind::Pung,
        ClaimKind::Kong,
        ClaimKind::MahJongg,
    ];
    Ok(match verb {
        "draw" => Act::Draw {
            seat,
            tile: any_tile("write `S:draw` or `S:draw 5p`")?,
        },
        "loose" => Act::Loose {
            seat,
            tile: any_tile("write `S:loose` or `S:loose 5p`")?,
        },
        "bonus" => {
            arity(1, "write `S:bonus 2f`")?;
            let (c, w) = args[0];
            Act::Bonus {
                seat,
                tile: w
                    .parse()
                    .map_err(|e| (c, SyntaxKind::BadTile(w.into(), e)))?,
            }
        }
        "discard" => match args {
            [_] => {
                let t = tile_at(0)?;
                Act::Discard {
                    seat,
                    placed: t,
                    named: t,
                }
            }
            [_, (_, "as"), _] => Act::Discard {
                seat,
                placed: tile_at(0)?,
                named: tile_at(2)?,
            },
            _ => return Err(not("write `S:discard 5p` or `S:discard 5p as 6p`")),
        },
        "claim" => {
            arity(2, "write `W:claim pung 5p`")?;
            Act::Claim {
                seat,
                claim: claim_at(0, &ALL)?,
                tile: tile_at(1)?,
            }
        }
        "pass" => {
            arity(0, "`W:pass` takes nothing after it")?;
            Act::Pass { seat }
        }
        "grant" => {
            arity(1, "write `W:grant pung`")?;
            Act::Grant {
                seat,
                claim: claim_at(0, &ALL)?,
            }
        }
        "expose" => {
            arity(2, "write `W:expose pung 5p` or `W:expose chow 3p`")?;
            Act::Expose {
                seat,
                claim: claim_at(0, &[ClaimKind::Chow, ClaimKind::Pung])?,
                lowest: tile_at(1)?,
            }
        }
        "retract" => {
            arity(1, "write `W:retract pung`")?;
            Act::Retract {
                seat,
                claim: claim_at(0, &ALL)?,
            }
        }
        "kong" => {
            let unmarked = args.len() == 3 && args[2].1 == "unmarked" && args[0].1 == "concealed";
            if !unmarked {
                arity(
                    2,
                    "write `W:kong concealed 5p` (or `… 5p unmarked`, §52), `annexed` or `added`",
                )?;
            }
            let kind = match args[0].1 {
                "concealed" => KongKind::Concealed,
                "annexed" => KongKind::AnnexedDiscard,
                "added" => KongKind::AddedToExposedPung,
                _ => return Err(not("a kong is concealed, annexed or added")),
            };
            Act::Kong {
                seat,
                kind,
                tile: tile_at(1)?,
                unmarked,
            }
        }
        "rob" => {
            arity(2, "write `W:rob S 5p`")?;
            let (c, w) = args[0];
            Act::Rob {
                seat,
                from: w
                    .parse()
                    .map_err(|_| (c, SyntaxKind::NotASeat(w.into())))?,
                tile: tile_at(1)?,
            }
        }
        "mahjongg" => match args {
            [_] => Act::MahJongg {
                seat,
                tile: tile_at(0)?,
                self_drawn: false,
            },
            [(_, "self"), _] => Act::MahJongg {
                seat,
                tile: tile_at(1)?,
                self_drawn: true,
            },
            _ => return Err(not("write `W:mahjongg 5p` or `W:mahjongg self 5p`")),
        },
        "nochoice" => {
            arity(0, "`S:nochoice` takes nothing after it")?;
            Act::NoChoice { seat }
        }
        "takeback" => {
            arity(1, "write `S:takeback 5p`")?;
            Act::TakeBack {
                seat,
                tile: tile_at(0)?,
            }
        }
        "intohand" => {
            arity(1, "write `S:intohand 5p`")?;
            Act::IntoHand {
                seat,
                tile: tile_at(0)?,
            }
        }
        "return" => {
            arity(1, "write `S:return 5p`")?;
            Act::Return {
                seat,
                tile: tile_at(0)?,
            }
        }
        "call" => {
            arity(0, "`S:call` takes nothing after it")?;
            Act::OriginalCall { seat }
        }
        "show" => {
            if args.is_empty() {
                return Err(not("write the hand laid down, as `W:show 11s [222s] … =5s`"));
            }
            let hand = rest()
                .parse::<Hand>()
                .map_err(|e| (args[0].0, SyntaxKind::HandShown(e)))?;
            Act::Show { seat, hand }
        }
        _ => return Err(not("no such act (draw, loose, bonus, discard, claim, pass, grant, expose, retract, kong, rob, mahjongg, nochoice, takeback, intohand, return, call, show; washout)")),
    })
}
