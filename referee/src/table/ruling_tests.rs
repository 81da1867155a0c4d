//! Given a recorded hand and a dispute about it, when a referee rules (and an appeal
//! supersedes the ruling), then the settlement follows the rulings that stand.

use uuid::Uuid;

use super::tests::{conditions, given, won};
use super::*;
use crate::event::*;
use crate::event::{Decision, RuledFinding};
use crate::settle::Penalty;
use crate::violation::Violations;
use crate::BySeat;

/// Decides and applies, returning each event with the id it was stored under.
fn when(t: &mut Table, cmd: &TableCommand) -> Result<Vec<(Uuid, Decided)>, Violations> {
    let events = t.decide(&conditions(), cmd)?;
    let mut out = Vec::new();
    for e in events {
        let id = Uuid::now_v7();
        t.apply(id, &e).unwrap();
        out.push((id, e));
    }
    Ok(out)
}

const KEY: HandKey = HandKey { game: 1, hand: 1 };

fn nets(t: &Table) -> BySeat<i64> {
    t.hands[&KEY].settlement().unwrap().1.nets
}

fn dispute(t: &mut Table) -> Uuid {
    let raised = when(
        t,
        &TableCommand::RaiseDispute {
            hand: KEY,
            dispute: DisputeRaised {
                raised_by: Some(Seat::West),
                official: "ref".into(),
                about: None,
                description: "South exposed a wrong pung before going out".into(),
                position: None,
            },
        },
    )
    .unwrap();
    assert_eq!(raised.len(), 1);
    raised[0].0
}

fn ruling(dispute: Uuid, penalties: Vec<Penalty<Seat>>, abandons: bool) -> Ruling {
    Ruling {
        dispute,
        official: "ref".into(),
        finding: None,
        decision: Decision::Accepted,
        reason: "as the dispute says".into(),
        sections: vec!["Code §77".into()],
        penalties,
        withdrawn: Vec::new(),
        abandons,
    }
}

fn fifty_from_south() -> Vec<Penalty<Seat>> {
    vec![Penalty::Agreed {
        payer: Seat::South,
        payee: Some(Seat::West),
        amount: 50,
        reason: "wrong tiles laid down".into(),
    }]
}

#[test]
fn a_ruling_on_a_settled_hand_corrects_its_settlement_and_an_appeal_undoes_it() {
    let mut t = given(&[won(Seat::South)]);
    let before = nets(&t);
    let d = dispute(&mut t);
    // Raising a dispute changes no money.
    assert_eq!(nets(&t), before);
    let decided = when(
        &mut t,
        &TableCommand::Rule {
            hand: KEY,
            ruling: ruling(d, fifty_from_south(), false),
        },
    )
    .unwrap();
    assert!(
        matches!(&decided[0].1, Decided::Hand(_, HandEvent::RulingIssued(r)) if r.official == "ref")
    );
    assert!(decided
        .iter()
        .any(|(_, e)| matches!(e, Decided::Hand(_, HandEvent::CorrectionRecorded(_)))));
    let ruled = nets(&t);
    assert_eq!(ruled[Seat::South], before[Seat::South] - 50);
    assert_eq!(ruled[Seat::West], before[Seat::West] + 50);
    assert_eq!(ruled.iter().map(|(_, n)| n).sum::<i64>(), 0);
    assert_eq!(t.hands[&KEY].record().winner(), Some(Seat::South));
    // A second ruling on the same dispute is refused: an appeal supersedes the first.
    let again = t
        .decide(
            &conditions(),
            &TableCommand::Rule {
                hand: KEY,
                ruling: ruling(d, Vec::new(), false),
            },
        )
        .unwrap_err();
    assert!(again.to_string().contains("appeal"), "{again}");
    let ruling_id = decided[0].0;
    when(
        &mut t,
        &TableCommand::Appeal {
            hand: KEY,
            superseded: RulingSuperseded {
                ruling: ruling_id,
                official: "chief".into(),
                reason: "the tiles were corrected in time (§77)".into(),
            },
            replacement: None,
        },
    )
    .unwrap();
    assert_eq!(nets(&t), before);
    // Superseded once is superseded.
    let twice = t
        .decide(
            &conditions(),
            &TableCommand::Appeal {
                hand: KEY,
                superseded: RulingSuperseded {
                    ruling: ruling_id,
                    official: "chief".into(),
                    reason: "again".into(),
                },
                replacement: None,
            },
        )
        .unwrap_err();
    assert!(twice.to_string().contains("already superseded"), "{twice}");
}

