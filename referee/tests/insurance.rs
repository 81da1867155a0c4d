//! The books' own penalties for a dangerous discard (`referee::adjudicate::insurance`): given a
//! table written as a position, when the disputed acts are replayed under Babcock's Chinese game
//! or Harr's rules, then the finding names the book's rule and the settlement follows it — the
//! discarder paying for all in full or in half, or a second discarder sharing it (Babcock
//! pp. 75–76; Harr p. 68), or no one when the book exempts him.
//!
//! Neither book prints a worked example with figures for its penalty, so the amounts are
//! checked by hand in each test against the hand's plain settlement.

use referee::adjudicate::{findings, Book, Exemption, Finding, Insurance, Rank, Signal};
use referee::adjudicate::{report_as_played, settle, Replay, Replayed};
use referee::play::PlayRules;
use referee::position::Position;
use referee::settle::{Liability, Penalty};
use referee::{BySeat, Ruleset, Seat, Suit};

fn ruleset(name: &str) -> Ruleset {
    Ruleset::builtin(name).unwrap()
}

/// A table at dealer East, East the prevailing wind unless `prevailing` says, with each seat's
/// tiles known, and the acts in dispute.
struct Table<'a> {
    prevailing: &'a str,
    seats: [&'a str; 4],
    discards: &'a str,
    live: u32,
    turn: &'a str,
    acts: &'a str,
}

impl Table<'_> {
    fn position(&self) -> Position {
        let [e, s, w, n] = self.seats;
        let line = format!(
            "g1 h1 dealer:E prevailing:{} | E: {e} | S: {s} | W: {w} | N: {n} | {} | live:{} | {} | {}",
            self.prevailing, self.discards, self.live, self.turn, self.acts
        );
        line.parse().unwrap_or_else(|e| panic!("{line}\n{e}"))
    }

    fn replay(&self, rules: PlayRules) -> Replayed {
        let r = Replay::replay_from_position(rules, &self.position()).unwrap();
        assert!(r.refused.is_none(), "{:?}", r.refused);
        r
    }
}

/// North displays two dragon sets and waits on the white dragon or 5 circles; South, who drew,
/// discards `tile` and North goes Mah-Jongg with it.
fn dragons(south: &'static str, tile: &str, prevailing: &'static str) -> Table<'static> {
    let acts = if tile == "P" {
        "S:discard P, N:claim mahjongg P, N:grant mahjongg, N:mahjongg P, \
         N:show 55p 789m PP [RRR] [GGG] =P"
    } else {
        "S:discard 5p, N:claim mahjongg 5p, N:grant mahjongg, N:mahjongg 5p, \
         N:show 55p 789m PP [RRR] [GGG] =5p"
    };
    Table {
        prevailing,
        seats: [
            "11p 678p 99s EEE 234s",
            south,
            "WWW NNN 567s 345p 1p",
            "PP 789m 55p [RRR] [GGG]",
        ],
        discards: "E:4p",
        live: 68,
        turn: "S:drew",
        acts,
    }
}

const SOUTH: &str = "P 1234m 22s 345s 678s 5p";

fn insurance(r: &Replayed, rules: &Ruleset) -> Option<Insurance> {
    let found = findings(r, rules);
    assert!(
        !found.iter().any(|f| matches!(f, Finding::Cannon(_))),
        "a book's ruleset lists its own finding, not the Code's: {found:?}"
    );
    let mut books = found.into_iter().filter_map(|f| match f {
        Finding::Insurance(i) => Some(i),
        _ => None,
    });
    let one = books.next();
    assert!(books.next().is_none());
    one
}

/// The nets with the play's penalty, and as the hand would settle without it.
fn nets(r: &Replayed, rules: &Ruleset) -> (BySeat<i64>, BySeat<i64>) {
    let (_, charged) = settle(&r.replay, rules, 0).unwrap().unwrap();
    let (_, plain) = r.replay.state().settle(rules, 0).unwrap().unwrap();
    let sum = |n: &BySeat<i64>| n.iter().map(|(_, v)| *v).sum::<i64>();
    assert_eq!(sum(&charged.nets), 0);
    assert_eq!(sum(&plain.nets), 0);
    (charged.nets, plain.nets)
}

