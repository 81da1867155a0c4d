//! Given a deal, when these events, then this state: the Code's rules of play, one by one, and
//! random games played to the end by a chooser of legal moves.

use super::*;
use crate::event::{
    BonusTileDeclared, ClaimGranted, ClaimKind, ClaimMade, ClaimPassed, Deal, DealOrder,
    KongDeclared, KongKind, KongRobbed, LooseTileDrawn, MahJonggDeclared, SetExposed,
    TileDiscarded, TileDrawn, WashOut,
};
use crate::ids::TableId;
use crate::tile::{AnyTile, Bonus, Tile, Wind};
use crate::Seat;

use super::error::Inconsistent;

fn t(s: &str) -> Tile {
    s.parse().unwrap()
}

fn started(deal: Deal) -> HandStarted {
    HandStarted {
        table: "t1".parse::<TableId>().unwrap(),
        game: 1,
        hand: 1,
        east: Seat::East,
        prevailing_wind: Wind::East,
        dice: vec![3, 4],
        deal,
    }
}

/// Every tile of the set once, in a fixed order: 1m 1m 1m 1m 2m … then the eight bonus tiles.
fn ordered_set() -> Vec<AnyTile> {
    let mut out: Vec<AnyTile> = Tile::ALL
        .iter()
        .flat_map(|&t| [AnyTile::Playing(t); 4])
        .collect();
    out.extend(Bonus::ALL.iter().map(|&b| AnyTile::Bonus(b)));
    out
}

/// The set shuffled by a seeded generator.
fn shuffled(seed: u64) -> Vec<AnyTile> {
    let mut tiles = ordered_set();
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    for i in (1..tiles.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        tiles.swap(i, (x % (i as u64 + 1)) as usize);
    }
    tiles
}

fn play(deal: Deal) -> Play {
    Play::start(PlayRules::default(), &started(deal)).unwrap()
}

fn hands(east: &str, south: &str, west: &str, north: &str) -> Deal {
    let parse = |s: &str| -> Vec<AnyTile> {
        s.split_whitespace()
            .map(|x| x.parse::<AnyTile>().unwrap())
            .collect()
    };
    Deal::Hands {
        hands: crate::BySeat::new(parse(east), parse(south), parse(west), parse(north)),
    }
}

/// East 14, South 13, West 13, North 13, chosen so the tests below can chow, pung and kong.
fn dealt() -> Play {
    play(hands(
        "1m 2m 3m 4m 5m 6m 7m 8m 9m E E E S W",
        "2p 3p 4p 5p 6p 7p 8p 9p 1s 1s 2s 3s 4s",
        "9m 9m 5s 6s 7s 8s 9s R R G G N N",
        "W W 1p 1p 5m 5m 2s 2s 3s 3s 6m 6m 8m",
    ))
}

fn discard(seat: Seat, tile: &str) -> HandEvent {
    HandEvent::TileDiscarded(TileDiscarded {
        seat,
        placed: t(tile),
        named: t(tile),
    })
}

fn draw(seat: Seat, tile: Option<&str>) -> HandEvent {
    HandEvent::TileDrawn(TileDrawn {
        seat,
        tile: tile.map(|x| x.parse().unwrap()),
    })
}

fn claim(seat: Seat, claim: ClaimKind, tile: &str) -> HandEvent {
    HandEvent::ClaimMade(ClaimMade {
        seat,
        claim,
        tile: t(tile),
    })
}

fn grant(seat: Seat, claim: ClaimKind) -> HandEvent {
    HandEvent::ClaimGranted(ClaimGranted { seat, claim })
}

fn exposed(seat: Seat, claim: ClaimKind, lowest: &str) -> HandEvent {
    HandEvent::SetExposed(SetExposed {
        seat,
        claim,
        lowest: t(lowest),
    })
}

/// East throws its West wind; North claims it for pung, is granted it, lays the pung down and
/// discards 8m.
fn north_pungs_easts_west(p: &mut Play) {
    p.apply(&discard(Seat::East, "W")).unwrap();
    p.apply(&claim(Seat::North, ClaimKind::Pung, "W")).unwrap();
    p.apply(&grant(Seat::North, ClaimKind::Pung)).unwrap();
    p.apply(&exposed(Seat::North, ClaimKind::Pung, "W"))
        .unwrap();
    p.apply(&discard(Seat::North, "8m")).unwrap();
}

fn rules_broken(a: &Applied) -> Vec<&'static str> {
    match a {
        Applied::Legal => Vec::new(),
        Applied::Irregular(v) => v.iter().map(|i| i.rule).collect(),
    }
}

#[test]
fn a_known_wall_is_dealt_as_section_24_says_and_every_tile_is_accounted_for() {
    let wall = shuffled(7);
    let p = play(Deal::Wall {
        tiles: wall.clone(),
        order: DealOrder::Code,
    });
    let s = p.state();
    assert_eq!(s.seats[Seat::East].in_hand(), 14);
    for seat in [Seat::South, Seat::West, Seat::North] {
        assert_eq!(s.seats[seat].in_hand(), 13);
    }
    // East's first four tiles are the wall's first four; North's last is the 53rd.
    let Concealed::Known(east) = &s.seats[Seat::East].concealed else {
        panic!("known")
    };
    for &x in &wall[..4] {
        if let AnyTile::Playing(x) = x {
            assert!(east.get(x) > 0);
        }
    }
    assert_eq!(s.wall.live, 144 - 53 - 16);
    assert_eq!(s.wall.kong_box, 16);
    assert_eq!(s.accounted(), 144);
    assert_eq!(s.turn, Turn::Discard(Seat::East));
}

#[test]
fn a_wall_with_a_fifth_copy_is_refused() {
    let mut wall = ordered_set();
    wall[4] = wall[0];
    let err = Play::start(
        PlayRules::default(),
        &started(Deal::Wall {
            tiles: wall,
            order: DealOrder::Code,
        }),
    )
    .unwrap_err();
    assert_eq!(err.kind, Inconsistent::FifthCopy(t("1m")));
}

