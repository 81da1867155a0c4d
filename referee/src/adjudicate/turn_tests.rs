//! The turn after a granted claim or a declared kong, and what a seat's counted tiles show:
//! given a position or a deal, when these acts, then this ruling — each test one section of
//! the Code (§41, §78, §80, §91), written as a referee finds the table (`adjudicate
//! --position`) where the position notation can say it, and as a recorded hand where the
//! settlement needs every tile known.

use crate::event::{HandEvent, KongKind};
use crate::play::{Concealed, PlayRules, Turn};
use crate::position::Position;
use crate::tile::Tile;
use crate::Seat::{East, North, South, West};

use super::test_support::{claim, code, discard, draw, grant, kong, mahjongg, replay, started};
use super::{findings, Finding, Replay, Replayed};
use crate::event::ClaimKind::Chow;

/// The position `line` played through its acts under the Code; every act must apply.
fn at(line: &str) -> Replayed {
    let p: Position = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
    let r = Replay::replay_from_position(PlayRules::of(&code()), &p).unwrap();
    assert!(r.refused.is_none(), "{line}: {:?}", r.refused);
    r
}

fn kinds(found: &[Finding]) -> Vec<&'static str> {
    found.iter().map(Finding::kind).collect()
}

fn tile(s: &str) -> Tile {
    s.parse().unwrap()
}

/// South claims East's 3m for a chow and discards before laying it down (§41).
const CHOW_FIRST: &str = "g1 h1 dealer:E prevailing:E | E: ?14 | S: 12m 456p 789s 11s EE N \
    | W: ?13 | N: ?13 | - | live:70 | E:dealt \
    | E:discard 3m, S:claim chow 3m, S:grant chow, S:discard N";

#[test]
fn a_chow_may_be_discarded_before_it_is_laid_down_section_41() {
    // Given South granted East's 3m for chow, when South discards first and lays the chow down
    // after, then nothing is out of turn: West draws next, and South's later turn is its own.
    let line = format!(
        "{CHOW_FIRST}, S:expose chow 1m, W:draw, W:discard 9m, N:draw, N:discard 8m, \
         E:draw, E:discard 7m, S:draw, S:discard E"
    );
    let r = at(&line);
    assert_eq!(kinds(&findings(&r, &code())), Vec::<&str>::new());
    let s = &r.replay.state().seats[South];
    assert_eq!(s.sets.len(), 1, "the chow is laid down");
    assert_eq!(s.claimed, None);
    assert_eq!(r.replay.state().turn, Turn::Draw(West));

    // Then the turn passed to West as soon as South discarded.
    let r = at(CHOW_FIRST);
    assert_eq!(r.replay.state().turn, Turn::Draw(West));
    assert!(r.irregular.is_empty(), "{:?}", r.irregular);
}

#[test]
fn a_pung_discarded_before_it_is_laid_down_is_flagged_and_play_goes_on() {
    // Given West granted South's 5s for pung, when West discards before laying it down, then
    // the discard is flagged (§41 gives that leave to a chow only, §43) and North draws next.
    let r = at(
        "g1 h1 dealer:E prevailing:E | E: ?13 | S: ?14 | W: 55s 456p 789s 11m EE N \
        | N: ?13 | E:9p | live:69 | S:drew \
        | S:discard 5s, W:claim pung 5s, W:grant pung, W:discard N, W:expose pung 5s, N:draw",
    );
    let found = findings(&r, &code());
    assert_eq!(kinds(&found), vec!["discard-before-laying-down"]);
    assert!(found[0].citations().contains(&"Code §41"));
    assert_eq!(r.replay.state().turn, Turn::Discard(North));
}

/// In `test_support::table()`: South claims East's 1p for a chow and discards before laying it
/// down (§41); play goes round, and South draws again with the chow still owed (§78).
fn chow_owed_until_the_next_draw() -> Vec<HandEvent> {
    vec![
        discard(East, "1p"),
        claim(South, Chow, "1p"),
        grant(South, Chow),
        discard(South, "4s"),
        draw(West, "7p"),
        discard(West, "7p"),
        draw(North, "9p"),
        discard(North, "9p"),
        draw(East, "5p"),
        discard(East, "5p"),
        draw(South, "6s"),
    ]
}