#[test]
fn babcock_the_third_dragon_discarded_and_won_on_pays_for_all_in_full_p75() {
    let rules = ruleset("babcock-chinese");
    let r = dragons(SOUTH, "P", "E").replay(PlayRules::of(&rules));
    let i = insurance(&r, &rules).expect("an insurance finding");
    assert_eq!(i.book, Book::Babcock);
    assert_eq!((i.first.discarder, i.winner), (Seat::South, Seat::North));
    assert_eq!(i.first.danger.signal, Signal::ThirdDragonSet);
    assert_eq!(i.kind(), "insurance");
    assert!(
        i.citations().contains(&"Babcock p. 75"),
        "{:?}",
        i.citations()
    );
    assert_eq!(
        i.penalty(),
        Some(Penalty::PaysForAll {
            liable: Seat::South,
            liability: Liability::Full,
            second: None
        })
    );
    assert!(i.to_string().contains("Babcock's insurance penalty"), "{i}");
    // Three dragon sets are a limit hand in the Chinese game (p. 74): 300, East paying double.
    // Plainly North takes 600 + 300 + 300 and the losers do not settle (p. 81); insured, South
    // pays all 1,200 and East and West nothing.
    let (charged, plain) = nets(&r, &rules);
    assert_eq!(plain[Seat::North], 1200);
    assert_eq!(
        (plain[Seat::East], plain[Seat::South], plain[Seat::West]),
        (-600, -300, -300)
    );
    assert_eq!(charged[Seat::North], 1200);
    assert_eq!(charged[Seat::South], -1200);
    assert_eq!((charged[Seat::East], charged[Seat::West]), (0, 0));
}

#[test]
fn babcock_the_third_dragon_punged_and_the_hand_completed_later_pays_half_p75() {
    let rules = ruleset("babcock-chinese");
    let t = Table {
        acts: "S:discard P, N:claim pung P, N:grant pung, N:expose pung P, N:discard 9m, \
               E:draw 6m, E:discard 6m, N:claim mahjongg 6m, N:grant mahjongg, N:mahjongg 6m, \
               N:show 55p 78m [RRR] [GGG] [PPP] =6m",
        ..dragons(SOUTH, "P", "E")
    };
    let r = t.replay(PlayRules::of(&rules));
    let i = insurance(&r, &rules).expect("an insurance finding");
    assert_eq!(i.first.claimed_for, referee::event::ClaimKind::Pung);
    assert_eq!(
        i.second, None,
        "the 6 of characters was not insured against"
    );
    assert_eq!(
        i.liability(),
        Some((Seat::South, Liability::Half, None)),
        "{i}"
    );
    // 1,200 is due to North (East 600, South 300, West 300). South pays his 300 and half of
    // the others' 900, 450: 750; East bears 300 and West 150.
    let (charged, _) = nets(&r, &rules);
    assert_eq!(charged[Seat::North], 1200);
    assert_eq!(charged[Seat::South], -750);
    assert_eq!(charged[Seat::East], -300);
    assert_eq!(charged[Seat::West], -150);
}

#[test]
fn babcock_a_suit_tile_chowed_then_another_discarded_to_complete_it_splits_the_whole_p76() {
    // North displays three bamboo sets; West's 7 bamboo is chowed, and East's 8 bamboo
    // completes the hand entirely of bamboo: West and East each pay half, South nothing.
    let rules = ruleset("babcock-chinese");
    let t = Table {
        prevailing: "E",
        seats: [
            "4s 8s 234p 567p 11m EE G",
            "RRR GGG PP 678m 99p",
            "7s 123m 456m 789m 55p WW",
            "56s 8s E [111s] [333s] [999s]",
        ],
        discards: "S:1p",
        live: 68,
        turn: "W:drew",
        acts: "W:discard 7s, N:claim chow 7s, N:grant chow, N:expose chow 5s, N:discard E, \
               E:draw 3m, E:discard 8s, N:claim mahjongg 8s, N:grant mahjongg, N:mahjongg 8s, \
               N:show 8s [111s] [333s] [999s] [567s] =8s",
    };
    let r = t.replay(PlayRules::of(&rules));
    let i = insurance(&r, &rules).expect("an insurance finding");
    assert_eq!(i.first.danger.signal, Signal::OneSuit(Suit::Bamboo));
    assert_eq!(i.first.discarder, Seat::West);
    assert_eq!(i.second.as_ref().map(|s| s.discarder), Some(Seat::East));
    assert_eq!(
        i.penalty(),
        Some(Penalty::PaysForAll {
            liable: Seat::West,
            liability: Liability::Half,
            second: Some(Seat::East)
        })
    );
    assert!(i.citations().contains(&"Babcock p. 76"));
    // North: 1s pung 4, 3s pung 2, 9s pung 4, Game 20, the pair's second 2 (p. 69) = 32,
    // doubled three times for one suit (p. 73) = 256. Due: East 512, South 256, West 256 =
    // 1,024; West and East pay 512 each.
    let (charged, plain) = nets(&r, &rules);
    assert_eq!(plain[Seat::North], 1024);
    assert_eq!(charged[Seat::North], 1024);
    assert_eq!(charged[Seat::West], -512);
    assert_eq!(charged[Seat::East], -512);
    assert_eq!(charged[Seat::South], 0);
}

