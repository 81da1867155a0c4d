//! "Filling the only place": whether the winning tile was the only one that could complete the
//! hand. The three books answer differently, so the rule is a parameter.
//!
//! - **Code of Laws §115(c)** — by denomination: the final tile scores if it "is the only
//!   denomination of tile which could have completed the hand"; and "if a hand could
//!   theoretically be completed by either of two different tiles, but all four of one tile are
//!   already exposed on the table, whether in the discard, or in exposed or declared sets, one of
//!   the other tile may be regarded as filling the only place". Interpretation: we apply the
//!   note to any number of waits, and count a wait as dead when all four copies are accounted
//!   for by the table *together with the player's own concealed tiles* — the rule asks which
//!   tile "could have completed the hand", and a tile whose last copies sit in the caller's own
//!   hand could not, just as one whose copies are on the table (test
//!   `code_counts_own_tiles_with_the_table` pins this). The other reading — only tiles "exposed on
//!   the table" count — is played too, so it is the ruleset reading `only_place_counts_own_tiles`
//!   (`false` gives it); [`fills_only_place`] answers with the first.
//! - **Babcock, standard game (p. 39)** — three situations: filling a run open at one end (the 3
//!   to 1-2, the 7 to 8-9), filling a run in the middle (the 6 to 5-7), or obtaining the second
//!   tile of the final pair; "but only provided that the winning tile is the only tile which
//!   would complete the hand". Tiles seen on the table do not matter: Fig. 21 denies the score to
//!   a 5 completing 6-7 "even if four eights … are in sight".
//! - **Babcock, the Chinese game (ch. VIII, p. 69)** — the same three situations each score, with
//!   no uniqueness condition: Fig. 21 won on the 2 of bamboo scores "the second to a pair" though
//!   the 5 would also have completed it.
//!
//! The hand here is the concealed part *before* the winning tile (`3n + 1` tiles); declared sets
//! are complete and play no part. Because a winning tile may play different roles in different
//! arrangements of the same tiles (Babcock Fig. 21's 2 of bamboo: a pair, or the end of a run),
//! [`winning_roles`] reports the role per arrangement, for the scorer to choose the best.

use crate::counts::{TileCounts, TileSet};
use crate::shape::arrange::arrangements;
use crate::shape::set::{Arrangement, SetKind};
use crate::shape::waits::standard_waits;
use crate::tile::Tile;
use crate::vocab::choice;

choice! {
    /// Which book's rule decides (a ruleset's `only_place`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum OnlyPlaceRule: "only-place rule" {
        /// Code of Laws §115(c) and its note.
        CodeOfLaws = "code-of-laws",
        /// Babcock p. 39 and Fig. 21: the three situations, and the only tile.
        BabcockStandard = "babcock-standard",
        /// Babcock ch. VIII (p. 69): the three situations, whatever else would have won.
        ChineseGame = "chinese-game",
    }
}

/// How many tiles would have completed the hand, and how many of them still had a copy unseen
/// ([`live`]): what the rules of "the only place" ask of the table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WaitCounts {
    /// Every tile that would have completed the hand.
    pub waits: usize,
    /// …of which some copy was still unseen.
    pub live: usize,
}

impl OnlyPlaceRule {
    /// The rule itself, decided once here for [`fills_only_place`] and the scorer alike: did
    /// the winning tile fill the only place, given the hand's `waits` and whether the tile
    /// played one of Babcock's three situations ([`WinningRole::is_situation`]; asked only
    /// when the rule looks at it, as finding it may mean searching the arrangements)?
    pub fn fills(self, waits: WaitCounts, in_situation: impl FnOnce() -> bool) -> bool {
        match self {
            // §115(c) and its note: one denomination left that could complete the hand.
            OnlyPlaceRule::CodeOfLaws => waits.live == 1,
            // p. 39: a situation, "provided that the winning tile is the only tile which would
            // complete the hand"; the table does not matter (Fig. 21).
            OnlyPlaceRule::BabcockStandard => waits.waits == 1 && in_situation(),
            // p. 69: a situation, whatever else would have won.
            OnlyPlaceRule::ChineseGame => in_situation(),
        }
    }
}

/// What the winning tile did in one arrangement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinningRole {
    /// Completed the pair ("obtaining the second to a pair", "fishing the eyes").
    Pair,
    /// Filled a run in the middle (the 6 to 5-7).
    MiddleOfRun,
    /// Filled a run open at one end only (the 3 to 1-2, the 7 to 8-9).
    EndOfRun,
    /// Completed a run open at both ends (the 3 or 6 to 4-5).
    OpenRun,
    /// Completed a pung.
    Pung,
}

impl WinningRole {
    /// One of Babcock's three situations.
    pub const fn is_situation(self) -> bool {
        matches!(
            self,
            WinningRole::Pair | WinningRole::MiddleOfRun | WinningRole::EndOfRun
        )
    }
}

