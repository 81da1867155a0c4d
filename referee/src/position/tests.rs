//! Given a line, when it is read, then this position (or these errors, each in its place); and
//! the canonical line reads back to the same position.

use quickcheck::{Arbitrary, Gen, QuickCheck};

use super::*;
use crate::event::{ClaimKind, KongKind};
use crate::hand::{HandProblem, MeldForm};
use crate::tile::AnyTile;
use crate::TileCounts;

fn t(s: &str) -> Tile {
    s.parse().unwrap()
}

/// South drew and is to discard, holding other safe tiles; North displays three bamboo pungs.
const CLEAR_SUIT: &str = "g1 h1 dealer:E prevailing:E | E: ?13 | S: 12345m 668p 3889s EE 1f \
    | W: ?13 | N: ?4 [222s] [444s] [777s] | E:9p S:1m W:R N:5m E:2p | live:69 box:16 \
    | S:drew 3s | S:discard 8s, N:claim mahjongg 8s, N:grant mahjongg, N:mahjongg 8s";

fn problems(line: &str) -> Vec<Problem> {
    match line.parse::<Position>() {
        Err(PositionError::Invalid(p)) => p,
        other => panic!("expected problems of meaning, got {other:?}"),
    }
}

fn syntax(line: &str) -> Vec<SyntaxError> {
    match line.parse::<Position>() {
        Err(PositionError::Syntax(e)) => e,
        other => panic!("expected syntax errors, got {other:?}"),
    }
}

#[test]
fn reads_every_field() {
    let p: Position = CLEAR_SUIT.parse().unwrap();
    assert_eq!((p.game(), p.hand()), (1, 1));
    assert_eq!((p.dealer(), p.prevailing()), (Seat::East, Wind::East));
    assert_eq!(p.seats()[Seat::East].concealed, Concealed::Counted(13));
    let south = &p.seats()[Seat::South];
    assert_eq!(south.concealed.len(), 14);
    assert_eq!(south.bonus, vec!["1f".parse::<Bonus>().unwrap()]);
    let north = &p.seats()[Seat::North];
    assert_eq!(north.melds.len(), 3);
    assert!(north.melds.iter().all(|m| m.form == MeldForm::Claimed));
    assert_eq!(p.discards().len(), 5);
    assert_eq!(
        p.discards()[2],
        ShownDiscard {
            seat: Seat::West,
            tile: t("R"),
            claimed_by: None
        }
    );
    assert_eq!(
        p.wall(),
        WallCount {
            live: 69,
            kong_box: Some(16)
        }
    );
    assert_eq!(
        p.to_move(),
        ToMove {
            seat: Seat::South,
            stage: Stage::Drew(Some(t("3s")))
        }
    );
    assert_eq!(
        p.acts(),
        [
            Act::Discard {
                seat: Seat::South,
                placed: t("8s"),
                named: t("8s")
            },
            Act::Claim {
                seat: Seat::North,
                claim: ClaimKind::MahJongg,
                tile: t("8s")
            },
            Act::Grant {
                seat: Seat::North,
                claim: ClaimKind::MahJongg
            },
            Act::MahJongg {
                seat: Seat::North,
                tile: t("8s"),
                self_drawn: false
            },
        ]
    );
}

#[test]
fn prints_the_canonical_line() {
    let p: Position = CLEAR_SUIT.parse().unwrap();
    assert_eq!(
        p.to_string(),
        "g1 h1 dealer:E prevailing:E | E: ?13 | S: 12345m 668p 3889s EE 1f | W: ?13 \
         | N: ?4 [222s] [444s] [777s] | E:9p S:1m W:R N:5m E:2p | live:69 box:16 | S:drew 3s \
         | S:discard 8s, N:claim mahjongg 8s, N:grant mahjongg, N:mahjongg 8s"
    );
    // Spacing, order of the context and long names are free; the canonical line is one.
    let loose = "prevailing:east dealer:east h1 g1|E:?13|S:EE 3889s 12345m 1f 668p|W: ?13\
        |N:[222s][444s][777s] ?4|E:9p S:1m W:R N:5m E:2p|live:69 box:16|south:drew 3s\
        |S:discard 8s,N:claim mahjongg 8s,N:grant mahjongg,N:mahjongg 8s";
    let q: Position = loose.parse().unwrap();
    assert_eq!(q, p);
    assert_eq!(q.to_string(), p.to_string());
}