#[test]
fn an_unknown_deal_is_counted() {
    let p = play(Deal::Unknown);
    assert_eq!(
        p.state().seats[Seat::East].concealed,
        Concealed::Counted(14)
    );
    assert_eq!(p.state().accounted(), 144);
}

#[test]
fn a_discard_opens_the_claims_and_the_next_draw_closes_them() {
    let mut p = dealt();
    assert_eq!(p.apply(&discard(Seat::East, "W")).unwrap(), Applied::Legal);
    assert_eq!(p.state().live_discard().map(|d| d.placed), Some(t("W")));
    assert_eq!(p.state().turn, Turn::Draw(Seat::South));
    assert_eq!(
        p.apply(&draw(Seat::South, Some("5p"))).unwrap(),
        Applied::Legal
    );
    assert_eq!(p.state().live_discard(), None);
    assert_eq!(p.state().turn, Turn::Discard(Seat::South));
    assert_eq!(p.state().accounted(), 144);
}

#[test]
fn pung_takes_precedence_over_chow_section_61() {
    let mut p = dealt();
    p.apply(&discard(Seat::East, "W")).unwrap();
    p.apply(&draw(Seat::South, None)).unwrap();
    p.apply(&discard(Seat::South, "4s")).unwrap();
    // West may chow the 4s (5s 6s); nobody can pung it. East discards nothing here.
    p.apply(&claim(Seat::West, ClaimKind::Chow, "4s")).unwrap();
    assert_eq!(
        p.apply(&grant(Seat::West, ClaimKind::Chow)).unwrap(),
        Applied::Legal
    );
    let exposed = exposed(Seat::West, ClaimKind::Chow, "4s");
    assert_eq!(p.apply(&exposed).unwrap(), Applied::Legal);
    assert_eq!(p.state().seats[Seat::West].sets.len(), 1);
    assert_eq!(p.state().turn, Turn::Discard(Seat::West));
    // West throws the 8m; East has one, North has one: North claims pung with 8m? it holds
    // one only. East chows 7m-8m-9m is not East's (it is on North's left: West discards,
    // North chows). North claims chow, then East claims pung... East holds one 8m: a false
    // claim the referee hears, but precedence is about claims made.
    p.apply(&discard(Seat::West, "9m")).unwrap();
    p.apply(&claim(Seat::North, ClaimKind::Chow, "9m")).unwrap();
    p.apply(&claim(Seat::South, ClaimKind::Pung, "9m")).unwrap();
    let granted = p.apply(&grant(Seat::North, ClaimKind::Chow)).unwrap();
    assert_eq!(rules_broken(&granted), ["Code §61"]);
}

#[test]
fn mah_jongg_takes_precedence_and_between_equals_the_nearest_after_the_discarder() {
    let mut claims = crate::BySeat::from_fn(|_| None);
    claims[Seat::South] = Some(ClaimKind::Chow);
    claims[Seat::North] = Some(ClaimKind::MahJongg);
    claims[Seat::West] = Some(ClaimKind::MahJongg);
    // East discarded: West is nearer than North.
    assert_eq!(
        window::precedence(Seat::East, &claims),
        Some((Seat::West, ClaimKind::MahJongg))
    );
    // North discarded: East is next, then South, then West.
    assert_eq!(
        window::precedence(Seat::North, &claims),
        Some((Seat::West, ClaimKind::MahJongg))
    );
    claims[Seat::West] = None;
    claims[Seat::South] = Some(ClaimKind::Pung);
    assert_eq!(
        window::precedence(Seat::East, &claims),
        Some((Seat::North, ClaimKind::MahJongg))
    );
}

#[test]
fn a_chow_of_a_discard_not_from_the_left_is_irregular_section_40() {
    let mut p = dealt();
    p.apply(&discard(Seat::East, "1m")).unwrap();
    let a = p.apply(&claim(Seat::West, ClaimKind::Chow, "1m")).unwrap();
    assert_eq!(rules_broken(&a), ["Code §40"]);
}

#[test]
fn a_draw_out_of_turn_is_kept_and_the_turn_stays_section_73() {
    let mut p = dealt();
    p.apply(&discard(Seat::East, "W")).unwrap();
    let a = p.apply(&draw(Seat::West, None)).unwrap();
    assert_eq!(rules_broken(&a), ["Code §73"]);
    assert_eq!(p.state().seats[Seat::West].in_hand(), 14);
    assert_eq!(p.state().turn, Turn::Draw(Seat::South));
    assert_eq!(p.state().accounted(), 144);
}

#[test]
fn a_discard_of_a_tile_not_held_is_refused_and_changes_nothing() {
    let mut p = dealt();
    let before = p.clone();
    let err = p.apply(&discard(Seat::East, "5p")).unwrap_err();
    assert_eq!(
        err.kind,
        Inconsistent::NotHeld {
            seat: Seat::East,
            tile: AnyTile::Playing(t("5p"))
        }
    );
    assert_eq!(err.event, 1);
    assert_eq!(p, before);
}

#[test]
fn a_false_naming_is_flagged_and_the_tile_placed_is_the_discard_section_84() {
    let mut p = dealt();
    let a = p
        .apply(&HandEvent::TileDiscarded(TileDiscarded {
            seat: Seat::East,
            placed: t("W"),
            named: t("S"),
        }))
        .unwrap();
    assert_eq!(rules_broken(&a), ["Code §84"]);
    assert_eq!(p.state().live_discard().map(|d| d.placed), Some(t("W")));
}

