//! Given a deal, when these events, then these findings: each kind of irregularity, withdrawn
//! claim, false naming and broken Original Call with its offender, citations and consequence;
//! and random games, legal or with draws out of turn, whose findings cite only the Code's
//! sections.

use crate::event::{
    ClaimKind, Deal, DealOrder, DiscardTakenIntoHand, HandEvent, HandStarted, KongKind, KongRobbed,
    OriginalCallAnnounced, WashOut,
};
use crate::play::{Breach, PlayRules};

use super::{settle, Replay, Replayed};
use crate::settle::{NamingClaim, Penalty};
use crate::tile::{AnyTile, Bonus, Tile};
use crate::Seat;
use crate::Seat::{East, North, South, West};

use super::test_support::*;
use super::{findings, Finding, Irregular};
use crate::play::sections;

fn oc(seat: Seat) -> HandEvent {
    HandEvent::OriginalCallAnnounced(OriginalCallAnnounced { seat })
}

#[test]
fn a_draw_out_of_turn_is_kept_as_a_long_hand() {
    let found = judge(&table(), &[discard(East, "S"), draw(West, "5p")]);
    let f = only(&found, "draw-out-of-turn");
    assert_eq!(f.events(), vec![2]);
    assert_finding(
        f,
        "draw-out-of-turn",
        Some(West),
        &["Code §73", "Code §89"],
        &[
            "must keep it",
            "long hand",
            "cannot Mah-Jongg",
            "scores nothing",
        ],
    );
}

#[test]
fn a_discard_out_of_turn_may_be_taken_back_unless_claimed() {
    let found = judge(
        &table(),
        &[discard(East, "S"), draw(South, "5p"), discard(West, "9m")],
    );
    assert_finding(
        only(&found, "discard-out-of-turn"),
        "discard-out-of-turn",
        Some(West),
        &["Code §74", "Code §89"],
        &["take the tile back", "short hand"],
    );
}

#[test]
fn a_discard_granted_over_a_claim_that_takes_precedence_is_surrendered() {
    let found = judge(
        &table(),
        &[
            discard(East, "1p"),
            claim(North, ClaimKind::Pung, "1p"),
            claim(South, ClaimKind::Chow, "1p"),
            grant(South, ClaimKind::Chow),
        ],
    );
    let f = only(&found, "precedence");
    assert_finding(
        f,
        "precedence",
        Some(South),
        &["Code §61", "Code §62–63"],
        &["the discard was north's, for pung", "must surrender it"],
    );
    assert_eq!(f.event(), 4);
}

#[test]
fn a_false_naming_claimed_for_pung_costs_the_discarder_100() {
    let mut events = vec![named(East, "S", "1p"), claim(North, ClaimKind::Pung, "1p")];
    let found = judge(&table(), &events);
    assert_eq!(
        found.len(),
        1,
        "one finding for the naming and its claim: {found:#?}"
    );
    let f = only(&found, "false-naming");
    assert_finding(
        f,
        "false-naming",
        Some(East),
        &["Code §84", "Code §86"],
        &["the tile placed is the discard", "east pays north 100"],
    );
    assert_eq!(f.events(), vec![1, 2]);
    let penalty = Penalty::FalseNaming {
        discarder: East,
        claims: vec![(North, NamingClaim::Pung)],
    };
    assert_eq!(f.penalty(), Some(penalty.clone()));
    // The penalty is paid on top of the hand's settlement, here a wash-out.
    events.push(HandEvent::WashOut(WashOut {
        reason: "stopped".into(),
    }));
    let r = replay(&table(), &events);
    let (report, settled) = settle(&r.replay, &code(), 0).unwrap().unwrap();
    assert!(report.penalties.contains(&penalty), "{report:?}");
    assert_eq!(settled.nets[North], 100);
    assert_eq!(settled.nets[East], -100);
}

#[test]
fn a_false_naming_claimed_for_a_mah_jongg_it_completes_abandons_the_hand() {
    let found = judge(
        &table(),
        &[
            named(East, "S", "4p"),
            claim(South, ClaimKind::MahJongg, "4p"),
        ],
    );
    let f = only(&found, "false-naming");
    assert_finding(
        f,
        "false-naming",
        Some(East),
        &["Code §84", "Code §87"],
        &["pays each other player 300", "abandoned"],
    );
    assert_eq!(
        f.penalty(),
        Some(Penalty::FalseNaming {
            discarder: East,
            claims: vec![(South, NamingClaim::MahJongg)],
        })
    );
}