#[test]
fn every_act_reads_and_prints_back() {
    let acts = "S:draw, S:draw 5p, S:draw 2f, S:loose, S:loose 7s, S:bonus 2y, S:discard 5p, \
        S:discard 5p as 6p, W:claim chow 5p, W:claim kong 5p, W:pass, W:grant chow, \
        W:expose chow 3p, W:expose pung 5p, W:retract pung, W:kong concealed E, \
        W:kong annexed 5p, W:kong added 5p, W:kong concealed 5p unmarked, W:rob S 5p, W:mahjongg 5p, W:mahjongg self 5p, \
        S:nochoice, S:takeback 5p, S:intohand 5p, S:return 5p, S:call, \
        W:show 1155s [222s] [444s] [777s] =5s, washout";
    let line = CLEAR_SUIT.split(" | S:discard").next().unwrap().to_owned() + " | " + acts;
    let p: Position = line.parse().unwrap();
    assert_eq!(p.acts().len(), 29);
    assert_eq!(
        p.acts()[1],
        Act::Draw {
            seat: Seat::South,
            tile: Some(AnyTile::Playing(t("5p")))
        }
    );
    assert_eq!(
        p.acts()[17],
        Act::Kong {
            seat: Seat::West,
            kind: KongKind::AddedToExposedPung,
            tile: t("5p"),
            unmarked: false,
        }
    );
    let printed = p.to_string();
    assert!(printed.ends_with(acts), "{printed}");
    // Each maps to its event, and the event's seat is the act's.
    for a in p.acts() {
        let e = format!("{:?}", a.event());
        match a.seat() {
            Some(s) => assert!(e.contains(&format!("{s:?}")), "{a} {e}"),
            None => assert!(e.starts_with("WashOut"), "{e}"),
        }
    }
}

#[test]
fn syntax_errors_are_all_reported_with_field_and_column() {
    let line = "g1 h1 dealer:X prevailing:E | E: ?13 | S: 12345m 66x | W: ?13 | N: ?13 | E:9q \
                | live:69 | S:jump | S:discard";
    let errors = syntax(line);
    let at: Vec<(usize, usize)> = errors
        .iter()
        .map(|e| (e.field.number(), e.column))
        .collect();
    let col = |s: &str| line.find(s).unwrap() + 1;
    assert_eq!(
        at,
        [
            (1, col("X")),
            (3, col("x")),
            (6, col("9q")),
            (8, col("S:jump")),
            (9, col("S:discard"))
        ],
        "{errors:?}"
    );
    assert!(matches!(errors[0].kind, SyntaxKind::NotASeat(_)));
    assert!(
        errors[1].to_string().contains("unknown letter `x`"),
        "{}",
        errors[1]
    );
    assert!(
        errors[4].to_string().contains("S:discard 5p"),
        "{}",
        errors[4]
    );
    // Too few fields: nothing else can be read.
    assert_eq!(syntax("g1 h1 | E: ?13")[0].kind, SyntaxKind::FieldCount(2));
    // A seat field labelled for another seat, and a context without its dealer.
    let errors = syntax(
        &CLEAR_SUIT
            .replace("W: ?13", "N: ?13")
            .replace("dealer:E ", ""),
    );
    assert!(errors
        .iter()
        .any(|e| e.kind == SyntaxKind::MissingContext("dealer:")));
    assert!(errors.iter().any(|e| e.field == Field::Seat(Seat::West)
        && matches!(
            e.kind,
            SyntaxKind::WrongLabel {
                expected: Seat::West,
                ..
            }
        )));
}

