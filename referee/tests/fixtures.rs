//! Every hand in the book fixtures (`fixtures/scoring/*.toml`) is legal notation, a legal hand,
//! and — for a Mah-Jongg hand — complete, in the standard shape or a special one. A failure
//! names the file and the case.

use std::path::PathBuf;

use referee::shape::{arrangements, SpecialShape};
use referee::{Hand, TileCounts};

fn fixture_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/scoring");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
}

/// The fourteen tiles of a finished hand, each kong counted as a set of three.
fn shape_counts(hand: &Hand) -> TileCounts {
    let mut c = *hand.concealed();
    for meld in hand.melds() {
        for t in meld.set.tiles().take(3) {
            c.try_add(t).expect("checked hand");
        }
    }
    if let Some(w) = hand.winning() {
        c.try_add(w).expect("checked hand");
    }
    c
}

#[test]
fn every_fixture_hand_is_legal_and_every_winner_complete() {
    let mut checked = 0;
    for file in fixture_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let doc: toml::Table = text
            .parse()
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let cases = doc["case"].as_array().expect("[[case]] tables");
        for case in cases {
            let id = case["id"].as_str().unwrap();
            let written = case["hand"].as_str().unwrap();
            let hand: Hand = written
                .parse()
                .unwrap_or_else(|e| panic!("{} {id}: `{written}`: {e}", file.display()));
            let mahjong = case["mahjong"].as_bool().unwrap();
            assert_eq!(
                hand.winning().is_some(),
                mahjong,
                "{} {id}: a winning tile exactly when the hand went Mah-Jongg",
                file.display()
            );
            if let Some(w) = hand.winning() {
                let mut after = *hand.concealed();
                after.try_add(w).unwrap();
                let standard = !arrangements(&after).is_empty();
                let special = SpecialShape::ALL
                    .iter()
                    .any(|s| s.is_complete(&shape_counts(&hand), w));
                assert!(
                    standard || special,
                    "{} {id}: `{written}` is not a complete hand",
                    file.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 100, "only {checked} fixture hands");
}
