//! Given the sets a player displays, when a tile is discarded, then is it dangerous, and does
//! the hand the player completes make it liable (Code §90–92)?

use super::danger::{signals, Signal};
use crate::{Set, Suit, Tile};

fn t(s: &str) -> Tile {
    s.parse().unwrap()
}

fn pung(s: &str) -> Set {
    Set::pung(t(s))
}

fn chow(s: &str) -> Set {
    Set::chow(t(s)).unwrap()
}

/// Every tile of a complete hand, from its tiles written out.
fn hand(tiles: &str) -> [u8; Tile::COUNT] {
    let mut out = [0; Tile::COUNT];
    for w in tiles.split_whitespace() {
        out[t(w).index()] += 1;
    }
    out
}

#[test]
fn three_sets_of_one_suit_and_no_others_make_that_suit_dangerous() {
    // Danger signal (i): three circle sets, a chow among them (§91: a chow counts for §90(a)).
    let sets = [pung("2p"), chow("4p"), pung("9p")];
    assert_eq!(
        signals(&sets, t("5p")),
        vec![Signal::OneSuit(Suit::Circles)]
    );
    assert!(signals(&sets, t("5s")).is_empty());
    assert!(signals(&sets, t("E")).is_empty());
    // With another kind of set a Clear Suit hand cannot be made: no danger.
    let mixed = [pung("2p"), chow("4p"), pung("9p"), pung("E")];
    assert!(signals(&mixed, t("5p")).is_empty());
    // Two sets are not yet a signal.
    assert!(signals(&sets[..2], t("5p")).is_empty());
}

#[test]
fn three_wind_sets_make_the_fourth_wind_dangerous_with_or_without_another_set() {
    // Danger signal (ii).
    let sets = [pung("E"), pung("S"), Set::kong(t("N")), chow("1m")];
    assert_eq!(signals(&sets, t("W")), vec![Signal::Winds]);
    // A wind already displayed could only make a kong.
    assert!(signals(&sets, t("E")).is_empty());
    assert!(signals(&sets[..2], t("W")).is_empty());
}

#[test]
fn two_dragon_sets_make_the_third_dragon_dangerous() {
    // Danger signal (iii).
    let sets = [pung("R"), pung("G"), pung("5s")];
    assert_eq!(signals(&sets, t("P")), vec![Signal::Dragons]);
    assert!(signals(&sets, t("R")).is_empty());
}

#[test]
fn three_honour_sets_and_no_others_make_every_honour_dangerous() {
    // Danger signal (iv): three honour sets; with two dragons among them, the third dragon is
    // dangerous twice over.
    let sets = [pung("R"), pung("G"), pung("E")];
    assert_eq!(signals(&sets, t("S")), vec![Signal::Honours]);
    assert_eq!(
        signals(&sets, t("P")),
        vec![Signal::Dragons, Signal::Honours]
    );
    let with_suit = [pung("R"), pung("G"), pung("E"), pung("1m")];
    assert_eq!(signals(&with_suit, t("S")), Vec::<Signal>::new());
}

#[test]
fn three_all_green_sets_and_no_others_make_every_green_tile_dangerous() {
    // Danger signal (v): 2, 3, 4, 6 or 8 bamboo, and the green dragon.
    let sets = [chow("2s"), pung("6s"), pung("G")];
    for green in ["2s", "3s", "4s", "6s", "8s", "G"] {
        assert!(
            signals(&sets, t(green)).contains(&Signal::Green),
            "{green} is dangerous"
        );
    }
    assert!(!signals(&sets, t("5s")).contains(&Signal::Green));
    let not_green = [chow("3s"), pung("6s"), pung("G")];
    assert!(!signals(&not_green, t("2s")).contains(&Signal::Green));
}

#[test]
fn three_terminal_sets_and_no_others_make_every_terminal_dangerous() {
    // Danger signal (vi).
    let sets = [pung("1m"), pung("9p"), Set::kong(t("1s"))];
    assert_eq!(signals(&sets, t("9s")), vec![Signal::Terminals]);
    assert!(signals(&sets, t("E")).is_empty());
    let with_chow = [pung("1m"), pung("9p"), chow("7s")];
    assert!(!signals(&with_chow, t("9s")).contains(&Signal::Terminals));
}

#[test]
fn only_the_hand_the_sets_signal_makes_the_discard_liable() {
    // §92 with §90(a): a Clear Suit hand, not one suit with honours.
    let clear = hand("1p 1p 1p 2p 3p 4p 5p 5p 5p 9p 9p 9p 7p 7p");
    let mixed = hand("1p 1p 1p 2p 3p 4p 5p 5p 5p 9p 9p 9p E E");
    assert!(Signal::OneSuit(Suit::Circles).completed(&clear, crate::Wind::East));
    assert!(!Signal::OneSuit(Suit::Circles).completed(&mixed, crate::Wind::East));
    // §90(b): the Little Four Joys (three wind sets and a pair of the fourth) or Four Blessings.
    let joys = hand("E E E S S S W W W N N 1m 2m 3m");
    let three_winds = hand("E E E S S S W W W 5p 5p 1m 2m 3m");
    assert!(Signal::Winds.completed(&joys, crate::Wind::East));
    assert!(!Signal::Winds.completed(&three_winds, crate::Wind::East));
    // §90(c): the Little Three Dragons, or the Big.
    let little = hand("R R R G G G P P 1m 2m 3m 5s 5s 5s");
    let two = hand("R R R G G G 7p 7p 1m 2m 3m 5s 5s 5s");
    assert!(Signal::Dragons.completed(&little, crate::Wind::East));
    assert!(!Signal::Dragons.completed(&two, crate::Wind::East));
    // §90(d)–(f).
    assert!(Signal::Honours.completed(&hand("E E E S S S R R R G G G P P"), crate::Wind::East));
    assert!(!Signal::Honours.completed(&joys, crate::Wind::East));
    assert!(Signal::Green.completed(
        &hand("2s 3s 4s 2s 3s 4s 6s 6s 6s 8s 8s 8s G G"),
        crate::Wind::East
    ));
    assert!(!Signal::Green.completed(&little, crate::Wind::East));
    assert!(Signal::Terminals.completed(
        &hand("1m 1m 1m 9m 9m 9m 1p 1p 1p 9s 9s 9s 1s 1s"),
        crate::Wind::East
    ));
    assert!(!Signal::Terminals.completed(&clear, crate::Wind::East));
    // §90(g): any Mah-Jongg.
    assert!(Signal::EndOfWall.completed(&mixed, crate::Wind::East));
}