#[test]
fn a_known_wall_is_drawn_in_order_and_a_wrong_tile_is_flagged_section_72() {
    let wall = shuffled(11);
    let mut p = play(Deal::Wall {
        tiles: wall.clone(),
        order: DealOrder::Code,
    });
    let Concealed::Known(east) = &p.state().seats[Seat::East].concealed else {
        panic!("known")
    };
    let first = east.tiles().next().unwrap();
    p.apply(&discard(Seat::East, &first.to_string())).unwrap();
    // The next tile of the live wall is wall[53]; drawing it is legal, drawing another is not.
    let next = p.state().wall.live_tiles.as_ref().unwrap()[0];
    let other = p.state().wall.live_tiles.as_ref().unwrap()[5];
    let mut q = p.clone();
    let a = p
        .apply(&HandEvent::TileDrawn(TileDrawn {
            seat: Seat::South,
            tile: Some(next),
        }))
        .unwrap();
    assert_eq!(a, Applied::Legal);
    let a = q
        .apply(&HandEvent::TileDrawn(TileDrawn {
            seat: Seat::South,
            tile: Some(other),
        }))
        .unwrap();
    assert_eq!(rules_broken(&a), ["Code §72"]);
    assert_eq!(wall[53], next);
}

#[test]
fn each_book_sets_its_kong_box_and_babcock_keeps_it_full_from_the_live_wall() {
    let deal = || {
        hands(
            "1m 1m 1m 1m 5m 6m 7m 8m 9m E E E S W",
            "2p 3p 4p 5p 6p 7p 8p 9p 1s 1s 2s 3s 4s",
            "9m 9m 5s 6s 7s 8s 9s R R G G N N",
            "W W 1p 1p 5m 5m 2s 2s 3s 3s 6m 6m 8m",
        )
    };
    let kong = HandEvent::KongDeclared(KongDeclared {
        seat: Seat::East,
        kind: KongKind::Concealed,
        tile: t("1m"),
        unmarked: false,
    });
    let loose = HandEvent::LooseTileDrawn(LooseTileDrawn {
        seat: Seat::East,
        tile: Some("3p".parse().unwrap()),
    });
    // (ruleset, tiles in the set, kong box, and after one loose tile: live wall, kong box)
    for (name, tiles, kong_box, after) in [
        ("code-of-laws", 144, 16, (144 - 53 - 16, 15)),
        ("british", 144, 14, (144 - 53 - 14, 13)),
        ("chinese-classical", 136, 14, (136 - 53 - 14, 13)),
        // Babcock: the box stays at fourteen, the live wall gives the tile.
        ("babcock-standard", 152, 14, (152 - 53 - 14 - 1, 14)),
    ] {
        let rules = PlayRules::of(&crate::Ruleset::builtin(name).unwrap());
        assert_eq!((rules.tiles, rules.kong_box), (tiles, kong_box), "{name}");
        let mut p = Play::start(rules, &started(deal())).unwrap();
        assert_eq!(p.state().wall.kong_box, kong_box, "{name}");
        p.apply(&kong).unwrap();
        p.apply(&loose).unwrap();
        let w = &p.state().wall;
        assert_eq!((w.live, w.kong_box), after, "{name}");
    }
}

#[test]
fn a_concealed_kong_draws_a_loose_tile_from_the_kong_box() {
    let mut p = play(hands(
        "1m 1m 1m 1m 5m 6m 7m 8m 9m E E E S W",
        "2p 3p 4p 5p 6p 7p 8p 9p 1s 1s 2s 3s 4s",
        "9m 9m 5s 6s 7s 8s 9s R R G G N N",
        "W W 1p 1p 5m 5m 2s 2s 3s 3s 6m 6m 8m",
    ));
    let kong = HandEvent::KongDeclared(KongDeclared {
        seat: Seat::East,
        kind: KongKind::Concealed,
        tile: t("1m"),
        unmarked: false,
    });
    assert_eq!(p.apply(&kong).unwrap(), Applied::Legal);
    // §58: until its loose tile is drawn it may be robbed, for the Thirteen Unique Wonders.
    assert_eq!(
        p.state().turn,
        Turn::Robbable {
            seat: Seat::East,
            tile: t("1m")
        }
    );
    let loose = HandEvent::LooseTileDrawn(LooseTileDrawn {
        seat: Seat::East,
        tile: Some("3p".parse().unwrap()),
    });
    assert_eq!(p.apply(&loose).unwrap(), Applied::Legal);
    assert_eq!(p.state().wall.kong_box, 15);
    assert_eq!(p.state().turn, Turn::Discard(Seat::East));
    assert_eq!(
        p.state().seats[Seat::East].sets[0].formed,
        Formed::ConcealedKong
    );
    assert_eq!(p.state().accounted(), 144);
}

#[test]
fn a_kong_made_by_adding_to_an_exposed_pung_may_be_robbed_section_57() {
    let mut p = dealt();
    north_pungs_easts_west(&mut p);
    assert_eq!(p.state().turn, Turn::Draw(Seat::East));
    p.apply(&draw(Seat::East, Some("4s"))).unwrap();
    p.apply(&discard(Seat::East, "4s")).unwrap();
    p.apply(&draw(Seat::South, Some("5s"))).unwrap();
    p.apply(&discard(Seat::South, "5s")).unwrap();
    p.apply(&draw(Seat::West, Some("1p"))).unwrap();
    p.apply(&discard(Seat::West, "1p")).unwrap();
    // North draws the last W and adds it to its pung; West robs it.
    p.apply(&draw(Seat::North, Some("W"))).unwrap();
    let added = HandEvent::KongDeclared(KongDeclared {
        seat: Seat::North,
        kind: KongKind::AddedToExposedPung,
        tile: t("W"),
        unmarked: false,
    });
    assert_eq!(p.apply(&added).unwrap(), Applied::Legal);
    let robbed = HandEvent::KongRobbed(KongRobbed {
        robber: Seat::West,
        from: Seat::North,
        tile: t("W"),
    });
    assert_eq!(p.apply(&robbed).unwrap(), Applied::Legal);
    assert_eq!(
        p.state().seats[Seat::North].sets[0].set,
        crate::shape::Set::pung(t("W"))
    );
    let mj = HandEvent::MahJonggDeclared(MahJonggDeclared {
        seat: Seat::West,
        winning_tile: t("W"),
        self_drawn: false,
    });
    assert_eq!(p.apply(&mj).unwrap(), Applied::Legal);
    assert!(matches!(
        p.state().turn,
        Turn::Over(Ending::MahJongg {
            seat: Seat::West,
            ..
        })
    ));
    assert_eq!(p.state().accounted(), 144);
    // Nothing of the play comes after Mah-Jongg.
    assert!(matches!(
        p.apply(&draw(Seat::North, None)).unwrap_err().kind,
        Inconsistent::HandOver(_)
    ));
}