#[test]
fn a_set_never_laid_down_makes_the_hand_foul_and_the_hand_is_settled_section_78() {
    // Given South granted East's 1p for chow, discarding first and never laying it down, when
    // South draws again, then South's hand is foul (§78), play goes on normally, and East's
    // Mah-Jongg on its own draw is in turn and settled.
    let deal = super::test_support::table();
    let mut events = chow_owed_until_the_next_draw();
    events.extend([
        discard(South, "6s"),
        draw(West, "4p"),
        discard(West, "4p"),
        draw(North, "4p"),
        discard(North, "4p"),
        draw(East, "S"),
        mahjongg(East, "S", true),
    ]);
    let r = replay(&deal, &events);
    let found = findings(&r, &code());
    assert_eq!(kinds(&found), vec!["foul-hand"], "{found:#?}");
    assert!(found[0].citations().contains(&"Code §78"), "{}", found[0]);
    assert_eq!(found[0].offender(), Some(South));
    assert!(r.irregular.is_empty(), "{:?}", r.irregular);
    // The discard stays in South's hand: thirteen tiles, none owed.
    let s = &r.replay.state().seats[South];
    assert_eq!((s.in_hand(), s.claimed), (13, None));
    let (_, settled) = super::report::settle(&r.replay, &code(), 0)
        .unwrap()
        .expect("the hand is settled");
    assert!(settled.nets[East] > 0, "{settled:?}");
}

#[test]
fn a_kong_without_its_loose_tile_plays_on_short_and_keeps_its_kong_section_80() {
    // Given East dealt four 1m, when East declares the kong and discards without drawing its
    // loose tile, then the discard is flagged (§80), East's hand is short at its next discard,
    // and play goes on in order with the kong on the table.
    let deal = started(
        "1m 1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m E S",
        "2p 3p 5p 6p 7p 8p 8p 8p 1s 1s 2s 3s 4s",
        "9m 9m 5s 6s 7s 8s 9s R R G G N N",
        "W W 1p 1p 5m 5m 2s 2s 3s 3s 6m 6m 8m",
    );
    let events: Vec<HandEvent> = vec![
        kong(East, KongKind::Concealed, "1m"),
        discard(East, "S"),
        draw(South, "7s"),
        discard(South, "7s"),
        draw(West, "4p"),
        discard(West, "4p"),
        draw(North, "9p"),
        discard(North, "9p"),
        draw(East, "6p"),
        discard(East, "6p"),
    ];
    let r = replay(&deal, &events);
    let found = findings(&r, &code());
    let kinds = kinds(&found);
    assert!(kinds.contains(&"replacement-not-drawn"), "{found:#?}");
    assert!(kinds.contains(&"short-hand"), "{found:#?}");
    assert!(!kinds.contains(&"discard-out-of-turn"), "{found:#?}");
    assert!(!kinds.contains(&"draw-out-of-turn"), "{found:#?}");
    let e = &r.replay.state().seats[East];
    assert_eq!(e.sets.len(), 1, "the kong stays");
    assert_eq!(r.replay.state().turn, Turn::Draw(South));

    // When South goes Mah-Jongg, then the hand settles, East's short hand scoring its
    // concealed kong of ones (32 points, §114) and nothing for its odd tiles.
    let mut events = events;
    events.push(draw(South, "4p"));
    events.push(mahjongg(South, "4p", true));
    let r = replay(&deal, &events);
    let (report, settled) = super::report::settle(&r.replay, &code(), 0)
        .unwrap()
        .expect("the hand is settled");
    assert_eq!(report.short, vec![East]);
    assert_eq!(settled.sheets[East].total, 32, "{:?}", report.hands[East]);
}

#[test]
fn a_tile_drawn_face_up_into_a_counted_hand_is_not_counted_twice_when_discarded() {
    // Given three 5m showing and South's tiles only counted, when South draws the fourth 5m face
    // up and discards it, then it is one tile, the fourth, not a fifth.
    let r = at(
        "g1 h1 dealer:E prevailing:E | E: ?13 | S: ?13 | W: ?13 | N: ?13 \
        | W:5m N:5m E:5m | live:60 | S:draw | S:draw 5m, S:discard 5m",
    );
    assert_eq!(r.replay.state().seen[tile("5m").index()], 4);
    assert!(matches!(
        r.replay.state().seats[South].concealed,
        Concealed::Counted(13)
    ));
    // A fifth is still refused.
    let p: Position = "g1 h1 dealer:E prevailing:E | E: ?13 | S: ?13 | W: ?13 | N: ?13 \
        | W:5m N:5m E:5m | live:60 | S:draw | S:draw 5m, S:discard 5m, W:draw, W:discard 5m"
        .parse()
        .unwrap();
    let r = Replay::replay_from_position(PlayRules::of(&code()), &p).unwrap();
    assert!(r.refused.is_some(), "a fifth 5m");
}