#[test]
fn meaning_errors_are_all_reported_apart_from_syntax() {
    // A fifth 2 bamboo (North's pung, three discards); West one tile short; a set that is no
    // set; the turn after East's discard is South's, not West's.
    let line = CLEAR_SUIT
        .replace("W:R N:5m E:2p", "W:2s N:2s E:2s")
        .replace("W: ?13", "W: ?9 [124m]")
        .replace("S:drew 3s", "W:draw")
        .replace("S: 12345m 668p 3889s EE 1f", "S: 12345m 668p 389s EE 1f");
    let found = problems(&line);
    let kinds: Vec<&ProblemKind> = found.iter().map(|p| &p.kind).collect();
    assert!(
        kinds.contains(&&ProblemKind::FifthCopy(t("2s"))),
        "{found:?}"
    );
    assert!(found.iter().any(
        |p| matches!(&p.kind, ProblemKind::Set(HandProblem::NotASet { .. }))
            && p.column == line.find("[124m]").unwrap() + 1
    ));
    assert!(found
        .iter()
        .any(|p| p.field == Field::Turn && p.to_string().contains("south's")));
    // The fifth copy is pointed at where it is written: the second 2s discard.
    let fifth = found
        .iter()
        .find(|p| p.kind == ProblemKind::FifthCopy(t("2s")))
        .unwrap();
    assert_eq!(fifth.field, Field::Discards);
    assert_eq!(fifth.column, line.find("N:2s").unwrap() + 1);
}

#[test]
fn a_seat_holding_the_wrong_number_of_tiles_is_taken_as_found_section_89() {
    // South is to discard with thirteen, the tile missing from the hand lying in the live wall:
    // the line stands (the adjudication rules the hand short).
    let line = CLEAR_SUIT
        .replace("S: 12345m 668p 3889s EE 1f", "S: 12345m 68p 3889s EE 1f")
        .replace("live:69", "live:70");
    line.parse::<Position>().unwrap();
    // Not any number: a count no table could hold is a mistake in the line.
    let huge = CLEAR_SUIT.replace("E: ?13", "E: ?4294967295");
    assert!(problems(&huge).iter().any(|p| matches!(
        p.kind,
        ProblemKind::TooManyTiles {
            held: 4294967295,
            ..
        }
    )));
    // A kong counts as three: its fourth tile is the one its loose tile replaced.
    let kong = CLEAR_SUIT.replace("[222s]", "{2222s}");
    kong.parse::<Position>().unwrap();
}

#[test]
fn the_turn_must_agree_with_the_discards() {
    // North claimed East's 2p for pung? North holds no pung of it.
    let line = CLEAR_SUIT
        .replace("E:2p", "E:2p>N")
        .replace("S:drew 3s", "N:pung")
        .replace("S: 12345m 668p 3889s EE 1f", "S: 12345m 68p 3889s EE 1f")
        .replace("N: ?4", "N: ?5");
    let found = problems(&line);
    assert!(found
        .iter()
        .any(|p| matches!(p.kind, ProblemKind::ClaimedNotInSet { .. })));
    assert!(found
        .iter()
        .any(|p| p.field == Field::Turn && p.to_string().contains("exposed pung")));
    // With the pung, it stands.
    let ok = line.replace("N: ?5 [222s]", "N: ?2 [222p] [222s]");
    let p: Position = ok.parse().unwrap();
    assert_eq!(p.to_move().stage, Stage::Punged);
    assert_eq!(p.discards()[4].claimed_by, Some(Seat::North));
    // Only the dealer is dealt fourteen, and only before any discard.
    let found = problems(&CLEAR_SUIT.replace("S:drew 3s", "S:dealt"));
    assert_eq!(found.len(), 2, "{found:?}");
    // A drawn tile named must be held.
    let found = problems(&CLEAR_SUIT.replace("S:drew 3s", "S:drew 7s"));
    assert!(
        found[0].to_string().contains("does not hold the `7s`"),
        "{}",
        found[0]
    );
}