#[test]
fn a_ruling_that_abandons_a_won_hand_leaves_only_its_penalty_and_an_appeal_restores_the_win() {
    let mut t = given(&[won(Seat::South)]);
    let before = nets(&t);
    let d = dispute(&mut t);
    let false_call = vec![Penalty::FalseMahJongg {
        offenders: vec![Seat::South],
    }];
    let decided = when(
        &mut t,
        &TableCommand::Rule {
            hand: KEY,
            ruling: Ruling {
                finding: Some(RuledFinding {
                    kind: "false-mah-jongg".into(),
                    offender: Some(Seat::South),
                    events: vec![4],
                    citations: vec!["Code §82".into()],
                    text: "not complete".into(),
                }),
                sections: vec!["Code §82".into()],
                ..ruling(d, false_call, true)
            },
        },
    )
    .unwrap();
    assert_eq!(nets(&t), BySeat::new(300, -900, 300, 300));
    assert_eq!(t.hands[&KEY].record().winner(), None);
    // South was not East: East keeps the deal (§82), where South's win would have passed it.
    assert_eq!(
        t.hands[&KEY].end(),
        Some(HandEnd::Abandoned { east_passes: false })
    );
    assert_eq!(t.next().east, Seat::East);
    when(
        &mut t,
        &TableCommand::Appeal {
            hand: KEY,
            superseded: RulingSuperseded {
                ruling: decided[0].0,
                official: "chief".into(),
                reason: "the hand was complete".into(),
            },
            replacement: None,
        },
    )
    .unwrap();
    assert_eq!(nets(&t), before);
    assert_eq!(t.hands[&KEY].record().winner(), Some(Seat::South));
    assert_eq!(t.next().east, Seat::South);
}

#[test]
fn a_ruling_lists_every_problem_and_changes_nothing() {
    let t = given(&[won(Seat::South)]);
    let before = t.clone();
    let bad = Ruling {
        dispute: Uuid::nil(),
        official: " ".into(),
        finding: None,
        decision: Decision::Overruled,
        reason: String::new(),
        sections: Vec::new(),
        penalties: vec![Penalty::Agreed {
            payer: Seat::North,
            payee: Some(Seat::North),
            amount: 0,
            reason: String::new(),
        }],
        withdrawn: Vec::new(),
        abandons: false,
    };
    let v = t
        .decide(
            &conditions(),
            &TableCommand::Rule {
                hand: KEY,
                ruling: bad,
            },
        )
        .unwrap_err();
    let text = v.to_string();
    for field in [
        "dispute",
        "official",
        "reason",
        "sections",
        "decision",
        "penalties.0.amount",
        "penalties.0.payee",
        "penalties.0.reason",
    ] {
        assert!(text.contains(field), "{field} missing: {text}");
    }
    assert_eq!(t, before);
    // A dispute needs its official and what is disputed; a position must parse.
    let v = t
        .decide(
            &conditions(),
            &TableCommand::RaiseDispute {
                hand: KEY,
                dispute: DisputeRaised {
                    raised_by: None,
                    official: String::new(),
                    about: None,
                    description: " ".into(),
                    position: Some("g1 h1 | nonsense".into()),
                },
            },
        )
        .unwrap_err();
    let text = v.to_string();
    for field in ["official", "description", "position"] {
        assert!(text.contains(field), "{field} missing: {text}");
    }
}