#[test]
fn tiles_a_counted_hand_showed_in_a_set_are_not_counted_again() {
    // Given South's tiles counted and its chow of 3m laid down then taken back when its
    // claim is retracted, its 1m and 2m are back in the hand, already in view: discarded later,
    // they bring no new copy into play.
    let r = at(
        "g1 h1 dealer:E prevailing:E | E: ?14 | S: ?13 | W: ?13 | N: ?13 | - | live:70 \
        | E:dealt | E:discard 3m, S:claim chow 3m, S:grant chow, S:expose chow 1m, \
        S:retract chow, S:draw, S:discard 1m",
    );
    let seen = r.replay.state().seen;
    assert_eq!(
        (
            seen[tile("1m").index()],
            seen[tile("2m").index()],
            seen[tile("3m").index()]
        ),
        (1, 1, 1)
    );
}

#[test]
fn a_claimant_may_retract_after_laying_his_set_down_until_he_discards_section_69() {
    // Given West granted South's 5s for pung and the pung laid down, when West retracts, then
    // the two 5s go back into his hand, the discard lies on the table, dead (§71), and West,
    // next after South, draws (§69): the retraction is a finding, not an irregularity.
    let base = "g1 h1 dealer:E prevailing:E | E: ?13 | S: ?14 | W: 55s 456p 789s 11m EE N \
        | N: ?13 | E:9p | live:69 | S:drew | S:discard 5s, W:claim pung 5s, W:grant pung, \
        W:expose pung 5s";
    let r = at(&format!("{base}, W:retract pung"));
    let state = r.replay.state();
    assert_eq!(state.turn, Turn::Draw(West));
    assert!(state.seats[West].sets.is_empty());
    assert!(matches!(&state.seats[West].concealed, Concealed::Known(c) if c.get(tile("5s")) == 2));
    assert_eq!(state.discards.last().map(|d| d.claimed_by), Some(None));
    let r = at(&format!("{base}, W:retract pung, W:draw"));
    assert_eq!(kinds(&findings(&r, &code())), vec!["retraction"]);
    assert!(r.irregular.is_empty(), "{:?}", r.irregular);

    // After his discard it is too late, and the refusal says so in words.
    let p: Position = format!("{base}, W:discard N, W:retract pung")
        .parse()
        .unwrap();
    let r = Replay::replay_from_position(PlayRules::of(&code()), &p).unwrap();
    let refused = r.refused.expect("too late to retract").to_string();
    assert!(
        refused.contains("no claim for pung to retract"),
        "{refused}"
    );
    assert!(!refused.contains("Some("), "{refused}");
}

#[test]
fn a_discard_once_claimed_may_not_be_taken_back_even_after_the_claim_is_withdrawn_section_71() {
    // Given West claimed South's 5s and withdrew the claim, when South takes the 5s back, then
    // that is flagged: after any declaration the discarder may not take his discard back.
    let r = at(
        "g1 h1 dealer:E prevailing:E | E: ?13 | S: ?14 | W: 55s 456p 789s 11m EE N \
        | N: ?13 | E:9p | live:69 | S:drew \
        | S:discard 5s, W:claim pung 5s, W:retract pung, S:takeback 5s",
    );
    let found = findings(&r, &code());
    assert!(kinds(&found).contains(&"discard-taken-back"), "{found:#?}");
}

/// South, holding nothing but bamboo, discards 8s to North, who shows three sets of bamboo
/// (§90(a)); North pungs it and later completes a Clear Suit on its own draw (§92).
const CANNON: &str = "g1 h1 dealer:E prevailing:E | E: ?13 | S: 11133555668899s | W: ?13 \
    | N: 88s 9s 5m [222s] [444s] [777s] | E:9p S:1m W:R N:5m E:2p | live:70 box:16 | S:drew 3s \
    | S:discard 8s, N:claim pung 8s, N:grant pung, N:expose pung 8s, N:discard 5m";

