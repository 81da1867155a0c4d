//! Recognising each condition of the catalogue in one way of counting a hand, and adding up
//! ([`tally`]).

mod tally;

use crate::counts::TileSet;
use crate::hand::MeldForm;
use crate::rules::{Condition, Element, Ruleset, TileFilter, Value};
use crate::shape::{SetKind, SpecialShape, WaitCounts, WinningRole};
use crate::tile::{Bonus, Suit, Tile, Wind};

use super::candidate::{Candidate, Group, GroupKind};
use super::filter::FilterMasks;
use super::input::{ScoreInput, WinFrom};
use super::plan::{Layout, Plan, Test};
use super::summary::Summary;

/// Facts about the whole hand that no regrouping changes.
pub(crate) struct Context<'a> {
    rules: &'a Ruleset,
    input: &'a ScoreInput,
    only: Option<WaitCounts>,
    /// The kinds of tile in the hand (kongs and the winning tile included).
    present: TileSet,
    /// Suits present, and whether any honour is.
    suits: usize,
    honours: bool,
    /// Special shapes (named by the ruleset) the whole hand takes.
    shapes_met: &'a [SpecialShape],
    layout: &'a Layout,
    plan: &'a Plan,
    /// What to do for each element this hand could meet, in the ruleset's order (so the
    /// lines come out in it).
    steps: Vec<Step>,
    /// The tiles whose pair scores points under this ruleset (for the No-Score hand).
    scoring_pairs: u64,
    /// Which tiles each filter admits for this seat and round.
    masks: FilterMasks,
    /// How the hand was won, worked out once for every condition that asks.
    won: Won,
}

/// How the winning tile came, as the conditions ask it.
#[derive(Clone, Copy)]
struct Won {
    mahjong: bool,
    from: Option<WinFrom>,
    source: Option<WinFrom>,
    /// Drawn (from the wall, or a loose tile), not claimed.
    drawn: bool,
    last: bool,
    heaven: bool,
    earth: bool,
    original_call: bool,
    kong_upon_kong: bool,
    east_wins: u32,
    tile: Option<Tile>,
}

impl Won {
    fn of(input: &ScoreInput) -> Won {
        let win = input.win;
        let from = win.map(|w| w.from);
        Won {
            mahjong: win.is_some(),
            from,
            source: win.map(|w| w.source()),
            drawn: from.is_some_and(WinFrom::is_drawn),
            last: win.is_some_and(|w| w.is_last_tile()),
            heaven: win.is_some_and(|w| w.heavens_blessing),
            earth: win.is_some_and(|w| w.earths_blessing),
            original_call: win.is_some_and(|w| w.original_call),
            kong_upon_kong: win.is_some_and(|w| w.is_kong_upon_kong()),
            east_wins: win.map_or(0, |w| w.east_wins),
            tile: input.hand.winning(),
        }
    }
}

/// How an element is met in each way of counting this hand.
enum Step {
    /// Tested once for the hand, and met this many times.
    Met { element: usize, count: u32 },
    /// Met by each group that passes the test.
    Set(SetTest),
    /// Tested in each way of counting.
    Counting(usize),
}

/// A per-set element for this seat and round: what a group must be to meet it.
struct SetTest {
    element: usize,
    kinds: u8,
    exposure: crate::rules::Exposure,
    /// One bit per [`Tile::index`].
    tiles: u64,
}