#[test]
fn babcock_a_discarder_waiting_on_a_hand_of_higher_rank_is_exempt_p77() {
    // South waits on the Nine Gates in characters (first rank); the hand insured against,
    // three dragon sets, is of the second.
    let rules = ruleset("babcock-chinese");
    let r = dragons("P 1112345678999m", "P", "E").replay(PlayRules::of(&rules));
    let i = insurance(&r, &rules).expect("an insurance finding");
    assert_eq!(
        i.first.exempt,
        Some(Exemption::Outranked {
            held: Rank::First,
            against: Rank::Second
        })
    );
    assert_eq!(i.kind(), "insurance-exempt");
    assert_eq!(i.penalty(), None);
    assert!(i.citations().contains(&"Babcock p. 77"));
    let (charged, plain) = nets(&r, &rules);
    assert_eq!(charged, plain);
}

#[test]
fn babcock_any_waiting_hand_exempts_under_the_new_method_only_p79() {
    // South waits on 8 circles or 9 bamboo: no rank, so liable in the classic game …
    let south = "P SSS 234m 567m 88p 99s";
    let rules = ruleset("babcock-chinese");
    let classic = dragons(south, "P", "E").replay(PlayRules::of(&rules));
    let i = insurance(&classic, &rules).unwrap();
    assert!(i.first.own.is_some_and(|o| o.waiting() && o.rank.is_none()));
    assert_eq!(i.liability(), Some((Seat::South, Liability::Full, None)));
    // … and exempt under the New Method.
    let new_method = PlayRules {
        new_method: true,
        ..PlayRules::of(&rules)
    };
    let r = dragons(south, "P", "E").replay(new_method);
    assert_eq!(
        r.replay.insurance().unwrap().first.exempt,
        Some(Exemption::Waiting)
    );
    assert!(report_as_played(&r.replay).unwrap().penalties.is_empty());
}

#[test]
fn a_discard_that_completes_the_other_pair_is_not_insured_harr_p69_example_3() {
    for name in ["babcock-chinese", "harr-limit"] {
        let rules = ruleset(name);
        let r = dragons(SOUTH, "5p", "E").replay(PlayRules::of(&rules));
        assert_eq!(insurance(&r, &rules), None, "{name}");
        assert!(
            report_as_played(&r.replay).unwrap().penalties.is_empty(),
            "{name}"
        );
    }
}

#[test]
fn harr_the_other_dragon_giving_the_third_set_bears_the_losses_of_all_p68() {
    let rules = ruleset("harr-limit");
    let r = dragons(SOUTH, "P", "E").replay(PlayRules::of(&rules));
    let i = insurance(&r, &rules).expect("a penalty 2 finding");
    assert_eq!(i.book, Book::Harr);
    assert_eq!(i.kind(), "harr-penalty");
    assert_eq!(i.first.danger.signal, Signal::ThirdDragonSet);
    assert_eq!(i.citations(), vec!["Harr p. 68", "Harr p. 70"]);
    assert_eq!(i.liability(), Some((Seat::South, Liability::Full, None)));
    let (charged, plain) = nets(&r, &rules);
    let due = plain[Seat::North];
    assert!(due > 0);
    assert_eq!(charged[Seat::North], due);
    assert_eq!(charged[Seat::South], -due);
    assert_eq!((charged[Seat::East], charged[Seat::West]), (0, 0));
}

#[test]
fn harr_a_discarder_waiting_with_two_doubling_honours_is_not_penalised_p68() {
    // South's own wind in the South round doubles twice (pp. 66–67), and he is waiting.
    let rules = ruleset("harr-limit");
    let r = dragons("P SSS 234m 567m 88p 99s", "P", "S").replay(PlayRules::of(&rules));
    let i = insurance(&r, &rules).expect("a penalty 2 finding");
    assert_eq!(
        i.first.exempt,
        Some(Exemption::DoublingHonours {
            complete: 2,
            if_won: 2
        })
    );
    assert_eq!(i.kind(), "harr-penalty-exempt");
    assert_eq!(i.penalty(), None);
    // In the East round his wind doubles once: he pays.
    let r = dragons("P SSS 234m 567m 88p 99s", "P", "E").replay(PlayRules::of(&rules));
    assert!(insurance(&r, &rules).unwrap().penalty().is_some());
}

