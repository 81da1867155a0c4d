//! The catalogue of rules of play one event can break (Code §16–81, §84–88, §95, and the
//! ruleset's own limits): each [`Breach`] with the section it breaks, its kind as the findings
//! name it, the sections that say what follows, and what follows in plain words. The play flags
//! an event with its breach; the adjudication turns it into a finding by reading this
//! catalogue, so a new irregularity is written here and nowhere else. The catalogue's tests
//! (every breach has a kind, its rule first among its citations, a consequence naming the
//! offender) are `adjudicate::irregular_tests::every_breach_*`.

use crate::event::{ClaimKind, KongKind};
use crate::seat::Seat;
use crate::tile::{Bonus, Tile};

/// Each rule of play the replay can find broken by one event (Code §16–81, §84–88, §95, and
/// the ruleset's own limits). The adjudication turns each into a finding with its consequence
/// (the `adjudicate::irregular` findings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Breach {
    /// §31: a bonus tile declared after the turn it was drawn in.
    BonusDeclaredLate(Bonus),
    /// §31: a discard made while a bonus tile drawn in that turn was still undeclared.
    BonusNotDeclared(Bonus),
    /// §36: a seat claimed its own discard.
    OwnDiscardClaimed,
    /// §40: a chow claimed of a discard from a seat not on the claimer's left.
    ChowNotFromLeft { discarder: Seat },
    /// §39, §43: a set laid down by a seat that was not to lay one down.
    ExposedOutOfTurn,
    /// §41 with §43, §46: a pung or kong claimant discarded before laying his set down (the
    /// Code gives that leave to a chow's claimant only).
    DiscardedBeforeLayingDown(ClaimKind),
    /// §80: a discard made without drawing the loose tile owed for a kong (or a bonus tile's
    /// replacement, §31): the seat plays on with a short hand.
    ReplacementNotDrawn { loose: bool },
    /// §64 (a claim of a discard after the next player drew) or §60 (a robbing of a kong after
    /// its loose tile was drawn): the tile drawn completes the drawer's hand, and the claim is
    /// forfeited.
    ClaimForfeited { robbing: bool },
    /// §89(b): a claim for a set that would leave the claimant (a short hand) without a tile
    /// to discard.
    ClaimLeavesNoDiscard(ClaimKind),
    /// The ruleset's limit on chows (a house rule, not the Code's).
    ChowBeyondLimit { max: u8 },
    /// §55(a): an Original Call announced other than straight after the seat's first discard.
    OriginalCallMistimed,
    /// §95(b): No Choice pleaded other than straight after the discard was claimed.
    NoChoiceLate,
    /// §72: a tile drawn from a known wall that was not the next one.
    WrongTileDrawn,
    /// §73: a draw from the live wall out of turn.
    DrawOutOfTurn { turn_of: Option<Seat> },
    /// §46, §48, §50 (with §73): a loose tile drawn when none was owed.
    LooseTileOutOfTurn { turn_of: Option<Seat> },
    /// §74: a discard out of turn.
    DiscardOutOfTurn { turn_of: Option<Seat> },
    /// §75: a second tile discarded while the first was still the live discard.
    TwoDiscards,
    /// §84: a discard placed as one tile and named as another.
    FalselyNamed { placed: Tile, named: Tile },
    /// §85–88: a claim of the tile named, not the tile placed.
    NamedTileClaimed {
        discarder: Seat,
        claim: ClaimKind,
        placed: Tile,
        named: Tile,
    },
    /// §61: the discard went to a claim over another that takes precedence.
    Precedence {
        claim: ClaimKind,
        over: Seat,
        their: ClaimKind,
    },
    /// §71: a discard taken back after it was claimed.
    DiscardTakenBackAfterClaim,
    /// §81: a discard taken into a concealed hand.
    DiscardIntoHand,
    /// §46, §48, §50–51: a kong declared by a seat that was not to declare one.
    KongOutOfTurn(KongKind),
    /// The ruleset has no robbing of kongs.
    KongRobbedUnderRuleset { from: Seat },
    /// §58: a concealed kong robbed other than for the Thirteen Unique Wonders.
    ConcealedKongRobbed { from: Seat },
    /// §54: Mah-Jongg on a seat's own draw, out of its turn.
    MahJonggOutOfTurn,
    /// §53: Mah-Jongg on a discard the seat had not been granted for Mah-Jongg.
    MahJonggOnUnclaimedDiscard,
    /// §36, §97: the hand ended as a wash-out with tiles left in the live wall.
    EarlyWashOut { left: u32 },
}