/// The roles the winning tile can be given in `arrangement` (several when it sits in more than
/// one group: the player may say which copy came last).
pub fn winning_roles(arrangement: &Arrangement, winning: Tile) -> Vec<WinningRole> {
    let mut roles = Vec::new();
    if arrangement.pair() == winning {
        roles.push(WinningRole::Pair);
    }
    for set in arrangement.sets() {
        let role = match set.kind() {
            SetKind::Pung | SetKind::Kong if set.tile() == winning => WinningRole::Pung,
            SetKind::Chow if set.contains(winning) => chow_role(set.tile(), winning),
            _ => continue,
        };
        if !roles.contains(&role) {
            roles.push(role);
        }
    }
    roles
}

/// The waits of which some copy is unseen: not on the table, nor — when `counts_own` — in the
/// caller's own concealed tiles (Code §115(c) and its note; see the module doc). `counts_own` is
/// the ruleset's reading `only_place_counts_own_tiles`.
pub fn live(
    waits: TileSet,
    before: &TileCounts,
    visible: &TileCounts,
    counts_own: bool,
) -> TileSet {
    waits
        .iter()
        .filter(|&t| visible.get(t) + if counts_own { before.get(t) } else { 0 } < 4)
        .collect()
}

/// What `winning` did in the chow whose lowest tile is `lowest` (it must be one of its tiles):
/// filled the middle, the only open end (the 3 to 1-2, the 7 to 8-9), or an end open both ways.
pub fn chow_role(lowest: Tile, winning: Tile) -> WinningRole {
    let low = lowest.rank().unwrap_or(0);
    match (winning.rank().unwrap_or(0).saturating_sub(low), low) {
        (1, _) => WinningRole::MiddleOfRun,
        (0, 7) | (2, 1) => WinningRole::EndOfRun,
        _ => WinningRole::OpenRun,
    }
}

/// Why the question cannot be answered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OnlyPlaceError {
    #[error("`{winning}` does not complete the hand {hand} (its waits are {waits})")]
    NotAWait {
        hand: TileCounts,
        winning: Tile,
        waits: String,
    },
    #[error("more than four `{tile}`: {in_hand} in the hand and {visible} on the table")]
    TooManyCopies {
        tile: Tile,
        in_hand: u8,
        visible: u8,
    },
}

/// The answer, with the facts it rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OnlyPlace {
    /// Did the winning tile fill the only place under the rule asked?
    pub filled: bool,
    /// Every tile that would have completed the hand.
    pub waits: TileSet,
    /// The waits of which some copy is still unseen (what the Code's rule looks at).
    pub live_waits: TileSet,
}

