//! A ruleset's parameters: the limit, what is in play, and how hands are settled and penalised.

use serde::Serialize;

use super::element::LimitShare;
use crate::shape::OnlyPlaceRule;

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
    #[serde(serialize_with = "ser_only_place")]
    pub only_place: OnlyPlaceRule,
    /// A kong made by annexing a discard to a concealed pung scores as concealed (basic points).
    pub annexed_kong_scores_concealed: bool,
    /// …and counts as concealed for the concealed-pungs and fully-concealed doubles (Code
    /// §116(k), §117(c)).
    pub annexed_kong_concealed_for_doubles: bool,
    /// Tiles left in the dead wall.
    pub dead_wall: u8,
}

fn ser_only_place<S: serde::Serializer>(r: &OnlyPlaceRule, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(only_place_name(*r))
}

pub(crate) fn only_place_name(r: OnlyPlaceRule) -> &'static str {
    match r {
        OnlyPlaceRule::CodeOfLaws => "code-of-laws",
        OnlyPlaceRule::BabcockStandard => "babcock-standard",
        OnlyPlaceRule::ChineseGame => "chinese-game",
    }
}

pub(crate) fn parse_only_place(s: &str) -> Option<OnlyPlaceRule> {
    match s {
        "code-of-laws" => Some(OnlyPlaceRule::CodeOfLaws),
        "babcock-standard" => Some(OnlyPlaceRule::BabcockStandard),
        "chinese-game" => Some(OnlyPlaceRule::ChineseGame),
        _ => None,
    }
}

/// Who pays whom after a Mah-Jongg.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SettlementMethod {
    /// East pays and receives double; the discarder pays like anyone else (Code §108–109).
    Classic,
    /// Babcock ch. VIII "New Method": East not double; the discarder of the winning tile pays
    /// the winner double; a self-drawn win is paid double by all; losers settle single.
    NewMethod,
}

/// How amounts are rounded when paid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rounding {
    /// Paid exactly.
    Exact,
    /// Each payment to the nearest ten, fives up (Babcock p. 82: "12 points and 14 points
    /// would count as 10 points, and 16 points and 18 points as 20 points").
    NearestTen,
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

/// The false Mah-Jongg penalty's scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FalseMahJonggScheme {
    /// No penalty (Babcock's standard game, p. 33).
    None,
    /// A fixed amount to each opponent; two or three offenders split as Code §83.
    Fixed,
    /// A share of the limit to each opponent, the full limit to East (Harr).
    LimitShare,
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

/// Who deals the next hand after another player wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DealPasses {
    /// To the player on East's right (Code §11; Babcock p. 8; Harr p. 12; the Chinese
    /// classical rules).
    Right,
    /// To the winner (Babcock ch. VIII p. 79, "Other Methods": "the player who wins the hand
    /// becomes East for the succeeding hand", a method "seldom used").
    ToWinner,
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

/// How a limit hand is valued with the roof off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RoofOff {
    /// Its notional value or its own count, whichever is higher (Code §121: "a Full hand of
    /// which the intrinsic value exceeds the notional value is scored at the full intrinsic
    /// value").
    Higher,
    /// Always its notional value (another program's reading).
    Notional,
}

/// Where a bonus tile's replacement comes from, which decides whether a win on it is a win on
/// a loose tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BonusReplacement {
    /// From the open end of the live wall (Code §31): only a kong gives a loose tile.
    LiveWall,
    /// A loose tile from the kong box (Babcock p. 88; the Chinese classical rules: "a loose
    /// tile (the roof) as a replacement for a Kong, a Flower or a Season").
    LooseTile,
}

/// Which kongs may be robbed, the fourth tile taken by a player going Mah-Jongg with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum KongRobbing {
    /// A kong made by adding a drawn tile to an exposed pung (Code §57), and a concealed kong
    /// only to complete the Thirteen Unique Wonders (§58).
    AddedOrWonders,
    /// Only a kong made by adding a drawn tile to an exposed pung (the Chinese and British
    /// rules; Babcock's "Stealing the Fourth").
    Added,
    /// The book has no robbing of a kong.
    None,
}

/// Which rule makes a discarder pay for everyone when his discard lets another player complete a
/// hand the table could see coming.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cannons {
    /// Code §90–96, letting off a cannon: derived from the play
    /// (the `adjudicate::cannon` module) and settled as paying for all.
    CodeOfLaws,
    /// Babcock's insurance penalties (the Chinese game, pp. 74–79): derived from the play
    /// (the `adjudicate::insurance` module) and settled as paying for all, in full, in half, or
    /// half with a second discarder (pp. 75–76).
    BabcockInsurance,
    /// Harr's penalty 2 (Pung Chow, pp. 68–70): derived from the play
    /// (the `adjudicate::insurance` module) and settled as paying for all.
    HarrPenalty,
    /// The book has no such penalty.
    None,
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