#[test]
fn no_choice_pleaded_before_the_next_draw_excuses_and_after_it_does_not_section_95b() {
    let end = "W:draw, W:discard 2p, N:draw 9s, N:mahjongg self 9s";
    // Given South's dangerous discard punged, when South pleads at once, then it is excused.
    let r = at(&format!(
        "{CANNON}, S:nochoice, E:draw, E:discard 1p, S:draw, S:discard 1s, {end}"
    ));
    assert_eq!(kinds(&findings(&r, &code())), vec!["no-choice-excused"]);
    // When South pleads only after its next draw, then the plea is late and excuses nothing:
    // South let off a cannon.
    let r = at(&format!(
        "{CANNON}, E:draw, E:discard 1p, S:draw, S:nochoice, S:discard 1s, {end}"
    ));
    let found = findings(&r, &code());
    assert_eq!(
        kinds(&found),
        vec!["cannon", "late-no-choice"],
        "{found:#?}"
    );
    assert_eq!(found[0].offender(), Some(South));
}

#[test]
fn no_kong_from_the_hand_straight_after_claiming_a_discard_sections_48_51() {
    // Given West punged South's 5s, when West declares a concealed kong at once, then it is
    // flagged (§51), and the legal moves never offered it.
    let pung = "g1 h1 dealer:E prevailing:E | E: ?13 | S: ?14 | W: 55s 4444p 789s 1m E N S \
        | N: ?13 | E:9p | live:69 | S:drew \
        | S:discard 5s, W:claim pung 5s, W:grant pung, W:expose pung 5s";
    let before = at(pung);
    let moves = before.replay.state().legal_moves(West);
    assert!(
        !moves.contains(&crate::play::Move::ConcealedKong(tile("4p"))),
        "{moves:?}"
    );
    let r = at(&format!("{pung}, W:kong concealed 4p"));
    let found = findings(&r, &code());
    assert_eq!(kinds(&found), vec!["kong-out-of-turn"], "{found:#?}");
    assert!(found[0].citations().contains(&"Code §50–51"));

    // When West, holding the fourth 5s of an earlier pung, adds it straight after punging 3s,
    // then that is flagged too (§48: the fourth tile is added when drawn from the wall).
    let r = at(
        "g1 h1 dealer:E prevailing:E | E: ?13 | S: ?14 | W: 33s 5s 456p 789s 1m [555s] \
        | N: ?13 | E:9p | live:69 | S:drew \
        | S:discard 3s, W:claim pung 3s, W:grant pung, W:expose pung 3s, W:kong added 5s",
    );
    let found = findings(&r, &code());
    assert_eq!(kinds(&found), vec!["kong-out-of-turn"], "{found:#?}");
    assert!(found[0].citations().contains(&"Code §48"));
}

#[test]
fn a_robbing_that_does_not_stand_is_taken_up_and_play_goes_on_section_58() {
    // Given East's concealed kong of 1m, when West robs it for an ordinary hand and calls
    // Mah-Jongg, then the robbing does not stand (§58): West takes up his hand and his call,
    // the kong stays, East draws his loose tile and play goes on — nothing is settled.
    let deal = started(
        "1m 1m 1m 1m 5m 6m 7m 8m 9m E E E S W",
        "9m 1p 9p 1s 9s E S W N R G P P",
        "2p 3p 4p 2m 3m 5p 5p 5p 2s 3s 4s 6s 6s",
        "W 2p 3p 4p 5p 6p 7p 8p 2s 3s 4s 5s 6s",
    );
    let events = vec![
        kong(East, KongKind::Concealed, "1m"),
        HandEvent::KongRobbed(crate::event::KongRobbed {
            robber: West,
            from: East,
            tile: tile("1m"),
        }),
        mahjongg(West, "1m", false),
        HandEvent::LooseTileDrawn(crate::event::LooseTileDrawn {
            seat: East,
            tile: Some("7p".parse().unwrap()),
        }),
        discard(East, "7p"),
        draw(South, "8s"),
    ];
    let r = replay(&deal, &events);
    let found = findings(&r, &code());
    assert_eq!(kinds(&found), vec!["robbed-concealed-kong"], "{found:#?}");
    let state = r.replay.state();
    assert_eq!(state.seats[East].sets.len(), 1, "the kong stays");
    assert_eq!(state.turn, Turn::Discard(South));
    assert!(r.replay.play().calls().is_empty(), "no call stands");
    assert_eq!(super::report::settle(&r.replay, &code(), 0), Ok(None));
}

