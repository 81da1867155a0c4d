//! Recognising each condition of the catalogue in one way of counting a hand, and adding up.

use crate::counts::TileCounts;
use crate::hand::MeldForm;
use crate::rules::{Applies, Condition, Element, LimitShare, RoofOff, Ruleset, TileFilter, Value};
use crate::shape::{OnlyPlaceRule, SetKind, SpecialShape, WinningRole};
use crate::tile::{Bonus, Suit, Tile, Wind};

use super::candidate::{Candidate, Group, GroupKind};
use super::input::{ScoreInput, WinFrom};
use super::sheet::{LineValue, ScoreSheet, SheetLine};
use super::OnlyPlaceFacts;

/// Facts about the whole hand that no regrouping changes.
pub(crate) struct Context<'a> {
    rules: &'a Ruleset,
    input: &'a ScoreInput,
    only: Option<OnlyPlaceFacts>,
    /// Every tile of the hand (kongs as four, the winning tile included).
    tiles: TileCounts,
    /// Suits present, and whether any honour is.
    suits: usize,
    honours: bool,
    /// Special shapes (named by the ruleset) the whole hand takes.
    shapes_met: Vec<SpecialShape>,
    elements: Vec<&'a Element>,
    /// Elements whose conditions do not depend on the way of counting, evaluated once:
    /// (element index, count).
    fixed: Vec<(usize, u32)>,
    /// Indices of the elements evaluated per way of counting.
    varying: Vec<usize>,
}

/// Does the condition look at the groups of a way of counting (so must be evaluated for each)?
fn depends_on_groups(c: Condition) -> bool {
    use Condition::*;
    c.is_per_set()
        || matches!(
            c,
            LittleThreeDragons
                | BigThreeDragons
                | LittleFourWinds
                | BigFourWinds
                | FourWindHand
                | ThreeConcealedPungs
                | FourConcealedPungs
                | FourKongs
                | ThreeGreatScholars
                | NoChows
                | AllChowsNonScoringPair
                | NothingButGame
                | FullyConcealed
                | ConcealedClearSuit
                | BuriedTreasure
                | Special
                | OnlyPlace
                | FishingEyes
                | CompletesChow
                | CompletesChowClosed
        )
}

/// One way of counting, added up: which elements met (index into the context's elements,
/// count, group), and the totals.
pub(crate) struct Tally {
    pub met: Vec<(usize, u32, Option<usize>)>,
    pub basic: u64,
    pub doubles: u32,
    pub raw: u64,
    pub total: u64,
    pub limited: bool,
    pub share: Option<LimitShare>,
}

impl<'a> Context<'a> {
    pub fn new(rules: &'a Ruleset, input: &'a ScoreInput, only: Option<OnlyPlaceFacts>) -> Self {
        Self::with_elements(rules, input, only, |_| true)
    }

    /// For a losing hand completed by the tile it calls for: only the special hands a caller
    /// may be credited with (see `calling`).
    pub fn calling(rules: &'a Ruleset, input: &'a ScoreInput) -> Self {
        Self::with_elements(rules, input, None, super::calling::callable)
    }