#[test]
fn a_winning_tile_or_groups_have_no_place_in_a_position() {
    let found = problems(&CLEAR_SUIT.replace("S: 12345m", "S: (123m)45m"));
    assert!(found.iter().any(|p| p.kind == ProblemKind::Grouped));
    let found = problems(&CLEAR_SUIT.replace("EE 1f", "E 1f =E"));
    assert!(found.iter().any(|p| p.kind == ProblemKind::WinningTile));
}

/// A position that can exist, built at random: every set real, no fifth copy, each seat's
/// count right for the turn, the turn agreeing with the discards.
#[derive(Clone, Debug)]
struct RandomPosition(Position);

fn pick<T: Copy>(g: &mut Gen, xs: &[T]) -> T {
    *g.choose(xs).unwrap_or(&xs[0])
}

/// Takes `n` of `t` from `left`, if there are so many.
fn take(left: &mut [u8; Tile::COUNT], t: Tile, n: u8) -> bool {
    let ok = left[t.index()] >= n;
    if ok {
        left[t.index()] -= n;
    }
    ok
}

fn random_meld(g: &mut Gen, left: &mut [u8; Tile::COUNT]) -> Option<Meld> {
    let t = pick(g, &Tile::ALL);
    let form = pick(
        g,
        &[
            MeldForm::Claimed,
            MeldForm::Claimed,
            MeldForm::AnnexedKong,
            MeldForm::AddedKong,
            MeldForm::ConcealedKong,
        ],
    );
    match form {
        MeldForm::Claimed if bool::arbitrary(g) => {
            let set = crate::Set::chow(t)?;
            let tiles: Vec<Tile> = set.tiles().collect();
            if tiles.iter().all(|&x| left[x.index()] > 0) {
                tiles.iter().for_each(|&x| left[x.index()] -= 1);
                return Some(Meld { set, form });
            }
            None
        }
        MeldForm::Claimed => take(left, t, 3).then(|| Meld {
            set: crate::Set::pung(t),
            form,
        }),
        _ => take(left, t, 4).then(|| Meld {
            set: crate::Set::kong(t),
            form,
        }),
    }
}

fn random_tiles(g: &mut Gen, left: &mut [u8; Tile::COUNT], n: usize) -> Vec<Tile> {
    let mut out = Vec::new();
    while out.len() < n {
        let t = pick(g, &Tile::ALL);
        if take(left, t, 1) {
            out.push(t);
        }
    }
    out
}

fn random_act(g: &mut Gen) -> Act {
    let seat = pick(g, &Seat::ALL);
    let tile = pick(g, &Tile::ALL);
    let claim = pick(
        g,
        &[
            ClaimKind::Chow,
            ClaimKind::Pung,
            ClaimKind::Kong,
            ClaimKind::MahJongg,
        ],
    );
    match u8::arbitrary(g) % 13 {
        0 => Act::Draw {
            seat,
            tile: bool::arbitrary(g).then_some(AnyTile::Playing(tile)),
        },
        1 => Act::Loose { seat, tile: None },
        2 => Act::Discard {
            seat,
            placed: tile,
            named: pick(g, &[tile, tile, Tile::ALL[0]]),
        },
        3 => Act::Claim { seat, claim, tile },
        4 => Act::Grant { seat, claim },
        5 => Act::Expose {
            seat,
            claim: pick(g, &[ClaimKind::Chow, ClaimKind::Pung]),
            lowest: tile,
        },
        6 => {
            let kind = pick(
                g,
                &[
                    KongKind::Concealed,
                    KongKind::AnnexedDiscard,
                    KongKind::AddedToExposedPung,
                ],
            );
            Act::Kong {
                seat,
                kind,
                tile,
                // §52: only a concealed kong is written unmarked.
                unmarked: kind == KongKind::Concealed && bool::arbitrary(g),
            }
        }
        7 => Act::MahJongg {
            seat,
            tile,
            self_drawn: bool::arbitrary(g),
        },
        8 => Act::Rob {
            seat,
            from: pick(g, &Seat::ALL),
            tile,
        },
        9 => [
            Act::Pass { seat },
            Act::NoChoice { seat },
            Act::OriginalCall { seat },
            Act::WashOut,
        ][usize::arbitrary(g) % 4]
            .clone(),
        10 => Act::Show {
            seat,
            hand: "1123s [222s] [444s] [777s] =4s".parse().unwrap(),
        },
        11 => [
            Act::TakeBack { seat, tile },
            Act::IntoHand { seat, tile },
            Act::Return { seat, tile },
        ][usize::arbitrary(g) % 3]
            .clone(),
        _ => Act::Bonus {
            seat,
            tile: pick(g, &Bonus::ALL),
        },
    }
}