#[test]
fn a_bonus_tile_is_declared_and_replaced_from_the_live_wall_section_31() {
    let mut p = play(hands(
        "1m 2m 3m 4m 5m 6m 7m 8m 9m E E E S 1f",
        "2p 3p 4p 5p 6p 7p 8p 9p 1s 1s 2s 3s 4s",
        "9m 9m 5s 6s 7s 8s 9s R R G G N N",
        "W W 1p 1p 5m 5m 2s 2s 3s 3s 6m 6m 8m",
    ));
    let declared = HandEvent::BonusTileDeclared(BonusTileDeclared {
        seat: Seat::East,
        tile: "1f".parse().unwrap(),
    });
    assert_eq!(p.apply(&declared).unwrap(), Applied::Legal);
    assert_eq!(p.state().seats[Seat::East].in_hand(), 13);
    p.apply(&draw(Seat::East, Some("W"))).unwrap();
    assert_eq!(p.state().turn, Turn::Discard(Seat::East));
    assert_eq!(p.state().seats[Seat::East].in_hand(), 14);
    assert_eq!(p.state().wall.live, 144 - 53 - 16 - 1);
    assert_eq!(p.state().accounted(), 144);
}

#[test]
fn an_empty_wall_cannot_be_drawn_from_and_a_wash_out_before_it_is_irregular() {
    let mut p = play(Deal::Unknown);
    let early = p.clone();
    let mut seat = Seat::East;
    for _ in 0..75 {
        p.apply(&discard(seat, "1m")).ok();
        seat = seat.next();
        p.apply(&draw(seat, None)).unwrap();
    }
    p.apply(&discard(seat, "2m")).unwrap();
    let err = p.apply(&draw(seat.next(), None)).unwrap_err();
    assert_eq!(
        err.kind,
        Inconsistent::WallEmpty {
            seat: seat.next(),
            wall: "live wall"
        }
    );
    let wash = HandEvent::WashOut(WashOut {
        reason: "the live wall is exhausted".into(),
    });
    assert_eq!(p.apply(&wash).unwrap(), Applied::Legal);
    let mut early = early;
    assert_eq!(
        rules_broken(&early.apply(&wash).unwrap()),
        ["Code §36, §97"]
    );
}

/// A random game played by a chooser of legal moves from a shuffled wall: draws, discards, and
/// pungs when a seat holds a pair of the discard, to the end of the wall.
fn random_game(seed: u64) -> (HandStarted, Vec<HandEvent>) {
    let start = started(Deal::Wall {
        tiles: shuffled(seed),
        order: DealOrder::Code,
    });
    let mut p = Play::start(PlayRules::default(), &start).unwrap();
    let mut events = Vec::new();
    let mut x = seed | 1;
    let mut rand = move |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    for _ in 0..2000 {
        let s = p.state();
        let e = match s.turn.clone() {
            Turn::Over(_) => break,
            Turn::Discard(seat) | Turn::Replace { seat, .. }
                if !s.seats[seat].undeclared.is_empty() =>
            {
                HandEvent::BonusTileDeclared(BonusTileDeclared {
                    seat,
                    tile: s.seats[seat].undeclared[0],
                })
            }
            Turn::Discard(seat) => {
                let Concealed::Known(c) = &s.seats[seat].concealed else {
                    panic!("known wall")
                };
                let tiles: Vec<Tile> = c.tiles().collect();
                let tile = tiles[rand(tiles.len())];
                if c.get(tile) == 4 && rand(2) == 0 {
                    HandEvent::KongDeclared(KongDeclared {
                        seat,
                        kind: KongKind::Concealed,
                        tile,
                        unmarked: false,
                    })
                } else {
                    discard(seat, &tile.to_string())
                }
            }
            Turn::Replace { loose: false, .. } if s.wall.live == 0 => HandEvent::WashOut(WashOut {
                reason: "no tile left to replace a bonus tile".into(),
            }),
            Turn::Replace { seat, loose, .. } => {
                let wall = if loose {
                    &s.wall.loose_tiles
                } else {
                    &s.wall.live_tiles
                };
                let tile = wall.as_ref().and_then(|w| w.front().copied());
                if loose {
                    HandEvent::LooseTileDrawn(LooseTileDrawn { seat, tile })
                } else {
                    HandEvent::TileDrawn(TileDrawn { seat, tile })
                }
            }
            Turn::Draw(seat) => {
                let d = *s.live_discard().unwrap();
                let punger = Seat::ALL.into_iter().find(|&o| {
                    o != d.seat
                        && matches!(&s.seats[o].concealed, Concealed::Known(c) if c.get(d.placed) >= 2)
                        && s.window.as_ref().unwrap().claims[o].is_none()
                });
                if let (Some(o), true) = (punger, rand(2) == 0) {
                    claim(o, ClaimKind::Pung, &d.placed.to_string())
                } else if let Some((o, k)) = s
                    .window
                    .as_ref()
                    .and_then(|w| window::precedence(d.seat, &w.claims))
                {
                    grant(o, k)
                } else if s.wall.live == 0 {
                    HandEvent::WashOut(WashOut {
                        reason: "the live wall is exhausted".into(),
                    })
                } else {
                    let tile = s.wall.live_tiles.as_ref().and_then(|w| w.front().copied());
                    HandEvent::TileDrawn(TileDrawn { seat, tile })
                }
            }
            Turn::Expose { seat, claim } => HandEvent::SetExposed(SetExposed {
                seat,
                claim,
                lowest: s
                    .discards
                    .iter()
                    .rev()
                    .find(|d| d.claimed_by == Some(seat))
                    .unwrap()
                    .placed,
            }),
            Turn::Robbable { seat, .. } => HandEvent::LooseTileDrawn(LooseTileDrawn {
                seat,
                tile: s.wall.loose_tiles.as_ref().and_then(|w| w.front().copied()),
            }),
        };
        let applied = p
            .apply(&e)
            .unwrap_or_else(|err| panic!("seed {seed}: {err} ({e:?})"));
        assert_eq!(applied, Applied::Legal, "seed {seed}: {e:?}");
        assert_eq!(p.state().accounted(), 144, "seed {seed} after {e:?}");
        events.push(e);
    }
    assert!(
        matches!(p.state().turn, Turn::Over(Ending::WashOut)),
        "seed {seed}"
    );
    (start, events)
}