#[test]
fn a_false_mah_jongg_claim_of_a_named_tile_carries_no_penalty() {
    // §87(b): 9p would not complete South's hand, and no one has laid down tiles.
    let found = judge(
        &table(),
        &[
            named(East, "S", "9p"),
            claim(South, ClaimKind::MahJongg, "9p"),
        ],
    );
    let f = only(&found, "false-naming");
    assert_eq!(f.penalty(), None);
    assert_finding(
        f,
        "false-naming",
        Some(East),
        &["Code §87"],
        &["would not have completed", "no penalty is reckoned"],
    );
}

#[test]
fn a_claim_withdrawn_before_the_grant_leaves_the_discard_live() {
    let found = judge(
        &table(),
        &[
            discard(East, "1p"),
            claim(North, ClaimKind::Pung, "1p"),
            retract(North, ClaimKind::Pung),
        ],
    );
    assert_finding(
        only(&found, "retraction"),
        "retraction",
        Some(North),
        &["Code §69", "Code §71"],
        &["withdrew the claim for pung", "stays live"],
    );
}

#[test]
fn a_granted_claim_withdrawn_leaves_the_discard_dead() {
    let events = [
        discard(East, "1p"),
        claim(North, ClaimKind::Pung, "1p"),
        grant(North, ClaimKind::Pung),
        retract(North, ClaimKind::Pung),
    ];
    let found = judge(&table(), &events);
    assert_finding(
        only(&found, "retraction"),
        "retraction",
        Some(North),
        &["Code §69", "Code §71"],
        &["is dead", "south drawing"],
    );
    // §71: another player may still claim it, for any purpose.
    let mut more = events.to_vec();
    more.push(claim(South, ClaimKind::Pung, "1p"));
    let r = Replay::replay(PlayRules::of(&code()), &table(), &more).unwrap();
    assert!(r.refused.is_none(), "{:?}", r.refused);
}

#[test]
fn a_claim_in_error_withdrawn_costs_nothing() {
    // West holds no 1p: a pung claim in error (§76).
    let found = judge(
        &table(),
        &[
            discard(East, "1p"),
            claim(West, ClaimKind::Pung, "1p"),
            retract(West, ClaimKind::Pung),
        ],
    );
    assert_finding(
        only(&found, "retraction"),
        "retraction",
        Some(West),
        &["Code §76"],
        &["costs west nothing"],
    );
}

#[test]
fn a_discard_taken_into_the_hand_may_be_demanded_back() {
    let found = judge(
        &table(),
        &[
            discard(East, "1p"),
            HandEvent::DiscardTakenIntoHand(DiscardTakenIntoHand {
                seat: South,
                tile: t("1p"),
            }),
        ],
    );
    assert_finding(
        only(&found, "discard-into-hand"),
        "discard-into-hand",
        Some(South),
        &["Code §81"],
        &["demand", "may not use it"],
    );
}

/// East throws the South wind and calls 1p; the others draw and discard until East's turn.
fn east_calls_and_plays_round() -> Vec<HandEvent> {
    vec![
        discard(East, "S"),
        oc(East),
        draw(South, "5s"),
        discard(South, "1s"),
        draw(West, "4m"),
        discard(West, "N"),
        draw(North, "7p"),
        discard(North, "8m"),
        draw(East, "5s"),
    ]
}

#[test]
fn an_original_call_is_broken_by_discarding_another_tile() {
    let mut events = east_calls_and_plays_round();
    events.push(discard(East, "1m"));
    let r = replay(&table(), &events);
    assert!(r.irregular.is_empty(), "{:?}", r.irregular);
    let found = findings(&r, &code());
    let f = only(&found, "broken-original-call");
    assert_finding(
        f,
        "broken-original-call",
        Some(East),
        &["Code §55(b)"],
        &[
            "announced an Original Call at event 2",
            "discarded `1m`, keeping the `5s`",
            "may not claim Mah-Jongg",
        ],
    );
    assert_eq!(f.events(), vec![2, 10]);
    // Throwing the tile just drawn keeps the call.
    let mut kept = east_calls_and_plays_round();
    kept.push(discard(East, "5s"));
    assert!(judge(&table(), &kept).is_empty());
}