impl Breach {
    /// Where the rule is.
    pub const fn rule(self) -> &'static str {
        match self {
            Breach::BonusDeclaredLate(_) | Breach::BonusNotDeclared(_) => "Code §31",
            Breach::OwnDiscardClaimed => "Code §36",
            Breach::ChowNotFromLeft { .. } => "Code §40",
            Breach::ExposedOutOfTurn => "Code §39, §43",
            Breach::DiscardedBeforeLayingDown(_) => "Code §41",
            Breach::ReplacementNotDrawn { .. } => "Code §80",
            Breach::ClaimForfeited { robbing: false } => "Code §64",
            Breach::ClaimForfeited { robbing: true } => "Code §60",
            Breach::ClaimLeavesNoDiscard(_) => "Code §89(b)",
            Breach::ChowBeyondLimit { .. } => "ruleset: one chow per hand",
            Breach::OriginalCallMistimed => "Code §55",
            Breach::NoChoiceLate => "Code §95(b)",
            Breach::WrongTileDrawn => "Code §72",
            Breach::DrawOutOfTurn { .. } => "Code §73",
            Breach::LooseTileOutOfTurn { .. } => "Code §46, §48, §50",
            Breach::DiscardOutOfTurn { .. } => "Code §74",
            Breach::TwoDiscards => "Code §75",
            Breach::FalselyNamed { .. } => "Code §84",
            Breach::NamedTileClaimed { .. } => "Code §85–88",
            Breach::Precedence { .. } => "Code §61",
            Breach::DiscardTakenBackAfterClaim => "Code §71",
            Breach::DiscardIntoHand => "Code §81",
            Breach::KongOutOfTurn(KongKind::Concealed) => "Code §50–51",
            Breach::KongOutOfTurn(KongKind::AddedToExposedPung) => "Code §48",
            Breach::KongOutOfTurn(KongKind::AnnexedDiscard) => "Code §46",
            Breach::KongRobbedUnderRuleset { .. } => "the ruleset's kong_robbing",
            Breach::ConcealedKongRobbed { .. } => "Code §58",
            Breach::MahJonggOutOfTurn => "Code §54",
            Breach::MahJonggOnUnclaimedDiscard => "Code §53",
            Breach::EarlyWashOut { .. } => "Code §36, §97",
        }
    }

    /// The finding's kind, as `adjudicate --json` names it.
    pub const fn kind(self) -> &'static str {
        match self {
            Breach::BonusDeclaredLate(_) | Breach::BonusNotDeclared(_) => "late-bonus",
            Breach::OwnDiscardClaimed => "own-discard-claimed",
            Breach::ChowNotFromLeft { .. } => "chow-not-from-left",
            Breach::ExposedOutOfTurn => "expose-out-of-turn",
            Breach::DiscardedBeforeLayingDown(_) => "discard-before-laying-down",
            Breach::ReplacementNotDrawn { .. } => "replacement-not-drawn",
            Breach::ClaimForfeited { .. } => "claim-forfeited",
            Breach::ClaimLeavesNoDiscard(_) => "short-hand-claim",
            Breach::ChowBeyondLimit { .. } => "chow-limit",
            Breach::OriginalCallMistimed => "misplaced-original-call",
            Breach::NoChoiceLate => "late-no-choice",
            Breach::WrongTileDrawn => "wrong-tile-drawn",
            Breach::DrawOutOfTurn { .. } | Breach::LooseTileOutOfTurn { .. } => "draw-out-of-turn",
            Breach::DiscardOutOfTurn { .. } => "discard-out-of-turn",
            Breach::TwoDiscards => "two-discards",
            Breach::FalselyNamed { .. } | Breach::NamedTileClaimed { .. } => "false-naming",
            Breach::Precedence { .. } => "precedence",
            Breach::DiscardTakenBackAfterClaim => "discard-taken-back",
            Breach::DiscardIntoHand => "discard-into-hand",
            Breach::KongOutOfTurn(_) => "kong-out-of-turn",
            Breach::KongRobbedUnderRuleset { .. } => "kong-robbed",
            Breach::ConcealedKongRobbed { .. } => "robbed-concealed-kong",
            Breach::MahJonggOutOfTurn | Breach::MahJonggOnUnclaimedDiscard => {
                "mah-jongg-out-of-turn"
            }
            Breach::EarlyWashOut { .. } => "early-wash-out",
        }
    }

    /// The sections a finding of it cites: the rule broken first, then those that say what
    /// follows.
    pub fn citations(self) -> Vec<&'static str> {
        let follows: &[&'static str] = match self {
            Breach::BonusDeclaredLate(_) => &["Code §80", "Code §89"],
            Breach::ChowNotFromLeft { .. } => &["Code §76", "Code §89"],
            Breach::ExposedOutOfTurn => &["Code §76–77"],
            Breach::DiscardedBeforeLayingDown(ClaimKind::Kong) => &["Code §46", "Code §78"],
            Breach::DiscardedBeforeLayingDown(_) => &["Code §43", "Code §78"],
            Breach::ReplacementNotDrawn { .. } => &["Code §89"],
            Breach::OriginalCallMistimed => &["Code §56", "Code §117(l)"],
            Breach::DrawOutOfTurn { .. } => &["Code §89"],
            Breach::LooseTileOutOfTurn { .. } => &["Code §73", "Code §89"],
            Breach::DiscardOutOfTurn { .. } => &["Code §89"],
            Breach::Precedence { .. } => &["Code §62–63"],
            Breach::MahJonggOutOfTurn | Breach::MahJonggOnUnclaimedDiscard => &["Code §82"],
            Breach::ConcealedKongRobbed { .. } => &["Code §57"],
            _ => &[],
        };
        let mut out = vec![self.rule()];
        out.extend_from_slice(follows);
        out
    }

    /// What the Code says follows, in plain words, `seat` being the offender.
    pub fn consequence(self, seat: &str) -> String {
        match self {
            Breach::BonusDeclaredLate(b) => format!(
                "A bonus tile is declared in the turn it is drawn: {seat} may claim no score for `{b}` and may not draw a replacement for it (Code §31); without the replacement the hand is a tile short, a short hand (Code §80, §89)."
            ),
            Breach::BonusNotDeclared(b) => format!(
                "A bonus tile is declared in the turn it is drawn, before discarding: {seat} may claim no score for `{b}` and may not draw a replacement for it (Code §31)."
            ),
            Breach::OwnDiscardClaimed => format!(
                "A discard is claimed by the other players (Code §36): {seat}'s claim does not stand."
            ),
            Breach::ChowNotFromLeft { discarder } => format!(
                "A chow may be claimed only of the discard of the player on the left (Code §40), and {discarder} is not on {seat}'s left: the claim is in error. Corrected before {seat}'s own discard is claimed or the next player draws, it costs nothing; otherwise {seat}'s hand is foul (Code §76), and a foul hand cannot Mah-Jongg (Code §89)."
            ),
            Breach::ExposedOutOfTurn => format!(
                "A set is laid down by the player granted the discard, when it is granted (Code §39, §43): {seat} laid one down without that grant. A set wrongly laid down and not corrected in time makes the hand foul (Code §76–77)."
            ),
            Breach::DiscardedBeforeLayingDown(claim) => format!(
                "Only the claimant of a chow may discard before laying his set down (Code §41); a {} is laid down first and then a tile discarded (Code §43, §46). Play goes on: {seat} must still lay the set down before his next draw or claim, or his hand is foul and the set scores nothing (Code §78).",
                claim.name()
            ),
            Breach::ReplacementNotDrawn { loose } => format!(
                "{seat} discarded without drawing the {} he was owed; he may not put it right once the next player has drawn, and plays on with a short hand (Code §80), which cannot Mah-Jongg but scores its properly constituted sets — a kong declared among them — at settlement (Code §89).",
                if loose { "loose tile" } else { "replacement for a bonus tile" }
            ),
            Breach::ClaimForfeited { robbing: false } => format!(
                "The next player had drawn from the wall, and the tile he drew completes his hand: {seat} forfeits his claim to the discard, which stays where it lies (Code §64), and play goes on."
            ),
            Breach::ClaimForfeited { robbing: true } => format!(
                "The kong's owner had drawn his loose tile, and it completes his hand: the kong may not be robbed (Code §60). {seat} takes up his hand and his call of Mah-Jongg, and play goes on."
            ),
            Breach::ClaimLeavesNoDiscard(claim) => format!(
                "A player with a short hand may not claim a discard for any purpose if he would thereby be left without a tile to discard (Code §89(b)): {seat}'s claim for {} would leave him none, and should not have been made: the referee rules whether it stands.",
                claim.name()
            ),
            Breach::ChowBeyondLimit { max } => format!(
                "The ruleset allows {max} chow(s) in a hand: {seat}'s chow is one too many under it."
            ),
            Breach::OriginalCallMistimed => format!(
                "An Original Call is announced straight after the caller's first discard (Code §55(a)); after that no announcement of a calling hand may be made (Code §56). {seat}'s call binds him to nothing and earns no Original Call double (Code §117(l))."
            ),
            Breach::NoChoiceLate => format!(
                "No Choice is pleaded at once, before the discarder's next draw or claim (Code §95(b)): {seat}'s late plea does not excuse the discard."
            ),
            Breach::WrongTileDrawn => format!(
                "{seat} must put the tile back and draw the right one if this is pointed out before he discards; otherwise he keeps it, without penalty (Code §72)."
            ),
            Breach::DrawOutOfTurn { .. } => format!(
                "Having seen or felt the tile, {seat} must keep it and play with a long hand (Code §73); a bonus tile so drawn stays undeclared in the hand. A long hand cannot Mah-Jongg, and at settlement it scores nothing and pays the other two losers the full value of their hands (Code §89)."
            ),
            Breach::LooseTileOutOfTurn { .. } => format!(
                "A loose tile is drawn only for a kong just declared (Code §46, §48, §50). Interpretation: a tile drawn when none was owed is drawn out of turn: {seat} keeps it and plays with a long hand (Code §73), which cannot Mah-Jongg, scores nothing and pays the other two losers the full value of their hands (Code §89)."
            ),
            Breach::DiscardOutOfTurn { .. } => format!(
                "{seat} may take the tile back, unless another player claims it before he draws attention to his error; then it stays claimed and {seat} plays with a short hand (Code §74), which cannot Mah-Jongg (Code §89)."
            ),
            Breach::TwoDiscards => format!(
                "{seat} says which tile he meant to discard and takes the other back; if one of them is claimed, it is the discard and the other goes back; if both are claimed, the one claimed by the player next in order of play is the discard (Code §75)."
            ),
            Breach::FalselyNamed { placed, named } => format!(
                "The tile placed, `{placed}`, is {seat}'s discard, not `{named}` (Code §84). No penalty if the naming is corrected before anyone claims the discard, or if no one claims the tile named before the next player discards (Code §84)."
            ),
            Breach::NamedTileClaimed {
                discarder,
                claim,
                placed,
                named,
            } => format!(
                "{seat} claimed for {} the tile named, `{named}`, not the tile placed, `{placed}`: {discarder} owes the penalty of Code §85–88 if {seat} shows the tiles the named tile would complete (the false-naming finding prices it).",
                claim.name()
            ),
            Breach::Precedence { claim, over, their } => format!(
                "Mah-Jongg takes precedence over pung and kong, pung and kong over chow, and between equal claims the player nearest after the discarder (Code §61): the discard was {over}'s, for {}. {seat}, granted it for {}, must surrender it, taking back into his hand any tiles laid down with it (and giving back a loose tile drawn for a kong), unless he has already discarded (Code §62–63).",
                their.name(),
                claim.name()
            ),
            Breach::DiscardTakenBackAfterClaim => format!(
                "Once the discard is claimed, {seat} may not take it back (Code §71): it stays on the table for the claim."
            ),
            Breach::DiscardIntoHand => format!(
                "No discard may be taken into a concealed hand: any other player may demand that it go back to the table, and {seat} may not use it for any purpose (Code §81)."
            ),
            Breach::KongOutOfTurn(kind) => {
                let when = match kind {
                    KongKind::Concealed => "after drawing from the wall in his own turn — not after claiming a discard in any way — or before play begins (Code §33, §50–51)",
                    KongKind::AddedToExposedPung => "with a tile he has just drawn from the wall, never from the hand straight after claiming a discard (Code §48; an exposed set is otherwise never altered, Code §79)",
                    KongKind::AnnexedDiscard => "when the discard is granted to him for kong (Code §46)",
                };
                format!(
                    "A kong of this kind is declared {when}: {seat}'s kong was not; the referee rules whether it stands."
                )
            }
            Breach::KongRobbedUnderRuleset { from } => format!(
                "The ruleset has no robbing of a kong: {seat}'s robbing of {from}'s kong does not stand. {seat} takes up his hand and his call of Mah-Jongg with it; the kong stays, {from} draws his loose tile and play goes on."
            ),
            Breach::ConcealedKongRobbed { from } => format!(
                "A concealed kong may be robbed only to complete the Thirteen Unique Wonders (Code §58): {seat}'s robbing of {from}'s kong does not stand. {seat} takes up his hand and his call of Mah-Jongg with it; the kong stays, {from} draws his loose tile and play goes on (Code §57–58). Interpretation: the Code names no penalty for it, and the replay charges none."
            ),
            Breach::MahJonggOutOfTurn => format!(
                "Mah-Jongg on a drawn tile is declared by the player who drew it, in his own turn (Code §54): {seat}'s call was not. The Code names no penalty; the referee rules whether it stands, and a call that cannot stand is a false call (Code §82)."
            ),
            Breach::MahJonggOnUnclaimedDiscard => format!(
                "Mah-Jongg on a discard is declared by the player granted it for Mah-Jongg (Code §53, §61): {seat} was not. The Code names no penalty; the referee rules whether it stands, and a call that cannot stand is a false call (Code §82)."
            ),
            Breach::EarlyWashOut { left } => format!(
                "A hand is a wash-out only when the live wall is exhausted (Code §36, §97): with {left} tiles left in it, play should have gone on; nothing is settled for a wash-out."
            ),
        }
    }
}

/// The sections of the Code a citation names (`"Code §85–88"` → 85, 86, 87, 88;
/// `"Code §46, §48, §50"` → 46, 48, 50; `"Code §95(b)"` → 95), or `None` for a citation that is
/// not of the Code (a ruleset's rule) or does not read as one.
pub fn sections(cite: &str) -> Option<Vec<u32>> {
    let rest = cite.strip_prefix("Code ")?;
    let mut out = Vec::new();
    for part in rest.split(", ") {
        let part = part.strip_prefix('§')?;
        let end = part
            .find(|c: char| !c.is_ascii_digit() && c != '–')
            .unwrap_or(part.len());
        let (range, suffix) = part.split_at(end);
        if !(suffix.is_empty() || suffix.starts_with('(') && suffix.ends_with(')')) {
            return None;
        }
        let mut ends = range.split('–');
        let first: u32 = ends.next()?.parse().ok()?;
        let last: u32 = match ends.next() {
            Some(l) => l.parse().ok()?,
            None => first,
        };
        if ends.next().is_some() || last < first {
            return None;
        }
        out.extend(first..=last);
    }
    Some(out)
}