    /// The `i`th element in force here.
    pub fn element(&self, i: usize) -> &'a Element {
        self.elements[i]
    }

    fn with_elements(
        rules: &'a Ruleset,
        input: &'a ScoreInput,
        only: Option<OnlyPlaceFacts>,
        keep: impl Fn(&Element) -> bool,
    ) -> Self {
        let hand = &input.hand;
        let mut tiles = *hand.concealed();
        if let Some(w) = hand.winning() {
            let _ = tiles.try_add(w);
        }
        for m in hand.melds() {
            for t in m.set.tiles() {
                let _ = tiles.try_add(t);
            }
        }
        let mahjong = input.win.is_some();
        let elements = rules
            .active_elements()
            .filter(|e| mahjong || e.applies == Applies::AllHands)
            .filter(|e| keep(e))
            .collect();
        let mut ctx = Context {
            rules,
            input,
            only,
            tiles,
            suits: 0,
            honours: false,
            shapes_met: Vec::new(),
            elements,
            fixed: Vec::new(),
            varying: Vec::new(),
        };
        (ctx.suits, ctx.honours) = ctx.compute_suits();
        if let (Some(w), Some(win)) = (hand.winning(), input.win) {
            ctx.shapes_met = ctx
                .elements
                .iter()
                .filter_map(|e| e.shape)
                .filter(|&s| {
                    super::candidate::shape_allowed(s, hand, w, win.from.is_drawn())
                        && s.is_complete(&super::candidate::shape_counts(hand, w), w)
                })
                .collect();
        }
        // Conditions that ignore the grouping are the same for every way of counting: a
        // standard one stands for all of them here.
        let standard = Candidate {
            groups: super::candidate::Groups::new(),
            special: None,
        };
        for (i, e) in ctx.elements.iter().enumerate() {
            if depends_on_groups(e.condition) || e.also.iter().any(|&c| depends_on_groups(c)) {
                ctx.varying.push(i);
            } else {
                let mut n = 0;
                ctx.occurrences(e, &standard, &mut |k, _| n += k);
                if n > 0 {
                    ctx.fixed.push((i, n));
                }
            }
        }
        ctx
    }

    fn tile_matches(&self, f: TileFilter, t: Tile) -> bool {
        let own = Tile::wind(self.input.seat);
        let prevailing = Tile::wind(self.input.prevailing);
        match f {
            TileFilter::Any => true,
            TileFilter::Simples => t.is_minor(),
            TileFilter::Terminals => t.is_terminal(),
            TileFilter::Honours => t.is_honour(),
            TileFilter::Majors => t.is_major(),
            TileFilter::Winds => t.is_wind(),
            TileFilter::Dragons => t.is_dragon(),
            TileFilter::OwnWind => t == own,
            TileFilter::PrevailingWind => t == prevailing,
            TileFilter::OwnAndPrevailingWind => t == own && t == prevailing,
            TileFilter::OtherWind => t.is_wind() && t != own && t != prevailing,
            TileFilter::TerminalsAndOtherWinds => t.is_terminal() || (t.is_wind() && t != own),
            TileFilter::DragonsAndOwnWind => t.is_dragon() || t == own,
        }
    }

    fn composition(&self, pred: impl Fn(Tile) -> bool) -> bool {
        self.tiles.tiles().all(pred)
    }

    fn compute_suits(&self) -> (usize, bool) {
        let mut mask = 0u8;
        let mut honours = false;
        for t in self.tiles.tiles() {
            match t.suit() {
                Some(s) => mask |= 1 << s.index(),
                None => honours = true,
            }
        }
        (mask.count_ones() as usize, honours)
    }

    fn bonus_count(&self, f: impl Fn(Bonus) -> bool) -> u32 {
        self.input.hand.bonus().iter().filter(|&&b| f(b)).count() as u32
    }

    /// How many times `e` is met in `c`, reported to `out` as (count, group index) — per-set
    /// conditions once per matching group.
    fn occurrences(&self, e: &Element, c: &Candidate, out: &mut impl FnMut(u32, Option<usize>)) {
        if !e.also.is_empty() {
            let all = e.also.iter().all(|&cond| {
                let mut met = false;
                self.occurrences_of(cond, e, c, &mut |n, _| met |= n > 0);
                met
            });
            if !all {
                return;
            }
        }
        self.occurrences_of(e.condition, e, c, out)
    }

    /// How many times `cond` is met, with `e`'s filters and value.
    fn occurrences_of(
        &self,
        cond: Condition,
        e: &Element,
        c: &Candidate,
        out: &mut impl FnMut(u32, Option<usize>),
    ) {
        use Condition::*;
        let win = self.input.win;
        let groups = &c.groups;
        let seat = self.input.seat;
        let is_set_of = |g: &Group, f: TileFilter| g.is_set() && self.tile_matches(f, g.tile);
        let sets_of = |f: TileFilter| groups.iter().filter(|g| is_set_of(g, f)).count();
        let pairs_of = |f: TileFilter| {
            groups
                .iter()
                .filter(|g| g.kind == GroupKind::Pair && self.tile_matches(f, g.tile))
                .count()
        };
        let once = u32::from;
        let special = c.special.is_some();
        // A special shape has no sets to score: only limit hands are recognised in it (its own
        // element, and the situations and compositions that are limit hands by themselves).
        if special && !matches!(e.value, Value::Limit(_)) {
            return;
        }
        let from = win.map(|w| w.from);
        let source = win.map(|w| w.source());
        let last = win.is_some_and(|w| w.is_last_tile());
        let heaven = win.is_some_and(|w| w.heavens_blessing);
        let winning_tile = self.input.hand.winning();
        let n: u32 = match cond {
            Pung | Kong | PungOrKong | Pair | Chow => {
                for (i, g) in groups.iter().enumerate() {
                    let kind_ok = match cond {
                        Pung => g.kind == GroupKind::Pung,
                        Kong => g.kind == GroupKind::Kong,
                        PungOrKong => g.is_set(),
                        Pair => g.kind == GroupKind::Pair,
                        _ => g.kind == GroupKind::Chow,
                    };
                    let exposure_ok = e.exposure.admits(g.concealed);
                    if kind_ok && exposure_ok && self.tile_matches(e.tiles, g.tile) {
                        out(1, Some(i));
                    }
                }
                0
            }
            BonusTile => self.bonus_count(|_| true),
            OwnFlower => self.bonus_count(|b| b.is_flower() && b.is_own(seat)),
            OwnSeason => self.bonus_count(|b| b.is_season() && b.is_own(seat)),
            OwnFlowerAndSeason => once(
                self.bonus_count(|b| b.is_flower() && b.is_own(seat)) > 0
                    && self.bonus_count(|b| b.is_season() && b.is_own(seat)) > 0,
            ),
            OwnSeasonPair => once(self.bonus_count(|b| b.is_season() && b.is_own(seat)) >= 2),
            AllFlowers => full_sets(self.input.hand.bonus(), Bonus::is_flower),
            AllSeasons => full_sets(self.input.hand.bonus(), Bonus::is_season),
            LittleThreeDragons => {
                once(sets_of(TileFilter::Dragons) == 2 && pairs_of(TileFilter::Dragons) >= 1)
            }
            BigThreeDragons => once(sets_of(TileFilter::Dragons) == 3),
            LittleFourWinds => {
                once(sets_of(TileFilter::Winds) == 3 && pairs_of(TileFilter::Winds) >= 1)
            }
            BigFourWinds => once(sets_of(TileFilter::Winds) == 4),
            FourWindHand => once(
                sets_of(TileFilter::Winds) == 3
                    && sets_of(TileFilter::OwnWind) == 1
                    && pairs_of(TileFilter::Winds) >= 1,
            ),
            ThreeConcealedPungs => once(concealed_sets(groups) == 3),
            FourConcealedPungs => once(concealed_sets(groups) == 4),
            OneSuitWithHonours => {
                let (suits, honours) = (self.suits, self.honours);
                once(suits == 1 && honours)
            }
            ClearSuit => {
                let (suits, honours) = (self.suits, self.honours);
                once(suits == 1 && !honours)
            }
            AllHonours => once(self.composition(Tile::is_honour)),
            TerminalsAndHonours => once(
                self.composition(Tile::is_major)
                    && self.tiles.tiles().any(|t| t.is_terminal())
                    && self.tiles.tiles().any(|t| t.is_honour()),
            ),
            AllMajors => once(self.composition(Tile::is_major)),
            AllTerminals => once(self.composition(Tile::is_terminal)),
            AllGreen => once(self.composition(Tile::is_all_green)),
            FourKongs => once(groups.iter().filter(|g| g.kind == GroupKind::Kong).count() == 4),
            ThreeGreatScholars => once(
                sets_of(TileFilter::Dragons) == 3
                    && groups.iter().filter(|g| g.is_set()).count() == 4,
            ),
            MahJongg => once(win.is_some()),
            NoChows => once(!special && !groups.iter().any(|g| g.kind == GroupKind::Chow)),
            AllChowsNonScoringPair => {
                let chows = groups.iter().filter(|g| g.kind == GroupKind::Chow).count();
                let pair = groups.iter().find(|g| g.kind == GroupKind::Pair);
                once(chows == 4 && pair.is_some_and(|p| !self.pair_scores(p)))
            }
            // Decided after the other lines (see `sheet`).
            NothingButGame => 0,
            FullyConcealed => once(
                !special && groups.iter().all(|g| g.concealed_for_doubles)
                    || special
                        && self.input.hand.melds().is_empty()
                        && from.is_some_and(WinFrom::is_drawn),
            ),
            ConcealedClearSuit => {
                let (suits, honours) = (self.suits, self.honours);
                let concealed = if special {
                    self.input.hand.melds().is_empty() && from.is_some_and(WinFrom::is_drawn)
                } else {
                    groups.iter().all(|g| g.concealed_for_doubles)
                };
                once(suits == 1 && !honours && concealed)
            }
            BuriedTreasure => {
                once(concealed_sets(groups) == 4 && from.is_some_and(WinFrom::is_drawn))
            }
            Special => {
                let Some(shape) = e.shape else { return };
                once(c.special == Some(shape) || (!special && self.shapes_met.contains(&shape)))
            }
            DrawnWinningTile => once(!heaven && from.is_some_and(WinFrom::is_drawn)),
            OnlyPlace => once(!heaven && !special && self.fills_only_place(c)),
            FishingEyes => {
                let Some(g) = c.winning_group() else { return };
                // For the winning tile, "concealed" means drawn and "exposed" claimed.
                let exposure_ok = e.exposure.admits(from.is_some_and(WinFrom::is_drawn));
                let sets_done = groups.iter().filter(|h| h.kind != GroupKind::Pair).count() == 4;
                once(
                    !heaven
                        && g.kind == GroupKind::Pair
                        && sets_done
                        && exposure_ok
                        && self.tile_matches(e.tiles, g.tile),
                )
            }
            CompletesChow | CompletesChowClosed => {
                let Some((g, w)) = c.winning_group().zip(winning_tile) else {
                    return;
                };
                // For the winning tile, "concealed" means drawn and "exposed" claimed.
                let exposure_ok = e.exposure.admits(from.is_some_and(WinFrom::is_drawn));
                let role_ok = match cond {
                    CompletesChow => g.kind == GroupKind::Chow,
                    _ => g.kind == GroupKind::Chow && g.role(w) != WinningRole::OpenRun,
                };
                once(!heaven && exposure_ok && role_ok)
            }
            FourthOfExposedPung => once(winning_tile.is_some_and(|w| {
                self.input.hand.melds().iter().any(|m| {
                    m.form == MeldForm::Claimed
                        && m.set.kind() == SetKind::Pung
                        && m.set.tile() == w
                })
            })),
            LooseTileWin => once(from.is_some_and(WinFrom::is_loose)),
            // §117(i): drawn (from the wall, or the loose tile of a kong completed after the
            // last wall tile); §117(j): the discard after it.
            LastWallTile => once(from.is_some_and(WinFrom::is_drawn) && last),
            LastDiscard => once(source == Some(WinFrom::Discard) && last),
            RobbedKong => once(source == Some(WinFrom::RobbedKong)),
            KongUponKong => once(win.is_some_and(|w| w.is_kong_upon_kong())),
            PlumBlossom => once(
                from.is_some_and(WinFrom::is_loose)
                    && winning_tile == Tile::suited(Suit::Circles, 5),
            ),
            // §122(d): "the last tile in the live wall is a one circle", drawn.
            MoonFromTheSea => once(
                source == Some(WinFrom::Wall)
                    && last
                    && winning_tile == Tile::suited(Suit::Circles, 1),
            ),
            CarryingPole => once(
                source == Some(WinFrom::RobbedKong)
                    && winning_tile == Tile::suited(Suit::Bamboo, 2),
            ),
            OriginalCall => once(win.is_some_and(|w| w.original_call)),
            HeavensBlessing => once(heaven),
            EarthsBlessing => once(win.is_some_and(|w| w.earths_blessing)),
            EastConsecutiveWins => {
                once(seat == Wind::East && win.is_some_and(|w| w.east_wins >= e.at_least.max(1)))
            }
        };
        if n > 0 {
            out(n, None);
        }
    }

    /// An element's value here: a limit hand with `unlimited_doubles` counts doubles when the
    /// roof is off.
    fn value_of(&self, e: &Element) -> Value {
        match (e.value, e.unlimited_doubles, self.rules.params.limit) {
            (Value::Limit(_), Some(d), None) => Value::Doubles(d),
            (v, _, _) => v,
        }
    }

    /// Does `pair` score points under this ruleset (for the No-Score hand)?
    fn pair_scores(&self, pair: &Group) -> bool {
        self.elements.iter().any(|e| {
            e.condition == Condition::Pair
                && matches!(e.value, Value::Points(p) if p > 0)
                && self.tile_matches(e.tiles, pair.tile)
        })
    }

    fn fills_only_place(&self, c: &Candidate) -> bool {
        let (Some(only), Some(g), Some(w)) =
            (self.only, c.winning_group(), self.input.hand.winning())
        else {
            return false;
        };
        match self.rules.params.only_place {
            OnlyPlaceRule::CodeOfLaws => only.live_waits == 1,
            OnlyPlaceRule::BabcockStandard => only.waits == 1 && g.role(w).is_situation(),
            OnlyPlaceRule::ChineseGame => g.role(w).is_situation(),
        }
    }

    /// Adds up one way of counting.
    pub fn tally(&self, c: &Candidate, mut met: Vec<(usize, u32, Option<usize>)>) -> Tally {
        met.clear();
        let special = c.special.is_some();
        for &(i, n) in &self.fixed {
            // A special shape has no sets: only limit hands count in it (see `occurrences`).
            if !special || matches!(self.elements[i].value, Value::Limit(_)) {
                met.push((i, n, None));
            }
        }
        for &i in &self.varying {
            let e = self.elements[i];
            self.occurrences(e, c, &mut |n, g| met.push((i, n, g)));
        }
        // Lines in the ruleset's order, as the book prints them.
        met.sort_by_key(|&(i, _, g)| (i, g));
        // "Nothing but game": no other point line, bar those the element excepts.
        if self.input.win.is_some() && c.special.is_none() {
            for (i, &e) in self.elements.iter().enumerate() {
                if e.condition == Condition::NothingButGame {
                    let spoiled = met.iter().any(|&(m, _, _)| {
                        let m = self.elements[m];
                        matches!(m.value, Value::Points(p) if p > 0)
                            && m.condition != Condition::MahJongg
                            && !e.except.contains(&m.id)
                    });
                    if !spoiled {
                        met.push((i, 1, None));
                    }
                }
            }
        }
        if met
            .iter()
            .any(|&(m, _, _)| !self.elements[m].excludes.is_empty())
        {
            let excluded: Vec<&str> = met
                .iter()
                .flat_map(|&(m, _, _)| self.elements[m].excludes.iter().map(String::as_str))
                .collect();
            met.retain(|&(m, _, _)| !excluded.contains(&self.elements[m].id.as_str()));
        }
        let mut basic: u64 = 0;
        let mut doubles: u32 = 0;
        let mut share: Option<LimitShare> = None;
        for &(m, n, _) in &met {
            match LineValue::times(self.value_of(self.elements[m]), n) {
                LineValue::Points(p) => basic = basic.saturating_add(p),
                LineValue::Doubles(d) => doubles = doubles.saturating_add(d),
                LineValue::Limit(s) => share = share.max(Some(s)),
            }
        }
        let raw = if doubles >= 64 {
            if basic == 0 {
                0
            } else {
                u64::MAX
            }
        } else {
            basic.saturating_mul(1u64 << doubles)
        };
        let (total, limited) = match (share, self.rules.params.limit) {
            (Some(s), Some(_)) => (self.rules.limit_value(s), true),
            (Some(s), None) => {
                let notional = self.rules.limit_value(s);
                match self.rules.readings.roof_off_limit_hand.value {
                    // Code §121: a Full hand whose own count is higher scores its count.
                    RoofOff::Higher => (notional.max(raw), raw <= notional),
                    RoofOff::Notional => (notional, true),
                }
            }
            (None, Some(limit)) => (raw.min(limit), raw > limit),
            (None, None) => (raw, false),
        };
        Tally {
            met,
            basic,
            doubles,
            raw,
            total,
            limited,
            share,
        }
    }

    /// The itemized sheet for a way of counting and its tally.
    pub fn sheet(&self, c: &Candidate, t: &Tally) -> ScoreSheet {
        let lines = t
            .met
            .iter()
            .map(|&(m, n, g)| {
                let e = self.elements[m];
                SheetLine {
                    element: e.id.clone(),
                    name: e.name.clone(),
                    tiles: g.map(|g| c.groups[g].describe()),
                    cite: e.cite.clone(),
                    value: LineValue::times(self.value_of(e), n),
                }
            })
            .collect();
        ScoreSheet {
            ruleset: self.rules.name.clone(),
            mahjong: self.input.win.is_some(),
            arrangement: self.describe(c),
            lines,
            basic: t.basic,
            doubles: t.doubles,
            raw: t.raw,
            limited: t.limited,
            total: t.total,
            limit_hand: t.share,
        }
    }

    fn describe(&self, c: &Candidate) -> String {
        if let Some(s) = c.special {
            return format!("{} ({})", self.input.hand, s.name());
        }
        let mut parts: Vec<String> = Vec::new();
        let melds = self.input.hand.melds();
        for m in melds {
            parts.push(m.to_string());
        }
        for g in c.groups.iter().skip(melds.len()) {
            let d = g.describe();
            parts.push(if g.winning { format!("{d}*") } else { d });
        }
        for b in self.input.hand.bonus() {
            parts.push(b.to_string());
        }
        parts.join(" ")
    }
}

/// Complete sets of four (one per seat) among the bonus tiles that `is`.
fn full_sets(bonus: &[Bonus], is: fn(Bonus) -> bool) -> u32 {
    Wind::ALL
        .iter()
        .map(|&w| bonus.iter().filter(|&&b| is(b) && b.seat() == w).count() as u32)
        .min()
        .unwrap_or(0)
}

fn concealed_sets(groups: &[Group]) -> usize {
    groups
        .iter()
        .filter(|g| g.is_set() && g.concealed_for_doubles)
        .count()
}