#[test]
fn random_legal_games_stay_consistent_and_account_for_every_tile() {
    for seed in 1..40 {
        random_game(seed);
    }
}

#[test]
fn replay_is_deterministic_and_every_prefix_equals_a_fresh_replay() {
    for seed in 1..6 {
        let (start, events) = random_game(seed);
        let replay = |n: usize| {
            let mut p = Play::start(PlayRules::default(), &start).unwrap();
            for e in &events[..n] {
                p.apply(e).unwrap();
            }
            p
        };
        let mut running = Play::start(PlayRules::default(), &start).unwrap();
        for (n, e) in events.iter().enumerate() {
            running.apply(e).unwrap();
            if n % 7 == 0 || n + 1 == events.len() {
                assert_eq!(running, replay(n + 1), "seed {seed} at event {}", n + 1);
            }
        }
    }
}

/// Random games where every move is one `legal_moves` offers some seat: every one is legal
/// when applied, every tile stays accounted for, and the hand ends.
#[test]
fn every_move_legal_moves_offers_is_legal() {
    let mut endings = (0, 0);
    let mut kinds = std::collections::BTreeSet::new();
    for seed in 1..60u64 {
        let start = started(Deal::Wall {
            tiles: shuffled(seed),
            order: DealOrder::Code,
        });
        let mut p = Play::start(PlayRules::default(), &start).unwrap();
        let mut x = seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1;
        let mut rand = move |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        for _ in 0..3000 {
            let moves: Vec<(Seat, Move)> = Seat::ALL
                .into_iter()
                .flat_map(|s| p.state().legal_moves(s).into_iter().map(move |m| (s, m)))
                .collect();
            if moves.is_empty() {
                break;
            }
            // Mah-Jongg whenever it is offered, else any move.
            let (seat, m) = moves
                .iter()
                .copied()
                .find(|(_, m)| {
                    matches!(
                        m,
                        Move::SelfDrawnMahJongg(_)
                            | Move::MahJonggOnDiscard(_)
                            | Move::RobKong { .. }
                    )
                })
                .unwrap_or_else(|| moves[rand(moves.len())]);
            let e = m.event(seat).expect("a known wall names every tile");
            kinds.insert(
                format!("{m:?}")
                    .split('(')
                    .next()
                    .unwrap_or_default()
                    .to_owned(),
            );
            let applied = p
                .apply(&e)
                .unwrap_or_else(|err| panic!("seed {seed}: {seat} {m:?}: {err}"));
            assert_eq!(applied, Applied::Legal, "seed {seed}: {seat} {m:?}");
            assert_eq!(p.state().accounted(), 144, "seed {seed}: {seat} {m:?}");
        }
        match p.state().turn {
            Turn::Over(Ending::MahJongg { .. }) => endings.0 += 1,
            Turn::Over(Ending::WashOut) => endings.1 += 1,
            ref t => panic!("seed {seed}: the hand did not end ({t:?})"),
        }
    }
    // Random discards rarely make Mah-Jongg; every other kind of move comes up.
    assert!(endings.0 + endings.1 == 59, "{endings:?}");
    for k in [
        "Draw",
        "Discard",
        "DeclareBonus",
        "Claim",
        "Pass",
        "Grant",
        "Expose",
        "WashOut",
    ] {
        assert!(kinds.contains(k), "{k} never offered: {kinds:?}");
    }
}

/// Mah-Jongg is offered to the seat whose hand a discard or its own draw completes.
#[test]
fn mah_jongg_is_offered_when_the_tile_completes_the_hand() {
    // South waits on 1p or 4p (2p 3p with four sets made).
    let mut p = play(hands(
        "1m 2m 3m 4m 5m 6m 7m 8m 9m E E E S 4p",
        "2p 3p 5p 6p 7p 8p 8p 8p 1s 1s 2s 3s 4s",
        "9m 9m 5s 6s 7s 8s 9s R R G G N N",
        "W W 1p 1p 5m 5m 2s 2s 3s 3s 6m 6m 8m",
    ));
    p.apply(&discard(Seat::East, "4p")).unwrap();
    let south = p.state().legal_moves(Seat::South);
    assert!(
        south.contains(&Move::Claim(ClaimKind::MahJongg, t("4p"))),
        "{south:?}"
    );
    assert!(
        south.contains(&Move::Claim(ClaimKind::Chow, t("4p"))),
        "{south:?}"
    );
    // West holds no 4p: it may only pass.
    assert_eq!(p.state().legal_moves(Seat::West), [Move::Pass]);
    p.apply(
        &Move::Claim(ClaimKind::MahJongg, t("4p"))
            .event(Seat::South)
            .unwrap(),
    )
    .unwrap();
    p.apply(
        &Move::Grant(Seat::South, ClaimKind::MahJongg)
            .event(Seat::East)
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        p.state().legal_moves(Seat::South),
        [Move::MahJonggOnDiscard(t("4p"))]
    );
    p.apply(&Move::MahJonggOnDiscard(t("4p")).event(Seat::South).unwrap())
        .unwrap();
    let report = p.state().report().unwrap();
    assert_eq!(report.winner, Some(Seat::South));
    assert_eq!(report.win_from, Some(crate::WinFrom::Discard));
    assert_eq!(report.discarder, Some(Seat::East));
    assert_eq!(report.discards, Vec::<Tile>::new());
    assert!(p.state().legal_moves(Seat::North).is_empty());
}