/// Did `winning` fill the only place, completing `before` (concealed, `3n + 1` tiles), with
/// `visible` the tiles exposed on the table (discards and every player's exposed and declared
/// sets, not counting the winning tile itself)?
pub fn fills_only_place(
    rule: OnlyPlaceRule,
    before: &TileCounts,
    winning: Tile,
    visible: &TileCounts,
) -> Result<OnlyPlace, OnlyPlaceError> {
    for t in Tile::ALL {
        let in_hand = before.get(t) + u8::from(t == winning);
        if in_hand + visible.get(t) > 4 {
            return Err(OnlyPlaceError::TooManyCopies {
                tile: t,
                in_hand,
                visible: visible.get(t),
            });
        }
    }
    let waits = standard_waits(before);
    if !waits.contains(winning) {
        return Err(OnlyPlaceError::NotAWait {
            hand: *before,
            winning,
            waits: waits.to_tokens(),
        });
    }
    let live_waits = live(waits, before, visible, true);
    let counts = WaitCounts {
        waits: waits.len(),
        live: live_waits.len(),
    };
    // Any arrangement will do: the player may say which copy came last.
    let in_situation = || {
        before.with(winning).is_some_and(|after| {
            arrangements(&after)
                .iter()
                .any(|a| winning_roles(a, winning).iter().any(|r| r.is_situation()))
        })
    };
    let filled = rule.fills(counts, in_situation);
    Ok(OnlyPlace {
        filled,
        waits,
        live_waits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counts::parse_counts;

    fn filled(rule: OnlyPlaceRule, hand: &str, win: &str, visible: &str) -> bool {
        fills_only_place(
            rule,
            &parse_counts(hand, None).unwrap(),
            win.parse().unwrap(),
            &parse_counts(visible, None).unwrap(),
        )
        .unwrap()
        .filled
    }

    use OnlyPlaceRule::*;

    #[test]
    fn code_note_two_and_four_circles() {
        // §115(c) note: three sets and a pair, holding 2 and 4 circles: the 3 fills the only place.
        assert!(filled(CodeOfLaws, "123m 456m 789s EE 24p", "3p", ""));
        // Holding 4 and 5: the 3 is not the only tile ...
        assert!(!filled(CodeOfLaws, "123m 456m 789s EE 45p", "3p", ""));
        // ... unless four 6 circles are exposed on the table.
        assert!(filled(CodeOfLaws, "123m 456m 789s EE 45p", "3p", "6666p"));
        // Three exposed are not enough.
        assert!(!filled(CodeOfLaws, "123m 456m 789s EE 45p", "3p", "666p"));
    }

    #[test]
    fn code_fishing_the_eyes_is_not_always_the_only_place() {
        // §115(d) note: 6-7-8-9 circles wins on the 6 or the 9: fishing the eyes either way,
        // but not the only place.
        assert!(!filled(CodeOfLaws, "123m 456m 789s 6789p", "6p", ""));
        assert!(filled(CodeOfLaws, "123m 456m 789s 678p R", "R", ""));
    }

    // Babcock Fig. 21 (p. 46): the complete hand, as its text fixes it, is 5-6-7 characters,
    // 7-8-9 bamboo, 2-3-4 circles, 3-4-5 bamboo and a pair of 2 bamboo; the book then asks which
    // tile came last.
    #[test]
    fn babcock_fig_21() {
        // The 5 of characters to 6-7: open at both ends, "even if four eights of characters are
        // in sight": no score.
        assert!(!filled(
            BabcockStandard,
            "67m 789s 234p 345s 22s",
            "5m",
            "8888m"
        ));
        // The 7 of bamboo to 8-9: a run open at only one end.
        assert!(filled(BabcockStandard, "567m 89s 234p 345s 22s", "7s", ""));
        // The 6 of characters, or the 3 of circles: a run in the middle.
        assert!(filled(BabcockStandard, "57m 789s 234p 345s 22s", "6m", ""));
        assert!(filled(BabcockStandard, "567m 789s 24p 345s 22s", "3p", ""));
        // The 2 of circles to 3-4: open at both ends.
        assert!(!filled(BabcockStandard, "567m 789s 34p 345s 22s", "2p", ""));
        // The 2 of bamboo: "not filling in the only place, as the 5 of bamboo would also
        // complete the hand".
        assert!(!filled(BabcockStandard, "567m 789s 234p 2345s", "2s", ""));
        // The Code, by contrast, looks at the table: with four 8s of characters exposed the 5 is
        // the only tile left.
        assert!(filled(CodeOfLaws, "67m 789s 234p 345s 22s", "5m", "8888m"));
    }

    #[test]
    fn chinese_game_situations_without_uniqueness() {
        // Babcock p. 69 on Fig. 21: the 2 of bamboo completing 2-3-4-5 bamboo as 2-2 + 3-4-5
        // scores "the second to a pair", though the 5 would also have completed the hand.
        let hand = "567m 789s 234p 2345s";
        assert!(filled(ChineseGame, hand, "2s", ""));
        assert!(!filled(BabcockStandard, hand, "2s", ""));
        // Open-ended run only: nothing.
        assert!(!filled(ChineseGame, "123m 456p 789p EE 67m", "5m", ""));
        // 4-5-6-6-7: the 5 may be read into 4-_-6 beside 5-6-7, a run filled in the middle.
        assert!(filled(ChineseGame, "123m 456m 789p EE 67m", "5m", ""));
        assert!(!filled(BabcockStandard, "123m 456m 789p EE 67m", "5m", ""));
        // Two pairs, won as a pung: nothing in any book without the table's help.
        assert!(!filled(ChineseGame, "123m 456m 789p EE 55s", "E", ""));
        assert!(!filled(BabcockStandard, "123m 456m 789p EE 55s", "E", ""));
        assert!(!filled(CodeOfLaws, "123m 456m 789p EE 55s", "E", "5s"));
    }

    #[test]
    fn code_counts_own_tiles_with_the_table() {
        // Two 5s in hand and two exposed: no 5 can come, so the East filled the only place.
        assert!(filled(CodeOfLaws, "123m 456m 789p EE 55s", "E", "55s"));
    }

    #[test]
    fn bad_questions_are_refused() {
        let e = fills_only_place(
            CodeOfLaws,
            &parse_counts("123m 456m 789s EE 24p", None).unwrap(),
            "5p".parse().unwrap(),
            &TileCounts::EMPTY,
        );
        assert!(matches!(e, Err(OnlyPlaceError::NotAWait { .. })));
        let e = fills_only_place(
            CodeOfLaws,
            &parse_counts("123m 456m 789s EE 24p", None).unwrap(),
            "3p".parse().unwrap(),
            &parse_counts("3333p", None).unwrap(),
        );
        assert!(matches!(e, Err(OnlyPlaceError::TooManyCopies { .. })));
    }

    #[test]
    fn roles_per_arrangement() {
        // 1-1-1-2-3: the last 1 either completed the pair 1-1 or the run 1-2-3 (open at both
        // ends: 2-3 waited on 1 or 4).
        let after = parse_counts("456m 789p EEE 11123s", None).unwrap();
        let two: Tile = "1s".parse().unwrap();
        let mut roles: Vec<WinningRole> = arrangements(&after)
            .iter()
            .flat_map(|a| winning_roles(a, two))
            .collect();
        roles.sort_by_key(|r| format!("{r:?}"));
        assert_eq!(roles, [WinningRole::OpenRun, WinningRole::Pair]);
    }
}
