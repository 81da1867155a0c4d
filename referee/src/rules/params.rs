//! A ruleset's parameters: the limit, what is in play, and how hands are settled and penalised.
//!
//! Each closed choice a file makes here (the settlement method, the rounding, the readings of
//! Code §57–58, §96, §121, …) is one [`choice!`](crate::vocab) declaration: its values, their
//! docs and their names in files, which the loader, serde and the `rulesets` command all read.

use serde::Serialize;

use super::element::LimitShare;
use crate::shape::OnlyPlaceRule;
use crate::vocab::choice;

/// Parameters of scoring.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Params {
    /// The limit on one hand's score; `None` plays "with the roof off" (Code §118).
    pub limit: Option<u64>,
    /// With the roof off, the agreed value of a limit hand (Code §121); a limit hand whose
    /// own count is higher scores its count.
    pub notional_limit: u64,
    /// Whether flowers and seasons are in play.
    pub bonus_tiles: bool,
    /// Copies of each bonus tile in the set (Babcock's and Harr's Seasons come in two colours).
    pub bonus_copies: u8,
    /// Most chows a Mah-Jongg hand may hold (BMJA's one-chow rule: 1).
    pub max_chows: u8,
    /// Which book's rule decides "filling the only place".
    pub only_place: OnlyPlaceRule,
    /// A kong made by annexing a discard to a concealed pung scores as concealed (basic points).
    pub annexed_kong_scores_concealed: bool,
    /// …and counts as concealed for the concealed-pungs and fully-concealed doubles (Code
    /// §116(k), §117(c)).
    pub annexed_kong_concealed_for_doubles: bool,
    /// Tiles left in the dead wall.
    pub dead_wall: u8,
}

choice! {
    /// Who pays whom after a Mah-Jongg.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum SettlementMethod: "settlement method" {
        /// East pays and receives double; the discarder pays like anyone else (Code §108–109).
        Classic = "classic",
        /// Babcock ch. VIII "New Method": East not double; the discarder of the winning tile pays
        /// the winner double; a self-drawn win is paid double by all; losers settle single.
        NewMethod = "new-method",
    }
}

choice! {
    /// How amounts are rounded when paid.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Rounding: "rounding rule" {
        /// Paid exactly.
        Exact = "exact",
        /// Each payment to the nearest ten, fives up (Babcock p. 82: "12 points and 14 points
        /// would count as 10 points, and 16 points and 18 points as 20 points").
        NearestTen = "nearest-ten",
    }
}

/// Parameters of settlement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SettlementParams {
    pub method: SettlementMethod,
    /// The three losers settle their differences (Code §109).
    pub losers_settle: bool,
    /// A limit hand cancels the losers' settlement (Babcock p. 81, a Chinese table rule).
    pub limit_hand_cancels_losers: bool,
    pub rounding: Rounding,
    /// Five-handed: each loser pays the Dreamer 2 points doubled as often as the winner's
    /// doubles, a limit hand counting as `dreamer_limit_doubles` (Code §128 note 2).
    pub dreamer_payment: bool,
    pub dreamer_limit_doubles: u32,
}

choice! {
    /// The false Mah-Jongg penalty's scheme.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum FalseMahJonggScheme: "false Mah-Jongg scheme" {
        /// No penalty (Babcock's standard game, p. 33).
        None = "none",
        /// A fixed amount to each opponent; two or three offenders split as Code §83.
        Fixed = "fixed",
        /// A share of the limit to each opponent, the full limit to East (Harr).
        LimitShare = "limit-share",
    }
}

/// Penalty amounts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PenaltyParams {
    pub false_mahjong: FalseMahJonggScheme,
    /// The amount to each opponent for one offender (Code §82: 300).
    pub false_mahjong_amount: u64,
    /// Each of two offenders to each non-offender (Code §83: 150).
    pub false_mahjong_two: u64,
    /// Each of three offenders to the fourth player (Code §83: 100).
    pub false_mahjong_three: u64,
    /// East pays and receives the false Mah-Jongg penalty double (Babcock ch. VIII p. 74).
    pub false_mahjong_east_double: bool,
    /// False naming of a discard claimed for chow, for pung or kong, for Mah-Jongg, and for a
    /// false Mah-Jongg (Code §85, §86, §87(a), §87(b)); zero where the ruleset has none.
    pub false_naming_chow: u64,
    pub false_naming_pung: u64,
    pub false_naming_mahjong: u64,
    pub false_naming_false_mahjong: u64,
    /// A dealt hand with at least this many different single heads (ones, nines, winds,
    /// dragons) may call for a new deal and collect from each player (Babcock p. 80 "Nine
    /// Mummies"; Harr p. 61 "washing the tiles"); 0 when the custom is not played.
    pub new_deal_heads: u64,
    /// What each other player pays, for `new_deal_heads`, one more, … (the last entry for
    /// all higher counts).
    pub new_deal_payments: Vec<u64>,
    /// Where the penalty rules are.
    pub cite: String,
}

