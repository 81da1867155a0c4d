//! Properties of every method's plans (quickcheck): every player seated once per session, at
//! tables of the layout's sizes; a seed reproduces the plan.

use quickcheck::{quickcheck, Arbitrary, Gen, TestResult};

use super::*;

/// A small request: 3–40 players, 1–6 sessions, any method and policy, and results for
/// Swiss and progressive.
#[derive(Clone, Debug)]
struct Small(PlanRequest);

impl Arbitrary for Small {
    fn arbitrary(g: &mut Gen) -> Small {
        let players = 3 + u64::arbitrary(g) % 38;
        let sessions = 1 + u64::arbitrary(g) % 6;
        let method = *g.choose(&Method::ALL).unwrap();
        let remainder = *g.choose(&Remainder::ALL).unwrap();
        let played = if method.needs_results() {
            usize::arbitrary(g) % sessions as usize
        } else {
            0
        };
        let results = (0..played)
            .map(|_| (0..players).map(|_| i64::from(i16::arbitrary(g))).collect())
            .collect();
        Small(PlanRequest {
            players,
            sessions,
            method,
            remainder,
            seed: u64::arbitrary(g),
            results,
        })
    }
}

quickcheck! {
    fn every_player_sits_once_a_session_at_tables_of_the_right_size(request: Small) -> TestResult {
        let Ok(plan) = plan(&request.0) else { return TestResult::discard() };
        let expected = if request.0.method.needs_results() {
            request.0.results.len() + 1
        } else {
            request.0.sessions as usize
        };
        TestResult::from_bool(plan.faults().is_empty() && plan.sessions().len() == expected)
    }

    fn a_seed_reproduces_the_plan(request: Small) -> TestResult {
        let Ok(first) = plan(&request.0) else { return TestResult::discard() };
        TestResult::from_bool(plan(&request.0) == Ok(first))
    }

    fn byes_are_taken_in_turn(request: Small) -> TestResult {
        // The random baseline draws its byes with everything else.
        if request.0.method == Method::Random {
            return TestResult::discard();
        }
        let Ok(plan) = plan(&request.0) else { return TestResult::discard() };
        let (least, most) = plan.meetings().byes_range();
        TestResult::from_bool(most - least <= 1)
    }
}

#[test]
fn another_seed_gives_another_plan() {
    for method in [Method::NoRepeat, Method::Random] {
        let a = plan(&PlanRequest::new(20, 4, method, 1)).unwrap();
        let b = plan(&PlanRequest::new(20, 4, method, 2)).unwrap();
        assert_ne!(a.sessions(), b.sessions(), "{method}");
    }
}

#[test]
fn a_request_lists_every_problem() {
    let mut request = PlanRequest::new(2, 0, Method::NoRepeat, 0);
    request.results = vec![vec![0; 2]];
    let e = plan(&request).unwrap_err();
    assert_eq!(e.problems.len(), 4, "{e}");
    let mut request = PlanRequest::new(8, 3, Method::Progressive, 0);
    request.remainder = Remainder::Byes;
    request.results = vec![vec![0; 7]];
    let e = plan(&request).unwrap_err();
    assert_eq!(
        e.problems,
        vec![
            SeatingProblem::ProgressiveByes,
            SeatingProblem::ResultsLength {
                session: 1,
                found: 7,
                expected: 8
            }
        ]
    );
}

/// The best of 1,000 independent shuffles for a size, by repeats.
fn best_of_shuffles(players: u64, sessions: u64) -> u32 {
    (0..1_000)
        .map(|seed| {
            plan(&PlanRequest::new(players, sessions, Method::Random, seed))
                .unwrap()
                .meetings()
                .repeats
        })
        .min()
        .unwrap()
}

#[test]
fn no_repeat_beats_the_best_of_a_thousand_shuffles() {
    for (players, sessions) in [(16, 5), (12, 4), (20, 6)] {
        let optimised = plan(&PlanRequest::new(players, sessions, Method::NoRepeat, 1))
            .unwrap()
            .meetings()
            .repeats;
        let shuffled = best_of_shuffles(players, sessions);
        assert!(
            optimised < shuffled,
            "{players}×{sessions}: no-repeat {optimised}, best shuffle {shuffled}"
        );
    }
}