#[test]
fn an_original_call_out_of_time_is_misplaced_and_binds_to_nothing() {
    let r = replay(&table(), &[oc(East)]);
    assert!(!r.replay.state().seats[East].original_call);
    let found = findings(&r, &code());
    assert_finding(
        only(&found, "misplaced-original-call"),
        "misplaced-original-call",
        Some(East),
        &["Code §55", "Code §56"],
        &["no Original Call double"],
    );
}

#[test]
fn mah_jongg_out_of_turn_is_found_and_points_at_section_82() {
    let found = judge(&table(), &[discard(East, "S"), mahjongg(West, "9m", true)]);
    assert_finding(
        only(&found, "mah-jongg-out-of-turn"),
        "mah-jongg-out-of-turn",
        Some(West),
        &["Code §54", "Code §82"],
        &["in his own turn", "false call"],
    );
}

#[test]
fn a_concealed_kong_robbed_for_an_ordinary_hand_is_found() {
    let deal = started(
        "1m 1m 1m 1m 5m 6m 7m 8m 9m E E E S W",
        "9m 1p 9p 1s 9s E S W N R G P P",
        "2p 3p 4p 5p 6p 7p 8p 9p 2s 3s 4s 5s 6s",
        "W 2p 3p 4p 5p 6p 7p 8p 2s 3s 4s 5s 6s",
    );
    let found = judge(
        &deal,
        &[
            kong(East, KongKind::Concealed, "1m"),
            HandEvent::KongRobbed(KongRobbed {
                robber: West,
                from: East,
                tile: t("1m"),
            }),
        ],
    );
    assert_finding(
        only(&found, "robbed-concealed-kong"),
        "robbed-concealed-kong",
        Some(West),
        &["Code §58"],
        &[
            "only to complete the Thirteen Unique Wonders",
            "does not stand",
            "draws his loose tile",
        ],
    );
}

#[test]
fn a_bonus_tile_not_declared_before_discarding_scores_nothing() {
    let deal = started(
        "1m 2m 3m 4m 5m 6m 7m 8m 9m E E E S 1f",
        "2p 3p 5p 6p 7p 8p 8p 8p 1s 1s 2s 3s 4s",
        "9m 9m 5s 6s 7s 8s 9s R R G G N N",
        "W W 1p 1p 5m 5m 2s 2s 3s 3s 6m 6m 8m",
    );
    let found = judge(&deal, &[discard(East, "S")]);
    assert_finding(
        only(&found, "late-bonus"),
        "late-bonus",
        Some(East),
        &["Code §31"],
        &["may claim no score for `1f`", "may not draw a replacement"],
    );
}

#[test]
fn a_wash_out_with_tiles_left_is_the_tables() {
    let found = judge(
        &table(),
        &[HandEvent::WashOut(WashOut {
            reason: "agreed".into(),
        })],
    );
    assert_finding(
        only(&found, "early-wash-out"),
        "early-wash-out",
        None,
        &["Code §36, §97"],
        &["play should have gone on"],
    );
}