choice! {
    /// Who deals the next hand after another player wins.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum DealPasses: "deal-passing rule" {
        /// To the player on East's right (Code §11; Babcock p. 8; Harr p. 12; the Chinese
        /// classical rules).
        Right = "right",
        /// To the winner (Babcock ch. VIII p. 79, "Other Methods": "the player who wins the hand
        /// becomes East for the succeeding hand", a method "seldom used").
        ToWinner = "to-winner",
    }
}

/// How the deal and the prevailing wind go round (Code §11–14 and the books' customs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RotationParams {
    pub deal_passes: DealPasses,
    /// East keeps the deal after a wash-out (Code §11, §97; Babcock p. 8; Harr p. 12; Chinese
    /// classical "Finishing").
    pub east_keeps_on_wash_out: bool,
    /// Rounds (prevailing winds) in a game: four, East to North (Code §13).
    pub rounds_per_game: u8,
    /// East gives up the deal after this many consecutive wins, wash-outs between them not
    /// counting (Code §122(r): thirteen); 0 when East may keep it indefinitely.
    pub east_gives_up_after: u32,
    /// Where the rotation rules are.
    pub cite: String,
}

/// A point where the books can be read two ways: the reading this ruleset takes, and the text
/// it reads. Shown by `mahjong-referee rulesets NAME`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reading<T> {
    pub value: T,
    pub cite: String,
}

choice! {
    /// How a limit hand is valued with the roof off.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum RoofOff: "roof-off reading" {
        /// Its notional value or its own count, whichever is higher (Code §121: "a Full hand of
        /// which the intrinsic value exceeds the notional value is scored at the full intrinsic
        /// value").
        Higher = "higher",
        /// Always its notional value (another program's reading).
        Notional = "notional",
    }
}

choice! {
    /// Where a bonus tile's replacement comes from, which decides whether a win on it is a win on
    /// a loose tile.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum BonusReplacement: "bonus-replacement source" {
        /// From the open end of the live wall (Code §31): only a kong gives a loose tile.
        LiveWall = "live-wall",
        /// A loose tile from the kong box (Babcock p. 88; the Chinese classical rules: "a loose
        /// tile (the roof) as a replacement for a Kong, a Flower or a Season").
        LooseTile = "loose-tile",
    }
}

choice! {
    /// Which kongs may be robbed, the fourth tile taken by a player going Mah-Jongg with it.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum KongRobbing: "kind of kong robbing" {
        /// A kong made by adding a drawn tile to an exposed pung (Code §57), and a concealed kong
        /// only to complete the Thirteen Unique Wonders (§58).
        AddedOrWonders = "added-or-wonders",
        /// Only a kong made by adding a drawn tile to an exposed pung (the Chinese and British
        /// rules; Babcock's "Stealing the Fourth").
        Added = "added",
        /// The book has no robbing of a kong.
        None = "none",
    }
}

choice! {
    /// Which rule makes a discarder pay for everyone when his discard lets another player
    /// complete a hand the table could see coming.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Cannons: "rule for dangerous discards" {
        /// Code §90–96, letting off a cannon: derived from the play
        /// (the `adjudicate::cannon` module) and settled as paying for all.
        CodeOfLaws = "code-of-laws",
        /// Babcock's insurance penalties (the Chinese game, pp. 74–79): derived from the play
        /// (the `adjudicate::insurance` module) and settled as paying for all, in full, in half, or
        /// half with a second discarder (pp. 75–76).
        BabcockInsurance = "babcock-insurance",
        /// Harr's penalty 2 (Pung Chow, pp. 68–70): derived from the play
        /// (the `adjudicate::insurance` module) and settled as paying for all.
        HarrPenalty = "harr-penalty",
        /// The book has no such penalty.
        None = "none",
    }
}