impl<'a> Context<'a> {
    /// The hand's own facts, under `layout`'s elements (`plan`'s, or a caller's); `shapes_met`
    /// are the special shapes the whole hand takes.
    pub fn new(
        plan: &'a Plan,
        layout: &'a Layout,
        rules: &'a Ruleset,
        input: &'a ScoreInput,
        only: Option<WaitCounts>,
        shapes_met: &'a [SpecialShape],
    ) -> Self {
        let hand = &input.hand;
        let mut present = hand.concealed().kinds();
        let melded = hand.melds().iter().flat_map(|m| m.set.tiles());
        for t in hand.winning().into_iter().chain(melded) {
            present.insert(t);
        }
        let masks = FilterMasks::new(input.seat, input.prevailing);
        // Suits by their nine bits each; honours above them.
        const SUIT: u64 = (1 << 9) - 1;
        let suits = (0..3)
            .filter(|s| present.bits() >> (9 * s) & SUIT != 0)
            .count();
        let scoring_pairs = layout
            .scoring_pairs
            .iter()
            .fold(0, |m, &f| m | masks.mask(f));
        let mut ctx = Context {
            rules,
            input,
            only,
            present,
            suits,
            honours: present.bits() >> 27 != 0,
            shapes_met,
            layout,
            plan,
            steps: Vec::new(),
            scoring_pairs,
            masks,
            won: Won::of(input),
        };
        // Conditions that ignore the grouping are the same for every way of counting: a
        // standard one stands for all of them here.
        let standard = Candidate {
            groups: super::candidate::Groups::new(),
            special: None,
        };
        let summary = Summary::of(&standard.groups, input.seat);
        let mut steps = Vec::with_capacity(layout.elements.len() / 2);
        for (i, test) in layout.tests.iter().enumerate() {
            match test {
                Test::OncePerHand => {
                    let mut count = 0;
                    ctx.occurrences(ctx.element(i), &standard, &summary, &mut |k, _| count += k);
                    if count > 0 {
                        steps.push(Step::Met { element: i, count });
                    }
                }
                Test::EachSet(p) => {
                    let tiles = masks.mask(p.tiles);
                    // Else no tile of the hand could meet it.
                    if tiles & present.bits() != 0 {
                        steps.push(Step::Set(SetTest {
                            element: i,
                            kinds: p.kinds,
                            exposure: p.exposure,
                            tiles,
                        }));
                    }
                }
                Test::EachCounting => {
                    let e = ctx.element(i);
                    if ctx.possible(e.condition) && e.also.iter().all(|&c| ctx.possible(c)) {
                        steps.push(Step::Counting(i));
                    }
                }
            }
        }
        ctx.steps = steps;
        ctx
    }

    /// Could this hand meet `cond` in some way of counting? A quick test on the hand's tiles,
    /// so a way of counting is not searched for what the tiles cannot make.
    fn possible(&self, cond: Condition) -> bool {
        use Condition::*;
        let kinds = |f: TileFilter| (self.present.bits() & self.masks.mask(f)).count_ones();
        match cond {
            LittleThreeDragons | BigThreeDragons | ThreeGreatScholars => {
                kinds(TileFilter::Dragons) == 3
            }
            LittleFourWinds | BigFourWinds | FourWindHand => kinds(TileFilter::Winds) >= 3,
            ConcealedClearSuit => self.suits == 1 && !self.honours,
            BuriedTreasure => self.won.drawn,
            Special => !self.shapes_met.is_empty(),
            _ => true,
        }
    }

    /// Does `e` count in a hand of a special shape, which has no sets? A limit hand always
    /// (its own element, and the situations and compositions that are limit hands by
    /// themselves). With the roof off, when a limit hand scores its own count if that is higher
    /// (Code §121: "a Full hand of which the intrinsic value exceeds the notional value is
    /// scored at the full intrinsic value"), every element counts that needs no set: the
    /// points for Mah-Jongg and for the way the tile came, the bonus tiles and their doubles
    /// (§116), the doubles of §117.
    pub(super) fn counts_in_special(&self, e: &Element) -> bool {
        matches!(e.value, Value::Limit(_))
            || self.rules.params.limit.is_none()
                && self.rules.readings.roof_off_limit_hand.value == crate::rules::RoofOff::Higher
    }