#[test]
fn a_chow_counts_as_displayed_from_its_call_for_the_one_suit_signal_section_91() {
    // Given North showing two sets of bamboo and calling West's 6s for a chow, discarding before
    // laying it down (§41), when East discards a bamboo before the chow is on the table, then
    // the discard is dangerous all the same (§91 for §90(a)), and a cannon when North completes
    // a Clear Suit with it.
    let r = at("g1 h1 dealer:E prevailing:E | E: ?13 | S: ?13 | W: ?14 \
        | N: 57s 88s 99s R [222s] [444s] | E:9p S:1m W:R N:5m E:2p S:3p | live:69 box:16 \
        | W:drew | W:discard 6s, N:claim chow 6s, N:grant chow, N:discard R, E:draw, \
        E:discard 9s, N:expose chow 5s, N:claim mahjongg 9s, N:grant mahjongg, N:mahjongg 9s");
    let found = findings(&r, &code());
    assert_eq!(kinds(&found), vec!["cannon"], "{found:#?}");
    assert_eq!(found[0].offender(), Some(East));
    assert!(found[0].to_string().contains("[567s]"), "{}", found[0]);
}

#[test]
fn a_claim_after_the_next_draw_is_forfeited_when_the_drawn_tile_completes_the_hand_section_64() {
    // Given South's 9s lying and West drawing, when North then claims the 9s for pung, then the
    // claim takes the discard back from West's draw (§64) — unless West's tile completes his
    // hand: the claim is then forfeited, and West goes Mah-Jongg on his own draw.
    let line = |drawn: &str| {
        format!(
            "g1 h1 dealer:E prevailing:E | E: ?13 | S: ?14 | W: 123m 456m 789m 123p 5p \
             | N: 99s 456p 789p 11m EE W | E:9p | live:69 | S:drew \
             | S:discard 9s, W:draw {drawn}, N:claim pung 9s"
        )
    };
    let r = at(&line("7s"));
    assert!(r.irregular.is_empty(), "{:?}", r.irregular);
    assert_eq!(r.replay.state().turn, Turn::Draw(West), "the 7s went back");

    let r = at(&format!("{}, W:mahjongg self 5p", line("5p")));
    let found = findings(&r, &code());
    assert_eq!(kinds(&found), vec!["claim-forfeited"], "{found:#?}");
    assert!(found[0].citations().contains(&"Code §64"));
    assert_eq!(found[0].offender(), Some(North));
    assert!(matches!(
        r.replay.state().turn,
        Turn::Over(crate::play::Ending::MahJongg { seat: West, .. })
    ));
}

#[test]
fn a_kong_may_be_robbed_after_its_loose_tile_unless_the_tile_completes_the_hand_section_60() {
    // Given South adding its drawn 5p to its exposed pung and drawing the loose tile, when West
    // robs the kong, then the loose tile goes back to the kong box and West takes the 5p.
    let line = |loose: &str| {
        format!(
            "g1 h1 dealer:E prevailing:E | E: ?13 | S: 5p 123m 456m 78m 99s [555p] \
             | W: 123s 456s 789s 46p EE | N: ?13 | E:9p | live:74 box:16 | S:drew 5p \
             | S:kong added 5p, S:loose {loose}, W:rob S 5p, W:mahjongg 5p"
        )
    };
    let r = at(&line("1s"));
    let found = findings(&r, &code());
    assert_eq!(kinds(&found), Vec::<&str>::new(), "{found:#?}");
    let state = r.replay.state();
    assert_eq!(state.wall.kong_box, 16, "the loose tile is back");
    assert!(matches!(
        state.turn,
        Turn::Over(crate::play::Ending::MahJongg { seat: West, .. })
    ));

    // When the loose tile completes South's hand, then the kong may not be robbed: West takes up
    // his call, and South goes on.
    let r = at(&format!("{}, S:mahjongg self 9m", line("9m")));
    let found = findings(&r, &code());
    assert_eq!(kinds(&found), vec!["claim-forfeited"], "{found:#?}");
    assert!(found[0].citations().contains(&"Code §60"));
    assert!(matches!(
        r.replay.state().turn,
        Turn::Over(crate::play::Ending::MahJongg { seat: South, .. })
    ));
}