/// The readings a ruleset takes where its book can be read two ways.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Readings {
    /// Code §115(c), with [`OnlyPlaceRule::CodeOfLaws`]: `true` counts a wait dead when its
    /// four copies are on the table or in the caller's own concealed tiles ("the only
    /// denomination of tile which could have completed the hand"); `false` counts only tiles
    /// "exposed on the table, whether in the discard, or in exposed or declared sets".
    pub only_place_counts_own_tiles: Reading<bool>,
    /// Code §121: a limit hand with the roof off.
    pub roof_off_limit_hand: Reading<RoofOff>,
    /// Code §31: where bonus replacements come from.
    pub bonus_replacement: Reading<BonusReplacement>,
    /// How many tiles are set aside at the end of the wall as the kong box (dead wall), the
    /// loose tiles included: Code §20–22 sixteen, the Chinese and British rules and Babcock
    /// fourteen.
    pub kong_box: Reading<u32>,
    /// Whether the kong box is kept at its size by taking the end of the live wall as loose
    /// tiles are drawn (Babcock: "the two last tiles in the wall are placed on top of the end
    /// of the wall and used as new loose tiles"; a draw when fourteen tiles are left), or
    /// shrinks (Code §22; the British rules' "whatever remains of the 14 tiles").
    pub kong_box_replenished: Reading<bool>,
    /// Which kongs may be robbed (Code §57–58).
    pub kong_robbing: Reading<KongRobbing>,
    /// Which rule charges a dangerous discard (Code §90–96, Babcock's insurance, Harr's
    /// penalty 2).
    pub cannons: Reading<Cannons>,
    /// The share of a special hand's award that a *losing* hand calling for it scores
    /// (Chinese classical rules: "or a player was Calling on a special hand at Mah Jong, the
    /// scores in the Special Hand table apply"); `None` where a calling hand scores as it lies.
    pub calling_special: Reading<Option<LimitShare>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Ruleset;
    use crate::vocab::tests::check_table;
    use crate::vocab::{article, Choice};

    /// A house ruleset on the Code giving `key = "word"` in `[section]`.
    fn house(section: &str, key: &str, word: &str) -> String {
        format!("name = \"club\"\nbase = \"code-of-laws\"\n[{section}]\n{key} = \"{word}\"\n")
    }

    /// The loader reads every name of `T` at `[section] key` as its value (`read` finds it in
    /// the ruleset), and refuses any other word, saying what it expected.
    fn loads_every_name<T: Choice>(section: &str, key: &str, read: fn(&Ruleset) -> T) {
        for &v in T::ALL {
            let r = Ruleset::parse(&house(section, key, v.name()))
                .unwrap_or_else(|e| panic!("{key} = {:?}: {e}", v.name()));
            assert_eq!(read(&r), v, "{key} = {:?}", v.name());
        }
        let e = Ruleset::parse(&house(section, key, "no-such-word")).unwrap_err();
        let [p] = &e.problems[..] else {
            panic!("{key}: {e}");
        };
        let names: Vec<&str> = T::ALL.iter().map(|v| v.name()).collect();
        assert_eq!(
            p.message,
            format!(
                "`{key}` = \"no-such-word\" is not {} {} (the {}s: {})",
                article(T::WHAT),
                T::WHAT,
                T::WHAT,
                names.join(", ")
            )
        );
    }

    #[test]
    fn each_choice_is_one_table_of_names() {
        check_table::<OnlyPlaceRule>();
        check_table::<SettlementMethod>();
        check_table::<Rounding>();
        check_table::<FalseMahJonggScheme>();
        check_table::<DealPasses>();
        check_table::<RoofOff>();
        check_table::<BonusReplacement>();
        check_table::<KongRobbing>();
        check_table::<Cannons>();
    }

    #[test]
    fn the_loader_accepts_every_name_of_each_choice() {
        loads_every_name("params", "only_place", |r| r.params.only_place);
        loads_every_name("settlement", "method", |r| r.settlement.method);
        loads_every_name("settlement", "rounding", |r| r.settlement.rounding);
        loads_every_name("penalties", "false_mahjong", |r| r.penalties.false_mahjong);
        loads_every_name("rotation", "deal_passes", |r| r.rotation.deal_passes);
        let readings = "readings";
        loads_every_name(readings, "roof_off_limit_hand", |r| {
            r.readings.roof_off_limit_hand.value
        });
        loads_every_name(readings, "bonus_replacement", |r| {
            r.readings.bonus_replacement.value
        });
        loads_every_name(readings, "kong_robbing", |r| r.readings.kong_robbing.value);
        loads_every_name(readings, "cannons", |r| r.readings.cannons.value);
    }

    #[test]
    fn a_ruleset_shows_its_choices_by_name() {
        let r = Ruleset::builtin("code-of-laws").unwrap();
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["params"]["only_place"], r.params.only_place.name());
        assert_eq!(json["settlement"]["method"], r.settlement.method.name());
        assert_eq!(
            json["readings"]["kong_robbing"]["value"],
            r.readings.kong_robbing.value.name()
        );
    }
}