/// One of every breach, for the table of kinds and citations.
fn every_breach() -> Vec<Breach> {
    let (p, n) = (t("1p"), t("2p"));
    let mut out = vec![
        Breach::BonusDeclaredLate(Bonus::ALL[0]),
        Breach::BonusNotDeclared(Bonus::ALL[1]),
        Breach::OwnDiscardClaimed,
        Breach::ChowNotFromLeft { discarder: East },
        Breach::ExposedOutOfTurn,
        Breach::ChowBeyondLimit { max: 1 },
        Breach::OriginalCallMistimed,
        Breach::NoChoiceLate,
        Breach::WrongTileDrawn,
        Breach::DrawOutOfTurn { turn_of: None },
        Breach::LooseTileOutOfTurn {
            turn_of: Some(East),
        },
        Breach::DiscardOutOfTurn {
            turn_of: Some(South),
        },
        Breach::TwoDiscards,
        Breach::FalselyNamed {
            placed: p,
            named: n,
        },
        Breach::DiscardTakenBackAfterClaim,
        Breach::DiscardIntoHand,
        Breach::KongRobbedUnderRuleset { from: West },
        Breach::ConcealedKongRobbed { from: West },
        Breach::MahJonggOutOfTurn,
        Breach::MahJonggOnUnclaimedDiscard,
        Breach::EarlyWashOut { left: 3 },
    ];
    for claim in [
        ClaimKind::Chow,
        ClaimKind::Pung,
        ClaimKind::Kong,
        ClaimKind::MahJongg,
    ] {
        out.push(Breach::NamedTileClaimed {
            discarder: North,
            claim,
            placed: p,
            named: n,
        });
        out.push(Breach::Precedence {
            claim,
            over: North,
            their: ClaimKind::MahJongg,
        });
        out.push(Breach::DiscardedBeforeLayingDown(claim));
        out.push(Breach::ClaimLeavesNoDiscard(claim));
    }
    out.push(Breach::ClaimForfeited { robbing: true });
    out.push(Breach::ClaimForfeited { robbing: false });
    out.push(Breach::ReplacementNotDrawn { loose: true });
    out.push(Breach::ReplacementNotDrawn { loose: false });
    for k in [
        KongKind::Concealed,
        KongKind::AnnexedDiscard,
        KongKind::AddedToExposedPung,
    ] {
        out.push(Breach::KongOutOfTurn(k));
    }
    out
}

/// Is `cite` a section of the Code (1–132), or a ruleset's own rule?
fn cites_the_code_or_the_ruleset(cite: &str) -> bool {
    match sections(cite) {
        Some(s) => !s.is_empty() && s.iter().all(|n| (1..=132).contains(n)),
        None => cite.starts_with("ruleset") || cite.starts_with("the ruleset"),
    }
}

#[test]
fn every_breach_has_a_kind_its_rule_first_among_its_citations_and_a_consequence() {
    for b in every_breach() {
        let i = Irregular {
            event: 3,
            irregularity: crate::play::Irregularity::new(b, Some(South), "it happened"),
        };
        let f = Finding::Irregular(i);
        assert!(!f.kind().is_empty() && f.kind() != "irregular", "{b:?}");
        let cites = f.citations();
        assert_eq!(cites[0], b.rule(), "{b:?}");
        for c in &cites {
            assert!(cites_the_code_or_the_ruleset(c), "{b:?}: {c}");
        }
        let text = f.to_string();
        assert!(text.starts_with("Event 3: it happened ("), "{text}");
        // Every consequence names the offender, but for the table's own (a wash-out).
        let names = text.contains("south") || matches!(b, Breach::EarlyWashOut { .. });
        assert!(text.len() > 60 && names, "{b:?}: {text}");
    }
}

#[test]
fn citations_read_as_sections() {
    assert_eq!(sections("Code §85–88"), Some(vec![85, 86, 87, 88]));
    assert_eq!(sections("Code §46, §48, §50"), Some(vec![46, 48, 50]));
    assert_eq!(sections("Code §95(b)"), Some(vec![95]));
    assert_eq!(sections("Code §117(l)"), Some(vec![117]));
    assert_eq!(sections("ruleset: one chow per hand"), None);
    assert_eq!(sections("Code §88–85"), None);
    assert_eq!(sections("Code 85"), None);
}

/// The set in an order shuffled by `seed`.
fn wall(seed: u64) -> Vec<AnyTile> {
    let mut tiles: Vec<AnyTile> = Tile::ALL
        .iter()
        .flat_map(|&t| [AnyTile::Playing(t); 4])
        .chain(Bonus::ALL.iter().map(|&b| AnyTile::Bonus(b)))
        .collect();
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    for i in (1..tiles.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        tiles.swap(i, (x % (i as u64 + 1)) as usize);
    }
    tiles
}

