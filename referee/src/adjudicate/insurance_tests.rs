//! Given the sets a player displays, when a tile is discarded, then is it insured against under
//! Babcock (pp. 75–76) or Harr (p. 68), and does the hand completed bear the signal out?

use super::danger::{signals_in, Book, Signal};
use super::own_hand::Rank;
use crate::tile::Wind;
use crate::{Set, Suit, Tile};

fn t(s: &str) -> Tile {
    s.parse().unwrap()
}

fn pung(s: &str) -> Set {
    Set::pung(t(s))
}

fn hand(tiles: &str) -> [u8; Tile::COUNT] {
    let mut out = [0; Tile::COUNT];
    for w in tiles.split_whitespace() {
        out[t(w).index()] += 1;
    }
    out
}

#[test]
fn two_dragon_sets_insure_the_third_dragon_in_both_books_but_not_the_codes_other_signals() {
    let sets = [pung("R"), pung("G"), pung("5m")];
    for book in [Book::Babcock, Book::Harr] {
        assert_eq!(
            signals_in(book, &sets, t("P")),
            vec![Signal::ThirdDragonSet]
        );
        assert!(signals_in(book, &sets, t("R")).is_empty());
    }
    assert_eq!(signals_in(Book::Code, &sets, t("P")), vec![Signal::Dragons]);
    // A pair of the third dragon is not a third set (Harr p. 69, Ex. 3).
    let little = hand("R R R G G G P P 1m 2m 3m 5s 5s 5s");
    assert!(!Signal::ThirdDragonSet.completed(&little, Wind::East));
    assert!(Signal::ThirdDragonSet.completed(&hand("R R R G G G P P P 1m 2m 3m 5s 5s"), Wind::East));
}

#[test]
fn three_wind_sets_insure_the_four_wind_hand_babcock_or_the_other_wind_harr() {
    let sets = [pung("E"), pung("S"), pung("W")];
    assert_eq!(
        signals_in(Book::Babcock, &sets, t("N")),
        vec![Signal::FourWindHand, Signal::Heads]
    );
    assert_eq!(
        signals_in(Book::Harr, &sets, t("N")),
        vec![Signal::Winds, Signal::Heads]
    );
    // Babcock p. 53: three wind sets, the player's own among them, and a pair of the fourth.
    let four = hand("E E E S S S W W W N N 1m 2m 3m");
    assert!(Signal::FourWindHand.completed(&four, Wind::South));
    assert!(!Signal::FourWindHand.completed(&four, Wind::North));
}

#[test]
fn heads_are_ones_nines_and_honours_displayed_with_no_other_set() {
    let sets = [pung("1m"), pung("9p"), pung("E")];
    for book in [Book::Babcock, Book::Harr] {
        assert_eq!(signals_in(book, &sets, t("R")), vec![Signal::Heads]);
        assert_eq!(signals_in(book, &sets, t("1s")), vec![Signal::Heads]);
        assert!(signals_in(book, &sets, t("5s")).is_empty());
        assert!(signals_in(book, &[pung("1m"), pung("9p"), pung("5s")], t("R")).is_empty());
    }
    assert!(Signal::Heads.completed(&hand("1m 1m 1m 9p 9p 9p E E E R R R 1s 1s"), Wind::East));
    let sets = [pung("1s"), pung("3s"), pung("9s")];
    assert_eq!(
        signals_in(Book::Harr, &sets, t("5s")),
        vec![Signal::OneSuit(Suit::Bamboo)]
    );
}

#[test]
fn babcocks_ranks_order_first_above_second_above_third_p77() {
    assert!(Rank::First > Rank::Second && Rank::Second > Rank::Third);
    assert_eq!(
        Rank::insured(Signal::OneSuit(Suit::Circles)),
        Some(Rank::First)
    );
    assert_eq!(Rank::insured(Signal::FourWindHand), Some(Rank::First));
    assert_eq!(Rank::insured(Signal::ThirdDragonSet), Some(Rank::Second));
    assert_eq!(Rank::insured(Signal::Heads), Some(Rank::Third));
}
