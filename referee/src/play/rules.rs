//! How play runs under a ruleset: the parameters of play, as opposed to scoring.

use crate::rules::{BonusReplacement, Cannons, KongRobbing, Ruleset, SettlementMethod};

/// The parameters of play a replay needs, taken from a ruleset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayRules {
    /// Playing tiles and bonus tiles in the set.
    pub tiles: u32,
    /// Bonus tiles in the set (none when the ruleset does not play them).
    pub bonus_tiles: u32,
    /// Tiles set aside as the kong box at the start, the loose tiles included (Code §20–22:
    /// seven stacks and the two loose tiles, sixteen; the Chinese, British and Babcock's rules:
    /// fourteen).
    pub kong_box: u32,
    /// The kong box is kept at its size from the end of the live wall as loose tiles are
    /// drawn (Babcock), rather than shrinking (Code §22, the Chinese and British rules).
    pub kong_box_replenished: bool,
    /// Where a bonus tile's replacement is drawn from (Code §31: the live wall).
    pub bonus_replacement: BonusReplacement,
    /// The most chows a hand may hold (British: one).
    pub max_chows: u8,
    /// Which kongs may be robbed (Code §57–58).
    pub kong_robbing: KongRobbing,
    /// Which rule charges a dangerous discard: under the Code's (§90–96) a hand played to a
    /// cannon is settled with the discarder paying for all; under Babcock's insurance
    /// penalties or Harr's penalty 2, as the book says (the `adjudicate::insurance` findings).
    pub cannons: Cannons,
    /// The ruleset settles by Babcock's New Method (pp. 78–79), under which a discarder holding
    /// any waiting hand is not liable for the insurance penalty.
    pub new_method: bool,
}

impl PlayRules {
    /// The playing tiles (three suits of nine, four winds, three dragons, four of each).
    pub const PLAYING_TILES: u32 = 136;
    /// Code §20–22.
    pub const CODE_KONG_BOX: u32 = 16;

    /// The rules of play of `rules`.
    pub fn of(rules: &Ruleset) -> PlayRules {
        let bonus_tiles = if rules.params.bonus_tiles {
            8 * u32::from(rules.params.bonus_copies)
        } else {
            0
        };
        PlayRules {
            tiles: Self::PLAYING_TILES + bonus_tiles,
            bonus_tiles,
            kong_box: rules.readings.kong_box.value,
            kong_box_replenished: rules.readings.kong_box_replenished.value,
            bonus_replacement: rules.readings.bonus_replacement.value,
            max_chows: rules.params.max_chows,
            kong_robbing: rules.readings.kong_robbing.value,
            cannons: rules.readings.cannons.value,
            new_method: rules.settlement.method == SettlementMethod::NewMethod,
        }
    }
}

impl Default for PlayRules {
    /// The Code of Laws: 144 tiles with the eight flowers and seasons, a kong box of sixteen,
    /// bonus tiles replaced from the live wall.
    fn default() -> PlayRules {
        PlayRules {
            tiles: Self::PLAYING_TILES + 8,
            bonus_tiles: 8,
            kong_box: Self::CODE_KONG_BOX,
            kong_box_replenished: false,
            bonus_replacement: BonusReplacement::LiveWall,
            max_chows: 4,
            kong_robbing: KongRobbing::AddedOrWonders,
            cannons: Cannons::CodeOfLaws,
            new_method: false,
        }
    }
}