/// A game from a wall shuffled by `seed`, each move one `legal_moves` offers (Mah-Jongg when
/// offered); with `stray`, now and then a seat not to move draws out of turn.
fn random_game(seed: u64, stray: bool) -> Replayed {
    let start = HandStarted {
        deal: Deal::Wall {
            tiles: wall(seed),
            order: DealOrder::Code,
        },
        ..table()
    };
    let rules = PlayRules::of(&code());
    let mut p = Replay::start(rules.clone(), &start).unwrap();
    let mut events = Vec::new();
    let mut x = seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1;
    let mut rand = move |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    for _ in 0..3000 {
        let moves: Vec<(Seat, crate::play::Move)> = Seat::ALL
            .into_iter()
            .flat_map(|s| p.state().legal_moves(s).into_iter().map(move |m| (s, m)))
            .collect();
        if moves.is_empty() {
            break;
        }
        let e = if stray && rand(40) == 0 && p.state().wall.live > 4 {
            let next = p
                .state()
                .wall
                .live_tiles
                .as_ref()
                .and_then(|w| w.front().copied());
            HandEvent::TileDrawn(crate::event::TileDrawn {
                seat: Seat::ALL[rand(4)],
                tile: next,
            })
        } else {
            let (seat, m) = moves
                .iter()
                .copied()
                .find(|(_, m)| {
                    use crate::play::Move;
                    matches!(
                        m,
                        Move::SelfDrawnMahJongg(_)
                            | Move::MahJonggOnDiscard(_)
                            | Move::RobKong { .. }
                    )
                })
                .unwrap_or_else(|| moves[rand(moves.len())]);
            m.event(seat).expect("a known wall names every tile")
        };
        p.apply(&e).unwrap();
        events.push(e);
    }
    let r = Replay::replay(rules, &start, &events).unwrap();
    assert!(r.refused.is_none());
    r
}

#[test]
fn random_legal_games_bring_no_irregular_findings() {
    fn prop(seed: u64) -> bool {
        let r = random_game(seed, false);
        let found = findings(&r, &code());
        r.irregular.is_empty()
            && found.iter().all(|f| {
                matches!(f, Finding::Cannon(_))
                    && f.citations()
                        .iter()
                        .all(|c| cites_the_code_or_the_ruleset(c))
            })
    }
    quickcheck::QuickCheck::new()
        .tests(30)
        .quickcheck(prop as fn(u64) -> bool);
}

#[test]
fn every_finding_of_a_game_with_draws_out_of_turn_cites_the_code_and_names_its_offender() {
    fn prop(seed: u64) -> bool {
        let r = random_game(seed, true);
        let found = findings(&r, &code());
        found.iter().all(|f| {
            f.citations()
                .iter()
                .all(|c| sections(c).is_some_and(|s| s.iter().all(|n| (1..=132).contains(n))))
                && f.offender().is_some()
                && f.events().contains(&f.event())
        })
    }
    quickcheck::QuickCheck::new()
        .tests(30)
        .quickcheck(prop as fn(u64) -> bool);
    // The strays are found: a draw out of turn and the long hand it makes.
    let kinds: Vec<&str> = (1..40u64)
        .flat_map(|seed| findings(&random_game(seed, true), &code()))
        .map(|f| f.kind())
        .collect();
    assert!(kinds.contains(&"draw-out-of-turn"), "{kinds:?}");
    assert!(kinds.contains(&"long-hand"), "{kinds:?}");
}

#[test]
fn a_claimant_whose_tiles_were_never_seen_is_taken_at_his_claim() {
    let unseen = HandStarted {
        deal: Deal::Unknown,
        ..table()
    };
    let found = judge(
        &unseen,
        &[named(East, "S", "1p"), claim(North, ClaimKind::Pung, "1p")],
    );
    let f = only(&found, "false-naming");
    let Finding::FalseNaming(naming) = f else {
        panic!("{f:?}")
    };
    assert_eq!(naming.claims[0].shown, None);
    assert_eq!(
        f.penalty(),
        Some(Penalty::FalseNaming {
            discarder: East,
            claims: vec![(North, NamingClaim::Pung)],
        })
    );
}

/// Adjudication is deterministic: the same events give the same findings, in the same order,
/// with the same words, however often they are replayed.
#[test]
fn adjudication_is_deterministic() {
    fn prop(seed: u64, stray: bool) -> bool {
        let a = random_game(seed, stray);
        let b = random_game(seed, stray);
        let (fa, fb) = (findings(&a, &code()), findings(&b, &code()));
        let words = |f: &[Finding]| f.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        fa == fb && words(&fa) == words(&fb) && findings(&a, &code()) == fa
    }
    quickcheck::QuickCheck::new()
        .tests(30)
        .quickcheck(prop as fn(u64, bool) -> bool);
}