/// A seat sees its own tiles, and of the others only what is on the table (§27).
#[test]
fn a_seat_sees_its_own_tiles_and_the_table_only() {
    let mut p = dealt();
    north_pungs_easts_west(&mut p);
    let east = p.state().view(Seat::East);
    assert!(east.seats[Seat::East].concealed.is_some());
    for other in [Seat::South, Seat::West, Seat::North] {
        assert_eq!(east.seats[other].concealed, None, "{other}");
    }
    assert_eq!(east.seats[Seat::North].in_hand, 10);
    assert_eq!(east.seats[Seat::East].discards, [(t("W"), true)]);
    // East's 13 tiles, North's pung of West and its 8m discard: W three times (the claimed
    // discard is in the pung, counted once), 8m twice (East holds one).
    assert_eq!(east.visible.get(t("W")), 3);
    assert_eq!(east.visible.get(t("8m")), 2);
    assert_eq!(east.visible.len(), 13 + 3 + 1);
    // North sees its own hand instead.
    let north = p.state().view(Seat::North);
    assert!(north.seats[Seat::North].concealed.is_some());
    assert_eq!(north.seats[Seat::East].concealed, None);
}

/// §62: a discard granted for chow goes to a later claim for pung, even with the chow laid
/// down, until its taker discards; the chow's other tiles go back into the hand.
#[test]
fn a_higher_claim_takes_a_discard_granted_for_chow_section_62() {
    let mut p = dealt();
    p.apply(&discard(Seat::East, "9m")).unwrap();
    // South holds no 7m 8m (a claim in error, §76); what matters here is that a chow granted
    // and not yet laid down gives way to West's pung.
    p.apply(&claim(Seat::South, ClaimKind::Chow, "9m")).unwrap();
    p.apply(&grant(Seat::South, ClaimKind::Chow)).unwrap();
    let before_pung = p.state().seats[Seat::South].clone();
    let late = p.apply(&claim(Seat::West, ClaimKind::Pung, "9m")).unwrap();
    assert_eq!(late, Applied::Legal);
    assert_eq!(p.state().live_discard().map(|d| d.placed), Some(t("9m")));
    assert_eq!(p.state().seats[Seat::South].claimed, None);
    assert_eq!(
        p.state().seats[Seat::South].in_hand(),
        before_pung.in_hand()
    );
    assert_eq!(
        p.apply(&grant(Seat::West, ClaimKind::Pung)).unwrap(),
        Applied::Legal
    );
    p.apply(&exposed(Seat::West, ClaimKind::Pung, "9m"))
        .unwrap();
    assert_eq!(p.state().turn, Turn::Discard(Seat::West));
    assert_eq!(p.state().accounted(), 144);
}

/// §62 with the chow laid down: its two tiles go back into the taker's hand.
#[test]
fn a_chow_laid_down_is_taken_back_when_a_pung_claim_takes_its_discard() {
    let mut p = play(hands(
        "1m 2m 3m 4m 5m 6m 7m 8m 9m E E E S 5s",
        "2p 3p 4p 5p 6p 7p 8p 9p 1s 1s 3s 4s 6s",
        "9m 9m 5s 5s 7s 8s 9s R R G G N N",
        "W W 1p 1p 5m 5m 2s 2s 3s 3s 6m 6m 8m",
    ));
    p.apply(&discard(Seat::East, "5s")).unwrap();
    p.apply(&claim(Seat::South, ClaimKind::Chow, "5s")).unwrap();
    p.apply(&grant(Seat::South, ClaimKind::Chow)).unwrap();
    p.apply(&exposed(Seat::South, ClaimKind::Chow, "4s"))
        .unwrap();
    assert_eq!(p.state().seats[Seat::South].sets.len(), 1);
    let late = p.apply(&claim(Seat::West, ClaimKind::Pung, "5s")).unwrap();
    assert_eq!(late, Applied::Legal);
    let south = &p.state().seats[Seat::South];
    assert!(south.sets.is_empty());
    assert_eq!(south.in_hand(), 13);
    assert!(south.concealed.holds(t("4s"), 1) && south.concealed.holds(t("6s"), 1));
    assert_eq!(
        p.apply(&grant(Seat::West, ClaimKind::Pung)).unwrap(),
        Applied::Legal
    );
    assert_eq!(p.state().accounted(), 144);
}

/// §64: after the next player drew, a pung claim still takes the discard; the drawn tile goes
/// back to the wall. Once the drawer has discarded, it is too late.
#[test]
fn a_pung_claim_after_the_next_draw_puts_the_drawn_tile_back_section_64() {
    let mut p = dealt();
    p.apply(&discard(Seat::East, "9m")).unwrap();
    let live = p.state().wall.live;
    p.apply(&draw(Seat::South, Some("5p"))).unwrap();
    assert_eq!(p.state().live_discard(), None);
    let late = p.apply(&claim(Seat::West, ClaimKind::Pung, "9m")).unwrap();
    assert_eq!(late, Applied::Legal);
    assert_eq!(p.state().wall.live, live);
    assert_eq!(p.state().seats[Seat::South].in_hand(), 13);
    assert_eq!(p.state().turn, Turn::Draw(Seat::South));
    assert_eq!(
        p.apply(&grant(Seat::West, ClaimKind::Pung)).unwrap(),
        Applied::Legal
    );
    assert_eq!(p.state().accounted(), 144);

    let mut q = dealt();
    q.apply(&discard(Seat::East, "9m")).unwrap();
    q.apply(&draw(Seat::South, Some("5p"))).unwrap();
    q.apply(&discard(Seat::South, "5p")).unwrap();
    q.apply(&draw(Seat::West, Some("1s"))).unwrap();
    q.apply(&discard(Seat::West, "1s")).unwrap();
    let err = q
        .apply(&claim(Seat::North, ClaimKind::Pung, "9m"))
        .unwrap_err();
    assert_eq!(
        err.kind,
        Inconsistent::NotTheDiscard {
            seat: Seat::North,
            tile: t("9m"),
            placed: t("1s")
        }
    );
    // A chow cannot claim over a draw (§64 names pung, kong and Mah-Jongg).
    let mut r = dealt();
    r.apply(&discard(Seat::East, "9m")).unwrap();
    r.apply(&draw(Seat::South, Some("5p"))).unwrap();
    assert!(r.apply(&claim(Seat::South, ClaimKind::Chow, "9m")).is_err());
}