#[test]
fn a_discard_taken_back_may_be_claimed_until_its_replacement_is_discarded_section_70() {
    // Given South taking back its 9s before West drew, when North claims the 9s before South
    // discards again, then the 9s is South's discard once more and North's claim is on it.
    let base = "g1 h1 dealer:E prevailing:E | E: ?13 | S: ?14 | W: ?13 \
        | N: 99s 456p 789p 11m EE W | E:9p | live:69 | S:drew | S:discard 9s, S:takeback 9s";
    let r = at(&format!(
        "{base}, N:claim pung 9s, N:grant pung, N:expose pung 9s"
    ));
    assert!(r.irregular.is_empty(), "{:?}", r.irregular);
    let state = r.replay.state();
    assert_eq!(state.turn, Turn::Discard(North));
    assert_eq!(
        state.discards.last().map(|d| d.claimed_by),
        Some(Some(North))
    );
    // Once South has discarded another tile, the 9s is in his hand for good.
    let p: Position = format!("{base}, S:discard 5m, N:claim pung 9s")
        .parse()
        .unwrap();
    let r = Replay::replay_from_position(PlayRules::of(&code()), &p).unwrap();
    assert!(r.refused.is_some(), "the 9s is no longer a discard");
}

#[test]
fn the_first_in_order_of_two_mah_jongg_claimants_keeps_his_right_until_settlement_section_65() {
    // Given South's 9s completing both West's hand and North's, when North claims it and goes
    // Mah-Jongg first, then West, before North in order of play and not having drawn, may still
    // claim it: North's call is undone and the discard goes to West.
    let base = "g1 h1 dealer:E prevailing:E | E: ?13 | S: ?14 | W: 123m 456m 789m 123p 9s \
        | N: 99s 456p 789p 11m EEE | E:9p | live:69 | S:drew";
    let r = at(&format!(
        "{base} | S:discard 9s, N:claim mahjongg 9s, N:grant mahjongg, N:mahjongg 9s, \
         W:claim mahjongg 9s, W:grant mahjongg, W:mahjongg 9s"
    ));
    assert!(r.irregular.is_empty(), "{:?}", r.irregular);
    assert!(matches!(
        r.replay.state().turn,
        Turn::Over(crate::play::Ending::MahJongg { seat: West, .. })
    ));
    assert_eq!(kinds(&findings(&r, &code())), Vec::<&str>::new());

    // When West drew over the discard before North claimed it (§64), then he renounced it: his
    // later claim is refused.
    let p: Position = format!(
        "{base} | S:discard 9s, W:draw 5s, N:claim mahjongg 9s, N:grant mahjongg, \
         N:mahjongg 9s, W:claim mahjongg 9s"
    )
    .parse()
    .unwrap();
    let r = Replay::replay_from_position(PlayRules::of(&code()), &p).unwrap();
    assert!(r.refused.is_some(), "West renounced the 9s");
}

#[test]
fn of_two_tiles_discarded_together_the_one_claimed_by_the_next_in_order_is_the_discard_section_75()
{
    // Given South discarding 9s and 5m together, when West (next in order) claims the 5m for
    // chow and North the 9s for pung, then the 5m is the discard — though a pung takes
    // precedence over a chow under §61 — and the 9s goes back into South's hand.
    let r = at(
        "g1 h1 dealer:E prevailing:E | E: ?13 | S: ?14 | W: 46m 456p 789p 11s EE W \
        | N: 99s 456p 789p 11m EE W | E:9p | live:69 | S:drew \
        | S:discard 9s, S:discard 5m, W:claim chow 5m, N:claim pung 9s, W:grant chow, \
        W:expose chow 4m",
    );
    let found = findings(&r, &code());
    assert_eq!(kinds(&found), vec!["two-discards"], "{found:#?}");
    let state = r.replay.state();
    assert_eq!(state.turn, Turn::Discard(West));
    assert_eq!(
        state.on_the_table().collect::<Vec<_>>(),
        vec![tile("9p")],
        "the 9s is back in South's hand"
    );
    assert!(matches!(
        state.seats[South].concealed,
        Concealed::Counted(13)
    ));
    // A grant to North's pung would be against §75.
    let r = at(
        "g1 h1 dealer:E prevailing:E | E: ?13 | S: ?14 | W: 46m 456p 789p 11s EE W \
        | N: 99s 456p 789p 11m EE W | E:9p | live:69 | S:drew \
        | S:discard 9s, S:discard 5m, W:claim chow 5m, N:claim pung 9s, N:grant pung",
    );
    assert!(kinds(&findings(&r, &code())).contains(&"precedence"));
}

