//! Concealed groups as laid down (Code §104: "The tiles should be grouped into the sets in which
//! the player intends to score them"; §105: no change once placed). A grouped hand is scored as
//! grouped; an ungrouped one in its best arrangement.

use referee::score::{score, ScoreError, ScoreInput, Win, WinFrom};
use referee::{Hand, HandError, HandProblem, Ruleset, ScoreSheet, Wind};

fn code() -> Ruleset {
    Ruleset::builtin("code-of-laws").unwrap()
}

fn drawn(hand: &str) -> Result<ScoreSheet, ScoreError> {
    let hand: Hand = hand.parse().unwrap();
    score(
        &code(),
        &ScoreInput::winning(hand, Wind::South, Wind::East, Win::from(WinFrom::Wall)),
    )
}

fn losing(hand: &str) -> ScoreSheet {
    let hand: Hand = hand.parse().unwrap();
    score(&code(), &ScoreInput::losing(hand, Wind::South, Wind::East)).unwrap()
}

#[test]
fn groups_are_kept_by_the_notation() {
    let hand: Hand = "55p (123m) 789s (EEE) 11s =1s".parse().unwrap();
    assert_eq!(hand.groups().len(), 2);
    assert_eq!(hand.to_string(), "(123m) (EEE) 55p 11789s =1s");
    let again: Hand = hand.to_string().parse().unwrap();
    assert_eq!(again, hand);
    assert!(hand.ungrouped().groups().is_empty());
    assert_eq!(hand.ungrouped().concealed(), hand.concealed());
}

#[test]
fn a_hand_grouped_in_chows_is_scored_as_chows() {
    // 111222333m ungrouped is three concealed pungs and, with 555s drawn and 44m, Buried
    // Treasure (§122(h)); laid down as three chows it is what the player made it.
    let best = drawn("111222333m 44m 55s =5s").unwrap();
    assert_eq!(best.total, 1000, "{best}");
    let grouped = drawn("(123m)(123m)(123m) 44m 55s =5s").unwrap();
    assert!(grouped.total < 100, "{grouped}");
    assert!(grouped.arrangement.contains("123m"), "{grouped}");
}

#[test]
fn a_grouping_no_arrangement_holds_is_refused_as_such() {
    assert!(matches!(
        drawn("(111m)(22m) 2333m 44m 55s =5s"),
        Err(ScoreError::NotCompleteAsGrouped { .. })
    ));
}

#[test]
fn a_group_that_is_no_set_or_pair_is_a_problem() {
    let err = "(12m) 3456789m 111p 2p".parse::<Hand>().unwrap_err();
    match err {
        HandError::Invalid(problems) => assert!(
            problems
                .iter()
                .any(|p| matches!(p, HandProblem::NotAGroup { column: 1, .. })),
            "{problems:?}"
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_losing_hand_is_regrouped_only_outside_its_groups() {
    // Ungrouped, 111222333m counts three concealed pungs (§114(b): 8 for the ones, 4 each for
    // the others) and §116(k)'s double: 32; laid down as chows, they count nothing.
    let best = losing("111222333m 44m 5s 1p");
    assert_eq!(best.total, 32, "{best}");
    let grouped = losing("(123m)(123m)(123m) 44m 5s 1p");
    assert_eq!(grouped.total, 0, "{grouped}");
    // One group: the rest is still regrouped at best.
    let partly = losing("(123m) 112233m 44m 5s 1p");
    assert_eq!(partly.total, 0, "{partly}");
}