/// §70: an unclaimed discard taken back before the next draw; the seat discards again.
#[test]
fn a_discard_is_taken_back_and_another_made_section_70() {
    let mut p = dealt();
    p.apply(&discard(Seat::East, "W")).unwrap();
    let back = HandEvent::DiscardTakenBack(crate::event::DiscardTakenBack {
        seat: Seat::East,
        tile: t("W"),
    });
    assert_eq!(p.apply(&back).unwrap(), Applied::Legal);
    assert_eq!(p.state().turn, Turn::Discard(Seat::East));
    assert_eq!(p.state().live_discard(), None);
    assert_eq!(p.state().seats[Seat::East].in_hand(), 14);
    assert_eq!(p.apply(&discard(Seat::East, "S")).unwrap(), Applied::Legal);
    // Claimed first, it may not be taken back (§71): recorded, and flagged.
    p.apply(&claim(Seat::North, ClaimKind::Pung, "S")).unwrap();
    let late = HandEvent::DiscardTakenBack(crate::event::DiscardTakenBack {
        seat: Seat::East,
        tile: t("S"),
    });
    assert_eq!(rules_broken(&p.apply(&late).unwrap()), ["Code §71"]);
    assert_eq!(p.state().accounted(), 144);
}

/// §75: two tiles discarded together; one is taken back and the other is the discard.
#[test]
fn two_tiles_discarded_together_section_75() {
    let mut p = dealt();
    p.apply(&discard(Seat::East, "W")).unwrap();
    let second = p.apply(&discard(Seat::East, "S")).unwrap();
    assert_eq!(rules_broken(&second), ["Code §75"]);
    let back = HandEvent::DiscardTakenBack(crate::event::DiscardTakenBack {
        seat: Seat::East,
        tile: t("S"),
    });
    assert_eq!(p.apply(&back).unwrap(), Applied::Legal);
    assert_eq!(p.state().live_discard().map(|d| d.placed), Some(t("W")));
    assert_eq!(p.state().turn, Turn::Draw(Seat::South));
    assert_eq!(p.state().seats[Seat::East].in_hand(), 13);
    assert_eq!(p.state().accounted(), 144);
}

/// §81: a discard taken into a concealed hand is recorded, and flagged.
#[test]
fn a_discard_taken_into_the_hand_is_flagged_section_81() {
    let mut p = dealt();
    p.apply(&discard(Seat::East, "W")).unwrap();
    let taken = HandEvent::DiscardTakenIntoHand(crate::event::DiscardTakenIntoHand {
        seat: Seat::South,
        tile: t("W"),
    });
    assert_eq!(rules_broken(&p.apply(&taken).unwrap()), ["Code §81"]);
    assert_eq!(p.state().seats[Seat::South].in_hand(), 14);
    assert_eq!(p.state().turn, Turn::Discard(Seat::South));
    assert_eq!(p.state().accounted(), 144);
}

/// §63: a Mah-Jongg claim takes a discard claimed for kong even after the kong is laid down and
/// its loose tile drawn: the loose tile goes back to the kong box, the three tiles to the hand.
#[test]
fn a_kong_of_a_discard_is_surrendered_to_a_mah_jongg_claim_until_its_taker_discards() {
    let deal = || {
        hands(
            "1m 2m 3m 4m 5m 6m 7m 8m 9m E E E S 5p",
            "5p 5p 5p 2p 3p 4p 6s 7s 8s 1s 1s 2s 3s",
            "3p 4p 9m 9m 5s 6s 7s R R R G G G",
            "W W 1p 1p 5m 5m 2s 2s 3s 3s 6m 6m 8m",
        )
    };
    let konged = |p: &mut Play| {
        for e in [
            discard(Seat::East, "5p"),
            claim(Seat::South, ClaimKind::Kong, "5p"),
            HandEvent::ClaimPassed(ClaimPassed { seat: Seat::West }),
            HandEvent::ClaimPassed(ClaimPassed { seat: Seat::North }),
            HandEvent::ClaimGranted(ClaimGranted {
                seat: Seat::South,
                claim: ClaimKind::Kong,
            }),
            HandEvent::KongDeclared(KongDeclared {
                seat: Seat::South,
                kind: KongKind::AnnexedDiscard,
                tile: t("5p"),
                unmarked: false,
            }),
            HandEvent::LooseTileDrawn(LooseTileDrawn {
                seat: Seat::South,
                tile: Some("9p".parse().unwrap()),
            }),
        ] {
            assert_eq!(p.apply(&e).unwrap(), Applied::Legal, "{e:?}");
        }
    };
    let mut p = play(deal());
    konged(&mut p);
    assert_eq!(p.state().wall.kong_box, 15);
    // West calls Mah-Jongg on the 5p: legal, and the kong is undone.
    let mj = claim(Seat::West, ClaimKind::MahJongg, "5p");
    assert_eq!(p.apply(&mj).unwrap(), Applied::Legal);
    let s = p.state();
    assert!(s.seats[Seat::South].sets.is_empty());
    assert!(s.seats[Seat::South].concealed.holds(t("5p"), 3));
    assert!(!s.seats[Seat::South].concealed.holds(t("9p"), 1));
    assert_eq!(s.wall.kong_box, 16);
    let w = s
        .window
        .as_ref()
        .expect("the claims on the 5p are open again");
    assert_eq!(w.claims[Seat::South], Some(ClaimKind::Kong));
    assert_eq!(w.claims[Seat::West], Some(ClaimKind::MahJongg));
    for e in [
        HandEvent::ClaimGranted(ClaimGranted {
            seat: Seat::West,
            claim: ClaimKind::MahJongg,
        }),
        HandEvent::MahJonggDeclared(MahJonggDeclared {
            seat: Seat::West,
            winning_tile: t("5p"),
            self_drawn: false,
        }),
    ] {
        assert_eq!(p.apply(&e).unwrap(), Applied::Legal, "{e:?}");
    }
    assert!(matches!(
        p.state().turn,
        Turn::Over(Ending::MahJongg {
            seat: Seat::West,
            discarder: Some(Seat::East),
            ..
        })
    ));

    // Once the kong's taker has discarded, the claim comes too late.
    let mut p = play(deal());
    konged(&mut p);
    p.apply(&discard(Seat::South, "9p")).unwrap();
    let late = claim(Seat::West, ClaimKind::MahJongg, "5p");
    assert!(p.apply(&late).is_err());
}