#[test]
fn a_ruling_that_abandons_a_hand_in_play_ends_it_with_its_penalty() {
    let (deal, events) = super::tests::played_hand();
    let mut t = given(&[TableCommand::StartHand {
        dice: Vec::new(),
        deal,
    }]);
    for e in &events[..6] {
        when(
            &mut t,
            &TableCommand::Play {
                hand: KEY,
                event: e.clone(),
                laid_down: Vec::new(),
            },
        )
        .unwrap();
    }
    let d = dispute(&mut t);
    // A ruling that does not abandon waits for the end of the play.
    let penalty = fifty_from_south();
    let waits = when(
        &mut t,
        &TableCommand::Rule {
            hand: KEY,
            ruling: ruling(d, penalty.clone(), false),
        },
    )
    .unwrap();
    assert_eq!(waits.len(), 1);
    assert!(t.in_play().is_some());
    let id = waits[0].0;
    when(
        &mut t,
        &TableCommand::Appeal {
            hand: KEY,
            superseded: RulingSuperseded {
                ruling: id,
                official: "chief".into(),
                reason: "the hand cannot go on".into(),
            },
            replacement: Some(ruling(d, penalty, true)),
        },
    )
    .unwrap();
    assert!(t.in_play().is_none());
    assert_eq!(nets(&t), BySeat::new(0, -50, 50, 0));
    assert_eq!(t.hands[&KEY].end(), Some(HandEnd::WashOut));
}

#[test]
fn an_overruling_lifts_a_penalty_in_force_and_its_appeal_puts_it_back() {
    let mut recorded = match won(Seat::South) {
        TableCommand::RecordHand { report } => report,
        _ => unreachable!(),
    };
    let in_force = fifty_from_south().remove(0);
    recorded.penalties.push(in_force.clone());
    let mut t = given(&[TableCommand::RecordHand { report: recorded }]);
    let with_it = nets(&t);
    let d = dispute(&mut t);
    let decided = when(
        &mut t,
        &TableCommand::Rule {
            hand: KEY,
            ruling: Ruling {
                decision: Decision::Overruled,
                finding: Some(RuledFinding {
                    kind: "late-claim".into(),
                    offender: Some(Seat::South),
                    events: vec![3],
                    citations: vec!["Code §64".into()],
                    text: "a claim after the draw".into(),
                }),
                withdrawn: vec![in_force],
                ..ruling(d, Vec::new(), false)
            },
        },
    )
    .unwrap();
    let without = nets(&t);
    assert_eq!(without[Seat::South], with_it[Seat::South] + 50);
    assert_eq!(without[Seat::West], with_it[Seat::West] - 50);
    when(
        &mut t,
        &TableCommand::Appeal {
            hand: KEY,
            superseded: RulingSuperseded {
                ruling: decided[0].0,
                official: "chief".into(),
                reason: "the penalty was right".into(),
            },
            replacement: None,
        },
    )
    .unwrap();
    assert_eq!(nets(&t), with_it);
}

/// Property: whatever a ruling orders, the settlement still sums to zero, and an appeal that
/// supersedes it gives back the settlement before it.
#[test]
fn a_ruling_never_breaks_the_zero_sum_and_its_appeal_restores_the_settlement() {
    fn prop(payer: u8, payee: Option<u8>, amount: u16, abandons: bool, pays_for_all: bool) -> bool {
        let seat = |n: u8| Seat::ALL[usize::from(n % 4)];
        let payer = seat(payer);
        let payee = payee.map(seat).filter(|p| *p != payer);
        let mut penalties = vec![Penalty::Agreed {
            payer,
            payee,
            amount: i64::from(amount % 1000) + 1,
            reason: "ordered".into(),
        }];
        if pays_for_all {
            penalties.push(Penalty::PaysForAll {
                liable: payer,
                liability: crate::settle::Liability::Full,
                second: None,
            });
        }
        let mut t = given(&[won(Seat::South)]);
        let before = nets(&t);
        let d = dispute(&mut t);
        let Ok(decided) = when(
            &mut t,
            &TableCommand::Rule {
                hand: KEY,
                ruling: ruling(d, penalties, abandons),
            },
        ) else {
            // Refused (a penalty the ruleset cannot price here): nothing changed.
            return nets(&t) == before;
        };
        let zero = nets(&t).iter().map(|(_, n)| n).sum::<i64>() == 0;
        when(
            &mut t,
            &TableCommand::Appeal {
                hand: KEY,
                superseded: RulingSuperseded {
                    ruling: decided[0].0,
                    official: "chief".into(),
                    reason: "appeal".into(),
                },
                replacement: None,
            },
        )
        .unwrap();
        zero && nets(&t) == before
    }
    quickcheck::QuickCheck::new()
        .tests(200)
        .quickcheck(prop as fn(u8, Option<u8>, u16, bool, bool) -> bool);
}