/// North displays three bamboo pungs; South holds nothing but bamboo and discards 8 bamboo,
/// which North goes Mah-Jongg with; `turn` says how South came by his tiles.
fn only_bamboo(turn: &str, discards: &str, live: u32) -> Position {
    let line = format!(
        "g1 h1 dealer:E prevailing:E | E: ?13 | S: 11335566899s [EEE] | W: ?13 \
         | N: ?4 [222s] [444s] [777s] | {discards} | live:{live} | {turn} \
         | S:discard 8s, N:claim mahjongg 8s, N:grant mahjongg, N:mahjongg 8s, \
         N:show 1179s [222s] [444s] [777s] =8s"
    );
    line.parse().unwrap_or_else(|e| panic!("{line}\n{e}"))
}

#[test]
fn no_choice_exempts_after_a_draw_under_both_books_and_after_a_pung_only_under_harr() {
    let after_draw = only_bamboo("S:drew", "E:9p S:1m W:R N:5m E:2p", 62);
    let after_pung = only_bamboo("S:pung", "E:9p S:1m W:R N:5m E:E>S", 63);
    let exempt = |name: &str, p: &Position| {
        let rules = ruleset(name);
        let r = Replay::replay_from_position(PlayRules::of(&rules), p).unwrap();
        assert!(r.refused.is_none(), "{:?}", r.refused);
        let i = r.replay.insurance().expect("a finding");
        assert_eq!(i.first.danger.signal, Signal::OneSuit(Suit::Bamboo));
        i.first.exempt
    };
    // Babcock pp. 77–78: exempt "whether his hand is Waiting or not" …
    assert_eq!(
        exempt("babcock-chinese", &after_draw),
        Some(Exemption::NoChoice)
    );
    // … but liable when he "has Chowed or Punged and then on the same play" has no choice.
    assert_eq!(exempt("babcock-chinese", &after_pung), None);
    // Harr p. 70, Note (a): no choice, no penalty, however it came about.
    assert_eq!(exempt("harr-limit", &after_draw), Some(Exemption::NoChoice));
    assert_eq!(exempt("harr-limit", &after_pung), Some(Exemption::NoChoice));
}

#[test]
fn the_same_discard_is_charged_by_each_rulesets_own_rule() {
    let t = dragons(SOUTH, "P", "E");
    // The Code: a cannon (§90(c)), the finding and penalty as before.
    let code = ruleset("code-of-laws");
    let r = t.replay(PlayRules::of(&code));
    let found = findings(&r, &code);
    assert!(found
        .iter()
        .any(|f| matches!(f, Finding::Cannon(c) if c.danger.signal == Signal::Dragons)));
    assert!(!found.iter().any(|f| matches!(f, Finding::Insurance(_))));
    assert_eq!(r.replay.insurance(), None);
    assert!(report_as_played(&r.replay)
        .unwrap()
        .penalties
        .iter()
        .any(|p| matches!(
            p,
            Penalty::PaysForAll {
                liable: Seat::South,
                liability: Liability::Full,
                second: None
            }
        )));
    // The Chinese classical rules: no penalty, and the Code's finding only to read.
    let chinese = ruleset("chinese-classical");
    let r = t.replay(PlayRules::of(&chinese));
    assert!(report_as_played(&r.replay).unwrap().penalties.is_empty());
    assert_eq!(r.replay.insurance(), None);
    // Babcock's and Harr's: each its own kind, citing its own book.
    for (name, kind, cite) in [
        ("babcock-chinese", "insurance", "Babcock p. 75"),
        ("harr-limit", "harr-penalty", "Harr p. 68"),
        ("harr-unlimited", "harr-penalty", "Harr p. 68"),
    ] {
        let rules = ruleset(name);
        let r = t.replay(PlayRules::of(&rules));
        let found = findings(&r, &rules);
        let f = found
            .iter()
            .find(|f| matches!(f, Finding::Insurance(_)))
            .unwrap_or_else(|| panic!("{name}: {found:?}"));
        assert_eq!(f.kind(), kind);
        assert_eq!(f.offender(), Some(Seat::South));
        assert!(f.citations().contains(&cite), "{name}");
        assert!(f.penalty().is_some());
        assert_eq!(
            report_as_played(&r.replay).unwrap().penalties.len(),
            1,
            "{name}"
        );
    }
}