    /// The `i`th element in force here.
    pub fn element(&self, i: usize) -> &'a Element {
        &self.rules.elements[self.layout.elements[i]]
    }

    fn tile_matches(&self, f: TileFilter, t: Tile) -> bool {
        self.masks.admits(f, t)
    }

    /// The kinds of tile in the hand.
    fn kinds(&self) -> impl Iterator<Item = Tile> {
        self.present.iter()
    }

    /// Is every tile of the hand one that `pred` admits?
    fn composition(&self, pred: impl Fn(Tile) -> bool) -> bool {
        self.kinds().all(pred)
    }

    fn bonus_count(&self, f: impl Fn(Bonus) -> bool) -> u32 {
        self.input.hand.bonus().iter().filter(|&&b| f(b)).count() as u32
    }

    /// How many times `e` is met in `c`, reported to `out` as (count, group index) — per-set
    /// conditions once per matching group.
    fn occurrences(
        &self,
        e: &Element,
        c: &Candidate,
        s: &Summary,
        out: &mut impl FnMut(u32, Option<usize>),
    ) {
        if !e.also.is_empty() {
            let all = e.also.iter().all(|&cond| {
                let mut met = false;
                self.occurrences_of(cond, e, c, s, &mut |n, _| met |= n > 0);
                met
            });
            if !all {
                return;
            }
        }
        self.occurrences_of(e.condition, e, c, s, out)
    }

    /// How many times `cond` is met in `c` (summed up in `s`), with `e`'s filters and value.
    fn occurrences_of(
        &self,
        cond: Condition,
        e: &Element,
        c: &Candidate,
        s: &Summary,
        out: &mut impl FnMut(u32, Option<usize>),
    ) {
        use Condition::*;
        let groups = &c.groups;
        let seat = self.input.seat;
        let once = u32::from;
        let special = c.special.is_some();
        // A special shape has no sets to score: only limit hands are recognised in it, and with
        // the roof off what needs no set (`counts_in_special`).
        if special && !self.counts_in_special(e) {
            return;
        }
        let Won {
            mahjong,
            from,
            source,
            drawn,
            last,
            heaven,
            tile: winning_tile,
            ..
        } = self.won;
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
            LittleThreeDragons => once(s.dragon_sets == 2 && s.dragon_pairs >= 1),
            BigThreeDragons => once(s.dragon_sets == 3),
            LittleFourWinds => once(s.wind_sets == 3 && s.wind_pairs >= 1),
            BigFourWinds => once(s.wind_sets == 4),
            FourWindHand => once(s.wind_sets == 3 && s.own_wind_sets == 1 && s.wind_pairs >= 1),
            ThreeConcealedPungs => once(s.concealed_sets == 3),
            FourConcealedPungs => once(s.concealed_sets == 4),
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
                    && self.kinds().any(|t| t.is_terminal())
                    && self.kinds().any(|t| t.is_honour()),
            ),
            AllMajors => once(self.composition(Tile::is_major)),
            AllTerminals => once(self.composition(Tile::is_terminal)),
            AllGreen => once(self.composition(Tile::is_all_green)),
            FourKongs => once(s.kongs == 4),
            ThreeGreatScholars => once(s.dragon_sets == 3 && s.sets == 4),
            MahJongg => once(mahjong),
            NoChows => once(!special && s.chows == 0),
            AllChowsNonScoringPair => {
                once(s.chows == 4 && s.pair.is_some_and(|p| !self.pair_scores(&p)))
            }
            // Decided after the other lines (see `sheet`).
            NothingButGame => 0,
            FullyConcealed => once(
                !special && s.all_concealed
                    || special && self.input.hand.melds().is_empty() && drawn,
            ),
            ConcealedClearSuit => {
                let (suits, honours) = (self.suits, self.honours);
                let concealed = if special {
                    self.input.hand.melds().is_empty() && drawn
                } else {
                    s.all_concealed
                };
                once(suits == 1 && !honours && concealed)
            }
            BuriedTreasure => once(s.concealed_sets == 4 && drawn),
            Special => {
                let Some(shape) = e.shape else { return };
                once(c.special == Some(shape) || (!special && self.shapes_met.contains(&shape)))
            }
            DrawnWinningTile => once(!heaven && drawn),
            OnlyPlace => once(!heaven && !special && self.fills_only_place(s)),
            FishingEyes => {
                let Some(g) = s.winning else { return };
                // For the winning tile, "concealed" means drawn and "exposed" claimed.
                let exposure_ok = e.exposure.admits(drawn);
                let sets_done = s.non_pairs == 4;
                once(
                    !heaven
                        && g.kind == GroupKind::Pair
                        && sets_done
                        && exposure_ok
                        && self.tile_matches(e.tiles, g.tile),
                )
            }
            CompletesChow | CompletesChowClosed => {
                let Some((g, w)) = s.winning.zip(winning_tile) else {
                    return;
                };
                // For the winning tile, "concealed" means drawn and "exposed" claimed.
                let exposure_ok = e.exposure.admits(drawn);
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
            LastWallTile => once(drawn && last),
            LastDiscard => once(source == Some(WinFrom::Discard) && last),
            RobbedKong => once(source == Some(WinFrom::RobbedKong)),
            KongUponKong => once(self.won.kong_upon_kong),
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
            OriginalCall => once(self.won.original_call),
            HeavensBlessing => once(heaven),
            EarthsBlessing => once(self.won.earth),
            EastConsecutiveWins => {
                once(seat == Wind::East && mahjong && self.won.east_wins >= e.at_least.max(1))
            }
        };
        if n > 0 {
            out(n, None);
        }
    }

    /// Does `pair` score points under this ruleset (for the No-Score hand)?
    fn pair_scores(&self, pair: &Group) -> bool {
        self.scoring_pairs >> pair.tile.index() & 1 == 1
    }

    fn fills_only_place(&self, s: &Summary) -> bool {
        let (Some(only), Some(g), Some(w)) = (self.only, s.winning, self.input.hand.winning())
        else {
            return false;
        };
        // The role is this way of counting's: the scorer tries each and keeps the best.
        let rule = self.rules.params.only_place;
        rule.fills(only, || g.role(w).is_situation())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counts::TileCounts;
    use crate::notation::{format_tiles, Style};
    use crate::score::candidate::{shapes_met, winning_candidates};
    use crate::score::input::Win;
    use crate::Hand;

    /// Complete hands of four sets and a pair, honours as likely as suits (so the dragon and
    /// wind combinations come up), from a fixed seed.
    fn hands() -> Vec<String> {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) % n
        };
        let mut out = Vec::new();
        while out.len() < 3000 {
            let mut counts = [0u8; 34];
            let pick = |next: &mut dyn FnMut(u64) -> u64| -> usize {
                if next(2) == 0 {
                    27 + next(7) as usize
                } else {
                    next(27) as usize
                }
            };
            for _ in 0..4 {
                let t = pick(&mut next);
                if t < 27 && t % 9 <= 6 && next(2) == 0 {
                    (t..t + 3).for_each(|i| counts[i] += 1);
                } else {
                    counts[t] += 3;
                }
            }
            counts[pick(&mut next)] += 2;
            if counts.iter().any(|&n| n > 4) {
                continue;
            }
            // Won on the last tile of the hand, drawn.
            let last = (0..34).rev().find(|&i| counts[i] > 0).unwrap();
            counts[last] -= 1;
            let tiles = TileCounts::from_array(counts).unwrap();
            let w = Tile::ALL[last];
            out.push(format!(
                "{} ={w}",
                format_tiles(tiles.tiles(), Style::PerTile)
            ));
        }
        out
    }

    /// `possible` is only ever a shortcut: a condition it rules out is met in no way of
    /// counting the hand.
    #[test]
    fn what_is_ruled_out_as_impossible_is_never_met() {
        let mut checked = 0;
        for name in Ruleset::builtin_names() {
            let rules = Ruleset::builtin(name).unwrap();
            let plan = Plan::new(&rules);
            for text in hands() {
                let hand: Hand = text.parse().unwrap();
                let w = hand.winning().unwrap();
                let input =
                    ScoreInput::winning(hand, Wind::South, Wind::East, Win::from(WinFrom::Wall));
                let hand = &input.hand;
                let met = shapes_met(hand, w, true, &plan.shapes);
                let candidates = winning_candidates(hand, w, true, &rules.params, &met);
                let ctx = Context::new(&plan, &plan.winner, &rules, &input, None, &met);
                for (i, test) in plan.winner.tests.iter().enumerate() {
                    let e = ctx.element(i);
                    let ruled_out =
                        !ctx.possible(e.condition) || e.also.iter().any(|&c| !ctx.possible(c));
                    if !matches!(test, Test::EachCounting) || !ruled_out {
                        continue;
                    }
                    for c in &candidates {
                        let s = Summary::of(&c.groups, input.seat);
                        let mut n = 0;
                        ctx.occurrences(e, c, &s, &mut |k, _| n += k);
                        assert_eq!(n, 0, "{name}: {} met in {text} ({:?})", e.id, &c.groups[..]);
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10_000, "only {checked} checks");
    }
}