#[test]
fn a_ruling_that_would_change_who_dealt_a_later_hand_is_refused() {
    // South won hand 1, so South dealt hand 2. Abandoning hand 1 (South's false call, §82)
    // would have kept the deal with East: refused, as a correction would be.
    let mut t = given(&[won(Seat::South), won(Seat::West)]);
    let d = dispute(&mut t);
    let before = t.clone();
    let v = t
        .decide(
            &conditions(),
            &TableCommand::Rule {
                hand: KEY,
                ruling: ruling(
                    d,
                    vec![Penalty::FalseMahJongg {
                        offenders: vec![Seat::South],
                    }],
                    true,
                ),
            },
        )
        .unwrap_err();
    assert!(
        v.to_string().contains("correct the later hands first"),
        "{v}"
    );
    assert_eq!(t, before);
}

/// The cannon of Code §90(a), in the position notation (as the README and the dispute form
/// give it): North shows three bamboo pungs; South discards 8 bamboo; North goes out on it.
const CANNON_POSITION: &str = "g1 h1 dealer:E prevailing:E | E: ?13 | S: 12345m 668p 3889s EE 1f | W: ?13 \
    | N: ?4 [222s] [444s] [777s] | E:9p S:1m W:R N:5m E:2p | live:69 box:16 | S:drew 3s \
    | S:discard 8s, N:claim mahjongg 8s, N:grant mahjongg, N:mahjongg 8s, N:show 1179s [222s] [444s] [777s] =8s";

fn raise_on(t: &Table, position: &str) -> Result<Vec<Decided>, Violations> {
    let problems = t.dispute_position_problems(KEY, position);
    if !problems.is_empty() {
        return Err(problems);
    }
    t.decide(
        &conditions(),
        &TableCommand::RaiseDispute {
            hand: KEY,
            dispute: DisputeRaised {
                raised_by: None,
                official: "ref".into(),
                about: None,
                description: "a cannon".into(),
                position: Some(position.into()),
            },
        },
    )
}

#[test]
fn a_disputes_position_must_be_the_hands_own_and_replay_when_it_is_raised() {
    let t = given(&[won(Seat::South)]);
    // Game 1, hand 1, East dealing, East prevailing: this hand, and it replays.
    assert!(raise_on(&t, CANNON_POSITION).is_ok());
    // Another hand, another dealer, another prevailing wind: each said, with its rule.
    let other =
        CANNON_POSITION.replace("g1 h1 dealer:E prevailing:E", "g1 h2 dealer:S prevailing:S");
    let text = raise_on(&t, &other).unwrap_err().to_string();
    for said in [
        "the position is of g1 h2, but the dispute is about g1 h1",
        "the south seat dealing, but the record has the east seat dealing this hand (Code §11)",
        "has south prevailing, but the record has east prevailing this hand (Code §13)",
    ] {
        assert!(text.contains(said), "`{said}` missing: {text}");
    }
    // Acts that cannot be played from the position: refused when raised, not at the ruling.
    let unplayable = CANNON_POSITION.replace("S:discard 8s, N:claim", "S:discard 9m, N:claim");
    let text = raise_on(&t, &unplayable).unwrap_err().to_string();
    assert!(text.contains("cannot be replayed"), "{text}");
}