impl Arbitrary for RandomPosition {
    fn arbitrary(g: &mut Gen) -> RandomPosition {
        let mut left = [4u8; Tile::COUNT];
        let dealer = pick(g, &Seat::ALL);
        let x = pick(g, &Seat::ALL);
        let stage = pick(
            g,
            &[
                Stage::Draw,
                Stage::Drew(None),
                Stage::Loose(None),
                Stage::Punged,
                Stage::Dealt,
            ],
        );
        let stage = if stage == Stage::Dealt && x != dealer {
            Stage::Draw
        } else {
            stage
        };
        let mut seats = BySeat::from_fn(|_| SeatPosition {
            concealed: Concealed::Counted(13),
            melds: Vec::new(),
            bonus: Vec::new(),
            original_call: false,
        });
        let mut bonus = Bonus::ALL.to_vec();
        for s in Seat::ALL {
            let seat = &mut seats[s];
            for _ in 0..u8::arbitrary(g) % 4 {
                seat.melds.extend(random_meld(g, &mut left));
            }
            if stage == Stage::Punged && s == x {
                seat.melds.retain(|m| m.form != MeldForm::Claimed);
                if let Some(t) = Tile::ALL.into_iter().find(|&t| left[t.index()] >= 3) {
                    take(&mut left, t, 3);
                    seat.melds.push(Meld {
                        set: crate::Set::pung(t),
                        form: MeldForm::Claimed,
                    });
                }
            }
            let n = 13 + u32::from(s == x && stage.to_discard()) - 3 * seat.melds.len() as u32;
            seat.concealed = if bool::arbitrary(g) {
                let tiles = random_tiles(g, &mut left, n as usize);
                Concealed::Known(TileCounts::from_tiles(&tiles).unwrap())
            } else {
                Concealed::Counted(n)
            };
            while bool::arbitrary(g) && !bonus.is_empty() {
                let i = usize::arbitrary(g) % bonus.len();
                seat.bonus.push(bonus.swap_remove(i));
            }
            seat.bonus.sort_unstable();
            seat.original_call = bool::arbitrary(g) && bool::arbitrary(g);
        }
        // Discards: any, ending with the one the turn follows from.
        let mut discards = Vec::new();
        if stage != Stage::Dealt {
            for _ in 0..usize::arbitrary(g) % 12 {
                let tile = random_tiles(g, &mut left, 1)[0];
                discards.push(ShownDiscard {
                    seat: pick(g, &Seat::ALL),
                    tile,
                    claimed_by: None,
                });
            }
            let last = match stage {
                Stage::Punged => {
                    let pung = seats[x].melds.last().map(|m| m.set.tile());
                    pung.map(|tile| ShownDiscard {
                        seat: x.next(),
                        tile,
                        claimed_by: Some(x),
                    })
                }
                _ => {
                    let tile = random_tiles(g, &mut left, 1)[0];
                    Some(ShownDiscard {
                        seat: x.previous(),
                        tile,
                        claimed_by: None,
                    })
                }
            };
            discards.extend(last);
        }
        let known_drawn = match (&seats[x].concealed, stage) {
            (Concealed::Known(c), Stage::Drew(_)) => c.tiles().next().map(|t| Stage::Drew(Some(t))),
            _ => None,
        };
        let p = Position {
            game: 1 + u32::arbitrary(g) % 4,
            hand: 1 + u32::arbitrary(g) % 16,
            dealer,
            prevailing: pick(g, &Wind::ALL),
            seats,
            discards,
            wall: WallCount {
                live: u32::arbitrary(g) % 80,
                kong_box: bool::arbitrary(g).then(|| u32::arbitrary(g) % 17),
            },
            to_move: ToMove {
                seat: x,
                stage: known_drawn.filter(|_| bool::arbitrary(g)).unwrap_or(stage),
            },
            acts: (0..usize::arbitrary(g) % 5)
                .map(|_| random_act(g))
                .collect(),
        };
        // A punged turn with no pung to make falls back to a draw.
        let p = if p.to_move.stage == Stage::Punged
            && p.discards.last().is_none_or(|d| d.claimed_by != Some(x))
        {
            return RandomPosition::arbitrary(g);
        } else {
            p
        };
        RandomPosition(p)
    }
}