#[test]
fn a_hand_of_the_wrong_size_in_a_position_is_ruled_on_not_refused_section_89() {
    // Given a referee finding South to discard with thirteen tiles (the fourteenth in the live
    // wall), when South discards, then the position stands and South's hand is short.
    let r = at(
        "g1 h1 dealer:E prevailing:E | E: ?13 | S: 12345m 68p 3889s EE 1f | W: ?13 \
        | N: ?4 [222s] [444s] [777s] | E:9p S:1m W:R N:5m E:2p | live:70 box:16 \
        | S:drew 3s | S:discard 1m",
    );
    let found = findings(&r, &code());
    assert_eq!(kinds(&found), vec!["short-hand"], "{found:#?}");
    assert_eq!((found[0].offender(), found[0].event()), (Some(South), 0));

    // Given North short with two tiles and three sets, when it claims a pung with both, then
    // the claim is flagged: it would leave him nothing to discard (§89(b)).
    let r = at("g1 h1 dealer:E prevailing:E | E: ?13 | S: ?14 | W: ?13 \
        | N: 99s [222s] [444s] [777s] | E:9p S:1m W:R N:5m E:2p | live:72 box:16 \
        | S:drew | S:discard 9s, N:claim pung 9s");
    let found = findings(&r, &code());
    let kinds = kinds(&found);
    assert!(kinds.contains(&"short-hand-claim"), "{found:#?}");
    assert!(kinds.contains(&"short-hand"), "{found:#?}");
}

#[test]
fn a_discard_taken_into_the_hand_is_returned_when_demanded_section_81() {
    // Given West taking South's 9s into its concealed hand in its turn, when another player
    // demands it back and West returns it, then the 9s lies on the table again as the live
    // discard, West draws instead, and the taking stays flagged.
    let base = "g1 h1 dealer:E prevailing:E | E: ?13 | S: ?14 | W: 99s 456p 789p 11m EE W \
        | N: ?13 | E:9p | live:69 | S:drew | S:discard 9s, W:intohand 9s";
    let r = at(&format!("{base}, W:return 9s"));
    let state = r.replay.state();
    assert_eq!(state.turn, Turn::Draw(West));
    assert_eq!(state.live_discard().map(|d| d.placed), Some(tile("9s")));
    assert!(matches!(&state.seats[West].concealed, Concealed::Known(c) if c.get(tile("9s")) == 2));
    assert_eq!(kinds(&findings(&r, &code())), vec!["discard-into-hand"]);
    // North may now claim it.
    at(&format!("{base}, W:return 9s, N:claim pung 9s"));
    // A tile never taken in cannot be returned.
    let p: Position = format!("{base}, W:return 5m").parse().unwrap();
    let r = Replay::replay_from_position(PlayRules::of(&code()), &p).unwrap();
    let refused = r.refused.expect("nothing to return").to_string();
    assert!(refused.contains("took no discard `5m`"), "{refused}");
}

#[test]
fn a_pung_never_laid_down_scores_nothing_at_settlement_section_78() {
    // Given West granted East's red dragon for pung, discarding first and never laying it down,
    // when East goes Mah-Jongg, then West's foul hand is settled without its dragons: "no score
    // allowed in respect of the set which he failed to expose".
    let deal = started(
        "1m 2m 3m 4m 5m 6m 7m 8m 9m E E E S R",
        "2p 3p 5p 6p 7p 8p 8p 8p 1s 1s 2s 3s 4s",
        "9m 9m 5s 6s 7s 8s 9s R R G G N N",
        "W W 1p 1p 5m 5m 2s 2s 3s 3s 6m 6m 8m",
    );
    let events: Vec<HandEvent> = vec![
        discard(East, "R"),
        claim(West, crate::event::ClaimKind::Pung, "R"),
        grant(West, crate::event::ClaimKind::Pung),
        discard(West, "N"),
        draw(North, "7p"),
        discard(North, "7p"),
        draw(East, "5p"),
        discard(East, "5p"),
        draw(South, "6s"),
        discard(South, "6s"),
        draw(West, "4p"),
        discard(West, "4p"),
        draw(North, "9p"),
        discard(North, "9p"),
        draw(East, "S"),
        mahjongg(East, "S", true),
    ];
    let r = replay(&deal, &events);
    let found = findings(&r, &code());
    let kinds = kinds(&found);
    assert!(kinds.contains(&"foul-hand"), "{found:#?}");
    assert!(kinds.contains(&"discard-before-laying-down"), "{found:#?}");
    let (report, settled) = super::report::settle(&r.replay, &code(), 0)
        .unwrap()
        .expect("settled");
    let west = report.hands[West].as_deref().unwrap();
    assert!(!west.contains('R'), "the dragons are struck: {west}");
    // West keeps its pair of green dragons (2 points) and nothing for the red.
    assert_eq!(settled.sheets[West].total, 2, "{west}");
}