/// §58: a concealed kong may be robbed only to complete the Thirteen Unique Wonders; books that
/// rob only an added kong (the Chinese and British rules) leave a concealed kong unrobbable.
#[test]
fn a_concealed_kong_is_robbed_only_for_the_thirteen_unique_wonders() {
    let deal = || {
        hands(
            "1m 1m 1m 1m 5m 6m 7m 8m 9m E E E S W",
            "9m 1p 9p 1s 9s E S W N R G P P",
            "2p 3p 4p 5p 6p 7p 8p 9p 2s 3s 4s 5s 6s",
            "W 2p 3p 4p 5p 6p 7p 8p 2s 3s 4s 5s 6s",
        )
    };
    let kong = HandEvent::KongDeclared(KongDeclared {
        seat: Seat::East,
        kind: KongKind::Concealed,
        tile: t("1m"),
        unmarked: false,
    });
    let rob = |robber| {
        HandEvent::KongRobbed(KongRobbed {
            robber,
            from: Seat::East,
            tile: t("1m"),
        })
    };
    // South holds the other twelve wonders and a pair of white dragons: the 1m completes them.
    let mut p = play(deal());
    p.apply(&kong).unwrap();
    assert!(p
        .state()
        .legal_moves(Seat::South)
        .iter()
        .any(|m| matches!(m, Move::RobKong { .. })));
    assert!(p.state().legal_moves(Seat::West).is_empty());
    assert_eq!(p.apply(&rob(Seat::South)).unwrap(), Applied::Legal);
    let s = p.state();
    assert!(s.seats[Seat::East].sets.is_empty());
    assert!(s.seats[Seat::East].concealed.holds(t("1m"), 3));
    // West robbing it for an ordinary hand is recorded, and flagged.
    let mut p = play(deal());
    p.apply(&kong).unwrap();
    match p.apply(&rob(Seat::West)).unwrap() {
        Applied::Irregular(v) => assert_eq!(v[0].rule, "Code §58"),
        Applied::Legal => panic!("robbing a concealed kong for an ordinary hand is irregular"),
    }
    // Under the British rules only an added kong is robbed: the loose tile is owed at once.
    let rules = PlayRules::of(&crate::Ruleset::builtin("british").unwrap());
    let mut p = Play::start(rules, &started(deal())).unwrap();
    p.apply(&kong).unwrap();
    assert!(matches!(
        p.state().turn,
        Turn::Replace {
            seat: Seat::East,
            loose: true,
            ..
        }
    ));
}

/// §95(b): No Choice is pleaded once the discard is claimed, before the discarder draws or
/// claims again; a plea at any other moment is flagged, and changes nothing.
#[test]
fn no_choice_is_pleaded_after_the_discard_is_claimed_and_before_the_next_draw() {
    use crate::event::NoChoicePleaded;
    let plea = |seat| HandEvent::NoChoicePleaded(NoChoicePleaded { seat });
    let mut p = dealt();
    p.apply(&discard(Seat::East, "W")).unwrap();
    // Not yet claimed.
    assert_eq!(
        rules_broken(&p.apply(&plea(Seat::East)).unwrap()),
        ["Code §95(b)"]
    );
    p.apply(&claim(Seat::North, ClaimKind::Pung, "W")).unwrap();
    p.apply(&grant(Seat::North, ClaimKind::Pung)).unwrap();
    // Claimed: in time.
    assert_eq!(p.apply(&plea(Seat::East)).unwrap(), Applied::Legal);
    // Another seat, whose last discard is not the one claimed.
    assert_eq!(
        rules_broken(&p.apply(&plea(Seat::South)).unwrap()),
        ["Code §95(b)"]
    );
    let before = p.state().clone();
    p.apply(&exposed(Seat::North, ClaimKind::Pung, "W"))
        .unwrap();
    p.apply(&discard(Seat::North, "8m")).unwrap();
    // North has discarded since, but East has not drawn or claimed: still in time ("before
    // his next draw from the wall … and before claiming any subsequent discard").
    assert_eq!(p.apply(&plea(Seat::East)).unwrap(), Applied::Legal);
    p.apply(&draw(Seat::East, None)).unwrap();
    // East has drawn: too late.
    assert_eq!(
        rules_broken(&p.apply(&plea(Seat::East)).unwrap()),
        ["Code §95(b)"]
    );
    assert_eq!(
        before.turn,
        Turn::Expose {
            seat: Seat::North,
            claim: ClaimKind::Pung
        }
    );
}