#[test]
fn every_position_prints_to_a_line_that_reads_back_to_it() {
    fn prop(p: RandomPosition) -> bool {
        let line = p.0.to_string();
        match line.parse::<Position>() {
            Ok(q) if q == p.0 && q.to_string() == line => true,
            Ok(q) => {
                eprintln!("{line}\n{}\n{:?}\n{q:?}", q, p.0);
                false
            }
            Err(e) => {
                eprintln!("{line}\n{e}");
                false
            }
        }
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(RandomPosition) -> bool);
}

#[test]
fn no_string_makes_the_reader_panic_and_what_reads_prints_canonically() {
    fn prop(s: String) -> bool {
        if let Ok(p) = s.parse::<Position>() {
            let line = p.to_string();
            return line.parse::<Position>().ok().as_ref() == Some(&p);
        }
        true
    }
    QuickCheck::new()
        .tests(2_000)
        .quickcheck(prop as fn(String) -> bool);
}

#[test]
fn mutated_lines_never_make_the_reader_panic() {
    // Arbitrary strings rarely get past the first field: cut, swap and splice a real line.
    fn prop(cut: usize, len: usize, insert: String) -> bool {
        let chars: Vec<char> = CLEAR_SUIT.chars().collect();
        let at = cut % (chars.len() + 1);
        let end = (at + len % 8).min(chars.len());
        let line: String = chars[..at]
            .iter()
            .copied()
            .chain(insert.chars())
            .chain(chars[end..].iter().copied())
            .collect();
        if let Ok(p) = line.parse::<Position>() {
            return p.to_string().parse::<Position>().ok() == Some(p);
        }
        true
    }
    QuickCheck::new()
        .tests(3_000)
        .quickcheck(prop as fn(usize, usize, String) -> bool);
}

#[test]
fn every_position_starts_a_replay_that_accounts_for_every_tile_or_is_refused() {
    // Recompute and compare: the state a position gives holds every tile of the set once the
    // kong box is inferred, each seat holds what the position says, and its moves can be asked.
    fn prop(p: RandomPosition) -> bool {
        let rules = crate::play::PlayRules::default();
        let p = Position {
            wall: WallCount {
                live: p.0.wall.live,
                kong_box: None,
            },
            ..p.0
        };
        match crate::play::Play::from_position(rules.clone(), &p) {
            Ok(play) => {
                let s = play.state();
                Seat::ALL.iter().for_each(|&x| drop(s.legal_moves(x)));
                s.accounted() == rules.tiles
                    && Seat::ALL.iter().all(|&x| {
                        s.seats[x].concealed == p.seats()[x].concealed
                            && s.seats[x].sets.len() == p.seats()[x].melds.len()
                    })
                    && s.discards.len() == p.discards().len()
            }
            Err(e) => matches!(e.kind, crate::play::Inconsistent::PositionTiles { .. }),
        }
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(RandomPosition) -> bool);
}