#[test]
fn a_spent_claim_cannot_be_laid_down_or_gone_out_with() {
    // Given South's chow of 1p folded into its hand at its next draw (§78), when South then
    // lays the chow down, then the act is refused: the 1p is in its hand, not owed.
    let deal = super::test_support::table();
    let mut events = chow_owed_until_the_next_draw();
    events.push(super::test_support::expose(South, Chow, "1p"));
    let r = Replay::replay(PlayRules::of(&code()), &deal, &events).unwrap();
    assert!(r.refused.is_some(), "the 1p is spent");
    assert_eq!(r.replay.state().accounted(), 144);
}

#[test]
fn a_retraction_after_laying_down_is_not_barred_by_an_earlier_draw_section_69() {
    // Given West drawing and discarding 7p, North punging it and discarding 5s, and West
    // punging that, when West retracts before discarding, then the retraction stands.
    let r = at("g1 h1 dealer:E prevailing:E | E: ?13 | S: ?13 | W: ?14 \
        | N: 77p 5s 123m 456m 99s EE | E:9p S:1m | live:73 box:16 | W:drew \
        | W:discard 7p, N:claim pung 7p, N:grant pung, N:expose pung 7p, N:discard 5s, \
        W:claim pung 5s, W:grant pung, W:expose pung 5s, W:retract pung");
    assert!(r.replay.state().seats[West].sets.is_empty());
    assert_eq!(r.replay.state().turn, Turn::Draw(East));
}

#[test]
fn a_kong_claimed_discarded_first_and_annexed_late_keeps_the_turn_in_order() {
    // Given North granted West's 7p for kong and discarding before annexing it (flagged), when
    // North annexes the kong and draws its loose tile, then East, next after North's discard,
    // draws in turn.
    let r = at("g1 h1 dealer:E prevailing:E | E: ?13 | S: ?13 | W: ?14 \
        | N: 777p 5s 123m 456m 9s EE | E:9p S:1m | live:73 box:16 | W:drew \
        | W:discard 7p, N:claim kong 7p, N:grant kong, N:discard 5s, N:kong annexed 7p, \
        N:loose, E:draw");
    let found = findings(&r, &code());
    assert_eq!(
        kinds(&found),
        vec!["discard-before-laying-down"],
        "{found:#?}"
    );
    assert_eq!(r.replay.state().turn, Turn::Discard(East));
}

#[test]
fn a_plea_after_a_later_claim_is_late_section_95b() {
    // Given South's dangerous discard punged, when South claims East's next discard (and
    // withdraws) before pleading, then the plea is late: "before claiming any subsequent
    // discard".
    let r = at(&format!(
        "{CANNON}, E:draw, E:discard 1p, S:claim pung 1p, S:retract pung, S:nochoice"
    ));
    assert!(kinds(&findings(&r, &code())).contains(&"late-no-choice"));
}

#[test]
fn a_concealed_kong_left_unmarked_scores_as_exposed_section_52() {
    // Given East's concealed kong of ones, when it is left unmarked and South goes out, then
    // East scores it as an exposed kong (16), not a concealed one (32).
    let deal = started(
        "1m 1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m E S",
        "2p 3p 5p 6p 7p 8p 8p 8p 1s 1s 2s 3s 4s",
        "9m 9m 5s 6s 7s 8s 9s R R G G N N",
        "W W 1p 1p 5m 5m 2s 2s 3s 3s 6m 6m 8m",
    );
    let east_score = |unmarked: bool| {
        let events: Vec<HandEvent> = vec![
            HandEvent::KongDeclared(crate::event::KongDeclared {
                seat: East,
                kind: KongKind::Concealed,
                tile: tile("1m"),
                unmarked,
            }),
            HandEvent::LooseTileDrawn(crate::event::LooseTileDrawn {
                seat: East,
                tile: Some("7p".parse().unwrap()),
            }),
            discard(East, "S"),
            draw(South, "7s"),
            discard(South, "7s"),
            draw(West, "4p"),
            discard(West, "4p"),
            draw(North, "9p"),
            discard(North, "9p"),
            draw(East, "6p"),
            discard(East, "6p"),
            draw(South, "4p"),
            mahjongg(South, "4p", true),
        ];
        let r = replay(&deal, &events);
        let (_, settled) = super::report::settle(&r.replay, &code(), 0)
            .unwrap()
            .expect("settled");
        settled.sheets[East].total
    };
    assert_eq!(east_score(false), 32);
    assert_eq!(east_score(true), 16);
}
